//! The one reader of submissions on its three ways in: the team's web form
//! (multipart, `file`), DOMjudge's submit client (multipart to the API,
//! `code[]`) and the Contest API's JSON (a base64 zip). Each hostile or
//! oversized submission is refused by all three with the same status and
//! the same rule, and nothing is stored.

use std::io::Write;

use axum::body::Body;
use axum::http::{header, Request};
use base64::Engine;

use super::{answer, basic, browser, fixture, Browser};
use crate::server::visibility::Viewer;
use crate::web::auth::Account;
use crate::web::connections::PEER;

/// What a submission is made of, before a way in encodes it.
struct Sent<'a> {
    problem: &'a str,
    language: &'a str,
    files: Vec<(&'a str, Vec<u8>)>,
}

const BOUNDARY: &str = "judge-test-boundary";

/// A multipart body with `fields`, and the files under `file_field`.
fn multipart(fields: &[(&str, &str)], file_field: &str, files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        )
        .unwrap();
    }
    for (name, content) in files {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{file_field}\"; \
             filename=\"{name}\"\r\nContent-Type: text/plain\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{BOUNDARY}--\r\n").unwrap();
    body
}

fn zip_of(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    for (name, content) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(content).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

/// The three ways in.
#[derive(Debug, Clone, Copy)]
enum Way {
    WebForm,
    Domjudge,
    Json,
}

/// `sent` as `way` encodes it, by team t1.
fn request(way: Way, sent: &Sent, t1: &Browser) -> Request<Body> {
    let api = "/api/contests/mock/submissions";
    let r = Request::post(match way {
        Way::WebForm => "/team/submit",
        Way::Domjudge | Way::Json => api,
    })
    .header(PEER, "10.0.5.1")
    .header(header::HOST, "judge.test");
    let form_type = format!("multipart/form-data; boundary={BOUNDARY}");
    match way {
        Way::WebForm => {
            let fields = [
                ("csrf", t1.csrf.as_str()),
                ("problem", sent.problem),
                ("language", sent.language),
            ];
            r.header(header::COOKIE, &t1.cookie)
                .header(header::CONTENT_TYPE, form_type)
                .body(Body::from(multipart(&fields, "file", &sent.files)))
        }
        Way::Domjudge => {
            let fields = [("problem", sent.problem), ("language", sent.language)];
            r.header(header::AUTHORIZATION, basic("t1", "p1"))
                .header(header::CONTENT_TYPE, form_type)
                .body(Body::from(multipart(&fields, "code[]", &sent.files)))
        }
        Way::Json => {
            let files: Vec<serde_json::Value> = if sent.files.is_empty() {
                Vec::new()
            } else {
                let zip = base64::engine::general_purpose::STANDARD.encode(zip_of(&sent.files));
                vec![serde_json::json!({"data": zip, "mime": "application/zip"})]
            };
            let body = serde_json::json!({
                "problem_id": sent.problem,
                "language_id": sent.language,
                "files": files,
            });
            r.header(header::AUTHORIZATION, basic("t1", "p1"))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
        }
    }
    .unwrap()
}

#[tokio::test]
async fn the_three_ways_in_refuse_the_same_submissions_by_the_same_rule() {
    let f = fixture(true, false).await;
    let router = f.router();
    let t1 = browser(&f.app, Account::Team("t1".into())).await;
    let limit = f.app.live.limits.max_source as usize;
    let ok = || b"print(int(input()) + 1)\n".to_vec();
    let long_problem = "a".repeat(2000);
    let long_name = format!("{}.py", "a".repeat(300));
    let many_names: Vec<String> = (0..=crate::server::live::MAX_FILES)
        .map(|i| format!("m{i}.py"))
        .collect();
    let half = vec![b'#'; limit / 2 + 1];
    let cases: Vec<(&str, Sent, u16, String)> = vec![
        (
            "a file over the limit",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![("big.py", vec![b'#'; limit + 1])],
            },
            413,
            format!("is over {limit} bytes"),
        ),
        (
            "101 files",
            Sent {
                problem: "a",
                language: "python3",
                files: many_names.iter().map(|n| (n.as_str(), ok())).collect(),
            },
            400,
            "more than 100 files".into(),
        ),
        (
            "two files over the limit together",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![("a.py", half.clone()), ("b.py", half.clone())],
            },
            413,
            format!("`the submission` is over {limit} bytes"),
        ),
        (
            "one name twice",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![("a.py", ok()), ("a.py", ok())],
            },
            400,
            "`a.py` is sent twice".into(),
        ),
        (
            "no file",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![],
            },
            400,
            "no file".into(),
        ),
        (
            "a name with folders",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![("../../etc/cron.d/x.py", ok())],
            },
            400,
            "is not accepted".into(),
        ),
        (
            "a name of 300 characters",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![(long_name.as_str(), ok())],
            },
            400,
            "is not accepted".into(),
        ),
        (
            "a hidden file's name",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![(".bashrc", ok())],
            },
            400,
            "is not accepted".into(),
        ),
        (
            "an unknown language",
            Sent {
                problem: "a",
                language: "cobol",
                files: vec![("a.py", ok())],
            },
            400,
            "no language `cobol`".into(),
        ),
        (
            "an unknown problem",
            Sent {
                problem: "zz",
                language: "python3",
                files: vec![("a.py", ok())],
            },
            400,
            "no problem `zz`".into(),
        ),
        (
            "a field of 2000 bytes",
            Sent {
                problem: long_problem.as_str(),
                language: "python3",
                files: vec![("a.py", ok())],
            },
            400,
            "has 2000 bytes".into(),
        ),
        (
            "an empty file",
            Sent {
                problem: "a",
                language: "python3",
                files: vec![("a.py", Vec::new())],
            },
            400,
            "is empty".into(),
        ),
    ];
    for (what, sent, status, rule) in &cases {
        for way in [Way::WebForm, Way::Domjudge, Way::Json] {
            if matches!(way, Way::Json) && *what == "one name twice" {
                continue; // a zip cannot hold one name twice
            }
            let (got, body) = answer(&router, request(way, sent, &t1)).await;
            assert_eq!(got, status.to_string(), "{what} by {way:?}: {body}");
            assert!(body.contains(rule.as_str()), "{what} by {way:?}: {body}");
        }
    }
    let stored = f.app.live.submission_rows(&Viewer::Jury).await.unwrap();
    assert!(stored.is_empty(), "a refused submission was stored");
    // The same submission within the limits is taken by each.
    let good = Sent {
        problem: "a",
        language: "python3",
        files: vec![("a.py", ok())],
    };
    for (way, expected) in [
        (Way::WebForm, "303 /team?submitted=1"),
        (Way::Domjudge, "201 /api/contests/mock/submissions/2"),
        (Way::Json, "201 /api/contests/mock/submissions/3"),
    ] {
        let (got, body) = answer(&router, request(way, &good, &t1)).await;
        assert_eq!(got, expected, "{way:?}: {body}");
    }
    let stored = f.app.live.submission_rows(&Viewer::Jury).await.unwrap();
    assert_eq!(stored.len(), 3);
    // Several files are one submission, whichever way they come, kept in
    // the order sent.
    let two = Sent {
        problem: "a",
        language: "python3",
        files: vec![("main.py", ok()), ("helper.py", b"X = 1\n".to_vec())],
    };
    for (way, expected) in [
        (Way::WebForm, "303 /team?submitted=4"),
        (Way::Domjudge, "201 /api/contests/mock/submissions/5"),
        (Way::Json, "201 /api/contests/mock/submissions/6"),
    ] {
        let (got, body) = answer(&router, request(way, &two, &t1)).await;
        assert_eq!(got, expected, "{way:?}: {body}");
    }
    for id in 4..=6 {
        let detail = f
            .app
            .live
            .submission_for(&Viewer::Jury, id)
            .await
            .unwrap()
            .unwrap();
        let names: Vec<&str> = detail.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["main.py", "helper.py"], "submission {id}");
        assert_eq!(detail.row.submission.filename, "main.py");
    }
    // A form's .zip is its files, as the API's zip; and within the same
    // limits: a zip that unpacks past them is refused.
    let zipped = |files: &[(&str, Vec<u8>)]| Sent {
        problem: "a",
        language: "python3",
        files: vec![("both.ZIP", zip_of(files))],
    };
    let (got, body) = answer(&router, request(Way::WebForm, &zipped(&two.files), &t1)).await;
    assert_eq!(got, "303 /team?submitted=7", "{body}");
    let detail = f
        .app
        .live
        .submission_for(&Viewer::Jury, 7)
        .await
        .unwrap()
        .unwrap();
    let names: Vec<&str> = detail.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["main.py", "helper.py"]);
    let bomb = zipped(&[("a.py", vec![b'#'; limit]), ("b.py", ok())]);
    let (got, body) = answer(&router, request(Way::Domjudge, &bomb, &t1)).await;
    assert_eq!(got, "413", "{body}");
    let sneaky = zipped(&[("../x.py", ok())]);
    let (got, body) = answer(&router, request(Way::WebForm, &sneaky, &t1)).await;
    assert_eq!(got, "400", "{body}");
    assert!(body.contains("is not accepted"), "{body}");
}
