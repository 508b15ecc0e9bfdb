//! Judging a submission on a test set: each test in its own run, the runs
//! scheduled over the slots, results reused from the result cache, and the
//! overall verdict that of the first failing test in test order.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::SemaphorePermit;

use super::classify::{classify, wall_limit};
use super::machine;
use super::margin;
use super::named_files::output_to_check;
use super::scratch::RemoveOnDrop;
use super::shown_input::shown_input;
use super::Judge;
use crate::cache::{Key, Kind};
use crate::check::{CheckError, CheckResult, Checker, Subject};
use crate::compile::{Build, Companion, CompileReport, CompileStatus, Executable};
use crate::config::Language;
use crate::error::{Error, Result};
use crate::problem::{FileIo, Problem, ProblemLimits};
use crate::report::{
    overall_verdict, LimitsReport, SkipReason, SubmissionReport, Summary, TestReport,
    SCHEMA_VERSION,
};
use crate::sandbox::{self, Environment, Profile, RunError, RunRequest, Stdin};
use crate::testset::{TestCase, TestSet};
use crate::verdict::Verdict;

/// Stderr kept per test run.
pub(super) const STDERR_KEPT: u64 = 64 << 10;
/// Output shown with `run --input`.
const SHOWN_OUTPUT_MAX: usize = 1 << 20;

/// How a test's run gets its slot.
pub(super) enum SlotUse<'a> {
    /// The caller holds one for the whole test.
    Held,
    /// The run is prepared holding this permit of `preparing`, then takes a
    /// slot (giving the permit up), and gives the slot up once the program
    /// is gone: the next test's program can start while this one is checked.
    AfterPreparing(SemaphorePermit<'a>),
}

/// A submission: a file and its language.
#[derive(Debug, Clone)]
pub(crate) struct Submission {
    /// The file as given on the command line (a directory's main source).
    pub(crate) path: PathBuf,
    /// What reports name, when not `path`: the directory given.
    pub(crate) shown: Option<PathBuf>,
    /// Its language.
    pub(crate) language: Language,
    /// Files its build sees beside it (a package's solution that is a
    /// directory); none for a file from the command line.
    pub(crate) companions: Vec<Companion>,
    /// Its bytes, when already read (a contest's file, read once from the
    /// contest folder); else `path` is read when it is built.
    pub(crate) text: Option<Arc<Vec<u8>>>,
}

/// Options of one judging.
#[derive(Debug, Clone, Default)]
pub(crate) struct RunOptions {
    /// Stop starting tests after the first failure (tests before it still run).
    pub(crate) fail_fast: bool,
    /// With `fail_fast`: a failure stops only the later tests of its own
    /// group (a subtask), the other groups go on (IOI scoring).
    pub(crate) per_group: bool,
    /// Run the tests one after another, in order (with `fail_fast`, nothing
    /// after the first failure is run at all): for a judging that shares
    /// the CPUs with others, as `verify`'s solutions do.
    pub(crate) in_order: bool,
    /// Keep each test's output in the report (for `run --input`).
    pub(crate) keep_output: bool,
    /// Do not reuse or store results in the result cache (`--no-cache`).
    pub(crate) no_cache: bool,
    /// Run a test up to this factor of the time limit (at least the
    /// margin of [`margin::OVER`]), so that a TLE's CPU time says whether it
    /// would pass at that limit: `verify`'s time_limit_to_tle.
    pub(crate) measure_up_to: Option<f64>,
}

/// How many times `batch` and `serve` judge a submission whose judging
/// found the machine overloaded before they report that.
const OVERLOADED_REQUEUES: u32 = 5;

/// How many times a test whose run found the machine overloaded is run
/// again, after a pause, before the judging reports that.
const OVERLOADED_RERUNS: u32 = 2;

impl Submission {
    /// The name reports give it: the directory given, else the file.
    pub(crate) fn name(&self) -> String {
        self.shown
            .as_ref()
            .unwrap_or(&self.path)
            .display()
            .to_string()
    }
}

impl Judge {
    /// Judges several submissions at once (the slots bound what runs at a
    /// time, so one waiting on a time limit leaves the other CPUs to the
    /// rest); the reports in the order of `jobs`. Every judging is finished
    /// before an error is returned (the first, in that order).
    pub(crate) async fn judge_many(
        &self,
        problem: &Arc<Problem>,
        tests: &Arc<TestSet>,
        checker: &Checker,
        jobs: Vec<(Submission, RunOptions)>,
    ) -> Result<Vec<SubmissionReport>> {
        let mut tasks = tokio::task::JoinSet::new();
        let count = jobs.len();
        for (index, (submission, options)) in jobs.into_iter().enumerate() {
            let judge = self.clone();
            let problem = Arc::clone(problem);
            let tests = Arc::clone(tests);
            let checker = checker.clone();
            tasks.spawn(async move {
                let report = judge
                    .judge_submission(&problem, &tests, &checker, &submission, &options, |_| {})
                    .await;
                (index, report)
            });
        }
        let mut reports: Vec<Option<Result<SubmissionReport>>> = (0..count).map(|_| None).collect();
        while let Some(done) = tasks.join_next().await {
            let (index, report) =
                done.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
            reports[index] = Some(report);
        }
        reports
            .into_iter()
            .map(|r| r.expect("every judging reports"))
            .collect()
    }

