//! Rejudging with a preview (DOMjudge's rejudgings): the submissions of a
//! problem, or one submission, judged again by the same judges but kept
//! apart until the jury has seen, per submission, the verdict now and the
//! verdict it would get, and applies the new judgements (they become
//! current: the boards, the awards and the event feed follow) or cancels
//! them (nothing anyone reads changes). One pending rejudging per
//! problem. The main type is [`RejudgingView`]; who may start, read,
//! apply or cancel one is the door's (`super::door`: the jury's only).

use std::collections::{BTreeMap, HashMap};

use super::live::{LiveContest, Refusal};
use super::model::{JudgementRecord, JudgementState, SubmissionRecord};
use super::store::{Decision, RejudgingRow, RejudgingState, Started};
use crate::contest::clock::now_ms;
use crate::verdict::Verdict;

/// One submission of a rejudging: its judgement before and the
/// rejudging's.
#[derive(Debug, Clone)]
pub(crate) struct RejudgedSubmission {
    /// The submission.
    pub(crate) submission: SubmissionRecord,
    /// The judgement the boards count (before the rejudging's, once
    /// applied).
    pub(crate) before: Option<JudgementRecord>,
    /// The rejudging's judgement.
    pub(crate) after: JudgementRecord,
}

/// A verdict as the preview compares it: `None` while not finished.
fn finished(j: Option<&JudgementRecord>) -> Option<Verdict> {
    j.filter(|j| j.state == JudgementState::Done)
        .and_then(|j| j.verdict)
}

impl RejudgedSubmission {
    /// The verdict before (`None`: not judged yet).
    pub(crate) fn old_verdict(&self) -> Option<Verdict> {
        finished(self.before.as_ref())
    }

    /// The rejudging's verdict (`None`: not judged yet).
    pub(crate) fn new_verdict(&self) -> Option<Verdict> {
        finished(Some(&self.after))
    }

    /// Whether the rejudging has judged it.
    pub(crate) fn judged(&self) -> bool {
        self.after.state == JudgementState::Done
    }

    /// Whether the rejudging judged it otherwise.
    pub(crate) fn changed(&self) -> bool {
        self.judged() && self.new_verdict() != self.old_verdict()
    }
}

/// A rejudging with each of its submissions, as the jury's page shows it.
#[derive(Debug, Clone)]
pub(crate) struct RejudgingView {
    /// The rejudging.
    pub(crate) rejudging: RejudgingRow,
    /// Its submissions in order (none once cancelled: its judgements are
    /// gone).
    pub(crate) submissions: Vec<RejudgedSubmission>,
}

/// How many submissions changed from one verdict to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Change {
    /// The verdict before (`None`: not judged).
    pub(crate) from: Option<Verdict>,
    /// The rejudging's.
    pub(crate) to: Option<Verdict>,
    /// How many.
    pub(crate) count: usize,
}

/// A verdict in a summary: its short name, `pending` when there is none.
fn short(v: Option<Verdict>) -> &'static str {
    v.map(Verdict::as_str).unwrap_or("pending")
}

impl RejudgingView {
    /// How many of its submissions it has judged.
    pub(crate) fn judged(&self) -> usize {
        self.submissions.iter().filter(|s| s.judged()).count()
    }

    /// Whether every submission is judged (it may be applied).
    pub(crate) fn complete(&self) -> bool {
        self.judged() == self.submissions.len()
    }

    /// The changes, the most frequent first (then by verdicts).
    pub(crate) fn changes(&self) -> Vec<Change> {
        let mut counts: BTreeMap<(&str, &str), Change> = BTreeMap::new();
        for s in self.submissions.iter().filter(|s| s.changed()) {
            let (from, to) = (s.old_verdict(), s.new_verdict());
            counts
                .entry((short(from), short(to)))
                .or_insert(Change { from, to, count: 0 })
                .count += 1;
        }
        let mut changes: Vec<Change> = counts.into_values().collect();
        changes.sort_by_key(|c| std::cmp::Reverse(c.count));
        changes
    }

