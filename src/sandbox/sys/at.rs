//! Directories by descriptor: a keeper's supervisor makes, opens and removes
//! a run's cgroup relative to its slot's parent directory, opened before it
//! moved into the sandbox's root (where /sys/fs/cgroup is not shown).

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd};

use super::check;

fn name(name: &str) -> io::Result<CString> {
    CString::new(name).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "NUL in a name"))
}

/// mkdirat(2): directory `name` in `dir`.
pub(crate) fn mkdir_at(dir: &File, entry: &str) -> io::Result<()> {
    let entry = name(entry)?;
    // SAFETY: a valid descriptor and a NUL-terminated name.
    check(unsafe { libc::mkdirat(dir.as_raw_fd(), entry.as_ptr(), 0o755) }).map(|_| ())
}

/// unlinkat(2) with AT_REMOVEDIR: removes the empty directory `name` in `dir`.
pub(crate) fn rmdir_at(dir: &File, entry: &str) -> io::Result<()> {
    let entry = name(entry)?;
    // SAFETY: as above.
    check(unsafe { libc::unlinkat(dir.as_raw_fd(), entry.as_ptr(), libc::AT_REMOVEDIR) })
        .map(|_| ())
}

/// openat(2) of `path` (relative) in `dir`: for reading, and writing with
/// `write`, or a directory with `directory`; close-on-exec, no links.
pub(crate) fn open_at(dir: &File, path: &str, write: bool, directory: bool) -> io::Result<File> {
    let path = name(path)?;
    let mut flags = libc::O_CLOEXEC | libc::O_NOFOLLOW;
    flags |= match (write, directory) {
        (_, true) => libc::O_RDONLY | libc::O_DIRECTORY,
        (true, false) => libc::O_RDWR,
        (false, false) => libc::O_RDONLY,
    };
    // SAFETY: as above; the new descriptor is owned by the File.
    let fd = check(unsafe { libc::openat(dir.as_raw_fd(), path.as_ptr(), flags) })?;
    // SAFETY: `fd` is a fresh descriptor nothing else owns.
    Ok(unsafe { File::from_raw_fd(fd) })
}
