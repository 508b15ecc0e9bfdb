//! The data of a run: what is asked ([`RunRequest`] with its [`Limits`],
//! [`Stdin`], [`Environment`]), what comes back ([`RunOutcome`] with its
//! [`Exit`], [`LimitHit`], [`Captured`] output) or why nothing could run
//! ([`RunError`]), and how strongly it is isolated ([`Isolation`],
//! [`IsolationMode`], [`Profile`]).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use super::{cgroup, signal_name, sys};

/// How strongly a run was isolated and how it was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Isolation {
    /// Full: namespaces (user when not root, mount, pid, network, ipc, uts),
    /// uid 65534, a read-only root with the workspace hidden, and a cgroup
    /// for memory (limit, peak, OOM evidence), processes and CPU of every
    /// process of the run.
    Cgroup(cgroup::Version),
    /// Namespaces as above but no cgroup: memory by address-space rlimit and
    /// ru_maxrss, processes by RLIMIT_NPROC, CPU of the main process.
    Namespaces,
    /// Process group and rlimits only; CPU time and peak RSS from wait4.
    RlimitOnly,
}

impl Isolation {
    /// The name shown in reports (`cgroup-v1`, `cgroup-v2`, `namespaces`, `rlimit-only`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Isolation::Cgroup(cgroup::Version::V1) => "cgroup-v1",
            Isolation::Cgroup(cgroup::Version::V2) => "cgroup-v2",
            Isolation::Namespaces => "namespaces",
            Isolation::RlimitOnly => "rlimit-only",
        }
    }
}

impl Isolation {
    /// What this level does not protect, against full isolation (`None` at
    /// full isolation).
    pub(crate) fn gaps(self) -> Option<&'static str> {
        match self {
            Isolation::Cgroup(_) => None,
            Isolation::Namespaces => Some(
                "runs have no cgroup: memory is limited by address space and measured as the \
                 program's own peak RSS (not its children's), CPU time is the main process's, \
                 and processes are limited per user (RLIMIT_NPROC)",
            ),
            Isolation::RlimitOnly => Some(
                "runs are not contained: they can read the workspace and the answers, use the \
                 network, leave processes behind and signal the judge; use it only for trusted code",
            ),
        }
    }
}

impl Serialize for Isolation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Where the process reads stdin from.
#[derive(Debug, Clone)]
pub(crate) enum Stdin {
    /// An empty stdin.
    Null,
    /// A file.
    File(PathBuf),
    /// A pipe's read end (an interaction), taken by the run.
    Pipe(super::Handoff),
}

/// Which environment the process sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Environment {
    /// The judge's own environment (the probes of judge.toml's commands).
    Inherit,
    /// Only PATH, HOME (the working directory), LANG and TMPDIR, and these
    /// variables (a language's own, from judge.toml): runs are reproducible
    /// whatever the judge's environment holds, and see none of it (CI
    /// secrets live there).
    Minimal(Vec<(String, String)>),
}

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// CPU time (user + system); exceeding it kills the run.
    pub(crate) cpu_time: Duration,
    /// Wall-clock time from start; exceeding it kills the run.
    pub(crate) wall_time: Duration,
    /// Memory in bytes, if limited.
    pub(crate) memory: Option<u64>,
    /// Whether `memory` is also applied as an address-space rlimit.
    pub(crate) address_space: bool,
    /// Bytes of stdout kept; writing more kills the run (output limit).
    pub(crate) stdout: u64,
    /// Bytes of stderr kept; the rest is drained and dropped.
    pub(crate) stderr: u64,
    /// Largest file the process may write itself.
    pub(crate) file_size: u64,
    /// Whether writing more than `stdout` ends the run at once (OLE). When
    /// not, the rest is drained and dropped and the run goes on: a time
    /// limit it then reaches decides (TLE), as problemtools and BAPCtools
    /// judge the output only after the run.
    pub(crate) output_ends_run: bool,
}

