//! The sandbox: a pool of keepers (one per concurrent run, reused run after
//! run; one per compilation) or, at the `rlimit-only` level, of spawners, and
//! running a request through one. The main type is [`Sandbox`].

use crate::sandbox::SetupError;
use crate::sandbox::Unavailable;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::cpu::HomeCpu;
use super::named_files::{self, OutputFile, RunFiles};
use super::plain::run_plain;
use super::program::resolve_program;
use super::shared::{FirstSpawner, Shared};
use super::{
    cgroup, keeper, sys, untrusted, CpuChoice, Isolation, IsolationMode, Profile, RunError,
    RunOutcome, RunRequest, SandboxPaths, Turn,
};

/// How long a keeper looks for its next job before it sleeps, when at most
/// `parallel_runs` run at a time: a short spin when a CPU is left over for
/// it, which takes tens of microseconds off each hand-over from one run to
/// the next (see `docs/performance.md`); none when every CPU may be running
/// a program, whose CPU the spin would take, nor when the judging keeps to
/// one CPU (`pinned`), which the keeper shares with the program.
fn next_job_spin(parallel_runs: usize, pinned: bool) -> Duration {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if parallel_runs < cpus && !pinned {
        Duration::from_micros(250)
    } else {
        Duration::ZERO
    }
}

/// Runs hostile code at the strongest isolation level available. Create one
/// per judge run; dropping it kills the keepers and removes their cgroups.
#[derive(Debug)]
pub(crate) struct Sandbox {
    pub(crate) level: Isolation,
    pub(crate) warning: Option<String>,
    /// What the level fallen back to does not protect (`auto` only).
    pub(crate) gaps: Option<&'static str>,
    pub(crate) shared: Option<Shared>,
    /// Dropped last: the keepers are gone before the thread's CPUs return.
    pub(crate) _home: Option<HomeCpu>,
}

