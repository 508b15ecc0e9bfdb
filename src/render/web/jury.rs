//! The jury's pages: the contest (the clock's controls: start, freeze,
//! thaw, finalize, end now, length and freeze; rejudging a problem; the
//! event feed), the confirmation pages, the submissions (filtered, first
//! solves marked), one submission with its source and every judgement's
//! per-test verdicts, times and diffs, the clarifications with claims and
//! the forms to answer and announce, and the balloons.

use maud::{html, Markup};

use super::{layout, query_value, verdict_badge, Chrome};
use crate::contest::clock::{format_reltime, format_time};
use crate::report::SubmissionReport;
use crate::server::desk::{
    Balloon, DeskClarification, ListedSubmission, SubmissionFilter, VerdictFilter,
};
use crate::server::live::SubmissionRow;
use crate::server::model::{JudgementRecord, JudgementState};
use crate::units::{format_kib, format_ms};
use crate::verdict::Verdict;

pub(super) fn contest_time(chrome: &Chrome, t: i64) -> String {
    let text = format_reltime(t - chrome.start.unwrap_or(t));
    text.split('.').next().unwrap_or(&text).to_string()
}

pub(super) fn action(chrome: &Chrome, path: &str, label: &str, enabled: bool) -> Markup {
    html! {
        form.inline method="post" action=(path) {
            (chrome.csrf_field())
            button type="submit" disabled[!enabled] { (label) }
        }
    }
}

/// A button that leads to a confirmation page (nothing changes yet).
fn ask(path: &str, label: &str, enabled: bool) -> Markup {
    html! {
        form.inline method="get" action=(path) {
            button type="submit" disabled[!enabled] { (label) }
        }
    }
}

/// `5h`, `4h 30m`, `45m`, `1h 0m 30s` of a span in ms.
fn short_span(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h}h"));
    }
    if m > 0 || (h > 0 && sec > 0) {
        parts.push(format!("{m}m"));
    }
    if sec > 0 || parts.is_empty() {
        parts.push(format!("{sec}s"));
    }
    parts.join(" ")
}

/// What a confirmation page asks about.
#[derive(Debug, Clone)]
pub(crate) enum Confirm<'a> {
    /// Thawing the scoreboard.
    Thaw,
    /// Finalizing the results.
    Finalize,
    /// Ending the contest now.
    End,
    /// Rejudging every submission of a problem with a preview: its id,
    /// and the submissions that would be judged again with their verdicts
    /// now.
    Rejudge(&'a str, &'a [SubmissionRow]),
    /// Ignoring a submission (`true`), or counting it again.
    Ignore(i64, bool),
}

