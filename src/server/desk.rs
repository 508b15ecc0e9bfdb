//! The jury's desk as data: the clarifications with whether each question
//! is answered and who claimed it ([`DeskClarification`]), the submission
//! list filtered with each problem's first solve marked
//! ([`ListedSubmission`]), and the balloons to hand out ([`Balloon`]). Who
//! may read it is [`super::door`]'s to say; this module only computes.

use std::collections::{HashMap, HashSet};

use super::live::SubmissionRow;
use super::model::Clarification;
use super::store::ClaimRow;
use crate::contest::clock::EpochMs;
use crate::verdict::Verdict;

/// Which verdicts the jury's list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VerdictFilter {
    /// Not judged yet (queued, or being judged).
    Unjudged,
    /// Judged with this verdict.
    Is(Verdict),
}

/// What the jury's submission list shows (all when empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SubmissionFilter {
    /// One team's.
    pub(crate) team: Option<String>,
    /// One problem's (its id).
    pub(crate) problem: Option<String>,
    /// One verdict, or the unjudged.
    pub(crate) verdict: Option<VerdictFilter>,
}

/// A submission in the jury's list.
#[derive(Debug, Clone)]
pub(crate) struct ListedSubmission {
    /// It, with its latest judgement.
    pub(crate) row: SubmissionRow,
    /// Whether it is its problem's first solve (of the teams on the public
    /// board).
    pub(crate) first_solve: bool,
}

/// The verdict a row shows: its latest judgement's, once finished.
fn verdict_of(row: &SubmissionRow) -> Option<Verdict> {
    row.judgement
        .as_ref()
        .filter(|j| j.end.is_some())
        .and_then(|j| j.verdict)
}

/// The rows in order of submission (time, then id).
fn in_order(rows: &[SubmissionRow]) -> Vec<&SubmissionRow> {
    let mut sorted: Vec<&SubmissionRow> = rows.iter().collect();
    sorted.sort_by_key(|r| (r.submission.time, r.submission.id));
    sorted
}

/// The first accepted submission of each problem by a team not `hidden`.
pub(crate) fn first_solves(rows: &[SubmissionRow], hidden: &HashSet<&str>) -> HashSet<i64> {
    let mut seen = HashSet::new();
    in_order(rows)
        .into_iter()
        .filter(|r| verdict_of(r) == Some(Verdict::AC))
        .filter(|r| !hidden.contains(r.submission.team.as_str()))
        .filter(|r| seen.insert(r.submission.problem.clone()))
        .map(|r| r.submission.id)
        .collect()
}

/// The rows `filter` keeps, newest last, their first solves marked.
pub(crate) fn listed(
    rows: Vec<SubmissionRow>,
    filter: &SubmissionFilter,
    hidden: &HashSet<&str>,
) -> Vec<ListedSubmission> {
    let first = first_solves(&rows, hidden);
    rows.into_iter()
        .filter(|r| filter.team.as_ref().is_none_or(|t| *t == r.submission.team))
        .filter(|r| {
            filter
                .problem
                .as_ref()
                .is_none_or(|p| *p == r.submission.problem)
        })
        .filter(|r| match filter.verdict {
            None => true,
            Some(VerdictFilter::Unjudged) => verdict_of(r).is_none(),
            Some(VerdictFilter::Is(v)) => verdict_of(r) == Some(v),
        })
        .map(|row| ListedSubmission {
            first_solve: first.contains(&row.submission.id),
            row,
        })
        .collect()
}

/// A balloon: a team's first accepted submission of a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Balloon {
    /// The submission.
    pub(crate) submission: i64,
    /// When it was made.
    pub(crate) time: EpochMs,
    /// The team.
    pub(crate) team: String,
    /// The problem's id.
    pub(crate) problem: String,
    /// Whether it is the problem's first solve (of the teams on the public
    /// board).
    pub(crate) first_of_problem: bool,
    /// Whether it was handed out.
    pub(crate) done: bool,
    /// The team's place on the jury's scoreboard now.
    pub(crate) place: Option<usize>,
}

/// The balloons, in the order they were earned.
pub(crate) fn balloons(
    rows: &[SubmissionRow],
    done: &HashSet<i64>,
    hidden: &HashSet<&str>,
) -> Vec<Balloon> {
    let first = first_solves(rows, hidden);
    let mut earned = HashSet::new();
    in_order(rows)
        .into_iter()
        .filter(|r| verdict_of(r) == Some(Verdict::AC))
        .filter(|r| earned.insert((r.submission.team.clone(), r.submission.problem.clone())))
        .map(|r| Balloon {
            submission: r.submission.id,
            time: r.submission.time,
            team: r.submission.team.clone(),
            problem: r.submission.problem.clone(),
            first_of_problem: first.contains(&r.submission.id),
            done: done.contains(&r.submission.id),
            place: None,
        })
        .collect()
}

/// A judge's claim on a question, as a judge's page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClaimView {
    /// The name the other judges see.
    pub(crate) name: String,
    /// Whether the judge looking holds it.
    pub(crate) mine: bool,
}

/// A clarification on the jury's desk.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeskClarification {
    /// The message.
    pub(crate) clarification: Clarification,
    /// For a question: whether the jury has answered it.
    pub(crate) answered: bool,
    /// For a question: the judge who claimed it.
    pub(crate) claim: Option<ClaimView>,
}