/// One process to run.
#[derive(Debug, Clone)]
pub(crate) struct RunRequest {
    /// Program and arguments; a program without a slash is looked up in PATH.
    pub(crate) argv: Vec<OsString>,
    /// Working directory.
    pub(crate) cwd: PathBuf,
    /// Standard input.
    pub(crate) stdin: Stdin,
    /// Where stdout is spilled once it outgrows memory (kept in memory if `None`).
    pub(crate) stdout_spill: Option<PathBuf>,
    /// A pipe's write end that is the program's stdout instead (an
    /// interaction): nothing is captured then.
    pub(crate) stdout_to: Option<super::Handoff>,
    /// The environment.
    pub(crate) environment: Environment,
    /// Limits.
    pub(crate) limits: Limits,
    /// The directory holding the program (its build directory): a sandboxed
    /// run sees it, read-only, at `/judge/build`, and nothing else of the
    /// build cache. Paths into it in `argv` are rewritten to match.
    pub(crate) program_dir: Option<PathBuf>,
    /// What a package program reads and leaves besides its stdin and stdout.
    pub(crate) exchange: Exchange,
}

/// The files a package program ([`Profile::Package`]) reads and leaves,
/// named by its command line. `cwd` of its request stands for its working
/// directory: paths below it in `argv` are rewritten to it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Exchange {
    /// Files it reads (a test's input and answer, an output to check): shown
    /// read-only, their paths in `argv` rewritten. Files of its package's
    /// folders that it may read are shown where they are.
    pub(crate) files: Vec<PathBuf>,
    /// Folders made in its working directory before it starts (relative).
    pub(crate) dirs: Vec<String>,
    /// Files of its working directory (relative) copied back below `cwd`
    /// once it ended, each cut at its file-size limit; a link, a pipe or a
    /// folder of that name is not copied.
    pub(crate) keep: Vec<String>,
    /// Folders of its working directory (plain names, each one of `dirs`)
    /// whose regular files, all of them, are copied back below `cwd` once
    /// it ended: at most [`KEPT_DIR_FILES`] files, together at most its
    /// file-size limit (more is an error of the run, its `keep_error`).
    /// Links, pipes and folders in them are neither followed nor copied.
    pub(crate) keep_dirs: Vec<String>,
    /// Host folders, each with a folder of its working directory (a plain
    /// name, one of `dirs`): copies of the host folder's regular files (no
    /// link, pipe or folder; within the bounds of `keep_dirs`) are there
    /// when it starts, its own to change.
    pub(crate) fill: Vec<(PathBuf, String)>,
}

/// The most files a folder of [`Exchange::keep_dirs`] may hold.
pub(crate) const KEPT_DIR_FILES: u64 = 100;

/// How the process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal killed it.
    Signal(i32),
}

/// The limit that made the runner stop the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LimitHit {
    /// CPU time (polled, or the RLIMIT_CPU backstop).
    CpuTime,
    /// Wall-clock time.
    WallTime,
    /// Stdout size, or the file-size rlimit.
    Output,
}

/// Captured stdout: in memory while small, in a file beyond.
#[derive(Debug)]
pub enum Captured {
    /// The bytes.
    Memory(Vec<u8>),
    /// A file holding the bytes.
    File {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
}

impl Captured {
    /// Number of bytes captured.
    pub fn len(&self) -> u64 {
        match self {
            Captured::Memory(b) => b.len() as u64,
            Captured::File { len, .. } => *len,
        }
    }

    /// Whether nothing was captured.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A reader over the bytes.
    pub fn reader(&self) -> io::Result<Box<dyn Read + Send + '_>> {
        Ok(match self {
            Captured::Memory(b) => Box::new(&b[..]),
            Captured::File { path, .. } => Box::new(File::open(path)?),
        })
    }

    /// The bytes, read fully (only for outputs known to be small).
    pub fn to_vec(&self) -> io::Result<Vec<u8>> {
        let mut v = Vec::new();
        self.reader()?.read_to_end(&mut v)?;
        Ok(v)
    }

    /// Writes the bytes to `path` (used to hand output to external programs).
    pub fn write_to(&self, path: &Path) -> io::Result<()> {
        match self {
            Captured::Memory(b) => std::fs::write(path, b),
            Captured::File { path: from, .. } => std::fs::copy(from, path).map(|_| ()),
        }
    }
}

