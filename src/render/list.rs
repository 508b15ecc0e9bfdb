//! What `judge list` and `judge gen` print: the problems of a workspace as a
//! table or JSON lines, and the files a test set was written to.

use std::path::Path;

use crate::config::Language;
use crate::export::Exported;
use crate::printable::printable_line;
use crate::problem::Problem;
use crate::units::{format_kib, format_ms};

/// The problems as a table (`judge list`); `dir` is where they were looked for.
pub(crate) fn render_problems(rows: &[(Problem, usize)], dir: &Path) -> String {
    let mut out = String::new();
    if rows.is_empty() {
        out.push_str(&format!("no problems in {}\n", dir.display()));
    }
    let width = rows
        .iter()
        .map(|(p, _)| p.id.len())
        .max()
        .unwrap_or(2)
        .max(2);
    out.push_str(&format!(
        "{:<width$}  {:>7}  {:>9}  {:>5}  TITLE\n",
        "ID", "TIME", "MEMORY", "TESTS"
    ));
    for (p, tests) in rows {
        out.push_str(&format!(
            "{:<width$}  {:>7}  {:>9}  {:>5}  {}\n",
            p.id,
            format_ms(p.limits.time.as_millis() as u64),
            format_kib(p.limits.memory / 1024),
            tests,
            printable_line(&p.title)
        ));
    }
    out
}

/// The problems as JSON, one object per line (`judge list --format json`).
pub(crate) fn render_problems_json(rows: &[(Problem, usize)]) -> String {
    let mut out = String::new();
    for (p, tests) in rows {
        let line = serde_json::json!({
            "id": p.id,
            "title": p.title,
            "format": p.format.as_str(),
            "source": p.source,
            "time_limit_ms": p.limits.time.as_millis() as u64,
            "memory_limit_kib": p.limits.memory / 1024,
            "output_limit_kib": p.limits.output / 1024,
            "tests": tests,
        });
        out.push_str(&format!("{line}\n"));
    }
    out
}

/// A language of judge.toml and whether it is usable here.
pub(crate) struct LanguageStatus {
    /// The language.
    pub(crate) language: Language,
    /// Its version's first line, or why it cannot be used (the error).
    pub(crate) status: std::result::Result<String, String>,
}

/// The languages as a table (`judge list --languages`).
pub(crate) fn render_languages(rows: &[LanguageStatus]) -> String {
    let width = |lengths: &mut dyn Iterator<Item = usize>, header: &str| {
        lengths.max().unwrap_or(0).max(header.len())
    };
    let id_width = width(&mut rows.iter().map(|r| r.language.id.len()), "ID");
    let name_width = width(&mut rows.iter().map(|r| r.language.name.len()), "NAME");
    let extensions: Vec<String> = rows
        .iter()
        .map(|r| match r.language.extensions.is_empty() {
            true => "(--lang)".to_string(),
            false => r
                .language
                .extensions
                .iter()
                .map(|e| format!(".{e}"))
                .collect::<Vec<_>>()
                .join(" "),
        })
        .collect();
    let ext_width = width(&mut extensions.iter().map(String::len), "EXTENSIONS");
    let mut out = format!(
        "{:<id_width$}  {:<name_width$}  {:<ext_width$}  VERSION\n",
        "ID", "NAME", "EXTENSIONS"
    );
    for (row, extensions) in rows.iter().zip(&extensions) {
        let l = &row.language;
        let status = match &row.status {
            Ok(version) => printable_line(version).into_owned(),
            Err(why) => format!(
                "not usable: {}",
                printable_line(
                    why.trim_start_matches("error: ")
                        .lines()
                        .next()
                        .unwrap_or("")
                )
            ),
        };
        let factor = match l.time_factor == 1.0 {
            true => String::new(),
            false => format!(" (time x{})", l.time_factor),
        };
        out.push_str(&format!(
            "{:<id_width$}  {:<name_width$}  {:<ext_width$}  {status}{factor}\n",
            l.id, l.name, extensions
        ));
    }
    let usable = rows.iter().filter(|r| r.status.is_ok()).count();
    out.push_str(&format!(
        "{usable} of {} languages usable here\n",
        rows.len()
    ));
    out
}

/// The languages as JSON, one object per line.
pub(crate) fn render_languages_json(rows: &[LanguageStatus]) -> String {
    let mut out = String::new();
    for row in rows {
        let l = &row.language;
        let line = serde_json::json!({
            "id": l.id,
            "name": l.name,
            "extensions": l.extensions,
            "usable": row.status.is_ok(),
            "version": row.status.as_ref().ok(),
            "problem": row.status.as_ref().err(),
            "debian": l.debian,
            "time_factor": l.time_factor,
        });
        out.push_str(&format!("{line}\n"));
    }
    out
}

/// The files `judge gen` wrote, and where.
pub(crate) fn render_exported(written: &[Exported], problem: &str, dir: &Path) -> String {
    let width = written.iter().map(|e| e.input.len()).max().unwrap_or(0);
    let mut out = String::new();
    for e in written {
        out.push_str(&format!("{:<width$}  {}\n", e.input, e.test));
    }
    out.push_str(&format!(
        "wrote {} tests of {problem} to {}\n",
        written.len(),
        dir.display()
    ));
    out
}

/// What `judge export` wrote, and what the format could not hold.
pub(crate) fn render_written_package(problem: &str, written: &crate::export::Written) -> String {
    let version = match written.version {
        crate::export::KattisVersion::V2025_09 => "format version 2025-09, for BAPCtools",
        crate::export::KattisVersion::V2023_07 => "format version 2023-07, for problemtools",
        crate::export::KattisVersion::Legacy => "legacy format, for problemtools and DOMjudge",
    };
    let mut out = format!(
        "wrote {problem} as an ICPC package ({version}) to {}: {} tests, {} input validators, {} submissions\n",
        written.dir.display(),
        written.tests,
        written.validators,
        written.submissions
    );
    for line in &written.left_out {
        out.push_str(&format!("  left out: {}\n", printable_line(line)));
    }
    let name = written
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        || name.is_empty()
    {
        out.push_str(&format!(
            "  note: problemtools wants the package's directory named with lowercase letters and digits only (not `{}`)\n",
            printable_line(&name)
        ));
    }
    out
}
