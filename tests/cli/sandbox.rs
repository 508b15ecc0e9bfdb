//! What compilations and runs can see and do (docs/sandbox.md, "What a
//! submission and a compiler can see and do"): compilers are as contained as
//! runs (an unprivileged uid, no capabilities, a fixed environment, the same
//! allow-list view, limited output), and the whole view of either holds
//! nothing outside an explicit allow-list. As root at full isolation; the
//! view is walked again as the unprivileged user of `.ci/run`.

use std::path::Path;

use crate::support::{is_root, isolation, repo, str_field, tests_of, Workspace};

fn hostile(name: &str) -> String {
    format!("tests/fixtures/hostile/{name}")
}

/// A value set in the judge's environment that no compilation or run may see
/// (as CI secrets live in the environment of a CI job).
const SECRET: (&str, &str) = ("JUDGE_TEST_SECRET", "hunter2-4711");

/// The lines of /etc/shadow worth looking for in what a judging printed
/// (when the tests can read it: as root).
fn shadow_lines() -> Vec<String> {
    std::fs::read_to_string("/etc/shadow")
        .unwrap_or_default()
        .lines()
        .filter(|l| l.len() >= 8)
        .map(str::to_string)
        .collect()
}

#[test]
fn compilers_cannot_read_root_only_files_or_the_judges_environment() {
    let workspace = Workspace::new();
    let judged = workspace.judge_with_env(
        [
            "--isolation",
            isolation(),
            "run",
            "acwing-891",
            &hostile("compile-include-shadow.cpp"),
            &hostile("compile-incbin-shadow.c"),
            &hostile("compile-include-shadow.rs"),
            &hostile("compile-environ.rs"),
            "--input",
            "testdata/acwing-891/sample-1.in",
            "--format",
            "json",
        ],
        &[SECRET],
    );
    let reports = judged.reports();
    assert_eq!(reports.len(), 4, "{judged:#?}");
    for report in &reports[..3] {
        assert_eq!(report["verdict"], "CE", "{report}");
        let message = str_field(&report["compile"], "message");
        if is_root() {
            assert!(
                message.contains("Permission denied") || message.contains("file not found"),
                "{message}"
            );
        }
    }
    // The environment a compiler sees is the fixed one.
    let environ = &tests_of(&reports[3])[0];
    let output = str_field(environ, "output");
    assert!(
        output.contains("PATH=/usr/local/bin:/usr/bin:/bin"),
        "{output}"
    );
    assert!(!output.contains(SECRET.0), "{output}");
    let everything = format!("{}{}", judged.stdout, judged.stderr);
    assert!(!everything.contains(SECRET.1), "{everything}");
    for line in shadow_lines() {
        assert!(!everything.contains(&line), "/etc/shadow leaked: {line}");
    }
}

/// Python's syntax check imports modules of the standard library; a
/// submission named like one of them must not be imported (and so run) then,
/// nor import itself when it runs (its name must not change its verdict).
#[test]
fn a_python_file_named_like_a_library_module_does_not_run_at_compile_time() {
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "--isolation",
        isolation(),
        "run",
        "acwing-891",
        &hostile("pymodule/traceback.py"),
        &hostile("pymodule/random.py"),
        "--tests",
        "sample-1",
        "--format",
        "json",
    ]);
    for report in judged.reports() {
        assert_eq!(report["verdict"], "AC", "{report}");
        assert!(
            !str_field(&report["compile"], "message").contains("imported at compile time"),
            "{report}"
        );
    }
    assert!(!Path::new("/tmp/judge-pwned-compile-4711").exists());
}

