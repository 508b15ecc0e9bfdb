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
    // wait may add up to three wall limits: 10 s in all.)
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
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let report: serde_json::Value = stdout
            .lines()
            .find_map(|l| serde_json::from_str(l).ok())
            .unwrap_or_else(|| panic!("{level}: no report:\n{stdout}\n{stderr}"));
        let test = &crate::support::tests_of(&report)[0];
        let wall = test["wall_ms"].as_u64().unwrap_or(0);
        note(&format!("{level}: starved run took {wall} ms of wall time"));
        match str_field(&report, "verdict") {
            "AC" => {}
            // Starved beyond the grace too (a machine far busier than the
            // three loops): the limit was still moved, or the wait counted.
            "TLE" if wall >= 5000 => note(&format!(
                "{level}: TLE after {wall} ms, past the grace: {}",
                test["message"]
            )),
            _ => panic!("{level}: the wait counted: {report:#}\n{stderr}"),
        }
    }
}
