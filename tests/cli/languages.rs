//! The language table as a user meets it: a toolchain that is not installed
//! (the error names the Debian package), `judge list --languages`, and a
//! language's `time_factor`. Each shipped language's AC and CE fixtures are
//! rows of the verdict table (verdicts.rs).

use serde_json::Value;

use crate::support::{submission, u64_field, Workspace};

/// A language whose compiler is not installed anywhere.
const MISSING: &str = r#"
[languages.fakego]
name = "Go (not installed)"
extensions = ["fakego"]
compile = "judge-test-no-such-compiler build -o {exe} {src}"
run = "{exe}"
version = "judge-test-no-such-compiler version"
debian = "golang-go"
"#;

#[test]
fn a_missing_toolchain_names_the_debian_package() {
    let workspace = Workspace::with_config("", MISSING);
    let source = workspace.path().join("main.fakego");
    std::fs::write(&source, "package main\n").unwrap();
    let judged = workspace.judge(["run", "acwing-891", source.to_str().unwrap()]);
    assert_eq!(judged.code, Some(2), "could not judge; {judged:#?}");
    for needed in [
        "language `fakego`",
        "judge-test-no-such-compiler",
        "apt-get install golang-go",
    ] {
        assert!(
            judged.stderr.contains(needed),
            "`{needed}` missing from: {}",
            judged.stderr
        );
    }
    assert!(!judged.stderr.contains("panicked"), "{}", judged.stderr);
}

#[test]
fn list_languages_shows_what_is_usable_with_versions() {
    let workspace = Workspace::with_config("", MISSING);
    let judged = workspace.judge(["list", "--languages"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    let line = |id: &str| {
        judged
            .stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no row for `{id}` in:\n{}", judged.stdout))
            .to_string()
    };
    assert!(line("c").contains("gcc"), "{}", line("c"));
    assert!(line("pypy").contains("(--lang)"), "{}", line("pypy"));
    let missing = line("fakego");
    assert!(
        missing.contains("not usable") && missing.contains("apt-get install golang-go"),
        "{missing}"
    );

    let json = workspace.judge(["list", "--languages", "--format", "json"]);
    let rows: Vec<Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).expect("a row");
    assert_eq!(row("c")["usable"], true);
    assert!(row("c")["version"].as_str().unwrap().contains("gcc"));
    assert_eq!(row("fakego")["usable"], false);
    assert_eq!(row("fakego")["debian"][0], "golang-go");
    assert!(row("fakego")["problem"]
        .as_str()
        .unwrap()
        .contains("judge-test-no-such-compiler"));
}

/// C with twice the time: a busy loop runs until the doubled limit, and the
/// report shows the limit that applied.
const SLOW_C: &str = r#"
[languages.c-slow]
name = "C (time x2)"
compile = "gcc -O2 -std=gnu17 -o {exe} {src}"
run = "{exe}"
time_factor = 2.0
"#;

#[test]
fn time_factor_scales_the_limit_and_the_report_shows_it() {
    let workspace = Workspace::with_config("", SLOW_C);
    let busy = submission("acwing-891/tle-busy-loop.c");
    let run = |format: &str| {
        workspace.judge([
            "run",
            "acwing-891",
            &busy,
            "--lang",
            "c-slow",
            "--format",
            format,
            "--tests",
            "sample-1",
        ])
    };
    let judged = run("json");
    let reports = judged.reports();
    let report = &reports[0];
    assert_eq!(report["verdict"], "TLE", "{judged:#?}");
    assert_eq!(u64_field(&report["limits"], "time_ms"), 2000);
    assert!(u64_field(&report["limits"], "wall_ms") >= 2000);
    let test = &report["tests"][0];
    let by_wall = test["message"]
        .as_str()
        .unwrap_or("")
        .starts_with("wall time");
    assert!(
        u64_field(test, "time_ms") >= 2000 || by_wall,
        "ran past the problem's 1 s to the doubled limit: {test}"
    );

    let human = run("human");
    assert!(
        human
            .stdout
            .contains("[C (time x2), time limit 2.00 s = 1.00 s x 2]"),
        "{}",
        human.stdout
    );
}

#[test]
fn a_bad_time_factor_is_named() {
    let workspace = Workspace::with_config(
        "",
        "[languages.c]\nrun = \"{exe}\"\ncompile = \"gcc -o {exe} {src}\"\ntime_factor = 0\n",
    );
    let judged = workspace.judge(["list", "--languages"]);
    assert_eq!(judged.code, Some(2), "{judged:#?}");
    assert!(
        judged.stderr.contains("languages.c.time_factor"),
        "{}",
        judged.stderr
    );
}
