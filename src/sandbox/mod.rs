//! Running one process under limits and measuring it. The interface is narrow
//! on purpose: a [`RunRequest`] (argv, working directory, stdin file, limits)
//! goes in, a [`RunOutcome`] (how it ended, which limit stopped it, CPU time,
//! wall time, peak memory, captured output, isolation level) comes out.
//! Nothing else in the judge spawns processes.
//!
//! Two runners share that interface:
//! - [`run`]: the plain runner ([`Isolation::RlimitOnly`]): an own process
//!   group killed as a whole, rlimits, a polled CPU limit, a monotonic wall
//!   deadline. Package programs (generators, references, validators,
//!   checkers) run this way: they are trusted.
//! - [`Sandbox::run`]: hostile code (submissions and their compilation) runs in
//!   a keeper's namespaces and cgroup (see [`keeper`]), falling back loudly to
//!   weaker levels where the machine cannot do better. At the weakest level
//!   (and with `--isolation none`) submissions get the plain runner, but are
//!   started by a spawner, a keeper without namespaces, so that their memory
//!   can be measured without copying the judge's (see `run_plain`).
//!
//! The security model and measurement method are in docs/sandbox.md.

pub mod cgroup;
mod isolated;
pub mod keeper;
mod sys;

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::io::AsyncReadExt;

pub use isolated::KEEPER_COMMAND;
pub use keeper::keeper_main;
pub use sys::signal_name;

/// How strongly a run was isolated and how it was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isolation {
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
    pub fn as_str(self) -> &'static str {
        match self {
            Isolation::Cgroup(cgroup::Version::V1) => "cgroup-v1",
            Isolation::Cgroup(cgroup::Version::V2) => "cgroup-v2",
            Isolation::Namespaces => "namespaces",
            Isolation::RlimitOnly => "rlimit-only",
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
pub enum Stdin {
    /// An empty stdin.
    Null,
    /// A file.
    File(PathBuf),
}

/// Which environment the process sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Environment {
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
pub struct Limits {
    /// CPU time (user + system); exceeding it kills the run.
    pub cpu_time: Duration,
    /// Wall-clock time from start; exceeding it kills the run.
    pub wall_time: Duration,
    /// Memory in bytes, if limited.
    pub memory: Option<u64>,
    /// Whether `memory` is also applied as an address-space rlimit.
    pub address_space: bool,
    /// Bytes of stdout kept; writing more kills the run (output limit).
    pub stdout: u64,
    /// Bytes of stderr kept; the rest is drained and dropped.
    pub stderr: u64,
    /// Largest file the process may write itself.
    pub file_size: u64,
}

/// One process to run.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// Program and arguments; a program without a slash is looked up in PATH.
    pub argv: Vec<OsString>,
    /// Working directory.
    pub cwd: PathBuf,
    /// Standard input.
    pub stdin: Stdin,
    /// Where stdout is spilled once it outgrows memory (kept in memory if `None`).
    pub stdout_spill: Option<PathBuf>,
    /// The environment.
    pub environment: Environment,
    /// Limits.
    pub limits: Limits,
    /// The directory holding the program (its build directory): a sandboxed
    /// run sees it, read-only, at `/judge/build`, and nothing else of the
    /// build cache. Paths into it in `argv` are rewritten to match.
    pub program_dir: Option<PathBuf>,
}

/// How the process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal killed it.
    Signal(i32),
}

/// The limit that made the runner stop the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
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
pub struct RunOutcome {
    /// Exit code or signal.
    pub exit: Exit,
    /// The limit the runner enforced, if it stopped the process.
    pub limit_hit: Option<LimitHit>,
    /// CPU time, user + system, of this process (wait4).
    pub cpu_time: Duration,
    /// Wall time from spawn to exit (monotonic clock).
    pub wall_time: Duration,
    /// Peak resident memory, KiB (ru_maxrss).
    pub peak_memory_kib: u64,
    /// Stdout, at most `limits.stdout` bytes.
    pub stdout: Captured,
    /// Stderr, at most `limits.stderr` bytes.
    pub stderr: Vec<u8>,
    /// Whether the process wrote more stderr than was kept.
    pub stderr_truncated: bool,
    /// Evidence that the memory limit stopped it (a cgroup OOM kill).
    pub memory_exceeded: bool,
    /// Evidence that it tried to create more processes than a run may have
    /// (the pids cgroup refused a fork).
    pub process_limit_hit: bool,
    /// Isolation level and measurement method.
    pub isolation: Isolation,
}

impl RunOutcome {
    /// Whether the process exited normally with code 0 and no limit was hit.
    pub fn success(&self) -> bool {
        self.exit == Exit::Code(0) && self.limit_hit.is_none()
    }

    /// "exit code 3" / "killed by SIGSEGV".
    pub fn describe_exit(&self) -> String {
        match self.exit {
            Exit::Code(c) => format!("exit code {c}"),
            Exit::Signal(s) => format!("killed by {}", signal_name(s)),
        }
    }
}

/// Why a process could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
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

/// The PATH of runs in the minimal environment.
const SYSTEM_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Finds a bare program name (`python3`) in the system PATH first, so that runs
/// do not go through per-user shims (a pyenv shim costs 100+ ms of CPU per run,
/// charged to the submission); falls back to the judge's own PATH.
pub fn resolve_program(program: &OsString) -> OsString {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static RESOLVED: Mutex<Option<HashMap<OsString, OsString>>> = Mutex::new(None);
    if Path::new(program).components().count() != 1 {
        return program.clone();
    }
    let mut map = RESOLVED.lock().expect("not poisoned");
    let map = map.get_or_insert_with(HashMap::new);
    if let Some(found) = map.get(program) {
        return found.clone();
    }
    let user_path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(SYSTEM_PATH).chain(std::env::split_paths(&user_path));
    let found = search_path(program, dirs);
    map.insert(program.clone(), found.clone());
    found
}

/// The first executable `program` in `dirs` (a bare name only; a path or a
/// name found nowhere is returned unchanged, for exec to report).
fn search_path(program: &OsString, dirs: impl Iterator<Item = PathBuf>) -> OsString {
    if Path::new(program).components().count() != 1 {
        return program.clone();
    }
    dirs.map(|dir| dir.join(program))
        .find(|candidate| is_executable_file(candidate))
        .map_or_else(|| program.clone(), PathBuf::into_os_string)
}

/// Whether `path` is a regular file with an execute bit.
pub fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Stdout kept in memory before it spills to a file.
const SPILL_THRESHOLD: usize = 1 << 20;
/// How long leftover output pipes are drained after the process ended
/// (a descendant that escaped the group may hold them open).
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Runs one process to completion under `request.limits`.
pub async fn run(request: &RunRequest) -> Result<RunOutcome, RunError> {
    run_plain(request, None, &mut Turn::now()).await
}

/// When a run may start, for runs prepared ahead of their turn (see
/// [`Sandbox::run_in_turn`]): a future that resolves when the turn comes,
/// and what it gave (a slot, kept by the caller).
pub struct Turn<'a, T> {
    wait: Option<std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>>,
    given: Option<T>,
}

impl<'a, T> Turn<'a, T> {
    /// A turn that comes when `wait` resolves.
    pub fn when(wait: impl std::future::Future<Output = T> + Send + 'a) -> Self {
        Turn {
            wait: Some(Box::pin(wait)),
            given: None,
        }
    }

    /// Whether the turn has come.
    fn has_come(&self) -> bool {
        self.wait.is_none()
    }

    /// Waits for the turn, if it has not come yet.
    async fn come(&mut self) {
        if let Some(wait) = self.wait.take() {
            self.given = Some(wait.await);
        }
    }

    /// What the turn gave; `None` if it had already come when made, if the
    /// run ended (failed) before it came, or if the run gave it back once its
    /// program was gone (see [`Turn::end`]).
    pub fn into_given(self) -> Option<T> {
        self.given
    }

    /// Gives back what the turn gave (a slot), if anything, and lets the
    /// next run (waiting for it) start before this one goes on.
    async fn end(&mut self) {
        if let Some(given) = self.given.take() {
            drop(given);
            tokio::task::yield_now().await;
        }
    }
}

impl Turn<'static, ()> {
    /// A turn that has already come (and gives nothing).
    pub fn now() -> Self {
        Turn {
            wait: None,
            given: None,
        }
    }
}

/// How many times a run prepared ahead of its turn is started again when it
/// was killed before it exec'd, or its spawners were while preparing it (at
/// the rlimit-only level a run can signal its siblings: the one running
/// meanwhile).
const PREPARED_RETRIES: usize = 3;

