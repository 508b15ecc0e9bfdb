//! The entry point: the command line parsed, the settings made, the command
//! run, and its error (or a panic) turned into the exit code; and what every
//! command does alike: start the engine, print.

use std::io::Write;
use std::sync::Arc;

use clap::Parser;

use super::{batch, export, gen, judgehost, list, listen, new, run, serve, stress, submit, verify};
use crate::cli::{Cli, Command, Format, Settings};
use crate::engine::{Hide, Judge};
use crate::error::{exit_code, render_chain, Result};
use crate::problem::Problem;
use crate::render;

/// Parses the command line, runs it, and returns the process exit code.
pub fn main() -> i32 {
    // Before anything can replace the binary (an upgrade while it runs).
    crate::sandbox::keep_own_executable();
    let cli = Cli::parse();
    let result = std::panic::catch_unwind(|| dispatch(cli));
    // Under sudo, what the command wrote goes to the user who ran it.
    crate::ownership::hand_over();
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
    crate::ownership::claim(&settings.config.cache_dir);
    crate::ownership::claim(&settings.config.pch_dir);
    match cli.command {
        Command::Run(args) => run::run(settings, args),
        Command::List(args) => list::list(settings, args),
        Command::Verify(args) => verify::verify(settings, args),
        Command::Batch(args) => {
            crate::ownership::claim(&args.out);
            batch::batch(settings, args)
        }
        Command::Merge(args) => {
            crate::ownership::claim(&args.out);
            batch::merge(args)
        }
        Command::Stress(args) => stress::stress(settings, args),
        Command::Gen(args) => {
            crate::ownership::claim(&args.out);
            gen::gen(settings, args)
        }
        Command::Export(args) => {
            crate::ownership::claim(&args.out);
            export::export(settings, args)
        }
        Command::New(args) => new::new(&settings.config, args),
        Command::Serve(args) => serve::serve(settings, args),
        Command::Judgehost(args) => judgehost::judgehost(settings, args),
        Command::Submit(args) => submit::submit(args),
        Command::Archive(args) => submit::archive(args),
        Command::Passwords(args) => submit::passwords(args),
        Command::Listen(args) => listen::listen(args),
    }
}

impl From<Format> for render::Format {
    fn from(f: Format) -> render::Format {
        match f {
            Format::Human => render::Format::Human,
            Format::Json => render::Format::Json,
            Format::Junit => render::Format::Junit,
        }
    }
}

/// Creates the engine and prints the sandbox's warning, if any, once. No
/// run sees the problems' folders, nor `hide` (the folders the command
/// reads its files from and writes to).
pub(super) fn start_judge(
    settings: Settings,
    problems: &[Arc<Problem>],
    hide: &[Hide],
) -> Result<Judge> {
    let mut all: Vec<Hide> = problems
        .iter()
        .flat_map(|p| [p.dir.clone(), p.testdata_dir.clone()])
        .map(Hide::Required)
        .collect();
    all.extend(hide.iter().cloned());
    let judge = Judge::new(settings.config, settings.isolation, &all)?;
    if let Some(warning) = judge.sandbox().warning() {
        eprintln!("warning: {warning}");
    }
    Ok(judge)
}

/// Prints what the loader noted of a problem (on stderr: not results).
pub(super) fn print_notes(problem: &Problem) {
    for note in &problem.notes {
        print_note(&problem.id, Some(note));
    }
}

/// Prints one note of a problem, if there is one.
pub(super) fn print_note(problem: &str, note: Option<&str>) {
    if let Some(note) = note {
        eprintln!(
            "note: {}: {}",
            crate::printable::printable_line(problem),
            crate::printable::printable_line(note)
        );
    }
}

/// Prints what went wrong making a problem's tests that does not stop
/// judging (an input validator that could not run).
pub(super) fn print_warnings(problem: &str, warnings: &[String]) {
    for warning in warnings {
        eprintln!(
            "warning: {}: {}",
            crate::printable::printable_line(problem),
            crate::printable::printable_line(warning)
        );
    }
}

/// Writes `text` to stdout; a closed stdout is not an error of the command.
pub(super) fn print(text: &str) {
    let mut out = std::io::stdout();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
