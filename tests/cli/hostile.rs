//! Hostile submissions (tests/fixtures/hostile): each must be contained,
//! measured, and leave nothing behind. Runs at full isolation (`--isolation
//! strict`) when the tests run as root, as on CI; as an ordinary user at the
//! best level available. With `JUDGE_TEST_UNPRIVILEGED_USER` set (as .ci/run
//! does), the containment suite also runs as that unprivileged user.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{
    assert_none_named, is_root, isolation, judging_sleepers, named, processes_matching, repo,
    str_field, tests_of, u64_field, HostSockets, Workspace,
};

fn hostile(name: &str) -> String {
    format!("tests/fixtures/hostile/{name}")
}

/// Directories a judge with process id `pid` leaves behind: its temp dirs
/// in /tmp and its cgroups.
fn leftovers_of(pid: u32) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for prefix in [format!("judge-sandbox-{pid}-"), format!("judge-run-{pid}-")] {
        for entry in std::fs::read_dir("/tmp").expect("read /tmp").flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                found.push(entry.path());
            }
        }
    }
    let name = format!("judge-{pid}");
    for entry in walkdir::WalkDir::new("/sys/fs/cgroup")
        .max_depth(5)
        .into_iter()
        .flatten()
    {
        if entry.file_type().is_dir() && entry.file_name().to_string_lossy() == name {
            found.push(entry.path().to_path_buf());
        }
    }
    found
}

/// `--tests` for the thousand-run tests: all thousand, or under emulation
/// (the VM, where a run costs tens of times more) the 112 named `t-1*`,
/// every tenth of them still a hanging one.
fn many_tests() -> Vec<&'static str> {
    match crate::support::slowdown() {
        1 => Vec::new(),
        _ => vec!["--tests", "t-1*"],
    }
}

/// How many tests [`many_tests`] selects.
fn many_count() -> usize {
    match crate::support::slowdown() {
        1 => 1000,
        _ => 112,
    }
}

/// The verdicts (and first messages) of a multi-file JSON run, by file name.
fn verdicts(reports: &[Value]) -> Vec<(String, String, String)> {
    reports
        .iter()
        .map(|r| {
            let file = str_field(r, "submission")
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string();
            let message = tests_of(r)
                .first()
                .map(|t| str_field(t, "message").to_string())
                .unwrap_or_default();
            (file, str_field(r, "verdict").to_string(), message)
        })
        .collect()
}

