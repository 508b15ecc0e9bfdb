//! The one reader of a submission, however it comes: the team's web form
//! (multipart, the file as `file`), DOMjudge's submit client (multipart,
//! the file as `code[]`) and the Contest API's JSON (the file in a base64
//! zip); a form's `.zip` is unpacked as the API's zip is. The same limits meet all three, in one place: files of at most
//! the contest's `max_source` bytes together (several are a folder
//! submission, as DOMjudge's client and the zip send them), text fields of
//! at most [`FIELD_LIMIT`] bytes; the files' names and the language are
//! then checked by the contest (`LiveContest::submit`), the same for all.
//! The main type is [`Submission`], an extractor.

use std::io::Read;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde::Deserialize;

use super::state::{message_of, status_of, App};
use crate::server::live::MAX_FILES;
use crate::server::live::{LiveContest, Refusal};
use crate::server::model::{SourceFile, SubmissionRecord};

/// The most bytes a text field of a submission (problem, language, entry
/// point, form token) may have.
pub(crate) const FIELD_LIMIT: usize = 1000;

/// A submission as its client sent it, read within the limits.
#[derive(Debug)]
pub(crate) struct Submission {
    /// The problem's id (or label).
    pub(crate) problem: String,
    /// The language named, if any (else told from the file's extension).
    pub(crate) language: Option<String>,
    /// The entry point (Java's main class, Python's main file).
    pub(crate) entry_point: Option<String>,
    /// The files, in the order sent (their names checked by the contest).
    pub(crate) files: Vec<SourceFile>,
    /// The form's token (the web form).
    pub(crate) csrf: Option<String>,
    /// The team the client says it is (the Contest API's `team_id`).
    team_id: Option<String>,
}

impl Submission {
    /// Stores this as `team`'s submission: refused when it claims to be
    /// another team's, or when the contest refuses it.
    pub(crate) async fn submit_as(
        self,
        live: &LiveContest,
        team: &str,
    ) -> Result<SubmissionRecord, Refusal> {
        if let Some(claimed) = self.team_id.as_deref().filter(|t| *t != team) {
            return Err(Refusal::Forbidden(format!(
                "`team_id` is `{claimed}`, but you are logged in as `{team}`"
            )));
        }
        live.submit(
            team,
            &self.problem,
            self.language.as_deref(),
            self.entry_point,
            self.files,
        )
        .await
    }
}

/// A submission that could not be read within the limits.
#[derive(Debug)]
pub(crate) struct Unreadable(pub(crate) Refusal);

impl IntoResponse for Unreadable {
    fn into_response(self) -> Response {
        (status_of(&self.0), message_of(&self.0)).into_response()
    }
}

impl FromRequest<App> for Submission {
    type Rejection = Unreadable;

    async fn from_request(request: Request, app: &App) -> Result<Self, Unreadable> {
        let limit = app.live.limits.max_source;
        let multipart = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("multipart/form-data"));
        if multipart {
            let form = Multipart::from_request(request, app)
                .await
                .map_err(|e| Unreadable(Refusal::Invalid(e.body_text())))?;
            read_form(form, limit).await.map_err(Unreadable)
        } else {
            let body = Bytes::from_request(request, app)
                .await
                .map_err(|e| Unreadable(Refusal::Invalid(e.body_text())))?;
            read_json(&body, limit).map_err(Unreadable)
        }
    }
}

/// A file past [`MAX_FILES`]: refused, whichever way it came.
fn too_many_files() -> Refusal {
    Refusal::Invalid(format!(
        "more than {MAX_FILES} files: a submission has at most {MAX_FILES}"
    ))
}

/// No file: refused, whichever way it came.
fn no_file() -> Refusal {
    Refusal::Invalid("no file: a submission has a source file".into())
}

/// A file over the limit: refused, whichever way it came.
fn too_large(name: &str, limit: u64) -> Refusal {
    Refusal::TooLarge(format!(
        "`{}` is over {limit} bytes, the most a submission may have",
        name.escape_debug()
    ))
}

/// A text field within [`FIELD_LIMIT`].
fn field(name: &str, text: String) -> Result<String, Refusal> {
    if text.len() > FIELD_LIMIT {
        return Err(Refusal::Invalid(format!(
            "the field `{name}` has {} bytes; at most {FIELD_LIMIT} are accepted",
            text.len()
        )));
    }
    Ok(text)
}

/// The fields, then the submission, whichever names the client used.
#[derive(Debug, Default)]
struct Fields {
    problem: Option<String>,
    language: Option<String>,
    entry_point: Option<String>,
    csrf: Option<String>,
    team_id: Option<String>,
    files: Vec<SourceFile>,
    /// Their bytes so far.
    total: u64,
}

impl Fields {
    /// Keeps `content` as the file `name`, within [`MAX_FILES`] and `limit`
    /// bytes of all files together.
    fn file(&mut self, name: String, content: Vec<u8>, limit: u64) -> Result<(), Refusal> {
        if self.files.len() >= MAX_FILES {
            return Err(too_many_files());
        }
        self.total += content.len() as u64;
        if self.total > limit {
            let shown = if self.files.is_empty() {
                name.as_str()
            } else {
                "the submission"
            };
            return Err(too_large(shown, limit));
        }
        self.files.push(SourceFile { name, content });
        Ok(())
    }

    fn submission(self) -> Result<Submission, Refusal> {
        let problem = self
            .problem
            .filter(|p| !p.is_empty())
            .ok_or_else(|| Refusal::Invalid("no problem: choose one".into()))?;
        if self.files.is_empty() {
            return Err(no_file());
        }
        Ok(Submission {
            problem,
            language: self.language.filter(|l| !l.is_empty()),
            entry_point: self.entry_point.filter(|e| !e.is_empty()),
            files: self.files,
            csrf: self.csrf,
            team_id: self.team_id,
        })
    }
}

