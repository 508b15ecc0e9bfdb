//! Results near the time limit, which the machine's load could have
//! decided: which are judged again alone, and how their runs decide.
//!
//! A test runs under a CPU limit [`OVER`] past the problem's, so a TLE says
//! how far over it went; a TLE within that margin, or an AC within [`UNDER`]
//! of the limit, is judged again with no other run of this judge beside it,
//! up to [`TRIES`] runs in all, and the run with the least CPU time decides
//! (CPU time only grows under contention) — unless every run was TLE: then
//! the one with the most, the tightest bound from below on the program's
//! time (a run stopped at its CPU limit says only "at least that").

use std::time::Duration;

use crate::report::TestReport;
use crate::verdict::Verdict;

/// How far over the limit a TLE is judged again (a share of the limit).
pub(super) const OVER: f64 = 0.25;
/// How far under the limit an AC is judged again (a share of the limit).
pub(super) const UNDER: f64 = 0.2;
/// Runs of a test near the limit, the first included.
pub(super) const TRIES: usize = 3;
/// The most slowdown the margin of a confirming run grows by: a machine
/// measured slower still is taken as this slow (so that a run ends).
pub(super) const MOST_SLOWDOWN: f64 = 2.0;

/// The CPU limit a test runs under: the problem's plus the margin (or up
/// to `factor` of it, when larger), so that a TLE within the margin is told
/// from one far over it.
pub(super) fn run_cpu_limit(limit: Duration, factor: Option<f64>) -> Duration {
    limit.mul_f64(factor.unwrap_or(0.0).max(1.0 + OVER))
}

/// The CPU limit of a run that confirms a result alone on a machine
/// measured `slowdown` x slower than its calibration: the margin past the
/// limit grows with it, so that a program clearly over the limit is seen
/// to be, slowed as it is.
pub(super) fn confirming_cpu_limit(cap: Duration, limit: Duration, slowdown: f64) -> Duration {
    cap.max(run_cpu_limit(limit, None).mul_f64(slowdown.clamp(1.0, MOST_SLOWDOWN)))
}

/// Whether a TLE is one the machine's slowdown (at most [`MOST_SLOWDOWN`])
/// could explain: over the limit on CPU time (not a sleeper stopped by the
/// wall limit), and within it once divided by the slowdown (a program
/// within the limit, slowed that much, would take that long).
pub(super) fn unclear_tle(report: &TestReport, limit: Duration, slowdown: f64) -> bool {
    let cpu = Duration::from_millis(report.time_ms);
    let slowdown = slowdown.clamp(1.0, MOST_SLOWDOWN);
    report.verdict == Verdict::TLE && cpu >= limit && cpu.div_f64(slowdown) <= limit
}

/// Whether a test's result is near enough its time limit that the load
/// could have decided it.
pub(super) fn near_limit(report: &TestReport, limit: Duration) -> bool {
    let cpu = Duration::from_millis(report.time_ms);
    let from = limit.mul_f64(1.0 - UNDER);
    match report.verdict {
        Verdict::TLE => cpu >= from && cpu < run_cpu_limit(limit, None),
        Verdict::AC => cpu >= from,
        _ => false,
    }
}

/// Whether a test's result is a TLE past the limit's margin on CPU time
/// (not a sleeper stopped by the wall limit): the program's on a machine as
/// fast as its calibration, perhaps the load's on one measured slower.
pub(super) fn over_limit(report: &TestReport, limit: Duration) -> bool {
    report.verdict == Verdict::TLE
        && Duration::from_millis(report.time_ms) >= run_cpu_limit(limit, None)
}

/// What a round of runs confirming a result saw of the machine.
pub(super) struct Round {
    /// The machine's slowdown before the runs (their CPU limit grew by it).
    pub(super) before: f64,
    /// The machine's slowdown, the larger of before and after the runs.
    pub(super) slowdown: f64,
    /// Whether a confirming run could not get a CPU.
    pub(super) starved: bool,
    /// Whether no other judge's program ran beside them.
    pub(super) alone: bool,
}

/// What the decided result of a round of confirming runs comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Settled {
    /// The machine was as fast as its calibration, or the result was not
    /// one the load could decide: final.
    Clear,
    /// A result the load could have decided, on a contended machine:
    /// marked so, never cached.
    Contended,
    /// A TLE that the slowdown could explain (a program within the limit,
    /// slowed that much, would take that long), on a contended machine:
    /// marked contended and said so, never cached.
    Explained,
}

