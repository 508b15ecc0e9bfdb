//! The commands: each takes the [`Settings`](crate::cli::Settings) and its arguments, drives the
//! library, hands results to a renderer of [`crate::report`], and returns
//! the exit code. [`main`] parses the command line and dispatches.

mod arguments;
mod batch;
mod dispatch;
mod export;
mod gen;
mod judgehost;
mod list;
mod listen;
mod new;
mod run;
mod serve;
mod stress;
mod submit;
mod verify;

use arguments::{regular_file, submission_of, writable_dir};
use dispatch::{print, print_note, print_notes, print_warnings, start_judge};

pub use dispatch::main;
