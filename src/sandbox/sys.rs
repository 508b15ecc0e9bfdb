//! The raw system calls of the sandbox: rlimits, process-group kills, waiting
//! with resource usage, and CPU time from /proc. Every `unsafe` block of the
//! judge lives in this file.

use std::io;
use std::time::Duration;

/// Resource limits applied in the child between clone and exec.
#[derive(Debug, Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
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

/// Sends SIGKILL to the whole process group `pgid`. Only called while the
/// group leader is not yet reaped, so the group id cannot have been reused.
pub fn kill_group(pgid: u32) {
    // SAFETY: kill with a negative pid signals a process group; no memory is involved.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
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

// ---------------------------------------------------------------------------
// Namespaces, mounts, identities and descriptor passing, for the keeper
// (src/sandbox/keeper.rs) and its client (src/sandbox/isolated.rs).
// ---------------------------------------------------------------------------

use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

fn cstr(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path has a NUL byte"))
}

/// Namespace flags for [`unshare`].
pub mod ns {
    /// User namespace.
    pub const USER: i32 = libc::CLONE_NEWUSER;
    /// Mount namespace.
    pub const MOUNT: i32 = libc::CLONE_NEWNS;
    /// PID namespace (for children).
    pub const PID: i32 = libc::CLONE_NEWPID;
    /// Network namespace.
    pub const NET: i32 = libc::CLONE_NEWNET;
    /// IPC namespace.
    pub const IPC: i32 = libc::CLONE_NEWIPC;
    /// UTS namespace.
    pub const UTS: i32 = libc::CLONE_NEWUTS;
}

/// unshare(2).
pub fn unshare(flags: i32) -> io::Result<()> {
    // SAFETY: unshare takes flags only.
    check(unsafe { libc::unshare(flags) }).map(|_| ())
}

/// Mount flags used by the keeper.
pub mod mnt {
    /// Bind mount.
    pub const BIND: u64 = libc::MS_BIND;
    /// Recursive.
    pub const REC: u64 = libc::MS_REC;
    /// Private propagation.
    pub const PRIVATE: u64 = libc::MS_PRIVATE;
    /// Remount.
    pub const REMOUNT: u64 = libc::MS_REMOUNT;
    /// Read-only.
    pub const RDONLY: u64 = libc::MS_RDONLY;
    /// No set-uid.
    pub const NOSUID: u64 = libc::MS_NOSUID;
    /// No devices.
    pub const NODEV: u64 = libc::MS_NODEV;
    /// No exec.
    pub const NOEXEC: u64 = libc::MS_NOEXEC;
}

/// mount(2); `source`/`fstype`/`data` may be absent.
pub fn mount(
    source: Option<&Path>,
    target: &Path,
    fstype: Option<&str>,
    flags: u64,
    data: Option<&str>,
) -> io::Result<()> {
    let source = source.map(cstr).transpose()?;
    let target = cstr(target)?;
    let fstype = fstype.map(|f| CString::new(f).expect("no NUL"));
    let data = data.map(|d| CString::new(d).expect("no NUL"));
    let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    // SAFETY: every pointer is null or a valid NUL-terminated string alive for the call.
    check(unsafe {
        libc::mount(
            ptr(&source),
            target.as_ptr(),
            ptr(&fstype),
            flags as libc::c_ulong,
            ptr(&data) as *const libc::c_void,
        )
    })
    .map(|_| ())
}

/// umount2(2) with MNT_DETACH.
pub fn umount_detach(target: &Path) -> io::Result<()> {
    let target = cstr(target)?;
    // SAFETY: valid C string.
    check(unsafe { libc::umount2(target.as_ptr(), libc::MNT_DETACH) }).map(|_| ())
}

/// Makes the mount at `target` and every mount below it read-only and
/// nosuid (mount_setattr(2) with AT_RECURSIVE, Linux 5.12+).
pub fn make_tree_readonly(target: &Path) -> io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const MOUNT_ATTR_RDONLY: u64 = 0x1;
    const MOUNT_ATTR_NOSUID: u64 = 0x2;
    const AT_RECURSIVE: libc::c_int = 0x8000;
    let target = cstr(target)?;
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: valid C string and a properly sized mount_attr struct.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            target.as_ptr(),
            AT_RECURSIVE,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    check(rc as libc::c_int).map(|_| ())
}

/// Makes `new_root` the root of the calling process's mount namespace
/// (the `pivot_root(".", ".")` idiom) and detaches the old root.
pub fn pivot_into(new_root: &Path) -> io::Result<()> {
    std::env::set_current_dir(new_root)?;
    let dot = CString::new(".").expect("no NUL");
    // SAFETY: valid C strings.
    check(
        unsafe { libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()) } as libc::c_int,
    )?;
    umount_detach(Path::new("."))?;
    std::env::set_current_dir("/")
}

