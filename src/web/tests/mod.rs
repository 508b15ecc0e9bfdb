//! The router driven in-process (`tower::ServiceExt::oneshot`, no port):
//! a small contest ([`fixture`]) and requests as each viewer; the Contest
//! API's routes and the attacks of the review ([`api`]), every page route
//! as each viewer ([`pages`]), the one reader of submissions on its
//! three ways in ([`submissions`]), and the jury's desk and the teams'
//! notices ([`desk`]), printing ([`printing`]), rejudging with a preview
//! ([`rejudging`]).

mod api;
mod desk;
mod domjudge;
mod pages;
mod printing;
mod rejudging;
mod submissions;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, Response, StatusCode};
use axum::Router;
use base64::Engine;
use http_body_util::BodyExt;
use tower::ServiceExt;

use super::state::App;
use crate::contest::clock::now_ms;
use crate::server::model::{Audience, EventData, RunRecord};
use crate::verdict::Verdict;

/// A contest with teams t1 and t2 (passwords `p1`, `p2`), the jury
/// (`pj`), problem `a` ("Secret Title"), started an hour ago (or starting
/// in an hour) and frozen from the start when `frozen`.
pub(super) struct Fixture {
    pub(super) app: App,
    _dir: tempfile::TempDir,
}

pub(super) async fn fixture(started: bool, frozen: bool) -> Fixture {
    fixture_printing(started, frozen, Default::default()).await
}

/// [`fixture`] with `printing` as contest.toml's `[printing]`.
pub(super) async fn fixture_printing(
    started: bool,
    frozen: bool,
    printing: crate::contest::printing::Printing,
) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let live =
        crate::server::testing::live_contest_printing(dir.path(), started, frozen, printing).await;
    let app = App {
        live: Arc::new(live),
        failures: Arc::default(),
        streams: Arc::new(super::connections::Streams::new(8, 3)),
        rendered: Arc::default(),
    };
    Fixture { app, _dir: dir }
}

impl Fixture {
    pub(super) fn router(&self) -> Router {
        super::app::router(self.app.clone())
    }

    /// A team's judged runs, as the judging writes them (one event each).
    pub(super) async fn runs(&self, team: &str, count: u32) {
        let events = (1..=count)
            .map(|ordinal| {
                (
                    Audience::Team(team.into()),
                    EventData::Run(RunRecord {
                        id: 0,
                        judgement: 1,
                        ordinal,
                        verdict: Verdict::AC,
                        time: now_ms(),
                        run_time_ms: 1,
                    }),
                )
            })
            .collect();
        self.app.live.test_store().publish(events).await.unwrap();
    }
}

pub(super) fn basic(login: &str, password: &str) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(format!("{login}:{password}"));
    format!("Basic {encoded}")
}

/// A GET of `uri` as `auth` from `peer`: status and body.
pub(super) async fn get(
    router: &Router,
    uri: &str,
    auth: Option<(&str, &str)>,
    peer: &str,
) -> (StatusCode, String) {
    let mut request = Request::get(uri).header(super::connections::PEER, peer);
    if let Some((l, p)) = auth {
        request = request.header(header::AUTHORIZATION, basic(l, p));
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// A GET of `uri` from `peer` without credentials, its response unread
/// (a stream's body is read as it comes).
pub(super) async fn unauthenticated(router: &Router, uri: &str, peer: &str) -> Response<Body> {
    router
        .clone()
        .oneshot(
            Request::get(uri)
                .header(super::connections::PEER, peer)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap()
}

/// A browser logged in as `account`: the `Cookie` header it sends and the
/// form token its pages carry.
pub(super) struct Browser {
    pub(super) cookie: String,
    pub(super) csrf: String,
}

pub(super) async fn browser(app: &App, account: super::auth::Account) -> Browser {
    let set = super::auth::start_session(app, &account).await.unwrap();
    let cookie = set.split(';').next().unwrap().to_string();
    let mut headers = axum::http::HeaderMap::new();
    headers.insert(header::COOKIE, cookie.parse().unwrap());
    let session = super::auth::session(app, &headers).await.unwrap();
    Browser {
        cookie,
        csrf: session.csrf,
    }
}

/// What a request was answered, in short: the status, and where a
/// redirect leads (`303 /login`); the body, unless it is a stream.
pub(super) async fn answer(router: &Router, request: Request<Body>) -> (String, String) {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16().to_string();
    let short = match response.headers().get(header::LOCATION) {
        Some(to) => format!("{status} {}", to.to_str().unwrap()),
        None => status,
    };
    let streams = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    if streams {
        return (short, String::new());
    }
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (short, String::from_utf8_lossy(&body).into_owned())
}
