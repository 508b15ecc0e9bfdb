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
use super::pool::Shared;
use super::program::{env_entry, minimal_env};
use super::types::{exit_of, COMPILE_PROCESSES};
use super::{
    address_space_backstop, cgroup, find_in_user_path, isolated, keeper, resolve_program, sys,
    Environment, Exit, LimitHit, Profile, RunError, RunOutcome, RunRequest, RUN_PROCESSES,
};

impl Shared {
    pub(crate) fn start_keeper(&self, profile: &Profile) -> Result<isolated::Keeper, StartError> {
        let Some(runtime) = &self.runtime else {
            return isolated::Keeper::start(&Self::spawner_config(), None, None, None);
        };
        let index = self
            .next_index
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        // Package programs get no cgroup: they are trusted, and neither
        // their memory nor the CPU of their children is judged.
        let slot = match (&self.cgroups, profile) {
            (Some(judge), Profile::Submission | Profile::Compile { .. }) => Some(
                cgroup::SlotDirs::create(judge.version, &judge.dirs, index)
                    .map_err(StartError::Cgroup)?,
            ),
            _ => None,
        };
        let root_dir = isolated::root_dir(runtime.path(), index).map_err(StartError::Root)?;
        let system = keeper::SYSTEM_DIRS.iter().map(|d| Path::new("/").join(d));
        let (view, staging) = match profile {
            Profile::Submission => {
                let dir = self
                    .paths
                    .staging
                    .join(format!("judge-{}-slot-{index}", std::process::id()));
                let staging = isolated::Staging::create(dir.clone()).map_err(|error| {
                    StartError::Staging {
                        dir: dir.clone(),
                        error,
                    }
                })?;
                let view = keeper::View {
                    show: system.collect(),
                    hide: self.paths.hide.clone(),
                    build: Some(dir),
                    headers: None,
                    work: None,
                    tmp_size: keeper::TMP_SIZE,
                };
                (Some(view), Some(staging))
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
                    work: Some(*disk),
                    tmp_size: *disk,
                };
                (Some(view), None)
            }
            Profile::Package => (None, None),
        };
        let (outer_uid, outer_gid) = sys::ids();
        let config = keeper::KeeperConfig {
            user_namespace: self.user_namespace,
            outer_ids: (outer_uid, outer_gid),
            root_dir,
            view,
            // As root, runs and compilations become nobody; in a user
            // namespace the caller is already nobody there. Package programs
            // stay the judge's user.
            run_as: (!self.user_namespace && *profile != Profile::Package)
                .then_some((keeper::RUN_ID, keeper::RUN_ID)),
            cgroup: slot.as_ref().map(|s| (s.version, s.dirs.clone())),
            spawner: false,
            next_job_spin: self.next_job_spin,
            cpu: None,
        };
        // Compilations do not keep to the judging's CPU.
        let cpus = match profile {
            Profile::Submission => None,
            Profile::Compile { .. } | Profile::Package => sys::cpus_before_pin(),
        };
        isolated::Keeper::start(&config, slot, staging, cpus)
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
        let submission = *profile == Profile::Submission;
        // A keeper: an idle one for submissions and package programs, a
        // fresh one-shot for a compilation.
        let pool = match profile {
            Profile::Submission => Some(&self.idle),
            Profile::Package => Some(&self.idle_packages),
            Profile::Compile { .. } => None,
        };
        let idle = pool.and_then(|pool| pool.lock().expect("not poisoned").pop());
        let mut keeper = match idle {
            Some(k) => k,
            None => self
                .start_keeper(profile)
                .map_err(|e| KeeperFailure::Again(Trouble::Start(e)))?,
        };
        // What the run sees of the host's paths in its command line.
        let mounts = match (profile, &request.program_dir, &mut keeper.staging) {
            (Profile::Submission, Some(dir), Some(staging)) => {
                staging.hold(dir).map_err(|e| {
                    final_err(io::Error::new(
                        e.kind(),
                        format!("cannot show {} to the run: {e}", dir.display()),
                    ))
                })?;
                vec![(dir.clone(), keeper::BUILD_MOUNT)]
            }
            (Profile::Submission | Profile::Package, _, _) => Vec::new(),
            (Profile::Compile { headers, .. }, _, _) => {
                let work = keeper
                    .root()
                    .join(keeper::WORK_MOUNT.trim_start_matches('/'));
                copy_tree(&request.cwd, &work)
                    .map_err(|e| KeeperFailure::Again(Trouble::CopyIn(e)))?;
                let mut mounts = vec![(request.cwd.clone(), keeper::WORK_MOUNT)];
                mounts.extend(headers.iter().map(|h| (h.clone(), keeper::HEADERS_MOUNT)));
                mounts
            }
        };
        let limits = request.limits;
        let (memory, processes) = match profile {
            Profile::Submission => (limits.memory, RUN_PROCESSES),
            Profile::Compile { memory, .. } => (Some(*memory), COMPILE_PROCESSES),
            Profile::Package => (limits.memory, COMPILE_PROCESSES),
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
            Profile::Submission => PathBuf::from("/tmp"),
            Profile::Compile { .. } => PathBuf::from(keeper::WORK_MOUNT),
            Profile::Package => request.cwd.clone(),
        };
        let home = match profile {
            Profile::Package => inner_cwd.as_path(),
            _ => Path::new("/tmp"),
        };
        let env: Vec<Vec<u8>> = match &request.environment {
            Environment::Minimal(extra) => minimal_env(home, extra),
            Environment::Inherit => std::env::vars_os().collect(),
        }
        .iter()
        .map(|(k, v)| env_entry(k, v))
        .collect();
        let cgroup_memory = keeper.slot.is_some();
        let job = keeper::Job {
            argv,
            env,
            cwd: inner_cwd,
            cpu_limit: limits.cpu_time,
            wall_limit: limits.wall_time,
            rlimits: sys::Rlimits {
                cpu_seconds: Some(limits.cpu_time.as_secs().saturating_add(1)),
                // With a cgroup the memory limit is on real memory, not address space.
                address_space: if cgroup_memory {
                    None
                } else {
                    memory
                        .filter(|_| limits.address_space)
                        .map(address_space_backstop)
                },
                stack: if submission { memory } else { None },
                file_size: Some(limits.file_size),
                open_files: Some(1024),
            },
            processes: (!cgroup_memory).then_some(processes),
            memory,
            // Init lives in the slot too: one more than the run's share.
            pids: processes + 1,
            input_file: files.input.as_ref().map(|(name, _)| name.clone()),
            output_file: files.output.as_ref().map(|(name, _)| name.clone()),
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
        let (mut drains, mut exceeded) =
            Drains::start(out_read, err_read, &limits, request.stdout_spill.clone());
        let result = {
            let fds = [stdin.into(), out_write, err_write]
                .into_iter()
                .chain(named);
            let run = keeper.run(&job, fds.collect(), exceeded.wait());
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
        if let Profile::Compile { .. } = profile {
            let work = keeper
                .root()
                .join(keeper::WORK_MOUNT.trim_start_matches('/'));
            copy_tree(&work, &request.cwd).map_err(|e| {
                final_err(io::Error::new(
                    e.kind(),
                    format!("cannot copy the compilation's files out of the sandbox: {e}"),
                ))
            })?;
        } else if let Some(pool) = pool {
            // A keeper that could not clean up after this run exits; its
            // next job then fails and is run again by a new keeper.
            pool.lock().expect("not poisoned").push(keeper);
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
            limit_hit = Some(LimitHit::Output);
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
        };
        Ok((outcome, output_file))
    }
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

/// Copies the regular files and directories of `from` into `to` (which
/// exists), replacing files of the same name; anything else (links, devices,
/// pipes, sockets) is left out, and nothing is followed: `from` may be what
/// a hostile compilation left. Modes are reduced to 0644, or 0755 for
/// executables and directories.
fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let meta = std::fs::symlink_metadata(&source)?;
        if meta.is_dir() {
            match std::fs::create_dir(&target) {
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                _ => {}
            }
            copy_tree(&source, &target)?;
        } else if meta.is_file() {
            let mut input = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                .open(&source)?;
            let mode = if meta.permissions().mode() & 0o111 != 0 {
                0o755
            } else {
                0o644
            };
            let mut output = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(mode)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&target)?;
            io::copy(&mut input, &mut output)?;
            output.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
    }
    Ok(())
}
