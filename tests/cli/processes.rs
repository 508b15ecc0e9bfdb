//! Processes: a forked child must not outlive the judge, and a ready
//! executable (no extension, no compiler) is judged as it is.

use std::time::{Duration, Instant};

use crate::support::{
    processes_matching, repo, str_field, submission, tests_of, u64_field, Judged, Workspace,
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
    assert_nothing_left(&marker);
}

/// No process whose command line holds `marker` is left. They were sent
/// SIGKILL before the judge returned; the kernel gets a moment to finish them.
fn assert_nothing_left(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut left = processes_matching(marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = processes_matching(marker);
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

/// At `--isolation none` the runs are the judge's children but are started by
/// a small spawner process: a run's peak memory (ru_maxrss, which starts at
/// the footprint of the process it was started from) must not include the
/// judge's. The program prints its parent's (the judge's) own peak.
#[test]
fn peak_memory_without_isolation_excludes_the_judges_footprint() {
    let workspace = Workspace::new();
    let judged = run_c_on_one_input(
        &workspace,
        "parent-peak.c",
        r#"#define _DEFAULT_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)getppid());
  FILE *f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) { long kib = 0; sscanf(line + 6, "%ld", &kib); printf("%ld\n", kib); }
  return 0;
}
"#,
        &["--isolation", "none"],
    );
    let report = judged.report();
    let test = &tests_of(&report)[0];
    let judge_peak: u64 = str_field(test, "output")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("the program printed the judge's peak: {judged:#?}"));
    let run_peak = u64_field(test, "memory_kib");
    assert!(
        run_peak < judge_peak,
        "the run's peak {run_peak} KiB includes the judge's {judge_peak} KiB: {report}"
    );
}

/// Writes the C program `text` as `name` in the workspace and judges it with
/// `ARGS run acwing-891 FILE --input ONE --format json` on a one-line input.
fn run_c_on_one_input(workspace: &Workspace, name: &str, text: &str, args: &[&str]) -> Judged {
    let source = workspace.path().join(name);
    std::fs::write(&source, text).expect("write the program");
    let input = workspace.path().join("one.txt");
    std::fs::write(&input, "1\n1\n").expect("write the input");
    let mut all = args.to_vec();
    all.extend([
        "run",
        "acwing-891",
        source.to_str().expect("UTF-8 path"),
        "--input",
        input.to_str().expect("UTF-8 path"),
        "--format",
        "json",
    ]);
    workspace.judge(all)
}

/// `judge run acwing-891 FILE` at `--isolation none` with `-j 1`, as JSON.
fn judge_one_job_unsandboxed(workspace: &Workspace, file: &str) -> Judged {
    workspace.judge([
        "--isolation",
        "none",
        "-j",
        "1",
        "run",
        "acwing-891",
        file,
        "--format",
        "json",
    ])
}

/// At `--isolation none` a run can signal its siblings: one that kills the
/// judge's spawner on every test must not stop the next tests from being
/// judged (a new spawner starts), and nothing may be left behind.
#[test]
fn a_run_that_kills_the_spawner_does_not_stop_judging() {
    let workspace = Workspace::new();
    let marker = workspace.path().to_str().expect("UTF-8 path").to_string();
    let judged = judge_one_job_unsandboxed(&workspace, "tests/fixtures/hostile/kills-spawner.c");
    judged.expect_code(0);
    let report = judged.report();
    assert_eq!(report["verdict"], "AC", "{report}");
    assert!(tests_of(&report).len() > 5, "{report}");
    assert_nothing_left(&marker);
}

