//! The judging engine: [`Judge`] owns the settings, the cache, the compiler,
//! the sandbox and the slots (`--jobs`) that bound how many programs run at
//! once. It judges submissions on test sets ([`submission`]), turns outcomes
//! into verdicts ([`classify`]), and is the one service that builds and runs
//! package programs ([`programs`]) and makes test sets ([`materialise`]).
//! A submit-answer problem's answers are checked without a run ([`answers`]).
//! Everything here runs on the tokio runtime made by [`runtime`].

mod answers;
mod classify;
mod contention;
mod interactive;
mod judge;
mod machine;
mod margin;
mod materialise;
mod named_files;
mod programs;
mod ready;
mod runtime;
mod scratch;
mod shown_input;
mod sources;

pub(crate) use sources::{directory_submission, header_files, main_source};
mod submission;

pub(crate) use answers::is_answer_name;
pub(crate) use judge::{Hide, Judge};
pub(crate) use materialise::Validation;
pub(crate) use programs::{
    describe_failure, AnswerFrom, AnswerProgram, Case, Gate, Memo, BRUTE_SKIP,
};
pub(crate) use submission::{RunOptions, Submission};