#[test]
fn hostile_submissions_are_contained() {
    let _heavy = crate::support::cpu_heavy();
    let _names = crate::support::named_processes();
    // A listener the network fixture must not reach, and the host's sockets
    // the sockets fixture must not reach, both named for this run (the
    // fixtures' copies in the workspace are aimed at them).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let port = listener.local_addr().unwrap().port();
    let sockets = HostSockets::bind();
    let workspace = Workspace::new();
    let aimed = workspace.path().join("aimed");
    std::fs::create_dir(&aimed).unwrap();
    let network = std::fs::read_to_string(repo().join(hostile("network.c"))).unwrap();
    std::fs::write(
        aimed.join("network.c"),
        network.replace("47111", &port.to_string()),
    )
    .unwrap();
    sockets.fixture(&aimed.join("host-sockets.c"));
    let files = [
        "fork-bomb.c",
        "memory-bomb.c",
        "daemon.c",
        "network.c",
        "filesystem.c",
        "sigpipe.c",
        "peek-builds.c",
        "host-sockets.c",
    ];
    // A build the peeking fixture must not find (it is in the same cache).
    let mut args = vec![
        "--isolation".to_string(),
        isolation().to_string(),
        "run".into(),
        "acwing-891".into(),
        "problems/acwing-891/solutions/accepted.cpp".into(),
    ];
    args.extend(files.iter().map(|f| match *f {
        "network.c" | "host-sockets.c" => aimed.join(f).display().to_string(),
        _ => hostile(f),
    }));
    args.extend(["--tests", "sample-1", "--format", "json"].map(String::from));
    let started = Instant::now();
    let judged = workspace.judge(&args);
    let elapsed = started.elapsed();
    drop(listener);
    let mut reports = judged.reports();
    assert_eq!(reports.len(), files.len() + 1, "{judged:#?}");
    assert_eq!(reports.remove(0)["verdict"], "AC", "{judged:#?}");
    let got = verdicts(&reports);
    let level = str_field(&reports[0], "isolation");
    if is_root() {
        assert!(
            level.starts_with("cgroup-"),
            "root must get full isolation, got {level}"
        );
    }
    let expect = |file: &str, allowed: &[&str]| {
        let (_, verdict, message) = got.iter().find(|(f, _, _)| f == file).expect("reported");
        assert!(
            allowed.contains(&verdict.as_str()),
            "{file}: {verdict} ({message}); all: {got:#?}"
        );
    };
    if level.starts_with("cgroup-") {
        // The pids cgroup says a fork was refused: RE for that reason, even
        // when the OOM killer or the CPU limit ended the run first.
        expect("fork-bomb.c", &["RE"]);
        let (_, _, message) = got
            .iter()
            .find(|(f, _, _)| f == "fork-bomb.c")
            .expect("reported");
        assert!(message.contains("processes"), "{message}");
    } else {
        expect("fork-bomb.c", &["RE", "TLE"]);
    }
    expect("memory-bomb.c", &["MLE"]);
    expect("daemon.c", &["AC"]);
    expect("network.c", &["AC"]);
    expect("filesystem.c", &["AC"]);
    expect("sigpipe.c", &["RE"]);
    expect("peek-builds.c", &["AC"]);
    expect("host-sockets.c", &["AC"]);
    let memory = &reports[1];
    assert!(
        u64_field(&tests_of(memory)[0], "memory_kib") >= 60 * 1024,
        "peak reported: {memory}"
    );
    let sigpipe = &reports[5];
    assert!(
        str_field(&tests_of(sigpipe)[0], "message").contains("SIGPIPE"),
        "{sigpipe}"
    );
    // Seconds here; under emulation (the VM) the compilations alone take
    // minutes (C++'s precompiled header is built first), so there the bound
    // only catches a hang.
    let bound = match crate::support::slowdown() {
        1 => Duration::from_secs(30),
        _ => crate::support::scaled(Duration::from_secs(120)),
    };
    assert!(elapsed < bound, "the judge took {elapsed:?}");
    assert_none_named("forkbomb4711");
    assert_none_named("daemon4711");
    for path in [
        "/judge-pwned-4711",
        "/etc/judge-pwned-4711",
        "/var/tmp/judge-pwned-4711",
        "/usr/judge-pwned-4711",
        "/tmp/judge-private-4711",
        "/dev/shm/judge-private-4711",
    ] {
        assert!(!Path::new(path).exists(), "{path} was created on the host");
    }
}

#[test]
fn network_fixture_does_detect_a_reachable_listener() {
    // Without isolation the same program reaches the listener: the
    // containment test above is not passing by accident.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let workspace = Workspace::new();
    let source = workspace.path().join("network-47112.c");
    let text = std::fs::read_to_string(repo().join(hostile("network.c"))).unwrap();
    std::fs::write(&source, text.replace("47111", &port.to_string())).unwrap();
    let judged = workspace.judge([
        "--isolation",
        "none",
        "run",
        "acwing-891",
        source.to_str().unwrap(),
        "--tests",
        "sample-1",
        "--format",
        "json",
    ]);
    assert_eq!(judged.report()["verdict"], "WA", "{judged:#?}");
}

