//! The keeper's init: pid 1 of the slot's pid namespace. It builds the view,
//! joins the slot's cgroup, and for each job the supervisor forwards starts
//! the program (born in the cgroup), reports its pid, waits for it, kills and
//! reaps whatever it left, and reports how it ended. Everything else (limits,
//! counters, cleaning) is the supervisor's, outside the cgroup.

use std::os::fd::{AsRawFd, OwnedFd};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{c_strings, send, sys, view, Job, KeeperConfig, Ready, KILL, MAX_MESSAGE};

/// What init tells the supervisor about a job.
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum Report {
    /// The program exec'd; its pid in the namespace.
    Started(i32),
    /// It could not be started (exec failed): why.
    NotStarted(String),
    /// It ended, and everything it started is gone.
    Ended(Ended),
}

/// How a job's program ended.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Ended {
    pub(super) code: Option<i32>,
    pub(super) signal: Option<i32>,
    pub(super) cpu_time: std::time::Duration,
    pub(super) max_rss_kib: u64,
    pub(super) wall_time: std::time::Duration,
    /// When it ended, on the system's monotonic clock (ns).
    #[serde(default)]
    pub(super) ended_ns: u64,
}

/// Runs init until the supervisor goes away; the exit code.
pub(super) fn main(supervisor: &OwnedFd, config: &KeeperConfig) -> i32 {
    // Runs and compilations start under the seccomp filter, installed here
    // once; package programs (trusted) do not.
    let built = match &config.view {
        Some(_) => view::build(config).and_then(|()| sys::restrict_syscalls()),
        None => view::join_cgroup(config),
    };
    if let Err(e) = built {
        let _ = send(
            supervisor,
            &Ready {
                error: Some(format!("cannot build the sandbox root: {e}")),
            },
        );
        return 1;
    }
    if send(supervisor, &Ready { error: None }).is_err() {
        return 1;
    }
    serve(supervisor, config);
    sys::kill_all_others();
    while sys::reap_any().is_some() {}
    0
}

fn serve(supervisor: &OwnedFd, config: &KeeperConfig) {
    let mut buf = vec![0u8; MAX_MESSAGE];
    // The stack runs' children start on (they share init's memory until
    // they exec).
    let mut stack = vec![0u8; 256 << 10];
    while let Ok(Some((n, fds))) = sys::recv_with_fds(supervisor.as_raw_fd(), &mut buf, false) {
        if &buf[..n] == KILL {
            continue; // a kill that arrived after its job ended
        }
        let job = match serde_json::from_slice::<Job>(&buf[..n]) {
            // stdin, stdout, stderr, and the run's own cgroup where it has one.
            Ok(job) if fds.len() == 3 || fds.len() == 4 => job,
            _ => {
                let report = Report::NotStarted("sandbox keeper: malformed job".into());
                if send(supervisor, &report).is_err() {
                    return;
                }
                continue;
            }
        };
        match run(supervisor, config, &job, fds, &mut stack) {
            Ok(true) => {}
            Ok(false) => return, // the supervisor went away
            Err(e) => {
                sys::kill_all_others();
                while sys::reap_any().is_some() {}
                let report = Report::NotStarted(format!("sandbox keeper: {e}"));
                if send(supervisor, &report).is_err() {
                    return;
                }
            }
        }
    }
}

/// Runs one job; `Ok(false)` when the supervisor went away meanwhile.
fn run(
    supervisor: &OwnedFd,
    config: &KeeperConfig,
    job: &Job,
    fds: Vec<OwnedFd>,
    stack: &mut [u8],
) -> std::io::Result<bool> {
    let argv = c_strings(&job.argv)?;
    let program = argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stdio = [fds[0].as_raw_fd(), fds[1].as_raw_fd(), fds[2].as_raw_fd()];
    let plan = sys::SpawnPlan::new(
        argv,
        c_strings(&job.env)?,
        &job.cwd,
        stdio,
        config.run_as,
        &job.rlimits,
        job.processes,
        // The run's OOM score goes to the maximum, so a memory-limited
        // cgroup's OOM killer picks it. Not in a user namespace: there the
        // child (which shares this non-dumpable process's memory until it
        // execs) may not open its own /proc files; the OOM killer then
        // picks the largest process, the run (init is a few hundred KiB),
        // and with a fresh cgroup per run the run's are the only ones.
        config.cgroup.is_some() && !config.user_namespace,
    )?;
    let plan = match job.raise_priority {
        true => plan.raise_priority(),
        false => plan,
    };
    let plan = match fds.get(3) {
        Some(procs) => plan.join(procs.as_raw_fd()),
        None => plan,
    };
    let start = Instant::now();
    let spawned = sys::spawn(&plan, stack)?;
    drop(fds);
    let child = match spawned {
        Ok(pid) => pid,
        Err((_, error)) => {
            while sys::reap_any().is_some() {}
            let report = Report::NotStarted(format!("cannot start `{program}`: {error}"));
            return send(supervisor, &report).map(|()| true);
        }
    };
    // The supervisor needs the pid only to read the run's CPU time when
    // there is no cgroup.
    if config.cgroup.is_none() && config.view.is_some() {
        send(supervisor, &Report::Started(child))?;
    }
    let exited = sys::pidfd_open(child)?;
    let mut message = [0u8; 16];
    loop {
        let ready = sys::poll_readable(&[supervisor.as_raw_fd(), exited.as_raw_fd()], None)?;
        if ready[1] {
            break;
        }
        if ready[0] {
            match sys::recv_with_fds(supervisor.as_raw_fd(), &mut message, true) {
                Ok(None) => {
                    sys::kill_all_others();
                    return Ok(false);
                }
                // A kill (a limit, or the judge asked).
                Ok(Some(_)) => sys::kill_all_others(),
                Err(_) => {}
            }
        }
    }
    let wall_time = start.elapsed();
    let ended_ns = sys::monotonic_ns();
    let reaped = loop {
        if let Some(r) = sys::try_reap(child)? {
            break r;
        }
        std::thread::sleep(std::time::Duration::from_micros(100));
    };
    // Nothing the job started may outlive it. Whatever is left of it is
    // init's child now (orphans of the namespace come to it), so with no
    // child the scan of every process that kill(-1) makes is saved.
    if sys::has_children() {
        sys::kill_all_others();
        while sys::reap_any().is_some() {}
    }
    let ended = Ended {
        code: reaped.code,
        signal: reaped.signal,
        cpu_time: reaped.cpu_time,
        max_rss_kib: reaped.max_rss_kib,
        wall_time,
        ended_ns,
    };
    send(supervisor, &Report::Ended(ended)).map(|()| true)
}