/// fork(2). Only for the single-threaded keeper.
pub enum Forked {
    /// In the child.
    Child,
    /// In the parent, with the child's pid.
    Parent(i32),
}

/// fork(2); the caller must be single-threaded (the keeper is).
pub fn fork() -> io::Result<Forked> {
    // SAFETY: the keeper is single-threaded, so the child may run any code.
    let pid = check(unsafe { libc::fork() })?;
    Ok(if pid == 0 {
        Forked::Child
    } else {
        Forked::Parent(pid)
    })
}

/// Asks for SIGKILL when the parent dies.
pub fn die_with_parent() -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) }).map(|_| ())
}

/// Makes the calling process non-dumpable: its /proc files then belong to
/// root of the host, and no process of the same uid can trace it or list
/// its descriptors (the runs of a user namespace share init's uid).
pub fn not_dumpable() -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) }).map(|_| ())
}

/// Effective uid and gid of the calling process.
pub fn ids() -> (u32, u32) {
    // SAFETY: no preconditions.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// Sets the hostname (in a private UTS namespace).
pub fn set_hostname(name: &str) -> io::Result<()> {
    // SAFETY: pointer and length of a valid buffer.
    check(unsafe { libc::sethostname(name.as_ptr() as *const libc::c_char, name.len()) })
        .map(|_| ())
}

/// Makes `fd` the descriptor number `target` (clearing close-on-exec).
pub fn dup_to(fd: RawFd, target: RawFd) -> io::Result<()> {
    if fd == target {
        // SAFETY: fcntl on a descriptor we own.
        let flags = check(unsafe { libc::fcntl(fd, libc::F_GETFD) })?;
        // SAFETY: as above.
        check(unsafe { libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) })?;
        return Ok(());
    }
    // SAFETY: dup2 on descriptors; `target` is replaced atomically.
    check(unsafe { libc::dup2(fd, target) }).map(|_| ())
}

