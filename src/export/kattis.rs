//! `judge export --format kattis`: a problem written as an ICPC package in
//! the version a peer reads: legacy (the default: problemtools, Kattis and
//! DOMjudge), 2023-07 (problemtools and Kattis) or 2025-09 (BAPCtools, which
//! reads no other; problemtools' release refuses it): `problem.yaml` (and legacy's `.timelimit`),
//! the statement, `data/sample` and `data/secret`, the input validators, the
//! output validator and the submissions by expected verdict. Programs whose protocol differs from the
//! format's (a validator that exits 0 for valid, a testlib checker) are
//! written as `build`/`run` directories that adapt them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::shell::{self, Protocol};
use super::statement;
use crate::config::{Config, Language};
use crate::error::{Error, Result};
use crate::problem::{
    CheckerSpec, EntryKind, Format, PackageRoot, Problem, ProgramSpec, SolutionSpec,
};
use crate::testset::TestSet;
use crate::verdict::Verdict;

/// What `judge export` wrote.
#[derive(Debug)]
pub(crate) struct Written {
    /// The package directory.
    pub(crate) dir: PathBuf,
    /// Tests written.
    pub(crate) tests: usize,
    /// Input validators written.
    pub(crate) validators: usize,
    /// Submissions written.
    pub(crate) submissions: usize,
    /// What the format cannot hold, one line each.
    pub(crate) left_out: Vec<String>,
    /// The version of the format written.
    pub(crate) version: KattisVersion,
}

/// What `judge export` owns in the package directory (replaced by --force).
const OWNED: &[&str] = &[
    "problem.yaml",
    ".timelimit",
    "problem_statement",
    "statement",
    "data",
    "input_validators",
    "output_validators",
    "output_validator",
    "submissions",
];

/// The version of the format written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KattisVersion {
    /// `2025-09`: `output_validator/`, `statement/`, `limits.time_limit`,
    /// `test_group.yaml` with argument lists.
    V2025_09,
    /// `2023-07`: the layout of 2025-09, and `testdata.yaml` with flag
    /// strings as problemtools reads it.
    V2023_07,
    /// The legacy format: `output_validators/`, `problem_statement/`,
    /// `.timelimit`, `validation`, `testdata.yaml` with flag strings.
    Legacy,
}

/// Writes `problem` (with its materialised `tests`) as an ICPC package in `dir`.
pub(crate) fn write_package(
    problem: &Problem,
    tests: &TestSet,
    config: &Config,
    dir: &Path,
    force: bool,
    version: KattisVersion,
) -> Result<Written> {
    prepare(dir, force)?;
    let mut written = Written {
        dir: dir.to_path_buf(),
        tests: 0,
        validators: 0,
        submissions: 0,
        left_out: Vec::new(),
        version,
    };
    let (validation, flags) = output_validator(problem, config, dir, version, &mut written)?;
    match version {
        KattisVersion::Legacy => {
            write_yaml(problem, &validation, &flags, dir)?;
            write(dir.join(".timelimit"), &seconds(problem.limits.time))?;
        }
        KattisVersion::V2023_07 | KattisVersion::V2025_09 => {
            write_yaml_current(problem, &validation, &flags, dir, version)?
        }
    }
    write_statement(problem, dir, version)?;
    write_data(problem, tests, dir, version, &mut written)?;
    for (i, validator) in problem.validators.iter().enumerate() {
        let name = format!("validator{}", i + 1);
        let target = dir.join("input_validators").join(&name);
        if validator.valid_exit == 42 && validator.args.is_empty() {
            copy_program(problem, &validator.program, &target)?;
        } else {
            let protocol = Protocol::InputValidator {
                valid: validator.valid_exit,
            };
            wrap(
                problem,
                &validator.program,
                &validator.args,
                &protocol,
                config,
                &target,
            )?;
        }
        written.validators += 1;
    }
    write_submissions(problem, dir, version, &mut written)?;
    Ok(written)
}

