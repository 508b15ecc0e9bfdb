//! `judge verify`: packages prove themselves.

use std::sync::Arc;

use super::{print, start_judge};
use crate::cli::args::VerifyArgs;
use crate::cli::{Format, Settings};
use crate::engine::RunOptions;
use crate::error::{exit_code, render_chain, Error, Result};
use crate::problem::Problem;
use crate::render::junit::{self, JunitSubmission};
use crate::render::verify::render_human;

pub(super) fn verify(settings: Settings, args: VerifyArgs) -> Result<i32> {
    let config = &settings.config;
    let all: Vec<String> = if args.problems.is_empty() {
        Problem::list_ids(config)
    } else {
        args.problems.clone()
    };
    if all.is_empty() {
        return Err(Error::Usage(format!(
            "no problems in {}",
            config.problems_dir.display()
        )));
    }
    let total = all.len();
    let names: Vec<String> = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| args.partition.is_none_or(|p| p.includes(*i)))
        .map(|(_, n)| n)
        .collect();
    if let (true, Some(partition)) = (names.is_empty(), args.partition) {
        // More parts than problems (a CI matrix wider than the workspace):
        // this part holds nothing, which is no failure.
        eprintln!(
            "note: part {partition} holds no problem ({total} problem(s) in {} part(s)): nothing to verify",
            partition.of
        );
        if args.format == Format::Junit {
            print(&junit::render_verify(&[], &[]));
        }
        return Ok(exit_code::OK);
    }
    let mut problems = Vec::new();
    let mut code = exit_code::OK;
    for name in &names {
        match Problem::find(name, config) {
            Ok(p) => problems.push(Arc::new(p)),
            Err(e) => {
                eprintln!("{}", render_chain(&e));
                code = exit_code::COULD_NOT_JUDGE;
            }
        }
    }
    let options = RunOptions {
        no_cache: settings.no_cache,
        ..RunOptions::default()
    };
    let judge = start_judge(settings, &problems, &[])?;
    let format = args.format;
    let verified = judge.block_on(async {
        let mut verified = Vec::new();
        for problem in &problems {
            let report = crate::verify::verify(&judge, problem, &options).await?;
            match format {
                Format::Human => print(&render_human(&report)),
                Format::Json => {
                    print(&(serde_json::to_string(&report).expect("serialisable") + "\n"))
                }
                Format::Junit => {}
            }
            verified.push(report);
        }
        Ok(verified)
    })?;
    if format == Format::Junit {
        let suites: Vec<JunitSubmission> = verified
            .iter()
            .flat_map(|v| {
                v.solutions.iter().map(|s| JunitSubmission {
                    suite: format!("{} {}", v.problem, s.report.submission),
                    report: &s.report,
                    expected: Some(&s.expected),
                })
            })
            .collect();
        let packages: Vec<(&str, &[String])> = verified
            .iter()
            .map(|v| (v.problem.as_str(), v.failures.as_slice()))
            .collect();
        print(&junit::render_verify(&suites, &packages));
    }
    if code == exit_code::OK && !verified.iter().all(|v| v.ok) {
        code = exit_code::NOT_ACCEPTED;
    }
    Ok(code)
}
