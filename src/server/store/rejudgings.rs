//! Rejudgings judged before they count, stored: a rejudging of a problem's
//! submissions (or of one) queues a judgement of each, kept apart
//! (`valid = 0`: no event, no board, no team or API reads it) until the
//! jury applies it, which makes them current and writes their events as
//! the judging would have (the judgement, its runs, its end), or cancels
//! it, which deletes them and their runs. The judges take these
//! judgements from the same queue, after the teams' new submissions.
//! Their progress is announced to the jury's pages as a desk change.

use sqlx::Row;

use super::records::{judgement_of, run_of, JUDGEMENT_COLUMNS};
use super::{opt_i64, Store};
use crate::contest::clock::EpochMs;
use crate::error::Result;
use crate::server::model::{Audience, EventData, JudgementRecord, JudgementState};

/// Where a rejudging is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RejudgingState {
    /// Judged (or being judged) apart, waiting for the jury.
    Pending,
    /// Its judgements are current.
    Applied,
    /// Its judgements were discarded.
    Cancelled,
}

impl RejudgingState {
    /// As stored.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RejudgingState::Pending => "pending",
            RejudgingState::Applied => "applied",
            RejudgingState::Cancelled => "cancelled",
        }
    }

    fn parse(text: &str) -> RejudgingState {
        match text {
            "applied" => RejudgingState::Applied,
            "cancelled" => RejudgingState::Cancelled,
            _ => RejudgingState::Pending,
        }
    }
}

/// A rejudging as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RejudgingRow {
    /// Id, from 1.
    pub(crate) id: i64,
    /// The problem whose submissions it judges.
    pub(crate) problem: String,
    /// The one submission it judges (`None`: every submission of the
    /// problem when it was started).
    pub(crate) submission: Option<i64>,
    /// Where it is.
    pub(crate) state: RejudgingState,
    /// When it was started.
    pub(crate) created: EpochMs,
    /// When it was applied or cancelled.
    pub(crate) decided: Option<EpochMs>,
    /// What happened to it, for the jury (why it was cancelled).
    pub(crate) note: Option<String>,
}

/// What starting a rejudging did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Started {
    /// Started: its id.
    New(i64),
    /// Refused: this rejudging of the problem is pending.
    AlreadyPending(i64),
}

/// What applying or cancelling a rejudging did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Done: how many judgements were made current (apply) or discarded
    /// (cancel), and how many were dropped because their submission is
    /// ignored now (apply).
    Done {
        /// Made current, or discarded.
        judgements: usize,
        /// Of ignored submissions, discarded (apply only).
        dropped: usize,
    },
    /// No such rejudging.
    Missing,
    /// It was applied or cancelled already.
    Decided(RejudgingState),
    /// This many of its judgements are not finished (apply waits).
    Unfinished(usize),
}

const REJUDGING_COLUMNS: &str = "id, problem, submission, state, created_ms, decided_ms, note";

fn rejudging_of(row: &sqlx::any::AnyRow) -> RejudgingRow {
    RejudgingRow {
        id: row.get("id"),
        problem: row.get("problem"),
        submission: opt_i64(row, "submission"),
        state: RejudgingState::parse(&row.get::<String, _>("state")),
        created: row.get("created_ms"),
        decided: opt_i64(row, "decided_ms"),
        note: row.try_get("note").ok().flatten(),
    }
}

