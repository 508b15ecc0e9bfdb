//! `judge list`: the problems of the workspace, or the languages and
//! whether this machine has them.

use super::{print, start_judge};
use crate::cli::args::{ListArgs, ListFormat};
use crate::cli::Settings;
use crate::error::{exit_code, render_chain, Result};
use crate::problem::Problem;
use crate::render::list::{
    render_languages, render_languages_json, render_problems, render_problems_json, LanguageStatus,
};

pub(super) fn list(settings: Settings, args: ListArgs) -> Result<i32> {
    if args.languages {
        return list_languages(settings, args.format);
    }
    let config = &settings.config;
    let mut rows = Vec::new();
    let mut code = exit_code::OK;
    for id in Problem::list_ids(config) {
        // A broken package is reported and skipped; the others are still listed.
        let loaded = Problem::load(&config.problems_dir.join(&id), config)
            .and_then(|p| crate::testset::count(&p).map(|n| (p, n)));
        match loaded {
            Ok(row) => rows.push(row),
            Err(e) => {
                eprintln!("{}", render_chain(&e));
                code = exit_code::COULD_NOT_JUDGE;
            }
        }
    }
    print(&match args.format {
        ListFormat::Json => render_problems_json(&rows),
        ListFormat::Human => render_problems(&rows, &config.problems_dir),
    });
    Ok(code)
}

/// Every language of judge.toml, checked at once: usable (with its version)
/// or why not (with what to install). A missing language is not an error.
fn list_languages(settings: Settings, format: ListFormat) -> Result<i32> {
    let judge = start_judge(settings, &[], &[])?;
    let languages = judge.config().languages.clone();
    let statuses = judge.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for (index, language) in languages.into_iter().enumerate() {
            let judge = judge.clone();
            tasks.spawn(async move {
                let checked = judge.check_language(&language).await;
                (index, language, checked.map_err(|e| render_chain(&e)))
            });
        }
        let mut done = Vec::new();
        while let Some(joined) = tasks.join_next().await {
            done.push(joined.expect("a language check does not panic"));
        }
        done.sort_by_key(|(index, _, _)| *index);
        Ok(done
            .into_iter()
            .map(|(_, language, status)| LanguageStatus { language, status })
            .collect::<Vec<_>>())
    })?;
    print(&match format {
        ListFormat::Json => render_languages_json(&statuses),
        ListFormat::Human => render_languages(&statuses),
    });
    Ok(exit_code::OK)
}
