//! What each viewer may read of a live contest, asked of [`LiveContest`]
//! with a [`Viewer`]: the only way the web layer reaches the contest's
//! data (the store is private to `server`). Each rule is written here
//! once: the public reads no submission (an empty list, not a refusal); a team reads its own
//! submissions, sources, judgements and runs, the clarifications to it,
//! from it and to all, and the events of its audience; nobody but the
//! jury reads the problems before the start; the jury reads everything.
//! A badge counts only what its viewer may read (a team's unread messages
//! to it, the jury's unanswered questions); the jury's desk (claims, the
//! filtered submission list, balloons, rejudgings and the judgements they
//! keep apart until applied) is the jury's only, as missing for anyone
//! else: a team, the public and the API never read a pending judgement;
//! so is the whole contest, for its archive.

use std::collections::HashSet;

use super::desk::{self, Balloon, DeskClarification, ListedSubmission, SubmissionFilter};
use super::live::{LiveContest, Refusal, SubmissionRow, View};
use super::model::{
    Clarification, Event, EventData, JudgementRecord, JudgementState, ProblemSnapshot, RunRecord,
    SourceFile, SubmissionRecord,
};
use super::record::ContestRecord;
use super::rejudging::RejudgingView;
pub(crate) use super::store::SessionRow;
use super::visibility::Viewer;
use crate::contest::awards::{awards, Award, AwardsInput, Solve};
use crate::contest::clock::now_ms;
use crate::error::Error;
use crate::report::SubmissionReport;

/// A submission as a viewer may read it: with its source and every
/// judgement's report (the jury's page), or its latest judgement's.
#[derive(Debug, Clone)]
pub(crate) struct SubmissionDetail {
    /// The submission and its latest judgement.
    pub(crate) row: SubmissionRow,
    /// Its files, in the order sent.
    pub(crate) files: Vec<SourceFile>,
    /// Whether the jury ignores it (then only the jury reads it).
    pub(crate) ignored: bool,
    /// Its judgements with their reports, oldest first.
    pub(crate) judgements: Vec<(JudgementRecord, Option<SubmissionReport>)>,
    /// Its judgements kept apart by a pending rejudging (the jury's only),
    /// each with the rejudging's id and its report.
    pub(crate) pending: Vec<(i64, JudgementRecord, Option<SubmissionReport>)>,
}

impl LiveContest {
    /// The problems `viewer` may read: none before the start but for the
    /// jury.
    pub(crate) async fn problems_for(
        &self,
        viewer: &Viewer,
    ) -> Result<Vec<ProblemSnapshot>, Error> {
        let started = self.state().await?.started.is_some();
        Ok(if started || *viewer == Viewer::Jury {
            self.config.problems.clone()
        } else {
            Vec::new()
        })
    }

    /// The awards as `viewer` may read them: from the scoreboard it sees
    /// (frozen for all but the jury until the thaw, without hidden teams),
    /// first to solve from the accepted submissions that board counts.
    pub(crate) async fn awards_for(&self, viewer: &Viewer) -> Result<Vec<Award>, Refusal> {
        let view = if *viewer == Viewer::Jury {
            View::Jury
        } else {
            View::Public
        };
        let board = self.scoreboard(view).await?;
        let Some(start) = board.state.started else {
            return Ok(Vec::new());
        };
        let hide_from = if board.frozen {
            board.state.frozen
        } else {
            None
        };
        let mut latest = std::collections::HashMap::new();
        for j in self.store.judgements(None).await? {
            latest.insert(j.submission, j);
        }
        // Accepted as this viewer sees it; or not judged yet, or hidden by
        // the freeze (a first to solve waits for those made before it).
        let (mut solves, mut unjudged) = (Vec::new(), Vec::new());
        for s in self.store.submissions(None).await? {
            let seen = hide_from.is_none_or(|f| s.time < f);
            let judged = latest
                .get(&s.id)
                .filter(|j| j.state == JudgementState::Done);
            let solve = Solve {
                contest_ms: s.time - start,
                team: s.team,
                problem: s.problem,
            };
            match judged {
                Some(j) if seen && j.verdict == Some(crate::verdict::Verdict::AC) => {
                    solves.push(solve)
                }
                Some(_) if seen => {}
                _ => unjudged.push(solve),
            }
        }
        let problems: Vec<(String, String)> = board
            .info
            .problems
            .iter()
            .filter_map(|p| {
                let label = self.config.problem(&p.id)?.label.clone();
                Some((p.id.clone(), label))
            })
            .collect();
        let groups: Vec<(String, String, Vec<String>)> = self
            .config
            .groups
            .iter()
            .filter(|g| !g.hidden)
            .map(|g| {
                let members = self
                    .config
                    .teams
                    .iter()
                    .filter(|t| t.group_ids.contains(&g.id))
                    .map(|t| t.id.clone())
                    .collect();
                (g.id.clone(), g.name.clone(), members)
            })
            .collect();
        Ok(awards(AwardsInput {
            standings: &board.standings,
            problems: &problems,
            solves: &solves,
            unjudged: &unjudged,
            groups: &groups,
            medals: self.config.medals,
        }))
    }