impl Store {
    /// Starts a rejudging of `submissions` of `problem` (`one`: the
    /// rejudging of that submission alone): a judgement of each queued
    /// apart, judged afresh. Refused while another of the problem is
    /// pending.
    pub(crate) async fn start_rejudging(
        &self,
        problem: &str,
        one: Option<i64>,
        submissions: &[i64],
        now: EpochMs,
    ) -> Result<Started> {
        let (_guard, mut tx) = self.begin().await?;
        let pending = sqlx::query(
            "SELECT id FROM rejudgings WHERE problem = $1 AND state = 'pending' ORDER BY id",
        )
        .bind(problem.to_string())
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        if let Some(row) = pending {
            tx.rollback().await.map_err(|e| self.query_error(e))?;
            return Ok(Started::AlreadyPending(row.get(0)));
        }
        let id = self.next_ids(&mut tx, "rejudgings", 1).await?;
        sqlx::query(
            "INSERT INTO rejudgings (id, problem, submission, state, created_ms) \
             VALUES ($1, $2, $3, 'pending', $4)",
        )
        .bind(id)
        .bind(problem.to_string())
        .bind(one)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let first = self
            .next_ids(&mut tx, "judgements", submissions.len().max(1) as i64)
            .await?;
        for (i, submission) in submissions.iter().enumerate() {
            sqlx::query(
                "INSERT INTO judgements (id, submission, state, rejudge, rejudging, valid) \
                 VALUES ($1, $2, 'queued', 1, $3, 0)",
            )
            .bind(first + i as i64)
            .bind(*submission)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        }
        self.commit_desk(tx, true).await?;
        Ok(Started::New(id))
    }

