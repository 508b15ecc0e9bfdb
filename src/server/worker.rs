//! The judging of a live contest: claims from the queue, judged by the
//! same engine as `judge batch` (sandbox, lazy ICPC/IOI judging, the
//! result cache, the `--jobs` slots), and written back with its runs. A
//! claim is a lease, renewed while the judging lasts; the outcome is
//! written only if the lease is still this judge's. The main function is
//! [`judge_queue`].

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::store::{Claim, Finished, Holder, Store};
use crate::check::Checker;
use crate::compile::{CompileReport, CompileStatus};
use crate::config::{Language, ANSWERS};
use crate::contest::clock::{now_ms, EpochMs};
use crate::contest::run::ioi_score;
use crate::engine::{Judge, RunOptions, Submission};
use crate::error::Error;
use crate::error::{render_chain, Result};
use crate::problem::Problem;
use crate::report::{LimitsReport, SubmissionReport, Summary};
use crate::testset::TestSet;
use crate::verdict::Verdict;

/// How long a claim lasts without renewal.
const LEASE_MS: i64 = 60_000;
/// How often a judge renews its claims.
const RENEW_EVERY: Duration = Duration::from_secs(20);
/// How often an idle judge looks at the queue when nothing woke it (on
/// PostgreSQL, NOTIFY wakes it when work is queued: the poll only finds
/// the claims of judges that died).
const POLL: Duration = Duration::from_secs(2);
/// How long a judge waits before trying the database again after an error
/// (a restart of PostgreSQL, a network cut).
const RETRY: Duration = Duration::from_secs(2);
/// How often the outcome of a judging is tried before it is given up (the
/// claim then expires and another judge judges it again).
const FINISH_TRIES: u32 = 5;

/// A problem ready to judge on.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    /// The problem (its time limit settled).
    pub(crate) problem: Arc<Problem>,
    /// Its tests.
    pub(crate) tests: Arc<TestSet>,
    /// Its checker.
    pub(crate) checker: Checker,
}

/// The time the queue itself takes per judgement (the claim's transaction
/// and the outcome's), kept by a judging host and reported on stderr when
/// it stops: what the queue costs beside the judging.
#[derive(Debug)]
pub(crate) struct QueueTimes {
    /// Microseconds per judgement.
    samples: Mutex<Vec<u64>>,
    /// Whether to report them when dropped.
    report: bool,
}

impl QueueTimes {
    /// Kept, and reported when dropped if `report`.
    pub(crate) fn new(report: bool) -> Arc<QueueTimes> {
        Arc::new(QueueTimes {
            samples: Mutex::default(),
            report,
        })
    }

    fn add(&self, spent: Duration) {
        self.samples
            .lock()
            .expect("not poisoned")
            .push(spent.as_micros() as u64);
    }
}

impl Drop for QueueTimes {
    fn drop(&mut self) {
        let mut samples = std::mem::take(self.samples.get_mut().expect("not poisoned"));
        if !self.report || samples.is_empty() {
            return;
        }
        samples.sort_unstable();
        let at = |p: usize| samples[(samples.len() - 1) * p / 100] as f64 / 1000.0;
        let mean = samples.iter().sum::<u64>() as f64 / samples.len() as f64 / 1000.0;
        eprintln!(
            "queue: {} judgements; claiming one and writing its outcome took p50 {:.2} ms, \
             p99 {:.2} ms, mean {mean:.2} ms",
            samples.len(),
            at(50),
            at(99)
        );
    }
}

/// What the judging needs besides the engine.
#[derive(Debug, Clone)]
pub(crate) struct Judging {
    /// The store.
    pub(crate) store: Store,
    /// The problems, by id.
    pub(crate) problems: Arc<BTreeMap<String, Prepared>>,
    /// The contest's languages, by id.
    pub(crate) languages: Arc<BTreeMap<String, Language>>,
    /// Who claims (the claims of a dead judge of this name are requeued at
    /// its next start).
    pub(crate) holder: Holder,
    /// IOI scoring: a subtask stops at its first failure, not the submission.
    pub(crate) ioi: bool,
    /// Submissions judged at once (each test still takes one of the
    /// engine's slots).
    pub(crate) parallel: usize,
    /// Where sources are written to be judged.
    pub(crate) scratch: PathBuf,
    /// Never reuse cached results (`--no-cache`).
    pub(crate) no_cache: bool,
    /// The queue's own time per judgement.
    pub(crate) queue_times: Arc<QueueTimes>,
}

