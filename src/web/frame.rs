//! What a page is framed with and how a page refuses: [`Frame`] (who is
//! looking and the contest's clock, owned, so that a refusal can carry
//! it), and [`PageError`], the pages' one error type, which renders itself
//! as a response (a redirect to the login, a bare 404, or a page saying
//! what was not done with a way back).

use std::sync::Arc;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};

use super::auth::{csrf_ok, Account, Session};
use super::state::{message_of, status_of, App};
use crate::contest::clock::{now_ms, ContestClock, EpochMs};
use crate::render::web::{self, Chrome, Who};
use crate::server::live::{LiveContest, Refusal};
use crate::server::model::StateSnapshot;
use crate::server::visibility::Viewer;

/// Who is looking at a page, with the contest's clock as it was when the
/// request came: what every page's header and clock line are made from.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    live: Arc<LiveContest>,
    /// The session, when logged in.
    pub(crate) session: Option<Session>,
    /// The contest's state.
    pub(crate) state: StateSnapshot,
    start: Option<EpochMs>,
    now: EpochMs,
    /// The clock in effect (contest.toml's with the jury's changes).
    clock: ContestClock,
    /// The menu's clarifications badge for this viewer.
    badge: usize,
    /// The menu's print-jobs badge (the jury's jobs not handed out).
    print_badge: usize,
}

impl Frame {
    /// The frame of a page for `session` (none: not logged in).
    pub(crate) async fn new(app: &App, session: Option<Session>) -> Result<Frame, PageError> {
        let viewer = viewer_of(session.as_ref());
        Ok(Frame {
            live: Arc::clone(&app.live),
            session,
            state: app.live.state().await.map_err(PageError::failed)?,
            start: app.live.start().await.map_err(PageError::failed)?,
            now: now_ms(),
            clock: app
                .live
                .contest_now()
                .await
                .map_err(PageError::failed)?
                .clock,
            badge: app
                .live
                .clarification_badge(&viewer)
                .await
                .map_err(PageError::failed)?,
            print_badge: app.live.print_badge(&viewer).await?,
        })
    }

    /// The viewer, as the contest's rules know it.
    pub(crate) fn viewer(&self) -> Viewer {
        viewer_of(self.session.as_ref())
    }

    /// The page's chrome, for the renderers.
    pub(crate) fn chrome(&self) -> Chrome<'_> {
        let who = match self.session.as_ref().map(|s| &s.account) {
            Some(Account::Team(t)) => Who::Team(t.clone()),
            Some(Account::Jury) => Who::Jury,
            None => Who::Anonymous,
        };
        Chrome {
            config: self.live.config_for(&self.viewer(), &self.state),
            who,
            csrf: self.session.as_ref().map(|s| s.csrf.as_str()),
            state: self.state,
            start: self.start,
            now: self.now,
            clock: self.clock,
            badge: self.badge,
            print_badge: self.print_badge,
        }
    }

    /// This frame as seen by someone not logged in (the login page).
    pub(crate) fn anonymous(self) -> Frame {
        Frame {
            session: None,
            ..self
        }
    }

    /// Whether the contest has started (teams see problems only then).
    pub(crate) fn started(&self) -> bool {
        self.state.started.is_some()
    }

    /// A form of this frame's session may be taken: sent from this site,
    /// with the session's token.
    pub(crate) fn check_form(
        &self,
        headers: &HeaderMap,
        csrf: Option<&str>,
    ) -> Result<(), PageError> {
        if !same_origin(headers) {
            return Err(PageError::Forbidden("a form from another site is refused"));
        }
        match &self.session {
            Some(s) if csrf_ok(s, csrf) => Ok(()),
            _ => Err(PageError::Forbidden(
                "the form's token is missing or stale: reload the page and try again",
            )),
        }
    }

    /// `refusal` said on a page of this frame that leads `back`.
    pub(crate) fn refused(self, refusal: Refusal, back: &str) -> PageError {
        PageError::Refused(Box::new(RefusedPage {
            frame: self,
            refusal,
            back: back.to_string(),
        }))
    }
}

/// The viewer of `session`, as the contest's rules know it.
fn viewer_of(session: Option<&Session>) -> Viewer {
    match session.map(|s| &s.account) {
        Some(Account::Team(t)) => Viewer::Team(t.clone()),
        Some(Account::Jury) => Viewer::Jury,
        None => Viewer::Public,
    }
}

/// Whether a request came from a page of this site: it has no `Origin`
/// (not sent by a browser's page), or one naming this host.
pub(crate) fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin.split_once("://").map(|(_, h)| h).unwrap_or(origin);
    origin_host == host
}

/// Why a page or a form was not answered as asked.
#[derive(Debug)]
pub(crate) enum PageError {
    /// Not logged in: to the login page.
    LogIn,
    /// Logged in as someone the page is not for: to their home page.
    Elsewhere(&'static str),
    /// No such page, or not for this viewer (the jury's pages are not
    /// announced): a bare 404.
    NotFound,
    /// A form that may not be taken: from another site, or without its
    /// session's token.
    Forbidden(&'static str),
    /// The contest refused (or failed): said on a page with a way back.
    Refused(Box<RefusedPage>),
    /// The contest refused before a frame could be made: said plainly.
    Plain(Refusal),
}

/// A refusal of the contest's, to be said on a page.
#[derive(Debug)]
pub(crate) struct RefusedPage {
    /// The page's frame.
    frame: Frame,
    /// What the contest said.
    refusal: Refusal,
    /// Where the page's link leads.
    back: String,
}

impl PageError {
    /// The server failed (logged; said vaguely).
    pub(crate) fn failed(e: crate::error::Error) -> PageError {
        PageError::Plain(Refusal::Failed(e))
    }
}

impl From<Refusal> for PageError {
    fn from(refusal: Refusal) -> Self {
        PageError::Plain(refusal)
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::LogIn => Redirect::to("/login").into_response(),
            PageError::Elsewhere(home) => Redirect::to(home).into_response(),
            PageError::NotFound => (StatusCode::NOT_FOUND, "not found").into_response(),
            PageError::Forbidden(why) => (StatusCode::FORBIDDEN, why).into_response(),
            PageError::Refused(page) => {
                let RefusedPage {
                    frame,
                    refusal,
                    back,
                } = *page;
                let status = status_of(&refusal);
                let text = message_of(&refusal);
                let page = web::message(&frame.chrome(), "Not done", &text, &back);
                (status, Html(page)).into_response()
            }
            PageError::Plain(refusal) => {
                (status_of(&refusal), message_of(&refusal)).into_response()
            }
        }
    }
}
