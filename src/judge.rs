//! Judging: one submission against one test set, on the tokio runtime. The
//! main type is [`Judge`], which owns the settings, the cache, the compiler and
//! the slots (`--jobs`) that bound how many processes run at once.
//!
//! Each test is its own process in its own scratch directory; the run's
//! outcome is classified into a verdict ([`classify`]) before the output is
//! checked, and the overall verdict is that of the first failing test in test
//! order.

use std::ffi::OsString;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::cache::{Cache, Key, Kind};
use crate::check::{self, CheckResult};
use crate::compile::{Build, CompileReport, CompileStatus, Compiler, Executable};
use crate::config::{Config, Language};
use crate::error::{Error, Result};
use crate::problem::{CheckerSpec, Problem, ProblemLimits, ProgramSpec};
use crate::report::{
    overall_verdict, LimitsReport, SubmissionReport, Summary, TestReport, SCHEMA_VERSION,
};
use crate::sandbox::{
    self, Environment, Exit, IsolationMode, LimitHit, Profile, RunError, RunOutcome, RunRequest,
    Sandbox, SandboxPaths, Stdin,
};
use crate::testset::{TestCase, TestSet};
use crate::verdict::Verdict;

/// Stderr kept per test run.
const STDERR_KEPT: u64 = 64 << 10;
/// Outputs larger than this are checked on a blocking thread.
const INLINE_CHECK_MAX: u64 = 256 << 10;
/// Output shown with `run --input`.
const SHOWN_OUTPUT_MAX: usize = 1 << 20;

/// The judging engine. Cheap to clone (shared state behind an `Arc`).
#[derive(Debug, Clone)]
pub struct Judge {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: Config,
    cache: Cache,
    compiler: Compiler,
    slots: Semaphore,
    /// As many as `slots`: held by tests whose runs are being prepared
    /// ahead of their slot (see [`SlotUse::AfterPreparing`]).
    preparing: Semaphore,
    sandbox: Sandbox,
    spill: SpillFiles,
    scratch: ScratchDirs,
}

/// How a test's run gets its slot.
enum SlotUse<'a> {
    /// The caller holds one for the whole test.
    Held,
    /// The run is prepared holding this permit of `preparing`, then takes a
    /// slot (giving the permit up), and gives the slot up once the program
    /// is gone: the next test's program can start while this one is checked.
    AfterPreparing(tokio::sync::SemaphorePermit<'a>),
}

/// Working directories of unsandboxed runs and custom checkers, reused from
/// test to test: emptied after each use instead of made and removed (two
/// directory operations that cost a tenth of starting a small program).
#[derive(Debug, Default)]
struct ScratchDirs(std::sync::Mutex<Vec<tempfile::TempDir>>);

impl ScratchDirs {
    fn take(&self) -> Result<Scratch<'_>> {
        let reused = self.0.lock().expect("not poisoned").pop();
        let dir = match reused {
            Some(dir) => dir,
            None => tempfile::Builder::new()
                .prefix(&format!("judge-run-{}-", std::process::id()))
                .tempdir()
                .map_err(|e| Error::io(std::env::temp_dir(), e))?,
        };
        Ok(Scratch {
            pool: self,
            dir: Some(dir),
        })
    }
}

/// A scratch directory on loan; back to the pool, empty, when dropped (or
/// removed, when something in it cannot be removed).
struct Scratch<'a> {
    pool: &'a ScratchDirs,
    dir: Option<tempfile::TempDir>,
}

impl Scratch<'_> {
    fn path(&self) -> &Path {
        self.dir.as_ref().expect("until dropped").path()
    }
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let dir = self.dir.take().expect("dropped once");
        if sandbox::empty_dir(dir.path()).is_ok() {
            self.pool.0.lock().expect("not poisoned").push(dir);
        }
    }
}

/// Fresh file names for outputs that outgrow memory, in one directory per
/// judge run (instead of a directory per test), made when first needed: runs
/// that work in a scratch directory spill there, and a directory made and
/// removed for nothing costs about a tenth of starting a small program.
#[derive(Debug, Default)]
struct SpillFiles {
    dir: std::sync::OnceLock<tempfile::TempDir>,
    next: AtomicUsize,
}

