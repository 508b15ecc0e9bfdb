//! The web pages' handlers: who is looking (a session; a team reaches only
//! its own pages and data, 404 for anything else; the jury's pages need
//! the jury's login), the forms that change something (each carries the
//! session's form token, and a cross-site `Origin` is refused), and the
//! calls to the live contest. The HTML is made by `crate::render::web`.

#![expect(
    clippy::result_large_err,
    reason = "handlers answer with axum's Response, early returns included"
)]

use axum::extract::{Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

use super::app::{message_of, status_of, App};
use super::auth::{self, csrf_ok, session, Account, Denied, Session};
use crate::contest::clock::now_ms;
use crate::render::web::{self, board, jury, team, Chrome, Who};
use crate::server::live::{Refusal, Statement, SubmissionRow, View};

type PageResult = Result<Response, Response>;

fn finish(result: PageResult) -> Response {
    result.unwrap_or_else(|r| r)
}

fn who_of(session: Option<&Session>) -> Who {
    match session.map(|s| &s.account) {
        Some(Account::Team(t)) => Who::Team(t.clone()),
        Some(Account::Jury) => Who::Jury,
        None => Who::Anonymous,
    }
}

async fn chrome<'a>(app: &'a App, session: Option<&'a Session>) -> Result<Chrome<'a>, Response> {
    let state = app.live.state().await.map_err(server_error)?;
    let start = app.live.start().await.map_err(server_error)?;
    Ok(Chrome {
        config: &app.live.config,
        who: who_of(session),
        csrf: session.map(|s| s.csrf.as_str()),
        state,
        start,
        now: now_ms(),
    })
}

fn server_error(e: crate::error::Error) -> Response {
    let refusal = Refusal::Failed(e);
    (status_of(&refusal), message_of(&refusal)).into_response()
}

async fn refused_page(
    app: &App,
    session: Option<&Session>,
    refusal: Refusal,
    back: &str,
) -> Response {
    let status = status_of(&refusal);
    let text = message_of(&refusal);
    match chrome(app, session).await {
        Ok(c) => (status, Html(web::message(&c, "Not done", &text, back))).into_response(),
        Err(r) => r,
    }
}

fn not_found_response() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

/// Any other path.
pub(crate) async fn not_found() -> Response {
    not_found_response()
}

/// A team's session, or a redirect to the login page.
async fn team_session(app: &App, headers: &HeaderMap) -> Result<(Session, String), Response> {
    match session(app, headers).await {
        Some(s) => match s.account.clone() {
            Account::Team(t) => Ok((s, t)),
            Account::Jury => Err(Redirect::to("/jury").into_response()),
        },
        None => Err(Redirect::to("/login").into_response()),
    }
}

/// The jury's session, or 404 for anyone else (the jury's pages are not
/// announced), or the login page when not logged in.
async fn jury_session(app: &App, headers: &HeaderMap) -> Result<Session, Response> {
    match session(app, headers).await {
        Some(s) if s.account == Account::Jury => Ok(s),
        Some(_) => Err(not_found_response()),
        None => Err(Redirect::to("/login").into_response()),
    }
}

/// Refuses a form posted from another site (its `Origin` is not ours).
fn same_origin(headers: &HeaderMap) -> Result<(), Response> {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return Ok(());
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin.split_once("://").map(|(_, h)| h).unwrap_or(origin);
    if origin_host == host {
        Ok(())
    } else {
        Err((StatusCode::FORBIDDEN, "a form from another site is refused").into_response())
    }
}

fn check_form(session: &Session, headers: &HeaderMap, csrf: Option<&str>) -> Result<(), Response> {
    same_origin(headers)?;
    if csrf_ok(session, csrf) {
        Ok(())
    } else {
        Err((
            StatusCode::FORBIDDEN,
            "the form's token is missing or stale: reload the page and try again",
        )
            .into_response())
    }
}

/// `GET /`.
pub(crate) async fn root(State(app): State<App>, headers: HeaderMap) -> Response {
    match session(&app, &headers).await.map(|s| s.account) {
        Some(Account::Team(_)) => Redirect::to("/team").into_response(),
        Some(Account::Jury) => Redirect::to("/jury").into_response(),
        None => Redirect::to("/login").into_response(),
    }
}

/// `GET /login`.
pub(crate) async fn login_page(State(app): State<App>, headers: HeaderMap) -> Response {
    if session(&app, &headers).await.is_some() {
        return Redirect::to("/").into_response();
    }
    match chrome(&app, None).await {
        Ok(c) => Html(web::login(&c, None)).into_response(),
        Err(r) => r,
    }
}

/// The login form.
#[derive(Debug, Deserialize)]
pub(crate) struct LoginForm {
    login: String,
    password: String,
}

/// `POST /login`.
pub(crate) async fn login(
    State(app): State<App>,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Response {
    if let Err(r) = same_origin(&headers) {
        return r;
    }
    let denied = match auth::check(&app, form.login.trim(), &form.password).await {
        Ok(account) => {
            return match auth::start_session(&app, &account).await {
                Ok(cookie) => {
                    let mut r = Redirect::to("/").into_response();
                    r.headers_mut().insert(
                        header::SET_COOKIE,
                        cookie.parse().expect("a valid header value"),
                    );
                    r
                }
                Err(e) => server_error(e),
            };
        }
        Err(d) => d,
    };
    let (status, text) = match denied {
        Denied::Wrong => (StatusCode::UNAUTHORIZED, "Wrong login or password."),
        Denied::TooMany => (
            StatusCode::TOO_MANY_REQUESTS,
            "Too many failed logins for this name: wait a few minutes.",
        ),
    };
    match chrome(&app, None).await {
        Ok(c) => (status, Html(web::login(&c, Some(text)))).into_response(),
        Err(r) => r,
    }
}

/// A form with only its token.
#[derive(Debug, Deserialize)]
pub(crate) struct TokenForm {
    csrf: Option<String>,
}

/// `POST /logout`.
pub(crate) async fn logout(
    State(app): State<App>,
    headers: HeaderMap,
    Form(form): Form<TokenForm>,
) -> Response {
    if let Some(s) = session(&app, &headers).await {
        if let Err(r) = check_form(&s, &headers, form.csrf.as_deref()) {
            return r;
        }
        if let Err(e) = app.live.store.end_session(&s.token_hash).await {
            return server_error(e);
        }
    }
    let mut r = Redirect::to("/login").into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        auth::end_cookie().parse().expect("a valid header value"),
    );
    r
}

/// `GET /clock`: the clock line, for pages to refresh.
pub(crate) async fn clock(State(app): State<App>) -> Response {
    match chrome(&app, None).await {
        Ok(c) => c.clock_line().into_response(),
        Err(r) => r,
    }
}

/// `GET /scoreboard`: the public (projector) scoreboard.
pub(crate) async fn public_scoreboard(State(app): State<App>, headers: HeaderMap) -> Response {
    let s = session(&app, &headers).await;
    finish(
        async {
            let c = chrome(&app, s.as_ref()).await?;
            let b = app
                .live
                .scoreboard(View::Public)
                .await
                .map_err(server_error)?;
            Ok(Html(board::page(&c, &b, "/scoreboard/fragment", "/updates")).into_response())
        }
        .await,
    )
}

/// `GET /scoreboard/fragment`.
pub(crate) async fn public_scoreboard_fragment(State(app): State<App>) -> Response {
    match app.live.scoreboard(View::Public).await {
        Ok(b) => {
            let bytes = app.rendered("table-public", &b, || {
                board::table(&app.live.config, &b).into_string()
            });
            ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], bytes).into_response()
        }
        Err(e) => server_error(e),
    }
}

