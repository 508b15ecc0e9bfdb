//! The ICPC Contest API (2023-06) under `/api`: who asks (HTTP basic
//! authentication: a team, the jury, or no one for what is public), what
//! each may read (a team: its own submissions, judgements, runs and
//! clarifications; another team's are 404), and the writes the
//! specification gives teams and the jury (POST submissions, as JSON with a
//! base64 zip or as DOMjudge's submit client sends them; POST
//! clarifications; PATCH the contest's start or thaw). The JSON is made by
//! `crate::render::ccs`.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;

use super::auth::{basic, Account, Denied};
use super::state::{message_of, status_of, App};
use super::submission::{Submission, Unreadable};
use crate::contest::clock::{now_ms, parse_time};
use crate::render::ccs::{self, Context};
use crate::server::files::zip_of;
use crate::server::live::{Refusal, View};
use crate::verdict::Verdict;

/// Who asks the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Viewer {
    /// No credentials: public data only.
    Public,
    /// A logged-in account.
    Account(Account),
}

impl Viewer {
    /// The viewer as the contest's rules know it.
    pub(crate) fn door(&self) -> crate::server::visibility::Viewer {
        use crate::server::visibility::Viewer as Door;
        match self {
            Viewer::Public => Door::Public,
            Viewer::Account(Account::Jury) => Door::Jury,
            Viewer::Account(Account::Team(t)) => Door::Team(t.clone()),
        }
    }

    fn team(&self) -> Option<&str> {
        match self {
            Viewer::Account(a) => a.team(),
            Viewer::Public => None,
        }
    }

    fn is_jury(&self) -> bool {
        self == &Viewer::Account(Account::Jury)
    }
}

/// The API's one error: a status and a message, answered with the body
/// the specification asks for (and a `WWW-Authenticate` challenge on 401).
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(ccs::error(self.status.as_u16(), &self.message));
        let mut response = (self.status, body).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Basic realm=\"judge\""),
            );
        }
        response
    }
}

/// An error with the body the specification asks for.
pub(crate) fn error(status: StatusCode, message: &str) -> ApiError {
    ApiError {
        status,
        message: message.to_string(),
    }
}

/// `201 Created`: the new object at `location`, as the body.
fn created(location: String, object: Value) -> Response {
    (
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(object),
    )
        .into_response()
}

fn refused(refusal: Refusal) -> ApiError {
    error(status_of(&refusal), &message_of(&refusal))
}

fn failed(e: crate::error::Error) -> ApiError {
    refused(Refusal::Failed(e))
}

/// The viewer of a request: wrong credentials are 401, too many 429.
pub(crate) async fn viewer(app: &App, headers: &HeaderMap) -> Result<Viewer, ApiError> {
    match basic(app, headers).await {
        None => Ok(Viewer::Public),
        Some(Ok(account)) => Ok(Viewer::Account(account)),
        Some(Err(Denied::Wrong)) => Err(error(StatusCode::UNAUTHORIZED, "wrong login or password")),
        Some(Err(Denied::TooMany)) => Err(error(
            StatusCode::TOO_MANY_REQUESTS,
            "too many failed logins; wait a few minutes",
        )),
    }
}

impl axum::extract::FromRequestParts<App> for Viewer {
    type Rejection = ApiError;

    /// The viewer of a request (its basic authentication): wrong
    /// credentials are 401, too many 429.
    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &App,
    ) -> Result<Viewer, ApiError> {
        viewer(app, &parts.headers).await
    }
}

