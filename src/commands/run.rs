//! `judge run`: submission files on a problem's tests (or on one `--input`).

use std::path::PathBuf;
use std::sync::Arc;

use super::{print_note, print_notes, print_warnings, regular_file, start_judge, submission_of};
use crate::cli::args::RunArgs;
use crate::cli::Settings;
use crate::engine::Hide;
use crate::engine::RunOptions;
use crate::error::{exit_code, Error, Result};
use crate::problem::{Format, Problem, TimeRule};
use crate::render::human::Human;
use crate::render::stream::RunPrinter;
use crate::report::SubmissionReport;
use crate::testset::TestFilter;
use crate::verdict::Verdict;

pub(super) fn run(settings: Settings, args: RunArgs) -> Result<i32> {
    let config = &settings.config;
    let mut problem = Problem::find(&args.problem, config)?;
    if let Some(t) = args.time_limit {
        problem.limits.time = t;
        problem.time_rule = TimeRule::Fixed;
    }
    if let Some(m) = args.memory_limit {
        problem.limits.memory = m;
    }
    print_notes(&problem);
    let problem = Arc::new(problem);
    let files: Vec<&PathBuf> = args
        .files
        .iter()
        .enumerate()
        .filter(|(i, _)| args.partition.is_none_or(|p| p.includes(*i)))
        .map(|(_, f)| f)
        .collect();
    let mut submissions = Vec::new();
    for file in files {
        submissions.push(submission_of(
            config,
            file,
            args.lang.as_deref(),
            problem.submit_answer,
        )?);
    }
    let filter = TestFilter::new(&args.tests)?;
    if args.input.is_none() && !filter.selects_all() {
        let planned = crate::testset::plan(&problem)?;
        if !planned.iter().any(|t| filter.matches(&t.name)) {
            return Err(Error::Usage(format!(
                "no test of problem {} matches the --tests patterns",
                problem.id
            )));
        }
    }
    // `--input -`: standard input, kept in a file for the run.
    let stdin_input = match &args.input {
        Some(input) if input.as_os_str() == "-" => Some(read_stdin(config.limits.package_output)?),
        _ => None,
    };
    let options = RunOptions {
        fail_fast: args.fail_fast,
        per_group: false,
        in_order: false,
        keep_output: args.input.is_some(),
        no_cache: settings.no_cache,
        measure_up_to: None,
    };
    let human = Human {
        color: settings.color,
        all_diffs: args.all_diffs,
    };
    let mut printer = RunPrinter::new(std::io::stdout(), args.format.into(), human);
    // The folders of the files judged: one file must not read another.
    let hide: Vec<Hide> = submissions
        .iter()
        .filter_map(|s| s.path.parent())
        .map(|dir| Hide::IfPossible(crate::config::absolute(dir)))
        .collect();
    let judge = start_judge(settings, std::slice::from_ref(&problem), &hide)?;
    let reports = judge.block_on(async {
        // Every file compiles while the tests are made and the files before
        // it are judged (a build takes a slot: --jobs bounds them); judging
        // a file then takes its build from the cache, or waits for it.
        let mut builds: std::collections::VecDeque<_> = submissions
            .iter()
            .map(|submission| {
                let (judge, submission) = (judge.clone(), submission.clone());
                tokio::spawn(async move {
                    judge
                        .build_with(
                            &submission.path,
                            None,
                            &submission.language,
                            &submission.companions,
                            true,
                        )
                        .await
                })
            })
            .collect();
        let judged = async {
            let (problem, tests, checker) = match &args.input {
                Some(input) => {
                    let file = match &stdin_input {
                        Some(file) => file.path(),
                        None => {
                            regular_file(input)?;
                            input.as_path()
                        }
                    };
                    let (problem, note) = judge.settle_time_limit(&problem).await?;
                    print_note(&problem.id, note.as_deref());
                    let tests = Arc::new(judge.single_test(&problem, file, input).await?);
                    let checker = judge.prepare_checker(&problem).await?;
                    (problem, tests, checker)
                }
                None => {
                    let ready = judge.ready(&problem, &filter).await?;
                    print_warnings(&problem.id, &ready.tests.warnings);
                    print_note(&problem.id, ready.time_note.as_deref());
                    (ready.problem, ready.tests, ready.checker)
                }
            };
            let mut reports = Vec::new();
            for (index, submission) in submissions.iter().enumerate() {
                printer.start(
                    &problem.id,
                    &problem.title,
                    &submission.name(),
                    &Human::language_label(&submission.language, problem.limits),
                );
                if index == 0 && problem.format == Format::Samples && args.input.is_none() {
                    printer.test_files(&test_files(&tests));
                }
                let build = builds
                    .pop_front()
                    .expect("one build per file")
                    .await
                    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))?;
                let report = judge
                    .judge_build(
                        &problem,
                        &tests,
                        &checker,
                        submission,
                        build,
                        &options,
                        |t| printer.test(t),
                    )
                    .await?;
                printer.submission(&report);
                reports.push(report);
            }
            Ok(reports)
        }
        .await;
        // Builds are never cut off halfway (a failed judging ends here).
        for build in builds {
            let _ = build.await;
        }
        judged
    })?;
    printer.finish("judge run", &reports);
    Ok(exit_code_for(&reports))
}

/// Standard input (at most `limit` bytes) in a temporary file.
fn read_stdin(limit: u64) -> Result<tempfile::NamedTempFile> {
    use std::io::{Read, Write};
    let stdin_err = |e| Error::io("-", e);
    let mut file =
        tempfile::NamedTempFile::new().map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let copied = std::io::copy(&mut std::io::stdin().lock().take(limit + 1), &mut file)
        .map_err(stdin_err)?;
    if copied > limit {
        return Err(stdin_err(std::io::Error::other(format!(
            "standard input is over {limit} bytes (judge.toml's limits.package_output)"
        ))));
    }
    file.flush().map_err(stdin_err)?;
    Ok(file)
}

/// Each test's name, input and answer, as paths relative to the current
/// directory when inside it.
fn test_files(tests: &crate::testset::TestSet) -> Vec<(String, String, Option<String>)> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let shown = |p: &std::path::Path| p.strip_prefix(&cwd).unwrap_or(p).display().to_string();
    tests
        .tests
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                shown(&t.input),
                t.answer.as_deref().map(shown),
            )
        })
        .collect()
}

/// 0 when every submission is accepted, 3 when a test was judged IE (the
/// result cannot be trusted), else 1.
fn exit_code_for(reports: &[SubmissionReport]) -> i32 {
    if reports
        .iter()
        .any(|r| r.tests.iter().any(|t| t.verdict == Verdict::IE))
    {
        exit_code::INTERNAL
    } else if reports.iter().all(|r| r.verdict.is_accepted()) {
        exit_code::OK
    } else {
        exit_code::NOT_ACCEPTED
    }
}