/// The result of one run: how it ended and what it used.
#[derive(Debug)]
pub(crate) struct RunOutcome {
    /// Exit code or signal.
    pub(crate) exit: Exit,
    /// The limit the runner enforced, if it stopped the process.
    pub(crate) limit_hit: Option<LimitHit>,
    /// CPU time, user + system, of this process (wait4).
    pub(crate) cpu_time: Duration,
    /// Wall time from spawn to exit (monotonic clock).
    pub(crate) wall_time: Duration,
    /// Peak resident memory, KiB (ru_maxrss).
    pub(crate) peak_memory_kib: u64,
    /// Stdout, at most `limits.stdout` bytes.
    pub(crate) stdout: Captured,
    /// Stderr, at most `limits.stderr` bytes.
    pub(crate) stderr: Vec<u8>,
    /// Whether the process wrote more stderr than was kept.
    pub(crate) stderr_truncated: bool,
    /// Evidence that the memory limit stopped it (a cgroup OOM kill).
    pub(crate) memory_exceeded: bool,
    /// Evidence that it tried to create more processes than a run may have
    /// (the pids cgroup refused a fork).
    pub(crate) process_limit_hit: bool,
    /// When it ended, on the system's monotonic clock (ns): which of two
    /// programs run at once ended first.
    pub(crate) ended_ns: u64,
    /// How long it was runnable but waited for a CPU, read when the wall
    /// limit stopped it (zero otherwise): a starved run, not a sleeping one.
    pub(crate) waited_for_cpu: Duration,
    /// Why what it left could not be kept: a compilation's build too large
    /// (see [`Keep`]), a package program's file unreadable.
    pub(crate) keep_error: Option<String>,
}

impl RunOutcome {
    /// Whether the process exited normally with code 0 and no limit was hit.
    pub(crate) fn success(&self) -> bool {
        self.exit == Exit::Code(0) && self.limit_hit.is_none()
    }

    /// Whether SIGPIPE ended it: it wrote to a pipe nobody reads any more
    /// (an interactor that had decided and gone).
    pub(crate) fn broken_pipe(&self) -> bool {
        self.exit == Exit::Signal(sys::signals::SIGPIPE)
    }

    /// What shows that the run failed at its memory limit of `limit`
    /// bytes, if anything does: the cgroup's OOM kill, a peak above the
    /// limit, or (when it did not exit cleanly) a runtime's message that its
    /// heap is full (its heap flags are the limit) or, under an
    /// address-space limit (`address_space`), that an allocation failed.
    pub(crate) fn memory_evidence(
        &self,
        limit: u64,
        address_space: bool,
    ) -> Option<MemoryEvidence> {
        if self.memory_exceeded {
            return Some(MemoryEvidence::OomKill);
        }
        if self.peak_memory_kib > limit / 1024 {
            return Some(MemoryEvidence::Peak);
        }
        if self.exit == Exit::Code(0) {
            return None;
        }
        let stderr = String::from_utf8_lossy(&self.stderr);
        if let Some(found) = HEAP_EXHAUSTED.iter().find(|m| stderr.contains(**m)) {
            return Some(MemoryEvidence::HeapFull(found));
        }
        ALLOCATION_FAILURES
            .iter()
            .find(|m| address_space && stderr.contains(**m))
            .map(|found| MemoryEvidence::AllocationFailed(found))
    }

    /// "exit code 3" / "killed by SIGSEGV".
    pub(crate) fn describe_exit(&self) -> String {
        match self.exit {
            Exit::Code(c) => format!("exit code {c}"),
            Exit::Signal(s) => format!("killed by {}", signal_name(s)),
        }
    }
}

/// What shows that a run failed at its memory limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MemoryEvidence {
    /// The cgroup's OOM killer stopped it.
    OomKill,
    /// Its peak memory is above the limit.
    Peak,
    /// Its runtime said its heap is full (this message).
    HeapFull(&'static str),
    /// Its runtime said an allocation failed (this message).
    AllocationFailed(&'static str),
}

/// Messages a runtime prints when an allocation fails: evidence that a crash
/// under the address-space limit was the memory limit.
const ALLOCATION_FAILURES: &[&str] = &[
    "std::bad_alloc",
    "memory allocation of",
    "Cannot allocate memory",
    "out of memory",
];

/// What a runtime prints when its heap, which judge.toml's heap flags set to
/// the memory limit (`-Xmx{memory_mib}m`, `--max-old-space-size`, `+RTS -M`,
/// `max-heap-size`, `PYPY_GC_MAX`, PHP's `memory_limit`), is full: the memory limit, whatever the
/// address-space setting.
const HEAP_EXHAUSTED: &[&str] = &[
    "java.lang.OutOfMemoryError",
    "JavaScript heap out of memory",
    "Heap exhausted;",
    "System.OutOfMemoryException",
    "fatal error: runtime: out of memory",
    "failed to allocate memory (NoMemoryError)",
    "MemoryError",
    "Fatal error:  Allowed memory size of",
];

/// Why a process could not be run at all.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunError {
    /// The program could not be started (not found, not executable).
    #[error("cannot start `{program}`")]
    Spawn {
        /// The program.
        program: String,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// Waiting for or reading from the process failed.
    #[error("lost track of `{program}`")]
    Watch {
        /// The program.
        program: String,
        /// The OS error.
        #[source]
        source: io::Error,
    },
}

/// How hard the judge insists on isolation (`--isolation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum IsolationMode {
    /// Refuse to judge unless full isolation (namespaces and a cgroup) works.
    Strict,
    /// Use the strongest level the machine allows; warn when weaker than full.
    #[default]
    Auto,
    /// Plain runner only (process group and rlimits), e.g. as a baseline.
    None,
}

