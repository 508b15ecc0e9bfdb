//! Precompiled headers change how fast C++ compiles, never what compiles or
//! how it behaves: the same sources compiled with and without get the same
//! verdicts on every test, GCC uses the header where it is valid and reads
//! the real one where it is not (a macro defined before the include).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::support::{repo, str_field, Workspace};

/// The same compiler and flags with and without a precompiled header; the
/// first with `-H`, so its compiler messages say which header GCC took
/// (`! NAME.gch`: used; `x NAME.gch`: refused).
const LANGUAGES: &str = r#"
[languages.cpp-pch]
name = "C++17 (precompiled bits/stdc++.h, -H)"
compile = "g++ -H -O2 -std=gnu++17 -pipe -DONLINE_JUDGE -o {exe} {src}"
run = "{exe}"
precompiled_header = "bits/stdc++.h"

[languages.cpp-plain]
name = "C++17 (no precompiled header)"
compile = "g++ -O2 -std=gnu++17 -pipe -DONLINE_JUDGE -o {exe} {src}"
run = "{exe}"
precompiled_header = ""
"#;

/// Fixture, its verdict, and what GCC must do with the precompiled header:
/// `Some(true)` use it, `Some(false)` refuse it, `None` not look at it.
const FIXTURES: &[(&str, &str, Option<bool>)] = &[
    ("ac-bits.cpp", "AC", Some(true)),
    ("ac-define-int-after.cpp", "AC", Some(true)),
    ("ac-quoted-include.cpp", "AC", Some(true)),
    ("wa-bits.cpp", "WA", Some(true)),
    ("re-debug-before.cpp", "RE", Some(false)),
    ("ce-define-private-before.cpp", "CE", Some(false)),
    ("ac-iostream-first.cpp", "AC", None),
];

/// Judges the fixtures as `lang`: file name -> report.
fn judge_all(workspace: &Workspace, lang: &str) -> BTreeMap<String, Value> {
    let mut args: Vec<String> = ["run", "acwing-891", "--lang", lang, "--format", "json"]
        .map(String::from)
        .to_vec();
    let dir = repo().join("tests/fixtures/pch");
    for (file, _, _) in FIXTURES {
        args.push(dir.join(file).display().to_string());
    }
    for test in ["sample-1", "edge-even-xor", "edge-three-losing", "max-1"] {
        args.extend(["--tests".to_string(), test.to_string()]);
    }
    let judged = workspace.judge(&args);
    let reports = judged.reports();
    assert_eq!(reports.len(), FIXTURES.len(), "{judged:#?}");
    FIXTURES
        .iter()
        .zip(reports)
        .map(|((file, _, _), report)| (file.to_string(), report))
        .collect()
}

/// What decides a verdict: overall, compile status, each test's verdict.
fn outcome(report: &Value) -> (String, String, Vec<(String, String)>) {
    let tests = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                str_field(t, "name").to_string(),
                str_field(t, "verdict").to_string(),
            )
        })
        .collect();
    (
        str_field(report, "verdict").to_string(),
        str_field(&report["compile"], "status").to_string(),
        tests,
    )
}

#[test]
fn a_precompiled_header_changes_nothing_but_the_compile_time() {
    let workspace = Workspace::with_config("", LANGUAGES);
    let with = judge_all(&workspace, "cpp-pch");
    let without = judge_all(&workspace, "cpp-plain");
    for (file, verdict, used) in FIXTURES {
        let (w, wo) = (&with[*file], &without[*file]);
        assert_eq!(str_field(w, "verdict"), *verdict, "{file} with: {w}");
        assert_eq!(outcome(w), outcome(wo), "{file}: with and without differ");
        // `-H` prints one line per header; the precompiled one's says
        // whether GCC took it.
        let message = str_field(&w["compile"], "message");
        let line = message
            .lines()
            .find(|l| l.trim_end().ends_with("bits/stdc++.h.gch"));
        match used {
            Some(true) => assert!(
                line.is_some_and(|l| l.starts_with("! ")),
                "{file}: the precompiled header was not used:\n{message}"
            ),
            Some(false) => assert!(
                line.is_some_and(|l| l.starts_with("x ")),
                "{file}: the precompiled header was not refused:\n{message}"
            ),
            None => assert!(
                line.is_none_or(|l| !l.starts_with("! ")),
                "{file}: the precompiled header was used:\n{message}"
            ),
        }
    }
}

#[test]
fn a_bad_precompiled_header_name_is_named() {
    let workspace = Workspace::with_config(
        "",
        "[languages.cpp]\nprecompiled_header = \"../etc/passwd\"\nrun = \"{exe}\"\n",
    );
    let judged = workspace.judge(["list", "--languages"]);
    assert_eq!(judged.code, Some(2), "{judged:#?}");
    assert!(
        judged.stderr.contains("languages.cpp.precompiled_header"),
        "{}",
        judged.stderr
    );
}

/// Building the header costs seconds: a source that does not name it does
/// not make the judge build it.
#[test]
fn a_source_without_the_header_does_not_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let pch = dir.path().join("pch");
    let workspace = Workspace::with_config("", &format!("pch_dir = \"{}\"\n", pch.display()));
    let plain = repo().join("tests/fixtures/submissions/acwing-891/ac.cpp");
    let judged = workspace.judge([
        "run",
        "acwing-891",
        plain.to_str().unwrap(),
        "--tests",
        "sample-1",
    ]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    let built: Vec<_> = std::fs::read_dir(&pch)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(built.is_empty(), "built for a source without it: {built:?}");
}
