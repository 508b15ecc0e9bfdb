//! The keeper: a small process (the judge binary started as
//! `judge __sandbox-keeper CONFIG`) that sets up the namespaces of one sandbox
//! slot once and then runs jobs in them, one at a time, as go-judge reuses its
//! containers. The main types are [`KeeperConfig`], [`Job`] and [`JobResult`];
//! the entry point is [`keeper_main`].
//!
//! Setup: a user namespace when not root (the caller's uid mapped to 65534),
//! then mount, pid, network, ipc and uts namespaces. The keeper forks: the
//! child is pid 1 of the new pid namespace and builds a new root on a tmpfs:
//! for runs only the system directories of the host (/usr, /etc, /lib...,
//! see [`SYSTEM_DIRS`]), for compilations every top-level directory but with
//! the workspace and cache hidden under empty tmpfs, all bound read-only; a
//! fresh /proc; the build cache bound read-only at /judge/builds (and, for
//! compilations, a work directory bound read-write at /judge/work); then
//! pivot_root. The network namespace has only
//! a down loopback, so nothing can be reached.
//!
//! Each job: a fresh private tmpfs on /tmp, fork, join the slot's cgroup,
//! take the passed stdin/stdout/stderr, drop to the run uid, no new privileges,
//! rlimits, exec. The keeper enforces the CPU limit (from the cgroup counter,
//! or the process's own when there is no cgroup) and the wall limit, and after
//! the program ends kills every other process of the namespace, so nothing a
//! job started survives it. When the judge goes away (the socket closes), the
//! keeper kills everything and exits; its parent dies with it.
//!
//! A keeper started as a *spawner* ([`KeeperConfig::spawner`], the rlimit-only
//! level) does none of this: it only starts each job as a child of the judge
//! (CLONE_PARENT) and goes back to waiting; see `serve_spawns`.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::sys;

/// Where the build cache appears inside the sandbox.
pub const BUILDS_MOUNT: &str = "/judge/builds";
/// Where a compilation's work directory appears inside the sandbox.
pub const WORK_MOUNT: &str = "/judge/work";
/// The top-level host directories a run sees (read-only). Home directories,
/// the workspace, /var, /srv, /mnt... are not there at all.
pub const SYSTEM_DIRS: &[&str] = &[
    "bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "opt", "dev", "sys",
];
/// The uid and gid runs use (nobody).
pub const RUN_ID: u32 = 65534;
/// Size of the private /tmp, bytes (its pages count as the run's memory).
pub const TMP_SIZE: u64 = 64 << 20;
/// Files and directories the private /tmp can hold (bounds its cleanup).
pub const TMP_INODES: u64 = 16384;
/// The descriptor number of the keeper's socket.
pub const SOCKET_FD: RawFd = 3;
/// Largest message on the socket.
pub const MAX_MESSAGE: usize = 256 << 10;

/// How a keeper sets up its slot.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KeeperConfig {
    /// Create a user namespace first (when the judge is not root).
    pub user_namespace: bool,
    /// The judge's uid and gid (mapped to 65534 inside a user namespace).
    pub outer_ids: (u32, u32),
    /// An empty host directory in which the new root is built.
    pub root_dir: PathBuf,
    /// The top-level host directories shown (read-only); `None` shows all.
    pub show: Option<Vec<String>>,
    /// Host directories covered by an empty tmpfs (workspace, cache).
    pub hide: Vec<PathBuf>,
    /// Host build cache, bound read-only at [`BUILDS_MOUNT`].
    pub builds: Option<PathBuf>,
    /// Host work directory, bound read-write at [`WORK_MOUNT`] (compilations).
    pub work: Option<PathBuf>,
    /// Switch to this uid/gid before exec (when running as root).
    pub run_as: Option<(u32, u32)>,
    /// The slot's `cgroup.procs` files: the keeper joins the slot, and its
    /// jobs are born in it.
    pub cgroup_procs: Vec<PathBuf>,
    /// The slot's CPU counter and whether it is v2's `cpu.stat`.
    pub cgroup_cpu: Option<(PathBuf, bool)>,
    /// A spawner, not a sandbox: no namespaces, no new root, and jobs are
    /// only started, as children of the judge, which watches, limits and
    /// reaps them itself (the rlimit-only level). It exists because a program
    /// started by a small process sharing its memory is cheap to start, and
    /// its peak RSS then starts at the small process's footprint, not at the
    /// judge's. Everything else in this config is ignored.
    #[serde(default)]
    pub spawner: bool,
    /// How long, after sending a result, the keeper looks for its next job
    /// before it sleeps (zero: it sleeps at once). See [`next_message`].
    #[serde(default)]
    pub next_job_spin: Duration,
    /// The CPU a spawner keeps to once it has started (the judging's CPU,
    /// when a one-job judging keeps to one): it starts on any CPU, beside
    /// the judge's own start-up, and the runs it starts inherit the pin.
    #[serde(default)]
    pub cpu: Option<usize>,
}

