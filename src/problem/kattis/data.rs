//! The test data of an ICPC package: `data/sample` and `data/secret`, each
//! directory a group (nested to any depth), visited in byte order of names
//! as problemtools does (files and subdirectories interleave). A test is
//! `X.in` with `X.ans`; a group's settings (`testdata.yaml`, or the
//! 2025-09 `test_group.yaml`) apply to the groups below it, and a test's own
//! `X.yaml` (2025-09) to it alone.

use std::path::{Path, PathBuf};

use super::yaml::{self, Table};
use super::Version;
use crate::problem::{
    Constants, EntryKind, GroupSource, PackageRoot, TestGroup, TestSource, TestSpec, MAX_TESTS,
};

/// What a group passes on to the groups below it.
#[derive(Debug, Clone, Default)]
struct Inherited {
    validator_args: Vec<String>,
    checker_args: Vec<String>,
}

/// Reads `data/`: the groups in test order. Every test's checker gets
/// `checker_args` before its group's. Problems go to `problems`, what is
/// ignored to `notes`.
pub(super) fn groups(
    package: &PackageRoot,
    version: Version,
    checker_args: &[String],
    constants: &Constants,
    problems: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Vec<TestGroup> {
    let data = package.dir().join("data");
    let mut out = Vec::new();
    let entries = match sorted_entries(package, &data) {
        Ok(e) => e,
        Err(e) => {
            problems.push(format!("data: cannot read it: {e}"));
            return out;
        }
    };
    let root = apply_config(
        package,
        &data,
        Inherited::default(),
        constants,
        problems,
        notes,
    );
    let mut walker = Walker {
        package,
        version,
        base_checker_args: checker_args,
        constants,
        problems,
        notes,
        groups: &mut out,
        count: 0,
        seen: Default::default(),
    };
    let mut seen_secret = false;
    for (name, path) in entries {
        let is_dir = path.is_dir();
        match (name.as_str(), is_dir) {
            ("sample" | "secret", true) => {
                seen_secret |= name == "secret";
                walker.group(&path, &name, root.clone(), 1);
            }
            ("testdata.yaml" | "test_group.yaml", false) => {}
            _ => walker.notes.push(format!(
                "data/{name}: ignored (judging uses data/sample and data/secret)"
            )),
        }
    }
    // BAPCtools verifies a package with samples alone; so does judge.
    if !seen_secret {
        walker
            .notes
            .push("data/secret: missing: judging uses data/sample alone".into());
    }
    if out.is_empty() {
        problems.push("data: no tests (no X.in with X.ans in data/sample or data/secret)".into());
    }
    out
}

struct Walker<'a> {
    package: &'a PackageRoot,
    version: Version,
    /// The flags every test's checker gets first (legacy `validator_flags`).
    base_checker_args: &'a [String],
    /// Replaced in `testdata.yaml` and `test_group.yaml`.
    constants: &'a Constants,
    problems: &'a mut Vec<String>,
    notes: &'a mut Vec<String>,
    groups: &'a mut Vec<TestGroup>,
    count: u64,
    /// The folders walked (links inside the package may lead back).
    seen: std::collections::HashSet<PathBuf>,
}

