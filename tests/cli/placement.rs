//! The judge where users start it: tests/vm/guest.sh runs this test in each
//! placement of a cgroup-v2 VM (root in a service, in the root cgroup, in a
//! delegated scope; a user with a delegated scope, with only a user
//! manager, with none, with user namespaces denied), naming the level the
//! placement must reach in `JUDGE_TEST_EXPECT_ISOLATION` and, for a weaker
//! one, a piece of the reason in `JUDGE_TEST_EXPECT_REASON`. Anywhere else
//! it checks what the machine gives (full isolation as root).
//!
//! One judging per placement, with one job (one slot, run after run): a
//! memory bomb (MLE, its peak), then an accepted program whose peak must be
//! its own (not the bomb's: a stale peak is a false MLE), a fork bomb, a run
//! that leaves state and 40 MiB and one that must find none of it; and
//! nothing of the judge's cgroups left afterwards. (Time limits are the
//! verdict table's: under emulation they are the slow part.)

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{is_root, repo, str_field, tests_of, u64_field, Workspace};

#[test]
fn the_placement_gets_its_level_and_exact_memory() {
    let expect = std::env::var("JUDGE_TEST_EXPECT_ISOLATION").ok();
    // `systemd-run --user --scope -p Delegate=yes --quiet`, say: the
    // judge started the way README tells users to.
    let launcher: Vec<String> = std::env::var("JUDGE_TEST_LAUNCHER")
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let reason = std::env::var("JUDGE_TEST_EXPECT_REASON").ok();
    let expect = match expect {
        Some(level) => Expect::Level(level),
        None if is_root() => Expect::Full,
        None => Expect::Any,
    };
    judged_in_place(&launcher, &expect, reason.as_deref(), None);
}

/// A real container runtime: Debian's podman, which tests/vm/podman.sh
/// adds to the VM's image (elsewhere, without podman or cgroup v2, this
/// says so and passes). As root: `--privileged` (the judge the container's
/// main process, and under a shell that stays its parent) reaches
/// `cgroup-v2`; a default container (cgroupfs read-only, no `CAP_SYS_ADMIN`)
/// falls back at `auto`, names its gaps and says why.
#[test]
fn a_real_podman_container_gets_its_level_and_exact_memory() {
    let Some(podman) = Podman::here() else { return };
    // The judge as the container's main process, and under a shell that
    // stays its parent (`sh -c "judge ...; exit"`: GitLab's and a pod's
    // command).
    let mut shell = podman.run(&["--privileged"], "/:O");
    shell.extend(["/bin/sh", "-c", "\"$0\" \"$@\"; exit $?"].map(str::to_string));
    for (name, launcher, expect, reason) in [
        (
            "privileged",
            podman.run(&["--privileged"], "/:O"),
            Expect::Full,
            None,
        ),
        ("privileged, shell parent", shell, Expect::Full, None),
        (
            "default",
            podman.run(&[], "/:O"),
            Expect::Weaker,
            Some("mounted read-only"),
        ),
    ] {
        eprintln!("podman: {name}");
        judged_in_place(&launcher, &expect, reason, None);
    }
}

/// Rootless podman: a user's container, its cgroup delegated by the user's
/// systemd (`JUDGE_TEST_UNPRIVILEGED_USER`, who has a user manager). The
/// default container falls back naming the read-only cgroupfs;
/// `--privileged` (the user's own privileges) reaches `cgroup-v2`.
#[test]
fn a_rootless_podman_container_gets_its_level() {
    let Some(podman) = Podman::here() else { return };
    let Some(user) = crate::support::unprivileged_user() else {
        return;
    };
    let id = std::process::Command::new("id")
        .args(["-u", &user])
        .output()
        .expect("id");
    let uid = String::from_utf8_lossy(&id.stdout).trim().to_string();
    let mut launcher: Vec<String> = ["runuser", "-u", &user, "--", "env"]
        .map(str::to_string)
        .to_vec();
    launcher.push(format!("XDG_RUNTIME_DIR=/run/user/{uid}"));
    launcher.push(format!(
        "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/{uid}/bus"
    ));
    // A user can neither lay an overlay on `/` nor write podman's files
    // into it: the image is a folder of the user's own, with the guest's
    // /usr and /etc shown read-only (Debian's /bin, /lib... link to /usr).
    let image = tempfile::tempdir().expect("a temporary folder");
    for (link, to) in [
        ("bin", "usr/bin"),
        ("sbin", "usr/sbin"),
        ("lib", "usr/lib"),
        ("lib64", "usr/lib64"),
    ] {
        std::os::unix::fs::symlink(to, image.path().join(link)).expect("symlink");
    }
    crate::support::hand_over(image.path(), Some(&user));
    let rootfs = image.path().to_str().expect("UTF-8 path");
    let shown = ["-v", "/usr:/usr:ro", "-v", "/etc:/etc:ro"];
    let mut privileged = launcher.clone();
    privileged.extend(podman.run(&[&shown[..], &["--privileged"]].concat(), rootfs));
    launcher.extend(podman.run(&shown, rootfs));
    eprintln!("podman: rootless, default");
    judged_in_place(
        &launcher,
        &Expect::Weaker,
        Some("mounted read-only"),
        Some(&user),
    );
    eprintln!("podman: rootless, privileged");
    judged_in_place(&privileged, &Expect::Full, None, Some(&user));
}

