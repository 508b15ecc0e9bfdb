//! The commands: each takes the [`Settings`] and its arguments, drives the
//! library, hands results to a renderer of [`crate::report`], and returns
//! the exit code. [`main`] parses the command line and dispatches.

mod batch;
mod gen;
mod list;
mod new;
mod run;
mod stress;
mod verify;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Parser;

use crate::cli::{Cli, Command, Format, Settings};
use crate::config::Config;
use crate::engine::{Judge, Submission};
use crate::error::{exit_code, render_chain, Error, Result};
use crate::problem::Problem;
use crate::report;

/// Parses the command line, runs it, and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = std::panic::catch_unwind(|| dispatch(cli));
    match result {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            let _ = std::io::stdout().flush();
            eprintln!("{}", render_chain(&e));
            e.exit_code()
        }
        Err(_) => {
            eprintln!(
                "error: internal error (a bug in judge); please report it with the message above"
            );
            exit_code::INTERNAL
        }
    }
}

fn dispatch(cli: Cli) -> Result<i32> {
    let settings = Settings::new(&cli)?;
    match cli.command {
        Command::Run(args) => run::run(settings, args),
        Command::List(args) => list::list(&settings.config, args),
        Command::Verify(args) => verify::verify(settings, args),
        Command::Batch(args) => batch::batch(settings, args),
        Command::Merge(args) => batch::merge(args),
        Command::Stress(args) => stress::stress(settings, args),
        Command::Gen(args) => gen::gen(settings, args),
        Command::New(args) => new::new(&settings.config, args),
    }
}

impl From<Format> for report::Format {
    fn from(f: Format) -> report::Format {
        match f {
            Format::Human => report::Format::Human,
            Format::Json => report::Format::Json,
            Format::Junit => report::Format::Junit,
        }
    }
}

/// Creates the engine and prints the sandbox's warning, if any, once.
fn start_judge(settings: Settings, problems: &[Arc<Problem>]) -> Result<Judge> {
    let hide: Vec<PathBuf> = problems
        .iter()
        .flat_map(|p| [p.dir.clone(), p.testdata_dir.clone()])
        .collect();
    let judge = Judge::new(settings.config, settings.isolation, &hide)?;
    if let Some(warning) = judge.sandbox().warning() {
        eprintln!("warning: {warning}");
    }
    Ok(judge)
}

/// Writes `text` to stdout; a closed stdout is not an error of the command.
fn print(text: &str) {
    let mut out = std::io::stdout();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Checks that a file named on the command line exists and is a regular file
/// (a link to one is followed): a device or a pipe would be read forever.
fn regular_file(file: &Path) -> Result<()> {
    let why = match std::fs::metadata(file) {
        Ok(meta) if meta.is_file() => return Ok(()),
        Ok(_) => std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a device, pipe or directory cannot be judged or read as a test)",
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
        }
        Err(e) => e,
    };
    Err(Error::io(file, why))
}

/// A file named on the command line, with its language.
fn submission_of(config: &Config, file: &Path, lang: Option<&str>) -> Result<Submission> {
    regular_file(file)?;
    let language = match lang {
        Some(id) => config.language_by_id(id, file)?,
        None => config.detect_language(file)?,
    };
    Ok(Submission {
        path: file.to_path_buf(),
        language,
    })
}

/// Makes `dir` (if missing) and checks that files can be written in it.
fn writable_dir(dir: &Path) -> Result<()> {
    let write = |source| Error::Write {
        path: dir.to_path_buf(),
        source,
    };
    if dir.exists() && !dir.is_dir() {
        return Err(write(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "--out must name a directory, and this is not one",
        )));
    }
    std::fs::create_dir_all(dir).map_err(write)?;
    tempfile::NamedTempFile::new_in(dir).map_err(write)?;
    Ok(())
}
