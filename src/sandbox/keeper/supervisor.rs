//! The keeper's supervisor: the process the judge started. It creates the
//! namespaces, starts init (pid 1 of the new pid namespace) and, for each
//! job from the judge: sets the slot's limits and resets its counters,
//! hands the job to init, enforces the CPU and wall limits, reads what the
//! run used, and leaves the slot as it found it: no System V IPC object, no
//! POSIX message queue, an empty /tmp and /dev/shm (mounted afresh when a run
//! left anything there). It is in neither the slot's cgroup nor its pid
//! namespace: none of this is charged to a run, and no run can signal it.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::time::{Duration, Instant};

use super::init::{Ended, Report};
use super::{
    cgroup, fail, init, next_message, receive, send, sys, Job, JobResult, KeeperConfig, Ready,
    Stopped, KILL, MAX_MESSAGE, RUN_ID, TMP_INODES,
};
use crate::sandbox::named_files;

/// Runs a keeper until the judge goes away; the exit code.
pub(super) fn main(judge: OwnedFd, config: KeeperConfig) -> i32 {
    if let Err(e) = enter_namespaces(&config) {
        return fail(&judge, format!("cannot create namespaces: {e}"));
    }
    let mut counters = match &config.cgroup {
        Some((version, dirs)) => match cgroup::Counters::open(*version, dirs) {
            Ok(c) => Some(c),
            Err(e) => return fail(&judge, format!("cannot open the slot's cgroup: {e}")),
        },
        None => None,
    };
    let (to_init, init_end) = match sys::seqpacket_pair() {
        Ok(pair) => pair,
        Err(e) => return fail(&judge, format!("socketpair: {e}")),
    };
    // The child is pid 1 of the new pid namespace.
    let init_pid = match sys::fork() {
        Err(e) => return fail(&judge, format!("cannot fork the namespace init: {e}")),
        Ok(sys::Forked::Child) => {
            drop((judge, to_init));
            let _ = sys::die_with_parent();
            // Runs see init as pid 1; in a user namespace they share its uid.
            let _ = sys::not_dumpable();
            std::process::exit(init::main(&init_end, &config));
        }
        Ok(sys::Forked::Parent(pid)) => {
            drop(init_end);
            pid
        }
    };
    let mut buf = vec![0u8; MAX_MESSAGE];
    let ready = match receive::<Ready>(&to_init, &mut buf) {
        Ok(Some(ready)) => ready,
        _ => Ready {
            error: Some("the sandbox's init did not start".into()),
        },
    };
    if let Some(error) = ready.error {
        drop(to_init);
        while sys::reap_any().is_some() {}
        return fail(&judge, error);
    }
    // With a view, init moved this process into the new root too (it was at
    // the old one).
    let cleaner = match &config.view {
        Some(_) => std::env::set_current_dir("/").and_then(|()| Cleaner::open(&config)),
        None => Cleaner::open(&config),
    };
    let mut cleaner = match cleaner {
        Ok(c) => c,
        Err(e) => return fail(&judge, format!("cannot prepare the sandbox's cleanup: {e}")),
    };
    // Without a view, /proc is the host's: a run is found by its pid there.
    let pids = match config.view {
        Some(_) => Pids::Namespace,
        None => Pids::ChildrenOf(init_pid),
    };
    if let Some(counters) = counters.as_mut() {
        if let Err(e) = counters.reset() {
            return fail(&judge, format!("cannot reset the slot's counters: {e}"));
        }
    }
    if send(&judge, &Ready { error: None }).is_ok() {
        serve(
            &judge,
            &to_init,
            &config,
            counters.as_mut(),
            &mut cleaner,
            pids,
        );
    }
    // Init kills everything and exits when its socket closes.
    drop(to_init);
    while sys::reap_any().is_some() {}
    0
}

