//! Results near the time limit, which the machine's load could have
//! decided: which are judged again alone, and how their runs decide.
//!
//! A test runs under a CPU limit [`OVER`] past the problem's, so a TLE says
//! how far over it went; a TLE within that margin, or an AC within [`UNDER`]
//! of the limit, is judged again with no other run of this judge beside it,
//! up to [`TRIES`] runs in all, and the run with the least CPU time decides
//! (CPU time only grows under contention).

use std::time::Duration;

use crate::report::TestReport;
use crate::verdict::Verdict;

/// How far over the limit a TLE is judged again (a share of the limit).
pub(super) const OVER: f64 = 0.25;
/// How far under the limit an AC is judged again (a share of the limit).
pub(super) const UNDER: f64 = 0.2;
/// Runs of a test near the limit, the first included.
pub(super) const TRIES: usize = 3;

/// The CPU limit a test runs under: the problem's plus the margin (or up
/// to `factor` of it, when larger), so that a TLE within the margin is told
/// from one far over it.
pub(super) fn run_cpu_limit(limit: Duration, factor: Option<f64>) -> Duration {
    limit.mul_f64(factor.unwrap_or(0.0).max(1.0 + OVER))
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

/// The result of a test judged `runs.len()` times: the run with the least
/// CPU time, carrying every run's times.
pub(super) fn least_cpu(runs: Vec<TestReport>) -> TestReport {
    let times: Vec<_> = runs.iter().flat_map(|r| r.runs.iter().copied()).collect();
    let mut best = runs
        .into_iter()
        .min_by_key(|r| r.time_ms)
        .expect("at least one run");
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
    fn the_least_cpu_time_decides_and_every_run_is_kept() {
        let best = least_cpu(vec![
            report(Verdict::TLE, 1100),
            report(Verdict::AC, 930),
            report(Verdict::TLE, 1020),
        ]);
        assert_eq!((best.verdict, best.time_ms), (Verdict::AC, 930));
        let cpu: Vec<_> = best.runs.iter().map(|r| r.cpu_ms).collect();
        assert_eq!(cpu, [1100, 930, 1020]);
    }
}