/// Makes `dir`; one that is not empty only with `force`, which removes
/// what an export writes there and leaves anything else alone.
fn prepare(dir: &Path, force: bool) -> Result<()> {
    if let Ok(entries) = std::fs::read_dir(dir) {
        if entries.count() > 0 {
            if !force {
                return Err(Error::Usage(format!(
                    "{} is not empty; pass --force to replace the package in it",
                    dir.display()
                )));
            }
            for name in OWNED {
                let path = dir.join(name);
                let removed = if path.is_dir() {
                    std::fs::remove_dir_all(&path)
                } else if path.exists() {
                    std::fs::remove_file(&path)
                } else {
                    Ok(())
                };
                removed.map_err(|e| Error::io(&path, e))?;
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

fn write(path: PathBuf, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    std::fs::write(&path, text).map_err(|source| Error::Write { path, source })
}

fn seconds(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s}\n")
    } else {
        format!("{s:.3}\n")
    }
}

/// A YAML string in double quotes.
fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

fn write_yaml(problem: &Problem, validation: &str, flags: &str, dir: &Path) -> Result<()> {
    let mib = |bytes: u64| bytes.div_ceil(1 << 20);
    let mut yaml = format!(
        "# Exported by `judge export` from {} ({} format).\nname: {}\n",
        problem.id,
        problem.format.as_str(),
        yaml_string(&problem.title)
    );
    if let Some(source) = &problem.source {
        yaml.push_str(&format!("source: {}\n", yaml_string(source)));
    }
    yaml.push_str(&format!("validation: {validation}\n"));
    if !flags.is_empty() {
        yaml.push_str(&format!("validator_flags: {}\n", yaml_string(flags)));
    }
    yaml.push_str(&format!(
        "limits:\n  memory: {}\n  output: {}\n",
        mib(problem.limits.memory),
        mib(problem.limits.output)
    ));
    write(dir.join("problem.yaml"), &yaml)
}

/// problem.yaml of 2025-09: the time limit in it, the type instead of
/// `validation`; the default validator's flags go to the test groups.
fn write_yaml_current(
    problem: &Problem,
    validation: &str,
    flags: &str,
    dir: &Path,
    version: KattisVersion,
) -> Result<()> {
    let mib = |bytes: u64| bytes.div_ceil(1 << 20);
    // A stable uuid (the format wants one): from the problem's id.
    let hash = blake3::hash(problem.id.as_bytes()).to_hex();
    let uuid = format!(
        "{}-{}-4{}-8{}-{}",
        &hash[0..8],
        &hash[8..12],
        &hash[13..16],
        &hash[17..20],
        &hash[20..32]
    );
    let mut yaml = format!(
        "# Exported by `judge export` from {} ({} format).
problem_format_version: {}
name: {}
uuid: {uuid}
",
        problem.id,
        problem.format.as_str(),
        if version == KattisVersion::V2023_07 {
            "2023-07"
        } else {
            "2025-09"
        },
        yaml_string(&problem.title)
    );
    if validation.contains("interactive") {
        yaml.push_str(
            "type: interactive
",
        );
    }
    if let Some(source) = &problem.source {
        yaml.push_str(&format!(
            "source: {}
",
            yaml_string(source)
        ));
    }
    let time = seconds(problem.limits.time);
    yaml.push_str(&format!(
        "limits:
  time_limit: {}
  memory: {}
  output: {}
",
        time.trim(),
        mib(problem.limits.memory),
        mib(problem.limits.output)
    ));
    write(dir.join("problem.yaml"), &yaml)?;
    if !flags.is_empty() {
        for group in ["sample", "secret"] {
            let (file, text) = group_flags(version, flags);
            write(dir.join("data").join(group).join(file), &text)?;
        }
    }
    Ok(())
}

/// A test group's output validator flags: `testdata.yaml` with a string
/// (legacy, and 2023-07 as problemtools reads it), or 2025-09's
/// `test_group.yaml` with a list.
fn group_flags(version: KattisVersion, flags: &str) -> (&'static str, String) {
    match version {
        KattisVersion::Legacy | KattisVersion::V2023_07 => (
            "testdata.yaml",
            format!("output_validator_flags: {}\n", yaml_string(flags)),
        ),
        KattisVersion::V2025_09 => (
            "test_group.yaml",
            format!("output_validator_args: {}\n", yaml_list(flags)),
        ),
    }
}

/// Words as a YAML flow list of strings.
fn yaml_list(words: &str) -> String {
    let items: Vec<String> = words.split_whitespace().map(yaml_string).collect();
    format!("[{}]", items.join(", "))
}

fn write_statement(problem: &Problem, dir: &Path, version: KattisVersion) -> Result<()> {
    let target = dir.join(match version {
        KattisVersion::Legacy => "problem_statement",
        KattisVersion::V2023_07 | KattisVersion::V2025_09 => "statement",
    });
    let original = problem.dir.join("problem_statement");
    if problem.format == Format::Kattis && original.is_dir() {
        return copy_tree(&root(problem)?, &original, &target, 0);
    }
    let markdown = std::fs::read_to_string(problem.dir.join("statement.md")).unwrap_or_default();
    write(
        target.join("problem.en.tex"),
        &statement::latex(&problem.title, &markdown),
    )
}

/// The tests: samples in `data/sample`, the rest in `data/secret`, named
/// so that the format's order (by name) is judge's test order. Tests of an
/// ICPC package keep their paths (and their groups' flags).
fn write_data(
    problem: &Problem,
    tests: &TestSet,
    dir: &Path,
    version: KattisVersion,
    written: &mut Written,
) -> Result<()> {
    let width = tests.tests.len().to_string().len().max(3);
    let mut flags: BTreeMap<PathBuf, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for (i, test) in tests.tests.iter().enumerate() {
        let relative = if problem.format == Format::Kattis {
            PathBuf::from(&test.name)
        } else {
            let sample = test.group.starts_with("sample") || test.name.starts_with("sample");
            let safe: String = test
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            PathBuf::from(if sample { "sample" } else { "secret" })
                .join(format!("{:0width$}-{safe}", i + 1))
        };
        let base = dir.join("data").join(&relative);
        let Some(answer) = &test.answer else {
            written
                .left_out
                .push(format!("test {}: no answer", test.name));
            continue;
        };
        for (from, ext) in [(&test.input, "in"), (answer, "ans")] {
            let to = base.with_extension(ext);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
            }
            std::fs::copy(from, &to).map_err(|e| Error::io(&to, e))?;
        }
        if problem.format == Format::Kattis {
            let group_dir = base.parent().map(Path::to_path_buf).unwrap_or_default();
            flags
                .entry(group_dir)
                .or_insert_with(|| (Vec::new(), test.checker_args.clone()));
        }
        written.tests += 1;
    }
    // A group's output validator flags, where it has its own.
    for (group_dir, (_, checker_args)) in flags {
        if !checker_args.is_empty() {
            let (file, text) = group_flags(version, &checker_args.join(" "));
            write(group_dir.join(file), &text)?;
        }
    }
    Ok(())
}

/// The output validator: the default one with flags where a built-in
/// checker maps onto it, else a program. Gives `validation` and the flags.
fn output_validator(
    problem: &Problem,
    config: &Config,
    dir: &Path,
    version: KattisVersion,
    written: &mut Written,
) -> Result<(String, String)> {
    // Legacy: a folder of validators; 2025-09: the one validator's folder.
    // problemtools reads 2023-07's `output_validator/` as legacy's folder
    // of programs (a `build`/`run` beside a source there is three), so the
    // program is a folder in it.
    let place = |name: &str| match version {
        KattisVersion::Legacy => dir.join("output_validators").join(name),
        KattisVersion::V2023_07 => dir.join("output_validator").join(name),
        KattisVersion::V2025_09 => dir.join("output_validator"),
    };
    let target = place("checker");
    if let Some(interactor) = &problem.interactor {
        let target = place("interactor");
        match interactor.protocol {
            crate::problem::InteractorProtocol::Kattis => {
                copy_program(problem, &interactor.program, &target)?
            }
            crate::problem::InteractorProtocol::Testlib => wrap(
                problem,
                &interactor.program,
                &[],
                &Protocol::TestlibInteractor,
                config,
                &target,
            )?,
        }
        if matches!(problem.checker, CheckerSpec::Custom(_)) {
            written.left_out.push(
                "the checker of the interactor's output: an ICPC interactor decides alone".into(),
            );
        }
        return Ok(("custom interactive".into(), String::new()));
    }
    Ok(match &problem.checker {
        CheckerSpec::Tokens { case_sensitive } => (
            "default".into(),
            if *case_sensitive {
                "case_sensitive"
            } else {
                ""
            }
            .into(),
        ),
        CheckerSpec::Exact => {
            written.left_out.push(
                "checker exact: the default validator with space_change_sensitive gives WA where judge gives PE"
                    .into(),
            );
            (
                "default".into(),
                "case_sensitive space_change_sensitive".into(),
            )
        }
        CheckerSpec::Float { abs, rel } => (
            "default".into(),
            format!("case_sensitive float_absolute_tolerance {abs} float_relative_tolerance {rel}"),
        ),
        CheckerSpec::KattisDefault => ("default".into(), String::new()),
        CheckerSpec::Lines => {
            write(target.join("lines.cpp"), LINES_VALIDATOR)?;
            ("custom".into(), String::new())
        }
        CheckerSpec::Kattis(program) => {
            copy_program(problem, program, &target)?;
            ("custom".into(), String::new())
        }
        CheckerSpec::Custom(program) => {
            wrap(problem, program, &[], &Protocol::Testlib, config, &target)?;
            ("custom".into(), String::new())
        }
    })
}

/// The submissions by expected verdict; the reference among the accepted.
///
/// In 2025-09 a folder also bounds every test's verdict (`wrong_answer/`:
/// AC or WA on each test), which judge's own expectation (the overall
/// verdict, the first failing test's) does not say: a WA solution may well
/// time out on a later test. So `submissions.yaml` gives each such solution
/// what its source permits per test: the source's `permitted`, else any.
fn write_submissions(
    problem: &Problem,
    dir: &Path,
    version: KattisVersion,
    written: &mut Written,
) -> Result<()> {
    let mut programs: Vec<SolutionSpec> = Vec::new();
    if let Some(reference) = &problem.reference {
        if !problem.solutions.iter().any(|s| &s.program == reference) {
            programs.push(SolutionSpec {
                program: reference.clone(),
                expect: vec![Verdict::AC],
                permitted: None,
            });
        }
    }
    programs.extend(problem.solutions.iter().cloned());
    let mut used = std::collections::BTreeSet::new();
    let mut folders = std::collections::BTreeSet::new();
    let mut permits = String::new();
    for SolutionSpec {
        program,
        expect,
        permitted,
    } in &programs
    {
        let shown = program
            .path
            .strip_prefix(&problem.dir)
            .unwrap_or(&program.path)
            .display()
            .to_string();
        let folder = match expect.as_slice() {
            [Verdict::AC] => "accepted",
            [Verdict::WA] | [Verdict::WA, Verdict::PE] => "wrong_answer",
            [Verdict::TLE] => "time_limit_exceeded",
            v if !v.is_empty()
                && v.iter()
                    .all(|x| matches!(x, Verdict::RE | Verdict::MLE | Verdict::OLE)) =>
            {
                "run_time_error"
            }
            other => {
                let names: Vec<&str> = other.iter().map(|v| v.as_str()).collect();
                written.left_out.push(format!(
                    "solution {shown}: expected {}, which no submissions folder of the legacy format means",
                    names.join(" or ")
                ));
                continue;
            }
        };
        let name = program
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut target = dir.join("submissions").join(folder).join(&name);
        let mut n = 2;
        while !used.insert(target.clone()) {
            target = dir
                .join("submissions")
                .join(folder)
                .join(format!("{n}-{name}"));
            n += 1;
        }
        copy_program(problem, program, &target)?;
        written.submissions += 1;
        if version != KattisVersion::Legacy && folder != "accepted" {
            folders.insert(folder);
            let relative = target
                .strip_prefix(dir.join("submissions"))
                .expect("written under submissions/")
                .to_string_lossy()
                .into_owned();
            match permitted_classes(permitted.as_deref()) {
                _ if relative.contains(['*', '?', '[', ']', '{', '}', '\\']) => {
                    written.left_out.push(format!(
                        "solution {shown}: its name is a glob in submissions.yaml, so it has the folder's per-test verdicts"
                    ))
                }
                classes => permits.push_str(&format!(
                    "{}:\n  permitted: [{}]\n",
                    yaml_string(&relative),
                    classes.join(", ")
                )),
            }
        }
    }
    if !permits.is_empty() {
        // A key naming a folder replaces the folder's default rule (which
        // a solution's own key would only narrow): any verdict per test,
        // the folder's verdict on at least one.
        let mut rules = String::new();
        for folder in folders {
            let required = match folder {
                "wrong_answer" => "WA",
                "time_limit_exceeded" => "TLE",
                _ => "RTE",
            };
            rules.push_str(&format!(
                "{folder}:\n  permitted: [AC, WA, TLE, RTE]\n  required: [{required}]\n"
            ));
        }
        write(
            dir.join("submissions").join("submissions.yaml"),
            &format!(
                "# Written by `judge export`: each solution's source expects its overall verdict\n\
                 # (the first failing test's), not a verdict on every test.\n{rules}{permits}"
            ),
        )?;
    }
    Ok(())
}

/// The format's verdict classes of `permitted` verdicts; every class for none.
fn permitted_classes(permitted: Option<&[Verdict]>) -> Vec<&'static str> {
    let class = |v: &Verdict| match v {
        Verdict::AC => "AC",
        Verdict::WA | Verdict::PE => "WA",
        Verdict::TLE => "TLE",
        Verdict::RE | Verdict::MLE | Verdict::OLE => "RTE",
        Verdict::CE | Verdict::IE => "",
    };
    ["AC", "WA", "TLE", "RTE"]
        .into_iter()
        .filter(|c| permitted.is_none_or(|p| p.iter().any(|v| class(v) == *c)))
        .collect()
}