/// How an attempt of [`run_plain`] ended.
enum Attempt {
    Ran(RunOutcome),
    /// Nothing ran: what was prepared ahead of the run's turn was killed
    /// before the program could exec. Try again (the turn has come).
    Again,
}

/// The plain runner: the program in a process group of its own, under
/// rlimits, watched and reaped by the judge. With `spawners`, a small
/// process (a keeper started as a spawner) starts it, as the judge's child
/// sharing the spawner's memory until it execs: cheap, and its ru_maxrss
/// starts at the spawner's small footprint; and it is started before its
/// `turn`, waiting ready to exec until then, so that a turn's start costs
/// one write. Without, the judge starts it itself when its turn comes, with
/// a copy of its memory when the run's memory is measured.
async fn run_plain<T>(
    request: &RunRequest,
    spawners: Option<&Shared>,
    turn: &mut Turn<'_, T>,
) -> Result<RunOutcome, RunError> {
    let mut tries = 0;
    loop {
        match run_plain_once(request, spawners, turn).await? {
            Attempt::Ran(outcome) => return Ok(outcome),
            Attempt::Again if tries < PREPARED_RETRIES => tries += 1,
            Attempt::Again => return Err(RunError::Watch {
                program: request.argv[0].to_string_lossy().into_owned(),
                source: io::Error::other(
                    "what was started for the program was killed again and again before it ran \
                         (at the rlimit-only level a run can kill it: hostile code needs a \
                         stronger level)",
                ),
            }),
        }
    }
}

/// One attempt of [`run_plain`].
async fn run_plain_once<T>(
    request: &RunRequest,
    spawners: Option<&Shared>,
    turn: &mut Turn<'_, T>,
) -> Result<Attempt, RunError> {
    let program = request
        .argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let limits = request.limits;
    let program_path = match request.environment {
        Environment::Minimal(_) => resolve_program(&request.argv[0]),
        Environment::Inherit => find_in_user_path(&request.argv[0]),
    };
    let env: Vec<(OsString, OsString)> = match &request.environment {
        Environment::Minimal(extra) => minimal_env(&request.cwd, extra),
        Environment::Inherit => std::env::vars_os().collect(),
    };
    let spawn_err = |source| RunError::Spawn {
        program: program.clone(),
        source,
    };
    let watch_err = |source| RunError::Watch {
        program: program.clone(),
        source,
    };
    let cpu_backstop = limits.cpu_time.as_secs() + 1;
    let rlimits = sys::Rlimits {
        cpu_seconds: Some(cpu_backstop),
        address_space: limits
            .memory
            .filter(|_| limits.address_space)
            .map(address_space_backstop),
        stack: limits.memory,
        file_size: Some(limits.file_size),
        open_files: None,
    };
    let stdin = open_stdin(&request.stdin, &program)?;
    let (out_read, out_write) = output_pipe().map_err(watch_err)?;
    let (err_read, err_write) = output_pipe().map_err(watch_err)?;
    // The gate a run started ahead of its turn waits on: the child gets the
    // read end, the judge keeps the write end.
    let (gate_read, gate) = match spawners {
        Some(_) if !turn.has_come() => {
            let (read, write) = sys::pipe().map_err(watch_err)?;
            (Some(read), Some(std::fs::File::from(write)))
        }
        _ => (None, None),
    };
    let mut start = Instant::now();
    let (spawned, lease) = match spawners {
        Some(shared) => {
            let job = keeper::Job {
                argv: std::iter::once(&program_path)
                    .chain(&request.argv[1..])
                    .map(|a| a.as_encoded_bytes().to_vec())
                    .collect(),
                env: env.iter().map(|(k, v)| env_entry(k, v)).collect(),
                cwd: request.cwd.clone(),
                cpu_limit: limits.cpu_time,
                wall_limit: limits.wall_time,
                rlimits,
                processes: None,
                memory: None,
                pids: 0,
            };
            let spawned = shared
                .spawn(
                    &job,
                    [stdin.into(), out_write, err_write],
                    gate_read.as_ref(),
                )
                .await;
            // The child has its own copy (or none was made).
            drop(gate_read);
            match spawned {
                Ok((spawned, lease)) => (spawned, Some(lease)),
                // Spawners killed while another run went on: again once
                // that run is over.
                Err(_) if gate.is_some() => {
                    turn.come().await;
                    return Ok(Attempt::Again);
                }
                Err(e) => return Err(watch_err(e)),
            }
        }
        None => {
            turn.come().await;
            start = Instant::now();
            let spawned = spawn_here(
                request,
                &program_path,
                &env,
                &rlimits,
                [&stdin, &out_write, &err_write],
            )
            .map_err(spawn_err)?;
            drop((stdin, out_write, err_write));
            (spawned, None)
        }
    };
    let (pid, report) = match spawned {
        Ok(started) => started,
        Err((pid, source)) => {
            if let Some(pid) = pid {
                let _ = sys::reap(pid);
            }
            return Err(spawn_err(source));
        }
    };
    let mut guard = ReapGuard { pid: Some(pid) };
    // Readable once the child has exited (it stays unreaped until `reap`).
    let pidfd = sys::pidfd_open(pid as i32).map_err(watch_err)?;
    // SAFETY: `pidfd` is a descriptor just opened and owned by nobody else;
    // the AsyncFd takes it over and closes it when dropped.
    let exited = unsafe { tokio::io::unix::AsyncFd::register(pidfd) }
        .map_err(io::Error::from)
        .map_err(watch_err)?;

    if let Some(open) = &gate {
        turn.come().await;
        start = Instant::now();
        // A failed write (the program is gone: killed while waiting) is
        // seen once it is reaped.
        let _ = std::io::Write::write(&mut &*open, b"g");
    }
    // The spawner goes on once the program has exec'd.
    drop(lease);
    let (mut drains, mut exceeded) =
        Drains::start(out_read, err_read, &limits, request.stdout_spill.clone());
    // One timer for both the CPU time checks and the wall deadline, made
    // once and moved on: registering a timer wakes the runtime's driver.
    let deadline = tokio::time::Instant::from_std(start + limits.wall_time);
    let poll = (limits.cpu_time / 10).clamp(Duration::from_millis(10), Duration::from_millis(100));
    let timer = tokio::time::sleep_until((tokio::time::Instant::now() + poll).min(deadline));
    tokio::pin!(timer);
    let mut limit_hit = None;
    loop {
        tokio::select! {
            ready = exited.readable() => {
                ready.map_err(watch_err)?.retain_ready();
                break;
            }
            _ = drains.progress() => {}
            _ = exceeded.wait(), if limit_hit.is_none() => {
                sys::kill_group(pid);
                limit_hit = Some(LimitHit::Output);
            }
            _ = &mut timer, if limit_hit.is_none() => {
                let now = tokio::time::Instant::now();
                if now >= deadline {
                    sys::kill_group(pid);
                    limit_hit = Some(LimitHit::WallTime);
                } else if sys::cpu_time_so_far(pid).is_some_and(|t| t > limits.cpu_time) {
                    sys::kill_group(pid);
                    limit_hit = Some(LimitHit::CpuTime);
                } else {
                    timer.as_mut().reset((now + poll).min(deadline));
                }
            }
        }
    }
    let wall_time = start.elapsed();
    // The leader has exited but is not reaped: its group id is still ours, so
    // killing the group cannot hit an unrelated process. Then reap.
    sys::kill_group(pid);
    let never_ran = gate.is_some() && limit_hit.is_none() && killed_before_exec(pid);
    let reaped = sys::reap(pid).map_err(watch_err)?;
    guard.pid = None;
    if never_ran {
        return Ok(Attempt::Again);
    }
    // The program is gone: the next one may start while this one's output
    // is collected and checked.
    turn.end().await;
    if let Some(error) = report.as_ref().and_then(isolated::late_exec_error) {
        return Err(spawn_err(error));
    }
    let drained = drains.finish().await.map_err(watch_err)?;
    if drained.stdout_over {
        limit_hit.get_or_insert(LimitHit::Output);
    }
    let exit = exit_of(reaped.code, reaped.signal);
    if limit_hit.is_none() {
        limit_hit = match exit {
            Exit::Signal(sys::signals::SIGXCPU) => Some(LimitHit::CpuTime),
            Exit::Signal(sys::signals::SIGKILL) if reaped.cpu_time.as_secs() >= cpu_backstop => {
                Some(LimitHit::CpuTime)
            }
            Exit::Signal(sys::signals::SIGXFSZ) => Some(LimitHit::Output),
            _ => None,
        };
    }
    Ok(Attempt::Ran(RunOutcome {
        exit,
        limit_hit,
        cpu_time: reaped.cpu_time,
        wall_time,
        peak_memory_kib: reaped.max_rss_kib,
        stdout: drained.stdout,
        stderr: drained.stderr,
        stderr_truncated: drained.stderr_truncated,
        memory_exceeded: false,
        process_limit_hit: false,
        isolation: Isolation::RlimitOnly,
    }))
}