/// A run leaves every kind of state a slot could keep (System V IPC, POSIX
/// message queues and shared memory, files in /tmp, a copy of its input, a
/// deep tree of unreadable directories, a key in its uid's keyring); the
/// next run in the same slot (one job) finds none of it, and is charged for
/// none of it: its memory and CPU time are its own.
#[test]
fn a_slot_keeps_nothing_from_one_run_to_the_next() {
    let _names = crate::support::named_processes();
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "--isolation",
        isolation(),
        "run",
        "acwing-891",
        &hostile("leave-state.c"),
        &hostile("find-state.c"),
        &hostile("leave-state.c"),
        &hostile("find-state.c"),
        &hostile("leave-key.c"),
        &hostile("find-key.c"),
        &hostile("fork-bomb.c"),
        &hostile("memory-bomb.c"),
        "--tests",
        "sample-1",
        "-j",
        "1",
        "--format",
        "json",
    ]);
    let mut reports = judged.reports();
    assert_eq!(reports.len(), 8, "{judged:#?}");
    // After a fork bomb (whose kernel memory the kernel frees a little
    // later), a memory bomb still gets its whole limit (64 MiB).
    let memory = reports.pop().unwrap();
    if str_field(&memory, "isolation").starts_with("cgroup-") {
        let peak = u64_field(&tests_of(&memory)[0], "memory_kib");
        assert!(
            peak >= 62 * 1024,
            "the memory bomb had {peak} KiB: {memory}"
        );
    }
    reports.pop();
    for (i, report) in reports.iter().enumerate() {
        let test = &tests_of(report)[0];
        assert_eq!(report["verdict"], "AC", "run {i}: {test}");
        if i >= 4 {
            continue; // the keyring pair: its verdict says it all
        }
        if i % 2 == 1 {
            // The leaver's 40 MiB of shared memory, 2000 directories and
            // files are not the finder's.
            assert!(u64_field(test, "memory_kib") < 8 * 1024, "{test}");
            let limit = crate::support::scaled(Duration::from_millis(100)).as_millis();
            assert!(u128::from(u64_field(test, "time_ms")) < limit, "{test}");
        } else {
            assert!(u64_field(test, "memory_kib") >= 40 * 1024, "{test}");
        }
    }
}

#[test]
fn compilation_is_limited_too() {
    let workspace = Workspace::with_limits("compile_time = \"3s\"\n");
    let started = Instant::now();
    let judged = workspace.judge([
        "--isolation",
        isolation(),
        "run",
        "acwing-891",
        &hostile("compile-dev-random.cpp"),
        &hostile("compile-template-bomb.cpp"),
        "--tests",
        "sample-1",
        "--format",
        "json",
    ]);
    let elapsed = started.elapsed();
    for report in judged.reports() {
        assert_eq!(report["verdict"], "CE", "{report}");
        let message = report["compile"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("compilation exceeded the compile time limit of 3s"),
            "{message}"
        );
    }
    assert!(
        elapsed < crate::support::scaled(Duration::from_secs(20)),
        "compiles took {elapsed:?}"
    );
}

/// A compiler driver that runs its work in a child, as g++ does.
const DRIVER_LANGUAGE: &str = "[languages.driver]\nextensions = [\"drv\"]\n\
     compile = \"sh {src}\"\nrun = \"{exe}\"\nversion = \"sh -c true\"\n";

#[test]
fn a_compiler_child_stopped_by_its_cpu_rlimit_exceeded_the_compile_time_limit() {
    // The child's rlimit fires first, whichever the machine's load: the
    // message names the judge's limit, not the driver's "internal compiler
    // error" (issue 43).
    let workspace = Workspace::with_config("compile_time = \"2s\"\n", DRIVER_LANGUAGE);
    let judged = workspace.judge([
        "--isolation",
        isolation(),
        "run",
        "acwing-891",
        &hostile("compile-child-rlimit.drv"),
        "--tests",
        "sample-1",
        "--format",
        "json",
    ]);
    let report = judged.report();
    assert_eq!(report["verdict"], "CE", "{report}");
    let message = report["compile"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("compilation exceeded the compile time limit of 2s"),
        "{message}"
    );
}

