//! Scoring: entries in order, and the standings by ICPC rules (solved,
//! then penalty time) or IOI rules (the best attempt per problem).

use crate::contest::{Cell, ContestInfo, ContestProblem, Entry, Scoring, Standing};
use crate::verdict::Verdict;

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

/// The scoreboard: one row per contestant, ranked.
pub(crate) fn standings(contest: &ContestInfo, entries: &[Entry]) -> Vec<Standing> {
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
                        entries
                            .iter()
                            .filter(|e| &e.contestant == who && e.problem.as_ref() == Some(&p.id)),
                    )
                })
                .collect();
            Standing {
                rank: 0,
                contestant: who.clone(),
                solved: cells.iter().filter(|c| c.solved).count(),
                penalty: cells.iter().filter(|c| c.solved).map(|c| c.penalty).sum(),
                score: cells.iter().map(|c| c.score).sum(),
                cells,
            }
        })
        .collect();
    let key = |s: &Standing| match contest.scoring {
        Scoring::Icpc => (std::cmp::Reverse(s.solved as u64), s.penalty),
        Scoring::Ioi => (std::cmp::Reverse(s.score), 0),
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
    attempts: impl Iterator<Item = &'a Entry>,
) -> Cell {
    let mut judged: Vec<&Entry> = attempts.filter(|e| e.report.is_some()).collect();
    judged.sort_by_key(|e| e.attempt);
    let mut c = Cell {
        problem: problem.id.clone(),
        attempts: judged.len(),
        counted: 0,
        verdict: judged.last().and_then(|e| e.verdict()),
        solved: false,
        penalty: 0,
        score: judged.iter().filter_map(|e| e.score).max().unwrap_or(0),
    };
    for e in &judged {
        let verdict = e.verdict().expect("judged");
        // Neither a compile error nor the judge's own failure costs a penalty.
        if verdict == Verdict::CE || verdict == Verdict::IE {
            continue;
        }
        c.counted += 1;
        if verdict == Verdict::AC {
            c.solved = true;
            c.verdict = Some(Verdict::AC);
            c.penalty = contest.penalty * (c.counted as u64 - 1);
            break;
        }
    }
    if contest.scoring == Scoring::Ioi {
        // The deciding verdict of an IOI cell is the best-scoring attempt's.
        if let Some(best) = judged
            .iter()
            .filter(|e| e.score == Some(c.score))
            .max_by_key(|e| e.attempt)
        {
            if !c.solved {
                c.verdict = best.verdict();
            }
        }
    }
    c
}