/// Whether `pid` (exited, unreaped), started by a spawner ahead of its turn,
/// was killed before it exec'd: killed by a signal the judge did not send
/// while it still had the spawner's name (exec gives it the program's). A
/// signal can be sent to it while it waits, and take effect only after the
/// gate opened; a program that renames itself so is run again, a few times.
fn killed_before_exec(pid: u32) -> bool {
    static SPAWNER_NAME: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let spawner = SPAWNER_NAME.get_or_init(|| {
        // The kernel's name of a process: its executable's file name, cut
        // to 15 bytes.
        let exe = std::env::current_exe().unwrap_or_default();
        let name = exe.file_name().unwrap_or_default().as_encoded_bytes();
        name[..name.len().min(15)].to_vec()
    });
    sys::killed_unreaped(pid)
        && std::fs::read(format!("/proc/{pid}/comm"))
            .is_ok_and(|name| name.strip_suffix(b"\n").unwrap_or(&name) == spawner.as_slice())
}

/// A started child, with the report pipe of a spawner if one started it;
/// or the error that kept it from exec'ing, with the child if there is one
/// (which must still be reaped).
type Spawned = Result<(u32, Option<tokio::net::unix::pipe::Receiver>), (Option<u32>, io::Error)>;

/// Starts the program from the judge itself: the plain runner without a
/// spawner. Returns the child, or the error that kept it from exec'ing (with
/// the child, which must still be reaped).
fn spawn_here(
    request: &RunRequest,
    program_path: &std::ffi::OsStr,
    env: &[(OsString, OsString)],
    rlimits: &sys::Rlimits,
    stdio: [&dyn std::os::fd::AsRawFd; 3],
) -> io::Result<Spawned> {
    // The plan holds raw pointers for the child: gone before any await.
    let plan = sys::SpawnPlan::new(
        std::iter::once(program_path)
            .chain(request.argv[1..].iter().map(|a| a.as_os_str()))
            .map(|a| c_string(a.as_encoded_bytes()))
            .collect::<io::Result<_>>()?,
        env.iter()
            .map(|(k, v)| c_string(&env_entry(k, v)))
            .collect::<io::Result<_>>()?,
        &request.cwd,
        stdio.map(|f| f.as_raw_fd()),
        None,
        rlimits,
        None,
        false,
    )?
    .new_process_group()
    .reset_signals();
    // ru_maxrss is the only memory measure here: a run with a memory limit
    // gets its own copy of the judge's memory, or its peak would start at
    // the judge's. Sharing memory (no page tables copied, no copy-on-write
    // faults in the judge afterwards) is the default for runs not measured.
    let plan = if request.limits.memory.is_some() {
        plan.copy_memory()
    } else {
        plan
    };
    // The child starts on a stack of this thread's own, which the thread,
    // suspended until the child execs (CLONE_VFORK), cannot touch meanwhile.
    thread_local! {
        static SPAWN_STACK: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; 64 << 10]);
    }
    let spawned = SPAWN_STACK.with_borrow_mut(|stack| sys::spawn(&plan, stack))?;
    Ok(spawned
        .map(|pid| (pid as u32, None))
        .map_err(|(pid, e)| (Some(pid as u32), e)))
}

/// A pipe for a run's stdout or stderr: the judge's end registered with the
/// runtime (must be called inside it), and the end the run writes to.
fn output_pipe() -> io::Result<(tokio::net::unix::pipe::Receiver, std::os::fd::OwnedFd)> {
    let (read, write) = sys::output_pipe()?;
    Ok((
        tokio::net::unix::pipe::Receiver::from_owned_fd_unchecked(read)?,
        write,
    ))
}

/// The address-space rlimit for a memory limit when no cgroup measures real
/// memory: above the limit, so that a program that goes over it is seen going
/// over it (its peak RSS exceeds the limit: MLE from evidence) before the
/// backstop stops it.
pub fn address_space_backstop(memory: u64) -> u64 {
    memory.saturating_mul(2).saturating_add(64 << 20)
}

fn exit_of(code: Option<i32>, signal: Option<i32>) -> Exit {
    match (code, signal) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(signal)) => Exit::Signal(signal),
        (None, None) => Exit::Signal(sys::signals::SIGKILL),
    }
}

fn open_stdin(stdin: &Stdin, program: &str) -> Result<File, RunError> {
    let path = match stdin {
        Stdin::Null => Path::new("/dev/null"),
        Stdin::File(path) => path.as_path(),
    };
    File::open(path).map_err(|source| RunError::Spawn {
        program: format!("{program} (stdin {})", path.display()),
        source,
    })
}

/// The environment of runs in [`Environment::Minimal`], with `home` as HOME
/// and TMPDIR, and `extra` (which may override those).
fn minimal_env(home: &Path, extra: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), SYSTEM_PATH.into()),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("LANG".into(), "C.UTF-8".into()),
    ];
    for (key, value) in extra {
        env.retain(|(k, _)| k != key.as_str());
        env.push((key.into(), value.into()));
    }
    env
}

/// What the two readers return: stdout (and whether it went over its
/// limit), stderr (and whether it was cut).
type DrainResults = (io::Result<(Captured, bool)>, io::Result<(Vec<u8>, bool)>);

/// The readers of a run's stdout and stderr: one future, polled by the run's
/// own task ([`Drains::progress`] in its select loop, then
/// [`Drains::finish`]), not tasks of their own, so that no other task has to
/// be woken and scheduled for each run.
struct Drains {
    both: std::pin::Pin<Box<dyn std::future::Future<Output = DrainResults> + Send>>,
    done: Option<DrainResults>,
    stop_stdout: Option<tokio::sync::oneshot::Sender<()>>,
    stop_stderr: Option<tokio::sync::oneshot::Sender<()>>,
}

/// What the drains read.
struct Drained {
    stdout: Captured,
    stdout_over: bool,
    stderr: Vec<u8>,
    stderr_truncated: bool,
}

impl Drains {
    /// The readers, and what resolves when stdout went over its limit.
    fn start(
        stdout: impl tokio::io::AsyncRead + Unpin + Send + 'static,
        stderr: impl tokio::io::AsyncRead + Unpin + Send + 'static,
        limits: &Limits,
        spill: Option<PathBuf>,
    ) -> (Drains, OutputExceeded) {
        // Told to stop when a descendant that escaped holds a pipe open after
        // the program exited: the drains then return what they have.
        let (stop_stdout, stdout_stop) = tokio::sync::oneshot::channel();
        let (stop_stderr, stderr_stop) = tokio::sync::oneshot::channel();
        let (exceeded_tx, exceeded) = tokio::sync::oneshot::channel();
        let stdout = drain_stdout(stdout, limits.stdout, spill, stdout_stop, exceeded_tx);
        let stderr = drain_keep(stderr, limits.stderr, stderr_stop);
        let drains = Drains {
            both: Box::pin(async move { tokio::join!(stdout, stderr) }),
            done: None,
            stop_stdout: Some(stop_stdout),
            stop_stderr: Some(stop_stderr),
        };
        (drains, OutputExceeded(Some(exceeded)))
    }

    /// Reads on; resolves once both pipes are at their end (then never again).
    async fn progress(&mut self) {
        if self.done.is_some() {
            return std::future::pending().await;
        }
        let results = self.both.as_mut().await;
        self.done = Some(results);
    }

    /// Collects what was read, waiting at most [`DRAIN_GRACE`] for the pipes to close.
    async fn finish(mut self) -> io::Result<Drained> {
        let (stdout, stderr) = match self.done.take() {
            Some(results) => results,
            None => match tokio::time::timeout(DRAIN_GRACE, self.both.as_mut()).await {
                Ok(results) => results,
                Err(_) => {
                    for stop in [self.stop_stdout.take(), self.stop_stderr.take()] {
                        let _ = stop.map(|s| s.send(()));
                    }
                    self.both.as_mut().await
                }
            },
        };
        let (stdout, stdout_over) = stdout?;
        let (stderr, stderr_truncated) = stderr.unwrap_or_default();
        Ok(Drained {
            stdout,
            stdout_over,
            stderr,
            stderr_truncated,
        })
    }
}

