//! A problem made ready to judge: its test set, its checker, and its time
//! limit settled. A package of the ICPC format without a time limit has it
//! inferred, as problemtools does: its accepted submissions are judged
//! under a generous limit, and the limit is the slowest one's CPU time on
//! its slowest test times the package's multiplier, rounded up.

use std::sync::Arc;
use std::time::Duration;

use super::{Judge, RunOptions};
use crate::check::Checker;
use crate::error::{Error, PackageError, Result};
use crate::problem::{Problem, TimeRule};
use crate::testset::{TestFilter, TestSet};
use crate::verdict::Verdict;

/// A problem ready to judge.
#[derive(Debug)]
pub(crate) struct Ready {
    /// The problem, with its time limit settled.
    pub(crate) problem: Arc<Problem>,
    /// The tests the filter selects.
    pub(crate) tests: Arc<TestSet>,
    /// Its checker.
    pub(crate) checker: Checker,
    /// How the time limit was inferred, for people (`None` when given).
    pub(crate) time_note: Option<String>,
}

/// A problem with its time limit settled, how it was inferred, and the
/// tests and checker made to infer it.
type Settled = (
    Arc<Problem>,
    Option<String>,
    Option<(Arc<TestSet>, Checker)>,
);

impl Judge {
    /// Makes `problem` ready: the time limit settled, the tests `filter`
    /// selects made, the checker built.
    pub(crate) async fn ready(&self, problem: &Arc<Problem>, filter: &TestFilter) -> Result<Ready> {
        let (problem, time_note, made) = self.settle(problem).await?;
        // Inferring the limit made every test and the checker (neither
        // depends on the time limit): not made again.
        let (tests, checker) = match made {
            Some((tests, checker)) if filter.selects_all() => (tests, checker),
            Some((_, checker)) => (self.tests(&problem, filter).await?, checker),
            None => (
                self.tests(&problem, filter).await?,
                self.prepare_checker(&problem).await?,
            ),
        };
        Ok(Ready {
            problem,
            tests,
            checker,
            time_note,
        })
    }

    /// The tests `filter` selects, made.
    async fn tests(&self, problem: &Arc<Problem>, filter: &TestFilter) -> Result<Arc<TestSet>> {
        let tests = self
            .materialise(problem, filter, super::Validation::BestEffort)
            .await?;
        Ok(Arc::new(tests))
    }

    /// The problem with its time limit settled, and how it was inferred.
    pub(crate) async fn settle_time_limit(
        &self,
        problem: &Arc<Problem>,
    ) -> Result<(Arc<Problem>, Option<String>)> {
        let (problem, note, _) = self.settle(problem).await?;
        Ok((problem, note))
    }

    /// The problem with its time limit settled, how it was inferred, and,
    /// when it was, every test and the checker the inference made.
    async fn settle(&self, problem: &Arc<Problem>) -> Result<Settled> {
        let TimeRule::Inferred {
            multiplier,
            resolution,
            minimum,
        } = problem.time_rule
        else {
            return Ok((Arc::clone(problem), None, None));
        };
        let accepted: Vec<_> = problem
            .solutions
            .iter()
            .filter(|s| s.expect == [Verdict::AC])
            .collect();
        if accepted.is_empty() {
            return Err(Error::package(&problem.id, PackageError::NoTimeLimit));
        }
        let tests = self.tests(problem, &TestFilter::default()).await?;
        let checker = self.prepare_checker(problem).await?;
        let mut jobs = Vec::new();
        for solution in &accepted {
            let submission = self.package_submission(problem, &solution.program)?;
            jobs.push((submission, RunOptions::default()));
        }
        let reports = self.judge_many(problem, &tests, &checker, jobs).await?;
        let mut slowest = Duration::ZERO;
        let mut who = String::new();
        for (solution, report) in accepted.iter().zip(&reports) {
            let time = Duration::from_millis(report.summary.max_time_ms);
            if time >= slowest {
                slowest = time;
                who = solution
                    .program
                    .path
                    .strip_prefix(&problem.dir)
                    .unwrap_or(&solution.program.path)
                    .display()
                    .to_string();
            }
        }
        let limit = infer(slowest, multiplier, resolution, minimum);
        let mut settled = (**problem).clone();
        settled.limits.time = limit;
        settled.time_rule = TimeRule::Fixed;
        let note = format!(
            "time limit {}, inferred as problemtools does: {who} took {} of CPU time on its slowest test, x {multiplier}, rounded up to a multiple of {} (at least {}); CPU times depend on this machine and on each language's runtime (problemtools runs .py with PyPy, judge with {})",
            seconds(limit),
            seconds(slowest),
            seconds(resolution),
            seconds(minimum),
            self.config().package_python_language().map_or_else(
                || self
                    .config()
                    .detect_language(std::path::Path::new("x.py"))
                    .map_or_else(|_| "no language".into(), |l| l.name),
                |l| l.name.clone()
            )
        );
        Ok((Arc::new(settled), Some(note), Some((tests, checker))))
    }
}