/// The notice on the team's page after a submission.
#[derive(Debug, Deserialize)]
pub(crate) struct Notice {
    submitted: Option<i64>,
}

/// `GET /team`.
pub(crate) async fn team_home(
    State(app): State<App>,
    headers: HeaderMap,
    Query(notice): Query<Notice>,
) -> Response {
    finish(
        async {
            let (s, team) = team_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let rows = app
                .live
                .submission_rows(Some(&team))
                .await
                .map_err(server_error)?;
            let notice = notice
                .submitted
                .map(|id| format!("Submission {id} received; its verdict appears below."));
            Ok(Html(team::home(&c, &rows, notice.as_deref())).into_response())
        }
        .await,
    )
}

/// `GET /team/fragment/submissions`.
pub(crate) async fn team_submissions_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    finish(
        async {
            let (s, team) = team_session(&app, &headers)
                .await
                .map_err(|_| not_found_response())?;
            let c = chrome(&app, Some(&s)).await?;
            let rows = app
                .live
                .submission_rows(Some(&team))
                .await
                .map_err(server_error)?;
            Ok(Html(team::submissions_table(&c, &rows).into_string()).into_response())
        }
        .await,
    )
}

/// `POST /team/submit`: the submit form (a file upload).
pub(crate) async fn team_submit(
    State(app): State<App>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    let result = async {
        let (s, team) = team_session(&app, &headers).await?;
        let (mut csrf, mut problem, mut language, mut file) = (None, None, None, None);
        let limit = app.live.limits.max_source as usize;
        loop {
            let field = match form.next_field().await {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    let refusal = Refusal::Invalid(format!("the form could not be read: {e}"));
                    return Err(refused_page(&app, Some(&s), refusal, "/team").await);
                }
            };
            let name = field.name().unwrap_or("").to_string();
            if name == "file" {
                let filename = field.file_name().unwrap_or("").to_string();
                let filename = filename
                    .rsplit(['/', '\\'])
                    .next()
                    .unwrap_or("")
                    .to_string();
                match field.bytes().await {
                    Ok(b) if b.len() <= limit => file = Some((filename, b.to_vec())),
                    Ok(b) => {
                        let refusal = Refusal::TooLarge(format!(
                            "`{filename}` has {} bytes; at most {limit} are accepted",
                            b.len()
                        ));
                        return Err(refused_page(&app, Some(&s), refusal, "/team").await);
                    }
                    Err(e) => {
                        let refusal = Refusal::TooLarge(format!("the file could not be read: {e}"));
                        return Err(refused_page(&app, Some(&s), refusal, "/team").await);
                    }
                }
            } else {
                let text = field.text().await.unwrap_or_default();
                match name.as_str() {
                    "csrf" => csrf = Some(text),
                    "problem" => problem = Some(text),
                    "language" => language = Some(text),
                    _ => {}
                }
            }
        }
        check_form(&s, &headers, csrf.as_deref())?;
        let (Some(problem), Some((filename, source))) = (problem, file) else {
            let refusal = Refusal::Invalid("choose a problem and a file".into());
            return Err(refused_page(&app, Some(&s), refusal, "/team").await);
        };
        match app
            .live
            .submit(
                &team,
                &problem,
                language.as_deref(),
                &filename,
                None,
                source,
            )
            .await
        {
            Ok(record) => {
                Ok(Redirect::to(&format!("/team?submitted={}", record.id)).into_response())
            }
            Err(refusal) => Err(refused_page(&app, Some(&s), refusal, "/team").await),
        }
    };
    finish(result.await)
}

