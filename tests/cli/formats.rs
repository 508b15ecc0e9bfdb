//! Problems of other formats opened as they are: ICPC/Kattis packages
//! (legacy, 2023-07, 2025-09), Polygon packages with testlib, testlib
//! checkers in judge's own packages; `judge export --format kattis`; and the
//! cross-check with the peer: on the ICPC fixtures and on the exports of the
//! bundled problems, `judge verify` and problemtools' `verifyproblem` give
//! every submission the same verdict.
//!
//! The peer and testlib.h come from PyPI (`.ci/run` installs them and sets
//! `JUDGE_TEST_VERIFYPROBLEM` and `JUDGE_TEST_TESTLIB`); without them the
//! tests that need them say so and stop, except in CI, where they fail.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{copy_dir, repo, Workspace};

/// A tool from the environment (or its usual place); `None` (said on
/// stderr) when it is missing outside CI, a failure inside CI.
fn tool(variable: &str, usual: &str, what: &str) -> Option<PathBuf> {
    let path = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(usual));
    if path.exists() {
        return Some(path);
    }
    crate::support::skip_missing(&format!("{what} at {} (set {variable})", path.display()));
    None
}

fn verifyproblem() -> Option<PathBuf> {
    tool(
        "JUDGE_TEST_VERIFYPROBLEM",
        "/opt/venvs/problemtools/bin/verifyproblem",
        "problemtools' verifyproblem",
    )
}

/// BAPCtools' `bt` (PyPI, in a virtualenv): the one peer that reads 2025-09.
fn bapctools() -> Option<PathBuf> {
    tool(
        "JUDGE_TEST_BT",
        "/opt/venvs/bapctools/bin/bt",
        "BAPCtools' bt",
    )
}

/// `bt run` in `package`: each submission's overall verdict, and the log.
fn bt_run(tool: &Path, package: &Path) -> (BTreeMap<String, String>, String) {
    // Python as judge runs a judge-format problem's (CPython): bt would run
    // PyPy, which cannot start under bt's address-space limit of 64 MiB
    // (acwing-891's memory limit). bt's own override: the contest's
    // languages.yaml.
    std::fs::write(
        package.parent().unwrap().join("languages.yaml"),
        "python3:\n  name: 'Python 3'\n  priority: 850\n  files: '*.py *.py3'\n  compile: 'python3 -m py_compile {files}'\n  run: 'python3 \"{mainfile}\"'\n",
    )
    .unwrap();
    let mut command = std::process::Command::new(tool);
    if let Some(bin) = tool.parent() {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![bin.to_path_buf()];
        dirs.extend(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(dirs).unwrap());
    }
    let output = command
        .args(["run", "--no-bar"])
        .current_dir(package)
        .output()
        .expect("run bt");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    // bt keeps its colours when `CI` is set (as on the project's CI): the
    // verdict lines are read without them.
    let text = regex::Regex::new(r"\x1b\[[0-9;]*m")
        .unwrap()
        .replace_all(&text, "")
        .into_owned();
    // bt exits 1 on any warning (one names another package of the same
    // uuid that it saw before, judge's earlier exports): its errors count.
    assert!(
        !text.contains("ERROR") && !text.contains("FATAL"),
        "bt run failed:\n{text}"
    );
    let line = regex::Regex::new(r"(?m)^\s*[a-z_]+/(\S+):\s+([A-Z]+) ").unwrap();
    let got = line
        .captures_iter(&text)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    (got, text)
}

pub(crate) fn testlib_path() -> Option<PathBuf> {
    testlib()
}

fn testlib() -> Option<PathBuf> {
    tool("JUDGE_TEST_TESTLIB", "/opt/testlib/testlib.h", "testlib.h")
}

/// Every file under `dir` with its length and modification time.
fn listing(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        out.insert(
            entry.path().to_path_buf(),
            (meta.len(), meta.modified().unwrap()),
        );
    }
    out
}

/// `judge verify --format json` of a package: the report.
fn verify_json(ws: &Workspace, package: &Path) -> Value {
    let started = std::time::Instant::now();
    let judged = ws.judge([
        "verify".as_ref(),
        package.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let took = started.elapsed();
    // Shown with the test's output when it fails: which package took how long.
    eprintln!("judge verify {}: {took:.1?}", package.display());
    serde_json::from_str(judged.stdout.trim()).unwrap_or_else(|e| {
        // No exit code: killed by a signal, the harness's hang guard if
        // `took` reached it.
        let killed = if judged.code.is_none() {
            format!(" (killed after {took:.1?}: by the harness's hang guard if that is its limit)")
        } else {
            String::new()
        };
        panic!(
            "judge verify {}{killed}: {e}: {judged:#?}",
            package.display()
        )
    })
}

/// Each solution's file name and overall verdict in a verify report.
fn verdicts(report: &Value) -> BTreeMap<String, String> {
    report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let path = s["report"]["submission"].as_str().unwrap();
            let name = Path::new(path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, s["report"]["verdict"].as_str().unwrap().to_string())
        })
        .collect()
}

/// problemtools' verdict classes for judge's.
fn class(verdict: &str) -> &str {
    match verdict {
        "WA" | "PE" => "WA",
        "RE" | "MLE" | "OLE" => "RTE",
        other => other,
    }
}

