//! A run that waits for a CPU the machine does not give it is not the
//! program's fault: its wall limit does not count that wait.

use std::process::{Child, Command, Stdio};

use crate::support::{is_root, isolation, note, repo, str_field, Workspace};

/// Busy loops pinned to `cpu`, killed when dropped.
struct Hogs(Vec<Child>);

impl Hogs {
    fn on(cpu: usize, count: usize) -> Hogs {
        Hogs(
            (0..count)
                .map(|_| {
                    Command::new("taskset")
                        .args(["-c", &cpu.to_string(), "sh", "-c", "while :; do :; done"])
                        .stdout(Stdio::null())
                        .spawn()
                        .expect("start a busy loop with taskset")
                })
                .collect(),
        )
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The last CPU this process may run on.
fn a_cpu() -> usize {
    let list = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:").map(str::to_string))
        })
        .unwrap_or_default();
    list.trim()
        .rsplit([',', '-'])
        .next()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// The JSON report of a judge run at `level`, or a panic with its output.
fn report_of(level: &str, output: &std::process::Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| {
            let stderr = String::from_utf8_lossy(&output.stderr);
            panic!("{level}: no report:\n{stdout}\n{stderr}")
        })
}

#[test]
fn waiting_for_a_cpu_does_not_count_against_the_wall_limit() {
    if Command::new("taskset").arg("-V").output().is_err() {
        note("skipped: no taskset (util-linux)");
        return;
    }
    let _heavy = crate::support::cpu_heavy();
    // Wall limit 2.5 s (time 1 s x 2.5). The program needs 150 ms of CPU;
    // at nice 10 beside three busy loops on its one CPU it gets under 4% of
    // it, so it takes over 4 s of wall time: TLE if the wait counted. (The
    // wait may add up to nine wall limits: 25 s in all; a run starved past
    // that is no verdict but "the machine is overloaded", exit code 4.)
    let workspace = Workspace::with_limits("wall_factor = 2.5\n");
    let program = repo().join("tests/fixtures/starved/ac-spin-150ms.c");
    let program = program.to_str().unwrap();
    let levels: &[&str] = if is_root() {
        &[isolation(), "none"]
    } else {
        &["auto", "none"]
    };
    for level in levels {
        // Built (and the keepers started) before the CPU is taken.
        workspace
            .judge([
                "--isolation",
                level,
                "run",
                "acwing-891",
                program,
                "--tests",
                "sample-1",
            ])
            .expect_code(0);
        let cpu = a_cpu();
        let _hogs = Hogs::on(cpu, 3);
        std::thread::sleep(std::time::Duration::from_millis(200));
        let output = Command::new("taskset")
            .args(["-c", &cpu.to_string(), "nice", "-n", "10"])
            .arg(env!("CARGO_BIN_EXE_judge"))
            .arg("--config")
            .arg(workspace.config_path())
            .args(["--color", "never", "--no-cache", "--isolation", level])
            .args([
                "run",
                "acwing-891",
                program,
                "--tests",
                "sample-1",
                "--format",
                "json",
            ])
            .current_dir(repo())
            .output()
            .expect("run judge under taskset and nice");
        let stderr = String::from_utf8_lossy(&output.stderr);
        if output.status.code() == Some(4) {
            assert!(
                stderr.contains("the machine is overloaded"),
                "{level}: {stderr}"
            );
            note(&format!("{level}: starved past the bound: {stderr}"));
            continue;
        }
        let report = report_of(level, &output);
        let test = &crate::support::tests_of(&report)[0];
        let wall = test["wall_ms"].as_u64().unwrap_or(0);
        note(&format!("{level}: starved run took {wall} ms of wall time"));
        // Waiting for a CPU never makes a TLE, however long (issue 37).
        assert_eq!(
            str_field(&report, "verdict"),
            "AC",
            "{level}: the wait counted: {report:#}\n{stderr}"
        );
    }
}

/// The grace is for a machine that keeps a run from a CPU, not for a run
/// whose own processes do: where a run's CPU time is its leader's (no
/// cgroup: the `namespaces` level, as an unprivileged user, and `none`), a
/// leader that its spinning children starve is stopped at the wall limit
/// (it got up to three more before: a fork bomb took 100 s at the
/// namespaces level in the VM). With a cgroup the children's CPU time
/// counts, and the CPU limit stops it.
#[test]
fn a_run_kept_from_a_cpu_by_its_own_processes_gets_no_grace() {
    if Command::new("taskset").arg("-V").output().is_err() {
        note("skipped: no taskset (util-linux)");
        return;
    }
    let _heavy = crate::support::cpu_heavy();
    // A copy the unprivileged user may read, with a wall limit of twice the
    // CPU limit: the leader, one of four spinners on one CPU, would take
    // four times the CPU limit to reach it.
    let dir = tempfile::Builder::new()
        .prefix("judge-starved-")
        .tempdir()
        .unwrap();
    let root = dir.path();
    crate::support::copy_dir(
        &repo().join("tests/fixtures/problems/mini-nim"),
        &root.join("mini-nim"),
    );
    std::fs::copy(
        repo().join("tests/fixtures/starved/spins-in-children.c"),
        root.join("spins.c"),
    )
    .unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), root.join("judge")).unwrap();
    let mut config: toml::Table = crate::support::default_judge_toml().parse().unwrap();
    let limits = config
        .entry("limits")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(t) = limits {
        t.insert("wall_factor".into(), toml::Value::Float(2.0));
    }
    std::fs::write(root.join("judge.toml"), toml::to_string(&config).unwrap()).unwrap();
    let user = if is_root() {
        std::env::var("JUDGE_TEST_UNPRIVILEGED_USER").ok()
    } else {
        None
    };
    crate::support::hand_over(root, user.as_deref());
    let cpu = a_cpu().to_string();
    // The user's run first: the cache it makes stays the user's.
    let mut runs: Vec<(&str, Vec<&str>)> = Vec::new();
    match &user {
        Some(user) => runs.push(("auto", vec!["runuser", "-u", user, "--"])),
        None if !is_root() => runs.push(("auto", vec![])),
        None => note("the namespaces level untried: JUDGE_TEST_UNPRIVILEGED_USER is not set"),
    }
    runs.push(("none", Vec::new()));
    for (level, prefix) in runs {
        let mut command = match prefix.split_first() {
            Some((program, args)) => {
                let mut c = Command::new(program);
                c.args(args).arg("taskset");
                c
            }
            None => Command::new("taskset"),
        };
        let output = command
            .args(["-c", &cpu, "./judge", "--color", "never", "--no-cache"])
            .args([
                "--isolation",
                level,
                "-j",
                "1",
                "run",
                "./mini-nim",
                "spins.c",
            ])
            .args([
                "--tests",
                "sample-2",
                "--time-limit",
                "1s",
                "--format",
                "json",
            ])
            .current_dir(root)
            .output()
            .expect("run judge under taskset");
        let report = report_of(level, &output);
        let isolation = str_field(&report, "isolation");
        let test = &crate::support::tests_of(&report)[0];
        let message = str_field(test, "message");
        note(&format!("{level} ({isolation}): {message}"));
        assert_eq!(str_field(&report, "verdict"), "TLE", "{level}: {report:#}");
        let (expected, limit) = match isolation.starts_with("cgroup-") {
            true => ("CPU time", "CPU"),
            false => ("wall time exceeds", "wall"),
        };
        assert!(
            message.starts_with(expected) && !message.contains("waited"),
            "{level} ({isolation}): not stopped by the {limit} limit without a grace: {message}"
        );
    }
}
