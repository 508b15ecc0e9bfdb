//! Running one process under limits and measuring it. The interface is narrow
//! on purpose: a [`RunRequest`] (argv, working directory, stdin file, limits)
//! goes in, a [`RunOutcome`] (how it ended, which limit stopped it, CPU time,
//! wall time, peak memory, captured output) comes out. Nothing else in the
//! judge spawns processes, so hardening the isolation changes only this module.
//!
//! Current isolation level: [`Isolation::Rlimit`]: an own process group killed as
//! a whole, rlimits (CPU backstop, address space, stack, file size, no core
//! dumps), a polled CPU-time limit and a monotonic wall-clock deadline.

mod sys;

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::io::AsyncReadExt;

pub use sys::signal_name;

/// How strongly a run was isolated and how it was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// Process group, rlimits, CPU time and peak RSS from wait4.
    Rlimit,
}

impl Isolation {
    /// The name shown in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Isolation::Rlimit => "rlimit",
        }
    }

    /// Whether this is weaker than full isolation (shown as a warning).
    pub fn is_weak(self) -> bool {
        true
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Environment {
    /// The judge's own environment (compilers need it).
    Inherit,
    /// Only PATH, HOME (the working directory), LANG and TMPDIR: runs are
    /// reproducible whatever the judge's environment holds.
    Minimal,
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
fn resolve_program(program: &OsString) -> OsString {
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
    let found = std::env::split_paths(SYSTEM_PATH)
        .chain(std::env::split_paths(&user_path))
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable_file(candidate))
        .map_or_else(|| program.clone(), PathBuf::into_os_string);
    map.insert(program.clone(), found.clone());
    found
}

fn is_executable_file(path: &Path) -> bool {
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
    let program = request
        .argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let limits = request.limits;
    let program_path = match request.environment {
        Environment::Minimal => resolve_program(&request.argv[0]),
        Environment::Inherit => request.argv[0].clone(),
    };
    let mut command = std::process::Command::new(&program_path);
    command.args(&request.argv[1..]).current_dir(&request.cwd);
    command.process_group(0);
    if request.environment == Environment::Minimal {
        command.env_clear();
        command.env("PATH", SYSTEM_PATH);
        command.env("HOME", &request.cwd);
        command.env("TMPDIR", &request.cwd);
        command.env("LANG", "C.UTF-8");
    }
    command.stdin(match &request.stdin {
        Stdin::Null => Stdio::null(),
        Stdin::File(path) => Stdio::from(File::open(path).map_err(|source| RunError::Spawn {
            program: format!("{program} (stdin {})", path.display()),
            source,
        })?),
    });
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let cpu_backstop = limits.cpu_time.as_secs() + 1;
    sys::apply_in_child(
        &mut command,
        sys::Rlimits {
            cpu_seconds: Some(cpu_backstop),
            address_space: limits.memory.filter(|_| limits.address_space),
            stack: limits.memory,
            file_size: Some(limits.file_size),
            open_files: None,
        },
    );

    let start = Instant::now();
    let mut child = command.spawn().map_err(|source| RunError::Spawn {
        program: program.clone(),
        source,
    })?;
    let pid = child.id();
    let mut guard = ReapGuard { pid: Some(pid) };
    let watch_err = |source| RunError::Watch {
        program: program.clone(),
        source,
    };
    let stdout = tokio::process::ChildStdout::from_std(child.stdout.take().expect("piped"))
        .map_err(watch_err)?;
    let stderr = tokio::process::ChildStderr::from_std(child.stderr.take().expect("piped"))
        .map_err(watch_err)?;
    drop(child);

    // Told to stop when a descendant that escaped the group holds a pipe open
    // after the program exited: the drains then return what they have.
    let (stop_stdout, stdout_stop) = tokio::sync::oneshot::channel();
    let (stop_stderr, stderr_stop) = tokio::sync::oneshot::channel();
    let mut stdout_task = tokio::spawn(drain_stdout(
        stdout,
        limits.stdout,
        request.stdout_spill.clone(),
        stdout_stop,
    ));
    let mut stderr_task = tokio::spawn(drain_keep(stderr, limits.stderr, stderr_stop));
    let mut exited = tokio::task::spawn_blocking(move || sys::wait_exited(pid));

    let deadline = tokio::time::Instant::from_std(start + limits.wall_time);
    let poll = (limits.cpu_time / 10).clamp(Duration::from_millis(10), Duration::from_millis(100));
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + poll, poll);
    let mut limit_hit = None;
    let mut stdout_result = None;
    loop {
        tokio::select! {
            done = &mut exited => {
                done.expect("waiter thread panicked").map_err(watch_err)?;
                break;
            }
            drained = &mut stdout_task, if stdout_result.is_none() => {
                let drained = drained.expect("stdout task panicked");
                if matches!(drained, Ok((_, true))) {
                    sys::kill_group(pid);
                    limit_hit.get_or_insert(LimitHit::Output);
                }
                stdout_result = Some(drained);
            }
            _ = tokio::time::sleep_until(deadline), if limit_hit.is_none() => {
                sys::kill_group(pid);
                limit_hit = Some(LimitHit::WallTime);
            }
            _ = ticker.tick(), if limit_hit.is_none() => {
                if sys::cpu_time_so_far(pid).is_some_and(|t| t > limits.cpu_time) {
                    sys::kill_group(pid);
                    limit_hit = Some(LimitHit::CpuTime);
                }
            }
        }
    }
    let wall_time = start.elapsed();
    // The leader has exited but is not reaped: its group id is still ours, so
    // killing the group cannot hit an unrelated process. Then reap.
    sys::kill_group(pid);
    let reaped = sys::reap(pid).map_err(watch_err)?;
    guard.pid = None;

    let stdout_result = match stdout_result {
        Some(r) => r,
        None => match tokio::time::timeout(DRAIN_GRACE, &mut stdout_task).await {
            Ok(r) => r.expect("stdout task panicked"),
            Err(_) => {
                let _ = stop_stdout.send(());
                stdout_task.await.expect("stdout task panicked")
            }
        },
    };
    let (stdout, over) = stdout_result.map_err(watch_err)?;
    if over {
        limit_hit.get_or_insert(LimitHit::Output);
    }
    let (stderr, stderr_truncated) = match tokio::time::timeout(DRAIN_GRACE, &mut stderr_task).await
    {
        Ok(r) => r.expect("stderr task panicked").unwrap_or_default(),
        Err(_) => {
            let _ = stop_stderr.send(());
            let drained = stderr_task.await.expect("stderr task panicked");
            drained.unwrap_or_default()
        }
    };

    let exit = match (reaped.code, reaped.signal) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(signal)) => Exit::Signal(signal),
        (None, None) => Exit::Signal(sys::signals::SIGKILL),
    };
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
    Ok(RunOutcome {
        exit,
        limit_hit,
        cpu_time: reaped.cpu_time,
        wall_time,
        peak_memory_kib: reaped.max_rss_kib,
        stdout,
        stderr,
        stderr_truncated,
        isolation: Isolation::Rlimit,
    })
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
    mut pipe: tokio::process::ChildStdout,
    cap: u64,
    spill: Option<PathBuf>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
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
    mut pipe: tokio::process::ChildStderr,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn request(script: &str, limits: Limits) -> RunRequest {
        RunRequest {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            cwd: std::env::temp_dir(),
            stdin: Stdin::Null,
            stdout_spill: None,
            environment: Environment::Minimal,
            limits,
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

    #[test]
    fn captures_output_and_exit_code() {
        let out = block_on(run(&request("echo hi; echo err >&2; exit 3", limits()))).unwrap();
        assert_eq!(out.exit, Exit::Code(3));
        assert_eq!(out.stdout.to_vec().unwrap(), b"hi\n");
        assert_eq!(out.stderr, b"err\n");
        assert_eq!(out.limit_hit, None);
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
        let mut r = request("", limits());
        r.argv = vec!["/nonexistent/program".into()];
        let err = block_on(run(&r)).unwrap_err();
        assert!(matches!(err, RunError::Spawn { .. }));
    }
}
