//! What happens in a contest, stored: submissions (with their sources),
//! judgements, runs, clarifications, the clock, and the event log every
//! change appends to in the same transaction.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{opt_i64, Store};
use crate::contest::clock::{ContestClock, EpochMs};
use crate::error::Result;
use crate::report::SubmissionReport;
use crate::server::model::{
    Audience, Clarification, Event, EventData, JudgementRecord, JudgementState, RunRecord,
    SourceFile, SubmissionRecord,
};
use crate::verdict::Verdict;

/// A submission as a team sends it.
#[derive(Debug, Clone)]
pub(crate) struct NewSubmission {
    /// The team.
    pub(crate) team: String,
    /// The problem.
    pub(crate) problem: String,
    /// The language.
    pub(crate) language: String,
    /// The file's name (the first file's).
    pub(crate) filename: String,
    /// Its entry point, when the language needs one.
    pub(crate) entry_point: Option<String>,
    /// The file (the first).
    pub(crate) source: Vec<u8>,
    /// The other files, in the order sent (most submissions have none).
    pub(crate) others: Vec<SourceFile>,
    /// When it arrived.
    pub(crate) time: EpochMs,
}

/// A clarification as someone sends it.
#[derive(Debug, Clone)]
pub(crate) struct NewClarification {
    /// The team asking (`None`: the jury).
    pub(crate) from_team: Option<String>,
    /// The team answered (`None`: everyone, or the jury).
    pub(crate) to_team: Option<String>,
    /// The question answered.
    pub(crate) reply_to: Option<i64>,
    /// The problem.
    pub(crate) problem: Option<String>,
    /// The category ([`crate::server::model::TECHNICAL`] or general).
    pub(crate) category: Option<String>,
    /// The text.
    pub(crate) text: String,
    /// When.
    pub(crate) time: EpochMs,
}

/// The clock as the jury set it (what contest.toml says is in the config).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ClockRow {
    /// The start the jury set (or moved).
    pub(crate) start: Option<EpochMs>,
    /// When the jury froze the scoreboard.
    pub(crate) freeze: Option<EpochMs>,
    /// When the jury thawed it.
    pub(crate) thawed: Option<EpochMs>,
    /// When the jury finalized the results.
    pub(crate) finalized: Option<EpochMs>,
    /// When the jury declared the end of updates.
    pub(crate) end_of_updates: Option<EpochMs>,
    /// The length the jury set (ended now, extended, shortened), ms.
    pub(crate) duration: Option<i64>,
    /// How long before the end the scoreboard freezes, as the jury set it
    /// (ms; [`NO_FREEZE`]: never).
    pub(crate) freeze_length: Option<i64>,
}

/// [`ClockRow::freeze_length`] of a contest the jury set never to freeze.
pub(crate) const NO_FREEZE: i64 = -1;

impl ClockRow {
    /// contest.toml's clock with the jury's changes.
    pub(crate) fn applied(&self, mut clock: ContestClock) -> ContestClock {
        clock.start = self.start.or(clock.start);
        if let Some(d) = self.duration {
            clock.duration_ms = d;
        }
        if let Some(f) = self.freeze_length {
            clock.freeze_ms = (f != NO_FREEZE).then_some(f);
        }
        clock
    }
}

const SUBMISSION_COLUMNS: &str = "id, team, problem, language, time_ms, filename, entry_point";
pub(super) const JUDGEMENT_COLUMNS: &str =
    "id, submission, state, start_ms, end_ms, verdict, score, max_run_ms";

pub(super) fn submission_of(row: &AnyRow) -> SubmissionRecord {
    SubmissionRecord {
        id: row.get("id"),
        team: row.get("team"),
        problem: row.get("problem"),
        language: row.get("language"),
        time: row.get("time_ms"),
        filename: row.get("filename"),
        entry_point: row.try_get("entry_point").ok().flatten(),
    }
}

pub(super) fn judgement_of(row: &AnyRow) -> JudgementRecord {
    let state: String = row.get("state");
    let verdict: Option<String> = row.try_get("verdict").ok().flatten();
    JudgementRecord {
        id: row.get("id"),
        submission: row.get("submission"),
        state: JudgementState::parse(&state).unwrap_or(JudgementState::Queued),
        start: opt_i64(row, "start_ms"),
        end: opt_i64(row, "end_ms"),
        verdict: verdict.and_then(|v| v.parse::<Verdict>().ok()),
        score: opt_i64(row, "score").map(|s| s as u64),
        max_run_ms: opt_i64(row, "max_run_ms").map(|s| s as u64),
    }
}