/// A page that says what an action will do, with the form that does it.
pub(crate) fn confirm(chrome: &Chrome, what: &Confirm) -> String {
    let ignore_path;
    let (title, text, path) = match what {
        Confirm::Thaw => (
            "Unfreeze the scoreboard?",
            "Everyone sees the results of the submissions made during the freeze, at once. This cannot be undone.",
            "/jury/clock/thaw",
        ),
        Confirm::Finalize => (
            "Finalize the results?",
            "The results become final and the awards are published (to the jury only until the thaw). This cannot be undone.",
            "/jury/clock/finalize",
        ),
        Confirm::End => (
            "End the contest now?",
            "Teams can no longer submit; the scoreboard stays as it is now (a freeze not yet begun never begins).",
            "/jury/contest/end",
        ),
        Confirm::Rejudge(_, _) => (
            "Rejudge every submission of this problem?",
            "Each submission below is judged again from scratch, apart: nothing changes (the verdicts, the scoreboards, what teams and the event feed see) until you apply the rejudging from its page, which shows what would change. You may cancel it there instead.",
            "/jury/rejudge",
        ),
        Confirm::Ignore(id, ignored) => {
            ignore_path = format!("/jury/submissions/{id}/ignore");
            if *ignored {
                (
                    "Ignore this submission?",
                    "It stops counting everywhere: the scoreboards, the lists, the balloons and the awards; its team no longer sees it, and the event feed deletes it. You can count it again from its page.",
                    ignore_path.as_str(),
                )
            } else {
                (
                    "Count this submission again?",
                    "It counts again everywhere, with its verdict, and the event feed creates it again.",
                    ignore_path.as_str(),
                )
            }
        }
    };
    let body = html! {
        p { (text) }
        @if let Confirm::Rejudge(problem, rows) = what {
            p { (rows.len()) " submissions of problem " strong { (problem) } " would be judged again; "
                (rows.iter().filter(|r| accepted(r)).count()) " of them are accepted now." }
            (submissions_table(chrome, &rows.iter().cloned().map(|row| ListedSubmission { row, first_solve: false }).collect::<Vec<_>>()))
        }
        form.card method="post" action=(path) {
            (chrome.csrf_field())
            input type="hidden" name="confirmed" value="yes";
            @if let Confirm::Rejudge(problem, _) = what { input type="hidden" name="problem" value=(problem); }
            @if let Confirm::Ignore(_, ignored) = what { input type="hidden" name="ignored" value=(if *ignored { "yes" } else { "no" }); }
            button type="submit" { (if matches!(what, Confirm::Rejudge(..)) { "Yes, judge them again (preview)" } else { "Yes, do it" }) }
        }
        p { a href="/jury" { "No, back to the contest" } }
    };
    layout(chrome, title, body)
}

fn accepted(row: &SubmissionRow) -> bool {
    row.judgement
        .as_ref()
        .is_some_and(|j| j.end.is_some() && j.verdict == Some(crate::verdict::Verdict::AC))
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
            (ask("/jury/confirm/thaw", "Unfreeze (thaw)…", s.is_frozen() && s.ended.is_some())) " "
            (ask("/jury/confirm/finalize", "Finalize…", s.ended.is_some() && s.finalized.is_none())) " "
            (ask("/jury/confirm/end", "End the contest now…", s.running()))
        }
        p.note { "The scoreboard is thawed and the results finalized after the end; finalizing waits for every judgement. Each asks for a confirmation." }
        h2 { "Length and freeze" }
        @let clock = chrome.clock;
        form.card method="post" action="/jury/contest/duration" {
            (chrome.csrf_field())
            label { "Length of the contest (now " (short_span(clock.duration_ms)) "; longer or shorter, e.g. 5h 30m)"
                input name="duration" required value=(short_span(clock.duration_ms));
            }
            button type="submit" disabled[s.ended.is_some()] { "Change the length" }
        }
        form.card method="post" action="/jury/contest/freeze" {
            (chrome.csrf_field())
            label { "The scoreboard freezes this long before the end (now "
                (clock.freeze_ms.map(short_span).unwrap_or_else(|| "never".into()))
                "; empty: never)"
                input name="freeze" value=(clock.freeze_ms.map(short_span).unwrap_or_default());
            }
            button type="submit" disabled[s.frozen.is_some() || s.ended.is_some()] { "Change the freeze" }
        }
        p { (submissions) " submissions, " (unfinished) " judgements queued or running." }
        h2 { "Rejudge a problem" }
        p.note { "Judged apart first: its page shows what would change, and you apply or cancel it. " a href="/jury/rejudgings" { "All rejudgings" } }
        form.card method="get" action="/jury/confirm/rejudge" {
            label { "Problem"
                select name="problem" {
                    @for p in &chrome.config.problems { option value=(p.id) { (p.label) ". " (p.name) } }
                }
            }
            button type="submit" { "Rejudge every submission of it…" }
        }
        h2 { "Event feed" }
        p { a href="/jury/event-feed.ndjson" { "event-feed.ndjson" } " (the Contest API's event feed as it stands, for the ICPC Resolver)" }
        p { a href="/jury/archive.zip" { "The contest's archive" } " (the Contest API's contest package: every endpoint, the submissions' files, the event feed; `judge batch` judges it again once unzipped)" }
    };
    layout(chrome, "Contest", body)
}