/// A "compiler" that is the submission itself (a language whose compile
/// command runs the source) reports what compilers can do: its report is the
/// CE message.
#[test]
fn compilers_run_unprivileged_with_a_fixed_environment_and_limited_files() {
    let workspace = Workspace::with_config("compile_disk = \"32MiB\"\n", PROBE_LANGUAGE);
    // The paths it must not see, written into the script (it gets no
    // environment of the judge's to learn them from).
    let script = std::fs::read_to_string(repo().join(hostile("compile-probe.sh")))
        .unwrap()
        .replace(
            "\"$JUDGE_TEST_WORKSPACE\"",
            &format!("{} {}", workspace.path().display(), repo().display()),
        );
    let probe = workspace.path().join("probe.probe");
    std::fs::write(&probe, script).unwrap();
    let judged = workspace.judge_with_env(
        [
            "--isolation",
            isolation(),
            "run",
            "acwing-891",
            probe.to_str().unwrap(),
            "--tests",
            "sample-1",
            "--format",
            "json",
        ],
        &[SECRET],
    );
    let report = judged.report();
    assert_eq!(report["verdict"], "CE", "{report}");
    let message = str_field(&report["compile"], "message");
    let has = |line: &str| message.lines().any(|l| l.trim() == line);
    assert!(message.contains("end of report"), "{message}");
    assert!(
        message.starts_with("uid=65534 gid=65534 groups=65534"),
        "{message}"
    );
    for line in [
        "CapPrm: 0000000000000000",
        "CapEff: 0000000000000000",
        "NoNewPrivs: 1",
        "secret: absent",
        "shadow: unreadable",
        "wrote: /judge/work",
        "wrote: /tmp",
    ] {
        assert!(has(line), "missing `{line}` in:\n{message}");
    }
    for forbidden in [
        "sees:",
        "wrote: /etc",
        "wrote: /usr",
        "unmounted",
        "remounted",
    ] {
        assert!(!message.contains(forbidden), "`{forbidden}` in:\n{message}");
    }
    let env = message
        .lines()
        .find_map(|l| l.strip_prefix("env: "))
        .unwrap_or_default();
    let keys: Vec<&str> = env.split_whitespace().collect();
    assert_eq!(keys, ["HOME", "LANG", "PATH", "PWD", "TMPDIR"], "{message}");
    let big: u64 = message
        .lines()
        .find_map(|l| l.strip_prefix("big file: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(u64::MAX);
    assert!(
        big <= 32 << 20,
        "a compilation wrote {big} bytes: {message}"
    );
}

/// The walker of tests/fixtures/hostile/walk-view.py, as a submission (with
/// `--input`, its report is its output) and as a compiler (its report is
/// the CE message): nothing outside the allow-list is readable, no IPC
/// endpoint or device but the allowed ones is visible, and nothing of the
/// processes that run them is readable.
fn walk_views(judge: &impl Fn(&[&str]) -> crate::support::Judged, walker: &str, compiled: &str) {
    let judged = judge(&[
        "run",
        "tests/fixtures/problems/open-view",
        walker,
        "--input",
        "tests/fixtures/problems/open-view/testdata/1.in",
        "--format",
        "json",
    ]);
    let report = judged.report();
    let output = str_field(&tests_of(&report)[0], "output");
    assert!(
        output.starts_with("clean: "),
        "run view:\n{output}\n{judged:#?}"
    );
    let judged = judge(&[
        "run",
        "tests/fixtures/problems/open-view",
        compiled,
        "--format",
        "json",
    ]);
    let report = judged.report();
    let message = str_field(&report["compile"], "message");
    assert!(
        message.starts_with("clean: "),
        "compile view:\n{message}\n{judged:#?}"
    );
}

const PROBE_LANGUAGE: &str =
    "[languages.probe]\nextensions = [\"probe\"]\ncompile = \"sh {src}\"\n\
     run = \"{exe}\"\nversion = \"sh -c true\"\n";

const WALK_LANGUAGE: &str = "[languages.walk]\nextensions = [\"walk\"]\n\
     compile = \"python3 -I {src} fail\"\nrun = \"{exe}\"\nversion = \"python3 --version\"\n";

#[test]
fn runs_and_compilations_see_only_an_allow_list() {
    let workspace = Workspace::with_config("", WALK_LANGUAGE);
    let compiled = workspace.path().join("view.walk");
    std::fs::copy(repo().join(hostile("walk-view.py")), &compiled).unwrap();
    walk_views(
        &|args| {
            let mut all = vec!["--isolation", isolation()];
            all.extend_from_slice(args);
            workspace.judge(all)
        },
        &hostile("walk-view.py"),
        compiled.to_str().unwrap(),
    );
}

#[test]
fn runs_and_compilations_see_only_an_allow_list_as_an_unprivileged_user() {
    let Some(user) = crate::support::unprivileged_user() else {
        return;
    };
    let dir = tempfile::Builder::new()
        .prefix("judge-unprivileged-view-")
        .tempdir()
        .unwrap();
    let root = dir.path();
    crate::support::copy_dir(
        &repo().join("tests/fixtures/problems/open-view"),
        &root.join("open-view"),
    );
    std::fs::copy(
        repo().join(hostile("walk-view.py")),
        root.join("walk-view.py"),
    )
    .unwrap();
    std::fs::copy(repo().join(hostile("walk-view.py")), root.join("view.walk")).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), root.join("judge")).unwrap();
    std::fs::write(
        root.join("judge.toml"),
        format!("{WALK_LANGUAGE}{PROBE_LANGUAGE}"),
    )
    .unwrap();
    let script = std::fs::read_to_string(repo().join(hostile("compile-probe.sh")))
        .unwrap()
        .replace("\"$JUDGE_TEST_WORKSPACE\"", &root.display().to_string());
    std::fs::write(root.join("probe.probe"), script).unwrap();
    crate::support::hand_over(root, Some(&user));
    let judge = |args: &[&str]| {
        let output = std::process::Command::new("runuser")
            .args(["-u", &user, "--", "env"])
            .arg(format!("{}={}", SECRET.0, SECRET.1))
            .arg(root.join("judge"))
            .args(
                args.iter()
                    .map(|a| a.replace("tests/fixtures/problems/", "./")),
            )
            .current_dir(root)
            .output()
            .expect("run judge as the unprivileged user");
        crate::support::Judged {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    };
    walk_views(&judge, "walk-view.py", "view.walk");
    // What a compiler can do, as the unprivileged user.
    let judged = judge(&[
        "run",
        "tests/fixtures/problems/open-view",
        "probe.probe",
        "--format",
        "json",
    ]);
    let report = judged.report();
    let message = str_field(&report["compile"], "message");
    for line in [
        "CapEff: 0000000000000000",
        "NoNewPrivs: 1",
        "secret: absent",
        "wrote: /judge/work",
    ] {
        assert!(
            message.lines().any(|l| l.trim() == line),
            "missing `{line}` in:\n{message}"
        );
    }
    assert!(message.starts_with("uid=65534 gid=65534"), "{message}");
    for forbidden in [
        "sees:",
        "wrote: /etc",
        "wrote: /usr",
        "unmounted",
        "remounted",
    ] {
        assert!(!message.contains(forbidden), "`{forbidden}` in:\n{message}");
    }
}
