//! A judged submission as data: [`SubmissionReport`] with a [`TestReport`]
//! per test (the JSON of `judge run --format json`, schema
//! [`SCHEMA_VERSION`], documented in docs/json-report.md).

use serde::Serialize;

use crate::compile::CompileReport;
use crate::sandbox::{self, Exit, RunOutcome};
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// Version of the JSON report schema; bumped on any incompatible change.
pub(crate) const SCHEMA_VERSION: u32 = 1;

/// Everything known about one submission judged on one problem.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub(crate) struct SubmissionReport {
    /// Schema version of this object.
    pub(crate) schema_version: u32,
    /// Problem id.
    pub(crate) problem: String,
    /// The submission file, as given.
    pub(crate) submission: String,
    /// Language id (`cpp`, `python`, `executable`, ...).
    pub(crate) language: String,
    /// Overall verdict: the verdict of the first failing test in test order, CE, or AC.
    pub(crate) verdict: Verdict,
    /// Compilation.
    pub(crate) compile: CompileReport,
    /// Limits the tests ran under.
    pub(crate) limits: LimitsReport,
    /// Isolation level of the runs (`cgroup-v1`, `cgroup-v2`, `namespaces`, `rlimit-only`).
    pub(crate) isolation: String,
    /// What the level does not protect, when `--isolation auto` fell back
    /// to a level weaker than full (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) isolation_gaps: Option<String>,
    /// Judged tests, in test order.
    pub(crate) tests: Vec<TestReport>,
    /// Tests not run, in test order.
    pub(crate) skipped: Vec<String>,
    /// Why the `skipped` tests were not run (none when all ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) skip_reason: Option<SkipReason>,
    /// Totals.
    pub(crate) summary: Summary,
}

/// Why tests were not run: they could not change the verdict (or score).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SkipReason {
    /// The program did not compile.
    CompileError,
    /// An earlier test failed: the verdict was decided (lazy judging).
    AfterFailure,
    /// An earlier test of the same group (subtask) failed: its points were
    /// lost; the other groups ran.
    AfterFailureInGroup,
    /// The judge failed on the submission (IE): why is in `compile.message`.
    JudgeFailed,
}

impl SkipReason {
    /// For reports: why they were not run.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            SkipReason::CompileError => "it did not compile",
            SkipReason::AfterFailure => "an earlier test failed, which decided the verdict",
            SkipReason::AfterFailureInGroup => {
                "an earlier test of their subtask failed, which lost its points"
            }
            SkipReason::JudgeFailed => "the judge failed on this submission",
        }
    }
}

/// Limits as reported.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize)]
pub(crate) struct LimitsReport {
    /// CPU time limit, ms.
    pub(crate) time_ms: u64,
    /// Wall-clock limit, ms.
    pub(crate) wall_ms: u64,
    /// Memory limit, KiB.
    pub(crate) memory_kib: u64,
    /// Output limit, KiB.
    pub(crate) output_kib: u64,
}

/// The result of one test.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub(crate) struct TestReport {
    /// Test name.
    pub(crate) name: String,
    /// Group name.
    pub(crate) group: String,
    /// Verdict.
    pub(crate) verdict: Verdict,
    /// CPU time (user + system), ms.
    pub(crate) time_ms: u64,
    /// Wall time, ms.
    pub(crate) wall_ms: u64,
    /// Peak memory, KiB.
    pub(crate) memory_kib: u64,
    /// CPU time as a share of the time limit, percent (over 100 past it).
    #[serde(default)]
    pub(crate) limit_percent: u32,
    /// Every run of the test, in order: more than one when a result near
    /// the limit was judged again alone (the least CPU time decides).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) runs: Vec<RunTimes>,
    /// Near or over the limit and judged while the machine measured slower than its
    /// calibration: the verdict may be the load's (never cached as final).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) contended: bool,
    /// With `contended`: how much slower the machine measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) slowdown: Option<f64>,
    /// Why, in one line (empty on AC).
    pub(crate) message: String,
    /// Expected vs got around the first difference (WA/PE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) diff: Option<String>,
    /// Exit code, when the program exited.
    pub(crate) exit_code: Option<i32>,
    /// Signal name, when a signal ended the program.
    pub(crate) signal: Option<String>,
    /// The program's output (only with `run --input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) output: Option<String>,
    /// Whether this result came from the result cache (the same program,
    /// input, answer, checker, limits and isolation were judged before).
    #[serde(default)]
    pub(crate) cached: bool,
    /// The points the checker gave, when it gives points (testlib's
    /// `quitp`, an output validator's `score.txt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) score: Option<f64>,
    /// On a failed test of an interactive problem, the last lines each side
    /// sent, oldest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) interaction: Option<Vec<InteractionLine>>,
    /// The program ran without error but its output was not checked: there
    /// was no answer to compare it with (`run --input` on a problem without
    /// a reference).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) unchecked: bool,
    /// On a failed test, where its input is and how it begins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) input: Option<ShownInput>,
}

