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

use super::auth::{self, csrf_ok, session, Account, Denied, Session};
use super::state::{message_of, status_of, App};
use crate::contest::clock::now_ms;
use crate::render::web::{self, board, jury, team, Chrome, Who};
use crate::server::desk::{SubmissionFilter, VerdictFilter};
use crate::server::live::{Refusal, Statement, View};
use crate::server::visibility::Viewer;

pub(super) type PageResult = Result<Response, Response>;

pub(super) fn finish(result: PageResult) -> Response {
    result.unwrap_or_else(|r| r)
}

fn who_of(session: Option<&Session>) -> Who {
    match session.map(|s| &s.account) {
        Some(Account::Team(t)) => Who::Team(t.clone()),
        Some(Account::Jury) => Who::Jury,
        None => Who::Anonymous,
    }
}

pub(super) async fn chrome<'a>(
    app: &'a App,
    session: Option<&'a Session>,
) -> Result<Chrome<'a>, Response> {
    let state = app.live.state().await.map_err(server_error)?;
    let start = app.live.start().await.map_err(server_error)?;
    let viewer = match session.map(|s| &s.account) {
        Some(Account::Team(t)) => Viewer::Team(t.clone()),
        Some(Account::Jury) => Viewer::Jury,
        None => Viewer::Public,
    };
    let badge = app
        .live
        .clarification_badge(&viewer)
        .await
        .map_err(server_error)?;
    let clock = app.live.contest_now().await.map_err(server_error)?.clock;
    Ok(Chrome {
        badge,
        clock,
        config: app.live.config_for(&viewer, &state),
        who: who_of(session),
        csrf: session.map(|s| s.csrf.as_str()),
        state,
        start,
        now: now_ms(),
    })
}

pub(super) fn refused(refusal: Refusal) -> Response {
    (status_of(&refusal), message_of(&refusal)).into_response()
}

