//! Processes: a forked child must not outlive the judge, and a ready
//! executable (no extension, no compiler) is judged as it is.

use std::time::{Duration, Instant};

use crate::support::{
    processes_matching, repo, str_field, submission, tests_of, u64_field, Workspace,
};

#[test]
fn forked_child_is_killed_with_the_submission() {
    let workspace = Workspace::new();
    let marker = workspace.path().to_str().expect("UTF-8 path").to_string();
    let started = Instant::now();
    let judged = workspace.judge([
        "run",
        "acwing-891",
        &submission("acwing-891/ac-fork-sleeper.c"),
        "--format",
        "json",
        "--tests",
        "sample-*",
        "edge-*",
    ]);
    let elapsed = started.elapsed();
    judged.expect_code(0);
    let report = judged.report();
    assert_eq!(report["verdict"], "AC");
    for test in tests_of(&report) {
        let wall = u64_field(test, "wall_ms");
        assert!(wall < 1000, "the run waited for the sleeping child: {test}");
    }
    assert!(
        elapsed < Duration::from_secs(10),
        "the judge took {elapsed:?}: did it wait for the sleeping child?"
    );
    // The children were sent SIGKILL before the judge returned; give the
    // kernel a moment to finish them, then none may be left.
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut left = processes_matching(&marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = processes_matching(&marker);
    }
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

#[test]
fn ready_executable_without_extension_is_run_as_is() {
    let workspace = Workspace::new();
    let executable = workspace.path().join("nim-solver");
    let built = std::process::Command::new("gcc")
        .args(["-O2", "-std=c11", "-o"])
        .arg(&executable)
        .arg(repo().join(submission("acwing-891/ac.c")))
        .status()
        .expect("run gcc");
    assert!(built.success(), "gcc failed");
    {
        use std::os::unix::fs::PermissionsExt;
        let permissions = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(&executable, permissions).expect("chmod +x");
    }
    let judged = workspace.judge([
        "run",
        "acwing-891",
        executable.to_str().expect("UTF-8 path"),
        "--format",
        "json",
        "--tests",
        "sample-*",
        "edge-*",
    ]);
    judged.expect_code(0);
    let report = judged.report();
    assert_eq!(report["language"], "executable");
    assert_eq!(report["compile"]["status"], "none");
    assert_eq!(report["verdict"], "AC");
    assert_eq!(tests_of(&report).len(), 10);
    assert!(tests_of(&report)
        .iter()
        .all(|t| str_field(t, "verdict") == "AC"));
}
