//! Scoring: entries in order, and the standings by ICPC rules (solved,
//! then penalty time: the minute of each first accepted attempt plus
//! `penalty` minutes per rejected attempt before it) or IOI rules (the best
//! attempt per problem). The standings are computed from [`Attempt`]s, so
//! `judge batch` (files of a folder) and `judge serve` (submissions of a
//! live contest, some still pending or hidden by the freeze) score alike.

use crate::contest::{Cell, ContestInfo, ContestProblem, Entry, Scoring, Standing};
use crate::verdict::Verdict;

/// One attempt of a contestant on a problem, as the scoring sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attempt {
    /// Contestant (team id).
    pub(crate) contestant: String,
    /// Problem id.
    pub(crate) problem: String,
    /// Its place among the contestant's attempts on the problem (attempt
    /// number, or submission order).
    pub(crate) order: i64,
    /// Its verdict; `None` while it is pending (queued, being judged, or
    /// hidden by the scoreboard freeze).
    pub(crate) verdict: Option<Verdict>,
    /// IOI points.
    pub(crate) score: u64,
    /// Minutes into the contest when it was made, when the contest has a
    /// start (ICPC penalty time counts them).
    pub(crate) minute: Option<u64>,
}

impl Attempt {
    /// The attempt of a judged file of `judge batch` (none for a file that
    /// was not judged).
    pub(crate) fn of_entry(entry: &Entry, start_ms: Option<i64>) -> Option<Attempt> {
        let verdict = entry.verdict()?;
        Some(Attempt {
            contestant: entry.contestant.clone(),
            problem: entry.problem.clone()?,
            order: i64::from(entry.attempt),
            verdict: Some(verdict),
            score: entry.score.unwrap_or(0),
            minute: match (start_ms, entry.submitted_ms) {
                (Some(start), Some(time)) => Some(super::clock::contest_minute(start, time)),
                _ => None,
            },
        })
    }
}

/// Sorts entries by contestant, problem, attempt, file.
pub(crate) fn sort_entries(entries: &mut [Entry]) {
    entries.sort_by(|a, b| {
        (&a.contestant, &a.problem, a.attempt, &a.file).cmp(&(
            &b.contestant,
            &b.problem,
            b.attempt,
            &b.file,
        ))
    });
}

/// The scoreboard: one row per contestant, ranked. ICPC ties on solved
/// and penalty are broken by the earlier last accepted minute, as ICPC
/// and DOMjudge do; rows that still tie share the rank.
pub(crate) fn standings(contest: &ContestInfo, attempts: &[Attempt]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = contest
        .contestants
        .iter()
        .map(|who| {
            let cells: Vec<Cell> = contest
                .problems
                .iter()
                .map(|p| {
                    cell(
                        contest,
                        p,
                        attempts
                            .iter()
                            .filter(|a| &a.contestant == who && a.problem == p.id),
                    )
                })
                .collect();
            let solved_minutes = cells.iter().filter(|c| c.solved).filter_map(|c| c.minute);
            Standing {
                rank: 0,
                contestant: who.clone(),
                solved: cells.iter().filter(|c| c.solved).count(),
                penalty: cells.iter().filter(|c| c.solved).map(|c| c.penalty).sum(),
                score: cells.iter().map(|c| c.score).sum(),
                last_solve: solved_minutes.max(),
                cells,
            }
        })
        .collect();
    let key = |s: &Standing| match contest.scoring {
        Scoring::Icpc => (
            std::cmp::Reverse(s.solved as u64),
            s.penalty,
            s.last_solve.unwrap_or(0),
        ),
        Scoring::Ioi => (std::cmp::Reverse(s.score), 0, 0),
    };
    rows.sort_by(|a, b| {
        key(a)
            .cmp(&key(b))
            .then_with(|| a.contestant.cmp(&b.contestant))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    rows
}

pub(super) fn cell<'a>(
    contest: &ContestInfo,
    problem: &ContestProblem,
    attempts: impl Iterator<Item = &'a Attempt>,
) -> Cell {
    let mut all: Vec<&Attempt> = attempts.collect();
    all.sort_by_key(|a| a.order);
    // The judge's own failure (IE) is not the team's attempt: it is
    // neither shown nor counted (it is judged again once fixed).
    let judged: Vec<&Attempt> = all
        .iter()
        .copied()
        .filter(|a| a.verdict.is_some_and(|v| v != Verdict::IE))
        .collect();
    let mut c = Cell {
        problem: problem.id.clone(),
        attempts: judged.len(),
        counted: 0,
        verdict: judged.last().and_then(|a| a.verdict),
        solved: false,
        penalty: 0,
        score: judged.iter().map(|a| a.score).max().unwrap_or(0),
        pending: 0,
        minute: None,
    };
    for a in &all {
        let Some(verdict) = a.verdict else {
            c.pending += 1;
            continue;
        };
        // Neither a compile error nor the judge's own failure costs a penalty.
        if verdict == Verdict::CE || verdict == Verdict::IE {
            continue;
        }
        c.counted += 1;
        if verdict == Verdict::AC {
            c.solved = true;
            c.verdict = Some(Verdict::AC);
            c.minute = a.minute;
            c.penalty = a.minute.unwrap_or(0) + contest.penalty * (c.counted as u64 - 1);
            break;
        }
    }
    if contest.scoring == Scoring::Ioi {
        c.pending = all.iter().filter(|a| a.verdict.is_none()).count();
        // The deciding verdict of an IOI cell is the best-scoring attempt's.
        if let Some(best) = judged
            .iter()
            .filter(|a| a.score == c.score)
            .max_by_key(|a| a.order)
        {
            if !c.solved {
                c.verdict = best.verdict;
            }
            if c.score > 0 {
                c.minute = judged
                    .iter()
                    .filter(|a| a.score == c.score)
                    .find_map(|a| a.minute);
            }
        }
    }
    c
}
