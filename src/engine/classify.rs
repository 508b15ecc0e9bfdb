//! From a run's outcome and the limits to a verdict: limits first (the run
//! was stopped), then crashes; `None` means the output is to be checked.

use std::time::Duration;

use crate::error::Error;
use crate::problem::ProblemLimits;
use crate::sandbox::{Exit, LimitHit, MemoryEvidence, RunOutcome};
use crate::verdict::Verdict;

/// The wall-clock limit for a CPU time limit.
pub(super) fn wall_limit(time: Duration, factor: f64) -> Duration {
    time.mul_f64(factor).max(time + Duration::from_millis(500))
}

/// Turns a run's outcome into a verdict, or `None` when the output should be
/// checked. Limits come first (the run was stopped), then crashes.
pub(super) fn classify(
    outcome: &RunOutcome,
    limits: &ProblemLimits,
    wall: Duration,
    address_space: bool,
) -> Option<(Verdict, String)> {
    let ms = |d: Duration| d.as_millis();
    if outcome.limit_hit == Some(LimitHit::Output) {
        return Some((
            Verdict::OLE,
            format!(
                "output exceeded the limit of {}",
                crate::units::format_kib(limits.output / 1024)
            ),
        ));
    }
    // A run that failed after a fork was refused failed because of it (a
    // fork bomb reaches every other limit too, whichever comes first).
    if outcome.process_limit_hit && !outcome.success() {
        return Some((
            Verdict::RE,
            format!(
                "tried to create more than {} processes and threads ({}); a submission may not fork without bound",
                crate::sandbox::RUN_PROCESSES,
                outcome.describe_exit()
            ),
        ));
    }
    if outcome.limit_hit == Some(LimitHit::CpuTime) || outcome.cpu_time > limits.time {
        return Some((
            Verdict::TLE,
            format!(
                "CPU time {} ms exceeds the limit of {} ms{}",
                ms(outcome.cpu_time),
                ms(limits.time),
                if outcome.limit_hit.is_some() {
                    " (stopped)"
                } else {
                    ""
                }
            ),
        ));
    }
    // A starved run never gets here: `overloaded` made it an error.
    if outcome.limit_hit == Some(LimitHit::WallTime) {
        // A few ms of run-queue wait is any run's; more is worth saying.
        let waited = match outcome.waited_for_cpu.as_millis() {
            0..100 => String::new(),
            w => format!(", besides {w} ms waiting for a CPU (not counted)"),
        };
        return Some((
            Verdict::TLE,
            format!(
                "wall time exceeds the limit of {} ms with only {} ms of CPU time{waited} (sleeping, or waiting for input?)",
                ms(wall),
                ms(outcome.cpu_time)
            ),
        ));
    }
    let memory_kib = limits.memory / 1024;
    let evidence = outcome.memory_evidence(limits.memory, address_space);
    let (what, found) = match evidence {
        Some(MemoryEvidence::OomKill) => {
            return Some((
                Verdict::MLE,
                format!(
                    "killed at the memory limit of {} (cgroup OOM kill, peak {})",
                    crate::units::format_kib(memory_kib),
                    crate::units::format_kib(outcome.peak_memory_kib)
                ),
            ))
        }
        Some(MemoryEvidence::Peak) => {
            return Some((
                Verdict::MLE,
                format!(
                    "peak memory {} exceeds the limit of {}",
                    crate::units::format_kib(outcome.peak_memory_kib),
                    crate::units::format_kib(memory_kib)
                ),
            ))
        }
        _ if outcome.exit == Exit::Code(0) => return None,
        Some(MemoryEvidence::HeapFull(found)) => ("the runtime's heap is full at", found),
        Some(MemoryEvidence::AllocationFailed(found)) => ("an allocation failed under", found),
        None => ("", ""),
    };
    if !found.is_empty() {
        return Some((
            Verdict::MLE,
            format!(
                "{what} the memory limit of {} ({}, `{found}`)",
                crate::units::format_kib(memory_kib),
                outcome.describe_exit()
            ),
        ));
    }
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    let last = last_meaningful_line(&stderr);
    let last: String = last.chars().take(200).collect();
    let how = outcome.describe_exit();
    Some((
        Verdict::RE,
        if last.is_empty() {
            how
        } else {
            format!("{how}: {last}")
        },
    ))
}

/// A run stopped at the wall limit that was runnable but starved of CPU
/// (for most of its time, or up to the absolute bound) is no verdict: the
/// machine is overloaded. Waiting for a CPU never makes a TLE.
pub(super) fn overloaded(outcome: &RunOutcome, wall: Duration, test: &str) -> Option<Error> {
    let bound = outcome.waited_for_cpu >= wall.saturating_mul(crate::sandbox::STARVED_BOUND - 1);
    (outcome.limit_hit == Some(LimitHit::WallTime) && (starved(outcome, wall) || bound)).then(
        || Error::Overloaded {
            test: test.to_string(),
            waited_ms: outcome.waited_for_cpu.as_millis(),
            wall_ms: wall.as_millis(),
            cpu_ms: outcome.cpu_time.as_millis(),
        },
    )
}