fn enter_namespaces(config: &KeeperConfig) -> io::Result<()> {
    if config.user_namespace {
        sys::unshare(sys::ns::USER)?;
        let (uid, gid) = config.outer_ids;
        // Sandboxes run as nobody; package programs as the judge's user.
        let (inner_uid, inner_gid) = match config.view {
            Some(_) => (RUN_ID, RUN_ID),
            None => (uid, gid),
        };
        std::fs::write("/proc/self/setgroups", "deny")?;
        std::fs::write("/proc/self/uid_map", format!("{inner_uid} {uid} 1"))?;
        std::fs::write("/proc/self/gid_map", format!("{inner_gid} {gid} 1"))?;
    }
    match config.view {
        Some(_) => {
            sys::unshare(sys::ns::MOUNT | sys::ns::PID | sys::ns::NET | sys::ns::IPC | sys::ns::UTS)
        }
        None => sys::unshare(sys::ns::PID | sys::ns::IPC),
    }
}

/// How the supervisor finds a run's process in its /proc (to read its CPU
/// time when there is no cgroup).
#[derive(Debug, Clone, Copy)]
enum Pids {
    /// /proc is the namespace's: the pid init reports.
    Namespace,
    /// /proc is the host's: the run is the child of init (this host pid).
    ChildrenOf(i32),
}

impl Pids {
    /// The run's CPU time so far, from /proc (with the pid init reported,
    /// when it does).
    fn cpu_time(self, reported: Option<i32>) -> Duration {
        self.pid(reported)
            .and_then(|pid| sys::cpu_time_so_far(pid as u32))
            .unwrap_or_default()
    }

    /// How long the run has been runnable but waiting for a CPU so far.
    fn run_queue_wait(self, reported: Option<i32>) -> Duration {
        self.pid(reported)
            .and_then(|pid| sys::run_queue_wait(pid as u32))
            .unwrap_or_default()
    }

    /// Whether the run is its leader alone (no other process of it is
    /// alive), so that the leader's wait for a CPU is the machine's doing,
    /// not the run's own other processes'.
    fn alone(self, reported: Option<i32>) -> bool {
        match self {
            // The namespace's /proc: init and the run's processes only.
            Pids::Namespace => std::fs::read_dir("/proc").is_ok_and(|entries| {
                let processes = entries
                    .flatten()
                    .filter(|e| {
                        e.file_name()
                            .to_str()
                            .is_some_and(|n| n.parse::<u32>().is_ok())
                    })
                    .count();
                processes <= 2
            }),
            // Orphans go to init: its one child, with no children of its own.
            Pids::ChildrenOf(init) => {
                let children =
                    std::fs::read_to_string(format!("/proc/{init}/task/{init}/children"))
                        .map(|list| list.split_whitespace().count())
                        .unwrap_or(0);
                children <= 1
                    && self
                        .pid(reported)
                        .is_none_or(|pid| !sys::has_live_children(pid as u32))
            }
        }
    }

    /// The run's pid in this /proc: the one init reported, else init's
    /// child (init is 1 in the namespace's /proc).
    fn pid(self, reported: Option<i32>) -> Option<i32> {
        let child_of = |init: i32| {
            std::fs::read_to_string(format!("/proc/{init}/task/{init}/children"))
                .ok()
                .and_then(|list| list.split_whitespace().next()?.parse().ok())
        };
        match self {
            Pids::Namespace => reported.or_else(|| child_of(1)),
            Pids::ChildrenOf(init) => child_of(init),
        }
    }
}