impl Walker<'_> {
    /// One group directory: its tests in order, its subgroups in place.
    fn group(&mut self, dir: &Path, name: &str, parent: Inherited, depth: usize) {
        if depth > crate::problem::package::MAX_DEPTH {
            self.problems.push(format!(
                "data/{name}: groups nested more than {} deep",
                crate::problem::package::MAX_DEPTH
            ));
            return;
        }
        let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !self.seen.insert(real) {
            self.problems
                .push(format!("data/{name}: a link back to a folder already read"));
            return;
        }
        let settings = apply_config(
            self.package,
            dir,
            parent,
            self.constants,
            self.problems,
            self.notes,
        );
        let entries = match sorted_entries(self.package, dir) {
            Ok(e) => e,
            Err(e) => {
                self.problems
                    .push(format!("data/{name}: cannot read it: {e}"));
                return;
            }
        };
        for (entry, path) in &entries {
            let test_file = entry.ends_with(".in") || entry.ends_with(".ans");
            if test_file && !path.is_file() && !path.is_dir() {
                self.problems.push(format!(
                    "data/{name}/{entry}: not a regular file (a pipe, socket or device)"
                ));
            }
        }
        let inputs: Vec<&String> = entries
            .iter()
            .filter_map(|(n, p)| n.strip_suffix(".in").filter(|_| p.is_file()).map(|_| n))
            .collect();
        // Where each answer really is (a link inside the package followed).
        let answers: std::collections::HashMap<&str, &PathBuf> = entries
            .iter()
            .filter(|(_, p)| p.is_file())
            .filter_map(|(n, p)| Some((n.strip_suffix(".ans")?, p)))
            .collect();
        let mut run: Vec<TestSpec> = Vec::new();
        for (entry, path) in &entries {
            if path.is_dir() {
                if entry.ends_with(".files") && self.version != Version::Legacy {
                    self.notes.push(format!(
                        "data/{name}/{entry}: ignored (files for a test's working directory are not supported)"
                    ));
                    continue;
                }
                self.flush(name, &settings, &mut run);
                self.group(
                    path,
                    &format!("{name}/{entry}"),
                    settings.clone(),
                    depth + 1,
                );
                continue;
            }
            let Some(stem) = entry.strip_suffix(".in") else {
                if let Some(stem) = entry.strip_suffix(".ans") {
                    if !inputs.iter().any(|i| i.strip_suffix(".in") == Some(stem)) {
                        self.notes.push(format!(
                            "data/{name}/{entry}: ignored (no {stem}.in beside it)"
                        ));
                    }
                }
                continue;
            };
            self.count += 1;
            if self.count > MAX_TESTS {
                if self.count == MAX_TESTS + 1 {
                    self.problems.push(format!(
                        "data: more than the {MAX_TESTS} tests a problem may have"
                    ));
                }
                continue;
            }
            let answer = answers.get(stem).map(|p| (*p).clone());
            if answer.is_none() {
                self.problems.push(format!(
                    "data/{name}/{entry}: has no answer file {stem}.ans"
                ));
            }
            let (validator_args, checker_args) = self.test_settings(dir, name, stem);
            run.push(TestSpec {
                name: format!("{name}/{stem}"),
                source: TestSource::File {
                    input: path.clone(),
                    answer,
                },
                validator_args,
                checker_args,
            });
        }
        self.flush(name, &settings, &mut run);
    }

    /// A test's own settings (`X.yaml`, 2025-09).
    fn test_settings(
        &mut self,
        dir: &Path,
        group: &str,
        stem: &str,
    ) -> (Option<Vec<String>>, Option<Vec<String>>) {
        let path = dir.join(format!("{stem}.yaml"));
        if self.version == Version::Legacy || !self.package.is_file(&path) {
            return (None, None);
        }
        let shown = format!("data/{group}/{stem}.yaml");
        let value = match yaml::read(self.package, &path) {
            Ok(v) => v,
            Err(e) => {
                self.problems.push(format!("{shown}: {e}"));
                return (None, None);
            }
        };
        let table = match Table::new(&value, "") {
            Ok(t) => t,
            Err(e) => {
                self.problems.push(format!("{shown}: {e}"));
                return (None, None);
            }
        };
        table.known(&["hint", "description", "args", "full_feedback"]);
        let mut read = |key: &str| match table.args(key) {
            Ok(v) => v,
            Err(e) => {
                self.problems.push(format!("{shown}: {e}"));
                None
            }
        };
        let validator = read("input_validator_args");
        let checker = read("output_validator_args");
        for key in table.unread() {
            self.notes
                .push(format!("{shown}: unknown key `{key}` ignored"));
        }
        (validator, checker)
    }

    /// Ends a run of tests of one group: a group entry in test order.
    fn flush(&mut self, name: &str, settings: &Inherited, run: &mut Vec<TestSpec>) {
        if run.is_empty() {
            return;
        }
        self.groups.push(TestGroup {
            name: name.to_string(),
            source: GroupSource::Tests(std::mem::take(run)),
            points: None,
            validator_args: settings.validator_args.clone(),
            checker_args: [self.base_checker_args, &settings.checker_args].concat(),
        });
    }
}

/// A group's settings over its parent's: `testdata.yaml` (legacy, and read
/// by problemtools in every version) or `test_group.yaml` (2025-09), the
/// problem's constants replaced in it.
fn apply_config(
    package: &PackageRoot,
    dir: &Path,
    parent: Inherited,
    constants: &Constants,
    problems: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Inherited {
    let mut settings = parent;
    for file in ["testdata.yaml", "test_group.yaml"] {
        let path = dir.join(file);
        if !package.is_file(&path) {
            continue;
        }
        let shown = path.display().to_string();
        let value = match yaml::read_with(package, &path, constants) {
            Ok(v) => v,
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                continue;
            }
        };
        let table = match Table::new(&value, "") {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                continue;
            }
        };
        table.known(&[
            "on_reject",
            "grading",
            "grader_flags",
            "accept_score",
            "reject_score",
            "range",
            "max_score",
            "score_aggregation",
            "require_pass",
            "static_validation",
            "full_feedback",
        ]);
        let mut read = |key: &str| match table.args(key) {
            Ok(v) => v,
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                None
            }
        };
        // Legacy flags are strings, 2025-09 arguments lists: both are words.
        for key in ["input_validator_flags", "input_validator_args"] {
            if let Some(args) = read(key) {
                settings.validator_args = args;
            }
        }
        for key in ["output_validator_flags", "output_validator_args"] {
            if let Some(args) = read(key) {
                settings.checker_args = args;
            }
        }
        for key in table.unread() {
            notes.push(format!("{shown}: unknown key `{key}` ignored"));
        }
    }
    settings
}

/// The entries of `dir` by name in byte order, hidden ones left out, links
/// followed inside the package only (one leading out is an error).
fn sorted_entries(package: &PackageRoot, dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    Ok(package
        .entries(dir)?
        .into_iter()
        .map(|e| {
            let path = match e.kind {
                // A pipe or a device keeps its own path: nothing reads it.
                EntryKind::Other => e.at,
                EntryKind::File | EntryKind::Dir => e.path,
            };
            (e.name, path)
        })
        .collect())
}
