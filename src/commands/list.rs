//! `judge list`: the problems of the workspace.

use super::print;
use crate::cli::args::{ListArgs, ListFormat};
use crate::config::Config;
use crate::error::{exit_code, render_chain, Result};
use crate::problem::Problem;
use crate::report::list::{render_problems, render_problems_json};

pub(super) fn list(config: &Config, args: ListArgs) -> Result<i32> {
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
