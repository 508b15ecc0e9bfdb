//! `judge`: a local online-judge grader.
//!
//! It reads problem packages (`problem.toml`), materialises their tests
//! (fixed files, generator runs, reference answers), compiles and runs
//! submissions under limits, compares outputs, and reports verdicts as text or
//! JSON. The binary is a thin wrapper around [`cli::main`].

pub mod cache;
pub mod check;
pub mod cli;
pub mod compile;
pub mod config;
pub mod contest;
pub mod error;
pub mod export;
pub mod judge;
pub mod partition;
pub mod problem;
pub mod report;
pub mod sandbox;
pub mod scaffold;
pub mod shrink;
pub mod stress;
pub mod testset;
pub mod units;
pub mod verdict;
pub mod verify;
