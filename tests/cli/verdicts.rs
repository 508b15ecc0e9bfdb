//! The table of fixture submissions and the verdict each must get, and the
//! test that judges them all with `--format json`. The main item is [`TABLE`].
//!
//! A fixture misbehaves on purpose (loops, sleeps, allocates, floods, crashes,
//! forks); its name starts with the verdict it must get on its own problem.
//! Rows are judged in a few `judge run PROBLEM F1 F2 ...` invocations, one per
//! (problem, tests), in parallel.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::support::{
    first_failure, problem, repo, str_field, submission, tests_args, tests_of, u64_field, Workspace,
};

/// The Nim problem of the workspace.
const NIM: &str = "acwing-891";
/// Exact output checker (PE when only whitespace differs).
const PE_DEMO: &str = "pe-demo";
/// Custom testlib-style checker.
const CHECKER_DEMO: &str = "checker-demo";
/// Custom checker that crashes (every test IE).
const CHECKER_CRASH: &str = "checker-crash";

/// Nim tests answered Yes, Yes, No: every wrong rule of the fixtures fails one.
const MIXED: &[&str] = &["sample-1", "edge-even-xor", "edge-three-losing"];
/// Only the sample (answer Yes): for fixtures that burn a limit on every test,
/// or that print the sample's answer without reading the input.
const SAMPLE: &[&str] = &["sample-1"];
/// The languages added for real packages and the folder programs: a group
/// (one judge run) of their own, so that their compilations (scalac and
/// kotlinc take seconds each) do not crowd the main group's time.
const MORE: &[&str] = &["sample-1", "edge-even-xor"];
/// Every test of the problem.
const ALL: &[&str] = &[];

/// An extra check on a report; `Err` says what is wrong.
pub(crate) type Check = fn(&Value) -> Result<(), String>;

/// One fixture and what judging it must give.
pub(crate) struct Case {
    /// Problem: a workspace id, or a fixture problem under tests/fixtures/problems.
    pub problem: &'static str,
    /// The file, under tests/fixtures/submissions.
    pub file: &'static str,
    /// `--tests` globs (empty: all).
    pub tests: &'static [&'static str],
    /// The expected overall verdict.
    pub verdict: &'static str,
    /// A substring of the deciding message: the compiler's on CE, else the
    /// first failing test's ("" to check nothing).
    pub message: &'static str,
    /// More checks on the report; `Err` says what is wrong.
    pub check: Option<Check>,
    /// `--lang` for the file, when its extension does not say.
    pub lang: Option<&'static str>,
}

const fn case(
    problem: &'static str,
    file: &'static str,
    tests: &'static [&'static str],
    verdict: &'static str,
    message: &'static str,
) -> Case {
    Case {
        problem,
        file,
        tests,
        verdict,
        message,
        check: None,
        lang: None,
    }
}

/// A case judged with `--lang`.
const fn with_lang(lang: &'static str, case: Case) -> Case {
    Case {
        lang: Some(lang),
        ..case
    }
}

