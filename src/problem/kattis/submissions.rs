//! The example submissions of an ICPC package and the verdicts they must
//! get: `submissions/<dir>/<program>`, the directory saying what is
//! expected, and in 2025-09 `submissions.yaml` refining it by glob.
//!
//! Verdict classes map onto judge's: RTE covers RE, MLE and OLE (the
//! format has no memory or output verdict of its own), WA covers PE.

use std::path::Path;

use globset::GlobBuilder;

use super::yaml::{self, Table};
use super::Version;
use crate::problem::{PackageRoot, ProgramSpec, SolutionSpec};
use crate::verdict::Verdict;

/// judge's verdicts for one of the format's.
fn class(verdict: &str) -> Option<&'static [Verdict]> {
    Some(match verdict {
        "AC" => &[Verdict::AC],
        "WA" => &[Verdict::WA, Verdict::PE],
        "TLE" => &[Verdict::TLE],
        "RTE" => &[Verdict::RE, Verdict::MLE, Verdict::OLE],
        _ => return None,
    })
}

fn verdicts(classes: &[&str]) -> Vec<Verdict> {
    classes
        .iter()
        .filter_map(|c| class(c))
        .flat_map(|v| v.iter().copied())
        .collect()
}

/// What a directory of `submissions/` expects: the overall verdict, and
/// (2025-09) every test's.
fn expectation(dir: &str, version: Version) -> Option<(Vec<Verdict>, Option<Vec<Verdict>>)> {
    // problemtools' policy for legacy and 2023-07 packages: the overall
    // verdict, nothing per test.
    let legacy = |v: &[&str]| Some((verdicts(v), None));
    // 2025-09: `required` (some test has one) and `permitted` (every test).
    let modern = |required: &[&str], permitted: &[&str]| {
        Some((verdicts(required), Some(verdicts(permitted))))
    };
    match (version, dir) {
        (Version::Legacy | Version::Draft, "accepted") => legacy(&["AC"]),
        (Version::Legacy | Version::Draft, "wrong_answer") => legacy(&["WA"]),
        (Version::Legacy | Version::Draft, "time_limit_exceeded") => legacy(&["TLE"]),
        (Version::Legacy | Version::Draft, "run_time_error") => legacy(&["RTE"]),
        (Version::Modern, "accepted") => modern(&["AC"], &["AC"]),
        (Version::Modern, "rejected") => modern(&["RTE", "TLE", "WA"], &["AC", "RTE", "TLE", "WA"]),
        (Version::Modern, "wrong_answer") => modern(&["WA"], &["AC", "WA"]),
        (Version::Modern, "time_limit_exceeded") => modern(&["TLE"], &["AC", "TLE"]),
        (Version::Modern, "run_time_error") => modern(&["RTE"], &["AC", "RTE"]),
        (Version::Modern, "brute_force") => modern(&["RTE", "TLE"], &["AC", "RTE", "TLE"]),
        // 2025-09: any other direct subdirectory holds submissions too, bound
        // only by what `submissions.yaml` says of it.
        (Version::Modern, _) => modern(&["AC", "WA", "TLE", "RTE"], &["AC", "WA", "TLE", "RTE"]),
        _ => None,
    }
}

