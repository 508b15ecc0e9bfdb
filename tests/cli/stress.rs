//! `judge stress` and `judge gen` on a bundled package, luogu-p2197 (Nim,
//! `T` cases of `n` piles): its wrong solution `wa-no-reset.c` (the xor is
//! never reset between cases) fails only with two cases or more, so its
//! counterexamples need real shrinking (cases, tokens with their counts,
//! numbers). The tests share one workspace, so the package's Rust programs
//! are compiled once (see [`workspace`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::support::{repo, str_field, u64_field, Judged, Workspace};

const PROBLEM: &str = "luogu-p2197";
const WRONG: &str = "problems/luogu-p2197/solutions/wa-no-reset.c";
const CORRECT: &str = "problems/luogu-p2197/solutions/accepted.cpp";

/// The workspace of these tests, warmed once: `judge gen` builds the
/// generator, validator and reference before any test runs in parallel.
fn workspace() -> &'static Workspace {
    static SHARED: OnceLock<Workspace> = OnceLock::new();
    SHARED.get_or_init(|| {
        let ws = Workspace::shared("cli-stress");
        let out = ws.path().join("warm");
        ws.judge(["gen", PROBLEM, "--out", path_str(&out), "--force"])
            .expect_code(0);
        ws
    })
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// `judge stress PROBLEM FILE --format json --save SAVE ARGS...` and its report.
fn stress(file: &str, save: &Path, args: &[&str]) -> (Judged, Value) {
    let mut argv = vec!["stress", PROBLEM, file, "--format", "json"];
    argv.extend(["--save", path_str(save)]);
    argv.extend(args);
    let judged = workspace().judge(&argv);
    let report = serde_json::from_str(judged.stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}); {judged:#?}"));
    (judged, report)
}

fn minimal_input(report: &Value) -> &str {
    str_field(&report["counterexample"]["minimal"], "input")
}

/// The validator as the judge built it, found in the workspace's build cache
/// (a build directory keeps the source beside the program).
fn validator() -> PathBuf {
    let source = std::fs::read(repo().join("problems/luogu-p2197/validator.rs")).unwrap();
    walkdir::WalkDir::new(workspace().path().join("cache/builds"))
        .into_iter()
        .flatten()
        .find(|e| {
            e.file_name() == "validator.rs" && std::fs::read(e.path()).ok() == Some(source.clone())
        })
        .map(|e| e.path().with_file_name("prog"))
        .expect("the validator was built")
}

fn is_valid(validator: &Path, input: &str) -> bool {
    use std::io::Write;
    let mut child = std::process::Command::new(validator)
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait().unwrap().success()
}

/// Every input one step smaller than `text`, defined here independently of
/// the shrinker: one line, two adjacent lines or one token deleted (alone, or
/// with any one earlier integer lowered by 1, which fixes a count), or one
/// integer lowered by 1.
fn neighbours(text: &str) -> BTreeSet<String> {
    type Lines = Vec<Vec<String>>;
    let lines: Lines = text
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    let render =
        |lines: &[Vec<String>]| -> String { lines.iter().map(|l| l.join(" ") + "\n").collect() };
    // Positions in reading order of the integers before (line, token).
    let integers_before = |lines: &[Vec<String>], line: usize, token: usize| {
        let mut out = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            for (j, t) in l.iter().enumerate() {
                if (i, j) < (line, token) && t.parse::<i64>().is_ok() {
                    out.push((i, j));
                }
            }
        }
        out
    };
    let lowered = |lines: &[Vec<String>], (i, j): (usize, usize)| {
        let mut copy = lines.to_vec();
        copy[i][j] = (copy[i][j].parse::<i64>().unwrap() - 1).to_string();
        copy
    };
    // Each smaller input, alone and with each earlier integer lowered by 1.
    let mut shapes: Vec<(Lines, Vec<(usize, usize)>)> = Vec::new();
    let mut out = BTreeSet::new();
    for span in [1, 2] {
        for start in 0..lines.len().saturating_sub(span - 1) {
            let mut smaller = lines.clone();
            smaller.drain(start..start + span);
            shapes.push((smaller, integers_before(&lines, start, 0)));
        }
    }
    for (i, l) in lines.iter().enumerate() {
        for (j, token) in l.iter().enumerate() {
            let mut smaller = lines.clone();
            smaller[i].remove(j);
            shapes.push((smaller, integers_before(&lines, i, j)));
            if token.parse::<i64>().is_ok() {
                out.insert(render(&lowered(&lines, (i, j))));
            }
        }
    }
    for (smaller, before) in shapes {
        for &at in &before {
            out.insert(render(&lowered(&smaller, at)));
        }
        out.insert(render(&smaller));
    }
    out.remove(text);
    out
}

