//! What a run may leave behind: System V IPC objects, entries in a
//! directory.

use std::io;
use std::os::fd::AsRawFd;

use super::check;

/// The kinds of System V IPC objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IpcKind {
    /// Shared memory segments.
    SharedMemory,
    /// Message queues.
    MessageQueue,
    /// Semaphore sets.
    Semaphores,
}

/// Removes the System V IPC object `id` of `kind` (IPC_RMID). A shared
/// memory segment that no process has attached is destroyed at once.
pub(crate) fn ipc_remove(kind: IpcKind, id: i32) -> io::Result<()> {
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
pub(crate) fn dir_is_empty(dir: &impl AsRawFd) -> io::Result<bool> {
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