    /// The awards a scoreboard page shows `viewer`: the final ones, once
    /// the results are final and the board it sees is not frozen (the
    /// jury's once final, as the event feed gives them to the Resolver);
    /// none before (the API's `awards` follow the board as it is).
    pub(crate) async fn final_awards_for(
        &self,
        viewer: &Viewer,
    ) -> Result<Option<Vec<Award>>, Refusal> {
        let state = self.state().await?;
        let open = *viewer == Viewer::Jury || !state.is_frozen();
        if state.finalized.is_none() || !open {
            return Ok(None);
        }
        Ok(Some(self.awards_for(viewer).await?))
    }

    /// The whole contest as the jury sees it now (frozen results
    /// included), for its archive: every counted submission with its
    /// files, judgements, runs, clarifications, the jury's scoreboard and
    /// awards. The jury's only.
    pub(crate) async fn contest_record(&self, viewer: &Viewer) -> Result<ContestRecord, Refusal> {
        jury_only(viewer)?;
        let jury = Viewer::Jury;
        let mut submissions = Vec::new();
        for s in self.submissions_for(&jury).await? {
            let files = self.store.files(s.id).await?.unwrap_or_default();
            submissions.push((s, files));
        }
        Ok(ContestRecord {
            contest: self.contest_now().await?,
            start: self.start().await?,
            state: self.state().await?,
            problems: self.problems_for(&jury).await?,
            languages: self.config.languages.clone(),
            teams: self.config.teams.clone(),
            groups: self.config.groups.clone(),
            organizations: self.config.organizations.clone(),
            submissions,
            judgements: self.judgements_for(&jury).await?,
            runs: self.runs_for(&jury).await?,
            clarifications: self.clarifications_for(&jury).await?,
            awards: self.awards_for(&jury).await?,
            board: self.scoreboard(View::Jury).await?,
        })
    }

    /// The submissions `viewer` may read: a team's own, all for the jury,
    /// none for the public (an empty list, as the Contest API's checks
    /// expect of a public client, not a refusal).
    pub(crate) async fn submissions_for(
        &self,
        viewer: &Viewer,
    ) -> Result<Vec<SubmissionRecord>, Refusal> {
        if *viewer == Viewer::Public {
            return Ok(Vec::new());
        }
        Ok(self.store.submissions(team_of(viewer)).await?)
    }

    /// The started judgements of the submissions `viewer` may read.
    pub(crate) async fn judgements_for(
        &self,
        viewer: &Viewer,
    ) -> Result<Vec<JudgementRecord>, Refusal> {
        let mine: HashSet<i64> = self
            .submissions_for(viewer)
            .await?
            .iter()
            .map(|s| s.id)
            .collect();
        Ok(self
            .store
            .judgements(None)
            .await?
            .into_iter()
            .filter(|j| j.start.is_some() && mine.contains(&j.submission))
            .collect())
    }

    /// The runs of the judgements `viewer` may read.
    pub(crate) async fn runs_for(&self, viewer: &Viewer) -> Result<Vec<RunRecord>, Refusal> {
        let ids: HashSet<i64> = self
            .judgements_for(viewer)
            .await?
            .iter()
            .map(|j| j.id)
            .collect();
        Ok(self
            .store
            .runs(None)
            .await?
            .into_iter()
            .filter(|r| ids.contains(&r.judgement))
            .collect())
    }

