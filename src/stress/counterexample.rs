//! From a failing input to the report's counterexample: the input shrunk
//! ([`super::shrink`]) while it still fails the same way.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::harness::{Evaluation, Failure, Harness, SHOWN_MAX};
use super::schedule::IterationPlan;
use super::shrink;
use crate::error::{Error, Result};
use crate::problem::StressSpec;
use crate::report::stress::{Counterexample, InputSummary, Progress, ShrinkSummary};
use crate::verdict::Verdict;

/// Candidates evaluated at most while shrinking (the result then says it
/// may not be minimal).
const MAX_SHRINK_TRIES: usize = 20_000;

/// Shrinks a failing input to a minimal one that fails the same way.
pub(super) async fn shrink_failure(
    harness: &Arc<Harness>,
    plan: IterationPlan,
    failure: Failure,
    original: Vec<u8>,
    on_progress: &mut impl FnMut(&Progress),
) -> Result<Counterexample> {
    let verdict = failure.report.verdict;
    // The failure of every candidate that failed the same way, by text.
    let failures: Arc<Mutex<BTreeMap<String, Failure>>> = Arc::default();
    let (minimal, steps, tried, complete) = match String::from_utf8(original.clone()) {
        Ok(text) => {
            let batch = harness.judge.config().jobs.get();
            let smallest = Arc::new(AtomicU64::new(text.len() as u64));
            let mut tried = 0usize;
            let mut last_progress = Instant::now();
            let shrunk = shrink::minimise(&text, batch, MAX_SHRINK_TRIES, |candidates| {
                tried += candidates.len();
                if last_progress.elapsed() >= Duration::from_secs(1) {
                    last_progress = Instant::now();
                    on_progress(&Progress::Shrinking {
                        tried,
                        smallest: smallest.load(Ordering::Relaxed) as usize,
                    });
                }
                let (h, failures, smallest) = (
                    Arc::clone(harness),
                    Arc::clone(&failures),
                    Arc::clone(&smallest),
                );
                async move {
                    let fails = evaluate_batch(&h, candidates.clone(), verdict).await?;
                    let verdicts = fails.iter().map(Option::is_some).collect();
                    let mut kept = failures.lock().expect("not poisoned");
                    for (text, failure) in candidates.into_iter().zip(fails) {
                        if let Some(f) = failure {
                            smallest.fetch_min(text.len() as u64, Ordering::Relaxed);
                            kept.insert(text, f);
                        }
                    }
                    Ok::<_, Error>(verdicts)
                }
            })
            .await?;
            (
                shrunk.text.into_bytes(),
                shrunk.steps,
                shrunk.tried,
                shrunk.complete,
            )
        }
        Err(_) => (original.clone(), Vec::new(), 0, false),
    };
    let last = failures
        .lock()
        .expect("not poisoned")
        .remove(std::str::from_utf8(&minimal).unwrap_or_default())
        .unwrap_or(failure);
    Ok(Counterexample {
        iteration: plan.index + 1,
        size: harness
            .problem
            .stress
            .as_ref()
            .is_some_and(StressSpec::grows)
            .then_some(plan.size),
        iteration_seed: plan.seed,
        generator_args: plan.args,
        verdict,
        original: InputSummary::of(&original),
        minimal: InputSummary::of(&minimal),
        shrink: ShrinkSummary {
            steps,
            candidates_tried: tried,
            complete,
        },
        expected: if last.report.interaction.is_some() {
            String::new()
        } else {
            shown(&last.expected)
        },
        actual: last
            .report
            .output
            .as_deref()
            .map(|o| shown(o.as_bytes()))
            .unwrap_or_default(),
        message: last.report.message,
        diff: last.report.diff,
        saved: None,
        replay: None,
        interaction: last.report.interaction,
    })
}

/// Evaluates candidates concurrently; for each, its failure when it fails
/// with `verdict` (invalid ones and other outcomes are not failures).
async fn evaluate_batch(
    harness: &Arc<Harness>,
    candidates: Vec<String>,
    verdict: Verdict,
) -> Result<Vec<Option<Failure>>> {
    let mut tasks = tokio::task::JoinSet::new();
    for (i, text) in candidates.into_iter().enumerate() {
        let h = Arc::clone(harness);
        tasks.spawn(async move { (i, h.evaluate(text.as_bytes()).await) });
    }
    let mut out: Vec<Option<Failure>> = Vec::new();
    out.resize_with(tasks.len(), || None);
    let mut first_error: Option<(usize, Error)> = None;
    while let Some(joined) = tasks.join_next().await {
        let (i, result) = joined.expect("shrink evaluation panicked");
        match result {
            Ok(Evaluation::Failed(f)) if f.report.verdict == verdict => out[i] = Some(*f),
            Ok(_) => {}
            Err(e) if first_error.as_ref().is_none_or(|(j, _)| i < *j) => {
                first_error = Some((i, e))
            }
            Err(_) => {}
        }
    }
    match first_error {
        Some((_, e)) => Err(e),
        None => Ok(out),
    }
}

fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN_MAX)]).into_owned()
}
