//! Making a problem's planned tests real: fixed files from the package,
//! inputs from generator runs, every input validated, and answers from the
//! reference where the package has none. Each step is cached by content.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use super::programs::{AnswerFrom, AnswerProgram, Case, Gate, Memo};
use super::Judge;
use crate::cache::{Key, Kind};
use crate::compile::Executable;
use crate::error::{Error, PackageError, Result};
use crate::problem::{Format, Problem, Role, ValidatorSpec};
use crate::testset::{self, Planned, PlannedTest, TestCase, TestFilter, TestSet};

/// How much the input validators decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Validation {
    /// Every test must pass every validator (`judge verify`, `judge gen`).
    Required,
    /// A validator that cannot be built or run, or that rejects a test, is a
    /// warning: a verdict does not depend on input validators (judges do not
    /// validate inputs while judging), so `judge run` and `batch` go on.
    BestEffort,
}

/// The package programs a test set needs, built.
struct Programs {
    /// The generators the tests use: `None` is the problem's generator.
    generators: BTreeMap<Option<String>, Executable>,
    reference: Option<AnswerProgram>,
    /// Each validator, with its spec.
    validators: Vec<(Executable, ValidatorSpec)>,
    /// How much they decide.
    validation: Validation,
    /// What went wrong with them, when it is only a warning.
    warnings: std::sync::Mutex<Vec<String>>,
    /// The validators (by source) that failed to run (crashed, or were
    /// stopped at a limit), when that is only a warning: not run again, so a
    /// validator that hangs costs one wait, not one per test.
    given_up: std::sync::Mutex<BTreeSet<std::path::PathBuf>>,
}

impl Judge {
    /// Builds the test set of `problem`: every input exists, is valid, and
    /// has an answer (from the package or the reference solution).
    pub(crate) async fn materialise(
        &self,
        problem: &Arc<Problem>,
        filter: &TestFilter,
        validation: Validation,
    ) -> Result<TestSet> {
        let planned: Vec<PlannedTest> = testset::plan(problem)?
            .into_iter()
            .filter(|t| filter.matches(&t.name))
            .collect();
        if planned.is_empty() {
            return Err(Error::package(&problem.id, PackageError::NoTests));
        }
        let used: BTreeSet<Option<&String>> = planned
            .iter()
            .filter_map(|t| match &t.source {
                Planned::Generated { generator, .. } => Some(generator.as_ref()),
                Planned::Fixed { .. } | Planned::Inline { .. } => None,
            })
            .collect();
        // An interactive problem's test needs no answer (its interactor
        // decides; it gets the input in the answer's place).
        let interactive = problem.interactor.is_some();
        let without_answer = planned.iter().find(|t| match &t.source {
            _ if interactive => false,
            // A sample without an answer is run and not checked.
            Planned::Fixed { .. } if problem.format == Format::Samples => false,
            Planned::Fixed { answer, .. } => answer.is_none(),
            Planned::Inline { answer, .. } => answer.is_none(),
            Planned::Generated { .. } => true,
        });
        let mut generators = BTreeMap::new();
        for name in used {
            let spec = match name {
                None => problem.generator.as_ref(),
                Some(name) => problem.generators.get(name),
            };
            let spec = spec.expect("the loader checked that every generator a test names exists");
            let exe = self.build_package_program(problem, spec, Role::Generator);
            generators.insert(name.cloned(), exe.await?);
        }
        let reference = match (&problem.reference, without_answer) {
            (Some(spec), Some(_)) => Some(AnswerProgram::Reference(
                self.build_package_program(problem, spec, Role::Reference)
                    .await?,
            )),
            (None, Some(test)) => {
                let test = test.name.clone();
                return Err(Error::package(
                    &problem.id,
                    PackageError::NoReference { test },
                ));
            }
            _ => None,
        };
        let mut validators = Vec::new();
        let mut warnings = Vec::new();
        for spec in &problem.validators {
            let exe = self.build_package_program(problem, &spec.program, Role::Validator);
            match exe.await {
                Ok(exe) => validators.push((exe, spec.clone())),
                Err(e @ (Error::MissingTool { .. } | Error::Package { .. }))
                    if validation == Validation::BestEffort =>
                {
                    warnings.push(format!(
                        "input validator {} not run: {}",
                        spec.program.path.display(),
                        crate::error::render_chain(&e).replace('\n', " ")
                    ));
                }
                Err(e) => return Err(e),
            }
        }
        let shared = Arc::new(Programs {
            generators,
            reference,
            validators,
            validation,
            warnings: std::sync::Mutex::new(warnings),
            given_up: std::sync::Mutex::new(BTreeSet::new()),
        });
        let mut tasks = tokio::task::JoinSet::new();
        let mut handles = Vec::new();
        for (index, planned) in planned.into_iter().enumerate() {
            let judge = self.clone();
            let problem = Arc::clone(problem);
            let shared = Arc::clone(&shared);
            handles.push(tasks.spawn(async move {
                let test = judge.make_test(&problem, &shared, planned).await;
                (index, test)
            }));
        }
        let mut tests: Vec<Option<TestCase>> = vec![None; tasks.len()];
        let mut first_error: Option<(usize, Error)> = None;
        while let Some(joined) = tasks.join_next().await {
            let (index, result) = match joined {
                Ok(done) => done,
                Err(e) if e.is_cancelled() => continue,
                Err(e) => std::panic::resume_unwind(e.into_panic()),
            };
            match result {
                Ok(t) => tests[index] = Some(t),
                // Report the error of the earliest test, whatever finished
                // first; the tests after it are not made (a package program
                // that hangs is waited for once, not once per test).
                Err(e) if first_error.as_ref().is_none_or(|(i, _)| index < *i) => {
                    for later in &handles[index + 1..] {
                        later.abort();
                    }
                    first_error = Some((index, e));
                }
                Err(_) => {}
            }
        }
        if let Some((_, e)) = first_error {
            return Err(e);
        }
        let mut warnings = std::mem::take(&mut *shared.warnings.lock().expect("not poisoned"));
        if !warnings.is_empty() {
            warnings.push(
                "judging goes on: a verdict does not depend on input validators (`judge verify` fails for them)"
                    .into(),
            );
        }
        Ok(TestSet {
            tests: tests
                .into_iter()
                .map(|t| t.expect("every test materialised"))
                .collect(),
            warnings,
        })
    }

