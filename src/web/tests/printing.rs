//! The printing pages: every route × viewer with printing on, the same
//! routes missing (and no menu entry) with it off, and the hostile sends:
//! names with `../` and markup, a file over `max_size`, another team's job.

use std::io::Write;

use axum::body::Body;
use axum::http::{header, Request};

use super::{answer, browser, fixture, fixture_printing, Browser};
use crate::contest::printing::Printing;
use crate::server::visibility::Viewer;
use crate::web::auth::Account;
use crate::web::connections::PEER;

const BOUNDARY: &str = "judge-print-boundary";

fn on() -> Printing {
    Printing {
        enabled: true,
        command: None,
        max_size: 1000,
    }
}

/// The team's print form: `fields`, and a file when given.
fn send(
    b: &Browser,
    csrf: bool,
    fields: &[(&str, &str)],
    file: Option<(&str, &[u8])>,
) -> Request<Body> {
    let mut body = Vec::new();
    let token = [("csrf", b.csrf.as_str())];
    let all = fields.iter().chain(token.iter().filter(|_| csrf));
    for (name, value) in all {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        )
        .unwrap();
    }
    if let Some((name, content)) = file {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: text/plain\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{BOUNDARY}--\r\n").unwrap();
    Request::post("/team/print")
        .header(PEER, "10.0.7.1")
        .header(header::HOST, "judge.test")
        .header(header::COOKIE, &b.cookie)
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(body))
        .unwrap()
}

fn page(uri: &str, b: Option<&Browser>) -> Request<Body> {
    let mut r = Request::get(uri)
        .header(PEER, "10.0.7.2")
        .header(header::HOST, "judge.test");
    if let Some(b) = b {
        r = r.header(header::COOKIE, &b.cookie);
    }
    r.body(Body::empty()).unwrap()
}

fn mark(uri: &str, b: &Browser, csrf: bool) -> Request<Body> {
    let form = if csrf {
        format!("csrf={}", b.csrf)
    } else {
        String::new()
    };
    Request::post(uri)
        .header(PEER, "10.0.7.3")
        .header(header::HOST, "judge.test")
        .header(header::COOKIE, &b.cookie)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap()
}

#[tokio::test]
async fn printing_routes_answer_each_viewer_by_the_rules() {
    let f = fixture_printing(true, false, on()).await;
    let router = f.router();
    let t1 = browser(&f.app, Account::Team("t1".into())).await;
    let t2 = browser(&f.app, Account::Team("t2".into())).await;
    let jury = browser(&f.app, Account::Jury).await;

    // Sending: a file whose name climbs and carries markup and a control
    // character; pasted text with a name; no token; too large.
    let (got, body) = answer(
        &router,
        send(
            &t1,
            true,
            &[],
            Some(("../../etc/<b>x.txt", b"int main() {}\n")),
        ),
    )
    .await;
    assert_eq!(got, "303 /team/print", "{body}");
    let (got, _) = answer(
        &router,
        send(
            &t2,
            true,
            &[("filename", "notes"), ("text", "secret of t2\n")],
            None,
        ),
    )
    .await;
    assert_eq!(got, "303 /team/print");
    let (got, _) = answer(&router, send(&t1, false, &[("text", "x")], None)).await;
    assert_eq!(got, "403");
    let big = vec![b'a'; 1001];
    let (got, body) = answer(&router, send(&t1, true, &[], Some(("big.txt", &big)))).await;
    assert_eq!(got, "413", "{body}");
    let huge = vec![b'a'; 4 << 20];
    let (got, _) = answer(&router, send(&t1, true, &[], Some(("huge.txt", &huge)))).await;
    assert_eq!(got, "413");
    let (got, _) = answer(&router, send(&jury, true, &[("text", "x")], None)).await;
    assert_eq!(got, "303 /jury");
    let jobs = f.app.live.print_jobs_for(&Viewer::Jury).await.unwrap();
    let names: Vec<&str> = jobs.iter().map(|j| j.filename.as_str()).collect();
    assert_eq!(names, ["<b>x.txt", "notes"]);

    // Route x viewer (public, t1, t2, jury).
    let viewers = [None, Some(&t1), Some(&t2), Some(&jury)];
    let table: [(&str, [&str; 4]); 6] = [
        ("/team/print", ["303 /login", "200", "200", "303 /jury"]),
        ("/team/print/1", ["303 /login", "200", "404", "303 /jury"]),
        ("/jury/print", ["303 /login", "404", "404", "200"]),
        ("/jury/fragment/print", ["404", "404", "404", "200"]),
        ("/jury/fragment/print-badge", ["404", "404", "404", "200"]),
        ("/jury/print/2", ["303 /login", "404", "404", "200"]),
    ];
    for (uri, expect) in table {
        for (who, want) in viewers.iter().zip(expect) {
            let (got, body) = answer(&router, page(uri, *who)).await;
            assert_eq!(got, want, "GET {uri}: {body}");
        }
    }
    let (_, mine) = answer(&router, page("/team/print", Some(&t1))).await;
    assert!(
        mine.contains("&lt;b&gt;x.txt") && !mine.contains("<td>notes</td>"),
        "{mine}"
    );
    assert!(
        mine.contains("href=\"/team/print\""),
        "no menu entry: {mine}"
    );
    let response = tower::ServiceExt::oneshot(router.clone(), page("/team/print/1", Some(&t1)))
        .await
        .unwrap();
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/plain; charset=utf-8"
    );
    let (_, queue) = answer(&router, page("/jury/print", Some(&jury))).await;
    assert!(queue.contains("&lt;b&gt;x.txt") && queue.contains("T1") && queue.contains("notes"));
    assert!(queue.contains("href=\"/jury/print\""));
    assert!(queue.contains("Lab 2, seat 14"), "the team's room: {queue}");
    let (_, text) = answer(&router, page("/jury/print/2", Some(&jury))).await;
    assert_eq!(text, "secret of t2\n");

    // Marking: the jury's only, with its token.
    for b in [&t1, &t2] {
        let (got, _) = answer(&router, mark("/jury/print/1/done", b, true)).await;
        assert_eq!(got, "404");
    }
    let (got, _) = answer(&router, mark("/jury/print/1/done", &jury, false)).await;
    assert_eq!(got, "403");
    assert!(f
        .app
        .live
        .print_job_for(&Viewer::Jury, 1)
        .await
        .unwrap()
        .done
        .is_none());
    let (got, _) = answer(&router, mark("/jury/print/1/done", &jury, true)).await;
    assert_eq!(got, "303 /jury/print");
    assert!(f
        .app
        .live
        .print_job_for(&Viewer::Jury, 1)
        .await
        .unwrap()
        .done
        .is_some());
    let (got, _) = answer(&router, mark("/jury/print/9/done", &jury, true)).await;
    assert_eq!(got, "404");
    let (_, mine) = answer(&router, page("/team/print", Some(&t1))).await;
    assert!(mine.contains("handed out"), "{mine}");
}

