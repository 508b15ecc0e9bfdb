//! The engine's state: settings, cache, compiler, sandbox, and the slots
//! (`--jobs`) that bound how many programs run at once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::{Semaphore, SemaphorePermit};

use super::scratch::{ScratchDirs, SpillFiles};
use crate::cache::Cache;
use crate::compile::{Build, Companion, Compiler, Executable};
use crate::config::{Config, Language};
use crate::error::{Error, Result};
use crate::problem::{Problem, ProgramLimits, Role};
use crate::sandbox::{self, IsolationMode, Sandbox, SandboxPaths};

/// A folder no run may see.
#[derive(Debug, Clone)]
pub(crate) enum Hide {
    /// Its content must stay hidden (a contest folder, an output folder):
    /// a folder that cannot be hidden is an error.
    Required(PathBuf),
    /// Hidden unless it holds the system's own directories (a workspace
    /// at `/`, a submission in `/usr/bin`).
    IfPossible(PathBuf),
}

/// The judging engine. Cheap to clone (shared state behind an `Arc`).
#[derive(Debug, Clone)]
pub(crate) struct Judge {
    pub(super) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(super) struct Inner {
    config: Config,
    cache: Cache,
    compiler: Compiler,
    pub(super) slots: Semaphore,
    /// As many as `slots`: held by tests whose runs are being prepared
    /// ahead of their slot (see `SlotUse::AfterPreparing` in `submission.rs`).
    pub(super) preparing: Semaphore,
    pub(super) sandbox: Sandbox,
    pub(super) spill: SpillFiles,
    pub(super) scratch: ScratchDirs,
    /// The thread that made the judge: the one the sandbox keeps to the
    /// judging's CPU with one job, where the runtime must run.
    pub(super) home_thread: std::thread::ThreadId,
}

impl Judge {
    /// An engine for `config`, isolating submissions as `isolation` asks.
    /// `hide` are more folders no run may see (the packages and tests of
    /// problems kept outside the workspace, a contest folder, an output
    /// folder): the workspace, the cache, the problem and test folders and
    /// the home directory are hidden too, wherever they are.
    pub(crate) fn new(config: Config, isolation: IsolationMode, hide: &[Hide]) -> Result<Judge> {
        let cache = Cache::new(config.cache_dir.clone());
        let compiler = Compiler::new(cache.clone(), config.limits, config.pch_dir.clone());
        let config_jobs = config.jobs.get();
        let slots = Semaphore::new(config_jobs);
        let staging = cache.tmp_dir()?;
        // What judges killed meanwhile (kill -9) left behind: their scratch
        // and sandbox directories here and in /tmp.
        sandbox::remove_leftovers_of_dead_judges(&staging, &["work-", "judge-"]);
        for tmp in [PathBuf::from("/tmp"), std::env::temp_dir()] {
            sandbox::remove_leftovers_of_dead_judges(&tmp, &["judge-sandbox-", "judge-run-"]);
        }
        // Runs must not see answers, other builds or other contestants:
        // hide every folder of the judging, wherever it is.
        let mut all = vec![
            Hide::Required(config.cache_dir.clone()),
            Hide::Required(config.pch_dir.clone()),
            Hide::IfPossible(config.root.clone()),
            Hide::IfPossible(config.problems_dir.clone()),
            Hide::IfPossible(config.testdata_dir.clone()),
        ];
        all.extend(hide.iter().cloned());
        if let Some(home) = std::env::var_os("HOME") {
            all.push(Hide::IfPossible(home.into()));
        }
        let mut hidden: Vec<PathBuf> = Vec::new();
        for wanted in all {
            let (dir, required) = match wanted {
                Hide::Required(dir) => (dir, true),
                Hide::IfPossible(dir) => (dir, false),
            };
            // Where it really is: a link to a folder is no way around this.
            let Ok(real) = std::fs::canonicalize(&dir) else {
                continue; // not there (yet): nothing to see
            };
            if !real.is_dir() {
                continue;
            }
            match sandbox::cannot_hide(&real) {
                None => hidden.push(real),
                Some(why) if required => {
                    return Err(Error::Usage(format!(
                        "{} cannot be hidden from the programs judge runs: {why}; \
                         use a folder of its own",
                        dir.display()
                    )))
                }
                Some(_) => {}
            }
        }
        hidden.sort();
        hidden.dedup();
        let paths = SandboxPaths {
            hide: hidden,
            staging,
        };
        let sandbox = Sandbox::new(
            isolation,
            paths,
            config_jobs,
            config.cpu,
            config.limits.keeper_start,
        )
        .map_err(Error::Isolation)?;
        Ok(Judge {
            inner: Arc::new(Inner {
                config,
                cache,
                compiler,
                slots,
                preparing: Semaphore::new(config_jobs),
                sandbox,
                spill: SpillFiles::default(),
                scratch: ScratchDirs::default(),
                home_thread: std::thread::current().id(),
            }),
        })
    }

