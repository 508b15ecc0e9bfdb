//! One stress iteration's evaluation: the input through the engine's
//! pipeline (validators, then the expected answer), then the file judged on it.

use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::cache::Key;
use crate::check::Checker;
use crate::compile::Executable;
use crate::engine::{describe_failure, AnswerFrom, AnswerProgram, Case, Gate, Judge, Memo};
use crate::error::{Error, PackageError, Result};
use crate::problem::Problem;
use crate::report::TestReport;
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// Output kept per shown stream (expected, actual) in the report.
pub(super) const SHOWN_MAX: usize = 64 << 10;

/// How one input went.
#[derive(Debug)]
pub(super) enum Evaluation {
    /// The validator rejected it (or it is outside the brute force's bounds).
    Invalid,
    /// The program giving the answer failed on it.
    AnswerFailed(String),
    /// The file got AC.
    Passed,
    /// The file did not.
    Failed(Box<Failure>),
}

/// A failing run and its expected answer.
#[derive(Debug, Clone)]
pub(super) struct Failure {
    pub(super) report: TestReport,
    pub(super) expected: Vec<u8>,
}

/// Everything an evaluation needs, shared by concurrent iterations.
pub(super) struct Harness {
    pub(super) judge: Judge,
    pub(super) problem: Arc<Problem>,
    pub(super) file: Executable,
    pub(super) answers: AnswerProgram,
    pub(super) generator: Executable,
    /// The validator, its arguments and the exit code that means valid.
    pub(super) validator: Option<(Executable, Vec<String>, i32)>,
    /// The brute force's bounds (validator arguments), against it.
    pub(super) bounds: Option<Vec<String>>,
    pub(super) checker: Checker,
    pub(super) work: tempfile::TempDir,
    pub(super) next_dir: AtomicU64,
}

/// Removes an evaluation's directory when dropped.
struct RemoveDir(PathBuf);

impl Drop for RemoveDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Harness {
    pub(super) fn package_err(&self, what: PackageError) -> Error {
        Error::package(&self.problem.id, what)
    }

    fn fresh_dir(&self) -> Result<(PathBuf, RemoveDir)> {
        let n = self.next_dir.fetch_add(1, Ordering::Relaxed);
        let dir = self.work.path().join(n.to_string());
        std::fs::create_dir(&dir).map_err(|e| Error::io(&dir, e))?;
        Ok((dir.clone(), RemoveDir(dir)))
    }

    /// Runs the generator; `Ok(Err(why))` when it failed.
    pub(super) async fn generate(
        &self,
        args: &[String],
    ) -> Result<std::result::Result<Vec<u8>, String>> {
        let (dir, _remove) = self.fresh_dir()?;
        let output = match self.judge.generate_in(&self.generator, args, &dir).await? {
            Ok(output) => output,
            Err(why) => return Ok(Err(why)),
        };
        let bytes = output
            .to_vec()
            .map_err(|e| Error::io(dir.join("stdout"), e))?;
        Ok(Ok(bytes))
    }

    /// Validates `input`, computes the expected answer and judges the file on it.
    pub(super) async fn evaluate(&self, input: &[u8]) -> Result<Evaluation> {
        let (dir, _remove) = self.fresh_dir()?;
        let input_path = dir.join("input");
        std::fs::write(&input_path, input).map_err(|e| Error::io(&input_path, e))?;
        let input_key = Key::of(&[input]);
        let mut gates = Vec::new();
        if let Some((validator, args, valid_exit)) = &self.validator {
            gates.push(Gate {
                validator,
                args: args.clone(),
                valid_exit: *valid_exit,
                given_up: None,
            });
            if let Some(bounds) = &self.bounds {
                gates.push(Gate {
                    validator,
                    args: bounds.clone(),
                    valid_exit: *valid_exit,
                    given_up: None,
                });
            }
        }
        // An interactive problem's interactor needs no answer: it gets the
        // input in its place, as for the package's own tests.
        let from = match self.problem.interactor {
            Some(_) => AnswerFrom::File(&input_path),
            None => AnswerFrom::Program(&self.answers),
        };
        let case = self.judge.prepare_case(
            &self.problem.id,
            &input_path,
            &input_key,
            &gates,
            from,
            Memo::Dir(&dir),
        );
        let answer = match case.await? {
            Case::Invalid { .. } | Case::Refused => return Ok(Evaluation::Invalid),
            Case::NoAnswer(outcome) => {
                let who = self.answers.who();
                let why = describe_failure(&outcome);
                return Ok(Evaluation::AnswerFailed(format!("{who} failed: {why}")));
            }
            Case::Ready(answer) => answer,
        };
        let test = TestCase {
            name: "stress".into(),
            group: "stress".into(),
            input: input_path,
            input_key,
            answer: Some(answer.clone()),
            checker_args: Vec::new(),
        };
        let report = self
            .judge
            .judge_one(
                &self.file,
                &test,
                &self.checker,
                self.problem.limits,
                &self.problem.files,
                true,
            )
            .await?;
        match report.verdict {
            Verdict::AC => Ok(Evaluation::Passed),
            Verdict::IE => Err(self.package_err(PackageError::StressChecker {
                message: report.message,
            })),
            _ => {
                let mut expected = Vec::new();
                if let Ok(file) = std::fs::File::open(&answer) {
                    let _ = file.take(SHOWN_MAX as u64).read_to_end(&mut expected);
                }
                Ok(Evaluation::Failed(Box::new(Failure { report, expected })))
            }
        }
    }
}
