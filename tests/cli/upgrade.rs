//! A judge that outlives its own upgrade: its binary renamed over while it
//! runs (as `cargo install`, a package upgrade or `cargo build` in the
//! checkout do), a `judge run` ends with its verdicts and a `judge serve`
//! judges the submissions sent after it. The judge runs from a copy of the
//! built binary in a temporary folder, which the test replaces.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::serve_support::*;
use crate::support::{problem, repo, scaled, str_field, Workspace};

/// A copy of the built judge in its own temporary folder (kept alive by the
/// returned guard), as an installed binary is.
fn installed_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("judge-upgrade-")
        .tempdir()
        .expect("create a temporary directory");
    let binary = dir.path().join("judge");
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &binary).expect("copy the judge");
    (dir, binary)
}

/// Replaces `binary` as an upgrade does: a new file written beside it, then
/// renamed over it (the running judge's file is gone from the folder).
fn upgrade(binary: &Path) {
    let new = binary.with_extension("new");
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &new).expect("write the new binary");
    std::fs::rename(&new, binary).expect("rename the new binary over the old");
}

#[test]
fn a_judging_whose_binary_is_replaced_ends_with_its_verdicts() {
    let workspace = Workspace::new();
    let (_dir, binary) = installed_copy();
    let mini_nim = problem("mini-nim");
    let child = workspace
        .command_of(&binary)
        .args(["--color", "never", "-j", "2", "run", "--format", "json"])
        .arg(&mini_nim)
        .arg(format!("{mini_nim}/solutions/accepted.py"))
        .arg(format!("{mini_nim}/solutions/wa-sum.py"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the judge");
    // The judge has exec'd its file (spawn returns after the exec): it is
    // replaced before the judging starts its first sandbox, so every
    // compilation, package program and run of it starts after the upgrade.
    upgrade(&binary);
    let output = child.wait_with_output().expect("wait for the judge");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    let reports: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON report per line"))
        .collect();
    let verdicts: Vec<&str> = reports.iter().map(|r| str_field(r, "verdict")).collect();
    assert_eq!(verdicts, ["AC", "WA"], "{stdout}\n{stderr}");
    // Every test judged: the 3 samples and 3 generated tests, each.
    let tests = crate::support::tests_of(&reports[0]);
    assert_eq!(tests.len(), 6, "{stdout}");
    assert!(
        tests.iter().all(|t| str_field(t, "verdict") == "AC"),
        "{stdout}"
    );
}

#[test]
fn a_server_whose_binary_is_replaced_judges_what_is_sent_after() {
    let workspace = Workspace::new();
    let (_dir, binary) = installed_copy();
    let contest = contest_of(
        &workspace,
        "upgraded",
        "Upgrade test",
        &repo().join(problem("mini-nim")),
        &format!(
            "start = {}\nduration = \"5h\"\nlanguages = [\"python\", \"c\"]",
            toml_time(-60)
        ),
    );
    let server = Server::start_with(
        serve_command_of(workspace.command_of(&binary), &contest.dir, &[]),
        "upgraded",
    );
    // A sleeper under way while the binary is replaced.
    let sleeper = post_json(
        &server.api("/submissions"),
        Some(T1),
        &ccs_submission(
            "mini-nim",
            "python",
            "sleep.py",
            b"import time\ntime.sleep(60)\n",
        ),
    );
    assert_eq!(sleeper.status, 201, "{}", sleeper.text());
    let sleeping = sleeper.json()["id"].as_str().unwrap().to_string();
    wait_for(
        scaled(Duration::from_secs(120)),
        "the judging to start",
        || {
            let js = get(
                &server.api(&format!("/judgements?submission_id={sleeping}")),
                Some(T1),
            )
            .json();
            js.as_array().filter(|a| !a.is_empty()).map(|_| ())
        },
    );
    upgrade(&binary);
    // Sent after the upgrade: compiled and run in sandboxes started after it.
    let accepted = b"#include <stdio.h>\nint main(void) {\n    long a, b;\n    \
        if (scanf(\"%ld %ld\", &a, &b) != 2) return 1;\n    \
        puts(a != b ? \"Yes\" : \"No\");\n    return 0;\n}\n";
    let after = post_json(
        &server.api("/submissions"),
        Some(T2),
        &ccs_submission("mini-nim", "c", "after.c", accepted),
    );
    assert_eq!(after.status, 201, "{}", after.text());
    let after = after.json()["id"].as_str().unwrap().to_string();
    assert_eq!(verdict_of(&server, T2, &after), "AC", "{}", server.said());
    assert_eq!(
        verdict_of(&server, T1, &sleeping),
        "TLE",
        "{}",
        server.said()
    );
    assert!(
        !server.said().contains("could not judge"),
        "{}",
        server.said()
    );
}
