//! Logins, stored: the accounts (each team, and the jury) with their
//! password hashes, and the sessions of the web pages (kept as hashes of
//! their tokens, so the database does not hold a usable session).

use sqlx::Row;

use super::Store;
use crate::contest::clock::EpochMs;
use crate::error::Result;

/// An account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AccountRow {
    /// Its login: a team's id, or `jury`.
    pub(crate) id: String,
    /// Its password's Argon2 hash (PHC string).
    pub(crate) password_hash: String,
    /// Whether it is a team's.
    pub(crate) is_team: bool,
}

/// A web session as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SessionRow {
    /// Whose it is.
    pub(crate) account: String,
    /// The token its forms carry (against cross-site requests).
    pub(crate) csrf: String,
    /// When it ends.
    pub(crate) expires: EpochMs,
}

impl Store {
    /// Makes the accounts those of contest.toml: each one's hash is
    /// replaced, and accounts no longer there are removed (with their
    /// sessions).
    pub(crate) async fn set_accounts(&self, accounts: &[AccountRow]) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("DELETE FROM accounts")
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        for a in accounts {
            sqlx::query(
                "INSERT INTO accounts (id, name, password_hash, is_team) VALUES ($1, $1, $2, $3)",
            )
            .bind(a.id.clone())
            .bind(a.password_hash.clone())
            .bind(i64::from(a.is_team))
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        }
        sqlx::query("DELETE FROM sessions WHERE account NOT IN (SELECT id FROM accounts)")
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await
    }

    /// Starts a session.
    pub(crate) async fn create_session(&self, token_hash: &str, row: &SessionRow) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("DELETE FROM sessions WHERE expires_ms < $1")
            .bind(crate::contest::clock::now_ms())
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        sqlx::query(
            "INSERT INTO sessions (token_hash, account, csrf, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash.to_string())
        .bind(row.account.clone())
        .bind(row.csrf.clone())
        .bind(row.expires)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await
    }

    /// A session that has not ended.
    pub(crate) async fn session(
        &self,
        token_hash: &str,
        now: EpochMs,
    ) -> Result<Option<SessionRow>> {
        let row = sqlx::query(
            "SELECT account, csrf, expires_ms FROM sessions WHERE token_hash = $1 AND expires_ms > $2",
        )
        .bind(token_hash.to_string())
        .bind(now)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| self.query_error(e))?;
        Ok(row.map(|r| SessionRow {
            account: r.get("account"),
            csrf: r.get("csrf"),
            expires: r.get("expires_ms"),
        }))
    }

    /// Ends a session.
    pub(crate) async fn end_session(&self, token_hash: &str) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash.to_string())
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await
    }
}