/// Submissions (also what the live refresh fetches): team names, problem
/// labels, each problem's first solve highlighted.
pub(crate) fn submissions_table(chrome: &Chrome, rows: &[ListedSubmission]) -> Markup {
    html! {
        table.submissions {
            thead { tr { th { "#" } th { "Time" } th { "Team" } th { "Problem" } th { "Language" } th { "Verdict" } th { "Judging" } } }
            tbody {
                @for listed in rows.iter().rev() {
                    @let s = &listed.row.submission;
                    @let judgement = listed.row.judgement.as_ref();
                    tr.first-solve[listed.first_solve] data-submission=(s.id) {
                        td { a href={ "/jury/submissions/" (s.id) } { (s.id) } }
                        td { (contest_time(chrome, s.time)) }
                        td { (team_name(chrome, &s.team)) }
                        td { (problem_label(chrome, &s.problem)) }
                        td { (s.language) }
                        td {
                            (verdict_badge(judgement.filter(|j| j.end.is_some()).and_then(|j| j.verdict)))
                            @if listed.first_solve { " first solve" }
                        }
                        td { (judgement.map(|j| j.state.as_str()).unwrap_or("-")) }
                    }
                }
            }
        }
    }
}

/// A problem's label (its id when it has none).
pub(super) fn problem_label(chrome: &Chrome, id: &str) -> String {
    chrome
        .config
        .problems
        .iter()
        .find(|p| p.id == id)
        .map(|p| p.label.clone())
        .unwrap_or_else(|| id.to_string())
}

/// The filter as a URL's query (empty: none).
fn filter_query(filter: &SubmissionFilter) -> String {
    let verdict = match filter.verdict {
        None => None,
        Some(VerdictFilter::Unjudged) => Some("unjudged".to_string()),
        Some(VerdictFilter::Is(v)) => Some(v.as_str().to_string()),
    };
    let pairs: Vec<String> = [
        ("team", filter.team.clone()),
        ("problem", filter.problem.clone()),
        ("verdict", verdict),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| format!("{k}={}", query_value(&v))))
    .collect();
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}

/// The submissions page: the filter, then the list (refreshed live with
/// the same filter).
pub(crate) fn submissions(
    chrome: &Chrome,
    rows: &[ListedSubmission],
    filter: &SubmissionFilter,
) -> String {
    let chosen = |v: &Option<String>, x: &str| v.as_deref() == Some(x);
    let verdict = filter.verdict;
    let body = html! {
        form.filters method="get" action="/jury/submissions" {
            label { "Team"
                select name="team" {
                    option value="" { "all" }
                    @for t in &chrome.config.teams {
                        option value=(t.id) selected[chosen(&filter.team, &t.id)] { (team_name(chrome, &t.id)) }
                    }
                }
            }
            label { "Problem"
                select name="problem" {
                    option value="" { "all" }
                    @for p in &chrome.config.problems {
                        option value=(p.id) selected[chosen(&filter.problem, &p.id)] { (p.label) ". " (p.name) }
                    }
                }
            }
            label { "Verdict"
                select name="verdict" {
                    option value="" { "all" }
                    option value="unjudged" selected[verdict == Some(VerdictFilter::Unjudged)] { "not yet judged" }
                    @for v in &Verdict::ALL {
                        option value=(v.as_str()) selected[verdict == Some(VerdictFilter::Is(*v))] { (v.as_str()) " (" (v.description()) ")" }
                    }
                }
            }
            button type="submit" { "Show" }
            " " a href="/jury/submissions" { "all" }
        }
        p.note { (rows.len()) " shown; each problem's first solve is highlighted." }
        div data-live={ "/jury/fragment/submissions" (filter_query(filter)) } data-events="/jury/updates" {
            (submissions_table(chrome, rows))
        }
    };
    layout(chrome, "Submissions", body)
}

/// A judgement kept apart by a pending rejudging: the rejudging's id, the
/// judgement, its report.
pub(crate) type PendingJudgement = (i64, JudgementRecord, Option<SubmissionReport>);