/// `GET /team/problems/{id}`: only once the contest has started.
pub(crate) async fn team_problem(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    finish(
        async {
            let (s, _) = team_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let page = app.live.pages.get(&id).ok_or_else(not_found_response)?;
            if c.state.started.is_none() {
                return Err(not_found_response());
            }
            Ok(Html(team::problem(&c, &id, page)).into_response())
        }
        .await,
    )
}

/// `GET /team/problems/{id}/statement.pdf`.
pub(crate) async fn team_statement_pdf(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    finish(
        async {
            let (s, _) = team_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let page = app.live.pages.get(&id).ok_or_else(not_found_response)?;
            match (&page.statement, c.state.started) {
                (Statement::Pdf(bytes), Some(_)) => Ok((
                    [(header::CONTENT_TYPE, "application/pdf")],
                    bytes.clone(),
                )
                    .into_response()),
                _ => Err(not_found_response()),
            }
        }
        .await,
    )
}

/// `GET /team/problems/{id}/samples/{name}.in|.ans`.
pub(crate) async fn team_sample(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    finish(
        async {
            let (s, _) = team_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            if c.state.started.is_none() {
                return Err(not_found_response());
            }
            let page = app.live.pages.get(&id).ok_or_else(not_found_response)?;
            let (name, ext) = file.rsplit_once('.').ok_or_else(not_found_response)?;
            let sample = page
                .samples
                .iter()
                .find(|s| s.name == name)
                .ok_or_else(not_found_response)?;
            let bytes = match ext {
                "in" => sample.input.clone(),
                "ans" => sample.answer.clone(),
                _ => return Err(not_found_response()),
            };
            Ok((
                [
                    (
                        header::CONTENT_TYPE,
                        "text/plain; charset=utf-8".to_string(),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"{id}-{file}\""),
                    ),
                ],
                bytes,
            )
                .into_response())
        }
        .await,
    )
}

