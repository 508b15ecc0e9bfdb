//! `judge batch` (a contest folder judged into results and scoreboards) and
//! `judge merge` (the results of partitioned runs combined).

use std::io::IsTerminal;
use std::path::Path;

use super::{print, start_judge, writable_dir};
use crate::cli::args::{BatchArgs, MergeArgs};
use crate::cli::{Format, Settings};
use crate::contest::{package, run as contest_run, ContestSpec, Results};
use crate::engine::{Hide, RunOptions};
use crate::error::{exit_code, Error, Result};
use crate::render::junit::{self, JunitSubmission};
use crate::render::scoreboard;

pub(super) fn batch(settings: Settings, args: BatchArgs) -> Result<i32> {
    if args.dir.is_file() && args.dir.extension().is_some_and(|e| e == "zip") {
        return Err(Error::Usage(format!(
            "{} is a zip: unzip it into a folder first (`unzip -d FOLDER {}`), then judge the folder",
            args.dir.display(),
            args.dir.display()
        )));
    }
    if !args.dir.is_dir() {
        let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory");
        return Err(Error::io(&args.dir, source));
    }
    // Checked before anything is judged: results are never lost at the end.
    writable_dir(&args.out)?;
    let mut hide = vec![
        Hide::Required(args.dir.clone()),
        Hide::Required(args.out.clone()),
    ];
    // A contest package (an archive of `judge serve`, or of another
    // system) is judged again from its submissions.json; else the folder
    // holds a folder per contestant.
    let (mut info, discovered) = if package::is_package(&args.dir) {
        let package = package::discover_package(&args.dir, &settings.config)?;
        hide.push(Hide::Required(package.scratch));
        (package.info, package.discovered)
    } else {
        let spec = ContestSpec::load(&args.dir)?;
        let discovered = contest_run::discover(&args.dir, &spec, &settings.config)?;
        (contest_run::contest_info(&spec, &discovered), discovered)
    };
    if let Some(s) = args.scoring {
        info.scoring = s;
    }
    if let Some(p) = args.penalty {
        info.penalty = p;
    }
    let options = RunOptions {
        no_cache: settings.no_cache,
        fail_fast: !args.all_tests,
        per_group: info.scoring == crate::contest::Scoring::Ioi,
        ..RunOptions::default()
    };
    let judge = start_judge(settings, &discovered.problems, &hide)?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar
    });
    let results = judge.block_on(async {
        let judging = contest_run::judge_contest(
            &judge,
            info,
            discovered,
            args.partition,
            &options,
            |done, total, entry| {
                let message = scoreboard::progress_message(entry);
                match &bar {
                    Some(bar) => {
                        bar.set_length(total as u64);
                        bar.set_position(done as u64);
                        bar.set_message(message);
                    }
                    None => eprintln!("[{done}/{total}] {message}"),
                }
            },
        );
        judging.await
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    write_contest_outputs(&results, &args.out, args.format)?;
    Ok(exit_code::OK)
}

pub(super) fn merge(args: MergeArgs) -> Result<i32> {
    writable_dir(&args.out)?;
    let mut parts = Vec::new();
    for path in &args.parts {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let results: Results = serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!(
                "{} is not a results.json of `judge batch`: {e}",
                path.display()
            ))
        })?;
        parts.push((path.clone(), results));
    }
    let merged = Results::merge(parts, args.allow_partial)?;
    if let Some(partial) = &merged.partial {
        eprintln!("warning: {}", partial.describe());
    }
    write_contest_outputs(&merged, &args.out, args.format)?;
    Ok(exit_code::OK)
}

/// Writes results.json, scoreboard.txt, scoreboard.html and junit.xml to
/// `out`, and prints the chosen format on stdout.
fn write_contest_outputs(results: &Results, out: &Path, format: Format) -> Result<()> {
    writable_dir(out)?;
    let json = serde_json::to_string_pretty(results).expect("serialisable") + "\n";
    let text = scoreboard::render_text(results);
    let suites: Vec<JunitSubmission> = results
        .entries
        .iter()
        .filter_map(|e| {
            e.report.as_ref().map(|r| JunitSubmission {
                suite: e.file.clone(),
                report: r,
                expected: None,
            })
        })
        .collect();
    let junit_xml = junit::render(&format!("judge batch: {}", results.contest.title), &suites);
    // The Contest API's event feed, for the ICPC Resolver: its times count
    // from contest.toml's `start`.
    let feed = match crate::server::archive::events_of(results) {
        Some(events) => {
            let cx = crate::render::ccs::Context {
                contest_id: &results.contest.id,
                scoring: results.contest.scoring,
                start: results.contest.clock.and_then(|c| c.start),
            };
            Some(crate::render::ccs::feed(&events, &cx))
        }
        None => {
            eprintln!(
                "note: no event-feed.ndjson (for the ICPC Resolver): it needs contest.toml's \
                 `start`, from which submission times count"
            );
            None
        }
    };
    for (name, content) in [
        ("results.json", Some(json.as_str())),
        ("scoreboard.txt", Some(text.as_str())),
        (
            "scoreboard.html",
            Some(scoreboard::render_html(results).as_str()),
        ),
        ("junit.xml", Some(junit_xml.as_str())),
        ("event-feed.ndjson", feed.as_deref()),
    ] {
        let Some(content) = content else {
            continue;
        };
        let path = out.join(name);
        std::fs::write(&path, content).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
    }
    print(match format {
        Format::Human => &text,
        Format::Json => &json,
        Format::Junit => &junit_xml,
    });
    Ok(())
}
