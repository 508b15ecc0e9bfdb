//! Materialising a problem's test set: fixed files from `testdata/<id>/`,
//! inputs from generator runs, validation of every input, and answers from
//! the reference solution where no fixed answer exists. Generated inputs,
//! validation marks and answers are cached by content keys. The main types
//! are [`TestSet`] and [`TestCase`].

use std::cmp::Ordering;
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::cache::{Key, Kind};
use crate::compile::Executable;
use crate::error::{Error, Result};
use crate::judge::Judge;
use crate::problem::{GroupSource, Problem, SEED};
use crate::sandbox::{Captured, Stdin};

/// One test: an input and (usually) its answer.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// Position in test order, from 0.
    pub index: usize,
    /// Name (`sample-1`, `random-3`).
    pub name: String,
    /// Group name.
    pub group: String,
    /// The input file.
    pub input: PathBuf,
    /// Identity of the input's content.
    pub input_key: Key,
    /// The answer file, if there is one.
    pub answer: Option<PathBuf>,
}

/// A problem's tests in order.
#[derive(Debug, Clone)]
pub struct TestSet {
    /// The tests.
    pub tests: Vec<TestCase>,
}

/// A test before its input and answer exist.
#[derive(Debug, Clone)]
enum Planned {
    Fixed {
        input: PathBuf,
        answer: Option<PathBuf>,
    },
    Generated {
        args: Vec<String>,
    },
}

/// Selects tests by name (`--tests` globs); all when empty.
#[derive(Debug, Clone, Default)]
pub struct TestFilter {
    set: Option<GlobSet>,
}

impl TestFilter {
    /// A filter from glob patterns over test names.
    pub fn new(patterns: &[String]) -> Result<TestFilter> {
        if patterns.is_empty() {
            return Ok(TestFilter { set: None });
        }
        let mut builder = GlobSetBuilder::new();
        for p in patterns {
            builder.add(
                Glob::new(p)
                    .map_err(|e| Error::Usage(format!("bad --tests pattern `{p}`: {e}")))?,
            );
        }
        let set = builder
            .build()
            .map_err(|e| Error::Usage(format!("bad --tests patterns: {e}")))?;
        Ok(TestFilter { set: Some(set) })
    }

    fn matches(&self, name: &str) -> bool {
        self.set.as_ref().is_none_or(|s| s.is_match(name))
    }
}

/// Builds the test set of `problem`: every input exists, is valid, and has an
/// answer (from the package or the reference solution).
pub async fn materialise(
    judge: &Judge,
    problem: &Arc<Problem>,
    filter: &TestFilter,
) -> Result<TestSet> {
    let planned = plan(problem)?;
    let planned: Vec<(String, String, Planned)> = planned
        .into_iter()
        .filter(|(name, _, _)| filter.matches(name))
        .collect();
    if planned.is_empty() {
        return Err(Error::Usage(format!(
            "no test of problem {} matches the --tests patterns",
            problem.id
        )));
    }
    let needs_generator = planned
        .iter()
        .any(|(_, _, p)| matches!(p, Planned::Generated { .. }));
    let needs_reference = planned.iter().any(|(_, _, p)| match p {
        Planned::Fixed { answer, .. } => answer.is_none(),
        Planned::Generated { .. } => true,
    });
    let generator = match (&problem.generator, needs_generator) {
        (Some(spec), true) => Some(
            judge
                .build_package_program(problem, spec, "generator")
                .await?,
        ),
        _ => None,
    };
    let reference = match (&problem.reference, needs_reference) {
        (Some(spec), true) => Some(
            judge
                .build_package_program(problem, spec, "reference")
                .await?,
        ),
        (None, true) => {
            let (name, _, _) = planned
                .iter()
                .find(|(_, _, p)| {
                    !matches!(
                        p,
                        Planned::Fixed {
                            answer: Some(_),
                            ..
                        }
                    )
                })
                .expect("some test needs a reference");
            return Err(Error::Package {
                problem: problem.id.clone(),
                what: format!("test `{name}` has no answer file and the problem has no [reference] to compute one"),
            });
        }
        _ => None,
    };
    let validator = match &problem.validator {
        Some(spec) => Some(
            judge
                .build_package_program(problem, &spec.program, "validator")
                .await?,
        ),
        None => None,
    };
    let shared = Arc::new(Programs {
        generator,
        reference,
        validator,
    });
    let mut tasks = tokio::task::JoinSet::new();
    for (index, (name, group, plan)) in planned.into_iter().enumerate() {
        let judge = judge.clone();
        let problem = Arc::clone(problem);
        let shared = Arc::clone(&shared);
        tasks.spawn(async move {
            let test = make_test(&judge, &problem, &shared, index, name, group, plan).await;
            (index, test)
        });
    }
    let mut tests: Vec<Option<TestCase>> = vec![None; tasks.len()];
    let mut first_error: Option<(usize, Error)> = None;
    while let Some(joined) = tasks.join_next().await {
        let (index, result) = joined.expect("test materialisation panicked");
        match result {
            Ok(t) => tests[index] = Some(t),
            // Report the error of the earliest test, whatever finished first.
            Err(e) if first_error.as_ref().is_none_or(|(i, _)| index < *i) => {
                first_error = Some((index, e))
            }
            Err(_) => {}
        }
    }
    if let Some((_, e)) = first_error {
        return Err(e);
    }
    Ok(TestSet {
        tests: tests
            .into_iter()
            .map(|t| t.expect("every test materialised"))
            .collect(),
    })
}

