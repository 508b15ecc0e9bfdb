//! "Could not judge": the typed errors of the judge and their documented exit codes.
//!
//! A verdict (even WA or CE) is a successful judging and is data, not an error.
//! [`enum@Error`] is for the cases where the judge could not produce a trustworthy
//! verdict: bad usage, a broken spec or config, a missing file or compiler, a
//! package program (generator, reference, validator) that failed. A bug in the
//! judge itself is a panic, which `main` turns into exit code 3.

use std::path::PathBuf;

use thiserror::Error;

use crate::sandbox::{RunError, SetupError};

/// Documented process exit codes (see README.md, "Exit codes").
pub(crate) mod exit_code {
    /// Every submission was accepted (or the command succeeded).
    pub(crate) const OK: i32 = 0;
    /// Some submission was not accepted, or `verify` found a package unsound.
    pub(crate) const NOT_ACCEPTED: i32 = 1;
    /// The command could not judge: usage error, unknown problem, broken spec or
    /// config, missing file, missing compiler, failing package program.
    pub(crate) const COULD_NOT_JUDGE: i32 = 2;
    /// Internal error: a judge bug (panic), or a test judged IE (for example a
    /// checker that crashed), so the result cannot be trusted.
    pub(crate) const INTERNAL: i32 = 3;
    /// The machine is overloaded: a run was starved of CPU until the
    /// judge's absolute bound (ten wall limits), so no verdict was given.
    pub(crate) const OVERLOADED: i32 = 4;
    /// Interrupted by Ctrl-C or SIGTERM; every running submission was killed.
    pub(crate) const INTERRUPTED: i32 = 130;
}

