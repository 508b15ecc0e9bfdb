//! CPU affinity: sets of CPUs, pinning a thread, and file locks that claim a
//! CPU.

use std::io;
use std::os::fd::AsRawFd;

use super::check;

/// Has `command`'s child start on `cpus` instead of this thread's CPUs.
pub(crate) fn use_cpus_on_exec(command: &mut std::process::Command, cpus: CpuSet) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec and only makes one
    // system call on a mask captured by value.
    unsafe {
        command.pre_exec(move || set_thread_cpus(&cpus));
    }
}

/// A set of CPUs, as `sched_setaffinity(2)` takes it.
#[derive(Clone, Copy)]
pub(crate) struct CpuSet(pub(super) libc::cpu_set_t);

impl CpuSet {
    /// The CPUs this thread may run on.
    pub(crate) fn of_this_thread() -> io::Result<CpuSet> {
        // SAFETY: cpu_set_t is plain data; the kernel fills it.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a mask of the size passed.
        check(unsafe {
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set)
        })?;
        Ok(CpuSet(set))
    }

    /// The set of `cpu` alone.
    pub(crate) fn only(cpu: usize) -> CpuSet {
        // SAFETY: as above.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if cpu < libc::CPU_SETSIZE as usize {
            // SAFETY: `cpu` is within the mask (checked).
            unsafe { libc::CPU_SET(cpu, &mut set) };
        }
        CpuSet(set)
    }

    /// The CPUs in the set, lowest first.
    pub(crate) fn cpus(&self) -> Vec<usize> {
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
pub(crate) fn cpus_before_pin() -> Option<CpuSet> {
    BEFORE_PIN.get()
}

/// Keeps the calling thread on `cpu` alone until the guard is dropped (on
/// the same thread). Processes and threads it starts meanwhile inherit the
/// pin, except children started by [`SpawnPlan`](super::SpawnPlan), which get the CPUs it had
/// before.
pub(crate) fn pin_this_thread(cpu: usize) -> io::Result<ThreadPin> {
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
pub(crate) struct ThreadPin {
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
pub(crate) fn use_cpus(cpus: CpuSet) {
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
pub(crate) fn try_lock_exclusive(file: &std::fs::File) -> bool {
    // SAFETY: flock on a descriptor the caller owns.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Takes `flock(LOCK_SH | LOCK_NB)` on `file`: whether no one held it
/// exclusively. As [`try_lock_exclusive`], it lasts as long as the open file.
pub(crate) fn try_lock_shared(file: &std::fs::File) -> bool {
    // SAFETY: flock on a descriptor the caller owns.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) == 0 }
}
