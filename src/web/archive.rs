//! The contest's archive as a download: the specification's contest
//! package in one zip, for the jury only, from its pages
//! (`/jury/archive.zip`) and from the API (`GET
//! /api/contests/ID/archive`, basic authentication). They translate only:
//! the door says who may read the whole contest
//! (`LiveContest::contest_record`), `crate::render::package` makes the files.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use super::api::{error, ApiError, Viewer};
use super::feed::full_feed;
use super::pages::Page;
use super::state::{message_of, status_of, App};
use super::visitor::Jury;
use crate::render::package;
use crate::server::live::Refusal;
use crate::server::visibility::Viewer as Door;

/// The package of the contest as `viewer` may have it (the jury only), zipped.
async fn archive(app: &App, viewer: &Door) -> Result<Response, Refusal> {
    let record = app.live.contest_record(viewer).await?;
    let feed = full_feed(&app.live).await?;
    let files = package::contest_package(&record, &feed);
    let name = format!("{}.zip", record.contest.id);
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        package::zip(&files),
    )
        .into_response())
}

/// `GET /jury/archive.zip`.
pub(crate) async fn jury_archive(State(app): State<App>, Jury(frame): Jury) -> Page {
    Ok(archive(&app, &frame.viewer()).await?)
}

/// `GET /api/contests/{cid}/archive`: the jury's only (404 for others, as
/// for what does not exist).
pub(crate) async fn api_archive(
    State(app): State<App>,
    Path(cid): Path<String>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    if cid != app.live.config.contest.id {
        return Err(error(StatusCode::NOT_FOUND, &format!("no contest `{cid}`")));
    }
    archive(&app, &viewer.door())
        .await
        .map_err(|r| error(status_of(&r), &message_of(&r)))
}