#[tokio::test]
async fn with_printing_off_the_pages_are_missing_and_the_menu_has_no_entry() {
    let f = fixture(true, false).await;
    let router = f.router();
    let t1 = browser(&f.app, Account::Team("t1".into())).await;
    let jury = browser(&f.app, Account::Jury).await;
    for (uri, b) in [
        ("/team/print", &t1),
        ("/team/print/1", &t1),
        ("/jury/print", &jury),
        ("/jury/print/1", &jury),
        ("/jury/fragment/print", &jury),
        ("/jury/fragment/print-badge", &jury),
    ] {
        let (got, _) = answer(&router, page(uri, Some(b))).await;
        assert_eq!(got, "404", "GET {uri}");
    }
    let (got, _) = answer(&router, send(&t1, true, &[("text", "x")], None)).await;
    assert_eq!(got, "404");
    let (got, _) = answer(&router, mark("/jury/print/1/done", &jury, true)).await;
    assert_eq!(got, "404");
    let (_, home) = answer(&router, page("/team", Some(&t1))).await;
    assert!(!home.contains("/team/print"), "{home}");
    let (_, home) = answer(&router, page("/jury", Some(&jury))).await;
    assert!(!home.contains("/jury/print"), "{home}");
}

/// The jury's menu counts the jobs not handed out, on every page and in
/// its fragment, and the jury's pages hear of each change (a job sent, a
/// job handed out) through the desk's notices; nobody else sees a count.
#[tokio::test]
async fn the_jury_menu_counts_the_jobs_waiting_and_hears_of_each_change() {
    let f = fixture_printing(true, false, on()).await;
    let router = f.router();
    let t1 = browser(&f.app, Account::Team("t1".into())).await;
    let jury = browser(&f.app, Account::Jury).await;
    let mut desk = f.app.live.subscribe_desk();
    let badge = |count: &str| {
        format!(
            "data-live=\"/jury/fragment/print-badge\" data-events=\"/jury/updates\">{count}</span>"
        )
    };
    let (_, home) = answer(&router, page("/jury", Some(&jury))).await;
    assert!(home.contains(&badge("")), "no job yet: {home}");
    for text in ["one\n", "two\n"] {
        desk.borrow_and_update();
        let (got, _) = answer(&router, send(&t1, true, &[("text", text)], None)).await;
        assert_eq!(got, "303 /team/print");
        assert!(
            desk.has_changed().unwrap(),
            "the jury's pages hear of a job sent"
        );
    }
    let (got, fragment) = answer(&router, page("/jury/fragment/print-badge", Some(&jury))).await;
    assert_eq!((got.as_str(), fragment.as_str()), ("200", "2 waiting"));
    for uri in ["/jury", "/jury/submissions", "/jury/print"] {
        let (_, body) = answer(&router, page(uri, Some(&jury))).await;
        assert!(body.contains(&badge("2 waiting")), "GET {uri}: {body}");
    }
    let (_, mine) = answer(&router, page("/team/print", Some(&t1))).await;
    assert!(!mine.contains("print-badge"), "{mine}");
    desk.borrow_and_update();
    let (got, _) = answer(&router, mark("/jury/print/1/done", &jury, true)).await;
    assert_eq!(got, "303 /jury/print");
    assert!(
        desk.has_changed().unwrap(),
        "the jury's pages hear of a job handed out"
    );
    let (_, fragment) = answer(&router, page("/jury/fragment/print-badge", Some(&jury))).await;
    assert_eq!(fragment, "1 waiting");
    let (_, _) = answer(&router, mark("/jury/print/2/done", &jury, true)).await;
    let (_, fragment) = answer(&router, page("/jury/fragment/print-badge", Some(&jury))).await;
    assert_eq!(fragment, "", "none waiting: no badge");
    assert_eq!(
        f.app
            .live
            .print_badge(&Viewer::Team("t1".into()))
            .await
            .unwrap(),
        0
    );
}