/// A multipart form: the web form's (`problem`, `language`, `file`,
/// `csrf`) or DOMjudge's submit client's (`problem`, `language`,
/// `entry_point`, `code[]`).
async fn read_form(mut form: Multipart, limit: u64) -> Result<Submission, Refusal> {
    let mut fields = Fields::default();
    while let Some(part) = form
        .next_field()
        .await
        .map_err(|e| Refusal::Invalid(format!("a malformed form: {e}")))?
    {
        let name = part.name().unwrap_or("").to_string();
        if matches!(name.as_str(), "file" | "code" | "code[]") {
            let filename = part.file_name().unwrap_or("").to_string();
            let bytes = part
                .bytes()
                .await
                .map_err(|e| Refusal::Invalid(format!("the file could not be read: {e}")))?;
            // A zip is its files (a folder submission, or a submit-answer
            // problem's answers, one per test), as the Contest API's zip.
            if is_zip(&filename) {
                unzip_into(&bytes, limit, &mut fields)?;
            } else {
                fields.file(filename, bytes.to_vec(), limit)?;
            }
            continue;
        }
        let slot = match name.as_str() {
            "problem" | "problem_id" => &mut fields.problem,
            "language" | "language_id" => &mut fields.language,
            "entry_point" => &mut fields.entry_point,
            "csrf" => &mut fields.csrf,
            _ => continue,
        };
        let text = part
            .text()
            .await
            .map_err(|e| Refusal::Invalid(format!("a malformed form field `{name}`: {e}")))?;
        *slot = Some(field(&name, text)?);
    }
    fields.submission()
}

/// Whether a form's file is a zip of files, by its name.
fn is_zip(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && ext.eq_ignore_ascii_case("zip"))
}

/// The Contest API's submission: its JSON object.
#[derive(Debug, Deserialize)]
struct CcsSubmission {
    id: Option<serde_json::Value>,
    time: Option<serde_json::Value>,
    contest_time: Option<serde_json::Value>,
    team_id: Option<String>,
    problem_id: Option<String>,
    language_id: Option<String>,
    entry_point: Option<String>,
    files: Option<Vec<CcsFile>>,
}

/// A file of the Contest API: a zip in base64.
#[derive(Debug, Deserialize)]
struct CcsFile {
    data: Option<String>,
    mime: Option<String>,
}

/// The Contest API's JSON (`problem_id`, `language_id`, `files`: one
/// base64 zip of the files).
fn read_json(body: &[u8], limit: u64) -> Result<Submission, Refusal> {
    let sent: CcsSubmission = serde_json::from_slice(body)
        .map_err(|e| Refusal::Invalid(format!("the body is not JSON of a submission: {e}")))?;
    for (key, value) in [
        ("id", &sent.id),
        ("time", &sent.time),
        ("contest_time", &sent.contest_time),
    ] {
        if value.as_ref().is_some_and(|v| !v.is_null()) {
            return Err(Refusal::Invalid(format!(
                "`{key}` is set by the server, not by a team"
            )));
        }
    }
    let text = |key: &str, value: Option<String>| value.map(|v| field(key, v)).transpose();
    let mut fields = Fields {
        problem: text("problem_id", sent.problem_id)?,
        language: text("language_id", sent.language_id)?,
        entry_point: text("entry_point", sent.entry_point)?,
        team_id: text("team_id", sent.team_id)?,
        ..Fields::default()
    };
    if fields.language.is_none() {
        return Err(Refusal::Invalid("`language_id` is missing".into()));
    }
    let files = sent.files.unwrap_or_default();
    if files.len() > 1 {
        return Err(Refusal::Invalid(
            "`files` has more than one zip: put every file in one".into(),
        ));
    }
    let Some(file) = files.into_iter().next() else {
        return Err(no_file());
    };
    if let Some(mime) = file.mime.filter(|m| m != "application/zip") {
        return Err(Refusal::Invalid(format!(
            "`files[0].mime` is `{}`; only application/zip is accepted",
            mime.escape_debug()
        )));
    }
    let data = file
        .data
        .ok_or_else(|| Refusal::Invalid("`files[0].data` (the zip in base64) is missing".into()))?;
    let zip = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| Refusal::Invalid(format!("`files[0].data` is not base64: {e}")))?;
    unzip_into(&zip, limit, &mut fields)?;
    fields.submission()
}

/// The files of a submission's zip, each kept by [`Fields::file`] (the
/// same limits as on a form), each read up to `limit` + 1 bytes; a file
/// in a folder keeps its path, which the contest refuses as any name with
/// a folder.
fn unzip_into(bytes: &[u8], limit: u64, fields: &mut Fields) -> Result<(), Refusal> {
    let bad = |why: String| Refusal::Invalid(format!("`files`: {why}"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| bad(format!("not a zip archive ({e})")))?;
    for i in 0..archive.len() {
        let mut file = archive
            .by_index(i)
            .map_err(|e| bad(format!("unreadable ({e})")))?;
        if !file.is_file() {
            continue;
        }
        let name = file.name().to_string();
        let mut content = Vec::new();
        file.by_ref()
            .take(limit.saturating_sub(fields.total) + 1)
            .read_to_end(&mut content)
            .map_err(|e| bad(format!("`{}` is unreadable ({e})", name.escape_debug())))?;
        fields.file(name, content, limit)?;
    }
    Ok(())
}
