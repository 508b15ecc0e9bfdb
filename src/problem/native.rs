//! judge's own package format: `problem.toml` read into serde structs,
//! then validated into a [`Problem`], so that an invalid spec cannot exist
//! past loading. Every problem found in a spec is reported at once, each
//! naming its key. The format is documented in `docs/problem-format.md`.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use crate::config::Config;
use crate::error::{Error, Result, SpecError};
use crate::problem::{
    BruteSpec, CheckerSpec, Format, GroupSource, InteractorProtocol, InteractorSpec, PackageRoot,
    Problem, ProblemLimits, ProgramLimits, ProgramSpec, SolutionSpec, StressSpec, TestGroup,
    TimeRule, ValidatorSpec, MAX_TESTS, SEED, SIZE,
};
use crate::units::{Bytes, Millis};
use crate::verdict::Verdict;

/// The spec file name inside a problem directory.
pub(crate) const SPEC_FILE: &str = "problem.toml";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProblemDeserialize {
    id: String,
    title: String,
    source: Option<String>,
    time_limit: Option<Millis>,
    memory_limit: Option<Bytes>,
    output_limit: Option<Bytes>,
    package_time: Option<Millis>,
    package_memory: Option<Bytes>,
    package_output: Option<Bytes>,
    testdata: Option<PathBuf>,
    checker: Option<CheckerDeserialize>,
    interactor: Option<InteractorDeserialize>,
    reference: Option<ProgramDeserialize>,
    generator: Option<ProgramDeserialize>,
    validator: Option<ValidatorDeserialize>,
    brute: Option<BruteDeserialize>,
    stress: Option<StressDeserialize>,
    #[serde(default)]
    tests: Vec<GroupDeserialize>,
    #[serde(default)]
    solutions: Vec<SolutionDeserialize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InteractorDeserialize {
    source: PathBuf,
    lang: Option<String>,
    protocol: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckerDeserialize {
    #[serde(rename = "type")]
    kind: String,
    case_sensitive: Option<bool>,
    abs_tolerance: Option<f64>,
    rel_tolerance: Option<f64>,
    source: Option<PathBuf>,
    lang: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramDeserialize {
    source: PathBuf,
    lang: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidatorDeserialize {
    source: PathBuf,
    lang: Option<String>,
    #[serde(default)]
    args: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BruteDeserialize {
    source: PathBuf,
    lang: Option<String>,
    covers: String,
    #[serde(default)]
    validator_args: Vec<String>,
    #[serde(default)]
    generate: Vec<String>,
    count: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StressDeserialize {
    generate: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupDeserialize {
    group: String,
    load: Option<Vec<String>>,
    generate: Option<Vec<String>>,
    seeds: Option<Vec<u64>>,
    count: Option<u64>,
    points: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolutionDeserialize {
    source: PathBuf,
    lang: Option<String>,
    expect: VerdictSet,
}

/// One verdict or a list of allowed verdicts (`"AC"` or `["TLE", "AC"]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VerdictSet(pub Vec<Verdict>);

impl<'de> Deserialize<'de> for VerdictSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = VerdictSet;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a verdict such as \"AC\" or a list such as [\"WA\", \"TLE\"]")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<VerdictSet, E> {
                v.parse().map(|v| VerdictSet(vec![v])).map_err(E::custom)
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<VerdictSet, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    out.push(s.parse().map_err(de::Error::custom)?);
                }
                if out.is_empty() {
                    return Err(de::Error::custom("the list of expected verdicts is empty"));
                }
                Ok(VerdictSet(out))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// Loads and validates `dir/problem.toml`.
pub(crate) fn load(dir: &Path, config: &Config) -> Result<Problem> {
    let spec_path = dir.join(SPEC_FILE);
    let package = PackageRoot::new(dir).map_err(|e| Error::io(dir, e))?;
    let text = package
        .read_text(&spec_path)
        .map_err(|why| Error::io(&spec_path, std::io::Error::other(why)))?;
    parse(&text, dir, config).map_err(|source| Error::Problem {
        path: spec_path,
        source,
    })
}

/// Parses and validates a spec text for the package in `dir`.
pub(crate) fn parse(
    text: &str,
    dir: &Path,
    config: &Config,
) -> std::result::Result<Problem, SpecError> {
    let raw: ProblemDeserialize =
        toml::from_str(text).map_err(|e| SpecError::one(e.to_string().trim_end()))?;
    validate(raw, dir, config)
}

fn validate(
    raw: ProblemDeserialize,
    dir: &Path,
    config: &Config,
) -> std::result::Result<Problem, SpecError> {
    let mut problems = Vec::new();
    for (key, memory) in [
        ("memory_limit", raw.memory_limit),
        ("package_memory", raw.package_memory),
    ] {
        if let Some(Err(why)) = memory.map(|m| crate::units::check_memory_limit(m.0)) {
            problems.push(format!("{key}: {why}"));
        }
    }
    let dir = crate::config::absolute(dir);
    let package =
        PackageRoot::new(&dir).map_err(|e| SpecError::one(format!("{}: {e}", dir.display())))?;
    let dir = package.dir().to_path_buf();
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !is_name(&raw.id) {
        problems.push(format!(
            "id: `{}` must be letters, digits, `-`, `_` or `.`",
            raw.id
        ));
    } else if raw.id != dir_name {
        problems.push(format!(
            "id: `{}` does not match the directory name `{dir_name}`",
            raw.id
        ));
    }
    if raw.title.trim().is_empty() {
        problems.push("title: must not be empty".into());
    }
    let program = |key: &str, source: &Path, lang: Option<String>, problems: &mut Vec<String>| {
        let path = match package.resolve(&dir, source) {
            Ok(path) => {
                if !package.is_file(&path) {
                    problems.push(format!("{key}.source: file `{}` not found", path.display()));
                }
                path
            }
            Err(why) => {
                problems.push(format!("{key}.source: {why}"));
                dir.join(source)
            }
        };
        ProgramSpec { path, lang }
    };
    let interactor = raw.interactor.map(|i| {
        let protocol = match i.protocol.as_deref() {
            None | Some("testlib") => InteractorProtocol::Testlib,
            Some("icpc") => InteractorProtocol::Kattis,
            Some(other) => {
                problems.push(format!(
                    "interactor.protocol: unknown protocol `{other}` (known: testlib, icpc)"
                ));
                InteractorProtocol::Testlib
            }
        };
        InteractorSpec {
            program: program("interactor", &i.source, i.lang, &mut problems),
            protocol,
        }
    });
    let checker = match raw.checker {
        None => CheckerSpec::Tokens {
            case_sensitive: true,
        },
        Some(c) => {
            let kind = c.kind.clone();
            let mut unused_keys = Vec::new();
            let mut unused = |key: &str, present: bool| {
                if present {
                    unused_keys.push(format!("checker.{key}: not used by checker type `{kind}`"));
                }
            };
            let spec = match c.kind.as_str() {
                "tokens" => {
                    unused("abs_tolerance", c.abs_tolerance.is_some());
                    unused("rel_tolerance", c.rel_tolerance.is_some());
                    unused("source", c.source.is_some());
                    CheckerSpec::Tokens {
                        case_sensitive: c.case_sensitive.unwrap_or(true),
                    }
                }
                "lines" | "exact" => {
                    unused("case_sensitive", c.case_sensitive.is_some());
                    unused("abs_tolerance", c.abs_tolerance.is_some());
                    unused("rel_tolerance", c.rel_tolerance.is_some());
                    unused("source", c.source.is_some());
                    if c.kind == "lines" {
                        CheckerSpec::Lines
                    } else {
                        CheckerSpec::Exact
                    }
                }
                "float" => {
                    unused("case_sensitive", c.case_sensitive.is_some());
                    unused("source", c.source.is_some());
                    let abs = c.abs_tolerance.unwrap_or(1e-6);
                    let rel = c.rel_tolerance.unwrap_or(1e-6);
                    for (key, v) in [("abs_tolerance", abs), ("rel_tolerance", rel)] {
                        if !(v >= 0.0 && v.is_finite()) {
                            problems.push(format!(
                                "checker.{key}: must be a finite number >= 0, got {v}"
                            ));
                        }
                    }
                    CheckerSpec::Float { abs, rel }
                }
                "custom" => {
                    unused("case_sensitive", c.case_sensitive.is_some());
                    unused("abs_tolerance", c.abs_tolerance.is_some());
                    unused("rel_tolerance", c.rel_tolerance.is_some());
                    match &c.source {
                        Some(s) => CheckerSpec::Custom(program(
                            "checker",
                            s,
                            c.lang.clone(),
                            &mut problems,
                        )),
                        None => {
                            problems
                                .push("checker.source: required for checker type `custom`".into());
                            CheckerSpec::Exact
                        }
                    }
                }
                other => {
                    problems.push(format!(
                        "checker.type: unknown checker `{other}` (known: tokens, lines, exact, float, custom)"
                    ));
                    CheckerSpec::Exact
                }
            };
            problems.extend(unused_keys);
            spec
        }
    };
    let reference = raw
        .reference
        .map(|p| program("reference", &p.source, p.lang, &mut problems));
    let generator = raw
        .generator
        .map(|p| program("generator", &p.source, p.lang, &mut problems));
    let validators: Vec<ValidatorSpec> = raw
        .validator
        .map(|v| ValidatorSpec {
            program: program("validator", &v.source, v.lang, &mut problems),
            args: v.args,
            valid_exit: 0,
        })
        .into_iter()
        .collect();
    let brute = raw.brute.map(|b| {
        if u64::from(b.count.unwrap_or(0)) > MAX_TESTS {
            problems.push(format!(
                "brute.count: {} is more than the {MAX_TESTS} inputs it may be checked on",
                b.count.unwrap_or(0)
            ));
        }
        if b.count.unwrap_or(0) > 0 && b.generate.is_empty() {
            problems.push("brute.generate: required when brute.count is set".into());
        }
        if !b.generate.is_empty() && !b.generate.iter().any(|a| a.contains(SEED)) {
            problems.push(format!("brute.generate: must contain `{SEED}`"));
        }
        if !b.generate.is_empty() && generator.is_none() {
            problems.push("brute.generate: needs a [generator]".into());
        }
        BruteSpec {
            program: program("brute", &b.source, b.lang, &mut problems),
            covers: b.covers,
            validator_args: b.validator_args,
            count: b
                .count
                .unwrap_or(if b.generate.is_empty() { 0 } else { 200 }),
            generate: b.generate,
        }
    });
    let stress = stress_spec(
        raw.stress,
        generator.is_some(),
        brute.as_ref(),
        &mut problems,
    );
    if raw.tests.is_empty() {
        problems.push("tests: the problem has no test groups ([[tests]])".into());
    }
    let mut groups = Vec::new();
    let mut names = BTreeSet::new();
    let mut total_tests: u64 = 0;
    for (i, g) in raw.tests.into_iter().enumerate() {
        let at = format!("tests[{i}]");
        if !is_name(&g.group) {
            problems.push(format!(
                "{at}.group: `{}` must be letters, digits, `-`, `_` or `.`",
                g.group
            ));
        }
        if !names.insert(g.group.clone()) {
            problems.push(format!(
                "{at}.group: `{}` is used by an earlier group",
                g.group
            ));
        }
        let source = match (g.load, g.generate) {
            (Some(_), Some(_)) => {
                problems.push(format!(
                    "{at}: has both `load` and `generate`; a group does one"
                ));
                continue;
            }
            (None, None) => {
                problems.push(format!(
                    "{at}: needs `load` (fixed tests) or `generate` (generator arguments)"
                ));
                continue;
            }
            (Some(patterns), None) => {
                if patterns.is_empty() {
                    problems.push(format!("{at}.load: must list at least one pattern"));
                }
                for p in &patterns {
                    if let Err(e) = globset::Glob::new(p) {
                        problems.push(format!("{at}.load: bad pattern `{p}`: {e}"));
                    }
                }
                if g.seeds.is_some() || g.count.is_some() {
                    problems.push(format!(
                        "{at}: `seeds` and `count` only apply to `generate` groups"
                    ));
                }
                GroupSource::Load(patterns)
            }
            (None, Some(args)) => {
                if generator.is_none() {
                    problems.push(format!("{at}.generate: the problem has no [generator]"));
                }
                let seeds = match (g.seeds, g.count) {
                    (Some(_), Some(_)) => {
                        problems.push(format!("{at}: give `seeds` or `count`, not both"));
                        vec![]
                    }
                    (Some(seeds), None) => seeds,
                    (None, Some(n)) if n > MAX_TESTS => {
                        problems.push(format!(
                            "{at}.count: {n} is more than the {MAX_TESTS} tests a problem may have"
                        ));
                        vec![1]
                    }
                    (None, Some(n)) => (1..=n).collect(),
                    (None, None) => vec![1],
                };
                total_tests += seeds.len() as u64;
                if seeds.is_empty() {
                    problems.push(format!("{at}.seeds: must not be empty"));
                }
                let distinct: BTreeSet<_> = seeds.iter().collect();
                if distinct.len() != seeds.len() {
                    problems.push(format!("{at}.seeds: seeds repeat"));
                }
                if seeds.len() > 1 && !args.iter().any(|a| a.contains(SEED)) {
                    problems.push(format!(
                        "{at}.generate: must contain `{SEED}` when there are several seeds (or every test would be the same)"
                    ));
                }
                GroupSource::Generate { args, seeds }
            }
        };
        if total_tests > MAX_TESTS {
            problems.push(format!(
                "{at}: the groups so far generate {total_tests} tests, more than the \
                 {MAX_TESTS} a problem may have"
            ));
            total_tests = 0;
        }
        groups.push(TestGroup {
            name: g.group,
            source,
            points: g.points,
            validator_args: Vec::new(),
            checker_args: Vec::new(),
        });
    }
    let solutions = raw
        .solutions
        .into_iter()
        .enumerate()
        .map(|(i, s)| SolutionSpec {
            program: program(&format!("solutions[{i}]"), &s.source, s.lang, &mut problems),
            expect: s.expect.0,
            permitted: None,
        })
        .collect();
    // A problem inside the workspace keeps its tests in testdata/<id>; one kept
    // elsewhere (a user's own repository) in its own testdata/ folder.
    let in_workspace = dir.parent().is_some_and(|parent| {
        parent == config.problems_dir
            || std::fs::canonicalize(&config.problems_dir).is_ok_and(|p| p == parent)
    });
    let testdata_dir = match raw.testdata {
        Some(p) => package.resolve(&dir, &p).unwrap_or_else(|why| {
            problems.push(format!("testdata: {why}"));
            dir.join("testdata")
        }),
        None if in_workspace => {
            let tests = config.testdata_dir.join(&raw.id);
            std::fs::canonicalize(&tests).unwrap_or(tests)
        }
        None => dir.join("testdata"),
    };
    let defaults = ProgramLimits::defaults(config);
    let program_limits = ProgramLimits {
        time: raw.package_time.map_or(defaults.time, |m| m.0),
        memory: raw.package_memory.map_or(defaults.memory, |b| b.0),
        output: raw.package_output.map_or(defaults.output, |b| b.0),
    };
    if !problems.is_empty() {
        return Err(SpecError { problems });
    }
    Ok(Problem {
        id: raw.id,
        title: raw.title,
        source: raw.source,
        testdata_dir,
        limits: ProblemLimits {
            time: raw.time_limit.map_or(config.limits.time, |m| m.0),
            memory: raw.memory_limit.map_or(config.limits.memory, |b| b.0),
            output: raw.output_limit.map_or(config.limits.output, |b| b.0),
        },
        program_limits,
        checker_limits: program_limits,
        time_rule: TimeRule::Fixed,
        time_limit_to_tle: crate::problem::TIME_LIMIT_TO_TLE,
        dir,
        format: Format::Native,
        checker,
        interactor,
        reference,
        generator,
        generators: Default::default(),
        validators,
        brute,
        stress,
        groups,
        solutions,
        notes: Vec::new(),
        files: Default::default(),
        constants: Default::default(),
        validation_passes: None,
        submit_answer: false,
    })
}

/// The `[stress]` generator arguments: as written, else the brute force's
/// `generate` with `{size}` appended, else `small {seed} {size}`; `None`
/// without a generator.
fn stress_spec(
    raw: Option<StressDeserialize>,
    has_generator: bool,
    brute: Option<&BruteSpec>,
    problems: &mut Vec<String>,
) -> Option<StressSpec> {
    if let Some(raw) = raw {
        if !has_generator {
            problems.push("stress.generate: needs a [generator]".into());
        }
        if !raw.generate.iter().any(|a| a.contains(SEED)) {
            problems.push(format!(
                "stress.generate: must contain `{SEED}` (every iteration needs its own input)"
            ));
        }
        return Some(StressSpec {
            generate: raw.generate,
            explicit: true,
        });
    }
    if !has_generator {
        return None;
    }
    let generate = match brute {
        Some(b) if !b.generate.is_empty() => {
            let mut args = b.generate.clone();
            if !args.iter().any(|a| a.contains(SIZE)) {
                args.push(SIZE.into());
            }
            args
        }
        _ => vec!["small".into(), SEED.into(), SIZE.into()],
    };
    Some(StressSpec {
        generate,
        explicit: false,
    })
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !s.starts_with('.')
}

#[cfg(test)]
mod tests;