pub(super) fn run_of(row: &AnyRow) -> RunRecord {
    let verdict: String = row.get("verdict");
    RunRecord {
        id: row.get("id"),
        judgement: row.get("judgement"),
        ordinal: row.get::<i64, _>("ordinal") as u32,
        verdict: verdict.parse().unwrap_or(Verdict::IE),
        time: row.get("time_ms"),
        run_time_ms: row.get::<i64, _>("run_time_ms") as u64,
    }
}

fn clarification_of(row: &AnyRow) -> Clarification {
    Clarification {
        id: row.get("id"),
        from_team: row.try_get("from_team").ok().flatten(),
        to_team: row.try_get("to_team").ok().flatten(),
        reply_to: opt_i64(row, "reply_to"),
        problem: row.try_get("problem").ok().flatten(),
        text: row.get("text"),
        time: row.get("time_ms"),
        category: row.try_get("category").ok().flatten(),
    }
}

/// Rows written by one INSERT (SQLite takes at most 32 766 parameters).
pub(super) const INSERT_CHUNK: usize = 100;

/// `head` followed by `rows` groups of `columns` numbered parameters.
pub(super) fn multi_insert(head: &str, columns: usize, rows: usize) -> String {
    let mut sql = String::from(head);
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for column in 0..columns {
            if column > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${}", row * columns + column + 1));
        }
        sql.push(')');
    }
    sql
}

impl Store {
    /// The first of `n` new ids of `counter`, taken in the transaction.
    pub(super) async fn next_ids(
        &self,
        tx: &mut Transaction<'static, Any>,
        counter: &str,
        n: i64,
    ) -> Result<i64> {
        let row =
            sqlx::query("UPDATE counters SET value = value + $1 WHERE name = $2 RETURNING value")
                .bind(n)
                .bind(counter)
                .fetch_one(&mut **tx)
                .await
                .map_err(|e| self.query_error(e))?;
        Ok(row.get::<i64, _>(0) - n + 1)
    }

    /// Appends events in the transaction; the last id, if any.
    pub(super) async fn append(
        &self,
        tx: &mut Transaction<'static, Any>,
        events: Vec<(Audience, EventData)>,
    ) -> Result<Option<i64>> {
        if events.is_empty() {
            return Ok(None);
        }
        let first = self.next_ids(tx, "events", events.len() as i64).await?;
        // Many rows a statement: one round trip per chunk, not per event
        // (a judgement writes one event per test).
        for (chunk_at, chunk) in events.chunks(INSERT_CHUNK).enumerate() {
            let sql = multi_insert(
                "INSERT INTO events (id, kind, object, audience, data) VALUES ",
                5,
                chunk.len(),
            );
            let mut query = sqlx::query(&sql);
            for (i, (audience, data)) in chunk.iter().enumerate() {
                let json = serde_json::to_string(data).expect("events serialise");
                query = query
                    .bind(first + (chunk_at * INSERT_CHUNK + i) as i64)
                    .bind(data.kind().to_string())
                    .bind(data.object_id())
                    .bind(audience.as_str().to_string())
                    .bind(json);
            }
            query
                .execute(&mut **tx)
                .await
                .map_err(|e| self.query_error(e))?;
        }
        Ok(Some(first + events.len() as i64 - 1))
    }

    /// Begins a writing transaction (one at a time in this process).
    pub(super) async fn begin(
        &self,
    ) -> Result<(tokio::sync::MutexGuard<'_, ()>, Transaction<'static, Any>)> {
        let guard = self.changes.write.lock().await;
        let tx = self.pool.begin().await.map_err(|e| self.query_error(e))?;
        Ok((guard, tx))
    }

    /// Commits and announces what changed.
    pub(super) async fn commit(
        &self,
        tx: Transaction<'static, Any>,
        last_event: Option<i64>,
        queued: bool,
    ) -> Result<()> {
        self.commit_as(tx, last_event, queued, false).await
    }

