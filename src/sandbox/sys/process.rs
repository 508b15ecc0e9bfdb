//! Processes: rlimits, waiting with resource usage, signals, forking the
//! single-threaded keeper, pidfds and polling.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

use super::check;

/// Resource limits applied in the child between clone and exec.
#[derive(Debug, Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Rlimits {
    /// RLIMIT_CPU in whole seconds (soft; the hard limit is one second more).
    pub(crate) cpu_seconds: Option<u64>,
    /// RLIMIT_AS in bytes.
    pub(crate) address_space: Option<u64>,
    /// RLIMIT_STACK in bytes.
    pub(crate) stack: Option<u64>,
    /// RLIMIT_FSIZE in bytes (files the program writes itself).
    pub(crate) file_size: Option<u64>,
    /// RLIMIT_NOFILE.
    pub(crate) open_files: Option<u64>,
}

/// Sends SIGKILL to the whole process group `pgid`. Only called while the
/// group leader is not yet reaped, so the group id cannot have been reused.
pub(crate) fn kill_group(pgid: u32) {
    // SAFETY: kill with a negative pid signals a process group; no memory is involved.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}

/// How a reaped process ended, with its own resource usage.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reaped {
    /// Exit code, when it exited normally.
    pub(crate) code: Option<i32>,
    /// Signal number, when a signal killed it.
    pub(crate) signal: Option<i32>,
    /// User plus system CPU time of the process (and the children it waited for).
    pub(crate) cpu_time: Duration,
    /// Peak resident set size, KiB.
    pub(crate) max_rss_kib: u64,
}

/// Reaps process `pid` with wait4, returning its own rusage (never the
/// process-wide RUSAGE_CHILDREN, which mixes concurrent runs).
pub(crate) fn reap(pid: u32) -> io::Result<Reaped> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data; wait4 writes into both locals.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers to locals.
        let rc = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
        if rc >= 0 {
            return Ok(reaped_from(status, &usage));
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// CPU time (user + system) used so far by a live process, from /proc/PID/stat.
pub(crate) fn cpu_time_so_far(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may contain spaces) start after ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split(' ');
    // utime and stime are fields 14 and 15 of the file: 12th and 13th after ')'.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let ticks = clock_ticks_per_second();
    Some(Duration::from_nanos(
        (utime + stime) * 1_000_000_000 / ticks,
    ))
}

/// How long a live process's threads have been runnable but waiting for a
/// CPU (the run-queue wait of /proc/PID/task/*/schedstat): high when the
/// machine is overloaded, near zero when the process sleeps.
pub(crate) fn run_queue_wait(pid: u32) -> Option<Duration> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut waited = 0u64;
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("schedstat")) else {
            continue;
        };
        // "on-CPU ns, run-queue wait ns, timeslices".
        if let Some(ns) = stat
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse::<u64>().ok())
        {
            waited += ns;
        }
    }
    Some(Duration::from_nanos(waited))
}

/// Whether a live process has children (in any of its threads): processes
/// of a run besides its leader, which can starve the leader themselves.
pub(crate) fn has_live_children(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        std::fs::read_to_string(task.path().join("children"))
            .is_ok_and(|list| !list.trim().is_empty())
    })
}

/// The RLIMIT_CPU (soft, whole seconds) set under a run whose CPU time
/// limit is `limit`: a backstop well above the judge's own limit, so that
/// the judge's measure decides and the rlimit only ends a run the judge
/// could not watch (its own poll starved on an overloaded machine).
pub(crate) fn cpu_rlimit_backstop(limit: Duration) -> u64 {
    let half = limit / 2;
    (limit + half.max(Duration::from_secs(1))).as_secs() + 1
}