/// Podman where the placement tests can use it: root, cgroup v2.
struct Podman {
    program: &'static str,
    repo: String,
    tmp: String,
}

impl Podman {
    fn here() -> Option<Podman> {
        let program = ["/usr/bin/podman", "/usr/local/bin/podman"]
            .into_iter()
            .find(|p| Path::new(p).is_file());
        let cgroup2 = std::fs::read_to_string("/proc/self/mountinfo").is_ok_and(|m| {
            m.lines()
                .any(|l| l.contains(" /sys/fs/cgroup ") && l.contains(" - cgroup2 "))
        });
        let (Some(program), true, true) = (program, cgroup2, is_root()) else {
            crate::support::note("skipped: needs root, cgroup v2 and podman (tests/vm/podman.sh)");
            return None;
        };
        let path = |p: PathBuf| p.to_str().expect("UTF-8 path").to_string();
        Some(Podman {
            program,
            repo: path(repo().to_path_buf()),
            tmp: path(std::env::temp_dir()),
        })
    }

    /// `podman run` with `extra` options, the repository (read-only) and
    /// the temporary directory shared, and `rootfs` as the image; the
    /// command follows.
    fn run(&self, extra: &[&str], rootfs: &str) -> Vec<String> {
        let mut l: Vec<String> = [self.program, "run", "--rm", "--network", "none"]
            .map(str::to_string)
            .to_vec();
        l.extend(extra.iter().map(|s| s.to_string()));
        let (repo, tmp) = (&self.repo, &self.tmp);
        for volume in [format!("{repo}:{repo}:ro"), format!("{tmp}:{tmp}")] {
            l.extend(["-v".to_string(), volume]);
        }
        l.extend(["-w", repo, "--rootfs", rootfs].map(str::to_string));
        l
    }
}

/// The level a placement must reach.
enum Expect {
    /// This level, exactly (`JUDGE_TEST_EXPECT_ISOLATION`).
    Level(String),
    /// A cgroup level (root, anywhere).
    Full,
    /// Below full isolation, with the gaps named.
    Weaker,
    /// Whatever the machine gives (not root).
    Any,
}

