//! Which tests a problem has, in order, and where each comes from: files of
//! the package (listed once, in natural order) or generator runs.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use globset::Glob;

use crate::error::{Error, PackageError, Result};
use crate::problem::{EntryKind, GroupSource, PackageRoot, Problem, TestSource, SEED};

/// A test before its input and answer exist: its name, its group, and
/// where it comes from.
#[derive(Debug, Clone)]
pub(crate) struct PlannedTest {
    /// Its name.
    pub(crate) name: String,
    /// Its group.
    pub(crate) group: String,
    /// Where it comes from.
    pub(crate) source: Planned,
    /// Its group's extra validator arguments.
    pub(crate) validator_args: Vec<String>,
    /// Its group's checker arguments.
    pub(crate) checker_args: Vec<String>,
}

/// Where a test comes from.
#[derive(Debug, Clone)]
pub(crate) enum Planned {
    /// Files of the package.
    Fixed {
        /// The input.
        input: PathBuf,
        /// The answer, if the package has one.
        answer: Option<PathBuf>,
    },
    /// Text of the package's metadata.
    Inline {
        /// The input.
        input: String,
        /// The answer, if the package has one.
        answer: Option<String>,
    },
    /// A generator run.
    Generated {
        /// The generator: `None` for the problem's generator, else one of
        /// its named ones.
        generator: Option<String>,
        /// The generator's arguments.
        args: Vec<String>,
    },
}

/// Lists every test in order with where it comes from.
pub(crate) fn plan(problem: &Problem) -> Result<Vec<PlannedTest>> {
    let package_err = |what| Error::package(&problem.id, what);
    let mut out: Vec<PlannedTest> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut fixed: Option<Tests> = None;
    for group in &problem.groups {
        let planned = |name: String, source| PlannedTest {
            name,
            group: group.name.clone(),
            source,
            validator_args: group.validator_args.clone(),
            checker_args: group.checker_args.clone(),
        };
        match &group.source {
            GroupSource::Load(patterns) => {
                let (names, answers) = match &fixed {
                    Some(listed) => listed,
                    None => fixed.insert(list_tests(problem)?),
                };
                for pattern in patterns {
                    let glob = Glob::new(pattern).expect("validated").compile_matcher();
                    let matched: Vec<&(String, PathBuf)> = names
                        .iter()
                        .filter(|(n, _)| glob.is_match(n.as_str()))
                        .collect();
                    if matched.is_empty() {
                        return Err(package_err(PackageError::NoMatch {
                            group: group.name.clone(),
                            pattern: pattern.clone(),
                            dir: problem.testdata_dir.clone(),
                        }));
                    }
                    for (name, input) in matched {
                        if !seen.insert(name.clone()) {
                            continue;
                        }
                        let input = input.clone();
                        let answer = answers.get(name.as_str()).cloned();
                        out.push(planned(name.clone(), Planned::Fixed { input, answer }));
                    }
                }
            }
            GroupSource::Generate { args, seeds } => {
                for seed in seeds {
                    let name = format!("{}-{seed}", group.name);
                    if !seen.insert(name.clone()) {
                        return Err(package_err(PackageError::SameName { test: name }));
                    }
                    let args = args
                        .iter()
                        .map(|a| a.replace(SEED, &seed.to_string()))
                        .collect();
                    let source = Planned::Generated {
                        generator: None,
                        args,
                    };
                    out.push(planned(name, source));
                }
            }
            GroupSource::Tests(tests) => {
                for test in tests {
                    if !seen.insert(test.name.clone()) {
                        let test = test.name.clone();
                        return Err(package_err(PackageError::SameName { test }));
                    }
                    let source = match &test.source {
                        TestSource::File { input, answer } => Planned::Fixed {
                            input: input.clone(),
                            answer: answer.clone(),
                        },
                        TestSource::Inline { input, answer } => Planned::Inline {
                            input: input.clone(),
                            answer: answer.clone(),
                        },
                        TestSource::Command { generator, args } => Planned::Generated {
                            generator: Some(generator.clone()),
                            args: args.clone(),
                        },
                    };
                    let mut planned = planned(test.name.clone(), source);
                    if let Some(args) = &test.validator_args {
                        planned.validator_args = args.clone();
                    }
                    if let Some(args) = &test.checker_args {
                        planned.checker_args = args.clone();
                    }
                    out.push(planned);
                }
            }
        }
    }
    Ok(out)
}

/// The stems of `testdata/<id>/*.in`, in natural order, with where each
/// really is, and those of the `.ans` files there (regular files, or links
/// to them inside the package). One listing: the entry types come with it,
/// so a folder of many tests costs no `stat` per test (that was a
/// millisecond of every `judge run` on 200 tests).
fn list_tests(problem: &Problem) -> Result<Tests> {
    let dir = &problem.testdata_dir;
    let fail = |cause: std::io::Error| {
        Error::package(
            &problem.id,
            PackageError::TestData {
                dir: dir.clone(),
                cause,
            },
        )
    };
    let root = problem.root().map_err(fail)?;
    scan_tests(&root, dir).map_err(|why| fail(std::io::Error::other(why)))
}

/// The tests of `dir`, a folder of the package: links are followed inside
/// the package only, and an `.in` or `.ans` that is not a regular file is an
/// error naming it.
fn scan_tests(root: &PackageRoot, dir: &Path) -> std::result::Result<Tests, String> {
    let (mut names, mut answers) = (Vec::new(), HashMap::new());
    for entry in root.entries(dir)? {
        let stem = entry.name.strip_suffix(".in").map(|s| (s, true));
        let Some((stem, input)) =
            stem.or_else(|| entry.name.strip_suffix(".ans").map(|s| (s, false)))
        else {
            continue;
        };
        match entry.kind {
            EntryKind::File if input => names.push((stem.to_string(), entry.path)),
            EntryKind::File => {
                answers.insert(stem.to_string(), entry.path);
            }
            EntryKind::Other => {
                return Err(format!(
                    "{}: not a regular file (a pipe, socket or device)",
                    entry.name
                ))
            }
            EntryKind::Dir => {}
        }
    }
    names.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    Ok((names, answers))
}

/// The tests of a folder: (stem, input) in natural order, and the answers by stem.
type Tests = (Vec<(String, PathBuf)>, HashMap<String, PathBuf>);

/// Compares names with digit runs as numbers, so `edge-2` < `edge-10`.
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
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

/// How many tests a problem has (without generating anything).
pub(crate) fn count(problem: &Problem) -> Result<usize> {
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
        let root = PackageRoot::new(dir.path()).unwrap();
        let (names, answers) = scan_tests(&root, dir.path()).unwrap();
        let names: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["1", "2", "3", "4", "10"]);
        let mut stems: Vec<_> = answers.keys().cloned().collect();
        stems.sort();
        assert_eq!(stems, ["1", "3"]);
        // A link is where it leads.
        assert_eq!(
            answers["3"],
            std::fs::canonicalize(dir.path().join("1.ans")).unwrap()
        );
        // A link out of the package, a pipe: errors naming them.
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("5.in")).unwrap();
        let error = scan_tests(&root, dir.path()).unwrap_err();
        assert!(
            error.contains("5.in") && error.contains("leaves the package"),
            "{error}"
        );
        std::fs::remove_file(dir.path().join("5.in")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join("6.in"))
            .status()
            .unwrap();
        assert!(made.success());
        let error = scan_tests(&root, dir.path()).unwrap_err();
        assert!(error.contains("6.in: not a regular file"), "{error}");
    }
}
