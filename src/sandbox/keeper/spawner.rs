//! A keeper started as a spawner (the rlimit-only level): no namespaces, no
//! view; it starts each job as a child of the judge, which watches, limits
//! and reaps it itself. See [`super::KeeperConfig::spawner`].

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use super::{c_strings, send, sys, Job, KeeperConfig, Ready, MAX_MESSAGE};

/// Runs a spawner until the judge goes away; the exit code.
pub(super) fn main(socket: &OwnedFd, config: &KeeperConfig) -> i32 {
    if let Some(cpu) = config.cpu {
        sys::use_cpus(sys::CpuSet::only(cpu));
    }
    if send(socket, &Ready { error: None }).is_err() {
        return 1;
    }
    serve(socket);
    0
}

/// A spawner's loop: each job comes with four descriptors, the run's stdin,
/// stdout and stderr and the write end of a report pipe, and is started as
/// a child of the judge (in a process group of its own, in the host's file
/// system). The child itself writes its pid to the report pipe, then the
/// errno if its exec fails; a job that fails before there is a child is
/// reported here as pid 0 and the errno. The judge does the rest. Returns
/// when the judge goes away.
fn serve(socket: &OwnedFd) {
    let mut buf = vec![0u8; MAX_MESSAGE];
    let mut stack = vec![0u8; 64 << 10];
    while let Ok(Some((n, fds))) = sys::recv_with_fds(socket.as_raw_fd(), &mut buf, false) {
        // The descriptors: stdin, stdout, stderr, the report pipe and, for a
        // run started ahead of its turn, the gate it waits on.
        let (stdin, stdout, stderr, report, gate) = match &fds[..] {
            [i, o, e, r] => (i, o, e, r, None),
            [i, o, e, r, g] => (i, o, e, r, Some(g.as_raw_fd())),
            _ => continue, // not from the judge: nobody to answer
        };
        let stdio = [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()];
        let started = serde_json::from_slice::<Job>(&buf[..n])
            .map_err(io::Error::other)
            .and_then(|job| spawn_for_judge(&job, stdio, report.as_raw_fd(), gate, &mut stack));
        if let Err(e) = started {
            sys::report_not_started(report.as_raw_fd(), &e);
        }
    }
}

fn spawn_for_judge(
    job: &Job,
    stdio: [RawFd; 3],
    report: RawFd,
    gate: Option<RawFd>,
    stack: &mut [u8],
) -> io::Result<()> {
    let mut plan = sys::SpawnPlan::new(
        c_strings(&job.argv)?,
        c_strings(&job.env)?,
        &job.cwd,
        stdio,
        None,
        &job.rlimits,
        job.processes,
        false,
    )?
    .new_process_group()
    .child_of_parent(report);
    if job.raise_priority {
        plan = plan.raise_priority();
    }
    if let Some(gate) = gate {
        // Suspended here until the judge opens the gate (or closes it).
        plan = plan.wait_for_gate(gate);
    }
    // A failed exec is not an error here: the child reports it to the judge.
    let _exec_reported_by_the_child = sys::spawn(&plan, stack)?;
    Ok(())
}