/// What a sandboxed run is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Profile {
    /// A submission on a test: uid 65534, private /tmp as cwd, its own build
    /// read-only.
    Submission,
    /// A compilation: uid 65534 like a run, the toolchain's directories
    /// shown read-only, and a writable work directory of its own (a tmpfs:
    /// the request's `cwd` is copied in before and out after).
    Compile {
        /// Memory limit of the compiler, bytes.
        memory: u64,
        /// What its work directory and /tmp may hold, bytes each.
        disk: u64,
        /// Directories outside the system's it needs (a toolchain in a
        /// home directory), shown read-only at their own paths.
        toolchain: Vec<PathBuf>,
        /// A directory of precompiled headers, shown read-only at
        /// [`HEADERS_MOUNT`](super::keeper::HEADERS_MOUNT).
        headers: Option<PathBuf>,
        /// What is copied back into the request's `cwd` afterwards.
        keep: Keep,
    },
    /// A package program (generator, validator, reference, brute force,
    /// checker, interactor): as hostile as a submission, so uid 65534 like a
    /// run, in a cgroup slot with its own limits, no network, and a view of
    /// the system's directories and its own package's folders (at
    /// `/judge/package`), read-only; the files it names
    /// ([`Exchange::files`]) read-only at `/judge/files`, its build at
    /// `/judge/build`, and a private `/tmp` as its working directory.
    Package(std::sync::Arc<PackageView>),
}

/// What a package program sees of its package.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PackageView {
    /// The package's folders (its directory, and its test data where that
    /// is elsewhere), shown read-only at `/judge/package` (and
    /// `/judge/package-1`); their paths in a command line are rewritten.
    pub(crate) dirs: Vec<PathBuf>,
}

/// How a package program runs: what it sees, and its limits.
#[derive(Debug, Clone)]
pub(crate) struct PackageRun {
    /// Its package.
    pub(crate) view: std::sync::Arc<PackageView>,
    /// Its limits (memory always set).
    pub(crate) limits: Limits,
}

/// What of a compilation's work directory is kept, and how much it may be:
/// the rest is left in the sandbox. Over the limits, the build is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Keep {
    /// Which names of its top level.
    pub(crate) select: super::untrusted::Select,
    /// How much.
    pub(crate) limits: super::untrusted::TreeLimits,
}

/// Where the sandbox hides and shows things.
#[derive(Debug, Clone)]
pub(crate) struct SandboxPaths {
    /// Host directories hidden from runs and compilations where they fall
    /// inside a directory they see (workspace, cache, problems, home).
    pub(crate) hide: Vec<PathBuf>,
    /// Where each slot's copy of the build it runs is made: a directory on
    /// the build cache's file system, so that the copy is hard links.
    pub(crate) staging: PathBuf,
}

/// Processes allowed per run (threads count too).
pub(crate) const RUN_PROCESSES: u64 = 128;

/// Processes allowed per compilation.
pub(crate) const COMPILE_PROCESSES: u64 = 512;

/// Processes allowed per run of a package program.
pub(crate) const PACKAGE_PROCESSES: u64 = 256;

/// The address-space rlimit for a memory limit when no cgroup measures real
/// memory: above the limit, so that a program that goes over it is seen going
/// over it (its peak RSS exceeds the limit: MLE from evidence) before the
/// backstop stops it.
pub(crate) fn address_space_backstop(memory: u64) -> u64 {
    memory.saturating_mul(2).saturating_add(64 << 20)
}

pub(crate) fn exit_of(code: Option<i32>, signal: Option<i32>) -> Exit {
    match (code, signal) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(signal)) => Exit::Signal(signal),
        (None, None) => Exit::Signal(sys::signals::SIGKILL),
    }
}
