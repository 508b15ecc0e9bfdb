//! The jury's desk, stored: who claimed which question (so two judges do
//! not answer it twice), how far each team has read its clarifications
//! (its pages' badge), and the balloons handed out. None of it is an
//! event of the Contest API: a change is announced to the jury's pages
//! through [`super::Changes::subscribe_desk`].

use std::collections::{HashMap, HashSet};

use sqlx::Row;

use super::Store;
use crate::contest::clock::EpochMs;
use crate::error::Result;

/// A claim on a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClaimRow {
    /// The name shown to the other judges.
    pub(crate) name: String,
    /// The claiming session's tag (its pages say "you").
    pub(crate) holder: String,
}

impl Store {
    /// Claims question `id` for `holder`, unless another holds it: whether
    /// `holder` holds it now. One statement, so two judges claiming at
    /// once cannot both win.
    pub(crate) async fn claim_clarification(
        &self,
        id: i64,
        holder: &str,
        name: &str,
    ) -> Result<bool> {
        let (_guard, mut tx) = self.begin().await?;
        let done = sqlx::query(
            "UPDATE clarifications SET claimed_by = $1, claim_session = $2 \
             WHERE id = $3 AND from_team IS NOT NULL \
             AND (claim_session IS NULL OR claim_session = $2)",
        )
        .bind(name.to_string())
        .bind(holder.to_string())
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?
        .rows_affected();
        self.commit(tx, None, false).await?;
        self.changes.desk_changed();
        Ok(done == 1)
    }

    /// Releases question `id`, whoever held it.
    pub(crate) async fn release_clarification(&self, id: i64) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query(
            "UPDATE clarifications SET claimed_by = NULL, claim_session = NULL WHERE id = $1",
        )
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await?;
        self.changes.desk_changed();
        Ok(())
    }

    /// The claims held, by question.
    pub(crate) async fn clarification_claims(&self) -> Result<HashMap<i64, ClaimRow>> {
        let rows = sqlx::query(
            "SELECT id, claimed_by, claim_session FROM clarifications \
             WHERE claim_session IS NOT NULL",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(rows
            .iter()
            .map(|r| {
                let claim = ClaimRow {
                    name: r.try_get("claimed_by").ok().flatten().unwrap_or_default(),
                    holder: r.get("claim_session"),
                };
                (r.get("id"), claim)
            })
            .collect())
    }

    /// The last clarification `team` has read (0: none).
    pub(crate) async fn last_read(&self, team: &str) -> Result<i64> {
        let row = sqlx::query("SELECT last_read FROM clarification_reads WHERE team = $1")
            .bind(team.to_string())
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(row.map(|r| r.get(0)).unwrap_or(0))
    }

    /// Records that `team` has read its clarifications up to `id`.
    pub(crate) async fn set_last_read(&self, team: &str, id: i64) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("DELETE FROM clarification_reads WHERE team = $1")
            .bind(team.to_string())
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        sqlx::query("INSERT INTO clarification_reads (team, last_read) VALUES ($1, $2)")
            .bind(team.to_string())
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await
    }

    /// The submissions whose balloon was handed out.
    pub(crate) async fn balloons_done(&self) -> Result<HashSet<i64>> {
        let rows = sqlx::query("SELECT submission FROM balloons")
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Marks the balloon of `submission` handed out (or not, `None`).
    pub(crate) async fn set_balloon(&self, submission: i64, done: Option<EpochMs>) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("DELETE FROM balloons WHERE submission = $1")
            .bind(submission)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        if let Some(at) = done {
            sqlx::query("INSERT INTO balloons (submission, done_ms) VALUES ($1, $2)")
                .bind(submission)
                .bind(at)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.query_error(e))?;
        }
        self.commit(tx, None, false).await?;
        self.changes.desk_changed();
        Ok(())
    }
}