/// Judges the queue for ever (until the future is dropped). Errors of the
/// database are reported and tried again; a judging host whose problems
/// are no longer the server's stops with an error.
pub(crate) async fn judge_queue(judge: Judge, judging: Judging) -> Result<()> {
    let requeued = judging
        .store
        .requeue_claims_of(&judging.holder.name)
        .await?;
    if requeued > 0 {
        eprintln!(
            "judging again {requeued} submission(s) that were being judged when {} stopped",
            if judging.holder.name == super::store::SERVER {
                "the server".to_string()
            } else {
                format!("the judging host `{}`", judging.holder.name)
            }
        );
    }
    let mut loops = tokio::task::JoinSet::new();
    for _ in 0..judging.parallel.max(1) {
        let (judge, judging) = (judge.clone(), judging.clone());
        loops.spawn(async move {
            let mut failing = false;
            loop {
                let asked = std::time::Instant::now();
                let claim = judging
                    .store
                    .claim(&judging.holder, now_ms(), LEASE_MS)
                    .await;
                match claim {
                    Ok(Ok(Some(claim))) => {
                        failing = false;
                        judge_claim(&judge, &judging, claim, asked.elapsed()).await;
                    }
                    Ok(Ok(None)) => {
                        failing = false;
                        judging.store.changes().queued(POLL).await;
                    }
                    Ok(Err(_stale)) => {
                        return Err(crate::error::Error::Server {
                            what: "the server now judges with other problems or languages than \
                                   this host's (it was restarted with a changed contest): update \
                                   this host's copy and start it again"
                                .into(),
                            source: None,
                        })
                    }
                    Err(e) => {
                        if !failing {
                            eprintln!("{}; trying again", render_chain(&e));
                        }
                        failing = true;
                        tokio::time::sleep(RETRY).await;
                    }
                }
            }
        });
    }
    while let Some(done) = loops.join_next().await {
        done.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))?;
    }
    Ok(())
}

/// Judges one claimed submission and writes its outcome.
async fn judge_claim(judge: &Judge, judging: &Judging, claim: Claim, claiming: Duration) {
    let owner = judging.holder.name.as_str();
    let renewing = async {
        let mut every = tokio::time::interval(RENEW_EVERY);
        every.tick().await;
        loop {
            every.tick().await;
            let until = now_ms() + LEASE_MS;
            match judging.store.renew(owner, claim.judgement, until).await {
                Ok(true) => {}
                // Lost: another judge took it (our lease ran out, or our
                // lock's connection dropped). Stop judging it.
                Ok(false) => return,
                // The database is unreachable for now: keep judging; the
                // outcome is written only if the claim is still ours.
                Err(_) => {}
            }
        }
    };
    let finished = tokio::select! {
        finished = outcome(judge, judging, &claim) => finished,
        () = renewing => return,
    };
    let id = claim.submission.id;
    for attempt in 1..=FINISH_TRIES {
        let writing = std::time::Instant::now();
        match judging.store.finish(owner, &claim, finished.clone()).await {
            Ok(true) => {
                judging.queue_times.add(claiming + writing.elapsed());
                return;
            }
            Ok(false) => {
                eprintln!(
                    "submission {id}: its claim passed to another judge (or its rejudging was \
                     cancelled); this judging is dropped"
                );
                return;
            }
            Err(e) if attempt < FINISH_TRIES => {
                eprintln!("submission {id}: {}; trying again", render_chain(&e));
                tokio::time::sleep(RETRY * attempt).await;
            }
            Err(e) => eprintln!(
                "submission {id}: {}; given up (another judge judges it again when the claim \
                 expires)",
                render_chain(&e)
            ),
        }
    }
}

/// Judges a claim into its outcome; a submission that cannot be judged
/// (its language's compiler missing, say) gets a judging error (JE) that
/// says why, for the jury to see and rejudge.
async fn outcome(judge: &Judge, judging: &Judging, claim: &Claim) -> Finished {
    let times: Mutex<HashMap<String, EpochMs>> = Mutex::new(HashMap::new());
    let report = judge_source(judge, judging, claim, &times).await;
    let end = now_ms();
    let (report, problem) = match report {
        Ok(done) => done,
        Err(why) => {
            return Finished {
                verdict: Verdict::IE,
                score: 0,
                max_run_ms: 0,
                end,
                runs: Vec::new(),
                report: could_not_judge(claim, &why),
            }
        }
    };
    let prepared = &judging.problems[&claim.submission.problem];
    let ordinals: HashMap<&str, u32> = prepared
        .tests
        .tests
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i as u32 + 1))
        .collect();
    let times = times.into_inner().expect("not poisoned");
    let runs = report
        .tests
        .iter()
        .map(|t| {
            (
                ordinals.get(t.name.as_str()).copied().unwrap_or(0),
                t.verdict,
                t.time_ms,
                times.get(&t.name).copied().unwrap_or(end),
            )
        })
        .collect();
    Finished {
        verdict: report.verdict,
        score: ioi_score(&problem, &report),
        max_run_ms: report.summary.max_time_ms,
        end,
        runs,
        report,
    }
}