/// One program to run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    /// Program (absolute path inside the sandbox) and arguments.
    pub argv: Vec<Vec<u8>>,
    /// Environment, `KEY=VALUE`.
    pub env: Vec<Vec<u8>>,
    /// Working directory inside the sandbox.
    pub cwd: PathBuf,
    /// CPU time limit.
    pub cpu_limit: Duration,
    /// Wall-clock limit.
    pub wall_limit: Duration,
    /// Rlimits of the program.
    pub rlimits: sys::Rlimits,
    /// RLIMIT_NPROC, when there is no pids cgroup.
    pub processes: Option<u64>,
}

/// How a job ended.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct JobResult {
    /// The program could not be started (exec failed): the error.
    pub spawn_error: Option<String>,
    /// Exit code.
    pub code: Option<i32>,
    /// Terminating signal.
    pub signal: Option<i32>,
    /// CPU time of the program and the children it waited for (wait4).
    pub cpu_time: Duration,
    /// Wall time from fork to exit.
    pub wall_time: Duration,
    /// Peak RSS (wait4), KiB.
    pub max_rss_kib: u64,
    /// The limit the keeper enforced: `cpu`, `wall`, or `killed` (asked by the judge).
    pub limit: Option<String>,
}

/// The keeper's first message: ready, or why not.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ready {
    /// The setup error, if any.
    pub error: Option<String>,
}

/// The message that asks the keeper to kill the running job.
pub const KILL: &[u8] = b"k";

/// Entry point of `judge __sandbox-keeper CONFIG`; returns the exit code.
pub fn keeper_main(config_json: &str) -> i32 {
    // Runs must start with SIGPIPE at its default (a program writing to a
    // closed pipe dies by SIGPIPE); the keeper itself never writes to pipes.
    sys::default_signals();
    let socket = sys::own_fd(SOCKET_FD);
    let config: KeeperConfig = match serde_json::from_str(config_json) {
        Ok(c) => c,
        Err(e) => return fail(&socket, format!("bad keeper config: {e}")),
    };
    if config.spawner {
        if let Some(cpu) = config.cpu {
            sys::use_cpus(sys::CpuSet::only(cpu));
        }
        if send(&socket, &Ready { error: None }).is_err() {
            return 1;
        }
        serve_spawns(&socket);
        return 0;
    }
    if let Err(e) = enter_namespaces(&config) {
        return fail(&socket, format!("cannot create namespaces: {e}"));
    }
    // pid 1 of the new pid namespace is our child; we only wait for it.
    match sys::fork() {
        Err(e) => return fail(&socket, format!("cannot fork the namespace init: {e}")),
        Ok(sys::Forked::Parent) => {
            drop(socket);
            while sys::reap_any().is_some() {}
            return 0;
        }
        Ok(sys::Forked::Child) => {}
    }
    let _ = sys::die_with_parent();
    let slot = match build_root(&config) {
        Ok(s) => s,
        Err(e) => return fail(&socket, format!("cannot build the sandbox root: {e}")),
    };
    if send(&socket, &Ready { error: None }).is_err() {
        return 1;
    }
    serve(&socket, &config, &slot);
    sys::kill_all_others();
    while sys::reap_any().is_some() {}
    0
}

