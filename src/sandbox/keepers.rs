//! A run through a keeper: starting the keeper a profile needs (with its
//! view, its cgroup slot, its staging directory), preparing the job (the
//! command line as the sandbox sees it, the limits, the environment), and
//! reading the result; a keeper that fails is replaced and the run tried
//! again.

use crate::sandbox::StartError;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::drain::Drains;
use super::named_files::{self, OutputFile, RunFiles};
use super::plain::{open_stdin, output_pipe, stdout_end};
use super::program::{env_entry, minimal_env};
use super::shared::Shared;
use super::types::{exit_of, Keep, COMPILE_PROCESSES, PACKAGE_PROCESSES};
use super::{
    address_space_backstop, cgroup, find_in_user_path, isolated, keeper, resolve_program, sys,
    untrusted, Environment, Exit, LimitHit, Profile, RunError, RunOutcome, RunRequest,
    RUN_PROCESSES,
};

impl Shared {
    pub(crate) fn start_keeper(&self, profile: &Profile) -> Result<isolated::Keeper, StartError> {
        let Some(runtime) = &self.runtime else {
            return self.start_spawner();
        };
        let index = self
            .next_index
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        // Every run has its slot: a package program is as untrusted as a
        // submission, and has limits of its own.
        let slot = match &self.cgroups {
            Some(judge) => Some(
                cgroup::SlotDirs::create(judge.version, &judge.dirs, index)
                    .map_err(StartError::Cgroup)?,
            ),
            None => None,
        };
        let root_dir = isolated::root_dir(runtime.path(), index).map_err(StartError::Root)?;
        let system = keeper::SYSTEM_DIRS.iter().map(|d| Path::new("/").join(d));
        let staging_error = |dir: &Path| {
            let dir = dir.to_path_buf();
            move |error| StartError::Staging { dir, error }
        };
        let (view, staging, package) = match profile {
            Profile::Submission => {
                let dir = self
                    .paths
                    .staging
                    .join(format!("judge-{}-slot-{index}", std::process::id()));
                let staging =
                    isolated::Staging::create(dir.clone()).map_err(staging_error(&dir))?;
                let view = keeper::View {
                    show: system.collect(),
                    hide: self.paths.hide.clone(),
                    build: Some(dir),
                    headers: None,
                    files: None,
                    package: Vec::new(),
                    work: None,
                    tmp_size: keeper::TMP_SIZE,
                };
                (view, Some(staging), None)
            }
            Profile::Compile {
                disk,
                toolchain,
                headers,
                ..
            } => {
                let view = keeper::View {
                    show: system.chain(toolchain.iter().cloned()).collect(),
                    hide: self.paths.hide.clone(),
                    build: None,
                    headers: headers.clone(),
                    files: None,
                    package: Vec::new(),
                    work: Some(*disk),
                    tmp_size: *disk,
                };
                (view, None, None)
            }
            Profile::Package(shown) => {
                let dir = self
                    .paths
                    .staging
                    .join(format!("judge-{}-pkg-{index}", std::process::id()));
                let package =
                    isolated::PackageStaging::create(dir.clone()).map_err(staging_error(&dir))?;
                let view = keeper::View {
                    show: system.collect(),
                    hide: self.paths.hide.clone(),
                    build: Some(dir.join("build")),
                    headers: None,
                    files: Some(dir.join("files")),
                    package: shown.dirs.clone(),
                    work: None,
                    tmp_size: PACKAGE_TMP_SIZE,
                };
                (view, None, Some(package))
            }
        };
        let (outer_uid, outer_gid) = sys::ids();
        let config = keeper::KeeperConfig {
            user_namespace: self.user_namespace,
            outer_ids: (outer_uid, outer_gid),
            root_dir,
            view: Some(view),
            // As root, every program becomes nobody; in a user namespace the
            // caller is already nobody there.
            run_as: (!self.user_namespace).then_some((keeper::RUN_ID, keeper::RUN_ID)),
            cgroup: slot.as_ref().map(|s| (s.version, s.dirs.clone())),
            spawner: false,
            next_job_spin: self.next_job_spin,
            cpu: None,
        };
        // Compilations and package programs do not keep to the judging's CPU.
        let cpus = match profile {
            Profile::Submission => None,
            Profile::Compile { .. } | Profile::Package(_) => sys::cpus_before_pin(),
        };
        isolated::Keeper::start(&config, slot, staging, package, cpus, self.keeper_start)
    }

