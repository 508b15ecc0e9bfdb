//! Checker programs, in either protocol:
//! - **testlib**: `checker INPUT OUTPUT ANSWER [args]`; exit 0 is AC, 1 WA,
//!   2 PE (testlib's format errors and extra output), 8 PE (an unexpected end
//!   of the output, when testlib is built to say so), 7 points (the score is
//!   the first number of its message: AC if above 0, else WA); anything else
//!   (3 is testlib's "fail", a signal, a limit) means the checker failed.
//!   Its stderr (then stdout) is the message.
//! - **ICPC** (the package format's output validators): `validator INPUT
//!   ANSWER FEEDBACK_DIR/ [args] < OUTPUT`; exit 42 is AC, 43 WA, anything
//!   else (0 included) means it failed. `judgemessage.txt` in the feedback
//!   directory is the message, `score.txt` the score.
//!
//! A checker that failed is IE, never AC.

use std::path::{Path, PathBuf};

use super::CheckResult;
use crate::compile::Executable;
use crate::sandbox::{
    self, Captured, Environment, Exchange, Exit, RunError, RunOutcome, RunRequest, Stdin,
};
use crate::verdict::Verdict;

/// Longest checker message kept, in characters.
const MAX_MESSAGE: usize = 500;

/// How a checker program is called and what its exit means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Protocol {
    /// testlib's.
    Testlib,
    /// The ICPC/Kattis package format's.
    Kattis,
}

/// One output for a checker program.
pub(super) struct Run<'a> {
    pub(super) input: &'a Path,
    pub(super) output: &'a Captured,
    pub(super) answer: &'a Path,
    /// A private directory for the run.
    pub(super) scratch: &'a Path,
    /// The test's checker arguments.
    pub(super) args: &'a [String],
    /// On a pass of a multi-pass test, the feedback the passes before left
    /// (see [`feedback_exchange`]).
    pub(super) carried: Option<&'a Path>,
}

/// Runs `checker` on one output, as a package program in `sandbox` (its
/// package and limits come with it).
pub(super) async fn check(
    sandbox: &sandbox::Sandbox,
    checker: &Executable,
    protocol: Protocol,
    run: Run<'_>,
) -> Result<CheckResult, RunError> {
    let output_path = match run.output {
        Captured::File { path, .. } => path.clone(),
        Captured::Memory(_) => {
            let path = run.scratch.join("checker-output");
            run.output
                .write_to(&path)
                .map_err(|source| RunError::Spawn {
                    program: format!("checker (writing {})", path.display()),
                    source,
                })?;
            path
        }
    };
    let package = checker
        .package
        .as_ref()
        .expect("a checker is a package's program");
    let mut argv = checker.argv(package.limits.memory);
    let (stdin, feedback, exchange) = match protocol {
        Protocol::Testlib => {
            argv.extend([
                run.input.into(),
                output_path.clone().into(),
                run.answer.into(),
            ]);
            let files = vec![
                run.input.to_path_buf(),
                output_path,
                run.answer.to_path_buf(),
            ];
            (
                Stdin::Null,
                None,
                Exchange {
                    files,
                    ..Exchange::default()
                },
            )
        }
        Protocol::Kattis => {
            let feedback = fresh_feedback_dir(run.scratch)?;
            let mut dir = feedback.clone().into_os_string();
            dir.push("/");
            argv.extend([run.input.into(), run.answer.into(), dir]);
            let files = vec![run.input.to_path_buf(), run.answer.to_path_buf()];
            let exchange = feedback_exchange(files, run.carried);
            (Stdin::File(output_path), Some(feedback), exchange)
        }
    };
    argv.extend(run.args.iter().map(Into::into));
    let request = RunRequest {
        argv,
        cwd: run.scratch.to_path_buf(),
        stdin,
        stdout_spill: None,
        stdout_to: None,
        environment: Environment::Minimal(checker.env().to_vec()),
        limits: package.limits,
        program_dir: Some(checker.dir().to_path_buf()),
        exchange,
    };
    let profile = sandbox::Profile::Package(std::sync::Arc::clone(&package.view));
    let outcome = sandbox.run(&request, profile).await?;
    Ok(match feedback {
        None => testlib_result(&outcome, &package.limits),
        Some(feedback) => kattis_result(&outcome, &feedback, &package.limits),
    })
}