async fn row_of(app: &App, id: i64) -> Result<Option<SubmissionRow>, Response> {
    let Some(submission) = app.live.store.submission(id).await.map_err(server_error)? else {
        return Ok(None);
    };
    let judgement = app
        .live
        .store
        .judgements(Some(id))
        .await
        .map_err(server_error)?
        .pop();
    Ok(Some(SubmissionRow {
        submission,
        judgement,
    }))
}

/// `GET /team/submissions/{id}`: the team's own only (404 for others').
pub(crate) async fn team_submission(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    finish(
        async {
            let (s, team) = team_session(&app, &headers).await?;
            let id: i64 = id.parse().map_err(|_| not_found_response())?;
            let row = row_of(&app, id)
                .await?
                .filter(|r| r.submission.team == team)
                .ok_or_else(not_found_response)?;
            let report = match &row.judgement {
                Some(j) => app
                    .live
                    .store
                    .judgement(j.id)
                    .await
                    .map_err(server_error)?
                    .and_then(|(_, r)| r),
                None => None,
            };
            let c = chrome(&app, Some(&s)).await?;
            let page = app.live.pages.get(&row.submission.problem);
            Ok(Html(team::submission(&c, &row, report.as_ref(), page)).into_response())
        }
        .await,
    )
}

/// `GET /team/submission/{id}`: where DOMjudge's submit client says to look.
pub(crate) async fn team_submission_domjudge(Path(id): Path<String>) -> Response {
    // Only a number goes into the `Location` header (a decoded `%0A` in
    // it would be no header value at all).
    match id.trim_start_matches('s').parse::<u64>() {
        Ok(n) => Redirect::to(&format!("/team/submissions/{n}")).into_response(),
        Err(_) => not_found_response(),
    }
}

/// `GET /team/clarifications`.
pub(crate) async fn team_clarifications(State(app): State<App>, headers: HeaderMap) -> Response {
    finish(
        async {
            let (s, team) = team_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let list = app
                .live
                .clarifications(Some(&team))
                .await
                .map_err(server_error)?;
            Ok(Html(team::clarifications(&c, &list)).into_response())
        }
        .await,
    )
}

/// `GET /team/fragment/clarifications`.
pub(crate) async fn team_clarifications_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    finish(
        async {
            let (s, team) = team_session(&app, &headers)
                .await
                .map_err(|_| not_found_response())?;
            let c = chrome(&app, Some(&s)).await?;
            let list = app
                .live
                .clarifications(Some(&team))
                .await
                .map_err(server_error)?;
            Ok(Html(team::clarification_list(&c, &list).into_string()).into_response())
        }
        .await,
    )
}

/// The question form.
#[derive(Debug, Deserialize)]
pub(crate) struct AskForm {
    csrf: Option<String>,
    problem: Option<String>,
    text: String,
}

