//! The keeper: a small process (the judge binary started as
//! `judge __sandbox-keeper`, its settings sent as the first message on its
//! socket) that sets up the namespaces of one sandbox slot once and then runs
//! jobs in them, one at a time, as go-judge reuses its containers. The main
//! types are [`KeeperConfig`], [`Job`] and [`JobResult`]; the entry point is
//! [`keeper_main`].
//!
//! Two processes make a keeper:
//! - the **supervisor** ([`supervisor`]), the process the judge started: it
//!   creates the namespaces (user when not root, then mount, pid, network,
//!   ipc, uts), talks to the judge, enforces the CPU and wall limits, reads
//!   the slot's cgroup counters and cleans up after each run. It is not in the
//!   slot's cgroup (nothing it does is charged to a run) nor in the pid
//!   namespace (no run can see or signal it).
//! - the **init** ([`init`]), pid 1 of the new pid namespace: it builds the
//!   file-system view ([`view`]), joins the slot's cgroup, and for each job
//!   starts the program (so runs are born in the cgroup), waits for it, and
//!   kills and reaps whatever it left.
//!
//! A keeper started as a *spawner* ([`KeeperConfig::spawner`], the
//! rlimit-only level) does none of this: it only starts each job as a child
//! of the judge ([`spawner`]).

mod init;
mod spawner;
mod supervisor;
mod view;

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::program::c_string;
use super::{cgroup, sys};

/// Where a run's own build directory appears inside the sandbox.
pub(crate) const BUILD_MOUNT: &str = "/judge/build";
/// Where a compilation's work directory appears inside the sandbox.
pub(crate) const WORK_MOUNT: &str = "/judge/work";
/// The top-level host directories every sandbox shows (read-only, where
/// they exist): the system's programs, libraries and configuration. Home
/// directories, the workspace, /var, /srv, /mnt, /run, /media, the host's
/// /tmp, /dev and /sys are not there at all (a minimal /dev and the CPU
/// topology of /sys are made for each sandbox).
pub(crate) const SYSTEM_DIRS: &[&str] = &[
    "bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "opt",
];
/// The device nodes a sandbox has in its /dev.
pub(crate) const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];
/// The uid and gid runs and compilations use (nobody).
pub(crate) const RUN_ID: u32 = 65534;
/// Size of a run's private /tmp and /dev/shm, bytes each (their pages count
/// as the run's memory).
pub(crate) const TMP_SIZE: u64 = 64 << 20;
/// Files and directories each of them can hold.
pub(crate) const TMP_INODES: u64 = 16384;
/// The descriptor number of the keeper's socket.
pub(crate) const SOCKET_FD: RawFd = 3;
/// Largest message on the socket.
pub(crate) const MAX_MESSAGE: usize = 256 << 10;

/// How a keeper sets up its slot.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct KeeperConfig {
    /// Create a user namespace first (when the judge is not root).
    pub(crate) user_namespace: bool,
    /// The judge's uid and gid (mapped to 65534 inside a user namespace).
    pub(crate) outer_ids: (u32, u32),
    /// An empty host directory in which the new root is built.
    pub(crate) root_dir: PathBuf,
    /// What the sandbox shows; `None`: no file-system view of its own (and
    /// no network namespace): package programs, which are trusted and only
    /// kept in a pid namespace (nothing they start outlives them), an ipc
    /// namespace and the slot's cgroup, as the judge's user.
    pub(crate) view: Option<View>,
    /// Switch to this uid/gid before exec (when running as root).
    pub(crate) run_as: Option<(u32, u32)>,
    /// The slot's cgroup: its version and directories. Init joins it, so
    /// runs are born in it; the supervisor keeps its counters.
    pub(crate) cgroup: Option<(cgroup::Version, Vec<PathBuf>)>,
    /// A spawner, not a sandbox: no namespaces, no new root, and jobs are
    /// only started, as children of the judge, which watches, limits and
    /// reaps them itself (the rlimit-only level). It exists because a program
    /// started by a small process sharing its memory is cheap to start, and
    /// its peak RSS then starts at the small process's footprint, not at the
    /// judge's. Everything else in this config is ignored.
    #[serde(default)]
    pub(crate) spawner: bool,
    /// How long, after sending a result, the keeper looks for its next job
    /// before it sleeps (zero: it sleeps at once). See [`next_message`].
    #[serde(default)]
    pub(crate) next_job_spin: Duration,
    /// The CPU a spawner keeps to once it has started (the judging's CPU,
    /// when a one-job judging keeps to one): it starts on any CPU, beside
    /// the judge's own start-up, and the runs it starts inherit the pin.
    #[serde(default)]
    pub(crate) cpu: Option<usize>,
}

/// The file-system view of a sandbox: an allow-list.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct View {
    /// Host directories shown read-only at their own paths: the
    /// [`SYSTEM_DIRS`], and for compilations the toolchain's directories.
    pub(crate) show: Vec<PathBuf>,
    /// Host directories covered by an empty tmpfs where they fall inside a
    /// shown one (the workspace, the cache, home directories).
    pub(crate) hide: Vec<PathBuf>,
    /// Host directory shown read-only at [`BUILD_MOUNT`]: the slot's copy of
    /// the build of the program it runs, and nothing else of the cache.
    pub(crate) build: Option<PathBuf>,
    /// A writable tmpfs of this many bytes at [`WORK_MOUNT`] (compilations:
    /// the judge copies the source in and the results out).
    pub(crate) work: Option<u64>,
    /// Size of /tmp (and of /dev/shm), bytes.
    pub(crate) tmp_size: u64,
}