    /// Submissions with their latest judgements, as `viewer` may read them.
    pub(crate) async fn submission_rows(
        &self,
        viewer: &Viewer,
    ) -> Result<Vec<SubmissionRow>, Refusal> {
        if *viewer == Viewer::Public {
            return Ok(Vec::new());
        }
        let submissions = self.store.submissions(team_of(viewer)).await?;
        let mut latest = std::collections::HashMap::new();
        for j in self.store.judgements(None).await? {
            latest.insert(j.submission, j);
        }
        Ok(submissions
            .into_iter()
            .map(|s| SubmissionRow {
                judgement: latest.remove(&s.id),
                submission: s,
            })
            .collect())
    }

    /// Submission `id` with its source and judgements, if `viewer` may
    /// read it (a team's own; another's, or any for the public, is as
    /// missing as one that is not).
    pub(crate) async fn submission_for(
        &self,
        viewer: &Viewer,
        id: i64,
    ) -> Result<Option<SubmissionDetail>, Refusal> {
        if *viewer == Viewer::Public {
            return Ok(None);
        }
        let Some(submission) = self.store.submission(id).await? else {
            return Ok(None);
        };
        let ignored = self.store.is_ignored(id).await?;
        if let Viewer::Team(team) = viewer {
            if submission.team != *team || ignored {
                return Ok(None);
            }
        }
        let files = self.store.files(id).await?.unwrap_or_default();
        let mut judgements = Vec::new();
        for j in self.store.judgements(Some(id)).await? {
            if let Some(full) = self.store.judgement(j.id).await? {
                judgements.push(full);
            }
        }
        let mut pending = Vec::new();
        if *viewer == Viewer::Jury {
            for (rejudging, j) in self.store.pending_judgements(id).await? {
                let report = self.store.judgement(j.id).await?.and_then(|(_, r)| r);
                pending.push((rejudging, j, report));
            }
        }
        let judgement = judgements.last().map(|(j, _)| j.clone());
        Ok(Some(SubmissionDetail {
            pending,
            row: SubmissionRow {
                submission,
                judgement,
            },
            files,
            ignored,
            judgements,
        }))
    }

    /// The clarifications `viewer` may read, in order, as they may read
    /// them (an answer to another team's question does not name it).
    pub(crate) async fn clarifications_for(
        &self,
        viewer: &Viewer,
    ) -> Result<Vec<Clarification>, Error> {
        let all = self.store.clarifications().await?;
        Ok(match viewer {
            Viewer::Jury => all,
            _ => {
                let team = team_of(viewer);
                all.iter()
                    .filter(|c| c.readable_by(team))
                    .map(|c| c.seen_by(team, &all))
                    .collect()
            }
        })
    }

    /// The number on the viewer's clarifications badge: for a team, the
    /// messages to it (answers, announcements) it has not read; for the
    /// jury, the questions not answered; for the public, none.
    pub(crate) async fn clarification_badge(&self, viewer: &Viewer) -> Result<usize, Error> {
        Ok(match viewer {
            Viewer::Public => 0,
            Viewer::Team(team) => {
                let read = self.store.last_read(team).await?;
                self.store
                    .clarifications()
                    .await?
                    .iter()
                    .filter(|c| c.id > read && c.visible_to(team))
                    .filter(|c| c.from_team.as_deref() != Some(team.as_str()))
                    .count()
            }
            Viewer::Jury => desk::unanswered(&self.store.clarifications().await?).len(),
        })
    }

    /// Records that a team has read every clarification it may (its
    /// clarifications page was shown to it); nothing for anyone else.
    pub(crate) async fn mark_clarifications_read(&self, viewer: &Viewer) -> Result<(), Error> {
        let Viewer::Team(team) = viewer else {
            return Ok(());
        };
        let last = self
            .store
            .clarifications()
            .await?
            .iter()
            .filter(|c| c.visible_to(team))
            .map(|c| c.id)
            .max()
            .unwrap_or(0);
        if last > self.store.last_read(team).await? {
            self.store.set_last_read(team, last).await?;
        }
        Ok(())
    }

    /// The jury's desk: every message, each question with whether it is
    /// answered and who claimed it (`holder`: the judge looking). The
    /// jury's only.
    pub(crate) async fn clarification_desk(
        &self,
        viewer: &Viewer,
        holder: &str,
    ) -> Result<Vec<DeskClarification>, Refusal> {
        jury_only(viewer)?;
        let claims = self.store.clarification_claims().await?;
        Ok(desk::desk(
            self.store.clarifications().await?,
            &claims,
            holder,
        ))
    }

