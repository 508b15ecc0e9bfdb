//! The handlers of the jury's controls: the confirmation pages (thaw,
//! finalize, ending now, rejudging a problem with what it would touch),
//! ending the contest now, its length and its freeze. They translate
//! only: the rules are the live contest's (`crate::server::controls`).

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use super::pages::{jury_form, jury_page, not_found_response, refused, ConfirmedForm, Part};
use super::state::App;
use crate::render::web::jury::{self, Confirm};
use crate::server::live::Refusal;
use crate::server::visibility::Viewer;

/// `GET /jury/confirm/{thaw|finalize|end|rejudge}[?problem=ID]`: what the
/// action will do, and the form that does it.
pub(crate) async fn jury_confirm(
    State(app): State<App>,
    headers: HeaderMap,
    Path(action): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    jury_page(&app, &headers, Part::Page, async |c| {
        let page = match action.as_str() {
            "thaw" => jury::confirm(c, &Confirm::Thaw),
            "finalize" => jury::confirm(c, &Confirm::Finalize),
            "end" => jury::confirm(c, &Confirm::End),
            "rejudge" => {
                let problem = query.get("problem").map(String::as_str).unwrap_or("");
                let (id, rows) = app
                    .live
                    .rejudge_preview(&Viewer::Jury, problem)
                    .await
                    .map_err(refused)?;
                jury::confirm(c, &Confirm::Rejudge(&id, &rows))
            }
            _ => return Err(not_found_response()),
        };
        Ok(Html(page).into_response())
    })
    .await
}

/// `POST /jury/contest/end`: from its confirmation page.
pub(crate) async fn jury_end(
    State(app): State<App>,
    headers: HeaderMap,
    Form(form): Form<ConfirmedForm>,
) -> Response {
    jury_form(&app, &headers, form.csrf.as_deref(), "/jury", async || {
        if !form.confirmed() {
            return Ok("/jury/confirm/end".into());
        }
        app.live.end_now().await?;
        Ok("/jury?done=ended".into())
    })
    .await
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
    headers: HeaderMap,
    Form(form): Form<DurationForm>,
) -> Response {
    jury_form(&app, &headers, form.csrf.as_deref(), "/jury", async || {
        let span = span_ms(&form.duration)?;
        app.live.set_duration(span).await?;
        Ok("/jury?done=the+new+length".into())
    })
    .await
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
    headers: HeaderMap,
    Form(form): Form<FreezeForm>,
) -> Response {
    jury_form(&app, &headers, form.csrf.as_deref(), "/jury", async || {
        let length = match form.freeze.trim() {
            "" | "never" | "none" => None,
            "0" => Some(0),
            text => Some(span_ms(text)?),
        };
        app.live.set_freeze(length).await?;
        Ok("/jury?done=the+new+freeze".into())
    })
    .await
}

/// A span a form gives (`5h 30m`), in ms.
fn span_ms(text: &str) -> Result<i64, Refusal> {
    crate::units::parse_duration(text)
        .map(|d| d.as_millis() as i64)
        .map_err(Refusal::Invalid)
}