    /// A one-test set for `judge run --input FILE`: the answer comes from
    /// the reference solution when the problem has one.
    pub(crate) async fn single_test(
        &self,
        problem: &Arc<Problem>,
        input: &Path,
        shown_as: &Path,
    ) -> Result<TestSet> {
        let input = crate::config::absolute(input);
        let input_key = Key::of_file(&input).map_err(|e| Error::io(&input, e))?;
        let stdin = shown_as == Path::new("-");
        let shown_as = match stdin {
            true => Path::new("standard input"),
            false => shown_as,
        };
        let bad_input = |why: String| Error::BadInput {
            path: shown_as.to_path_buf(),
            problem: problem.id.clone(),
            why,
        };
        // The input goes through the package's validators first: an input
        // that does not parse is said so, not met with a reference's crash.
        let mut validators = Vec::new();
        for spec in &problem.validators {
            let exe = self
                .build_package_program(problem, &spec.program, Role::Validator)
                .await?;
            validators.push((exe, spec));
        }
        let gates: Vec<Gate<'_>> = validators
            .iter()
            .map(|(validator, spec)| Gate {
                validator,
                args: spec.args.clone(),
                valid_exit: spec.valid_exit,
                given_up: None,
            })
            .collect();
        let reference = match &problem.reference {
            Some(spec) if problem.interactor.is_none() => Some(AnswerProgram::Reference(
                self.build_package_program(problem, spec, Role::Reference)
                    .await?,
            )),
            _ => None,
        };
        // Without a reference, the validators alone look at it (the input
        // stands in for the answer, which is then not used).
        let from = match &reference {
            Some(reference) => AnswerFrom::Program(reference),
            None => AnswerFrom::File(&input),
        };
        let case = self
            .prepare_case(&problem.id, &input, &input_key, &gates, from, Memo::Cache)
            .await?;
        let answer = match case {
            Case::Ready(answer) if reference.is_some() => Some(answer),
            Case::Ready(_) if problem.interactor.is_some() => Some(input.clone()),
            Case::Ready(_) => None,
            Case::Invalid { why, .. } => {
                return Err(bad_input(format!(
                    "the problem's validator rejects it: {why}"
                )))
            }
            Case::NoAnswer(outcome) => {
                let why = super::programs::describe_failure(&outcome);
                let unchecked = match problem.validators.is_empty() {
                    true => " (the problem has no validator to check inputs: is it one?)",
                    false => "",
                };
                return Err(bad_input(format!(
                    "the reference solution fails on it: {why}{unchecked}"
                )));
            }
            Case::Refused => unreachable!("only a brute force refuses inputs"),
        };
        let name = match stdin {
            true => "stdin".into(),
            false => shown_as
                .file_stem()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "input".into()),
        };
        Ok(TestSet {
            tests: vec![TestCase {
                name,
                group: "input".into(),
                input,
                input_key,
                answer,
                checker_args: Vec::new(),
            }],
            warnings: Vec::new(),
        })
    }

    async fn make_test(
        &self,
        problem: &Problem,
        programs: &Programs,
        planned: PlannedTest,
    ) -> Result<TestCase> {
        let PlannedTest {
            name,
            group,
            source,
            validator_args,
            checker_args,
        } = planned;
        let (input, input_key, answer) = match source {
            Planned::Fixed { input, answer } if problem.format == Format::Polygon => {
                // A package downloaded for Windows has CRLF line ends in its
                // tests: judged as the same package downloaded for Linux.
                let (input, key) = self.without_crlf(&input, Kind::Input)?;
                let answer = match answer {
                    Some(a) => Some(self.without_crlf(&a, Kind::Answer)?.0),
                    None => None,
                };
                (input, key, answer)
            }
            Planned::Fixed { input, answer } => {
                let key = Key::of_file(&input).map_err(|e| Error::io(&input, e))?;
                (input, key, answer)
            }
            Planned::Inline { input, answer } => {
                let key = Key::of(&[input.as_bytes()]);
                let stored = Key::of(&[b"inline-v1", key.as_str().as_bytes()]);
                let input = self
                    .cache()
                    .put_bytes(Kind::Input, &stored, input.as_bytes())?;
                let answer = match answer {
                    Some(answer) => {
                        let at = Key::of(&[b"inline-v1", answer.as_bytes()]);
                        Some(
                            self.cache()
                                .put_bytes(Kind::Answer, &at, answer.as_bytes())?,
                        )
                    }
                    None => None,
                };
                (input, key, answer)
            }
            Planned::Generated { generator, args } => {
                let generator = &programs.generators[&generator];
                match self.generate(generator, &args).await? {
                    Ok((input, key)) => (input, key, None),
                    Err(why) => {
                        let what = PackageError::Generator {
                            test: name,
                            args,
                            why,
                        };
                        return Err(Error::package(&problem.id, what));
                    }
                }
            }
        };
        let given_up =
            (programs.validation == Validation::BestEffort).then_some(&programs.given_up);
        let gates: Vec<Gate<'_>> = programs
            .validators
            .iter()
            .map(|(validator, spec)| Gate {
                validator,
                args: [spec.args.as_slice(), &validator_args].concat(),
                valid_exit: spec.valid_exit,
                given_up,
            })
            .collect();
        let from = match &answer {
            Some(answer) => AnswerFrom::File(answer),
            None if problem.interactor.is_some() => AnswerFrom::File(&input),
            None if problem.format == Format::Samples => {
                return Ok(TestCase {
                    name,
                    group,
                    input,
                    input_key,
                    answer: None,
                    checker_args,
                })
            }
            None => AnswerFrom::Program(programs.reference.as_ref().expect("built when needed")),
        };
        let answer = match self
            .test_case(problem, &gates, &input, &input_key, from, &name)
            .await
        {
            Err(Error::Package { what, .. })
                if programs.validation == Validation::BestEffort
                    && matches!(
                        what,
                        PackageError::Validator { .. } | PackageError::InvalidTest { .. }
                    ) =>
            {
                // A generated input lives in the cache under a hash: say
                // which test it is.
                let warning = match what {
                    PackageError::Validator { .. } => {
                        format!("test `{name}`: {what} (not run on the tests after it)")
                    }
                    _ => what.to_string(),
                };
                programs
                    .warnings
                    .lock()
                    .expect("not poisoned")
                    .push(warning);
                self.test_case(problem, &[], &input, &input_key, from, &name)
                    .await?
            }
            answer => answer?,
        };
        Ok(TestCase {
            name,
            group,
            input,
            input_key,
            answer: Some(answer),
            checker_args,
        })
    }

    /// A package file with its CRLF line ends made LF (a copy in the cache,
    /// when it has any), and its key.
    fn without_crlf(&self, path: &Path, kind: Kind) -> Result<(std::path::PathBuf, Key)> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        if !bytes.windows(2).any(|w| w == b"\r\n") {
            let key = Key::of_file(path).map_err(|e| Error::io(path, e))?;
            return Ok((path.to_path_buf(), key));
        }
        let mut lf = Vec::with_capacity(bytes.len());
        for (i, b) in bytes.iter().enumerate() {
            if !(*b == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
                lf.push(*b);
            }
        }
        let key = Key::of(&[&lf]);
        let stored = Key::of(&[b"lf-v1", key.as_str().as_bytes()]);
        let copy = self.cache().put_bytes(kind, &stored, &lf)?;
        Ok((copy, key))
    }

    /// An input of the package's own tests through the pipeline: an invalid
    /// input or a failing reference is the package's fault.
    async fn test_case(
        &self,
        problem: &Problem,
        gates: &[Gate<'_>],
        input: &Path,
        input_key: &Key,
        from: AnswerFrom<'_>,
        name: &str,
    ) -> Result<std::path::PathBuf> {
        let case = self
            .prepare_case(&problem.id, input, input_key, gates, from, Memo::Cache)
            .await?;
        let what = match case {
            Case::Ready(answer) => return Ok(answer),
            Case::Invalid { why, .. } => PackageError::InvalidTest {
                test: name.to_string(),
                input: input.to_path_buf(),
                why,
            },
            Case::NoAnswer(outcome) => PackageError::Reference {
                test: name.to_string(),
                input: input.to_path_buf(),
                why: super::programs::describe_failure(&outcome),
            },
            Case::Refused => unreachable!("only a brute force refuses inputs"),
        };
        Err(Error::package(&problem.id, what))
    }
}
