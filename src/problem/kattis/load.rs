//! Reading an ICPC package into a [`Problem`]: `problem.yaml` (legacy, the
//! 2023-07 draft, and 2025-09 as published), the test data, the input and
//! output validators and the submissions. Nothing is written into the
//! package. What is read but not used is noted; what cannot be judged is an
//! error naming the file and the key.

use std::path::Path;
use std::time::Duration;

use super::yaml::{self, Table};
use super::{data, generators, submissions, Version};
use crate::config::Config;
use crate::error::{Error, Result, SpecError};
use crate::problem::{
    CheckerSpec, Constants, DefaultFlags, EntryKind, Format, InteractorProtocol, InteractorSpec,
    PackageRoot, Problem, ProblemLimits, ProgramLimits, ProgramSpec, TimeRule, ValidatorSpec,
};
use crate::units;

/// The metadata file of an ICPC package.
pub(crate) const SPEC_FILE: &str = "problem.yaml";

/// The most passes `limits.validation_passes` may ask for.
const MAX_PASSES: u32 = 1000;

/// Whether `dir` holds an ICPC package: a `problem.yaml`, or (the metadata
/// file being optional in legacy packages) test data in `data/`.
pub(crate) fn is_package(dir: &Path) -> bool {
    dir.join(SPEC_FILE).is_file()
        || (dir.join("data/secret").is_dir() && !dir.join(super::super::native::SPEC_FILE).exists())
}

/// Loads the ICPC package in `dir`.
pub(crate) fn load(dir: &Path, config: &Config) -> Result<Problem> {
    let dir = crate::config::absolute(dir);
    let package = PackageRoot::new(&dir).map_err(|e| Error::io(&dir, e))?;
    let dir = package.dir().to_path_buf();
    let spec_path = dir.join(SPEC_FILE);
    let has_spec = spec_path.symlink_metadata().is_ok();
    let value = if has_spec {
        yaml::read(&package, &spec_path).map_err(|e| invalid(&spec_path, vec![e]))?
    } else {
        serde_json::Value::Null
    };
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    if !has_spec {
        notes.push("no problem.yaml: the legacy format's defaults apply".into());
    }
    let root = Table::new(&value, "").map_err(|e| invalid(&spec_path, vec![e]))?;
    let problem = read(&package, &root, config, &mut problems, &mut notes);
    for key in root.unread() {
        notes.push(format!("problem.yaml: unknown key `{key}` ignored"));
    }
    if !problems.is_empty() {
        return Err(invalid(&spec_path, problems));
    }
    let mut problem = problem.expect("built when nothing is wrong");
    problem.notes = notes;
    Ok(problem)
}

/// A value read, or nothing with its problem noted.
fn take<T>(
    result: std::result::Result<Option<T>, String>,
    problems: &mut Vec<String>,
) -> Option<T> {
    result.unwrap_or_else(|e| {
        problems.push(e);
        None
    })
}

fn invalid(path: &Path, problems: Vec<String>) -> Error {
    Error::Problem {
        path: path.to_path_buf(),
        source: SpecError { problems },
    }
}

