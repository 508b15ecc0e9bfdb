//! Tests of the plain runner.

use super::*;
use crate::sandbox::testing::{block_on, limits, request};
use crate::sandbox::Captured;
use crate::sandbox::Limits;

/// A plan with a gate: the program execs only once a byte is written
/// to the gate, and not at all if the gate is closed instead.
#[test]
fn a_gated_child_execs_only_when_its_gate_opens() {
    let start = |gate: std::os::fd::RawFd, out: std::os::fd::RawFd| {
        let plan = sys::SpawnPlan::new(
            vec![
                c_string(b"/bin/sh").unwrap(),
                c_string(b"-c").unwrap(),
                c_string(b"echo ran").unwrap(),
            ],
            vec![],
            Path::new("/"),
            [out, out, out],
            None,
            &sys::Rlimits::default(),
            None,
            false,
        )
        .unwrap()
        .wait_for_gate(gate);
        // The spawning thread is suspended until the child execs or exits.
        let mut stack = vec![0u8; 64 << 10];
        sys::spawn(&plan, &mut stack).unwrap().unwrap()
    };
    for open in [true, false] {
        let (gate_read, gate_write) = sys::pipe().unwrap();
        let (out_read, out_write) = sys::pipe().unwrap();
        use std::os::fd::AsRawFd;
        let (gate_fd, out_fd) = (gate_read.as_raw_fd(), out_write.as_raw_fd());
        let spawner = std::thread::spawn(move || start(gate_fd, out_fd));
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !spawner.is_finished(),
            "the child went on before its gate opened"
        );
        let mut gate = std::fs::File::from(gate_write);
        if open {
            std::io::Write::write_all(&mut gate, b"g").unwrap();
        } else {
            drop(gate);
        }
        let pid = spawner.join().unwrap();
        drop((gate_read, out_write));
        let mut out = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(out_read), &mut out).unwrap();
        let reaped = sys::reap(pid as u32).unwrap();
        if open {
            assert_eq!((out.as_str(), reaped.code), ("ran\n", Some(0)));
        } else {
            assert_eq!((out.as_str(), reaped.code), ("", Some(126)));
        }
    }
}

#[test]
fn runs_start_with_default_signals_and_nothing_blocked() {
    // The test harness, like the judge, ignores SIGPIPE (Rust does at
    // start-up) and has handlers; a run must not inherit either, nor
    // the mask the spawn holds around its clone.
    let out = block_on(async {
        let _handler =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).unwrap();
        run(&request(
            "grep -E '^Sig(Ign|Blk)' /proc/self/status",
            limits(),
        ))
        .await
    })
    .unwrap();
    let text = String::from_utf8(out.stdout.to_vec().unwrap()).unwrap();
    assert_eq!(
        text, "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n",
        "{out:?}"
    );
}

#[test]
fn captures_output_and_exit_code() {
    let out = block_on(run(&request("echo hi; echo err >&2; exit 3", limits()))).unwrap();
    assert_eq!(out.exit, Exit::Code(3));
    assert_eq!(out.stdout.to_vec().unwrap(), b"hi\n");
    assert_eq!(out.stderr, b"err\n");
    assert_eq!(out.limit_hit, None);
}

/// What a pinned thread starts itself (a compiler, a checker, a
/// generator) gets the CPUs the thread had before the pin.
#[test]
fn a_pinned_threads_own_children_get_its_former_cpus() {
    std::thread::spawn(|| {
        let allowed = sys::CpuSet::of_this_thread().unwrap().cpus();
        let _pin = sys::pin_this_thread(allowed[0]).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut limits = limits();
        limits.memory = None;
        let outcome = runtime
            .block_on(run(&request(
                "grep '^Cpus_allowed_list' /proc/self/status",
                limits,
            )))
            .unwrap();
        let text = String::from_utf8(outcome.stdout.to_vec().unwrap()).unwrap();
        let expected = sys::CpuSet::of_this_thread().unwrap();
        assert_eq!(expected.cpus(), vec![allowed[0]], "the thread is pinned");
        let listed = text.split_whitespace().nth(1).unwrap_or_default();
        let count: usize = listed
            .split(',')
            .map(|range| match range.split_once('-') {
                Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                None => 1,
            })
            .sum();
        assert_eq!(count, allowed.len(), "the child's CPUs: {text}");
    })
    .join()
    .unwrap();
}

#[test]
fn wall_limit_kills_a_sleeper_and_its_group() {
    let mut l = limits();
    l.wall_time = Duration::from_millis(300);
    let started = Instant::now();
    let out = block_on(run(&request("sleep 30 & sleep 30", l))).unwrap();
    assert_eq!(out.limit_hit, Some(LimitHit::WallTime));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn cpu_limit_kills_a_busy_loop() {
    let mut l = limits();
    l.cpu_time = Duration::from_millis(200);
    l.wall_time = Duration::from_secs(10);
    let out = block_on(run(&request("while :; do :; done", l))).unwrap();
    assert_eq!(out.limit_hit, Some(LimitHit::CpuTime));
    assert!(out.cpu_time >= Duration::from_millis(200));
}

#[test]
fn output_limit_stops_a_flood() {
    let mut l = limits();
    l.stdout = 1000;
    let out = block_on(run(&request("yes", l))).unwrap();
    assert_eq!(out.limit_hit, Some(LimitHit::Output));
    assert_eq!(out.stdout.len(), 1000);
}

#[test]
fn large_output_spills_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = request("head -c 3000000 /dev/zero", limits());
    r.limits.stdout = 10 << 20;
    r.stdout_spill = Some(dir.path().join("out"));
    let out = block_on(run(&r)).unwrap();
    assert!(matches!(out.stdout, Captured::File { len: 3_000_000, .. }));
    assert_eq!(
        std::fs::metadata(dir.path().join("out")).unwrap().len(),
        3_000_000
    );
}

#[test]
fn missing_program_is_a_spawn_error() {
    // With a memory limit the child has its own memory (the error comes
    // through a pipe); without, it shares the judge's (through memory).
    for memory in [Some(256 << 20), None] {
        let mut r = request("", Limits { memory, ..limits() });
        r.argv = vec!["/nonexistent/program".into()];
        let err = block_on(run(&r)).unwrap_err();
        match err {
            RunError::Spawn { source, .. } => {
                assert_eq!(source.kind(), io::ErrorKind::NotFound, "{memory:?}")
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn peak_memory_does_not_start_at_the_judges_peak() {
    // With a memory limit the run gets a copy of the judge's memory, not
    // a share of it: exec would otherwise record the judge's whole peak
    // (file-backed pages included) as the program's. What remains is the
    // judge's anonymous memory copied at the clone (documented).
    let own_peak_kib = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap();
    let out = block_on(run(&request("exit 0", limits()))).unwrap();
    eprintln!("own {own_peak_kib} run {}", out.peak_memory_kib);
    assert!(
        out.peak_memory_kib < own_peak_kib,
        "{own_peak_kib} KiB: {out:?}"
    );
}