impl SpillFiles {
    fn next(&self) -> Result<std::path::PathBuf> {
        let dir = match self.dir.get() {
            Some(dir) => dir,
            None => {
                let made = tempfile::Builder::new()
                    .prefix(&format!("judge-run-{}-", std::process::id()))
                    .tempdir()
                    .map_err(|e| Error::io(std::env::temp_dir(), e))?;
                // Another task may have made one meanwhile: then this one goes.
                self.dir.get_or_init(|| made)
            }
        };
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        Ok(dir.path().join(format!("{n}.out")))
    }
}

/// Removes a file (if it was ever created) when dropped.
struct RemoveOnDrop(std::path::PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A submission: a file and its language.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The file as given on the command line.
    pub path: std::path::PathBuf,
    /// Its language.
    pub language: Language,
}

/// Options of one judging.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Stop starting tests after the first failure (tests before it still run).
    pub fail_fast: bool,
    /// Keep each test's output in the report (for `run --input`).
    pub keep_output: bool,
    /// Do not reuse or store results in the result cache (`--no-cache`).
    pub no_cache: bool,
}

/// How a problem's outputs are checked, ready to use.
#[derive(Debug, Clone)]
pub enum Checker {
    /// A built-in comparator.
    Builtin(CheckerSpec),
    /// A compiled custom checker.
    External(Box<Executable>),
}