fn serve(
    judge: &OwnedFd,
    init: &OwnedFd,
    config: &KeeperConfig,
    mut counters: Option<&mut cgroup::Counters>,
    cleaner: &mut Cleaner,
    pids: Pids,
) {
    let mut buf = vec![0u8; MAX_MESSAGE];
    loop {
        let Ok(Some((n, fds))) = next_message(judge, &mut buf, config.next_job_spin) else {
            return;
        };
        if &buf[..n] == KILL {
            continue; // a kill that arrived after its job ended
        }
        let result = match serde_json::from_slice::<Job>(&buf[..n]) {
            Ok(job) if fds.len() == job.descriptors() => {
                let counters = counters.as_deref_mut();
                match run_job(judge, init, config, &buf[..n], &job, fds, counters, pids) {
                    Ok(Some(r)) => r,
                    // The judge went away, or init failed: a keeper that
                    // exits is replaced, and the job run again.
                    Ok(None) | Err(_) => return,
                }
            }
            _ => JobResult {
                spawn_error: Some("sandbox keeper: malformed job".into()),
                ..JobResult::default()
            },
        };
        if send(judge, &result).is_err() {
            return;
        }
        // Off the judge's way: it reads the result meanwhile, and the next
        // job is taken only once this is done. A slot that cannot be left
        // clean is given up (the judge then replaces this keeper and runs
        // its next job elsewhere). Then the counters start from zero.
        if cleaner.clean().is_err() {
            return;
        }
        if let Some(counters) = counters.as_deref_mut() {
            counters.settle();
            if counters.reset().is_err() {
                return;
            }
        }
    }
}