/// The questions with an answer.
pub(crate) fn answered(all: &[Clarification]) -> HashSet<i64> {
    all.iter()
        .filter(|c| c.from_team.is_none())
        .filter_map(|c| c.reply_to)
        .collect()
}

/// The questions without an answer, in order.
pub(crate) fn unanswered(all: &[Clarification]) -> Vec<i64> {
    let answered = answered(all);
    all.iter()
        .filter(|c| c.from_team.is_some() && !answered.contains(&c.id))
        .map(|c| c.id)
        .collect()
}

/// Every message on the desk of the judge whose session is `holder`.
pub(crate) fn desk(
    all: Vec<Clarification>,
    claims: &HashMap<i64, ClaimRow>,
    holder: &str,
) -> Vec<DeskClarification> {
    let answered = answered(&all);
    all.into_iter()
        .map(|c| DeskClarification {
            answered: c.from_team.is_some() && answered.contains(&c.id),
            claim: claims.get(&c.id).map(|claim| ClaimView {
                name: claim.name.clone(),
                mine: claim.holder == holder,
            }),
            clarification: c,
        })
        .collect()
}

/// The name a judge's claim shows: judges share the jury's login, so each
/// browser session is told apart by a few characters of its tag.
pub(crate) fn judge_name(holder: &str) -> String {
    let short: String = holder.chars().take(4).collect();
    format!("judge {short}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::{JudgementRecord, JudgementState, SubmissionRecord};

    fn row(id: i64, team: &str, problem: &str, verdict: Option<Verdict>) -> SubmissionRow {
        SubmissionRow {
            submission: SubmissionRecord {
                id,
                team: team.into(),
                problem: problem.into(),
                language: "python3".into(),
                time: id * 1000,
                filename: "a.py".into(),
                entry_point: None,
            },
            judgement: verdict.map(|v| JudgementRecord {
                id,
                submission: id,
                state: JudgementState::Done,
                start: Some(id * 1000),
                end: Some(id * 1000 + 1),
                verdict: Some(v),
                score: None,
                max_run_ms: None,
            }),
        }
    }

    #[test]
    fn balloons_and_first_solves_follow_the_accepted_in_order() {
        let rows = vec![
            row(1, "obs", "a", Some(Verdict::AC)),
            row(2, "t1", "a", Some(Verdict::WA)),
            row(3, "t1", "a", Some(Verdict::AC)),
            row(4, "t2", "a", Some(Verdict::AC)),
            row(5, "t2", "a", Some(Verdict::AC)),
            row(6, "t2", "b", None),
        ];
        let hidden = HashSet::from(["obs"]);
        let b = balloons(&rows, &HashSet::from([3]), &hidden);
        let got: Vec<(i64, bool, bool)> = b
            .iter()
            .map(|b| (b.submission, b.first_of_problem, b.done))
            .collect();
        // The observer gets its balloon but not the first solve.
        assert_eq!(
            got,
            vec![(1, false, false), (3, true, true), (4, false, false)]
        );
        let only = |filter: SubmissionFilter| -> Vec<i64> {
            listed(rows.clone(), &filter, &hidden)
                .iter()
                .map(|l| l.row.submission.id)
                .collect()
        };
        assert_eq!(
            only(SubmissionFilter {
                team: Some("t2".into()),
                ..Default::default()
            }),
            vec![4, 5, 6]
        );
        assert_eq!(
            only(SubmissionFilter {
                verdict: Some(VerdictFilter::Unjudged),
                ..Default::default()
            }),
            vec![6]
        );
        assert_eq!(
            only(SubmissionFilter {
                problem: Some("a".into()),
                verdict: Some(VerdictFilter::Is(Verdict::WA)),
                ..Default::default()
            }),
            vec![2]
        );
        let firsts: Vec<i64> = listed(rows, &SubmissionFilter::default(), &hidden)
            .iter()
            .filter(|l| l.first_solve)
            .map(|l| l.row.submission.id)
            .collect();
        assert_eq!(firsts, vec![3]);
    }

    fn message(id: i64, from: Option<&str>, reply_to: Option<i64>) -> Clarification {
        Clarification {
            id,
            from_team: from.map(str::to_string),
            to_team: None,
            reply_to,
            problem: None,
            text: "x".into(),
            time: 0,
            category: None,
        }
    }

    #[test]
    fn a_question_is_answered_by_the_jury_only() {
        let all = vec![
            message(1, Some("t1"), None),
            message(2, Some("t2"), None),
            // A team's follow-up naming question 2 is no answer.
            message(3, Some("t2"), Some(2)),
            message(4, None, Some(1)),
            message(5, None, None),
        ];
        assert_eq!(unanswered(&all), vec![2, 3]);
        let claims = HashMap::from([(
            2,
            ClaimRow {
                name: "judge abcd".into(),
                holder: "abcdef".into(),
            },
        )]);
        let desk = desk(all, &claims, "abcdef");
        assert!(desk[0].answered && !desk[1].answered && !desk[4].answered);
        assert_eq!(desk[1].claim.as_ref().map(|c| c.mine), Some(true));
        assert_eq!(judge_name("abcdef"), "judge abcd");
    }
}
