//! The HTTP endpoint Competitive Companion posts problems to: `POST /` with
//! a JSON body (`Content-Type: application/json`), on 127.0.0.1 only. Each
//! request is answered at once (the extension gives up after 500 ms) and
//! reported as an [`Event`]; the main function is [`serve`].
//!
//! What is refused, with an error status and a one-line reason: a request
//! from a web page (its `Origin` is a site, not a browser extension: any page
//! could otherwise post problems here), one naming another host (DNS
//! rebinding), a body that is not JSON (415), over [`MAX_BODY`] (413), slower
//! than [`BODY_DEADLINE`] (408), a task that does not parse (400), another
//! method (405). Malformed HTTP gets hyper's own 400.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc::UnboundedSender;

use super::guard::{GuardedListener, CONNECTION_DEADLINE};
use super::store::{self, Saved};
use crate::problem::companion::Task;

/// The ports Competitive Companion posts to without being told (one per
/// tool it knows: CPH's 27121, CP Editor's 10045, Caide's 10043, ...).
pub(crate) const COMPANION_PORTS: &[u16] = &[1327, 4244, 6174, 10042, 10043, 10045, 27121];

/// The largest request body taken (a problem's samples are kilobytes; a
/// contest's archive of samples a few megabytes).
pub(crate) const MAX_BODY: usize = 16 << 20;

/// How long a request's body may take to arrive.
pub(crate) const BODY_DEADLINE: Duration = Duration::from_secs(10);

/// How `judge listen` runs.
#[derive(Debug, Clone)]
pub(crate) struct ListenSettings {
    /// Where problems are written.
    pub(crate) dir: PathBuf,
    /// The port listened on (to check `Host`).
    pub(crate) port: u16,
}

/// What happened to one request.
#[derive(Debug)]
pub(crate) enum Event {
    /// A problem was received and kept.
    Saved {
        /// What was sent.
        task: Box<Task>,
        /// Where it is.
        saved: Saved,
    },
    /// A request was refused or could not be kept.
    Refused {
        /// The status it was answered with.
        status: u16,
        /// Why.
        why: String,
    },
}

struct Shared {
    settings: ListenSettings,
    events: UnboundedSender<Event>,
}

/// Serves `listener` until `shutdown` resolves, reporting each request on
/// `events`.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    settings: ListenSettings,
    events: UnboundedSender<Event>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let shared = Arc::new(Shared { settings, events });
    let app = axum::Router::new().fallback(receive).with_state(shared);
    let listener = GuardedListener::new(listener, CONNECTION_DEADLINE);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

async fn receive(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (status, text) = match handle(&shared, request).await {
        Ok((task, saved)) => {
            let name = saved
                .folder
                .file_name()
                .unwrap_or_default()
                .to_string_lossy();
            let text = format!("saved as {name}\n");
            let _ = shared.events.send(Event::Saved {
                task: Box::new(task),
                saved,
            });
            (StatusCode::OK, text)
        }
        Err((status, why)) => {
            let _ = shared.events.send(Event::Refused {
                status: status.as_u16(),
                why: why.clone(),
            });
            (status, format!("judge listen: {why}\n"))
        }
    };
    // One request per connection: nothing lingers between problems.
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CONNECTION, "close"),
        ],
        text,
    )
        .into_response()
}

type Refusal = (StatusCode, String);

async fn handle(shared: &Shared, request: Request) -> Result<(Task, Saved), Refusal> {
    let (parts, body) = request.into_parts();
    check_headers(&parts.headers, shared.settings.port)?;
    if parts.method != Method::POST {
        return Err((
            StatusCode::METHOD_NOT_ALLOWED,
            format!(
                "{} {}: Competitive Companion's problems come as POST / (this is judge listen)",
                parts.method,
                printable(parts.uri.path())
            ),
        ));
    }
    let json = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let essence = v.split(';').next().unwrap_or("").trim();
            essence.eq_ignore_ascii_case("application/json")
        });
    if !json {
        return Err((
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (Content-Type: application/json)".into(),
        ));
    }
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let body = read_body(body).await?;
    let task = Task::parse(&body).map_err(|why| {
        (
            StatusCode::BAD_REQUEST,
            format!("not a Competitive Companion problem: {why}"),
        )
    })?;
    let value: serde_json::Value = serde_json::from_slice(&body).expect("parsed above");
    let dir = shared.settings.dir.clone();
    let kept = task.clone();
    let saved = tokio::task::spawn_blocking(move || store::save(&dir, &kept, &value))
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
        .map_err(|e| {
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!(
                    "cannot write `{}` in {}: {e}",
                    printable(&task.name),
                    shared.settings.dir.display()
                ),
            )
        })?;
    Ok((task, saved))
}

/// Refuses requests that do not come from this machine's own tools: a
/// `Host` other than the loopback names (a site whose name was made to
/// point here: DNS rebinding), an `Origin` that is a web site rather than a
/// browser extension (a page posting here behind its visitor's back).
fn check_headers(headers: &HeaderMap, port: u16) -> Result<(), Refusal> {
    let forbidden = |why: String| Err((StatusCode::FORBIDDEN, why));
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (name, host_port) = match host.rsplit_once(':') {
        Some((name, p)) if !name.ends_with(':') || name.starts_with('[') => (name, Some(p)),
        _ => (host, None),
    };
    let loopback =
        ["localhost", "127.0.0.1", "[::1]"].contains(&name.to_ascii_lowercase().as_str());
    let same_port = host_port.is_none_or(|p| p == port.to_string());
    if !loopback || !same_port {
        return forbidden(format!(
            "Host `{}` is not this machine's (judge listen answers only to localhost:{port})",
            printable(host)
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes());
        let extension = [
            "chrome-extension://",
            "moz-extension://",
            "safari-web-extension://",
        ]
        .iter()
        .any(|scheme| origin.starts_with(scheme));
        if !extension {
            return forbidden(format!(
                "Origin `{}` is a web page, not the browser extension",
                printable(&origin)
            ));
        }
    }
    Ok(())
}

async fn read_body(body: Body) -> Result<Vec<u8>, Refusal> {
    let read = axum::body::to_bytes(body, MAX_BODY);
    match tokio::time::timeout(BODY_DEADLINE, read).await {
        Err(_) => Err((
            StatusCode::REQUEST_TIMEOUT,
            format!("the body took over {} s to arrive", BODY_DEADLINE.as_secs()),
        )),
        Ok(Ok(bytes)) => Ok(bytes.to_vec()),
        Ok(Err(e)) => {
            let inner = e.into_inner();
            match inner.downcast_ref::<http_body_util::LengthLimitError>() {
                Some(_) => Err(too_large()),
                None => Err((
                    StatusCode::BAD_REQUEST,
                    format!("the body could not be read: {inner}"),
                )),
            }
        }
    }
}

fn too_large() -> Refusal {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the body is over {} MiB", MAX_BODY >> 20),
    )
}

/// `text` cut at 200 characters (renderers escape what they show).
fn printable(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}