async fn judge_source(
    judge: &Judge,
    judging: &Judging,
    claim: &Claim,
    times: &Mutex<HashMap<String, EpochMs>>,
) -> std::result::Result<(SubmissionReport, Arc<Problem>), String> {
    let s = &claim.submission;
    let prepared = judging.problems.get(&s.problem).ok_or_else(|| {
        format!(
            "the problem `{}` is not in this contest any more",
            s.problem
        )
    })?;
    let language = judging.languages.get(&s.language).ok_or_else(|| {
        format!(
            "the language `{}` is not in this contest any more",
            s.language
        )
    })?;
    let dir = tempfile::Builder::new()
        .prefix("submission-")
        .tempdir_in(&judging.scratch)
        .map_err(|e| {
            format!(
                "cannot make a scratch folder in {}: {e}",
                judging.scratch.display()
            )
        })?;
    let first = std::iter::once((&s.filename, &claim.source));
    let others = claim.others.iter().map(|f| (&f.name, &f.content));
    for (name, content) in first.chain(others) {
        let path = dir.path().join(name);
        std::fs::write(&path, content)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let (path, companions) = if claim.others.is_empty() {
        (dir.path().join(&s.filename), Vec::new())
    } else if s.language == ANSWERS {
        // Answers, one file per test: the folder, read as `judge run` reads one.
        (dir.path().to_path_buf(), Vec::new())
    } else {
        // Several files: a folder, as `judge run` judges one (its main
        // source among the files of the language named, when that language
        // has extensions of its own; else of the most files).
        let config = judge.config();
        let own = config
            .languages
            .iter()
            .any(|l| l.id == language.id && !l.extensions.is_empty());
        let (main, companions, _) = crate::engine::directory_submission(
            dir.path(),
            own.then_some(language.id.as_str()),
            config,
        )
        .map_err(|e| render_chain(&e))?;
        (main, companions)
    };
    let options = RunOptions {
        fail_fast: true,
        per_group: judging.ioi,
        no_cache: judging.no_cache || claim.rejudge,
        ..RunOptions::default()
    };
    let submission = Submission {
        path,
        shown: None,
        language: language.clone(),
        companions,
        text: None,
    };
    let mut report = judge
        .judge_submission_queued(
            &prepared.problem,
            &prepared.tests,
            &prepared.checker,
            &submission,
            &options,
            |test| {
                times
                    .lock()
                    .expect("not poisoned")
                    .insert(test.name.clone(), now_ms());
            },
        )
        .await
        .map_err(|e| render_chain(&e))?;
    report.submission = s.filename.clone();
    Ok((report, Arc::clone(&prepared.problem)))
}

/// The report of a submission that could not be judged.
pub(crate) fn could_not_judge(claim: &Claim, why: &str) -> SubmissionReport {
    SubmissionReport {
        schema_version: crate::report::SCHEMA_VERSION,
        problem: claim.submission.problem.clone(),
        submission: claim.submission.filename.clone(),
        language: claim.submission.language.clone(),
        verdict: Verdict::IE,
        compile: CompileReport {
            status: CompileStatus::None,
            message: format!("could not judge: {why}"),
            time_ms: 0,
            cached: false,
        },
        limits: LimitsReport {
            time_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            output_kib: 0,
        },
        isolation: String::new(),
        isolation_gaps: None,
        tests: Vec::new(),
        skipped: Vec::new(),
        skip_reason: None,
        summary: Summary::of(&[]),
    }
}

/// Makes `dir` the judging's scratch folder, empty and its owner's only
/// (0700): what a server or host killed mid-judging left there (copies of
/// teams' sources) is removed at start. A folder of another user's there is
/// refused.
pub(crate) fn fresh_scratch(dir: &std::path::Path) -> Result<PathBuf, Error> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let mine = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
    match std::fs::symlink_metadata(dir) {
        Ok(m) if !m.is_dir() || Some(m.uid()) != mine => {
            return Err(Error::Server {
                what: format!(
                    "{} is not a folder of this user's: remove it, it would hold the judging's \
                     copies of teams' sources",
                    dir.display()
                ),
                source: None,
            })
        }
        Ok(_) => std::fs::remove_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?,
        Err(_) => {}
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
    Ok(dir.to_path_buf())
}