/// kill(2).
pub fn kill(pid: i32, signal: i32) {
    // SAFETY: kill takes integers.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// Kills every process of the caller's pid namespace except the caller
/// (meaningful for the namespace's init).
pub fn kill_all_others() {
    kill(-1, libc::SIGKILL);
}

/// Whether the caller has any child left (running or exited, unreaped).
pub fn has_children() -> bool {
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
pub fn killed_unreaped(pid: u32) -> bool {
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
pub fn reap_any() -> Option<i32> {
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
pub fn pidfd_open(pid: i32) -> io::Result<OwnedFd> {
    // SAFETY: plain syscall; on success the result is a new descriptor we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let fd = check(fd as libc::c_int)?;
    // SAFETY: fd is a fresh descriptor owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// poll(2) for readability of `fds`; returns which are readable (or hung up).
pub fn poll_readable(fds: &[RawFd], timeout: Option<Duration>) -> io::Result<Vec<bool>> {
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
pub fn try_reap(pid: i32) -> io::Result<Option<Reaped>> {
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

/// A pipe whose ends are closed on exec: (read, write).
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds is a two-element array.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: both are fresh descriptors we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A pipe for a child's output: (read end, non-blocking; write end), both
/// close-on-exec. One fcntl: a fresh pipe has no other status flags.
pub fn output_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = pipe()?;
    // SAFETY: fcntl on a descriptor just created and owned here.
    check(unsafe { libc::fcntl(read.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) })?;
    Ok((read, write))
}

/// A connected pair of SOCK_SEQPACKET sockets (message boundaries kept), close-on-exec.
pub fn seqpacket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds is a two-element array.
    check(unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    })?;
    // SAFETY: both are fresh descriptors we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sets or clears O_NONBLOCK.
pub fn set_nonblocking(fd: RawFd, on: bool) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor the caller owns.
    let flags = check(unsafe { libc::fcntl(fd, libc::F_GETFL) })?;
    let flags = if on {
        flags | libc::O_NONBLOCK
    } else {
        flags & !libc::O_NONBLOCK
    };
    // SAFETY: as above.
    check(unsafe { libc::fcntl(fd, libc::F_SETFL, flags) }).map(|_| ())
}

/// Most descriptors passed in one message.
const MAX_FDS: usize = 5;

/// Sends one message with descriptors attached (SCM_RIGHTS).
pub fn send_with_fds(socket: RawFd, data: &[u8], fds: &[RawFd]) -> io::Result<()> {
    assert!(fds.len() <= MAX_FDS);
    let mut iov = libc::iovec {
        iov_base: data.as_ptr() as *mut libc::c_void,
        iov_len: data.len(),
    };
    let (mut control, _) = fd_control_buffer();
    // SAFETY: msghdr is plain data, filled below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
        // SAFETY: pure computation.
        msg.msg_controllen = unsafe { libc::CMSG_SPACE(std::mem::size_of_val(fds) as u32) } as _;
        // SAFETY: msg_control points to a buffer large enough for one header.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of_val(fds) as u32) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr(),
                libc::CMSG_DATA(cmsg) as *mut RawFd,
                fds.len(),
            );
        }
    }
    loop {
        // SAFETY: msg and its buffers are valid for the call.
        let rc = unsafe { libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL) };
        if rc >= 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// A control-message buffer for up to [`MAX_FDS`] descriptors, and the
/// space they take: on the stack, aligned for the headers (the keeper's
/// poll for its next job receives in a loop).
fn fd_control_buffer() -> ([u64; 8], usize) {
    // SAFETY: CMSG_SPACE is a pure computation.
    let space =
        unsafe { libc::CMSG_SPACE((MAX_FDS * std::mem::size_of::<RawFd>()) as u32) } as usize;
    let control = [0u64; 8];
    assert!(space <= std::mem::size_of_val(&control));
    (control, space)
}

/// Receives one message and its descriptors. `Ok(None)` at end of stream.
pub fn recv_with_fds(
    socket: RawFd,
    buf: &mut [u8],
    nonblocking: bool,
) -> io::Result<Option<(usize, Vec<OwnedFd>)>> {
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr() as *mut libc::c_void,
        iov_len: buf.len(),
    };
    let (mut control, space) = fd_control_buffer();
    // SAFETY: msghdr is plain data.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
    msg.msg_controllen = space as _;
    let flags = libc::MSG_CMSG_CLOEXEC | if nonblocking { libc::MSG_DONTWAIT } else { 0 };
    let n = loop {
        // SAFETY: msg and its buffers are valid for the call.
        let rc = unsafe { libc::recvmsg(socket, &mut msg, flags) };
        if rc >= 0 {
            break rc as usize;
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    };
    if n == 0 && msg.msg_controllen == 0 {
        return Ok(None);
    }
    let mut fds = Vec::new();
    // SAFETY: walking the control buffer the kernel filled, with the libc macros.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let count = ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize)
                    / std::mem::size_of::<RawFd>();
                let data = libc::CMSG_DATA(cmsg) as *const RawFd;
                for i in 0..count {
                    fds.push(OwnedFd::from_raw_fd(std::ptr::read_unaligned(data.add(i))));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
    }
    Ok(Some((n, fds)))
}

/// pread(2) at `offset` (re-reading a kernel listing through an open descriptor).
pub fn pread_at(fd: &impl AsRawFd, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    // SAFETY: buf is valid for writes of its length.
    let rc = unsafe {
        libc::pread(
            fd.as_raw_fd(),
            buf.as_mut_ptr() as *mut libc::c_void,
            buf.len(),
            offset as libc::off_t,
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(rc as usize)
}

/// Lets `command`'s child keep `fd` open as descriptor `target`.
pub fn pass_fd(command: &mut std::process::Command, fd: RawFd, target: RawFd) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec and only calls dup2/fcntl,
    // which are async-signal-safe.
    unsafe {
        command.pre_exec(move || dup_to(fd, target));
    }
}

/// Has `command`'s child start on `cpus` instead of this thread's CPUs.
pub fn use_cpus_on_exec(command: &mut std::process::Command, cpus: CpuSet) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec and only makes one
    // system call on a mask captured by value.
    unsafe {
        command.pre_exec(move || set_thread_cpus(&cpus));
    }
}

/// A set of CPUs, as `sched_setaffinity(2)` takes it.
#[derive(Clone, Copy)]
pub struct CpuSet(libc::cpu_set_t);

impl CpuSet {
    /// The CPUs this thread may run on.
    pub fn of_this_thread() -> io::Result<CpuSet> {
        // SAFETY: cpu_set_t is plain data; the kernel fills it.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a mask of the size passed.
        check(unsafe {
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set)
        })?;
        Ok(CpuSet(set))
    }

    /// The set of `cpu` alone.
    pub fn only(cpu: usize) -> CpuSet {
        // SAFETY: as above.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if cpu < libc::CPU_SETSIZE as usize {
            // SAFETY: `cpu` is within the mask (checked).
            unsafe { libc::CPU_SET(cpu, &mut set) };
        }
        CpuSet(set)
    }

    /// The CPUs in the set, lowest first.
    pub fn cpus(&self) -> Vec<usize> {
        (0..libc::CPU_SETSIZE as usize)
            // SAFETY: every `cpu` is within the mask.
            .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &self.0) })
            .collect()
    }
}

