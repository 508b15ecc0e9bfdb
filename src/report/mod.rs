//! The results of judging as data ([`SubmissionReport`], [`TestReport`], and
//! those of `stress` and `verify`), and every rendering of them: what
//! `judge run` prints as it goes ([`stream`], with [`human`] lines), JSON
//! ([`json`]), JUnit ([`junit`]), scoreboards ([`scoreboard`]), and the
//! outputs of `verify`, `stress`, `list`, `gen` and `listen`. Renderers are pure
//! functions from results to text; the commands only choose and print them.
//! The JSON schema is documented in `docs/json-report.md`.

#[cfg(test)]
mod fixtures;
mod format;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod list;
pub(crate) mod listen;
pub(crate) mod scoreboard;
pub(crate) mod stream;
pub(crate) mod stress;
mod submission;
pub(crate) mod verify;

pub(crate) use format::Format;
pub(crate) use submission::{
    overall_verdict, InteractionLine, LimitsReport, ShownInput, SkipReason, SubmissionReport,
    Summary, TestReport, SCHEMA_VERSION,
};

pub(crate) use crate::printable::{printable, printable_line};
