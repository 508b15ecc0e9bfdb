//! Packages as people publish them: the layouts and spellings problemtools
//! and BAPCtools accept (samples alone, an interactor in a folder inside
//! `output_validator/`, the type as words, `validation` as a map), input
//! validators that cannot run (`run` and `batch` go on, `verify` fails), an
//! interactor killed by SIGPIPE, a Polygon package downloaded for Windows,
//! the time-limit rule, and programs of several files in `run`, `verify`
//! and `batch`, and `submissions.yaml` as BAPCtools reads it. Each fixture
//! is one class of what real packages do.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{copy_dir, repo, Workspace};

fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join(Path::new(name).file_name().unwrap());
    copy_dir(&repo().join("tests/fixtures").join(name), &package);
    (scratch, package)
}

fn verify(ws: &Workspace, package: &Path) -> (Option<i32>, Value) {
    let judged = ws.judge([
        "verify".as_ref(),
        package.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let report =
        serde_json::from_str(judged.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {judged:#?}"));
    (judged.code, report)
}

/// Each solution's path under `submissions/` and its overall verdict.
fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let path = s["report"]["submission"].as_str().unwrap();
            let at = path
                .find("submissions/")
                .map_or(0, |i| i + "submissions/".len());
            (
                path[at..].to_string(),
                s["report"]["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn notes(report: &Value) -> String {
    report["notes"].to_string()
}

/// `pyctd` (PyPI's checktestdata, which .ci/run installs) where the sandbox
/// looks for programs.
fn pyctd() -> bool {
    let found = ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .any(|d| Path::new(d).join("pyctd").exists());
    if !found {
        crate::support::skip_missing("pyctd (PyPI checktestdata)");
    }
    found
}

#[test]
fn a_2025_09_package_with_samples_alone_holds_with_a_program_of_two_files() {
    if !pyctd() {
        return;
    }
    let (_scratch, package) = fixture("kattis/samplesonly");
    let ws = Workspace::new();
    let (code, report) = verify(&ws, &package);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["ok"], true, "{report:#}");
    assert!(notes(&report).contains("data/secret: missing: judging uses data/sample alone"));
    let got = verdicts(&report);
    assert!(
        got.contains(&("accepted/two-files".into(), "AC".into())),
        "{got:?}"
    );
    assert!(
        got.contains(&("wrong_answer/plus-two.py".into(), "WA".into())),
        "{got:?}"
    );
}

#[test]
fn an_input_validator_that_cannot_run_is_a_warning_for_run_and_a_failure_for_verify() {
    let (_scratch, package) = fixture("kattis/samplesonly");
    let ws = Workspace::with_config(
        "",
        "[languages.checktestdata]\nextensions = [\"ctd\"]\nrun = \"judge-test-no-such-ctd {src}\"\ninstall = \"pip install checktestdata\"\n",
    );
    let accepted = package.join("submissions/accepted/double.py");
    let judged = ws.judge([
        "run".as_ref(),
        package.as_os_str(),
        accepted.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert_eq!(judged.report()["verdict"], "AC");
    for said in [
        "warning",
        "format.ctd",
        "judge-test-no-such-ctd",
        "judging goes on",
    ] {
        assert!(
            judged.stderr.contains(said),
            "`{said}` in {}",
            judged.stderr
        );
    }
    let verified = ws.judge(["verify".as_ref(), package.as_os_str()]);
    assert_ne!(verified.code, Some(0), "{verified:#?}");
    let all = format!("{}{}", verified.stdout, verified.stderr);
    assert!(
        all.contains("judge-test-no-such-ctd") && all.contains("pip install checktestdata"),
        "{all}"
    );
}

#[test]
fn an_interactive_draft_package_with_its_interactor_in_a_folder_holds_and_sigpipe_is_wa() {
    let (_scratch, package) = fixture("kattis/interactivedraft");
    let ws = Workspace::new();
    let (_, report) = verify(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    assert!(
        got.contains(&("accepted/count.py".into(), "AC".into())),
        "{got:?}"
    );
    // The interactor died of SIGPIPE writing to it: the submission's WA.
    assert!(
        got.contains(&("wrong_answer/hangs-up.py".into(), "WA".into())),
        "{got:?}"
    );
    // The same package with 2023-07's `validation` map.
    std::fs::write(
        package.join("problem.yaml"),
        "problem_format_version: 2023-07-draft\nname: Echo back\nvalidation:\n  interactive: true\nlimits:\n  time_limit: 2\n",
    )
    .unwrap();
    let (_, report) = verify(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
}

#[test]
fn a_polygon_package_downloaded_for_windows_judges_as_for_linux() {
    let Some(testlib) = crate::formats::testlib_path() else {
        return;
    };
    let (_scratch, package) = fixture("polygon/maxnum");
    std::fs::copy(&testlib, package.join("files/testlib.h")).unwrap();
    for entry in std::fs::read_dir(package.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace('\n', "\r\n")).unwrap();
    }
    let ws = Workspace::new();
    let (_, report) = verify(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
}

#[test]
fn a_package_without_a_time_limit_gets_problemtools_rule_and_timelimit_is_named() {
    let (_scratch, package) = fixture("kattis/guess");
    std::fs::write(package.join(".timelimit"), "0.1\n").unwrap();
    let ws = Workspace::new();
    let (_, report) = verify(&ws, &package);
    assert_eq!(report["ok"], true, "{report:#}");
    let notes = notes(&report);
    assert!(
        notes.contains(".timelimit (0.1 s, DOMjudge's): not used"),
        "{notes}"
    );
    assert!(notes.contains("inferred as problemtools does"), "{notes}");
    assert!(notes.contains("x 5"), "{notes}");
}

#[test]
fn batch_judges_a_contestant_folder_of_several_files() {
    let ws = Workspace::new();
    let contest = ws.path().join("contest");
    std::fs::create_dir_all(contest.join("alice")).unwrap();
    std::fs::write(
        contest.join("contest.toml"),
        "title = \"Folders\"\nscoring = \"icpc\"\nproblems = [\"acwing-891\"]\n",
    )
    .unwrap();
    copy_dir(
        &repo().join("tests/fixtures/submissions/acwing-891/ac-dir-py"),
        &contest.join("alice/acwing-891"),
    );
    let out = ws.path().join("out");
    let judged = ws.judge([
        "batch".as_ref(),
        contest.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    judged.expect_code(0);
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let entry = &results["entries"][0];
    assert_eq!(entry["file"], "alice/acwing-891", "{results:#}");
    assert_eq!(entry["report"]["verdict"], "AC", "{results:#}");
}

#[test]
fn submissions_yaml_globs_match_through_directories_and_name_directories_of_their_own() {
    let (_scratch, package) = fixture("kattis/submissionsyaml");
    let ws = Workspace::new();
    let (code, report) = verify(&ws, &package);
    // `accepted:` replaces the directory's rule (plus-two.py must be WA),
    // `ac_or_wa/` is judged as a directory of its own, `*.py` reaches no
    // submission (`*` stays within a name) and braces expand.
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["ok"], true, "{report:#}");
    let got = verdicts(&report);
    for (path, verdict) in [
        ("ac_or_wa/double.py", "AC"),
        ("ac_or_wa/small-wrong.py", "WA"),
        ("accepted/plus-two.py", "WA"),
    ] {
        assert!(got.contains(&(path.into(), verdict.into())), "{got:?}");
    }
}