/// `-j 1` runs one program at a time, though the judge checks a test's output
/// while the next test's program already runs: each run holds a lock file in
/// the shared /tmp (`--isolation none`) while it lives, and would answer
/// wrongly if another run held it.
#[test]
fn one_job_means_one_program_at_a_time() {
    let workspace = Workspace::new();
    let lock = "/tmp/judge-test-one-at-a-time.lock";
    let _ = std::fs::remove_file(lock);
    let source = workspace.path().join("exclusive.c");
    std::fs::write(
        &source,
        format!(
            r#"#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {{
  int fd = open("{lock}", O_CREAT | O_EXCL | O_WRONLY, 0600);
  int n, x = 0, a;
  if (scanf("%d", &n) != 1) return 1;
  for (int i = 0; i < n; i++) {{ if (scanf("%d", &a) != 1) return 1; x ^= a; }}
  usleep(20000);
  puts(fd < 0 ? "overlap" : x ? "Yes" : "No");
  if (fd >= 0) unlink("{lock}");
  return 0;
}}
"#
        ),
    )
    .expect("write the program");
    let judged = judge_one_job_unsandboxed(&workspace, source.to_str().expect("UTF-8 path"));
    let report = judged.report();
    assert_eq!(report["verdict"], "AC", "two runs overlapped: {report}");
    assert!(tests_of(&report).len() > 5, "{report}");
}

/// A program the kernel cannot execute is reported as such, not as a crash
/// with exit code 127, also when a spawner started it (its exec error comes
/// back on the report pipe after the child exits).
#[test]
fn an_exec_failure_is_reported_as_one_at_every_level() {
    let workspace = Workspace::new();
    let program = workspace.path().join("not-a-program");
    std::fs::write(&program, "this is text, not ELF\n").expect("write the file");
    {
        use std::os::unix::fs::PermissionsExt;
        let permissions = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(&program, permissions).expect("chmod +x");
    }
    for isolation in ["none", "auto"] {
        let judged = workspace.judge([
            "--isolation",
            isolation,
            "run",
            "acwing-891",
            program.to_str().expect("UTF-8 path"),
            "--format",
            "json",
            "--tests",
            "sample-*",
        ]);
        let report = judged.report();
        let test = &tests_of(&report)[0];
        assert_eq!(test["verdict"], "RE", "{isolation}: {report}");
        assert!(
            str_field(test, "message").contains("cannot start the program"),
            "{isolation}: {report}"
        );
    }
}

/// With one job a judging keeps to one CPU (`--cpu N`, or `auto`: one no
/// other judge has claimed): its submissions see that one CPU, at the
/// rlimit-only level and at the default one; with `--cpu off` or two jobs
/// they see every CPU the judge has. Explicit CPUs here, since other tests
/// run one-job judges meanwhile and may hold the claims.
#[test]
fn one_job_runs_submissions_on_one_cpu() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cpus < 2 {
        crate::support::note("skipped: one CPU, nothing to keep to");
        return;
    }
    let workspace = Workspace::new();
    let program = r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
int main(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  printf("%d\n", CPU_COUNT(&set));
  return 0;
}
"#;
    let seen = |args: &[&str]| -> String {
        let judged = run_c_on_one_input(&workspace, "cpus.c", program, args);
        let report = judged.report();
        str_field(&tests_of(&report)[0], "output")
            .trim()
            .to_string()
    };
    let every = cpus.to_string();
    for isolation in ["none", "auto"] {
        let last = (cpus - 1).to_string();
        let pinned = ["--isolation", isolation, "-j", "1", "--cpu", &last];
        assert_eq!(seen(&pinned), "1", "{isolation}, --cpu {last}");
        let off = ["--isolation", isolation, "-j", "1", "--cpu", "off"];
        assert_eq!(seen(&off), every, "{isolation}, --cpu off");
        let two = ["--isolation", isolation, "-j", "2", "--cpu", &last];
        assert_eq!(seen(&two), every, "{isolation}, -j 2");
    }
    let judged = workspace.judge([
        "-j",
        "1",
        "--cpu",
        "4095",
        "run",
        "acwing-891",
        workspace
            .path()
            .join("cpus.c")
            .to_str()
            .expect("UTF-8 path"),
    ]);
    judged.expect_code(2);
    assert!(judged.stderr.contains("cpu 4095"), "{judged:#?}");
}
