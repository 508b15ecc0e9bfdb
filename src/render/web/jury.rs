//! The jury's pages: the contest (the clock's controls: start, freeze,
//! thaw, finalize; rejudging a problem; the event feed), every submission,
//! one submission with its source and every judgement's per-test verdicts,
//! times and diffs, and the clarifications with the forms to answer and
//! announce.

use maud::{html, Markup};

use super::{layout, verdict_badge, Chrome};
use crate::contest::clock::{format_reltime, format_time};
use crate::report::SubmissionReport;
use crate::server::live::SubmissionRow;
use crate::server::model::{Clarification, JudgementRecord, JudgementState};
use crate::units::{format_kib, format_ms};

fn contest_time(chrome: &Chrome, t: i64) -> String {
    let text = format_reltime(t - chrome.start.unwrap_or(t));
    text.split('.').next().unwrap_or(&text).to_string()
}

fn action(chrome: &Chrome, path: &str, label: &str, enabled: bool) -> Markup {
    html! {
        form.inline method="post" action=(path) {
            (chrome.csrf_field())
            button type="submit" disabled[!enabled] { (label) }
        }
    }
}

/// The contest page: state, controls, queue.
pub(crate) fn home(
    chrome: &Chrome,
    submissions: usize,
    unfinished: i64,
    notice: Option<&str>,
) -> String {
    let s = &chrome.state;
    let step = |name: &str, t: Option<i64>| {
        html! { tr { th { (name) } td { (t.map(format_time).unwrap_or_else(|| "-".into())) } } }
    };
    let body = html! {
        @if let Some(n) = notice { p.note { (n) } }
        table {
            (step("started", s.started)) (step("frozen", s.frozen)) (step("ended", s.ended))
            (step("thawed", s.thawed)) (step("finalized", s.finalized)) (step("end of updates", s.end_of_updates))
        }
        p {
            (action(chrome, "/jury/clock/start", "Start now", s.started.is_none())) " "
            (action(chrome, "/jury/clock/freeze", "Freeze the scoreboard", s.running() && s.frozen.is_none())) " "
            (action(chrome, "/jury/clock/thaw", "Unfreeze (thaw)", s.is_frozen() && s.ended.is_some())) " "
            (action(chrome, "/jury/clock/finalize", "Finalize", s.ended.is_some() && s.finalized.is_none()))
        }
        p.note { "The scoreboard is thawed and the results finalized after the end; finalizing waits for every judgement." }
        p { (submissions) " submissions, " (unfinished) " judgements queued or running." }
        h2 { "Rejudge a problem" }
        form.card method="post" action="/jury/rejudge" {
            (chrome.csrf_field())
            label { "Problem"
                select name="problem" {
                    @for p in &chrome.config.problems { option value=(p.id) { (p.label) ". " (p.name) } }
                }
            }
            button type="submit" { "Rejudge every submission of it" }
        }
        h2 { "Event feed" }
        p { a href="/jury/event-feed.ndjson" { "event-feed.ndjson" } " (the Contest API's event feed as it stands, for the ICPC Resolver)" }
    };
    layout(chrome, "Contest", body)
}

/// Every submission (also what the live refresh fetches).
pub(crate) fn submissions_table(chrome: &Chrome, rows: &[SubmissionRow]) -> Markup {
    html! {
        table.submissions {
            thead { tr { th { "#" } th { "Time" } th { "Team" } th { "Problem" } th { "Language" } th { "Verdict" } th { "Judging" } } }
            tbody {
                @for row in rows.iter().rev() {
                    @let s = &row.submission;
                    tr data-submission=(s.id) {
                        td { a href={ "/jury/submissions/" (s.id) } { (s.id) } }
                        td { (contest_time(chrome, s.time)) }
                        td { (s.team) }
                        td { (s.problem) }
                        td { (s.language) }
                        td { (verdict_badge(row.judgement.as_ref().filter(|j| j.end.is_some()).and_then(|j| j.verdict))) }
                        td { (row.judgement.as_ref().map(|j| j.state.as_str()).unwrap_or("-")) }
                    }
                }
            }
        }
    }
}

