//! What `judge` prints: the JSON report's fields, the human diff of a WA,
//! `--fail-fast`, `run --input`, and `judge list`.

use serde_json::Value;

use crate::support::{str_field, submission, tests_of, u64_field, Workspace};

/// Asserts that `value[key]` exists and satisfies `is_kind` (e.g. `Value::is_string`).
fn has(value: &Value, key: &str, is_kind: fn(&Value) -> bool) {
    assert!(
        value.get(key).is_some_and(is_kind),
        "`{key}` is missing or of the wrong type in {value}"
    );
}

#[test]
fn json_report_has_the_documented_fields() {
    let workspace = Workspace::new();
    let ac = submission("acwing-891/ac.c");
    let ce = submission("acwing-891/ce-syntax.cpp");
    let judged = workspace.judge([
        "run",
        "acwing-891",
        &ac,
        &ce,
        "--format",
        "json",
        "--tests",
        "sample-1",
        "edge-three-losing",
    ]);
    judged.expect_code(1);
    let reports = judged.reports();
    assert_eq!(reports.len(), 2, "{judged:#?}");
    for report in &reports {
        assert_eq!(report["schema_version"], 1);
        assert_eq!(report["problem"], "acwing-891");
        for key in ["submission", "language", "verdict", "isolation"] {
            has(report, key, Value::is_string);
        }
        has(&report["compile"], "status", Value::is_string);
        has(&report["compile"], "message", Value::is_string);
        has(&report["compile"], "time_ms", Value::is_u64);
        has(&report["compile"], "cached", Value::is_boolean);
        for key in ["time_ms", "wall_ms", "memory_kib", "output_kib"] {
            has(&report["limits"], key, Value::is_u64);
        }
        has(report, "tests", Value::is_array);
        has(report, "skipped", Value::is_array);
        for key in ["passed", "total", "max_time_ms", "max_memory_kib"] {
            has(&report["summary"], key, Value::is_u64);
        }
    }

    let (accepted, failed) = (&reports[0], &reports[1]);
    assert_eq!(accepted["submission"], ac.as_str());
    assert_eq!(accepted["language"], "c");
    assert_eq!(accepted["verdict"], "AC");
    assert_eq!(accepted["compile"]["status"], "ok");
    assert_eq!(accepted["limits"]["time_ms"], 1000);
    assert_eq!(accepted["limits"]["memory_kib"], 64 * 1024);
    assert_eq!(accepted["limits"]["output_kib"], 1024);
    let names: Vec<&str> = tests_of(accepted)
        .iter()
        .map(|t| str_field(t, "name"))
        .collect();
    assert_eq!(names, ["sample-1", "edge-three-losing"]);
    for test in tests_of(accepted) {
        for key in ["name", "group", "verdict", "message"] {
            has(test, key, Value::is_string);
        }
        for key in ["time_ms", "wall_ms", "memory_kib"] {
            has(test, key, Value::is_u64);
        }
        assert_eq!(test["verdict"], "AC");
        assert_eq!(test["message"], "");
        assert_eq!(test["exit_code"], 0);
        assert!(test["signal"].is_null(), "{test}");
        // At full isolation a tiny program's figure may be 0 (the kernel
        // charges memory in batches of 256 KiB); never above the limit.
        assert!(u64_field(test, "memory_kib") < 64 * 1024, "{test}");
        assert!(
            test.get("output").is_none(),
            "output only with --input: {test}"
        );
    }
    assert_eq!(accepted["summary"]["passed"], 2);
    assert_eq!(accepted["summary"]["total"], 2);

    assert_eq!(failed["language"], "cpp");
    assert_eq!(failed["verdict"], "CE");
    assert_eq!(failed["compile"]["status"], "error");
    assert!(
        str_field(&failed["compile"], "message").contains("error"),
        "{failed}"
    );
    assert!(tests_of(failed).is_empty(), "{failed}");
    assert_eq!(
        failed["skipped"],
        serde_json::json!(["sample-1", "edge-three-losing"])
    );
}

