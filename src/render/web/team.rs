//! A team's pages: the problems with the submit form and the team's
//! submissions (verdicts appear live), a problem's statement and samples,
//! one submission (its verdict, and for the samples it failed, the diff),
//! and the clarifications it may read with the form to ask.

use maud::{html, Markup};

use super::{layout, markdown, verdict_badge, Chrome};
use crate::contest::clock::format_reltime;
use crate::report::SubmissionReport;
use crate::server::live::{ProblemPage, Statement, SubmissionRow};
use crate::server::model::{Clarification, LiveConfig};

/// The team's submissions table (also what the live refresh fetches).
pub(crate) fn submissions_table(chrome: &Chrome, rows: &[SubmissionRow]) -> Markup {
    let config = chrome.config;
    html! {
        @if rows.is_empty() {
            p.note { "No submissions yet." }
        } @else {
            table.submissions {
                thead { tr { th { "#" } th { "Time" } th { "Problem" } th { "Language" } th { "File" } th { "Verdict" } } }
                tbody {
                    @for row in rows.iter().rev() {
                        @let s = &row.submission;
                        tr data-submission=(s.id) {
                            td { a href={ "/team/submissions/" (s.id) } { (s.id) } }
                            td { (contest_time(chrome, s.time)) }
                            td { (label_of(config, &s.problem)) }
                            td { (s.language) }
                            td { (s.filename) }
                            td.result { (verdict_badge(row.judgement.as_ref().filter(|j| j.end.is_some()).and_then(|j| j.verdict))) }
                        }
                    }
                }
            }
        }
    }
}

fn contest_time(chrome: &Chrome, t: i64) -> String {
    let text = format_reltime(t - chrome.start.unwrap_or(t));
    text.split('.').next().unwrap_or(&text).to_string()
}

fn label_of(config: &LiveConfig, problem: &str) -> String {
    match config.problems.iter().find(|p| p.id == problem) {
        Some(p) => format!("{} {}", p.label, p.name),
        None => problem.to_string(),
    }
}

/// The team's main page: problems, the submit form, its submissions.
pub(crate) fn home(chrome: &Chrome, rows: &[SubmissionRow], notice: Option<&str>) -> String {
    let config = chrome.config;
    let open = chrome.state.running();
    let body = html! {
        @if let Some(n) = notice { p.note { (n) } }
        h2 { "Problems" }
        @if chrome.state.started.is_none() {
            p.note { "The problems appear when the contest starts." }
        } @else {
            ul.problems {
                @for p in &config.problems {
                    li { a href={ "/team/problems/" (p.id) } { (p.label) ". " (p.name) } }
                }
            }
        }
        h2 { "Submit" }
        @if open {
            form.card method="post" action="/team/submit" enctype="multipart/form-data" {
                (chrome.csrf_field())
                label { "Problem"
                    select name="problem" required {
                        @for p in &config.problems { option value=(p.id) { (p.label) ". " (p.name) } }
                    }
                }
                label { "Language"
                    select name="language" {
                        option value="" { "from the file's extension" }
                        @for l in &config.languages { option value=(l.id) { (l.name) } }
                    }
                }
                label { "File" input type="file" name="file" multiple required; }
                p.note { "Several files (or a .zip of them) are one submission. A submit-answer problem: one file answers every test, or one file per test named after it (1.ans, 2.ans, ...)." }
                button type="submit" { "Submit" }
            }
        } @else {
            p.note { "Submissions are accepted while the contest runs." }
        }
        h2 { "Your submissions" }
        div #submissions data-live="/team/fragment/submissions" data-events="/team/updates" {
            (submissions_table(chrome, rows))
        }
    };
    layout(chrome, "Problems & submissions", body)
}

