//! `judge verify`: a package proves itself. Every program compiles, every test
//! is valid, the reference agrees with the brute force on every test inside the
//! brute force's bounds and on extra random small inputs, and every declared
//! solution (and the reference) gets its expected verdict. The main type is
//! [`VerifyReport`]; [`render_human`] prints it as Polygon's invocation matrix.

use std::sync::Arc;

use serde::Serialize;

use crate::cache::{Key, Kind};
use crate::check;
use crate::compile::Executable;
use crate::error::{Error, Result};
use crate::judge::{Checker, Judge, RunOptions, Submission};
use crate::problem::{Problem, ProgramSpec, SolutionSpec, SEED};
use crate::report::{SubmissionReport, SCHEMA_VERSION};
use crate::sandbox::Stdin;
use crate::testset::Validity;
use crate::testset::{self, TestFilter, TestSet};
use crate::verdict::Verdict;

/// Exit code of the brute force for "this input is outside my bounds".
pub const BRUTE_SKIP: i32 = 3;

/// The verification of one package.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    /// Schema version (shared with the run report).
    pub schema_version: u32,
    /// Problem id.
    pub problem: String,
    /// Whether everything holds.
    pub ok: bool,
    /// What does not hold, one line each (empty when ok).
    pub failures: Vec<String>,
    /// Test names in order (all validated).
    pub tests: Vec<String>,
    /// The brute-force comparison, when the package has a brute force.
    pub brute: Option<BruteReport>,
    /// Every declared solution (the reference first) with its expectation.
    pub solutions: Vec<SolutionResult>,
}

/// Reference against brute force.
#[derive(Debug, Clone, Serialize)]
pub struct BruteReport {
    /// What the brute force covers.
    pub covers: String,
    /// Tests inside the bounds, compared.
    pub tests_compared: usize,
    /// Extra random small inputs compared.
    pub random_compared: usize,
    /// Disagreements, one line each.
    pub disagreements: Vec<String>,
}

/// A solution's result against its expectation.
#[derive(Debug, Clone, Serialize)]
pub struct SolutionResult {
    /// Verdicts it may get.
    pub expected: Vec<Verdict>,
    /// Whether it got one of them.
    pub ok: bool,
    /// The full run report.
    pub report: SubmissionReport,
}

