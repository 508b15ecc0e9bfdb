//! What a live contest shows of its problems: the snapshot the Contest API
//! gives (label, limits, number of tests, points) and the page teams read
//! (the package's statement, its sample tests).

use std::path::Path;

use super::live::{ProblemPage, Sample, Statement};
use super::model::ProblemSnapshot;
use crate::contest::run::available_points;
use crate::problem::Problem;
use crate::testset::TestSet;

/// The largest statement read.
const STATEMENT_MAX: u64 = 16 << 20;
/// The largest sample file shown.
const SAMPLE_MAX: u64 = 1 << 20;

/// A scoreboard label: A..Z, then AA, AB, ...
pub(crate) fn label(index: usize) -> String {
    let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if index < 26 {
        (letters[index] as char).to_string()
    } else {
        format!("{}{}", label(index / 26 - 1), letters[index % 26] as char)
    }
}

/// The snapshot of the `index`-th problem (from 0).
pub(crate) fn snapshot(index: usize, problem: &Problem, tests: &TestSet) -> ProblemSnapshot {
    ProblemSnapshot {
        id: problem.id.clone(),
        label: label(index),
        name: problem.title.clone(),
        ordinal: index as u32 + 1,
        time_limit_ms: problem.limits.time.as_millis() as u64,
        memory_limit: problem.limits.memory,
        test_data_count: tests.tests.len() as u32,
        max_score: available_points(problem),
    }
}

/// Whether a test is a sample: in a group named `sample`/`samples`, or
/// named `sample...`.
pub(crate) fn is_sample(group: &str, name: &str) -> bool {
    matches!(group, "sample" | "samples") || name.starts_with("sample")
}

fn read_capped(path: &Path, max: u64) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > max {
        return None;
    }
    std::fs::read(path).ok()
}

/// The statement (the first found of the package's usual places:
/// Markdown, then PDF, then LaTeX shown as text) and the samples.
pub(crate) fn page(problem: &Problem, tests: &TestSet) -> ProblemPage {
    let dir = &problem.dir;
    let text = |name: &str| {
        read_capped(&dir.join(name), STATEMENT_MAX)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    let markdown = [
        "statement.md",
        "problem_statement/problem.en.md",
        "problem_statement/problem.md",
        "statement/problem.en.md",
        "statement/problem.md",
    ];
    let pdf = [
        "statement.pdf",
        "problem_statement/problem.en.pdf",
        "problem_statement/problem.pdf",
        "statement/problem.en.pdf",
        "statements/.pdf/english/problem.pdf",
        "problem.pdf",
    ];
    let tex = [
        "problem_statement/problem.en.tex",
        "problem_statement/problem.tex",
        "statement/problem.en.tex",
        "statements/english/problem.tex",
    ];
    let statement = markdown
        .iter()
        .find_map(|n| text(n))
        .map(Statement::Markdown)
        .or_else(|| {
            pdf.iter()
                .find_map(|n| read_capped(&dir.join(n), STATEMENT_MAX))
                .map(Statement::Pdf)
        })
        .or_else(|| tex.iter().find_map(|n| text(n)).map(Statement::Text))
        .unwrap_or(Statement::Missing);
    let samples = tests
        .tests
        .iter()
        .filter(|t| is_sample(&t.group, &t.name))
        .map(|t| Sample {
            name: t.name.clone(),
            input: read_capped(&t.input, SAMPLE_MAX).unwrap_or_default(),
            answer: t
                .answer
                .as_deref()
                .and_then(|a| read_capped(a, SAMPLE_MAX))
                .unwrap_or_default(),
        })
        .collect();
    ProblemPage { statement, samples }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_go_on_past_z() {
        assert_eq!(label(0), "A");
        assert_eq!(label(25), "Z");
        assert_eq!(label(26), "AA");
        assert_eq!(label(27), "AB");
        assert_eq!(label(52), "BA");
    }
}
