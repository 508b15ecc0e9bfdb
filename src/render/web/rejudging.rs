//! The jury's rejudging pages: every rejudging with its state and
//! summary, and one rejudging's preview (its progress, per submission the
//! verdict now and the rejudging's, the changed ones highlighted, and how
//! many changed from what to what) with the buttons that apply or cancel
//! it; the preview refreshes live as the judges finish.

use maud::{html, Markup};

use super::jury::{action, contest_time, problem_label, team_name};
use super::{layout, verdict_badge, Chrome};
use crate::contest::clock::format_time;
use crate::server::rejudging::RejudgingView;
use crate::server::store::RejudgingState;

/// What a rejudging judges, in words.
fn target(chrome: &Chrome, view: &RejudgingView) -> Markup {
    let r = &view.rejudging;
    html! {
        @match r.submission {
            Some(id) => { "submission " a href={ "/jury/submissions/" (id) } { (id) } " (problem " (problem_label(chrome, &r.problem)) ")" }
            None => { "every submission of problem " strong { (problem_label(chrome, &r.problem)) } }
        }
    }
}

/// The list of rejudgings, the newest first.
pub(crate) fn rejudgings(chrome: &Chrome, views: &[RejudgingView]) -> String {
    let body = html! {
        p.note { "A rejudging judges submissions again without touching their results: its page shows, per submission, the verdict now and the new one; applying it makes the new judgements count (the scoreboard, the awards and the event feed follow), cancelling discards them. One rejudging of a problem at a time. Start one from the contest page (a whole problem) or from a submission's page." }
        @if views.is_empty() { p.note { "No rejudging yet." } }
        @else {
            table.rejudgings {
                thead { tr { th { "#" } th { "Started" } th { "Of" } th { "State" } th { "Preview" } } }
                tbody {
                    @for v in views {
                        tr data-rejudging=(v.rejudging.id) {
                            td { a href={ "/jury/rejudgings/" (v.rejudging.id) } { (v.rejudging.id) } }
                            td { (contest_time(chrome, v.rejudging.created)) }
                            td { (target(chrome, v)) }
                            td { (v.rejudging.state.as_str()) }
                            td { @if v.rejudging.state == RejudgingState::Cancelled { (v.rejudging.note.as_deref().unwrap_or("cancelled")) } @else { (v.summary()) } }
                        }
                    }
                }
            }
        }
    };
    layout(chrome, "Rejudgings", body)
}

/// One rejudging's page: what it judges, then its live part.
pub(crate) fn rejudging(chrome: &Chrome, view: &RejudgingView) -> String {
    let id = view.rejudging.id;
    let body = html! {
        p { "Judging again " (target(chrome, view)) ", started " (contest_time(chrome, view.rejudging.created)) " (" (format_time(view.rejudging.created)) ")." }
        div data-live={ "/jury/fragment/rejudgings/" (id) } data-events="/jury/updates" {
            (rejudging_part(chrome, view))
        }
        p { a href="/jury/rejudgings" { "All rejudgings" } }
    };
    layout(chrome, &format!("Rejudging {id}"), body)
}

/// The live part of a rejudging's page (also what its refresh fetches):
/// the state, the progress and summary, the buttons, the submissions.
pub(crate) fn rejudging_part(chrome: &Chrome, view: &RejudgingView) -> Markup {
    let r = &view.rejudging;
    let total = view.submissions.len();
    let judged = view.judged();
    html! {
        @match r.state {
            RejudgingState::Pending => {
                p.note data-state="pending" {
                    "Pending: nothing has changed yet (teams, the scoreboards and the event feed see the verdicts as they were). "
                    "Judged " strong.progress { (judged) " of " (total) } "."
                }
            }
            RejudgingState::Applied => {
                p.frozen data-state="applied" { "Applied" @if let Some(t) = r.decided { " at " (contest_time(chrome, t)) } ": these judgements count." }
            }
            RejudgingState::Cancelled => {
                p.frozen data-state="cancelled" {
                    "Cancelled" @if let Some(t) = r.decided { " at " (contest_time(chrome, t)) } ": "
                    (r.note.as_deref().unwrap_or("its judgements were discarded")) "."
                }
            }
        }
        @if r.state != RejudgingState::Cancelled { p.summary { strong { (view.summary()) } } }
        @if r.state == RejudgingState::Pending {
            p {
                (action(chrome, &format!("/jury/rejudgings/{}/apply", r.id), "Apply: the new verdicts count", view.complete()))
                " "
                (action(chrome, &format!("/jury/rejudgings/{}/cancel", r.id), "Cancel: discard them", true))
            }
            @if !view.complete() { p.note { "It can be applied once every submission is judged." } }
        }
        @if !view.submissions.is_empty() {
            table.rejudging {
                thead { tr { th { "#" } th { "Time" } th { "Team" } th { "Language" } th { "Verdict before" } th { "" } th { "New verdict" } } }
                tbody {
                    @for s in &view.submissions {
                        tr class=[s.changed().then_some("changed")] data-submission=(s.submission.id) {
                            td { a href={ "/jury/submissions/" (s.submission.id) } { (s.submission.id) } }
                            td { (contest_time(chrome, s.submission.time)) }
                            td { (team_name(chrome, &s.submission.team)) }
                            td { (s.submission.language) }
                            td.before { (verdict_badge(s.old_verdict())) }
                            td { "→" }
                            td.after {
                                @if s.judged() { (verdict_badge(s.new_verdict())) } @else { span.verdict.pending { (s.after.state.as_str()) } }
                            }
                        }
                    }
                }
            }
        }
    }
}
