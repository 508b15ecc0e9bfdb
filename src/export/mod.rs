//! Writing a problem out for other tools: its test set as files (`judge
//! gen`, [`files`]) or the whole problem as an ICPC package (`judge export`,
//! [`kattis`]).

mod files;
mod kattis;
mod shell;
mod statement;

pub(crate) use files::{write, Exported, Layout};
pub(crate) use kattis::{write_package, KattisVersion, Written};
