//! The web pages' handlers. Each is given who is looking by an extractor
//! of [`super::visitor`] (a team reaches only its own pages and data, 404
//! for anything else; the jury's pages need the jury's login), a
//! submission by the one reader of [`super::submission`], and answers
//! with a page or a [`PageError`]; the forms that change something carry
//! the session's form token and come from this site. Handlers only
//! translate: every rule is the live contest's, and the HTML is made by
//! `crate::render::web`.

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

use super::auth::{self, Account, Denied};
use super::frame::{Frame, PageError};
use super::state::App;
use super::submission::{Submission, Unreadable};
use super::visitor::{Fragment, Jury, Team, Visitor};
use crate::render::web::{self, board, jury, team};
use crate::server::desk::{SubmissionFilter, VerdictFilter};
use crate::server::live::{Refusal, Statement, View};
use crate::server::visibility::Viewer;

/// What a page handler answers.
pub(super) type Page = Result<Response, PageError>;

/// Any other path.
pub(crate) async fn not_found() -> PageError {
    PageError::NotFound
}

/// A scoreboard page (`view`, as `viewer` sees it: with the final awards
/// when the door shows them), its table refreshed from `fragment`.
async fn scoreboard(app: &App, frame: &Frame, view: View, viewer: &Viewer, fragment: &str) -> Page {
    let b = app.live.scoreboard(view).await.map_err(PageError::failed)?;
    let awards = app.live.final_awards_for(viewer).await?;
    let page = board::page(&frame.chrome(), &b, awards.as_deref(), fragment, "/updates");
    Ok(Html(page).into_response())
}

/// A scoreboard's table (`view`) for its page to refresh.
async fn scoreboard_table(app: &App, view: View) -> Page {
    let b = app.live.scoreboard(view).await.map_err(PageError::failed)?;
    Ok(Html(board::table(&app.live.config, &b).into_string()).into_response())
}

/// A redirect that also sets a cookie.
fn redirect_setting(to: &str, cookie: &str) -> Response {
    let mut r = Redirect::to(to).into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        cookie.parse().expect("a valid header value"),
    );
    r
}

/// `GET /`.
pub(crate) async fn root(Visitor(frame): Visitor) -> Redirect {
    match frame.session.map(|s| s.account) {
        Some(Account::Team(_)) => Redirect::to("/team"),
        Some(Account::Jury) => Redirect::to("/jury"),
        None => Redirect::to("/login"),
    }
}

/// `GET /login`.
pub(crate) async fn login_page(Visitor(frame): Visitor) -> Response {
    if frame.session.is_some() {
        return Redirect::to("/").into_response();
    }
    Html(web::login(&frame.chrome(), None)).into_response()
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
    Visitor(frame): Visitor,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Page {
    if !super::frame::same_origin(&headers) {
        return Err(PageError::Forbidden("a form from another site is refused"));
    }
    let denied = match auth::check(&app, &headers, form.login.trim(), &form.password).await {
        Ok(account) => {
            let cookie = auth::start_session(&app, &account)
                .await
                .map_err(PageError::failed)?;
            return Ok(redirect_setting("/", &cookie));
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
    // The login page is always shown as to someone not logged in.
    let anonymous = frame.anonymous();
    Ok((status, Html(web::login(&anonymous.chrome(), Some(text)))).into_response())
}

/// A form with only its token.
#[derive(Debug, Deserialize)]
pub(crate) struct TokenForm {
    pub(super) csrf: Option<String>,
}

/// `POST /logout`.
pub(crate) async fn logout(
    State(app): State<App>,
    Visitor(frame): Visitor,
    headers: HeaderMap,
    Form(form): Form<TokenForm>,
) -> Page {
    if let Some(s) = &frame.session {
        frame.check_form(&headers, form.csrf.as_deref())?;
        app.live
            .end_session(&s.token_hash)
            .await
            .map_err(PageError::failed)?;
    }
    Ok(redirect_setting("/login", &auth::end_cookie()))
}

/// `GET /clock`: the clock line, for pages to refresh.
pub(crate) async fn clock(Visitor(frame): Visitor) -> Response {
    frame.chrome().clock_line().into_response()
}

/// `GET /scoreboard`: the public (projector) scoreboard.
pub(crate) async fn public_scoreboard(State(app): State<App>, Visitor(frame): Visitor) -> Page {
    scoreboard(
        &app,
        &frame,
        View::Public,
        &Viewer::Public,
        "/scoreboard/fragment",
    )
    .await
}

/// `GET /scoreboard/fragment`.
pub(crate) async fn public_scoreboard_fragment(State(app): State<App>) -> Page {
    let b = app
        .live
        .scoreboard(View::Public)
        .await
        .map_err(PageError::failed)?;
    let bytes = app.rendered("table-public", &b, || {
        board::table(&app.live.config, &b).into_string()
    });
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], bytes).into_response())
}