    /// Commits and announces what changed; `clock`: the clock changed,
    /// counted before the events are announced, so whoever sees them reads
    /// the new clock.
    async fn commit_as(
        &self,
        mut tx: Transaction<'static, Any>,
        last_event: Option<i64>,
        queued: bool,
        clock: bool,
    ) -> Result<()> {
        if self.postgres.is_some() {
            // Delivered to the other processes' listeners at commit.
            if queued {
                sqlx::query("SELECT pg_notify($1, '')")
                    .bind(super::postgres::QUEUE_CHANNEL)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| self.query_error(e))?;
            }
            if let Some(id) = last_event {
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(super::postgres::EVENTS_CHANNEL)
                    .bind(id.to_string())
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| self.query_error(e))?;
            }
        }
        tx.commit().await.map_err(|e| self.query_error(e))?;
        if clock {
            self.changes
                .clock
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        self.changes.announce(last_event, queued);
        Ok(())
    }

    /// Commits a change the jury's pages follow that writes no event (a
    /// rejudging started, judged, cancelled) and tells them, on PostgreSQL
    /// in every process; `queued`: work was queued.
    pub(super) async fn commit_desk(
        &self,
        mut tx: Transaction<'static, Any>,
        queued: bool,
    ) -> Result<()> {
        if self.postgres.is_some() {
            sqlx::query("SELECT pg_notify($1, '')")
                .bind(super::postgres::DESK_CHANNEL)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?;
        }
        self.commit(tx, None, queued).await?;
        self.changes.desk_changed();
        Ok(())
    }

    /// Appends events on their own.
    pub(crate) async fn publish(&self, events: Vec<(Audience, EventData)>) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        let last = self.append(&mut tx, events).await?;
        self.commit(tx, last, false).await
    }

    /// Stores a submission and queues its judging; committed (on disk)
    /// before it returns.
    pub(crate) async fn submit(&self, new: NewSubmission) -> Result<SubmissionRecord> {
        let (_guard, mut tx) = self.begin().await?;
        let id = self.next_ids(&mut tx, "submissions", 1).await?;
        let judgement = self.next_ids(&mut tx, "judgements", 1).await?;
        sqlx::query(
            "INSERT INTO submissions (id, team, problem, language, time_ms, filename, entry_point, source) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(&new.team)
        .bind(&new.problem)
        .bind(&new.language)
        .bind(new.time)
        .bind(&new.filename)
        .bind(new.entry_point.clone())
        .bind(new.source.clone())
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        for (ordinal, file) in (1_i64..).zip(&new.others) {
            sqlx::query(
                "INSERT INTO submission_files (submission, ordinal, name, content) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(ordinal)
            .bind(&file.name)
            .bind(file.content.clone())
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        }
        sqlx::query(
            "INSERT INTO judgements (id, submission, state, rejudge) VALUES ($1, $2, 'queued', 0)",
        )
        .bind(judgement)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let record = SubmissionRecord {
            id,
            team: new.team.clone(),
            problem: new.problem,
            language: new.language,
            time: new.time,
            filename: new.filename,
            entry_point: new.entry_point,
        };
        let last = self
            .append(
                &mut tx,
                vec![(
                    Audience::Team(new.team),
                    EventData::Submission(record.clone()),
                )],
            )
            .await?;
        self.commit(tx, last, true).await?;
        Ok(record)
    }

    /// Queues a new judgement of each submission (a rejudge, which does
    /// not reuse cached results); how many.
    pub(crate) async fn rejudge(&self, submissions: &[i64]) -> Result<usize> {
        if submissions.is_empty() {
            return Ok(0);
        }
        let (_guard, mut tx) = self.begin().await?;
        let first = self
            .next_ids(&mut tx, "judgements", submissions.len() as i64)
            .await?;
        for (i, submission) in submissions.iter().enumerate() {
            sqlx::query(
                "INSERT INTO judgements (id, submission, state, rejudge) VALUES ($1, $2, 'queued', 1)",
            )
            .bind(first + i as i64)
            .bind(*submission)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        }
        self.commit(tx, None, true).await?;
        Ok(submissions.len())
    }

    /// A submission.
    pub(crate) async fn submission(&self, id: i64) -> Result<Option<SubmissionRecord>> {
        let row = sqlx::query(&format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(row.as_ref().map(submission_of))
    }

    /// A submission's files, in the order sent.
    pub(crate) async fn files(&self, id: i64) -> Result<Option<Vec<SourceFile>>> {
        let row = sqlx::query("SELECT filename, source FROM submissions WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        let Some(row) = row else {
            return Ok(None);
        };
        let mut files = vec![SourceFile {
            name: row.get(0),
            content: row.get(1),
        }];
        files.extend(self.other_files(&self.pool, id).await?);
        Ok(Some(files))
    }

    /// The files of submission `id` after its first, in order.
    pub(super) async fn other_files<'e, E>(&self, on: E, id: i64) -> Result<Vec<SourceFile>>
    where
        E: sqlx::Executor<'e, Database = sqlx::Any>,
    {
        let rows = sqlx::query(
            "SELECT name, content FROM submission_files WHERE submission = $1 ORDER BY ordinal",
        )
        .bind(id)
        .fetch_all(on)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(rows
            .iter()
            .map(|r| SourceFile {
                name: r.get(0),
                content: r.get(1),
            })
            .collect())
    }

    /// Whether the jury ignores submission `id`.
    pub(crate) async fn is_ignored(&self, id: i64) -> Result<bool> {
        let row = sqlx::query("SELECT ignored FROM submissions WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(row.is_some_and(|r| r.get::<i64, _>(0) != 0))
    }

    /// Ignores submission `id` (or counts it again): as the Contest API
    /// has it, its deletion (or its creation again) in the event feed, for
    /// its team and the jury. False when there is no such submission.
    pub(crate) async fn set_ignored(&self, id: i64, ignored: bool) -> Result<bool> {
        let Some(submission) = self.submission(id).await? else {
            return Ok(false);
        };
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("UPDATE submissions SET ignored = $1 WHERE id = $2")
            .bind(i64::from(ignored))
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        let audience = Audience::Team(submission.team.clone());
        let event = if ignored {
            EventData::Deleted {
                kind: "submissions".into(),
                id: id.to_string(),
            }
        } else {
            EventData::Submission(submission)
        };
        let last = self.append(&mut tx, vec![(audience, event)]).await?;
        self.commit(tx, last, false).await?;
        Ok(true)
    }

    /// Submissions in order, of one team or of all; those the jury ignores
    /// left out (they count nowhere).
    pub(crate) async fn submissions(&self, team: Option<&str>) -> Result<Vec<SubmissionRecord>> {
        let filter = if team.is_some() {
            "WHERE ignored = 0 AND team = $1"
        } else {
            "WHERE ignored = 0"
        };
        let sql = format!("SELECT {SUBMISSION_COLUMNS} FROM submissions {filter} ORDER BY id");
        let mut query = sqlx::query(&sql);
        if let Some(team) = team {
            query = query.bind(team.to_string());
        }
        let rows = query
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(submission_of).collect())
    }

    /// Judgements in order: of one submission, or all; those of a pending
    /// rejudging left out (they count nowhere until it is applied).
    pub(crate) async fn judgements(&self, submission: Option<i64>) -> Result<Vec<JudgementRecord>> {
        let filter = if submission.is_some() {
            "WHERE valid = 1 AND submission = $1"
        } else {
            "WHERE valid = 1"
        };
        let sql = format!("SELECT {JUDGEMENT_COLUMNS} FROM judgements {filter} ORDER BY id");
        let mut query = sqlx::query(&sql);
        if let Some(s) = submission {
            query = query.bind(s);
        }
        let rows = query
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(judgement_of).collect())
    }

    /// A judgement and its full report, once finished.
    pub(crate) async fn judgement(
        &self,
        id: i64,
    ) -> Result<Option<(JudgementRecord, Option<SubmissionReport>)>> {
        let row = sqlx::query(&format!(
            "SELECT {JUDGEMENT_COLUMNS}, report FROM judgements WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(row.map(|row| {
            let report: Option<String> = row.try_get("report").ok().flatten();
            (
                judgement_of(&row),
                report.and_then(|r| serde_json::from_str(&r).ok()),
            )
        }))
    }

    /// Runs in order: of one judgement, or all (but those of a pending
    /// rejudging's judgements).
    pub(crate) async fn runs(&self, judgement: Option<i64>) -> Result<Vec<RunRecord>> {
        let columns = "id, judgement, ordinal, verdict, time_ms, run_time_ms";
        let sql = match judgement {
            Some(_) => format!("SELECT {columns} FROM runs WHERE judgement = $1 ORDER BY ordinal"),
            None => format!(
                "SELECT {columns} FROM runs \
                 WHERE judgement IN (SELECT id FROM judgements WHERE valid = 1) ORDER BY id"
            ),
        };
        let mut query = sqlx::query(&sql);
        if let Some(j) = judgement {
            query = query.bind(j);
        }
        let rows = query
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(run_of).collect())
    }

    /// Every clarification, in order.
    pub(crate) async fn clarifications(&self) -> Result<Vec<Clarification>> {
        let rows = sqlx::query(
            "SELECT id, from_team, to_team, reply_to, problem, text, time_ms, category \
             FROM clarifications ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(clarification_of).collect())
    }

    /// Stores a clarification.
    pub(crate) async fn clarify(&self, new: NewClarification) -> Result<Clarification> {
        let (_guard, mut tx) = self.begin().await?;
        let id = self.next_ids(&mut tx, "clarifications", 1).await?;
        sqlx::query(
            "INSERT INTO clarifications \
             (id, from_team, to_team, reply_to, problem, text, time_ms, category) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(new.from_team.clone())
        .bind(new.to_team.clone())
        .bind(new.reply_to)
        .bind(new.problem.clone())
        .bind(new.text.clone())
        .bind(new.time)
        .bind(new.category.clone())
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let clarification = Clarification {
            id,
            from_team: new.from_team,
            to_team: new.to_team,
            reply_to: new.reply_to,
            problem: new.problem,
            text: new.text,
            time: new.time,
            category: new.category,
        };
        let audience = match clarification
            .from_team
            .as_ref()
            .or(clarification.to_team.as_ref())
        {
            Some(team) => Audience::Team(team.clone()),
            None => Audience::Public,
        };
        let last = self
            .append(
                &mut tx,
                vec![(audience, EventData::Clarification(clarification.clone()))],
            )
            .await?;
        self.commit(tx, last, false).await?;
        Ok(clarification)
    }

    /// Events after `after`, at most `limit`, in order.
    pub(crate) async fn events_after(&self, after: i64, limit: i64) -> Result<Vec<Event>> {
        let rows =
            sqlx::query("SELECT id, audience, data FROM events WHERE id > $1 ORDER BY id LIMIT $2")
                .bind(after)
                .bind(limit)
                .fetch_all(&self.pool)
                .await
                .map_err(|e| self.query_error(e))?;
        let mut events = Vec::with_capacity(rows.len());
        for row in rows {
            let data: String = row.get("data");
            let data: EventData = serde_json::from_str(&data).map_err(|e| {
                self.error(
                    "an event cannot be read (a database of another version?)",
                    e,
                )
            })?;
            events.push(Event {
                id: row.get("id"),
                audience: Audience::parse(&row.get::<String, _>("audience")),
                data,
            });
        }
        Ok(events)
    }

    /// The latest event's id (0 when there is none).
    pub(crate) async fn last_event(&self) -> Result<i64> {
        let row = sqlx::query("SELECT value FROM counters WHERE name = 'events'")
            .fetch_one(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(row.get(0))
    }

    /// The clock as the jury set it.
    pub(crate) async fn clock(&self) -> Result<ClockRow> {
        let row = sqlx::query(
            "SELECT start_ms, freeze_ms, thawed_ms, finalized_ms, end_of_updates_ms, \
             duration_ms, freeze_length_ms FROM clock WHERE id = 1",
        )
        .fetch_one(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(ClockRow {
            start: opt_i64(&row, "start_ms"),
            freeze: opt_i64(&row, "freeze_ms"),
            thawed: opt_i64(&row, "thawed_ms"),
            finalized: opt_i64(&row, "finalized_ms"),
            end_of_updates: opt_i64(&row, "end_of_updates_ms"),
            duration: opt_i64(&row, "duration_ms"),
            freeze_length: opt_i64(&row, "freeze_length_ms"),
        })
    }

    /// Sets the clock and appends the events of what it changed.
    pub(crate) async fn set_clock(
        &self,
        clock: ClockRow,
        events: Vec<(Audience, EventData)>,
    ) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query(
            "UPDATE clock SET start_ms = $1, freeze_ms = $2, thawed_ms = $3, finalized_ms = $4, \
             end_of_updates_ms = $5, duration_ms = $6, freeze_length_ms = $7 WHERE id = 1",
        )
        .bind(clock.start)
        .bind(clock.freeze)
        .bind(clock.thawed)
        .bind(clock.finalized)
        .bind(clock.end_of_updates)
        .bind(clock.duration)
        .bind(clock.freeze_length)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        let last = self.append(&mut tx, events).await?;
        self.commit_as(tx, last, false, true).await
    }

    /// The latest event of each object of these kinds (to tell what
    /// changed in contest.toml since the last start).
    pub(crate) async fn latest_of_kinds(&self, kinds: &[&str]) -> Result<Vec<EventData>> {
        let mut latest: std::collections::BTreeMap<(String, Option<String>), EventData> =
            Default::default();
        for kind in kinds {
            let rows = sqlx::query("SELECT object, data FROM events WHERE kind = $1 ORDER BY id")
                .bind(kind.to_string())
                .fetch_all(&self.pool)
                .await
                .map_err(|e| self.query_error(e))?;
            for row in rows {
                let data: String = row.get("data");
                let data: EventData = serde_json::from_str(&data)
                    .map_err(|e| self.error("an event cannot be read", e))?;
                latest.insert(
                    (kind.to_string(), row.try_get("object").ok().flatten()),
                    data,
                );
            }
        }
        Ok(latest.into_values().collect())
    }

    /// How many judgements are not finished.
    pub(crate) async fn unfinished(&self) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) FROM judgements WHERE state <> 'done'")
            .fetch_one(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(row.get(0))
    }
}
