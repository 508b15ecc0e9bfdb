//! The plain runner: a program in a process group of its own, under
//! rlimits, watched and reaped by the judge ([`run`]); and runs started ahead
//! of their turn by a spawner ([`Turn`]). Package programs at the
//! `rlimit-only` level and submissions under `--isolation none` run this way.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use super::drain::Drains;
use super::program::{c_string, env_entry, find_in_user_path, minimal_env, resolve_program};
use super::shared::{Shared, Spawned};
use super::types::{address_space_backstop, exit_of};
use super::{
    isolated, keeper, sys, Environment, Exit, LimitHit, RunError, RunOutcome, RunRequest, Stdin,
};

/// Runs one process to completion under `request.limits`.
pub(crate) async fn run(request: &RunRequest) -> Result<RunOutcome, RunError> {
    run_plain(request, None, false, &mut Turn::now()).await
}

/// When a run may start, for runs prepared ahead of their turn (see
/// [`Sandbox::run_in_turn`](super::Sandbox::run_in_turn)): a future that resolves when the turn comes,
/// and what it gave (a slot, kept by the caller).
pub(crate) struct Turn<'a, T> {
    wait: Option<std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>>,
    given: Option<T>,
}

impl<'a, T> Turn<'a, T> {
    /// A turn that comes when `wait` resolves.
    pub(crate) fn when(wait: impl std::future::Future<Output = T> + Send + 'a) -> Self {
        Turn {
            wait: Some(Box::pin(wait)),
            given: None,
        }
    }

    /// Whether the turn has come.
    pub(crate) fn has_come(&self) -> bool {
        self.wait.is_none()
    }

    /// Waits for the turn, if it has not come yet.
    pub(crate) async fn come(&mut self) {
        if let Some(wait) = self.wait.take() {
            self.given = Some(wait.await);
        }
    }

    /// What the turn gave; `None` if it had already come when made, if the
    /// run ended (failed) before it came, or if the run gave it back once its
    /// program was gone (see [`Turn::end`]).
    pub(crate) fn into_given(self) -> Option<T> {
        self.given
    }

    /// Gives back what the turn gave (a slot), if anything, and lets the
    /// next run (waiting for it) start before this one goes on.
    pub(crate) async fn end(&mut self) {
        if let Some(given) = self.given.take() {
            drop(given);
            tokio::task::yield_now().await;
        }
    }
}

impl Turn<'static, ()> {
    /// A turn that has already come (and gives nothing).
    pub(crate) fn now() -> Self {
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
/// a copy of its memory when the run's memory is measured. A `timed` run (a
/// submission's, timed for a verdict) runs at a raised priority where the
/// judge may raise it ([`sys::SpawnPlan::raise_priority`]).
pub(crate) async fn run_plain<T>(
    request: &RunRequest,
    spawners: Option<&Shared>,
    timed: bool,
    turn: &mut Turn<'_, T>,
) -> Result<RunOutcome, RunError> {
    let mut tries = 0;
    loop {
        match run_plain_once(request, spawners, timed, turn).await? {
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
    timed: bool,
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
    let cpu_backstop = sys::cpu_rlimit_backstop(limits.cpu_time);
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
    let out_write = stdout_end(request, out_write, &program)?;
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
                make_dirs: Vec::new(),
                keep: Vec::new(),
                keep_max: 0,
                keep_dirs: Vec::new(),
                fill: Vec::new(),
                // Named files are put and taken by the judge (see pool.rs).
                input_file: None,
                output_file: None,
                raise_priority: timed,
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
                timed,
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
    let exited = sys::async_fd(pidfd).map_err(watch_err)?;

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
    let mut deadline = tokio::time::Instant::from_std(start + limits.wall_time);
    let poll = (limits.cpu_time / 10).clamp(Duration::from_millis(10), Duration::from_millis(100));
    let timer = tokio::time::sleep_until((tokio::time::Instant::now() + poll).min(deadline));
    tokio::pin!(timer);
    let mut limit_hit = None;
    let mut waited_for_cpu = Duration::ZERO;
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
                    // Time spent waiting for a CPU does not count, unless
                    // the run's own children could have made it wait (its
                    // CPU time is the leader's).
                    waited_for_cpu = match sys::has_live_children(pid) {
                        false => sys::run_queue_wait(pid).unwrap_or_default(),
                        true => Duration::ZERO,
                    };
                    let grace = sys::starved_grace(limits.wall_time, waited_for_cpu);
                    let extended = tokio::time::Instant::from_std(start + limits.wall_time + grace);
                    if extended > now {
                        deadline = extended;
                        timer.as_mut().reset((now + poll).min(deadline));
                    } else {
                        sys::kill_group(pid);
                        limit_hit = Some(LimitHit::WallTime);
                    }
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
    let ended_ns = sys::monotonic_ns();
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
        ended_ns,
        waited_for_cpu,
        keep_error: None,
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
        let exe = sys::own_executable_path().unwrap_or_default();
        let name = exe.file_name().unwrap_or_default().as_encoded_bytes();
        name[..name.len().min(15)].to_vec()
    });
    sys::killed_unreaped(pid)
        && std::fs::read(format!("/proc/{pid}/comm"))
            .is_ok_and(|name| name.strip_suffix(b"\n").unwrap_or(&name) == spawner.as_slice())
}

/// Starts the program from the judge itself: the plain runner without a
/// spawner. Returns the child, or the error that kept it from exec'ing (with
/// the child, which must still be reaped).
fn spawn_here(
    request: &RunRequest,
    program_path: &std::ffi::OsStr,
    env: &[(OsString, OsString)],
    rlimits: &sys::Rlimits,
    timed: bool,
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
    let plan = match timed {
        true => plan.raise_priority(),
        false => plan,
    };
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
pub(crate) fn output_pipe() -> io::Result<(tokio::net::unix::pipe::Receiver, std::os::fd::OwnedFd)>
{
    let (read, write) = sys::output_pipe()?;
    Ok((
        tokio::net::unix::pipe::Receiver::from_owned_fd_unchecked(read)?,
        write,
    ))
}

/// The program's stdout: the pipe of `request.stdout_to` when it has one
/// (then `captured`, the capture pipe's write end, is closed: nothing is
/// captured), else `captured`.
pub(crate) fn stdout_end(
    request: &RunRequest,
    captured: std::os::fd::OwnedFd,
    program: &str,
) -> Result<std::os::fd::OwnedFd, RunError> {
    let Some(end) = &request.stdout_to else {
        return Ok(captured);
    };
    drop(captured);
    end.take().ok_or_else(|| RunError::Spawn {
        program: format!("{program} (stdout)"),
        source: io::Error::other("its stdout pipe was already given to a run"),
    })
}

pub(crate) fn open_stdin(stdin: &Stdin, program: &str) -> Result<File, RunError> {
    let path = match stdin {
        Stdin::Null => Path::new("/dev/null"),
        Stdin::File(path) => path.as_path(),
        Stdin::Pipe(end) => {
            return end.take().map(File::from).ok_or_else(|| RunError::Spawn {
                program: format!("{program} (stdin)"),
                source: io::Error::other("its stdin pipe was already given to a run"),
            })
        }
    };
    File::open(path).map_err(|source| RunError::Spawn {
        program: format!("{program} (stdin {})", path.display()),
        source,
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

#[cfg(test)]
mod tests;
