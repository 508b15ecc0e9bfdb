//! The HTTP application: the routes of the pages, the Contest API and the
//! feeds, the limits every request meets (body size), and the headers every
//! response carries (no framing, no sniffing, scripts only from this server).
//! The main function is [`router`].

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use super::state::App;
use super::{api, archive, controls, desk, feed, pages, printing, rejudgings};
use crate::render::web::assets;

/// The server's routes.
pub(crate) fn router(app: App) -> Router {
    // A submission as JSON carries its zip in base64 (4/3 of it), with
    // room for the rest of the request; a print job, a file and pasted text.
    let printing = &app.live.config.printing;
    let print_limit = if printing.enabled {
        printing.max_size as usize * 2
    } else {
        0
    };
    let body_limit = (app.live.limits.max_source as usize * 2).max(print_limit) + (256 << 10);
    let api = Router::new()
        .route("/", get(api::info))
        .route("/contests", get(api::contests))
        .route(
            "/contests/{cid}",
            get(api::contest).patch(api::patch_contest),
        )
        .route("/contests/{cid}/access", get(api::access))
        .route("/contests/{cid}/state", get(api::state))
        .route("/contests/{cid}/scoreboard", get(api::scoreboard))
        .route("/contests/{cid}/event-feed", get(feed::event_feed))
        .route(
            "/contests/{cid}/submissions",
            get(api::submissions).post(api::post_submission),
        )
        .route(
            "/contests/{cid}/submissions/{id}/files",
            get(api::submission_files),
        )
        .route(
            "/contests/{cid}/clarifications",
            get(api::clarifications).post(api::post_clarification),
        )
        .route("/contests/{cid}/archive", get(archive::api_archive))
        .route("/contests/{cid}/{collection}", get(api::collection))
        .route("/contests/{cid}/{collection}/{id}", get(api::object))
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            refuse_wrong_credentials,
        ))
        .layer(axum::middleware::from_fn(refuse_cross_site_changes));
    Router::new()
        .route("/", get(pages::root))
        .route("/login", get(pages::login_page).post(pages::login))
        .route("/logout", post(pages::logout))
        .route("/clock", get(pages::clock))
        .route(
            "/static/style.css",
            get(|| async { static_file("text/css", assets::STYLE) }),
        )
        .route(
            "/static/live.js",
            get(|| async { static_file("text/javascript", assets::SCRIPT) }),
        )
        .route("/scoreboard", get(pages::public_scoreboard))
        .route(
            "/scoreboard/fragment",
            get(pages::public_scoreboard_fragment),
        )
        .route("/updates", get(feed::public_updates))
        .route("/team", get(pages::team_home))
        .route("/team/submit", post(pages::team_submit))
        .route("/team/problems/{id}", get(pages::team_problem))
        .route(
            "/team/problems/{id}/statement.pdf",
            get(pages::team_statement_pdf),
        )
        .route(
            "/team/problems/{id}/samples/{file}",
            get(pages::team_sample),
        )
        .route("/team/submissions/{id}", get(pages::team_submission))
        .route(
            "/team/submission/{id}",
            get(pages::team_submission_domjudge),
        )
        .route(
            "/team/clarifications",
            get(pages::team_clarifications).post(pages::team_ask),
        )
        .route("/team/scoreboard", get(pages::team_scoreboard))
        .route(
            "/team/fragment/submissions",
            get(pages::team_submissions_fragment),
        )
        .route(
            "/team/fragment/clarifications",
            get(pages::team_clarifications_fragment),
        )
        .route(
            "/team/fragment/scoreboard",
            get(pages::team_scoreboard_fragment),
        )
        .route("/team/updates", get(feed::team_updates))
        .route("/jury", get(pages::jury_home))
        .route("/jury/clock/{action}", post(pages::jury_clock))
        .route("/jury/submissions", get(pages::jury_submissions))
        .route("/jury/submissions/{id}", get(pages::jury_submission))
        .route(
            "/jury/submissions/{id}/rejudge",
            post(rejudgings::jury_rejudge_one),
        )
        .route("/jury/rejudge", post(rejudgings::jury_rejudge_problem))
        .route("/jury/rejudgings", get(rejudgings::jury_rejudgings))
        .route("/jury/rejudgings/{id}", get(rejudgings::jury_rejudging))
        .route(
            "/jury/rejudgings/{id}/{action}",
            post(rejudgings::jury_decide),
        )
        .route(
            "/jury/fragment/rejudgings/{id}",
            get(rejudgings::jury_rejudging_fragment),
        )
        .route("/jury/submissions/{id}/ignore", post(controls::jury_ignore))
        .route("/jury/confirm/{action}", get(controls::jury_confirm))
        .route("/jury/contest/end", post(controls::jury_end))
        .route("/jury/contest/duration", post(controls::jury_duration))
        .route("/jury/contest/freeze", post(controls::jury_freeze))
        .route(
            "/jury/clarifications",
            get(desk::jury_clarifications).post(desk::jury_answer),
        )
        .route("/jury/clarifications/{id}/{action}", post(desk::jury_claim))
        .route(
            "/jury/fragment/clarifications",
            get(desk::jury_clarifications_fragment),
        )
        .route("/jury/fragment/badge", get(desk::jury_badge))
        .route("/jury/balloons", get(desk::jury_balloons))
        .route("/jury/fragment/balloons", get(desk::jury_balloons_fragment))
        .route(
            "/jury/balloons/{id}/{action}",
            post(desk::jury_balloon_mark),
        )
        .route("/team/fragment/badge", get(desk::team_badge))
        .route(
            "/team/print",
            get(printing::team_print).post(printing::team_send),
        )
        .route("/team/print/{id}", get(printing::team_job))
        .route("/jury/print", get(printing::jury_queue))
        .route("/jury/fragment/print", get(printing::jury_queue_fragment))
        .route(
            "/jury/fragment/print-badge",
            get(printing::jury_print_badge),
        )
        .route("/jury/print/{id}", get(printing::jury_job))
        .route("/jury/print/{id}/{action}", post(printing::jury_mark))
        .route("/jury/scoreboard", get(pages::jury_scoreboard))
        .route(
            "/jury/fragment/submissions",
            get(pages::jury_submissions_fragment),
        )
        .route(
            "/jury/fragment/scoreboard",
            get(pages::jury_scoreboard_fragment),
        )
        .route("/jury/updates", get(feed::jury_updates))
        .route("/jury/event-feed.ndjson", get(feed::jury_feed_file))
        .route("/jury/archive.zip", get(archive::jury_archive))
        // The API's base as clients write it, with or without the slash.
        .route("/api/", get(api::info))
        .nest("/api", api)
        .fallback(pages::not_found)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn(move |request, next| {
            refuse_announced_excess(request, next, body_limit)
        }))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(app)
}

