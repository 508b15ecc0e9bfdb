//! The judge's own executable, kept open from the start: helpers (the
//! keepers) are started from it, never from its path, so a binary renamed
//! over the judge's while it runs (an upgrade) is never started by it.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::OnceLock;

use super::check;

/// The running executable: a descriptor of it (`None` without /proc) and
/// the path it had when the judge started.
struct OwnExecutable {
    fd: Option<OwnedFd>,
    path: io::Result<PathBuf>,
}

static OWN: OnceLock<OwnExecutable> = OnceLock::new();

/// The lowest number the kept descriptor may have: above those passed to
/// children (`pass_fd`'s targets).
const HIGH_FD: libc::c_int = 100;

fn own() -> &'static OwnExecutable {
    OWN.get_or_init(|| {
        // O_PATH: no read permission needed, and the descriptor can only be
        // executed or stat'ed. /proc/self/exe names the inode this process
        // runs, even once its path names another file.
        // SAFETY: a NUL-terminated literal path.
        let fd = unsafe { libc::open(c"/proc/self/exe".as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
        // Moved above the low numbers a child's descriptors are passed to
        // (which would replace it in the child before its exec).
        let high = check(fd).and_then(|fd| {
            // SAFETY: a descriptor just opened, duplicated, then closed once.
            check(unsafe {
                let high = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, HIGH_FD);
                libc::close(fd);
                high
            })
        });
        OwnExecutable {
            // SAFETY: a descriptor just made, owned by nobody else.
            fd: high.ok().map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
            path: std::env::current_exe(),
        }
    })
}

/// Opens the running executable now, at the judge's start, before anything
/// can replace it.
pub(crate) fn keep_own_executable() {
    own();
}

/// The path the judge's executable had when it started.
pub(crate) fn own_executable_path() -> io::Result<PathBuf> {
    match &own().path {
        Ok(path) => Ok(path.clone()),
        Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
    }
}

/// The metadata of the running executable (not of whatever its path names
/// now).
pub(crate) fn own_executable_metadata() -> io::Result<std::fs::Metadata> {
    std::fs::metadata("/proc/self/exe").or_else(|_| std::fs::metadata(own_executable_path()?))
}

/// A command that runs the judge's own executable with `args` and only the
/// variables then set on it (it clears its environment): exec'd through the
/// kept descriptor (`execveat(fd, "", AT_EMPTY_PATH)`) by the last of its
/// pre-exec steps, so other steps must be added before this is called.
/// Without the descriptor, by the path the judge started from.
pub(crate) fn own_executable_command(
    args: &[&OsStr],
    set: impl FnOnce(&mut std::process::Command),
) -> io::Result<std::process::Command> {
    use std::os::unix::process::CommandExt;
    let path = own_executable_path()?;
    let mut command = std::process::Command::new(&path);
    command.args(args).env_clear();
    set(&mut command);
    let Some(fd) = own().fd.as_ref().map(|fd| fd.as_raw_fd()) else {
        return Ok(command);
    };
    let c = |s: &OsStr| {
        CString::new(s.as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "argument has a NUL byte"))
    };
    let argv = std::iter::once(path.as_os_str())
        .chain(args.iter().copied())
        .map(c)
        .collect::<io::Result<Vec<_>>>()?;
    let envp = command
        .get_envs()
        .filter_map(|(k, v)| {
            let mut entry = k.as_bytes().to_vec();
            entry.push(b'=');
            entry.extend_from_slice(v?.as_bytes());
            Some(c(OsStr::from_bytes(&entry)))
        })
        .collect::<io::Result<Vec<_>>>()?;
    let mut argv_ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    argv_ptrs.push(std::ptr::null());
    let mut envp_ptrs: Vec<*const libc::c_char> = envp.iter().map(|a| a.as_ptr()).collect();
    envp_ptrs.push(std::ptr::null());
    let pointers = ExecPointers {
        _argv: argv,
        _envp: envp,
        argv: argv_ptrs,
        envp: envp_ptrs,
    };
    // SAFETY: the closure runs between fork and exec and makes one system
    // call on memory it owns (prepared before the fork); on success it does
    // not return, on failure std reports the error as the spawn's.
    unsafe {
        command.pre_exec(move || pointers.exec(fd));
    }
    Ok(command)
}

/// The C strings of an exec and the arrays pointing into them.
struct ExecPointers {
    _argv: Vec<CString>,
    _envp: Vec<CString>,
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
}

impl ExecPointers {
    /// Executes the file open at `fd` with these arguments and environment.
    fn exec(&self, fd: libc::c_int) -> io::Result<()> {
        // SAFETY: NUL-terminated arrays of pointers into live C strings, and
        // an empty path.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_execveat,
                fd,
                c"".as_ptr(),
                self.argv.as_ptr(),
                self.envp.as_ptr(),
                libc::AT_EMPTY_PATH,
            )
        };
        check(rc as libc::c_int).map(|_| ())
    }
}

// SAFETY: the pointers point into the CStrings owned beside them, which are
// never changed; the closure holding them may move to another thread.
unsafe impl Send for ExecPointers {}
unsafe impl Sync for ExecPointers {}

/// Names the calling process `name` (its `comm`, cut to 15 bytes): exec
/// through a descriptor names it after the descriptor's number.
pub(crate) fn set_own_name(name: &str) {
    let mut bytes: Vec<u8> = name.bytes().filter(|&b| b != 0).take(15).collect();
    bytes.push(0);
    // SAFETY: a NUL-terminated buffer of at most 16 bytes.
    unsafe {
        libc::prctl(libc::PR_SET_NAME, bytes.as_ptr() as libc::c_ulong, 0, 0, 0);
    }
}