impl TestReport {
    /// The report of `test` before it is judged: accepted, nothing measured.
    pub(crate) fn of(test: &TestCase) -> TestReport {
        TestReport::named(test.name.clone(), test.group.clone())
    }

    /// The report of the test `name` of `group` before it is judged:
    /// accepted, nothing measured.
    pub(crate) fn named(name: String, group: String) -> TestReport {
        TestReport {
            name,
            group,
            verdict: Verdict::AC,
            time_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            limit_percent: 0,
            runs: Vec::new(),
            contended: false,
            slowdown: None,
            message: String::new(),
            diff: None,
            exit_code: None,
            signal: None,
            output: None,
            cached: false,
            score: None,
            interaction: None,
            unchecked: false,
            input: None,
        }
    }

    /// Takes what a run of the program measured: its CPU and wall time, its
    /// peak memory and how it ended.
    pub(crate) fn measured(&mut self, outcome: &RunOutcome, time_limit: std::time::Duration) {
        self.time_ms = outcome.cpu_time.as_millis() as u64;
        self.wall_ms = outcome.wall_time.as_millis() as u64;
        self.limit_percent = limit_percent(outcome.cpu_time, time_limit);
        self.runs = vec![RunTimes {
            cpu_ms: self.time_ms,
            wall_ms: self.wall_ms,
        }];
        self.memory_kib = outcome.peak_memory_kib;
        match outcome.exit {
            Exit::Code(c) => self.exit_code = Some(c),
            Exit::Signal(s) => self.signal = Some(sandbox::signal_name(s)),
        }
    }
}

/// The times of one run of a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub(crate) struct RunTimes {
    /// CPU time, ms.
    pub(crate) cpu_ms: u64,
    /// Wall time, ms.
    pub(crate) wall_ms: u64,
}

/// `cpu` as a share of `limit`, percent, rounded.
pub(crate) fn limit_percent(cpu: std::time::Duration, limit: std::time::Duration) -> u32 {
    match limit.as_micros() {
        0 => 0,
        l => ((cpu.as_micros() * 100 + l / 2) / l).min(u32::MAX as u128) as u32,
    }
}

/// The input of a failed test, shown so that it can be read and run again.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub(crate) struct ShownInput {
    /// The file (relative to the current directory when inside it).
    pub(crate) path: String,
    /// Its size, bytes.
    pub(crate) bytes: u64,
    /// Its number of lines.
    pub(crate) lines: u64,
    /// Its first lines (at most [`ShownInput::MAX_LINES`] and
    /// [`ShownInput::MAX_BYTES`]).
    pub(crate) head: String,
}

impl ShownInput {
    /// Lines of an input shown at most.
    pub(crate) const MAX_LINES: usize = 10;
    /// Bytes of an input shown at most.
    pub(crate) const MAX_BYTES: usize = 1024;

    /// Whether `head` is all of it.
    pub(crate) fn whole(&self) -> bool {
        self.head.len() as u64 == self.bytes
    }
}

/// A line of an interaction.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub(crate) struct InteractionLine {
    /// Who sent it: `submission` or `interactor`.
    pub(crate) side: String,
    /// The line, without its newline (cut when very long).
    pub(crate) line: String,
}

/// Totals of a submission.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize)]
pub(crate) struct Summary {
    /// Tests accepted.
    pub(crate) passed: usize,
    /// Tests judged.
    pub(crate) total: usize,
    /// Largest CPU time, ms.
    pub(crate) max_time_ms: u64,
    /// Largest peak memory, KiB.
    pub(crate) max_memory_kib: u64,
    /// Tests that ran but whose output nothing checked (no answer).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) unchecked: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// Totals over `tests`.
    pub(crate) fn of(tests: &[TestReport]) -> Summary {
        Summary {
            passed: tests.iter().filter(|t| t.verdict.is_accepted()).count(),
            total: tests.len(),
            max_time_ms: tests.iter().map(|t| t.time_ms).max().unwrap_or(0),
            max_memory_kib: tests.iter().map(|t| t.memory_kib).max().unwrap_or(0),
            unchecked: tests.iter().filter(|t| t.unchecked).count(),
        }
    }
}

/// The overall verdict: the first non-AC test in test order, else AC.
pub(crate) fn overall_verdict(tests: &[TestReport]) -> Verdict {
    tests
        .iter()
        .map(|t| t.verdict)
        .find(|v| !v.is_accepted())
        .unwrap_or(Verdict::AC)
}