/// A one-test set for `judge run --input FILE`: the answer comes from the
/// reference solution when the problem has one.
pub async fn single(judge: &Judge, problem: &Arc<Problem>, input: &Path) -> Result<TestSet> {
    let input = crate::config::absolute(input);
    let input_key = Key::of_file(&input).map_err(|e| Error::io(&input, e))?;
    let answer = match &problem.reference {
        Some(spec) => {
            let reference = judge
                .build_package_program(problem, spec, "reference")
                .await?;
            let name = input
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Some(
                answer_from_reference(judge, problem, &reference, &input, &input_key, &name)
                    .await?,
            )
        }
        None => None,
    };
    let name = input
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    Ok(TestSet {
        tests: vec![TestCase {
            index: 0,
            name,
            group: "input".into(),
            input,
            input_key,
            answer,
        }],
    })
}

struct Programs {
    generator: Option<Executable>,
    reference: Option<Executable>,
    validator: Option<Executable>,
}

/// Lists every test in order with where it comes from.
fn plan(problem: &Problem) -> Result<Vec<(String, String, Planned)>> {
    let mut out: Vec<(String, String, Planned)> = Vec::new();
    let mut fixed: Option<(Vec<String>, HashSet<String>)> = None;
    for group in &problem.groups {
        match &group.source {
            GroupSource::Load(patterns) => {
                let (names, answers) = match &fixed {
                    Some(listed) => listed,
                    None => fixed.insert(list_tests(problem)?),
                };
                for pattern in patterns {
                    let glob = Glob::new(pattern).expect("validated").compile_matcher();
                    let matched: Vec<&String> =
                        names.iter().filter(|n| glob.is_match(n.as_str())).collect();
                    if matched.is_empty() {
                        return Err(Error::Package {
                            problem: problem.id.clone(),
                            what: format!(
                                "group `{}`: pattern `{pattern}` matches no `.in` file in {}",
                                group.name,
                                problem.testdata_dir.display()
                            ),
                        });
                    }
                    for name in matched {
                        if out.iter().any(|(n, _, _)| n == name) {
                            continue;
                        }
                        let input = problem.testdata_dir.join(format!("{name}.in"));
                        let answer = answers
                            .contains(name.as_str())
                            .then(|| problem.testdata_dir.join(format!("{name}.ans")));
                        out.push((
                            name.clone(),
                            group.name.clone(),
                            Planned::Fixed { input, answer },
                        ));
                    }
                }
            }
            GroupSource::Generate { args, seeds } => {
                for seed in seeds {
                    let name = format!("{}-{seed}", group.name);
                    if out.iter().any(|(n, _, _)| *n == name) {
                        return Err(Error::Package {
                            problem: problem.id.clone(),
                            what: format!(
                                "two tests are named `{name}`; rename the group or the file"
                            ),
                        });
                    }
                    let args = args
                        .iter()
                        .map(|a| a.replace(SEED, &seed.to_string()))
                        .collect();
                    out.push((name, group.name.clone(), Planned::Generated { args }));
                }
            }
        }
    }
    Ok(out)
}

/// The stems of `testdata/<id>/*.in`, in natural order, and those of the
/// `.ans` files there (regular files, or links to them). One listing: the
/// entry types come with it, so a folder of many tests costs no `stat` per
/// test (that was a millisecond of every `judge run` on 200 tests).
fn list_tests(problem: &Problem) -> Result<(Vec<String>, HashSet<String>)> {
    let dir = &problem.testdata_dir;
    scan_tests(dir).map_err(|e| Error::Package {
        problem: problem.id.clone(),
        what: format!("cannot read the test data folder {}: {e}", dir.display()),
    })
}

