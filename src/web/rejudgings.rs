//! The handlers of rejudging: a whole problem's (from its confirmation
//! page) or one submission's, with a preview (`preview=yes`) or at once;
//! the rejudgings' list, one rejudging's page and its live part, and
//! applying or cancelling one. They translate only: the rules are the
//! door's (`crate::server::door`).

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect};
use axum::Form;
use serde::Deserialize;

use super::frame::PageError;
use super::pages::{jury_done, Page};
use super::state::App;
use super::visitor::{Fragment, Jury};
use crate::render::web::{self, rejudging};
use crate::server::visibility::Viewer;

/// A rejudging's id in a path.
fn rejudging_id(id: &str) -> Result<i64, PageError> {
    id.parse().map_err(|_| PageError::NotFound)
}

/// The form of a submission's rejudge.
#[derive(Debug, Deserialize)]
pub(crate) struct RejudgeOneForm {
    csrf: Option<String>,
    /// `yes`: a rejudging with a preview; else at once.
    preview: Option<String>,
}

/// `POST /jury/submissions/{id}/rejudge`: with `preview=yes`, a rejudging
/// of it with a preview (to its page); else judged again at once.
pub(crate) async fn jury_rejudge_one(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<RejudgeOneForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let back = format!("/jury/submissions/{id}");
    let done = if form.preview.as_deref() == Some("yes") {
        app.live
            .start_rejudging_as(&Viewer::Jury, None, Some(id))
            .await
            .map(|r| format!("/jury/rejudgings/{r}"))
    } else {
        app.live
            .rejudge_now(&Viewer::Jury, id)
            .await
            .map(|()| back.clone())
    };
    jury_done(frame, done, &back)
}

/// The form of a whole problem's rejudging.
#[derive(Debug, Deserialize)]
pub(crate) struct RejudgeForm {
    csrf: Option<String>,
    problem: String,
    confirmed: Option<String>,
}

/// `POST /jury/rejudge`: every submission of a problem, with a preview,
/// from its confirmation page (else it leads there); then to the
/// rejudging's page.
pub(crate) async fn jury_rejudge_problem(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Form(form): Form<RejudgeForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    if form.confirmed.as_deref() != Some("yes") {
        let to = format!(
            "/jury/confirm/rejudge?problem={}",
            web::query_value(&form.problem)
        );
        return Ok(Redirect::to(&to).into_response());
    }
    let done = app
        .live
        .start_rejudging_as(&Viewer::Jury, Some(&form.problem), None)
        .await
        .map(|r| format!("/jury/rejudgings/{r}"));
    jury_done(frame, done, "/jury")
}

/// `GET /jury/rejudgings`.
pub(crate) async fn jury_rejudgings(State(app): State<App>, Jury(frame): Jury) -> Page {
    let views = app.live.rejudgings_for(&Viewer::Jury).await?;
    Ok(Html(rejudging::rejudgings(&frame.chrome(), &views)).into_response())
}

/// `GET /jury/rejudgings/{id}`.
pub(crate) async fn jury_rejudging(
    State(app): State<App>,
    Jury(frame): Jury,
    Path(id): Path<String>,
) -> Page {
    let view = app
        .live
        .rejudging_for(&Viewer::Jury, rejudging_id(&id)?)
        .await?;
    Ok(Html(rejudging::rejudging(&frame.chrome(), &view)).into_response())
}

/// `GET /jury/fragment/rejudgings/{id}`: the part that changes as the
/// judges finish.
pub(crate) async fn jury_rejudging_fragment(
    State(app): State<App>,
    Fragment(Jury(frame)): Fragment<Jury>,
    Path(id): Path<String>,
) -> Page {
    let view = app
        .live
        .rejudging_for(&Viewer::Jury, rejudging_id(&id)?)
        .await?;
    Ok(Html(rejudging::rejudging_part(&frame.chrome(), &view).into_string()).into_response())
}

/// The apply or cancel form.
#[derive(Debug, Deserialize)]
pub(crate) struct DecideForm {
    csrf: Option<String>,
}

/// `POST /jury/rejudgings/{id}/{apply|cancel}`.
pub(crate) async fn jury_decide(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    Form(form): Form<DecideForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let id = rejudging_id(&id)?;
    let apply = match action.as_str() {
        "apply" => true,
        "cancel" => false,
        _ => return Err(PageError::NotFound),
    };
    let page = format!("/jury/rejudgings/{id}");
    let done = app
        .live
        .decide_rejudging(&Viewer::Jury, id, apply)
        .await
        .map(|_| page.clone());
    jury_done(frame, done, &page)
}