/// Resolves when a run's stdout went over its limit (never otherwise).
struct OutputExceeded(Option<tokio::sync::oneshot::Receiver<()>>);

impl OutputExceeded {
    async fn wait(&mut self) {
        if let Some(rx) = &mut self.0 {
            if rx.await.is_ok() {
                return;
            }
            self.0 = None;
        }
        std::future::pending().await
    }
}

/// Kills and reaps the process if the run is abandoned (its future dropped,
/// e.g. on `--fail-fast` or Ctrl-C), so that nothing outlives the judge.
struct ReapGuard {
    pid: Option<u32>,
}

impl Drop for ReapGuard {
    fn drop(&mut self) {
        if let Some(pid) = self.pid.take() {
            sys::kill_group(pid);
            std::thread::spawn(move || {
                let _ = sys::reap(pid);
            });
        }
    }
}

/// Reads stdout, keeping at most `cap` bytes (in memory up to the spill
/// threshold, then in `spill`). Returns the capture and whether the process
/// tried to write more than `cap` (the output limit).
async fn drain_stdout(
    mut pipe: impl tokio::io::AsyncRead + Unpin,
    cap: u64,
    spill: Option<PathBuf>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
    exceeded: tokio::sync::oneshot::Sender<()>,
) -> io::Result<(Captured, bool)> {
    let mut memory = Vec::new();
    let mut file: Option<(io::BufWriter<File>, PathBuf)> = None;
    let mut total: u64 = 0;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = tokio::select! {
            read = pipe.read(&mut buf) => read?,
            _ = &mut stop => break,
        };
        if n == 0 {
            break;
        }
        let keep = (cap.saturating_sub(total)).min(n as u64) as usize;
        total += keep as u64;
        let chunk = &buf[..keep];
        match (&mut file, &spill) {
            (Some((w, _)), _) => w.write_all(chunk)?,
            (None, Some(path)) if memory.len() + chunk.len() > SPILL_THRESHOLD => {
                let mut w = io::BufWriter::with_capacity(256 << 10, File::create(path)?);
                w.write_all(&memory)?;
                w.write_all(chunk)?;
                memory = Vec::new();
                file = Some((w, path.clone()));
            }
            _ => memory.extend_from_slice(chunk),
        }
        if keep < n {
            let _ = exceeded.send(());
            return Ok((finish(memory, file, total)?, true));
        }
    }
    Ok((finish(memory, file, total)?, false))
}

fn finish(
    memory: Vec<u8>,
    file: Option<(io::BufWriter<File>, PathBuf)>,
    len: u64,
) -> io::Result<Captured> {
    Ok(match file {
        Some((mut w, path)) => {
            w.flush()?;
            Captured::File { path, len }
        }
        None => Captured::Memory(memory),
    })
}

/// Reads a pipe to its end, keeping the first `cap` bytes; tells whether more came.
async fn drain_keep(
    mut pipe: impl tokio::io::AsyncRead + Unpin,
    cap: u64,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> io::Result<(Vec<u8>, bool)> {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut buf = vec![0u8; 16 << 10];
    loop {
        let n = tokio::select! {
            read = pipe.read(&mut buf) => read?,
            _ = &mut stop => 0,
        };
        if n == 0 {
            return Ok((kept, truncated));
        }
        let room = (cap as usize).saturating_sub(kept.len()).min(n);
        truncated |= room < n;
        kept.extend_from_slice(&buf[..room]);
    }
}

/// How hard the judge insists on isolation (`--isolation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IsolationMode {
    /// Refuse to judge unless full isolation (namespaces and a cgroup) works.
    Strict,
    /// Use the strongest level the machine allows; warn when weaker than full.
    #[default]
    Auto,
    /// Plain runner only (process group and rlimits), e.g. as a baseline.
    None,
}

/// Whether a judging that runs one program at a time keeps to one CPU
/// (`cpu` in judge.toml, `--cpu`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CpuChoice {
    /// With one job and more than one CPU: a CPU that no other judge on the
    /// machine has claimed, if there is one.
    #[default]
    Auto,
    /// Never: the scheduler places every process.
    Off,
    /// This CPU (with one job), whether or not another judge uses it.
    Cpu(usize),
}

impl std::str::FromStr for CpuChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<CpuChoice, String> {
        match s {
            "auto" => Ok(CpuChoice::Auto),
            "off" => Ok(CpuChoice::Off),
            _ => s.parse().map(CpuChoice::Cpu).map_err(|_| {
                format!("`{s}` is not a CPU: use `auto`, `off` or a CPU number such as 0")
            }),
        }
    }
}

/// Where lock files of claimed CPUs live: machine-wide, so that judges of
/// different users and workspaces see each other's claims.
const CPU_CLAIMS_DIR: &str = "/tmp";

/// The one CPU of a judging that runs one program at a time: the judge's
/// thread, the spawners or keepers of submissions and the submissions all
/// run on it, so that each hand-over between them (a program's exit, the
/// judge's wake-up, the next program's start) stays on one CPU instead of
/// waking another (on a virtual machine, an idle virtual CPU is woken
/// through the host; see docs/performance.md). Everything else the judge
/// starts (compilers, checkers, generators, the check of a large output)
/// gets the CPUs the judge had. Held for the sandbox's life; the claim is a
/// lock on `judge-cpu-N.lock` in [`CPU_CLAIMS_DIR`].
#[derive(Debug)]
struct HomeCpu {
    cpu: usize,
    _claim: Option<File>,
    _pin: sys::ThreadPin,
}

impl HomeCpu {
    /// The home CPU for `choice` and `parallel_runs`: `None` when the
    /// judging runs more than one program at a time, has one CPU, or (with
    /// `auto`) finds every CPU claimed; an error for a CPU the judge may not
    /// use.
    fn choose(choice: CpuChoice, parallel_runs: usize) -> Result<Option<HomeCpu>, String> {
        if choice == CpuChoice::Off || parallel_runs != 1 {
            return Ok(None);
        }
        let Ok(allowed) = sys::CpuSet::of_this_thread().map(|set| set.cpus()) else {
            return Ok(None);
        };
        let (cpu, claim) = match choice {
            CpuChoice::Cpu(cpu) if !allowed.contains(&cpu) => {
                return Err(format!(
                    "cpu {cpu}: the judge may only use CPUs {allowed:?} (judge.toml's `cpu` \
                     or --cpu)"
                ))
            }
            CpuChoice::Cpu(cpu) => (cpu, claim_cpu(cpu)),
            _ if allowed.len() < 2 => return Ok(None),
            _ => match allowed
                .iter()
                .rev()
                .find_map(|&cpu| claim_cpu(cpu).map(|claim| (cpu, Some(claim))))
            {
                Some(found) => found,
                None => return Ok(None),
            },
        };
        match sys::pin_this_thread(cpu) {
            Ok(pin) => Ok(Some(HomeCpu {
                cpu,
                _claim: claim,
                _pin: pin,
            })),
            Err(_) => Ok(None),
        }
    }
}

/// Claims `cpu` for this judge: its lock file, locked; `None` if another
/// judge holds it (or the file cannot be had).
fn claim_cpu(cpu: usize) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = Path::new(CPU_CLAIMS_DIR).join(format!("judge-cpu-{cpu}.lock"));
    let open = || {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
    };
    let file = match open() {
        Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .or_else(|_| open()),
        other => other,
    }
    .ok()?;
    sys::try_lock_exclusive(&file).then_some(file)
}

/// Gives a thread that inherited the judging's CPU pin (a blocking-pool
/// thread made by the pinned thread) the CPUs of `from`, the pinned thread's
/// [`cpus_to_leave_pin`].
pub fn leave_pin(from: Option<CpusBeforePin>) {
    if let Some(CpusBeforePin(cpus)) = from {
        sys::use_cpus(cpus);
    }
}

/// The CPUs this thread had before it was pinned to the judging's CPU, for
/// work handed to another thread ([`leave_pin`]); `None` if not pinned.
pub fn cpus_to_leave_pin() -> Option<CpusBeforePin> {
    sys::cpus_before_pin().map(CpusBeforePin)
}

/// A set of CPUs (see [`cpus_to_leave_pin`]).
#[derive(Debug, Clone, Copy)]
pub struct CpusBeforePin(sys::CpuSet);

/// What a sandboxed run is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Profile {
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
    },
    /// A package program (generator, validator, reference, checker): trusted,
    /// so it runs as the judge's user in the host's file system, but in a pid
    /// namespace (everything it starts dies with it) and an ipc namespace of
    /// its own.
    Package,
}

