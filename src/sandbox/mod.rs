//! Running processes under limits and measuring them. The interface is
//! narrow on purpose: a [`RunRequest`] (argv, working directory, stdin file,
//! limits) goes in, a [`RunOutcome`] (how it ended, which limit stopped it,
//! CPU time, wall time, peak memory, captured output, isolation level) comes
//! out. Nothing else in the judge spawns processes, and every `unsafe` block
//! and raw system call of the judge is in this module ([`sys`]).
//!
//! - [`types`]: the data of a run;
//! - [`plain`]: the plain runner ([`run`]), for trusted programs and the
//!   `rlimit-only` level;
//! - [`pool`]: the [`Sandbox`] and a run through it; [`shared`]: its keepers
//!   (or spawners) idle between runs; [`keepers`]: starting a keeper and a
//!   run through one;
//! - [`keeper`]: the keeper process (namespaces, view, cleanup) and
//!   [`isolated`]: the judge's side of it; [`cgroup`]: slots and counters;
//! - [`drain`]: reading a run's output; [`cpu`]: one job, one CPU;
//!   [`error`]: why the sandbox could not be set up;
//!   [`program`]: finding programs, the runs' environment; [`files`]:
//!   emptying directories; [`named_files`]: the files a run reads and
//!   writes by name (file input and output); [`untrusted`]: reading what
//!   others control; [`userns`]: why user namespaces are denied.
//!
//! The security model and measurement method are in docs/sandbox.md.

pub(crate) mod cgroup;
mod cpu;
mod drain;
mod error;
mod files;
mod isolated;
pub(crate) mod keeper;
mod keepers;
mod named_files;
mod plain;
mod pool;
mod program;
mod shared;
#[expect(
    unsafe_code,
    reason = "the raw system calls of the judge, each behind a safe function"
)]
mod sys;
#[cfg(test)]
mod testing;
mod types;
pub(crate) mod untrusted;
mod userns;
mod wire;

pub(crate) use cpu::{cpus_to_leave_pin, leave_pin, CpuChoice};
pub(crate) use error::{CgroupError, SetupError, StartError, Unavailable};
pub(crate) use files::{empty_dir, remove_leftovers_of_dead_judges};
pub use isolated::KEEPER_COMMAND;
pub(crate) use keeper::cannot_hide;
pub use keeper::keeper_main;
pub(crate) use named_files::{check_name as check_file_name, OutputFile, RunFiles};
pub(crate) use plain::{run, Turn};
pub(crate) use pool::Sandbox;
pub(crate) use program::{find_in_user_path, is_executable_file, resolve_program, SYSTEM_PATH};
pub(crate) use sys::{
    arm_interrupt_watchdog, keep_own_executable, own_executable_metadata, raise_open_files_limit,
    signal_name, thread_cpu_time, STARVED_BOUND,
};

/// The longest a run with this wall limit can go: the limit, and the time
/// it waited for a CPU (`starved_grace`), at most nine more limits.
pub(crate) fn longest_wall(wall_limit: std::time::Duration) -> std::time::Duration {
    wall_limit + sys::starved_grace(wall_limit, std::time::Duration::MAX)
}

/// Takes an exclusive `flock` on `file` if it is free (not waiting).
pub(crate) fn try_lock_exclusive(file: &std::fs::File) -> bool {
    sys::try_lock_exclusive(file)
}

/// Takes a shared `flock` on `file` if no one holds it exclusively.
pub(crate) fn try_lock_shared(file: &std::fs::File) -> bool {
    sys::try_lock_shared(file)
}
pub use types::Captured;
pub(crate) use types::{
    address_space_backstop, Environment, Exchange, Exit, Isolation, IsolationMode, Keep, LimitHit,
    Limits, MemoryEvidence, PackageRun, PackageView, Profile, RunError, RunOutcome, RunRequest,
    SandboxPaths, Stdin, KEPT_DIR_FILES, RUN_PROCESSES,
};
pub(crate) use wire::{relay, wire, Handoff, Relay, Relayed, Side};
