//! The judging queue, in the database: a judgement is queued, claimed by a
//! judge for a lease it renews while it works, and finished by that judge
//! alone (a judge whose lease ran out and was claimed by another writes
//! nothing). The oldest queued judgement goes first. On PostgreSQL the
//! claim skips rows another judge holds (`FOR UPDATE SKIP LOCKED`), and a
//! claim whose holder's advisory lock is gone (its process died, its
//! connection closed) is taken over at once, without waiting for the lease.

use sqlx::Row;

use super::records::{multi_insert, submission_of, INSERT_CHUNK};
use super::{opt_i64, Store};
use crate::contest::clock::EpochMs;
use crate::error::Result;
use crate::report::SubmissionReport;
use crate::server::model::{
    Audience, EventData, JudgementRecord, JudgementState, RunRecord, SourceFile, SubmissionRecord,
};
use crate::verdict::Verdict;

/// A judge, as its claims name it.
#[derive(Debug, Clone)]
pub(crate) struct Holder {
    /// Its name (`server`, or a judging host's `--name`).
    pub(crate) name: String,
    /// Its advisory lock's key (PostgreSQL), held while it runs.
    pub(crate) key: Option<i64>,
    /// The fingerprint of the problems and languages it judges with: a
    /// claim is refused when the server's differs (it restarted with other
    /// problems).
    pub(crate) fingerprint: Option<String>,
}

/// A judging host's problems are not the server's any more.
#[derive(Debug)]
pub(crate) struct StaleHost;

/// A judgement a judge has claimed, with what it needs to judge.
#[derive(Debug, Clone)]
pub(crate) struct Claim {
    /// The judgement.
    pub(crate) judgement: i64,
    /// When it started (its first claim).
    pub(crate) start: EpochMs,
    /// The submission.
    pub(crate) submission: SubmissionRecord,
    /// Its source (the first file).
    pub(crate) source: Vec<u8>,
    /// Its other files, in the order sent.
    pub(crate) others: Vec<SourceFile>,
    /// Whether it is a rejudge (judged afresh, not from the result cache).
    pub(crate) rejudge: bool,
    /// Whether it belongs to a pending rejudging (kept apart: it writes
    /// no event until the rejudging is applied).
    pub(crate) pending: bool,
}

/// The outcome of a judgement.
#[derive(Debug, Clone)]
pub(crate) struct Finished {
    /// The verdict.
    pub(crate) verdict: Verdict,
    /// IOI points.
    pub(crate) score: u64,
    /// The slowest test's CPU time, ms.
    pub(crate) max_run_ms: u64,
    /// When it finished.
    pub(crate) end: EpochMs,
    /// Each test run: its place in the test set (from 1), verdict, CPU
    /// time in ms, and when it finished.
    pub(crate) runs: Vec<(u32, Verdict, u64, EpochMs)>,
    /// The full report (per-test verdicts, times, diffs), for the jury.
    pub(crate) report: SubmissionReport,
}

impl Store {
    /// Claims the oldest judgement that is queued, or whose claim expired,
    /// for `owner` until `now + lease_ms`.
    pub(crate) async fn claim(
        &self,
        owner: &Holder,
        now: EpochMs,
        lease_ms: i64,
    ) -> Result<std::result::Result<Option<Claim>, StaleHost>> {
        let (_guard, mut tx) = self.begin().await?;
        if let Some(mine) = &owner.fingerprint {
            let theirs = sqlx::query("SELECT value FROM meta WHERE key = 'fingerprint'")
                .fetch_optional(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?
                .map(|row| row.get::<String, _>(0));
            if theirs.as_deref() != Some(mine.as_str()) {
                return Ok(Err(StaleHost));
            }
        }
        // On PostgreSQL: rows another judge holds are skipped, and a claim
        // whose holder's advisory lock is gone is free (a lock on one
        // bigint key shows in pg_locks as classid * 2^32 + objid).
        let (dead_holder, lock) = if self.postgres.is_some() {
            (
                " OR (claim_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_locks l \
                 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
                 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
                 AND l.classid::bigint * 4294967296 + l.objid::bigint = judgements.claim_key))",
                " FOR UPDATE SKIP LOCKED",
            )
        } else {
            ("", "")
        };
        let row = sqlx::query(&format!(
            "SELECT id, submission, rejudge, start_ms, valid FROM judgements \
             WHERE state = 'queued' OR (state = 'running' AND (claim_expires_ms < $1{dead_holder})) \
             ORDER BY valid DESC, id LIMIT 1{lock}"
        ))
        .bind(now)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let Some(row) = row else {
            return Ok(Ok(None));
        };
        let judgement: i64 = row.get("id");
        let submission_id: i64 = row.get("submission");
        let rejudge = row.get::<i64, _>("rejudge") != 0;
        // A pending rejudging's judgements wait behind the teams' new
        // submissions, and write no event.
        let pending = row.get::<i64, _>("valid") == 0;
        let first_start = opt_i64(&row, "start_ms");
        let start = first_start.unwrap_or(now);
        sqlx::query(
            "UPDATE judgements SET state = 'running', claimed_by = $1, claim_expires_ms = $2, \
             start_ms = $3, claim_key = $4 WHERE id = $5",
        )
        .bind(owner.name.clone())
        .bind(now + lease_ms)
        .bind(start)
        .bind(owner.key)
        .bind(judgement)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let row = sqlx::query(
            "SELECT id, team, problem, language, time_ms, filename, entry_point, source \
             FROM submissions WHERE id = $1",
        )
        .bind(submission_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let submission = submission_of(&row);
        let source: Vec<u8> = row.get("source");
        let others = self.other_files(&mut *tx, submission_id).await?;
        // A judgement appears when its judging starts (once, even when a
        // judge died under it and it is judged again).
        let events = if first_start.is_none() && !pending {
            vec![(
                Audience::Team(submission.team.clone()),
                EventData::Judgement(JudgementRecord {
                    id: judgement,
                    submission: submission_id,
                    state: JudgementState::Running,
                    start: Some(start),
                    end: None,
                    verdict: None,
                    score: None,
                    max_run_ms: None,
                }),
            )]
        } else {
            Vec::new()
        };
        if pending {
            self.commit_desk(tx, false).await?;
        } else {
            let last = self.append(&mut tx, events).await?;
            self.commit(tx, last, false).await?;
        }
        Ok(Ok(Some(Claim {
            judgement,
            start,
            submission,
            source,
            others,
            rejudge,
            pending,
        })))
    }

