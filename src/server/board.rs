//! What the scoreboard is made from, kept up to date in memory: every
//! submission with its latest finished verdict ([`Tally`]), brought forward
//! by the events written since it was last read. A new board then costs the
//! new events and a standings computation, not a read of every submission
//! and judgement while the judging writes.

use std::collections::BTreeMap;

use super::model::{Event, EventData, JudgementState, SubmissionRecord};
use super::store::Store;
use crate::contest::clock::{contest_minute, EpochMs};
use crate::contest::Attempt;
use crate::error::Error;
use crate::verdict::Verdict;

/// Events read from the log at a time.
const BATCH: i64 = 1000;

/// A submission as the board counts it.
#[derive(Debug, Clone)]
struct Tallied {
    submission: SubmissionRecord,
    /// Its latest finished judgement: id, verdict, points.
    judged: Option<(i64, Option<Verdict>, Option<u64>)>,
}

/// Every submission with its latest finished judgement, as of an event id.
#[derive(Debug)]
pub(crate) struct Tally {
    /// Every event up to this id is in it.
    applied: i64,
    /// The latest event applied that changes a board (a submission, a
    /// finished judgement, the clock or the contest).
    changed: i64,
    submissions: BTreeMap<i64, Tallied>,
}

impl Tally {
    /// Read in full from `store`, as of at least the latest event announced
    /// before the call.
    pub(crate) async fn load(store: &Store) -> Result<Tally, Error> {
        // Announced only after it was committed, so the tables read next
        // hold at least this much; events after it that they also hold are
        // applied again, which changes nothing.
        let applied = store.changes().latest();
        let mut tally = Tally {
            applied,
            changed: applied,
            submissions: BTreeMap::new(),
        };
        for submission in store.submissions(None).await? {
            tally.add_submission(submission);
        }
        for j in store.judgements(None).await? {
            if j.state == JudgementState::Done {
                tally.judged(j.submission, j.id, j.verdict, j.score);
            }
        }
        Ok(tally)
    }

    /// Applies the events written since the last call.
    pub(crate) async fn catch_up(&mut self, store: &Store) -> Result<(), Error> {
        loop {
            let events = store.events_after(self.applied, BATCH).await?;
            for event in &events {
                self.apply(event);
            }
            if (events.len() as i64) < BATCH {
                return Ok(());
            }
        }
    }

    /// The id of the latest event applied that changes a board.
    pub(crate) fn changed(&self) -> i64 {
        self.changed
    }

    fn apply(&mut self, event: &Event) {
        let relevant = match &event.data {
            EventData::Submission(s) => {
                self.add_submission(s.clone());
                true
            }
            EventData::Judgement(j) if j.state == JudgementState::Done => {
                self.judged(j.submission, j.id, j.verdict, j.score);
                true
            }
            EventData::Deleted { kind, id } if kind == "submissions" => {
                if let Ok(id) = id.parse() {
                    self.submissions.remove(&id);
                }
                true
            }
            EventData::State(_) | EventData::Contest(_) => true,
            _ => false,
        };
        if relevant {
            self.changed = self.changed.max(event.id);
        }
        self.applied = self.applied.max(event.id);
    }

    fn add_submission(&mut self, submission: SubmissionRecord) {
        self.submissions.entry(submission.id).or_insert(Tallied {
            submission,
            judged: None,
        });
    }

    /// The latest finished judgement of a submission counts (by id, as a
    /// rejudge queued later replaces an earlier one).
    fn judged(&mut self, submission: i64, id: i64, verdict: Option<Verdict>, score: Option<u64>) {
        if let Some(t) = self.submissions.get_mut(&submission) {
            if t.judged.is_none_or(|(latest, _, _)| id >= latest) {
                t.judged = Some((id, verdict, score));
            }
        }
    }

