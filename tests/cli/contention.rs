//! A TLE far over the limit decides nothing on a machine measured slower
//! than its calibration (the contention probe, its quiet time kept in the
//! cache directory): it is judged again alone, marked, and never cached.
//! The probe is made to see contention by a calibration no machine can
//! match (1 ns), so the rule is tested without loading the machine.

use serde_json::Value;

use crate::support::{isolation, Workspace};

/// The C program `source`, judged on sample-1 at 300 ms.
fn judged_c(ws: &Workspace, source: &str) -> crate::support::Judged {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("prog.c");
    std::fs::write(&path, source).unwrap();
    ws.judge([
        "--isolation".as_ref(),
        isolation().as_ref(),
        "run".as_ref(),
        "acwing-891".as_ref(),
        path.as_os_str(),
        "--tests".as_ref(),
        "sample-1".as_ref(),
        "--time-limit".as_ref(),
        "300ms".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
    ])
}

/// A C program that never ends, judged on sample-1 at 300 ms: the report.
fn judged_spinner(ws: &Workspace) -> Value {
    let judged = judged_c(ws, "int main(void) { for (;;) { } }\n");
    judged.expect_code(1);
    let report = judged.report();
    report["tests"][0].clone()
}

#[test]
fn a_tle_on_a_contended_machine_is_judged_again_alone_marked_and_never_cached() {
    // As calibrated (the first probe calibrates): judged once, cached.
    let quiet = Workspace::new();
    let first = judged_spinner(&quiet);
    assert_eq!(first["verdict"], "TLE", "{first:#}");
    assert_eq!(first["cached"], false, "{first:#}");
    assert!(first.get("contended").is_none(), "{first:#}");
    assert!(
        first["runs"].as_array().is_none_or(|r| r.len() <= 1),
        "{first:#}"
    );
    let again = judged_spinner(&quiet);
    assert_eq!(again["cached"], true, "{again:#}");
    assert!(
        quiet.path().join("cache/contention-probe").is_file(),
        "the probe keeps its calibration in the cache directory"
    );

    // Contended: every run of the three, marked with the slowdown, and
    // judged afresh the next time.
    let busy = Workspace::new();
    std::fs::create_dir_all(busy.path().join("cache")).unwrap();
    std::fs::write(busy.path().join("cache/contention-probe"), "1").unwrap();
    for _ in 0..2 {
        let test = judged_spinner(&busy);
        assert_eq!(test["verdict"], "TLE", "{test:#}");
        assert_eq!(test["cached"], false, "{test:#}");
        assert_eq!(test["contended"], true, "{test:#}");
        assert!(test["slowdown"].as_f64().unwrap() > 1.15, "{test:#}");
        assert_eq!(test["runs"].as_array().unwrap().len(), 3, "{test:#}");
        let message = test["message"].as_str().unwrap();
        assert!(message.contains("contended"), "{message}");
    }
}

/// A C program that spends `ms` of CPU time, judged on sample-1 at 300 ms.
fn judged_burner(ws: &Workspace, ms: u32) -> crate::support::Judged {
    judged_c(
        ws,
        &format!(
            "#include <time.h>\nint main(void) {{ while (clock() < (clock_t)CLOCKS_PER_SEC / 1000 * {ms}) {{ }} return 0; }}\n"
        ),
    )
}

/// A TLE that the machine's slowdown could explain (500 ms against 300 ms
/// on a machine measured at least 3 x slower) is judged again alone,
/// marked contended with a message that says so, and never cached. On a
/// machine as fast as its calibration it is TLE, unmarked.
#[test]
fn a_tle_the_slowdown_could_explain_is_marked_so_and_never_cached() {
    let busy = Workspace::new();
    std::fs::create_dir_all(busy.path().join("cache")).unwrap();
    std::fs::write(busy.path().join("cache/contention-probe"), "1").unwrap();
    for _ in 0..2 {
        let judged = judged_burner(&busy, 500);
        judged.expect_code(1);
        let test = &judged.report()["tests"][0];
        assert_eq!(test["verdict"], "TLE", "{test:#}");
        assert_eq!(test["contended"], true, "{test:#}");
        assert_eq!(test["cached"], false, "{test:#}");
        let message = test["message"].as_str().unwrap();
        assert!(message.contains("enough to explain this TLE"), "{message}");
        // Its runs alone went past the first run's limit (375 ms) to its
        // end: the most CPU time of all-TLE runs decides.
        assert!(test["time_ms"].as_u64().unwrap() >= 450, "{test:#}");
    }

    let quiet = Workspace::new();
    let judged = judged_burner(&quiet, 500);
    judged.expect_code(1);
    let test = &judged.report()["tests"][0];
    assert_eq!(test["verdict"], "TLE", "{test:#}");
    assert!(test.get("contended").is_none(), "{test:#}");
}

/// The niceness a process started by this one starts with (`nice` prints
/// its own), plus `added`.
fn niceness_of_a_child(added: i32) -> i32 {
    let out = std::process::Command::new("nice")
        .args(["-n", &added.to_string(), "nice"])
        .output()
        .expect("run coreutils' nice");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("nice prints a number")
}

/// A submission's run, timed for a verdict, runs at niceness -10 where the
/// judge may raise it (root), so that the machine's other processes preempt
/// it less; at the judge's own where it may not, or where whoever started
/// the judge niced it (it was asked to yield). At the strongest level and
/// at `none` (where spawners start runs, and the judge itself the first).
#[test]
fn a_timed_run_is_raised_in_priority_unless_the_judge_was_niced() {
    let program = |expect: i32| {
        format!(
            "#include <stdio.h>\n#include <sys/resource.h>\nint main(void) {{ int n = getpriority(PRIO_PROCESS, 0); if (n == {expect}) puts(\"Yes\"); else printf(\"niceness %d\\n\", n); return 0; }}\n"
        )
    };
    let own = niceness_of_a_child(0);
    let raised = match crate::support::is_root() && own <= 0 {
        true => own.min(-10),
        false => own,
    };
    let niced = niceness_of_a_child(5);
    let ws = Workspace::new();
    let dir = tempfile::tempdir().unwrap();
    for level in [isolation(), "none"] {
        for (nice, expect) in [(None, raised), (Some(5), niced)] {
            let path = dir.path().join(format!("nice{expect}.c"));
            std::fs::write(&path, program(expect)).unwrap();
            let mut command = std::process::Command::new("nice");
            command
                .args(["-n", &nice.unwrap_or(0).to_string()])
                .arg(env!("CARGO_BIN_EXE_judge"))
                .arg("--config")
                .arg(ws.config_path())
                .args(["--color", "never", "--no-cache", "--isolation", level])
                .args(["run", "acwing-891"])
                .arg(&path)
                .args(["--tests", "sample-1", "--format", "json"])
                .current_dir(crate::support::repo());
            // Twice: the first run of a level may be started before its
            // spawners or keepers are ready, by another path.
            for _ in 0..2 {
                let output = command.output().expect("run the judge");
                let stdout = String::from_utf8_lossy(&output.stdout);
                assert!(
                    stdout.contains("\"verdict\":\"AC\""),
                    "{level}, judge niced by {nice:?}: expected niceness {expect}\n{stdout}\n{}",
                    String::from_utf8_lossy(&output.stderr)
                );
            }
        }
    }
}