/// Settles the decided result of runs confirming it: a TLE is explained
/// by the load only against the slowdown its runs' CPU limit was set by (a
/// run stopped there never is, however the machine measured afterwards).
pub(super) fn settle(report: &TestReport, limit: Duration, round: &Round) -> Settled {
    let contended = round.slowdown > super::contention::CONTENDED || round.starved || !round.alone;
    if !contended {
        Settled::Clear
    } else if unclear_tle(report, limit, round.before) {
        Settled::Explained
    } else if near_limit(report, limit) || over_limit(report, limit) {
        Settled::Contended
    } else {
        Settled::Clear
    }
}

/// Which of a test's runs decides: the one with the least CPU time, or,
/// when every run was TLE, the one with the most.
pub(super) fn deciding(runs: &[TestReport]) -> &TestReport {
    let all_tle = runs.iter().all(|r| r.verdict == Verdict::TLE);
    let run = match all_tle {
        true => runs.iter().max_by_key(|r| r.time_ms),
        false => runs.iter().min_by_key(|r| r.time_ms),
    };
    run.expect("at least one run")
}

/// The result of a test judged `runs.len()` times: the [`deciding`] run,
/// carrying every run's times.
pub(super) fn decide(runs: Vec<TestReport>) -> TestReport {
    let times: Vec<_> = runs.iter().flat_map(|r| r.runs.iter().copied()).collect();
    let mut best = deciding(&runs).clone();
    best.runs = times;
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(verdict: Verdict, ms: u64) -> TestReport {
        TestReport {
            verdict,
            time_ms: ms,
            runs: vec![crate::report::submission::RunTimes {
                cpu_ms: ms,
                wall_ms: ms,
            }],
            ..TestReport::named("t".into(), "g".into())
        }
    }

    #[test]
    fn only_results_the_load_could_have_decided_are_near_the_limit() {
        let limit = Duration::from_secs(1);
        for (verdict, ms, near) in [
            (Verdict::AC, 500, false),
            (Verdict::AC, 790, false),
            (Verdict::AC, 800, true),
            (Verdict::AC, 1000, true),
            (Verdict::TLE, 1100, true),
            (Verdict::TLE, 1249, true),
            // Stopped at the margin: far over, whatever the load.
            (Verdict::TLE, 1260, false),
            // A sleeper, stopped by the wall limit.
            (Verdict::TLE, 3, false),
            (Verdict::WA, 950, false),
        ] {
            assert_eq!(
                near_limit(&report(verdict, ms), limit),
                near,
                "{verdict:?} {ms}"
            );
        }
    }

    #[test]
    fn only_a_tle_past_the_margin_on_cpu_time_is_over_the_limit() {
        let limit = Duration::from_secs(1);
        for (verdict, ms, over) in [
            (Verdict::TLE, 1260, true),
            (Verdict::TLE, 1250, true),
            // Near: judged again alone whatever the load.
            (Verdict::TLE, 1100, false),
            // A sleeper, stopped by the wall limit.
            (Verdict::TLE, 3, false),
            (Verdict::RE, 1300, false),
        ] {
            assert_eq!(
                over_limit(&report(verdict, ms), limit),
                over,
                "{verdict:?} {ms}"
            );
        }
    }

    #[test]
    fn a_tle_is_unclear_only_when_the_slowdown_could_explain_it() {
        let limit = Duration::from_secs(1);
        for (verdict, ms, slowdown, unclear) in [
            // 1.2 s on a machine 1.3 x slower: 0.92 s quiet, perhaps.
            (Verdict::TLE, 1200, 1.3, true),
            (Verdict::TLE, 1300, 1.3, true),
            (Verdict::TLE, 1400, 1.3, false),
            // Taken as at most MOST_SLOWDOWN x slower.
            (Verdict::TLE, 1900, 1e6, true),
            (Verdict::TLE, 2100, 1e6, false),
            // A quiet machine explains nothing.
            (Verdict::TLE, 1100, 1.0, false),
            (Verdict::TLE, 1100, 0.9, false),
            // A sleeper, stopped by the wall limit.
            (Verdict::TLE, 3, 2.0, false),
            (Verdict::AC, 950, 2.0, false),
        ] {
            assert_eq!(
                unclear_tle(&report(verdict, ms), limit, slowdown),
                unclear,
                "{verdict:?} {ms} {slowdown}"
            );
        }
    }

    #[test]
    fn a_confirmed_result_settles_by_the_slowdown_that_set_its_runs_limit() {
        let limit = Duration::from_secs(1);
        let round = |before: f64, after: f64, starved: bool, alone: bool| Round {
            before,
            slowdown: before.max(after),
            starved,
            alone,
        };
        for (verdict, ms, r, settled) in [
            // Quiet: whatever it is, it is final.
            (
                Verdict::TLE,
                1100,
                round(1.0, 1.05, false, true),
                Settled::Clear,
            ),
            (
                Verdict::AC,
                950,
                round(1.0, 1.0, false, true),
                Settled::Clear,
            ),
            // 1.1 s on a machine 1.3 x slower: perhaps 0.85 s quiet.
            (
                Verdict::TLE,
                1100,
                round(1.3, 1.3, false, true),
                Settled::Explained,
            ),
            // Stopped at 1.25 x 1.2: clear against 1.2, though the machine
            // measured 3 x slower afterwards (seen in the VM).
            (
                Verdict::TLE,
                1500,
                round(1.2, 3.0, false, true),
                Settled::Contended,
            ),
            // Near the limit and contended: marked.
            (
                Verdict::AC,
                950,
                round(1.3, 1.3, false, true),
                Settled::Contended,
            ),
            (
                Verdict::AC,
                950,
                round(1.0, 1.0, true, true),
                Settled::Contended,
            ),
            (
                Verdict::AC,
                950,
                round(1.0, 1.0, false, false),
                Settled::Contended,
            ),
            // Far under the limit: the load decided nothing.
            (
                Verdict::AC,
                300,
                round(2.0, 2.0, false, true),
                Settled::Clear,
            ),
            // Not alone, a machine as fast as its calibration: a TLE over
            // the limit is not explained by a slowdown of 1.
            (
                Verdict::TLE,
                1100,
                round(1.0, 1.0, false, false),
                Settled::Contended,
            ),
        ] {
            assert_eq!(
                settle(&report(verdict, ms), limit, &r),
                settled,
                "{verdict:?} {ms} {}/{}",
                r.before,
                r.slowdown
            );
        }
    }

    #[test]
    fn confirming_runs_go_past_the_margin_by_the_slowdown() {
        let limit = Duration::from_secs(1);
        let cap = run_cpu_limit(limit, None);
        assert_eq!(confirming_cpu_limit(cap, limit, 1.0), cap);
        assert_eq!(confirming_cpu_limit(cap, limit, 0.8), cap);
        assert_eq!(
            confirming_cpu_limit(cap, limit, 1.6),
            Duration::from_millis(2000)
        );
        // A run measured up to a higher limit keeps it.
        let high = Duration::from_secs(3);
        assert_eq!(confirming_cpu_limit(high, limit, 1.6), high);
        // A probe against an impossible calibration does not make it endless.
        assert_eq!(
            confirming_cpu_limit(cap, limit, 1e6),
            Duration::from_millis(2500)
        );
    }

    #[test]
    fn the_least_cpu_time_decides_and_every_run_is_kept() {
        let best = decide(vec![
            report(Verdict::TLE, 1100),
            report(Verdict::AC, 930),
            report(Verdict::TLE, 1020),
        ]);
        assert_eq!((best.verdict, best.time_ms), (Verdict::AC, 930));
        let cpu: Vec<_> = best.runs.iter().map(|r| r.cpu_ms).collect();
        assert_eq!(cpu, [1100, 930, 1020]);
    }

    /// A run stopped at a lower CPU limit does not make a TLE look nearer
    /// the limit than a run allowed to go further showed it to be.
    #[test]
    fn when_every_run_is_tle_the_most_cpu_time_decides() {
        let best = decide(vec![
            report(Verdict::TLE, 1250),
            report(Verdict::TLE, 2400),
            report(Verdict::TLE, 2300),
        ]);
        assert_eq!((best.verdict, best.time_ms), (Verdict::TLE, 2400));
        assert_eq!(best.runs.len(), 3);
    }
}