fn scan_tests(dir: &Path) -> std::io::Result<(Vec<String>, HashSet<String>)> {
    let entries = std::fs::read_dir(dir)?;
    let (mut names, mut answers) = (Vec::new(), HashSet::new());
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".in") {
            names.push(stem.to_string());
        } else if let Some(stem) = name.strip_suffix(".ans") {
            let is_file = match entry.file_type() {
                Ok(t) if t.is_symlink() => entry.path().is_file(),
                Ok(t) => t.is_file(),
                Err(_) => entry.path().is_file(),
            };
            if is_file {
                answers.insert(stem.to_string());
            }
        }
    }
    names.sort_by(|a, b| natural_cmp(a, b));
    Ok((names, answers))
}

/// Compares names with digit runs as numbers, so `edge-2` < `edge-10`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let dx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let dy = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let nx = std::str::from_utf8(&x[..dx])
                    .unwrap()
                    .trim_start_matches('0');
                let ny = std::str::from_utf8(&y[..dy])
                    .unwrap()
                    .trim_start_matches('0');
                match nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny)) {
                    Ordering::Equal => {}
                    other => return other,
                }
                x = &x[dx..];
                y = &y[dy..];
            }
            (Some(p), Some(q)) => {
                if p != q {
                    return p.cmp(q);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

async fn make_test(
    judge: &Judge,
    problem: &Problem,
    programs: &Programs,
    index: usize,
    name: String,
    group: String,
    plan: Planned,
) -> Result<TestCase> {
    let package_err = |what: String| Error::Package {
        problem: problem.id.clone(),
        what,
    };
    let (input, input_key, answer) = match plan {
        Planned::Fixed { input, answer } => {
            let key = Key::of_file(&input).map_err(|e| Error::io(&input, e))?;
            (input, key, answer)
        }
        Planned::Generated { args } => {
            let generator = programs.generator.as_ref().expect("built when needed");
            let (input, key) = generate(judge, generator, &args).await.map_err(|why| {
                package_err(format!(
                    "generator failed for test `{name}` (args {args:?}): {why}"
                ))
            })?;
            (input, key, None)
        }
    };
    if let (Some(validator), Some(spec)) = (&programs.validator, &problem.validator) {
        let validity = validate(
            judge,
            &problem.id,
            validator,
            &spec.args,
            &input,
            &input_key,
        );
        if let Validity::Invalid(why) = validity.await? {
            return Err(package_err(format!(
                "test `{name}` ({}) is invalid: {why}",
                input.display()
            )));
        }
    }
    let answer = match answer {
        Some(a) => Some(a),
        None => {
            let reference = programs.reference.as_ref().expect("built when needed");
            Some(answer_from_reference(judge, problem, reference, &input, &input_key, &name).await?)
        }
    };
    Ok(TestCase {
        index,
        name,
        group,
        input,
        input_key,
        answer,
    })
}

/// Runs the generator with `args`; the input is cached by (generator, args).
pub async fn generate(
    judge: &Judge,
    generator: &Executable,
    args: &[String],
) -> std::result::Result<(PathBuf, Key), String> {
    let key = Key::of(&[
        b"input-v1",
        generator.key.as_str().as_bytes(),
        args.join("\0").as_bytes(),
    ]);
    if let Some(path) = judge.cache().get(Kind::Input, &key) {
        return Ok((path, key));
    }
    let mut argv = generator.argv(None);
    argv.extend(args.iter().map(OsString::from));
    let scratch = judge.cache().scratch_dir().map_err(|e| e.to_string())?;
    let outcome = judge
        .run_package_program(argv, scratch.path(), Stdin::Null)
        .await
        .map_err(|e| crate::error::render_chain(&e))?;
    if !outcome.success() {
        return Err(describe_failure(&outcome));
    }
    let path = store(judge, Kind::Input, &key, &outcome.stdout).map_err(|e| e.to_string())?;
    Ok((path, key))
}

fn store(judge: &Judge, kind: Kind, key: &Key, captured: &Captured) -> Result<PathBuf> {
    match captured {
        Captured::Memory(bytes) => judge.cache().put_bytes(kind, key, bytes),
        Captured::File { path, .. } => judge.cache().put_file(kind, key, path),
    }
}

/// What a validator said of an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validity {
    /// It accepted the input.
    Valid,
    /// It rejected it (exited with a code other than 0), saying this.
    Invalid(String),
}

/// Runs the validator (with `args`) on an input; passes are cached. A
/// validator that fails (crashes, is killed, exceeds a limit, cannot start)
/// is the package's fault: an error naming it, never a rejection.
pub async fn validate(
    judge: &Judge,
    problem: &str,
    validator: &Executable,
    args: &[String],
    input: &Path,
    input_key: &Key,
) -> Result<Validity> {
    let key = Key::of(&[
        b"valid-v1",
        validator.key.as_str().as_bytes(),
        args.join("\0").as_bytes(),
        input_key.as_str().as_bytes(),
    ]);
    if judge.cache().get(Kind::Valid, &key).is_some() {
        return Ok(Validity::Valid);
    }
    let validity = run_validator(judge, problem, validator, args, input).await?;
    if validity == Validity::Valid {
        judge.cache().put_bytes(Kind::Valid, &key, b"ok")?;
    }
    Ok(validity)
}

/// Runs the validator (with `args`) on an input, without the cache (for
/// throwaway inputs such as stress iterations); see [`validate`].
pub async fn run_validator(
    judge: &Judge,
    problem: &str,
    validator: &Executable,
    args: &[String],
    input: &Path,
) -> Result<Validity> {
    let mut argv = validator.argv(None);
    argv.extend(args.iter().map(OsString::from));
    let scratch = judge.cache().scratch_dir()?;
    let outcome = judge
        .run_package_program(argv, scratch.path(), Stdin::File(input.to_path_buf()))
        .await?;
    match (outcome.exit, outcome.limit_hit) {
        (crate::sandbox::Exit::Code(0), None) => Ok(Validity::Valid),
        (crate::sandbox::Exit::Code(_), None) => {
            let said = String::from_utf8_lossy(&outcome.stderr).trim().to_string();
            let said = if said.is_empty() {
                String::from_utf8_lossy(&outcome.stdout.to_vec().unwrap_or_default())
                    .trim()
                    .to_string()
            } else {
                said
            };
            Ok(Validity::Invalid(if said.is_empty() {
                format!("the validator rejected it ({})", outcome.describe_exit())
            } else {
                format!("the validator says: {said}")
            }))
        }
        _ => Err(Error::Package {
            problem: problem.to_string(),
            what: format!(
                "the validator {} failed on {}: {}",
                validator.source.display(),
                input.display(),
                describe_failure(&outcome)
            ),
        }),
    }
}

/// The reference's answer for an input, cached by (reference, input).
pub async fn answer_from_reference(
    judge: &Judge,
    problem: &Problem,
    reference: &Executable,
    input: &Path,
    input_key: &Key,
    name: &str,
) -> Result<PathBuf> {
    let key = Key::of(&[
        b"answer-v1",
        reference.key.as_str().as_bytes(),
        input_key.as_str().as_bytes(),
    ]);
    if let Some(path) = judge.cache().get(Kind::Answer, &key) {
        return Ok(path);
    }
    let scratch = judge.cache().scratch_dir()?;
    let outcome = judge
        .run_package_program(
            reference.argv(None),
            scratch.path(),
            Stdin::File(input.to_path_buf()),
        )
        .await?;
    if !outcome.success() {
        return Err(Error::Package {
            problem: problem.id.clone(),
            what: format!(
                "the reference solution failed on test `{name}` ({}): {}",
                input.display(),
                describe_failure(&outcome)
            ),
        });
    }
    store(judge, Kind::Answer, &key, &outcome.stdout)
}

/// Why a package program failed: the exit or limit, and its last stderr line.
pub fn describe_failure(outcome: &crate::sandbox::RunOutcome) -> String {
    let how = match outcome.limit_hit {
        Some(hit) => format!("stopped by the {hit:?} limit for package programs"),
        None => outcome.describe_exit(),
    };
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    let last = stderr.trim().lines().last().unwrap_or("");
    if last.is_empty() {
        how
    } else {
        format!("{how}: {last}")
    }
}

/// How many tests a problem has (without generating anything).
pub fn count(problem: &Problem) -> Result<usize> {
    Ok(plan(problem)?.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut names = vec!["edge-10", "edge-2", "sample-1", "edge-1", "a", "edge-02x"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            ["a", "edge-1", "edge-2", "edge-02x", "edge-10", "sample-1"]
        );
    }

    #[test]
    fn one_listing_finds_inputs_and_which_have_answers() {
        let dir = tempfile::tempdir().unwrap();
        let touch = |name: &str| std::fs::write(dir.path().join(name), "1\n").unwrap();
        for name in [
            "10.in",
            "2.in",
            "1.in",
            "1.ans",
            "3.in",
            "4.in",
            "notes.txt",
        ] {
            touch(name);
        }
        // A link to an answer counts; a folder named like one, or a
        // dangling link, does not.
        std::os::unix::fs::symlink(dir.path().join("1.ans"), dir.path().join("3.ans")).unwrap();
        std::fs::create_dir(dir.path().join("4.ans")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("gone"), dir.path().join("10.ans")).unwrap();
        let (names, answers) = scan_tests(dir.path()).unwrap();
        assert_eq!(names, ["1", "2", "3", "4", "10"]);
        let mut answers: Vec<_> = answers.into_iter().collect();
        answers.sort();
        assert_eq!(answers, ["1", "3"]);
    }
}
