//! The printing pages: a team's (send a file or pasted text; its own jobs
//! and their state) and the jury's queue (team, file, time, the print
//! command's outcome, view the text, mark handed out, print again).

use maud::{html, Markup};

use super::jury::team_name;
use super::{layout, Chrome};
use crate::contest::clock::format_reltime;
use crate::server::printing::{PrintJob, PrintState};

fn contest_time(chrome: &Chrome, t: i64) -> String {
    let text = format_reltime(t - chrome.start.unwrap_or(t));
    text.split('.').next().unwrap_or(&text).to_string()
}

fn state(job: &PrintJob) -> &'static str {
    match (job.done.is_some(), job.state) {
        (true, _) => "handed out",
        (false, PrintState::Printed) => "printed",
        (false, PrintState::Failed) => "waiting for the jury",
        (false, PrintState::Waiting) => "waiting",
    }
}

fn button(chrome: &Chrome, path: &str, label: &str) -> Markup {
    html! {
        form.inline method="post" action=(path) {
            (chrome.csrf_field())
            button type="submit" { (label) }
        }
    }
}

/// A team's printing page.
pub(crate) fn team_page(chrome: &Chrome, jobs: &[PrintJob]) -> String {
    let max = chrome.config.printing.max_size;
    let body = html! {
        p.note { "Send a text file (at most " (max) " bytes) or paste text; the jury brings you the pages." }
        form.card method="post" action="/team/print" enctype="multipart/form-data" {
            (chrome.csrf_field())
            label { "File " input type="file" name="file"; }
            label { "or a name " input type="text" name="filename" placeholder="notes.txt"; }
            label { "and the text " textarea name="text" rows="8" {} }
            button type="submit" { "Print" }
        }
        h2 { "Your print jobs" }
        @if jobs.is_empty() { p.note { "None yet." } }
        @else {
            table.print {
                thead { tr { th { "#" } th { "Time" } th { "File" } th { "State" } } }
                tbody {
                    @for j in jobs.iter().rev() {
                        tr data-print=(j.id) {
                            td { a href={ "/team/print/" (j.id) } { (j.id) } }
                            td { (contest_time(chrome, j.time)) }
                            td { (j.filename) }
                            td { (state(j)) }
                        }
                    }
                }
            }
        }
    };
    layout(chrome, "Print", body)
}

/// The jury's queue: waiting jobs first.
pub(crate) fn queue(chrome: &Chrome, jobs: &[PrintJob]) -> Markup {
    let waiting = jobs.iter().filter(|j| j.done.is_none()).count();
    let command = chrome.config.printing.command.is_some();
    html! {
        p { (waiting) " to hand out, " (jobs.len() - waiting) " handed out." }
        @if jobs.is_empty() { p.note { "Nothing sent to print yet." } }
        @else {
            table.print {
                thead { tr { th { "#" } th { "Time" } th { "Team (room)" } th { "File" } th { "Printer" } th { "" } } }
                tbody {
                    @for j in jobs.iter().filter(|j| j.done.is_none()).chain(jobs.iter().filter(|j| j.done.is_some())) {
                        tr.done[j.done.is_some()] data-print=(j.id) {
                            td { a href={ "/jury/print/" (j.id) } { (j.id) } }
                            td { (contest_time(chrome, j.time)) }
                            td {
                                (team_name(chrome, &j.team))
                                @if let Some(room) = chrome.config.rooms.get(&j.team) {
                                    br; small { (room) }
                                }
                            }
                            td { a href={ "/jury/print/" (j.id) } { (j.filename) } " (" (j.content.len()) " bytes)" }
                            td {
                                (j.state.as_str())
                                @if let Some(out) = &j.output { pre.output { (out) } }
                            }
                            td {
                                @if j.done.is_some() {
                                    (button(chrome, &format!("/jury/print/{}/undone", j.id), "Not handed out"))
                                } @else {
                                    (button(chrome, &format!("/jury/print/{}/done", j.id), "Handed out"))
                                }
                                @if command { (button(chrome, &format!("/jury/print/{}/again", j.id), "Print again")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The jury's queue page.
pub(crate) fn queue_page(chrome: &Chrome, jobs: &[PrintJob]) -> String {
    let body = html! {
        p.note { "Files teams sent to print; open one to read or print it by hand. With `print_command` set, each is printed as it arrives and the printer's answer is shown." }
        div data-live="/jury/fragment/print" data-events="/jury/updates" { (queue(chrome, jobs)) }
    };
    layout(chrome, "Print jobs", body)
}
