//! What a [`Sandbox`](super::Sandbox)'s runs share: its keepers and
//! spawners, idle between runs, and where keepers build their roots. The
//! main type is [`Shared`]; starting a keeper for a profile and a run
//! through one are in [`keepers`](super::keepers).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use super::{cgroup, isolated, keeper, sys, SandboxPaths, StartError};

/// A started child, with the report pipe of a spawner if one started it;
/// or the error that kept it from exec'ing, with the child if there is one
/// (which must still be reaped).
pub(crate) type Spawned =
    Result<(u32, Option<tokio::net::unix::pipe::Receiver>), (Option<u32>, io::Error)>;

#[derive(Debug)]
pub(crate) struct Shared {
    /// Where keepers build their roots; `None` for a pool of spawners
    /// (keepers without namespaces or cgroups: the rlimit-only level).
    pub(crate) runtime: Option<tempfile::TempDir>,
    pub(crate) paths: SandboxPaths,
    pub(crate) user_namespace: bool,
    /// The judge's own cgroups (removed when dropped, after the keepers).
    pub(crate) cgroups: Option<cgroup::JudgeCgroups>,
    pub(crate) idle: std::sync::Mutex<Vec<isolated::Keeper>>,
    /// Idle keepers of package programs, with the package each shows.
    pub(crate) idle_packages:
        std::sync::Mutex<Vec<(std::sync::Arc<super::PackageView>, isolated::Keeper)>>,
    pub(crate) next_index: std::sync::atomic::AtomicUsize,
    /// Spawners only: the first one, started in the background when the
    /// sandbox is made, and whether it worked (learnt at the first run).
    pub(crate) first_spawner: FirstSpawner,
    /// How long a keeper looks for its next job before it sleeps.
    pub(crate) next_job_spin: Duration,
    /// How long a new keeper may take to be ready (judge.toml's
    /// `keeper_start`).
    pub(crate) keeper_start: Duration,
}

/// The first spawner of the rlimit-only level. Starting one (an exec of
/// this executable) takes about 2 ms, which was paid before anything else
/// of a judging could go on; now it starts while the judge loads the
/// problem, checks the build and plans the tests, and the first run waits
/// for it. If it does not start, runs are started by the judge itself, as
/// they were when the start was checked up front.
#[derive(Debug, Default)]
pub(crate) struct FirstSpawner {
    pub(crate) starting:
        std::sync::Mutex<Option<std::thread::JoinHandle<Result<isolated::Keeper, StartError>>>>,
    pub(crate) works: std::sync::OnceLock<bool>,
}

impl FirstSpawner {
    /// Waits for the start, once: the spawner if it started (`None` if it
    /// did not, or was already taken).
    fn wait(&self) -> Option<isolated::Keeper> {
        let starting = self.starting.lock().expect("not poisoned").take()?;
        starting.join().ok()?.ok()
    }
}

/// A spawner in use: back to the idle ones when dropped.
pub(crate) struct SpawnerLease<'a> {
    shared: &'a Shared,
    spawner: Option<isolated::Keeper>,
}

impl Drop for SpawnerLease<'_> {
    fn drop(&mut self) {
        if let Some(spawner) = self.spawner.take() {
            self.shared.idle.lock().expect("not poisoned").push(spawner);
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // A first spawner still starting is waited for, and killed with the rest.
        drop(self.first_spawner.wait());
        // Kill the keepers (and so every process of their namespaces) and
        // remove their cgroups; the judge's own cgroups go after them, when
        // `cgroups` is dropped.
        self.idle.lock().expect("not poisoned").clear();
        self.idle_packages.lock().expect("not poisoned").clear();
    }
}