    /// A judge (`holder`) claims question `id`, so that another judge does
    /// not answer it too; refused while another judge holds it. The
    /// jury's only.
    pub(crate) async fn claim_clarification(
        &self,
        viewer: &Viewer,
        id: i64,
        holder: &str,
    ) -> Result<(), Refusal> {
        jury_only(viewer)?;
        let question = self.question(id).await?;
        if self
            .store
            .claim_clarification(question.id, holder, &desk::judge_name(holder))
            .await?
        {
            return Ok(());
        }
        let by = self.store.clarification_claims().await?.remove(&id);
        Err(Refusal::Forbidden(format!(
            "question {id} is claimed by {}: release it first to take it over",
            by.map(|c| c.name).unwrap_or_else(|| "another judge".into())
        )))
    }

    /// Releases the claim on question `id` (any judge may, for one who
    /// left). The jury's only.
    pub(crate) async fn release_clarification(
        &self,
        viewer: &Viewer,
        id: i64,
    ) -> Result<(), Refusal> {
        jury_only(viewer)?;
        let question = self.question(id).await?;
        Ok(self.store.release_clarification(question.id).await?)
    }

    /// A judge (`holder`) answers a question or announces (see
    /// [`LiveContest::answer`]); a question claimed by another judge is
    /// theirs to answer (refused). Answering releases the claim. The
    /// jury's only.
    pub(crate) async fn answer_as(
        &self,
        viewer: &Viewer,
        holder: &str,
        reply_to: Option<i64>,
        to_team: Option<&str>,
        about: Option<&str>,
        text: &str,
    ) -> Result<Clarification, Refusal> {
        jury_only(viewer)?;
        if let Some(id) = reply_to {
            if let Some(claim) = self.store.clarification_claims().await?.remove(&id) {
                if claim.holder != holder {
                    return Err(Refusal::Forbidden(format!(
                        "question {id} is claimed by {}: they answer it (or release it first)",
                        claim.name
                    )));
                }
            }
        }
        let answer = self.answer(reply_to, to_team, about, text).await?;
        if let Some(id) = reply_to {
            self.store.release_clarification(id).await?;
        }
        Ok(answer)
    }

    /// Question `id` (a team's message).
    async fn question(&self, id: i64) -> Result<Clarification, Refusal> {
        self.store
            .clarifications()
            .await?
            .into_iter()
            .find(|c| c.id == id && c.from_team.is_some())
            .ok_or_else(|| Refusal::NotFound(format!("no question {id}")))
    }

    /// Tells of every change of the jury's desk that writes no event
    /// (claims, balloons): for the jury's pages only.
    pub(crate) fn subscribe_desk(&self) -> tokio::sync::watch::Receiver<u64> {
        self.store.changes().subscribe_desk()
    }

    /// What rejudging every submission of `problem` (an id or label)
    /// would judge again: its id, and those submissions with their current
    /// judgements. The jury's only.
    pub(crate) async fn rejudge_preview(
        &self,
        viewer: &Viewer,
        problem: &str,
    ) -> Result<(String, Vec<SubmissionRow>), Refusal> {
        jury_only(viewer)?;
        let id = self
            .config
            .problem(problem)
            .ok_or_else(|| Refusal::NotFound(format!("no problem `{problem}`")))?
            .id
            .clone();
        let rows = self
            .submission_rows(viewer)
            .await?
            .into_iter()
            .filter(|r| r.submission.problem == id)
            .collect();
        Ok((id, rows))
    }

    /// Starts a rejudging with a preview (judged apart, counted only once
    /// applied) of every submission of `problem` or of submission `one`:
    /// its id. The jury's only.
    pub(crate) async fn start_rejudging_as(
        &self,
        viewer: &Viewer,
        problem: Option<&str>,
        one: Option<i64>,
    ) -> Result<i64, Refusal> {
        jury_only(viewer)?;
        self.start_rejudging(problem, one).await
    }

    /// Rejudging `id`: per submission, the judgement now and the
    /// rejudging's, which nobody but the jury reads before it is applied.
    /// The jury's only.
    pub(crate) async fn rejudging_for(
        &self,
        viewer: &Viewer,
        id: i64,
    ) -> Result<RejudgingView, Refusal> {
        jury_only(viewer)?;
        self.rejudging_view(id).await
    }

