//! `judge verify` proves a package and fails, naming the fault, when one part
//! of it is broken: a test the validator rejects, a reference that disagrees
//! with the brute force, a wrong solution that passes every test.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

use crate::support::copy_dir;

/// A copy of the fast fixture package in a temp dir, with a private cache.
struct Package {
    dir: tempfile::TempDir,
}

impl Package {
    fn new() -> Package {
        let dir = tempfile::tempdir().unwrap();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/problems/mini-nim");
        copy_dir(&from, &dir.path().join("mini-nim"));
        // A loaded machine may give a CPU-bound solution half a core: the
        // wall clock gets room, so its CPU time (what the judge measured)
        // decides, as on an idle machine.
        std::fs::write(
            dir.path().join("judge.toml"),
            format!(
                "cache_dir = \"{}\"\n\n[limits]\nwall_factor = 30\n",
                dir.path().join("cache").display()
            ),
        )
        .unwrap();
        Package { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join("mini-nim").join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.path(rel), text).unwrap();
    }

    fn verify(&self) -> (i32, String) {
        let out = Command::cargo_bin("judge")
            .unwrap()
            .current_dir(self.dir.path())
            .args(["verify", "mini-nim", "--color", "never"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code().unwrap(), text)
    }
}

#[test]
fn sound_package_holds() {
    let (code, text) = Package::new().verify();
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("ok: the package holds"), "{text}");
    assert!(
        text.contains("agrees with the answers on 3 tests and 20 random small inputs"),
        "{text}"
    );
    assert!(text.contains("solutions/wa-sum.py"), "{text}");
}

#[test]
fn a_test_the_validator_rejects_fails_verify() {
    let p = Package::new();
    p.write("testdata/sample-9.in", "4  4\n");
    p.write("testdata/sample-9.ans", "No\n");
    let (code, text) = p.verify();
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FAIL: test `sample-9`"), "{text}");
    assert!(
        text.contains("is invalid: the validator says: line 1: expected two numbers"),
        "{text}"
    );
}

#[test]
fn a_reference_that_disagrees_with_the_brute_force_fails_verify() {
    let p = Package::new();
    // Wrong on equal piles above 5 only: the fixed tests do not see it, the brute force does.
    p.write(
        "reference.py",
        "a, b = map(int, input().split())\nprint(\"Yes\" if a ^ b or a > 5 else \"No\")\n",
    );
    let (code, text) = p.verify();
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("the reference and the brute force disagree on generated input"),
        "{text}"
    );
}

#[test]
fn a_wrong_solution_that_passes_fails_verify() {
    let p = Package::new();
    std::fs::remove_file(p.path("testdata/sample-3.in")).unwrap();
    std::fs::remove_file(p.path("testdata/sample-3.ans")).unwrap();
    let (code, text) = p.verify();
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("FAIL: solution solutions/wa-sum.py expected WA but got AC on every test: no test catches it"),
        "{text}"
    );
    assert!(text.contains("<-- MISMATCH"), "{text}");
}

#[test]
fn a_package_program_that_does_not_compile_fails_verify() {
    let p = Package::new();
    p.write("brute.py", "def broken(:\n");
    let (code, text) = p.verify();
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("the brute force"), "{text}");
    assert!(text.contains("does not compile"), "{text}");
}

#[test]
fn json_report_has_the_matrix() {
    let p = Package::new();
    let out = Command::cargo_bin("judge")
        .unwrap()
        .current_dir(p.dir.path())
        .args(["verify", "mini-nim", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["tests"].as_array().unwrap().len(), 6);
    let solutions = v["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 3);
    assert_eq!(solutions[2]["report"]["verdict"], "WA");
    assert_eq!(solutions[2]["expected"][0], "WA");
}

/// Problems verified one after the other share the sandbox's keepers, so a
/// keeper's memory limit goes up between runs (64 MiB, then 256 MiB): cgroup
/// v1 refuses that unless the memory+swap limit is raised first.
#[test]
fn problems_with_rising_memory_limits_verify_in_one_run() {
    let p = Package::new();
    let small = p.dir.path().join("mini-nim-64");
    copy_dir(&p.path(""), &small);
    let spec = std::fs::read_to_string(small.join("problem.toml")).unwrap();
    let spec = spec
        .replace("id = \"mini-nim\"", "id = \"mini-nim-64\"")
        .replace("memory_limit = \"256MiB\"", "memory_limit = \"64MiB\"");
    std::fs::write(small.join("problem.toml"), spec).unwrap();
    let out = Command::cargo_bin("judge")
        .unwrap()
        .current_dir(p.dir.path())
        .args(["verify", "mini-nim-64", "mini-nim", "--color", "never"])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(text.matches("ok: the package holds").count(), 2, "{text}");
}

/// Each solution's slowest test is reported against the limit, and an
/// accepted solution using more than half of it is pointed out.
#[test]
fn the_slowest_test_and_a_thin_margin_are_reported() {
    let p = Package::new();
    // Right answers after 1.1 s of CPU on every test: 55% of the 2 s limit.
    let accepted = std::fs::read_to_string(p.path("solutions/accepted.py")).unwrap();
    p.write(
        "solutions/accepted.py",
        &format!(
            "import time\nend = time.process_time() + 1.1\nwhile time.process_time() < end:\n    pass\n{accepted}"
        ),
    );
    let (code, text) = p.verify();
    assert_eq!(code, 0, "a thin margin is a note, not a failure: {text}");
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("solutions/accepted.py"))
        .unwrap_or_else(|| panic!("no row: {text}"));
    assert!(row.contains(" s ") && row.contains('%'), "{row}");
    assert!(
        text.contains("note: solutions/accepted.py takes")
            && text.contains("of the 2.00 s limit")
            && text.contains("under half the limit"),
        "{text}"
    );
    assert!(
        !text.contains("note: solutions/wa-sum.py"),
        "only accepted solutions get the note: {text}"
    );
}

/// A CI matrix wider than the workspace: a part that holds no problem is a
/// success with a note (and an empty JUnit document), not "no problems".
#[test]
fn an_empty_partition_part_is_a_success_with_a_note() {
    let package = Package::new();
    let out = Command::cargo_bin("judge")
        .unwrap()
        .current_dir(package.dir.path())
        .args([
            "verify",
            "mini-nim",
            "--partition",
            "slice:2/3",
            "--format",
            "junit",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("note: part slice:2/3 holds no problem (1 problem(s) in 3 part(s))"),
        "{stderr}"
    );
    assert!(stdout.contains("<testsuites"), "{stdout}");
}
