//! BAPCtools' `generators/generators.yaml`: the tests of a package that
//! keeps them there rather than in `data/` (or keeps only some of them in
//! `data/`). Each test is what `bt generate` would write to
//! `data/<group>/<name>.in`, named as bt names it (list entries numbered
//! over the whole file, `count` and `{seed}` as bt computes them), in the
//! order judge reads `data/`: a test whose `.in` is in `data/` is read
//! from there, the rest come from the file (`in:`/`ans:` text, `copy:`, or
//! a generator run in the sandbox like every package program). What judge
//! cannot make is an error naming the file and the key.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde_json::{Map, Value};
use sha2::{Digest, Sha512};

use super::yaml::{self, Table};
use crate::problem::{
    Constants, GroupSource, PackageRoot, ProgramSpec, TestGroup, TestSource, TestSpec, MAX_TESTS,
};

/// Where the file is, in the package.
pub(super) const FILE: &str = "generators/generators.yaml";

/// The keys that make a mapping a test case rather than a group (bt's).
const TEST_CASE_KEYS: &[&str] = &[
    "copy",
    "generate",
    "count",
    "match",
    "in",
    "ans",
    "out",
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
    "interaction",
    "yaml",
];

/// The groups at the top, in bt's order; only the first two are judged.
const ROOT_GROUPS: &[&str] = &[
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
    "testing_tool_test",
    "fuzz",
];

/// What the file makes.
#[derive(Debug)]
pub(super) struct Generated {
    /// The groups, in test order.
    pub(super) groups: Vec<TestGroup>,
    /// The generator programs the tests run, by their path in `generators/`.
    pub(super) generators: BTreeMap<String, ProgramSpec>,
    /// The root's `solution` (the program that answers tests without one).
    pub(super) solution: Option<PathBuf>,
    /// Whether every test's `.in` is in `data/` already (then `data/` is
    /// read as it is).
    pub(super) all_in_data: bool,
    /// What judge cannot make (each naming the file and the key): errors
    /// when the tests are to come from the file.
    pub(super) problems: Vec<String>,
}

/// What a group passes on to its children.
#[derive(Debug, Clone, Default)]
struct Settings {
    validator_args: Vec<String>,
    checker_args: Vec<String>,
    salt: String,
}

/// One test, before the groups are formed.
#[derive(Debug, Clone)]
struct Made {
    /// Its group's path (`secret/small`).
    dir: String,
    /// Its name (`01-min`).
    name: String,
    source: TestSource,
    validator_args: Option<Vec<String>>,
    checker_args: Option<Vec<String>>,
}

struct Reader<'a> {
    package: &'a PackageRoot,
    constants: &'a Constants,
    multi_pass: bool,
    problems: Vec<String>,
    notes: &'a mut Vec<String>,
    /// The next number of a numbered test case, and the width of numbers.
    next_case: u64,
    width: usize,
    /// Each key's tests, for `include` (a group's key: all tests below it).
    known: HashMap<String, Vec<Made>>,
    made: Vec<Made>,
    /// Each group's own settings, by path.
    dirs: BTreeMap<String, Settings>,
    generators: BTreeMap<String, ProgramSpec>,
    /// The root's `generators:` (programs of several files), by name.
    named: Vec<String>,
    all_in_data: bool,
}