    /// Judges `submission` on every test of `tests`. `on_test` is called for
    /// each test in test order as soon as it and all tests before it are done.
    /// [`Judge::judge_submission`] for a queue (`batch`, `serve`): a
    /// judging stopped because the machine is overloaded is no verdict, so
    /// it goes back to wait for a calmer machine and is judged again
    /// (pausing longer each time), and only after that many tries is the
    /// error the outcome.
    pub(crate) async fn judge_submission_queued(
        &self,
        problem: &Arc<Problem>,
        tests: &Arc<TestSet>,
        checker: &Checker,
        submission: &Submission,
        options: &RunOptions,
        mut on_test: impl FnMut(&TestReport),
    ) -> Result<SubmissionReport> {
        let mut pause = std::time::Duration::from_secs(2);
        for _ in 1..OVERLOADED_REQUEUES {
            match self
                .judge_submission(problem, tests, checker, submission, options, &mut on_test)
                .await
            {
                Err(e) if e.is_overloaded() => {
                    tokio::time::sleep(pause).await;
                    pause *= 2;
                }
                done => return done,
            }
        }
        self.judge_submission(problem, tests, checker, submission, options, on_test)
            .await
    }

    pub(crate) async fn judge_submission(
        &self,
        problem: &Arc<Problem>,
        tests: &Arc<TestSet>,
        checker: &Checker,
        submission: &Submission,
        options: &RunOptions,
        on_test: impl FnMut(&TestReport),
    ) -> Result<SubmissionReport> {
        let build = self
            .build_with(
                &submission.path,
                submission.text.as_deref().map(Vec::as_slice),
                &submission.language,
                &submission.companions,
                true,
            )
            .await?;
        self.judge_build(problem, tests, checker, submission, build, options, on_test)
            .await
    }

    /// The report of a submission the judge failed on (`why`): IE, no test
    /// run.
    pub(crate) fn failed_report(
        &self,
        problem: &Problem,
        tests: &TestSet,
        submission: &Submission,
        why: &str,
    ) -> SubmissionReport {
        SubmissionReport {
            skipped: tests.tests.iter().map(|t| t.name.clone()).collect(),
            skip_reason: Some(SkipReason::JudgeFailed),
            ..self.unjudged_report(
                problem,
                submission,
                Verdict::IE,
                format!("the judge failed on this submission: {why}"),
            )
        }
    }

    /// The report of `submission` before any test is run: `verdict`, not
    /// compiled (`compile_message` said), the limits of its language, no
    /// test run or skipped.
    pub(super) fn unjudged_report(
        &self,
        problem: &Problem,
        submission: &Submission,
        verdict: Verdict,
        compile_message: String,
    ) -> SubmissionReport {
        let limits = problem.limits.for_language(&submission.language);
        let wall = wall_limit(limits.time, self.config().limits.wall_factor);
        SubmissionReport {
            schema_version: SCHEMA_VERSION,
            problem: problem.id.clone(),
            submission: submission.name(),
            language: submission.language.id.clone(),
            verdict,
            compile: CompileReport {
                status: CompileStatus::None,
                message: compile_message,
                time_ms: 0,
                cached: false,
            },
            limits: LimitsReport {
                time_ms: limits.time.as_millis() as u64,
                wall_ms: wall.as_millis() as u64,
                memory_kib: limits.memory / 1024,
                output_kib: limits.output / 1024,
            },
            isolation: self.sandbox().isolation().as_str().into(),
            isolation_gaps: self.sandbox().gaps().map(str::to_string),
            tests: Vec::new(),
            skipped: Vec::new(),
            skip_reason: None,
            summary: Summary::of(&[]),
        }
    }