/// Every fixture submission and its expected verdict.
#[rustfmt::skip]
pub(crate) const TABLE: &[Case] = &[
    // Accepted, in every language.
    case(NIM, "acwing-891/ac.c",                  MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.cpp",                MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.rs",                 MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.py",                 MIXED, "AC", ""),
    // As contest judges compile: GNU C (POSIX declarations), ONLINE_JUDGE
    // and C++20; Java run as its public class, or Main.
    case(NIM, "acwing-891/ac-posix.c",            MIXED, "AC", ""),
    case(NIM, "acwing-891/ac-online-judge.cpp",   MIXED, "AC", ""),
    case(NIM, "acwing-891/ac-Different.java",     MIXED, "AC", ""),
    case(NIM, "acwing-891/ac-main.java",          MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.js",                 MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.kt",                 MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.go",                 MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.cs",                 MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.hs",                 MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.rb",                 MIXED, "AC", ""),
    case(NIM, "acwing-891/ac.pas",                MIXED, "AC", ""),
    with_lang("pypy", case(NIM, "acwing-891/ac-pypy.py", MIXED, "AC", "")),
    // The languages Kattis and DOMjudge accept besides (Debian's), and
    // today's Kotlin (npm's kotlin-compiler; Debian's 1.3 has no readln).
    case(NIM, "acwing-891/ac.scala",              MORE,  "AC", ""),
    case(NIM, "acwing-891/ac.ml",                 MORE,  "AC", ""),
    case(NIM, "acwing-891/ac.lisp",               MORE,  "AC", ""),
    case(NIM, "acwing-891/ac.php",                MORE,  "AC", ""),
    case(NIM, "acwing-891/ac.pl",                 MORE,  "AC", ""),
    case(NIM, "acwing-891/ac-readln.kt",          MORE,  "AC", ""),
    case(NIM, "acwing-891/ac.sh",                 MORE,  "AC", ""),
    case(NIM, "acwing-891/ac.bash",               MORE,  "AC", ""),
    // Programs of several files (a folder, as Kattis and DOMjudge take
    // them): built together, the main one found as the peers find it.
    case(NIM, "acwing-891/ac-dir-cpp",            MORE,  "AC", ""),
    case(NIM, "acwing-891/ac-dir-java",           MORE,  "AC", ""),
    case(NIM, "acwing-891/ac-dir-py",             MORE,  "AC", ""),
    // The C++ standard chosen with --lang: C++17 code that C++20 rejects,
    // C++23 library that C++20 hides.
    with_lang("cpp17", case(NIM, "acwing-891/ac-u8-cpp17.cpp", MIXED, "AC", "")),
    with_lang("cpp23", case(NIM, "acwing-891/ac-unreachable-cpp23.cpp", MIXED, "AC", "")),
    // Wrong rules.
    case(NIM, "acwing-891/wa-sum-parity.c",       MIXED, "WA", "expected `Yes`, got `No`"),
    case(NIM, "acwing-891/wa-or.cpp",             MIXED, "WA", "expected `No`, got `Yes`"),
    case(NIM, "acwing-891/wa-odd-n.rs",           MIXED, "WA", "expected `Yes`, got `No`"),
    case(NIM, "acwing-891/wa-first-vs-last.py",   MIXED, "WA", "expected `No`, got `Yes`"),
    // Limits.
    Case {
        check: Some(|report| {
            let test = deciding(report)?;
            let time = u64_field(test, "time_ms");
            // Stopped by the CPU limit once it had its CPU time; on a machine so
            // loaded that it did not get it within the wall limit, the wall
            // clock stops it, and that too must say so.
            let by_wall = str_field(test, "message").starts_with("wall time exceeds");
            ensure(time >= 1000 || by_wall, format!("CPU time {time} ms is under the limit and no wall limit was hit"))
        }),
        ..case(NIM, "acwing-891/tle-busy-loop.c",       SAMPLE, "TLE", "CPU time")
    },
    Case {
        check: Some(|report| {
            let wall = u64_field(deciding(report)?, "wall_ms");
            ensure(wall >= 3000, format!("wall time {wall} ms is under the limit"))
        }),
        ..case(NIM, "acwing-891/tle-sleep-forever.py",  SAMPLE, "TLE", "wall time")
    },
    case(NIM, "acwing-891/mle-vector.cpp",        MIXED, "MLE", "limit of 64.0 MiB"),
    case(NIM, "acwing-891/mle-list.py",           MIXED, "MLE", "limit of 64.0 MiB"),
    case(NIM, "acwing-891/mle-vec.rs",            MIXED, "MLE", "limit of 64.0 MiB"),
    // Runtimes with their own heap (no address-space limit): the cgroup's
    // kill, the full heap, or the peak after the run, but always MLE.
    case(NIM, "acwing-891/mle-arrays.java",       SAMPLE, "MLE", "limit of 64.0 MiB"),
    case(NIM, "acwing-891/mle-array.js",          SAMPLE, "MLE", "limit of 64.0 MiB"),
    case(NIM, "acwing-891/mle-slices.go",         SAMPLE, "MLE", "limit of 64.0 MiB"),
    case(NIM, "acwing-891/ole-print-forever.c",   MIXED, "OLE", "limit of 1.0 MiB"),
    case(NIM, "acwing-891/ole-print-10mb.py",     MIXED, "OLE", "limit of 1.0 MiB"),
    // Crashes.
    case(NIM, "acwing-891/re-segv.c",             MIXED, "RE", "SIGSEGV"),
    case(NIM, "acwing-891/re-abort.cpp",          MIXED, "RE", "SIGABRT"),
    case(NIM, "acwing-891/re-exit3.c",            MIXED, "RE", "exit code 3"),
    case(NIM, "acwing-891/re-panic.rs",           MIXED, "RE", "exit code 101"),
    case(NIM, "acwing-891/re-exception.py",       MIXED, "RE", "ValueError"),
    // Compile errors (the message is the compiler's).
    case(NIM, "acwing-891/ce-syntax.cpp",         MIXED, "CE", "expected ‘;’"),
    case(NIM, "acwing-891/ce-type-error.rs",      MIXED, "CE", "mismatched types"),
    case(NIM, "acwing-891/ce-syntax.py",          MIXED, "CE", "SyntaxError"),
    case(NIM, "acwing-891/ce-syntax.java",        MIXED, "CE", "';' expected"),
    case(NIM, "acwing-891/ce-syntax.js",          MIXED, "CE", "SyntaxError"),
    case(NIM, "acwing-891/ce-iostream.c",         MIXED, "CE", "iostream"),
    case(NIM, "acwing-891/ce-type-error.kt",      MIXED, "CE", "type mismatch"),
    case(NIM, "acwing-891/ce-unused-import.go",   MIXED, "CE", "imported and not used"),
    // A package from the network: no download, no hang.
    case(NIM, "acwing-891/ce-module-import.go",   MIXED, "CE", "cannot find module"),
    case(NIM, "acwing-891/ce-type-error.cs",      MIXED, "CE", "CS0029"),
    case(NIM, "acwing-891/ce-type-error.hs",      MIXED, "CE", "No instance for (Num String)"),
    case(NIM, "acwing-891/ce-syntax.rb",          MIXED, "CE", "syntax error"),
    case(NIM, "acwing-891/ce-syntax.pas",         MIXED, "CE", "Syntax error"),
    case(NIM, "acwing-891/ce-type-error.scala",   MORE,  "CE", "type mismatch"),
    case(NIM, "acwing-891/ce-type-error.ml",      MORE,  "CE", "This expression has type int"),
    case(NIM, "acwing-891/ce-syntax.lisp",        MORE,  "CE", "end of file"),
    case(NIM, "acwing-891/ce-syntax.php",         MORE,  "CE", "syntax error"),
    case(NIM, "acwing-891/ce-syntax.pl",          MORE,  "CE", "Syntax error"),
    case(NIM, "acwing-891/ce-syntax.sh",          MORE,  "CE", "Syntax error"),
    case(NIM, "acwing-891/ce-syntax.bash",        MORE,  "CE", "syntax error"),
    with_lang("pypy", case(NIM, "acwing-891/ce-syntax-pypy.py", MIXED, "CE", "SyntaxError")),
    with_lang("cpp17", case(NIM, "acwing-891/ce-concept-cpp17.cpp", MIXED, "CE", "concept")),
    with_lang("cpp23", case(NIM, "acwing-891/ce-declare-reachable-cpp23.cpp", MIXED, "CE", "declare_reachable")),
    // Adversarial.
    case(NIM, "acwing-891/ac-closes-stdin.c",     SAMPLE, "AC", ""),
    case(NIM, "acwing-891/wa-never-reads-stdin.py", MIXED, "WA", "expected `No`, got `Yes`"),
    case(NIM, "acwing-891/ac-stderr-flood.cpp",   MIXED, "AC", ""),
    Case {
        check: Some(|report| {
            let wall = tests_of(report).iter().map(|t| u64_field(t, "wall_ms")).max();
            ensure(
                wall.is_some_and(|w| u128::from(w) < crate::support::scaled(std::time::Duration::from_secs(1)).as_millis()),
                format!("the judge waited for the child: longest test {wall:?} ms"),
            )
        }),
        ..case(NIM, "acwing-891/ac-fork-sleeper.c",     MIXED, "AC", "")
    },
    // A child that leaves the process group and keeps stdout open: the judge
    // keeps what was written before and does not wait for the child.
    case(NIM, "acwing-891/ac-setsid-escape.c",    SAMPLE, "AC", ""),
    // Exact checker: whitespace differences are PE.
    case(PE_DEMO, "pe-demo/ac.py",                ALL, "AC", ""),
    case(PE_DEMO, "pe-demo/pe-one-line.c",        ALL, "PE", "only whitespace differs"),
    case(PE_DEMO, "pe-demo/pe-trailing-space.py", ALL, "PE", "only whitespace differs"),
    case(PE_DEMO, "pe-demo/wa-swapped.cpp",       ALL, "WA", "expected `3`, got `2`"),
    // Custom checker (its stderr is the message), and one that crashes.
    case(CHECKER_DEMO, "checker-demo/ac-halves.py",     ALL, "AC", ""),
    case(CHECKER_DEMO, "checker-demo/wa-off-by-one.c",  ALL, "WA", "1 + 7 is not 7"),
    case(CHECKER_DEMO, "checker-demo/pe-one-number.py", ALL, "PE", "expected two integers"),
    case(CHECKER_CRASH, "checker-demo/ac-halves.py",    ALL, "IE", "checker failed (killed by SIGSEGV)"),
];

/// The first failing test of a report that must have one.
fn deciding(report: &Value) -> Result<&Value, String> {
    first_failure(report).ok_or_else(|| "no failing test".to_string())
}

/// `Ok` when `condition` holds, else `Err(message)`.
fn ensure(condition: bool, message: String) -> Result<(), String> {
    if condition {
        Ok(())
    } else {
        Err(message)
    }
}

/// The problem argument of `judge run` for a table problem.
fn problem_arg(name: &str) -> String {
    if name == NIM {
        name.to_string()
    } else {
        problem(name)
    }
}

/// What is wrong with one judged row (empty when it got what it must).
fn mismatches(case: &Case, report: &Value) -> Vec<String> {
    let mut wrong = Vec::new();
    let verdict = str_field(report, "verdict");
    if verdict != case.verdict {
        wrong.push(format!("verdict {verdict}, expected {}", case.verdict));
    }
    let deciding = first_failure(report);
    let message = if verdict == "CE" {
        str_field(&report["compile"], "message")
    } else {
        deciding.map_or("", |t| str_field(t, "message"))
    };
    if !message.contains(case.message) {
        wrong.push(format!(
            "message {message:?} does not contain {:?}",
            case.message
        ));
    }
    if let Some(Err(e)) = case.check.map(|check| check(report)) {
        wrong.push(e);
    }
    wrong
}

/// The exit code `judge run` must give for these verdicts.
fn exit_code_for(verdicts: &[&str]) -> i32 {
    if verdicts.contains(&"IE") {
        3
    } else if verdicts.iter().all(|v| *v == "AC") {
        0
    } else {
        1
    }
}

#[test]
fn every_fixture_gets_its_verdict() {
    let _heavy = crate::support::cpu_heavy();
    let failures = judge_rows(rows_to_judge().into_iter(), &[]);
    assert!(
        failures.is_empty(),
        "{} fixture(s) got the wrong result:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The same table at the weakest level: the plain runner (programs started
/// by a spawner, memory from ru_maxrss, limits by rlimits and polling) must
/// reach every verdict too.
#[test]
fn every_fixture_gets_its_verdict_without_isolation() {
    let _heavy = crate::support::cpu_heavy();
    // Not PyPy's accepted rows: at this level memory is ru_maxrss, which
    // counts PyPy's resident interpreter (about 50 MiB on Debian's 7.3.11)
    // against the fixture problem's 64 MiB, so its verdict here depends on
    // the machine's PyPy; the isolated levels count the program's own memory.
    let rows = TABLE
        .iter()
        .filter(|c| !(c.lang == Some("pypy") && c.file.ends_with("ac-pypy.py")));
    let failures = judge_rows(rows, &["--isolation", "none"]);
    assert!(
        failures.is_empty(),
        "{} fixture(s) got the wrong result:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The rows of the table, all of them; with
/// `JUDGE_TEST_INSTALLED_LANGUAGES_ONLY` set (the cgroup-v2 VM, which holds
/// C, C++, Python and Rust only), those whose language is usable here, the
/// others named on stderr.
fn rows_to_judge() -> Vec<&'static Case> {
    if std::env::var_os("JUDGE_TEST_INSTALLED_LANGUAGES_ONLY").is_none() {
        return TABLE.iter().collect();
    }
    let listed = Workspace::new().judge(["list", "--languages", "--format", "json"]);
    let languages: Vec<Value> = listed.reports();
    let usable = |case: &Case| {
        languages.iter().any(|l| {
            let named = match case.lang {
                Some(id) => l["id"] == id,
                None => l["extensions"].as_array().is_some_and(|e| {
                    e.iter().any(|x| {
                        Path::new(case.file)
                            .extension()
                            .is_some_and(|ext| Some(ext.to_str().unwrap_or("")) == x.as_str())
                    })
                }),
            };
            named && l["usable"] == true
        })
    };
    let (rows, left): (Vec<&Case>, Vec<&Case>) = TABLE.iter().partition(|c| usable(c));
    for case in left {
        crate::support::note(&format!(
            "not judged here (language not installed): {}",
            case.file
        ));
    }
    rows
}

/// What one invocation judges: a problem, `--tests` globs, `--lang`.
type Group<'a> = (&'a str, &'a [&'a str], Option<&'a str>);

/// Judges `rows` in one workspace, one invocation per (problem, tests) group,
/// the groups in parallel; returns one line per thing that went wrong.
fn judge_rows<'a>(rows: impl Iterator<Item = &'a Case>, global: &[&str]) -> Vec<String> {
    let workspace = Workspace::new();
    let mut groups: BTreeMap<Group, Vec<&Case>> = BTreeMap::new();
    for case in rows {
        groups
            .entry((case.problem, case.tests, case.lang))
            .or_default()
            .push(case);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = groups
            .iter()
            .map(|((problem, tests, lang), cases)| {
                let workspace = &workspace;
                scope.spawn(move || judge_group(workspace, global, problem, tests, *lang, cases))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("group thread panicked"))
            .collect()
    })
}

/// Judges the cases of one (problem, tests) group in one invocation; returns
/// one line per case that did not get what it must.
fn judge_group(
    workspace: &Workspace,
    global: &[&str],
    problem: &str,
    tests: &[&str],
    lang: Option<&str>,
    cases: &[&Case],
) -> Vec<String> {
    let mut args: Vec<String> = global.iter().map(|a| a.to_string()).collect();
    args.extend(["run".to_string(), problem_arg(problem)]);
    if let Some(lang) = lang {
        args.extend(["--lang".to_string(), lang.to_string()]);
    }
    args.extend(cases.iter().map(|c| submission(c.file)));
    args.extend(["--format".to_string(), "json".to_string()]);
    args.extend(tests_args(tests));
    let judged = workspace.judge(&args);
    let reports = judged.reports();
    assert_eq!(
        reports.len(),
        cases.len(),
        "one report per submission; {judged:#?}"
    );
    let mut failures = Vec::new();
    for (case, report) in cases.iter().zip(&reports) {
        assert_eq!(
            str_field(report, "submission"),
            submission(case.file),
            "reports come in the order of the files"
        );
        for wrong in mismatches(case, report) {
            failures.push(format!("{problem} {}: {wrong}", case.file));
        }
    }
    let verdicts: Vec<&str> = reports.iter().map(|r| str_field(r, "verdict")).collect();
    let code = exit_code_for(&verdicts);
    if judged.code != Some(code) {
        failures.push(format!(
            "{problem}: exit code {:?} for verdicts {verdicts:?}, expected {code}",
            judged.code
        ));
    }
    failures
}

#[test]
fn table_covers_every_fixture_and_every_verdict() {
    let listed: BTreeSet<&str> = TABLE.iter().map(|c| c.file).collect();
    let root = repo().join("tests/fixtures/submissions");
    let mut on_disk = BTreeSet::new();
    for dir in std::fs::read_dir(&root).expect("read the fixtures") {
        let dir = dir.expect("read the fixtures").path();
        for file in std::fs::read_dir(&dir).expect("read a fixture folder") {
            let path = file.expect("read a fixture folder").path();
            let relative = path.strip_prefix(&root).expect("under the root");
            on_disk.insert(relative.to_str().expect("UTF-8 names").to_string());
        }
    }
    let missing: Vec<&String> = on_disk
        .iter()
        .filter(|f| !listed.contains(f.as_str()))
        .collect();
    assert!(missing.is_empty(), "fixtures without a row: {missing:?}");
    for file in &listed {
        assert!(root.join(file).exists(), "row without a fixture: {file}");
    }
    let verdicts: BTreeSet<&str> = TABLE.iter().map(|c| c.verdict).collect();
    for verdict in ["AC", "WA", "PE", "TLE", "MLE", "OLE", "RE", "CE", "IE"] {
        assert!(verdicts.contains(verdict), "no fixture gets {verdict}");
    }
    // Every shipped language compiles an AC fixture and rejects a CE one
    // (checktestdata is not a contest language: ICPC packages' validators).
    let config: toml::Table = std::fs::read_to_string(repo().join("judge.toml"))
        .expect("read judge.toml")
        .parse()
        .expect("judge.toml parses");
    for (id, language) in config["languages"].as_table().expect("a table") {
        if id == "checktestdata" {
            continue;
        }
        let extensions: Vec<&str> = language
            .get("extensions")
            .and_then(|e| e.as_array())
            .map(|e| e.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        for verdict in ["AC", "CE"] {
            assert!(
                TABLE.iter().any(|c| c.verdict == verdict
                    && match c.lang {
                        Some(lang) => lang == id,
                        None => Path::new(c.file)
                            .extension()
                            .is_some_and(|e| extensions.iter().any(|x| e == *x)),
                    }),
                "no fixture of language `{id}` gets {verdict}"
            );
        }
    }
    for (language, extension) in [("C", "c"), ("C++", "cpp"), ("Rust", "rs"), ("Python", "py")] {
        for verdict in ["AC", "WA", "RE"] {
            assert!(
                TABLE.iter().any(|c| c.verdict == verdict
                    && Path::new(c.file)
                        .extension()
                        .is_some_and(|e| e == extension)),
                "no {language} fixture gets {verdict}"
            );
        }
    }
}
