//! The handlers of the jury's desk and the teams' notices: the menu's
//! clarification badge (a team's unread messages, the jury's unanswered
//! questions), the jury's clarifications with claims, the balloons. They translate only:
//! who sees what is asked of the live contest (`crate::server::door`).

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use super::auth::Session;
use super::pages::{
    chrome, finish, jury_form, jury_page, jury_session, not_found_response, refused, server_error,
    team_page, NotDone, Part, TokenForm,
};
use super::state::App;
use crate::render::web::{self, jury, Who};
use crate::server::visibility::Viewer;

/// The tag of a judge's session on the desk (a claim's holder): judges
/// share the jury's login, their browsers' sessions tell them apart.
pub(super) fn holder(session: &Session) -> String {
    session.token_hash.chars().take(16).collect()
}

/// `GET /team/fragment/badge`: the team's unread messages, for the menu.
pub(crate) async fn team_badge(State(app): State<App>, headers: HeaderMap) -> Response {
    team_page(&app, &headers, Part::Fragment, async |c, _| {
        Ok(Html(web::badge(&c.who, c.badge).into_string()).into_response())
    })
    .await
}

/// `GET /jury/fragment/badge`: the questions not answered, for the menu.
pub(crate) async fn jury_badge(State(app): State<App>, headers: HeaderMap) -> Response {
    match jury_session(&app, &headers).await {
        Ok(_) => match app.live.clarification_badge(&Viewer::Jury).await {
            Ok(n) => Html(web::badge(&Who::Jury, n).into_string()).into_response(),
            Err(e) => server_error(e),
        },
        Err(_) => not_found_response(),
    }
}

/// `GET /jury/clarifications`.
pub(crate) async fn jury_clarifications(State(app): State<App>, headers: HeaderMap) -> Response {
    jury_desk(&app, &headers, Part::Page).await
}

/// `GET /jury/fragment/clarifications`.
pub(crate) async fn jury_clarifications_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    jury_desk(&app, &headers, Part::Fragment).await
}

/// The jury's messages as the judge looking sees them: the page, or the
/// list it refreshes.
async fn jury_desk(app: &App, headers: &HeaderMap, part: Part) -> Response {
    let page = async {
        let s = jury_session(app, headers)
            .await
            .map_err(|r| part.refused(r))?;
        let c = chrome(app, Some(&s)).await?;
        let desk = app
            .live
            .clarification_desk(&Viewer::Jury, &holder(&s))
            .await
            .map_err(refused)?;
        Ok(match part {
            Part::Page => Html(jury::clarifications(&c, &desk)),
            Part::Fragment => Html(jury::clarification_desk(&c, &desk).into_string()),
        }
        .into_response())
    };
    finish(page.await)
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
    headers: HeaderMap,
    Form(form): Form<AnswerForm>,
) -> Response {
    let holder = match jury_session(&app, &headers).await {
        Ok(s) => holder(&s),
        Err(r) => return r,
    };
    let back = "/jury/clarifications";
    jury_form(&app, &headers, form.csrf.as_deref(), back, async || {
        let to_team = form.team.as_deref().filter(|_| form.everyone.is_none());
        app.live
            .answer_as(
                &Viewer::Jury,
                &holder,
                form.reply_to,
                to_team,
                form.problem.as_deref(),
                &form.text,
            )
            .await?;
        Ok(back.to_string())
    })
    .await
}

/// `POST /jury/clarifications/{id}/{claim|release}`.
pub(crate) async fn jury_claim(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    Form(form): Form<TokenForm>,
) -> Response {
    let holder = match jury_session(&app, &headers).await {
        Ok(s) => holder(&s),
        Err(r) => return r,
    };
    let back = "/jury/clarifications";
    jury_form(&app, &headers, form.csrf.as_deref(), back, async || {
        let id: i64 = id
            .parse()
            .map_err(|_| NotDone::Answer(not_found_response()))?;
        match action.as_str() {
            "claim" => {
                app.live
                    .claim_clarification(&Viewer::Jury, id, &holder)
                    .await?
            }
            "release" => app.live.release_clarification(&Viewer::Jury, id).await?,
            _ => return Err(NotDone::Answer(not_found_response())),
        }
        Ok(back.to_string())
    })
    .await
}

/// `GET /jury/balloons`.
pub(crate) async fn jury_balloons(State(app): State<App>, headers: HeaderMap) -> Response {
    jury_balloons_part(&app, &headers, Part::Page).await
}

/// `GET /jury/fragment/balloons`.
pub(crate) async fn jury_balloons_fragment(State(app): State<App>, headers: HeaderMap) -> Response {
    jury_balloons_part(&app, &headers, Part::Fragment).await
}

/// The balloons: their page, or their list.
async fn jury_balloons_part(app: &App, headers: &HeaderMap, part: Part) -> Response {
    jury_page(app, headers, part, async |c| {
        let list = app
            .live
            .balloons_for(&Viewer::Jury)
            .await
            .map_err(refused)?;
        Ok(match part {
            Part::Page => Html(jury::balloons(c, &list)),
            Part::Fragment => Html(jury::balloons_list(c, &list).into_string()),
        }
        .into_response())
    })
    .await
}

/// `POST /jury/balloons/{submission}/{done|undone}`.
pub(crate) async fn jury_balloon_mark(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    Form(form): Form<TokenForm>,
) -> Response {
    let back = "/jury/balloons";
    jury_form(&app, &headers, form.csrf.as_deref(), back, async || {
        let id: i64 = id
            .parse()
            .map_err(|_| NotDone::Answer(not_found_response()))?;
        let done = match action.as_str() {
            "done" => true,
            "undone" => false,
            _ => return Err(NotDone::Answer(not_found_response())),
        };
        app.live.mark_balloon(&Viewer::Jury, id, done).await?;
        Ok(back.to_string())
    })
    .await
}