    /// Every rejudging, the newest first. The jury's only.
    pub(crate) async fn rejudgings_for(
        &self,
        viewer: &Viewer,
    ) -> Result<Vec<RejudgingView>, Refusal> {
        jury_only(viewer)?;
        self.rejudging_views().await
    }

    /// Applies rejudging `id` (its judgements become current: the boards,
    /// awards and event feed follow) or cancels it (`apply` false: they
    /// are discarded): how many judgements. The jury's only.
    pub(crate) async fn decide_rejudging(
        &self,
        viewer: &Viewer,
        id: i64,
        apply: bool,
    ) -> Result<usize, Refusal> {
        jury_only(viewer)?;
        if apply {
            self.apply_rejudging(id).await
        } else {
            self.cancel_rejudging(id).await
        }
    }

    /// Rejudges submission `id` at once, without a preview. The jury's
    /// only.
    pub(crate) async fn rejudge_now(&self, viewer: &Viewer, id: i64) -> Result<(), Refusal> {
        jury_only(viewer)?;
        self.rejudge(id).await
    }

    /// The jury's submission list: every submission `filter` keeps, each
    /// problem's first solve marked. The jury's only.
    pub(crate) async fn submission_list(
        &self,
        viewer: &Viewer,
        filter: &SubmissionFilter,
    ) -> Result<Vec<ListedSubmission>, Refusal> {
        jury_only(viewer)?;
        let rows = self.submission_rows(viewer).await?;
        Ok(desk::listed(rows, filter, &self.hidden_teams()))
    }

    /// The balloons in the order they were earned, each with its team's
    /// place on the jury's scoreboard (a balloon runner needs what the
    /// freeze hides). The jury's only.
    pub(crate) async fn balloons_for(&self, viewer: &Viewer) -> Result<Vec<Balloon>, Refusal> {
        jury_only(viewer)?;
        let rows = self.submission_rows(viewer).await?;
        let done = self.store.balloons_done().await?;
        let board = self.scoreboard(View::Jury).await?;
        let mut list = desk::balloons(&rows, &done, &self.hidden_teams());
        for b in &mut list {
            b.place = board
                .standings
                .iter()
                .find(|s| s.contestant == b.team)
                .map(|s| s.rank);
        }
        Ok(list)
    }

    /// Marks the balloon of `submission` handed out (or not). The jury's
    /// only, and only a balloon's.
    pub(crate) async fn mark_balloon(
        &self,
        viewer: &Viewer,
        submission: i64,
        done: bool,
    ) -> Result<(), Refusal> {
        if !self
            .balloons_for(viewer)
            .await?
            .iter()
            .any(|b| b.submission == submission)
        {
            return Err(Refusal::NotFound(format!(
                "no balloon for submission {submission}"
            )));
        }
        self.store
            .set_balloon(submission, done.then(now_ms))
            .await?;
        Ok(())
    }

    /// The teams of hidden groups (observers, coaches).
    fn hidden_teams(&self) -> HashSet<&str> {
        self.config
            .teams
            .iter()
            .filter(|t| t.hidden)
            .map(|t| t.id.as_str())
            .collect()
    }

    /// The jury's counts: submissions, and judgements not finished.
    pub(crate) async fn jury_counts(&self, viewer: &Viewer) -> Result<(usize, i64), Refusal> {
        if *viewer != Viewer::Jury {
            return Err(Refusal::NotFound("not found".into()));
        }
        Ok((
            self.store.submissions(None).await?.len(),
            self.store.unfinished().await?,
        ))
    }

    /// The events after `after` (at most `batch` read) as `viewer` may
    /// read them, and the last id read (`None`: there were none). Before
    /// the start only the jury reads the problems (they are published
    /// again at the start); an answer refers only to a question the
    /// viewer reads.
    pub(crate) async fn events_for(
        &self,
        viewer: &Viewer,
        after: i64,
        batch: i64,
    ) -> Result<Option<(Vec<Event>, i64)>, Error> {
        let events = self.store.events_after(after, batch).await?;
        let Some(last) = events.last().map(|e| e.id) else {
            return Ok(None);
        };
        let jury = *viewer == Viewer::Jury;
        let before_start = !jury && self.state().await?.started.is_none();
        let replies = events.iter().any(|e| match &e.data {
            EventData::Clarification(c) => c.reply_to.is_some(),
            _ => false,
        });
        let clarifications = if replies && !jury {
            self.store.clarifications().await?
        } else {
            Vec::new()
        };
        let team = team_of(viewer);
        let seen = events
            .into_iter()
            .filter(|e| viewer.sees(e) && !(before_start && e.data.kind() == "problems"))
            .map(|e| match (&e.data, jury) {
                (EventData::Clarification(c), false) => Event {
                    data: EventData::Clarification(c.seen_by(team, &clarifications)),
                    ..e
                },
                _ => e,
            })
            .collect();
        Ok(Some((seen, last)))
    }

