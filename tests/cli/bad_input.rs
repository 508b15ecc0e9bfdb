//! Bad input gets a clear error naming the file and the problem, and never a
//! panic, a hang or unbounded growth: broken or absurd specs, test files that
//! are devices, package programs that fail, leave processes or print without
//! end, hostile contest folders, an unusable `--out`, control characters,
//! and what a judge killed with SIGKILL left behind.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{
    assert_none_named, copy_dir, isolation, judging_sleepers, problem, repo, str_field, Workspace,
};

/// A copy of the mini-nim fixture package in `workspace`, to break.
fn mini_nim(workspace: &Workspace, name: &str) -> PathBuf {
    let dir = workspace.path().join(name);
    copy_dir(&repo().join(problem("mini-nim")), &dir);
    let spec = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    std::fs::write(
        dir.join("problem.toml"),
        spec.replace("id = \"mini-nim\"", &format!("id = \"{name}\"")),
    )
    .unwrap();
    dir
}

fn replace_in(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Absurd limits in a problem.toml, judge.toml or on the command line are
/// errors naming the key, not panics: durations beyond the clock, memory no
/// process can start in, sizes that overflow, test counts without bound.
#[test]
fn absurd_limits_are_refused_with_a_clear_error() {
    let workspace = Workspace::new();
    let cases = [
        (
            "time_limit = \"2s\"",
            "time_limit = \"7000000000000000000s\"",
            "must be at most 7 days",
        ),
        (
            "memory_limit = \"256MiB\"",
            "memory_limit = \"1KiB\"",
            "memory_limit: 1 KiB is below the 4 MiB a process needs to start",
        ),
        (
            "memory_limit = \"256MiB\"",
            "memory_limit = \"99999999999999999999GiB\"",
            "must be at most 1 TiB",
        ),
        (
            "seeds = [1, 2, 3]",
            "count = 1000000000",
            "count: 1000000000 is more than the 100000 tests a problem may have",
        ),
    ];
    for (i, (from, to, expected)) in cases.iter().enumerate() {
        let dir = mini_nim(&workspace, &format!("absurd-{i}"));
        replace_in(&dir.join("problem.toml"), from, to);
        let started = Instant::now();
        let judged = workspace.judge([
            "run",
            dir.to_str().unwrap(),
            "tests/fixtures/problems/mini-nim/solutions/accepted.py",
        ]);
        judged.expect_code(2);
        assert!(judged.stderr.contains(expected), "{to}: {judged:#?}");
        assert!(judged.stderr.contains("problem.toml"), "{judged:#?}");
        assert!(started.elapsed() < Duration::from_secs(10), "{to}");
    }
    for (flag, value, expected) in [
        (
            "--time-limit",
            "7000000000000000000s",
            "must be at most 7 days",
        ),
        (
            "--memory-limit",
            "1KiB",
            "below the 4 MiB a process needs to start",
        ),
    ] {
        let judged = workspace.judge([
            "run",
            "acwing-891",
            "problems/acwing-891/solutions/accepted.cpp",
            flag,
            value,
        ]);
        judged.expect_code(2);
        assert!(judged.stderr.contains(expected), "{judged:#?}");
    }
    let config = Workspace::with_limits("wall_factor = 1e308\n");
    let judged = config.judge(["list"]);
    judged.expect_code(2);
    assert!(
        judged
            .stderr
            .contains("limits.wall_factor: must be a number from 1 to 100, got 1e308"),
        "{judged:#?}"
    );
}

/// A test whose input is a link to a device (endless) leaves the package
/// and is refused at once, naming it; one that is a pipe nobody writes is
/// not a regular file, refused at once too; so is `--input /dev/zero`.
#[test]
fn test_files_that_are_devices_are_refused_not_read_forever() {
    let workspace = Workspace::new();
    let dir = mini_nim(&workspace, "device-input");
    let input = dir.join("testdata/sample-1.in");
    for device in ["/dev/zero", "/dev/urandom", "fifo"] {
        let _ = std::fs::remove_file(&input);
        let expected = if device == "fifo" {
            let made = std::process::Command::new("mkfifo")
                .arg(&input)
                .status()
                .unwrap();
            assert!(made.success());
            "not a regular file"
        } else {
            std::os::unix::fs::symlink(device, &input).unwrap();
            "leaves the package"
        };
        let started = Instant::now();
        let judged = workspace.judge([
            "run",
            dir.to_str().unwrap(),
            "tests/fixtures/problems/mini-nim/solutions/accepted.py",
        ]);
        judged.expect_code(2);
        assert!(judged.stderr.contains("sample-1.in"), "{judged:#?}");
        assert!(judged.stderr.contains(expected), "{judged:#?}");
        assert!(started.elapsed() < Duration::from_secs(20));
    }
    let judged = workspace.judge([
        "run",
        "acwing-891",
        "problems/acwing-891/solutions/accepted.cpp",
        "--input",
        "/dev/zero",
    ]);
    judged.expect_code(2);
    assert!(judged.stderr.contains("not a regular file"), "{judged:#?}");
}

/// A validator that crashes or hangs is the package's fault, never "the test
/// is invalid". A verdict does not depend on input validators (as with
/// problemtools), so `judge run` goes on with a warning naming the validator,
/// the file and the test; `judge verify` fails for it, naming the validator.
#[test]
fn a_validator_that_fails_is_the_packages_fault_not_a_rejection() {
    let workspace = Workspace::with_limits("package_time = \"1s\"\n");
    let warning = regex::Regex::new(
        r"^warning: validator-\w+: test `([a-z0-9-]+)`: the validator (\S+) failed on (\S+): (.*) \(not run on the tests after it\)$",
    )
    .unwrap();
    for (name, body, how) in [
        ("killed", "import os\nos.kill(os.getpid(), 9)\n", "SIGKILL"),
        (
            "hangs",
            "import time\nwhile True:\n    time.sleep(1)\n",
            "limit",
        ),
    ] {
        let dir = mini_nim(&workspace, &format!("validator-{name}"));
        let validator = dir.join("validator.py");
        std::fs::write(&validator, body).unwrap();
        let judged = workspace.judge([
            "-j",
            "2",
            "run",
            dir.to_str().unwrap(),
            "tests/fixtures/problems/mini-nim/solutions/accepted.py",
        ]);
        judged.expect_code(0);
        assert!(judged.stdout.contains("AC "), "{name}: {judged:#?}");
        // A warning per failure: the test, the validator, the file and
        // how. The validator is then given up on: only the runs already in
        // flight (at most one per slot, -j 2) fail too.
        let failed: Vec<&str> = judged
            .stderr
            .lines()
            .filter(|line| line.contains("the validator"))
            .collect();
        assert!((1..=2).contains(&failed.len()), "{name}: {judged:#?}");
        for line in failed {
            let caught = warning
                .captures(line)
                .unwrap_or_else(|| panic!("{name}: {line}"));
            assert_eq!(&caught[2], validator.to_str().unwrap(), "{name}: {line}");
            assert!(caught[4].contains(how), "{name}: {line}");
            if caught[1].starts_with("sample-") {
                let file = format!("testdata/{}.in", &caught[1]);
                assert!(caught[3].ends_with(&file), "{name}: {line}");
            }
        }
        assert!(
            judged.stderr.contains("judging goes on"),
            "{name}: {judged:#?}"
        );
        assert!(!judged.stderr.contains("is invalid"), "{name}: {judged:#?}");
        let verified = workspace.judge(["verify", dir.to_str().unwrap()]);
        verified.expect_code(1);
        let said = format!("{}{}", verified.stdout, verified.stderr);
        assert!(
            said.contains(&format!("the validator {} failed", validator.display()))
                && said.contains(how),
            "{name}: {verified:#?}"
        );
        assert!(!said.contains("is invalid"), "{name}: {verified:#?}");
    }
}

/// A generator that prints without end stops at the package output limit,
/// with an error naming it, and leaves the cache small.
#[test]
fn a_generator_printing_without_end_fails_at_the_output_limit() {
    let workspace = Workspace::with_limits("package_output = \"1MiB\"\n");
    let dir = mini_nim(&workspace, "endless-generator");
    std::fs::write(
        dir.join("gen.py"),
        "import sys\nline = '1 2\\n' * 10000\nwhile True:\n    sys.stdout.write(line)\n",
    )
    .unwrap();
    let judged = workspace.judge([
        "run",
        dir.to_str().unwrap(),
        "tests/fixtures/problems/mini-nim/solutions/accepted.py",
    ]);
    judged.expect_code(2);
    assert!(
        judged.stderr.contains("generator failed") && judged.stderr.contains("Output"),
        "{judged:#?}"
    );
    let size: u64 = walkdir::WalkDir::new(workspace.path().join("cache"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum();
    assert!(size < 16 << 20, "the cache holds {size} bytes");
}

/// A custom checker is trusted, but what it starts does not outlive it.
#[test]
fn a_checker_leaves_no_process_behind() {
    let _names = crate::support::named_processes();
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "--isolation",
        isolation(),
        "run",
        &problem("checker-daemon"),
        &format!("{}/echo.c", problem("checker-daemon")),
        "--format",
        "json",
    ]);
    assert_eq!(judged.report()["verdict"], "AC", "{judged:#?}");
    assert_none_named("ckdaemon4711");
}

/// `batch --out` naming a file (or anything that cannot take the outputs)
/// is refused before anything is judged, and the file is left as it was.
#[test]
fn batch_out_is_checked_before_judging() {
    let workspace = Workspace::new();
    let out = workspace.path().join("not-a-folder");
    std::fs::write(&out, "precious").unwrap();
    let started = Instant::now();
    let judged = workspace.judge([
        "batch",
        "tests/fixtures/contest-icpc",
        "--out",
        out.to_str().unwrap(),
    ]);
    judged.expect_code(2);
    assert!(judged.stderr.contains("not-a-folder"), "{judged:#?}");
    assert!(
        !judged.stderr.contains("[1/"),
        "judged before failing: {judged:#?}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
}

/// A contest folder built to attack the judge: links to root-only files and
/// to /etc, a name that is not UTF-8, hidden entries, a pipe, a name with
/// terminal control sequences, and a numbered Rust attempt (whose file name
/// must not change its verdict). Every entry is judged or listed with why,
/// nothing is read through a link, and nothing stops the others.
#[test]
fn a_hostile_contest_folder_is_judged_entry_by_entry() {
    use std::os::unix::ffi::OsStrExt;
    let workspace = Workspace::new();
    let contest = workspace.path().join("contest");
    let mk = |path: &Path| std::fs::create_dir_all(path).unwrap();
    let copy = |from: &str, to: &Path| {
        std::fs::copy(repo().join(from), to).unwrap();
    };
    mk(&contest.join("alice"));
    copy(
        "problems/acwing-891/solutions/accepted.cpp",
        &contest.join("alice/acwing-891.cpp"),
    );
    copy(
        "problems/acwing-891/reference.rs",
        &contest.join("alice/acwing-891.2.rs"),
    );
    mk(&contest.join("mallory"));
    std::os::unix::fs::symlink("/etc/shadow", contest.join("mallory/acwing-891.cpp")).unwrap();
    std::os::unix::fs::symlink("/etc", contest.join("etc-link")).unwrap();
    let odd = contest.join(std::ffi::OsStr::from_bytes(b"odd\xff"));
    mk(&odd);
    copy(
        "problems/acwing-891/solutions/accepted.py",
        &odd.join("acwing-891.py"),
    );
    mk(&contest.join(".hidden"));
    copy(
        "problems/acwing-891/solutions/accepted.cpp",
        &contest.join(".hidden/acwing-891.cpp"),
    );
    mk(&contest.join("bob"));
    copy(
        "problems/acwing-891/solutions/wa-sum-parity.cpp",
        &contest.join("bob/acwing-891.cpp"),
    );
    copy(
        "problems/acwing-891/solutions/accepted.cpp",
        &contest.join("bob/.sneaky.cpp"),
    );
    let pipe = contest.join("bob/acwing-891.2.c");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    let eve = contest.join("eve\x1b[31m");
    mk(&eve);
    copy(
        "tests/fixtures/hostile/control-chars.c",
        &eve.join("acwing-891.c"),
    );
    let out = workspace.path().join("out");
    let started = Instant::now();
    let judged = workspace.judge([
        "--isolation",
        isolation(),
        "batch",
        contest.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    judged.expect_code(0);
    assert!(started.elapsed() < Duration::from_secs(100));
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let entries = results["entries"].as_array().unwrap();
    let entry = |file: &str| {
        entries
            .iter()
            .find(|e| {
                e["file"] == file
                    || (file.ends_with('/')
                        && e["contestant"] == file.trim_end_matches('/')
                        && e["error"].is_string())
            })
            .unwrap_or_else(|| panic!("no entry {file} in {entries:#?}"))
    };
    let verdict = |file: &str| entry(file)["report"]["verdict"].clone();
    let error = |file: &str| str_field(entry(file), "error").to_string();
    assert_eq!(verdict("alice/acwing-891.cpp"), "AC");
    assert_eq!(
        verdict("alice/acwing-891.2.rs"),
        "AC",
        "{:#?}",
        entry("alice/acwing-891.2.rs")
    );
    assert_eq!(verdict("odd\\xff/acwing-891.py"), "AC");
    assert_eq!(verdict("bob/acwing-891.cpp"), "WA");
    assert!(error("mallory/acwing-891.cpp").contains("symbolic link"));
    assert!(error("etc-link").contains("symbolic link"));
    assert!(error(".hidden").contains("hidden"));
    assert!(error("bob/.sneaky.cpp").contains("hidden"));
    assert!(error("bob/acwing-891.2.c").contains("neither a folder nor a regular file"));
    assert_eq!(verdict("eve\u{1b}[31m/acwing-891.c"), "WA");
    assert!(
        !results["contest"]["contestants"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "etc-link"),
        "{results}"
    );
    // Nothing of /etc/shadow anywhere; no raw control character in the text
    // outputs.
    let shadow: Vec<String> = std::fs::read_to_string("/etc/shadow")
        .unwrap_or_default()
        .lines()
        .filter(|l| l.len() >= 8)
        .map(str::to_string)
        .collect();
    for name in [
        "results.json",
        "scoreboard.txt",
        "scoreboard.html",
        "junit.xml",
    ] {
        let text = std::fs::read_to_string(out.join(name)).unwrap();
        for line in &shadow {
            assert!(!text.contains(line), "{name} shows /etc/shadow");
        }
        assert!(!text.contains('\u{1b}'), "{name}:\n{text}");
        if name == "scoreboard.txt" {
            assert!(text.contains("eve\\x1b[31m"), "{name}:\n{text}");
            assert!(text.contains("odd\\xff"), "{name}:\n{text}");
        }
    }
    assert!(!judged.stdout.contains('\u{1b}') && !judged.stderr.contains('\u{1b}'));
}

/// What a submission prints reaches the terminal escaped: no control
/// sequence of its can clear the screen, set the title or recolour.
#[test]
fn control_characters_from_submissions_are_shown_escaped() {
    let workspace = Workspace::new();
    for extra in [
        &["--tests", "sample-1"][..],
        &["--input", "testdata/acwing-891/sample-1.in"][..],
    ] {
        let mut args = vec![
            "run",
            "acwing-891",
            "tests/fixtures/hostile/control-chars.c",
        ];
        args.extend_from_slice(extra);
        let judged = workspace.judge(args);
        judged.expect_code(1);
        assert!(!judged.stdout.contains('\u{1b}'), "{}", judged.stdout);
        assert!(!judged.stdout.contains('\u{7}') && !judged.stdout.contains('\r'));
        assert!(judged.stdout.contains("\\x1b[2J"), "{}", judged.stdout);
    }
}

/// A judge killed with SIGKILL cannot clean up; the next judge removes what
/// it left: its sandbox and scratch directories (cgroups too, as before).
#[test]
fn the_next_judge_removes_what_a_killed_judge_left() {
    let _names = crate::support::named_processes();
    let workspace = Workspace::new();
    let mut child = judging_sleepers(&workspace, std::process::Stdio::null());
    let pid = child.id();
    child.kill().unwrap();
    child.wait().unwrap();
    let mine = |dir: &Path, prefixes: &[&str]| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .map(|d| {
                d.flatten()
                    .filter(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        prefixes
                            .iter()
                            .any(|p| name.starts_with(&format!("{p}{pid}-")))
                    })
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default()
    };
    let cache_tmp = workspace.path().join("cache/tmp");
    let left = [
        mine(Path::new("/tmp"), &["judge-sandbox-", "judge-run-"]),
        mine(&cache_tmp, &["work-", "judge-"]),
    ]
    .concat();
    assert!(
        !left.is_empty(),
        "the killed judge left nothing to test with"
    );
    assert_none_named("sleeper4711");
    workspace
        .judge([
            "run",
            "acwing-891",
            "problems/acwing-891/solutions/accepted.cpp",
            "--tests",
            "sample-1",
        ])
        .expect_code(0);
    let still: Vec<PathBuf> = left.into_iter().filter(|p| p.exists()).collect();
    assert!(still.is_empty(), "left behind: {still:?}");
}

/// From a folder of one's own (no judge.toml, no problems/), a bundled id
/// says where ids are looked up and how to reach the bundled problems.
#[test]
fn a_bundled_id_from_an_empty_folder_says_where_ids_are_looked_up() {
    let empty = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_judge"))
        .current_dir(empty.path())
        .args(["--color", "never", "run", "acwing-891", "a.cpp"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("looked up in the problems/ folder")
            && stderr.contains("bundled problems")
            && stderr.contains("--config"),
        "{stderr}"
    );
}
