//! A test set ready to judge: inputs and answers that exist, in order.

use std::path::PathBuf;

use crate::cache::Key;

/// One test: an input and (usually) its answer.
#[derive(Debug, Clone)]
pub(crate) struct TestCase {
    /// Name (`sample-1`, `random-3`).
    pub(crate) name: String,
    /// Group name.
    pub(crate) group: String,
    /// The input file.
    pub(crate) input: PathBuf,
    /// Identity of the input's content.
    pub(crate) input_key: Key,
    /// The answer file, if there is one.
    pub(crate) answer: Option<PathBuf>,
    /// Arguments for the checker on this test (its group's).
    pub(crate) checker_args: Vec<String>,
}

/// A problem's tests in order.
#[derive(Debug, Clone)]
pub(crate) struct TestSet {
    /// The tests.
    pub(crate) tests: Vec<TestCase>,
    /// What went wrong making them that does not stop judging (an input
    /// validator that could not run), for people to see.
    pub(crate) warnings: Vec<String>,
}