/// The submissions page.
pub(crate) fn submissions(chrome: &Chrome, rows: &[SubmissionRow]) -> String {
    let body = html! {
        div data-live="/jury/fragment/submissions" data-events="/jury/updates" { (submissions_table(chrome, rows)) }
    };
    layout(chrome, "Submissions", body)
}

/// One submission: source, and each judgement with its tests.
pub(crate) fn submission(
    chrome: &Chrome,
    row: &SubmissionRow,
    source: &str,
    judgements: &[(JudgementRecord, Option<SubmissionReport>)],
) -> String {
    let s = &row.submission;
    let body = html! {
        p {
            "Team " strong { (s.team) } ", problem " strong { (s.problem) } ", " (s.language) ", "
            code { (s.filename) } ", at " (contest_time(chrome, s.time)) " (" (format_time(s.time)) ")"
        }
        (action(chrome, &format!("/jury/submissions/{}/rejudge", s.id), "Rejudge", true))
        @for (j, report) in judgements.iter().rev() {
            h2 { "Judgement " (j.id) ": " (verdict_badge(j.verdict.filter(|_| j.state == JudgementState::Done))) }
            p.note {
                (j.state.as_str())
                @if let Some(start) = j.start { ", started " (contest_time(chrome, start)) }
                @if let Some(end) = j.end { ", finished " (contest_time(chrome, end)) }
                @if let Some(score) = j.score { ", " (score) " points" }
            }
            @if let Some(r) = report { (report_view(r)) }
        }
        h2 { "Source" }
        pre.source { (source) }
    };
    layout(chrome, &format!("Submission {}", s.id), body)
}

fn report_view(r: &SubmissionReport) -> Markup {
    html! {
        @if !r.compile.message.is_empty() { pre { (r.compile.message) } }
        p.note {
            "limits: " (format_ms(r.limits.time_ms)) " CPU, " (format_kib(r.limits.memory_kib)) "; isolation " (r.isolation)
            @if !r.skipped.is_empty() { "; " (r.skipped.len()) " tests not run" @if let Some(why) = r.skip_reason { " (" (why.describe()) ")" } }
        }
        @if !r.tests.is_empty() {
            table {
                thead { tr { th { "Test" } th { "Verdict" } th { "CPU" } th { "Wall" } th { "Memory" } th { "Message" } } }
                tbody {
                    @for t in &r.tests {
                        tr {
                            td { (t.name) }
                            td { (verdict_badge(Some(t.verdict))) }
                            td { (format_ms(t.time_ms)) }
                            td { (format_ms(t.wall_ms)) }
                            td { (format_kib(t.memory_kib)) }
                            td {
                                (t.message)
                                @if let Some(d) = &t.diff { pre.diff { (d) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Every clarification, with forms to answer each question and to announce.
pub(crate) fn clarifications(chrome: &Chrome, clarifications: &[Clarification]) -> String {
    let body = html! {
        h2 { "Announce to everyone" }
        form.card method="post" action="/jury/clarifications" {
            (chrome.csrf_field())
            (chrome.about_field())
            label { "Text" textarea name="text" rows="3" required {} }
            button type="submit" { "Announce" }
        }
        h2 { "Messages" }
        @for c in clarifications.iter().rev() {
            div.card.clarification data-clarification=(c.id) {
                small {
                    "#" (c.id) " · " (contest_time(chrome, c.time)) " · "
                    @match (&c.from_team, &c.to_team) {
                        (Some(t), _) => { "question from " strong { (t) } }
                        (None, Some(t)) => { "answer to " (t) }
                        (None, None) => { "to everyone" }
                    }
                    @if let Some(p) = &c.problem { " · " (p) }
                    @if let Some(r) = c.reply_to { " · reply to #" (r) }
                }
                div { (c.text) }
                @if let Some(team) = &c.from_team {
                    form method="post" action="/jury/clarifications" {
                        (chrome.csrf_field())
                        input type="hidden" name="reply_to" value=(c.id);
                        input type="hidden" name="team" value=(team);
                        textarea name="text" rows="2" required {}
                        label { input type="checkbox" name="everyone" value="1"; "answer to everyone" }
                        button type="submit" { "Answer" }
                    }
                }
            }
        }
    };
    layout(chrome, "Clarifications", body)
}
