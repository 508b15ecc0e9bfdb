//! The handlers of the jury's controls: the confirmation pages (thaw,
//! finalize, ending now, rejudging a problem with what it would touch),
//! ending the contest now, its length and its freeze. They translate
//! only: the rules are the live contest's (`crate::server::controls`).

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect};
use axum::Form;
use serde::Deserialize;

use super::frame::PageError;
use super::pages::{jury_done, ConfirmedForm, Page};
use super::state::App;
use super::visitor::Jury;
use crate::render::web::jury::{self, Confirm};
use crate::server::live::Refusal;
use crate::server::visibility::Viewer;

/// `GET /jury/confirm/{thaw|finalize|end|rejudge|ignore}[?problem=ID]
/// [?submission=N&ignored=yes|no]`: what the action will do, and the form
/// that does it.
pub(crate) async fn jury_confirm(
    State(app): State<App>,
    Jury(frame): Jury,
    Path(action): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Page {
    let c = frame.chrome();
    let page = match action.as_str() {
        "thaw" => jury::confirm(&c, &Confirm::Thaw),
        "finalize" => jury::confirm(&c, &Confirm::Finalize),
        "end" => jury::confirm(&c, &Confirm::End),
        "rejudge" => {
            let problem = query.get("problem").map(String::as_str).unwrap_or("");
            let (id, rows) = app.live.rejudge_preview(&Viewer::Jury, problem).await?;
            jury::confirm(&c, &Confirm::Rejudge(&id, &rows))
        }
        "ignore" => {
            let id = query.get("submission").and_then(|s| s.parse().ok());
            let id = id.ok_or(PageError::NotFound)?;
            let detail = app.live.submission_for(&Viewer::Jury, id).await?;
            detail.ok_or(PageError::NotFound)?;
            let ignored = query.get("ignored").is_none_or(|v| v != "no");
            jury::confirm(&c, &Confirm::Ignore(id, ignored))
        }
        _ => return Err(PageError::NotFound),
    };
    Ok(Html(page).into_response())
}

/// The ignore form: confirmed, and whether to ignore or count again.
#[derive(Debug, Deserialize)]
pub(crate) struct IgnoreForm {
    csrf: Option<String>,
    confirmed: Option<String>,
    ignored: Option<String>,
}

/// `POST /jury/submissions/{id}/ignore`: from its confirmation page (else
/// it leads there).
pub(crate) async fn jury_ignore(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<IgnoreForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let ignored = form.ignored.as_deref() != Some("no");
    if form.confirmed.as_deref() != Some("yes") {
        let yes_no = if ignored { "yes" } else { "no" };
        let to = format!("/jury/confirm/ignore?submission={id}&ignored={yes_no}");
        return Ok(Redirect::to(&to).into_response());
    }
    let done = app.live.ignore(id, ignored).await;
    jury_done(
        frame,
        done.map(|()| format!("/jury/submissions/{id}")),
        "/jury/submissions",
    )
}

/// `POST /jury/contest/end`: from its confirmation page.
pub(crate) async fn jury_end(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Form(form): Form<ConfirmedForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    if !form.confirmed() {
        return Ok(Redirect::to("/jury/confirm/end").into_response());
    }
    let done = app.live.end_now().await;
    jury_done(frame, done.map(|()| "/jury?done=ended".into()), "/jury")
}

/// The length form: a span such as `5h 30m`.
#[derive(Debug, Deserialize)]
pub(crate) struct DurationForm {
    csrf: Option<String>,
    duration: String,
}

/// `POST /jury/contest/duration`: a longer or shorter contest.
pub(crate) async fn jury_duration(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Form(form): Form<DurationForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let done = match span_ms(&form.duration) {
        Ok(span) => app.live.set_duration(span).await,
        Err(refusal) => Err(refusal),
    };
    let next = done.map(|()| "/jury?done=the+new+length".into());
    jury_done(frame, next, "/jury")
}

/// The freeze form: how long before the end (empty: never).
#[derive(Debug, Deserialize)]
pub(crate) struct FreezeForm {
    csrf: Option<String>,
    freeze: String,
}

/// `POST /jury/contest/freeze`: the freeze moved, or none.
pub(crate) async fn jury_freeze(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Form(form): Form<FreezeForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let length = match form.freeze.trim() {
        "" | "never" | "none" => Ok(None),
        "0" => Ok(Some(0)),
        text => span_ms(text).map(Some),
    };
    let done = match length {
        Ok(length) => app.live.set_freeze(length).await,
        Err(refusal) => Err(refusal),
    };
    let next = done.map(|()| "/jury?done=the+new+freeze".into());
    jury_done(frame, next, "/jury")
}

/// A span a form gives (`5h 30m`), in ms.
fn span_ms(text: &str) -> Result<i64, Refusal> {
    crate::units::parse_duration(text)
        .map(|d| d.as_millis() as i64)
        .map_err(Refusal::Invalid)
}
