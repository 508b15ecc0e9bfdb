//! Why the sandbox, or one of its mechanisms, could not be set up. The
//! messages end up in the warning of a weaker isolation level, or in the
//! error of `--isolation strict`.

use std::io;
use std::path::PathBuf;

/// Why the sandbox could not be set up as asked.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SetupError {
    /// The CPU asked for cannot be used.
    #[error("cpu {cpu}: the judge may only use CPUs {allowed:?} (judge.toml's `cpu` or --cpu)")]
    Cpu {
        /// The CPU asked for.
        cpu: usize,
        /// Those the judge may use.
        allowed: Vec<usize>,
    },
    /// The directory of the keepers' roots.
    #[error("cannot create the sandbox runtime directory in /tmp: {0}")]
    RuntimeDir(io::Error),
    /// `--isolation strict`, and a mechanism is missing.
    #[error("full isolation is not available: {}", join(.0))]
    Unavailable(Vec<Unavailable>),
}

/// Why a mechanism of full isolation is missing.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unavailable {
    /// No usable cgroup hierarchy.
    #[error("{}", join(.0))]
    Cgroups(Vec<CgroupError>),
    /// A keeper with a cgroup did not start.
    #[error("{0}")]
    CgroupKeeper(StartError),
    /// A keeper without a cgroup (namespaces only) did not start either.
    #[error("namespaces: {0}")]
    Namespaces(StartError),
    /// The system denies this user the user namespaces the sandbox needs:
    /// why, and the fix.
    #[error("{0}")]
    UserNamespaces(String),
}

/// Why a cgroup hierarchy cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CgroupError {
    /// A file of /proc cannot be read.
    #[error("cannot read {path}: {error}")]
    Proc {
        /// The file.
        path: &'static str,
        /// Why.
        error: io::Error,
    },
    /// A v1 controller is not mounted.
    #[error("cgroup v1: no `{0}` hierarchy mounted")]
    V1NotMounted(&'static str),
    /// The judge's process is in no cgroup of a v1 controller.
    #[error("cgroup v1: /proc/self/cgroup has no `{0}` line")]
    V1NoLine(&'static str),
    /// No cgroup2 file system.
    #[error("cgroup v2: not mounted")]
    V2NotMounted,
    /// The judge's process is in no v2 cgroup.
    #[error("cgroup v2: /proc/self/cgroup has no unified line")]
    V2NoLine,
    /// A v2 controller is not passed down to where the judge is.
    #[error(
        "cgroup v2 at {}: controller `{controller}` is not available there (its parent's \
         cgroup.subtree_control does not pass it on)",
        base.display()
    )]
    V2Controller {
        /// The judge's cgroup.
        base: PathBuf,
        /// The controller.
        controller: &'static str,
    },
    /// The root cgroup does not pass the controllers on.
    #[error(
        "cgroup v2 at {} (the root cgroup): controllers {missing} are not enabled for \
         children; enable them with `echo \"+memory +pids\" > {}/cgroup.subtree_control`",
        base.display(),
        base.display()
    )]
    V2RootControllers {
        /// The root cgroup.
        base: PathBuf,
        /// The missing controllers, space-separated.
        missing: String,
    },
    /// Other processes share the judge's cgroup, so no controller can be
    /// enabled below it (cgroup v2: no processes beside child cgroups).
    #[error(
        "cgroup v2 at {}: {others} other process(es) share the judge's cgroup, so it cannot \
         enable controllers below it",
        base.display()
    )]
    V2Shared {
        /// The judge's cgroup.
        base: PathBuf,
        /// How many other processes are there.
        others: usize,
    },
    /// The judge's cgroup cannot be used, and systemd gave no other.
    #[error("{reason}; {systemd}; {fix}")]
    V2Place {
        /// The judge's cgroup.
        base: PathBuf,
        /// Why it cannot be used.
        reason: String,
        /// Why systemd gave no delegated scope.
        systemd: String,
        /// What to do.
        fix: String,
    },
    /// The cgroup file system is mounted read-only (an unprivileged
    /// container or pod).
    #[error(
        "cgroup v2 at {} is mounted read-only (an unprivileged container or Kubernetes pod): \
         the judge cannot make cgroups for its runs; give the container a writable cgroup file \
         system (`docker run --privileged`, `podman run --privileged`, a pod's \
         `securityContext.privileged: true`), or run the judge outside it",
        mount.display()
    )]
    V2ReadOnly {
        /// Where it is mounted.
        mount: PathBuf,
    },
    /// The judge's cgroup is outside the cgroup namespace it sees (a
    /// systemd outside the container moved it).
    #[error(
        "cgroup v2: the judge's cgroup {path} is outside its container's cgroup namespace \
         (a systemd outside the container moved it there); the judge does not leave its \
         container's cgroup"
    )]
    V2OutsideNamespace {
        /// The path /proc/self/cgroup shows.
        path: String,
    },
    /// A control file the judge relies on refused a write.
    #[error("cannot write {}: {error}", file.display())]
    Write {
        /// The file.
        file: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The judge may not create cgroups there.
    #[error("cannot create a cgroup under {}: {error}", base.display())]
    NotWritable {
        /// Where.
        base: PathBuf,
        /// Why.
        error: io::Error,
    },
}

/// Why a keeper did not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    /// Its slot's cgroup.
    #[error("cannot create a cgroup: {0}")]
    Cgroup(io::Error),
    /// Its root directory.
    #[error("cannot create the sandbox root: {0}")]
    Root(io::Error),
    /// Its staging directory.
    #[error("cannot create {}: {error}", dir.display())]
    Staging {
        /// The directory.
        dir: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The judge's own executable, which the keeper is.
    #[error("cannot find the judge executable: {0}")]
    Executable(io::Error),
    /// The socket to it.
    #[error("socketpair: {0}")]
    Socket(io::Error),
    /// Starting its process.
    #[error("cannot start the sandbox keeper: {0}")]
    Spawn(io::Error),
    /// Sending its settings.
    #[error("cannot configure the sandbox keeper: {0}")]
    Configure(io::Error),
    /// Waiting for its answer.
    #[error("waiting for the sandbox keeper: {0}")]
    Wait(io::Error),
    /// Reading its answer.
    #[error("sandbox keeper: {0}")]
    Read(io::Error),
    /// It did not answer within this wait (judge.toml's `keeper_start`).
    #[error(
        "the sandbox keeper did not start (no answer within {:?}; judge.toml's \
         limits.keeper_start sets the wait)", .0
    )]
    NoAnswer(std::time::Duration),
    /// It exited (or closed its socket) before it was ready: how.
    #[error("the sandbox keeper exited before it was ready ({0})")]
    Exited(String),
    /// Its answer is not one.
    #[error("sandbox keeper: bad answer: {0}")]
    BadAnswer(serde_json::Error),
    /// It could not set its sandbox up, and says why (in its own words: the
    /// keeper is another process).
    #[error("{0}")]
    Refused(String),
    /// A spawner (a keeper of the rlimit-only level) died on its job.
    #[error("the sandbox spawner died before starting the program")]
    Died,
    /// Its socket could not be made non-blocking.
    #[error("{0}")]
    Nonblocking(io::Error),
}

fn join<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
