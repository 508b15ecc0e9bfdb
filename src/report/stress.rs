//! The result of `judge stress` as data ([`StressReport`], also the JSON of
//! `--format json`) and its progress ([`Progress`]); `render::stress` shows them.

use std::path::PathBuf;

use serde::Serialize;

use crate::verdict::Verdict;

/// Where a stress run is, as reported about once a second.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Progress {
    /// Looking for a failing input.
    Searching {
        /// Iterations finished.
        done: u64,
        /// Of which invalid (skipped).
        invalid: u64,
        /// Iterations per second so far.
        per_second: f64,
        /// Size of the latest iteration started (`None` when the generator
        /// arguments have no `{size}`).
        size: Option<u64>,
    },
    /// Shrinking the failing input.
    Shrinking {
        /// Candidates evaluated.
        tried: usize,
        /// Bytes of the smallest failing input so far.
        smallest: usize,
    },
}

/// The result of a stress run (also the JSON object of `--format json`).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct StressReport {
    /// Schema version (shared with the run report).
    pub(crate) schema_version: u32,
    /// Problem id.
    pub(crate) problem: String,
    /// The file stressed, as given.
    pub(crate) submission: String,
    /// Its language id.
    pub(crate) language: String,
    /// Its language's name, for people.
    #[serde(skip)]
    pub(crate) language_name: String,
    /// `reference`, `brute`, or the other file as given.
    pub(crate) against: String,
    /// The seed given (`--seed`).
    pub(crate) seed: u64,
    /// Iterations finished (passed, invalid and failed).
    pub(crate) iterations: u64,
    /// Iterations whose input the validator rejected (or, against the brute
    /// force, that fell outside its bounds): skipped.
    pub(crate) invalid: u64,
    /// Wall time of the search (without shrinking), ms.
    pub(crate) elapsed_ms: u64,
    /// Iterations per second during the search.
    pub(crate) iterations_per_second: f64,
    /// Largest size reached (`None` without `{size}` in the arguments).
    pub(crate) max_size: Option<u64>,
    /// The largest size the generator accepts, when it refused a larger one.
    pub(crate) size_cap: Option<u64>,
    /// The first failing input and its shrunk form; `None` when none was found.
    pub(crate) counterexample: Option<Counterexample>,
}

/// A failing input, before and after shrinking.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Counterexample {
    /// The iteration that found it, from 1.
    pub(crate) iteration: u64,
    /// Its size (`None` without `{size}`).
    pub(crate) size: Option<u64>,
    /// The seed of that iteration (derived from `--seed` and the iteration).
    pub(crate) iteration_seed: u64,
    /// The generator arguments that produce the original.
    pub(crate) generator_args: Vec<String>,
    /// How the file failed (the minimal input fails the same way).
    pub(crate) verdict: Verdict,
    /// The generated input.
    pub(crate) original: InputSummary,
    /// The shrunk input.
    pub(crate) minimal: InputSummary,
    /// How shrinking went.
    pub(crate) shrink: ShrinkSummary,
    /// The expected output on the minimal input (first 64 KiB).
    pub(crate) expected: String,
    /// The file's output on the minimal input (first 64 KiB).
    pub(crate) actual: String,
    /// The checker's (or the runner's) message on the minimal input.
    pub(crate) message: String,
    /// Expected vs got around the first difference, on WA/PE.
    pub(crate) diff: Option<String>,
    /// Where the minimal input was written (filled in by the caller).
    pub(crate) saved: Option<PathBuf>,
    /// The command that replays it (filled in by the caller).
    pub(crate) replay: Option<String>,
    /// On an interactive problem, the last lines of the interaction on the
    /// minimal input (`expected` and `actual` are empty then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) interaction: Option<Vec<crate::report::InteractionLine>>,
}

/// An input and its size.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct InputSummary {
    /// The text (lossy UTF-8).
    pub(crate) input: String,
    /// Bytes.
    pub(crate) bytes: usize,
    /// Lines.
    pub(crate) lines: usize,
    /// Whitespace-separated tokens.
    pub(crate) tokens: usize,
}

impl InputSummary {
    pub(crate) fn of(bytes: &[u8]) -> InputSummary {
        let text = String::from_utf8_lossy(bytes).into_owned();
        InputSummary {
            bytes: bytes.len(),
            lines: text.lines().count(),
            tokens: text.split_whitespace().count(),
            input: text,
        }
    }
}

/// How shrinking went.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ShrinkSummary {
    /// The changes kept, in order.
    pub(crate) steps: Vec<String>,
    /// Candidates evaluated.
    pub(crate) candidates_tried: usize,
    /// Whether no smaller candidate fails (false when the budget of
    /// candidates ran out, or the input is not UTF-8 text).
    pub(crate) complete: bool,
}