/// Reads `generators/generators.yaml` of `package`, when it has one.
pub(super) fn read(
    package: &PackageRoot,
    constants: &Constants,
    base_checker_args: &[String],
    multi_pass: bool,
    notes: &mut Vec<String>,
) -> Option<Generated> {
    let path = package.dir().join(FILE);
    if !package.is_file(&path) {
        return None;
    }
    let failed = |why: String| Generated {
        groups: Vec::new(),
        generators: BTreeMap::new(),
        solution: None,
        all_in_data: false,
        problems: vec![format!("{FILE}: {why}")],
    };
    let value = match yaml::read(package, &path) {
        Ok(v) => v,
        Err(e) => return Some(failed(e)),
    };
    let Value::Object(root) = &value else {
        return Some(failed("expected a mapping of keys".into()));
    };
    let mut reader = Reader {
        package,
        constants,
        multi_pass,
        problems: Vec::new(),
        notes,
        next_case: 1,
        width: count_numbered(&value).max(1).to_string().len(),
        known: HashMap::new(),
        made: Vec::new(),
        dirs: BTreeMap::new(),
        generators: BTreeMap::new(),
        named: Vec::new(),
        all_in_data: true,
    };
    if let Some(Value::Object(named)) = root.get("generators") {
        reader.named = named.keys().cloned().collect();
    }
    let solution = match root.get("solution") {
        Some(Value::String(s)) => match s.strip_prefix('/').filter(|rel| safe_path(rel)) {
            Some(rel)
                if package.is_file(&package.dir().join(rel))
                    || package.is_dir(&package.dir().join(rel)) =>
            {
                Some(package.dir().join(rel))
            }
            _ => {
                reader.problems.push(format!(
                    "{FILE}: solution: `{s}` is not a program of the package, by its path from the package's root (`/submissions/...`)"
                ));
                None
            }
        },
        _ => None,
    };
    reader.directory(root, "", "", Settings::default());
    let made = std::mem::take(&mut reader.made);
    if made.len() as u64 > MAX_TESTS {
        reader.problems.push(format!(
            "{FILE}: more than the {MAX_TESTS} tests a problem may have"
        ));
    }
    let groups = groups(made, &reader.dirs, base_checker_args);
    if groups.is_empty() && reader.problems.is_empty() {
        reader
            .problems
            .push(format!("{FILE}: no test in data.sample or data.secret"));
    }
    Some(Generated {
        groups,
        generators: reader.generators,
        solution,
        all_in_data: reader.all_in_data,
        problems: reader.problems,
    })
}

/// How many numbered test cases the file has (bt numbers them over the
/// whole file, as wide as this count).
fn count_numbered(dir: &Value) -> usize {
    let (entries, numbered): (Vec<&Map<String, Value>>, bool) = match dir.get("data") {
        Some(Value::Object(m)) => (vec![m], false),
        Some(Value::Array(items)) => (items.iter().filter_map(Value::as_object).collect(), true),
        _ => return 0,
    };
    let mut total = 0;
    for entry in entries {
        for value in entry.values() {
            if is_test_case(value) {
                if numbered {
                    total += counts(value).map_or(1, |c| c.len());
                }
            } else if value.is_object() {
                total += count_numbered(value);
            }
        }
    }
    total
}

fn is_test_case(value: &Value) -> bool {
    match value {
        Value::Null | Value::String(_) => true,
        Value::Object(m) => TEST_CASE_KEYS.iter().any(|k| m.contains_key(*k)),
        _ => false,
    }
}

/// A test case's `count`: the values of `{count}` (bt's rules: 1 to 100
/// values, an int n is 1..=n, a list, or a range `a..=b`).
fn counts(value: &Value) -> Result<Vec<i64>, String> {
    let Some(count) = value.get("count") else {
        return Ok(vec![1]);
    };
    let list: Vec<i64> = match count {
        Value::Number(n) => match n.as_i64() {
            Some(n) if (1..=100).contains(&n) => (1..=n).collect(),
            _ => return Err(format!("count: {n} is not from 1 to 100")),
        },
        Value::Array(items) => {
            let mut list = Vec::new();
            for item in items {
                match item.as_i64() {
                    Some(v) if !list.contains(&v) => list.push(v),
                    _ => return Err(format!("count: {item} is not a distinct whole number")),
                }
            }
            list
        }
        Value::String(s) => {
            let range = s.split_once("..=").and_then(|(lo, hi)| {
                Some((
                    lo.trim().parse::<i64>().ok()?,
                    hi.trim().parse::<i64>().ok()?,
                ))
            });
            match range {
                Some((lo, hi)) if lo <= hi && hi - lo < 100 => (lo..=hi).collect(),
                _ => return Err(format!("count: `{s}` is not a range `a..=b` of 1 to 100")),
            }
        }
        other => return Err(format!("count: {other} is not a count")),
    };
    match list.len() {
        1..=100 => Ok(list),
        _ => Err("count: gives no value, or more than 100".into()),
    }
}

/// Whether a relative path stays inside the package.
fn safe_path(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && rel.split('/').all(|part| !part.is_empty() && part != "..")
}