fn fail(socket: &OwnedFd, error: String) -> i32 {
    let _ = send(socket, &Ready { error: Some(error) });
    1
}

fn send<T: Serialize>(socket: &OwnedFd, value: &T) -> io::Result<()> {
    let data = serde_json::to_vec(value).map_err(io::Error::other)?;
    sys::send_with_fds(socket.as_raw_fd(), &data, &[])
}

fn enter_namespaces(config: &KeeperConfig) -> io::Result<()> {
    if config.user_namespace {
        sys::unshare(sys::ns::USER)?;
        let (uid, gid) = config.outer_ids;
        std::fs::write("/proc/self/setgroups", "deny")?;
        std::fs::write("/proc/self/uid_map", format!("{RUN_ID} {uid} 1"))?;
        std::fs::write("/proc/self/gid_map", format!("{RUN_ID} {gid} 1"))?;
    }
    sys::unshare(sys::ns::MOUNT | sys::ns::PID | sys::ns::NET | sys::ns::IPC | sys::ns::UTS)
}

/// Descriptors opened before the root changes: the slot's CPU counter.
struct SlotFiles {
    cpu: Option<(std::fs::File, bool)>,
}

fn build_root(config: &KeeperConfig) -> io::Result<SlotFiles> {
    use sys::mnt::*;
    let root = &config.root_dir;
    sys::mount(None, Path::new("/"), None, REC | PRIVATE, None)?;
    sys::mount(
        Some(Path::new("tmpfs")),
        root,
        Some("tmpfs"),
        NOSUID | NODEV,
        Some("size=1m,mode=755"),
    )?;
    let skip_top = root.components().nth(1).map(|c| c.as_os_str().to_owned());
    for entry in std::fs::read_dir("/")? {
        let entry = entry?;
        let name = entry.file_name();
        if ["proc", "tmp"].iter().any(|s| name == *s) || Some(&name) == skip_top.as_ref() {
            continue;
        }
        if let Some(show) = &config.show {
            if !show.iter().any(|s| name == s.as_str()) {
                continue;
            }
        }
        let host = Path::new("/").join(&name);
        let inner = root.join(&name);
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&host)?, &inner)?;
        } else if kind.is_dir() {
            std::fs::create_dir(&inner)?;
            sys::mount(Some(&host), &inner, None, BIND | REC, None)?;
            sys::make_tree_readonly(&inner)?;
        }
    }
    let proc_dir = root.join("proc");
    std::fs::create_dir(&proc_dir)?;
    sys::mount(
        Some(Path::new("proc")),
        &proc_dir,
        Some("proc"),
        NOSUID | NODEV | NOEXEC,
        None,
    )?;
    std::fs::create_dir(root.join("tmp"))?;
    std::fs::create_dir(root.join("judge"))?;
    for (host, inner, writable) in [
        (&config.builds, BUILDS_MOUNT, false),
        (&config.work, WORK_MOUNT, true),
    ] {
        let Some(host) = host else { continue };
        let target = root.join(inner.trim_start_matches('/'));
        std::fs::create_dir_all(&target)?;
        sys::mount(Some(host), &target, None, BIND | REC, None)?;
        if !writable {
            sys::make_tree_readonly(&target)?;
        }
    }
    for hidden in &config.hide {
        let target = root.join(hidden.strip_prefix("/").unwrap_or(hidden));
        if target.is_dir() {
            sys::mount(
                Some(Path::new("tmpfs")),
                &target,
                Some("tmpfs"),
                NOSUID | NODEV,
                Some("size=16k,mode=755"),
            )?;
        }
    }
    // Join the slot's cgroup once: every run is forked from here and so born
    // in it. Moving a task per run would take cgroup v1's global threadgroup
    // lock (an RCU sync) on every run. The keeper itself must never be the
    // OOM killer's choice.
    for procs in &config.cgroup_procs {
        std::fs::write(procs, "0")
            .map_err(|e| io::Error::new(e.kind(), format!("joining {}: {e}", procs.display())))?;
    }
    if !config.cgroup_procs.is_empty() {
        // Best effort: needs CAP_SYS_RESOURCE. Runs raise their own score to
        // the maximum anyway, so the OOM killer always picks them first.
        let _ = std::fs::write("/proc/self/oom_score_adj", "-1000");
    }
    let files = SlotFiles {
        cpu: config
            .cgroup_cpu
            .as_ref()
            .map(|(p, v2)| std::fs::File::open(p).map(|f| (f, *v2)))
            .transpose()?,
    };
    sys::mount(None, root, None, REMOUNT | RDONLY | NOSUID | NODEV, None)?;
    sys::pivot_into(root)?;
    let _ = sys::set_hostname("judge");
    // The private /tmp (and working directory of runs): mounted once and
    // emptied between jobs; unmounting per job would cost an expedited RCU
    // grace period every time.
    let options = format!("size={TMP_SIZE},nr_inodes={TMP_INODES},mode=1777");
    sys::mount(
        Some(Path::new("tmpfs")),
        Path::new("/tmp"),
        Some("tmpfs"),
        NOSUID | NODEV,
        Some(&options),
    )?;
    Ok(files)
}