    /// One line: `3 of 12 would change: 2 WA→AC, 1 AC→TLE` (`changed`
    /// once applied), with how many are still being judged.
    pub(crate) fn summary(&self) -> String {
        let changes = self.changes();
        let changed: usize = changes.iter().map(|c| c.count).sum();
        let total = self.submissions.len();
        let verb = match self.rejudging.state {
            RejudgingState::Applied => "changed",
            _ => "would change",
        };
        let mut line = format!("{changed} of {total} {verb}");
        if !changes.is_empty() {
            let list: Vec<String> = changes
                .iter()
                .map(|c| format!("{} {}→{}", c.count, short(c.from), short(c.to)))
                .collect();
            line.push_str(": ");
            line.push_str(&list.join(", "));
        }
        let waiting = total - self.judged();
        if waiting > 0 {
            line.push_str(&format!(" (so far: {waiting} still being judged)"));
        }
        line
    }
}

impl LiveContest {
    /// Starts a rejudging with a preview of every submission of `problem`
    /// (an id or label) or of submission `one`: its id. Refused while
    /// another rejudging of the problem is pending.
    pub(super) async fn start_rejudging(
        &self,
        problem: Option<&str>,
        one: Option<i64>,
    ) -> Result<i64, Refusal> {
        let all = self.store.submissions(None).await?;
        let (problem, chosen) = match (one, problem) {
            (Some(id), _) => {
                let s = all
                    .iter()
                    .find(|s| s.id == id)
                    .ok_or_else(|| Refusal::NotFound(format!("no submission {id}")))?;
                (s.problem.clone(), vec![id])
            }
            (None, Some(p)) => {
                let p = self
                    .config
                    .problem(p)
                    .ok_or_else(|| Refusal::Invalid(format!("no problem `{p}`")))?;
                let chosen: Vec<i64> = all
                    .iter()
                    .filter(|s| s.problem == p.id)
                    .map(|s| s.id)
                    .collect();
                if chosen.is_empty() {
                    return Err(Refusal::Invalid(format!(
                        "problem {} has no submission to rejudge",
                        p.label
                    )));
                }
                (p.id.clone(), chosen)
            }
            (None, None) => return Err(Refusal::Invalid("rejudge what?".into())),
        };
        match self
            .store
            .start_rejudging(&problem, one, &chosen, now_ms())
            .await?
        {
            Started::New(id) => Ok(id),
            Started::AlreadyPending(id) => Err(self.pending_refusal(id, &problem)),
        }
    }

    /// Why a rejudging of `problem` cannot start while rejudging `id` is
    /// pending.
    fn pending_refusal(&self, id: i64, problem: &str) -> Refusal {
        let label = self
            .config
            .problem(problem)
            .map(|p| p.label.clone())
            .unwrap_or_else(|| problem.to_string());
        Refusal::Forbidden(format!(
            "rejudging {id} of problem {label} is pending: apply or cancel it first \
             (/jury/rejudgings/{id})"
        ))
    }

    /// The pending rejudging of `problem`, if any: its id.
    pub(super) async fn pending_rejudging_of(&self, problem: &str) -> Result<Option<i64>, Refusal> {
        Ok(self
            .store
            .rejudgings()
            .await?
            .into_iter()
            .find(|r| r.state == RejudgingState::Pending && r.problem == problem)
            .map(|r| r.id))
    }

    /// Refuses while a rejudging of `problem` is pending (a submission of
    /// it rejudged at once would race the preview).
    pub(super) async fn refuse_while_pending(&self, problem: &str) -> Result<(), Refusal> {
        match self.pending_rejudging_of(problem).await? {
            Some(id) => Err(self.pending_refusal(id, problem)),
            None => Ok(()),
        }
    }

    /// Rejudging `id` with its submissions, the judgement before each and
    /// the rejudging's.
    pub(super) async fn rejudging_view(&self, id: i64) -> Result<RejudgingView, Refusal> {
        let rejudging = self
            .store
            .rejudging(id)
            .await?
            .ok_or_else(|| Refusal::NotFound(format!("no rejudging {id}")))?;
        self.view_of(rejudging).await
    }

    /// Every rejudging, the newest first.
    pub(super) async fn rejudging_views(&self) -> Result<Vec<RejudgingView>, Refusal> {
        let mut views = Vec::new();
        for r in self.store.rejudgings().await?.into_iter().rev() {
            views.push(self.view_of(r).await?);
        }
        Ok(views)
    }