/// The limit for the slowest accepted time: `slowest × multiplier` rounded
/// up to a multiple of `resolution`, at least `minimum`.
pub(crate) fn infer(
    slowest: Duration,
    multiplier: f64,
    resolution: Duration,
    minimum: Duration,
) -> Duration {
    let steps = (slowest.as_secs_f64() * multiplier / resolution.as_secs_f64()).ceil();
    let seconds = resolution.as_secs_f64() * steps.max(1.0);
    // Whatever the package's numbers, never past the longest limit.
    let limit = if seconds.is_finite() && seconds < crate::units::MAX_DURATION.as_secs_f64() {
        Duration::from_secs_f64(seconds)
    } else {
        crate::units::MAX_DURATION
    };
    limit.max(minimum).min(crate::units::MAX_DURATION)
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s} s")
    } else {
        format!("{:.3} s", s)
    }
}

impl Judge {
    /// Compiles the package's programs and its solutions, all at once (the
    /// slots bound how many at a time), into the build cache: `verify` does
    /// it while the time limit is settled, so that the CPUs do not idle
    /// while one step compiles. The programs the first steps need come
    /// first: validators, generators, the reference, the checker, then the
    /// accepted solutions. What does not compile is left for the step that
    /// needs it to report.
    pub(crate) async fn prebuild(&self, problem: &Arc<Problem>) {
        use crate::problem::CheckerSpec;
        let checker = match &problem.checker {
            CheckerSpec::Custom(spec) | CheckerSpec::Kattis(spec) => Some(spec),
            _ => None,
        };
        let accepted = |s: &&crate::problem::SolutionSpec| s.expect == [Verdict::AC];
        let package = problem
            .validators
            .iter()
            .map(|v| &v.program)
            .chain(&problem.generator)
            .chain(problem.generators.values())
            .chain(&problem.reference)
            .chain(checker)
            .chain(problem.brute.iter().map(|b| &b.program))
            .map(|p| (p, false));
        let solutions = problem
            .solutions
            .iter()
            .filter(accepted)
            .chain(problem.solutions.iter().filter(|s| !accepted(s)))
            .map(|s| (&s.program, true));
        let mut tasks = tokio::task::JoinSet::new();
        for (spec, is_solution) in package.chain(solutions) {
            let Ok(program) = self.package_submission(problem, spec) else {
                continue;
            };
            let judge = self.clone();
            tasks.spawn(async move {
                // A solution's compile error is remembered (CE is its
                // verdict), a package program's is not.
                let _ = judge
                    .build_with(
                        &program.path,
                        None,
                        &program.language,
                        &program.companions,
                        is_solution,
                    )
                    .await;
            });
            // Started in this order, so that they queue for slots in it.
            tokio::task::yield_now().await;
        }
        while let Some(done) = tasks.join_next().await {
            done.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inference_rounds_up_to_the_resolution_and_keeps_the_minimum() {
        let s = Duration::from_secs_f64;
        // problemtools' legacy rule: max(1, ceil(slowest x 5)) seconds.
        assert_eq!(infer(s(0.006), 5.0, s(1.0), s(1.0)), s(1.0));
        assert_eq!(infer(s(1.006), 5.0, s(1.0), s(1.0)), s(6.0));
        assert_eq!(infer(s(0.2), 5.0, s(1.0), s(1.0)), s(1.0));
        // 2023-07: x 2, resolution 0.5 s.
        assert_eq!(infer(s(0.3), 2.0, s(0.5), s(0.5)), s(1.0));
        assert_eq!(infer(s(0.0), 2.0, s(0.5), s(0.5)), s(0.5));
    }
}