/// The feedback directory of an ICPC program, in its working directory.
pub(crate) const FEEDBACK: &str = "feedback";

/// The files of the feedback directory the judge reads (`nextpass.in`: a
/// multi-pass problem's next input).
fn feedback_files() -> Vec<String> {
    ["judgemessage.txt", "score.txt", "nextpass.in"]
        .iter()
        .map(|f| format!("{FEEDBACK}/{f}"))
        .collect()
}

/// What an ICPC program (an output validator, an interactor) reading
/// `files` exchanges: its feedback directory, of which the judge takes the
/// files it reads. On a pass of a multi-pass test (`carried`: the files the
/// passes before left there), the directory persists between passes as the
/// format says: it starts with copies of the carried files, and all its
/// regular files come back (within the sandbox's bounds).
pub(crate) fn feedback_exchange(files: Vec<PathBuf>, carried: Option<&Path>) -> Exchange {
    match carried {
        None => Exchange {
            files,
            dirs: vec![FEEDBACK.into()],
            keep: feedback_files(),
            ..Exchange::default()
        },
        Some(carried) => Exchange {
            files,
            dirs: vec![FEEDBACK.into()],
            keep_dirs: vec![FEEDBACK.into()],
            fill: vec![(carried.to_path_buf(), FEEDBACK.into())],
            ..Exchange::default()
        },
    }
}

/// A fresh, empty feedback directory in `scratch`: nothing of an earlier
/// run is read.
pub(crate) fn fresh_feedback_dir(scratch: &Path) -> Result<PathBuf, RunError> {
    let feedback = scratch.join(FEEDBACK);
    let _ = std::fs::remove_dir_all(&feedback);
    std::fs::create_dir(&feedback).map_err(|source| RunError::Spawn {
        program: format!("output validator (making {})", feedback.display()),
        source,
    })?;
    Ok(feedback)
}

/// What an interactor's run decided: by `protocol`, as a checker's exit
/// (testlib's codes, or 42/43 and `feedback`'s `judgemessage.txt`); a
/// failed interactor (a crash, another code, a limit) is IE.
pub(crate) fn interactor_result(
    protocol: crate::problem::InteractorProtocol,
    outcome: &RunOutcome,
    feedback: &Path,
    limits: &sandbox::Limits,
) -> CheckResult {
    let mut result = match protocol {
        crate::problem::InteractorProtocol::Testlib => testlib_result(outcome, limits),
        crate::problem::InteractorProtocol::Kattis => kattis_result(outcome, feedback, limits),
    };
    if result.verdict == Verdict::IE {
        result.message = result
            .message
            .replacen("checker failed", "interactor failed", 1)
            .replacen("output validator failed", "interactor failed", 1);
    }
    result
}

/// Whether a package program failed whatever its exit says: it ran out of
/// its memory (a runtime's failed allocation exits with a code of the
/// protocol), or what it left could not be kept.
fn failed_anyway(outcome: &RunOutcome, limits: &sandbox::Limits) -> bool {
    out_of_memory(outcome, limits) || outcome.keep_error.is_some()
}

/// Whether a package program ran out of its memory.
pub(crate) fn out_of_memory(outcome: &RunOutcome, limits: &sandbox::Limits) -> bool {
    limits
        .memory
        .is_some_and(|m| outcome.memory_evidence(m, limits.address_space).is_some())
}