    /// Whether events after `after` were written (whoever may read them).
    pub(crate) async fn written_after(&self, after: i64) -> Result<bool, Error> {
        Ok(self.store.last_event().await? > after)
    }

    /// Tells of every event written: its id, the latest.
    pub(crate) fn subscribe(&self) -> tokio::sync::watch::Receiver<i64> {
        self.store.changes().subscribe()
    }

    /// The session stored under `token_hash`, while it lasts.
    pub(crate) async fn session(&self, token_hash: &str) -> Result<Option<SessionRow>, Error> {
        self.store.session(token_hash, now_ms()).await
    }

    /// Stores a session.
    pub(crate) async fn create_session(
        &self,
        token_hash: &str,
        row: &SessionRow,
    ) -> Result<(), Error> {
        self.store.create_session(token_hash, row).await
    }

    /// The store, for tests that write what the judging would.
    #[cfg(test)]
    pub(crate) fn test_store(&self) -> &super::store::Store {
        &self.store
    }

    /// Ends a session.
    pub(crate) async fn end_session(&self, token_hash: &str) -> Result<(), Error> {
        self.store.end_session(token_hash).await
    }
}

/// Refuses anyone but the jury, as if the thing did not exist.
fn jury_only(viewer: &Viewer) -> Result<(), Refusal> {
    if *viewer == Viewer::Jury {
        Ok(())
    } else {
        Err(Refusal::NotFound("not found".into()))
    }
}