/// Runs one job through init; `Ok(None)` when the judge closed the socket
/// meanwhile. An `Err` means the keeper cannot be trusted with another job.
#[expect(
    clippy::too_many_arguments,
    reason = "one job: its sockets, settings, descriptors and counters"
)]
fn run_job(
    judge: &OwnedFd,
    init: &OwnedFd,
    config: &KeeperConfig,
    message: &[u8],
    job: &Job,
    fds: Vec<OwnedFd>,
    mut counters: Option<&mut cgroup::Counters>,
    pids: Pids,
) -> io::Result<Option<JobResult>> {
    if let Some(counters) = counters.as_deref_mut() {
        if let Err(e) = counters.set_limits(job.memory, job.pids) {
            return Ok(Some(JobResult {
                spawn_error: Some(format!("cannot set the run's limits: {e}")),
                ..JobResult::default()
            }));
        }
    }
    if let Err(e) = make_dirs(job, config) {
        return Ok(Some(not_started(format!(
            "cannot prepare the working directory: {e}"
        ))));
    }
    // The named files' descriptors and the directory kept files go to stay
    // here: the input goes into the run's working directory now, the output
    // and the kept files come out of it at the end.
    let mut fds = fds.into_iter();
    let stdio: Vec<OwnedFd> = fds.by_ref().take(3).collect();
    if let Some(name) = &job.input_file {
        let input = std::fs::File::from(fds.next().expect("counted"));
        if let Err(e) = named_files::place(&job.cwd, name, input) {
            return Ok(Some(not_started(format!(
                "cannot give the run its input file `{name}`: {e}"
            ))));
        }
    }
    let mut sink = job
        .output_file
        .as_ref()
        .and_then(|_| fds.next())
        .map(std::fs::File::from);
    let keep_into = job.keeps().then(|| fds.next()).flatten();
    for dir in &job.fill {
        let from = fds.next().expect("counted");
        if let Err(e) = fill_dir(job, config, dir, from) {
            return Ok(Some(not_started(format!(
                "cannot give the run its `{dir}` folder: {e}"
            ))));
        }
    }
    let mut raw: Vec<_> = stdio.iter().map(|f| f.as_raw_fd()).collect();
    // A run with a cgroup of its own joins it (see cgroup::Counters).
    raw.extend(
        counters
            .as_deref()
            .and_then(|c| c.join_file())
            .map(|f| f.as_raw_fd()),
    );
    sys::send_with_fds(init.as_raw_fd(), message, &raw)?;
    drop(stdio);
    let start = Instant::now();
    let mut buf = vec![0u8; 4096];
    // Init reports the run's pid only when it is needed to read its CPU
    // time (no cgroup): one hand-over less per run.
    let mut pid = None;
    if counters.is_none() && matches!(pids, Pids::Namespace) {
        match receive::<Report>(init, &mut buf)? {
            Some(Report::Started(started)) => pid = Some(started),
            Some(Report::NotStarted(error)) => return Ok(Some(not_started(error))),
            Some(Report::Ended(_)) => {
                return Err(io::Error::other("init ended a job never started"))
            }
            None => return Err(io::Error::other("the sandbox's init exited")),
        }
    }
    let tick = (job.cpu_limit / 10).clamp(Duration::from_millis(5), Duration::from_millis(50));
    let mut stopped = None;
    let mut waited_for_cpu = Duration::ZERO;
    let mut message = [0u8; 16];
    let kill = || sys::send_with_fds(init.as_raw_fd(), KILL, &[]);
    loop {
        let ready = sys::poll_readable(&[judge.as_raw_fd(), init.as_raw_fd()], Some(tick))?;
        if ready[1] {
            break;
        }
        if ready[0] {
            match sys::recv_with_fds(judge.as_raw_fd(), &mut message, true) {
                Ok(None) => {
                    let _ = kill();
                    return Ok(None);
                }
                Ok(Some(_)) => {
                    kill()?;
                    stopped.get_or_insert(Stopped::Asked);
                }
                Err(_) => {}
            }
        }
        if stopped.is_none() {
            let cpu = match counters.as_deref() {
                Some(c) => Duration::from_nanos(c.cpu_ns().unwrap_or(0)),
                None => pids.cpu_time(pid),
            };
            if cpu > job.cpu_limit {
                kill()?;
                stopped = Some(Stopped::CpuTime);
            } else if start.elapsed() > job.wall_limit {
                // Time spent waiting for a CPU does not count, unless
                // without a cgroup (where the run's CPU time is its
                // leader's) the run has other processes to make it wait.
                waited_for_cpu = match counters.is_some() || pids.alone(pid) {
                    true => pids.run_queue_wait(pid),
                    false => Duration::ZERO,
                };
                let grace = sys::starved_grace(job.wall_limit, waited_for_cpu);
                if start.elapsed() > job.wall_limit + grace {
                    kill()?;
                    stopped = Some(Stopped::WallTime);
                }
            }
        }
    }
    let ended: Ended = match receive::<Report>(init, &mut buf)? {
        Some(Report::Ended(ended)) => ended,
        Some(Report::NotStarted(error)) if pid.is_none() => return Ok(Some(not_started(error))),
        Some(_) => return Err(io::Error::other("init reported a job twice")),
        None => return Err(io::Error::other("the sandbox's init exited")),
    };
    let usage = counters.map(|c| c.usage()).transpose()?;
    // Everything the run started is gone (init killed it): what is left
    // under the output's name is final.
    let output_file = match (&job.output_file, sink.as_mut()) {
        (Some(name), Some(sink)) => {
            let limit = job.rlimits.file_size.unwrap_or(u64::MAX);
            Some(named_files::collect(&job.cwd, name, limit, sink))
        }
        _ => None,
    };
    let keep_error = keep_into.and_then(|into| keep_files(job, into).err());
    Ok(Some(JobResult {
        spawn_error: None,
        code: ended.code,
        signal: ended.signal,
        cpu_time: ended.cpu_time,
        wall_time: ended.wall_time,
        ended_ns: ended.ended_ns,
        waited_for_cpu,
        max_rss_kib: ended.max_rss_kib,
        stopped,
        usage,
        keep_error,
        output_file,
    }))
}

/// Makes the job's folders in its working directory, owned by the uid it
/// runs as.
fn make_dirs(job: &Job, config: &KeeperConfig) -> io::Result<()> {
    for dir in &job.make_dirs {
        let relative = Path::new(dir);
        if relative.is_absolute() || relative.components().any(|c| c.as_os_str() == "..") {
            return Err(io::Error::other(format!(
                "`{dir}` leaves the working directory"
            )));
        }
        let path = job.cwd.join(relative);
        std::fs::create_dir_all(&path)?;
        if let Some((uid, gid)) = config.run_as {
            for made in path.ancestors().take(relative.components().count()) {
                std::os::unix::fs::chown(made, Some(uid), Some(gid))?;
            }
        }
    }
    Ok(())
}