impl std::fmt::Debug for CpuSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.cpus()).finish()
    }
}

thread_local! {
    /// The CPUs this thread had before [`pin_this_thread`], while pinned.
    static BEFORE_PIN: std::cell::Cell<Option<CpuSet>> = const { std::cell::Cell::new(None) };
}

/// The CPUs this thread had before it was pinned; `None` if it is not.
pub fn cpus_before_pin() -> Option<CpuSet> {
    BEFORE_PIN.get()
}

/// Keeps the calling thread on `cpu` alone until the guard is dropped (on
/// the same thread). Processes and threads it starts meanwhile inherit the
/// pin, except children started by [`spawn`], which get the CPUs it had
/// before.
pub fn pin_this_thread(cpu: usize) -> io::Result<ThreadPin> {
    let before = CpuSet::of_this_thread()?;
    set_thread_cpus(&CpuSet::only(cpu))?;
    BEFORE_PIN.set(Some(before));
    Ok(ThreadPin {
        before,
        // SAFETY: gettid has no arguments and cannot fail.
        thread: unsafe { libc::gettid() },
    })
}

/// A thread's pin to one CPU; dropping it on that thread gives the thread
/// its CPUs back.
#[derive(Debug)]
pub struct ThreadPin {
    before: CpuSet,
    thread: libc::pid_t,
}

impl Drop for ThreadPin {
    fn drop(&mut self) {
        // SAFETY: as in pin_this_thread.
        if unsafe { libc::gettid() } == self.thread {
            BEFORE_PIN.set(None);
            let _ = set_thread_cpus(&self.before);
        }
    }
}

/// Gives the calling thread `cpus` (a thread that inherited a pin and
/// should not keep it).
pub fn use_cpus(cpus: CpuSet) {
    let _ = set_thread_cpus(&cpus);
}

/// sched_setaffinity(2) of the calling thread (one system call: also safe
/// between fork and exec).
fn set_thread_cpus(cpus: &CpuSet) -> io::Result<()> {
    // SAFETY: a valid mask of the size passed.
    check(unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &cpus.0) })
        .map(|_| ())
}