/// Where the sandbox hides and shows things.
#[derive(Debug, Clone)]
pub struct SandboxPaths {
    /// Host directories hidden from runs and compilations where they fall
    /// inside a directory they see (workspace, cache, problems, home).
    pub hide: Vec<PathBuf>,
    /// Where each slot's copy of the build it runs is made: a directory on
    /// the build cache's file system, so that the copy is hard links.
    pub staging: PathBuf,
}

/// How long a keeper looks for its next job before it sleeps, when at most
/// `parallel_runs` run at a time: a short spin when a CPU is left over for
/// it, which takes tens of microseconds off each hand-over from one run to
/// the next (see `docs/performance.md`); none when every CPU may be running
/// a program, whose CPU the spin would take, nor when the judging keeps to
/// one CPU (`pinned`), which the keeper shares with the program.
fn next_job_spin(parallel_runs: usize, pinned: bool) -> Duration {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if parallel_runs < cpus && !pinned {
        Duration::from_micros(250)
    } else {
        Duration::ZERO
    }
}

/// Processes allowed per run (threads count too).
pub const RUN_PROCESSES: u64 = 128;
/// Processes allowed per compilation.
const COMPILE_PROCESSES: u64 = 512;

/// Runs hostile code at the strongest isolation level available. Create one
/// per judge run; dropping it kills the keepers and removes their cgroups.
#[derive(Debug)]
pub struct Sandbox {
    level: Isolation,
    warning: Option<String>,
    shared: Option<Shared>,
    /// Dropped last: the keepers are gone before the thread's CPUs return.
    _home: Option<HomeCpu>,
}

#[derive(Debug)]
struct Shared {
    /// Where keepers build their roots; `None` for a pool of spawners
    /// (keepers without namespaces or cgroups: the rlimit-only level).
    runtime: Option<tempfile::TempDir>,
    paths: SandboxPaths,
    user_namespace: bool,
    cgroups: Option<(cgroup::Version, Vec<PathBuf>)>,
    idle: std::sync::Mutex<Vec<isolated::Keeper>>,
    /// Idle keepers of package programs.
    idle_packages: std::sync::Mutex<Vec<isolated::Keeper>>,
    next_index: std::sync::atomic::AtomicUsize,
    /// Spawners only: the first one, started in the background when the
    /// sandbox is made, and whether it worked (learnt at the first run).
    first_spawner: FirstSpawner,
    /// How long a keeper looks for its next job before it sleeps.
    next_job_spin: Duration,
}

/// The first spawner of the rlimit-only level. Starting one (an exec of
/// this executable) takes about 2 ms, which was paid before anything else
/// of a judging could go on; now it starts while the judge loads the
/// problem, checks the build and plans the tests, and the first run waits
/// for it. If it does not start, runs are started by the judge itself, as
/// they were when the start was checked up front.
#[derive(Debug, Default)]
struct FirstSpawner {
    starting: std::sync::Mutex<Option<std::thread::JoinHandle<Result<isolated::Keeper, String>>>>,
    works: std::sync::OnceLock<bool>,
}

impl FirstSpawner {
    /// Waits for the start, once: the spawner if it started (`None` if it
    /// did not, or was already taken).
    fn wait(&self) -> Option<isolated::Keeper> {
        let starting = self.starting.lock().expect("not poisoned").take()?;
        starting.join().ok()?.ok()
    }
}

impl Sandbox {
    /// Sets up the sandbox for at most `parallel_runs` runs at a time; with
    /// [`IsolationMode::Strict`], fails with the reason when full isolation
    /// cannot be had.
    ///
    /// With one run at a time, the calling thread (the runtime's) is pinned
    /// to one CPU for the sandbox's life, as `cpu` says (see [`HomeCpu`]).
    pub fn new(
        mode: IsolationMode,
        paths: SandboxPaths,
        parallel_runs: usize,
        cpu: CpuChoice,
    ) -> Result<Sandbox, String> {
        // First: the keepers and spawners started below inherit the pin.
        let home = HomeCpu::choose(cpu, parallel_runs)?;
        if mode == IsolationMode::None {
            return Ok(Sandbox {
                level: Isolation::RlimitOnly,
                warning: None,
                shared: Shared::spawners(paths, home.as_ref().map(|h| h.cpu)),
                _home: home,
            });
        }
        let is_root = sys::ids().0 == 0;
        let runtime = tempfile::Builder::new()
            .prefix(&format!("judge-sandbox-{}-", std::process::id()))
            .tempdir_in("/tmp")
            .map_err(|e| format!("cannot create the sandbox runtime directory in /tmp: {e}"))?;
        let cgroups = match cgroup::Hierarchy::detect() {
            Ok(h) => h
                .judge_dirs()
                .map(|dirs| (h.version, dirs))
                .map_err(|e| format!("cannot create the judge's cgroups: {e}")),
            Err(e) => Err(e),
        };
        let (cgroups, cgroup_problem) = match cgroups {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(e)),
        };
        let mut shared = Shared {
            runtime: Some(runtime),
            paths,
            user_namespace: !is_root,
            cgroups,
            idle: std::sync::Mutex::new(Vec::new()),
            idle_packages: std::sync::Mutex::new(Vec::new()),
            next_index: std::sync::atomic::AtomicUsize::new(0),
            first_spawner: FirstSpawner::default(),
            next_job_spin: next_job_spin(parallel_runs, home.is_some()),
        };
        // Probe with a real keeper, kept for the first run: full isolation,
        // else namespaces without cgroups, else the plain runner.
        let mut problems: Vec<String> = cgroup_problem.into_iter().collect();
        if shared.cgroups.is_some() {
            match shared.start_keeper(&Profile::Submission) {
                Ok(keeper) => {
                    let Some((version, _)) = shared.cgroups else {
                        unreachable!("checked above")
                    };
                    shared.idle.lock().expect("not poisoned").push(keeper);
                    return Ok(Sandbox {
                        level: Isolation::Cgroup(version),
                        warning: None,
                        shared: Some(shared),
                        _home: home,
                    });
                }
                Err(e) => problems.push(e),
            }
            shared.cgroups = None;
        }
        let (level, shared) = match shared.start_keeper(&Profile::Submission) {
            Ok(keeper) => {
                shared.idle.lock().expect("not poisoned").push(keeper);
                (Isolation::Namespaces, Some(shared))
            }
            Err(e) => {
                problems.push(format!("namespaces: {e}"));
                (
                    Isolation::RlimitOnly,
                    Shared::spawners(shared.paths.clone(), home.as_ref().map(|h| h.cpu)),
                )
            }
        };
        let why = problems.join("; ");
        if mode == IsolationMode::Strict {
            return Err(format!("full isolation is not available: {why}"));
        }
        Ok(Sandbox {
            level,
            warning: Some(format!(
                "isolation level `{}` is weaker than full: {why}",
                level.as_str()
            )),
            shared,
            _home: home,
        })
    }

    /// The isolation level runs get.
    pub fn isolation(&self) -> Isolation {
        self.level
    }

    /// Why `program` (as a command names it) cannot be run in this sandbox
    /// when its compilations or runs see, besides the system's directories,
    /// `extra`: it resolves to a file outside them. `None` when it can (or
    /// when it is not found at all: starting it says so).
    pub fn hidden_program(&self, program: &OsString, extra: &[PathBuf]) -> Option<String> {
        if self.level == Isolation::RlimitOnly {
            return None;
        }
        let resolved = resolve_program(program);
        let real = std::fs::canonicalize(&resolved).ok()?;
        let shown: Vec<PathBuf> = keeper::SYSTEM_DIRS
            .iter()
            .map(|d| Path::new("/").join(d))
            .chain(extra.iter().cloned())
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .collect();
        if shown.iter().any(|d| real.starts_with(d)) {
            return None;
        }
        Some(format!(
            "`{}` is {}, outside the directories the sandbox shows ({}); install it \
             there, or name its directory in the language's `toolchain` or \
             `toolchain_dirs` in judge.toml",
            resolved.to_string_lossy(),
            real.display(),
            shown
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ))
    }

    /// Why the level is weaker than full, for a warning.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Runs `request` under the sandbox as `profile`.
    pub async fn run(
        &self,
        request: &RunRequest,
        profile: Profile,
    ) -> Result<RunOutcome, RunError> {
        self.run_in_turn(request, profile, &mut Turn::now()).await
    }

    /// Runs `request` once `turn` has come (a slot is free, say), prepared
    /// before where that saves time then: at the rlimit-only level the
    /// program is started and waits, ready to exec, for its turn.
    pub async fn run_in_turn<T>(
        &self,
        request: &RunRequest,
        profile: Profile,
        turn: &mut Turn<'_, T>,
    ) -> Result<RunOutcome, RunError> {
        match &self.shared {
            // Spawners start submissions (measured runs); compilations and
            // package programs are started by the judge itself.
            Some(shared) if shared.runtime.is_none() => match profile {
                Profile::Submission => run_plain(request, shared.ready_spawners(), turn).await,
                Profile::Compile { .. } | Profile::Package => run_plain(request, None, turn).await,
            },
            Some(shared) => {
                turn.come().await;
                shared.run(request, &profile, self.level).await
            }
            None => run_plain(request, None, turn).await,
        }
    }
}

