//! JSON lines: one [`SubmissionReport`] object per line, schema in
//! `docs/json-report.md`.

use crate::report::SubmissionReport;

/// Renders one report as a single JSON line (with the trailing newline).
pub(crate) fn render(report: &SubmissionReport) -> String {
    let mut line = serde_json::to_string(report).expect("reports always serialise");
    line.push('\n');
    line
}
