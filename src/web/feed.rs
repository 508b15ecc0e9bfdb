//! Streams: the Contest API's event feed (NDJSON, every event since the
//! beginning or since `since_token`, then new ones as they are written, a
//! newline every 120 s of quiet; `stream=false` ends after the current
//! ones), the server-sent events that tell pages to refresh, and the whole
//! feed for the file the server writes for the ICPC Resolver.

use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};

use super::api::{context, error, viewer, Viewer};
use super::auth::Account;
use super::connections::peer;
use super::state::App;
use super::visitor::{Fragment, Jury, Team};
use crate::render::ccs;
use crate::server::live::{LiveContest, View};

/// How long the feed may be quiet before a keep-alive newline.
const KEEP_ALIVE: Duration = Duration::from_secs(120);
/// Events read at a time.
const BATCH: i64 = 500;

/// The lines of the events after `after` this viewer may see, and the last
/// id read (`None` when there were none).
async fn next_lines(
    live: &LiveContest,
    viewer: &Viewer,
    after: i64,
) -> Result<Option<(String, i64)>, crate::error::Error> {
    let Some((events, last)) = live.events_for(&viewer.door(), after, BATCH).await? else {
        return Ok(None);
    };
    let cx = crate::render::ccs::Context {
        contest_id: &live.config.contest.id,
        scoring: live.config.contest.scoring,
        start: live.start().await?,
    };
    let mut text = String::new();
    for event in &events {
        text.push_str(&ccs::event_line(event, &live.tokens.seal(event.id), &cx));
        text.push('\n');
    }
    Ok(Some((text, last)))
}

/// The feed as a stream of chunks.
fn feed_stream(
    app: App,
    viewer: Viewer,
    after: i64,
    follow: bool,
) -> impl Stream<Item = Result<Bytes, Infallible>> {
    let changes = app.live.subscribe();
    stream::unfold(
        (app, viewer, after, changes, false),
        move |(app, viewer, mut after, mut changes, done)| async move {
            if done {
                return None;
            }
            loop {
                match next_lines(&app.live, &viewer, after).await {
                    Ok(Some((text, last))) => {
                        after = last;
                        if !text.is_empty() {
                            return Some((
                                Ok(Bytes::from(text)),
                                (app, viewer, after, changes, false),
                            ));
                        }
                    }
                    Ok(None) if !follow => return None,
                    Ok(None) => {
                        changes.borrow_and_update();
                        // Written meanwhile?
                        if app.live.written_after(after).await.unwrap_or(false) {
                            continue;
                        }
                        match tokio::time::timeout(KEEP_ALIVE, changes.changed()).await {
                            Ok(Ok(())) => continue,
                            Ok(Err(_)) => return None,
                            Err(_) => {
                                return Some((
                                    Ok(Bytes::from_static(b"\n")),
                                    (app, viewer, after, changes, false),
                                ))
                            }
                        }
                    }
                    Err(e) => {
                        eprintln!("event feed: {}", crate::error::render_chain(&e));
                        return None;
                    }
                }
            }
        },
    )
}

/// `GET /api/contests/{cid}/event-feed[?since_token=N][&stream=false]`.
pub(crate) async fn event_feed(
    State(app): State<App>,
    Path(cid): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    if cid != app.live.config.contest.id {
        return error(StatusCode::NOT_FOUND, &format!("no contest `{cid}`")).into_response();
    }
    let viewer = match viewer(&app, &headers).await {
        Ok(v) => v,
        Err(r) => return r.into_response(),
    };
    // `since_id` is the name before 2023-06 (clients still send it).
    let since = query.get("since_token").or_else(|| query.get("since_id"));
    let after = match since {
        None => 0,
        Some(token) => match app.live.tokens.open(token) {
            Some(t) => t,
            None => {
                return error(
                    StatusCode::BAD_REQUEST,
                    &format!("unknown since_token `{token}`"),
                )
                .into_response()
            }
        },
    };
    let follow = query.get("stream").is_none_or(|s| s != "false");
    if let Err(r) = context(&app).await {
        return r.into_response();
    }
    let slot = if follow {
        match app.streams.take(&peer(&headers)) {
            Some(slot) => Some(slot),
            None => return busy(),
        }
    } else {
        None
    };
    // The stream holds its place until it ends.
    let lines = feed_stream(app, viewer, after, follow).map(move |chunk| {
        let _held = &slot;
        chunk
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response()
}

/// The answer to a stream over the caps: 503, try again later; the
/// connection is closed (a client does not keep it to ask again).
fn busy() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "30"), (header::CONNECTION, "close")],
        "too many streams open (from this address, or in all): try again later",
    )
        .into_response()
}

