//! Reports to render in the renderers' tests.

use super::{LimitsReport, SubmissionReport, Summary, TestReport};
use crate::compile::{CompileReport, CompileStatus};
use crate::verdict::Verdict;

/// A test's report: 3 ms, 1.5 MiB, exit 0.
pub(crate) fn test_report(
    name: &str,
    verdict: Verdict,
    message: &str,
    diff: Option<&str>,
) -> TestReport {
    TestReport {
        verdict,
        time_ms: 3,
        wall_ms: 4,
        memory_kib: 1536,
        message: message.into(),
        diff: diff.map(str::to_string),
        exit_code: Some(0),
        ..TestReport::named(name.into(), "g".into())
    }
}

/// `wa.cpp` on acwing-891, compiled in 412 ms, with these tests.
pub(crate) fn submission_report(tests: Vec<TestReport>, verdict: Verdict) -> SubmissionReport {
    SubmissionReport {
        schema_version: 1,
        problem: "acwing-891".into(),
        submission: "wa.cpp".into(),
        language: "cpp".into(),
        verdict,
        compile: CompileReport {
            status: CompileStatus::Ok,
            message: String::new(),
            time_ms: 412,
            cached: false,
        },
        limits: LimitsReport {
            time_ms: 1000,
            wall_ms: 3000,
            memory_kib: 65536,
            output_kib: 1024,
        },
        isolation: "rlimit".into(),
        isolation_gaps: None,
        summary: Summary::of(&tests),
        tests,
        skipped: vec![],
        skip_reason: None,
    }
}