/// An error that stops the judge from producing a verdict.
#[derive(Debug, Error)]
pub(crate) enum Error {
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
    /// An input given on the command line (`--input`) is not an input of
    /// the problem: its validator rejects it, or its reference fails on it.
    #[error("{} is not an input of problem {problem}: {why}", path.display())]
    BadInput {
        /// The input as given (`-` for stdin).
        path: PathBuf,
        /// Problem id.
        problem: String,
        /// What the validator or the reference said.
        why: String,
    },
    /// `judge listen` cannot listen on its port.
    #[error("cannot listen on {address}{hint}")]
    Listen {
        /// The address.
        address: String,
        /// What to do about it.
        hint: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
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
    #[error(
        "language `{language}` needs `{program}`, which is not installed or not runnable{install}"
    )]
    MissingTool {
        /// The language name.
        language: String,
        /// The program that could not be run.
        program: String,
        /// How to install it (judge.toml's `debian`), or empty.
        install: String,
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
        what: PackageError,
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
    Isolation(SetupError),
    /// Bad command-line usage that clap cannot express.
    #[error("{0}")]
    Usage(String),
    /// The contest server could not start or go on: its database (held by
    /// another server, of another contest, unreadable), the address it
    /// listens on, the server it submits to. The message names the file or
    /// the address.
    #[error("{what}")]
    Server {
        /// What failed, naming the file, the address or the URL.
        what: String,
        /// The cause, when there is one.
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// A run was runnable but starved of CPU past the absolute bound: the
    /// machine is overloaded, and no verdict is given (`batch` and `serve`
    /// judge it again).
    #[error("could not judge {test}: the machine is overloaded (the run waited {waited_ms} ms for a CPU against a wall limit of {wall_ms} ms, with {cpu_ms} ms of CPU time); judge it again on a less busy machine")]
    Overloaded {
        /// The test (or program) whose run starved.
        test: String,
        /// Time it was runnable but waited for a CPU.
        waited_ms: u128,
        /// Its wall limit.
        wall_ms: u128,
        /// The CPU time it got.
        cpu_ms: u128,
    },
    /// The run was interrupted by a signal.
    #[error("interrupted")]
    Interrupted,
}

impl Error {
    /// The exit code this error maps to.
    pub(crate) fn exit_code(&self) -> i32 {
        match self {
            Error::Interrupted => exit_code::INTERRUPTED,
            Error::Overloaded { .. } => exit_code::OVERLOADED,
            _ => exit_code::COULD_NOT_JUDGE,
        }
    }

    /// Whether the machine's load, not the submission or the judge, kept
    /// the judging from a verdict (a queue judges it again later).
    pub(crate) fn is_overloaded(&self) -> bool {
        matches!(self, Error::Overloaded { .. })
    }

    /// A run that could not be done: a missing tool when the program that
    /// would not start is a language's (`language`: its id and how to
    /// install it), else the sandbox's failure.
    pub(crate) fn from_run(e: RunError, language: Option<(&str, String)>) -> Self {
        match (e, language) {
            (RunError::Spawn { program, source }, Some((id, install))) => Error::MissingTool {
                language: id.to_string(),
                program,
                install,
                source,
            },
            (RunError::Spawn { program, source } | RunError::Watch { program, source }, _) => {
                Error::Sandbox { program, source }
            }
        }
    }

    /// Shorthand for an [`Error::Package`].
    pub(crate) fn package(problem: &str, what: PackageError) -> Self {
        Error::Package {
            problem: problem.to_string(),
            what,
        }
    }

    /// Shorthand for an [`Error::Server`] with a cause.
    pub(crate) fn server(
        what: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Error::Server {
            what: what.into(),
            source: Some(source.into()),
        }
    }

    /// Shorthand for an [`Error::Io`].
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// What is wrong with a problem's package: a program of it failed, or its
/// tests cannot be made. Each names the program, the test and the reason.
#[derive(Debug, Error)]
pub(crate) enum PackageError {
    /// A program of the package does not compile.
    #[error("the {role} {} does not compile:\n{message}", path.display())]
    DoesNotCompile {
        /// Which program (a [`crate::problem::Role`]).
        role: &'static str,
        /// Its source.
        path: PathBuf,
        /// The compiler's message.
        message: String,
    },
    /// A program of the package cannot be built as it is laid out.
    #[error("the program {}: {why}", path.display())]
    Program {
        /// The program (a file or a directory).
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The time limit is to be inferred and nothing to infer it from.
    #[error("has no time limit (no limits.time_limit) and no accepted submission to infer one from; give one with --time-limit")]
    NoTimeLimit,
    /// No test was selected to be made (the command line checks its
    /// `--tests` patterns before the engine is asked).
    #[error("no test is selected")]
    NoTests,
    /// A test needs an answer and nothing can give one.
    #[error("test `{test}` has no answer file and the problem has no [reference] to compute one")]
    NoReference {
        /// The test.
        test: String,
    },
    /// A test without an answer where one is needed.
    #[error("test `{test}` has no answer")]
    NoAnswer {
        /// The test.
        test: String,
    },
    /// A group's pattern names no test file.
    #[error("group `{group}`: pattern `{pattern}` matches no `.in` file in {}", dir.display())]
    NoMatch {
        /// The group.
        group: String,
        /// The pattern.
        pattern: String,
        /// The test data folder.
        dir: PathBuf,
    },
    /// Two tests have one name.
    #[error("two tests are named `{test}`; rename the group or the file")]
    SameName {
        /// The name.
        test: String,
    },
    /// The test data folder cannot be listed.
    #[error("cannot read the test data folder {}: {cause}", dir.display())]
    TestData {
        /// The folder.
        dir: PathBuf,
        /// The I/O error (shown inline: this is the package's fault).
        cause: std::io::Error,
    },
    /// The generator failed for a test.
    #[error("generator failed for test `{test}` (args {args:?}): {why}")]
    Generator {
        /// The test.
        test: String,
        /// The generator's arguments.
        args: Vec<String>,
        /// How it failed.
        why: String,
    },
    /// The validator rejected a test.
    #[error("test `{test}` ({}) is invalid: {why}", input.display())]
    InvalidTest {
        /// The test.
        test: String,
        /// Its input.
        input: PathBuf,
        /// What the validator said.
        why: String,
    },
    /// The validator itself failed (crashed, hung, could not start).
    #[error("the validator {} failed on {}: {why}", validator.display(), input.display())]
    Validator {
        /// The validator's source.
        validator: PathBuf,
        /// The input.
        input: PathBuf,
        /// How it failed.
        why: String,
    },
    /// The reference failed on an input.
    #[error("the reference solution failed on test `{test}` ({}): {why}", input.display())]
    Reference {
        /// The test (or what the input is).
        test: String,
        /// The input.
        input: PathBuf,
        /// How it failed.
        why: String,
    },
    /// A part of the package a command needs is missing.
    #[error("{}", missing_part(*.0))]
    Missing(Needed),
    /// The generator failed for stress arguments.
    #[error("the generator failed for stress arguments `{}`: {why}", args.join(" "))]
    StressGenerator {
        /// The arguments.
        args: Vec<String>,
        /// How it failed.
        why: String,
    },
    /// The program giving answers failed on a stress input.
    #[error("on the input of stress iteration {iteration} (generator args `{}`), {why}", args.join(" "))]
    StressAnswer {
        /// The iteration, from 1.
        iteration: u64,
        /// The generator's arguments.
        args: Vec<String>,
        /// Who failed, and how.
        why: String,
    },
    /// A custom checker failed on a stress input.
    #[error("the checker failed on a stress input: {message}")]
    StressChecker {
        /// The checker's failure.
        message: String,
    },
    /// The generator failed for a brute-force input.
    #[error("generator failed for the brute-force input (args {args:?}): {why}")]
    BruteGenerator {
        /// The arguments.
        args: Vec<String>,
        /// How it failed.
        why: String,
    },
    /// A generated brute-force input is outside the brute force's bounds.
    #[error("{input} is outside the brute force's bounds ({covers}): {why}")]
    OutsideBruteBounds {
        /// What the input is.
        input: String,
        /// The bounds, as the package says.
        covers: String,
        /// What the validator said.
        why: String,
    },
    /// A generated brute-force input is invalid.
    #[error("{input} is invalid: {why}")]
    InvalidInput {
        /// What the input is.
        input: String,
        /// What the validator said.
        why: String,
    },
    /// The brute force refused an input inside its bounds.
    #[error("the brute force refused {input} (exit {code}) although the validator says it is inside its bounds")]
    BruteRefused {
        /// What the input is.
        input: String,
        /// Its exit code.
        code: i32,
    },
}

/// A part of a package that a command needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Needed {
    /// `judge stress` needs a generator.
    StressGenerator,
    /// `judge stress` (against the reference) needs a reference.
    StressReference,
    /// `judge stress --against brute` needs a brute force.
    StressBrute,
    /// Checking the brute force needs a reference.
    BruteReference,
}

fn missing_part(needed: Needed) -> &'static str {
    match needed {
        Needed::StressGenerator => {
            "has no [generator] to make stress inputs; give one with --generator FILE"
        }
        Needed::StressReference => "has no [reference]; stress against its brute force (--against brute) or another file (--against FILE)",
        Needed::StressBrute => "has no [brute] force",
        Needed::BruteReference => "the brute force needs a [reference] to compare with",
    }
}

/// Everything wrong with one TOML file, collected so that all problems are
/// reported together.
#[derive(Debug, Error)]
#[error("{}", render_problems(.problems))]
pub(crate) struct SpecError {
    /// One line per problem, each naming the key (and the line where known).
    pub(crate) problems: Vec<String>,
}

impl SpecError {
    /// A spec error with a single problem.
    pub(crate) fn one(message: impl Into<String>) -> Self {
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
pub(crate) fn render_chain(error: &(dyn std::error::Error + 'static)) -> String {
    crate::printable::printable(&chain(error)).into_owned()
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
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;