#[test]
fn fail_fast_skips_the_tests_after_a_failure() {
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "run",
        "acwing-891",
        &submission("acwing-891/wa-odd-n.rs"),
        "--format",
        "json",
        "--fail-fast",
        "--jobs",
        "1",
        "--tests",
        "sample-*",
        "edge-*",
    ]);
    judged.expect_code(1);
    let report = judged.report();
    assert_eq!(report["verdict"], "WA");
    let skipped = report["skipped"].as_array().expect("skipped is an array");
    assert!(!skipped.is_empty(), "nothing skipped: {report}");
    assert_eq!(
        tests_of(&report).len() + skipped.len(),
        10,
        "every selected test is judged or skipped: {report}"
    );
}

#[test]
fn human_output_of_a_wrong_answer_shows_the_diff() {
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "run",
        "acwing-891",
        &submission("acwing-891/wa-or.cpp"),
        "--tests",
        "sample-1",
        "edge-three-losing",
    ]);
    judged.expect_code(1);
    let lines: Vec<&str> = judged.stdout.lines().map(str::trim).collect();
    let has_line = |wanted: &dyn Fn(&str) -> bool, what: &str| {
        assert!(
            lines.iter().any(|l| wanted(l)),
            "no {what} line in:\n{}",
            judged.stdout
        );
    };
    has_line(
        &|l| l.starts_with("edge-three-losing") && l.contains("WA"),
        "test",
    );
    has_line(&|l| l.starts_with("--- expected"), "`--- expected`");
    has_line(&|l| l.starts_with("+++ got"), "`+++ got`");
    has_line(
        &|l| l.starts_with('-') && l.ends_with("| No"),
        "`-` expected",
    );
    has_line(&|l| l.starts_with('+') && l.ends_with("| Yes"), "`+` got");
    has_line(
        &|l| l.starts_with("WA") && l.contains("1/2 tests passed"),
        "summary",
    );
}

#[test]
fn run_with_input_prints_the_programs_output() {
    let workspace = Workspace::new();
    let input = workspace.path().join("three-piles.txt");
    std::fs::write(&input, "3\n1 2 3\n").expect("write the input");
    let input = input.to_str().expect("UTF-8 path");
    let file = submission("acwing-891/ac.py");

    let judged = workspace.judge(["run", "acwing-891", &file, "--input", input]);
    judged.expect_code(0);
    let lines: Vec<&str> = judged.stdout.lines().map(str::trim).collect();
    let at = lines
        .iter()
        .position(|l| *l == "output:")
        .unwrap_or_else(|| panic!("no output block: {judged:#?}"));
    assert_eq!(lines.get(at + 1), Some(&"No"), "{judged:#?}");

    let judged = workspace.judge([
        "run",
        "acwing-891",
        &file,
        "--input",
        input,
        "--format",
        "json",
    ]);
    judged.expect_code(0);
    let report = judged.report();
    let tests = tests_of(&report);
    assert_eq!(tests.len(), 1, "{report}");
    assert_eq!(tests[0]["name"], "three-piles");
    assert_eq!(tests[0]["output"], "No\n");
    assert_eq!(
        tests[0]["verdict"], "AC",
        "checked against the reference: {report}"
    );
}

#[test]
fn list_shows_the_workspace_problems() {
    let workspace = Workspace::new();
    let judged = workspace.judge(["list"]);
    judged.expect_code(0);
    assert!(
        judged
            .stdout
            .lines()
            .any(|l| l.starts_with("acwing-891 ") && l.contains("Nim Game")),
        "{judged:#?}"
    );

    let judged = workspace.judge(["list", "--format", "json"]);
    judged.expect_code(0);
    let nim = judged
        .reports()
        .into_iter()
        .find(|p| p["id"] == "acwing-891")
        .unwrap_or_else(|| panic!("acwing-891 not listed: {judged:#?}"));
    assert_eq!(nim["title"], "Nim Game");
    assert_eq!(nim["time_limit_ms"], 1000);
    assert_eq!(nim["memory_limit_kib"], 64 * 1024);
    assert!(u64_field(&nim, "tests") > 0, "{nim}");
}