#[test]
fn shrinks_a_wrong_solution_to_a_valid_minimal_input_deterministically() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("minimal.in");
    let (judged, report) = stress(WRONG, &save, &["--seed", "1"]);
    judged.expect_code(1);
    let c = &report["counterexample"];
    assert_eq!(str_field(c, "verdict"), "WA", "{judged:#?}");
    let original = str_field(&c["original"], "input");
    let minimal = minimal_input(&report);
    // The generated input really was shrunk.
    assert!(
        u64_field(&c["minimal"], "tokens") < u64_field(&c["original"], "tokens"),
        "{original:?} -> {minimal:?}"
    );
    assert!(c["shrink"]["complete"].as_bool().unwrap());
    assert_eq!(std::fs::read_to_string(&save).unwrap(), minimal);
    assert_eq!(str_field(c, "expected"), "Yes\nNo\n");
    assert_eq!(str_field(c, "actual"), "Yes\nYes\n");

    // Valid, per the package's validator.
    let validator = validator();
    assert!(is_valid(&validator, minimal), "{minimal:?}");
    // Minimal: no valid input one step smaller still fails with WA.
    let smaller: Vec<String> = neighbours(minimal)
        .into_iter()
        .filter(|n| is_valid(&validator, n))
        .collect();
    for (i, input) in smaller.iter().enumerate() {
        let path = dir.path().join(format!("neighbour-{i}.in"));
        std::fs::write(&path, input).unwrap();
        let run = workspace().judge([
            "run",
            PROBLEM,
            WRONG,
            "--input",
            path_str(&path),
            "--format",
            "json",
        ]);
        assert_eq!(
            str_field(&run.report(), "verdict"),
            "AC",
            "the smaller valid input {input:?} still fails, so {minimal:?} is not minimal"
        );
    }

    // The replay command given in the report reproduces the failure.
    let replay = str_field(c, "replay");
    assert!(
        replay.starts_with(&format!("judge run {PROBLEM} {WRONG} --input ")),
        "{replay}"
    );
    let run = workspace().judge(["run", PROBLEM, WRONG, "--input", path_str(&save)]);
    run.expect_code(1);
    assert!(run.stdout.contains("expected `No`, got `Yes`"), "{run:#?}");

    // The same seed and budget give the same counterexample, byte for byte.
    let again = dir.path().join("again.in");
    let (_, second) = stress(WRONG, &again, &["--seed", "1"]);
    assert_eq!(minimal_input(&second), minimal);
    assert_eq!(second["counterexample"]["iteration"], c["iteration"]);
    assert_eq!(second["counterexample"]["original"], c["original"]);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&save).unwrap()
    );
}

#[test]
fn every_trusted_solution_gives_the_same_minimal_input() {
    let dir = tempfile::tempdir().unwrap();
    let (judged, reference) = stress(WRONG, &dir.path().join("r.in"), &["--seed", "3"]);
    judged.expect_code(1);
    for against in ["brute", CORRECT] {
        let (judged, other) = stress(
            WRONG,
            &dir.path().join("o.in"),
            &["--seed", "3", "--against", against],
        );
        judged.expect_code(1);
        assert_eq!(str_field(&other, "against"), against);
        assert_eq!(
            minimal_input(&other),
            minimal_input(&reference),
            "against {against}"
        );
    }
}

#[test]
fn a_correct_solution_finds_nothing_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("none.in");
    let (judged, report) = stress(CORRECT, &save, &["--iterations", "80"]);
    judged.expect_code(0);
    assert_eq!(report["counterexample"], Value::Null);
    assert_eq!(u64_field(&report, "iterations"), 80);
    assert_eq!(u64_field(&report, "invalid"), 0);
    // Sizes grow from 1 up to the largest the generator accepts (6).
    assert_eq!(u64_field(&report, "max_size"), 6);
    assert_eq!(u64_field(&report, "size_cap"), 6);
    assert!(!save.exists());
    let human = workspace().judge(["stress", PROBLEM, CORRECT, "--iterations", "30"]);
    human.expect_code(0);
    assert!(
        human
            .stdout
            .contains("ok: no counterexample in 30 iterations"),
        "{human:#?}"
    );
}

