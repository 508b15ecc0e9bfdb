//! DOMjudge's `submit` client, request by request as it sends them (built
//! here, not by the client): it reads `contests` (and needs each one's
//! `shortname`), `languages` (each with extensions: it picks the first
//! language listing the file's extension), `problems`, then posts a form
//! with the files as `code[]`; every request carries its user agent and
//! the team's basic authentication from `~/.netrc`.

use std::io::Write;

use axum::body::Body;
use axum::http::{header, Request};
use serde_json::Value;

use super::{answer, basic, fixture};
use crate::web::connections::PEER;

/// The client's user agent (`submit` sets it; requests appends its own).
const AGENT: &str = "domjudge-submit-client (python-requests/2.31.0)";

const BOUNDARY: &str = "0123456789abcdef0123456789abcdef";

/// A GET as the client sends it (`uri` under the base URL), as team t1.
fn client_get(uri: &str) -> Request<Body> {
    Request::get(uri)
        .header(PEER, "10.0.7.1")
        .header(header::USER_AGENT, AGENT)
        .header(header::AUTHORIZATION, basic("t1", "p1"))
        .body(Body::empty())
        .unwrap()
}

/// The client's POST of a submission: `problem`, `language`, then each
/// file as `code[]` (requests' multipart encoding).
fn client_post(uri: &str, problem: &str, language: &str, files: &[(&str, &[u8])]) -> Request<Body> {
    let mut body = Vec::new();
    for (name, value) in [("problem", problem), ("language", language)] {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        )
        .unwrap();
    }
    for (name, content) in files {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"code[]\"; filename=\"{name}\"\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{BOUNDARY}--\r\n").unwrap();
    Request::post(uri)
        .header(PEER, "10.0.7.1")
        .header(header::USER_AGENT, AGENT)
        .header(header::AUTHORIZATION, basic("t1", "p1"))
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(body))
        .unwrap()
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The client's checks of `contests`, `languages` and `problems`, as in
/// its `read_contests`, `read_languages` and `read_problems`: the contest,
/// and the language it picks for `ext` (the first listing it).
async fn client_reads(router: &axum::Router, ext: &str) -> (Value, String) {
    let (status, body) = answer(router, client_get("/api/contests")).await;
    assert_eq!(status, "200", "{body}");
    let contests = json(&body);
    let contest = contests[0].clone();
    for c in contests.as_array().unwrap() {
        for key in ["id", "shortname"] {
            assert!(
                c[key].as_str().is_some_and(|s| !s.is_empty()),
                "`{key}` missing: the client says \"unexpected JSON data for 'contests'\": {body}"
            );
        }
    }
    let id = contest["id"].as_str().unwrap();
    let (status, body) = answer(router, client_get(&format!("/api/contests/{id}/languages"))).await;
    assert_eq!(status, "200", "{body}");
    let mut picked = None;
    for l in json(&body).as_array().unwrap() {
        let extensions = l["extensions"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        assert!(
            l["id"].as_str().is_some_and(|s| !s.is_empty()) && !extensions.is_empty(),
            "the client says \"unexpected JSON data for 'languages'\": {l}"
        );
        assert!(
            l["name"].is_string() && l.get("entry_point_required").is_some(),
            "{l}"
        );
        let lists = l["id"] == ext || extensions.iter().any(|e| e == ext);
        if lists && picked.is_none() {
            picked = Some(l["id"].as_str().unwrap().to_string());
        }
    }
    let (status, body) = answer(router, client_get(&format!("/api/contests/{id}/problems"))).await;
    assert_eq!(status, "200", "{body}");
    for p in json(&body).as_array().unwrap() {
        assert!(p["id"].is_string() && p["label"].is_string(), "{p}");
    }
    (contest, picked.expect("a language for the extension"))
}

#[tokio::test]
async fn domjudges_client_reads_the_contest_and_submits_a_file() {
    let f = fixture(true, false).await;
    let router = f.router();
    let (contest, language) = client_reads(&router, "py").await;
    assert_eq!(contest["shortname"], "mock");
    let uri = "/api/contests/mock/submissions";
    let source: &[u8] = b"print(int(input()) + 1)\n";
    let (status, body) = answer(
        &router,
        client_post(uri, "a", &language, &[("a.py", source)]),
    )
    .await;
    assert_eq!(status, "201 /api/contests/mock/submissions/1", "{body}");
    let submission = json(&body);
    // The client wants `id` a string and `time` in ISO 8601.
    assert_eq!(submission["id"], "1");
    assert!(
        submission["time"].as_str().is_some_and(|t| t.contains('T')),
        "{body}"
    );
    // `submit main.py helper.py`: one submission of both files (judged as
    // a folder), served back in one zip.
    let files: [(&str, &[u8]); 2] = [
        ("main.py", b"import helper\nprint(helper.X)\n"),
        ("helper.py", b"X = 1\n"),
    ];
    let (status, body) = answer(&router, client_post(uri, "A", &language, &files)).await;
    assert_eq!(status, "201 /api/contests/mock/submissions/2", "{body}");
    let jury = Request::get("/api/contests/mock/submissions/2/files")
        .header(PEER, "10.0.7.3")
        .header(header::AUTHORIZATION, basic("jury", "pj"))
        .body(Body::empty())
        .unwrap();
    let response = tower::ServiceExt::oneshot(router.clone(), jury)
        .await
        .unwrap();
    let zip = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let archive = zip::ZipArchive::new(std::io::Cursor::new(zip.to_vec())).unwrap();
    assert_eq!(
        archive.file_names().collect::<Vec<_>>(),
        ["main.py", "helper.py"]
    );
}

/// The shortname is DOMjudge's, not the specification's: the checker of
/// the specification (strict mode) gets none, and `strict` decides as in
/// DOMjudge.
#[tokio::test]
async fn only_domjudges_dialect_carries_a_shortname() {
    let f = fixture(true, false).await;
    let router = f.router();
    let plain = |uri: &str| {
        Request::get(uri)
            .header(PEER, "10.0.7.2")
            .header(header::USER_AGENT, "curl/8.5.0")
            .body(Body::empty())
            .unwrap()
    };
    for (request, shortname) in [
        (plain("/api/contests"), false),
        (plain("/api/contests/mock"), false),
        (plain("/api/contests?strict=false"), true),
        (plain("/api/contests/mock?strict=0"), true),
        (client_get("/api/contests"), true),
        (client_get("/api/contests/mock"), true),
        (client_get("/api/contests?strict=1"), false),
        (client_get("/api/contests/mock?strict=true"), false),
    ] {
        let uri = request.uri().to_string();
        let (status, body) = answer(&router, request).await;
        assert_eq!(status, "200", "{uri}: {body}");
        assert_eq!(
            body.contains("\"shortname\":\"mock\""),
            shortname,
            "{uri}: {body}"
        );
    }
}
