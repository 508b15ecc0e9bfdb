//! `judge stress`: runs a file on inputs from the package's generator until
//! its output disagrees with a trusted solution's (per the problem's checker)
//! or it fails (RE, TLE, MLE, OLE), then shrinks that input with
//! [`shrink`]. The main function is [`stress`], which returns a
//! [`StressReport`]; `report::stress` renders it.
//!
//! One iteration: generator (`[stress] generate` with `{seed}` and `{size}`)
//! → validator (an invalid input is counted and skipped, never used) → the
//! expected answer (reference, brute force, or another file) → the file, in
//! the sandbox → the checker. Iterations run concurrently within `--jobs`,
//! and the result is deterministic: iteration `i` always has the same seed
//! and size, and the counterexample is the failing iteration with the lowest
//! index among those run (later ones in flight are waited for and ignored).

mod counterexample;
mod harness;
mod shrink;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use counterexample::shrink_failure;
use harness::{Evaluation, Failure, Harness};

use crate::compile::{Build, Executable};
use crate::engine::{AnswerProgram, Judge, Submission};
use crate::error::{Error, Needed, PackageError, Result};
use crate::problem::{Problem, Role, StressSpec};
use crate::report::stress::{Progress, StressReport};
use crate::report::SCHEMA_VERSION;

/// Iterations run when neither `--iterations` nor `--time` is given.
pub(crate) const DEFAULT_ITERATIONS: u64 = 1000;
/// Iterations per size: the size grows every this many iterations.
pub(crate) const ITERATIONS_PER_SIZE: u64 = 10;
/// Sizes up to this one grow by 1; larger ones by a tenth.
const LINEAR_SIZES: u64 = 10;
/// No size is larger (the schedule stops growing there).
const MAX_SIZE: u64 = 1 << 40;
/// Candidates evaluated at most while shrinking (the result then says it
/// may not be minimal).
pub(crate) const MAX_SHRINK_TRIES: usize = 20_000;
/// Output kept per shown stream (expected, actual) in the report.
const SHOWN_MAX: usize = 64 << 10;

/// Where the expected answers come from.
#[derive(Debug, Clone)]
pub(crate) enum Against {
    /// The package's reference solution.
    Reference,
    /// The package's brute force (inputs outside its bounds are skipped).
    Brute,
    /// Another file, trusted like a reference but run in the sandbox.
    File(Box<Submission>),
}

/// What to run and for how long.
#[derive(Debug, Clone)]
pub(crate) struct StressOptions {
    /// Where the expected answers come from.
    pub(crate) against: Against,
    /// The seed every iteration's seed is derived from.
    pub(crate) seed: u64,
    /// Stop after this many iterations (`None`: no limit but `time`).
    pub(crate) iterations: Option<u64>,
    /// Stop starting iterations after this long.
    pub(crate) time: Option<Duration>,
}

/// The seed of iteration `i` (from 0): a mix of `seed` and `i`, below 2^31
/// so that any generator can parse it.
pub(crate) fn iteration_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i.wrapping_add(1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & 0x7FFF_FFFF
}

/// The size iteration `i` (from 0) asks for: 1 for the first
/// [`ITERATIONS_PER_SIZE`] iterations, then 2, and so on up to 10, then a
/// tenth more every [`ITERATIONS_PER_SIZE`] iterations (11, 12, ..., 20, 22,
/// 24, ...), so that generators with large sizes reach them (2000 after 700
/// iterations). Integer arithmetic: the same on every machine.
pub(crate) fn scheduled_size(i: u64) -> u64 {
    let block = i / ITERATIONS_PER_SIZE;
    let mut size = (block + 1).min(LINEAR_SIZES);
    for _ in LINEAR_SIZES..=block {
        size += (size / 10).max(1);
        if size >= MAX_SIZE {
            return MAX_SIZE;
        }
    }
    size
}

/// Sizes asked for and the largest the generator accepts.
#[derive(Debug, Default)]
struct Sizes {
    /// Largest size the generator is known to accept.
    accepted: u64,
    /// Largest size it accepts, once it refused a larger one.
    cap: Option<u64>,
}

impl Sizes {
    fn for_iteration(&self, i: u64) -> u64 {
        let size = scheduled_size(i);
        self.cap.map_or(size, |cap| size.min(cap))
    }
}

/// How an iteration ended, when it stops the search.
enum Stop {
    Failed(Box<Failure>, Vec<u8>),
    Error(Error),
}

struct IterationPlan {
    index: u64,
    seed: u64,
    size: u64,
    args: Vec<String>,
}