impl Shared {
    /// Spawners for the rlimit-only level, the first starting in the
    /// background (see [`FirstSpawner`]).
    /// With `home`, the judging's CPU: the first spawner starts on the CPUs
    /// the judge had before it kept to `home`, and keeps to `home` once
    /// started.
    pub(super) fn spawners(
        paths: SandboxPaths,
        home: Option<usize>,
        keeper_start: Duration,
    ) -> Option<Shared> {
        let shared = Shared {
            runtime: None,
            paths,
            user_namespace: false,
            cgroups: None,
            idle: std::sync::Mutex::new(Vec::new()),
            idle_packages: std::sync::Mutex::new(Vec::new()),
            next_index: std::sync::atomic::AtomicUsize::new(0),
            first_spawner: FirstSpawner::default(),
            next_job_spin: Duration::ZERO,
            keeper_start,
        };
        let config = keeper::KeeperConfig {
            cpu: home,
            ..Self::spawner_config()
        };
        let cpus = home.and(sys::cpus_before_pin());
        let starting = std::thread::Builder::new()
            .name("judge-spawner-start".into())
            .spawn(move || isolated::Keeper::start(&config, None, None, None, cpus, keeper_start))
            .ok()?;
        *shared.first_spawner.starting.lock().expect("not poisoned") = Some(starting);
        Some(shared)
    }

    /// These spawners, once the first has started; `None` (runs are then
    /// started by the judge itself, with a copy of its memory) if it did not.
    pub(crate) fn ready_spawners(&self) -> Option<&Shared> {
        let works = self.first_spawner.works.get_or_init(|| {
            let Some(keeper) = self.first_spawner.wait() else {
                return false;
            };
            self.idle.lock().expect("not poisoned").push(keeper);
            true
        });
        works.then_some(self)
    }

    /// A new spawner (a keeper without namespaces or cgroups).
    pub(super) fn start_spawner(&self) -> Result<isolated::Keeper, StartError> {
        isolated::Keeper::start(
            &Self::spawner_config(),
            None,
            None,
            None,
            None,
            self.keeper_start,
        )
    }

    pub(crate) fn spawner_config() -> keeper::KeeperConfig {
        keeper::KeeperConfig {
            user_namespace: false,
            outer_ids: sys::ids(),
            root_dir: PathBuf::new(),
            view: None,
            run_as: None,
            cgroup: None,
            spawner: true,
            next_job_spin: Duration::ZERO,
            cpu: None,
        }
    }

    /// Has an idle spawner (or a new one) start `job` as a child of the
    /// judge; see `plain::spawn_here` for the result, here with the report pipe
    /// that tells of a failed exec (see [`isolated::late_exec_error`]). With
    /// `gate`, the child waits on it before exec'ing: its spawner, suspended
    /// meanwhile, stays with the returned lease until it is dropped.
    pub(crate) async fn spawn(
        &self,
        job: &keeper::Job,
        stdio: [std::os::fd::OwnedFd; 3],
        gate: Option<&std::os::fd::OwnedFd>,
    ) -> io::Result<(Spawned, SpawnerLease<'_>)> {
        // A spawner may have been killed meanwhile (at this level a run can
        // signal its siblings): then a new one, a few times. A spawner that
        // failed is dropped (killed), never reused.
        let mut problem = None;
        for _ in 0..3 {
            let idle = self.idle.lock().expect("not poisoned").pop();
            let mut spawner = match idle {
                Some(k) => k,
                None => match self.start_spawner() {
                    Ok(k) => k,
                    Err(e) => {
                        problem = Some(e);
                        continue;
                    }
                },
            };
            let (report, pipe) = spawner.spawn(job, &stdio, gate).await?;
            let lease = SpawnerLease {
                shared: self,
                spawner: (!matches!(report, sys::SpawnReport::Nothing)).then_some(spawner),
            };
            match report {
                sys::SpawnReport::Nothing => problem = Some(StartError::Died),
                sys::SpawnReport::Started(pid) => return Ok((Ok((pid, pipe)), lease)),
                sys::SpawnReport::ExecFailed(pid, e) => return Ok((Err((Some(pid), e)), lease)),
                sys::SpawnReport::NotStarted(e) => return Ok((Err((None, e)), lease)),
            }
        }
        Err(io::Error::other(format!(
            "{} (at the rlimit-only level a run can kill it: hostile code needs a stronger level)",
            problem.map(|p| p.to_string()).unwrap_or_default()
        )))
    }
}