    /// Runs `request` in a keeper. A keeper that fails (it died, or broke
    /// its protocol) is replaced and the run tried again, twice; one that
    /// says it could not clean up after the run is replaced too, and the
    /// run's result stands.
    pub(crate) async fn run(
        &self,
        request: &RunRequest,
        profile: &Profile,
        files: &RunFiles,
    ) -> Result<(RunOutcome, Option<OutputFile>), RunError> {
        let mut failures = Vec::new();
        loop {
            match self.run_once(request, profile, files).await {
                Err(KeeperFailure::Again(e)) if failures.len() < 2 => failures.push(e),
                Err(KeeperFailure::Again(e)) => {
                    failures.push(e);
                    return Err(RunError::Watch {
                        program: program_name(request),
                        source: io::Error::other(format!(
                            "the sandbox failed {} times: {}",
                            failures.len(),
                            failures
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join("; ")
                        )),
                    });
                }
                Err(KeeperFailure::Final(e)) => return Err(e),
                Ok(outcome) => return Ok(outcome),
            }
        }
    }

    async fn run_once(
        &self,
        request: &RunRequest,
        profile: &Profile,
        files: &RunFiles,
    ) -> Result<(RunOutcome, Option<OutputFile>), KeeperFailure> {
        let program = program_name(request);
        let final_err = |source: io::Error| {
            KeeperFailure::Final(RunError::Watch {
                program: program.clone(),
                source,
            })
        };
        // A keeper: an idle one for submissions and package programs (of
        // the same package), a fresh one-shot for a compilation.
        let idle = match profile {
            Profile::Submission => self.idle.lock().expect("not poisoned").pop(),
            Profile::Package(view) => {
                let mut idle = self.idle_packages.lock().expect("not poisoned");
                idle.iter()
                    .rposition(|(v, _)| v == view)
                    .map(|i| idle.remove(i).1)
            }
            Profile::Compile { .. } => None,
        };
        let mut keeper = match idle {
            Some(k) => k,
            None => self
                .start_keeper(profile)
                .map_err(|e| KeeperFailure::Again(Trouble::Start(e)))?,
        };
        let cannot_show = |dir: &Path, e: io::Error| {
            final_err(io::Error::new(
                e.kind(),
                format!("cannot show {} to the run: {e}", dir.display()),
            ))
        };
        // What the run sees of the host's paths in its command line.
        let mounts: Vec<(PathBuf, String)> = match (profile, &mut keeper) {
            (Profile::Submission, keeper) => match (&request.program_dir, &mut keeper.staging) {
                (Some(dir), Some(staging)) => {
                    staging.hold(dir).map_err(|e| cannot_show(dir, e))?;
                    vec![(dir.clone(), keeper::BUILD_MOUNT.to_string())]
                }
                _ => Vec::new(),
            },
            (Profile::Package(view), keeper) => {
                let Some(staging) = keeper.package.as_mut() else {
                    unreachable!("a package program's keeper stages its files")
                };
                let user_namespace = self.user_namespace;
                let readable = |meta: &std::fs::Metadata| {
                    use std::os::unix::fs::MetadataExt;
                    meta.mode() & 0o004 != 0
                        || (user_namespace
                            && meta.uid() == sys::ids().0
                            && meta.mode() & 0o400 != 0)
                };
                // Files of the package it may read are where they are.
                let staged: Vec<PathBuf> = request
                    .exchange
                    .files
                    .iter()
                    .filter(|f| {
                        !(view.dirs.iter().any(|d| f.starts_with(d))
                            && std::fs::metadata(f).is_ok_and(|m| readable(&m)))
                    })
                    .cloned()
                    .collect();
                let mut mounts = staging
                    .files
                    .hold_files(&staged, keeper::FILES_MOUNT, readable)
                    .map_err(|e| cannot_show(&request.cwd, e))?;
                mounts.extend(
                    view.dirs
                        .iter()
                        .enumerate()
                        .map(|(i, d)| (d.clone(), keeper::package_mount(i))),
                );
                if let Some(dir) = &request.program_dir {
                    staging.build.hold(dir).map_err(|e| cannot_show(dir, e))?;
                    mounts.push((dir.clone(), keeper::BUILD_MOUNT.to_string()));
                }
                mounts.push((request.cwd.clone(), "/tmp".to_string()));
                mounts
            }
            (Profile::Compile { headers, .. }, keeper) => {
                let work = keeper
                    .root()
                    .join(keeper::WORK_MOUNT.trim_start_matches('/'));
                copy_in(&request.cwd, &work)
                    .map_err(|e| KeeperFailure::Again(Trouble::CopyIn(e)))?;
                let mut mounts = vec![(request.cwd.clone(), keeper::WORK_MOUNT.to_string())];
                mounts.extend(
                    headers
                        .iter()
                        .map(|h| (h.clone(), keeper::HEADERS_MOUNT.to_string())),
                );
                mounts
            }
        };
        let limits = request.limits;
        let (memory, processes) = match profile {
            Profile::Submission => (limits.memory, RUN_PROCESSES),
            Profile::Compile { memory, .. } => (Some(*memory), COMPILE_PROCESSES),
            Profile::Package(_) => (limits.memory, PACKAGE_PROCESSES),
        };
        let argv0 = match request.environment {
            Environment::Minimal(_) => resolve_program(&request.argv[0]),
            Environment::Inherit => find_in_user_path(&request.argv[0]),
        };
        let argv: Vec<Vec<u8>> = std::iter::once(&argv0)
            .chain(&request.argv[1..])
            .map(|a| keeper::translate(a.as_encoded_bytes(), &mounts))
            .collect();
        let inner_cwd = match profile {
            Profile::Submission | Profile::Package(_) => PathBuf::from("/tmp"),
            Profile::Compile { .. } => PathBuf::from(keeper::WORK_MOUNT),
        };
        let env: Vec<Vec<u8>> = match &request.environment {
            Environment::Minimal(extra) => minimal_env(Path::new("/tmp"), extra),
            Environment::Inherit => std::env::vars_os().collect(),
        }
        .iter()
        .map(|(k, v)| env_entry(k, v))
        .collect();
        let cgroup_memory = keeper.slot.is_some();
        let package = matches!(profile, Profile::Package(_));
        let exchange = match package {
            true => request.exchange.clone(),
            false => super::Exchange::default(),
        };
        let job = keeper::Job {
            argv,
            env,
            cwd: inner_cwd,
            cpu_limit: limits.cpu_time,
            wall_limit: limits.wall_time,
            rlimits: sys::Rlimits {
                cpu_seconds: Some(sys::cpu_rlimit_backstop(limits.cpu_time)),
                // With a cgroup the memory limit is on real memory, not address space.
                address_space: if cgroup_memory {
                    None
                } else {
                    memory
                        .filter(|_| limits.address_space)
                        .map(address_space_backstop)
                },
                stack: match profile {
                    Profile::Submission | Profile::Package(_) => memory,
                    Profile::Compile { .. } => None,
                },
                file_size: Some(limits.file_size),
                open_files: Some(1024),
            },
            processes: (!cgroup_memory).then_some(processes),
            memory,
            // Init lives in the slot too: one more than the run's share.
            pids: processes + 1,
            make_dirs: exchange.dirs,
            keep_max: limits.file_size,
            keep: exchange.keep,
            keep_dirs: exchange.keep_dirs,
            fill: exchange.fill.iter().map(|(_, dir)| dir.clone()).collect(),
            input_file: files.input.as_ref().map(|(name, _)| name.clone()),
            output_file: files.output.as_ref().map(|(name, _)| name.clone()),
            raise_priority: matches!(profile, Profile::Submission),
        };
        // The named files travel as descriptors after stdio: the input's,
        // then the output's sink; the keeper copies inside.
        let mut named = Vec::new();
        if let Some((_, host)) = &files.input {
            let input = std::fs::File::open(host).map_err(|e| {
                final_err(io::Error::new(
                    e.kind(),
                    format!("cannot open {}: {e}", host.display()),
                ))
            })?;
            named.push(input.into());
        }
        if let Some((_, sink)) = &files.output {
            named.push(named_files::create_sink(sink).map_err(final_err)?.into());
        }
        let stdin = open_stdin(&request.stdin, &program).map_err(KeeperFailure::Final)?;
        let (out_read, out_write) = output_pipe().map_err(final_err)?;
        let out_write = stdout_end(request, out_write, &program).map_err(KeeperFailure::Final)?;
        let (err_read, err_write) = output_pipe().map_err(final_err)?;
        let mut fds = vec![stdin.into(), out_write, err_write];
        fds.extend(named);
        if job.keeps() {
            let into =
                untrusted::Dir::open(&request.cwd).map_err(|e| cannot_show(&request.cwd, e))?;
            fds.push(into.into_fd());
        }
        for (host, _) in &exchange.fill {
            let from = untrusted::Dir::open(host).map_err(|e| cannot_show(host, e))?;
            fds.push(from.into_fd());
        }
        let (mut drains, mut exceeded) =
            Drains::start(out_read, err_read, &limits, request.stdout_spill.clone());
        let result = {
            let run = keeper.run(&job, fds, exceeded.wait());
            tokio::pin!(run);
            loop {
                tokio::select! {
                    result = &mut run => break result,
                    _ = drains.progress() => {}
                }
            }
        };
        let result = match result {
            Ok(r) => r,
            Err(e) => {
                drop(keeper); // broken: never reused
                return Err(KeeperFailure::Again(Trouble::Lost(e)));
            }
        };
        let drained = drains.finish().await.map_err(final_err)?;
        let mut keep_error = result.keep_error.clone();
        match profile {
            Profile::Compile { keep, .. } => {
                let work = keeper
                    .root()
                    .join(keeper::WORK_MOUNT.trim_start_matches('/'));
                keep_error = copy_out(&work, &request.cwd, keep).map_err(|e| {
                    final_err(io::Error::new(
                        e.kind(),
                        format!("cannot copy the compilation's files out of the sandbox: {e}"),
                    ))
                })?;
            }
            // A keeper that could not clean up after this run exits; its
            // next job then fails and is run again by a new keeper.
            Profile::Submission => self.idle.lock().expect("not poisoned").push(keeper),
            Profile::Package(view) => {
                let mut idle = self.idle_packages.lock().expect("not poisoned");
                idle.push((std::sync::Arc::clone(view), keeper));
                // Keepers of packages no longer judged give way.
                if idle.len() > IDLE_PACKAGE_KEEPERS {
                    idle.remove(0);
                }
            }
        }
        if let Some(error) = result.spawn_error {
            return Err(KeeperFailure::Final(RunError::Spawn {
                program,
                source: io::Error::other(error),
            }));
        }
        let mut limit_hit = match result.stopped {
            Some(keeper::Stopped::CpuTime) => Some(LimitHit::CpuTime),
            Some(keeper::Stopped::WallTime) => Some(LimitHit::WallTime),
            Some(keeper::Stopped::Asked) | None => None,
        };
        if drained.stdout_over {
            // A time limit reached first decides (see `output_ends_run`).
            limit_hit.get_or_insert(LimitHit::Output);
        }
        let exit = exit_of(result.code, result.signal);
        if limit_hit.is_none() && exit == Exit::Signal(sys::signals::SIGXFSZ) {
            limit_hit = Some(LimitHit::Output);
        }
        let (cpu_time, peak_memory_kib, memory_exceeded, process_limit_hit) = match result.usage {
            Some(u) => (
                Duration::from_nanos(u.cpu_ns),
                u.peak_bytes / 1024,
                u.oom_killed,
                u.pids_limited,
            ),
            None => (result.cpu_time, result.max_rss_kib, false, false),
        };
        if limit_hit.is_none() && exit == Exit::Signal(sys::signals::SIGXCPU) {
            limit_hit = Some(LimitHit::CpuTime);
        }
        let output_file = files.output.as_ref().map(|(_, sink)| {
            result
                .output_file
                .unwrap_or(named_files::Collected::Missing)
                .into_output(sink)
        });
        let outcome = RunOutcome {
            exit,
            limit_hit,
            cpu_time,
            wall_time: result.wall_time,
            peak_memory_kib,
            stdout: drained.stdout,
            stderr: drained.stderr,
            stderr_truncated: drained.stderr_truncated,
            memory_exceeded,
            process_limit_hit,
            ended_ns: result.ended_ns,
            waited_for_cpu: result.waited_for_cpu,
            keep_error,
        };
        Ok((outcome, output_file))
    }
}