/// One submission: each judgement with its tests (those of a pending
/// rejudging first, marked), and its files (name, text) in the order
/// sent; `ignored`: the jury ignores it.
pub(crate) fn submission(
    chrome: &Chrome,
    row: &SubmissionRow,
    ignored: bool,
    sources: &[(String, String)],
    judgements: &[(JudgementRecord, Option<SubmissionReport>)],
    pending: &[PendingJudgement],
) -> String {
    let s = &row.submission;
    let body = html! {
        p {
            "Team " strong { (team_name(chrome, &s.team)) } ", problem " strong { (problem_label(chrome, &s.problem)) } ", " (s.language) ", "
            code { (s.filename) } ", at " (contest_time(chrome, s.time)) " (" (format_time(s.time)) ")"
        }
        @if ignored { p.frozen { "Ignored: this submission counts nowhere." } }
        form.inline method="post" action={ "/jury/submissions/" (s.id) "/rejudge" } {
            (chrome.csrf_field())
            input type="hidden" name="preview" value="yes";
            button type="submit" { "Rejudge with a preview" }
        }
        " "
        (action(chrome, &format!("/jury/submissions/{}/rejudge", s.id), "Rejudge now", true))
        form.inline method="get" action="/jury/confirm/ignore" {
            input type="hidden" name="submission" value=(s.id);
            input type="hidden" name="ignored" value=(if ignored { "no" } else { "yes" });
            button type="submit" { (if ignored { "Count it again…" } else { "Ignore…" }) }
        }
        @for (rejudging, j, report) in pending.iter().rev() {
            h2 {
                "Judgement " (j.id) ": " (verdict_badge(j.verdict.filter(|_| j.state == JudgementState::Done)))
                " (" a href={ "/jury/rejudgings/" (rejudging) } { "rejudging " (rejudging) } ", not applied)"
            }
            p.note { (j.state.as_str()) ": the jury's only until its rejudging is applied." }
            @if let Some(r) = report { (report_view(r)) }
        }
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
        @for (name, text) in sources {
            @if sources.len() > 1 { h3 { code { (name) } } }
            pre.source { (text) }
        }
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

/// Every message, with forms to announce, to claim a question and to
/// answer it: the questions waiting for an answer first (oldest first),
/// then everything else (newest first); the list refreshes live.
pub(crate) fn clarifications(chrome: &Chrome, desk: &[DeskClarification]) -> String {
    let body = html! {
        h2 { "Announce to everyone" }
        form.card method="post" action="/jury/clarifications" {
            (chrome.csrf_field())
            (chrome.about_field())
            label { "Text" textarea name="text" rows="3" required {} }
            button type="submit" { "Announce" }
        }
        div data-live="/jury/fragment/clarifications" data-events="/jury/updates" {
            (clarification_desk(chrome, desk))
        }
    };
    layout(chrome, "Clarifications", body)
}

/// The messages of [`clarifications`] (what its live refresh fetches).
pub(crate) fn clarification_desk(chrome: &Chrome, desk: &[DeskClarification]) -> Markup {
    let waiting = |d: &&DeskClarification| d.clarification.from_team.is_some() && !d.answered;
    html! {
        h2 { "Waiting for an answer" }
        @if !desk.iter().any(|d| waiting(&d)) { p.note { "No question waits." } }
        @for d in desk.iter().filter(waiting) { (message_card(chrome, d)) }
        h2 { "All messages" }
        @for d in desk.iter().rev().filter(|d| !waiting(d)) { (message_card(chrome, d)) }
    }
}

fn message_card(chrome: &Chrome, d: &DeskClarification) -> Markup {
    let c = &d.clarification;
    let class = match (&c.from_team, d.answered, &d.claim) {
        (Some(_), true, _) => "card clarification answered",
        (Some(_), false, Some(_)) => "card clarification claimed",
        _ => "card clarification",
    };
    let others = d.claim.as_ref().is_some_and(|claim| !claim.mine);
    html! {
        div class=(class) data-clarification=(c.id) {
            small {
                "#" (c.id) " · " (contest_time(chrome, c.time)) " · "
                @match (&c.from_team, &c.to_team) {
                    (Some(t), _) => { "question from " strong { (team_name(chrome, t)) } }
                    (None, Some(t)) => { "answer to " (team_name(chrome, t)) }
                    (None, None) => { "to everyone" }
                }
                " · " (chrome.about(c))
                @if let Some(r) = c.reply_to { " · reply to #" (r) }
                @if c.from_team.is_some() {
                    " · " @if d.answered { strong { "answered" } } @else { strong.error { "unanswered" } }
                }
                @if let Some(claim) = &d.claim {
                    " · claimed by " @if claim.mine { "you" } @else { (claim.name) }
                }
            }
            div { (c.text) }
            @if let Some(team) = &c.from_team {
                p {
                    @if d.claim.is_none() {
                        (action(chrome, &format!("/jury/clarifications/{}/claim", c.id), "Claim (I answer it)", true))
                    } @else {
                        (action(chrome, &format!("/jury/clarifications/{}/release", c.id), "Release", true))
                    }
                }
                @if !others {
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
    }
}

/// A team's name and id, as the jury tells them apart.
pub(crate) fn team_name(chrome: &Chrome, id: &str) -> String {
    match chrome.config.team(id) {
        Some(t) if t.name != id => format!("{} ({id})", t.name),
        _ => id.to_string(),
    }
}

/// The balloons page: each team's first accept of each problem, in the
/// order earned, with the team's place and the problem's colour; those
/// not yet handed out first (also what its live refresh fetches).
pub(crate) fn balloons_list(chrome: &Chrome, balloons: &[Balloon]) -> Markup {
    let waiting = balloons.iter().filter(|b| !b.done).count();
    html! {
        p { (waiting) " to hand out, " (balloons.len() - waiting) " handed out." }
        @if balloons.is_empty() { p.note { "No problem solved yet." } }
        @else {
            table.balloons {
                thead { tr { th { "#" } th { "Time" } th { "Balloon" } th { "Team" } th { "Place" } th { "" } } }
                tbody {
                    @for b in balloons.iter().filter(|b| !b.done).chain(balloons.iter().filter(|b| b.done)) {
                        tr.done[b.done] data-balloon=(b.submission) {
                            td { a href={ "/jury/submissions/" (b.submission) } { (b.submission) } }
                            td { (contest_time(chrome, b.time)) }
                            td {
                                @if let Some(colour) = chrome.config.balloon_colour(&b.problem) {
                                    (swatch(colour)) " " (colour) " · "
                                }
                                "problem " strong { (problem_label(chrome, &b.problem)) }
                                @if b.first_of_problem { " · first solve" }
                            }
                            td { (team_name(chrome, &b.team)) }
                            td { (b.place.map(|p| p.to_string()).unwrap_or_else(|| "-".into())) }
                            td {
                                @if b.done {
                                    (action(chrome, &format!("/jury/balloons/{}/undone", b.submission), "Not handed out", true))
                                } @else {
                                    (action(chrome, &format!("/jury/balloons/{}/done", b.submission), "Handed out", true))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A round swatch of `colour` (an SVG fill: the pages allow no inline
/// style).
fn swatch(colour: &str) -> Markup {
    html! {
        svg.swatch width="16" height="16" viewBox="0 0 16 16" {
            circle cx="8" cy="8" r="7" fill=(colour) stroke="#555" {}
        }
    }
}

/// The balloons page.
pub(crate) fn balloons(chrome: &Chrome, balloons: &[Balloon]) -> String {
    let body = html! {
        p.note { "Each team's first accepted submission of each problem, in the order earned; the place is the team's on the jury's scoreboard now (also during the freeze: show this page to balloon runners only)." }
        div data-live="/jury/fragment/balloons" data-events="/jury/updates" { (balloons_list(chrome, balloons)) }
    };
    layout(chrome, "Balloons", body)
}
