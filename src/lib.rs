//! `judge`: a local online-judge grader.
//!
//! It reads problem packages, materialises their tests (fixed files,
//! generator runs, reference answers), compiles and runs submissions in a
//! sandbox under limits, checks outputs, and reports verdicts. The module
//! map is in docs/architecture.md.
//!
//! Everything is private to the crate but what the binary and the
//! benchmarks use: [`main`], the sandbox keeper's entry ([`keeper_main`],
//! [`KEEPER_COMMAND`]), and the built-in comparators that
//! `benches/checker.rs` measures ([`compare`] and its types).

mod cache;
mod check;
mod cli;
mod commands;
mod compile;
mod config;
mod contest;
mod engine;
mod error;
mod export;
mod listen;
mod ownership;
mod partition;
mod printable;
mod problem;
mod render;
mod report;
mod sandbox;
mod scaffold;
mod server;
mod stress;
mod testset;
mod units;
mod verdict;
mod verify;
mod web;

pub use check::compare;
pub use commands::main;
pub use problem::CheckerSpec;
pub use sandbox::{keeper_main, Captured, KEEPER_COMMAND};
pub use verdict::Verdict;