fn serve(socket: &OwnedFd, config: &KeeperConfig, slot: &SlotFiles) {
    let mut buf = vec![0u8; MAX_MESSAGE];
    // The stack runs' children start on (they share the keeper's memory
    // until they exec).
    let mut stack = vec![0u8; 256 << 10];
    loop {
        let Ok(Some((n, fds))) = next_message(socket, &mut buf, config.next_job_spin) else {
            return;
        };
        if &buf[..n] == KILL {
            continue; // a kill that arrived after its job ended
        }
        let result = match serde_json::from_slice::<Job>(&buf[..n]) {
            Ok(job) if fds.len() == 3 => match run_job(socket, config, slot, &job, fds, &mut stack)
            {
                Ok(Some(r)) => r,
                Ok(None) => return, // the judge went away
                Err(e) => JobResult {
                    spawn_error: Some(format!("sandbox keeper: {e}")),
                    ..JobResult::default()
                },
            },
            _ => JobResult {
                spawn_error: Some("sandbox keeper: malformed job".into()),
                ..JobResult::default()
            },
        };
        if send(socket, &result).is_err() {
            return;
        }
        // Off the path from one run's end to the next one's start: the
        // judge is reading the result and sending the next job meanwhile.
        // Best effort: what cannot be removed stays; the next job still runs.
        let _ = super::empty_dir(Path::new("/tmp"));
    }
}

/// The next message from the judge, looked for during `spin` before the
/// keeper sleeps. The judge sends the next job within about 80 us of a
/// result, and waking a sleeping keeper costs tens of microseconds more (on
/// a virtual machine, an idle vCPU is woken through the host); the judge
/// asks for the spin only when a CPU would otherwise be idle.
fn next_message(
    socket: &OwnedFd,
    buf: &mut [u8],
    spin: Duration,
) -> io::Result<Option<(usize, Vec<OwnedFd>)>> {
    let start = Instant::now();
    while start.elapsed() < spin {
        match sys::recv_with_fds(socket.as_raw_fd(), buf, true) {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::hint::spin_loop(),
            other => return other,
        }
    }
    sys::recv_with_fds(socket.as_raw_fd(), buf, false)
}

