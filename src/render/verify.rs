//! `judge verify` as text: the tests, the brute force and Polygon's solution
//! by test matrix ([`render_human`]).

use crate::printable::{printable, printable_line};
use crate::report::verify::VerifyReport;
use crate::units::format_ms;
use crate::verdict::Verdict;

/// One letter per verdict in the matrix.
fn letter(v: Verdict) -> char {
    match v {
        Verdict::AC => '.',
        Verdict::WA => 'W',
        Verdict::PE => 'P',
        Verdict::TLE => 'T',
        Verdict::MLE => 'M',
        Verdict::OLE => 'O',
        Verdict::RE => 'R',
        Verdict::CE => 'C',
        Verdict::IE => 'I',
    }
}

/// Renders a verification as text: tests, brute force, the solution × test matrix.
pub(crate) fn render_human(r: &VerifyReport) -> String {
    let mut out = format!("{}: {} tests", r.problem, r.tests.len());
    if !r.tests.is_empty() {
        out.push_str(", all valid");
    }
    out.push('\n');
    if let Some(b) = &r.brute {
        out.push_str(&format!(
            "  brute force ({}): agrees with the answers on {} tests and {} random small inputs{}\n",
            b.covers,
            b.tests_compared,
            b.random_compared,
            if b.disagreements.is_empty() {
                String::new()
            } else {
                format!(", DISAGREES on {}", b.disagreements.len())
            }
        ));
    }
    if !r.solutions.is_empty() {
        let width = r
            .solutions
            .iter()
            .map(|s| s.report.submission.len())
            .max()
            .unwrap_or(8)
            .max(8);
        let n = r.tests.len();
        let mut ruler = String::new();
        for i in 1..=n {
            ruler.push(if i % 10 == 0 {
                char::from(b'0' + ((i / 10) % 10) as u8)
            } else if i % 5 == 0 {
                '+'
            } else {
                ' '
            });
        }
        let expected: Vec<String> = r
            .solutions
            .iter()
            .map(|s| {
                let names: Vec<&str> = s.expected.iter().map(|v| v.as_str()).collect();
                names.join("|")
            })
            .collect();
        let expected_width = expected.iter().map(String::len).max().unwrap_or(0).max(9);
        out.push_str(&format!(
            "  {:<width$}  {:<expected_width$} {:<4} {:>14}  {}\n",
            "solution",
            "expected",
            "got",
            "slowest",
            ruler.trim_end()
        ));
        for (s, expected) in r.solutions.iter().zip(&expected) {
            let slowest = s.slowest.as_ref().map_or(String::new(), |t| {
                format!("{} {:>3}%", format_ms(t.time_ms), t.percent())
            });
            let judged: std::collections::HashMap<&str, Verdict> = s
                .report
                .tests
                .iter()
                .map(|t| (t.name.as_str(), t.verdict))
                .collect();
            let cells: String = if s.report.tests.is_empty() && !s.report.skipped.is_empty() {
                "C".repeat(s.report.skipped.len())
            } else {
                r.tests
                    .iter()
                    .map(|name| judged.get(name.as_str()).map_or('-', |v| letter(*v)))
                    .collect()
            };
            out.push_str(&format!(
                "  {:<width$}  {:<expected_width$} {:<4} {slowest:>14}  {}{}\n",
                s.report.submission,
                expected,
                s.report.verdict.as_str(),
                cells.trim_end_matches('-'),
                if s.ok { "" } else { "   <-- MISMATCH" }
            ));
        }
        out.push_str("  (. AC  W WA  P PE  T TLE  M MLE  O OLE  R RE  C CE  I IE  - not run)\n");
    }
    for note in &r.notes {
        out.push_str(&format!("  note: {}\n", printable_line(note)));
    }
    if r.ok {
        out.push_str("  ok: the package holds\n");
    } else {
        for f in &r.failures {
            let f = printable(f);
            let mut lines = f.lines();
            out.push_str(&format!("  FAIL: {}\n", lines.next().unwrap_or("")));
            for l in lines {
                out.push_str(&format!("        {l}\n"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_distinct() {
        let mut seen = std::collections::BTreeSet::new();
        for v in Verdict::ALL {
            assert!(seen.insert(letter(v)), "{v}");
        }
    }
}
