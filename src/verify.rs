//! `judge verify`: a package proves itself. Every program compiles, every test
//! is valid, the reference agrees with the brute force on every test inside the
//! brute force's bounds and on extra random small inputs, and every declared
//! solution (and the reference) gets its expected verdict. The result is a
//! [`VerifyReport`]; `render::verify` renders it as Polygon's invocation matrix.

use std::path::PathBuf;
use std::sync::Arc;

use crate::cache::{Key, Kind};
use crate::check::{Checker, Subject};
use crate::compile::Executable;
use crate::engine::{AnswerFrom, AnswerProgram, Case, Gate, Judge, Memo, RunOptions, Validation};
use crate::error::{Error, Needed, PackageError, Result};
use crate::problem::{Problem, ProgramSpec, Role, SolutionSpec, SEED};
use crate::report::verify::{BruteReport, SlowestTest, SolutionResult, VerifyReport};
use crate::report::SCHEMA_VERSION;
use crate::sandbox::Captured;
use crate::testset::{TestFilter, TestSet};
use crate::units::format_ms;
use crate::verdict::Verdict;

/// Verifies one package. Package faults (invalid tests, failing programs)
/// are failures in the report; only environment problems are errors.
pub(crate) async fn verify(
    judge: &Judge,
    problem: &Arc<Problem>,
    options: &RunOptions,
) -> Result<VerifyReport> {
    let mut report = VerifyReport {
        schema_version: SCHEMA_VERSION,
        problem: problem.id.clone(),
        ok: false,
        failures: Vec::new(),
        tests: Vec::new(),
        brute: None,
        solutions: Vec::new(),
        notes: problem.notes.clone(),
    };
    let (settled, ()) = tokio::join!(judge.settle_time_limit(problem), judge.prebuild(problem));
    let problem = match settled {
        Ok((problem, note)) => {
            report.notes.extend(note);
            problem
        }
        Err(Error::Package { what, .. }) => {
            report.failures.push(what.to_string());
            return Ok(report);
        }
        Err(e) => return Err(e),
    };
    let problem = &problem;
    if problem.validators.is_empty() {
        report
            .failures
            .push("the package has no [validator]: tests cannot be proven valid".into());
    }
    let tests = match judge
        .materialise(problem, &TestFilter::default(), Validation::Required)
        .await
    {
        Ok(t) => Arc::new(t),
        Err(Error::Package { what, .. }) => {
            report.failures.push(what.to_string());
            return Ok(report);
        }
        Err(e) => return Err(e),
    };
    report.tests = tests.tests.iter().map(|t| t.name.clone()).collect();
    let checker = match judge.prepare_checker(problem).await {
        Ok(c) => c,
        Err(Error::Package { what, .. }) => {
            report.failures.push(what.to_string());
            return Ok(report);
        }
        Err(e) => return Err(e),
    };
    if problem.brute.is_some() {
        match check_brute(judge, problem, &tests, &checker).await {
            Ok(brute) => {
                report.failures.extend(brute.disagreements.iter().cloned());
                report.brute = Some(brute);
            }
            Err(Error::Package { what, .. }) => report.failures.push(what.to_string()),
            Err(e) => return Err(e),
        }
    } else {
        report.notes.push(
            "the package has no brute force: the reference is checked only by the tests and the solutions"
                .into(),
        );
    }
    let mut solutions: Vec<SolutionSpec> = Vec::new();
    if let Some(reference) = &problem.reference {
        solutions.push(SolutionSpec {
            program: reference.clone(),
            expect: vec![Verdict::AC],
            permitted: None,
        });
    }
    // The reference may be one of the solutions too (the main solution of a
    // Polygon package, an accepted submission of an ICPC one): judged once.
    solutions.extend(
        problem
            .solutions
            .iter()
            .filter(|s| Some(&s.program) != problem.reference.as_ref())
            .cloned(),
    );
    // Every solution is judged at once (a time limit waited out by one
    // leaves the other CPUs to the rest); the results are taken in order.
    let mut jobs = Vec::new();
    let mut judged = Vec::new();
    for solution in solutions {
        let submission = match judge.package_submission(problem, &solution.program) {
            Ok(s) => s,
            Err(Error::Package { what, .. }) => {
                judged.push(Err(what.to_string()));
                continue;
            }
            Err(e) => return Err(e),
        };
        // The overall verdict is the first failing test's: once a test of a
        // solution expected to fail has failed, the tests after it cannot
        // change it (unless every test's verdict is checked).
        // Its tests are run in order, so that nothing after the first
        // failure runs at all: the CPUs go to the other solutions instead.
        let fail_fast = !solution.expect.contains(&Verdict::AC) && solution.permitted.is_none();
        // Up to time_limit_to_tle x the limit, so that a TLE says whether
        // it would pass there (problemtools' second limit).
        let options = RunOptions {
            fail_fast,
            in_order: false,
            measure_up_to: Some(problem.time_limit_to_tle),
            ..options.clone()
        };
        jobs.push((submission, options));
        judged.push(Ok(solution));
    }
    // A solution judged with `fail_fast` reports the tests after its first
    // failure as not run, whatever ran first: its row is the same each time.
    let mut runs = judge
        .judge_many(problem, &tests, &checker, jobs)
        .await?
        .into_iter();
    for solution in judged {
        let solution = match solution {
            Ok(s) => s,
            Err(what) => {
                report.failures.push(what);
                continue;
            }
        };
        let mut run = runs.next().expect("one run per solution judged");
        run.submission = display_path(problem, &solution.program)
            .display()
            .to_string();
        let off_limits = solution
            .permitted
            .as_ref()
            .and_then(|permitted| run.tests.iter().find(|t| !permitted.contains(&t.verdict)));
        if let (Some(t), Some(permitted)) = (off_limits, &solution.permitted) {
            let permitted: Vec<&str> = permitted.iter().map(|v| v.as_str()).collect();
            report.failures.push(format!(
                "solution {} got {} on test `{}` ({}), where only {} is permitted",
                run.submission,
                t.verdict,
                t.name,
                t.message,
                permitted.join(" or ")
            ));
        }
        // Without `permitted`, the overall verdict must be expected; with
        // it (2025-09), every test's verdict must be permitted and some
        // test's expected (`required`).
        let expected_seen = match &solution.permitted {
            None => solution.expect.contains(&run.verdict),
            Some(_) => run
                .tests
                .iter()
                .any(|t| solution.expect.contains(&t.verdict)),
        };
        let ok = expected_seen && off_limits.is_none();
        if !expected_seen {
            let expected: Vec<&str> = solution.expect.iter().map(|v| v.as_str()).collect();
            if solution.permitted.is_some() {
                report.failures.push(format!(
                    "solution {} got {} on no test, and must on some",
                    run.submission,
                    expected.join(" or ")
                ));
            } else {
                let first_bad = if run.verdict.is_accepted() {
                    " on every test: no test catches it".to_string()
                } else {
                    run.tests
                        .iter()
                        .find(|t| t.verdict == run.verdict)
                        .map(|t| format!(" (first on test `{}`: {})", t.name, t.message))
                        .unwrap_or_default()
                };
                report.failures.push(format!(
                    "solution {} expected {} but got {}{first_bad}",
                    run.submission,
                    expected.join(" or "),
                    run.verdict
                ));
            }
        }
        let sensitive = time_sensitivity(&run, problem.time_limit_to_tle);
        if let Some(why) = &sensitive {
            report.notes.push(format!(
                "{} is sensitive to the time limit: {why}",
                run.submission
            ));
        }
        let slowest = SlowestTest::of(&run);
        if let Some(slow) = slowest
            .as_ref()
            .filter(|s| solution.expect == [Verdict::AC] && s.time_ms * 2 > s.limit_ms)
        {
            report.notes.push(format!(
                "{} takes {} of the {} limit on test `{}` ({}%): under half the limit \
                 is the usual margin (Kattis' time_multiplier 2), so a slower judge or \
                 language may fail it",
                run.submission,
                format_ms(slow.time_ms),
                format_ms(slow.limit_ms),
                slow.test,
                slow.percent()
            ));
        }
        report.solutions.push(SolutionResult {
            expected: solution.expect.clone(),
            ok,
            time_sensitive: sensitive.is_some(),
            slowest,
            report: run,
        });
    }
    report.ok = report.failures.is_empty();
    Ok(report)
}