/// The notice on the team's page after a submission.
#[derive(Debug, Deserialize)]
pub(crate) struct Notice {
    submitted: Option<i64>,
}

/// `GET /team`.
pub(crate) async fn team_home(
    State(app): State<App>,
    t: Team,
    Query(notice): Query<Notice>,
) -> Page {
    let notice = notice
        .submitted
        .map(|id| format!("Submission {id} received; its verdict appears below."));
    let rows = app.live.submission_rows(&Viewer::Team(t.id)).await?;
    Ok(Html(team::home(&t.frame.chrome(), &rows, notice.as_deref())).into_response())
}

/// `GET /team/fragment/submissions`.
pub(crate) async fn team_submissions_fragment(
    State(app): State<App>,
    Fragment(t): Fragment<Team>,
) -> Page {
    let rows = app.live.submission_rows(&Viewer::Team(t.id)).await?;
    Ok(Html(team::submissions_table(&t.frame.chrome(), &rows).into_string()).into_response())
}

/// `POST /team/submit`: the submit form (a file upload), read by the one
/// reader of submissions.
pub(crate) async fn team_submit(
    State(app): State<App>,
    t: Team,
    headers: HeaderMap,
    submission: Result<Submission, Unreadable>,
) -> Page {
    let submission = match submission {
        Ok(s) => s,
        Err(Unreadable(refusal)) => return Err(t.frame.refused(refusal, "/team")),
    };
    t.frame.check_form(&headers, submission.csrf.as_deref())?;
    match submission.submit_as(&app.live, &t.id).await {
        Ok(record) => Ok(Redirect::to(&format!("/team?submitted={}", record.id)).into_response()),
        Err(refusal) => Err(t.frame.refused(refusal, "/team")),
    }
}

/// `GET /team/problems/{id}`: only once the contest has started.
pub(crate) async fn team_problem(State(app): State<App>, t: Team, Path(id): Path<String>) -> Page {
    let page = app.live.pages.get(&id).ok_or(PageError::NotFound)?;
    if !t.frame.started() {
        return Err(PageError::NotFound);
    }
    Ok(Html(team::problem(&t.frame.chrome(), &id, page)).into_response())
}

/// `GET /team/problems/{id}/statement.pdf`.
pub(crate) async fn team_statement_pdf(
    State(app): State<App>,
    t: Team,
    Path(id): Path<String>,
) -> Page {
    let page = app.live.pages.get(&id).ok_or(PageError::NotFound)?;
    match &page.statement {
        Statement::Pdf(bytes) if t.frame.started() => {
            Ok(([(header::CONTENT_TYPE, "application/pdf")], bytes.clone()).into_response())
        }
        _ => Err(PageError::NotFound),
    }
}