/// The whole feed as the jury sees it, for a file.
pub(crate) async fn full_feed(live: &LiveContest) -> Result<String, crate::error::Error> {
    let mut out = String::new();
    let mut after = 0;
    let jury = Viewer::Account(Account::Jury);
    while let Some((text, last)) = next_lines(live, &jury, after).await? {
        out.push_str(&text);
        after = last;
    }
    Ok(out)
}

/// `GET /jury/event-feed.ndjson`: the feed so far, as a file.
pub(crate) async fn jury_feed_file(State(app): State<App>, _: Fragment<Jury>) -> Response {
    match full_feed(&app.live).await {
        Ok(text) => (
            [
                (header::CONTENT_TYPE, "application/x-ndjson"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"event-feed.ndjson\"",
                ),
            ],
            text,
        )
            .into_response(),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &crate::error::render_chain(&e),
        )
        .into_response(),
    }
}

/// Server-sent events for a page: a message whenever an event this viewer
/// may see is written or the public scoreboard changed (the jury: any
/// event, and any change of its desk: a question claimed, a balloon
/// handed out), at most a few a second. A message says only that
/// something changed: nothing in it, nor in when it comes, counts what
/// others do (a judgement hidden by the freeze sends nothing). A new
/// message for the viewer (an answer or an announcement to a team, a
/// question to the jury: see `Viewer::notified_by`) comes as the event
/// `clarification` instead, for the page's badge and notice.
async fn updates(app: App, viewer: Viewer, headers: &HeaderMap) -> Response {
    let Some(slot) = app.streams.take(&peer(headers)) else {
        return busy();
    };
    let changes = app.live.subscribe();
    let after = *changes.borrow();
    let jury = matches!(viewer, Viewer::Account(Account::Jury));
    // Only the jury's pages follow the desk (a stream that never changes
    // for the others).
    let mut desk = app.live.subscribe_desk();
    if !jury {
        desk = tokio::sync::watch::channel(0).1;
    }
    // The public board as the page was made with, to tell its changes.
    let board = match viewer {
        Viewer::Account(Account::Jury) => None,
        _ => match app.live.scoreboard(View::Public).await {
            Ok(b) => Some((b.standings.clone(), b.state)),
            Err(e) => {
                return error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    &crate::error::render_chain(&e),
                )
                .into_response()
            }
        },
    };
    let stream = stream::unfold(
        (app, viewer, after, changes, desk, board),
        move |(app, viewer, mut after, mut changes, mut desk, mut board)| async move {
            loop {
                let desk_changed = tokio::select! {
                    changed = changes.changed() => {
                        changed.ok()?;
                        false
                    }
                    changed = desk.changed(), if jury => {
                        changed.ok()?;
                        true
                    }
                };
                // Several changes close together make one message.
                tokio::time::sleep(Duration::from_millis(200)).await;
                desk.borrow_and_update();
                let latest = *changes.borrow_and_update();
                let door = viewer.door();
                let (relevant_events, last) = app
                    .live
                    .events_for(&door, after, 10_000)
                    .await
                    .ok()?
                    .unwrap_or((Vec::new(), after));
                after = latest.max(last);
                let notice = relevant_events.iter().any(|e| door.notified_by(e));
                let mut relevant = desk_changed || !relevant_events.is_empty();
                if !jury {
                    let public = app.live.scoreboard(View::Public).await.ok()?;
                    let now = Some((public.standings.clone(), public.state));
                    if board != now {
                        relevant = true;
                    }
                    board = now;
                }
                if relevant {
                    let message = if notice {
                        SseEvent::default().event("clarification").data("changed")
                    } else {
                        SseEvent::default().data("changed")
                    };
                    return Some((
                        Ok::<_, Infallible>(message),
                        (app, viewer, after, changes, desk, board),
                    ));
                }
            }
        },
    );
    // The stream holds its place until it ends.
    let stream = stream.map(move |message| {
        let _held = &slot;
        message
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(30)))
        .into_response()
}

/// `GET /updates`: for scoreboards (they say only that something changed).
pub(crate) async fn public_updates(State(app): State<App>, headers: HeaderMap) -> Response {
    updates(app, Viewer::Public, &headers).await
}

/// `GET /team/updates`: 404 to anyone but a team.
pub(crate) async fn team_updates(
    State(app): State<App>,
    Fragment(team): Fragment<Team>,
    headers: HeaderMap,
) -> Response {
    updates(app, Viewer::Account(Account::Team(team.id)), &headers).await
}

/// `GET /jury/updates`: 404 to anyone but the jury.
pub(crate) async fn jury_updates(
    State(app): State<App>,
    _: Fragment<Jury>,
    headers: HeaderMap,
) -> Response {
    updates(app, Viewer::Account(Account::Jury), &headers).await
}