/// What a folder of `keep_dirs` or `fill` may hold.
fn dir_limits(job: &Job) -> crate::sandbox::untrusted::TreeLimits {
    crate::sandbox::untrusted::TreeLimits {
        bytes: job.keep_max,
        files: crate::sandbox::KEPT_DIR_FILES,
        depth: 0,
    }
}

/// Copies the regular files of the directory open at `from` (the judge's)
/// into the folder `name` of the job's working directory, as the run's.
fn fill_dir(job: &Job, config: &KeeperConfig, name: &str, from: OwnedFd) -> Result<(), String> {
    use crate::sandbox::untrusted::{copy_files, Dir};
    let from = Dir::from_fd(from);
    let to = Dir::open(&job.cwd)
        .and_then(|work| work.dir(std::ffi::OsStr::new(name)))
        .map_err(|e| e.to_string())?;
    copy_files(&from, &to, dir_limits(job), config.run_as).map_err(|e| e.to_string())
}

/// Copies the files the job keeps from its working directory into `into`
/// (the judge's directory), never through a link, each at most
/// `job.keep_max` bytes; a file the program did not leave is no error.
/// Then the regular files of its `keep_dirs` (within [`dir_limits`]).
fn keep_files(job: &Job, into: OwnedFd) -> Result<(), String> {
    use crate::sandbox::untrusted::{copy_files, read_capped, Dir};
    let into = Dir::from_fd(into);
    let work =
        Dir::open(&job.cwd).map_err(|e| format!("cannot open the working directory: {e}"))?;
    for name in &job.keep_dirs {
        let name_os = std::ffi::OsStr::new(name);
        let from = match work.dir(name_os) {
            Ok(dir) => dir,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("`{name}`: {e}")),
        };
        let to = into
            .create_dir(name_os, 0o755)
            .map_err(|e| format!("`{name}`: {e}"))?;
        copy_files(&from, &to, dir_limits(job), None).map_err(|e| format!("`{name}`: {e}"))?;
    }
    for name in &job.keep {
        let relative = Path::new(name);
        let file = match work.file_at(relative) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("`{name}`: {e}")),
        };
        let bytes = read_capped(file, job.keep_max).map_err(|e| format!("`{name}`: {e}"))?;
        let mut dir = None;
        let parents: Vec<_> = relative.parent().into_iter().flat_map(Path::iter).collect();
        for part in parents {
            let next = dir
                .as_ref()
                .unwrap_or(&into)
                .create_dir(part, 0o755)
                .map_err(|e| format!("`{name}`: {e}"))?;
            dir = Some(next);
        }
        let file_name = relative.file_name().unwrap_or_default();
        let mut out = dir
            .as_ref()
            .unwrap_or(&into)
            .create_file(file_name, 0o644)
            .map_err(|e| format!("`{name}`: {e}"))?;
        std::io::Write::write_all(&mut out, &bytes).map_err(|e| format!("`{name}`: {e}"))?;
    }
    Ok(())
}

/// The result of a job whose program could not be started.
fn not_started(error: String) -> JobResult {
    JobResult {
        spawn_error: Some(error),
        ..JobResult::default()
    }
}

