//! What every handler shares ([`App`]): the contest, failed logins per
//! login name and address ([`Failures`]), scoreboards as last rendered; and how a
//! refusal of the contest's becomes an HTTP status and a message.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;

use crate::contest::clock::{now_ms, EpochMs};
use crate::server::live::LiveContest;

/// Failed logins allowed per login name per window.
const FAILURES_ALLOWED: usize = 10;
const FAILURE_WINDOW_MS: i64 = 5 * 60_000;

/// What every handler shares.
#[derive(Debug, Clone)]
pub(crate) struct App {
    /// The contest.
    pub(crate) live: Arc<LiveContest>,
    /// Failed logins.
    pub(crate) failures: Arc<Failures>,
    /// The streams open (live updates, event feeds), capped.
    pub(crate) streams: Arc<super::connections::Streams>,
    /// Scoreboards as last rendered, by what was rendered (an API view, a
    /// page's table), with the board they show: rendered again only when
    /// the board changed.
    pub(crate) rendered: Arc<std::sync::Mutex<RenderedBoards>>,
}

/// Rendered scoreboards, by kind.
pub(crate) type RenderedBoards =
    std::collections::HashMap<&'static str, (Arc<crate::server::live::Board>, axum::body::Bytes)>;

impl App {
    /// `board` rendered by `render`, or the bytes rendered for it before.
    pub(crate) fn rendered(
        &self,
        kind: &'static str,
        board: &Arc<crate::server::live::Board>,
        render: impl FnOnce() -> String,
    ) -> axum::body::Bytes {
        if let Some((b, bytes)) = self.rendered.lock().expect("not poisoned").get(kind) {
            if Arc::ptr_eq(b, board) {
                return bytes.clone();
            }
        }
        let bytes = axum::body::Bytes::from(render());
        self.rendered
            .lock()
            .expect("not poisoned")
            .insert(kind, (Arc::clone(board), bytes.clone()));
        bytes
    }
}

/// Failed logins per login name and client address: a stranger who fails
/// ten times as `jury` locks out only their own address, never the jury
/// at another one (and never a browser that already holds a session).
#[derive(Debug, Default)]
pub(crate) struct Failures {
    recent: Mutex<HashMap<(String, String), VecDeque<EpochMs>>>,
}

/// Pairs remembered at most (the oldest are forgotten first).
const FAILURE_PAIRS: usize = 100_000;

impl Failures {
    /// Whether `login` may try now from `peer`.
    pub(crate) fn allowed(&self, login: &str, peer: &str) -> bool {
        let now = now_ms();
        let mut recent = self.recent.lock().expect("not poisoned");
        let Some(times) = recent.get_mut(&(login.to_string(), peer.to_string())) else {
            return true;
        };
        while times.front().is_some_and(|t| now - t > FAILURE_WINDOW_MS) {
            times.pop_front();
        }
        times.len() < FAILURES_ALLOWED
    }

    /// Counts a failed try of `login` from `peer`.
    pub(crate) fn failed(&self, login: &str, peer: &str) {
        let now = now_ms();
        let mut recent = self.recent.lock().expect("not poisoned");
        if recent.len() >= FAILURE_PAIRS {
            recent.retain(|_, times| times.back().is_some_and(|t| now - t <= FAILURE_WINDOW_MS));
        }
        if recent.len() >= FAILURE_PAIRS {
            return;
        }
        recent
            .entry((login.to_string(), peer.to_string()))
            .or_default()
            .push_back(now);
    }
}

/// The HTTP status of a refusal.
pub(crate) fn status_of(refusal: &crate::server::live::Refusal) -> StatusCode {
    use crate::server::live::Refusal;
    match refusal {
        Refusal::Invalid(_) => StatusCode::BAD_REQUEST,
        Refusal::Forbidden(_) => StatusCode::FORBIDDEN,
        Refusal::NotFound(_) => StatusCode::NOT_FOUND,
        Refusal::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        Refusal::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
        Refusal::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// What a refusal says (a server failure is logged, and said vaguely).
pub(crate) fn message_of(refusal: &crate::server::live::Refusal) -> String {
    use crate::server::live::Refusal;
    match refusal {
        Refusal::Invalid(m)
        | Refusal::Forbidden(m)
        | Refusal::NotFound(m)
        | Refusal::TooLarge(m)
        | Refusal::TooMany(m) => m.clone(),
        Refusal::Failed(e) => {
            eprintln!("{}", crate::error::render_chain(e));
            "the server failed to do this; the jury can see why in its log".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_lock_one_address_out_not_the_owner_elsewhere() {
        let failures = Failures::default();
        for _ in 0..FAILURES_ALLOWED {
            assert!(failures.allowed("jury", "10.0.0.66"));
            failures.failed("jury", "10.0.0.66");
        }
        assert!(!failures.allowed("jury", "10.0.0.66"));
        assert!(failures.allowed("jury", "10.0.0.1"));
        assert!(failures.allowed("t1", "10.0.0.66"));
    }
}
