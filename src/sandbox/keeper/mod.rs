//! The keeper: a small process (the judge binary started as
//! `judge __sandbox-keeper`, its settings sent as the first message on its
//! socket) that sets up the namespaces of one sandbox slot once and then runs
//! jobs in them, one at a time, as go-judge reuses its containers. The main
//! types are [`KeeperConfig`], [`Job`] and [`JobResult`]; the entry point is
//! [`keeper_main`].
//!
//! Two processes make a keeper:
//! - the **supervisor** ([`supervisor`]), the process the judge started: it
//!   creates the namespaces (user when not root, then mount, pid, network,
//!   ipc, uts), talks to the judge, enforces the CPU and wall limits, reads
//!   the slot's cgroup counters and cleans up after each run. It is not in the
//!   slot's cgroup (nothing it does is charged to a run) nor in the pid
//!   namespace (no run can see or signal it).
//! - the **init** ([`init`]), pid 1 of the new pid namespace: it builds the
//!   file-system view ([`view`]), joins the slot's cgroup, and for each job
//!   starts the program (so runs are born in the cgroup), waits for it, and
//!   kills and reaps whatever it left.
//!
//! A keeper started as a *spawner* ([`KeeperConfig::spawner`], the
//! rlimit-only level) does none of this: it only starts each job as a child
//! of the judge ([`spawner`]).

mod init;
mod layout;
mod protocol;
mod spawner;
mod start;
mod supervisor;
mod view;

use layout::c_strings;
use protocol::{next_message, receive, send};
use start::fail;

use super::{cgroup, sys};

pub(crate) use layout::{
    cannot_hide, package_mount, translate, BUILD_MOUNT, DEVICES, FILES_MOUNT, HEADERS_MOUNT,
    RUN_ID, SYSTEM_DIRS, TMP_INODES, TMP_SIZE, WORK_MOUNT,
};
pub(crate) use protocol::{
    Job, JobResult, KeeperConfig, Ready, Stopped, View, KILL, MAX_MESSAGE, SOCKET_FD,
};
pub use start::keeper_main;
