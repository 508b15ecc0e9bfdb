//! The one checker dispatch: a [`Checker`] judges one output ([`Subject`])
//! with a built-in comparator, inline or off the judging's CPU, or with a
//! custom checker in the sandbox. The result is a [`CheckResult`].

use std::path::{Path, PathBuf};

use super::builtin::compare_with_args;
use super::external::{Protocol, Run};
use super::{diff, external};
use crate::compile::Executable;
use crate::problem::CheckerSpec;
use crate::sandbox::{self, Captured, RunError, Sandbox};
use crate::verdict::Verdict;

/// Outputs larger than this are checked on a blocking thread.
const INLINE_CHECK_MAX: u64 = 256 << 10;

/// The checker's decision on one output.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckResult {
    /// AC, WA, PE, or IE when the checker itself failed.
    pub verdict: Verdict,
    /// One line saying where and why (empty on AC).
    pub message: String,
    /// Where the difference is, for the diff view: (output line, answer line), 1-based.
    pub position: Option<(usize, usize)>,
    /// The rendered diff around `position`.
    pub diff: Option<String>,
    /// The points a checker gave (testlib's `quitp`, a `score.txt`).
    pub score: Option<f64>,
}

impl CheckResult {
    pub(super) fn accepted() -> CheckResult {
        CheckResult {
            verdict: Verdict::AC,
            message: String::new(),
            position: None,
            diff: None,
            score: None,
        }
    }

    pub(super) fn wrong(message: String, out_line: usize, ans_line: usize) -> CheckResult {
        CheckResult {
            verdict: Verdict::WA,
            message,
            position: Some((out_line, ans_line)),
            diff: None,
            score: None,
        }
    }
}

/// How a problem's outputs are checked, ready to use.
#[derive(Debug, Clone)]
pub(crate) enum Checker {
    /// A built-in comparator.
    Builtin(CheckerSpec),
    /// A compiled custom checker (testlib protocol).
    External(Box<Executable>),
    /// A compiled output validator (the ICPC package format's protocol).
    Kattis(Box<Executable>),
    /// An interactor: the submission talks to it (see
    /// `engine::interactive`), and what it decides is the verdict.
    Interactive(Box<Interactive>),
}

/// An interactive problem's judge, ready to use.
#[derive(Debug, Clone)]
pub(crate) struct Interactive {
    /// The compiled interactor.
    pub(crate) interactor: Executable,
    /// How it is called.
    pub(crate) protocol: crate::problem::InteractorProtocol,
    /// The checker of what a testlib interactor writes to its output file,
    /// once it accepted (the problem's own checker program, as Polygon
    /// packages have); `None`: the interactor's word is final.
    pub(crate) then: Option<Checker>,
}

/// Why an output could not be checked (as opposed to being judged wrong).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckError {
    /// The answer or the output could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The answer file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The custom checker could not be run.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl From<CheckError> for crate::error::Error {
    fn from(e: CheckError) -> Self {
        match e {
            CheckError::Read { path, source } => crate::error::Error::io(path, source),
            CheckError::Run(e) => crate::error::Error::from_run(e, None),
        }
    }
}

/// One output to check, and where.
pub(crate) struct Subject<'a> {
    /// The test's input.
    pub(crate) input: &'a Path,
    /// The program's output.
    pub(crate) output: Captured,
    /// The expected answer.
    pub(crate) answer: &'a Path,
    /// A private directory for a custom checker (see [`Checker::needs_work_dir`]).
    pub(crate) work: Option<&'a Path>,
    /// The test's checker arguments.
    pub(crate) args: &'a [String],
    /// On a pass of a multi-pass test, the files the output validator's
    /// feedback directory held after the pass before (empty on the first):
    /// they are there again, and all it leaves there is kept.
    pub(crate) carried_feedback: Option<&'a Path>,
}

impl Checker {
    /// What identifies the checker in cache keys.
    pub(crate) fn id(&self) -> String {
        match self {
            Checker::Builtin(spec) => spec.describe(),
            Checker::External(program) => format!("external {}", program.key.as_str()),
            Checker::Kattis(program) => format!("icpc {}", program.key.as_str()),
            Checker::Interactive(i) => format!(
                "interactive {} {} then {}",
                i.protocol.as_str(),
                i.interactor.key.as_str(),
                i.then.as_ref().map_or("-".into(), Checker::id)
            ),
        }
    }

    /// Whether [`Checker::check`] needs a working directory.
    pub(crate) fn needs_work_dir(&self) -> bool {
        matches!(
            self,
            Checker::External(_) | Checker::Kattis(_) | Checker::Interactive(_)
        )
    }

    /// Checks one output. A custom checker runs in `sandbox` as a package
    /// program, under its package's limits; a large output is compared off
    /// the judging's CPU (if it keeps to one), where the next program runs
    /// meanwhile.
    pub(crate) async fn check(
        &self,
        sandbox: &Sandbox,
        subject: Subject<'_>,
    ) -> Result<CheckResult, CheckError> {
        match self {
            Checker::Builtin(spec) if subject.output.len() <= INLINE_CHECK_MAX => {
                check_builtin(spec, subject.args, &subject.output, subject.answer)
            }
            Checker::Builtin(spec) => {
                let (spec, answer) = (spec.clone(), subject.answer.to_path_buf());
                let (output, args) = (subject.output, subject.args.to_vec());
                let cpus = sandbox::cpus_to_leave_pin();
                tokio::task::spawn_blocking(move || {
                    sandbox::leave_pin(cpus);
                    check_builtin(&spec, &args, &output, &answer)
                })
                .await
                .expect("checker thread panicked")
            }
            // What a testlib interactor wrote (the judging of the
            // interaction itself is `engine::interactive`'s).
            Checker::Interactive(i) => match &i.then {
                Some(then) => Box::pin(then.check(sandbox, subject)).await,
                None => Ok(CheckResult::accepted()),
            },
            Checker::External(program) | Checker::Kattis(program) => {
                let protocol = match self {
                    Checker::Kattis(_) => Protocol::Kattis,
                    _ => Protocol::Testlib,
                };
                let run = Run {
                    input: subject.input,
                    output: &subject.output,
                    answer: subject.answer,
                    scratch: subject.work.expect("a work directory for checker programs"),
                    args: subject.args,
                    carried: subject.carried_feedback,
                };
                Ok(external::check(sandbox, program, protocol, run).await?)
            }
        }
    }
}

/// A built-in comparison, with the diff around the first difference.
fn check_builtin(
    spec: &CheckerSpec,
    args: &[String],
    output: &Captured,
    answer: &Path,
) -> Result<CheckResult, CheckError> {
    let read = |source| CheckError::Read {
        path: answer.to_path_buf(),
        source,
    };
    let mut result = compare_with_args(spec, args, output, answer).map_err(read)?;
    if let Some((out_line, ans_line)) = result.position {
        let show_whitespace = result.verdict == Verdict::PE || *spec == CheckerSpec::Exact;
        let answer_file = std::fs::File::open(answer).map_err(read)?;
        let reader = output.reader().map_err(read)?;
        result.diff = diff::render(reader, answer_file, out_line, ans_line, show_whitespace).ok();
    }
    Ok(result)
}
