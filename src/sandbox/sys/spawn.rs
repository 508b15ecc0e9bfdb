//! Starting a program: [`SpawnPlan`], prepared before the clone so that the
//! child (which shares the parent's memory until it execs) only makes raw
//! system calls.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;

use super::{cpus_before_pin, cstr, default_signals, pipe, CpuSet, Rlimits};

/// Everything a run's child needs, prepared before it is cloned, so the child
/// performs only raw system calls (it shares the keeper's memory).
pub(crate) struct SpawnPlan {
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
    /// `cgroup.procs` of the cgroup the child moves itself into before
    /// anything else (-1: it stays in this process's); see [`SpawnPlan::join`].
    join_cgroup: RawFd,
    /// The CPUs the child may use, when not this thread's: a thread pinned
    /// to one CPU ([`pin_this_thread`](super::pin_this_thread)) starts its children with the CPUs it
    /// had before.
    cpus: Option<CpuSet>,
    /// The niceness the child sets itself before it drops privileges
    /// (best effort); see [`SpawnPlan::raise_priority`].
    nice: Option<libc::c_int>,
}

/// The niceness of a run timed for a verdict, where the judge may raise it.
pub(crate) const RUN_NICENESS: libc::c_int = -10;

impl SpawnPlan {
    /// A plan to exec `argv` (its first element the program) with `env`, in
    /// `cwd`, with `stdio` as descriptors 0, 1 and 2.
    #[expect(
        clippy::too_many_arguments,
        reason = "the whole setup of an exec, prepared before the fork"
    )]
    pub(crate) fn new(
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
            join_cgroup: -1,
            cpus: cpus_before_pin(),
            nice: None,
        })
    }

    /// The child runs at [`RUN_NICENESS`], unless this process runs niced
    /// (whoever started the judge asked it to yield) or higher already: a
    /// timed program that the machine's other processes preempt less has
    /// its CPU time inflated less (a memory-bound one beside two busy
    /// loops: 250 ms at niceness 0, 185 ms at -10, 230 ms alone). Only a
    /// process that may raise priorities (root) can; for others nothing
    /// changes.
    pub(crate) fn raise_priority(mut self) -> Self {
        // SAFETY: reads this process's niceness; errno is cleared first, as
        // -1 is also a niceness.
        let now = unsafe {
            *libc::__errno_location() = 0;
            let n = libc::getpriority(libc::PRIO_PROCESS, 0);
            (*libc::__errno_location() == 0).then_some(n)
        };
        if now.is_some_and(|n| n <= 0 && n > RUN_NICENESS) {
            self.nice = Some(RUN_NICENESS);
        }
        self
    }

    /// The child leads a new process group (killed as one).
    pub(crate) fn new_process_group(mut self) -> Self {
        self.process_group = true;
        self
    }

    /// The child starts with default dispositions for every signal: the
    /// parent has handlers (which a signal arriving between clone and exec
    /// would otherwise run in the child) and ignores SIGPIPE.
    pub(crate) fn reset_signals(mut self) -> Self {
        self.reset_signals = true;
        self
    }

    /// The child becomes a child of this process's parent (CLONE_PARENT),
    /// which waits for it, gets its rusage and must reap it. The child writes
    /// its pid (a native-endian i32) to `report`, before it execs, and then
    /// the errno (another) if the exec fails; `report` must be close-on-exec.
    /// So the parent learns of its new child even if this process dies
    /// right after the clone.
    pub(crate) fn child_of_parent(mut self, report: RawFd) -> Self {
        self.parent_adopts = true;
        self.errno_fd = std::sync::atomic::AtomicI32::new(report);
        self
    }

    /// The child, once ready in every other way, waits until a byte can be
    /// read from `gate` (a blocking pipe's read end) and execs only then; if
    /// the pipe is closed instead, it exits without exec'ing. So a run can be
    /// started ahead of its turn and released with one write. This process
    /// stays suspended (CLONE_VFORK) until then.
    pub(crate) fn wait_for_gate(mut self, gate: RawFd) -> Self {
        self.gate = gate;
        self
    }

    /// The child first moves itself into the cgroup whose `cgroup.procs` is
    /// open at `procs` (cgroup v2 before Linux 6.12: a fresh cgroup per run,
    /// as its peak memory cannot be reset); everything it starts is born
    /// there. It writes before it gives up its privileges.
    pub(crate) fn join(mut self, procs: RawFd) -> Self {
        self.join_cgroup = procs;
        self
    }

    /// The child gets a copy of this process's memory instead of sharing it
    /// (page tables are copied: slower), so that its ru_maxrss is its own.
    pub(crate) fn copy_memory(mut self) -> Self {
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
        if plan.join_cgroup >= 0
            && libc::write(plan.join_cgroup, b"0".as_ptr() as *const libc::c_void, 1) != 1
        {
            return fail(plan);
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
        if let Some(nice) = plan.nice {
            // Best effort, while the child may still raise its priority: a
            // run without the right runs at the judge's.
            libc::syscall(libc::SYS_setpriority, libc::PRIO_PROCESS, 0, nice);
        }
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

/// What a report pipe of [`SpawnPlan::child_of_parent`] said, read to its end.
#[derive(Debug)]
pub(crate) enum SpawnReport {
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
    pub(crate) fn parse(bytes: &[u8]) -> SpawnReport {
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
pub(crate) fn report_not_started(report: RawFd, error: &io::Error) {
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
pub(crate) fn spawn(
    plan: &SpawnPlan,
    stack: &mut [u8],
) -> io::Result<Result<i32, (i32, io::Error)>> {
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
