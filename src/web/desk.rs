//! The handlers of the jury's desk and the teams' notices: the menu's
//! clarification badge (a team's unread messages, the jury's unanswered
//! questions), the jury's clarifications with claims, the balloons. They translate only:
//! who sees what is asked of the live contest (`crate::server::door`).

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse};
use axum::Form;
use serde::Deserialize;

use super::auth::Session;
use super::frame::{Frame, PageError};
use super::pages::{jury_done, Page, TokenForm};
use super::state::App;
use super::visitor::{Fragment, Jury, Team};
use crate::render::web::{self, jury};
use crate::server::visibility::Viewer;

/// The tag of a judge's session on the desk (a claim's holder): judges
/// share the jury's login, their browsers' sessions tell them apart.
pub(super) fn holder(session: &Session) -> String {
    session.token_hash.chars().take(16).collect()
}

/// The holder of the frame's session (the jury's frames have one).
fn holder_of(frame: &Frame) -> Result<String, PageError> {
    frame.session.as_ref().map(holder).ok_or(PageError::LogIn)
}

/// `GET /team/fragment/badge`: the team's unread messages, for the menu.
pub(crate) async fn team_badge(Fragment(t): Fragment<Team>) -> Page {
    let c = t.frame.chrome();
    Ok(Html(web::badge(&c.who, c.badge).into_string()).into_response())
}

/// `GET /jury/fragment/badge`: the questions not answered, for the menu.
pub(crate) async fn jury_badge(Fragment(Jury(frame)): Fragment<Jury>) -> Page {
    let c = frame.chrome();
    Ok(Html(web::badge(&c.who, c.badge).into_string()).into_response())
}

/// `GET /jury/clarifications`.
pub(crate) async fn jury_clarifications(State(app): State<App>, Jury(frame): Jury) -> Page {
    let desk = app
        .live
        .clarification_desk(&Viewer::Jury, &holder_of(&frame)?)
        .await?;
    Ok(Html(jury::clarifications(&frame.chrome(), &desk)).into_response())
}

/// `GET /jury/fragment/clarifications`.
pub(crate) async fn jury_clarifications_fragment(
    State(app): State<App>,
    Fragment(Jury(frame)): Fragment<Jury>,
) -> Page {
    let desk = app
        .live
        .clarification_desk(&Viewer::Jury, &holder_of(&frame)?)
        .await?;
    Ok(Html(jury::clarification_desk(&frame.chrome(), &desk).into_string()).into_response())
}

/// The answer (or announcement) form.
#[derive(Debug, Deserialize)]
pub(crate) struct AnswerForm {
    csrf: Option<String>,
    reply_to: Option<i64>,
    team: Option<String>,
    everyone: Option<String>,
    problem: Option<String>,
    text: String,
}

/// `POST /jury/clarifications`: an answer (refused for a question another
/// judge claimed) or an announcement.
pub(crate) async fn jury_answer(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Form(form): Form<AnswerForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let holder = holder_of(&frame)?;
    let back = "/jury/clarifications";
    let to_team = form.team.as_deref().filter(|_| form.everyone.is_none());
    let done = app
        .live
        .answer_as(
            &Viewer::Jury,
            &holder,
            form.reply_to,
            to_team,
            form.problem.as_deref(),
            &form.text,
        )
        .await;
    jury_done(frame, done.map(|_| back.to_string()), back)
}

/// `POST /jury/clarifications/{id}/{claim|release}`.
pub(crate) async fn jury_claim(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    Form(form): Form<TokenForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let holder = holder_of(&frame)?;
    let back = "/jury/clarifications";
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let done = match action.as_str() {
        "claim" => {
            app.live
                .claim_clarification(&Viewer::Jury, id, &holder)
                .await
        }
        "release" => app.live.release_clarification(&Viewer::Jury, id).await,
        _ => return Err(PageError::NotFound),
    };
    jury_done(frame, done.map(|_| back.to_string()), back)
}

/// `GET /jury/balloons`.
pub(crate) async fn jury_balloons(State(app): State<App>, Jury(frame): Jury) -> Page {
    let list = app.live.balloons_for(&Viewer::Jury).await?;
    Ok(Html(jury::balloons(&frame.chrome(), &list)).into_response())
}

/// `GET /jury/fragment/balloons`.
pub(crate) async fn jury_balloons_fragment(
    State(app): State<App>,
    Fragment(Jury(frame)): Fragment<Jury>,
) -> Page {
    let list = app.live.balloons_for(&Viewer::Jury).await?;
    Ok(Html(jury::balloons_list(&frame.chrome(), &list).into_string()).into_response())
}

/// `POST /jury/balloons/{submission}/{done|undone}`.
pub(crate) async fn jury_balloon_mark(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    Form(form): Form<TokenForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let back = "/jury/balloons";
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let done = match action.as_str() {
        "done" => true,
        "undone" => false,
        _ => return Err(PageError::NotFound),
    };
    let marked = app.live.mark_balloon(&Viewer::Jury, id, done).await;
    jury_done(frame, marked.map(|_| back.to_string()), back)
}
