//! Checking a program's output against the answer: one [`Checker`] for the
//! built-in comparators ([`builtin`]) and custom checkers speaking the
//! testlib protocol ([`external`]), one dispatch ([`Checker::check`]), and
//! [`diff`] to render where an output went wrong.

mod builtin;
mod checker;
mod diff;
mod external;
mod kattis;

pub use builtin::compare;
pub(crate) use checker::CheckResult;
pub(crate) use checker::{CheckError, Checker, Interactive, Subject};
pub(crate) use external::{feedback_exchange, interactor_result, out_of_memory, FEEDBACK};