/// Wrong credentials are 401 on every API endpoint, the public ones too: a
/// client with a mistyped password learns it at its first request instead
/// of being shown the public view.
async fn refuse_wrong_credentials(
    axum::extract::State(app): axum::extract::State<App>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if let Err(refused) = api::viewer(&app, request.headers()).await {
        return refused.into_response();
    }
    next.run(request).await
}

/// A request that changes something (not GET or HEAD) sent by a page of
/// another site is refused before its credentials are even read: a
/// browser attaches a jury's remembered basic credentials to a
/// cross-site `text/plain` POST, which needs no preflight. The API
/// sends no CORS header, so no other site reads its answers either.
async fn refuse_cross_site_changes(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let reads = matches!(
        *request.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    );
    let cross_site = request
        .headers()
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes() == b"cross-site" || v.as_bytes() == b"same-site");
    if !reads && (cross_site || !super::frame::same_origin(request.headers())) {
        return (
            StatusCode::FORBIDDEN,
            axum::Json(crate::render::ccs::error(
                403,
                "a request from a page of another site is refused",
            )),
        )
            .into_response();
    }
    next.run(request).await
}

/// How long a request's body may take to arrive, once its head has.
const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// A request that announces a body over the limit is answered 413 at once,
/// before anything of the body is read or waited for; any other body is
/// read here, in at most [`BODY_TIMEOUT`] (a client that sends it a byte at
/// a time gets 408 instead of holding its connection for ever).
async fn refuse_announced_excess(
    request: axum::extract::Request,
    next: axum::middleware::Next,
    limit: usize,
) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        return closing(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the request's body is over {limit} bytes"),
        );
    }
    let (parts, body) = request.into_parts();
    let read = http_body_util::BodyExt::collect(http_body_util::Limited::new(body, limit));
    let body = match tokio::time::timeout(BODY_TIMEOUT, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) => {
            let (status, message) = if e.is::<http_body_util::LengthLimitError>() {
                (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request's body is over {limit} bytes"),
                )
            } else {
                (
                    StatusCode::BAD_REQUEST,
                    format!("the request's body could not be read: {e}"),
                )
            };
            return closing(status, &message);
        }
        Err(_) => {
            return closing(
                StatusCode::REQUEST_TIMEOUT,
                &format!(
                    "the request's body did not arrive within {} s",
                    BODY_TIMEOUT.as_secs()
                ),
            )
        }
    };
    next.run(axum::extract::Request::from_parts(parts, body.into()))
        .await
}

/// An error answer that ends the connection (what is left of the request
/// is not read).
fn closing(status: StatusCode, message: &str) -> Response {
    let mut response = (
        status,
        axum::Json(crate::render::ccs::error(status.as_u16(), message)),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

fn static_file(mime: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name, value: &'static str| {
        h.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::X_FRAME_OPTIONS, "DENY");
    set(headers, header::REFERRER_POLICY, "same-origin");
    set(
        headers,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; \
         frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    );
    response
}