/// What the supervisor checks and clears after every job, so that no run
/// finds anything of the one before: System V IPC objects (listed in
/// /proc/sysvipc, which shows the namespace's own), POSIX message queues
/// (/dev/mqueue), and /tmp and /dev/shm, which are mounted afresh when not
/// empty (whatever is in them: deep trees, unreadable directories, many
/// files). The checks read descriptors kept open: about ten microseconds
/// when a run left nothing.
struct Cleaner {
    sysv: Vec<(sys::IpcKind, std::fs::File)>,
    /// /tmp and /dev/shm, with their mount options (with a view).
    tmpfs: Vec<(&'static str, String, std::fs::File)>,
    /// /dev/mqueue (with a view).
    mqueue: Option<std::fs::File>,
    /// The size an empty directory has on tmpfs and the mqueue file system,
    /// when checked at the start to grow with every entry: then one fstat
    /// tells that a directory is empty.
    empty_size: Option<u64>,
}

impl Cleaner {
    fn open(config: &KeeperConfig) -> io::Result<Cleaner> {
        let sysv = [
            (sys::IpcKind::SharedMemory, "/proc/sysvipc/shm"),
            (sys::IpcKind::MessageQueue, "/proc/sysvipc/msg"),
            (sys::IpcKind::Semaphores, "/proc/sysvipc/sem"),
        ]
        .into_iter()
        .map(|(kind, path)| Ok((kind, std::fs::File::open(path)?)))
        .collect::<io::Result<_>>()?;
        // Package programs are trusted (only their processes are the
        // sandbox's), and a compilation's keeper takes one job: nothing to
        // clean for the next.
        let Some(view) = config.view.as_ref().filter(|v| v.work.is_none()) else {
            return Ok(Cleaner {
                sysv: Vec::new(),
                tmpfs: Vec::new(),
                mqueue: None,
                empty_size: None,
            });
        };
        let options = format!("size={},nr_inodes={TMP_INODES},mode=1777", view.tmp_size);
        let tmpfs: Vec<(&str, String, std::fs::File)> = ["/tmp", "/dev/shm"]
            .into_iter()
            .map(|path| Ok((path, options.clone(), open_dir(path)?)))
            .collect::<io::Result<_>>()?;
        let mqueue = open_dir("/dev/mqueue")?;
        Ok(Cleaner {
            empty_size: empty_size(&tmpfs[0].2, &mqueue),
            sysv,
            tmpfs,
            mqueue: Some(mqueue),
        })
    }

    /// Whether the directory open at `dir` (empty when the keeper started)
    /// has no entry.
    fn is_empty(&self, dir: &std::fs::File) -> bool {
        if let (Some(empty), Ok(meta)) = (self.empty_size, dir.metadata()) {
            if meta.len() == empty {
                return true;
            }
        }
        sys::dir_is_empty(dir).unwrap_or(false)
    }