/// A problem: its statement and its samples.
pub(crate) fn problem(chrome: &Chrome, id: &str, page: &ProblemPage) -> String {
    let p = chrome.config.problems.iter().find(|p| p.id == id);
    let title = p
        .map(|p| format!("{}. {}", p.label, p.name))
        .unwrap_or_default();
    let body = html! {
        @if let Some(p) = p {
            p.note {
                "Time limit " (format!("{:.3}", p.time_limit_ms as f64 / 1000.0).trim_end_matches('0').trim_end_matches('.')) " s, memory limit "
                (p.memory_limit >> 20) " MiB."
            }
        }
        @match &page.statement {
            Statement::Markdown(text) => { article.statement { (markdown(text)) } }
            Statement::Pdf(_) => { p { a href={ "/team/problems/" (id) "/statement.pdf" } { "The statement (PDF)" } } }
            Statement::Text(text) => { pre.statement { (text) } }
            Statement::Missing => { p.note { "This problem's package has no statement." } }
        }
        h2 { "Samples" }
        @if page.samples.is_empty() { p.note { "No samples." } }
        @for s in &page.samples {
            h3 { (s.name) }
            p {
                a href={ "/team/problems/" (id) "/samples/" (s.name) ".in" } { "input" } " · "
                a href={ "/team/problems/" (id) "/samples/" (s.name) ".ans" } { "answer" }
            }
            pre { (String::from_utf8_lossy(&s.input)) }
        }
    };
    layout(chrome, &title, body)
}

/// One of the team's submissions: its verdict, and the samples' results
/// with the diff of those it failed (other tests are not shown).
pub(crate) fn submission(
    chrome: &Chrome,
    row: &SubmissionRow,
    report: Option<&SubmissionReport>,
    page: Option<&ProblemPage>,
) -> String {
    let s = &row.submission;
    let finished = row.judgement.as_ref().filter(|j| j.end.is_some());
    let body = html! {
        p {
            "Problem " (label_of(chrome.config, &s.problem)) ", " (s.language) ", " code { (s.filename) }
            ", at " (contest_time(chrome, s.time)) ": "
            (verdict_badge(finished.and_then(|j| j.verdict)))
        }
        @if let Some(report) = report.filter(|_| finished.is_some()) {
            @if !report.compile.message.is_empty() && report.verdict == crate::verdict::Verdict::CE {
                h2 { "Compiler output" }
                pre { (report.compile.message) }
            }
            @let samples: Vec<_> = report.tests.iter().filter(|t| page.is_some_and(|p| p.is_sample(&t.name))).collect();
            @if !samples.is_empty() {
                h2 { "Samples" }
                table {
                    thead { tr { th { "Test" } th { "Verdict" } th { "CPU time" } th { "Why" } } }
                    tbody {
                        @for t in &samples {
                            tr {
                                td { (t.name) }
                                td { (verdict_badge(Some(t.verdict))) }
                                td { (t.time_ms) " ms" }
                                td { (t.message) }
                            }
                        }
                    }
                }
                @for t in samples.iter().filter(|t| !t.verdict.is_accepted()) {
                    @if let Some(diff) = &t.diff {
                        h3 { "Sample " (t.name) ": expected and got" }
                        pre.diff { (diff) }
                    }
                }
            }
        }
        p { a href="/team" { "Back to your submissions" } }
    };
    layout(chrome, &format!("Submission {}", s.id), body)
}

/// The clarifications a team may read, and the form to ask.
pub(crate) fn clarifications(chrome: &Chrome, clarifications: &[Clarification]) -> String {
    let body = html! {
        h2 { "Ask the jury" }
        form.card method="post" action="/team/clarifications" {
            (chrome.csrf_field())
            (chrome.about_field())
            label { "Question" textarea name="text" rows="4" required {} }
            button type="submit" { "Send" }
        }
        h2 { "Messages" }
        div data-live="/team/fragment/clarifications" data-events="/team/updates" {
            (clarification_list(chrome, clarifications))
        }
    };
    layout(chrome, "Clarifications", body)
}

/// The clarifications as a list (newest first).
pub(crate) fn clarification_list(chrome: &Chrome, clarifications: &[Clarification]) -> Markup {
    html! {
        @if clarifications.is_empty() { p.note { "None yet." } }
        @for c in clarifications.iter().rev() {
            div.card.clarification data-clarification=(c.id) {
                small {
                    (contest_time(chrome, c.time)) " · "
                    @match (&c.from_team, &c.to_team) {
                        (Some(t), _) => { "question from " (t) }
                        (None, Some(t)) => { "answer to " (t) }
                        (None, None) => { "to everyone" }
                    }
                    " · " (chrome.about(c))
                    @if let Some(r) = c.reply_to { " · reply to #" (r) }
                }
                div { (c.text) }
            }
        }
    }
}