/// `POST /team/clarifications`.
pub(crate) async fn team_ask(
    State(app): State<App>,
    headers: HeaderMap,
    Form(form): Form<AskForm>,
) -> Response {
    finish(
        async {
            let (s, team) = team_session(&app, &headers).await?;
            check_form(&s, &headers, form.csrf.as_deref())?;
            match app
                .live
                .ask(&team, form.problem.as_deref(), &form.text)
                .await
            {
                Ok(_) => Ok(Redirect::to("/team/clarifications").into_response()),
                Err(r) => Err(refused_page(&app, Some(&s), r, "/team/clarifications").await),
            }
        }
        .await,
    )
}

/// `GET /team/scoreboard`: frozen as for everyone but the jury.
pub(crate) async fn team_scoreboard(State(app): State<App>, headers: HeaderMap) -> Response {
    finish(
        async {
            let (s, _) = team_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let b = app
                .live
                .scoreboard(View::Public)
                .await
                .map_err(server_error)?;
            Ok(Html(board::page(&c, &b, "/team/fragment/scoreboard", "/updates")).into_response())
        }
        .await,
    )
}

/// `GET /team/fragment/scoreboard`.
pub(crate) async fn team_scoreboard_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    finish(
        async {
            team_session(&app, &headers)
                .await
                .map_err(|_| not_found_response())?;
            let b = app
                .live
                .scoreboard(View::Public)
                .await
                .map_err(server_error)?;
            Ok(Html(board::table(&app.live.config, &b).into_string()).into_response())
        }
        .await,
    )
}

/// The notice on the jury's page after an action.
#[derive(Debug, Deserialize)]
pub(crate) struct JuryNotice {
    done: Option<String>,
}

/// `GET /jury`.
pub(crate) async fn jury_home(
    State(app): State<App>,
    headers: HeaderMap,
    Query(notice): Query<JuryNotice>,
) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let count = app
                .live
                .store
                .submissions(None)
                .await
                .map_err(server_error)?
                .len();
            let unfinished = app.live.store.unfinished().await.map_err(server_error)?;
            let notice = notice.done.map(|d| format!("Done: {d}."));
            Ok(Html(jury::home(&c, count, unfinished, notice.as_deref())).into_response())
        }
        .await,
    )
}

/// `POST /jury/clock/{start|freeze|thaw|finalize}`.
pub(crate) async fn jury_clock(
    State(app): State<App>,
    headers: HeaderMap,
    Path(action): Path<String>,
    Form(form): Form<TokenForm>,
) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            check_form(&s, &headers, form.csrf.as_deref())?;
            let result = match action.as_str() {
                "start" => app.live.start_now().await,
                "freeze" => app.live.freeze_now().await,
                "thaw" => app.live.thaw_now().await,
                "finalize" => app.live.finalize().await,
                _ => return Err(not_found_response()),
            };
            match result {
                Ok(()) => Ok(Redirect::to(&format!("/jury?done={action}")).into_response()),
                Err(r) => Err(refused_page(&app, Some(&s), r, "/jury").await),
            }
        }
        .await,
    )
}

/// `GET /jury/submissions`.
pub(crate) async fn jury_submissions(State(app): State<App>, headers: HeaderMap) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let rows = app.live.submission_rows(None).await.map_err(server_error)?;
            Ok(Html(jury::submissions(&c, &rows)).into_response())
        }
        .await,
    )
}

/// `GET /jury/fragment/submissions`.
pub(crate) async fn jury_submissions_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers)
                .await
                .map_err(|_| not_found_response())?;
            let c = chrome(&app, Some(&s)).await?;
            let rows = app.live.submission_rows(None).await.map_err(server_error)?;
            Ok(Html(jury::submissions_table(&c, &rows).into_string()).into_response())
        }
        .await,
    )
}