    /// Extends `owner`'s claim on `judgement` to `until`; false when the
    /// claim is no longer its own.
    pub(crate) async fn renew(&self, owner: &str, judgement: i64, until: EpochMs) -> Result<bool> {
        let (_guard, mut tx) = self.begin().await?;
        let done = sqlx::query(
            "UPDATE judgements SET claim_expires_ms = $1 \
             WHERE id = $2 AND claimed_by = $3 AND state = 'running'",
        )
        .bind(until)
        .bind(judgement)
        .bind(owner.to_string())
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Writes the outcome of `owner`'s judgement with its runs and events
    /// (a pending rejudging's: its runs only, its events when applied);
    /// false (nothing written) when the claim is no longer its own or its
    /// rejudging was cancelled.
    pub(crate) async fn finish(
        &self,
        owner: &str,
        claim: &Claim,
        finished: Finished,
    ) -> Result<bool> {
        let (_guard, mut tx) = self.begin().await?;
        let report = serde_json::to_string(&finished.report).expect("reports serialise");
        let done = sqlx::query(
            "UPDATE judgements SET state = 'done', claimed_by = NULL, claim_expires_ms = NULL, \
             claim_key = NULL, judged_by = $7, \
             end_ms = $1, verdict = $2, score = $3, max_run_ms = $4, report = $5 \
             WHERE id = $6 AND claimed_by = $7 AND state = 'running'",
        )
        .bind(finished.end)
        .bind(finished.verdict.as_str().to_string())
        .bind(finished.score as i64)
        .bind(finished.max_run_ms as i64)
        .bind(report)
        .bind(claim.judgement)
        .bind(owner.to_string())
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        if done.rows_affected() != 1 {
            tx.rollback().await.map_err(|e| self.query_error(e))?;
            return Ok(false);
        }
        let audience = Audience::Team(claim.submission.team.clone());
        let mut events = Vec::new();
        let count = finished.runs.len() as i64;
        let first = self.next_ids(&mut tx, "runs", count.max(1)).await?;
        let runs: Vec<RunRecord> = finished
            .runs
            .iter()
            .enumerate()
            .map(|(i, (ordinal, verdict, run_time_ms, time))| RunRecord {
                id: first + i as i64,
                judgement: claim.judgement,
                ordinal: *ordinal,
                verdict: *verdict,
                time: *time,
                run_time_ms: *run_time_ms,
            })
            .collect();
        for chunk in runs.chunks(INSERT_CHUNK) {
            let sql = multi_insert(
                "INSERT INTO runs (id, judgement, ordinal, verdict, time_ms, run_time_ms) VALUES ",
                6,
                chunk.len(),
            );
            let mut query = sqlx::query(&sql);
            for run in chunk {
                query = query
                    .bind(run.id)
                    .bind(run.judgement)
                    .bind(i64::from(run.ordinal))
                    .bind(run.verdict.as_str().to_string())
                    .bind(run.time)
                    .bind(run.run_time_ms as i64);
            }
            query
                .execute(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?;
        }
        events.extend(
            runs.into_iter()
                .map(|run| (audience.clone(), EventData::Run(run))),
        );
        if claim.pending {
            self.commit_desk(tx, false).await?;
            return Ok(true);
        }
        events.push((
            audience,
            EventData::Judgement(JudgementRecord {
                id: claim.judgement,
                submission: claim.submission.id,
                state: JudgementState::Done,
                start: Some(claim.start),
                end: Some(finished.end),
                verdict: Some(finished.verdict),
                score: Some(finished.score),
                max_run_ms: Some(finished.max_run_ms),
            }),
        ));
        let last = self.append(&mut tx, events).await?;
        self.commit(tx, last, false).await?;
        Ok(true)
    }

    /// Puts back in the queue every judgement `owner` held when it died (a
    /// server restarted after a crash): each is judged again, once.
    pub(crate) async fn requeue_claims_of(&self, owner: &str) -> Result<u64> {
        let (_guard, mut tx) = self.begin().await?;
        let done = sqlx::query(
            "UPDATE judgements SET state = 'queued', claimed_by = NULL, claim_expires_ms = NULL, \
             claim_key = NULL WHERE state = 'running' AND claimed_by = $1",
        )
        .bind(owner.to_string())
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, done.rows_affected() > 0).await?;
        Ok(done.rows_affected())
    }
}