/// A spawner in use: back to the idle ones when dropped.
struct SpawnerLease<'a> {
    shared: &'a Shared,
    spawner: Option<isolated::Keeper>,
}

impl Drop for SpawnerLease<'_> {
    fn drop(&mut self) {
        if let Some(spawner) = self.spawner.take() {
            self.shared.idle.lock().expect("not poisoned").push(spawner);
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // A first spawner still starting is waited for, and killed with the rest.
        drop(self.first_spawner.wait());
        // Kill the keepers (and so every process of their namespaces) and
        // remove their cgroups, then the judge's own cgroup directories.
        self.idle.lock().expect("not poisoned").clear();
        self.idle_packages.lock().expect("not poisoned").clear();
        if let Some((_, dirs)) = &self.cgroups {
            for dir in dirs {
                let _ = std::fs::remove_dir(dir);
            }
        }
    }
}

impl Shared {
    /// Spawners for the rlimit-only level, the first starting in the
    /// background (see [`FirstSpawner`]).
    /// With `home`, the judging's CPU: the first spawner starts on the CPUs
    /// the judge had before it kept to `home`, and keeps to `home` once
    /// started.
    fn spawners(paths: SandboxPaths, home: Option<usize>) -> Option<Shared> {
        let shared = Shared {
            runtime: None,
            paths,
            user_namespace: false,
            cgroups: None,
            idle: std::sync::Mutex::new(Vec::new()),
            idle_packages: std::sync::Mutex::new(Vec::new()),
            next_index: std::sync::atomic::AtomicUsize::new(0),
            first_spawner: FirstSpawner::default(),
            next_job_spin: Duration::ZERO,
        };
        let config = keeper::KeeperConfig {
            cpu: home,
            ..Self::spawner_config()
        };
        let cpus = home.and(sys::cpus_before_pin());
        let starting = std::thread::Builder::new()
            .name("judge-spawner-start".into())
            .spawn(move || isolated::Keeper::start(&config, None, None, cpus))
            .ok()?;
        *shared.first_spawner.starting.lock().expect("not poisoned") = Some(starting);
        Some(shared)
    }

    /// These spawners, once the first has started; `None` (runs are then
    /// started by the judge itself, with a copy of its memory) if it did not.
    fn ready_spawners(&self) -> Option<&Shared> {
        let works = self.first_spawner.works.get_or_init(|| {
            let Some(keeper) = self.first_spawner.wait() else {
                return false;
            };
            self.idle.lock().expect("not poisoned").push(keeper);
            true
        });
        works.then_some(self)
    }

    fn spawner_config() -> keeper::KeeperConfig {
        keeper::KeeperConfig {
            user_namespace: false,
            outer_ids: sys::ids(),
            root_dir: PathBuf::new(),
            view: None,
            run_as: None,
            cgroup: None,
            spawner: true,
            next_job_spin: Duration::ZERO,
            cpu: None,
        }
    }

    /// Has an idle spawner (or a new one) start `job` as a child of the
    /// judge; see [`spawn_here`] for the result, here with the report pipe
    /// that tells of a failed exec (see [`isolated::late_exec_error`]). With
    /// `gate`, the child waits on it before exec'ing: its spawner, suspended
    /// meanwhile, stays with the returned lease until it is dropped.
    async fn spawn(
        &self,
        job: &keeper::Job,
        stdio: [std::os::fd::OwnedFd; 3],
        gate: Option<&std::os::fd::OwnedFd>,
    ) -> io::Result<(Spawned, SpawnerLease<'_>)> {
        // A spawner may have been killed meanwhile (at this level a run can
        // signal its siblings): then a new one, a few times. A spawner that
        // failed is dropped (killed), never reused.
        let mut problem = None;
        for _ in 0..3 {
            let idle = self.idle.lock().expect("not poisoned").pop();
            let mut spawner = match idle {
                Some(k) => k,
                None => match self.start_keeper(&Profile::Submission) {
                    Ok(k) => k,
                    Err(e) => {
                        problem = Some(e);
                        continue;
                    }
                },
            };
            let (report, pipe) = spawner.spawn(job, &stdio, gate).await?;
            let lease = SpawnerLease {
                shared: self,
                spawner: (!matches!(report, sys::SpawnReport::Nothing)).then_some(spawner),
            };
            match report {
                sys::SpawnReport::Nothing => {
                    problem = Some("the sandbox spawner died before starting the program".into())
                }
                sys::SpawnReport::Started(pid) => return Ok((Ok((pid, pipe)), lease)),
                sys::SpawnReport::ExecFailed(pid, e) => return Ok((Err((Some(pid), e)), lease)),
                sys::SpawnReport::NotStarted(e) => return Ok((Err((None, e)), lease)),
            }
        }
        Err(io::Error::other(format!(
            "{} (at the rlimit-only level a run can kill it: hostile code needs a stronger level)",
            problem.unwrap_or_default()
        )))
    }

    fn start_keeper(&self, profile: &Profile) -> Result<isolated::Keeper, String> {
        let Some(runtime) = &self.runtime else {
            return isolated::Keeper::start(&Self::spawner_config(), None, None, None);
        };
        let index = self
            .next_index
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        // Package programs get no cgroup: they are trusted, and neither
        // their memory nor the CPU of their children is judged.
        let slot = match (&self.cgroups, profile) {
            (Some((version, dirs)), Profile::Submission | Profile::Compile { .. }) => Some(
                cgroup::SlotDirs::create(*version, dirs, index)
                    .map_err(|e| format!("cannot create a cgroup: {e}"))?,
            ),
            _ => None,
        };
        let root_dir = isolated::root_dir(runtime.path(), index)
            .map_err(|e| format!("cannot create the sandbox root: {e}"))?;
        let system = keeper::SYSTEM_DIRS.iter().map(|d| Path::new("/").join(d));
        let (view, staging) = match profile {
            Profile::Submission => {
                let dir = self
                    .paths
                    .staging
                    .join(format!("judge-{}-slot-{index}", std::process::id()));
                let staging = isolated::Staging::create(dir.clone())
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                let view = keeper::View {
                    show: system.collect(),
                    hide: self.paths.hide.clone(),
                    build: Some(dir),
                    work: None,
                    tmp_size: keeper::TMP_SIZE,
                };
                (Some(view), Some(staging))
            }
            Profile::Compile {
                disk, toolchain, ..
            } => {
                let view = keeper::View {
                    show: system.chain(toolchain.iter().cloned()).collect(),
                    hide: self.paths.hide.clone(),
                    build: None,
                    work: Some(*disk),
                    tmp_size: *disk,
                };
                (Some(view), None)
            }
            Profile::Package => (None, None),
        };
        let (outer_uid, outer_gid) = sys::ids();
        let config = keeper::KeeperConfig {
            user_namespace: self.user_namespace,
            outer_ids: (outer_uid, outer_gid),
            root_dir,
            view,
            // As root, runs and compilations become nobody; in a user
            // namespace the caller is already nobody there. Package programs
            // stay the judge's user.
            run_as: (!self.user_namespace && *profile != Profile::Package)
                .then_some((keeper::RUN_ID, keeper::RUN_ID)),
            cgroup: slot.as_ref().map(|s| (s.version, s.dirs.clone())),
            spawner: false,
            next_job_spin: self.next_job_spin,
            cpu: None,
        };
        // Compilations do not keep to the judging's CPU.
        let cpus = match profile {
            Profile::Submission => None,
            Profile::Compile { .. } | Profile::Package => sys::cpus_before_pin(),
        };
        isolated::Keeper::start(&config, slot, staging, cpus)
    }