/// The dialect a request asks for, as DOMjudge reads it: `?strict=true`
/// (or `1`) the specification's properties only, `?strict=false` (or `0`)
/// DOMjudge's too. Without the parameter: DOMjudge's for DOMjudge's
/// clients (their `User-Agent` starts `domjudge-`: its submit client needs
/// a contest's `shortname` and cannot pass a parameter), else the
/// specification's (what its checker asks in strict mode).
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ccs::Dialect {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<ccs::Dialect, std::convert::Infallible> {
        let strict = parts.uri.query().unwrap_or("").split('&').find_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (key == "strict").then_some(!matches!(value, "false" | "0"))
        });
        let domjudge_client = parts
            .headers
            .get(header::USER_AGENT)
            .is_some_and(|ua| ua.as_bytes().starts_with(b"domjudge-"));
        Ok(match strict {
            Some(true) => ccs::Dialect::Strict,
            Some(false) => ccs::Dialect::Domjudge,
            None if domjudge_client => ccs::Dialect::Domjudge,
            None => ccs::Dialect::Strict,
        })
    }
}

fn check_contest(app: &App, cid: &str) -> Result<(), ApiError> {
    if cid == app.live.config.contest.id {
        Ok(())
    } else {
        Err(error(StatusCode::NOT_FOUND, &format!("no contest `{cid}`")))
    }
}

/// The rendering context.
pub(crate) async fn context(app: &App) -> Result<Context<'_>, ApiError> {
    Ok(Context {
        contest_id: &app.live.config.contest.id,
        scoring: app.live.config.contest.scoring,
        start: app.live.start().await.map_err(failed)?,
    })
}

/// `GET /api`.
pub(crate) async fn info() -> Response {
    Json(ccs::api_info()).into_response()
}

/// Any other path under `/api`.
pub(crate) async fn not_found() -> ApiError {
    error(StatusCode::NOT_FOUND, "no such endpoint")
}

async fn contest_value(app: &App, dialect: ccs::Dialect) -> Result<Value, ApiError> {
    let mut contest = app.live.contest_now().await.map_err(failed)?;
    if contest.clock.start.is_some_and(|s| s > i64::MAX / 8) {
        contest.clock.start = None;
    }
    Ok(ccs::contest(&contest, dialect))
}

/// `GET /api/contests`.
pub(crate) async fn contests(
    State(app): State<App>,
    dialect: ccs::Dialect,
) -> Result<Json<Vec<Value>>, ApiError> {
    Ok(Json(vec![contest_value(&app, dialect).await?]))
}

/// `GET /api/contests/{cid}`.
pub(crate) async fn contest(
    State(app): State<App>,
    Path(cid): Path<String>,
    dialect: ccs::Dialect,
) -> Result<Json<Value>, ApiError> {
    check_contest(&app, &cid)?;
    Ok(Json(contest_value(&app, dialect).await?))
}

/// `GET /api/contests/{cid}/access`.
pub(crate) async fn access(
    State(app): State<App>,
    Path(cid): Path<String>,
    viewer: Viewer,
) -> Response {
    let result = async {
        check_contest(&app, &cid)?;
        Ok::<_, ApiError>(Json(ccs::access(viewer.team().is_some(), viewer.is_jury())))
    };
    result.await.into_response()
}

/// `GET /api/contests/{cid}/state`.
pub(crate) async fn state(
    State(app): State<App>,
    Path(cid): Path<String>,
) -> Result<Json<Value>, ApiError> {
    check_contest(&app, &cid)?;
    Ok(Json(ccs::state(&app.live.state().await.map_err(failed)?)))
}

/// `GET /api/contests/{cid}/scoreboard`: frozen for all but the jury.
pub(crate) async fn scoreboard(
    State(app): State<App>,
    Path(cid): Path<String>,
    viewer: Viewer,
) -> Response {
    let result = async {
        check_contest(&app, &cid)?;
        let (view, kind) = if viewer.is_jury() {
            (View::Jury, "api-jury")
        } else {
            (View::Public, "api-public")
        };
        let board = app.live.scoreboard(view).await.map_err(failed)?;
        let cx = context(&app).await?;
        let bytes = app.rendered(kind, &board, || ccs::scoreboard(&board, &cx).to_string());
        Ok::<_, ApiError>(([(header::CONTENT_TYPE, "application/json")], bytes))
    };
    result.await.into_response()
}

