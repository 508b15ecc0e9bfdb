//! Who is asking: a web session (an HttpOnly, SameSite=Strict cookie whose
//! token the database keeps only as a hash, plus a form token every
//! changing form must carry), or HTTP basic authentication (the Contest
//! API: a team's id and password, or `jury`). Failed logins are limited
//! per login name (a password that matched before still passes). The main
//! type is [`Account`].

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::http::{header, HeaderMap};
use base64::Engine;

use super::app::App;
use crate::contest::clock::{now_ms, EpochMs};
use crate::server::auth::{random_token, token_hash};
use crate::server::store::SessionRow;

/// The session cookie's name.
pub(crate) const COOKIE: &str = "judge_session";
/// How long a session lasts.
const SESSION_MS: i64 = 24 * 3_600_000;
/// Failed logins allowed per login name per window.
const FAILURES_ALLOWED: usize = 10;
const FAILURE_WINDOW_MS: i64 = 5 * 60_000;

/// A logged-in account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Account {
    /// A team, by id.
    Team(String),
    /// The jury.
    Jury,
}

impl Account {
    /// The team's id, for a team.
    pub(crate) fn team(&self) -> Option<&str> {
        match self {
            Account::Team(t) => Some(t),
            Account::Jury => None,
        }
    }
}

/// A web session.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// Whose.
    pub(crate) account: Account,
    /// Its form token.
    pub(crate) csrf: String,
    /// Its token's hash (to end it).
    pub(crate) token_hash: String,
}

/// Failed logins per login name.
#[derive(Debug, Default)]
pub(crate) struct Failures {
    recent: Mutex<HashMap<String, VecDeque<EpochMs>>>,
}

impl Failures {
    /// Whether `login` may try now.
    pub(crate) fn allowed(&self, login: &str) -> bool {
        let now = now_ms();
        let mut recent = self.recent.lock().expect("not poisoned");
        let Some(times) = recent.get_mut(login) else {
            return true;
        };
        while times.front().is_some_and(|t| now - t > FAILURE_WINDOW_MS) {
            times.pop_front();
        }
        times.len() < FAILURES_ALLOWED
    }

    /// Counts a failed try.
    pub(crate) fn failed(&self, login: &str) {
        let mut recent = self.recent.lock().expect("not poisoned");
        recent
            .entry(login.to_string())
            .or_default()
            .push_back(now_ms());
    }
}

/// Why credentials were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Denied {
    /// Wrong login or password.
    Wrong,
    /// Too many failures of this login lately.
    TooMany,
}

/// Checks a login and password (Argon2 runs off the request threads).
pub(crate) async fn check(app: &App, login: &str, password: &str) -> Result<Account, Denied> {
    // Credentials that matched before pass even while the login is locked:
    // anyone can fail ten times as `jury`, which must not lock the jury's
    // feed client or a team's logged-in tools out of the contest.
    let known = app.live.verifier.known(login, password);
    if !known && !app.failures.allowed(login) {
        return Err(Denied::TooMany);
    }
    let ok = known || {
        let live = std::sync::Arc::clone(&app.live);
        let (l, p) = (login.to_string(), password.to_string());
        tokio::task::spawn_blocking(move || live.verifier.check(&l, &p))
            .await
            .unwrap_or(false)
    };
    if ok {
        Ok(if login == "jury" {
            Account::Jury
        } else {
            Account::Team(login.to_string())
        })
    } else {
        // Only accounts that exist are counted: made-up names (which can
        // never log in) would grow the table without end.
        if login == "jury" || app.live.config.team(login).is_some() {
            app.failures.failed(login);
        }
        Err(Denied::Wrong)
    }
}

/// The account of HTTP basic authentication, if the request has it.
pub(crate) async fn basic(app: &App, headers: &HeaderMap) -> Option<Result<Account, Denied>> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let encoded = value
        .strip_prefix("Basic ")
        .or_else(|| value.strip_prefix("basic "))?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (login, password) = text.split_once(':')?;
    Some(check(app, login, password).await)
}

/// The session of the request's cookie, if it has a live one.
pub(crate) async fn session(app: &App, headers: &HeaderMap) -> Option<Session> {
    let token = cookie(headers, COOKIE)?;
    let hash = token_hash(&token);
    let row = app.live.store.session(&hash, now_ms()).await.ok()??;
    let account = if row.account == "jury" {
        Account::Jury
    } else {
        Account::Team(row.account)
    };
    Some(Session {
        account,
        csrf: row.csrf,
        token_hash: hash,
    })
}

/// Starts a session for `account`; the `Set-Cookie` value.
pub(crate) async fn start_session(app: &App, account: &Account) -> crate::error::Result<String> {
    let token = random_token();
    let login = match account {
        Account::Team(t) => t.clone(),
        Account::Jury => "jury".into(),
    };
    app.live
        .store
        .create_session(
            &token_hash(&token),
            &SessionRow {
                account: login,
                csrf: random_token(),
                expires: now_ms() + SESSION_MS,
            },
        )
        .await?;
    Ok(format!(
        "{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}",
        SESSION_MS / 1000
    ))
}

/// The `Set-Cookie` value that ends the session in the browser.
pub(crate) fn end_cookie() -> String {
    format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
}

fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// Whether a form's token is its session's (compared in constant time).
pub(crate) fn csrf_ok(session: &Session, given: Option<&str>) -> bool {
    let Some(given) = given else {
        return false;
    };
    let (a, b) = (session.csrf.as_bytes(), given.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
