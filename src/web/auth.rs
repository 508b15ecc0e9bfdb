//! Who is asking: a web session (an HttpOnly, SameSite=Strict cookie whose
//! token the database keeps only as a hash, plus a form token every
//! changing form must carry), or HTTP basic authentication (the Contest
//! API: a team's id and password, or `jury`). Failed logins are limited
//! per login name and client address (a password that matched before
//! still passes, and a browser with a live session is never refused). The main
//! type is [`Account`].

use axum::http::{header, HeaderMap};
use base64::Engine;

use super::connections::peer;
use super::state::App;
use crate::contest::clock::now_ms;
use crate::server::auth::{random_token, token_hash};
use crate::server::door::SessionRow;

/// The session cookie's name.
pub(crate) const COOKIE: &str = "judge_session";
/// How long a session lasts.
const SESSION_MS: i64 = 24 * 3_600_000;

/// A logged-in account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Account {
    /// A team, by id.
    Team(String),
    /// The jury.
    Jury,
}

impl Account {
    /// The login name.
    pub(crate) fn login(&self) -> &str {
        match self {
            Account::Team(t) => t,
            Account::Jury => "jury",
        }
    }

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

/// Why credentials were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Denied {
    /// Wrong login or password.
    Wrong,
    /// Too many failures of this login lately.
    TooMany,
}

/// Checks a login and password (Argon2 runs off the request threads);
/// failures are counted per login and client address.
pub(crate) async fn check(
    app: &App,
    headers: &HeaderMap,
    login: &str,
    password: &str,
) -> Result<Account, Denied> {
    let peer = peer(headers);
    // Credentials that matched before pass even while the login is locked:
    // anyone can fail ten times as `jury`, which must not lock the jury's
    // feed client or a team's logged-in tools out of the contest.
    let known = app.live.verifier.known(login, password);
    // A browser logged in as this account is not locked out by others'
    // failures from its address (a contest hall behind one address).
    let holds_session = || async {
        session(app, headers)
            .await
            .is_some_and(|s| s.account.login() == login)
    };
    if !known && !app.failures.allowed(login, &peer) && !holds_session().await {
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
            app.failures.failed(login, &peer);
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
    Some(check(app, headers, login, password).await)
}

/// The session of the request's cookie, if it has a live one made with
/// the account's present password.
pub(crate) async fn session(app: &App, headers: &HeaderMap) -> Option<Session> {
    let token = cookie(headers, COOKIE)?;
    let hash = token_hash(&token);
    let row = app.live.session(&hash).await.ok()??;
    let tag = app.live.verifier.session_tag(&row.account, &token)?;
    if !constant_time_eq(tag.as_bytes(), row.csrf.as_bytes()) {
        return None;
    }
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
    let login = account.login().to_string();
    let csrf = app
        .live
        .verifier
        .session_tag(&login, &token)
        .expect("a logged-in account has a password");
    app.live
        .create_session(
            &token_hash(&token),
            &SessionRow {
                account: login,
                csrf,
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
    constant_time_eq(session.csrf.as_bytes(), given.as_bytes())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
