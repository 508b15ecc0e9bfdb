//! The search for a failing input: iterations planned in order, run
//! concurrently within `--jobs`, the lowest failing one kept and shrunk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::counterexample::shrink_failure;
use super::harness::{Evaluation, Failure, Harness};
use super::schedule::{iteration_seed, IterationPlan, Sizes};
use crate::compile::{Build, Executable};
use crate::engine::{AnswerProgram, Judge, Submission};
use crate::error::{Error, Needed, PackageError, Result};
use crate::problem::{Problem, Role, StressSpec};
use crate::report::stress::{Progress, StressReport};
use crate::report::SCHEMA_VERSION;

/// Iterations run when neither `--iterations` nor `--time` is given.
pub(crate) const DEFAULT_ITERATIONS: u64 = 1000;

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

/// How an iteration ended, when it stops the search.
pub(super) enum Stop {
    Failed(Box<Failure>, Vec<u8>),
    Error(Error),
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
    let (problem, _) = judge.settle_time_limit(problem).await?;
    let problem = &problem;
    let missing = |needed| Error::package(&problem.id, PackageError::Missing(needed));
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
        // Without a validator (a contestant's generator on a samples
        // folder) every generated input is used.
        validator: match problem.validator() {
            Some(spec) => Some((
                judge
                    .build_package_program(problem, &spec.program, Role::Validator)
                    .await?,
                spec.args.clone(),
                spec.valid_exit,
            )),
            None => None,
        },
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
    let window = judge.config().jobs.get() * 2;
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

pub(super) fn per_second(done: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (done as f64 / secs * 10.0).round() / 10.0
    } else {
        0.0
    }
}

/// Compiles a file that must run; a compile error stops the stress run.
pub(super) async fn build_file(judge: &Judge, submission: &Submission) -> Result<Executable> {
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
pub(super) async fn plan_iteration(
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
pub(super) async fn run_iteration(
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