/// Stresses `submission` on `problem`; see the module documentation.
/// `on_progress` is called about once a second.
pub(crate) async fn stress(
    judge: &Judge,
    problem: &Arc<Problem>,
    submission: &Submission,
    options: &StressOptions,
    mut on_progress: impl FnMut(&Progress),
) -> Result<StressReport> {
    let missing = |needed| Error::package(&problem.id, PackageError::Missing(needed));
    let Some(validator_spec) = &problem.validator else {
        return Err(missing(Needed::StressValidator));
    };
    let (Some(spec), Some(generator_spec)) = (&problem.stress, &problem.generator) else {
        return Err(missing(Needed::StressGenerator));
    };
    let file = build_file(judge, submission).await?;
    let (answers, bounds) = match &options.against {
        Against::Reference => {
            let Some(reference) = &problem.reference else {
                return Err(missing(Needed::StressReference));
            };
            let exe = judge
                .build_package_program(problem, reference, Role::Reference)
                .await?;
            (AnswerProgram::Reference(exe), None)
        }
        Against::Brute => {
            let Some(brute) = &problem.brute else {
                return Err(missing(Needed::StressBrute));
            };
            let exe = judge
                .build_package_program(problem, &brute.program, Role::Brute)
                .await?;
            let bounds = (!brute.validator_args.is_empty()).then(|| brute.validator_args.clone());
            (AnswerProgram::Brute(exe), bounds)
        }
        Against::File(other) => (
            AnswerProgram::Untrusted {
                exe: build_file(judge, other).await?,
                memory: problem.limits.memory,
            },
            None,
        ),
    };
    let harness = Arc::new(Harness {
        judge: judge.clone(),
        problem: Arc::clone(problem),
        file,
        answers,
        generator: judge
            .build_package_program(problem, generator_spec, Role::Generator)
            .await?,
        validator: judge
            .build_package_program(problem, &validator_spec.program, Role::Validator)
            .await?,
        validator_args: validator_spec.args.clone(),
        bounds,
        checker: judge.prepare_checker(problem).await?,
        work: judge.cache().scratch_dir()?,
        next_dir: AtomicU64::new(0),
    });

    let started = Instant::now();
    let deadline = options.time.map(|t| started + t);
    let limit = match (options.iterations, options.time) {
        (Some(n), _) => n,
        (None, Some(_)) => u64::MAX,
        (None, None) => DEFAULT_ITERATIONS,
    };
    let window = judge.config().jobs.max(1) * 2;
    let grows = spec.grows();
    let mut sizes = Sizes::default();
    let mut tasks = tokio::task::JoinSet::new();
    let mut next: u64 = 0;
    let mut stops: BTreeMap<u64, (Stop, IterationPlan)> = BTreeMap::new();
    let (mut done, mut invalid) = (0u64, 0u64);
    let mut max_size = None;
    let mut last_progress = Instant::now();
    loop {
        while stops.is_empty()
            && tasks.len() < window
            && next < limit
            && deadline.is_none_or(|d| Instant::now() < d)
        {
            let (plan, pregenerated) =
                plan_iteration(&harness, spec, options.seed, next, grows, &mut sizes).await?;
            max_size = grows.then_some(plan.size);
            let h = Arc::clone(&harness);
            tasks.spawn(async move {
                let result = run_iteration(&h, &plan, pregenerated).await;
                (plan, result)
            });
            next += 1;
        }
        if tasks.is_empty() {
            break;
        }
        let tick = tokio::time::sleep(Duration::from_millis(250));
        tokio::select! {
            joined = tasks.join_next() => {
                let (plan, result) = joined.expect("not empty").expect("stress iteration panicked");
                done += 1;
                match result {
                    Ok((_, Evaluation::Passed)) => {}
                    Ok((_, Evaluation::Invalid)) => invalid += 1,
                    Ok((input, Evaluation::Failed(failure))) => {
                        stops.insert(plan.index, (Stop::Failed(failure, input), plan));
                    }
                    Ok((_, Evaluation::AnswerFailed(why))) => {
                        let e = harness.package_err(PackageError::StressAnswer {
                            iteration: plan.index + 1,
                            args: plan.args.clone(),
                            why,
                        });
                        stops.insert(plan.index, (Stop::Error(e), plan));
                    }
                    Err(e) => {
                        stops.insert(plan.index, (Stop::Error(e), plan));
                    }
                }
            }
            _ = tick => {}
        }
        if last_progress.elapsed() >= Duration::from_secs(1) {
            last_progress = Instant::now();
            on_progress(&Progress::Searching {
                done,
                invalid,
                per_second: per_second(done, started.elapsed()),
                size: max_size,
            });
        }
    }
    let elapsed = started.elapsed();
    let mut report = StressReport {
        schema_version: SCHEMA_VERSION,
        problem: problem.id.clone(),
        submission: submission.path.display().to_string(),
        language: submission.language.id.clone(),
        language_name: submission.language.name.clone(),
        against: match &options.against {
            Against::Reference => "reference".into(),
            Against::Brute => "brute".into(),
            Against::File(other) => other.path.display().to_string(),
        },
        seed: options.seed,
        iterations: done,
        invalid,
        elapsed_ms: elapsed.as_millis() as u64,
        iterations_per_second: per_second(done, elapsed),
        max_size,
        size_cap: sizes.cap,
        counterexample: None,
    };
    let Some((_, (stop, plan))) = stops.into_iter().next() else {
        return Ok(report);
    };
    let (failure, original) = match stop {
        Stop::Error(e) => return Err(e),
        Stop::Failed(failure, input) => (failure, input),
    };
    report.counterexample =
        Some(shrink_failure(&harness, plan, *failure, original, &mut on_progress).await?);
    Ok(report)
}