/// CPU time used so far by the calling thread (CLOCK_THREAD_CPUTIME_ID):
/// what a probe of the machine's contention measures itself with.
pub(crate) fn thread_cpu_time() -> Duration {
    // SAFETY: timespec is plain data; clock_gettime writes into the local.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a local.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// How far past its wall limit a run may go: the time it waited for a CPU
/// the machine did not give it (not the program's doing), at most nine
/// more wall limits: every run still ends, and one that reaches the bound
/// is "could not judge: the machine is overloaded", never a verdict.
pub(crate) fn starved_grace(wall_limit: Duration, waited_for_cpu: Duration) -> Duration {
    waited_for_cpu.min(wall_limit.saturating_mul(STARVED_BOUND - 1))
}

/// How many wall limits a starved run may take in all.
pub(crate) const STARVED_BOUND: u32 = 10;

fn clock_ticks_per_second() -> u64 {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    // SAFETY: sysconf has no memory-safety preconditions.
    *TICKS.get_or_init(|| match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        n if n > 0 => n as u64,
        _ => 100,
    })
}

/// The conventional name of a signal number (`SIGSEGV`).
pub(crate) fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGCHLD => "SIGCHLD",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

/// Signal numbers the runner's classification needs to recognise.
/// The system's monotonic clock, in ns: comparable between processes.
pub(crate) fn monotonic_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write to.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    (t.tv_sec as u64).saturating_mul(1_000_000_000) + t.tv_nsec as u64
}

pub(crate) mod signals {
    /// CPU-time rlimit exceeded.
    pub(crate) const SIGXCPU: i32 = libc::SIGXCPU;
    /// File-size rlimit exceeded.
    pub(crate) const SIGXFSZ: i32 = libc::SIGXFSZ;
    /// Killed.
    pub(crate) const SIGKILL: i32 = libc::SIGKILL;
    /// A write to a pipe nobody reads.
    pub(crate) const SIGPIPE: i32 = libc::SIGPIPE;
}

/// fork(2). Only for the single-threaded keeper.
pub(crate) enum Forked {
    /// In the child.
    Child,
    /// In the parent, with the child's pid.
    Parent(i32),
}

/// fork(2); the caller must be single-threaded (the keeper is).
pub(crate) fn fork() -> io::Result<Forked> {
    // SAFETY: the keeper is single-threaded, so the child may run any code.
    let pid = check(unsafe { libc::fork() })?;
    Ok(if pid == 0 {
        Forked::Child
    } else {
        Forked::Parent(pid)
    })
}

/// Asks for SIGKILL when the parent dies.
pub(crate) fn die_with_parent() -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) }).map(|_| ())
}

/// Makes the calling process non-dumpable: its /proc files then belong to
/// root of the host, and no process of the same uid can trace it or list
/// its descriptors (the runs of a user namespace share init's uid).
pub(crate) fn not_dumpable() -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) }).map(|_| ())
}

/// Effective uid and gid of the calling process.
pub(crate) fn ids() -> (u32, u32) {
    // SAFETY: no preconditions.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// kill(2).
pub(crate) fn kill(pid: i32, signal: i32) {
    // SAFETY: kill takes integers.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// Kills every process of the caller's pid namespace except the caller
/// (meaningful for the namespace's init).
pub(crate) fn kill_all_others() {
    kill(-1, libc::SIGKILL);
}

/// Whether the caller has any child left (running or exited, unreaped).
pub(crate) fn has_children() -> bool {
    // SAFETY: siginfo_t is plain data; waitid only writes it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer to a local; WNOWAIT leaves any child unreaped.
    let rc = unsafe {
        libc::waitid(
            libc::P_ALL,
            0,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT | libc::__WALL,
        )
    };
    // ECHILD: none. Any other failure: assume some, to be safe.
    rc == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ECHILD)
}

/// Whether the child `pid`, exited and not yet reaped, was killed by a
/// signal (its status is left for [`reap`]).
pub(crate) fn killed_unreaped(pid: u32) -> bool {
    // SAFETY: siginfo_t is plain data; waitid only writes it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer to a local; WNOWAIT leaves the child unreaped.
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    rc == 0 && matches!(info.si_code, libc::CLD_KILLED | libc::CLD_DUMPED)
}

/// Reaps any child, blocking; `None` when there are no children left.
pub(crate) fn reap_any() -> Option<i32> {
    loop {
        // SAFETY: waitpid with a null status pointer.
        let rc = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::__WALL) };
        if rc > 0 {
            return Some(rc);
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return None;
        }
    }
}

