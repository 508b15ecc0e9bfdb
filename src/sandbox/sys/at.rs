//! Files relative to an open directory: opened one name at a time (openat),
//! listed (getdents64), made and removed (mkdirat, unlinkat). What callers
//! build on these never follows a link nor blocks on a pipe. A keeper's
//! supervisor also makes, opens and removes a run's cgroup this way, relative
//! to its slot's parent directory, opened before it moved into the sandbox's
//! root (where /sys/fs/cgroup is not shown).

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use super::check;

/// What a directory entry is, as its listing says (without following it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Link,
    /// A pipe, a socket or a device.
    Other,
}

fn name_cstr(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a name with a NUL byte"))
}

/// `openat(dir, name, flags | O_CLOEXEC, mode)`; `dir` `None` is the
/// current directory (for absolute names).
pub(crate) fn open_at(
    dir: Option<RawFd>,
    name: &OsStr,
    flags: i32,
    mode: u32,
) -> io::Result<OwnedFd> {
    let name = name_cstr(name)?;
    let dir = dir.unwrap_or(libc::AT_FDCWD);
    // SAFETY: a valid C string; the descriptor, if any, is the caller's.
    let fd = check(unsafe {
        libc::openat(
            dir,
            name.as_ptr(),
            flags | libc::O_CLOEXEC,
            mode as libc::c_uint,
        )
    })?;
    // SAFETY: a fresh descriptor owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `mkdirat(dir, name, mode)`.
pub(crate) fn mkdir_at(dir: &impl AsRawFd, name: &OsStr, mode: u32) -> io::Result<()> {
    let name = name_cstr(name)?;
    // SAFETY: a valid C string and the caller's descriptor.
    check(unsafe { libc::mkdirat(dir.as_raw_fd(), name.as_ptr(), mode as libc::mode_t) })
        .map(|_| ())
}

/// `unlinkat(dir, name)`, of a directory (empty) with `is_dir`.
pub(crate) fn unlink_at(dir: &impl AsRawFd, name: &OsStr, is_dir: bool) -> io::Result<()> {
    let name = name_cstr(name)?;
    let flags = if is_dir { libc::AT_REMOVEDIR } else { 0 };
    // SAFETY: a valid C string and the caller's descriptor.
    check(unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), flags) }).map(|_| ())
}

/// `linkat(from, name, to, name)`: a hard link of `name` in `from` made as
/// `name` in `to`, not following a link.
pub(crate) fn link_at(from: &impl AsRawFd, to: &impl AsRawFd, name: &OsStr) -> io::Result<()> {
    let name = name_cstr(name)?;
    // SAFETY: valid C strings and the caller's descriptors.
    check(unsafe {
        libc::linkat(
            from.as_raw_fd(),
            name.as_ptr(),
            to.as_raw_fd(),
            name.as_ptr(),
            0,
        )
    })
    .map(|_| ())
}

/// openat(2) of `path` (relative) in `dir`: for reading, and writing with
/// `write`, or a directory with `directory`; close-on-exec, no links.
pub(crate) fn open_in(dir: &File, path: &str, write: bool, directory: bool) -> io::Result<File> {
    let flags = libc::O_NOFOLLOW
        | match (write, directory) {
            (_, true) => libc::O_RDONLY | libc::O_DIRECTORY,
            (true, false) => libc::O_RDWR,
            (false, false) => libc::O_RDONLY,
        };
    open_at(Some(dir.as_raw_fd()), OsStr::new(path), flags, 0).map(File::from)
}

/// mkdirat(2): directory `entry` in `dir`, mode 0755.
pub(crate) fn mkdir_in(dir: &File, entry: &str) -> io::Result<()> {
    mkdir_at(dir, OsStr::new(entry), 0o755)
}

/// unlinkat(2) with AT_REMOVEDIR: removes the empty directory `entry` in `dir`.
pub(crate) fn rmdir_in(dir: &File, entry: &str) -> io::Result<()> {
    unlink_at(dir, OsStr::new(entry), true)
}

/// `fchmod(fd, mode)`.
pub(crate) fn fchmod(fd: &impl AsRawFd, mode: u32) -> io::Result<()> {
    // SAFETY: fchmod on the caller's descriptor.
    check(unsafe { libc::fchmod(fd.as_raw_fd(), mode as libc::mode_t) }).map(|_| ())
}

/// The kind of `name` in `dir`, not following it (fstatat with
/// AT_SYMLINK_NOFOLLOW), for a listing that does not say.
pub(crate) fn kind_at(dir: RawFd, name: &OsStr) -> io::Result<EntryKind> {
    let cname = name_cstr(name)?;
    // SAFETY: zeroed is a valid `stat`; fstatat fills it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid C string, a valid out-pointer, the caller's descriptor.
    check(unsafe { libc::fstatat(dir, cname.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) })?;
    Ok(match st.st_mode & libc::S_IFMT {
        libc::S_IFREG => EntryKind::File,
        libc::S_IFDIR => EntryKind::Dir,
        libc::S_IFLNK => EntryKind::Link,
        _ => EntryKind::Other,
    })
}

/// The entries of the directory open at `dir` (from its start; without
/// `.` and `..`), at most `max` of them: more is an error.
pub(crate) fn list(dir: &impl AsRawFd, max: usize) -> io::Result<Vec<(OsString, EntryKind)>> {
    let fd = dir.as_raw_fd();
    // SAFETY: lseek on the caller's descriptor.
    if unsafe { libc::lseek(fd, 0, libc::SEEK_SET) } < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut out = Vec::new();
    let mut buf = vec![0u64; 4096];
    loop {
        // SAFETY: the buffer is valid for writes of its size.
        let n = unsafe {
            libc::syscall(
                libc::SYS_getdents64,
                fd,
                buf.as_mut_ptr() as *mut libc::c_void,
                buf.len() * 8,
            )
        };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            return Ok(out);
        }
        // SAFETY: any initialised u64 slice is a valid byte slice of 8x its length.
        let bytes = unsafe { std::slice::from_raw_parts(buf.as_ptr() as *const u8, buf.len() * 8) };
        let bytes = &bytes[..n as usize];
        // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
        let mut at = 0;
        while at + 19 <= bytes.len() {
            let reclen = u16::from_ne_bytes([bytes[at + 16], bytes[at + 17]]) as usize;
            if reclen == 0 {
                break;
            }
            let kind = bytes[at + 18];
            let name = &bytes[at + 19..(at + reclen).min(bytes.len())];
            let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
            at += reclen;
            if name == b"." || name == b".." {
                continue;
            }
            let name = OsString::from_vec(name.to_vec());
            let kind = match kind {
                libc::DT_REG => EntryKind::File,
                libc::DT_DIR => EntryKind::Dir,
                libc::DT_LNK => EntryKind::Link,
                libc::DT_UNKNOWN => kind_at(fd, &name)?,
                _ => EntryKind::Other,
            };
            if out.len() == max {
                return Err(io::Error::other(format!("more than {max} entries")));
            }
            out.push((name, kind));
        }
    }
}