/// One program to run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Job {
    /// Program (absolute path inside the sandbox) and arguments.
    pub(crate) argv: Vec<Vec<u8>>,
    /// Environment, `KEY=VALUE`.
    pub(crate) env: Vec<Vec<u8>>,
    /// Working directory inside the sandbox.
    pub(crate) cwd: PathBuf,
    /// CPU time limit.
    pub(crate) cpu_limit: Duration,
    /// Wall-clock limit.
    pub(crate) wall_limit: Duration,
    /// Rlimits of the program.
    pub(crate) rlimits: sys::Rlimits,
    /// RLIMIT_NPROC, when there is no pids cgroup.
    pub(crate) processes: Option<u64>,
    /// The cgroup's memory limit, bytes (with a cgroup).
    #[serde(default)]
    pub(crate) memory: Option<u64>,
    /// The cgroup's process limit (with a cgroup): the run's share plus the
    /// init that starts it.
    #[serde(default)]
    pub(crate) pids: u64,
}

/// Why the keeper stopped a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Stopped {
    /// Its CPU time reached the limit.
    CpuTime,
    /// Its wall time reached the limit.
    WallTime,
    /// The judge asked (output limit, abandoned run).
    Asked,
}

/// How a job ended.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct JobResult {
    /// The program could not be started (exec failed): the error.
    pub(crate) spawn_error: Option<String>,
    /// Exit code.
    pub(crate) code: Option<i32>,
    /// Terminating signal.
    pub(crate) signal: Option<i32>,
    /// CPU time of the program and the children it waited for (wait4).
    pub(crate) cpu_time: Duration,
    /// Wall time from its start to its exit.
    pub(crate) wall_time: Duration,
    /// Peak RSS (wait4), KiB.
    pub(crate) max_rss_kib: u64,
    /// The limit the keeper enforced, if it stopped the job.
    pub(crate) stopped: Option<Stopped>,
    /// What the run used, from the slot's cgroup.
    pub(crate) usage: Option<cgroup::Usage>,
}

/// The keeper's first message: ready, or why not.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Ready {
    /// The setup error, if any.
    pub(crate) error: Option<String>,
}

/// The message that asks the keeper to kill the running job.
pub(crate) const KILL: &[u8] = b"k";

/// Entry point of `judge __sandbox-keeper`; returns the exit code.
pub fn keeper_main() -> i32 {
    // Runs must start with SIGPIPE at its default (a program writing to a
    // closed pipe dies by SIGPIPE); the keeper itself never writes to pipes.
    sys::default_signals();
    let socket = sys::own_fd(SOCKET_FD);
    let mut buf = vec![0u8; MAX_MESSAGE];
    let config = match sys::recv_with_fds(socket.as_raw_fd(), &mut buf, false) {
        Ok(Some((n, _))) => serde_json::from_slice::<KeeperConfig>(&buf[..n]),
        _ => return 1,
    };
    let config = match config {
        Ok(c) => c,
        Err(e) => return fail(&socket, format!("bad keeper config: {e}")),
    };
    if config.spawner {
        return spawner::main(&socket, &config);
    }
    supervisor::main(socket, config)
}

/// Reports a setup failure; the exit code.
fn fail(socket: &OwnedFd, error: String) -> i32 {
    let _ = send(socket, &Ready { error: Some(error) });
    1
}

fn send<T: Serialize>(socket: &OwnedFd, value: &T) -> io::Result<()> {
    let data = serde_json::to_vec(value).map_err(io::Error::other)?;
    sys::send_with_fds(socket.as_raw_fd(), &data, &[])
}

/// Receives one message (blocking) and decodes it; `Ok(None)` at the end of
/// the stream.
fn receive<T: for<'a> Deserialize<'a>>(socket: &OwnedFd, buf: &mut [u8]) -> io::Result<Option<T>> {
    match sys::recv_with_fds(socket.as_raw_fd(), buf, false)? {
        None => Ok(None),
        Some((n, _)) => serde_json::from_slice(&buf[..n])
            .map(Some)
            .map_err(io::Error::other),
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
    let start = std::time::Instant::now();
    while start.elapsed() < spin {
        match sys::recv_with_fds(socket.as_raw_fd(), buf, true) {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::hint::spin_loop(),
            other => return other,
        }
    }
    sys::recv_with_fds(socket.as_raw_fd(), buf, false)
}

/// A job's arguments or environment entries as C strings for exec.
fn c_strings(items: &[Vec<u8>]) -> io::Result<Vec<std::ffi::CString>> {
    items.iter().map(|a| c_string(a)).collect()
}

/// Rewrites host paths in an argument to where they appear inside the sandbox.
pub(crate) fn translate(arg: &[u8], mounts: &[(PathBuf, &str)]) -> Vec<u8> {
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
        let mounts = [(PathBuf::from("/w/.judge-cache/builds/ab/cd"), BUILD_MOUNT)];
        assert_eq!(
            translate(b"/w/.judge-cache/builds/ab/cd/prog", &mounts),
            b"/judge/build/prog"
        );
        assert_eq!(translate(b"-Xmx64m", &mounts), b"-Xmx64m");
        assert_eq!(
            translate(b"/w/.judge-cache/builds/ab/cdX/y", &mounts),
            b"/w/.judge-cache/builds/ab/cdX/y"
        );
        assert_eq!(
            translate(b"/w/.judge-cache/builds/ab/cd", &mounts),
            b"/judge/build"
        );
        assert_eq!(
            translate(b"-cp=/w/.judge-cache/builds/ab/cd", &mounts),
            b"-cp=/judge/build"
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