/// The objects of a collection this viewer may see.
async fn visible(app: &App, viewer: &Viewer, collection: &str) -> Result<Vec<Value>, ApiError> {
    let cx = context(app).await?;
    let config = &app.live.config;
    let scoring = config.contest.scoring;
    let door = viewer.door();
    Ok(match collection {
        "judgement-types" => Verdict::ALL
            .iter()
            .map(|v| ccs::judgement_type(*v, scoring))
            .collect(),
        "languages" => config.languages.iter().map(ccs::language).collect(),
        "problems" => app
            .live
            .problems_for(&door)
            .await
            .map_err(failed)?
            .iter()
            .map(|p| ccs::problem(p, scoring))
            .collect(),
        "teams" => config.teams.iter().map(ccs::team).collect(),
        "groups" => config.groups.iter().map(ccs::group).collect(),
        "awards" => app
            .live
            .awards_for(&door)
            .await
            .map_err(refused)?
            .iter()
            .map(ccs::award)
            .collect(),
        "organizations" => config.organizations.iter().map(ccs::organization).collect(),
        "submissions" => {
            let all = app.live.submissions_for(&door).await.map_err(refused)?;
            all.iter().map(|s| ccs::submission(s, &cx)).collect()
        }
        "judgements" => {
            let all = app.live.judgements_for(&door).await.map_err(refused)?;
            all.iter().map(|j| ccs::judgement(j, &cx)).collect()
        }
        "runs" => {
            let all = app.live.runs_for(&door).await.map_err(refused)?;
            all.iter().map(|r| ccs::run(r, &cx)).collect()
        }
        "clarifications" => {
            let all = app.live.clarifications_for(&door).await.map_err(failed)?;
            all.iter().map(|c| ccs::clarification(c, &cx)).collect()
        }
        _ => {
            return Err(error(
                StatusCode::NOT_FOUND,
                &format!("no endpoint `{collection}`"),
            ))
        }
    })
}

/// Keeps the objects whose ID properties equal the query's (`team_id=X`;
/// an empty value matches `null`), as the specification's filtering asks.
fn filter(objects: Vec<Value>, query: &HashMap<String, String>) -> Vec<Value> {
    objects
        .into_iter()
        .filter(|o| {
            query.iter().all(|(key, value)| {
                if !key.ends_with("_id") {
                    return true;
                }
                match o.get(key) {
                    Some(Value::String(s)) => s == value,
                    Some(Value::Null) | None => value.is_empty(),
                    Some(other) => value.parse::<Value>().is_ok_and(|v| &v == other),
                }
            })
        })
        .collect()
}

