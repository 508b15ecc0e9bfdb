//! The raw system calls of the sandbox: rlimits, process-group kills, waiting
//! with resource usage, and CPU time from /proc. Every `unsafe` block of the
//! judge lives in this file.

use std::io;
use std::time::Duration;

/// Resource limits applied in the child between fork and exec.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rlimits {
    /// RLIMIT_CPU in whole seconds (soft; the hard limit is one second more).
    pub cpu_seconds: Option<u64>,
    /// RLIMIT_AS in bytes.
    pub address_space: Option<u64>,
    /// RLIMIT_STACK in bytes.
    pub stack: Option<u64>,
    /// RLIMIT_FSIZE in bytes (files the program writes itself).
    pub file_size: Option<u64>,
    /// RLIMIT_NOFILE.
    pub open_files: Option<u64>,
}

fn set(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: setrlimit only reads the struct we pass; it is async-signal-safe.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

impl Rlimits {
    /// Applies the limits to the calling process. Called in the forked child
    /// before exec: performs only async-signal-safe system calls, no allocation.
    fn apply(&self) -> io::Result<()> {
        set(libc::RLIMIT_CORE, 0, 0)?;
        if let Some(s) = self.cpu_seconds {
            set(libc::RLIMIT_CPU, s, s + 1)?;
        }
        if let Some(b) = self.address_space {
            set(libc::RLIMIT_AS, b, b)?;
        }
        if let Some(b) = self.stack {
            set(libc::RLIMIT_STACK, b, b)?;
        }
        if let Some(b) = self.file_size {
            set(libc::RLIMIT_FSIZE, b, b)?;
        }
        if let Some(n) = self.open_files {
            set(libc::RLIMIT_NOFILE, n, n)?;
        }
        Ok(())
    }
}

/// Arranges for `limits` to be applied in the child of `command`.
pub fn apply_in_child(command: &mut std::process::Command, limits: Rlimits) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec; `Rlimits::apply` only
    // calls setrlimit, which is async-signal-safe, and does not allocate.
    unsafe {
        command.pre_exec(move || limits.apply());
    }
}

/// Sends SIGKILL to the whole process group `pgid`. Only called while the
/// group leader is not yet reaped, so the group id cannot have been reused.
pub fn kill_group(pgid: u32) {
    // SAFETY: kill with a negative pid signals a process group; no memory is involved.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}

/// Blocks until process `pid` has exited, without reaping it (WNOWAIT), so that
/// its process group can still be killed safely afterwards.
pub fn wait_exited(pid: u32) -> io::Result<()> {
    loop {
        // SAFETY: siginfo_t is plain data; waitid writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointer to a local siginfo_t.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// How a reaped process ended, with its own resource usage.
#[derive(Debug, Clone, Copy)]
pub struct Reaped {
    /// Exit code, when it exited normally.
    pub code: Option<i32>,
    /// Signal number, when a signal killed it.
    pub signal: Option<i32>,
    /// User plus system CPU time of the process (and the children it waited for).
    pub cpu_time: Duration,
    /// Peak resident set size, KiB.
    pub max_rss_kib: u64,
}

/// Reaps process `pid` with wait4, returning its own rusage (never the
/// process-wide RUSAGE_CHILDREN, which mixes concurrent runs).
pub fn reap(pid: u32) -> io::Result<Reaped> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data; wait4 writes into both locals.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers to locals.
        let rc = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
        if rc < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        let (code, signal) = if libc::WIFEXITED(status) {
            (Some(libc::WEXITSTATUS(status)), None)
        } else if libc::WIFSIGNALED(status) {
            (None, Some(libc::WTERMSIG(status)))
        } else {
            (None, None)
        };
        return Ok(Reaped {
            code,
            signal,
            cpu_time: tv(usage.ru_utime) + tv(usage.ru_stime),
            max_rss_kib: usage.ru_maxrss.max(0) as u64,
        });
    }
}

/// CPU time (user + system) used so far by a live process, from /proc/PID/stat.
pub fn cpu_time_so_far(pid: u32) -> Option<Duration> {
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

fn clock_ticks_per_second() -> u64 {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    // SAFETY: sysconf has no memory-safety preconditions.
    *TICKS.get_or_init(|| match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        n if n > 0 => n as u64,
        _ => 100,
    })
}

/// The conventional name of a signal number (`SIGSEGV`).
pub fn signal_name(signal: i32) -> String {
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
pub mod signals {
    /// CPU-time rlimit exceeded.
    pub const SIGXCPU: i32 = libc::SIGXCPU;
    /// File-size rlimit exceeded.
    pub const SIGXFSZ: i32 = libc::SIGXFSZ;
    /// Killed.
    pub const SIGKILL: i32 = libc::SIGKILL;
}

#[cfg(test)]
mod tests {
    use super::*;

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
