//! The ICPC problem package format (Kattis, DOMjudge, problemtools,
//! BAPCtools): [`load`] reads one into a [`crate::problem::Problem`].
//! docs/problem-format.md maps each feature onto judge's model.

mod data;
mod generators;
mod load;
mod submissions;
mod yaml;

pub(crate) use load::{is_package, load, SPEC_FILE};

/// The versions of the format, as far as judge tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    /// No `problem_format_version`, or `legacy`.
    Legacy,
    /// `2023-07-draft` or `2023-07`, read by problemtools with the legacy
    /// rules for submissions.
    Draft,
    /// `2025-09`, the draft as published: `required`/`permitted` verdicts.
    Modern,
}