/// `GET /jury/submissions/{id}`.
pub(crate) async fn jury_submission(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            let id: i64 = id.parse().map_err(|_| not_found_response())?;
            let row = row_of(&app, id).await?.ok_or_else(not_found_response)?;
            let source = app
                .live
                .store
                .source(id)
                .await
                .map_err(server_error)?
                .unwrap_or_default();
            let mut judgements = Vec::new();
            for j in app
                .live
                .store
                .judgements(Some(id))
                .await
                .map_err(server_error)?
            {
                if let Some(full) = app.live.store.judgement(j.id).await.map_err(server_error)? {
                    judgements.push(full);
                }
            }
            let c = chrome(&app, Some(&s)).await?;
            let source = String::from_utf8_lossy(&source);
            Ok(Html(jury::submission(&c, &row, &source, &judgements)).into_response())
        }
        .await,
    )
}

/// `POST /jury/submissions/{id}/rejudge`.
pub(crate) async fn jury_rejudge_one(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TokenForm>,
) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            check_form(&s, &headers, form.csrf.as_deref())?;
            let id: i64 = id.parse().map_err(|_| not_found_response())?;
            match app.live.rejudge(Some(id), None).await {
                Ok(_) => Ok(Redirect::to(&format!("/jury/submissions/{id}")).into_response()),
                Err(r) => Err(refused_page(&app, Some(&s), r, "/jury/submissions").await),
            }
        }
        .await,
    )
}

/// The rejudge form.
#[derive(Debug, Deserialize)]
pub(crate) struct RejudgeForm {
    csrf: Option<String>,
    problem: String,
}

/// `POST /jury/rejudge`: every submission of a problem.
pub(crate) async fn jury_rejudge_problem(
    State(app): State<App>,
    headers: HeaderMap,
    Form(form): Form<RejudgeForm>,
) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            check_form(&s, &headers, form.csrf.as_deref())?;
            match app.live.rejudge(None, Some(&form.problem)).await {
                Ok(n) => Ok(Redirect::to(&format!(
                    "/jury?done=rejudging+{n}+submissions+of+{}",
                    form.problem
                ))
                .into_response()),
                Err(r) => Err(refused_page(&app, Some(&s), r, "/jury").await),
            }
        }
        .await,
    )
}

/// `GET /jury/clarifications`.
pub(crate) async fn jury_clarifications(State(app): State<App>, headers: HeaderMap) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let list = app.live.clarifications(None).await.map_err(server_error)?;
            Ok(Html(jury::clarifications(&c, &list)).into_response())
        }
        .await,
    )
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

/// `POST /jury/clarifications`.
pub(crate) async fn jury_answer(
    State(app): State<App>,
    headers: HeaderMap,
    Form(form): Form<AnswerForm>,
) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            check_form(&s, &headers, form.csrf.as_deref())?;
            let to_team = form.team.as_deref().filter(|_| form.everyone.is_none());
            match app
                .live
                .answer(form.reply_to, to_team, form.problem.as_deref(), &form.text)
                .await
            {
                Ok(_) => Ok(Redirect::to("/jury/clarifications").into_response()),
                Err(r) => Err(refused_page(&app, Some(&s), r, "/jury/clarifications").await),
            }
        }
        .await,
    )
}

/// `GET /jury/scoreboard`: everything, also during the freeze.
pub(crate) async fn jury_scoreboard(State(app): State<App>, headers: HeaderMap) -> Response {
    finish(
        async {
            let s = jury_session(&app, &headers).await?;
            let c = chrome(&app, Some(&s)).await?;
            let b = app
                .live
                .scoreboard(View::Jury)
                .await
                .map_err(server_error)?;
            Ok(Html(board::page(&c, &b, "/jury/fragment/scoreboard", "/updates")).into_response())
        }
        .await,
    )
}

/// `GET /jury/fragment/scoreboard`.
pub(crate) async fn jury_scoreboard_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    finish(
        async {
            jury_session(&app, &headers)
                .await
                .map_err(|_| not_found_response())?;
            let b = app
                .live
                .scoreboard(View::Jury)
                .await
                .map_err(server_error)?;
            Ok(Html(board::table(&app.live.config, &b).into_string()).into_response())
        }
        .await,
    )
}
