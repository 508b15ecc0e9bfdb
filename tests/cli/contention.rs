//! A TLE far over the limit decides nothing on a machine measured slower
//! than its calibration (the contention probe, its quiet time kept in the
//! cache directory): it is judged again alone, marked, and never cached.
//! The probe is made to see contention by a calibration no machine can
//! match (1 ns), so the rule is tested without loading the machine.

use serde_json::Value;

use crate::support::{isolation, Workspace};

/// A C program that never ends, judged on sample-1 at 300 ms: the report.
fn judged_spinner(ws: &Workspace) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("spin.c");
    std::fs::write(&source, "int main(void) { for (;;) { } }\n").unwrap();
    let judged = ws.judge([
        "--isolation".as_ref(),
        isolation().as_ref(),
        "run".as_ref(),
        "acwing-891".as_ref(),
        source.as_os_str(),
        "--tests".as_ref(),
        "sample-1".as_ref(),
        "--time-limit".as_ref(),
        "300ms".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
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