/// A spawner's loop: each job comes with four descriptors, the run's stdin,
/// stdout and stderr and the write end of a report pipe, and is started as
/// a child of the judge (in a process group of its own, in the host's file
/// system). The child itself writes its pid to the report pipe, then the
/// errno if its exec fails; a job that fails before there is a child is
/// reported here as pid 0 and the errno. The judge does the rest. Returns
/// when the judge goes away.
fn serve_spawns(socket: &OwnedFd) {
    let mut buf = vec![0u8; MAX_MESSAGE];
    let mut stack = vec![0u8; 64 << 10];
    while let Ok(Some((n, fds))) = sys::recv_with_fds(socket.as_raw_fd(), &mut buf, false) {
        // The descriptors: stdin, stdout, stderr, the report pipe and, for a
        // run started ahead of its turn, the gate it waits on.
        let (stdin, stdout, stderr, report, gate) = match &fds[..] {
            [i, o, e, r] => (i, o, e, r, None),
            [i, o, e, r, g] => (i, o, e, r, Some(g.as_raw_fd())),
            _ => continue, // not from the judge: nobody to answer
        };
        let stdio = [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()];
        let started = serde_json::from_slice::<Job>(&buf[..n])
            .map_err(io::Error::other)
            .and_then(|job| spawn_for_judge(&job, stdio, report.as_raw_fd(), gate, &mut stack));
        if let Err(e) = started {
            sys::report_not_started(report.as_raw_fd(), &e);
        }
    }
}

fn spawn_for_judge(
    job: &Job,
    stdio: [RawFd; 3],
    report: RawFd,
    gate: Option<RawFd>,
    stack: &mut [u8],
) -> io::Result<()> {
    let mut plan = sys::SpawnPlan::new(
        c_strings(&job.argv)?,
        c_strings(&job.env)?,
        &job.cwd,
        stdio,
        None,
        &job.rlimits,
        job.processes,
        false,
    )?
    .new_process_group()
    .child_of_parent(report);
    if let Some(gate) = gate {
        // Suspended here until the judge opens the gate (or closes it).
        plan = plan.wait_for_gate(gate);
    }
    // A failed exec is not an error here: the child reports it to the judge.
    let _exec_reported_by_the_child = sys::spawn(&plan, stack)?;
    Ok(())
}

/// A job's arguments or environment entries as C strings for exec.
fn c_strings(items: &[Vec<u8>]) -> io::Result<Vec<CString>> {
    items.iter().map(|a| super::c_string(a)).collect()
}

/// Runs one job; `Ok(None)` when the judge closed the socket meanwhile.
fn run_job(
    socket: &OwnedFd,
    config: &KeeperConfig,
    slot: &SlotFiles,
    job: &Job,
    fds: Vec<OwnedFd>,
    stack: &mut [u8],
) -> io::Result<Option<JobResult>> {
    let argv = c_strings(&job.argv)?;
    let env = c_strings(&job.env)?;
    let program = argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stdio = [fds[0].as_raw_fd(), fds[1].as_raw_fd(), fds[2].as_raw_fd()];
    let plan = sys::SpawnPlan::new(
        argv,
        env,
        &job.cwd,
        stdio,
        config.run_as,
        &job.rlimits,
        job.processes,
        slot.cpu.is_some(),
    )?;
    let start = Instant::now();
    let spawned = sys::spawn(&plan, stack)?;
    drop(fds);
    let child = match spawned {
        Ok(pid) => pid,
        Err((_, error)) => {
            while sys::reap_any().is_some() {}
            return Ok(Some(JobResult {
                spawn_error: Some(format!("cannot start `{program}`: {error}")),
                ..JobResult::default()
            }));
        }
    };
    let exited = sys::pidfd_open(child)?;
    let tick = (job.cpu_limit / 10).clamp(Duration::from_millis(5), Duration::from_millis(50));
    let mut limit = None;
    let mut message = [0u8; 16];
    loop {
        let ready = sys::poll_readable(&[socket.as_raw_fd(), exited.as_raw_fd()], Some(tick))?;
        if ready[1] {
            break;
        }
        if ready[0] {
            match sys::recv_with_fds(socket.as_raw_fd(), &mut message, true) {
                Ok(None) => {
                    sys::kill_all_others();
                    return Ok(None);
                }
                Ok(Some(_)) => {
                    sys::kill_all_others();
                    limit.get_or_insert("killed");
                }
                Err(_) => {}
            }
        }
        if limit.is_none() {
            if cpu_used(slot, child) > job.cpu_limit {
                sys::kill_all_others();
                limit = Some("cpu");
            } else if start.elapsed() > job.wall_limit {
                sys::kill_all_others();
                limit = Some("wall");
            }
        }
    }
    let wall_time = start.elapsed();
    let reaped = loop {
        if let Some(r) = sys::try_reap(child)? {
            break r;
        }
        std::thread::sleep(Duration::from_micros(100));
    };
    // Nothing the job started may outlive it. Whatever is left of it is the
    // keeper's child now (orphans of the namespace come to its init), so
    // with no child the scan of every process that kill(-1) makes is saved.
    if sys::has_children() {
        sys::kill_all_others();
        while sys::reap_any().is_some() {}
    }
    Ok(Some(JobResult {
        spawn_error: None,
        code: reaped.code,
        signal: reaped.signal,
        cpu_time: reaped.cpu_time,
        wall_time,
        max_rss_kib: reaped.max_rss_kib,
        limit: limit.map(str::to_string),
    }))
}

