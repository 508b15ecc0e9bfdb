//! `judge export`: a problem written as a package of another format.

use std::sync::Arc;

use super::{print, print_note, print_notes, start_judge};
use crate::cli::args::{ExportArgs, ExportFormat};
use crate::cli::Settings;
use crate::error::{exit_code, Result};
use crate::export::KattisVersion;
use crate::problem::Problem;
use crate::render::list::render_written_package;
use crate::testset::TestFilter;

pub(super) fn export(settings: Settings, args: ExportArgs) -> Result<i32> {
    let problem = Problem::find(&args.problem, &settings.config)?;
    print_notes(&problem);
    let problem = Arc::new(problem);
    let config = settings.config.clone();
    let judge = start_judge(settings, std::slice::from_ref(&problem), &[])?;
    let ready = judge.block_on(async { judge.ready(&problem, &TestFilter::default()).await })?;
    print_note(&problem.id, ready.time_note.as_deref());
    let version = match args.format {
        ExportFormat::Kattis | ExportFormat::KattisLegacy => KattisVersion::Legacy,
        ExportFormat::Kattis2023_07 => KattisVersion::V2023_07,
        ExportFormat::Kattis2025_09 => KattisVersion::V2025_09,
    };
    let written = crate::export::write_package(
        &ready.problem,
        &ready.tests,
        &config,
        &args.out,
        args.force,
        version,
    )?;
    print(&render_written_package(&ready.problem.id, &written));
    Ok(exit_code::OK)
}
