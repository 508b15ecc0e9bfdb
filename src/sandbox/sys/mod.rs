//! The raw system calls of the sandbox, each behind a safe function: every
//! `unsafe` block of the judge is in this module.
//!
//! [`process`]: rlimits, waiting, signals; [`mount`]: namespaces and mounts;
//! [`fdpass`]: pipes, sockets, passing descriptors; [`cpu`]: affinity;
//! [`spawn`]: starting a program; [`seccomp`]: the runs' filter; [`ipc`]:
//! what a run may leave behind.

mod cpu;
mod fdpass;
mod ipc;
mod mount;
mod process;
mod seccomp;
mod spawn;

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

pub(super) use cpu::*;
pub(super) use fdpass::*;
pub(super) use ipc::*;
pub(super) use mount::*;
pub(crate) use process::*;
pub(super) use seccomp::*;
pub(super) use spawn::*;

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