    /// How a program of `problem` in `role` runs: in the sandbox, seeing its
    /// package's folders, under the package's limits for that role (its
    /// checker's and interactor's, or its other programs').
    pub(crate) fn package_run(
        &self,
        problem: &Problem,
        role: Role,
        exe: &Executable,
    ) -> Result<sandbox::PackageRun> {
        let root = problem.root().map_err(|e| Error::io(&problem.dir, e))?;
        let (limits, judges) = match role {
            Role::Checker | Role::Interactor => (problem.checker_limits, true),
            Role::Generator | Role::Reference | Role::Validator | Role::Brute => {
                (problem.program_limits, false)
            }
        };
        Ok(sandbox::PackageRun {
            view: Arc::new(sandbox::PackageView {
                dirs: root.dirs().to_vec(),
            }),
            limits: program_limits(limits, exe, judges),
        })
    }

    /// Waits for a slot: a program may run while it is held. The slot
    /// shares the machine with other judges' runs ([`super::machine`]):
    /// taken after the permit, so that this judge's own confirmation,
    /// which holds every permit first, never waits for itself.
    pub(crate) async fn slot(&self) -> Slot<'_> {
        let permit = self.inner.slots.acquire().await.expect("never closed");
        let share = super::machine::share(
            std::path::Path::new(super::machine::LOCK_DIR),
            super::machine::SHARE_WAIT,
        )
        .await;
        Slot {
            _permit: permit,
            _share: share,
        }
    }

    /// The sandbox (its isolation level and warning).
    pub(crate) fn sandbox(&self) -> &Sandbox {
        &self.inner.sandbox
    }

    /// The settings.
    pub(crate) fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The cache.
    pub(crate) fn cache(&self) -> &Cache {
        &self.inner.cache
    }

    /// Whether `language` is usable here; its version's first line.
    pub(crate) async fn check_language(&self, language: &Language) -> Result<String> {
        self.inner.compiler.check_language(language).await
    }

    /// Compiles a submission (CE is a result, not an error).
    pub(crate) async fn build(&self, path: &Path, language: &Language) -> Result<Build> {
        self.build_with(path, None, language, &[], true).await
    }

    /// Compiles a program (its bytes `text`, or the file `path`) with files
    /// beside it; see [`Compiler::build`].
    pub(crate) async fn build_with(
        &self,
        path: &Path,
        text: Option<&[u8]>,
        language: &Language,
        companions: &[Companion],
        remember_failure: bool,
    ) -> Result<Build> {
        // A submit-answer problem's answers: nothing to build
        // (`judge_build` checks them before it looks at a build).
        if language.id == crate::config::ANSWERS {
            return Ok(Build::Failed(crate::compile::CompileReport {
                status: crate::compile::CompileStatus::None,
                message: "answers are checked as they are, not built".into(),
                time_ms: 0,
                cached: false,
            }));
        }
        let sandbox = &self.inner.sandbox;
        // The compiler takes a slot only to compile (not for a build in the
        // cache, nor while the same build is under way elsewhere).
        let build = self.inner.compiler.build(
            path,
            text,
            language,
            sandbox,
            companions,
            remember_failure,
            &self.inner.slots,
        );
        build.await
    }
}

/// A slot of this judge ([`Judge::slot`]), and its share of the machine.
#[derive(Debug)]
pub(crate) struct Slot<'a> {
    _permit: SemaphorePermit<'a>,
    _share: super::machine::Share,
}

/// The sandbox's limits of one run of a package program: the package's
/// `limits`, the wall clock at twice the CPU time; a program that judges
/// (a checker, an interactor) has its messages kept up to 64 KiB.
pub(crate) fn program_limits(
    limits: ProgramLimits,
    exe: &Executable,
    judges: bool,
) -> sandbox::Limits {
    sandbox::Limits {
        cpu_time: limits.time,
        wall_time: limits.time.saturating_mul(2),
        memory: Some(limits.memory),
        address_space: exe.address_space_limit(),
        stdout: if judges { 64 << 10 } else { limits.output },
        stderr: 64 << 10,
        file_size: limits.output,
        output_ends_run: true,
    }
}
