//! The raw system calls of the sandbox, each behind a safe function: every
//! `unsafe` block of the judge is in this module.
//!
//! [`process`]: rlimits, waiting, signals; [`mod@mount`]: namespaces and mounts;
//! [`fdpass`]: pipes, sockets, passing descriptors; [`cpu`]: affinity;
//! [`mod@spawn`]: starting a program; [`seccomp`]: the runs' filter; [`ipc`]:
//! what a run may leave behind; [`at`]: files relative to an open directory;
//! [`own_exe`]: the judge's own executable, kept open to start helpers;
//! [`watchdog`]: ending the process when an interrupt is not heeded;
//! [`ffi`]: the C boundary's conversions.

mod at;
mod cpu;
mod fdpass;
mod ffi;
mod ipc;
mod mount;
mod own_exe;
mod process;
mod seccomp;
mod spawn;
mod watchdog;

pub(crate) use at::EntryKind;
pub(super) use at::*;
pub(super) use cpu::*;
pub(super) use fdpass::*;
use ffi::{check, cstr};
pub(super) use ipc::*;
pub(super) use mount::*;
pub(crate) use own_exe::*;
pub(crate) use process::*;
pub(super) use seccomp::*;
pub(super) use spawn::*;
pub(crate) use watchdog::arm as arm_interrupt_watchdog;