fn cpu_used(slot: &SlotFiles, child: i32) -> Duration {
    if let Some((file, v2)) = &slot.cpu {
        let mut buf = [0u8; 512];
        if let Ok(n) = sys::pread_start(file, &mut buf) {
            let text = String::from_utf8_lossy(&buf[..n]);
            let version = if *v2 {
                super::cgroup::Version::V2
            } else {
                super::cgroup::Version::V1
            };
            return Duration::from_nanos(super::cgroup::parse_cpu(version, &text));
        }
    }
    sys::cpu_time_so_far(child as u32).unwrap_or_default()
}

/// Rewrites host paths in an argument to where they appear inside the sandbox.
pub fn translate(arg: &[u8], mounts: &[(PathBuf, &str)]) -> Vec<u8> {
    for (host, inner) in mounts {
        let host = host.as_os_str().as_bytes();
        if let Some(pos) = find(arg, host) {
            let after = &arg[pos + host.len()..];
            if after.is_empty() || after[0] == b'/' {
                let mut out = arg[..pos].to_vec();
                out.extend_from_slice(inner.as_bytes());
                out.extend_from_slice(after);
                return out;
            }
        }
    }
    arg.to_vec()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > haystack.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_host_paths() {
        let mounts = [(PathBuf::from("/w/.judge-cache/builds"), BUILDS_MOUNT)];
        assert_eq!(
            translate(b"/w/.judge-cache/builds/ab/cd/prog", &mounts),
            b"/judge/builds/ab/cd/prog"
        );
        assert_eq!(translate(b"-Xmx64m", &mounts), b"-Xmx64m");
        assert_eq!(
            translate(b"/w/.judge-cache/buildsX/y", &mounts),
            b"/w/.judge-cache/buildsX/y"
        );
        assert_eq!(
            translate(b"/w/.judge-cache/builds", &mounts),
            b"/judge/builds"
        );
    }

    /// The next job is found whether it comes during the spin or after it
    /// (when the keeper sleeps), with its descriptors, and the judge going
    /// away ends the wait either way.
    #[test]
    fn next_message_finds_a_job_sent_during_or_after_the_spin() {
        let (judge, keeper) = sys::seqpacket_pair().unwrap();
        let (read, _write) = sys::pipe().unwrap();
        let mut buf = [0u8; 64];
        for (spin, delay) in [
            (Duration::from_millis(500), Duration::from_millis(20)),
            (Duration::from_millis(5), Duration::from_millis(50)),
            (Duration::ZERO, Duration::from_millis(20)),
        ] {
            let received = std::thread::scope(|s| {
                s.spawn(|| {
                    std::thread::sleep(delay);
                    sys::send_with_fds(judge.as_raw_fd(), b"job", &[read.as_raw_fd()]).unwrap();
                });
                next_message(&keeper, &mut buf, spin)
            });
            let (n, fds) = received.unwrap().expect("a message");
            assert_eq!((&buf[..n], fds.len()), (&b"job"[..], 1), "spin {spin:?}");
        }
        drop(judge);
        for spin in [Duration::from_millis(5), Duration::ZERO] {
            assert!(next_message(&keeper, &mut buf, spin).unwrap().is_none());
        }
    }
}