/// Takes `flock(LOCK_EX | LOCK_NB)` on `file`: whether it was free. The
/// lock lasts as long as the open file (released when the process ends).
pub fn try_lock_exclusive(file: &std::fs::File) -> bool {
    // SAFETY: flock on a descriptor the caller owns.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Takes ownership of descriptor `fd` (one this process was started with).
pub fn own_fd(fd: RawFd) -> OwnedFd {
    // SAFETY: the keeper is started with its socket at this number and
    // nothing else owns it.
    unsafe { OwnedFd::from_raw_fd(fd) }
}

/// Restores the default disposition of every signal: SIGPIPE, which every
/// Rust program ignores at start-up, and whatever else whoever started the
/// judge ignored (`nohup`: SIGHUP); ignored signals survive fork and exec.
/// The keeper calls this once, so the runs it starts begin with default
/// dispositions; the plain runner's child calls it between clone and exec.
/// Raw system calls only (no allocation, no locks): glibc's wrapper would
/// refuse its internal signals 32 and 33, which a parent may ignore too.
pub fn default_signals() {
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

/// Everything a run's child needs, prepared before it is cloned, so the child
/// performs only raw system calls (it shares the keeper's memory).
pub struct SpawnPlan {
    program: CString,
    _argv: Vec<CString>,
    argv_ptrs: Vec<*const libc::c_char>,
    _env: Vec<CString>,
    env_ptrs: Vec<*const libc::c_char>,
    cwd: CString,
    stdio: [RawFd; 3],
    run_as: Option<(u32, u32)>,
    limits: Vec<(libc::__rlimit_resource_t, libc::rlimit)>,
    oom_score_path: Option<CString>,
    /// Whether the child leads a new process group.
    process_group: bool,
    /// Whether the child resets every signal's disposition to the default
    /// (a child of a process with handlers: the judge itself).
    reset_signals: bool,
    /// Whether the child shares this process's memory until it execs
    /// (CLONE_VM). Cheapest, but the program's ru_maxrss then starts at
    /// this process's peak RSS (exec records the old memory's high-water
    /// mark), so runs whose memory is measured by ru_maxrss get a copy.
    share_memory: bool,
    /// Whether the child is made a child of this process's parent
    /// (CLONE_PARENT): a spawner starts it, the judge waits for it. The
    /// child then reports to the judge itself, through `errno_fd`: its pid
    /// before it execs, and the errno if the exec fails.
    parent_adopts: bool,
    /// The write end of the pipe a child without shared memory reports a
    /// failed exec through (-1 otherwise).
    errno_fd: std::sync::atomic::AtomicI32,
    /// Set by the child when exec fails.
    errno: std::sync::atomic::AtomicI32,
    /// The read end of a pipe the child waits on, ready in every other
    /// way, before it execs (-1: no wait); see [`SpawnPlan::wait_for_gate`].
    gate: RawFd,
    /// The CPUs the child may use, when not this thread's: a thread pinned
    /// to one CPU ([`pin_this_thread`]) starts its children with the CPUs it
    /// had before.
    cpus: Option<CpuSet>,
}

impl SpawnPlan {
    /// A plan to exec `argv` (its first element the program) with `env`, in
    /// `cwd`, with `stdio` as descriptors 0, 1 and 2.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        argv: Vec<CString>,
        env: Vec<CString>,
        cwd: &Path,
        stdio: [RawFd; 3],
        run_as: Option<(u32, u32)>,
        rlimits: &Rlimits,
        processes: Option<u64>,
        raise_oom_score: bool,
    ) -> io::Result<SpawnPlan> {
        let program = argv
            .first()
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty argv"))?;
        let mut argv_ptrs: Vec<_> = argv.iter().map(|a| a.as_ptr()).collect();
        argv_ptrs.push(std::ptr::null());
        let mut env_ptrs: Vec<_> = env.iter().map(|a| a.as_ptr()).collect();
        env_ptrs.push(std::ptr::null());
        let lim = |soft: u64, hard: u64| libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        let mut limits = vec![(libc::RLIMIT_CORE, lim(0, 0))];
        if let Some(s) = rlimits.cpu_seconds {
            limits.push((libc::RLIMIT_CPU, lim(s, s + 1)));
        }
        for (resource, value) in [
            (libc::RLIMIT_AS, rlimits.address_space),
            (libc::RLIMIT_STACK, rlimits.stack),
            (libc::RLIMIT_FSIZE, rlimits.file_size),
            (libc::RLIMIT_NOFILE, rlimits.open_files),
            (libc::RLIMIT_NPROC, processes),
        ] {
            if let Some(v) = value {
                limits.push((resource, lim(v, v)));
            }
        }
        Ok(SpawnPlan {
            program,
            _argv: argv,
            argv_ptrs,
            _env: env,
            env_ptrs,
            cwd: cstr(cwd)?,
            stdio,
            run_as,
            limits,
            oom_score_path: raise_oom_score
                .then(|| CString::new("/proc/self/oom_score_adj").expect("no NUL")),
            process_group: false,
            reset_signals: false,
            share_memory: true,
            parent_adopts: false,
            errno_fd: std::sync::atomic::AtomicI32::new(-1),
            errno: std::sync::atomic::AtomicI32::new(0),
            gate: -1,
            cpus: cpus_before_pin(),
        })
    }

    /// The child leads a new process group (killed as one).
    pub fn new_process_group(mut self) -> Self {
        self.process_group = true;
        self
    }

    /// The child starts with default dispositions for every signal: the
    /// parent has handlers (which a signal arriving between clone and exec
    /// would otherwise run in the child) and ignores SIGPIPE.
    pub fn reset_signals(mut self) -> Self {
        self.reset_signals = true;
        self
    }

    /// The child becomes a child of this process's parent (CLONE_PARENT),
    /// which waits for it, gets its rusage and must reap it. The child writes
    /// its pid (a native-endian i32) to `report`, before it execs, and then
    /// the errno (another) if the exec fails; `report` must be close-on-exec.
    /// So the parent learns of its new child even if this process dies
    /// right after the clone.
    pub fn child_of_parent(mut self, report: RawFd) -> Self {
        self.parent_adopts = true;
        self.errno_fd = std::sync::atomic::AtomicI32::new(report);
        self
    }

    /// The child, once ready in every other way, waits until a byte can be
    /// read from `gate` (a blocking pipe's read end) and execs only then; if
    /// the pipe is closed instead, it exits without exec'ing. So a run can be
    /// started ahead of its turn and released with one write. This process
    /// stays suspended (CLONE_VFORK) until then.
    pub fn wait_for_gate(mut self, gate: RawFd) -> Self {
        self.gate = gate;
        self
    }

    /// The child gets a copy of this process's memory instead of sharing it
    /// (page tables are copied: slower), so that its ru_maxrss is its own.
    pub fn copy_memory(mut self) -> Self {
        self.share_memory = false;
        self
    }
}

/// The child side of [`spawn`]: raw system calls only, then exec. On failure
/// it stores errno in the plan (shared memory) and exits.
extern "C" fn spawn_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `SpawnPlan` that `spawn` passed, alive and not
    // mutated while the parent is suspended (CLONE_VFORK).
    let plan = unsafe { &*(arg as *const SpawnPlan) };
    // SAFETY: raw system calls on prepared data; no allocation, no locks.
    unsafe {
        let errno_fd = plan.errno_fd.load(std::sync::atomic::Ordering::SeqCst);
        let fail = |plan: &SpawnPlan| -> libc::c_int {
            let errno = *libc::__errno_location();
            if errno_fd >= 0 {
                libc::write(
                    errno_fd,
                    &errno as *const libc::c_int as *const libc::c_void,
                    std::mem::size_of::<libc::c_int>(),
                );
            } else {
                plan.errno.store(errno, std::sync::atomic::Ordering::SeqCst);
            }
            libc::_exit(127)
        };
        if plan.parent_adopts {
            let pid = libc::getpid();
            libc::write(
                errno_fd,
                &pid as *const libc::pid_t as *const libc::c_void,
                std::mem::size_of::<libc::pid_t>(),
            );
        }
        if plan.reset_signals {
            // Handlers first, while every signal is still blocked (spawn
            // blocks them around the clone). The child has its own copy of
            // the dispositions (no CLONE_SIGHAND).
            default_signals();
        }
        if plan.process_group && libc::setpgid(0, 0) < 0 {
            return fail(plan);
        }
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::syscall(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK,
            &set as *const libc::sigset_t,
            std::ptr::null_mut::<libc::sigset_t>(),
            std::mem::size_of::<libc::c_ulong>(),
        );
        if let Some(path) = &plan.oom_score_path {
            let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
            if fd < 0 || libc::write(fd, b"1000".as_ptr() as *const libc::c_void, 4) != 4 {
                return fail(plan);
            }
            libc::close(fd);
        }
        for (i, &fd) in plan.stdio.iter().enumerate() {
            if libc::dup2(fd, i as libc::c_int) < 0 {
                return fail(plan);
            }
        }
        // Everything above 2 closes, but the exec-error pipe and the gate
        // (both close-on-exec).
        let mut keep = [errno_fd, plan.gate];
        keep.sort_unstable();
        let mut low: libc::c_int = 3;
        for fd in keep {
            if fd >= low {
                if fd > low {
                    libc::syscall(
                        libc::SYS_close_range,
                        low as libc::c_uint,
                        (fd - 1) as libc::c_uint,
                        0,
                    );
                }
                low = fd + 1;
            }
        }
        libc::syscall(
            libc::SYS_close_range,
            low as libc::c_uint,
            libc::c_uint::MAX,
            0,
        );
        if let Some((uid, gid)) = plan.run_as {
            // Raw calls: glibc's wrappers would try to synchronise the
            // threads of the process whose memory this child shares.
            if libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) < 0
                || libc::syscall(libc::SYS_setresgid, gid, gid, gid) < 0
                || libc::syscall(libc::SYS_setresuid, uid, uid, uid) < 0
            {
                return fail(plan);
            }
        }
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 {
            return fail(plan);
        }
        for (resource, limit) in &plan.limits {
            if libc::setrlimit(*resource, limit) < 0 {
                return fail(plan);
            }
        }
        if libc::chdir(plan.cwd.as_ptr()) < 0 {
            return fail(plan);
        }
        if let Some(cpus) = &plan.cpus {
            // Best effort: a child left on the pinned CPU still runs.
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &cpus.0);
        }
        if plan.gate >= 0 {
            let mut byte = 0u8;
            loop {
                match libc::read(plan.gate, &mut byte as *mut u8 as *mut libc::c_void, 1) {
                    1 => break,
                    n if n < 0 && *libc::__errno_location() == libc::EINTR => continue,
                    // The run was abandoned before its turn.
                    _ => libc::_exit(126),
                }
            }
        }
        libc::execve(
            plan.program.as_ptr(),
            plan.argv_ptrs.as_ptr(),
            plan.env_ptrs.as_ptr(),
        );
        fail(plan)
    }
}