/// One judging (the five fixtures below) started by `launcher` followed by
/// the judge's path and arguments; checks the level, the verdicts, each
/// run's own memory peak and that no cgroup is left behind.
/// With `owner`, the workspace is that user's (a rootless container's).
fn judged_in_place(
    launcher: &[String],
    expect: &Expect,
    reason: Option<&str>,
    owner: Option<&str>,
) {
    let _names = crate::support::named_processes();
    let full = match expect {
        Expect::Level(e) => e.starts_with("cgroup-"),
        Expect::Full => true,
        Expect::Weaker | Expect::Any => false,
    };
    let workspace = Workspace::new();
    if owner.is_some() {
        crate::support::hand_over(workspace.path(), owner);
    }
    let mut command = match launcher.split_first() {
        Some((program, args)) => {
            let mut c = std::process::Command::new(program);
            c.args(args).arg(env!("CARGO_BIN_EXE_judge"));
            c
        }
        None => std::process::Command::new(env!("CARGO_BIN_EXE_judge")),
    };
    // A package of Python programs (no Rust toolchain needed), whose
    // sample-2 the state fixtures answer.
    let files = [
        "memory-bomb.c",
        "find-state.c",
        "fork-bomb.c",
        "leave-state.c",
        "find-state.c",
    ]
    .map(|f| format!("tests/fixtures/hostile/{f}"));
    let started = std::time::Instant::now();
    let child = command
        .current_dir(repo())
        .arg("--config")
        .arg(workspace.config_path())
        .args(["--color", "never", "-j", "1", "--isolation"])
        .arg(if full { "strict" } else { "auto" })
        .args(["run", &crate::support::problem("mini-nim")])
        .args(&files)
        .args([
            "--tests",
            "sample-2",
            "--time-limit",
            "1s",
            "--memory-limit",
            "64MiB",
        ])
        .args(["--format", "json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start judge");
    let pid = child.id();
    let output = child.wait_with_output().expect("judge");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let reports: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{stderr}")))
        .collect();
    assert_eq!(
        reports.len(),
        files.len(),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    let level = str_field(&reports[0], "isolation").to_string();
    let test = |i: usize| tests_of(&reports[i])[0].clone();
    let peaks: Vec<u64> = (0..files.len())
        .map(|i| u64_field(&test(i), "memory_kib"))
        .collect();
    let summary = format!(
        "level {level}; verdicts {}; peaks KiB {peaks:?}; {:.1} s",
        reports
            .iter()
            .map(|r| str_field(r, "verdict"))
            .collect::<Vec<_>>()
            .join(" "),
        started.elapsed().as_secs_f64()
    );
    eprintln!("placement: {summary}");
    for line in stderr.lines().filter(|l| l.contains("isolation")) {
        eprintln!("placement: {line}");
    }
    if let Ok(log) = std::env::var("JUDGE_TEST_PLACEMENT_LOG") {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("open the placement log");
        writeln!(file, "{summary}").expect("write the placement log");
    }
    match expect {
        Expect::Level(e) => assert_eq!(&level, e, "stderr: {stderr}"),
        Expect::Full => assert!(level.starts_with("cgroup-"), "{level}: {stderr}"),
        Expect::Weaker => assert!(!level.starts_with("cgroup-"), "{level}: {stderr}"),
        Expect::Any => {}
    }
    let verdict = |i: usize| str_field(&reports[i], "verdict").to_string();
    assert_eq!(verdict(0), "MLE", "{stdout}");
    // Where runs are contained, the finders find nothing and the leaver is
    // accepted; at rlimit-only they see the host's /tmp, and what the fork
    // bomb left behind competes for the CPU (what that level does not
    // protect), so only the memory verdict is checked there.
    if level != "rlimit-only" {
        for i in [1, 3, 4] {
            assert_eq!(verdict(i), "AC", "{i}: {stdout}");
        }
    }
    if level.starts_with("cgroup-") {
        assert!(peaks[0] >= 60 * 1024, "the bomb's peak: {peaks:?}");
        // After the bomb, the fork bomb and the leaver's 40 MiB, in the
        // same slot: each run's own peak.
        assert!(peaks[1] < 8 * 1024 && peaks[4] < 8 * 1024, "{peaks:?}");
        assert!(peaks[3] >= 40 * 1024, "{peaks:?}");
        assert_eq!(verdict(2), "RE", "{stdout}");
        assert!(
            str_field(&test(2), "message").contains("processes"),
            "{}",
            test(2)
        );
        assert!(!stderr.contains("warning: isolation"), "{stderr}");
    } else {
        assert!(["RE", "TLE"].contains(&verdict(2).as_str()), "{stdout}");
        assert!(
            stderr.contains(&format!("isolation level `{level}` is weaker than full")),
            "{stderr}"
        );
        let gaps = reports[0]["isolation_gaps"].as_str().unwrap_or_default();
        assert!(!gaps.is_empty(), "no isolation_gaps in {}", reports[0]);
        assert!(stdout.contains(gaps) || stderr.contains(gaps), "{stderr}");
    }
    if let Some(reason) = reason {
        assert!(stderr.contains(reason), "{reason} not in: {stderr}");
    }
    // Nothing of the judge's cgroups is left: no judge-<pid> directory
    // anywhere, whatever placement it had.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let name = format!("judge-{pid}");
    let left: Vec<PathBuf> = walkdir::WalkDir::new("/sys/fs/cgroup")
        .max_depth(8)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_dir())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&name))
        .map(|e| e.path().to_path_buf())
        .collect();
    assert!(left.is_empty(), "cgroups left behind: {left:?}");
    // In a container (tests/vm/in-container.sh looks once the judge ended).
    assert!(!stderr.contains("left behind in the container"), "{stderr}");
}