fn team_of(viewer: &Viewer) -> Option<&str> {
    match viewer {
        Viewer::Team(t) => Some(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::testing::live_contest;

    /// Viewer × data × phase: how many submissions, problems and whether
    /// t1's submission reads, for each viewer, before and after the start.
    #[tokio::test]
    async fn each_viewer_reads_what_the_rules_give_it() {
        let t1 = Viewer::Team("t1".into());
        let t2 = Viewer::Team("t2".into());
        for started in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let live = live_contest(dir.path(), started, false).await;
            let id = if started {
                live.submit(
                    "t1",
                    "a",
                    Some("python3"),
                    None,
                    vec![crate::server::model::SourceFile::new(
                        "a.py",
                        b"print(1)".to_vec(),
                    )],
                )
                .await
                .unwrap()
                .id
            } else {
                0
            };
            let n = usize::from(started);
            // (viewer, submissions, problems, reads t1's submission)
            let table = [
                (&Viewer::Public, 0, n, false),
                (&t1, n, n, started),
                (&t2, 0, n, false),
                (&Viewer::Jury, n, 1, started),
            ];
            for (viewer, submissions, problems, reads) in table {
                let why = format!("{viewer:?}, started {started}");
                let subs = live.submissions_for(viewer).await.unwrap();
                assert_eq!(subs.len(), submissions, "{why}");
                assert_eq!(
                    live.submission_rows(viewer).await.unwrap().len(),
                    submissions
                );
                // Public: an empty list, never a refusal (check-api.sh asks 200).
                assert_eq!(
                    live.judgements_for(viewer).await.unwrap().len(),
                    0,
                    "{why}: nothing judged yet"
                );
                assert!(live.runs_for(viewer).await.unwrap().is_empty(), "{why}");
                let got = live.problems_for(viewer).await.unwrap();
                assert_eq!(got.len(), problems, "{why}");
                let one = live.submission_for(viewer, id).await.unwrap();
                assert_eq!(one.is_some(), reads, "{why}");
            }
        }
    }

    /// Viewer × phase: the awards a scoreboard page shows (count, or none)
    /// while the contest runs frozen, ended, finalized before the thaw,
    /// and thawed; t1 solved the problem before the freeze, t2 after it.
    #[tokio::test]
    async fn final_awards_show_once_final_and_to_others_after_the_thaw() {
        use crate::verdict::Verdict;
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest(dir.path(), true, false).await;
        let source = || {
            vec![crate::server::model::SourceFile::new(
                "a.py",
                b"print(1)".to_vec(),
            )]
        };
        live.submit("t1", "a", None, None, source()).await.unwrap();
        crate::server::testing::judge_queued(&live, &[Verdict::AC]).await;
        live.freeze_now().await.unwrap();
        live.submit("t2", "a", None, None, source()).await.unwrap();
        crate::server::testing::judge_queued(&live, &[Verdict::AC]).await;
        let t1 = Viewer::Team("t1".into());
        let viewers = [&Viewer::Public, &t1, &Viewer::Jury];
        let shown = |awards: Option<Vec<Award>>| {
            awards.map(|a| {
                let gold = a.iter().find(|a| a.id == "gold-medal").unwrap();
                gold.team_ids.len()
            })
        };
        // (phase, what the public, t1 and the jury see: gold medallists)
        let mut seen = Vec::new();
        for phase in ["running", "ended", "finalized", "thawed"] {
            match phase {
                "ended" => live.end_now().await.unwrap(),
                "finalized" => live.finalize().await.unwrap(),
                "thawed" => live.thaw_now().await.unwrap(),
                _ => {}
            }
            let mut row = Vec::new();
            for viewer in viewers {
                row.push(shown(live.final_awards_for(viewer).await.unwrap()));
            }
            seen.push((phase, row));
        }
        assert_eq!(
            seen,
            [
                ("running", vec![None, None, None]),
                ("ended", vec![None, None, None]),
                ("finalized", vec![None, None, Some(2)]),
                ("thawed", vec![Some(2), Some(2), Some(2)]),
            ]
        );
        // The API's awards follow the board each sees: the frozen one
        // (t1's solve only) for the public until the thaw.
        let t2 = Viewer::Team("t2".into());
        let gold = |a: Vec<Award>| {
            a.into_iter()
                .find(|a| a.id == "gold-medal")
                .unwrap()
                .team_ids
        };
        assert_eq!(gold(live.awards_for(&t2).await.unwrap()), ["t1", "t2"]);
    }

    /// An ignored submission counts nowhere and its team no longer reads
    /// it; the feed deletes it for its team; counted again, it is back
    /// with its verdict.
    #[tokio::test]
    async fn an_ignored_submission_counts_nowhere_until_counted_again() {
        use crate::server::visibility::Viewer as V;
        use crate::verdict::Verdict;
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest(dir.path(), true, false).await;
        let source = vec![crate::server::model::SourceFile::new(
            "a.py",
            b"print(1)".to_vec(),
        )];
        let id = live.submit("t1", "a", None, None, source).await.unwrap().id;
        crate::server::testing::judge_queued(&live, &[Verdict::AC]).await;
        let t1 = V::Team("t1".into());
        let solved = |b: &crate::server::live::Board| {
            b.standings
                .iter()
                .find(|s| s.contestant == "t1")
                .unwrap()
                .solved
        };
        assert_eq!(solved(&live.scoreboard(View::Jury).await.unwrap()), 1);
        live.ignore(id, true).await.unwrap();
        for view in [View::Jury, View::Public] {
            assert_eq!(solved(&live.scoreboard(view).await.unwrap()), 0, "{view:?}");
        }
        assert!(live.submissions_for(&V::Jury).await.unwrap().is_empty());
        assert!(live.submission_for(&t1, id).await.unwrap().is_none());
        let jury = live.submission_for(&V::Jury, id).await.unwrap().unwrap();
        assert!(jury.ignored);
        assert!(live.awards_for(&V::Jury).await.unwrap().is_empty());
        let deleted = live
            .test_store()
            .events_after(0, 1000)
            .await
            .unwrap()
            .into_iter()
            .any(|e| {
                e.audience == crate::server::model::Audience::Team("t1".into())
                    && matches!(&e.data, EventData::Deleted { kind, id: d } if kind == "submissions" && *d == id.to_string())
            });
        assert!(deleted, "the feed deletes it for its team");
        assert!(matches!(
            live.ignore(999, true).await,
            Err(Refusal::NotFound(_))
        ));
        live.ignore(id, false).await.unwrap();
        assert_eq!(solved(&live.scoreboard(View::Public).await.unwrap()), 1);
        assert!(live.submission_for(&t1, id).await.unwrap().is_some());
    }
}