/// `GET /team/problems/{id}/samples/{name}.in|.ans`.
pub(crate) async fn team_sample(
    State(app): State<App>,
    t: Team,
    Path((id, file)): Path<(String, String)>,
) -> Page {
    if !t.frame.started() {
        return Err(PageError::NotFound);
    }
    let page = app.live.pages.get(&id).ok_or(PageError::NotFound)?;
    let (name, ext) = file.rsplit_once('.').ok_or(PageError::NotFound)?;
    let sample = page
        .samples
        .iter()
        .find(|s| s.name == name)
        .ok_or(PageError::NotFound)?;
    let bytes = match ext {
        "in" => sample.input.clone(),
        "ans" => sample.answer.clone(),
        _ => return Err(PageError::NotFound),
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{id}-{name}.{ext}\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `GET /team/submissions/{id}`: the team's own only (404 for others').
pub(crate) async fn team_submission(
    State(app): State<App>,
    t: Team,
    Path(id): Path<String>,
) -> Page {
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let detail = app
        .live
        .submission_for(&Viewer::Team(t.id.clone()), id)
        .await?
        .ok_or(PageError::NotFound)?;
    let report = detail.judgements.last().and_then(|(_, r)| r.clone());
    let row = detail.row;
    let page = app.live.pages.get(&row.submission.problem);
    Ok(Html(team::submission(
        &t.frame.chrome(),
        &row,
        report.as_ref(),
        page,
    ))
    .into_response())
}

/// `GET /team/submission/{id}`: where DOMjudge's submit client says to look.
pub(crate) async fn team_submission_domjudge(Path(id): Path<String>) -> Page {
    // Only a number goes into the `Location` header (a decoded `%0A` in
    // it would be no header value at all).
    let n: u64 = id
        .trim_start_matches('s')
        .parse()
        .map_err(|_| PageError::NotFound)?;
    Ok(Redirect::to(&format!("/team/submissions/{n}")).into_response())
}

/// `GET /team/clarifications`: shown, its messages are read (the badge
/// goes).
pub(crate) async fn team_clarifications(State(app): State<App>, t: Team) -> Page {
    let viewer = Viewer::Team(t.id);
    app.live
        .mark_clarifications_read(&viewer)
        .await
        .map_err(PageError::failed)?;
    // The frame again: its badge was counted before the messages were read.
    let frame = Frame::new(&app, t.frame.session).await?;
    let list = app
        .live
        .clarifications_for(&viewer)
        .await
        .map_err(PageError::failed)?;
    Ok(Html(team::clarifications(&frame.chrome(), &list)).into_response())
}

/// `GET /team/fragment/clarifications`.
pub(crate) async fn team_clarifications_fragment(
    State(app): State<App>,
    Fragment(t): Fragment<Team>,
) -> Page {
    let list = app
        .live
        .clarifications_for(&Viewer::Team(t.id))
        .await
        .map_err(PageError::failed)?;
    Ok(Html(team::clarification_list(&t.frame.chrome(), &list).into_string()).into_response())
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
    t: Team,
    headers: HeaderMap,
    Form(form): Form<AskForm>,
) -> Page {
    t.frame.check_form(&headers, form.csrf.as_deref())?;
    match app
        .live
        .ask(&t.id, form.problem.as_deref(), &form.text)
        .await
    {
        Ok(_) => Ok(Redirect::to("/team/clarifications").into_response()),
        Err(r) => Err(t.frame.refused(r, "/team/clarifications")),
    }
}

/// `GET /team/scoreboard`: frozen as for everyone but the jury.
pub(crate) async fn team_scoreboard(State(app): State<App>, t: Team) -> Page {
    let viewer = Viewer::Team(t.id.clone());
    scoreboard(
        &app,
        &t.frame,
        View::Public,
        &viewer,
        "/team/fragment/scoreboard",
    )
    .await
}

/// `GET /team/fragment/scoreboard`.
pub(crate) async fn team_scoreboard_fragment(State(app): State<App>, _: Fragment<Team>) -> Page {
    scoreboard_table(&app, View::Public).await
}

/// The notice on the jury's page after an action.
#[derive(Debug, Deserialize)]
pub(crate) struct JuryNotice {
    done: Option<String>,
}

/// `GET /jury`.
pub(crate) async fn jury_home(
    State(app): State<App>,
    Jury(frame): Jury,
    Query(notice): Query<JuryNotice>,
) -> Page {
    let (count, unfinished) = app.live.jury_counts(&Viewer::Jury).await?;
    let notice = notice.done.map(|d| format!("Done: {d}."));
    Ok(Html(jury::home(
        &frame.chrome(),
        count,
        unfinished,
        notice.as_deref(),
    ))
    .into_response())
}

/// Where a jury's form leads next, or why it was not done.
pub(super) fn jury_done(frame: Frame, done: Result<String, Refusal>, back: &str) -> Page {
    match done {
        Ok(next) => Ok(Redirect::to(&next).into_response()),
        Err(refusal) => Err(frame.refused(refusal, back)),
    }
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
    Jury(frame): Jury,
    headers: HeaderMap,
    Path(action): Path<String>,
    Form(form): Form<ConfirmedForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    if matches!(action.as_str(), "thaw" | "finalize") && !form.confirmed() {
        return Ok(Redirect::to(&format!("/jury/confirm/{action}")).into_response());
    }
    let done = match action.as_str() {
        "start" => app.live.start_now().await,
        "freeze" => app.live.freeze_now().await,
        "thaw" => app.live.thaw_now().await,
        "finalize" => app.live.finalize().await,
        _ => return Err(PageError::NotFound),
    };
    jury_done(
        frame,
        done.map(|()| format!("/jury?done={action}")),
        "/jury",
    )
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
    Jury(frame): Jury,
    Query(filter): Query<FilterForm>,
) -> Page {
    let filter = filter.filter()?;
    let rows = app.live.submission_list(&Viewer::Jury, &filter).await?;
    Ok(Html(jury::submissions(&frame.chrome(), &rows, &filter)).into_response())
}

/// `GET /jury/fragment/submissions[?team=&problem=&verdict=]`.
pub(crate) async fn jury_submissions_fragment(
    State(app): State<App>,
    Fragment(Jury(frame)): Fragment<Jury>,
    Query(filter): Query<FilterForm>,
) -> Page {
    let filter = filter.filter()?;
    let rows = app.live.submission_list(&Viewer::Jury, &filter).await?;
    Ok(Html(jury::submissions_table(&frame.chrome(), &rows).into_string()).into_response())
}

/// `GET /jury/submissions/{id}`.
pub(crate) async fn jury_submission(
    State(app): State<App>,
    Jury(frame): Jury,
    Path(id): Path<String>,
) -> Page {
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let detail = app
        .live
        .submission_for(&Viewer::Jury, id)
        .await?
        .ok_or(PageError::NotFound)?;
    let ignored = detail.ignored;
    let (row, files, judgements, pending) =
        (detail.row, detail.files, detail.judgements, detail.pending);
    let sources: Vec<(String, String)> = files
        .into_iter()
        .map(|f| (f.name, String::from_utf8_lossy(&f.content).into_owned()))
        .collect();
    Ok(Html(jury::submission(
        &frame.chrome(),
        &row,
        ignored,
        &sources,
        &judgements,
        &pending,
    ))
    .into_response())
}

/// `GET /jury/scoreboard`: everything, also during the freeze.
pub(crate) async fn jury_scoreboard(State(app): State<App>, Jury(frame): Jury) -> Page {
    scoreboard(
        &app,
        &frame,
        View::Jury,
        &Viewer::Jury,
        "/jury/fragment/scoreboard",
    )
    .await
}

/// `GET /jury/fragment/scoreboard`.
pub(crate) async fn jury_scoreboard_fragment(State(app): State<App>, _: Fragment<Jury>) -> Page {
    scoreboard_table(&app, View::Jury).await
}