    async fn view_of(&self, rejudging: RejudgingRow) -> Result<RejudgingView, Refusal> {
        let judgements = self.store.rejudging_judgements(rejudging.id).await?;
        let mut current: HashMap<i64, Vec<JudgementRecord>> = HashMap::new();
        for j in self.store.judgements(None).await? {
            current.entry(j.submission).or_default().push(j);
        }
        let mut submissions = Vec::new();
        for after in judgements {
            // Ignored submissions are the jury's too.
            let Some(submission) = self.store.submission(after.submission).await? else {
                continue;
            };
            let before = current
                .get(&after.submission)
                .and_then(|js| js.iter().rev().find(|j| j.id < after.id).cloned());
            submissions.push(RejudgedSubmission {
                submission,
                before,
                after,
            });
        }
        Ok(RejudgingView {
            rejudging,
            submissions,
        })
    }

    /// Applies rejudging `id` (every judgement of it finished): how many
    /// judgements became current.
    pub(super) async fn apply_rejudging(&self, id: i64) -> Result<usize, Refusal> {
        match self.store.apply_rejudging(id, now_ms()).await? {
            Decision::Done { judgements, .. } => Ok(judgements),
            other => Err(refusal_of(id, other)),
        }
    }

    /// Cancels rejudging `id`: how many judgements were discarded.
    pub(super) async fn cancel_rejudging(&self, id: i64) -> Result<usize, Refusal> {
        let note = "cancelled by the jury: its judgements were discarded";
        match self.store.cancel_rejudging(id, now_ms(), note).await? {
            Decision::Done { judgements, .. } => Ok(judgements),
            other => Err(refusal_of(id, other)),
        }
    }
}

