//! The result of `judge verify` as data ([`VerifyReport`], also the JSON of
//! `--format json`) and as text: Polygon's invocation matrix ([`render_human`]).

use serde::Serialize;

use super::SubmissionReport;
use crate::verdict::Verdict;

/// The verification of one package.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct VerifyReport {
    /// Schema version (shared with the run report).
    pub(crate) schema_version: u32,
    /// Problem id.
    pub(crate) problem: String,
    /// Whether everything holds.
    pub(crate) ok: bool,
    /// What does not hold, one line each (empty when ok).
    pub(crate) failures: Vec<String>,
    /// Test names in order (all validated).
    pub(crate) tests: Vec<String>,
    /// The brute-force comparison, when the package has a brute force.
    pub(crate) brute: Option<BruteReport>,
    /// Every declared solution (the reference first) with its expectation.
    pub(crate) solutions: Vec<SolutionResult>,
    /// What was not checked, or was read but not used, for people to know.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) notes: Vec<String>,
}

/// Reference against brute force.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BruteReport {
    /// What the brute force covers.
    pub(crate) covers: String,
    /// Tests inside the bounds, compared.
    pub(crate) tests_compared: usize,
    /// Extra random small inputs compared.
    pub(crate) random_compared: usize,
    /// Disagreements, one line each.
    pub(crate) disagreements: Vec<String>,
}

/// A solution's result against its expectation.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SolutionResult {
    /// Verdicts it may get.
    pub(crate) expected: Vec<Verdict>,
    /// Whether it got one of them.
    pub(crate) ok: bool,
    /// Whether its verdict depends on the time limit (problemtools'
    /// "sensitive to time limit"): the reason is among the notes.
    pub(crate) time_sensitive: bool,
    /// Its slowest test against the time limit (none when nothing ran).
    pub(crate) slowest: Option<SlowestTest>,
    /// The full run report.
    pub(crate) report: SubmissionReport,
}

/// A solution's slowest test: the margin a setter sees.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SlowestTest {
    /// The test.
    pub(crate) test: String,
    /// Its CPU time, ms.
    pub(crate) time_ms: u64,
    /// The time limit the solution ran under, ms.
    pub(crate) limit_ms: u64,
}

impl SlowestTest {
    /// The slowest of the tests `report` ran (the first of equals).
    pub(crate) fn of(report: &SubmissionReport) -> Option<SlowestTest> {
        let slowest = report.tests.iter().rev().max_by_key(|t| t.time_ms)?;
        Some(SlowestTest {
            test: slowest.name.clone(),
            time_ms: slowest.time_ms,
            limit_ms: report.limits.time_ms,
        })
    }

    /// Its time as a whole percentage of the limit.
    pub(crate) fn percent(&self) -> u64 {
        (self.time_ms * 100).div_ceil(self.limit_ms.max(1))
    }
}