/// `GET /api/contests/{cid}/{collection}`.
pub(crate) async fn collection(
    State(app): State<App>,
    Path((cid, collection)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    viewer: Viewer,
) -> Response {
    listed(&app, &cid, &collection, &query, &viewer).await
}

/// `GET /api/contests/{cid}/submissions` (a route of its own: it has a `POST`).
pub(crate) async fn submissions(
    State(app): State<App>,
    Path(cid): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    viewer: Viewer,
) -> Response {
    listed(&app, &cid, "submissions", &query, &viewer).await
}

/// `GET /api/contests/{cid}/clarifications` (a route of its own: it has a
/// `POST`).
pub(crate) async fn clarifications(
    State(app): State<App>,
    Path(cid): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    viewer: Viewer,
) -> Response {
    listed(&app, &cid, "clarifications", &query, &viewer).await
}

/// The objects of `collection` this viewer may see that match `query`.
async fn listed(
    app: &App,
    cid: &str,
    collection: &str,
    query: &HashMap<String, String>,
    viewer: &Viewer,
) -> Response {
    let result = async {
        check_contest(app, cid)?;
        let objects = visible(app, viewer, collection).await?;
        Ok::<_, ApiError>(Json(filter(objects, query)))
    };
    result.await.into_response()
}

/// `GET /api/contests/{cid}/{collection}/{id}`: 404 for what this viewer
/// may not see, as for what does not exist.
pub(crate) async fn object(
    State(app): State<App>,
    Path((cid, collection, id)): Path<(String, String, String)>,
    viewer: Viewer,
) -> Response {
    let result = async {
        check_contest(&app, &cid)?;
        let objects = visible(&app, &viewer, &collection).await?;
        objects
            .into_iter()
            .find(|o| o.get("id").and_then(Value::as_str) == Some(&id))
            .map(Json)
            .ok_or_else(|| error(StatusCode::NOT_FOUND, &format!("no {collection} `{id}`")))
    };
    result.await.into_response()
}

/// `GET /api/contests/{cid}/submissions/{id}/files`: the source in a zip.
pub(crate) async fn submission_files(
    State(app): State<App>,
    Path((cid, id)): Path<(String, String)>,
    viewer: Viewer,
) -> Response {
    let result = async {
        check_contest(&app, &cid)?;
        let not_found = || error(StatusCode::NOT_FOUND, &format!("no submission `{id}`"));
        let number: i64 = id.parse().map_err(|_| not_found())?;
        let detail = app
            .live
            .submission_for(&viewer.door(), number)
            .await
            .map_err(refused)?
            .ok_or_else(not_found)?;
        let zip = zip_of(&detail.files);
        Ok::<_, ApiError>(
            (
                [
                    (header::CONTENT_TYPE, "application/zip".to_string()),
                    (
                        header::CONTENT_DISPOSITION,
                        "attachment; filename=\"files.zip\"".to_string(),
                    ),
                ],
                zip,
            )
                .into_response(),
        )
    };
    result.await.into_response()
}

/// `POST /api/contests/{cid}/submissions`: a team's submission, as the
/// specification's JSON (`problem_id`, `language_id`, `files` as a base64
/// zip) or as DOMjudge's submit client sends it (a form with `problem`,
/// `language`, `entry_point` and the file as `code[]`), both read by the
/// one reader of submissions.
pub(crate) async fn post_submission(
    State(app): State<App>,
    Path(cid): Path<String>,
    viewer: Viewer,
    submission: Result<Submission, Unreadable>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let team = match &viewer {
        Viewer::Public => {
            return Err(error(
                StatusCode::UNAUTHORIZED,
                "log in as a team to submit",
            ))
        }
        Viewer::Account(Account::Jury) => {
            return Err(error(
                StatusCode::FORBIDDEN,
                "submissions come from teams (log in as one)",
            ))
        }
        Viewer::Account(Account::Team(t)) => t.clone(),
    };
    let submission = submission.map_err(|Unreadable(r)| refused(r))?;
    let record = submission
        .submit_as(&app.live, &team)
        .await
        .map_err(refused)?;
    let cx = context(&app).await?;
    let location = format!("/api/contests/{cid}/submissions/{}", record.id);
    Ok(created(location, ccs::submission(&record, &cx)))
}

/// `POST /api/contests/{cid}/clarifications`: a team's question, or the
/// jury's answer or announcement.
pub(crate) async fn post_clarification(
    State(app): State<App>,
    Path(cid): Path<String>,
    viewer: Viewer,
    body: Bytes,
) -> Response {
    let result = async {
        check_contest(&app, &cid)?;
        let value: Value = serde_json::from_slice(&body).map_err(|e| {
            error(
                StatusCode::BAD_REQUEST,
                &format!("the body is not JSON: {e}"),
            )
        })?;
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
        for forbidden in ["id", "time", "contest_time"] {
            if value.get(forbidden).is_some_and(|v| !v.is_null()) {
                return Err(error(
                    StatusCode::BAD_REQUEST,
                    &format!("`{forbidden}` is set by the server"),
                ));
            }
        }
        let body_text = text("text").unwrap_or_default();
        let problem = text("problem_id");
        let clarification = match &viewer {
            Viewer::Public => {
                return Err(error(
                    StatusCode::UNAUTHORIZED,
                    "log in to send clarifications",
                ))
            }
            Viewer::Account(Account::Team(team)) => {
                if text("from_team_id").is_some_and(|f| &f != team) {
                    return Err(error(
                        StatusCode::FORBIDDEN,
                        "`from_team_id` is not the team logged in",
                    ));
                }
                if value.get("to_team_id").is_some_and(|v| !v.is_null()) {
                    return Err(error(
                        StatusCode::BAD_REQUEST,
                        "teams cannot send clarifications to other teams",
                    ));
                }
                app.live
                    .ask(team, problem.as_deref(), &body_text)
                    .await
                    .map_err(refused)?
            }
            Viewer::Account(Account::Jury) => {
                let reply_to = match text("reply_to_id") {
                    Some(r) => Some(r.parse::<i64>().map_err(|_| {
                        error(StatusCode::BAD_REQUEST, &format!("no clarification `{r}`"))
                    })?),
                    None => None,
                };
                app.live
                    .answer(
                        reply_to,
                        text("to_team_id").as_deref(),
                        problem.as_deref(),
                        &body_text,
                    )
                    .await
                    .map_err(refused)?
            }
        };
        let cx = context(&app).await?;
        let location = format!("/api/contests/{cid}/clarifications/{}", clarification.id);
        Ok::<_, ApiError>(created(location, ccs::clarification(&clarification, &cx)))
    };
    result.await.into_response()
}

/// `PATCH /api/contests/{cid}`: the jury sets or clears the start time
/// (`contest_start`), or thaws the scoreboard (`scoreboard_thaw_time`, now
/// or in the past: thawed now).
pub(crate) async fn patch_contest(
    State(app): State<App>,
    Path(cid): Path<String>,
    viewer: Viewer,
    body: Bytes,
) -> Response {
    let result = async {
        check_contest(&app, &cid)?;
        if !viewer.is_jury() {
            return Err(error(
                StatusCode::FORBIDDEN,
                "only the jury changes the contest",
            ));
        }
        let value: Value = serde_json::from_slice(&body).map_err(|e| {
            error(
                StatusCode::BAD_REQUEST,
                &format!("the body is not JSON: {e}"),
            )
        })?;
        if value.get("id").and_then(Value::as_str) != Some(cid.as_str()) {
            return Err(error(StatusCode::CONFLICT, "`id` must be the contest's id"));
        }
        if let Some(start) = value.get("start_time") {
            let start = match start {
                Value::Null => None,
                Value::String(t) => {
                    Some(parse_time(t).map_err(|e| error(StatusCode::BAD_REQUEST, &e))?)
                }
                _ => {
                    return Err(error(
                        StatusCode::BAD_REQUEST,
                        "`start_time` is a time or null",
                    ))
                }
            };
            if start.is_some_and(|s| s < now_ms() + 30_000) {
                return Err(error(
                    StatusCode::FORBIDDEN,
                    "the start must be at least 30 s in the future",
                ));
            }
            app.live.schedule_start(start).await.map_err(refused)?;
        } else if let Some(thaw) = value.get("scoreboard_thaw_time").and_then(Value::as_str) {
            let at = parse_time(thaw).map_err(|e| error(StatusCode::BAD_REQUEST, &e))?;
            if at > now_ms() {
                return Err(error(
                    StatusCode::FORBIDDEN,
                    "a thaw in the future is not supported: thaw now",
                ));
            }
            app.live.thaw_now().await.map_err(refused)?;
        } else {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "give `start_time` or `scoreboard_thaw_time`",
            ));
        }
        Ok::<_, ApiError>(Json(contest_value(&app, ccs::Dialect::Strict).await?).into_response())
    };
    result.await.into_response()
}