    /// Every rejudging, oldest first.
    pub(crate) async fn rejudgings(&self) -> Result<Vec<RejudgingRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {REJUDGING_COLUMNS} FROM rejudgings ORDER BY id"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(rejudging_of).collect())
    }

    /// Rejudging `id`.
    pub(crate) async fn rejudging(&self, id: i64) -> Result<Option<RejudgingRow>> {
        let row = sqlx::query(&format!(
            "SELECT {REJUDGING_COLUMNS} FROM rejudgings WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(row.as_ref().map(rejudging_of))
    }

    /// The judgements of rejudging `id` in order (kept apart while it is
    /// pending, current once applied; none once cancelled).
    pub(crate) async fn rejudging_judgements(&self, id: i64) -> Result<Vec<JudgementRecord>> {
        let rows = sqlx::query(&format!(
            "SELECT {JUDGEMENT_COLUMNS} FROM judgements WHERE rejudging = $1 ORDER BY id"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(judgement_of).collect())
    }

    /// The judgements of submission `id` kept apart by a pending
    /// rejudging, each with its rejudging's id.
    pub(crate) async fn pending_judgements(&self, id: i64) -> Result<Vec<(i64, JudgementRecord)>> {
        let rows = sqlx::query(&format!(
            "SELECT {JUDGEMENT_COLUMNS}, rejudging FROM judgements \
             WHERE submission = $1 AND valid = 0 ORDER BY id"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(rows
            .iter()
            .map(|r| (opt_i64(r, "rejudging").unwrap_or(0), judgement_of(r)))
            .collect())
    }

    /// Applies pending rejudging `id` once every judgement of it is
    /// finished: each becomes its submission's current judgement, with
    /// the events the judging would have written (the judgement, its
    /// runs, its end), in one transaction. A submission ignored meanwhile
    /// keeps its judgement (the new one is discarded).
    pub(crate) async fn apply_rejudging(&self, id: i64, now: EpochMs) -> Result<Decision> {
        let (_guard, mut tx) = self.begin().await?;
        if let Some(refused) = self.not_pending(&mut tx, id).await? {
            return Ok(refused);
        }
        let rows = sqlx::query(&format!(
            "SELECT {JUDGEMENT_COLUMNS} FROM judgements WHERE rejudging = $1 AND valid = 0 \
             ORDER BY id"
        ))
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let judgements: Vec<JudgementRecord> = rows.iter().map(judgement_of).collect();
        let unfinished = judgements
            .iter()
            .filter(|j| j.state != JudgementState::Done)
            .count();
        if unfinished > 0 {
            tx.rollback().await.map_err(|e| self.query_error(e))?;
            return Ok(Decision::Unfinished(unfinished));
        }
        let (mut applied, mut dropped) = (0, 0);
        let mut events = Vec::new();
        for judgement in judgements {
            let row = sqlx::query("SELECT team, ignored FROM submissions WHERE id = $1")
                .bind(judgement.submission)
                .fetch_optional(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?;
            let team = match row {
                Some(r) if r.get::<i64, _>("ignored") == 0 => r.get::<String, _>("team"),
                _ => {
                    self.delete_judgement(&mut tx, judgement.id).await?;
                    dropped += 1;
                    continue;
                }
            };
            sqlx::query("UPDATE judgements SET valid = 1 WHERE id = $1")
                .bind(judgement.id)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?;
            let runs = sqlx::query(
                "SELECT id, judgement, ordinal, verdict, time_ms, run_time_ms FROM runs \
                 WHERE judgement = $1 ORDER BY ordinal",
            )
            .bind(judgement.id)
            .fetch_all(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
            let audience = Audience::Team(team);
            events.push((
                audience.clone(),
                EventData::Judgement(JudgementRecord {
                    state: JudgementState::Running,
                    end: None,
                    verdict: None,
                    score: None,
                    max_run_ms: None,
                    ..judgement.clone()
                }),
            ));
            events.extend(
                runs.iter()
                    .map(|r| (audience.clone(), EventData::Run(run_of(r)))),
            );
            events.push((audience, EventData::Judgement(judgement)));
            applied += 1;
        }
        self.decide(&mut tx, id, RejudgingState::Applied, now, None)
            .await?;
        let last = self.append(&mut tx, events).await?;
        self.commit(tx, last, false).await?;
        self.changes.desk_changed();
        Ok(Decision::Done {
            judgements: applied,
            dropped,
        })
    }

    /// Why rejudging `id` cannot be applied or cancelled (missing, or
    /// decided already), or `None` when it is pending.
    async fn not_pending(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        id: i64,
    ) -> Result<Option<Decision>> {
        let state = sqlx::query("SELECT state FROM rejudgings WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut **tx)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(
            match state.map(|r| RejudgingState::parse(&r.get::<String, _>(0))) {
                None => Some(Decision::Missing),
                Some(RejudgingState::Pending) => None,
                Some(state) => Some(Decision::Decided(state)),
            },
        )
    }

    /// Cancels pending rejudging `id`: its judgements and their runs are
    /// deleted (a judge still judging one writes nothing), `note` says why.
    /// Nothing a board, a team or the event feed reads changes.
    pub(crate) async fn cancel_rejudging(
        &self,
        id: i64,
        now: EpochMs,
        note: &str,
    ) -> Result<Decision> {
        let (_guard, mut tx) = self.begin().await?;
        if let Some(refused) = self.not_pending(&mut tx, id).await? {
            return Ok(refused);
        }
        self.decide(&mut tx, id, RejudgingState::Cancelled, now, Some(note))
            .await?;
        // The judgements first: a judge finishing one meanwhile either
        // wrote its runs before (deleted next) or finds it gone.
        let deleted =
            sqlx::query("DELETE FROM judgements WHERE rejudging = $1 AND valid = 0 RETURNING id")
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?;
        for row in &deleted {
            sqlx::query("DELETE FROM runs WHERE judgement = $1")
                .bind(row.get::<i64, _>(0))
                .execute(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?;
        }
        self.commit_desk(tx, false).await?;
        Ok(Decision::Done {
            judgements: deleted.len(),
            dropped: 0,
        })
    }

    async fn decide(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        id: i64,
        state: RejudgingState,
        now: EpochMs,
        note: Option<&str>,
    ) -> Result<()> {
        sqlx::query("UPDATE rejudgings SET state = $1, decided_ms = $2, note = $3 WHERE id = $4")
            .bind(state.as_str().to_string())
            .bind(now)
            .bind(note.map(str::to_string))
            .bind(id)
            .execute(&mut **tx)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(())
    }

    async fn delete_judgement(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        id: i64,
    ) -> Result<()> {
        for sql in [
            "DELETE FROM judgements WHERE id = $1",
            "DELETE FROM runs WHERE judgement = $1",
        ] {
            sqlx::query(sql)
                .bind(id)
                .execute(&mut **tx)
                .await
                .map_err(|e| self.query_error(e))?;
        }
        Ok(())
    }
}
