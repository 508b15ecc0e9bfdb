//! Compilation by language, with the content-addressed build cache. The main
//! types are [`Compiler`] and [`Executable`].
//!
//! A program is compiled in a private scratch directory under the same
//! machinery (and limits) as every other run, then moved into the cache under a
//! key made of the language, its commands, the compiler's version and the
//! source bytes. A compile error is cached too (it is as deterministic as a
//! success); a compile stopped by a limit is not.

mod command;
mod compiler;
mod executable;
mod pch;
mod underway;

pub(crate) use compiler::{source_name, Companion, Compiler};
pub(crate) use executable::{Build, CompileReport, CompileStatus, Executable};