/// A program in a `build`/`run` directory adapting its protocol.
fn wrap(
    problem: &Problem,
    program: &ProgramSpec,
    fixed: &[String],
    protocol: &Protocol,
    config: &Config,
    target: &Path,
) -> Result<()> {
    copy_program(problem, program, target)?;
    let source = if program.path.is_dir() {
        // The program's main source, as judge would pick it.
        crate::engine::main_source(problem, program, config)?
    } else {
        program.path.clone()
    };
    let language: Language = match &program.lang {
        Some(id) => config.language_by_id(id, &source)?,
        None => config.detect_language(&source)?,
    };
    let mut name = source
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if language.source_name.is_some() {
        // The name judge would give it (Main.java, or its public class's).
        let text = std::fs::read(&source).map_err(|e| Error::io(&source, e))?;
        name = crate::compile::source_name(&source, &language, &text);
        copy_file(&source, &target.join(&name))?;
    }
    for (script, text) in [
        ("build", shell::build(&language, &name)),
        ("run", shell::run(&language, &name, fixed, protocol)),
    ] {
        let path = target.join(script);
        write(path.clone(), &text)?;
        set_executable(&path)?;
    }
    Ok(())
}

/// Copies a program (a file, or a directory's files) to `target`: a file
/// keeps its name inside `target` when `target` is a directory program.
fn copy_program(problem: &Problem, program: &ProgramSpec, target: &Path) -> Result<()> {
    let root = root(problem)?;
    if program.path.is_dir() {
        return copy_tree(&root, &program.path, target, 0);
    }
    let is_submission = target
        .parent()
        .and_then(|p| p.parent())
        .is_some_and(|p| p.ends_with("submissions"));
    if is_submission {
        return copy_file(&program.path, target);
    }
    let name = program.path.file_name().unwrap_or_default();
    copy_file(&program.path, &target.join(name))?;
    // The headers its build sees beside it.
    if let Some(dir) = program.path.parent() {
        for header in crate::engine::header_files(&root, dir).map_err(|e| Error::io(dir, e))? {
            copy_file(
                &header,
                &target.join(header.file_name().unwrap_or_default()),
            )?;
        }
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    std::fs::copy(from, to).map_err(|e| Error::io(from, e))?;
    Ok(())
}

/// The folders the package may read from.
fn root(problem: &Problem) -> Result<PackageRoot> {
    problem.root().map_err(|e| Error::io(&problem.dir, e))
}

/// Copies a folder of the package: links followed inside it only (one that
/// leads out is an error), folders nested at most [`MAX_DEPTH`] deep.
fn copy_tree(root: &PackageRoot, from: &Path, to: &Path, depth: usize) -> Result<()> {
    if depth > crate::problem::MAX_DEPTH {
        let why = format!(
            "folders nested more than {} deep",
            crate::problem::MAX_DEPTH
        );
        return Err(Error::io(from, std::io::Error::other(why)));
    }
    std::fs::create_dir_all(to).map_err(|e| Error::io(to, e))?;
    let entries = root
        .entries(from)
        .map_err(|why| Error::io(from, std::io::Error::other(why)))?;
    for entry in entries {
        let target = to.join(&entry.name);
        match entry.kind {
            EntryKind::Dir => copy_tree(root, &entry.path, &target, depth + 1)?,
            EntryKind::File => copy_file(&entry.path, &target)?,
            EntryKind::Other => {}
        }
    }
    Ok(())
}

fn set_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Error::io(path, e))
}

/// An output validator for judge's `lines` checker: lines compared without
/// their trailing whitespace, trailing empty lines ignored.
const LINES_VALIDATOR: &str = r#"// Written by `judge export`: judge's `lines` checker as an output validator.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>
static std::vector<std::string> lines(std::istream& in) {
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
        out.push_back(line);
    }
    while (!out.empty() && out.back().empty()) out.pop_back();
    return out;
}
int main(int argc, char** argv) {
    if (argc < 4) return 1;
    std::ifstream answer_file(argv[2]);
    std::vector<std::string> answer = lines(answer_file), output = lines(std::cin);
    std::ofstream message(std::string(argv[3]) + "/judgemessage.txt");
    for (size_t i = 0; i < answer.size() || i < output.size(); i++) {
        if (i >= answer.size() || i >= output.size() || answer[i] != output[i]) {
            message << "line " << i + 1 << " differs";
            return 43;
        }
    }
    return 42;
}
"#;
