//! The scoreboard as a page (teams, the jury, the projector): ranks,
//! solved and penalty (or points), a cell per problem with the attempts and
//! the minute of the solve, pending attempts shown as such (judging, or
//! hidden by the freeze), and the awards once the results are final.

use maud::{html, Markup};

use super::{layout, Chrome};
use crate::contest::awards::Award;
use crate::contest::{Cell, Scoring};
use crate::server::live::Board;
use crate::server::model::LiveConfig;

/// The scoreboard's table (also what the live refresh fetches).
pub(crate) fn table(config: &LiveConfig, board: &Board) -> Markup {
    let scoring = board.info.scoring;
    html! {
        @if board.frozen {
            p.frozen { "The scoreboard is frozen: results of submissions made since then are shown as pending." }
        }
        table.scoreboard {
            thead { tr {
                th { "Rank" } th { "Team" }
                @match scoring {
                    Scoring::Icpc => { th { "Solved" } th { "Time" } }
                    Scoring::Ioi => { th { "Points" } }
                }
                @for p in config.problems.iter().filter(|p| board.info.problems.iter().any(|q| q.id == p.id)) {
                    th title=(p.name) { (p.label) }
                }
            } }
            tbody {
                @for row in &board.standings {
                    tr data-team=(row.contestant) {
                        td { (row.rank) }
                        td { (config.team(&row.contestant).map(|t| t.name.as_str()).unwrap_or(&row.contestant)) }
                        @match scoring {
                            Scoring::Icpc => { td { (row.solved) } td { (row.penalty) } }
                            Scoring::Ioi => { td { (row.score) } }
                        }
                        @for c in &row.cells { (cell(scoring, c)) }
                    }
                }
            }
        }
    }
}

fn cell(scoring: Scoring, c: &Cell) -> Markup {
    let class = if c.solved || (scoring == Scoring::Ioi && c.score > 0) {
        "solved"
    } else if c.pending > 0 {
        "waiting"
    } else if c.attempts > 0 {
        "tried"
    } else {
        ""
    };
    let tries = c.counted + c.pending;
    html! {
        td class=(class) data-problem=(c.problem) {
            @match scoring {
                Scoring::Icpc => {
                    @if c.solved {
                        (c.minute.map(|m| m.to_string()).unwrap_or_else(|| "+".into()))
                        br; small { (tries) (if tries == 1 { " try" } else { " tries" }) }
                    } @else if tries > 0 || c.attempts > 0 {
                        small { (tries.max(c.attempts)) (if tries.max(c.attempts) == 1 { " try" } else { " tries" }) }
                        @if c.pending > 0 { br; small { (c.pending) " pending" } }
                    }
                }
                Scoring::Ioi => {
                    @if c.attempts > 0 || c.pending > 0 { (c.score) }
                    @if c.pending > 0 { br; small { (c.pending) " pending" } }
                }
            }
        }
    }
}

/// The scoreboard page; `fragment` is where the live refresh fetches the
/// table, `events` the stream that says when; `awards`, the final ones
/// when the viewer may see them.
pub(crate) fn page(
    chrome: &Chrome,
    board: &Board,
    awards: Option<&[Award]>,
    fragment: &str,
    events: &str,
) -> String {
    let team_name = |id: &str| {
        chrome
            .config
            .team(id)
            .map_or_else(|| id.to_string(), |t| t.name.clone())
    };
    let body = html! {
        @if let Some(awards) = awards {
            section.awards {
                h2 { "Awards" }
                @if awards.is_empty() { p { "No team solved a problem: no awards." } }
                table.awards {
                    @for a in awards {
                        tr data-award=(a.id) {
                            th { (a.citation) }
                            td { (a.team_ids.iter().map(|t| team_name(t)).collect::<Vec<_>>().join(", ")) }
                        }
                    }
                }
            }
        }
        div data-live=(fragment) data-events=(events) { (table(chrome.config, board)) }
    };
    layout(chrome, "Scoreboard", body)
}