/// Everything but the notes; `None` when `problems` has something.
fn read(
    package: &PackageRoot,
    root: &Table<'_>,
    config: &Config,
    problems: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Option<Problem> {
    let version = match take(root.text("problem_format_version"), problems).as_deref() {
        None | Some("legacy") => Version::Legacy,
        Some("2023-07-draft" | "2023-07") => Version::Draft,
        Some("2025-09") => Version::Modern,
        Some(other) => {
            problems.push(format!(
                "problem_format_version: `{other}` is not a version judge reads (legacy, 2023-07-draft, 2023-07, 2025-09)"
            ));
            return None;
        }
    };
    root.known(&[
        "uuid",
        "author",
        "source_url",
        "rights_owner",
        "license",
        "keywords",
        "credits",
        "version",
        "embargo_until",
        "languages",
        "allow_file_writing",
        "constants",
        "grading",
    ]);
    let constants = match root.get("constants") {
        Some(value) => Constants::read(value, notes),
        None => Constants::default(),
    };
    let dir = package.dir();
    let id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let title = title(package, root, &constants, problems).unwrap_or_else(|| id.clone());
    let source = match root.get("source") {
        Some(serde_json::Value::Object(m)) => m.get("name").and_then(yaml::scalar),
        Some(v) => yaml::scalar(v),
        None => None,
    };
    // What kind of problem, and how outputs are checked.
    // A list, or words in one string (`type: pass-fail interactive`).
    let types = match root.words("type") {
        Ok(t) => t
            .unwrap_or_else(|| vec!["pass-fail".into()])
            .iter()
            .flat_map(|t| t.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .collect(),
        Err(e) => {
            problems.push(e);
            Vec::new()
        }
    };
    // `validation: custom interactive` (legacy), or a map of flags as some
    // 2023-07 drafts spelled it (`validation: {interactive: true}`).
    let validation = match root.get("validation") {
        Some(serde_json::Value::Object(flags)) => {
            root.known(&["validation"]);
            let mut words = vec!["custom".to_string()];
            for (flag, on) in flags {
                if on.as_bool().unwrap_or(false) {
                    words.push(flag.replace("multipass", "multi-pass"));
                }
            }
            words.join(" ")
        }
        _ => take(root.text("validation"), problems).unwrap_or_else(|| "default".into()),
    };
    let validation: Vec<&str> = validation.split_whitespace().collect();
    let interactive =
        types.iter().any(|t| t == "interactive") || validation.contains(&"interactive");
    let multi_pass = types.iter().any(|t| t == "multi-pass") || validation.contains(&"multi-pass");
    let submit_answer = types.iter().any(|t| t == "submit-answer");
    for t in &types {
        match t.as_str() {
            "pass-fail" | "interactive" | "multi-pass" | "submit-answer" => {}
            "scoring" => notes.push(
                "type scoring: judged pass-fail (scores are recorded, not aggregated)".into(),
            ),
            other => problems.push(format!(
                "type: `{other}` is not a problem type (pass-fail, scoring, interactive, multi-pass, submit-answer)"
            )),
        }
    }
    if submit_answer && (interactive || multi_pass) {
        problems.push(
            "type: submit-answer cannot be interactive or multi-pass (the spec's rule: there is no program to run)"
                .into(),
        );
    }
    let custom = match (version, validation.first().copied()) {
        (_, Some("custom")) => true,
        (Version::Legacy, Some("default") | None) => false,
        (Version::Legacy, Some(other)) => {
            problems.push(format!(
                "validation: `{other}` is neither default nor custom"
            ));
            false
        }
        (_, _) => {
            package.is_dir(&dir.join("output_validator"))
                || package.is_dir(&dir.join("output_validators"))
        }
    };
    let base_flags = match root.args("validator_flags") {
        Ok(f) => f.unwrap_or_default(),
        Err(e) => {
            problems.push(e);
            Vec::new()
        }
    };
    // An interactive problem's output validator is its interactor; a
    // multi-pass problem's writes the next pass's input.
    let custom = custom || interactive || multi_pass;
    let mut interactor = None;
    let checker = if custom {
        match output_validator(package, config, problems) {
            Some(program) if interactive => {
                interactor = Some(InteractorSpec {
                    program,
                    protocol: InteractorProtocol::Kattis,
                });
                CheckerSpec::KattisDefault
            }
            Some(program) => CheckerSpec::Kattis(program),
            None => {
                problems.push(
                    "validation is custom but the package has no output validator (output_validators/ or output_validator/)"
                        .into(),
                );
                CheckerSpec::KattisDefault
            }
        }
    } else {
        if package.is_dir(&dir.join("output_validators")) {
            notes.push("output_validators/: ignored (validation is default)".into());
        }
        CheckerSpec::KattisDefault
    };
    let (limits, checker_limits, time_rule, time_limit_to_tle, passes) =
        limits(package, root, version, config, problems, notes);
    let validation_passes = multi_pass.then_some(passes);
    // Answers take no time: nothing to infer a limit from.
    let time_rule = match submit_answer {
        true => TimeRule::Fixed,
        false => time_rule,
    };
    let validators = input_validators(package, problems, notes);
    // The tests: data/, or BAPCtools' generators.yaml when it makes some
    // that data/ lacks. A file judge cannot read in full is used only when
    // data/ has no tests: then what it cannot make is the error.
    let generated = generators::read(package, &constants, &base_flags, multi_pass, notes);
    let data_has_tests = ["data/sample", "data/secret"]
        .iter()
        .any(|d| package.is_dir(&dir.join(d)));
    let from_yaml = generated
        .as_ref()
        .is_some_and(|g| !g.all_in_data && (g.problems.is_empty() || !data_has_tests));
    let (groups, made_by, solution) = match generated {
        Some(g) if from_yaml => {
            problems.extend(g.problems);
            let count: usize = g
                .groups
                .iter()
                .map(|group| match &group.source {
                    crate::problem::GroupSource::Tests(t) => t.len(),
                    _ => 0,
                })
                .sum();
            notes.push(format!(
                "{}: {count} tests of data/sample and data/secret made as `bt generate` makes them (those already in data/ read from there)",
                generators::FILE
            ));
            (g.groups, g.generators, g.solution)
        }
        Some(g) => {
            notes.push(match g.problems.first() {
                None => format!(
                    "{}: every test it makes is in data/ already: data/ is read",
                    generators::FILE
                ),
                Some(first) => format!(
                    "data/ is read; generators.yaml not used ({first}{})",
                    match g.problems.len() {
                        1 => String::new(),
                        n => format!(", and {} more", n - 1),
                    }
                ),
            });
            let groups = data::groups(package, version, &base_flags, &constants, problems, notes);
            (
                groups,
                Default::default(),
                g.solution.filter(|_| g.problems.is_empty()),
            )
        }
        None => {
            let groups = data::groups(package, version, &base_flags, &constants, problems, notes);
            (groups, Default::default(), None)
        }
    };
    if checker == CheckerSpec::KattisDefault {
        for g in &groups {
            if let Err(why) = DefaultFlags::parse(&g.checker_args) {
                problems.push(format!("data/{}: output validator flags: {why}", g.name));
            }
        }
    }
    let solutions = submissions::read(package, version, config, submit_answer, problems, notes);
    if !solutions
        .iter()
        .any(|s| s.expect == [crate::verdict::Verdict::AC])
    {
        notes.push("submissions/accepted: empty (nothing gives or checks answers)".into());
    }
    if !from_yaml && package.is_dir(&dir.join("generators")) {
        notes.push("generators/: not run (data/ holds the tests)".into());
    }
    for extra in ["graders", "input_visualizer", "output_visualizer"] {
        if dir.join(extra).exists() {
            notes.push(format!("{extra}/: ignored (not used by judge)"));
        }
    }
    if !problems.is_empty() {
        return None;
    }
    // Answers for tests without one come from generators.yaml's `solution`,
    // else the first accepted submission (a program: not a submit-answer
    // problem's answers).
    let reference = match solution {
        Some(path) => Some(
            solutions
                .iter()
                .map(|s| s.program.clone())
                .find(|p| p.path == path)
                .unwrap_or(ProgramSpec { path, lang: None }),
        ),
        None => solutions
            .iter()
            .find(|s| s.expect == [crate::verdict::Verdict::AC])
            .filter(|_| !submit_answer)
            .map(|s| s.program.clone()),
    };
    Some(Problem {
        interactor,
        id,
        title,
        source,
        limits,
        checker_limits,
        time_rule,
        time_limit_to_tle,
        checker,
        reference,
        validators,
        groups,
        solutions,
        constants,
        validation_passes,
        submit_answer,
        generators: made_by,
        ..Problem::base(dir.to_path_buf(), Format::Kattis, dir.join("data"), config)
    })
}

/// The title: `name` (a string, or one per language), else the statement's
/// `\problemname{}`.
fn title(
    package: &PackageRoot,
    root: &Table<'_>,
    constants: &Constants,
    problems: &mut Vec<String>,
) -> Option<String> {
    match root.get("name") {
        Some(serde_json::Value::Object(by_language)) => {
            return by_language
                .get("en")
                .or_else(|| by_language.values().next())
                .and_then(yaml::scalar)
        }
        Some(v) => match yaml::scalar(v) {
            Some(name) => return Some(name),
            None => problems.push("name: expected text, or text per language".into()),
        },
        None => {}
    }
    for statement in [
        "problem_statement/problem.en.tex",
        "problem_statement/problem.tex",
        "statement/problem.en.tex",
        "statement/problem.en.md",
    ] {
        let path = package.dir().join(statement);
        if !package.is_file(&path) {
            continue;
        }
        let Ok(text) = package.read_text(&path) else {
            continue;
        };
        if let Some(start) = text.find("\\problemname{") {
            let rest = &text[start + "\\problemname{".len()..];
            if let Some(end) = rest.find('}') {
                return Some(rest[..end].trim().to_string());
            }
        }
        // A Markdown statement's constants are replaced (the spec's rule).
        if let Some(heading) = text.lines().find_map(|l| l.strip_prefix("# ")) {
            return Some(constants.substitute(heading.trim()).into_owned());
        }
    }
    None
}

/// Memory and output limits, and the time limit: `limits.time_limit`, else
/// to be inferred from the accepted submissions (problemtools' rule); and
/// the limits of the output validator (`validation_time`,
/// `validation_memory`, `validation_output`). A number out of range is a
/// problem naming its key.
fn limits(
    package: &PackageRoot,
    root: &Table<'_>,
    version: Version,
    config: &Config,
    problems: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> (ProblemLimits, ProgramLimits, TimeRule, f64, u32) {
    let limits = match root.table("limits") {
        Ok(t) => t,
        Err(e) => {
            problems.push(e);
            None
        }
    };
    // A number of `table` at `key`, checked by `check`.
    fn checked<T>(
        table: Option<&Table<'_>>,
        key: &str,
        check: impl Fn(f64) -> std::result::Result<T, String>,
        problems: &mut Vec<String>,
    ) -> Option<T> {
        let t = table?;
        match t.number(key) {
            Ok(Some(v)) => match check(v) {
                Ok(v) => Some(v),
                Err(why) => {
                    problems.push(format!("{}: {why}", t.key(key)));
                    None
                }
            },
            Ok(None) => None,
            Err(e) => {
                problems.push(e);
                None
            }
        }
    }
    let table = limits.as_ref();
    let memory = checked(table, "memory", units::mebibytes, problems).unwrap_or(1024 << 20);
    let output = checked(table, "output", units::mebibytes, problems).unwrap_or(8 << 20);
    if let Err(why) = units::check_memory_limit(memory) {
        problems.push(format!("limits.memory: {why}"));
    }
    let multiplier = |v| units::factor(v, 1.0, 100.0);
    let (multiplier, resolution, to_tle) = match version {
        Version::Legacy => (
            checked(table, "time_multiplier", multiplier, problems).unwrap_or(5.0),
            Duration::from_secs(1),
            checked(table, "time_safety_margin", multiplier, problems).unwrap_or(2.0),
        ),
        Version::Draft | Version::Modern => {
            let multipliers = limits
                .as_ref()
                .and_then(|t| match t.table("time_multipliers") {
                    Ok(m) => m,
                    Err(e) => {
                        problems.push(e);
                        None
                    }
                });
            let ac = checked(
                multipliers.as_ref(),
                "ac_to_time_limit",
                multiplier,
                problems,
            )
            .unwrap_or(2.0);
            let to_tle = checked(
                multipliers.as_ref(),
                "time_limit_to_tle",
                multiplier,
                problems,
            )
            .unwrap_or(crate::problem::TIME_LIMIT_TO_TLE);
            let resolution = checked(table, "time_resolution", units::seconds, problems)
                .unwrap_or(Duration::from_secs(1));
            (ac, resolution, to_tle)
        }
    };
    if let Some(t) = &limits {
        t.known(&[
            "time_safety_margin",
            "code",
            "compilation_time",
            "compilation_memory",
        ]);
    }
    // Passes of a multi-pass problem: at least 2 (the spec's rule), and
    // not without end.
    let passes = checked(
        table,
        "validation_passes",
        |v| match v.fract() == 0.0 && (2.0..=MAX_PASSES as f64).contains(&v) {
            true => Ok(v as u32),
            false => Err(format!(
                "must be a whole number from 2 to {MAX_PASSES}, got {v}"
            )),
        },
        problems,
    )
    .unwrap_or(2);
    // problemtools' rule: problem.yaml's `limits.time_limit` when given,
    // else inferred from the accepted submissions. DOMjudge's `.timelimit`
    // is not part of the format (problemtools never reads it; BAPCtools
    // calls it deprecated): it is named, not used.
    let fixed = checked(table, "time_limit", units::seconds, problems);
    let timelimit = package.dir().join(".timelimit");
    if timelimit.symlink_metadata().is_ok() {
        match package.read_text(&timelimit) {
            Ok(text) => {
                let text = text.trim();
                notes.push(match fixed {
                    Some(_) => format!(".timelimit ({text} s): not used (problem.yaml's limits.time_limit is the limit)"),
                    None => format!(
                        ".timelimit ({text} s, DOMjudge's): not used; the limit is inferred from the accepted submissions as problemtools does (`--time-limit {text}s` to use it)"
                    ),
                });
            }
            Err(e) => problems.push(format!(".timelimit: {e}")),
        }
    }
    let defaults = ProgramLimits::defaults(config);
    let validation = ProgramLimits {
        time: checked(table, "validation_time", units::seconds, problems).unwrap_or(defaults.time),
        memory: checked(table, "validation_memory", units::mebibytes, problems)
            .unwrap_or(defaults.memory),
        output: checked(table, "validation_output", units::mebibytes, problems)
            .unwrap_or(defaults.output),
    };
    if let Err(why) = units::check_memory_limit(validation.memory) {
        problems.push(format!("limits.validation_memory: {why}"));
    }
    if let Some(t) = &limits {
        for key in t.unread() {
            notes.push(format!("problem.yaml: unknown limit `{key}` ignored"));
        }
    }
    let (time, rule) = match fixed {
        Some(time) => (time, TimeRule::Fixed),
        None => (
            config.limits.package_time,
            TimeRule::Inferred {
                multiplier,
                resolution,
                minimum: match version {
                    Version::Legacy => Duration::from_secs(1),
                    _ => resolution,
                },
            },
        ),
    };
    (
        ProblemLimits {
            time,
            memory,
            output,
        },
        validation,
        rule,
        to_tle,
        passes,
    )
}

/// The output validator: 2025-09's `output_validator/` (one program), or
/// the first program of `output_validators/`.
fn output_validator(
    package: &PackageRoot,
    config: &Config,
    problems: &mut Vec<String>,
) -> Option<ProgramSpec> {
    let single = package.dir().join("output_validator");
    if package.is_dir(&single) {
        // One program (2025-09); or, as problemtools reads a 2023-07
        // package, a folder of programs of which the first is used
        // (`output_validator/<name>/validate.cc`).
        let holds_program = package.entries(&single).is_ok_and(|entries| {
            entries.iter().any(|e| {
                e.kind == EntryKind::File
                    && (e.name == "build"
                        || (e.at.extension().is_some() && config.detect_language(&e.at).is_ok()))
            })
        });
        if !holds_program {
            if let Some(first) = programs(package, "output_validator", problems)
                .into_iter()
                .next()
            {
                return Some(first);
            }
        }
        return Some(ProgramSpec {
            path: single,
            lang: None,
        });
    }
    programs(package, "output_validators", problems)
        .into_iter()
        .next()
}

/// The input validators (each must accept every input; exit 42 is valid).
fn input_validators(
    package: &PackageRoot,
    problems: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Vec<ValidatorSpec> {
    let mut out = Vec::new();
    for folder in ["input_validators", "input_format_validators"] {
        for program in programs(package, folder, problems) {
            let ext = program.path.extension().and_then(|e| e.to_str());
            match ext {
                Some("viva") => notes.push(format!(
                    "{folder}/{}: ignored (VIVA validators are not supported)",
                    program
                        .path
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                )),
                // checktestdata exits 0 on a valid input.
                Some("ctd") => out.push(ValidatorSpec {
                    program,
                    args: Vec::new(),
                    valid_exit: 0,
                }),
                _ => out.push(ValidatorSpec {
                    program,
                    args: Vec::new(),
                    valid_exit: 42,
                }),
            }
        }
    }
    out
}

/// The programs of a folder of the package: its files and directories, in
/// byte order (a link leading out of the package is a problem).
fn programs(package: &PackageRoot, folder: &str, problems: &mut Vec<String>) -> Vec<ProgramSpec> {
    let dir = package.dir().join(folder);
    if !package.is_dir(&dir) {
        return Vec::new();
    }
    let entries = match package.entries(&dir) {
        Ok(entries) => entries,
        Err(e) => {
            problems.push(e);
            return Vec::new();
        }
    };
    entries
        .into_iter()
        .filter(|e| e.kind != EntryKind::Other)
        .map(|e| ProgramSpec {
            path: e.at,
            lang: None,
        })
        .collect()
}