/// The package's submissions, in order (directories, then names, in byte
/// order), with what each must get.
pub(super) fn read(
    package: &PackageRoot,
    version: Version,
    config: &crate::config::Config,
    submit_answer: bool,
    problems: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Vec<SolutionSpec> {
    let root = package.dir().join("submissions");
    let mut out = Vec::new();
    if !package.is_dir(&root) {
        return out;
    }
    let dirs = match sorted(package, &root) {
        Ok(dirs) => dirs,
        Err(e) => {
            problems.push(e);
            return out;
        }
    };
    let overrides = overrides(package, &root, version, problems, notes);
    let mut python = 0;
    for (dir, path) in dirs {
        if !path.is_dir() {
            if dir != "submissions.yaml" {
                notes.push(format!(
                    "submissions/{dir}: ignored (not in a verdict directory)"
                ));
            }
            continue;
        }
        let Some((expect, permitted)) = expectation(&dir, version) else {
            notes.push(format!(
                "submissions/{dir}/: ignored (not a verdict directory of this format version{})",
                if dir == "partially_accepted" {
                    "; scoring is not supported"
                } else {
                    ""
                }
            ));
            continue;
        };
        let programs = match sorted(package, &path) {
            Ok(programs) => programs,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        for (name, program) in programs {
            let relative = format!("{dir}/{name}");
            // A file in no language (`x.cc.disabled`, a README): problemtools
            // and BAPCtools find no program in it and skip it.
            // (A submit-answer problem's submission is its answers: any file.)
            if !submit_answer && program.is_file() && config.detect_language(&program).is_err() {
                notes.push(format!(
                    "submissions/{relative}: ignored (no language judge knows by its name)"
                ));
                continue;
            }
            // A folder with no such file (a `__pycache__/` of `.pyc`) is no
            // program either: problemtools skips it too.
            if !submit_answer && program.is_dir() && !holds_a_program(&program, config) {
                notes.push(format!(
                    "submissions/{relative}/: ignored (no file in a language judge knows, nor a `build` script)"
                ));
                continue;
            }
            let (mut expect, mut permitted) = (expect.clone(), permitted.clone());
            // A key naming the directory itself replaces its defaults; any
            // other glob matching the submission or its directory adds to
            // them (the spec: `time_limit_exceeded/*` is an extra
            // requirement): permitted sets intersect, the last `required` wins.
            let (own, others): (Vec<_>, Vec<_>) = overrides.iter().partition(|o| o.pattern == dir);
            for o in own.into_iter().chain(others) {
                if !(o.glob.is_match(&relative) || o.glob.is_match(&dir)) {
                    continue;
                }
                if let Some(required) = &o.required {
                    expect = required.clone();
                }
                if let Some(allowed) = &o.permitted {
                    permitted = Some(match (permitted, o.pattern == dir) {
                        (Some(before), false) => {
                            before.into_iter().filter(|v| allowed.contains(v)).collect()
                        }
                        _ => allowed.clone(),
                    });
                }
            }
            // `.py` as problemtools and BAPCtools run it: PyPy where installed.
            let is_python = !submit_answer
                && program.is_file()
                && config
                    .detect_language(&program)
                    .is_ok_and(|l| l.id == "python");
            python += usize::from(is_python);
            let lang = is_python
                .then(|| config.package_python_language())
                .flatten()
                .map(|l| l.id.clone());
            out.push(SolutionSpec {
                program: ProgramSpec {
                    path: program,
                    lang,
                },
                expect,
                permitted,
            });
        }
    }
    if python > 0 {
        notes.push(match config.package_python_language() {
            Some(l) => format!(
                "submissions: {python} .py run as {} ({}), as problemtools and BAPCtools run them (package_python in judge.toml chooses)",
                l.id, l.name
            ),
            None if config.package_python == "auto" => format!(
                "submissions: {python} .py run with CPython: PyPy (pypy3) is not installed, which problemtools and BAPCtools would use"
            ),
            None => format!("submissions: {python} .py run as package_python chooses"),
        });
    }
    out
}

/// One key of `submissions.yaml`: the glob, and the verdicts it requires
/// on some test and permits on every test.
struct Override {
    pattern: String,
    glob: globset::GlobMatcher,
    required: Option<Vec<Verdict>>,
    permitted: Option<Vec<Verdict>>,
}

/// `submissions.yaml` (2025-09): globs over submissions, each with its own
/// `required` and `permitted` verdicts.
fn overrides(
    package: &PackageRoot,
    root: &Path,
    version: Version,
    problems: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Vec<Override> {
    let path = root.join("submissions.yaml");
    if !package.is_file(&path) {
        return Vec::new();
    }
    if version != Version::Modern {
        notes.push("submissions/submissions.yaml: ignored before version 2025-09".into());
        return Vec::new();
    }
    let value = match yaml::read(package, &path) {
        Ok(v) => v,
        Err(e) => {
            problems.push(format!("submissions/submissions.yaml: {e}"));
            return Vec::new();
        }
    };
    let serde_json::Value::Object(map) = &value else {
        if !value.is_null() {
            problems.push("submissions/submissions.yaml: expected a mapping of globs".into());
        }
        return Vec::new();
    };
    let mut out = Vec::new();
    for (pattern, entry) in map {
        let at = format!("submissions/submissions.yaml: `{pattern}`");
        // `*` stays within a name; `{a,b}` expands (the spec's globs).
        let glob = match GlobBuilder::new(pattern).literal_separator(true).build() {
            Ok(g) => g.compile_matcher(),
            Err(e) => {
                problems.push(format!("{at}: bad glob: {e}"));
                continue;
            }
        };
        let table = match Table::new(entry, pattern) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("submissions/submissions.yaml: {e}"));
                continue;
            }
        };
        table.known(&[
            "score",
            "message",
            "use_for_time_limit",
            "language",
            "entrypoint",
            "author",
            "authors",
            "model_solution",
        ]);
        let mut list = |key: &str| -> Option<Vec<Verdict>> {
            match table.words(key) {
                Ok(Some(words)) => {
                    let unknown: Vec<&String> =
                        words.iter().filter(|w| class(w).is_none()).collect();
                    if !unknown.is_empty() {
                        problems.push(format!(
                            "{at}.{key}: unknown verdicts {unknown:?} (known: AC, WA, TLE, RTE)"
                        ));
                    }
                    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
                    Some(verdicts(&refs))
                }
                Ok(None) => None,
                Err(e) => {
                    problems.push(format!("submissions/submissions.yaml: {e}"));
                    None
                }
            }
        };
        let required = list("required");
        let permitted = list("permitted");
        for key in table.unread() {
            notes.push(format!(
                "submissions/submissions.yaml: unknown key `{key}` ignored"
            ));
        }
        out.push(Override {
            pattern: pattern.clone(),
            glob,
            required,
            permitted,
        });
    }
    out
}

/// Whether a folder submission holds a `build` script or a file whose
/// name says its language (at any depth).
fn holds_a_program(dir: &Path, config: &crate::config::Config) -> bool {
    dir.join("build").is_file()
        || walkdir::WalkDir::new(dir)
            .follow_links(false)
            .into_iter()
            .filter_map(Result::ok)
            .any(|e| e.file_type().is_file() && config.detect_language(e.path()).is_ok())
}

/// The entries of a folder of the package, in byte order of names (links
/// followed inside the package only).
fn sorted(package: &PackageRoot, dir: &Path) -> Result<Vec<(String, std::path::PathBuf)>, String> {
    Ok(package
        .entries(dir)?
        .into_iter()
        .map(|e| (e.name, e.path))
        .collect())
}