fn per_second(done: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (done as f64 / secs * 10.0).round() / 10.0
    } else {
        0.0
    }
}

/// Compiles a file that must run; a compile error stops the stress run.
async fn build_file(judge: &Judge, submission: &Submission) -> Result<Executable> {
    match judge.build(&submission.path, &submission.language).await? {
        Build::Ready(exe, _) => Ok(*exe),
        Build::Failed(report) => Err(Error::DoesNotCompile {
            path: submission.path.clone(),
            message: report.message,
        }),
    }
}

/// Picks iteration `index`'s seed and size. The first iteration of a larger
/// size runs its generator here, before more iterations start: if the
/// generator refuses that size, the largest size it accepts is searched for
/// (bisecting between the last accepted size and the refused one, with this
/// iteration's seed) and used for this and every later iteration, whatever
/// ran in parallel.
async fn plan_iteration(
    harness: &Harness,
    spec: &StressSpec,
    seed: u64,
    index: u64,
    grows: bool,
    sizes: &mut Sizes,
) -> Result<(IterationPlan, Option<Vec<u8>>)> {
    let seed = iteration_seed(seed, index);
    loop {
        let size = sizes.for_iteration(index);
        let args = spec.args(seed, size);
        let plan = IterationPlan {
            index,
            seed,
            size,
            args,
        };
        if !grows || size <= sizes.accepted {
            return Ok((plan, None));
        }
        match harness.generate(&plan.args).await? {
            Ok(input) => {
                sizes.accepted = size;
                return Ok((plan, Some(input)));
            }
            Err(why) if sizes.accepted == 0 => {
                return Err(harness.package_err(PackageError::StressGenerator {
                    args: plan.args,
                    why,
                }))
            }
            Err(_) => {
                let (mut lo, mut hi) = (sizes.accepted, size - 1);
                while lo < hi {
                    let mid = lo + (hi - lo).div_ceil(2);
                    if harness.generate(&spec.args(seed, mid)).await?.is_ok() {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                sizes.accepted = lo;
                sizes.cap = Some(lo);
            }
        }
    }
}

/// One iteration: the input (generated unless given) and its evaluation.
async fn run_iteration(
    harness: &Harness,
    plan: &IterationPlan,
    pregenerated: Option<Vec<u8>>,
) -> Result<(Vec<u8>, Evaluation)> {
    let input = match pregenerated {
        Some(input) => input,
        None => harness.generate(&plan.args).await?.map_err(|why| {
            harness.package_err(PackageError::StressGenerator {
                args: plan.args.clone(),
                why,
            })
        })?,
    };
    let evaluation = harness.evaluate(&input).await?;
    Ok((input, evaluation))
}

/// The default place of the minimal input: `<cache>/stress/<problem>-<seed>.in`.
pub(crate) fn default_save_path(cache_root: &Path, problem: &str, seed: u64) -> PathBuf {
    cache_root
        .join("stress")
        .join(format!("{problem}-{seed}.in"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_seeds_are_stable_and_distinct() {
        let first: Vec<u64> = (0..4).map(|i| iteration_seed(1, i)).collect();
        // Pinned: a change here changes every stress run's inputs.
        assert_eq!(first, [1153021081, 1722151100, 1094415033, 494846491]);
        let mut all: Vec<u64> = (0..1000).map(|i| iteration_seed(7, i)).collect();
        assert!(all.iter().all(|&s| s < 1 << 31));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 1000);
        assert_ne!(iteration_seed(1, 1), iteration_seed(2, 0));
    }

    #[test]
    fn sizes_grow_by_one_then_by_a_tenth_up_to_the_cap() {
        let first_of_blocks: Vec<u64> = (0..26).map(|b| scheduled_size(b * 10)).collect();
        assert_eq!(
            first_of_blocks,
            [
                1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22, 24, 26,
                28, 30, 33
            ]
        );
        assert_eq!(scheduled_size(9), 1);
        assert!(scheduled_size(699) < 2000 && scheduled_size(700) >= 2000);
        assert_eq!(scheduled_size(u64::MAX), MAX_SIZE);
        let sizes = Sizes {
            accepted: 6,
            cap: Some(6),
        };
        assert_eq!(sizes.for_iteration(55), 6);
        assert_eq!(sizes.for_iteration(500), 6);
        assert_eq!(sizes.for_iteration(12), 2);
    }
}