#[test]
fn a_crash_is_a_failure_and_shrinks_to_an_input_that_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let crash = "tests/fixtures/submissions/acwing-891/re-abort.cpp";
    let (judged, report) = stress(crash, &dir.path().join("re.in"), &[]);
    judged.expect_code(1);
    let c = &report["counterexample"];
    assert_eq!(str_field(c, "verdict"), "RE");
    assert_eq!(u64_field(c, "iteration"), 1);
    // It aborts on every input: the smallest valid input is one empty pile.
    assert_eq!(minimal_input(&report), "1\n1\n0\n");
}

#[test]
fn stress_could_not_run_exits_2_and_says_why() {
    let ws = workspace();
    let no_generator = ws.judge([
        "stress",
        "tests/fixtures/problems/pe-demo",
        "tests/fixtures/submissions/pe-demo/ac.py",
    ]);
    no_generator.expect_code(2);
    assert!(
        no_generator.stderr.contains(
            "problem pe-demo: has no [generator] to make stress inputs; give one with --generator FILE"
        ),
        "{no_generator:#?}"
    );
    let broken = ws.judge([
        "stress",
        PROBLEM,
        "tests/fixtures/submissions/acwing-891/ce-syntax.cpp",
    ]);
    broken.expect_code(2);
    assert!(
        broken.stderr.contains("ce-syntax.cpp does not compile"),
        "{broken:#?}"
    );
    let missing = ws.judge(["stress", PROBLEM, WRONG, "--against", "nope.cpp"]);
    missing.expect_code(2);
    assert!(
        missing.stderr.contains("cannot read nope.cpp"),
        "{missing:#?}"
    );
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn gen_writes_the_test_set_numbered_or_in_oj_layout() {
    let ws = workspace();
    let dir = tempfile::tempdir().unwrap();
    let numbered = dir.path().join("numbered");
    let out = ws.judge(["gen", PROBLEM, "--out", path_str(&numbered)]);
    out.expect_code(0);
    let list = ws.judge(["list", "--format", "json"]);
    let count = list
        .reports()
        .into_iter()
        .find(|p| p["id"] == PROBLEM)
        .map(|p| u64_field(&p, "tests"))
        .unwrap() as usize;
    let names = names_in(&numbered);
    assert_eq!(names.len(), 2 * count, "{names:?}");
    assert!(names.contains(&"01.in".to_string()) && names.contains(&"01.ans".to_string()));
    assert!(names.contains(&format!("{count:02}.ans")));
    let testdata = repo().join("testdata").join(PROBLEM);
    assert_eq!(
        std::fs::read(numbered.join("01.in")).unwrap(),
        std::fs::read(testdata.join("sample-1.in")).unwrap()
    );
    assert_eq!(
        std::fs::read(numbered.join("01.ans")).unwrap(),
        std::fs::read(testdata.join("sample-1.ans")).unwrap()
    );
    assert!(out.stdout.contains("01.in  sample-1"), "{out:#?}");

    // A non-empty directory is refused without --force.
    let refused = ws.judge(["gen", PROBLEM, "--out", path_str(&numbered)]);
    refused.expect_code(2);
    assert!(
        refused.stderr.contains("is not empty; pass --force"),
        "{refused:#?}"
    );

    // oj's layout, over the numbered files: --force replaces them.
    let keep = numbered.join("notes.txt");
    std::fs::write(&keep, "mine").unwrap();
    ws.judge([
        "gen",
        PROBLEM,
        "--out",
        path_str(&numbered),
        "--format",
        "oj",
        "--force",
    ])
    .expect_code(0);
    let names = names_in(&numbered);
    assert_eq!(names.len(), 2 * count + 1, "{names:?}");
    assert!(keep.exists());
    assert!(!names.iter().any(|n| n.ends_with(".ans")), "{names:?}");
    for name in [
        "sample-1.in",
        "sample-1.out",
        "random-1.in",
        "random-1.out",
        "max-2.out",
    ] {
        assert!(names.contains(&name.to_string()), "{name} in {names:?}");
    }
    assert_eq!(
        std::fs::read(numbered.join("sample-1.out")).unwrap(),
        std::fs::read(testdata.join("sample-1.ans")).unwrap()
    );
}