/// pidfd_open(2): a descriptor that becomes readable when `pid` exits.
pub(crate) fn pidfd_open(pid: i32) -> io::Result<OwnedFd> {
    // SAFETY: plain syscall; on success the result is a new descriptor we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let fd = check(fd as libc::c_int)?;
    // SAFETY: fd is a fresh descriptor owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// poll(2) for readability of `fds`; returns which are readable (or hung up).
pub(crate) fn poll_readable(fds: &[RawFd], timeout: Option<Duration>) -> io::Result<Vec<bool>> {
    let mut pfds: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as libc::c_int);
    // SAFETY: pfds is a valid array of pollfd for the call.
    let rc = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, ms) };
    if rc < 0 {
        let err = io::Error::last_os_error();
        if err.kind() == io::ErrorKind::Interrupted {
            return Ok(vec![false; fds.len()]);
        }
        return Err(err);
    }
    Ok(pfds.iter().map(|p| p.revents != 0).collect())
}

/// Reaps `pid` if it has exited (WNOHANG), with its rusage.
pub(crate) fn try_reap(pid: i32) -> io::Result<Option<Reaped>> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to locals.
    let rc = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    if rc == 0 {
        return Ok(None);
    }
    Ok(Some(reaped_from(status, &usage)))
}

fn reaped_from(status: libc::c_int, usage: &libc::rusage) -> Reaped {
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    Reaped {
        code,
        signal,
        cpu_time: tv(usage.ru_utime) + tv(usage.ru_stime),
        max_rss_kib: usage.ru_maxrss.max(0) as u64,
    }
}

/// Restores the default disposition of every signal: SIGPIPE, which every
/// Rust program ignores at start-up, and whatever else whoever started the
/// judge ignored (`nohup`: SIGHUP); ignored signals survive fork and exec.
/// The keeper calls this once, so the runs it starts begin with default
/// dispositions; the plain runner's child calls it between clone and exec.
/// Raw system calls only (no allocation, no locks): glibc's wrapper would
/// refuse its internal signals 32 and 33, which a parent may ignore too.
pub(crate) fn default_signals() {
    #[repr(C)]
    struct KernelSigaction {
        handler: libc::sighandler_t,
        flags: libc::c_ulong,
        restorer: libc::sighandler_t,
        mask: u64,
    }
    let default = KernelSigaction {
        handler: libc::SIG_DFL,
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    for signal in 1..=64 {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            // SAFETY: rt_sigaction with a valid kernel sigaction and a null
            // old action; the kernel's sigset is 8 bytes.
            unsafe {
                libc::syscall(
                    libc::SYS_rt_sigaction,
                    signal,
                    &default as *const KernelSigaction,
                    std::ptr::null_mut::<KernelSigaction>(),
                    8usize,
                );
            }
        }
    }
}

/// Takes ownership of descriptor `fd` (one this process was started with).
pub(crate) fn own_fd(fd: RawFd) -> OwnedFd {
    // SAFETY: the keeper is started with its socket at this number and
    // nothing else owns it.
    unsafe { OwnedFd::from_raw_fd(fd) }
}

/// Raises the soft limit of open descriptors to the hard one; the limit
/// now in effect.
pub(crate) fn raise_open_files_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return 1024;
    }
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: setrlimit reads the struct it is given.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            return raised.rlim_cur;
        }
    }
    limit.rlim_cur
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_rlimit_is_a_backstop_above_the_limit() {
        for ms in [1, 500, 1000, 1999, 2000, 3000, 10_000] {
            let limit = Duration::from_millis(ms);
            let backstop = Duration::from_secs(cpu_rlimit_backstop(limit));
            assert!(backstop >= limit + Duration::from_secs(1), "{limit:?}");
            assert!(backstop >= limit.mul_f64(1.5), "{limit:?}");
        }
    }

    #[test]
    fn own_cpu_time_is_readable() {
        let t = cpu_time_so_far(std::process::id()).unwrap();
        assert!(t < Duration::from_secs(3600));
    }

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(11), "SIGSEGV");
        assert_eq!(signal_name(6), "SIGABRT");
        assert_eq!(signal_name(63), "signal 63");
    }
}

// ---------------------------------------------------------------------------
// Namespaces, mounts, identities and descriptor passing, for the keeper
// (src/sandbox/keeper.rs) and its client (src/sandbox/isolated.rs).
// ---------------------------------------------------------------------------