/// Why a solution's verdict depends on the time limit, as problemtools
/// judges it (its verdict at the limit differs from its verdict at the
/// limit times `to_tle`), from the CPU times measured up to that higher
/// limit: a test that ran to its end past the limit but under the higher
/// one, or an accepted solution past the limit divided by `to_tle`.
pub(crate) fn time_sensitivity(
    run: &crate::report::SubmissionReport,
    to_tle: f64,
) -> Option<String> {
    let limit = run.limits.time_ms;
    let high = (limit as f64 * to_tle).round() as u64;
    let ran_to_its_end = |t: &&crate::report::TestReport| t.exit_code == Some(0);
    if let Some(t) = run
        .tests
        .iter()
        .filter(ran_to_its_end)
        .find(|t| t.verdict == Verdict::TLE && t.time_ms <= high)
    {
        return Some(format!(
            "TLE at the limit of {}, but test `{}` ended after {} of CPU time, within {} ({to_tle} x the limit, time_limit_to_tle)",
            format_ms(limit),
            t.name,
            format_ms(t.time_ms),
            format_ms(high)
        ));
    }
    let low = (limit as f64 / to_tle).round() as u64;
    if run.verdict.is_accepted() {
        if let Some(t) = run
            .tests
            .iter()
            .filter(|t| t.time_ms > low)
            .max_by_key(|t| t.time_ms)
        {
            return Some(format!(
                "accepted, but test `{}` takes {} of CPU time, past the limit of {} divided by {to_tle} ({}): TLE on a machine {to_tle} x slower",
                t.name,
                format_ms(t.time_ms),
                format_ms(limit),
                format_ms(low)
            ));
        }
    }
    None
}