/// Puts the calling process (single-threaded) and everything it starts from
/// now on under a seccomp filter that makes the kernel's keyrings, io_uring,
/// userfaultfd, perf events and bpf unavailable (ENOSYS), and every system
/// call of another ABI (32-bit, x32). The keyring of a uid outlives its
/// processes (a run could leave a key for the next one); the rest is kernel
/// attack surface no contest program needs. Filters are inherited by
/// children and kept across exec: a keeper's init installs it once (attaching
/// one costs about 100 us here, for the JIT), and every run starts under it.
pub fn restrict_syscalls() -> io::Result<()> {
    let filter = seccomp_filter();
    let program = libc::sock_fprog {
        len: filter.len() as libc::c_ushort,
        filter: filter.as_ptr() as *mut libc::sock_filter,
    };
    // Without SPEC_ALLOW the kernel may also force speculation mitigations
    // on the filtered processes (an IBPB at every switch to them), which
    // costs every run time and protects nothing they hold.
    const SECCOMP_FILTER_FLAG_SPEC_ALLOW: libc::c_ulong = 1 << 2;
    // SAFETY: a valid filter program that outlives the call (the kernel
    // copies it).
    let rc = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            SECCOMP_FILTER_FLAG_SPEC_ALLOW,
            &program as *const libc::sock_fprog,
        )
    };
    check(rc as libc::c_int).map(|_| ())
}