impl Sandbox {
    /// Sets up the sandbox for at most `parallel_runs` runs at a time; with
    /// [`IsolationMode::Strict`], fails with the reason when full isolation
    /// cannot be had.
    ///
    /// With one run at a time, the calling thread (the runtime's) is pinned
    /// to one CPU for the sandbox's life, as `cpu` says (see [`HomeCpu`]).
    /// A new keeper that is not ready within `keeper_start` is a failed start.
    pub(crate) fn new(
        mode: IsolationMode,
        paths: SandboxPaths,
        parallel_runs: usize,
        cpu: CpuChoice,
        keeper_start: Duration,
    ) -> Result<Sandbox, SetupError> {
        // First: the keepers and spawners started below inherit the pin.
        let home = HomeCpu::choose(cpu, parallel_runs)?;
        if mode == IsolationMode::None {
            return Ok(Sandbox {
                level: Isolation::RlimitOnly,
                warning: None,
                gaps: None,
                shared: Shared::spawners(paths, home.as_ref().map(|h| h.cpu), keeper_start),
                _home: home,
            });
        }
        let is_root = sys::ids().0 == 0;
        let runtime = tempfile::Builder::new()
            .prefix(&format!("judge-sandbox-{}-", std::process::id()))
            .tempdir_in("/tmp")
            .map_err(SetupError::RuntimeDir)?;
        let (cgroups, cgroup_problem) = match cgroup::JudgeCgroups::create(sys::ids().0) {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(Unavailable::Cgroups(e))),
        };
        let mut shared = Shared {
            runtime: Some(runtime),
            paths,
            user_namespace: !is_root,
            cgroups,
            idle: std::sync::Mutex::new(Vec::new()),
            idle_packages: std::sync::Mutex::new(Vec::new()),
            next_index: std::sync::atomic::AtomicUsize::new(0),
            first_spawner: FirstSpawner::default(),
            next_job_spin: next_job_spin(parallel_runs, home.is_some()),
            keeper_start,
        };
        // Probe with a real keeper, kept for the first run: full isolation,
        // else namespaces without cgroups, else the plain runner.
        let mut problems: Vec<Unavailable> = cgroup_problem.into_iter().collect();
        if shared.cgroups.is_some() {
            match probe(&shared) {
                Ok(keeper) => {
                    let version = shared.cgroups.as_ref().map(|c| c.version);
                    let version = version.expect("checked above");
                    shared.idle.lock().expect("not poisoned").push(keeper);
                    return Ok(Sandbox {
                        level: Isolation::Cgroup(version),
                        warning: None,
                        gaps: None,
                        shared: Some(shared),
                        _home: home,
                    });
                }
                Err(e) => problems.push(Unavailable::CgroupKeeper(e)),
            }
            shared.cgroups = None;
        }
        let (level, shared) = match probe(&shared) {
            Ok(keeper) => {
                shared.idle.lock().expect("not poisoned").push(keeper);
                (Isolation::Namespaces, Some(shared))
            }
            Err(e) => {
                let denied = (!is_root).then(super::userns::denial).flatten();
                problems.push(match denied {
                    Some(why) => Unavailable::UserNamespaces(why),
                    None => Unavailable::Namespaces(e),
                });
                (
                    Isolation::RlimitOnly,
                    Shared::spawners(
                        shared.paths.clone(),
                        home.as_ref().map(|h| h.cpu),
                        keeper_start,
                    ),
                )
            }
        };
        if mode == IsolationMode::Strict {
            return Err(SetupError::Unavailable(problems));
        }
        let why: Vec<String> = problems.iter().map(ToString::to_string).collect();
        let why = why.join("; ");
        let gaps = level.gaps();
        Ok(Sandbox {
            level,
            warning: Some(format!(
                "isolation level `{}` is weaker than full: {why}; at this level {}",
                level.as_str(),
                gaps.unwrap_or_default()
            )),
            gaps,
            shared,
            _home: home,
        })
    }

    /// The isolation level runs get.
    pub(crate) fn isolation(&self) -> Isolation {
        self.level
    }

    /// Why `program` (as a command names it) cannot be run in this sandbox
    /// when its compilations or runs see, besides the system's directories,
    /// `extra`: it resolves to a file outside them. `None` when it can (or
    /// when it is not found at all: starting it says so).
    pub(crate) fn hidden_program(&self, program: &OsString, extra: &[PathBuf]) -> Option<String> {
        if self.level == Isolation::RlimitOnly {
            return None;
        }
        let resolved = resolve_program(program);
        let real = std::fs::canonicalize(&resolved).ok()?;
        let shown: Vec<PathBuf> = keeper::SYSTEM_DIRS
            .iter()
            .map(|d| Path::new("/").join(d))
            .chain(extra.iter().cloned())
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .collect();
        if shown.iter().any(|d| real.starts_with(d)) {
            return super::program::hidden_interpreter(&real, &shown);
        }
        Some(format!(
            "`{}` is {}, outside the directories the sandbox shows ({}); install it \
             there, or name its directory in the language's `toolchain` or \
             `toolchain_dirs` in judge.toml",
            resolved.to_string_lossy(),
            real.display(),
            shown
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ))
    }

    /// What the level `auto` fell back to does not protect (`None` at full
    /// isolation, or at the level asked for with `--isolation none`).
    pub(crate) fn gaps(&self) -> Option<&'static str> {
        self.gaps
    }

    /// Why the level is weaker than full, for a warning.
    pub(crate) fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Runs `request` under the sandbox as `profile`.
    pub(crate) async fn run(
        &self,
        request: &RunRequest,
        profile: Profile,
    ) -> Result<RunOutcome, RunError> {
        self.run_in_turn(request, profile, &mut Turn::now()).await
    }

    /// Runs `request` once `turn` has come (a slot is free, say), prepared
    /// before where that saves time then: at the rlimit-only level the
    /// program is started and waits, ready to exec, for its turn.
    pub(crate) async fn run_in_turn<T>(
        &self,
        request: &RunRequest,
        profile: Profile,
        turn: &mut Turn<'_, T>,
    ) -> Result<RunOutcome, RunError> {
        let none = RunFiles::default();
        let (outcome, _) = self.run_with_files(request, profile, turn, &none).await?;
        Ok(outcome)
    }

    /// [`Sandbox::run_in_turn`] of a submission that reads and writes named
    /// files in its working directory (see [`RunFiles`]): what it left under
    /// the output's name comes back beside the outcome.
    pub(crate) async fn run_with_files<T>(
        &self,
        request: &RunRequest,
        profile: Profile,
        turn: &mut Turn<'_, T>,
        files: &RunFiles,
    ) -> Result<(RunOutcome, Option<OutputFile>), RunError> {
        if let Err(source) = files.check() {
            let program = request.argv[0].to_string_lossy().into_owned();
            return Err(RunError::Spawn { program, source });
        }
        match &self.shared {
            Some(shared) if shared.runtime.is_some() => {
                turn.come().await;
                shared.run(request, &profile, files).await
            }
            // Spawners start submissions (measured runs); compilations and
            // package programs are started by the judge itself.
            shared => match &profile {
                Profile::Submission => {
                    let spawners = shared.as_ref().and_then(|s| s.ready_spawners());
                    run_plain_with_files(request, spawners, true, turn, files).await
                }
                Profile::Compile { keep, .. } => {
                    Ok((compile_plain(request, keep, turn).await?, None))
                }
                Profile::Package(_) => {
                    for dir in &request.exchange.dirs {
                        let path = request.cwd.join(dir);
                        std::fs::create_dir_all(&path).map_err(|source| RunError::Spawn {
                            program: format!("{} (making {})", program_of(request), path.display()),
                            source,
                        })?;
                    }
                    fill_plain(request)?;
                    let (mut outcome, output) =
                        run_plain_with_files(request, None, false, turn, files).await?;
                    if let Err(e) = keep_dirs_plain(request) {
                        outcome.keep_error.get_or_insert(e);
                    }
                    Ok((outcome, output))
                }
            },
        }
    }
}