/// Runs verifyproblem on `package` (not the statement: no TeX in CI), with
/// `time_limit` fixed when given; each submission's file name and verdict,
/// and the number of errors.
fn problemtools(
    tool: &Path,
    package: &Path,
    time_limit: Option<&str>,
) -> (BTreeMap<String, String>, usize, String) {
    // Python as judge runs it (CPython, not PyPy), through problemtools' own
    // way of overriding languages: a languages.yaml beside the package.
    std::fs::write(
        package.parent().unwrap().join("languages.yaml"),
        "python3:\n  compile: '/usr/bin/python3 -m py_compile {files}'\n  run: '/usr/bin/python3 \"{mainfile}\"'\n",
    )
    .unwrap();
    let mut command = std::process::Command::new(tool);
    // As an activated virtualenv: its python3 first on the PATH, so that
    // problemtools' own `#!/usr/bin/env python3` scripts (the default grader,
    // run once per test) skip a version manager's shims, slow under load.
    if let Some(bin) = tool.parent() {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![bin.to_path_buf()];
        dirs.extend(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(dirs).unwrap());
    }
    command.arg(package).args([
        "-p",
        "config",
        "validators",
        "graders",
        "data",
        "submissions",
    ]);
    if let Some(t) = time_limit {
        command.args(["-t", t]);
    }
    let started = std::time::Instant::now();
    let output = command.output().expect("run verifyproblem");
    eprintln!(
        "verifyproblem {}: {:.1?}",
        package.display(),
        started.elapsed()
    );
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    let line = regex::Regex::new(
        r"(?m)^\s*(?:ERROR\s+)?[a-z_]+/(\S+) \(.*\) (?:OK: |OK with extra time: |got )([A-Z]+)",
    )
    .unwrap();
    let got = line
        .captures_iter(&text)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    let errors = regex::Regex::new(r"tested: (\d+) errors?")
        .unwrap()
        .captures(&text)
        .map_or(usize::MAX, |c| c[1].parse().unwrap());
    (got, errors, text)
}

/// judge's and problemtools' verdicts agree on every submission.
fn assert_agree(judge: &BTreeMap<String, String>, peer: &BTreeMap<String, String>, log: &str) {
    assert!(
        !peer.is_empty(),
        "no verdict read from verifyproblem:\n{log}"
    );
    for (name, verdict) in peer {
        let ours = judge.get(name).unwrap_or_else(|| {
            panic!("{name}: judged by problemtools, not by judge ({judge:?})\n{log}")
        });
        assert_eq!(
            class(ours),
            verdict,
            "{name}: judge {ours}, problemtools {verdict}\n{log}"
        );
    }
}

#[test]
fn icpc_packages_hold_and_problemtools_agrees_on_every_verdict() {
    let ws = Workspace::new();
    for name in ["sumab", "divide", "guess"] {
        let fixture = repo().join("tests/fixtures/kattis").join(name);
        let before = listing(&fixture);
        let report = verify_json(&ws, &fixture);
        assert_eq!(report["ok"], true, "{name}: {report:#}");
        assert_eq!(
            before,
            listing(&fixture),
            "{name}: judge wrote into the package"
        );
        let ours = verdicts(&report);
        let Some(tool) = verifyproblem() else { return };
        let scratch = tempfile::tempdir().unwrap();
        let package = scratch.path().join(name);
        copy_dir(&fixture, &package);
        let (theirs, errors, log) = problemtools(&tool, &package, None);
        assert_eq!(errors, 0, "{name}: verifyproblem found errors:\n{log}");
        assert_eq!(
            theirs.len(),
            ours.len(),
            "{name}: {theirs:?} / {ours:?}\n{log}"
        );
        assert_agree(&ours, &theirs, &log);
    }
}

#[test]
fn an_icpc_package_infers_its_time_limit_and_says_how() {
    let ws = Workspace::new();
    let judged = ws.judge([
        "run",
        "tests/fixtures/kattis/sumab",
        "tests/fixtures/kattis/sumab/submissions/accepted/sum.c",
        "--format",
        "json",
    ]);
    judged.expect_code(0);
    assert!(
        judged
            .stderr
            .contains("time limit 1 s, inferred as problemtools does:")
            && judged.stderr.contains("x 5"),
        "{judged:#?}"
    );
    let report = judged.report();
    assert_eq!(report["limits"]["time_ms"], 1000);
    let names: Vec<&str> = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["sample/1", "secret/01", "secret/02", "secret/big/1"]
    );
    // A fixed --time-limit needs no inference.
    let judged = ws.judge([
        "run",
        "tests/fixtures/kattis/sumab",
        "tests/fixtures/kattis/sumab/submissions/accepted/sum.c",
        "--time-limit",
        "3s",
    ]);
    judged.expect_code(0);
    assert!(!judged.stderr.contains("inferred"), "{judged:#?}");
}