/// The seccomp filter of [`restrict_syscalls`], as classic BPF over `struct
/// seccomp_data` (nr at offset 0, arch at offset 4).
fn seccomp_filter() -> Vec<libc::sock_filter> {
    #[cfg(target_arch = "x86_64")]
    const ARCH: u32 = 0xc000_003e; // AUDIT_ARCH_X86_64
    #[cfg(target_arch = "aarch64")]
    const ARCH: u32 = 0xc000_00b7; // AUDIT_ARCH_AARCH64
    const X32_BIT: u32 = 0x4000_0000;
    let denied = [
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_keyctl,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_userfaultfd,
        libc::SYS_perf_event_open,
        libc::SYS_bpf,
    ];
    let op = |code: u32, jt: u8, jf: u8, k: u32| libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    let load = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let jge = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    let errno = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    // Every jump to "deny" skips to the last instruction.
    let n = denied.len() as u8;
    let mut filter = vec![
        op(load, 0, 0, 4),
        // Another ABI: deny (its numbers are not these).
        op(jeq, 0, n + 3, ARCH),
        op(load, 0, 0, 0),
        op(jge, n + 1, 0, X32_BIT),
    ];
    for (i, nr) in denied.iter().enumerate() {
        filter.push(op(jeq, n - i as u8, 0, *nr as u32));
    }
    filter.push(op(ret, 0, 0, libc::SECCOMP_RET_ALLOW));
    filter.push(op(ret, 0, 0, errno));
    filter
}

/// What a report pipe of [`SpawnPlan::child_of_parent`] said, read to its end.
#[derive(Debug)]
pub enum SpawnReport {
    /// Nothing: the spawner was gone before it could start anything.
    Nothing,
    /// The child exec'd.
    Started(u32),
    /// The child exists (must be reaped) but its exec failed.
    ExecFailed(u32, io::Error),
    /// No child: the spawner could not start one.
    NotStarted(io::Error),
}

impl SpawnReport {
    /// Decodes what was read from a report pipe.
    pub fn parse(bytes: &[u8]) -> SpawnReport {
        const N: usize = std::mem::size_of::<libc::pid_t>();
        let int = |b: &[u8]| libc::pid_t::from_ne_bytes(b.try_into().expect("N bytes"));
        match bytes.len() {
            0 => SpawnReport::Nothing,
            n if n >= 2 * N => {
                let error = io::Error::from_raw_os_error(int(&bytes[N..2 * N]));
                match int(&bytes[..N]) {
                    pid if pid > 0 => SpawnReport::ExecFailed(pid as u32, error),
                    _ => SpawnReport::NotStarted(error),
                }
            }
            n if n >= N && int(&bytes[..N]) > 0 => SpawnReport::Started(int(&bytes[..N]) as u32),
            _ => SpawnReport::NotStarted(io::Error::other("garbled spawn report")),
        }
    }
}

/// Writes to a report pipe that no child was started, and why.
pub fn report_not_started(report: RawFd, error: &io::Error) {
    let errno: libc::c_int = error.raw_os_error().unwrap_or(libc::EINVAL);
    let mut bytes = [0u8; 8];
    bytes[4..].copy_from_slice(&errno.to_ne_bytes());
    // SAFETY: writes a local buffer to a descriptor the caller owns.
    unsafe {
        libc::write(report, bytes.as_ptr() as *const libc::c_void, bytes.len());
    }
}