/// Starts the keeper that probes a level of isolation. One that exited
/// before it was ready (killed meanwhile: a passing failure, unlike one
/// that says why it cannot) is started once more before the level is
/// taken for unavailable.
fn probe(shared: &Shared) -> Result<super::isolated::Keeper, super::StartError> {
    match shared.start_keeper(&Profile::Submission) {
        Err(super::StartError::Exited(_)) => shared.start_keeper(&Profile::Submission),
        started => started,
    }
}

fn program_of(request: &RunRequest) -> String {
    request
        .argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A compilation by the plain runner, as in a keeper: it works in its work
/// directory (the request's `cwd`, so that its messages name it), which
/// then holds its sources again and only what `keep` keeps of what it left.
async fn compile_plain<T>(
    request: &RunRequest,
    keep: &super::Keep,
    turn: &mut Turn<'_, T>,
) -> Result<RunOutcome, RunError> {
    let failed = |source: io::Error| RunError::Watch {
        program: program_of(request),
        source,
    };
    let parent = request.cwd.parent().unwrap_or(Path::new("/tmp"));
    let aside = |what: &str| {
        tempfile::Builder::new()
            .prefix(&format!("work-{}-{what}-", std::process::id()))
            .tempdir_in(parent)
            .map_err(failed)
    };
    let sources = aside("sources")?;
    super::keepers::copy_in(&request.cwd, sources.path()).map_err(failed)?;
    let mut outcome = run_plain(request, None, false, turn).await?;
    // What it left goes aside; the sources come back, and what it keeps.
    let left = aside("left")?;
    std::fs::rename(&request.cwd, left.path().join("work")).map_err(failed)?;
    std::fs::rename(sources.path(), &request.cwd).map_err(failed)?;
    outcome.keep_error =
        super::keepers::copy_out(&left.path().join("work"), &request.cwd, keep).map_err(failed)?;
    let _ = super::empty_dir(left.path());
    Ok(outcome)
}

/// What a folder of [`super::Exchange::keep_dirs`] or
/// [`super::Exchange::fill`] may hold, for a run of `request`.
fn dir_limits(request: &RunRequest) -> untrusted::TreeLimits {
    untrusted::TreeLimits {
        bytes: request.limits.file_size,
        files: super::KEPT_DIR_FILES,
        depth: 0,
    }
}

/// Copies the regular files of each host folder of the request's
/// [`super::Exchange::fill`] into its folder in `cwd`, as a keeper does.
fn fill_plain(request: &RunRequest) -> Result<(), RunError> {
    for (host, dir) in &request.exchange.fill {
        let to = request.cwd.join(dir);
        let copied = untrusted::Dir::open(host)
            .and_then(|from| Ok((from, untrusted::Dir::open(&to)?)))
            .map_err(|e| e.to_string())
            .and_then(|(from, to)| {
                untrusted::copy_files(&from, &to, dir_limits(request), None)
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = copied {
            return Err(RunError::Spawn {
                program: format!("{} (filling {})", program_of(request), to.display()),
                source: io::Error::other(e),
            });
        }
    }
    Ok(())
}

/// Leaves in each folder of the request's [`super::Exchange::keep_dirs`]
/// only what a keeper would copy back: its regular files, within the
/// bounds (links, pipes and folders go; more is the error returned).
fn keep_dirs_plain(request: &RunRequest) -> Result<(), String> {
    for dir in &request.exchange.keep_dirs {
        let kept = request.cwd.join(dir);
        let failed = |e: &dyn std::fmt::Display| format!("`{dir}`: {e}");
        let left = tempfile::Builder::new()
            .prefix(&format!("left-{}-", std::process::id()))
            .tempdir_in(&request.cwd)
            .map_err(|e| failed(&e))?;
        match std::fs::rename(&kept, left.path().join("dir")) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(failed(&e)),
        }
        std::fs::create_dir(&kept).map_err(|e| failed(&e))?;
        // (What it left under the name may be a link: not followed.)
        let copied = untrusted::Dir::open(left.path())
            .and_then(|left| left.dir(std::ffi::OsStr::new("dir")))
            .and_then(|from| Ok((from, untrusted::Dir::open(&kept)?)))
            .map_err(|e| failed(&e))
            .and_then(|(from, to)| {
                untrusted::copy_files(&from, &to, dir_limits(request), None).map_err(|e| failed(&e))
            });
        let _ = super::empty_dir(left.path());
        copied?;
    }
    Ok(())
}

/// A run started by the judge or a spawner, in its working directory
/// (`request.cwd`, the judge's own scratch directory) with its named files.
async fn run_plain_with_files<T>(
    request: &RunRequest,
    spawners: Option<&Shared>,
    timed: bool,
    turn: &mut Turn<'_, T>,
    files: &RunFiles,
) -> Result<(RunOutcome, Option<OutputFile>), RunError> {
    let program = || request.argv[0].to_string_lossy().into_owned();
    if let Some((name, host)) = &files.input {
        std::fs::File::open(host)
            .and_then(|input| named_files::place(&request.cwd, name, input))
            .map_err(|source| RunError::Spawn {
                program: program(),
                source: io::Error::new(
                    source.kind(),
                    format!("cannot give the run its input file `{name}`: {source}"),
                ),
            })?;
    }
    let outcome = run_plain(request, spawners, timed, turn).await?;
    let output = match &files.output {
        None => None,
        Some((name, sink)) => Some(
            named_files::collect_to(&request.cwd, name, request.limits.file_size, sink).map_err(
                |source| RunError::Watch {
                    program: program(),
                    source,
                },
            )?,
        ),
    };
    Ok((outcome, output))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::testing::plain_paths;
    use crate::sandbox::Environment;
    use crate::sandbox::Limits;
    use crate::sandbox::Stdin;

    /// The first spawner starts in the background and the first run waits
    /// for it; one that did not start (here: this test executable cannot be
    /// a keeper) leaves runs to the judge itself, which still get their
    /// output, and is not waited for again.
    #[test]
    fn a_first_spawner_that_does_not_start_leaves_runs_to_the_judge() {
        let request = |dir: &Path| RunRequest {
            argv: vec!["/bin/echo".into(), "hi".into()],
            cwd: dir.to_path_buf(),
            stdin: Stdin::Null,
            stdout_spill: None,
            stdout_to: None,
            environment: Environment::Minimal(Vec::new()),
            program_dir: None,
            exchange: Default::default(),
            limits: Limits {
                cpu_time: Duration::from_secs(5),
                wall_time: Duration::from_secs(10),
                memory: None,
                address_space: false,
                stdout: 1 << 20,
                stderr: 1 << 20,
                file_size: 1 << 20,
                output_ends_run: true,
            },
        };
        let dir = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let shared = Shared::spawners(plain_paths(), None, Duration::from_secs(20))
            .expect("a thread to start it");
        let sandbox = Sandbox {
            level: Isolation::RlimitOnly,
            warning: None,
            gaps: None,
            shared: Some(shared),
            _home: None,
        };
        let outcome = runtime
            .block_on(sandbox.run(&request(dir.path()), Profile::Submission))
            .unwrap();
        assert_eq!(outcome.stdout.to_vec().unwrap(), b"hi\n");
        let shared = sandbox.shared.as_ref().unwrap();
        assert_eq!(shared.first_spawner.works.get(), Some(&false));
        assert!(shared.idle.lock().unwrap().is_empty());
        assert!(shared.first_spawner.starting.lock().unwrap().is_none());
        let again = runtime
            .block_on(sandbox.run(&request(dir.path()), Profile::Submission))
            .unwrap();
        assert_eq!(again.stdout.to_vec().unwrap(), b"hi\n");
    }

    /// Keepers spin for their next job only when a CPU is left over, and
    /// never beside a judging kept to one CPU.
    #[test]
    fn keepers_spin_only_with_a_spare_cpu() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(next_job_spin(cpus, false), Duration::ZERO);
        assert_eq!(next_job_spin(cpus + 1, false), Duration::ZERO);
        assert!(next_job_spin(cpus - 1, false) > Duration::ZERO);
        assert_eq!(next_job_spin(cpus - 1, true), Duration::ZERO);
        assert_eq!(next_job_spin(1, true), Duration::ZERO);
    }
}
