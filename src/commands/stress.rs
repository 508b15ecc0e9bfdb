//! `judge stress`: a file on generated inputs until it fails, then the
//! failing input shrunk and saved.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use super::{print, regular_file, start_judge, submission_of};
use crate::cli::args::StressArgs;
use crate::cli::{Format, Settings};
use crate::error::{exit_code, Error, Result};
use crate::problem::{Problem, ProgramSpec, StressSpec, SEED};
use crate::render::stress::{render_human, render_progress};
use crate::stress::{Against, StressOptions};

pub(super) fn stress(settings: Settings, args: StressArgs) -> Result<i32> {
    if args.iterations == Some(0) {
        return Err(Error::Usage("--iterations must be at least 1".into()));
    }
    if args.format == Format::Junit {
        return Err(Error::Usage(
            "judge stress has no JUnit output (use --format human or json)".into(),
        ));
    }
    let config = &settings.config;
    let mut problem = Problem::find(&args.problem, config)?;
    if let Some(generator) = &args.generator {
        regular_file(generator)?;
        let generate: Vec<String> = args
            .generator_args
            .split_whitespace()
            .map(str::to_string)
            .collect();
        if !generate.iter().any(|a| a.contains(SEED)) {
            return Err(Error::Usage(format!(
                "--generator-args `{}` must contain {SEED}: each iteration needs its own input",
                args.generator_args
            )));
        }
        problem.generator = Some(ProgramSpec {
            path: crate::config::absolute(generator),
            lang: None,
        });
        problem.stress = Some(StressSpec {
            generate,
            explicit: true,
        });
    }
    let problem = Arc::new(problem);
    let submission = submission_of(config, &args.file, args.lang.as_deref(), false)?;
    let against = match args.against.as_str() {
        "reference" => Against::Reference,
        "brute" => Against::Brute,
        other => Against::File(Box::new(submission_of(
            config,
            Path::new(other),
            None,
            false,
        )?)),
    };
    let options = StressOptions {
        against,
        seed: args.seed,
        iterations: args.iterations,
        time: args.time,
    };
    let save = args.save.clone().unwrap_or_else(|| {
        crate::stress::default_save_path(&config.cache_dir, &problem.id, args.seed)
    });
    // Where a counterexample goes must take it: checked before the search,
    // which may take minutes, not after.
    if let Some(save) = &args.save {
        if save.is_dir() {
            return Err(Error::Write {
                path: save.clone(),
                source: std::io::Error::other("--save names a folder, not a file"),
            });
        }
        let parent = save.parent().filter(|p| !p.as_os_str().is_empty());
        super::writable_dir(parent.unwrap_or(Path::new(".")))?;
    }
    let show_progress = std::io::stderr().is_terminal();
    let judge = start_judge(settings, std::slice::from_ref(&problem), &[])?;
    let mut report = judge.block_on(async {
        crate::stress::stress(&judge, &problem, &submission, &options, |p| {
            if show_progress {
                eprint!("{}", render_progress(p));
            }
        })
        .await
    })?;
    if let Some(c) = &mut report.counterexample {
        let cannot_write = |path: &std::path::Path, source| Error::Write {
            path: path.to_path_buf(),
            source,
        };
        if let Some(parent) = save.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| cannot_write(parent, e))?;
        }
        std::fs::write(&save, c.minimal.input.as_bytes()).map_err(|e| cannot_write(&save, e))?;
        let shown = save
            .strip_prefix(std::env::current_dir().unwrap_or_default())
            .unwrap_or(&save)
            .to_path_buf();
        c.replay = Some(format!(
            "judge run {} {} --input {}",
            args.problem,
            args.file.display(),
            shown.display()
        ));
        c.saved = Some(shown);
    }
    match args.format {
        Format::Human => print(&render_human(&report)),
        _ => print(&(serde_json::to_string(&report).expect("serialisable") + "\n")),
    }
    Ok(if report.counterexample.is_some() {
        exit_code::NOT_ACCEPTED
    } else {
        exit_code::OK
    })
}
