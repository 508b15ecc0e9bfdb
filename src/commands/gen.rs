//! `judge gen`: a problem's full test set written to a directory.

use std::sync::Arc;

use super::{print, start_judge};
use crate::cli::args::{GenArgs, GenFormat};
use crate::cli::Settings;
use crate::engine::Hide;
use crate::error::{exit_code, Result};
use crate::export::Layout;
use crate::problem::Problem;
use crate::render::list::render_exported;
use crate::testset::TestFilter;

pub(super) fn gen(settings: Settings, args: GenArgs) -> Result<i32> {
    let problem = Arc::new(Problem::find(&args.problem, &settings.config)?);
    let judge = start_judge(
        settings,
        std::slice::from_ref(&problem),
        &[Hide::Required(args.out.clone())],
    )?;
    let tests = judge.block_on(async {
        judge
            .materialise(
                &problem,
                &TestFilter::default(),
                crate::engine::Validation::Required,
            )
            .await
    })?;
    let layout = match args.format {
        GenFormat::Numbered => Layout::Numbered,
        GenFormat::Oj => Layout::Oj,
    };
    let written = crate::export::write(&problem.id, &tests, &args.out, layout, args.force)?;
    print(&render_exported(&written, &problem.id, &args.out));
    Ok(exit_code::OK)
}