    /// [`Judge::judge_submission`] of a submission already built (its build
    /// started earlier, beside other work).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn judge_build(
        &self,
        problem: &Arc<Problem>,
        tests: &Arc<TestSet>,
        checker: &Checker,
        submission: &Submission,
        build: Build,
        options: &RunOptions,
        mut on_test: impl FnMut(&TestReport),
    ) -> Result<SubmissionReport> {
        if problem.submit_answer {
            return self
                .judge_answers(problem, tests, checker, submission, on_test)
                .await;
        }
        let limits = problem.limits.for_language(&submission.language);
        let wall = wall_limit(limits.time, self.config().limits.wall_factor);
        let mut report = self.unjudged_report(problem, submission, Verdict::CE, String::new());
        let exe = match build {
            Build::Ready(exe, compile) => {
                report.compile = compile;
                *exe
            }
            Build::Failed(compile) => {
                report.compile = compile;
                report.skipped = tests.tests.iter().map(|t| t.name.clone()).collect();
                report.skip_reason = Some(SkipReason::CompileError);
                return Ok(report);
            }
        };
        // The first failing test, per scope: the submission, or with
        // `per_group` each group.
        let scope_of: Arc<Vec<usize>> = Arc::new({
            let mut names: Vec<&str> = Vec::new();
            tests
                .tests
                .iter()
                .map(|t| match options.per_group {
                    false => 0,
                    true => match names.iter().position(|n| *n == t.group) {
                        Some(i) => i,
                        None => {
                            names.push(&t.group);
                            names.len() - 1
                        }
                    },
                })
                .collect()
        });
        let scopes = scope_of.iter().max().map_or(1, |m| m + 1);
        let files = Arc::new(problem.files.clone());
        // A package's tools judge its output after the run (TLE first).
        let output_ends_run = problem.format != crate::problem::Format::Kattis;
        let passes = problem.validation_passes;
        let first_failure: Arc<Vec<AtomicUsize>> =
            Arc::new((0..scopes).map(|_| AtomicUsize::new(usize::MAX)).collect());
        // With `in_order`, how many tests are done: test i waits for i.
        let (done, _) = tokio::sync::watch::channel(0usize);
        let done = Arc::new(done);
        // With `fail_fast`, how many tests hold or held their slot: test i
        // takes its slot after test i - 1 (tasks start in any order).
        let (started, _) = tokio::sync::watch::channel(0usize);
        let started = Arc::new(started);
        let mut tasks = tokio::task::JoinSet::new();
        for index in 0..tests.tests.len() {
            let judge = self.clone();
            let tests = Arc::clone(tests);
            let exe = exe.clone();
            let checker = checker.clone();
            let first_failure = Arc::clone(&first_failure);
            let scope = scope_of[index];
            let options = options.clone();
            let done = Arc::clone(&done);
            let started = Arc::clone(&started);
            let files = Arc::clone(&files);
            tasks.spawn(async move {
                let test = &tests.tests[index];
                if options.in_order {
                    let mut turn = done.subscribe();
                    turn.wait_for(|&n| n >= index)
                        .await
                        .expect("the sender outlives the tasks");
                }
                let finish = |done: &tokio::sync::watch::Sender<usize>| {
                    done.send_modify(|n| *n = (*n).max(index + 1));
                };
                // With --fail-fast a slot is held until the verdict is
                // known (a later test is not started before); otherwise the
                // run is prepared ahead of its slot, which it gives up as
                // soon as the program is gone, so that the next test's
                // program starts while this one is checked.
                let (mut kept, slot_use) = if options.fail_fast {
                    let mut turn = started.subscribe();
                    turn.wait_for(|&n| n >= index)
                        .await
                        .expect("the sender outlives the tasks");
                    let slot = judge.slot().await;
                    started.send_modify(|n| *n = (*n).max(index + 1));
                    if index > first_failure[scope].load(Ordering::SeqCst) {
                        finish(&done);
                        return (index, Ok(None));
                    }
                    (Some(slot), SlotUse::Held)
                } else {
                    let preparing = judge.inner.preparing.acquire().await.expect("never closed");
                    (None, SlotUse::AfterPreparing(preparing))
                };
                let cpu_cap = margin::run_cpu_limit(limits.time, options.measure_up_to);
                let run = TestRun {
                    exe: &exe,
                    test,
                    checker: &checker,
                    limits,
                    cpu_cap,
                    // A run measured up to a higher limit may take its wall.
                    wall: match options.measure_up_to {
                        Some(_) => wall.max(cpu_cap + Duration::from_millis(500)),
                        None => wall,
                    },
                    keep_output: options.keep_output,
                    files: &files,
                    output_ends_run,
                    passes,
                };
                let result = judge.judge_test(&run, options.no_cache, slot_use).await;
                // Near the limit: judged again alone (its slot given back
                // first, so that waiting for every slot cannot deadlock).
                let result = match result {
                    Ok(t) if !t.cached && (t.contended || margin::near_limit(&t, limits.time)) => {
                        drop(kept.take());
                        judge.judge_again_alone(&run, t).await
                    }
                    other => other,
                };
                // Known as failed before the slot is free for a later test.
                if let Ok(t) = &result {
                    if !t.verdict.is_accepted() {
                        first_failure[scope].fetch_min(index, Ordering::SeqCst);
                    }
                }
                drop(kept);
                finish(&done);
                (index, result.map(Some))
            });
        }
        let mut results: Vec<Option<Option<TestReport>>> = vec![None; tests.tests.len()];
        // With `fail_fast`, a test after a failure of its scope is reported
        // as not run even when it ran alongside (or came from the result
        // cache): the report is the same whatever finished first. Tests are
        // counted in test order, as they are streamed.
        let mut failed = vec![false; scopes];
        let mut counted = vec![false; tests.tests.len()];
        let mut next = 0;
        while let Some(joined) = tasks.join_next().await {
            let (index, result) = joined.expect("test task panicked");
            results[index] = Some(result?);
            while next < results.len() {
                match &results[next] {
                    Some(Some(t)) => {
                        let scope = scope_of[next];
                        if !(options.fail_fast && failed[scope]) {
                            failed[scope] |= !t.verdict.is_accepted();
                            counted[next] = true;
                            on_test(t);
                        }
                    }
                    Some(None) => {}
                    None => break,
                }
                next += 1;
            }
        }
        for ((test, result), counted) in tests.tests.iter().zip(results).zip(counted) {
            match result.expect("every task reported") {
                Some(t) if counted => report.tests.push(t),
                _ => report.skipped.push(test.name.clone()),
            }
        }
        if !report.skipped.is_empty() {
            report.skip_reason = Some(match options.per_group {
                true => SkipReason::AfterFailureInGroup,
                false => SkipReason::AfterFailure,
            });
        }
        report.verdict = overall_verdict(&report.tests);
        report.summary = Summary::of(&report.tests);
        Ok(report)
    }

    /// Judges a built program on one test, holding a slot: what
    /// [`Judge::judge_submission`] does for each of its tests, without the
    /// result cache. `judge stress` calls it once per generated input.
    pub(crate) async fn judge_one(
        &self,
        exe: &Executable,
        test: &TestCase,
        checker: &Checker,
        limits: ProblemLimits,
        files: &FileIo,
        keep_output: bool,
    ) -> Result<TestReport> {
        let limits = limits.for_language(&exe.language);
        let run = TestRun {
            exe,
            test,
            checker,
            limits,
            cpu_cap: margin::run_cpu_limit(limits.time, None),
            wall: wall_limit(limits.time, self.config().limits.wall_factor),
            keep_output,
            files,
            output_ends_run: true,
            passes: None,
        };
        let _slot = self.slot().await;
        self.run_test(&run, SlotUse::Held).await
    }

    /// A test through the result cache: a result kept from an earlier run
    /// of the same program, input, answer, checker and limits is reused.
    async fn judge_test(
        &self,
        run: &TestRun<'_>,
        no_cache: bool,
        slot: SlotUse<'_>,
    ) -> Result<TestReport> {
        let test = run.test;
        // Kept for the next judging even with `no_cache`, which replaces
        // what an earlier judging left.
        let result_key = match (&test.answer, run.keep_output) {
            (Some(answer), false) => Some(self.result_key(run, answer)?),
            _ => None,
        };
        if let Some(key) = result_key.as_ref().filter(|_| !no_cache) {
            if let Some(mut cached) = self
                .cache()
                .get(Kind::Result, key)
                .and_then(|p| std::fs::read(p).ok())
                .and_then(|b| serde_json::from_slice::<TestReport>(&b).ok())
            {
                cached.name = test.name.clone();
                cached.group = test.group.clone();
                cached.cached = true;
                if !cached.verdict.is_accepted() {
                    cached.input = shown_input(&test.input);
                }
                return Ok(cached);
            }
        }
        let held = matches!(slot, SlotUse::Held);
        let mut report = match self.run_test(run, slot).await {
            Err(Error::Overloaded { .. }) => self.judge_when_calmer(run, held).await?,
            other => other?,
        };
        // A TLE far over the limit is the program's, unless the machine is
        // measurably slower now than its calibration: then the load could
        // have made it, and it is judged again alone (and not cached).
        if margin::over_limit(&report, run.limits.time) {
            let slowdown = super::contention::measure(&self.cache().probe_calibration());
            report.contended = slowdown.0 > super::contention::CONTENDED;
        }
        self.keep_result(run, &report)?;
        if !report.verdict.is_accepted() {
            report.input = shown_input(&test.input);
        }
        Ok(report)
    }

    /// A test whose run the machine could not give a CPU: no verdict, so
    /// it waits for a calmer machine and is run again (after 2 s, then
    /// 4 s), and only then is "could not judge: overloaded" the outcome.
    /// (`batch` and `serve` also judge a whole submission again after that.)
    async fn judge_when_calmer(&self, run: &TestRun<'_>, held: bool) -> Result<TestReport> {
        let mut pause = Duration::from_secs(2);
        let mut outcome = None;
        for _ in 0..OVERLOADED_RERUNS {
            tokio::time::sleep(pause).await;
            pause *= 2;
            let result = match held {
                true => self.run_test(run, SlotUse::Held).await,
                false => {
                    let _slot = self.slot().await;
                    self.run_test(run, SlotUse::Held).await
                }
            };
            match result {
                Err(e @ Error::Overloaded { .. }) => outcome = Some(e),
                done => return done,
            }
        }
        Err(outcome.expect("at least one run"))
    }

    /// Checks a run's output: a checker that could not run is IE on the
    /// test (the package's fault), any other failure an error of the judging.
    pub(super) async fn check(
        &self,
        checker: &Checker,
        subject: Subject<'_>,
    ) -> Result<CheckResult> {
        match checker.check(self.sandbox(), subject).await {
            Ok(result) => Ok(result),
            Err(CheckError::Run(e)) => Ok(CheckResult {
                verdict: Verdict::IE,
                message: format!("checker could not run: {}", crate::error::render_chain(&e)),
                position: None,
                diff: None,
                score: None,
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// Keeps a test's result in the result cache as final, unless it says
    /// nothing about the submission (an IE) or the load could have decided
    /// it (near the limit: it is judged again alone, which keeps its own).
    fn keep_result(&self, run: &TestRun<'_>, report: &TestReport) -> Result<()> {
        let (Some(answer), false) = (&run.test.answer, run.keep_output) else {
            return Ok(());
        };
        if report.verdict == Verdict::IE
            || report.contended
            || margin::near_limit(report, run.limits.time)
        {
            return Ok(());
        }
        let key = self.result_key(run, answer)?;
        let bytes = serde_json::to_vec(report).expect("serialisable");
        self.cache().put_bytes(Kind::Result, &key, &bytes)?;
        Ok(())
    }

    /// A test whose result is near its limit (or a TLE on a machine
    /// measured contended), judged again alone: no other run of this judge
    /// (every slot held) nor of any judge on the machine ([`machine`])
    /// beside it, until it is clear or after [`margin::TRIES`] runs, the
    /// least CPU time deciding. The confirming runs may go past the
    /// margin by the machine's slowdown, so that a clear TLE stays one; a
    /// result the load could still have decided is marked contended.
    async fn judge_again_alone(&self, run: &TestRun<'_>, first: TestReport) -> Result<TestReport> {
        let limit = run.limits.time;
        // A TLE far over the limit on a contended machine is judged again
        // while it stays TLE; one near the limit while it stays near.
        let contended_tle = first.contended;
        let mut runs = vec![first];
        let round = self
            .confirm_alone(run, &mut runs, margin::TRIES, contended_tle)
            .await?;
        let mut report = margin::decide(runs);
        report.contended = false;
        let settled = margin::settle(&report, limit, &round);
        if settled != margin::Settled::Clear {
            report.contended = true;
            report.slowdown = Some((round.slowdown * 100.0).round() / 100.0);
            let said = if settled == margin::Settled::Explained {
                format!(
                    "contended: the machine measured {:.2} x slower than its calibration, enough to explain this TLE (a program within the limit, slowed that much, would take this long): judge it again on a calmer machine",
                    round.before
                )
            } else if round.starved {
                "contended: a run to confirm it could not get a CPU, so this result may be the load's".to_string()
            } else if !round.alone {
                "contended: other judges' programs kept running beside the runs that confirm it, so this result may be the load's".to_string()
            } else {
                format!(
                        "contended: the machine measured {:.2} x slower than its calibration, so this result near the limit may be the load's",
                        round.slowdown
                    )
            };
            report.message = match report.message.is_empty() {
                true => said,
                false => format!("{} ({said})", report.message),
            };
        }
        self.keep_result(run, &report)?;
        report.input = match report.verdict.is_accepted() {
            true => None,
            false => shown_input(&run.test.input),
        };
        Ok(report)
    }

    /// Runs of a test near its limit, alone (see [`Self::judge_again_alone`]),
    /// added to `runs` until it holds `most` or the result is clear.
    async fn confirm_alone(
        &self,
        run: &TestRun<'_>,
        runs: &mut Vec<TestReport>,
        most: usize,
        contended_tle: bool,
    ) -> Result<margin::Round> {
        let limit = run.limits.time;
        let slots = u32::try_from(self.config().jobs.get()).unwrap_or(u32::MAX);
        let _own = self
            .inner
            .slots
            .acquire_many(slots)
            .await
            .expect("never closed");
        let dir = Path::new(machine::LOCK_DIR);
        let machine = machine::alone(dir, machine::ALONE_WAIT).await;
        let before = super::contention::measure(&self.cache().probe_calibration());
        let cpu_cap = margin::confirming_cpu_limit(run.cpu_cap, limit, before.0);
        let confirming = TestRun {
            cpu_cap,
            wall: run.wall.max(cpu_cap + Duration::from_millis(500)),
            ..*run
        };
        let mut starved = false;
        while runs.len() < most {
            let best = margin::deciding(runs);
            let again = margin::near_limit(best, limit)
                || contended_tle && best.verdict == Verdict::TLE
                || margin::unclear_tle(best, limit, before.0);
            if !again {
                break;
            }
            match self.run_test(&confirming, SlotUse::Held).await {
                Ok(again) => runs.push(again),
                // A run made only to confirm a result the machine could not
                // give a CPU: the runs made so far decide, marked contended,
                // not "could not judge".
                Err(Error::Overloaded { .. }) => {
                    starved = true;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        let after = super::contention::measure(&self.cache().probe_calibration());
        Ok(margin::Round {
            before: before.0,
            slowdown: before.0.max(after.0),
            starved,
            alone: machine.is_some(),
        })
    }

    /// The key of a test's result: everything the verdict depends on,
    /// the judge's own build included (a new judge may classify anew).
    fn result_key(&self, run: &TestRun<'_>, answer: &Path) -> Result<Key> {
        let answer_key = Key::of_file(answer).map_err(|e| Error::io(answer, e))?;
        let limits = run.limits;
        let limits_id = format!(
            "{} {} {} {} {}",
            limits.time.as_micros(),
            run.cpu_cap.as_micros(),
            limits.memory,
            limits.output,
            run.wall.as_micros()
        );
        Ok(Key::of(&[
            b"result-v2",
            judge_identity().as_bytes(),
            run.exe.key.as_str().as_bytes(),
            run.test.input_key.as_str().as_bytes(),
            answer_key.as_str().as_bytes(),
            run.checker.id().as_bytes(),
            run.test.checker_args.join("\0").as_bytes(),
            limits_id.as_bytes(),
            self.sandbox().isolation().as_str().as_bytes(),
            run.files.describe().as_bytes(),
            format!("passes {:?}", run.passes).as_bytes(),
        ]))
    }

    /// Runs the program on the test, classifies the outcome, and checks the
    /// output when the run went well; a multi-pass problem's test, pass
    /// after pass while its output validator accepts and writes the next
    /// pass's input (`nextpass.in`), as problemtools and BAPCtools judge
    /// it: the first pass that fails decides, a `nextpass.in` beside a
    /// rejection or past `passes` is the validator's error (IE), and the
    /// slowest pass is the test's time.
    async fn run_test(&self, run: &TestRun<'_>, slot: SlotUse<'_>) -> Result<TestReport> {
        let Some(passes) = run.passes else {
            return Ok(self.run_pass(run, slot, None).await?.0);
        };
        let held = matches!(slot, SlotUse::Held);
        // The inputs of the passes after the first, and the feedback
        // directory's files carried from pass to pass: two folders, one
        // read by a pass while it fills the other (empty at the start).
        let inputs = self.inner.scratch.take()?;
        let carried = [
            inputs.path().join("feedback-1"),
            inputs.path().join("feedback-2"),
        ];
        for dir in &carried {
            std::fs::create_dir(dir).map_err(|e| Error::io(dir, e))?;
        }
        let mut slot = Some(slot);
        let mut current = run.test.clone();
        let mut slowest = (0, 0, 0, 0);
        for pass in 1..=passes {
            let next = inputs.path().join(format!("pass-{}.in", pass + 1));
            let this_pass = Pass {
                next_input: &next,
                carried: &carried[(pass as usize + 1) % 2],
                carry_to: &carried[pass as usize % 2],
            };
            let this = TestRun {
                test: &current,
                ..*run
            };
            let (mut report, wrote_next) = match slot.take() {
                Some(first) => self.run_pass(&this, first, Some(this_pass)).await?,
                None if held => self.run_pass(&this, SlotUse::Held, Some(this_pass)).await?,
                None => {
                    let _slot = self.slot().await;
                    self.run_pass(&this, SlotUse::Held, Some(this_pass)).await?
                }
            };
            slowest = (
                slowest.0.max(report.time_ms),
                slowest.1.max(report.wall_ms),
                slowest.2.max(report.memory_kib),
                slowest.3.max(report.limit_percent),
            );
            (
                report.time_ms,
                report.wall_ms,
                report.memory_kib,
                report.limit_percent,
            ) = slowest;
            for times in &mut report.runs {
                (times.cpu_ms, times.wall_ms) = (slowest.0, slowest.1);
            }
            report.name = run.test.name.clone();
            let failed = report.verdict != Verdict::AC;
            // (A validator that failed says why itself: what it left may
            // hold a `nextpass.in` all the same.)
            if failed && wrote_next && report.verdict != Verdict::IE {
                report.verdict = Verdict::IE;
                report.message = format!(
                    "pass {pass}: the output validator wrote {NEXT_PASS} but did not accept (the format makes that the validator's error)"
                );
            } else if !failed && wrote_next && pass == passes {
                report.verdict = Verdict::IE;
                report.message = format!(
                    "pass {pass}: the output validator asked for another pass, past limits.validation_passes ({passes})"
                );
            } else if pass > 1 && !report.message.is_empty() {
                report.message = format!("pass {pass}: {}", report.message);
            }
            if failed || !wrote_next || pass == passes {
                return Ok(report);
            }
            current.input = next;
        }
        unreachable!("the last pass returns")
    }

    /// One run of the program on the test (one pass), classified and
    /// checked; on a multi-pass test's `pass`, whether the output validator
    /// asked for another (see [`Pass::end`]).
    async fn run_pass(
        &self,
        run: &TestRun<'_>,
        slot: SlotUse<'_>,
        pass: Option<Pass<'_>>,
    ) -> Result<(TestReport, bool)> {
        if let Checker::Interactive(interactive) = run.checker {
            return self.run_interactive(run, interactive, slot, pass).await;
        }
        let (exe, test, limits) = (run.exe, run.test, run.limits);
        // A scratch directory: the working directory of unsandboxed runs (a
        // sandboxed run works in the keeper's private /tmp), and where a large
        // output spills and a custom checker works. Only made when needed.
        let needs_scratch = self.sandbox().isolation() == sandbox::Isolation::RlimitOnly
            || run.checker.needs_work_dir();
        let scratch = if needs_scratch {
            Some(self.inner.scratch.take()?)
        } else {
            None
        };
        // (A run with named files may name one `stdout`: its spill goes elsewhere.)
        let spill = match &scratch {
            Some(dir) if run.files.is_standard() => dir.path().join("stdout"),
            _ => self.inner.spill.next()?,
        };
        let (run_files, _remove_sink) = self.run_files(run.files, test)?;
        let request = RunRequest {
            argv: exe.argv(Some(limits.memory)),
            cwd: scratch
                .as_ref()
                .map_or_else(std::env::temp_dir, |d| d.path().to_path_buf()),
            stdin: match &run.files.input {
                Some(_) => Stdin::Null,
                None => Stdin::File(test.input.clone()),
            },
            stdout_spill: Some(spill),
            stdout_to: None,
            environment: Environment::Minimal(exe.env().to_vec()),
            program_dir: Some(exe.dir().to_path_buf()),
            limits: run.sandbox_limits(),
            exchange: Default::default(),
        };
        let mut report = TestReport::of(test);
        let profile = Profile::Submission;
        let outcome = match slot {
            SlotUse::Held => {
                let mut now = sandbox::Turn::now();
                let sandbox = self.sandbox();
                sandbox
                    .run_with_files(&request, profile, &mut now, &run_files)
                    .await
            }
            SlotUse::AfterPreparing(preparing) => {
                let mut turn = sandbox::Turn::when(async move {
                    let slot = self.slot().await;
                    // The next test may be prepared meanwhile.
                    drop(preparing);
                    slot
                });
                let outcome = self
                    .sandbox()
                    .run_with_files(&request, profile, &mut turn, &run_files)
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
        let (outcome, output_file) = match outcome {
            Ok(o) => o,
            // The build's own program does not start (not an executable the
            // system runs): the submission's fault, not a missing tool.
            Err(RunError::Spawn { program, source })
                if exe.language.id == crate::config::EXECUTABLE
                    || Path::new(&program).starts_with(exe.dir()) =>
            {
                report.verdict = Verdict::RE;
                report.message = format!("cannot start the program: {source}");
                return Ok((report, false));
            }
            Err(e) => {
                return Err(Error::from_run(
                    e,
                    Some((&exe.language.id, exe.language.install_hint())),
                ))
            }
        };
        // Declared after `scratch`, so dropped before it is emptied. (A spill
        // left by a run that failed is removed with its directory.)
        let _remove_spill = match &outcome.stdout {
            sandbox::Captured::File { path, .. } => Some(RemoveOnDrop(path.clone())),
            sandbox::Captured::Memory(_) => None,
        };
        report.measured(&outcome, limits.time);
        if let Some(error) = super::classify::overloaded(&outcome, run.wall, &run.test.name) {
            return Err(error);
        }
        let classified = classify(&outcome, &limits, run.wall, exe.address_space_limit());
        // The output: stdout, or the file the problem names.
        let (output, missing) = output_to_check(run.files, outcome.stdout, output_file);
        if run.keep_output {
            let bytes = output.to_vec().unwrap_or_default();
            let shown = &bytes[..bytes.len().min(SHOWN_OUTPUT_MAX)];
            report.output = Some(String::from_utf8_lossy(shown).into_owned());
        }
        if let Some((verdict, message)) = classified.or(missing) {
            report.verdict = verdict;
            report.message = message;
            return Ok((report, false));
        }
        let Some(answer) = &test.answer else {
            report.message =
                "not checked: it ran without error, but there is no answer to compare its output with (the test has none, and the problem no reference)"
                    .into();
            report.unchecked = true;
            return Ok((report, false));
        };
        let subject = Subject {
            input: &test.input,
            output,
            answer,
            work: scratch.as_ref().map(|s| s.path()),
            args: &test.checker_args,
            carried_feedback: pass.map(|p| p.carried),
        };
        let result = self.check(run.checker, subject).await?;
        report.verdict = result.verdict;
        report.message = result.message;
        report.diff = result.diff;
        report.score = result.score;
        let wrote_next = match (pass, &scratch) {
            (Some(pass), Some(dir)) => pass.end(&dir.path().join(crate::check::FEEDBACK))?,
            _ => false,
        };
        Ok((report, wrote_next))
    }
}

/// One pass of a multi-pass test: where its output validator's feedback
/// directory comes from and goes, and its next input.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pass<'a> {
    /// Where the output validator's `nextpass.in` goes: the next pass's input.
    pub(super) next_input: &'a Path,
    /// The files its feedback directory held after the pass before (none
    /// before the first): the output validator finds them there again.
    pub(super) carried: &'a Path,
    /// Where this pass's are kept for the next (emptied first).
    pub(super) carry_to: &'a Path,
}

impl Pass<'_> {
    /// Ends the pass whose output validator left `feedback` (files the
    /// sandbox copied out, within its bounds): its `nextpass.in` becomes the
    /// next pass's input, and the other files are carried to the next pass
    /// (the format's "all other files ... persist between passes"). Whether
    /// there was a `nextpass.in`.
    pub(super) fn end(&self, feedback: &Path) -> Result<bool> {
        if !take_next_pass(feedback, self.next_input)? {
            return Ok(false);
        }
        carry_feedback(feedback, self.carry_to)?;
        Ok(true)
    }
}

/// Replaces the files of `to` with copies of the regular files of
/// `feedback` (links, pipes and folders are not followed nor copied).
fn carry_feedback(feedback: &Path, to: &Path) -> Result<()> {
    use crate::sandbox::untrusted::{copy_files, Dir, TreeLimits};
    sandbox::empty_dir(to).map_err(|e| Error::io(to, e))?;
    let limits = TreeLimits {
        bytes: u64::MAX,
        files: sandbox::KEPT_DIR_FILES,
        depth: 0,
    };
    let from = Dir::open(feedback).map_err(|e| Error::io(feedback, e))?;
    let into = Dir::open(to).map_err(|e| Error::io(to, e))?;
    copy_files(&from, &into, limits, None)
        .map_err(|e| Error::io(feedback, std::io::Error::other(e.to_string())))
}

/// The file a multi-pass problem's output validator writes in its
/// feedback directory: the next pass's input.
pub(super) const NEXT_PASS: &str = "nextpass.in";

/// Moves `nextpass.in` of an output validator's `feedback` directory to
/// `to`: whether there was one (a regular file; a link is not followed).
pub(super) fn take_next_pass(feedback: &Path, to: &Path) -> Result<bool> {
    let from = feedback.join(NEXT_PASS);
    match std::fs::symlink_metadata(&from) {
        Ok(meta) if meta.is_file() => {
            std::fs::rename(&from, to)
                .or_else(|_| std::fs::copy(&from, to).map(|_| ()))
                .map_err(|e| Error::io(&from, e))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// One program on one test, and how.
pub(super) struct TestRun<'a> {
    pub(super) exe: &'a Executable,
    pub(super) test: &'a TestCase,
    pub(super) checker: &'a Checker,
    pub(super) limits: ProblemLimits,
    /// The CPU limit it runs under: past `limits.time` (see [`margin`]).
    pub(super) cpu_cap: Duration,
    pub(super) wall: Duration,
    pub(super) keep_output: bool,
    /// Whether it reads and writes files instead of stdin and stdout.
    pub(super) files: &'a FileIo,
    /// Whether going over the output limit ends the run at once (judge's
    /// own problems), or the run goes on and a time limit decides first
    /// (Kattis/ICPC packages, as their tools judge).
    pub(super) output_ends_run: bool,
    /// A multi-pass problem's most passes; `None`: one.
    pub(super) passes: Option<u32>,
}

impl TestRun<'_> {
    /// What the sandbox allows the submission on this test: the problem's
    /// limits for its language, the wall limit, the executable's address
    /// space, and [`STDERR_KEPT`] of its stderr.
    pub(super) fn sandbox_limits(&self) -> sandbox::Limits {
        sandbox::Limits {
            cpu_time: self.cpu_cap,
            wall_time: self.wall,
            memory: Some(self.limits.memory),
            address_space: self.exe.address_space_limit(),
            stdout: self.limits.output,
            stderr: STDERR_KEPT,
            file_size: self.limits.output,
            output_ends_run: self.output_ends_run,
        }
    }
}

/// This judge's version and the identity of its binary (size and change
/// time), asked once: results kept by another build are not reused.
fn judge_identity() -> &'static str {
    use std::os::unix::fs::MetadataExt;
    static IDENTITY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IDENTITY.get_or_init(|| {
        let binary = crate::sandbox::own_executable_metadata()
            .map(|m| format!("{} {} {}", m.len(), m.mtime(), m.mtime_nsec()))
            .unwrap_or_default();
        format!("{} {binary}", env!("CARGO_PKG_VERSION"))
    })
}
