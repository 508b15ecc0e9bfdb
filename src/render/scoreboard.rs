//! Scoreboards of a contest ([`Results`]) as text and as a single
//! self-contained HTML page (inline style, no scripts, no network fetches):
//! ranks, a cell per contestant and problem coloured by verdict with the
//! attempts, and, inside each cell, an expandable view of every attempt's
//! per-test verdicts and diffs. Both are pure functions of the results.

use std::fmt::Write;

use crate::contest::{Cell, Entry, Results, Scoring};

/// What a cell shows: ICPC `+`/`+2` (solved after 2 rejected attempts),
/// `-3` (3 rejected attempts), `.` (none); IOI the points.
pub(crate) fn cell_text(scoring: Scoring, cell: &Cell) -> String {
    match scoring {
        Scoring::Ioi if cell.attempts == 0 => ".".into(),
        Scoring::Ioi => cell.score.to_string(),
        Scoring::Icpc if cell.solved && cell.counted > 1 => format!("+{}", cell.counted - 1),
        Scoring::Icpc if cell.solved => "+".into(),
        Scoring::Icpc if cell.attempts > 0 => format!("-{}", cell.counted.max(cell.attempts)),
        Scoring::Icpc => ".".into(),
    }
}

/// The scoreboard as text.
pub(crate) fn render_text(results: &Results) -> String {
    use crate::printable::printable_line as shown;
    let c = &results.contest;
    let mut out = String::new();
    let mode = match c.scoring {
        Scoring::Icpc => format!("ICPC, {} min per rejected attempt", c.penalty),
        Scoring::Ioi => "IOI points".into(),
    };
    let _ = writeln!(out, "{} ({mode})", shown(&c.title));
    if let Some(partial) = &results.partial {
        let _ = writeln!(out, "PARTIAL: {}", partial.describe());
    }
    let width = results
        .standings
        .iter()
        .map(|s| shown(&s.contestant).chars().count())
        .max()
        .unwrap_or(10)
        .max(10);
    let ids: Vec<String> = c
        .problems
        .iter()
        .map(|p| shown(&p.id).into_owned())
        .collect();
    let cols: Vec<usize> = ids.iter().map(|id| id.chars().count().max(8)).collect();
    let mut header = format!("{:>4}  {:<width$}", "RANK", "CONTESTANT");
    match c.scoring {
        Scoring::Icpc => header.push_str(&format!("  {:>6}  {:>7}", "SOLVED", "PENALTY")),
        Scoring::Ioi => header.push_str(&format!("  {:>6}", "SCORE")),
    }
    for (id, w) in ids.iter().zip(&cols) {
        header.push_str(&format!("  {id:<w$}"));
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for s in &results.standings {
        let mut line = format!("{:>4}  {:<width$}", s.rank, shown(&s.contestant));
        match c.scoring {
            Scoring::Icpc => line.push_str(&format!("  {:>6}  {:>7}", s.solved, s.penalty)),
            Scoring::Ioi => line.push_str(&format!("  {:>6}", s.score)),
        }
        for (cell, w) in s.cells.iter().zip(&cols) {
            let verdict = cell.verdict.map(|v| v.as_str()).unwrap_or("");
            let text = if cell.attempts == 0 {
                ".".to_string()
            } else {
                format!("{} {verdict}", cell_text(c.scoring, cell))
            };
            line.push_str(&format!("  {text:<w$}"));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let problems = not_judged(results);
    if !problems.is_empty() {
        let _ = writeln!(out, "\nNot judged:");
        for (what, error) in problems {
            let _ = writeln!(out, "  {}: {}", shown(what), shown(error));
        }
    }
    out
}

/// The entries that could not be judged: what names each (its file, or its
/// contestant when it has none) and why.
fn not_judged(results: &Results) -> Vec<(&str, &str)> {
    results
        .entries
        .iter()
        .filter_map(|e| {
            let error = e.error.as_deref()?;
            let what = if e.file.is_empty() {
                &e.contestant
            } else {
                &e.file
            };
            Some((what.as_str(), error))
        })
        .collect()
}

/// HTML-escaped, with control characters shown escaped as in the text
/// renderers (the file may be printed on a terminal too).
fn esc(s: &str) -> String {
    crate::printable::printable(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

const STYLE: &str = "
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { margin: 0 0 .2em; } .meta { color: #666; margin: 0 0 1em; }
table.board { border-collapse: collapse; }
table.board th, table.board td { border: 1px solid #ccc; padding: .35em .6em; vertical-align: top; }
table.board th { background: #f3f3f3; } th small { color: #666; font-weight: normal; }
td.rank, td.num { text-align: right; } td.who { font-weight: 600; }
td.cell { min-width: 6em; } td.cell summary { cursor: pointer; font-weight: 600; }
.v-AC { background: #c8f0c8; } .v-WA, .v-PE, .v-RE { background: #f6c6c6; }
.v-TLE, .v-MLE, .v-OLE { background: #f8e3a8; } .v-CE, .v-IE { background: #e3d0f0; } .v-none { background: #fff; color: #999; }
.attempt { margin: .5em 0; padding: .3em; background: #fff; border: 1px solid #ddd; }
.attempt table { border-collapse: collapse; font-size: 12px; } .attempt td, .attempt th { border: 1px solid #eee; padding: .1em .4em; }
pre { background: #fafafa; border: 1px solid #eee; padding: .4em; font-size: 12px; overflow-x: auto; }
ul.errors li { color: #a00; }
";

/// The scoreboard as one self-contained HTML page.
pub(crate) fn render_html(results: &Results) -> String {
    let c = &results.contest;
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} - scoreboard</title><style>{STYLE}</style></head><body>\n",
        esc(&c.title)
    );
    let mode = match c.scoring {
        Scoring::Icpc => format!("ICPC scoring: problems solved, then {} minutes of penalty per rejected attempt before the first accepted one (compile errors not counted).", c.penalty),
        Scoring::Ioi => "IOI scoring: per problem the best attempt's points; a subtask scores only when all its tests pass.".into(),
    };
    let _ = writeln!(
        out,
        "<h1>{}</h1><p class=\"meta\">{}</p>",
        esc(&c.title),
        esc(&mode)
    );
    if let Some(partial) = &results.partial {
        let _ = writeln!(
            out,
            "<p class=\"partial\" id=\"partial\"><strong>Partial:</strong> {}</p>",
            esc(&partial.describe())
        );
    }
    let _ = write!(out, "<table class=\"board\" id=\"scoreboard\" data-scoring=\"{}\"><thead><tr><th>Rank</th><th>Contestant</th>", match c.scoring {
        Scoring::Icpc => "icpc",
        Scoring::Ioi => "ioi",
    });
    match c.scoring {
        Scoring::Icpc => out.push_str("<th>Solved</th><th>Penalty</th>"),
        Scoring::Ioi => out.push_str("<th>Score</th>"),
    }
    for p in &c.problems {
        let _ = write!(
            out,
            "<th data-problem=\"{}\">{}<br><small>{}</small></th>",
            esc(&p.id),
            esc(&p.id),
            esc(&p.title)
        );
    }
    out.push_str("</tr></thead><tbody>\n");
    for s in &results.standings {
        let _ = write!(
            out,
            "<tr class=\"row\" data-rank=\"{}\" data-contestant=\"{}\" data-solved=\"{}\" data-penalty=\"{}\" data-score=\"{}\"><td class=\"rank\">{}</td><td class=\"who\">{}</td>",
            s.rank,
            esc(&s.contestant),
            s.solved,
            s.penalty,
            s.score,
            s.rank,
            esc(&s.contestant)
        );
        match c.scoring {
            Scoring::Icpc => {
                let _ = write!(
                    out,
                    "<td class=\"num\">{}</td><td class=\"num\">{}</td>",
                    s.solved, s.penalty
                );
            }
            Scoring::Ioi => {
                let _ = write!(out, "<td class=\"num\">{}</td>", s.score);
            }
        }
        for cell in &s.cells {
            let verdict = cell.verdict.map(|v| v.as_str()).unwrap_or("none");
            let _ = write!(
                out,
                "<td class=\"cell v-{verdict}\" data-problem=\"{}\" data-verdict=\"{}\" data-attempts=\"{}\" data-score=\"{}\">",
                esc(&cell.problem),
                cell.verdict.map(|v| v.as_str()).unwrap_or(""),
                cell.attempts,
                cell.score
            );
            if cell.attempts == 0 {
                out.push_str(".</td>");
                continue;
            }
            let _ = write!(
                out,
                "<details><summary>{} {}</summary>",
                esc(&cell_text(c.scoring, cell)),
                verdict
            );
            let attempts = results.entries.iter().filter(|e| {
                e.contestant == s.contestant
                    && e.problem.as_deref() == Some(cell.problem.as_str())
                    && e.report.is_some()
            });
            for e in attempts {
                attempt_html(&mut out, e, c.scoring);
            }
            out.push_str("</details></td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    let errors = not_judged(results);
    if !errors.is_empty() {
        out.push_str("<h2>Not judged</h2><ul class=\"errors\">");
        for (what, error) in errors {
            let _ = write!(
                out,
                "<li data-file=\"{}\"><b>{}</b>: {}</li>",
                esc(what),
                esc(what),
                esc(error)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body></html>\n");
    out
}

fn attempt_html(out: &mut String, e: &Entry, scoring: Scoring) {
    let r = e.report.as_ref().expect("judged");
    let score = match (scoring, e.score) {
        (Scoring::Ioi, Some(points)) => format!(", {points} points"),
        _ => String::new(),
    };
    let _ = write!(
        out,
        "<div class=\"attempt\" data-file=\"{}\" data-verdict=\"{}\"><b>attempt {}</b>: {} [{}] <b>{}</b>{}",
        esc(&e.file),
        r.verdict,
        e.attempt,
        esc(&e.file),
        esc(&r.language),
        r.verdict,
        score
    );
    if !r.compile.message.is_empty() && r.verdict.as_str() == "CE" {
        let _ = write!(out, "<pre>{}</pre>", esc(&r.compile.message));
    }
    if !r.tests.is_empty() {
        out.push_str("<table><tr><th>test</th><th>verdict</th><th>time</th><th>memory</th><th>message</th></tr>");
        for t in &r.tests {
            let _ = write!(
                out,
                "<tr class=\"v-{}\"><td>{}</td><td>{}</td><td>{} ms</td><td>{} KiB</td><td>{}</td></tr>",
                t.verdict,
                esc(&t.name),
                t.verdict,
                t.time_ms,
                t.memory_kib,
                esc(&t.message)
            );
        }
        out.push_str("</table>");
        if let Some(diff) = r.tests.iter().find_map(|t| t.diff.as_ref()) {
            let _ = write!(out, "<pre>{}</pre>", esc(diff));
        }
    }
    out.push_str("</div>");
}

/// What `judge batch` shows as each file is judged: the file (or the
/// contestant) and its verdict.
pub(crate) fn progress_message(entry: &Entry) -> String {
    let what = crate::printable::printable_line(if entry.file.is_empty() {
        &entry.contestant
    } else {
        &entry.file
    });
    let verdict = match (&entry.report, &entry.error) {
        (Some(r), _) => r.verdict.to_string(),
        (None, Some(_)) => "not judged".into(),
        (None, None) => String::new(),
    };
    format!("{what}: {verdict}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::{ContestInfo, ContestProblem};

    fn results() -> Results {
        let contest = ContestInfo {
            title: "Mock <contest>".into(),
            scoring: Scoring::Icpc,
            penalty: 20,
            problems: vec![ContestProblem {
                id: "a".into(),
                title: "A".into(),
                points: 100,
            }],
            contestants: vec!["alice".into(), "bob".into()],
            id: "mock".into(),
            clock: None,
        };
        let entries = vec![Entry {
            contestant: "bob".into(),
            file: "bob/x.cpp".into(),
            problem: None,
            attempt: 0,
            error: Some("names no problem".into()),
            score: None,
            submitted_ms: None,
            report: None,
        }];
        Results::new(contest, None, entries)
    }

    #[test]
    fn html_is_self_contained_and_escaped() {
        let html = render_html(&results());
        assert!(html.contains("Mock &lt;contest&gt;"));
        assert!(!html.contains("<script"));
        assert!(!html.contains("http://") && !html.contains("https://"));
        assert!(html.contains("data-contestant=\"alice\""));
        assert!(html.contains("names no problem"));
    }

    #[test]
    fn html_lists_what_was_not_judged_by_file_or_contestant() {
        let mut results = results();
        let mut folder = results.entries[0].clone();
        folder.file = String::new();
        folder.error = Some("a <bad> folder".into());
        results.entries.push(folder);
        let html = render_html(&results);
        assert!(
            html.contains(concat!(
                "<h2>Not judged</h2><ul class=\"errors\">",
                "<li data-file=\"bob/x.cpp\"><b>bob/x.cpp</b>: names no problem</li>",
                "<li data-file=\"bob\"><b>bob</b>: a &lt;bad&gt; folder</li>",
                "</ul>\n"
            )),
            "{html}"
        );
    }

    #[test]
    fn text_lists_what_was_not_judged() {
        let text = render_text(&results());
        insta::assert_snapshot!(text);
    }
}