/// Idle keepers of package programs kept for later runs, of any package.
const IDLE_PACKAGE_KEEPERS: usize = 8;

/// Size of a package program's /tmp (and /dev/shm): its pages count as its
/// memory.
const PACKAGE_TMP_SIZE: u64 = 512 << 20;

/// Copies a compilation's sources (the judge's own files) into its work
/// directory in the sandbox.
pub(super) fn copy_in(from: &Path, to: &Path) -> io::Result<()> {
    let limits = untrusted::TreeLimits {
        bytes: u64::MAX,
        files: u64::MAX,
        depth: 64,
    };
    untrusted::copy_tree(
        &untrusted::Dir::open(from)?,
        &untrusted::Dir::open(to)?,
        &untrusted::Select::AllBut(Vec::new()),
        limits,
    )
    .map_err(|e| io::Error::other(e.to_string()))
}

/// Copies what `keep` keeps of a compilation's work directory `from` (what
/// the compilation left: hostile) into `to`: `Ok(Some(why))` when it
/// exceeds the limits or cannot be read (the build is then refused).
pub(super) fn copy_out(from: &Path, to: &Path, keep: &Keep) -> io::Result<Option<String>> {
    let from = untrusted::Dir::open(from)?;
    let to = untrusted::Dir::open(to)?;
    Ok(untrusted::copy_tree(&from, &to, &keep.select, keep.limits)
        .err()
        .map(|e| format!("what the compilation left cannot be kept: {e}")))
}

/// How a run through a keeper failed.
enum KeeperFailure {
    /// The keeper failed (it died, or broke its protocol): a new one may do.
    Again(Trouble),
    /// The run itself cannot be done.
    Final(RunError),
}

/// What went wrong with a keeper.
#[derive(Debug, thiserror::Error)]
enum Trouble {
    /// A new one did not start.
    #[error(transparent)]
    Start(StartError),
    /// A compilation's files could not be given to it.
    #[error("cannot copy the sources into the sandbox: {0}")]
    CopyIn(io::Error),
    /// It stopped answering, or answered nonsense.
    #[error("{0}")]
    Lost(io::Error),
}

/// The program of a request, for messages.
fn program_name(request: &RunRequest) -> String {
    request
        .argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}