/// Whether a run stopped at the wall limit was runnable for most of it but
/// starved of CPU (an overloaded machine), rather than sleeping.
pub(super) fn starved(outcome: &RunOutcome, wall: Duration) -> bool {
    outcome.waited_for_cpu > Duration::ZERO
        && (outcome.cpu_time + outcome.waited_for_cpu) * 4 >= wall * 3
}

/// The last line of stderr that says something (not a runtime's hint such as
/// Rust's "note: run with `RUST_BACKTRACE=1`").
fn last_meaningful_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("note: run with `RUST_BACKTRACE"))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Captured;

    fn outcome(
        exit: Exit,
        limit_hit: Option<LimitHit>,
        cpu_ms: u64,
        kib: u64,
        stderr: &str,
    ) -> RunOutcome {
        RunOutcome {
            ended_ns: 0,
            waited_for_cpu: Duration::ZERO,
            exit,
            limit_hit,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(cpu_ms + 5),
            peak_memory_kib: kib,
            stdout: Captured::Memory(Vec::new()),
            stderr: stderr.as_bytes().to_vec(),
            stderr_truncated: false,
            memory_exceeded: false,
            process_limit_hit: false,
            keep_error: None,
        }
    }

    const LIMITS: ProblemLimits = ProblemLimits {
        time: Duration::from_secs(1),
        memory: 64 << 20,
        output: 1 << 20,
    };

    fn verdict(o: &RunOutcome) -> Option<Verdict> {
        classify(o, &LIMITS, Duration::from_secs(3), true).map(|(v, _)| v)
    }

    #[test]
    fn classification_table() {
        let cases = [
            (outcome(Exit::Code(0), None, 10, 1000, ""), None),
            (
                outcome(Exit::Signal(9), Some(LimitHit::Output), 10, 1000, ""),
                Some(Verdict::OLE),
            ),
            (
                outcome(Exit::Signal(9), Some(LimitHit::CpuTime), 1010, 1000, ""),
                Some(Verdict::TLE),
            ),
            (
                outcome(Exit::Code(0), None, 1001, 1000, ""),
                Some(Verdict::TLE),
            ),
            (
                outcome(Exit::Signal(9), Some(LimitHit::WallTime), 3, 1000, ""),
                Some(Verdict::TLE),
            ),
            (
                outcome(Exit::Code(0), None, 10, 70_000, ""),
                Some(Verdict::MLE),
            ),
            (
                outcome(
                    Exit::Signal(6),
                    None,
                    10,
                    5000,
                    "terminate called after throwing an instance of 'std::bad_alloc'",
                ),
                Some(Verdict::MLE),
            ),
            (
                outcome(Exit::Code(1), None, 10, 5000, "Traceback...\nMemoryError"),
                Some(Verdict::MLE),
            ),
            (
                outcome(Exit::Signal(11), None, 10, 5000, ""),
                Some(Verdict::RE),
            ),
            (
                outcome(Exit::Code(3), None, 10, 5000, ""),
                Some(Verdict::RE),
            ),
        ];
        for (o, expected) in cases {
            assert_eq!(verdict(&o), expected, "{o:?}");
        }
    }

    /// A runtime whose heap flag is the memory limit reports a full heap:
    /// MLE also where no address-space limit applies (JVM, Node, GHC, .NET).
    #[test]
    fn a_full_runtime_heap_is_mle_without_an_address_space_limit() {
        for stderr in [
            "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
            "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
            "prog: Heap exhausted;\nprog: Current maximum heap size is 67108864 bytes (64 MB).",
            "Unhandled Exception:\nSystem.OutOfMemoryException: Out of memory",
            "PHP Fatal error:  Allowed memory size of 67108864 bytes exhausted",
        ] {
            let o = outcome(Exit::Code(1), None, 10, 5000, stderr);
            let got = classify(&o, &LIMITS, Duration::from_secs(3), false);
            assert_eq!(got.map(|(v, _)| v), Some(Verdict::MLE), "{stderr}");
        }
        // Without the address-space limit a failed allocation of C is not
        // evidence of the memory limit.
        let o = outcome(Exit::Code(1), None, 10, 5000, "std::bad_alloc");
        let got = classify(&o, &LIMITS, Duration::from_secs(3), false);
        assert_eq!(got.map(|(v, _)| v), Some(Verdict::RE));
    }

    /// Stopped at the wall limit: a sleeper is asked about input, a run
    /// that was runnable but waited for a CPU is said to be starved.
    #[test]
    fn a_starved_run_is_told_apart_from_a_sleeping_one() {
        let wall = Duration::from_millis(2500);
        let mut sleeper = outcome(Exit::Signal(9), Some(LimitHit::WallTime), 3, 1000, "");
        sleeper.waited_for_cpu = Duration::from_millis(1);
        let (verdict, message) = classify(&sleeper, &LIMITS, wall, true).unwrap();
        assert_eq!(verdict, Verdict::TLE);
        assert_eq!(
            message,
            "wall time exceeds the limit of 2500 ms with only 3 ms of CPU time (sleeping, or waiting for input?)"
        );
        assert!(overloaded(&sleeper, wall, "t").is_none());
        // Runnable but starved: no verdict at all, an error with its own
        // exit code (issue 37: waiting for a CPU never makes a TLE).
        let mut starved = outcome(Exit::Signal(9), Some(LimitHit::WallTime), 923, 1000, "");
        starved.waited_for_cpu = Duration::from_millis(1500);
        let error = overloaded(&starved, wall, "sample-1").expect("overloaded");
        assert_eq!(error.exit_code(), crate::error::exit_code::OVERLOADED);
        assert!(
            error.to_string().contains("the machine is overloaded"),
            "{error}"
        );
        // Starved to the absolute bound, whatever it slept besides.
        let mut bound = outcome(Exit::Signal(9), Some(LimitHit::WallTime), 3, 1000, "");
        bound.waited_for_cpu = wall * 9;
        assert!(overloaded(&bound, wall, "t").is_some());
        // A sleeper that also waited a little is told both, never "starved".
        let mut both = outcome(Exit::Signal(9), Some(LimitHit::WallTime), 3, 1000, "");
        both.waited_for_cpu = Duration::from_millis(200);
        assert!(overloaded(&both, wall, "t").is_none());
        let (_, message) = classify(&both, &LIMITS, wall, true).unwrap();
        assert_eq!(
            message,
            "wall time exceeds the limit of 2500 ms with only 3 ms of CPU time, besides 200 ms waiting for a CPU (not counted) (sleeping, or waiting for input?)"
        );
    }

    #[test]
    fn messages_name_the_cause() {
        let m = |o: RunOutcome| {
            classify(&o, &LIMITS, Duration::from_secs(3), true)
                .unwrap()
                .1
        };
        assert_eq!(
            m(outcome(Exit::Signal(11), None, 10, 5000, "")),
            "killed by SIGSEGV"
        );
        assert_eq!(
            m(outcome(
                Exit::Code(1),
                None,
                10,
                5000,
                "Traceback\nZeroDivisionError: division by zero\n"
            )),
            "exit code 1: ZeroDivisionError: division by zero"
        );
        assert_eq!(
            m(outcome(
                Exit::Code(101),
                None,
                10,
                5000,
                "thread 'main' panicked at src/main.rs:3:5:\nindex out of bounds\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
            )),
            "exit code 101: index out of bounds"
        );
        assert_eq!(
            m(outcome(Exit::Code(0), None, 1500, 5000, "")),
            "CPU time 1500 ms exceeds the limit of 1000 ms"
        );
        assert_eq!(
            m(outcome(Exit::Code(0), None, 10, 70_000, "")),
            "peak memory 68.4 MiB exceeds the limit of 64.0 MiB"
        );
    }

    #[test]
    fn a_refused_fork_explains_a_failed_run() {
        let forked = |exit, limit_hit, cpu_ms, memory_exceeded| {
            let mut o = outcome(exit, limit_hit, cpu_ms, 64 << 10, "");
            o.memory_exceeded = memory_exceeded;
            o.process_limit_hit = true;
            classify(&o, &LIMITS, Duration::from_secs(3), true)
        };
        // A fork bomb stopped by the OOM killer or the CPU limit is RE for
        // its processes, whichever limit it reached first.
        for o in [
            forked(Exit::Signal(9), None, 300, true),
            forked(Exit::Signal(9), Some(LimitHit::CpuTime), 1010, false),
        ] {
            let (verdict, message) = o.expect("a verdict");
            assert_eq!(verdict, Verdict::RE);
            assert!(
                message.starts_with("tried to create more than 128 processes"),
                "{message}"
            );
        }
        // A program that survives a refused fork and exits cleanly is judged
        // on its output.
        assert_eq!(forked(Exit::Code(0), None, 10, false), None);
    }

    #[test]
    fn wall_limit_has_a_floor() {
        assert_eq!(
            wall_limit(Duration::from_secs(1), 3.0),
            Duration::from_secs(3)
        );
        assert_eq!(
            wall_limit(Duration::from_millis(100), 1.0),
            Duration::from_millis(600)
        );
    }
}