fn refusal_of(id: i64, decision: Decision) -> Refusal {
    match decision {
        Decision::Missing => Refusal::NotFound(format!("no rejudging {id}")),
        Decision::Decided(state) => {
            Refusal::Forbidden(format!("rejudging {id} was {} already", state.as_str()))
        }
        Decision::Unfinished(n) => Refusal::Forbidden(format!(
            "{n} submission(s) of rejudging {id} are still being judged: apply it once they are, \
             or cancel it"
        )),
        Decision::Done { .. } => unreachable!("a refusal is never done"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::live::View;
    use crate::server::model::{EventData, SourceFile};
    use crate::server::testing::{judge_next, live_contest};
    use crate::server::visibility::Viewer;
    use crate::verdict::Verdict::{AC, WA};

    async fn submit(live: &LiveContest, team: &str) -> i64 {
        let source = vec![SourceFile::new("a.py", b"print(1)".to_vec())];
        live.submit(team, "a", None, None, source).await.unwrap().id
    }

    async fn solved(live: &LiveContest, view: View, team: &str) -> usize {
        let board = live.scoreboard(view).await.unwrap();
        let row = board.standings.iter().find(|s| s.contestant == team);
        row.unwrap().solved
    }

    /// Everything a viewer reads of the results, as text: its
    /// submissions with their judgements, judgements, runs, awards, and
    /// the board it sees (without the time it was made).
    async fn results(live: &LiveContest, viewer: &Viewer) -> String {
        let view = match viewer {
            Viewer::Jury => View::Jury,
            _ => View::Public,
        };
        let board = live.scoreboard(view).await.unwrap();
        let (events, _) = live.events_for(viewer, 0, 100_000).await.unwrap().unwrap();
        format!(
            "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
            live.submission_rows(viewer).await.unwrap(),
            live.judgements_for(viewer).await.unwrap(),
            live.runs_for(viewer).await.unwrap(),
            live.awards_for(viewer).await.unwrap(),
            board.standings,
            events,
        )
    }

    /// [`results`] of the public, t1, t2 and the jury.
    async fn every_result(live: &LiveContest) -> Vec<String> {
        let mut all = Vec::new();
        for viewer in [
            Viewer::Public,
            Viewer::Team("t1".into()),
            Viewer::Team("t2".into()),
            Viewer::Jury,
        ] {
            all.push(results(live, &viewer).await);
        }
        all
    }

    /// A rejudging of a problem is judged apart: its verdicts reach no
    /// board, no team, no event until applied; then the boards follow and
    /// the event feed gets each new judgement with its runs.
    #[tokio::test]
    async fn a_pending_rejudging_is_the_jurys_only_until_applied() {
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest(dir.path(), true, false).await;
        let (s1, s2) = (submit(&live, "t1").await, submit(&live, "t2").await);
        judge_next(&live, AC, 2).await;
        judge_next(&live, WA, 2).await;
        let jury = Viewer::Jury;
        let t1 = Viewer::Team("t1".into());

        // Only the jury starts, reads, applies or cancels one.
        for viewer in [Viewer::Public, t1.clone()] {
            let started = live.start_rejudging_as(&viewer, Some("a"), None).await;
            assert!(matches!(started, Err(Refusal::NotFound(_))));
            let listed = live.rejudgings_for(&viewer).await;
            assert!(matches!(listed, Err(Refusal::NotFound(_))));
            let now = live.rejudge_now(&viewer, s1).await;
            assert!(matches!(now, Err(Refusal::NotFound(_))));
        }
        let id = live
            .start_rejudging_as(&jury, Some("A"), None)
            .await
            .unwrap();
        for viewer in [Viewer::Public, t1.clone()] {
            assert!(matches!(
                live.rejudging_for(&viewer, id).await,
                Err(Refusal::NotFound(_))
            ));
            assert!(matches!(
                live.decide_rejudging(&viewer, id, true).await,
                Err(Refusal::NotFound(_))
            ));
        }
        // One pending rejudging per problem; a submission of it is not
        // rejudged at once meanwhile.
        for refused in [
            live.start_rejudging_as(&jury, Some("a"), None).await,
            live.start_rejudging_as(&jury, None, Some(s2)).await,
            live.rejudge_now(&jury, s1).await.map(|()| 0),
        ] {
            let Err(Refusal::Forbidden(why)) = refused else {
                panic!("{refused:?}")
            };
            assert!(why.contains(&format!("rejudging {id} of problem A is pending")));
        }
        let view = live.rejudging_for(&jury, id).await.unwrap();
        assert_eq!(
            view.summary(),
            "0 of 2 would change (so far: 2 still being judged)"
        );
        assert!(!view.complete());
        assert!(matches!(
            live.decide_rejudging(&jury, id, true).await,
            Err(Refusal::Forbidden(_))
        ));

        let before = every_result(&live).await;
        let last_event = live.test_store().last_event().await.unwrap();
        // The judges take them; t1's AC becomes WA, t2's WA becomes AC.
        let new1 = judge_next(&live, WA, 3).await;
        judge_next(&live, AC, 3).await;
        let view = live.rejudging_for(&jury, id).await.unwrap();
        assert_eq!(view.summary(), "2 of 2 would change: 1 AC→WA, 1 WA→AC");
        assert!(view.submissions.iter().all(RejudgedSubmission::changed));
        // Nobody reads them, the jury's boards included; no event.
        assert_eq!(live.test_store().last_event().await.unwrap(), last_event);
        assert_eq!(every_result(&live).await, before);
        let mine = live.submission_for(&t1, s1).await.unwrap().unwrap();
        assert_eq!(mine.row.judgement.unwrap().verdict, Some(AC));
        assert!(mine.pending.is_empty() && mine.judgements.len() == 1);
        let desk = live.submission_for(&jury, s1).await.unwrap().unwrap();
        assert_eq!(desk.pending[0].0, id);
        assert_eq!(desk.pending[0].1.verdict, Some(WA));
        // The results are not final while it is pending.
        live.end_now().await.unwrap();
        let refused = live.finalize().await;
        assert!(
            matches!(&refused, Err(Refusal::Forbidden(why)) if why.contains("pending")),
            "{refused:?}"
        );

        assert_eq!(live.decide_rejudging(&jury, id, true).await.unwrap(), 2);
        for view in [View::Jury, View::Public] {
            assert_eq!(solved(&live, view, "t1").await, 0, "{view:?}");
            assert_eq!(solved(&live, view, "t2").await, 1, "{view:?}");
        }
        let mine = live.submission_for(&t1, s1).await.unwrap().unwrap();
        assert_eq!(mine.row.judgement.unwrap().verdict, Some(WA));
        assert_eq!(live.runs_for(&t1).await.unwrap().len(), 2 + 3);
        // The feed: the new judgement, its runs, its end, for its team.
        let kinds: Vec<String> = live
            .test_store()
            .events_after(last_event, 100)
            .await
            .unwrap()
            .iter()
            .filter(|e| match &e.data {
                EventData::Judgement(j) => j.id == new1,
                EventData::Run(r) => r.judgement == new1,
                _ => false,
            })
            .map(|e| match &e.data {
                EventData::Judgement(j) => format!("judgement {:?}", j.verdict),
                _ => "run".into(),
            })
            .collect();
        assert_eq!(
            kinds,
            ["judgement None", "run", "run", "run", "judgement Some(WA)"]
        );
        let view = live.rejudging_for(&jury, id).await.unwrap();
        assert_eq!(view.rejudging.state, RejudgingState::Applied);
        assert_eq!(view.summary(), "2 of 2 changed: 1 AC→WA, 1 WA→AC");
        for again in [true, false] {
            assert!(matches!(
                live.decide_rejudging(&jury, id, again).await,
                Err(Refusal::Forbidden(_))
            ));
        }
        live.finalize().await.unwrap();
    }

    /// Cancelled, part judged and part being judged: every viewer reads
    /// exactly what it read before, and the judge still at work writes
    /// nothing.
    #[tokio::test]
    async fn a_cancelled_rejudging_leaves_every_result_as_it_was() {
        use crate::server::store::{Finished, Holder};
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest(dir.path(), true, false).await;
        let s1 = submit(&live, "t1").await;
        submit(&live, "t2").await;
        judge_next(&live, AC, 2).await;
        judge_next(&live, WA, 2).await;
        let before = every_result(&live).await;
        let jury = Viewer::Jury;
        let id = live
            .start_rejudging_as(&jury, Some("a"), None)
            .await
            .unwrap();
        judge_next(&live, WA, 2).await;
        let holder = Holder {
            name: "late".into(),
            key: None,
            fingerprint: None,
        };
        let store = live.test_store();
        let claim = store
            .claim(&holder, now_ms(), 60_000)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert!(claim.pending);
        assert_eq!(live.decide_rejudging(&jury, id, false).await.unwrap(), 2);
        let mut report = crate::server::worker::could_not_judge(&claim, "a test");
        report.verdict = AC;
        let late = Finished {
            verdict: AC,
            score: 0,
            max_run_ms: 1,
            end: now_ms(),
            runs: vec![(1, AC, 1, now_ms())],
            report,
        };
        assert!(!store.finish("late", &claim, late).await.unwrap());
        assert_eq!(every_result(&live).await, before);
        assert_eq!(store.unfinished().await.unwrap(), 0);
        assert!(store
            .claim(&holder, now_ms(), 60_000)
            .await
            .unwrap()
            .unwrap()
            .is_none());
        let view = live.rejudging_for(&jury, id).await.unwrap();
        assert_eq!(view.rejudging.state, RejudgingState::Cancelled);
        assert!(view.submissions.is_empty());
        // The problem may be rejudged again.
        live.start_rejudging_as(&jury, None, Some(s1))
            .await
            .unwrap();
    }

    /// A server stopped during a rejudging, started again on the same
    /// database: what was judged is kept, what was being judged is judged
    /// again, and the rejudging is applied as if nothing happened.
    #[tokio::test]
    async fn a_rejudging_survives_a_restart_of_the_server() {
        use crate::server::store::Holder;
        let dir = tempfile::tempdir().unwrap();
        let id = {
            let live = live_contest(dir.path(), true, false).await;
            submit(&live, "t1").await;
            submit(&live, "t2").await;
            judge_next(&live, AC, 1).await;
            judge_next(&live, AC, 1).await;
            let id = live
                .start_rejudging_as(&Viewer::Jury, Some("a"), None)
                .await
                .unwrap();
            judge_next(&live, WA, 1).await;
            // The server's judge holds the second when it dies.
            let server = Holder {
                name: "test".into(),
                key: None,
                fingerprint: None,
            };
            let held = live.test_store().claim(&server, now_ms(), 60_000).await;
            assert!(held.unwrap().unwrap().is_some());
            id
        };
        let live = live_contest(dir.path(), true, false).await;
        assert_eq!(
            live.test_store().requeue_claims_of("test").await.unwrap(),
            1
        );
        let view = live.rejudging_for(&Viewer::Jury, id).await.unwrap();
        assert_eq!(view.rejudging.state, RejudgingState::Pending);
        assert_eq!(view.judged(), 1);
        judge_next(&live, AC, 1).await;
        let view = live.rejudging_for(&Viewer::Jury, id).await.unwrap();
        assert_eq!(view.summary(), "1 of 2 would change: 1 AC→WA");
        assert_eq!(solved(&live, View::Public, "t1").await, 1);
        live.decide_rejudging(&Viewer::Jury, id, true)
            .await
            .unwrap();
        assert_eq!(solved(&live, View::Public, "t1").await, 0);
        assert_eq!(solved(&live, View::Public, "t2").await, 1);
    }
}