fn display_path(problem: &Problem, program: &ProgramSpec) -> std::path::PathBuf {
    program
        .path
        .strip_prefix(&problem.dir)
        .map(|p| p.to_path_buf())
        .unwrap_or_else(|_| program.path.clone())
}

/// The inputs the brute force is compared on: tests inside its bounds, then
/// extra generated small inputs.
async fn check_brute(
    judge: &Judge,
    problem: &Arc<Problem>,
    tests: &TestSet,
    checker: &Checker,
) -> Result<BruteReport> {
    let spec = problem.brute.as_ref().expect("checked by the caller");
    let brute = AnswerProgram::Brute(
        judge
            .build_package_program(problem, &spec.program, Role::Brute)
            .await?,
    );
    let reference = match &problem.reference {
        Some(r) => Some(AnswerProgram::Reference(
            judge
                .build_package_program(problem, r, Role::Reference)
                .await?,
        )),
        None => None,
    };
    let validator = match problem.validator() {
        Some(v) => Some(
            judge
                .build_package_program(problem, &v.program, Role::Validator)
                .await?,
        ),
        None => None,
    };
    let generator = match (&problem.generator, spec.count) {
        (Some(g), n) if n > 0 => Some(
            judge
                .build_package_program(problem, g, Role::Generator)
                .await?,
        ),
        _ => None,
    };
    let shared = Arc::new(BruteContext {
        problem: Arc::clone(problem),
        brute,
        reference,
        validator,
        generator,
        checker: checker.clone(),
    });
    let mut tasks = tokio::task::JoinSet::new();
    for test in &tests.tests {
        let (judge, ctx) = (judge.clone(), Arc::clone(&shared));
        let (name, input, key, answer) = (
            test.name.clone(),
            test.input.clone(),
            test.input_key.clone(),
            test.answer.clone(),
        );
        let checker_args = test.checker_args.clone();
        tasks.spawn(async move {
            ctx.compare_on(
                &judge,
                Origin::Test(name),
                input,
                key,
                answer,
                &checker_args,
            )
            .await
        });
    }
    for seed in 1..=spec.count as u64 {
        let (judge, ctx) = (judge.clone(), Arc::clone(&shared));
        let args: Vec<String> = spec
            .generate
            .iter()
            .map(|a| a.replace(SEED, &seed.to_string()))
            .collect();
        tasks.spawn(async move {
            let generator = ctx.generator.as_ref().expect("built when count > 0");
            let (input, key) = match judge.generate(generator, &args).await? {
                Ok(generated) => generated,
                Err(why) => {
                    let what = PackageError::BruteGenerator { args, why };
                    return Err(Error::package(&ctx.problem.id, what));
                }
            };
            ctx.compare_on(&judge, Origin::Random(args), input, key, None, &[])
                .await
        });
    }
    let mut report = BruteReport {
        covers: spec.covers.clone(),
        tests_compared: 0,
        random_compared: 0,
        disagreements: Vec::new(),
    };
    let mut first_error = None;
    while let Some(joined) = tasks.join_next().await {
        match joined.expect("brute task panicked") {
            Ok(Compared::Skipped) => {}
            Ok(Compared::Agreed(Origin::Test(_))) => report.tests_compared += 1,
            Ok(Compared::Agreed(Origin::Random(_))) => report.random_compared += 1,
            Ok(Compared::Disagreed(line)) => report.disagreements.push(line),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    report.disagreements.sort();
    Ok(report)
}

struct BruteContext {
    problem: Arc<Problem>,
    brute: AnswerProgram,
    reference: Option<AnswerProgram>,
    validator: Option<Executable>,
    generator: Option<Executable>,
    checker: Checker,
}

enum Origin {
    Test(String),
    Random(Vec<String>),
}

impl Origin {
    fn describe(&self) -> String {
        match self {
            Origin::Test(name) => format!("test `{name}`"),
            Origin::Random(args) => format!("generated input (generator args {})", args.join(" ")),
        }
    }
}

enum Compared {
    Skipped,
    Agreed(Origin),
    Disagreed(String),
}

impl BruteContext {
    /// The pipeline on one input: inside the brute force's bounds (and, for
    /// a generated input, valid), then the expected answer; then the brute
    /// force's output on it, checked against that answer.
    async fn compare_on(
        &self,
        judge: &Judge,
        origin: Origin,
        input: PathBuf,
        input_key: Key,
        answer: Option<PathBuf>,
        checker_args: &[String],
    ) -> Result<Compared> {
        let spec = self.problem.brute.as_ref().expect("has a brute force");
        let package_err = |what| Error::package(&self.problem.id, what);
        let mut gates = Vec::new();
        if let (Some(validator), Some(problem_validator)) =
            (&self.validator, self.problem.validator())
        {
            gates.push(Gate {
                validator,
                args: spec.validator_args.clone(),
                valid_exit: problem_validator.valid_exit,
                given_up: None,
            });
            if let Origin::Random(_) = &origin {
                gates.push(Gate {
                    validator,
                    args: problem_validator.args.clone(),
                    valid_exit: problem_validator.valid_exit,
                    given_up: None,
                });
            }
        }
        let from = match (&answer, &self.reference) {
            (Some(answer), _) => AnswerFrom::File(answer),
            (None, Some(reference)) => AnswerFrom::Program(reference),
            (None, None) => return Err(package_err(PackageError::Missing(Needed::BruteReference))),
        };
        let case = judge.prepare_case(
            &self.problem.id,
            &input,
            &input_key,
            &gates,
            from,
            Memo::Cache,
        );
        let answer = match (case.await?, &origin) {
            (Case::Ready(answer), _) => answer,
            (Case::Invalid { gate: 0, .. }, Origin::Test(_)) => return Ok(Compared::Skipped),
            (Case::Invalid { gate: 0, why }, Origin::Random(_)) => {
                return Err(package_err(PackageError::OutsideBruteBounds {
                    input: origin.describe(),
                    covers: spec.covers.clone(),
                    why,
                }))
            }
            (Case::Invalid { why, .. }, _) => {
                return Err(package_err(PackageError::InvalidInput {
                    input: origin.describe(),
                    why,
                }))
            }
            (Case::NoAnswer(outcome), _) => {
                return Err(package_err(PackageError::Reference {
                    test: origin.describe(),
                    input,
                    why: crate::engine::describe_failure(&outcome),
                }))
            }
            (Case::Refused, _) => unreachable!("only a brute force refuses inputs"),
        };
        let answer_key = Key::of_file(&answer).map_err(|e| Error::io(&answer, e))?;
        let agreed = Key::of(&[
            b"brute-agrees-v1",
            self.brute.exe().key.as_str().as_bytes(),
            input_key.as_str().as_bytes(),
            answer_key.as_str().as_bytes(),
            self.problem.checker.describe().as_bytes(),
        ]);
        if judge.cache().get(Kind::Valid, &agreed).is_some() {
            return Ok(Compared::Agreed(origin));
        }
        let scratch = judge.cache().scratch_dir()?;
        let brute = judge.prepare_case(
            &self.problem.id,
            &input,
            &input_key,
            &[],
            AnswerFrom::Program(&self.brute),
            Memo::Dir(scratch.path()),
        );
        let output = match (brute.await?, &origin) {
            (Case::Ready(output), _) => output,
            (Case::Refused, Origin::Test(_)) => return Ok(Compared::Skipped),
            (Case::Refused, Origin::Random(_)) => {
                return Err(package_err(PackageError::BruteRefused {
                    input: origin.describe(),
                    code: crate::engine::BRUTE_SKIP,
                }))
            }
            (Case::NoAnswer(outcome), _) => {
                return Ok(Compared::Disagreed(format!(
                    "the brute force failed on {}: {}",
                    origin.describe(),
                    outcome.describe_exit()
                )))
            }
            (Case::Invalid { .. }, _) => unreachable!("no gates"),
        };
        let len = std::fs::metadata(&output)
            .map_err(|e| Error::io(&output, e))?
            .len();
        let subject = Subject {
            input: &input,
            output: Captured::File { path: output, len },
            answer: &answer,
            work: Some(scratch.path()),
            args: checker_args,
            carried_feedback: None,
        };
        let result = self.checker.check(judge.sandbox(), subject).await?;
        if result.verdict != Verdict::AC {
            return Ok(Compared::Disagreed(format!(
                "the reference and the brute force disagree on {} ({}): {}",
                origin.describe(),
                input.display(),
                result.message
            )));
        }
        judge.cache().put_bytes(Kind::Valid, &agreed, b"agrees")?;
        Ok(Compared::Agreed(origin))
    }
}

#[cfg(test)]
mod tests {
    use super::time_sensitivity;
    use crate::report::fixtures::{submission_report, test_report};
    use crate::verdict::Verdict;

    fn test(verdict: Verdict, ms: u64, ran_to_end: bool) -> crate::report::TestReport {
        let mut t = test_report("t1", verdict, "", None);
        t.time_ms = ms;
        t.exit_code = ran_to_end.then_some(0);
        t
    }

    /// problemtools' rule on a 1 s limit with time_limit_to_tle 1.5:
    /// sensitive when the verdict at 1.5 s would differ, from CPU times.
    #[test]
    fn sensitive_to_the_time_limit_as_problemtools_says() {
        for (verdict, ms, ran_to_end, sensitive) in [
            // Ended at 1.3 s: TLE at 1 s, AC at 1.5 s.
            (Verdict::TLE, 1300, true, true),
            // Stopped at 1.5 s: TLE at both.
            (Verdict::TLE, 1510, false, false),
            // Far under: AC at both, and on a machine 1.5 x slower.
            (Verdict::AC, 400, true, false),
            // Past 1 s / 1.5: a machine 1.5 x slower times it out.
            (Verdict::AC, 800, true, true),
            (Verdict::WA, 900, true, false),
        ] {
            let run = submission_report(vec![test(verdict, ms, ran_to_end)], verdict);
            let got = time_sensitivity(&run, 1.5);
            assert_eq!(got.is_some(), sensitive, "{verdict:?} {ms}: {got:?}");
        }
    }
}
