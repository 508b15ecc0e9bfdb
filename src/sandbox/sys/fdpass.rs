//! Descriptors: pipes, socket pairs, passing descriptors (SCM_RIGHTS),
//! reading a kernel file at an offset.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use super::check;

/// Makes `fd` the descriptor number `target` (clearing close-on-exec).
pub(crate) fn dup_to(fd: RawFd, target: RawFd) -> io::Result<()> {
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

/// A pipe whose ends are closed on exec: (read, write).
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds is a two-element array.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: both are fresh descriptors we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A pipe for a child's output: (read end, non-blocking; write end), both
/// close-on-exec. One fcntl: a fresh pipe has no other status flags.
pub(crate) fn output_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = pipe()?;
    // SAFETY: fcntl on a descriptor just created and owned here.
    check(unsafe { libc::fcntl(read.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) })?;
    Ok((read, write))
}

/// A connected pair of SOCK_SEQPACKET sockets (message boundaries kept), close-on-exec.
pub(crate) fn seqpacket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
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
pub(crate) fn set_nonblocking(fd: RawFd, on: bool) -> io::Result<()> {
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
pub(crate) fn send_with_fds(socket: RawFd, data: &[u8], fds: &[RawFd]) -> io::Result<()> {
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
pub(crate) fn recv_with_fds(
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
pub(crate) fn pread_at(fd: &impl AsRawFd, buf: &mut [u8], offset: u64) -> io::Result<usize> {
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
pub(crate) fn pass_fd(command: &mut std::process::Command, fd: RawFd, target: RawFd) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec and only calls dup2/fcntl,
    // which are async-signal-safe.
    unsafe {
        command.pre_exec(move || dup_to(fd, target));
    }
}

/// Registers a descriptor this process owns alone with the current tokio
/// runtime (which must be running), for waiting on it.
pub(crate) fn async_fd(fd: OwnedFd) -> io::Result<tokio::io::unix::AsyncFd<OwnedFd>> {
    // SAFETY: `fd` is owned (so open, and owned by nobody else); the AsyncFd
    // takes it over and closes it when dropped.
    unsafe { tokio::io::unix::AsyncFd::register(fd) }.map_err(io::Error::from)
}