    /// The attempts to rank, in submission order: results of submissions
    /// made at or after `hide_from` (the freeze) are pending.
    pub(crate) fn attempts(
        &self,
        start: Option<EpochMs>,
        hide_from: Option<EpochMs>,
    ) -> Vec<Attempt> {
        self.submissions
            .values()
            .map(|t| {
                let s = &t.submission;
                let shown = t.judged.filter(|_| hide_from.is_none_or(|f| s.time < f));
                Attempt {
                    contestant: s.team.clone(),
                    problem: s.problem.clone(),
                    order: s.id,
                    verdict: shown.and_then(|(_, v, _)| v),
                    score: shown.and_then(|(_, _, p)| p).unwrap_or(0),
                    minute: start.map(|st| contest_minute(st, s.time)),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::{Audience, JudgementRecord, StateSnapshot};

    fn submission(id: i64, time: EpochMs) -> Event {
        Event {
            id: 0,
            audience: Audience::Public,
            data: EventData::Submission(SubmissionRecord {
                id,
                team: "t1".into(),
                problem: "p".into(),
                language: "c".into(),
                time,
                filename: "a.c".into(),
                entry_point: None,
            }),
        }
    }

    fn judgement(id: i64, submission: i64, state: JudgementState, verdict: Verdict) -> Event {
        Event {
            id: 0,
            audience: Audience::Public,
            data: EventData::Judgement(JudgementRecord {
                id,
                submission,
                state,
                start: Some(0),
                end: None,
                verdict: Some(verdict).filter(|_| state == JudgementState::Done),
                score: Some(7),
                max_run_ms: None,
            }),
        }
    }

    #[test]
    fn events_bring_the_tally_forward_and_only_some_change_the_board() {
        let mut tally = Tally {
            applied: 0,
            changed: 0,
            submissions: BTreeMap::new(),
        };
        let mut id = 0;
        let mut apply = |tally: &mut Tally, mut e: Event| {
            id += 1;
            e.id = id;
            tally.apply(&e);
        };
        apply(&mut tally, submission(1, 1_000));
        apply(&mut tally, submission(2, 5_000));
        assert_eq!(tally.changed(), 2);
        // A judging that starts changes nothing on the board.
        apply(
            &mut tally,
            judgement(1, 1, JudgementState::Running, Verdict::WA),
        );
        assert_eq!((tally.applied, tally.changed()), (3, 2));
        apply(
            &mut tally,
            judgement(1, 1, JudgementState::Done, Verdict::WA),
        );
        apply(
            &mut tally,
            judgement(2, 2, JudgementState::Done, Verdict::AC),
        );
        // A rejudge (judgement 4) finished before an older judgement of the
        // same submission (3) still counts: the latest by id wins.
        apply(
            &mut tally,
            judgement(4, 1, JudgementState::Done, Verdict::AC),
        );
        apply(
            &mut tally,
            judgement(3, 1, JudgementState::Done, Verdict::TLE),
        );
        // The same event applied twice changes nothing.
        apply(&mut tally, submission(1, 1_000));
        apply(
            &mut tally,
            EventData::State(StateSnapshot::default()).into_event(),
        );
        assert_eq!((tally.applied, tally.changed()), (9, 9));
        let verdicts = |a: Vec<Attempt>| a.iter().map(|a| a.verdict).collect::<Vec<_>>();
        assert_eq!(
            verdicts(tally.attempts(Some(0), None)),
            [Some(Verdict::AC), Some(Verdict::AC)]
        );
        // Frozen at 5 s: the second submission's result is hidden.
        let frozen = tally.attempts(Some(0), Some(5_000));
        assert_eq!(verdicts(frozen.clone()), [Some(Verdict::AC), None]);
        assert_eq!((frozen[0].score, frozen[1].score), (7, 0));
    }

    impl EventData {
        fn into_event(self) -> Event {
            Event {
                id: 0,
                audience: Audience::Public,
                data: self,
            }
        }
    }
}