impl Judge {
    /// An engine for `config`, isolating submissions as `isolation` asks.
    /// `also_hide` are more directories submissions must not see (the
    /// packages and tests of problems kept outside the workspace).
    pub fn new(
        config: Config,
        isolation: IsolationMode,
        also_hide: &[std::path::PathBuf],
    ) -> Result<Judge> {
        let cache = Cache::new(config.cache_dir.clone());
        let compiler = Compiler::new(cache.clone(), config.limits);
        let config_jobs = config.jobs.max(1);
        let slots = Semaphore::new(config_jobs);
        let staging = cache.tmp_dir()?;
        // What judges killed meanwhile (kill -9) left behind: their scratch
        // and sandbox directories here and in /tmp.
        sandbox::remove_leftovers_of_dead_judges(&staging, &["work-", "judge-"]);
        for tmp in [std::path::PathBuf::from("/tmp"), std::env::temp_dir()] {
            sandbox::remove_leftovers_of_dead_judges(&tmp, &["judge-sandbox-", "judge-run-"]);
        }
        // Submissions must not see answers: hide the workspace, the cache and
        // the problem and test folders (which may live outside the workspace)
        // where they fall inside what the sandbox shows.
        let mut hide = vec![
            config.root.clone(),
            config.cache_dir.clone(),
            config.problems_dir.clone(),
            config.testdata_dir.clone(),
        ];
        hide.extend(also_hide.iter().cloned());
        if let Some(home) = std::env::var_os("HOME") {
            hide.push(home.into());
        }
        let keep = |p: &std::path::PathBuf| p.is_absolute() && p.parent().is_some() && p.is_dir();
        let paths = SandboxPaths {
            hide: hide.into_iter().filter(keep).collect(),
            staging,
        };
        let sandbox =
            Sandbox::new(isolation, paths, config_jobs, config.cpu).map_err(Error::Isolation)?;
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
            }),
        })
    }

    /// Limits for package programs (generator, reference, validator,
    /// checker): judge.toml's `package_time` and `package_output`.
    pub fn package_limits(&self) -> sandbox::Limits {
        let limits = &self.config().limits;
        sandbox::Limits {
            cpu_time: limits.package_time,
            wall_time: limits.package_time.saturating_mul(2),
            memory: None,
            address_space: false,
            stdout: limits.package_output,
            stderr: 64 << 10,
            file_size: limits.package_output,
        }
    }

    /// The sandbox (its isolation level and warning).
    pub fn sandbox(&self) -> &Sandbox {
        &self.inner.sandbox
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The cache.
    pub fn cache(&self) -> &Cache {
        &self.inner.cache
    }

    /// The language of a program of a package (its `lang`, else its extension).
    pub fn language_of(&self, spec: &ProgramSpec) -> Result<Language> {
        match &spec.lang {
            Some(id) => self.config().language_by_id(id, &spec.path),
            None => self.config().detect_language(&spec.path),
        }
    }

    /// Compiles a submission (CE is a result, not an error).
    pub async fn build(&self, path: &Path, language: &Language) -> Result<Build> {
        let _slot = self.inner.slots.acquire().await.expect("never closed");
        self.inner
            .compiler
            .build(path, language, &self.inner.sandbox)
            .await
    }

    /// Compiles a program of the package; a compile error is an error of the package.
    pub async fn build_package_program(
        &self,
        problem: &Problem,
        spec: &ProgramSpec,
        role: &str,
    ) -> Result<Executable> {
        let language = self.language_of(spec)?;
        match self.build(&spec.path, &language).await? {
            Build::Ready(exe, _) => Ok(*exe),
            Build::Failed(report) => Err(Error::Package {
                problem: problem.id.clone(),
                what: format!(
                    "the {role} {} does not compile:\n{}",
                    spec.path.display(),
                    report.message
                ),
            }),
        }
    }

    /// The checker of a problem, compiled if it is a program.
    pub async fn prepare_checker(&self, problem: &Problem) -> Result<Checker> {
        Ok(match &problem.checker {
            CheckerSpec::Custom(spec) => Checker::External(Box::new(
                self.build_package_program(problem, spec, "checker").await?,
            )),
            builtin => Checker::Builtin(builtin.clone()),
        })
    }

    /// Runs a package program (generator, reference, validator) with generous
    /// limits, holding a slot.
    pub async fn run_package_program(
        &self,
        argv: Vec<OsString>,
        cwd: &Path,
        stdin: Stdin,
    ) -> Result<RunOutcome> {
        let program = argv
            .first()
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default();
        let request = RunRequest {
            argv,
            cwd: cwd.to_path_buf(),
            stdin,
            stdout_spill: Some(cwd.join("stdout")),
            environment: Environment::Minimal(Vec::new()),
            limits: self.package_limits(),
            program_dir: None,
        };
        let _slot = self.inner.slots.acquire().await.expect("never closed");
        let run = self.inner.sandbox.run(&request, Profile::Package);
        run.await.map_err(|e| match e {
            RunError::Spawn { source, .. } | RunError::Watch { source, .. } => {
                Error::Sandbox { program, source }
            }
        })
    }

    /// Judges `submission` on every test of `tests`. `on_test` is called for
    /// each test in test order as soon as it and all tests before it are done.
    pub async fn judge_submission(
        &self,
        problem: &Arc<Problem>,
        tests: &Arc<TestSet>,
        checker: &Checker,
        submission: &Submission,
        options: &RunOptions,
        mut on_test: impl FnMut(&TestReport),
    ) -> Result<SubmissionReport> {
        let limits = problem.limits;
        let wall = wall_limit(limits.time, self.config().limits.wall_factor);
        let mut report = SubmissionReport {
            schema_version: SCHEMA_VERSION,
            problem: problem.id.clone(),
            submission: submission.path.display().to_string(),
            language: submission.language.id.clone(),
            verdict: Verdict::CE,
            compile: CompileReport {
                status: CompileStatus::None,
                message: String::new(),
                time_ms: 0,
                cached: false,
            },
            limits: LimitsReport {
                time_ms: limits.time.as_millis() as u64,
                wall_ms: wall.as_millis() as u64,
                memory_kib: limits.memory / 1024,
                output_kib: limits.output / 1024,
            },
            isolation: self.inner.sandbox.isolation().as_str().into(),
            tests: Vec::new(),
            skipped: Vec::new(),
            summary: Summary::of(&[]),
        };
        let exe = match self.build(&submission.path, &submission.language).await? {
            Build::Ready(exe, compile) => {
                report.compile = compile;
                *exe
            }
            Build::Failed(compile) => {
                report.compile = compile;
                report.skipped = tests.tests.iter().map(|t| t.name.clone()).collect();
                return Ok(report);
            }
        };
        let first_failure = Arc::new(AtomicUsize::new(usize::MAX));
        let mut tasks = tokio::task::JoinSet::new();
        for index in 0..tests.tests.len() {
            let judge = self.clone();
            let tests = Arc::clone(tests);
            let exe = exe.clone();
            let checker = checker.clone();
            let first_failure = Arc::clone(&first_failure);
            let options = options.clone();
            tasks.spawn(async move {
                let test = &tests.tests[index];
                // With --fail-fast a slot is held until the verdict is
                // known (a later test is not started before); otherwise the
                // run is prepared ahead of its slot, which it gives up as
                // soon as the program is gone, so that the next test's
                // program starts while this one is checked.
                let (kept, slot_use) = if options.fail_fast {
                    let slot = judge.inner.slots.acquire().await.expect("never closed");
                    if index > first_failure.load(Ordering::SeqCst) {
                        return (index, Ok(None));
                    }
                    (Some(slot), SlotUse::Held)
                } else {
                    let preparing = judge.inner.preparing.acquire().await.expect("never closed");
                    (None, SlotUse::AfterPreparing(preparing))
                };
                let result = judge
                    .judge_test(&exe, test, &checker, limits, wall, &options, slot_use)
                    .await;
                drop(kept);
                if let Ok(t) = &result {
                    if !t.verdict.is_accepted() {
                        first_failure.fetch_min(index, Ordering::SeqCst);
                    }
                }
                (index, result.map(Some))
            });
        }
        let mut results: Vec<Option<Option<TestReport>>> = vec![None; tests.tests.len()];
        let mut next = 0;
        while let Some(joined) = tasks.join_next().await {
            let (index, result) = joined.expect("test task panicked");
            results[index] = Some(result?);
            while next < results.len() {
                match &results[next] {
                    Some(Some(t)) => on_test(t),
                    Some(None) => {}
                    None => break,
                }
                next += 1;
            }
        }
        for (test, result) in tests.tests.iter().zip(results) {
            match result.expect("every task reported") {
                Some(t) => report.tests.push(t),
                None => report.skipped.push(test.name.clone()),
            }
        }
        report.verdict = overall_verdict(&report.tests);
        report.summary = Summary::of(&report.tests);
        Ok(report)
    }

    /// Judges a built program on one test, holding a slot: what
    /// [`Judge::judge_submission`] does for each of its tests. `judge stress`
    /// calls it once per generated input.
    pub async fn judge_one(
        &self,
        exe: &Executable,
        test: &TestCase,
        checker: &Checker,
        limits: ProblemLimits,
        keep_output: bool,
    ) -> Result<TestReport> {
        let wall = wall_limit(limits.time, self.config().limits.wall_factor);
        let _slot = self.inner.slots.acquire().await.expect("never closed");
        // Not through the result cache: stress inputs are one-offs.
        self.run_test(exe, test, checker, limits, wall, keep_output, SlotUse::Held)
            .await
    }

    /// Runs a built program that is not part of a package (so not trusted)
    /// in the sandbox on `input`, holding a slot, with the time and output
    /// limits of package programs and `memory` bytes (the problem's limit:
    /// it is another solution of the problem); a large stdout spills into
    /// `work`. For a file whose output serves as the answer (`judge stress
    /// --against FILE`).
    pub async fn run_untrusted(
        &self,
        exe: &Executable,
        input: &Path,
        work: &Path,
        memory: u64,
    ) -> Result<RunOutcome> {
        let request = RunRequest {
            argv: exe.argv(Some(memory)),
            cwd: work.to_path_buf(),
            stdin: Stdin::File(input.to_path_buf()),
            stdout_spill: Some(work.join("stdout")),
            environment: Environment::Minimal(exe.env().to_vec()),
            limits: sandbox::Limits {
                memory: Some(memory),
                address_space: exe.address_space_limit(),
                ..self.package_limits()
            },
            program_dir: Some(exe.dir().to_path_buf()),
        };
        let _slot = self.inner.slots.acquire().await.expect("never closed");
        match self.inner.sandbox.run(&request, Profile::Submission).await {
            Ok(outcome) => Ok(outcome),
            Err(RunError::Spawn { program, source }) => Err(Error::MissingTool {
                language: exe.language.id.clone(),
                program,
                source,
            }),
            Err(RunError::Watch { program, source }) => Err(Error::Sandbox { program, source }),
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn judge_test(
        &self,
        exe: &Executable,
        test: &TestCase,
        checker: &Checker,
        limits: ProblemLimits,
        wall: Duration,
        options: &RunOptions,
        slot: SlotUse<'_>,
    ) -> Result<TestReport> {
        let keep_output = options.keep_output;
        let result_key = match (&test.answer, options.no_cache || keep_output) {
            (Some(answer), false) => {
                Some(self.result_key(exe, test, answer, checker, limits, wall)?)
            }
            _ => None,
        };
        if let Some(key) = &result_key {
            if let Some(mut cached) = self
                .cache()
                .get(Kind::Result, key)
                .and_then(|p| std::fs::read(p).ok())
                .and_then(|b| serde_json::from_slice::<TestReport>(&b).ok())
            {
                cached.name = test.name.clone();
                cached.group = test.group.clone();
                cached.cached = true;
                return Ok(cached);
            }
        }
        let report = self
            .run_test(exe, test, checker, limits, wall, keep_output, slot)
            .await?;
        if let Some(key) = &result_key {
            // An IE says nothing about the submission: judge it again next time.
            if report.verdict != Verdict::IE {
                let bytes = serde_json::to_vec(&report).expect("serialisable");
                self.cache().put_bytes(Kind::Result, key, &bytes)?;
            }
        }
        Ok(report)
    }

    /// The key of a test's result: everything the verdict depends on.
    fn result_key(
        &self,
        exe: &Executable,
        test: &TestCase,
        answer: &std::path::Path,
        checker: &Checker,
        limits: ProblemLimits,
        wall: Duration,
    ) -> Result<Key> {
        let answer_key = Key::of_file(answer).map_err(|e| Error::io(answer, e))?;
        let checker_id = match checker {
            Checker::Builtin(spec) => spec.describe(),
            Checker::External(program) => format!("external {}", program.key.as_str()),
        };
        let limits_id = format!(
            "{} {} {} {}",
            limits.time.as_micros(),
            limits.memory,
            limits.output,
            wall.as_micros()
        );
        Ok(Key::of(&[
            b"result-v2",
            exe.key.as_str().as_bytes(),
            test.input_key.as_str().as_bytes(),
            answer_key.as_str().as_bytes(),
            checker_id.as_bytes(),
            limits_id.as_bytes(),
            self.inner.sandbox.isolation().as_str().as_bytes(),
        ]))
    }

    #[allow(clippy::too_many_arguments)]
    async fn run_test(
        &self,
        exe: &Executable,
        test: &TestCase,
        checker: &Checker,
        limits: ProblemLimits,
        wall: Duration,
        keep_output: bool,
        slot: SlotUse<'_>,
    ) -> Result<TestReport> {
        // A scratch directory: the working directory of unsandboxed runs (a
        // sandboxed run works in the keeper's private /tmp), and where a large
        // output spills and a custom checker works. Only made when needed.
        let needs_scratch = self.inner.sandbox.isolation() == sandbox::Isolation::RlimitOnly
            || matches!(checker, Checker::External(_));
        let scratch = if needs_scratch {
            Some(self.inner.scratch.take()?)
        } else {
            None
        };
        let spill = match &scratch {
            Some(dir) => dir.path().join("stdout"),
            None => self.inner.spill.next()?,
        };
        let request = RunRequest {
            argv: exe.argv(Some(limits.memory)),
            cwd: scratch
                .as_ref()
                .map_or_else(std::env::temp_dir, |d| d.path().to_path_buf()),
            stdin: Stdin::File(test.input.clone()),
            stdout_spill: Some(spill),
            environment: Environment::Minimal(exe.env().to_vec()),
            program_dir: Some(exe.dir().to_path_buf()),
            limits: sandbox::Limits {
                cpu_time: limits.time,
                wall_time: wall,
                memory: Some(limits.memory),
                address_space: exe.address_space_limit(),
                stdout: limits.output,
                stderr: STDERR_KEPT,
                file_size: limits.output,
            },
        };
        let mut report = TestReport {
            name: test.name.clone(),
            group: test.group.clone(),
            verdict: Verdict::AC,
            time_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            message: String::new(),
            diff: None,
            exit_code: None,
            signal: None,
            output: None,
            cached: false,
        };
        let outcome = match slot {
            SlotUse::Held => self.inner.sandbox.run(&request, Profile::Submission).await,
            SlotUse::AfterPreparing(preparing) => {
                let mut turn = sandbox::Turn::when(async move {
                    let slot = self.inner.slots.acquire().await.expect("never closed");
                    // The next test may be prepared meanwhile.
                    drop(preparing);
                    slot
                });
                let outcome = self
                    .inner
                    .sandbox
                    .run_in_turn(&request, Profile::Submission, &mut turn)
                    .await;
                // The plain runner gives the slot back as soon as its program
                // is reaped; the keepers' runner, here.
                if let Some(slot) = turn.into_given() {
                    // The next test's program may start; let it, before checking.
                    drop(slot);
                    tokio::task::yield_now().await;
                }
                outcome
            }
        };
        let outcome = match outcome {
            Ok(o) => o,
            Err(RunError::Spawn { program, source }) => {
                if exe.language.id == crate::config::EXECUTABLE {
                    report.verdict = Verdict::RE;
                    report.message = format!("cannot start the program: {source}");
                    return Ok(report);
                }
                return Err(Error::MissingTool {
                    language: exe.language.id.clone(),
                    program,
                    source,
                });
            }
            Err(RunError::Watch { program, source }) => {
                return Err(Error::Sandbox { program, source })
            }
        };
        // Declared after `scratch`, so dropped before it is emptied. (A spill
        // left by a run that failed is removed with its directory.)
        let _remove_spill = match &outcome.stdout {
            sandbox::Captured::File { path, .. } => Some(RemoveOnDrop(path.clone())),
            sandbox::Captured::Memory(_) => None,
        };
        report.time_ms = outcome.cpu_time.as_millis() as u64;
        report.wall_ms = outcome.wall_time.as_millis() as u64;
        report.memory_kib = outcome.peak_memory_kib;
        match outcome.exit {
            Exit::Code(c) => report.exit_code = Some(c),
            Exit::Signal(s) => report.signal = Some(sandbox::signal_name(s)),
        }
        if keep_output {
            let bytes = outcome.stdout.to_vec().unwrap_or_default();
            let shown = &bytes[..bytes.len().min(SHOWN_OUTPUT_MAX)];
            report.output = Some(String::from_utf8_lossy(shown).into_owned());
        }
        if let Some((verdict, message)) =
            classify(&outcome, &limits, wall, exe.address_space_limit())
        {
            report.verdict = verdict;
            report.message = message;
            return Ok(report);
        }
        let Some(answer) = &test.answer else {
            report.message =
                "ran without error; no answer to compare with (the problem has no reference)"
                    .into();
            return Ok(report);
        };
        let result = match checker {
            Checker::Builtin(spec) => {
                if outcome.stdout.len() <= INLINE_CHECK_MAX {
                    builtin_check(spec, &outcome.stdout, answer)?
                } else {
                    let (spec, answer) = (spec.clone(), answer.clone());
                    let stdout = outcome.stdout;
                    // Off the judging's CPU (if it keeps to one), where the
                    // next program runs meanwhile.
                    let cpus = sandbox::cpus_to_leave_pin();
                    tokio::task::spawn_blocking(move || {
                        sandbox::leave_pin(cpus);
                        builtin_check(&spec, &stdout, &answer)
                    })
                    .await
                    .expect("checker thread panicked")?
                }
            }
            Checker::External(program) => {
                let checker_limits = sandbox::Limits {
                    stdout: 64 << 10,
                    stderr: 64 << 10,
                    ..self.package_limits()
                };
                check::external::check(
                    &self.inner.sandbox,
                    program,
                    &test.input,
                    &outcome.stdout,
                    answer,
                    scratch.as_ref().expect("made for external checkers").path(),
                    checker_limits,
                )
                .await
                .unwrap_or_else(|e| CheckResult {
                    verdict: Verdict::IE,
                    message: format!("checker could not run: {}", crate::error::render_chain(&e)),
                    position: None,
                    diff: None,
                })
            }
        };
        report.verdict = result.verdict;
        report.message = result.message;
        report.diff = result.diff;
        Ok(report)
    }
}

fn builtin_check(
    spec: &CheckerSpec,
    output: &sandbox::Captured,
    answer: &Path,
) -> Result<CheckResult> {
    let mut result = check::compare(spec, output, answer).map_err(|e| Error::io(answer, e))?;
    if let Some((out_line, ans_line)) = result.position {
        let show_whitespace = result.verdict == Verdict::PE || *spec == CheckerSpec::Exact;
        let answer_file = std::fs::File::open(answer).map_err(|e| Error::io(answer, e))?;
        let reader = output.reader().map_err(|e| Error::io(answer, e))?;
        result.diff =
            check::diff::render(reader, answer_file, out_line, ans_line, show_whitespace).ok();
    }
    Ok(result)
}

/// The wall-clock limit for a CPU time limit.
pub fn wall_limit(time: Duration, factor: f64) -> Duration {
    time.mul_f64(factor).max(time + Duration::from_millis(500))
}

/// Messages a runtime prints when an allocation fails: evidence that a crash
/// under the address-space limit was the memory limit.
const ALLOCATION_FAILURES: &[&str] = &[
    "std::bad_alloc",
    "memory allocation of",
    "MemoryError",
    "OutOfMemoryError",
    "Cannot allocate memory",
    "out of memory",
];

/// Turns a run's outcome into a verdict, or `None` when the output should be
/// checked. Limits come first (the run was stopped), then crashes.
pub fn classify(
    outcome: &RunOutcome,
    limits: &ProblemLimits,
    wall: Duration,
    address_space: bool,
) -> Option<(Verdict, String)> {
    let ms = |d: Duration| d.as_millis();
    if outcome.limit_hit == Some(LimitHit::Output) {
        return Some((
            Verdict::OLE,
            format!(
                "output exceeded the limit of {}",
                crate::units::format_kib(limits.output / 1024)
            ),
        ));
    }
    // A run that failed after a fork was refused failed because of it (a
    // fork bomb reaches every other limit too, whichever comes first).
    if outcome.process_limit_hit && !outcome.success() {
        return Some((
            Verdict::RE,
            format!(
                "tried to create more than {} processes and threads ({}); a submission may not fork without bound",
                crate::sandbox::RUN_PROCESSES,
                outcome.describe_exit()
            ),
        ));
    }
    if outcome.limit_hit == Some(LimitHit::CpuTime) || outcome.cpu_time > limits.time {
        return Some((
            Verdict::TLE,
            format!(
                "CPU time {} ms exceeds the limit of {} ms{}",
                ms(outcome.cpu_time),
                ms(limits.time),
                if outcome.limit_hit.is_some() {
                    " (stopped)"
                } else {
                    ""
                }
            ),
        ));
    }
    if outcome.limit_hit == Some(LimitHit::WallTime) {
        return Some((
            Verdict::TLE,
            format!(
                "wall time exceeds the limit of {} ms with only {} ms of CPU time (sleeping, or waiting for input?)",
                ms(wall),
                ms(outcome.cpu_time)
            ),
        ));
    }
    let memory_kib = limits.memory / 1024;
    if outcome.memory_exceeded {
        return Some((
            Verdict::MLE,
            format!(
                "killed at the memory limit of {} (cgroup OOM kill, peak {})",
                crate::units::format_kib(memory_kib),
                crate::units::format_kib(outcome.peak_memory_kib)
            ),
        ));
    }
    if outcome.peak_memory_kib > memory_kib {
        return Some((
            Verdict::MLE,
            format!(
                "peak memory {} exceeds the limit of {}",
                crate::units::format_kib(outcome.peak_memory_kib),
                crate::units::format_kib(memory_kib)
            ),
        ));
    }
    if outcome.exit == Exit::Code(0) {
        return None;
    }
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    if address_space {
        if let Some(evidence) = ALLOCATION_FAILURES.iter().find(|e| stderr.contains(**e)) {
            return Some((
                Verdict::MLE,
                format!(
                    "an allocation failed under the memory limit of {} ({}, `{evidence}`)",
                    crate::units::format_kib(memory_kib),
                    outcome.describe_exit()
                ),
            ));
        }
    }
    let last = last_meaningful_line(&stderr);
    let last: String = last.chars().take(200).collect();
    let how = outcome.describe_exit();
    Some((
        Verdict::RE,
        if last.is_empty() {
            how
        } else {
            format!("{how}: {last}")
        },
    ))
}

/// The last line of stderr that says something (not a runtime's hint such as
/// Rust's "note: run with `RUST_BACKTRACE=1`").
fn last_meaningful_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("note: run with `RUST_BACKTRACE"))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{Captured, Isolation};

    fn outcome(
        exit: Exit,
        limit_hit: Option<LimitHit>,
        cpu_ms: u64,
        kib: u64,
        stderr: &str,
    ) -> RunOutcome {
        RunOutcome {
            exit,
            limit_hit,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(cpu_ms + 5),
            peak_memory_kib: kib,
            stdout: Captured::Memory(Vec::new()),
            stderr: stderr.as_bytes().to_vec(),
            stderr_truncated: false,
            memory_exceeded: false,
            process_limit_hit: false,
            isolation: Isolation::RlimitOnly,
        }
    }

    const LIMITS: ProblemLimits = ProblemLimits {
        time: Duration::from_secs(1),
        memory: 64 << 20,
        output: 1 << 20,
    };

    fn verdict(o: &RunOutcome) -> Option<Verdict> {
        classify(o, &LIMITS, Duration::from_secs(3), true).map(|(v, _)| v)
    }

    #[test]
    fn classification_table() {
        let cases = [
            (outcome(Exit::Code(0), None, 10, 1000, ""), None),
            (
                outcome(Exit::Signal(9), Some(LimitHit::Output), 10, 1000, ""),
                Some(Verdict::OLE),
            ),
            (
                outcome(Exit::Signal(9), Some(LimitHit::CpuTime), 1010, 1000, ""),
                Some(Verdict::TLE),
            ),
            (
                outcome(Exit::Code(0), None, 1001, 1000, ""),
                Some(Verdict::TLE),
            ),
            (
                outcome(Exit::Signal(9), Some(LimitHit::WallTime), 3, 1000, ""),
                Some(Verdict::TLE),
            ),
            (
                outcome(Exit::Code(0), None, 10, 70_000, ""),
                Some(Verdict::MLE),
            ),
            (
                outcome(
                    Exit::Signal(6),
                    None,
                    10,
                    5000,
                    "terminate called after throwing an instance of 'std::bad_alloc'",
                ),
                Some(Verdict::MLE),
            ),
            (
                outcome(Exit::Code(1), None, 10, 5000, "Traceback...\nMemoryError"),
                Some(Verdict::MLE),
            ),
            (
                outcome(Exit::Signal(11), None, 10, 5000, ""),
                Some(Verdict::RE),
            ),
            (
                outcome(Exit::Code(3), None, 10, 5000, ""),
                Some(Verdict::RE),
            ),
        ];
        for (o, expected) in cases {
            assert_eq!(verdict(&o), expected, "{o:?}");
        }
    }

    #[test]
    fn messages_name_the_cause() {
        let m = |o: RunOutcome| {
            classify(&o, &LIMITS, Duration::from_secs(3), true)
                .unwrap()
                .1
        };
        assert_eq!(
            m(outcome(Exit::Signal(11), None, 10, 5000, "")),
            "killed by SIGSEGV"
        );
        assert_eq!(
            m(outcome(
                Exit::Code(1),
                None,
                10,
                5000,
                "Traceback\nZeroDivisionError: division by zero\n"
            )),
            "exit code 1: ZeroDivisionError: division by zero"
        );
        assert_eq!(
            m(outcome(
                Exit::Code(101),
                None,
                10,
                5000,
                "thread 'main' panicked at src/main.rs:3:5:\nindex out of bounds\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
            )),
            "exit code 101: index out of bounds"
        );
        assert_eq!(
            m(outcome(Exit::Code(0), None, 1500, 5000, "")),
            "CPU time 1500 ms exceeds the limit of 1000 ms"
        );
        assert_eq!(
            m(outcome(Exit::Code(0), None, 10, 70_000, "")),
            "peak memory 68.4 MiB exceeds the limit of 64.0 MiB"
        );
    }

    #[test]
    fn a_refused_fork_explains_a_failed_run() {
        let forked = |exit, limit_hit, cpu_ms, memory_exceeded| {
            let mut o = outcome(exit, limit_hit, cpu_ms, 64 << 10, "");
            o.memory_exceeded = memory_exceeded;
            o.process_limit_hit = true;
            classify(&o, &LIMITS, Duration::from_secs(3), true)
        };
        // A fork bomb stopped by the OOM killer or the CPU limit is RE for
        // its processes, whichever limit it reached first.
        for o in [
            forked(Exit::Signal(9), None, 300, true),
            forked(Exit::Signal(9), Some(LimitHit::CpuTime), 1010, false),
        ] {
            let (verdict, message) = o.expect("a verdict");
            assert_eq!(verdict, Verdict::RE);
            assert!(
                message.starts_with("tried to create more than 128 processes"),
                "{message}"
            );
        }
        // A program that survives a refused fork and exits cleanly is judged
        // on its output.
        assert_eq!(forked(Exit::Code(0), None, 10, false), None);
    }

    #[test]
    fn wall_limit_has_a_floor() {
        assert_eq!(
            wall_limit(Duration::from_secs(1), 3.0),
            Duration::from_secs(3)
        );
        assert_eq!(
            wall_limit(Duration::from_millis(100), 1.0),
            Duration::from_millis(600)
        );
    }
}