    /// Runs `request` in a keeper. A keeper that fails (it died, or broke
    /// its protocol) is replaced and the run tried again, twice; one that
    /// says it could not clean up after the run is replaced too, and the
    /// run's result stands.
    async fn run(
        &self,
        request: &RunRequest,
        profile: &Profile,
        level: Isolation,
    ) -> Result<RunOutcome, RunError> {
        let mut failures = Vec::new();
        loop {
            match self.run_once(request, profile, level).await {
                Err(KeeperFailure::Again(e)) if failures.len() < 2 => failures.push(e),
                Err(KeeperFailure::Again(e)) => {
                    failures.push(e);
                    return Err(RunError::Watch {
                        program: program_name(request),
                        source: io::Error::other(format!(
                            "the sandbox failed {} times: {}",
                            failures.len(),
                            failures.join("; ")
                        )),
                    });
                }
                Err(KeeperFailure::Final(e)) => return Err(e),
                Ok(outcome) => return Ok(outcome),
            }
        }
    }

    async fn run_once(
        &self,
        request: &RunRequest,
        profile: &Profile,
        level: Isolation,
    ) -> Result<RunOutcome, KeeperFailure> {
        let program = program_name(request);
        let final_err = |source: io::Error| {
            KeeperFailure::Final(RunError::Watch {
                program: program.clone(),
                source,
            })
        };
        let submission = *profile == Profile::Submission;
        // A keeper: an idle one for submissions and package programs, a
        // fresh one-shot for a compilation.
        let pool = match profile {
            Profile::Submission => Some(&self.idle),
            Profile::Package => Some(&self.idle_packages),
            Profile::Compile { .. } => None,
        };
        let idle = pool.and_then(|pool| pool.lock().expect("not poisoned").pop());
        let mut keeper = match idle {
            Some(k) => k,
            None => self.start_keeper(profile).map_err(KeeperFailure::Again)?,
        };
        // What the run sees of the host's paths in its command line.
        let mounts = match (profile, &request.program_dir, &mut keeper.staging) {
            (Profile::Submission, Some(dir), Some(staging)) => {
                staging.hold(dir).map_err(|e| {
                    final_err(io::Error::new(
                        e.kind(),
                        format!("cannot show {} to the run: {e}", dir.display()),
                    ))
                })?;
                vec![(dir.clone(), keeper::BUILD_MOUNT)]
            }
            (Profile::Submission | Profile::Package, _, _) => Vec::new(),
            (Profile::Compile { .. }, _, _) => {
                let work = keeper
                    .root()
                    .join(keeper::WORK_MOUNT.trim_start_matches('/'));
                copy_tree(&request.cwd, &work).map_err(|e| {
                    KeeperFailure::Again(format!("cannot copy the sources into the sandbox: {e}"))
                })?;
                vec![(request.cwd.clone(), keeper::WORK_MOUNT)]
            }
        };
        let limits = request.limits;
        let (memory, processes) = match profile {
            Profile::Submission => (limits.memory, RUN_PROCESSES),
            Profile::Compile { memory, .. } => (Some(*memory), COMPILE_PROCESSES),
            Profile::Package => (limits.memory, COMPILE_PROCESSES),
        };
        let argv0 = match request.environment {
            Environment::Minimal(_) => resolve_program(&request.argv[0]),
            Environment::Inherit => find_in_user_path(&request.argv[0]),
        };
        let argv: Vec<Vec<u8>> = std::iter::once(&argv0)
            .chain(&request.argv[1..])
            .map(|a| keeper::translate(a.as_encoded_bytes(), &mounts))
            .collect();
        let inner_cwd = match profile {
            Profile::Submission => PathBuf::from("/tmp"),
            Profile::Compile { .. } => PathBuf::from(keeper::WORK_MOUNT),
            Profile::Package => request.cwd.clone(),
        };
        let home = match profile {
            Profile::Package => inner_cwd.as_path(),
            _ => Path::new("/tmp"),
        };
        let env: Vec<Vec<u8>> = match &request.environment {
            Environment::Minimal(extra) => minimal_env(home, extra),
            Environment::Inherit => std::env::vars_os().collect(),
        }
        .iter()
        .map(|(k, v)| env_entry(k, v))
        .collect();
        let cgroup_memory = keeper.slot.is_some();
        let job = keeper::Job {
            argv,
            env,
            cwd: inner_cwd,
            cpu_limit: limits.cpu_time,
            wall_limit: limits.wall_time,
            rlimits: sys::Rlimits {
                cpu_seconds: Some(limits.cpu_time.as_secs().saturating_add(1)),
                // With a cgroup the memory limit is on real memory, not address space.
                address_space: if cgroup_memory {
                    None
                } else {
                    memory
                        .filter(|_| limits.address_space)
                        .map(address_space_backstop)
                },
                stack: if submission { memory } else { None },
                file_size: Some(limits.file_size),
                open_files: Some(1024),
            },
            processes: (!cgroup_memory).then_some(processes),
            memory,
            // Init lives in the slot too: one more than the run's share.
            pids: processes + 1,
        };
        let stdin = open_stdin(&request.stdin, &program).map_err(KeeperFailure::Final)?;
        let (out_read, out_write) = output_pipe().map_err(final_err)?;
        let (err_read, err_write) = output_pipe().map_err(final_err)?;
        let (mut drains, mut exceeded) =
            Drains::start(out_read, err_read, &limits, request.stdout_spill.clone());
        let result = {
            let run = keeper.run(&job, [stdin.into(), out_write, err_write], exceeded.wait());
            tokio::pin!(run);
            loop {
                tokio::select! {
                    result = &mut run => break result,
                    _ = drains.progress() => {}
                }
            }
        };
        let result = match result {
            Ok(r) => r,
            Err(e) => {
                drop(keeper); // broken: never reused
                return Err(KeeperFailure::Again(e.to_string()));
            }
        };
        let drained = drains.finish().await.map_err(final_err)?;
        if let Profile::Compile { .. } = profile {
            let work = keeper
                .root()
                .join(keeper::WORK_MOUNT.trim_start_matches('/'));
            copy_tree(&work, &request.cwd).map_err(|e| {
                final_err(io::Error::new(
                    e.kind(),
                    format!("cannot copy the compilation's files out of the sandbox: {e}"),
                ))
            })?;
        } else if let Some(pool) = pool {
            // A keeper that could not clean up after this run exits; its
            // next job then fails and is run again by a new keeper.
            pool.lock().expect("not poisoned").push(keeper);
        }
        if let Some(error) = result.spawn_error {
            return Err(KeeperFailure::Final(RunError::Spawn {
                program,
                source: io::Error::other(error),
            }));
        }
        let mut limit_hit = match result.stopped {
            Some(keeper::Stopped::CpuTime) => Some(LimitHit::CpuTime),
            Some(keeper::Stopped::WallTime) => Some(LimitHit::WallTime),
            Some(keeper::Stopped::Asked) | None => None,
        };
        if drained.stdout_over {
            limit_hit = Some(LimitHit::Output);
        }
        let exit = exit_of(result.code, result.signal);
        if limit_hit.is_none() && exit == Exit::Signal(sys::signals::SIGXFSZ) {
            limit_hit = Some(LimitHit::Output);
        }
        let (cpu_time, peak_memory_kib, memory_exceeded, process_limit_hit) = match result.usage {
            Some(u) => (
                Duration::from_nanos(u.cpu_ns),
                u.peak_bytes / 1024,
                u.oom_killed,
                u.pids_limited,
            ),
            None => (result.cpu_time, result.max_rss_kib, false, false),
        };
        if limit_hit.is_none() && exit == Exit::Signal(sys::signals::SIGXCPU) {
            limit_hit = Some(LimitHit::CpuTime);
        }
        Ok(RunOutcome {
            exit,
            limit_hit,
            cpu_time,
            wall_time: result.wall_time,
            peak_memory_kib,
            stdout: drained.stdout,
            stderr: drained.stderr,
            stderr_truncated: drained.stderr_truncated,
            memory_exceeded,
            process_limit_hit,
            isolation: level,
        })
    }
}

/// How a run through a keeper failed.
enum KeeperFailure {
    /// The keeper failed (it died, or broke its protocol): a new one may do.
    Again(String),
    /// The run itself cannot be done.
    Final(RunError),
}