    /// Clears everything a run may have left; `Err` says what could not be.
    fn clean(&mut self) -> Result<(), String> {
        for (kind, file) in &self.sysv {
            let ids = sysv_ids(file).map_err(|e| format!("cannot list IPC objects: {e}"))?;
            if ids.is_empty() {
                continue;
            }
            for id in ids {
                // An object already gone (EINVAL) is fine; the check below
                // catches what stays.
                let _ = sys::ipc_remove(*kind, id);
            }
            let left = sysv_ids(file).map_err(|e| format!("cannot list IPC objects: {e}"))?;
            if !left.is_empty() {
                return Err(format!("{kind:?} objects {left:?} could not be removed"));
            }
        }
        if let Some(mqueue) = &self.mqueue {
            if !self.is_empty(mqueue) {
                for entry in std::fs::read_dir("/dev/mqueue").map_err(|e| e.to_string())? {
                    let entry = entry.map_err(|e| e.to_string())?;
                    let _ = std::fs::remove_file(entry.path());
                }
                if !sys::dir_is_empty(mqueue).unwrap_or(false) {
                    return Err("message queues in /dev/mqueue could not be removed".into());
                }
            }
        }
        let empty_size = self.empty_size;
        for (path, options, dir) in &mut self.tmpfs {
            if empty_size.is_some_and(|size| dir.metadata().is_ok_and(|m| m.len() == size))
                || sys::dir_is_empty(dir).unwrap_or(false)
            {
                continue;
            }
            // A few entries (a package program's feedback folder, an output
            // file) are removed one by one, cheaper than a fresh mount.
            let mut budget = SMALL_TREE;
            if remove_small_tree(dir, &mut budget, 0) && sys::dir_is_empty(dir).unwrap_or(false) {
                continue;
            }
            // A fresh tmpfs: the old one (and its pages, charged to the
            // slot) is freed now, as nothing holds it any more. The
            // descriptor on it goes first.
            let target = Path::new(path);
            *dir = open_dir("/").map_err(|e| format!("cannot reopen /: {e}"))?;
            sys::umount_detach(target).map_err(|e| format!("cannot unmount {path}: {e}"))?;
            super::view::mount_tmpfs(target, options)
                .map_err(|e| format!("cannot mount a fresh {path}: {e}"))?;
            *dir = open_dir(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        }
        Ok(())
    }
}

/// The most entries a run may leave in /tmp or /dev/shm for them to be
/// removed one by one rather than by a fresh mount.
const SMALL_TREE: usize = 32;

/// Removes everything in the directory open at `dir` when it is at most
/// `budget` entries, folders at most 3 deep (what a run left: never
/// following a link); `false` when there is more, or something cannot be
/// removed: a fresh mount is then needed.
fn remove_small_tree(dir: &impl AsRawFd, budget: &mut usize, depth: usize) -> bool {
    let Ok(entries) = sys::list(dir, *budget) else {
        return false;
    };
    for (name, kind) in entries {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let is_dir = kind == sys::EntryKind::Dir;
        if is_dir {
            let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
            let Ok(inner) = sys::open_at(Some(dir.as_raw_fd()), &name, flags, 0) else {
                return false;
            };
            if depth >= 3 || !remove_small_tree(&inner, budget, depth + 1) {
                return false;
            }
        }
        if sys::unlink_at(dir, &name, is_dir).is_err() {
            return false;
        }
    }
    true
}

/// The size of the empty directories `tmp` (a tmpfs) and `mqueue`, if both
/// have it and a file added to each makes it grow (checked here, with a file
/// made and removed in each): then that size means empty. `None` (always
/// list the directory) otherwise.
fn empty_size(tmp: &std::fs::File, mqueue: &std::fs::File) -> Option<u64> {
    let size = |dir: &std::fs::File| dir.metadata().ok().map(|m| m.len());
    let empty = size(tmp)?;
    if size(mqueue)? != empty || !sys::dir_is_empty(tmp).ok()? {
        return None;
    }
    let probe = |dir: &str, file: &std::fs::File| -> Option<()> {
        let path = format!("{dir}/.judge-size-probe");
        std::fs::File::create(&path).ok()?;
        let grown = size(file);
        std::fs::remove_file(&path).ok()?;
        (grown? > empty && size(file)? == empty).then_some(())
    };
    probe("/tmp", tmp)?;
    probe("/dev/mqueue", mqueue)?;
    Some(empty)
}

fn open_dir(path: &str) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY)
        .open(path)
}

/// The ids of the objects a /proc/sysvipc file lists (its second column),
/// read from its start through a descriptor kept open.
fn sysv_ids(file: &std::fs::File) -> io::Result<Vec<i32>> {
    // One read gives the whole listing when it is short (a header line: the
    // usual case); a longer one is read to its end.
    let mut buf = [0u8; 4096];
    let mut text = Vec::new();
    loop {
        let n = sys::pread_at(file, &mut buf, text.len() as u64)?;
        text.extend_from_slice(&buf[..n]);
        let header_only =
            text.iter().filter(|&&b| b == b'\n').count() == 1 && text.ends_with(b"\n");
        if n == 0 || header_only {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&text)
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().nth(1)?.parse().ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysv_listings_give_ids() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shm");
        std::fs::write(
            &path,
            "       key      shmid perms                  size  cpid  lpid nattch   uid   gid\n\
             \x20 1234      32769   600             104857600    42    42      0 65534 65534\n\
             \x20    0          7   600                  4096    43    43      0 65534 65534\n",
        )
        .unwrap();
        let file = std::fs::File::open(&path).unwrap();
        assert_eq!(sysv_ids(&file).unwrap(), vec![32769, 7]);
    }
}