/// Starts `plan` as a child sharing this process's memory until it execs
/// (CLONE_VM | CLONE_VFORK, as posix_spawn does): no page tables are copied
/// and this returns only once the child has exec'd or failed. Returns the
/// child's pid, or the error that kept it from exec'ing (the child is then
/// already exiting and must still be reaped). A child for the parent
/// ([`SpawnPlan::child_of_parent`]) reports a failed exec to the parent
/// instead; here it is a success.
pub fn spawn(plan: &SpawnPlan, stack: &mut [u8]) -> io::Result<Result<i32, (i32, io::Error)>> {
    plan.errno.store(0, std::sync::atomic::Ordering::SeqCst);
    // The stack grows down: pass its (16-byte aligned) top.
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    // Every signal blocked in this thread around the clone: the child starts
    // with them blocked and unblocks them only once it is ready to exec.
    // SAFETY: sigset_t is plain data, filled by sigfillset.
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to sigset_t values on this stack.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
    }
    // SAFETY: `spawn_child` runs on the provided stack and only reads `plan`,
    // which outlives the call because CLONE_VFORK suspends us until exec/exit.
    // Without shared memory a failed exec is reported through a pipe that
    // exec closes.
    let errno_pipe = if plan.share_memory || plan.parent_adopts {
        None
    } else {
        Some(pipe()?)
    };
    if let Some((_, write)) = &errno_pipe {
        plan.errno_fd
            .store(write.as_raw_fd(), std::sync::atomic::Ordering::SeqCst);
    }
    let mut flags = libc::CLONE_VFORK | libc::SIGCHLD;
    if plan.share_memory {
        flags |= libc::CLONE_VM;
    }
    if plan.parent_adopts {
        flags |= libc::CLONE_PARENT;
    }
    let pid = unsafe {
        libc::clone(
            spawn_child,
            top as *mut libc::c_void,
            flags,
            plan as *const SpawnPlan as *mut libc::c_void,
        )
    };
    let clone_error = io::Error::last_os_error();
    // SAFETY: restores the mask saved above.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
    }
    if pid < 0 {
        return Err(clone_error);
    }
    let mut errno = plan.errno.load(std::sync::atomic::Ordering::SeqCst);
    if let Some((read, write)) = errno_pipe {
        drop(write);
        let mut buf = [0u8; std::mem::size_of::<libc::c_int>()];
        let mut file = std::fs::File::from(read);
        if std::io::Read::read_exact(&mut file, &mut buf).is_ok() {
            errno = libc::c_int::from_ne_bytes(buf);
        }
    }
    if errno != 0 {
        return Ok(Err((pid, io::Error::from_raw_os_error(errno))));
    }
    Ok(Ok(pid))
}

/// The kinds of System V IPC objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IpcKind {
    /// Shared memory segments.
    SharedMemory,
    /// Message queues.
    MessageQueue,
    /// Semaphore sets.
    Semaphores,
}

/// Removes the System V IPC object `id` of `kind` (IPC_RMID). A shared
/// memory segment that no process has attached is destroyed at once.
pub fn ipc_remove(kind: IpcKind, id: i32) -> io::Result<()> {
    // SAFETY: IPC_RMID takes no buffer (a null pointer is allowed).
    let rc = unsafe {
        match kind {
            IpcKind::SharedMemory => libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()),
            IpcKind::MessageQueue => libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut()),
            IpcKind::Semaphores => libc::semctl(id, 0, libc::IPC_RMID),
        }
    };
    check(rc).map(|_| ())
}

/// Whether the directory open at `dir` has no entry but `.` and `..`: one
/// getdents64 call from its start, on a descriptor kept open.
pub fn dir_is_empty(dir: &impl AsRawFd) -> io::Result<bool> {
    let fd = dir.as_raw_fd();
    // SAFETY: lseek on a descriptor the caller owns.
    if unsafe { libc::lseek(fd, 0, libc::SEEK_SET) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // Room for `.`, `..` and one more entry of any name.
    let mut buf = [0u64; 128];
    // SAFETY: the buffer is valid for writes of its size.
    let n = unsafe {
        libc::syscall(
            libc::SYS_getdents64,
            fd,
            buf.as_mut_ptr() as *mut libc::c_void,
            std::mem::size_of_val(&buf),
        )
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    let bytes = &bytemuck_bytes(&buf)[..n as usize];
    // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
    let mut at = 0;
    while at + 19 <= bytes.len() {
        let reclen = u16::from_ne_bytes([bytes[at + 16], bytes[at + 17]]) as usize;
        let name = &bytes[at + 19..(at + reclen).min(bytes.len())];
        let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
        if name != b"." && name != b".." {
            return Ok(false);
        }
        if reclen == 0 {
            break;
        }
        at += reclen;
    }
    Ok(true)
}

/// The bytes of a buffer of u64 (aligned for dirent records).
fn bytemuck_bytes(buf: &[u64]) -> &[u8] {
    // SAFETY: any initialised u64 slice is a valid byte slice of 8x its length.
    unsafe { std::slice::from_raw_parts(buf.as_ptr() as *const u8, std::mem::size_of_val(buf)) }
}
