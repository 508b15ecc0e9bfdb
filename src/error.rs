//! "Could not judge": the typed errors of the judge and their documented exit codes.
//!
//! A verdict (even WA or CE) is a successful judging and is data, not an error.
//! [`Error`] is for the cases where the judge could not produce a trustworthy
//! verdict: bad usage, a broken spec or config, a missing file or compiler, a
//! package program (generator, reference, validator) that failed. A bug in the
//! judge itself is a panic, which `main` turns into exit code 3.

use std::path::PathBuf;

use thiserror::Error;

/// Documented process exit codes (see README.md, "Exit codes").
pub mod exit_code {
    /// Every submission was accepted (or the command succeeded).
    pub const OK: i32 = 0;
    /// Some submission was not accepted, or `verify` found a package unsound.
    pub const NOT_ACCEPTED: i32 = 1;
    /// The command could not judge: usage error, unknown problem, broken spec or
    /// config, missing file, missing compiler, failing package program.
    pub const COULD_NOT_JUDGE: i32 = 2;
    /// Internal error: a judge bug (panic), or a test judged IE (for example a
    /// checker that crashed), so the result cannot be trusted.
    pub const INTERNAL: i32 = 3;
    /// Interrupted by Ctrl-C or SIGTERM; every running submission was killed.
    pub const INTERRUPTED: i32 = 130;
}

/// An error that stops the judge from producing a verdict.
#[derive(Debug, Error)]
pub enum Error {
    /// A configuration file (judge.toml) is unreadable or invalid.
    #[error("invalid config {path}")]
    Config {
        /// The config file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: SpecError,
    },
    /// A problem spec (problem.toml) is unreadable or invalid.
    #[error("invalid problem spec {path}")]
    Problem {
        /// The problem.toml file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: SpecError,
    },
    /// The problem named on the command line does not exist.
    #[error("unknown problem `{name}`: {reason}")]
    UnknownProblem {
        /// The id or path given.
        name: String,
        /// Why it could not be found, including the known ids.
        reason: String,
    },
    /// A file named on the command line (or by a spec) is missing or unreadable.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A file or directory the command writes (reports, `--out`) cannot be
    /// written.
    #[error("cannot write {path}")]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The language of a submission could not be determined.
    #[error("cannot tell the language of {path}: {reason}")]
    Language {
        /// The submission.
        path: PathBuf,
        /// Why, with the known languages.
        reason: String,
    },
    /// A compiler or interpreter named by the config is not installed.
    #[error("language `{language}` needs `{program}`, which is not installed or not runnable")]
    MissingTool {
        /// The language name.
        language: String,
        /// The program that could not be run.
        program: String,
        /// The error from trying to run it.
        #[source]
        source: std::io::Error,
    },
    /// A package program (generator, reference, validator, checker build) failed,
    /// so the test set could not be built.
    #[error("problem {problem}: {what}")]
    Package {
        /// Problem id.
        problem: String,
        /// What failed, naming the program, the test and the reason.
        what: String,
    },
    /// A file given on the command line that must run (not be judged), such
    /// as the file `judge stress` tests, does not compile.
    #[error("{} does not compile:\n{message}", path.display())]
    DoesNotCompile {
        /// The file.
        path: PathBuf,
        /// The compiler's message.
        message: String,
    },
    /// The process runner could not start or watch a process.
    #[error("could not run {program}")]
    Sandbox {
        /// The program.
        program: String,
        /// The reason.
        #[source]
        source: std::io::Error,
    },
    /// The cache directory could not be used.
    #[error("cache error at {path}")]
    Cache {
        /// The cache path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// `--isolation strict` and full isolation cannot be set up.
    #[error("cannot isolate submissions: {0}")]
    Isolation(String),
    /// Bad command-line usage that clap cannot express.
    #[error("{0}")]
    Usage(String),
    /// The run was interrupted by a signal.
    #[error("interrupted")]
    Interrupted,
}

impl Error {
    /// The exit code this error maps to.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Interrupted => exit_code::INTERRUPTED,
            _ => exit_code::COULD_NOT_JUDGE,
        }
    }

    /// Shorthand for an [`Error::Io`].
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// Everything wrong with one TOML file, collected so that all problems are
/// reported together.
#[derive(Debug, Error)]
#[error("{}", render_problems(.problems))]
pub struct SpecError {
    /// One line per problem, each naming the key (and the line where known).
    pub problems: Vec<String>,
}

impl SpecError {
    /// A spec error with a single problem.
    pub fn one(message: impl Into<String>) -> Self {
        SpecError {
            problems: vec![message.into()],
        }
    }
}

fn render_problems(problems: &[String]) -> String {
    problems.join("\n")
}

/// Renders an error and its chain of causes, one per line, as printed by `main`
/// (control characters escaped: messages may quote what a program printed).
pub fn render_chain(error: &(dyn std::error::Error + 'static)) -> String {
    crate::report::printable(&chain(error)).into_owned()
}

fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut out = format!("error: {error}");
    let mut source = error.source();
    while let Some(cause) = source {
        for (i, line) in cause.to_string().lines().enumerate() {
            if i == 0 {
                out.push_str(&format!("\n  caused by: {line}"));
            } else {
                out.push_str(&format!("\n             {line}"));
            }
        }
        source = cause.source();
    }
    out
}

/// Result alias for the judge.
pub type Result<T, E = Error> = std::result::Result<T, E>;