#[test]
fn a_2025_09_package_reads_arguments_per_group_and_per_test_and_submissions_yaml() {
    let ws = Workspace::new();
    let package = repo().join("tests/fixtures/kattis/mean");
    let report = verify_json(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    let run = |file: &str| {
        let judged = ws.judge([
            "run".as_ref(),
            package.as_os_str(),
            package.join("submissions").join(file).as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ]);
        let report = judged.report();
        report["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["name"].as_str().unwrap().to_string(),
                    t["verdict"].as_str().unwrap().to_string(),
                )
            })
            .collect::<BTreeMap<_, _>>()
    };
    let mean = run("accepted/mean.cpp");
    // "IMPOSSIBLE" for "impossible": the default validator ignores case;
    // 0.3 for 0 on secret/04: its own tolerance (04.yaml), not the group's.
    assert!(mean.values().all(|v| v == "AC"), "{mean:?}");
    let two = run("wrong_answer/twodigits.cpp");
    // "2.50" for "2.5": no tolerance on the samples; 1.33 for 1.3333 is
    // within the secret group's 0.05.
    assert_eq!(two["sample/1"], "WA");
    assert_eq!(two["secret/01"], "AC");
    // The limit is the package's, not inferred.
    let judged = ws.judge([
        "run".as_ref(),
        package.as_os_str(),
        package.join("submissions/accepted/mean.cpp").as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(judged.report()["limits"]["time_ms"], 1500);
}

#[test]
fn a_polygon_package_with_testlib_holds_and_generates_its_missing_tests() {
    let Some(testlib) = testlib() else { return };
    let ws = Workspace::new();
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("maxnum");
    copy_dir(&repo().join("tests/fixtures/polygon/maxnum"), &package);
    std::fs::copy(&testlib, package.join("files/testlib.h")).unwrap();
    let before = listing(&package);
    let report = verify_json(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    assert_eq!(report["tests"].as_array().unwrap().len(), 5);
    let got = verdicts(&report);
    assert_eq!(got["chatty.cpp"], "PE", "{got:?}");
    assert_eq!(got["slow.cpp"], "TLE", "{got:?}");
    assert_eq!(before, listing(&package), "judge wrote into the package");
    // The generated tests, written out.
    let out = scratch.path().join("tests-out");
    ws.judge([
        "gen".as_ref(),
        package.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ])
    .expect_code(0);
    let third = std::fs::read_to_string(out.join("3.in")).unwrap();
    assert_eq!(third.lines().next(), Some("10"));
}

#[test]
fn a_testlib_checker_builds_with_the_header_beside_it_and_its_failure_is_not_remembered() {
    let Some(testlib) = testlib() else { return };
    let ws = Workspace::new();
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("testlib-sum");
    copy_dir(
        &repo().join("tests/fixtures/problems/testlib-sum"),
        &package,
    );
    let solution = package.join("solutions/sum.py");
    let args = ["run".as_ref(), package.as_os_str(), solution.as_os_str()];
    // Without testlib.h: the checker does not compile, a package error.
    let judged = ws.judge(args);
    judged.expect_code(2);
    assert!(
        judged.stderr.contains("the checker") && judged.stderr.contains("testlib.h"),
        "{judged:#?}"
    );
    // With it beside the checker: built now, not the remembered failure.
    std::fs::copy(&testlib, package.join("testlib.h")).unwrap();
    ws.judge(args).expect_code(0);
    // testlib's points: the score is kept, the message says so.
    let off = package.join("solutions/off-by-one.py");
    let judged = ws.judge([
        "run".as_ref(),
        package.as_os_str(),
        off.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let test = &judged.report()["tests"][0];
    assert_eq!(test["score"], 0.5, "{test:#}");
    assert_eq!(test["verdict"], "AC");
    assert!(test["message"].as_str().unwrap().contains("off by one"));
    let report = verify_json(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
}

#[test]
fn broken_packages_of_other_formats_say_which_file_and_key() {
    let ws = Workspace::new();
    let scratch = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str, &[&str])] = &[
        (
            "badversion",
            "problem.yaml",
            "problem_format_version: 2030-01\n",
            &["problem.yaml", "2030-01", "not a version"],
        ),
        (
            "interact",
            "problem.yaml",
            "name: I\nvalidation: custom interactive\n",
            &["problem.yaml", "no output validator"],
        ),
        (
            "badlimit",
            "problem.yaml",
            "name: L\nlimits:\n  memory: lots\n",
            &["limits.memory", "expected a number"],
        ),
        (
            "badyaml",
            "problem.yaml",
            "name: [unclosed\n",
            &["problem.yaml", "unclosed"],
        ),
        (
            "badflags",
            "problem.yaml",
            "name: F\nvalidator_flags: float_tolerance\n",
            &["output validator flags", "needs a number"],
        ),
        (
            "badxml",
            "problem.xml",
            "<problem><judging>",
            &["problem.xml", "not XML"],
        ),
    ];
    for (name, file, text, wanted) in cases {
        let package = scratch.path().join(name);
        std::fs::create_dir_all(package.join("data/secret")).unwrap();
        std::fs::write(package.join("data/secret/1.in"), "1\n").unwrap();
        std::fs::write(package.join("data/secret/1.ans"), "1\n").unwrap();
        std::fs::write(package.join(file), text).unwrap();
        let judged = ws.judge(["verify".as_ref(), package.as_os_str()]);
        judged.expect_code(2);
        for w in *wanted {
            assert!(
                judged.stderr.contains(w),
                "{name}: `{w}` not in {judged:#?}"
            );
        }
        assert!(!judged.stderr.contains("panicked"), "{judged:#?}");
    }
}

#[test]
fn exported_bundled_problems_pass_problemtools_with_the_same_verdicts() {
    let Some(tool) = verifyproblem() else { return };
    // The exports' .py as the bundled problems run them and as problemtools
    // is told to (CPython): PyPy does not fit some of their 64 MiB limits.
    let ws = Workspace::with_config("", "package_python = \"python\"\n");
    let scratch = tempfile::tempdir().unwrap();
    let ids: Vec<String> = std::fs::read_dir(repo().join("problems"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(ids.len(), 12);
    for id in ids {
        let report = verify_json(&ws, Path::new(&id));
        assert_eq!(report["ok"], true, "{id}: {report:#}");
        let ours = verdicts(&report);
        // problemtools wants [a-z0-9]+ for the package's directory.
        let name: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
        let package = scratch.path().join(&name);
        // problemtools reads the legacy format (and 2023-07, not 2025-09).
        let exported = ws.judge([
            "export".as_ref(),
            id.as_ref(),
            "--format".as_ref(),
            "kattis".as_ref(),
            "--out".as_ref(),
            package.as_os_str(),
        ]);
        exported.expect_code(0);
        assert!(
            exported
                .stdout
                .contains("(legacy format, for problemtools and DOMjudge)"),
            "{}",
            exported.stdout
        );
        let limit = std::fs::read_to_string(package.join(".timelimit")).unwrap();
        let (theirs, errors, log) = problemtools(&tool, &package, Some(limit.trim()));
        assert_eq!(errors, 0, "{id}: verifyproblem found errors:\n{log}");
        let exported_submissions = walkdir::WalkDir::new(package.join("submissions"))
            .into_iter()
            .filter(|e| e.as_ref().unwrap().file_type().is_file())
            .count();
        assert_eq!(
            theirs.len(),
            exported_submissions,
            "{id}: not every submission judged:\n{log}"
        );
        // The export names the reference `reference.rs`; judge reports it
        // as such too.
        assert_agree(&ours, &theirs, &log);
        // And judge opens its own export in 2025-09 (the time limit in
        // problem.yaml) the same way: build/run programs
        // (a Rust validator calls `rustc`, which rustup keeps out of the
        // system's PATH) and all.
        let current = scratch.path().join(format!("{name}-current"));
        let exported = ws.judge([
            "export".as_ref(),
            id.as_ref(),
            "--format".as_ref(),
            "kattis-2025-09".as_ref(),
            "--out".as_ref(),
            current.as_os_str(),
        ]);
        exported.expect_code(0);
        assert!(
            exported
                .stdout
                .contains("(format version 2025-09, for BAPCtools)"),
            "{}",
            exported.stdout
        );
        let yaml = std::fs::read_to_string(current.join("problem.yaml")).unwrap();
        assert!(yaml.contains("problem_format_version: 2025-09"), "{yaml}");
        assert!(!current.join(".timelimit").exists());
        let again = verify_json(&ws, &current);
        assert_eq!(
            again["ok"], true,
            "{id}: judge verify of the export: {again:#}"
        );
        assert_agree(&verdicts(&again), &theirs, &log);
    }
}

/// Every version `judge export` offers, read by the peer that reads it:
/// problemtools for legacy (the test above, every bundled problem) and
/// 2023-07, BAPCtools for 2025-09; each with judge's verdicts. A problem
/// with a wrapped (Rust, `build`/`run`) validator and an interactive one.
#[test]
fn every_export_version_is_read_by_its_peer_with_the_same_verdicts() {
    let pt = verifyproblem();
    let bt = bapctools();
    if pt.is_none() && bt.is_none() {
        return;
    }
    let ws = Workspace::new();
    let scratch = tempfile::tempdir().unwrap();
    for id in ["acwing-891", "play-nim"] {
        let ours = verdicts(&verify_json(&ws, Path::new(id)));
        let name: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
        for version in ["2023-07", "2025-09"] {
            let package = scratch.path().join(version).join(&name);
            let exported = ws.judge([
                "export".as_ref(),
                id.as_ref(),
                "--format".as_ref(),
                format!("kattis-{version}").as_ref(),
                "--out".as_ref(),
                package.as_os_str(),
            ]);
            exported.expect_code(0);
            let yaml = std::fs::read_to_string(package.join("problem.yaml")).unwrap();
            assert!(
                yaml.contains(&format!("problem_format_version: {version}")),
                "{yaml}"
            );
            let (theirs, log) = match (version, &pt, &bt) {
                ("2023-07", Some(tool), _) => {
                    let (theirs, errors, log) = problemtools(tool, &package, None);
                    assert_eq!(errors, 0, "{id} {version}: verifyproblem:\n{log}");
                    (theirs, log)
                }
                ("2025-09", _, Some(tool)) => bt_run(tool, &package),
                _ => continue,
            };
            let exported_submissions = walkdir::WalkDir::new(package.join("submissions"))
                .into_iter()
                .filter(|e| {
                    let e = e.as_ref().unwrap();
                    e.file_type().is_file() && e.file_name() != "submissions.yaml"
                })
                .count();
            assert_eq!(
                theirs.len(),
                exported_submissions,
                "{id} {version}: not every submission judged:\n{log}"
            );
            assert_agree(&ours, &theirs, &log);
        }
    }
}

#[test]
fn a_checktestdata_validator_runs_as_the_checktestdata_language_with_exit_0_valid() {
    // checktestdata itself may not be installed: the language's command is
    // judge.toml's, here a shell standing in for it (exit 0 = valid).
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("sumab");
    copy_dir(&repo().join("tests/fixtures/kattis/sumab"), &package);
    std::fs::remove_dir_all(package.join("input_validators/checkab")).unwrap();
    let script = package.join("input_validators/format.ctd");
    for (body, holds) in [("exit 0\n", true), ("exit 1\n", false)] {
        std::fs::write(&script, body).unwrap();
        let ws = Workspace::with_config(
            "",
            "[languages.checktestdata]\nextensions = [\"ctd\"]\nrun = \"/bin/sh {src}\"\n",
        );
        let report = verify_json(&ws, &package);
        assert_eq!(report["ok"], holds, "{body}: {report:#}");
        if !holds {
            assert!(report.to_string().contains("rejected"), "{report:#}");
        }
    }
}

/// `.py` submissions of an ICPC package run as problemtools and BAPCtools
/// run them: with PyPy where it is installed; `package_python` chooses.
#[test]
fn package_python_submissions_run_with_pypy_where_installed_and_the_choice_is_shown() {
    let installed = ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .any(|d| Path::new(d).join("pypy3").is_file());
    if !installed {
        crate::support::skip_missing("pypy3 on /usr/local/bin:/usr/bin:/bin");
        return;
    }
    let fixture = repo().join("tests/fixtures/kattis/guess");
    for (config, language, note) in [
        ("", "pypy", ".py run as pypy (Python 3 (PyPy))"),
        (
            "package_python = \"python\"\n",
            "python",
            ".py run as python",
        ),
    ] {
        let ws = Workspace::with_config("", config);
        let judged = ws.judge([
            "verify".as_ref(),
            fixture.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ]);
        let report: Value = serde_json::from_str(judged.stdout.trim())
            .unwrap_or_else(|e| panic!("{e}: {judged:#?}"));
        assert_eq!(report["ok"], true, "{report:#}");
        for solution in report["solutions"].as_array().unwrap() {
            assert_eq!(
                solution["report"]["language"], language,
                "{config}: {solution:#}"
            );
        }
        assert!(
            report["notes"].to_string().contains(note),
            "{config}: {report:#}"
        );
    }
    let ws = Workspace::with_config("", "package_python = \"cobol\"\n");
    let judged = ws.judge(["verify".as_ref(), fixture.as_os_str()]);
    judged.expect_code(2);
    assert!(
        judged
            .stderr
            .contains("package_python: `cobol` is not a language"),
        "{judged:#?}"
    );
}

/// Output limits as problemtools and BAPCtools judge them: the output is
/// judged after the run, so a `time_limit_exceeded/` submission that writes
/// without end is TLE (not OLE at the limit), and one that writes past the
/// limit and ends in time is OLE (a run-time error there).
#[test]
fn a_package_writer_without_end_is_tle_and_one_past_the_limit_is_ole() {
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("sumab");
    copy_dir(&repo().join("tests/fixtures/kattis/sumab"), &package);
    for (folder, name, body) in [
        (
            "time_limit_exceeded",
            "flood.c",
            "for (;;) fputs(\"flood flood flood flood\\n\", stdout);",
        ),
        (
            "run_time_error",
            "nine-mib.c",
            "for (int i = 0; i < 9 << 20; i += 8) fputs(\"1234567\\n\", stdout); return 0;",
        ),
    ] {
        let dir = package.join("submissions").join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(name),
            format!("#include <stdio.h>\nint main(void) {{\n    {body}\n}}\n"),
        )
        .unwrap();
    }
    let ws = Workspace::new();
    let judged = ws.judge([
        "verify".as_ref(),
        package.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    // The flood's progress is the judge's reader's: on a machine several
    // times oversubscribed both starve, and the judge rightly says it could
    // not judge (exit 4) after its re-runs. Then the figures it measured
    // must show the starving (runnable for at least 3/4 of the wall limit).
    if judged.code == Some(4) {
        assert_overloaded_as_measured(&judged.stderr);
        return;
    }
    let report: Value =
        serde_json::from_str(judged.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {judged:#?}"));
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert_eq!(got["flood.c"], "TLE", "{report:#}");
    assert_eq!(got["nine-mib.c"], "OLE", "{report:#}");
}

/// Asserts that a judge's "the machine is overloaded" error names figures
/// that meet its rule: the run waited for a CPU and, with its CPU time, was
/// runnable for at least three quarters of the wall limit.
fn assert_overloaded_as_measured(stderr: &str) {
    let figure = |before: &str| -> u128 {
        let at = stderr
            .find(before)
            .unwrap_or_else(|| panic!("no `{before}` in {stderr}"));
        let digits: String = stderr[at + before.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap_or_else(|e| panic!("{e}: {stderr}"))
    };
    assert!(stderr.contains("the machine is overloaded"), "{stderr}");
    let waited = figure("the run waited ");
    let wall = figure("against a wall limit of ");
    let cpu = figure("ms, with ");
    assert!(waited > 0 && (cpu + waited) * 4 >= wall * 3, "{stderr}");
}

/// `include/<language>/` of an ICPC package is added to every submission of
/// that language (the spec's codes: `cpp`, `python3`), and to no other.
#[test]
fn a_package_include_folder_joins_submissions_of_its_language() {
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("sumab");
    copy_dir(&repo().join("tests/fixtures/kattis/sumab"), &package);
    let write = |path: &str, text: &str| {
        let path = package.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "include/cpp/sumlib.h",
        "inline long long add(long long a, long long b) { return a + b; }\n",
    );
    write(
        "include/python3/sumlib.py",
        "def add(a, b):\n    return a + b\n",
    );
    write(
        "submissions/accepted/with-include.cpp",
        "#include <cstdio>\n#include \"sumlib.h\"\nint main() { long long a, b; std::scanf(\"%lld %lld\", &a, &b); std::printf(\"%lld\\n\", add(a, b)); }\n",
    );
    write(
        "submissions/accepted/with_include.py",
        "from sumlib import add\na, b = map(int, input().split())\nprint(add(a, b))\n",
    );
    let ws = Workspace::new();
    let report = verify_json(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert_eq!(got["with-include.cpp"], "AC", "{report:#}");
    assert_eq!(got["with_include.py"], "AC", "{report:#}");
}

/// problem.yaml's `constants` (2023-07 and later) are replaced where the
/// format says: the input validator's source, `test_group.yaml`'s
/// arguments (the input validator's and the default output validator's
/// tolerance); a solution is built as written, as BAPCtools builds it.
#[test]
fn package_constants_are_replaced_in_validators_and_test_group_yaml() {
    let ws = Workspace::new();
    let report = verify_json(&ws, &repo().join("tests/fixtures/kattis/constants"));
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert_eq!(got["third.py"], "AC", "{report:#}");
    assert_eq!(got["as_written.py"], "AC", "{report:#}");
    assert_eq!(got["rounded.py"], "WA", "{report:#}");
}

/// A multi-pass package (2025-09 `type: multi-pass`): while the output
/// validator accepts and writes `nextpass.in`, the submission runs again
/// with it as input (problemtools' and BAPCtools' rule); the first pass
/// that fails decides, and asking for a pass past
/// `limits.validation_passes` is the validator's error (IE).
#[test]
fn a_multi_pass_package_runs_each_pass_on_the_validators_next_input() {
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("multipass");
    copy_dir(&repo().join("tests/fixtures/kattis/multipass"), &package);
    let ws = Workspace::new();
    let report = verify_json(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert_eq!(got["twice.py"], "AC", "{report:#}");
    assert_eq!(got["three_passes.py"], "AC", "{report:#}");
    assert_eq!(got["second_pass_off.py"], "WA", "{report:#}");
    assert_eq!(got["second_pass_crash.py"], "RE", "{report:#}");
    let yaml = package.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("validation_passes: 3", "validation_passes: 2"),
    )
    .unwrap();
    let judged = ws.judge([
        "run".as_ref(),
        package.as_os_str(),
        package
            .join("submissions/accepted/three_passes.py")
            .as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    judged.expect_code(3);
    let report = judged.report();
    let first = &report["tests"][0];
    assert_eq!(first["verdict"], "IE", "{report:#}");
    assert!(
        first["message"]
            .as_str()
            .unwrap()
            .contains("past limits.validation_passes (2)"),
        "{report:#}"
    );
}

/// A multi-pass package whose output validator keeps state in its
/// feedback directory: pass 1 writes `state.txt` (the submission's
/// number) and appends to `judgemessage.txt`; pass 2 accepts only if
/// `state.txt` is there (and `nextpass.in` is not: the format removes it)
/// and the answer is one more. A state found in pass 1 is a leak from
/// another test or submission. `interactive`: the same as an interactor
/// that tells the submission its pass. The submission's answer in pass 1
/// may also ask the validator to leave something hostile in the feedback
/// directory (`links`, `many`, `large`).
fn stateful_multi_pass_package(dir: &Path, interactive: bool) {
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let kind = if interactive {
        "[interactive, multi-pass]"
    } else {
        "multi-pass"
    };
    write(
        "problem.yaml",
        &format!(
            "problem_format_version: 2025-09\ntype: {kind}\nname: Remember\n\
             uuid: 5b0e2f7c-7d4e-4c1e-9a55-3f1f0c2d9e61\n\
             limits:\n  time_limit: 2\n  validation_passes: 2\n  validation_output: 1\n"
        ),
    );
    for test in ["sample/1", "secret/1", "secret/2"] {
        write(&format!("data/{test}.in"), "1\n");
        write(&format!("data/{test}.ans"), "1\n");
    }
    write(
        "input_validators/validate.py",
        "import sys\nsys.exit(42 if sys.stdin.read() == \"1\\n\" else 43)\n",
    );
    let talk = if interactive {
        // The interactor tells the submission its pass, and reads its answer.
        "print(words[0], flush=True)\nsaid = sys.stdin.readline().split()\n"
    } else {
        "said = sys.stdin.read().split()\n"
    };
    write(
        "output_validator/validate.py",
        &format!(
            r#"import os, sys
from pathlib import Path

words = Path(sys.argv[1]).read_text().split()
feedback = Path(sys.argv[3])
state = feedback / "state.txt"
{talk}

def log(text):
    with open(feedback / "judgemessage.txt", "a") as f:
        f.write(text + "\n")


def wrong(why):
    log(why)
    sys.exit(43)


if len(said) != 1:
    wrong(f"expected one word, got {{said}}")
if words[0] == "1":
    if state.exists() or os.listdir(feedback):
        wrong(f"pass 1 found {{sorted(os.listdir(feedback))}}: feedback leaked")
    if said[0] == "links":
        os.symlink("/etc/shadow", feedback / "shadow")
        os.symlink("/", feedback / "root")
        os.mkfifo(feedback / "pipe")
        os.mkdir(feedback / "folder")
        (feedback / "folder" / "inside").write_text("x")
        said[0] = "7"
    elif said[0] == "many":
        for i in range(1000):
            (feedback / f"f{{i}}").write_text("")
        said[0] = "7"
    elif said[0] == "large":
        for i in range(3):
            (feedback / f"big{{i}}").write_text("x" * 600_000)
        said[0] = "7"
    state.write_text(said[0])
    log(f"pass 1: remembered {{said[0]}}")
    (feedback / "nextpass.in").write_text("2\n")
    sys.exit(42)
if (feedback / "nextpass.in").exists():
    wrong("pass 2: nextpass.in was not removed")
if not state.exists():
    wrong("pass 2: state.txt is gone")
left = sorted(os.listdir(feedback))
if left != ["judgemessage.txt", "state.txt"]:
    wrong(f"pass 2: the feedback directory holds {{left}}")
if said[0] != str(int(state.read_text()) + 1):
    wrong(f"pass 2: expected {{int(state.read_text()) + 1}}, got {{said[0]}}")
log(f"pass 2: got {{said[0]}}")
sys.exit(42)
"#
        ),
    );
    let submission = |answer: &str| {
        format!("import sys\nprint({answer} if input().split()[0] == '1' else 8, flush=True)\n")
    };
    write("submissions/accepted/remember.py", &submission("7"));
    write("submissions/wrong_answer/off.py", &submission("6"));
    for hostile in ["links", "many", "large"] {
        write(
            &format!("hostile/{hostile}.py"),
            &submission(&format!("'{hostile}'")),
        );
    }
}

/// The feedback directory of a multi-pass problem persists between the
/// passes of a test (the format's "all other files inside the feedback
/// directory are guaranteed to persist between passes"), `nextpass.in`
/// aside, and starts empty on every test and submission; the final
/// `judgemessage.txt`, appended pass after pass, is the test's message.
/// Interactive multi-pass (the interactor keeps the state) likewise, and
/// so at the rlimit-only level, where no keeper copies the folder.
#[test]
fn a_multi_pass_validator_finds_its_feedback_directory_again_on_the_next_pass() {
    let scratch = tempfile::tempdir().unwrap();
    let ws = Workspace::new();
    for interactive in [false, true] {
        let package = scratch.path().join(format!("remember-{interactive}"));
        stateful_multi_pass_package(&package, interactive);
        let report = verify_json(&ws, &package);
        assert_eq!(report["ok"], true, "{report:#}");
        let got = verdicts(&report);
        assert_eq!(got["remember.py"], "AC", "{report:#}");
        assert_eq!(got["off.py"], "WA", "{report:#}");
        for isolation in [crate::support::isolation(), "none"] {
            let judged = ws.judge([
                "--isolation".as_ref(),
                isolation.as_ref(),
                "run".as_ref(),
                package.as_os_str(),
                package.join("submissions/accepted/remember.py").as_os_str(),
                "--format".as_ref(),
                "json".as_ref(),
            ]);
            judged.expect_code(0);
            let report = judged.report();
            for test in report["tests"].as_array().unwrap() {
                assert_eq!(test["verdict"], "AC", "{isolation}: {report:#}");
                let message = test["message"].as_str().unwrap();
                assert!(
                    message.contains("pass 1: remembered 7") && message.contains("pass 2: got 8"),
                    "{isolation}: {report:#}"
                );
            }
        }
    }
}

/// What a hostile multi-pass validator leaves in its feedback directory
/// for the next pass is not followed: a link (to /etc/shadow, to /), a
/// pipe and a folder are not carried (the judging neither reads through
/// them nor blocks), and a flood of files or too many bytes together end
/// the test as the validator's error, named.
#[test]
fn a_multi_pass_validators_links_pipes_and_floods_are_not_carried() {
    let scratch = tempfile::tempdir().unwrap();
    let ws = Workspace::new();
    let package = scratch.path().join("remember");
    stateful_multi_pass_package(&package, false);
    for isolation in [crate::support::isolation(), "none"] {
        let run = |hostile: &str| {
            let judged = ws.judge([
                "--isolation".as_ref(),
                isolation.as_ref(),
                "run".as_ref(),
                package.as_os_str(),
                package.join(format!("hostile/{hostile}.py")).as_os_str(),
                "--format".as_ref(),
                "json".as_ref(),
            ]);
            let report = judged.report();
            let test = report["tests"][0].clone();
            (judged, test)
        };
        let (judged, test) = run("links");
        judged.expect_code(0);
        assert_eq!(test["verdict"], "AC", "{isolation}: {test:#}");
        for (hostile, says) in [
            ("many", "more than 404 entries"),
            ("large", "more than 1048576 bytes"),
        ] {
            let (judged, test) = run(hostile);
            judged.expect_code(3);
            assert_eq!(test["verdict"], "IE", "{isolation} {hostile}: {test:#}");
            let message = test["message"].as_str().unwrap();
            assert!(
                message.contains("output validator failed") && message.contains(says),
                "{isolation} {hostile}: {test:#}"
            );
        }
    }
}

/// A submit-answer package (2025-09 `type: submit-answer`): a submission is
/// its answers, a folder of one file per test or one file for every test,
/// checked as they are; a test without an answer is WA.
#[test]
fn a_submit_answer_package_checks_answers_without_running_anything() {
    let ws = Workspace::new();
    let package = repo().join("tests/fixtures/kattis/submitanswer");
    let report = verify_json(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert_eq!(got["by_name"], "AC", "{report:#}");
    assert_eq!(got["seven.txt"], "WA", "{report:#}");
    assert_eq!(got["partial"], "WA", "{report:#}");
    // From the command line: a file of answers, named as it is.
    let answer = ws.path().join("answer.out");
    std::fs::write(&answer, "7\n").unwrap();
    let judged = ws.judge([
        "run".as_ref(),
        package.as_os_str(),
        answer.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    judged.expect_code(1);
    let report = judged.report();
    assert_eq!(report["verdict"], "WA", "{report:#}");
    assert_eq!(report["language"], "answers", "{report:#}");
    assert_eq!(report["tests"][2]["name"], "secret/2", "{report:#}");
    assert_eq!(report["tests"][2]["verdict"], "WA", "{report:#}");
}

/// A package whose tests are kept only in BAPCtools'
/// `generators/generators.yaml` (no data/): judged on the tests `bt
/// generate` makes, named as bt names them; what judge cannot make is an
/// error naming the file and the key.
#[test]
fn a_package_with_its_tests_only_in_generators_yaml_is_judged_on_what_bt_generates() {
    let ws = Workspace::new();
    let fixture = repo().join("tests/fixtures/kattis/generated");
    let before = listing(&fixture);
    let report = verify_json(&ws, &fixture);
    assert_eq!(report["ok"], true, "{report:#}");
    assert_eq!(before, listing(&fixture), "judge wrote into the package");
    let got = verdicts(&report);
    assert_eq!(got["sum.py"], "AC", "{report:#}");
    assert_eq!(got["difference.py"], "WA", "{report:#}");
    let judged = ws.judge([
        "run".as_ref(),
        fixture.as_os_str(),
        fixture.join("submissions/accepted/sum.py").as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    judged.expect_code(0);
    let names: Vec<String> = judged.report()["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "sample/1",
            "secret/2-small",
            "secret/3-big-1",
            "secret/4-big-2",
            "secret/5-written"
        ]
    );
    // A key judge does not know is named with the file.
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("generated");
    copy_dir(&fixture, &package);
    let yaml = package.join("generators/generators.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("count: 2", "count: 2\n          frobnicate: 1"),
    )
    .unwrap();
    let judged = ws.judge(["verify".as_ref(), package.as_os_str()]);
    assert_ne!(judged.code, Some(0), "{judged:#?}");
    assert!(
        judged.stderr.contains("generators/generators.yaml")
            && judged.stderr.contains("`frobnicate`"),
        "{judged:#?}"
    );
}

/// A generator run by the name BAPCtools runs it by (`generators/NAME/...`):
/// BAPCtools' skeleton links the input validator in as `generator`, and its
/// `validation.h` generates only when the program's own name holds
/// `generat` (else it validates its stdin, and fails).
#[test]
fn a_generator_is_run_by_a_name_that_says_it_generates_as_bapctools_runs_it() {
    let ws = Workspace::new();
    let fixture = repo().join("tests/fixtures/kattis/linkedvalidator");
    let report = verify_json(&ws, &fixture);
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert_eq!(got["sum.py"], "AC", "{report:#}");
    assert_eq!(got["difference.py"], "WA", "{report:#}");
    assert_eq!(
        report["tests"],
        serde_json::json!(["sample/1", "secret/2-seeded", "secret/3-fixed"]),
        "{report:#}"
    );
}

/// A `__pycache__/` committed among the submissions (GAPC's `clubwinking`)
/// is no program: skipped with a note, as problemtools skips it, not a
/// folder submission that fails the whole package.
#[test]
fn a_folder_without_a_known_source_among_the_submissions_is_skipped() {
    let ws = Workspace::new();
    let package = ws.path().join("pycache");
    // `cp -a`: the fixture's generator is a link to its validator.
    let copied = std::process::Command::new("cp")
        .arg("-a")
        .arg(repo().join("tests/fixtures/kattis/linkedvalidator"))
        .arg(&package)
        .status()
        .unwrap();
    assert!(copied.success());
    let cache = package.join("submissions/accepted/__pycache__");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(
        cache.join("sum.cpython-39.pyc"),
        b"\x61\x0d\x0d\x0a\0\0\0\0",
    )
    .unwrap();
    let report = verify_json(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert_eq!(got.len(), 2, "{report:#}");
    assert_eq!(got["sum.py"], "AC", "{report:#}");
    assert_eq!(got["difference.py"], "WA", "{report:#}");
}