#[test]
fn sigterm_kills_everything_and_exits_130() {
    let _names = crate::support::named_processes();
    let workspace = Workspace::new();
    let mut child = judging_sleepers(&workspace, std::process::Stdio::piped());
    let pid = child.id();
    // The sleepers run (or the judge ended first: say why): interrupt.
    if named("sleeper4711").is_empty() && child.try_wait().unwrap().is_some() {
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        panic!("the judge ended before the sleepers started: {stderr}");
    }
    assert!(
        !named("sleeper4711").is_empty(),
        "the sleepers never started"
    );
    std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    let stopped = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            stopped.elapsed() < crate::support::scaled(Duration::from_secs(10)),
            "the judge ignored SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    assert_none_named("sleeper4711");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(leftovers_of(pid), Vec::<PathBuf>::new());
    let cache_tmp = workspace.path().join("cache/tmp");
    let scratch: Vec<_> = std::fs::read_dir(&cache_tmp)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(
        scratch.is_empty(),
        "scratch left in {}: {scratch:?}",
        cache_tmp.display()
    );
}

#[test]
fn a_thousand_runs_leave_nothing_behind() {
    let _heavy = crate::support::cpu_heavy();
    let _names = crate::support::named_processes();
    // The hanging runs spin, so the CPU limit (100 ms) stops them; a wide
    // wall limit (3 s) keeps a stall of a loaded CI machine from turning an
    // echo into a wall-time TLE (seen once in CI: 101 TLEs).
    let workspace = Workspace::with_limits("wall_factor = 30\n");
    let problem = crate::support::problem("many");
    let mut child = workspace
        .command()
        .args(["--isolation", isolation(), "run", &problem])
        .arg(format!("{problem}/echo.c"))
        .arg(hostile("many-sometimes-hang.c"))
        .args(["--format", "json"])
        .args(many_tests())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start judge");
    let pid = child.id();
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{stdout}");
    let reports: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Test `t-N` gets the number N; the second program hangs on multiples
    // of ten, the first (the reference) on none.
    let unexpected = |report: &Value, hangs: bool| -> Vec<String> {
        tests_of(report)
            .iter()
            .filter(|t| {
                let n: u32 = t["name"].as_str().unwrap()["t-".len()..].parse().unwrap();
                let expected = if hangs && n % 10 == 0 { "TLE" } else { "AC" };
                t["verdict"] != expected
            })
            .map(|t| {
                format!(
                    "{} {} ({} ms CPU, {} ms wall): {}",
                    t["name"], t["verdict"], t["time_ms"], t["wall_ms"], t["message"]
                )
            })
            .collect()
    };
    assert_eq!(
        unexpected(&reports[0], false),
        Vec::<String>::new(),
        "the echo is accepted on every test"
    );
    assert_eq!(reports[0]["verdict"], "AC");
    assert_eq!(tests_of(&reports[0]).len(), many_count());
    assert_eq!(reports[1]["verdict"], "TLE");
    assert_eq!(
        unexpected(&reports[1], true),
        Vec::<String>::new(),
        "every tenth run is killed, and only those"
    );
    assert_none_named("many4711");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(leftovers_of(pid), Vec::<PathBuf>::new());
}

