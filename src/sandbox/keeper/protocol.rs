//! What the judge and a keeper say to each other on the keeper's socket:
//! its settings, jobs and results, each a JSON message.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::sandbox::{cgroup, sys};

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
    /// [`SYSTEM_DIRS`](super::SYSTEM_DIRS), and for compilations the toolchain's directories.
    pub(crate) show: Vec<PathBuf>,
    /// Host directories covered by an empty tmpfs where they fall inside a
    /// shown one (the workspace, the cache, home directories).
    pub(crate) hide: Vec<PathBuf>,
    /// Host directory shown read-only at [`BUILD_MOUNT`](super::BUILD_MOUNT): the slot's copy of
    /// the build of the program it runs, and nothing else of the cache.
    pub(crate) build: Option<PathBuf>,
    /// Host directory shown read-only at [`HEADERS_MOUNT`](super::HEADERS_MOUNT)
    /// (compilations: the language's precompiled headers).
    pub(crate) headers: Option<PathBuf>,
    /// Host directory shown read-only at [`FILES_MOUNT`](super::FILES_MOUNT)
    /// (package programs: the files a job names).
    #[serde(default)]
    pub(crate) files: Option<PathBuf>,
    /// Host directories shown read-only at [`package_mount`](super::package_mount)
    /// of their index (package programs: their package's folders).
    #[serde(default)]
    pub(crate) package: Vec<PathBuf>,
    /// A writable tmpfs of this many bytes at [`WORK_MOUNT`](super::WORK_MOUNT) (compilations:
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
    /// Folders made in `cwd` before the program starts (relative), owned by
    /// the run's uid.
    #[serde(default)]
    pub(crate) make_dirs: Vec<String>,
    /// Files of `cwd` (relative) copied, once the program ended, into the
    /// directory sent as the job's last descriptor, at the same relative
    /// paths; each at most `keep_max` bytes.
    #[serde(default)]
    pub(crate) keep: Vec<String>,
    /// See `keep`; for `keep_dirs`, what each folder's files come to together.
    #[serde(default)]
    pub(crate) keep_max: u64,
    /// Folders of `cwd` (plain names) whose regular files, all of them
    /// (at most [`KEPT_DIR_FILES`](crate::sandbox::KEPT_DIR_FILES), together
    /// at most `keep_max` bytes), are copied like `keep`'s once the program
    /// ended; nothing else in them is.
    #[serde(default)]
    pub(crate) keep_dirs: Vec<String>,
    /// Folders of `cwd` (plain names, made by `make_dirs`) that get, before
    /// the program starts, copies of the regular files of a directory sent
    /// as a descriptor, one each, after all others (within the bounds of
    /// `keep_dirs`), the run's own.
    #[serde(default)]
    pub(crate) fill: Vec<String>,
    /// A file the run finds in its working directory under this name: the
    /// keeper copies it there from the descriptor after stdio.
    #[serde(default)]
    pub(crate) input_file: Option<String>,
    /// A file the run writes in its working directory: once the run has
    /// ended, the keeper copies it (a regular file only, at most the
    /// file-size limit) to the last descriptor.
    #[serde(default)]
    pub(crate) output_file: Option<String>,
    /// Whether the program is timed for a verdict (a submission's run): it
    /// then runs at a raised priority where the keeper may raise it (see
    /// [`SpawnPlan::raise_priority`](crate::sandbox::sys::SpawnPlan::raise_priority)).
    #[serde(default)]
    pub(crate) raise_priority: bool,
}

impl Job {
    /// How many descriptors come with the job: stdio, one per named file,
    /// the directory kept files go to when it keeps any, and one per
    /// folder filled.
    pub(crate) fn descriptors(&self) -> usize {
        3 + usize::from(self.input_file.is_some())
            + usize::from(self.output_file.is_some())
            + usize::from(self.keeps())
            + self.fill.len()
    }

    /// Whether files of its working directory are copied out.
    pub(crate) fn keeps(&self) -> bool {
        !self.keep.is_empty() || !self.keep_dirs.is_empty()
    }
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
    /// When it ended, on the system's monotonic clock (ns; 0: unknown).
    #[serde(default)]
    pub(crate) ended_ns: u64,
    /// How long it was runnable but waited for a CPU, when the wall limit
    /// stopped it.
    #[serde(default)]
    pub(crate) waited_for_cpu: Duration,
    /// Peak RSS (wait4), KiB.
    pub(crate) max_rss_kib: u64,
    /// The limit the keeper enforced, if it stopped the job.
    pub(crate) stopped: Option<Stopped>,
    /// What the run used, from the slot's cgroup.
    pub(crate) usage: Option<cgroup::Usage>,
    /// Why a file to keep could not be kept.
    #[serde(default)]
    pub(crate) keep_error: Option<String>,
    /// What the run left under its output file's name.
    #[serde(default)]
    pub(crate) output_file: Option<crate::sandbox::named_files::Collected>,
}

/// The keeper's first message: ready, or why not.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Ready {
    /// The setup error, if any.
    pub(crate) error: Option<String>,
}

/// The message that asks the keeper to kill the running job.
pub(crate) const KILL: &[u8] = b"k";

pub(super) fn send<T: Serialize>(socket: &OwnedFd, value: &T) -> io::Result<()> {
    let data = serde_json::to_vec(value).map_err(io::Error::other)?;
    sys::send_with_fds(socket.as_raw_fd(), &data, &[])
}

/// Receives one message (blocking) and decodes it; `Ok(None)` at the end of
/// the stream.
pub(super) fn receive<T: for<'a> Deserialize<'a>>(
    socket: &OwnedFd,
    buf: &mut [u8],
) -> io::Result<Option<T>> {
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
pub(super) fn next_message(
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
