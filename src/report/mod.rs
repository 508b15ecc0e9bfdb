//! The results of judging as plain data: [`SubmissionReport`] with its
//! [`TestReport`]s, those of `stress` ([`stress`]) and `verify` ([`verify`]),
//! and the JSON schema's version. Every way of showing them lives above, in
//! `crate::render`. The JSON schema is documented in `docs/json-report.md`.

#[cfg(test)]
pub(crate) mod fixtures;
pub(crate) mod stress;
pub(crate) mod submission;
pub(crate) mod verify;

pub(crate) use submission::{
    overall_verdict, InteractionLine, LimitsReport, ShownInput, SkipReason, SubmissionReport,
    Summary, TestReport, SCHEMA_VERSION,
};
