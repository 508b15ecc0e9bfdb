//! The results of judging, as data ([`SubmissionReport`], [`TestReport`]), and
//! their renderings: [`human`] text for a terminal and [`json`] lines for tools.
//! Every renderer is a pure function from results to text. The JSON schema is
//! documented in `docs/json-report.md`.

pub mod human;
pub mod json;
pub mod junit;
pub mod printable;
pub mod scoreboard;

pub use printable::{printable, printable_line};

use serde::Serialize;

use crate::compile::CompileReport;
use crate::verdict::Verdict;

/// Version of the JSON report schema; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// Everything known about one submission judged on one problem.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SubmissionReport {
    /// Schema version of this object.
    pub schema_version: u32,
    /// Problem id.
    pub problem: String,
    /// The submission file, as given.
    pub submission: String,
    /// Language id (`cpp`, `python`, `executable`, ...).
    pub language: String,
    /// Overall verdict: the verdict of the first failing test in test order, CE, or AC.
    pub verdict: Verdict,
    /// Compilation.
    pub compile: CompileReport,
    /// Limits the tests ran under.
    pub limits: LimitsReport,
    /// Isolation level and measurement method of the runs (`rlimit`).
    pub isolation: String,
    /// Judged tests, in test order.
    pub tests: Vec<TestReport>,
    /// Tests not run (after the first failure with `--fail-fast`).
    pub skipped: Vec<String>,
    /// Totals.
    pub summary: Summary,
}

/// Limits as reported.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize)]
pub struct LimitsReport {
    /// CPU time limit, ms.
    pub time_ms: u64,
    /// Wall-clock limit, ms.
    pub wall_ms: u64,
    /// Memory limit, KiB.
    pub memory_kib: u64,
    /// Output limit, KiB.
    pub output_kib: u64,
}

/// The result of one test.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct TestReport {
    /// Test name.
    pub name: String,
    /// Group name.
    pub group: String,
    /// Verdict.
    pub verdict: Verdict,
    /// CPU time (user + system), ms.
    pub time_ms: u64,
    /// Wall time, ms.
    pub wall_ms: u64,
    /// Peak memory, KiB.
    pub memory_kib: u64,
    /// Why, in one line (empty on AC).
    pub message: String,
    /// Expected vs got around the first difference (WA/PE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Exit code, when the program exited.
    pub exit_code: Option<i32>,
    /// Signal name, when a signal ended the program.
    pub signal: Option<String>,
    /// The program's output (only with `run --input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Whether this result came from the result cache (the same program,
    /// input, answer, checker, limits and isolation were judged before).
    #[serde(default)]
    pub cached: bool,
}

/// Totals of a submission.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize)]
pub struct Summary {
    /// Tests accepted.
    pub passed: usize,
    /// Tests judged.
    pub total: usize,
    /// Largest CPU time, ms.
    pub max_time_ms: u64,
    /// Largest peak memory, KiB.
    pub max_memory_kib: u64,
}

impl Summary {
    /// Totals over `tests`.
    pub fn of(tests: &[TestReport]) -> Summary {
        Summary {
            passed: tests.iter().filter(|t| t.verdict.is_accepted()).count(),
            total: tests.len(),
            max_time_ms: tests.iter().map(|t| t.time_ms).max().unwrap_or(0),
            max_memory_kib: tests.iter().map(|t| t.memory_kib).max().unwrap_or(0),
        }
    }
}

/// The overall verdict: the first non-AC test in test order, else AC.
pub fn overall_verdict(tests: &[TestReport]) -> Verdict {
    tests
        .iter()
        .map(|t| t.verdict)
        .find(|v| !v.is_accepted())
        .unwrap_or(Verdict::AC)
}