/// A keeper that dies (here: killed from outside, as an OOM kill would) is
/// replaced and its run tried again: the judging goes on and every test
/// still gets its verdict.
#[test]
fn a_keeper_that_dies_is_replaced_and_the_judging_goes_on() {
    if !is_root() {
        crate::support::note("skipped: needs root to find and kill the keepers");
        return;
    }
    let _heavy = crate::support::cpu_heavy();
    let workspace = Workspace::with_limits("wall_factor = 30\n");
    let problem = crate::support::problem("many");
    // The builds first (one test): compilers run in the sandbox too, and a
    // compile under load lasts long enough for three of the kills below to
    // land on it, after which its retries rightly give up (exit 2). This
    // test is about the runs of a judging.
    workspace
        .judge([
            "--isolation",
            "strict",
            "run",
            &problem,
            &format!("{problem}/echo.c"),
            "--tests",
            "t-1",
        ])
        .expect_code(0);
    // Under emulation a third of the thousand (the 112 of `many_tests` end
    // before three keepers have each finished a run there).
    let (tests, count) = match crate::support::slowdown() {
        1 => (Vec::new(), 1000),
        _ => (vec!["--tests", "t-1*", "t-2*", "t-3*"], 334),
    };
    let mut child = workspace
        .command()
        .args(["--isolation", "strict", "run", &problem, "-j", "2"])
        .arg(format!("{problem}/echo.c"))
        .args(["--format", "json"])
        .args(&tests)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start judge");
    let pid = child.id();
    // Set when the judge's output ends: the killer stops looking then (under
    // emulation it waited out its whole deadline, 20 minutes, after the
    // judging had ended).
    let judged = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = judged.clone();
    let killer = std::thread::spawn(move || {
        // A keeper is killed only once it has finished a run since it was
        // first seen: the run it is on, if any, is another test's, retried
        // once on a fresh keeper. Killed at once, a keeper can be the
        // judge's probe of full isolation (which --isolation strict needs)
        // or one run's replacement again and again, and after three the run
        // rightly gives up: under emulation always, on a loaded host too
        // (where a keeper takes long to start, and its run longer).
        // Per keeper seen: how many page faults its init's reaped children
        // had when first seen (field cminflt of /proc/PID/stat): the count
        // grows when the init reaps a finished run (runs are too short for
        // a poll to catch them under way).
        let mut first_seen: std::collections::HashMap<String, u64> = Default::default();
        let reaped = |keeper: &str| -> u64 {
            let inits = std::process::Command::new("pgrep")
                .args(["-P", keeper])
                .output()
                .expect("run pgrep");
            String::from_utf8_lossy(&inits.stdout)
                .split_whitespace()
                .filter_map(|init| std::fs::read_to_string(format!("/proc/{init}/stat")).ok())
                .filter_map(|stat| {
                    let fields = stat.rsplit_once(')')?.1;
                    fields.split_whitespace().nth(8)?.parse::<u64>().ok()
                })
                .sum()
        };
        let mut killed = 0;
        let deadline = Instant::now() + crate::support::scaled(Duration::from_secs(60));
        while killed < 5
            && Instant::now() < deadline
            && !done.load(std::sync::atomic::Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(150));
            let found = std::process::Command::new("pgrep")
                .args(["-P", &pid.to_string(), "-f", "__sandbox-keeper"])
                .output()
                .expect("run pgrep");
            let found = String::from_utf8_lossy(&found.stdout).into_owned();
            let ready = found.split_whitespace().find(|keeper| {
                let now = reaped(keeper);
                now > *first_seen.entry(keeper.to_string()).or_insert(now)
            });
            if let Some(keeper) = ready {
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", keeper])
                    .status();
                killed += 1;
            }
        }
        (killed, format!("{} keepers seen", first_seen.len()))
    });
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    judged.store(true, std::sync::atomic::Ordering::SeqCst);
    let status = child.wait().unwrap();
    let (killed, seen) = killer.join().unwrap();
    assert!(
        killed >= 3,
        "only {killed} keepers were found to kill before the judging ended ({status}; \
         {seen}): {}",
        stdout.chars().take(2000).collect::<String>()
    );
    assert_eq!(status.code(), Some(0), "{stdout}");
    let report: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["verdict"], "AC");
    assert_eq!(tests_of(&report).len(), count);
}

