//! The printing pages' handlers: a team's page and its form (a file or
//! pasted text, read within `[printing]`'s `max_size`), a job's text, and
//! the jury's queue with its marks. They translate only: who may send,
//! read and mark which job is `crate::server::printing`'s to say.

use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, HeaderMap};
use axum::response::{Html, IntoResponse, Redirect};
use axum::Form;

use super::frame::PageError;
use super::pages::{jury_done, Page, TokenForm};
use super::state::App;
use super::submission::FIELD_LIMIT;
use super::visitor::{Fragment, Jury, Team};
use crate::render::web::{self, printing};
use crate::server::live::Refusal;
use crate::server::printing::PrintJob;
use crate::server::visibility::Viewer;

/// A file to print as the team's form sends it.
#[derive(Debug, Default)]
struct PrintForm {
    csrf: Option<String>,
    filename: Option<String>,
    text: Vec<u8>,
}

/// Reads the form, refusing a file over `max` bytes as soon as it is.
async fn read_form(mut form: Multipart, max: u64) -> Result<PrintForm, Refusal> {
    let mut read = PrintForm::default();
    let invalid = |e: axum::extract::multipart::MultipartError| Refusal::Invalid(e.body_text());
    while let Some(mut field) = form.next_field().await.map_err(invalid)? {
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field.file_name().map(str::to_string);
        let limit = if name == "file" || name == "text" {
            max
        } else {
            FIELD_LIMIT as u64
        };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(invalid)? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() as u64 > limit {
                return Err(Refusal::TooLarge(format!(
                    "`{name}` is over {limit} bytes, the most this contest prints"
                )));
            }
        }
        let text = || String::from_utf8_lossy(&bytes).into_owned();
        match name.as_str() {
            "csrf" => read.csrf = Some(text()),
            "filename" if !bytes.is_empty() => read.filename = Some(text()),
            "file" if !bytes.is_empty() => {
                read.filename = file_name.or(read.filename);
                read.text = bytes;
            }
            "text" if read.text.is_empty() => read.text = bytes,
            _ => {}
        }
    }
    Ok(read)
}

/// `GET /team/print`.
pub(crate) async fn team_print(State(app): State<App>, t: Team) -> Page {
    let viewer = Viewer::Team(t.id.clone());
    let jobs = app
        .live
        .print_jobs_for(&viewer)
        .await
        .map_err(|_| PageError::NotFound)?;
    Ok(Html(printing::team_page(&t.frame.chrome(), &jobs)).into_response())
}

/// `POST /team/print`: a file or pasted text.
pub(crate) async fn team_send(State(app): State<App>, t: Team, request: Request) -> Page {
    if !app.live.printing_enabled() {
        return Err(PageError::NotFound);
    }
    let headers = request.headers().clone();
    let form = Multipart::from_request(request, &app)
        .await
        .map_err(|e| PageError::Plain(Refusal::Invalid(e.body_text())))?;
    let back = "/team/print";
    let form = match read_form(form, app.live.config.printing.max_size).await {
        Ok(form) => form,
        Err(r) => return Err(t.frame.refused(r, back)),
    };
    t.frame.check_form(&headers, form.csrf.as_deref())?;
    let viewer = Viewer::Team(t.id.clone());
    let name = form.filename.as_deref().unwrap_or("print.txt");
    match app.live.print(&viewer, name, &form.text).await {
        Ok(_) => Ok(Redirect::to(back).into_response()),
        Err(r) => Err(t.frame.refused(r, back)),
    }
}

/// A job's text, as plain text (never rendered as a page).
fn text_of(job: &PrintJob) -> Page {
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"print-{}.txt\"", job.id),
            ),
        ],
        job.content.clone(),
    )
        .into_response())
}

/// `GET /team/print/{id}`: one of the team's own jobs.
pub(crate) async fn team_job(State(app): State<App>, t: Team, Path(id): Path<String>) -> Page {
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let job = app
        .live
        .print_job_for(&Viewer::Team(t.id.clone()), id)
        .await
        .map_err(|_| PageError::NotFound)?;
    text_of(&job)
}

/// `GET /jury/print`.
pub(crate) async fn jury_queue(State(app): State<App>, Jury(frame): Jury) -> Page {
    let jobs = app
        .live
        .print_jobs_for(&Viewer::Jury)
        .await
        .map_err(|_| PageError::NotFound)?;
    Ok(Html(printing::queue_page(&frame.chrome(), &jobs)).into_response())
}

/// `GET /jury/fragment/print`.
pub(crate) async fn jury_queue_fragment(
    State(app): State<App>,
    Fragment(Jury(frame)): Fragment<Jury>,
) -> Page {
    let jobs = app
        .live
        .print_jobs_for(&Viewer::Jury)
        .await
        .map_err(|_| PageError::NotFound)?;
    Ok(Html(printing::queue(&frame.chrome(), &jobs).into_string()).into_response())
}

/// `GET /jury/fragment/print-badge`: the jobs not handed out, for the
/// menu.
pub(crate) async fn jury_print_badge(
    State(app): State<App>,
    Fragment(Jury(frame)): Fragment<Jury>,
) -> Page {
    if !app.live.printing_enabled() {
        return Err(PageError::NotFound);
    }
    let count = frame.chrome().print_badge;
    Ok(Html(web::print_badge(count).into_string()).into_response())
}

/// `GET /jury/print/{id}`.
pub(crate) async fn jury_job(State(app): State<App>, _jury: Jury, Path(id): Path<String>) -> Page {
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let job = app
        .live
        .print_job_for(&Viewer::Jury, id)
        .await
        .map_err(|_| PageError::NotFound)?;
    text_of(&job)
}

/// `POST /jury/print/{id}/{done|undone|again}`.
pub(crate) async fn jury_mark(
    State(app): State<App>,
    Jury(frame): Jury,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    Form(form): Form<TokenForm>,
) -> Page {
    frame.check_form(&headers, form.csrf.as_deref())?;
    let back = "/jury/print";
    let id: i64 = id.parse().map_err(|_| PageError::NotFound)?;
    let done = match action.as_str() {
        "done" => app.live.mark_print(&Viewer::Jury, id, true).await,
        "undone" => app.live.mark_print(&Viewer::Jury, id, false).await,
        "again" => app.live.reprint(&Viewer::Jury, id).await,
        _ => return Err(PageError::NotFound),
    };
    jury_done(frame, done.map(|_| back.to_string()), back)
}