fn testlib_result(outcome: &RunOutcome, limits: &sandbox::Limits) -> CheckResult {
    let text = message_of(outcome);
    let (verdict, score) = match (outcome.exit, outcome.limit_hit) {
        _ if failed_anyway(outcome, limits) => (Verdict::IE, None),
        (Exit::Code(0), None) => (Verdict::AC, None),
        (Exit::Code(1), None) => (Verdict::WA, None),
        (Exit::Code(2 | 8), None) => (Verdict::PE, None),
        (Exit::Code(7), None) => match points(&text) {
            Some(p) if p > 0.0 => (Verdict::AC, Some(p)),
            Some(p) => (Verdict::WA, Some(p)),
            None => (Verdict::IE, None),
        },
        _ => (Verdict::IE, None),
    };
    CheckResult {
        message: if verdict == Verdict::IE {
            failed("checker", outcome, &text, limits)
        } else {
            text
        },
        verdict,
        position: None,
        diff: None,
        score,
    }
}

fn kattis_result(outcome: &RunOutcome, feedback: &Path, limits: &sandbox::Limits) -> CheckResult {
    // What the program left there may be anything (at the rlimit-only
    // level it writes there itself): read without following a link, and
    // only the start of it.
    let dir = sandbox::untrusted::Dir::open(feedback).ok();
    let read = |name: &str| -> Option<String> {
        let file = dir.as_ref()?.file(std::ffi::OsStr::new(name)).ok()?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(file, 64 << 10), &mut bytes).ok()?;
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        (!text.is_empty()).then(|| cut(text))
    };
    let verdict = match (outcome.exit, outcome.limit_hit) {
        _ if failed_anyway(outcome, limits) => Verdict::IE,
        (Exit::Code(42), None) => Verdict::AC,
        (Exit::Code(43), None) => Verdict::WA,
        _ => Verdict::IE,
    };
    let message = read("judgemessage.txt").unwrap_or_default();
    let score = match verdict {
        Verdict::AC => read("score.txt").and_then(|s| s.parse::<f64>().ok()),
        _ => None,
    };
    CheckResult {
        message: if verdict == Verdict::IE {
            let said = if message.is_empty() {
                message_of(outcome)
            } else {
                message
            };
            failed("output validator", outcome, &said, limits)
        } else {
            message
        },
        verdict,
        position: None,
        diff: None,
        score,
    }
}

/// What a checker said: its stderr, else its stdout, cut.
fn message_of(outcome: &RunOutcome) -> String {
    let mut text = String::from_utf8_lossy(&outcome.stderr).trim().to_string();
    if text.is_empty() {
        text = String::from_utf8_lossy(&outcome.stdout.to_vec().unwrap_or_default())
            .trim()
            .to_string();
    }
    cut(text)
}

fn cut(text: String) -> String {
    if text.chars().count() > MAX_MESSAGE {
        text.chars().take(MAX_MESSAGE).collect::<String>() + "…"
    } else {
        text
    }
}

/// "checker failed (exit 3): why".
fn failed(what: &str, outcome: &RunOutcome, said: &str, limits: &sandbox::Limits) -> String {
    let how = match outcome.limit_hit {
        Some(hit) => format!("{hit:?} limit"),
        None if out_of_memory(outcome, limits) => {
            format!("memory limit, {}", outcome.describe_exit())
        }
        None => match &outcome.keep_error {
            Some(why) => format!("{}; {why}", outcome.describe_exit()),
            None => outcome.describe_exit(),
        },
    };
    if said.is_empty() {
        format!("{what} failed ({how})")
    } else {
        format!("{what} failed ({how}): {said}")
    }
}

/// The points of testlib's `quitp`: its message is `points X ...`.
fn points(text: &str) -> Option<f64> {
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let number = if first == "points" {
        words.next()?
    } else {
        first
    };
    number.parse::<f64>().ok().filter(|p| p.is_finite())
}

#[cfg(test)]
mod tests {
    use super::points;

    #[test]
    fn points_come_from_the_message() {
        assert_eq!(points("points 12.5 half-ish"), Some(12.5));
        assert_eq!(points("3 of 4"), Some(3.0));
        assert_eq!(points("points"), None);
        assert_eq!(points("nan"), None);
    }
}