/// The containment suite again, as an unprivileged user (set up by .ci/run):
/// the judge must work without root, at the `namespaces` level.
#[test]
fn contained_as_an_unprivileged_user() {
    let _names = crate::support::named_processes();
    let Some(user) = crate::support::unprivileged_user() else {
        return;
    };
    assert!(
        is_root(),
        "JUDGE_TEST_UNPRIVILEGED_USER needs the tests to run as root"
    );
    // A world-readable copy of everything the user needs, owned by the user.
    let dir = tempfile::Builder::new()
        .prefix("judge-unprivileged-")
        .tempdir()
        .unwrap();
    let root = dir.path();
    // A package with Python programs only: the user has gcc and python3 but
    // no Rust toolchain (rustup lives in root's home). Its sample-2 answers Yes.
    crate::support::copy_dir(
        &repo().join("tests/fixtures/problems/mini-nim"),
        &root.join("mini-nim"),
    );
    crate::support::copy_dir(
        &repo().join("tests/fixtures/hostile"),
        &root.join("hostile"),
    );
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), root.join("judge")).unwrap();
    std::fs::write(
        root.join("judge.toml"),
        crate::support::default_judge_toml(),
    )
    .unwrap();
    crate::support::hand_over(root, Some(&user));
    // The host's listeners, named for this run; the fixtures are aimed at
    // them (rewritten in place: their owner stays the user).
    let sockets = HostSockets::bind();
    sockets.fixture(&root.join("hostile/host-sockets.c"));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let network = std::fs::read_to_string(root.join("hostile/network.c"))
        .unwrap()
        .replace("47111", &port.to_string());
    std::fs::write(root.join("hostile/network.c"), network).unwrap();
    let files = [
        "fork-bomb.c",
        "memory-bomb.c",
        "daemon.c",
        "network.c",
        "filesystem.c",
        "sigpipe.c",
        "peek-builds.c",
        "host-sockets.c",
        "leave-state.c",
        "find-state.c",
        "leave-key.c",
        "find-key.c",
    ];
    let output = std::process::Command::new("runuser")
        .args(["-u", &user, "--"])
        .arg(root.join("judge"))
        .args(["--isolation", "auto", "run", "./mini-nim", "-j", "1"])
        .args(files.iter().map(|f| format!("hostile/{f}")))
        .args(["--tests", "sample-2", "--format", "json"])
        // Under emulation, the package's 2 s grown by the slowdown (the
        // memory bomb fills 64 MiB blocks for seconds of CPU there).
        .args(if crate::support::slowdown() > 1 {
            vec![
                "--time-limit".to_string(),
                format!("{}s", 2 * crate::support::slowdown()),
            ]
        } else {
            Vec::new()
        })
        .current_dir(root)
        .output()
        .expect("run judge as the unprivileged user");
    drop(listener);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let reports: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect(&stderr))
        .collect();
    assert_eq!(
        reports.len(),
        files.len(),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    // Without root: namespaces, or full isolation where the user has a
    // delegated cgroup (cgroup v2 with systemd's user manager).
    let level = str_field(&reports[0], "isolation");
    if level == "namespaces" {
        assert!(
            stderr.contains("warning: isolation level `namespaces` is weaker than full"),
            "{stderr}"
        );
    } else {
        assert_eq!(level, "cgroup-v2", "{stderr}");
    }
    let got = verdicts(&reports);
    let want: [(&str, &[&str]); 10] = [
        (
            "fork-bomb.c",
            if level == "namespaces" {
                &["RE", "TLE"]
            } else {
                &["RE"]
            },
        ),
        ("memory-bomb.c", &["MLE"]),
        ("daemon.c", &["AC"]),
        ("network.c", &["AC"]),
        ("filesystem.c", &["AC"]),
        ("sigpipe.c", &["RE"]),
        ("peek-builds.c", &["AC"]),
        ("host-sockets.c", &["AC"]),
        // After leave-state.c and leave-key.c, in the same slot (one job).
        ("find-state.c", &["AC"]),
        ("find-key.c", &["AC"]),
    ];
    for (file, allowed) in want {
        let (_, verdict, message) = got.iter().find(|(f, _, _)| f == file).unwrap();
        assert!(
            allowed.contains(&verdict.as_str()),
            "{file}: {verdict} ({message}); {got:#?}"
        );
    }
    assert_none_named("forkbomb4711");
    assert_none_named("daemon4711");
    let _ = processes_matching("judge-unprivileged-");
}