pub(super) fn server_error(e: crate::error::Error) -> Response {
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

pub(super) fn not_found_response() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

/// Any other path.
pub(crate) async fn not_found() -> Response {
    not_found_response()
}

/// A team's session, or a redirect to the login page.
pub(super) async fn team_session(
    app: &App,
    headers: &HeaderMap,
) -> Result<(Session, String), Response> {
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
pub(super) async fn jury_session(app: &App, headers: &HeaderMap) -> Result<Session, Response> {
    match session(app, headers).await {
        Some(s) if s.account == Account::Jury => Ok(s),
        Some(_) => Err(not_found_response()),
        None => Err(Redirect::to("/login").into_response()),
    }
}

/// A whole page, or a fragment a page refreshes: a fragment answers 404,
/// never a redirect, to anyone it is not for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    Page,
    Fragment,
}

impl Part {
    /// The answer to someone the page is not for.
    pub(super) fn refused(self, answer: Response) -> Response {
        match self {
            Part::Page => answer,
            Part::Fragment => not_found_response(),
        }
    }
}

/// The frame of a team's pages: the team's session (see [`team_session`]),
/// the page's chrome, then `content` made with them.
pub(super) async fn team_page(
    app: &App,
    headers: &HeaderMap,
    part: Part,
    content: impl AsyncFnOnce(&Chrome<'_>, &str) -> PageResult,
) -> Response {
    let page = async {
        let (s, team) = team_session(app, headers)
            .await
            .map_err(|r| part.refused(r))?;
        let c = chrome(app, Some(&s)).await?;
        content(&c, &team).await
    };
    finish(page.await)
}

/// The frame of the jury's pages: the jury's session (see
/// [`jury_session`]), the page's chrome, then `content` made with it.
pub(super) async fn jury_page(
    app: &App,
    headers: &HeaderMap,
    part: Part,
    content: impl AsyncFnOnce(&Chrome<'_>) -> PageResult,
) -> Response {
    let page = async {
        let s = jury_session(app, headers)
            .await
            .map_err(|r| part.refused(r))?;
        let c = chrome(app, Some(&s)).await?;
        content(&c).await
    };
    finish(page.await)
}

/// Why a form was not done: the contest refused (said on a page with a
/// way back), or an answer as it is.
pub(super) enum NotDone {
    Refused(Refusal),
    Answer(Response),
}

impl From<Refusal> for NotDone {
    fn from(refusal: Refusal) -> Self {
        NotDone::Refused(refusal)
    }
}

/// The way of the jury's forms: the jury's session, the form's origin and
/// token checked, then `act`, which says where to go next; a refusal is
/// shown on a page that leads `back`.
pub(super) async fn jury_form(
    app: &App,
    headers: &HeaderMap,
    csrf: Option<&str>,
    back: &str,
    act: impl AsyncFnOnce() -> Result<String, NotDone>,
) -> Response {
    let done = async {
        let s = jury_session(app, headers).await?;
        check_form(&s, headers, csrf)?;
        match act().await {
            Ok(next) => Ok(Redirect::to(&next).into_response()),
            Err(NotDone::Answer(r)) => Err(r),
            Err(NotDone::Refused(r)) => Err(refused_page(app, Some(&s), r, back).await),
        }
    };
    finish(done.await)
}

/// A scoreboard page (`view`), its table refreshed from `fragment`.
async fn scoreboard(app: &App, c: &Chrome<'_>, view: View, fragment: &str) -> PageResult {
    let b = app.live.scoreboard(view).await.map_err(server_error)?;
    Ok(Html(board::page(c, &b, fragment, "/updates")).into_response())
}

/// A scoreboard's table (`view`) for its page to refresh; 404 unless
/// `allowed`.
async fn scoreboard_table(app: &App, allowed: bool, view: View) -> Response {
    if !allowed {
        return not_found_response();
    }
    match app.live.scoreboard(view).await {
        Ok(b) => Html(board::table(&app.live.config, &b).into_string()).into_response(),
        Err(e) => server_error(e),
    }
}

/// Refuses a form posted from another site (its `Origin` is not ours).
/// A request from a page of another site (its `Origin` names another
/// host) is refused: 403.
pub(crate) fn same_origin(headers: &HeaderMap) -> Result<(), Response> {
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
    let denied = match auth::check(&app, &headers, form.login.trim(), &form.password).await {
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
    pub(super) csrf: Option<String>,
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
        if let Err(e) = app.live.end_session(&s.token_hash).await {
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
            scoreboard(&app, &c, View::Public, "/scoreboard/fragment").await
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
    let notice = notice
        .submitted
        .map(|id| format!("Submission {id} received; its verdict appears below."));
    team_submissions(&app, &headers, Part::Page, notice.as_deref()).await
}

/// `GET /team/fragment/submissions`.
pub(crate) async fn team_submissions_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    team_submissions(&app, &headers, Part::Fragment, None).await
}

/// The team's submissions: its home page (with `notice`), or their table.
async fn team_submissions(
    app: &App,
    headers: &HeaderMap,
    part: Part,
    notice: Option<&str>,
) -> Response {
    team_page(app, headers, part, async |c, team| {
        let rows = app
            .live
            .submission_rows(&Viewer::Team(team.to_string()))
            .await
            .map_err(refused)?;
        Ok(match part {
            Part::Page => Html(team::home(c, &rows, notice)),
            Part::Fragment => Html(team::submissions_table(c, &rows).into_string()),
        }
        .into_response())
    })
    .await
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
    team_page(&app, &headers, Part::Page, async |c, _| {
        let page = app.live.pages.get(&id).ok_or_else(not_found_response)?;
        if c.state.started.is_none() {
            return Err(not_found_response());
        }
        Ok(Html(team::problem(c, &id, page)).into_response())
    })
    .await
}

/// `GET /team/problems/{id}/statement.pdf`.
pub(crate) async fn team_statement_pdf(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    team_page(&app, &headers, Part::Page, async |c, _| {
        let page = app.live.pages.get(&id).ok_or_else(not_found_response)?;
        match (&page.statement, c.state.started) {
            (Statement::Pdf(bytes), Some(_)) => {
                Ok(([(header::CONTENT_TYPE, "application/pdf")], bytes.clone()).into_response())
            }
            _ => Err(not_found_response()),
        }
    })
    .await
}

/// `GET /team/problems/{id}/samples/{name}.in|.ans`.
pub(crate) async fn team_sample(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    team_page(&app, &headers, Part::Page, async |c, _| {
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
    })
    .await
}

/// `GET /team/submissions/{id}`: the team's own only (404 for others').
pub(crate) async fn team_submission(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    team_page(&app, &headers, Part::Page, async |c, team| {
        let id: i64 = id.parse().map_err(|_| not_found_response())?;
        let detail = app
            .live
            .submission_for(&Viewer::Team(team.to_string()), id)
            .await
            .map_err(refused)?
            .ok_or_else(not_found_response)?;
        let report = detail.judgements.last().and_then(|(_, r)| r.clone());
        let row = detail.row;
        let page = app.live.pages.get(&row.submission.problem);
        Ok(Html(team::submission(c, &row, report.as_ref(), page)).into_response())
    })
    .await
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

/// `GET /team/clarifications`: shown, its messages are read (the badge
/// goes).
pub(crate) async fn team_clarifications(State(app): State<App>, headers: HeaderMap) -> Response {
    if let Ok((_, team)) = team_session(&app, &headers).await {
        if let Err(e) = app.live.mark_clarifications_read(&Viewer::Team(team)).await {
            return server_error(e);
        }
    }
    team_clarifications_part(&app, &headers, Part::Page).await
}

/// `GET /team/fragment/clarifications`.
pub(crate) async fn team_clarifications_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    team_clarifications_part(&app, &headers, Part::Fragment).await
}

/// The team's clarifications: their page, or their list.
async fn team_clarifications_part(app: &App, headers: &HeaderMap, part: Part) -> Response {
    team_page(app, headers, part, async |c, team| {
        let list = app
            .live
            .clarifications_for(&Viewer::Team(team.to_string()))
            .await
            .map_err(server_error)?;
        Ok(match part {
            Part::Page => Html(team::clarifications(c, &list)),
            Part::Fragment => Html(team::clarification_list(c, &list).into_string()),
        }
        .into_response())
    })
    .await
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
    team_page(&app, &headers, Part::Page, async |c, _| {
        scoreboard(&app, c, View::Public, "/team/fragment/scoreboard").await
    })
    .await
}

/// `GET /team/fragment/scoreboard`.
pub(crate) async fn team_scoreboard_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    let allowed = team_session(&app, &headers).await.is_ok();
    scoreboard_table(&app, allowed, View::Public).await
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
    jury_page(&app, &headers, Part::Page, async |c| {
        let (count, unfinished) = app.live.jury_counts(&Viewer::Jury).await.map_err(refused)?;
        let notice = notice.done.map(|d| format!("Done: {d}."));
        Ok(Html(jury::home(c, count, unfinished, notice.as_deref())).into_response())
    })
    .await
}

/// A form of an action that asks for a confirmation first.
#[derive(Debug, Deserialize)]
pub(crate) struct ConfirmedForm {
    pub(super) csrf: Option<String>,
    /// `yes` from the confirmation page.
    pub(super) confirmed: Option<String>,
}

impl ConfirmedForm {
    /// Whether the form came from the confirmation page.
    pub(super) fn confirmed(&self) -> bool {
        self.confirmed.as_deref() == Some("yes")
    }
}

/// `POST /jury/clock/{start|freeze|thaw|finalize}`: thaw and finalize
/// only from their confirmation page (else they lead to it).
pub(crate) async fn jury_clock(
    State(app): State<App>,
    headers: HeaderMap,
    Path(action): Path<String>,
    Form(form): Form<ConfirmedForm>,
) -> Response {
    jury_form(&app, &headers, form.csrf.as_deref(), "/jury", async || {
        if matches!(action.as_str(), "thaw" | "finalize") && !form.confirmed() {
            return Ok(format!("/jury/confirm/{action}"));
        }
        match action.as_str() {
            "start" => app.live.start_now().await?,
            "freeze" => app.live.freeze_now().await?,
            "thaw" => app.live.thaw_now().await?,
            "finalize" => app.live.finalize().await?,
            _ => return Err(NotDone::Answer(not_found_response())),
        }
        Ok(format!("/jury?done={action}"))
    })
    .await
}

/// The jury's submission filter, as the page's form sends it.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct FilterForm {
    team: Option<String>,
    problem: Option<String>,
    verdict: Option<String>,
}

impl FilterForm {
    /// The filter it asks for (empty fields: all; an unknown verdict is
    /// refused).
    fn filter(&self) -> Result<SubmissionFilter, Refusal> {
        let given = |v: &Option<String>| v.clone().filter(|v| !v.is_empty());
        let verdict = match given(&self.verdict) {
            None => None,
            Some(v) if v == "unjudged" => Some(VerdictFilter::Unjudged),
            Some(v) => Some(VerdictFilter::Is(v.parse().map_err(Refusal::Invalid)?)),
        };
        Ok(SubmissionFilter {
            team: given(&self.team),
            problem: given(&self.problem),
            verdict,
        })
    }
}

/// `GET /jury/submissions[?team=&problem=&verdict=]`.
pub(crate) async fn jury_submissions(
    State(app): State<App>,
    headers: HeaderMap,
    Query(filter): Query<FilterForm>,
) -> Response {
    jury_submissions_part(&app, &headers, Part::Page, filter).await
}

/// `GET /jury/fragment/submissions[?team=&problem=&verdict=]`.
pub(crate) async fn jury_submissions_fragment(
    State(app): State<App>,
    headers: HeaderMap,
    Query(filter): Query<FilterForm>,
) -> Response {
    jury_submissions_part(&app, &headers, Part::Fragment, filter).await
}

/// The submissions the filter keeps: their page, or their table.
async fn jury_submissions_part(
    app: &App,
    headers: &HeaderMap,
    part: Part,
    filter: FilterForm,
) -> Response {
    jury_page(app, headers, part, async |c| {
        let filter = filter.filter().map_err(refused)?;
        let rows = app
            .live
            .submission_list(&Viewer::Jury, &filter)
            .await
            .map_err(refused)?;
        Ok(match part {
            Part::Page => Html(jury::submissions(c, &rows, &filter)),
            Part::Fragment => Html(jury::submissions_table(c, &rows).into_string()),
        }
        .into_response())
    })
    .await
}

/// `GET /jury/submissions/{id}`.
pub(crate) async fn jury_submission(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    jury_page(&app, &headers, Part::Page, async |c| {
        let id: i64 = id.parse().map_err(|_| not_found_response())?;
        let detail = app
            .live
            .submission_for(&Viewer::Jury, id)
            .await
            .map_err(refused)?
            .ok_or_else(not_found_response)?;
        let (row, source, judgements) = (detail.row, detail.source, detail.judgements);
        let source = String::from_utf8_lossy(&source);
        Ok(Html(jury::submission(c, &row, &source, &judgements)).into_response())
    })
    .await
}

/// `POST /jury/submissions/{id}/rejudge`.
pub(crate) async fn jury_rejudge_one(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TokenForm>,
) -> Response {
    jury_form(
        &app,
        &headers,
        form.csrf.as_deref(),
        "/jury/submissions",
        async || {
            let id: i64 = id
                .parse()
                .map_err(|_| NotDone::Answer(not_found_response()))?;
            app.live.rejudge(Some(id), None).await?;
            Ok(format!("/jury/submissions/{id}"))
        },
    )
    .await
}

/// The rejudge form.
#[derive(Debug, Deserialize)]
pub(crate) struct RejudgeForm {
    csrf: Option<String>,
    problem: String,
    confirmed: Option<String>,
}

/// `POST /jury/rejudge`: every submission of a problem, from its
/// confirmation page (else it leads there).
pub(crate) async fn jury_rejudge_problem(
    State(app): State<App>,
    headers: HeaderMap,
    Form(form): Form<RejudgeForm>,
) -> Response {
    jury_form(&app, &headers, form.csrf.as_deref(), "/jury", async || {
        if form.confirmed.as_deref() != Some("yes") {
            return Err(NotDone::Answer(
                Redirect::to(&format!(
                    "/jury/confirm/rejudge?problem={}",
                    crate::render::web::query_value(&form.problem)
                ))
                .into_response(),
            ));
        }
        let n = app.live.rejudge(None, Some(&form.problem)).await?;
        Ok(format!(
            "/jury?done=rejudging+{n}+submissions+of+{}",
            form.problem
        ))
    })
    .await
}

/// `GET /jury/scoreboard`: everything, also during the freeze.
pub(crate) async fn jury_scoreboard(State(app): State<App>, headers: HeaderMap) -> Response {
    jury_page(&app, &headers, Part::Page, async |c| {
        scoreboard(&app, c, View::Jury, "/jury/fragment/scoreboard").await
    })
    .await
}

/// `GET /jury/fragment/scoreboard`.
pub(crate) async fn jury_scoreboard_fragment(
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    let allowed = jury_session(&app, &headers).await.is_ok();
    scoreboard_table(&app, allowed, View::Jury).await
}