/// The program of a request, for messages.
fn program_name(request: &RunRequest) -> String {
    request
        .argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Copies the regular files and directories of `from` into `to` (which
/// exists), replacing files of the same name; anything else (links, devices,
/// pipes, sockets) is left out, and nothing is followed: `from` may be what
/// a hostile compilation left. Modes are reduced to 0644, or 0755 for
/// executables and directories.
fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let meta = std::fs::symlink_metadata(&source)?;
        if meta.is_dir() {
            match std::fs::create_dir(&target) {
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                _ => {}
            }
            copy_tree(&source, &target)?;
        } else if meta.is_file() {
            let mut input = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                .open(&source)?;
            let mode = if meta.permissions().mode() & 0o111 != 0 {
                0o755
            } else {
                0o644
            };
            let mut output = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(mode)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&target)?;
            io::copy(&mut input, &mut output)?;
            output.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
    }
    Ok(())
}

/// Removes what judges that died without cleaning up (`kill -9`) left in
/// `dir`: the directories named `PREFIX<pid>-...` for one of `prefixes`
/// whose process is gone (a judge's temporary directories carry its pid).
/// Links and other users' directories are left alone, as is anything whose
/// process still exists.
pub fn remove_leftovers_of_dead_judges(dir: &Path, prefixes: &[&str]) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let uid = sys::ids().0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let pid = prefixes.iter().find_map(|prefix| {
            let rest = name.strip_prefix(prefix)?;
            rest.split('-').next()?.parse::<u32>().ok()
        });
        let Some(pid) = pid else { continue };
        if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.is_dir() && meta.uid() == uid {
            let _ = empty_dir(&entry.path());
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

/// Removes everything inside `dir`, going on past what cannot be removed
/// (the first error is returned). A run may have left a directory it made
/// unreadable: it is made accessible first. Used for the keeper's `/tmp` and
/// the judge's reused scratch directories.
pub fn empty_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut first_error = None;
    for entry in std::fs::read_dir(dir)? {
        let removed = entry.and_then(|entry| {
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700))?;
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            }
        });
        if let Err(e) = removed {
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// `KEY=VALUE`, as exec takes an environment entry.
fn env_entry(key: &std::ffi::OsStr, value: &std::ffi::OsStr) -> Vec<u8> {
    [key.as_encoded_bytes(), b"=", value.as_encoded_bytes()].concat()
}

/// A C string for exec, or an error naming the NUL byte.
fn c_string(bytes: &[u8]) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a NUL byte in `{}`", String::from_utf8_lossy(bytes)),
        )
    })
}

/// `program` looked up in the user's PATH (as it is when it has a slash).
pub fn find_in_user_path(program: &OsString) -> OsString {
    let user_path = std::env::var_os("PATH").unwrap_or_default();
    search_path(program, std::env::split_paths(&user_path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(script: &str, limits: Limits) -> RunRequest {
        RunRequest {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            cwd: std::env::temp_dir(),
            stdin: Stdin::Null,
            stdout_spill: None,
            environment: Environment::Minimal(Vec::new()),
            limits,
            program_dir: None,
        }
    }

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: Duration::from_secs(2),
            memory: Some(256 << 20),
            address_space: true,
            stdout: 1 << 20,
            stderr: 1 << 10,
            file_size: 1 << 20,
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f)
    }

    fn plain_paths() -> SandboxPaths {
        SandboxPaths {
            hide: Vec::new(),
            staging: std::env::temp_dir(),
        }
    }

    /// The first spawner starts in the background and the first run waits
    /// for it; one that did not start (here: this test executable cannot be
    /// a keeper) leaves runs to the judge itself, which still get their
    /// output, and is not waited for again.
    #[test]
    fn a_first_spawner_that_does_not_start_leaves_runs_to_the_judge() {
        let request = |dir: &Path| RunRequest {
            argv: vec!["/bin/echo".into(), "hi".into()],
            cwd: dir.to_path_buf(),
            stdin: Stdin::Null,
            stdout_spill: None,
            environment: Environment::Minimal(Vec::new()),
            program_dir: None,
            limits: Limits {
                cpu_time: Duration::from_secs(5),
                wall_time: Duration::from_secs(10),
                memory: None,
                address_space: false,
                stdout: 1 << 20,
                stderr: 1 << 20,
                file_size: 1 << 20,
            },
        };
        let dir = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let shared = Shared::spawners(plain_paths(), None).expect("a thread to start it");
        let sandbox = Sandbox {
            level: Isolation::RlimitOnly,
            warning: None,
            shared: Some(shared),
            _home: None,
        };
        let outcome = runtime
            .block_on(sandbox.run(&request(dir.path()), Profile::Submission))
            .unwrap();
        assert_eq!(outcome.stdout.to_vec().unwrap(), b"hi\n");
        let shared = sandbox.shared.as_ref().unwrap();
        assert_eq!(shared.first_spawner.works.get(), Some(&false));
        assert!(shared.idle.lock().unwrap().is_empty());
        assert!(shared.first_spawner.starting.lock().unwrap().is_none());
        let again = runtime
            .block_on(sandbox.run(&request(dir.path()), Profile::Submission))
            .unwrap();
        assert_eq!(again.stdout.to_vec().unwrap(), b"hi\n");
    }

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

    /// A CPU claimed by one judge cannot be claimed by another until the
    /// first lets it go (a lock file per CPU; a number no machine here has,
    /// so that judges running meanwhile do not interfere).
    #[test]
    fn a_claimed_cpu_is_not_claimed_twice() {
        let first = claim_cpu(4093).expect("a free CPU can be claimed");
        assert!(claim_cpu(4093).is_none(), "claimed twice");
        drop(first);
        assert!(claim_cpu(4093).is_some(), "not released");
    }

    /// One job keeps the thread on one CPU (explicit, or one it claimed)
    /// until the sandbox's pin is dropped; more jobs, `off` or a CPU the
    /// judge may not use do not pin; the last is an error naming it.
    #[test]
    fn one_job_keeps_the_thread_on_one_cpu() {
        std::thread::spawn(|| {
            let allowed = sys::CpuSet::of_this_thread().unwrap().cpus();
            let on = || sys::CpuSet::of_this_thread().unwrap().cpus();
            assert!(HomeCpu::choose(CpuChoice::Off, 1).unwrap().is_none());
            assert!(HomeCpu::choose(CpuChoice::Auto, 2).unwrap().is_none());
            let err = HomeCpu::choose(CpuChoice::Cpu(4095), 1).unwrap_err();
            assert!(err.contains("cpu 4095"), "{err}");
            let cpu = *allowed.last().unwrap();
            let home = HomeCpu::choose(CpuChoice::Cpu(cpu), 1).unwrap().unwrap();
            assert_eq!((home.cpu, on()), (cpu, vec![cpu]));
            drop(home);
            assert_eq!(on(), allowed, "the thread's CPUs came back");
            if let Some(home) = HomeCpu::choose(CpuChoice::Auto, 1).unwrap() {
                assert!(allowed.len() > 1 && allowed.contains(&home.cpu));
                assert_eq!(on(), vec![home.cpu]);
            }
        })
        .join()
        .unwrap();
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

    /// Keepers spin for their next job only when a CPU is left over, and
    /// never beside a judging kept to one CPU.
    #[test]
    fn keepers_spin_only_with_a_spare_cpu() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(next_job_spin(cpus, false), Duration::ZERO);
        assert_eq!(next_job_spin(cpus + 1, false), Duration::ZERO);
        assert!(next_job_spin(cpus - 1, false) > Duration::ZERO);
        assert_eq!(next_job_spin(cpus - 1, true), Duration::ZERO);
        assert_eq!(next_job_spin(1, true), Duration::ZERO);
    }

    /// A thread made by a pinned thread (the blocking thread that checks a
    /// large output) leaves the pin for the CPUs the pinned thread had.
    #[test]
    fn a_thread_handed_work_leaves_the_pin() {
        std::thread::spawn(|| {
            let on = || sys::CpuSet::of_this_thread().unwrap().cpus();
            let allowed = on();
            assert!(cpus_to_leave_pin().is_none(), "not pinned yet");
            let _pin = sys::pin_this_thread(allowed[0]).unwrap();
            let cpus = cpus_to_leave_pin();
            assert!(cpus.is_some());
            let (inherited, left) = std::thread::spawn(move || {
                let inherited = on();
                leave_pin(cpus);
                (inherited, on())
            })
            .join()
            .unwrap();
            assert_eq!((inherited, left), (vec![allowed[0]], allowed.clone()));
            assert_eq!(on(), vec![allowed[0]], "the pinned thread stays pinned");
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
    fn empty_dir_removes_what_a_run_locked_up() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().join("locked");
        std::fs::create_dir_all(locked.join("inner")).unwrap();
        std::fs::write(locked.join("inner/file"), "x").unwrap();
        std::fs::write(dir.path().join("stdout"), "x").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        empty_dir(dir.path()).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
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
}
