//! Print jobs, stored: a team's file to print ([`PrintJob`]), whether the
//! print command printed it ([`PrintState`]) and whether the jury marked it
//! handed out. Not events of the Contest API: a change is announced to the
//! jury's pages through [`super::Changes::subscribe_desk`].

use sqlx::any::AnyRow;
use sqlx::Row;

use super::Store;
use crate::contest::clock::EpochMs;
use crate::error::Result;

/// What became of a job's print command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PrintState {
    /// Not printed by a command (none is set, or it has not run yet).
    Waiting,
    /// The command ran and exited 0.
    Printed,
    /// The command failed (its output says how).
    Failed,
}

impl PrintState {
    /// As stored.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            PrintState::Waiting => "waiting",
            PrintState::Printed => "printed",
            PrintState::Failed => "failed",
        }
    }

    fn parse(text: &str) -> PrintState {
        match text {
            "printed" => PrintState::Printed,
            "failed" => PrintState::Failed,
            _ => PrintState::Waiting,
        }
    }
}

/// A file a team sent to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PrintJob {
    /// Its id.
    pub(crate) id: i64,
    /// The team's id.
    pub(crate) team: String,
    /// The file's name as the team gave it (made harmless when sent).
    pub(crate) filename: String,
    /// The text.
    pub(crate) content: Vec<u8>,
    /// When it was sent.
    pub(crate) time: EpochMs,
    /// When the jury marked it handed out.
    pub(crate) done: Option<EpochMs>,
    /// The print command's outcome.
    pub(crate) state: PrintState,
    /// The print command's exit and output, when it ran.
    pub(crate) output: Option<String>,
}

const COLUMNS: &str = "id, team, filename, content, time_ms, done_ms, state, output";

fn job_of(r: &AnyRow) -> PrintJob {
    PrintJob {
        id: r.get("id"),
        team: r.get("team"),
        filename: r.get("filename"),
        content: r.get("content"),
        time: r.get("time_ms"),
        done: r.try_get("done_ms").ok().flatten(),
        state: PrintState::parse(&r.get::<String, _>("state")),
        output: r.try_get("output").ok().flatten(),
    }
}

impl Store {
    /// Stores `team`'s file to print: its id.
    pub(crate) async fn add_print_job(
        &self,
        team: &str,
        filename: &str,
        content: &[u8],
        time: EpochMs,
    ) -> Result<i64> {
        let (_guard, mut tx) = self.begin().await?;
        let id = self.next_ids(&mut tx, "print_jobs", 1).await?;
        sqlx::query(
            "INSERT INTO print_jobs (id, team, filename, content, time_ms, state) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(team.to_string())
        .bind(filename.to_string())
        .bind(content.to_vec())
        .bind(time)
        .bind(PrintState::Waiting.as_str())
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await?;
        self.changes.desk_changed();
        Ok(id)
    }

    /// The print jobs, of `team` or of all, oldest first.
    pub(crate) async fn print_jobs(&self, team: Option<&str>) -> Result<Vec<PrintJob>> {
        let rows = match team {
            Some(team) => {
                sqlx::query(&format!(
                    "SELECT {COLUMNS} FROM print_jobs WHERE team = $1 ORDER BY id"
                ))
                .bind(team.to_string())
                .fetch_all(&self.pool)
                .await
            }
            None => {
                sqlx::query(&format!("SELECT {COLUMNS} FROM print_jobs ORDER BY id"))
                    .fetch_all(&self.pool)
                    .await
            }
        }
        .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(job_of).collect())
    }

    /// Print job `id`.
    pub(crate) async fn print_job(&self, id: i64) -> Result<Option<PrintJob>> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM print_jobs WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(row.as_ref().map(job_of))
    }

    /// Records the print command's outcome for job `id`.
    pub(crate) async fn set_print_outcome(
        &self,
        id: i64,
        state: PrintState,
        output: &str,
    ) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("UPDATE print_jobs SET state = $1, output = $2 WHERE id = $3")
            .bind(state.as_str())
            .bind(output.to_string())
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await?;
        self.changes.desk_changed();
        Ok(())
    }

    /// Marks job `id` handed out (or not, `None`).
    pub(crate) async fn set_print_done(&self, id: i64, done: Option<EpochMs>) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("UPDATE print_jobs SET done_ms = $1 WHERE id = $2")
            .bind(done)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await?;
        self.changes.desk_changed();
        Ok(())
    }
}