/// bt's seed of a rule: SHA-512 of the salt, the count (when not 1) and the
/// command, modulo 2^31.
fn seed(salt: &str, count: i64, command: &str) -> u64 {
    let mut text = salt.to_string();
    if count != 1 {
        text += &format!(":{}", count - 1);
    }
    text += command.trim();
    let digest = Sha512::digest(text.as_bytes());
    let low = u32::from_be_bytes(digest[60..64].try_into().expect("four bytes"));
    u64::from(low & 0x7fff_ffff)
}

/// `{seed}` and `{seed:N}` replaced in an argument.
fn with_seed(arg: &str, seed: u64) -> String {
    let mut out = String::new();
    let mut rest = arg;
    while let Some(start) = rest.find("{seed") {
        out.push_str(&rest[..start]);
        let after = &rest[start + "{seed".len()..];
        let end = after.find('}').filter(|&end| {
            let inner = &after[..end];
            inner.is_empty()
                || inner
                    .strip_prefix(':')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        });
        match end {
            Some(end) => {
                out.push_str(&seed.to_string());
                rest = &after[end + 1..];
            }
            None => {
                out.push_str("{seed");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

impl Reader<'_> {
    fn problem(&mut self, at: &str, why: String) {
        let at = if at.is_empty() { "data" } else { at };
        self.problems.push(format!("{FILE}: {at}: {why}"));
    }

    /// A group (the root's `path` is empty): its settings, its tests and
    /// groups, and what it includes.
    fn directory(&mut self, map: &Map<String, Value>, path: &str, key: &str, parent: Settings) {
        let mut settings = parent;
        let shown = if path.is_empty() { "the root" } else { path };
        if let Some(Value::String(salt)) = map.get("random_salt") {
            settings.salt = salt.clone();
        }
        if let Some(group_yaml) = map.get("test_group.yaml") {
            let at = format!("{shown}: test_group.yaml");
            let substituted = self.substituted(group_yaml);
            match Table::new(&substituted, &at) {
                Ok(table) => {
                    table.known(&[
                        "output_visualizer_args",
                        "input_visualizer_args",
                        "answer_validator_args",
                        "static_validation",
                        "full_feedback",
                        "max_score",
                        "score_aggregation",
                        "require_pass",
                    ]);
                    for (keys, into) in [
                        (["input_validator_flags", "input_validator_args"], 0),
                        (["output_validator_flags", "output_validator_args"], 1),
                    ] {
                        for k in keys {
                            match table.args(k) {
                                Ok(Some(args)) if into == 0 => settings.validator_args = args,
                                Ok(Some(args)) => settings.checker_args = args,
                                Ok(None) => {}
                                Err(e) => self.problems.push(format!(
                                    "{FILE}: {e} (arguments per validator are not supported)"
                                )),
                            }
                        }
                    }
                    for k in table.unread() {
                        self.notes.push(format!("{FILE}: {k}: ignored"));
                    }
                }
                Err(e) => self.problems.push(format!("{FILE}: {e}")),
            }
        }
        if map.get("solution").is_some() && !path.is_empty() {
            self.notes.push(format!(
                "{FILE}: {path}: solution: ignored (the root's solution answers every test)"
            ));
        }
        if !path.is_empty() {
            self.dirs.insert(path.to_string(), settings.clone());
        }
        for k in map.keys() {
            let known = [
                "data",
                "test_group.yaml",
                "include",
                "solution",
                "random_salt",
                "retries",
                "version",
                "generators",
                "visualizer",
                "parallel",
                "gitignore_generated",
            ];
            if !known.contains(&k.as_str()) {
                self.notes
                    .push(format!("{FILE}: {shown}: unknown key `{k}` ignored"));
            }
        }
        let first = self.made.len();
        match map.get("data") {
            None | Some(Value::Null) => {}
            Some(Value::Object(children)) => {
                // bt's order: the root's groups as listed in its table, the
                // children of a group by name.
                let mut keys: Vec<&String> = children.keys().collect();
                if path.is_empty() {
                    keys.sort_by_key(|k| {
                        ROOT_GROUPS
                            .iter()
                            .position(|g| g == k)
                            .unwrap_or(ROOT_GROUPS.len())
                    });
                } else {
                    keys.sort();
                }
                for child in keys {
                    let value = &children[child];
                    if path.is_empty() {
                        if !ROOT_GROUPS.contains(&child.as_str()) {
                            self.problem(
                                path,
                                format!("`{child}` is not a group bt knows at the top"),
                            );
                            continue;
                        }
                        if child != "sample" && child != "secret" {
                            self.notes.push(format!(
                                "{FILE}: data.{child}: ignored (judging uses sample and secret)"
                            ));
                            continue;
                        }
                    }
                    if child.is_empty() {
                        self.problem(path, "a named test or group with an empty name".into());
                        continue;
                    }
                    self.child(child, value, path, vec![child.clone()], &settings);
                }
            }
            Some(Value::Array(items)) => {
                if path.is_empty() {
                    self.problem(path, "the root's data must be a mapping of groups".into());
                    return;
                }
                let groups = items
                    .iter()
                    .filter_map(Value::as_object)
                    .flat_map(|m| m.values())
                    .filter(|v| !is_test_case(v))
                    .count();
                let group_width = groups.max(1).to_string().len();
                let mut next_group = 1;
                for (i, item) in items.iter().enumerate() {
                    let Some(entry) = item.as_object().filter(|m| m.len() == 1) else {
                        self.problem(
                            path,
                            format!("data[{i}]: a numbered entry must be a mapping of one key"),
                        );
                        continue;
                    };
                    let (child, value) = entry.iter().next().expect("one key");
                    let names = if is_test_case(value) {
                        let n = counts(value).map_or(1, |c| c.len());
                        (0..n)
                            .map(|_| {
                                let number = format!("{:0w$}", self.next_case, w = self.width);
                                self.next_case += 1;
                                match child.is_empty() {
                                    true => number,
                                    false => format!("{number}-{child}"),
                                }
                            })
                            .collect()
                    } else {
                        let number = format!("{next_group:0group_width$}");
                        next_group += 1;
                        vec![match child.is_empty() {
                            true => number,
                            false => format!("{number}-{child}"),
                        }]
                    };
                    self.child(child, value, path, names, &settings);
                }
            }
            Some(other) => self.problem(
                path,
                format!("data: expected a mapping or a list, got {other}"),
            ),
        }
        // What it includes: tests of other keys, by their names.
        if let Some(include) = map.get("include") {
            let keys: Vec<&Value> = match include {
                Value::Array(items) => items.iter().collect(),
                other => vec![other],
            };
            for k in keys {
                let Some(k) = k.as_str() else {
                    self.problem(path, format!("include: {k} is not a key"));
                    continue;
                };
                let Some(tests) = self.known.get(k).cloned() else {
                    self.problem(
                        path,
                        format!("include: `{k}` is not the key of a test or group above it"),
                    );
                    continue;
                };
                for t in tests {
                    if self.made.iter().any(|m| m.dir == path && m.name == t.name) {
                        continue;
                    }
                    let data = self.data_file(path, &t.name);
                    self.all_in_data &= data.is_some();
                    let source = data.unwrap_or(t.source.clone());
                    self.made.push(Made {
                        dir: path.to_string(),
                        source,
                        ..t
                    });
                }
            }
        }
        if !key.is_empty() {
            let below: Vec<Made> = self.made[first..].to_vec();
            self.known.entry(key.to_string()).or_default().extend(below);
        }
    }

    /// A child of the group at `path`: a test (as many as `names`, one per
    /// count) or a group.
    fn child(
        &mut self,
        key: &str,
        value: &Value,
        path: &str,
        names: Vec<String>,
        settings: &Settings,
    ) {
        let join = |name: &str| match path.is_empty() {
            true => name.to_string(),
            false => format!("{path}/{name}"),
        };
        if !is_test_case(value) {
            let Some(map) = value.as_object() else {
                self.problem(&join(key), "neither a test nor a group".into());
                return;
            };
            let name = names.into_iter().next().unwrap_or_default();
            self.directory(map, &join(&name), key, settings.clone());
            return;
        }
        let counts = match counts(value) {
            Ok(c) => c,
            Err(why) => {
                self.problem(&join(key), why);
                return;
            }
        };
        let has_count = value.get("count").is_some();
        let padding = {
            let (lo, hi) = (counts.iter().min(), counts.iter().max());
            let consecutive = match (lo, hi) {
                (Some(lo), Some(hi)) => (hi - lo) as usize == counts.len() - 1,
                _ => false,
            };
            match consecutive {
                true => counts
                    .iter()
                    .map(|c| c.to_string().len())
                    .max()
                    .unwrap_or(1),
                false => 0,
            }
        };
        let first = self.made.len();
        for (count, name) in counts.iter().zip(names) {
            let name = match has_count {
                true => format!("{name}-{count:0padding$}"),
                false => name,
            };
            self.test(value, path, &name, *count, has_count, settings);
        }
        let made: Vec<Made> = self.made[first..].to_vec();
        self.known.entry(key.to_string()).or_default().extend(made);
    }

    /// `value` with the constants replaced in every string of it.
    fn substituted(&self, value: &Value) -> Value {
        match value {
            Value::String(s) => Value::String(self.constants.substitute(s).into_owned()),
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.substituted(v)).collect())
            }
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, v)| (k.clone(), self.substituted(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// `data/<path>/<name>.in` with its `.ans`, when the package has it.
    fn data_file(&self, path: &str, name: &str) -> Option<TestSource> {
        let dir = self.package.dir().join("data").join(path);
        let input = dir.join(format!("{name}.in"));
        if !self.package.is_file(&input) {
            return None;
        }
        let answer = dir.join(format!("{name}.ans"));
        let answer = self.package.is_file(&answer).then_some(answer);
        Some(TestSource::File { input, answer })
    }

    /// One test case.
    fn test(
        &mut self,
        value: &Value,
        path: &str,
        name: &str,
        count: i64,
        has_count: bool,
        settings: &Settings,
    ) {
        let at = format!("{path}/{name}");
        let map = match value {
            Value::Null => {
                self.problem(&at, "an empty entry makes no test".into());
                return;
            }
            Value::String(command) => {
                let mut m = Map::new();
                match command.strip_suffix(".in") {
                    Some(copy) => m.insert("copy".into(), Value::String(copy.into())),
                    None => m.insert("generate".into(), Value::String(command.clone())),
                };
                m
            }
            Value::Object(m) => m.clone(),
            _ => unreachable!("is_test_case"),
        };
        for k in map.keys() {
            let known = [
                "generate",
                "copy",
                "count",
                "in",
                "ans",
                "yaml",
                "match",
                "out",
                "in.statement",
                "ans.statement",
                "in.download",
                "ans.download",
                "hint",
                "description",
                "solution",
                "random_salt",
                "retries",
            ];
            if k == "interaction" {
                self.notes.push(format!(
                    "{FILE}: {at}: interaction: ignored (judge runs the test, it does not replay it)"
                ));
            } else if !known.contains(&k.as_str()) {
                self.problem(&at, format!("`{k}`: a key judge does not know"));
            }
        }
        let salt = match map.get("random_salt") {
            Some(Value::String(s)) => s.clone(),
            _ => settings.salt.clone(),
        };
        let text = |key: &str| -> Option<Result<String, String>> {
            match map.get(key)? {
                Value::String(s) if s.is_empty() || s.ends_with('\n') => Some(Ok(s.clone())),
                Value::String(s) => Some(Ok(format!("{s}\n"))),
                Value::Number(n) => Some(Ok(format!("{n}\n"))),
                Value::Object(_) => Some(Err(format!(
                    "{key}: a link to another file is not supported here"
                ))),
                other => Some(Err(format!("{key}: expected text, got {other}"))),
            }
        };
        let input = text("in");
        let answer = match text("ans") {
            Some(Ok(a)) => Some(a),
            Some(Err(why)) => {
                self.problem(&at, why);
                return;
            }
            // A multi-pass problem's tests need no answer (bt writes an
            // empty one).
            None if self.multi_pass => Some(String::new()),
            None => None,
        };
        let source = if let Some(command) = map.get("generate") {
            let Some(command) = command.as_str().filter(|c| !c.trim().is_empty()) else {
                self.problem(&at, "generate: expected a command".into());
                return;
            };
            if input.is_some() || map.contains_key("copy") {
                self.problem(
                    &at,
                    "generate: with in or copy, which one makes the input?".into(),
                );
                return;
            }
            if map.contains_key("ans") {
                self.problem(
                    &at,
                    "ans with generate: not supported (the solution answers generated tests)"
                        .into(),
                );
                return;
            }
            let command = self.constants.substitute(command).into_owned();
            let command = match has_count {
                true => command.replace("{count}", &count.to_string()),
                false => command,
            };
            let seed = seed(&salt, count, &command);
            let Some(words) = shlex::split(&command).filter(|w| !w.is_empty()) else {
                self.problem(
                    &at,
                    format!("generate: `{command}` is not a command (unbalanced quotes?)"),
                );
                return;
            };
            let program = &words[0];
            if !safe_path(program) {
                self.problem(
                    &at,
                    format!(
                        "generate: `{program}` is not a program of generators/ (a path inside it)"
                    ),
                );
                return;
            }
            if self.named.contains(program) {
                self.problem(
                    &at,
                    format!("generate: `{program}` is a generator of several files (generators.{program}), which judge does not build: give it a folder of its own in generators/"),
                );
                return;
            }
            let program_path = self.package.dir().join("generators").join(program);
            if !self.package.is_file(&program_path) && !self.package.is_dir(&program_path) {
                self.problem(
                    &at,
                    format!("generate: generators/{program} does not exist"),
                );
                return;
            }
            self.generators
                .entry(program.clone())
                .or_insert_with(|| ProgramSpec {
                    path: program_path,
                    lang: None,
                });
            let args = words[1..]
                .iter()
                .map(|a| with_seed(&a.replace("{name}", "testcase"), seed))
                .collect();
            TestSource::Command {
                generator: program.clone(),
                args,
            }
        } else if let Some(copy) = map.get("copy") {
            let Some(copy) = copy.as_str().filter(|c| safe_path(c)) else {
                self.problem(
                    &at,
                    format!("copy: {copy} is not a path inside generators/"),
                );
                return;
            };
            let base = self.package.dir().join("generators").join(copy);
            let input = PathBuf::from(format!("{}.in", base.display()));
            if !self.package.is_file(&input) {
                self.problem(&at, format!("copy: generators/{copy}.in does not exist"));
                return;
            }
            let ans = PathBuf::from(format!("{}.ans", base.display()));
            TestSource::File {
                input,
                answer: self.package.is_file(&ans).then_some(ans),
            }
        } else {
            match input {
                Some(Ok(input)) => TestSource::Inline { input, answer },
                Some(Err(why)) => {
                    self.problem(&at, why);
                    return;
                }
                None => {
                    self.problem(
                        &at,
                        "no input: one of generate, copy or in (in.statement and in.download alone make no test judge runs)".into(),
                    );
                    return;
                }
            }
        };
        // What `bt generate` wrote, when it is there.
        let source = match self.data_file(path, name) {
            Some(file) => file,
            None => {
                self.all_in_data = false;
                source
            }
        };
        let (mut validator_args, mut checker_args) = (None, None);
        if let Some(test_yaml) = map.get("yaml") {
            let substituted = self.substituted(test_yaml);
            let shown = format!("{at}: yaml");
            match Table::new(&substituted, &shown) {
                Ok(table) => {
                    table.known(&[
                        "hint",
                        "description",
                        "args",
                        "full_feedback",
                        "input_visualizer_args",
                        "output_visualizer_args",
                        "answer_validator_args",
                    ]);
                    match table.args("input_validator_args") {
                        Ok(v) => validator_args = v,
                        Err(e) => self.problems.push(format!("{FILE}: {e}")),
                    }
                    match table.args("output_validator_args") {
                        Ok(v) => checker_args = v,
                        Err(e) => self.problems.push(format!("{FILE}: {e}")),
                    }
                    for k in table.unread() {
                        self.notes.push(format!("{FILE}: {k}: ignored"));
                    }
                }
                Err(e) => self.problems.push(format!("{FILE}: {e}")),
            }
        }
        self.made.push(Made {
            dir: path.to_string(),
            name: name.to_string(),
            source,
            validator_args,
            checker_args,
        });
    }
}

/// An entry of a folder of tests: a test, or a subfolder.
enum Entry {
    Test(Box<Made>),
    Dir(String),
}

/// The tests as groups, in the order judge reads `data/`: in each folder,
/// its tests (`NAME.in`) and subfolders by name in byte order.
fn groups(
    made: Vec<Made>,
    dirs: &BTreeMap<String, Settings>,
    base_checker_args: &[String],
) -> Vec<TestGroup> {
    let mut by_dir: BTreeMap<String, Vec<(String, Entry)>> = BTreeMap::new();
    for m in made {
        // Each folder on the way is an entry of its parent.
        let mut path = m.dir.clone();
        while let Some((parent, last)) = path.rsplit_once('/') {
            let entries = by_dir.entry(parent.to_string()).or_default();
            if !entries
                .iter()
                .any(|(n, e)| matches!(e, Entry::Dir(_)) && n == last)
            {
                entries.push((last.to_string(), Entry::Dir(path.clone())));
            }
            path = parent.to_string();
        }
        by_dir
            .entry(m.dir.clone())
            .or_default()
            .push((format!("{}.in", m.name), Entry::Test(Box::new(m))));
    }
    let mut out = Vec::new();
    for top in ["sample", "secret"] {
        walk(top, &mut by_dir, dirs, base_checker_args, &mut out);
    }
    out
}

/// The groups of the folder `dir` and below it, into `out`.
fn walk(
    dir: &str,
    by_dir: &mut BTreeMap<String, Vec<(String, Entry)>>,
    dirs: &BTreeMap<String, Settings>,
    base_checker_args: &[String],
    out: &mut Vec<TestGroup>,
) {
    let Some(mut entries) = by_dir.remove(dir) else {
        return;
    };
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let settings = dirs.get(dir).cloned().unwrap_or_default();
    let flush = |run: &mut Vec<TestSpec>, out: &mut Vec<TestGroup>| {
        if run.is_empty() {
            return;
        }
        out.push(TestGroup {
            name: dir.to_string(),
            source: GroupSource::Tests(std::mem::take(run)),
            points: None,
            validator_args: settings.validator_args.clone(),
            checker_args: [base_checker_args, &settings.checker_args].concat(),
        });
    };
    let mut run: Vec<TestSpec> = Vec::new();
    for (_, entry) in entries {
        match entry {
            Entry::Test(m) => run.push(TestSpec {
                name: format!("{}/{}", m.dir, m.name),
                source: m.source,
                validator_args: m.validator_args,
                checker_args: m.checker_args,
            }),
            Entry::Dir(sub) => {
                flush(&mut run, out);
                walk(&sub, by_dir, dirs, base_checker_args, out);
            }
        }
    }
    flush(&mut run, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeds as bt computes them (`int(sha512(...).hexdigest(), 16) % 2**31`,
    /// worked out with Python's hashlib).
    #[test]
    fn seeds_are_bts() {
        assert_eq!(seed("", 1, " stdout.py {seed} "), 162981470);
        assert_eq!(seed("bob", 1, "stdout.py {seed:42}"), 593058468);
        assert_eq!(seed("", 5, "stdout.py {seed} 5"), 498227416);
        assert_eq!(with_seed("a{seed}b {seed:7}", 42), "a42b 42");
        assert_eq!(with_seed("{seed:x} {seedy}", 1), "{seed:x} {seedy}");
    }

    #[test]
    fn counts_are_bts() {
        let v = |s: &str| -> Value { serde_saphyr::from_str(s).unwrap() };
        assert_eq!(counts(&v("count: 3")).unwrap(), vec![1, 2, 3]);
        assert_eq!(counts(&v("count: -1..=1")).unwrap(), vec![-1, 0, 1]);
        assert_eq!(counts(&v("count: [5, 2]")).unwrap(), vec![5, 2]);
        assert!(counts(&v("count: 0")).is_err());
        assert!(counts(&v("count: [1, 1]")).is_err());
        assert_eq!(counts(&v("generate: x")).unwrap(), vec![1]);
    }
}