/// Verifies one package. Package faults (invalid tests, failing programs)
/// are failures in the report; only environment problems are errors.
pub async fn verify(
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
    };
    if problem.validator.is_none() {
        report
            .failures
            .push("the package has no [validator]: tests cannot be proven valid".into());
    }
    let tests = match testset::materialise(judge, problem, &TestFilter::default()).await {
        Ok(t) => Arc::new(t),
        Err(Error::Package { what, .. }) => {
            report.failures.push(what);
            return Ok(report);
        }
        Err(e) => return Err(e),
    };
    report.tests = tests.tests.iter().map(|t| t.name.clone()).collect();
    let checker = match judge.prepare_checker(problem).await {
        Ok(c) => c,
        Err(Error::Package { what, .. }) => {
            report.failures.push(what);
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
            Err(Error::Package { what, .. }) => report.failures.push(what),
            Err(e) => return Err(e),
        }
    } else {
        report
            .failures
            .push("the package has no [brute] force to check the reference against".into());
    }
    let mut solutions: Vec<SolutionSpec> = Vec::new();
    if let Some(reference) = &problem.reference {
        solutions.push(SolutionSpec {
            program: reference.clone(),
            expect: vec![Verdict::AC],
        });
    }
    solutions.extend(problem.solutions.iter().cloned());
    for solution in solutions {
        let language = judge.language_of(&solution.program)?;
        let submission = Submission {
            path: display_path(problem, &solution.program),
            language,
        };
        let mut submission_abs = submission.clone();
        submission_abs.path = solution.program.path.clone();
        let mut run = judge
            .judge_submission(problem, &tests, &checker, &submission_abs, options, |_| {})
            .await?;
        run.submission = submission.path.display().to_string();
        let ok = solution.expect.contains(&run.verdict);
        if !ok {
            let expected: Vec<&str> = solution.expect.iter().map(|v| v.as_str()).collect();
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
        report.solutions.push(SolutionResult {
            expected: solution.expect.clone(),
            ok,
            report: run,
        });
    }
    report.ok = report.failures.is_empty();
    Ok(report)
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
    let brute = judge
        .build_package_program(problem, &spec.program, "brute force")
        .await?;
    let reference = match &problem.reference {
        Some(r) => Some(judge.build_package_program(problem, r, "reference").await?),
        None => None,
    };
    let validator = match &problem.validator {
        Some(v) => Some(
            judge
                .build_package_program(problem, &v.program, "validator")
                .await?,
        ),
        None => None,
    };
    let generator = match (&problem.generator, spec.count) {
        (Some(g), n) if n > 0 => Some(judge.build_package_program(problem, g, "generator").await?),
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
        tasks.spawn(async move {
            ctx.compare_on(&judge, Origin::Test(name), input, key, answer)
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
            let (input, key) =
                testset::generate(&judge, generator, &args)
                    .await
                    .map_err(|why| Error::Package {
                        problem: ctx.problem.id.clone(),
                        what: format!(
                            "generator failed for the brute-force input (args {args:?}): {why}"
                        ),
                    })?;
            ctx.compare_on(&judge, Origin::Random(args), input, key, None)
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
    brute: Executable,
    reference: Option<Executable>,
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
    async fn compare_on(
        &self,
        judge: &Judge,
        origin: Origin,
        input: std::path::PathBuf,
        input_key: Key,
        answer: Option<std::path::PathBuf>,
    ) -> Result<Compared> {
        let spec = self.problem.brute.as_ref().expect("has a brute force");
        let package_err = |what: String| Error::Package {
            problem: self.problem.id.clone(),
            what,
        };
        // Inside the brute force's bounds?
        if let Some(validator) = &self.validator {
            let inside = testset::validate(
                judge,
                &self.problem.id,
                validator,
                &spec.validator_args,
                &input,
                &input_key,
            );
            if let Validity::Invalid(why) = inside.await? {
                return match origin {
                    Origin::Test(_) => Ok(Compared::Skipped),
                    Origin::Random(_) => Err(package_err(format!(
                        "{} is outside the brute force's bounds ({}): {why}",
                        origin.describe(),
                        spec.covers
                    ))),
                };
            }
            if let (Origin::Random(_), Some(problem_validator)) = (&origin, &self.problem.validator)
            {
                let validity = testset::validate(
                    judge,
                    &self.problem.id,
                    validator,
                    &problem_validator.args,
                    &input,
                    &input_key,
                );
                if let Validity::Invalid(why) = validity.await? {
                    return Err(package_err(format!(
                        "{} is invalid: {why}",
                        origin.describe()
                    )));
                }
            }
        }
        let answer = match answer {
            Some(a) => a,
            None => {
                let reference = self.reference.as_ref().ok_or_else(|| {
                    package_err("the brute force needs a [reference] to compare with".into())
                })?;
                testset::answer_from_reference(
                    judge,
                    &self.problem,
                    reference,
                    &input,
                    &input_key,
                    &origin.describe(),
                )
                .await?
            }
        };
        let answer_key = Key::of_file(&answer).map_err(|e| Error::io(&answer, e))?;
        let agreed = Key::of(&[
            b"brute-agrees-v1",
            self.brute.key.as_str().as_bytes(),
            input_key.as_str().as_bytes(),
            answer_key.as_str().as_bytes(),
            self.problem.checker.describe().as_bytes(),
        ]);
        if judge.cache().get(Kind::Valid, &agreed).is_some() {
            return Ok(Compared::Agreed(origin));
        }
        let scratch = judge.cache().scratch_dir()?;
        let outcome = judge
            .run_package_program(
                self.brute.argv(None),
                scratch.path(),
                Stdin::File(input.clone()),
            )
            .await?;
        if outcome.exit == crate::sandbox::Exit::Code(BRUTE_SKIP) {
            return match origin {
                Origin::Test(_) => Ok(Compared::Skipped),
                Origin::Random(_) => Err(package_err(format!(
                    "the brute force refused {} (exit {BRUTE_SKIP}) although the validator says it is inside its bounds",
                    origin.describe()
                ))),
            };
        }
        if !outcome.success() {
            return Ok(Compared::Disagreed(format!(
                "the brute force failed on {}: {}",
                origin.describe(),
                outcome.describe_exit()
            )));
        }
        let result = match &self.checker {
            Checker::Builtin(spec) => {
                check::compare(spec, &outcome.stdout, &answer).map_err(|e| Error::io(&answer, e))?
            }
            Checker::External(program) => {
                let limits = judge.package_limits();
                check::external::check(
                    judge.sandbox(),
                    program,
                    &input,
                    &outcome.stdout,
                    &answer,
                    scratch.path(),
                    limits,
                )
                .await
                .map_err(|e| Error::Sandbox {
                    program: "checker".into(),
                    source: std::io::Error::other(e.to_string()),
                })?
            }
        };
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

/// One letter per verdict in the matrix.
fn letter(v: Verdict) -> char {
    match v {
        Verdict::AC => '.',
        Verdict::WA => 'W',
        Verdict::PE => 'P',
        Verdict::TLE => 'T',
        Verdict::MLE => 'M',
        Verdict::OLE => 'O',
        Verdict::RE => 'R',
        Verdict::CE => 'C',
        Verdict::IE => 'I',
    }
}

/// Renders a verification as text: tests, brute force, the solution × test matrix.
pub fn render_human(r: &VerifyReport) -> String {
    let mut out = format!("{}: {} tests", r.problem, r.tests.len());
    if !r.tests.is_empty() {
        out.push_str(", all valid");
    }
    out.push('\n');
    if let Some(b) = &r.brute {
        out.push_str(&format!(
            "  brute force ({}): agrees with the answers on {} tests and {} random small inputs{}\n",
            b.covers,
            b.tests_compared,
            b.random_compared,
            if b.disagreements.is_empty() {
                String::new()
            } else {
                format!(", DISAGREES on {}", b.disagreements.len())
            }
        ));
    }
    if !r.solutions.is_empty() {
        let width = r
            .solutions
            .iter()
            .map(|s| s.report.submission.len())
            .max()
            .unwrap_or(8)
            .max(8);
        let n = r.tests.len();
        let mut ruler = String::new();
        for i in 1..=n {
            ruler.push(if i % 10 == 0 {
                char::from(b'0' + ((i / 10) % 10) as u8)
            } else if i % 5 == 0 {
                '+'
            } else {
                ' '
            });
        }
        out.push_str(&format!(
            "  {:<width$}  {:<9} {:<4} {}\n",
            "solution",
            "expected",
            "got",
            ruler.trim_end()
        ));
        for s in &r.solutions {
            let mut cells: String = s.report.tests.iter().map(|t| letter(t.verdict)).collect();
            if s.report.tests.is_empty() && !s.report.skipped.is_empty() {
                cells = "C".repeat(s.report.skipped.len());
            }
            let expected: Vec<&str> = s.expected.iter().map(|v| v.as_str()).collect();
            out.push_str(&format!(
                "  {:<width$}  {:<9} {:<4} {}{}\n",
                s.report.submission,
                expected.join("|"),
                s.report.verdict.as_str(),
                cells,
                if s.ok { "" } else { "   <-- MISMATCH" }
            ));
        }
        out.push_str("  (. AC  W WA  P PE  T TLE  M MLE  O OLE  R RE  C CE  I IE)\n");
    }
    if r.ok {
        out.push_str("  ok: the package holds\n");
    } else {
        for f in &r.failures {
            let f = crate::report::printable(f);
            let mut lines = f.lines();
            out.push_str(&format!("  FAIL: {}\n", lines.next().unwrap_or("")));
            for l in lines {
                out.push_str(&format!("        {l}\n"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_distinct() {
        let mut seen = std::collections::BTreeSet::new();
        for v in Verdict::ALL {
            assert!(seen.insert(letter(v)), "{v}");
        }
    }
}
