//! Every page route × viewer (public, team t1, team t2, the jury), with
//! one submission of t1's: what each gets (`200`, `404`, or a redirect and
//! where to), for every GET and every form; and what a page shows one team
//! of another's.

use axum::body::Body;
use axum::http::{header, Method, Request};

use super::{answer, browser, fixture, Browser};
use crate::web::auth::Account;
use crate::web::connections::PEER;

/// The viewers of the tables, in their order.
const WHO: [&str; 4] = ["public", "t1", "t2", "jury"];

/// A route and what each viewer gets: a status, and where a redirect
/// leads; a trailing `=` matches any value after it.
struct Row {
    method: Method,
    uri: String,
    /// The form's fields, the viewer's token added.
    form: &'static str,
    expect: [String; 4],
}

fn row(method: Method, uri: &str, form: &'static str, expect: [&str; 4]) -> Row {
    Row {
        method,
        uri: uri.to_string(),
        form,
        expect: expect.map(String::from),
    }
}

fn matches(got: &str, expected: &str) -> bool {
    match expected.strip_suffix('=') {
        Some(prefix) if expected.contains('?') => got.starts_with(&format!("{prefix}=")),
        _ => got == expected,
    }
}

/// The request of `row` as `browser` (none: not logged in), from its own
/// address; a form carries `csrf` when given.
fn request(row: &Row, browser: Option<&Browser>, csrf: Option<&str>, peer: &str) -> Request<Body> {
    let mut r = Request::builder()
        .method(row.method.clone())
        .uri(&row.uri)
        .header(PEER, peer)
        .header(header::HOST, "judge.test");
    if let Some(b) = browser {
        r = r.header(header::COOKIE, &b.cookie);
    }
    if row.method == Method::GET {
        return r.body(Body::empty()).unwrap();
    }
    let mut fields = row.form.to_string();
    if let Some(token) = csrf {
        if !fields.is_empty() {
            fields.push('&');
        }
        fields.push_str(&format!("csrf={token}"));
    }
    r.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(fields))
        .unwrap()
}

#[tokio::test]
async fn every_page_route_answers_each_viewer_by_the_rules() {
    let f = fixture(true, false).await;
    let id = f
        .app
        .live
        .submit(
            "t1",
            "a",
            None,
            None,
            vec![crate::server::model::SourceFile::new(
                "a.py",
                b"print(1)\n".to_vec(),
            )],
        )
        .await
        .unwrap()
        .id;
    let router = f.router();
    let browsers = [
        None,
        Some(browser(&f.app, Account::Team("t1".into())).await),
        Some(browser(&f.app, Account::Team("t2".into())).await),
        Some(browser(&f.app, Account::Jury).await),
    ];
    let get = Method::GET;
    let post = Method::POST;
    let all = |s: &'static str| [s; 4];
    let team_page = ["303 /login", "200", "200", "303 /jury"];
    let team_only = ["404", "200", "200", "404"];
    let jury_page = ["303 /login", "404", "404", "200"];
    let jury_only = ["404", "404", "404", "200"];
    let own = format!("/team/submissions/{id}");
    let theirs = format!("/jury/submissions/{id}");
    let to_own = format!("303 {own}");
    let to_own = to_own.as_str();
    let balloon = format!("/jury/balloons/{id}");
    let table = [
        row(
            get.clone(),
            "/",
            "",
            ["303 /login", "303 /team", "303 /team", "303 /jury"],
        ),
        row(
            get.clone(),
            "/login",
            "",
            ["200", "303 /", "303 /", "303 /"],
        ),
        row(get.clone(), "/clock", "", all("200")),
        row(get.clone(), "/static/style.css", "", all("200")),
        row(get.clone(), "/static/live.js", "", all("200")),
        row(get.clone(), "/scoreboard", "", all("200")),
        row(get.clone(), "/scoreboard/fragment", "", all("200")),
        row(get.clone(), "/updates", "", all("200")),
        row(get.clone(), "/team", "", team_page),
        row(get.clone(), "/team/problems/a", "", team_page),
        row(
            get.clone(),
            "/team/problems/zz",
            "",
            ["303 /login", "404", "404", "303 /jury"],
        ),
        row(
            get.clone(),
            "/team/problems/a/statement.pdf",
            "",
            ["303 /login", "404", "404", "303 /jury"],
        ),
        row(get.clone(), "/team/problems/a/samples/1.in", "", team_page),
        row(get.clone(), "/team/problems/a/samples/1.ans", "", team_page),
        row(
            get.clone(),
            "/team/problems/a/samples/2.in",
            "",
            ["303 /login", "404", "404", "303 /jury"],
        ),
        row(
            get.clone(),
            &own,
            "",
            ["303 /login", "200", "404", "303 /jury"],
        ),
        row(
            get.clone(),
            "/team/submissions/999",
            "",
            ["303 /login", "404", "404", "303 /jury"],
        ),
        row(
            get.clone(),
            &format!("/team/submission/s{id}"),
            "",
            [to_own; 4],
        ),
        row(get.clone(), "/team/submission/x%0A", "", all("404")),
        row(get.clone(), "/team/clarifications", "", team_page),
        row(get.clone(), "/team/scoreboard", "", team_page),
        row(get.clone(), "/team/fragment/submissions", "", team_only),
        row(get.clone(), "/team/fragment/clarifications", "", team_only),
        row(get.clone(), "/team/fragment/scoreboard", "", team_only),
        row(get.clone(), "/team/updates", "", team_only),
        row(get.clone(), "/jury", "", jury_page),
        row(get.clone(), "/jury/submissions", "", jury_page),
        row(get.clone(), &theirs, "", jury_page),
        row(
            get.clone(),
            "/jury/submissions/999",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(get.clone(), "/jury/clarifications", "", jury_page),
        row(get.clone(), "/jury/scoreboard", "", jury_page),
        row(get.clone(), "/jury/fragment/submissions", "", jury_only),
        row(get.clone(), "/jury/fragment/scoreboard", "", jury_only),
        row(get.clone(), "/jury/updates", "", jury_only),
        row(get.clone(), "/team/fragment/badge", "", team_only),
        row(get.clone(), "/jury/fragment/badge", "", jury_only),
        row(get.clone(), "/jury/archive.zip", "", jury_page),
        row(get.clone(), "/jury/fragment/clarifications", "", jury_only),
        row(get.clone(), "/jury/balloons", "", jury_page),
        row(get.clone(), "/jury/fragment/balloons", "", jury_only),
        row(
            get.clone(),
            "/jury/submissions?team=t1&problem=a&verdict=unjudged",
            "",
            jury_page,
        ),
        row(
            get.clone(),
            "/jury/fragment/submissions?verdict=AC",
            "",
            jury_only,
        ),
        row(
            get.clone(),
            "/jury/submissions?verdict=nonsense",
            "",
            ["303 /login", "404", "404", "400"],
        ),
        row(get.clone(), "/jury/confirm/thaw", "", jury_page),
        row(get.clone(), "/jury/confirm/finalize", "", jury_page),
        row(get.clone(), "/jury/confirm/end", "", jury_page),
        row(
            get.clone(),
            "/jury/confirm/rejudge?problem=a",
            "",
            jury_page,
        ),
        row(
            get.clone(),
            &format!("/jury/confirm/ignore?submission={id}&ignored=yes"),
            "",
            jury_page,
        ),
        row(
            get.clone(),
            "/jury/confirm/ignore?submission=999",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(
            get.clone(),
            "/jury/confirm/nothing",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(get.clone(), "/jury/event-feed.ndjson", "", jury_only),
        row(get.clone(), "/nothing-here", "", all("404")),
        // Forms, each with the viewer's own token.
        row(
            post.clone(),
            "/team/clarifications",
            "text=hello",
            [
                "303 /login",
                "303 /team/clarifications",
                "303 /team/clarifications",
                "303 /jury",
            ],
        ),
        row(
            post.clone(),
            "/jury/clock/nothing",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        // A form of the submission's reader sent otherwise than as
        // multipart: read as the API's JSON, and refused as not JSON.
        row(
            post.clone(),
            "/team/submit",
            "problem=a",
            ["303 /login", "400", "400", "303 /jury"],
        ),
        row(
            post.clone(),
            "/jury/clarifications",
            "text=to+all&everyone=on",
            ["303 /login", "404", "404", "303 /jury/clarifications"],
        ),
        row(
            post.clone(),
            &format!("{theirs}/rejudge"),
            "",
            ["303 /login", "404", "404", &format!("303 {theirs}")],
        ),
        // Ignoring asks first (the confirmed ignore: the door's tests).
        row(
            post.clone(),
            &format!("{theirs}/ignore"),
            "ignored=yes",
            [
                "303 /login",
                "404",
                "404",
                &format!("303 /jury/confirm/ignore?submission={id}&ignored=yes"),
            ],
        ),
        row(
            post.clone(),
            "/jury/rejudge",
            "problem=a",
            [
                "303 /login",
                "404",
                "404",
                "303 /jury/confirm/rejudge?problem=a",
            ],
        ),
        // A rejudging with a preview: its page, its live part; applied
        // only once judged, cancelled at any time.
        row(
            post.clone(),
            "/jury/rejudge",
            "problem=a&confirmed=yes",
            ["303 /login", "404", "404", "303 /jury/rejudgings/1"],
        ),
        row(get.clone(), "/jury/rejudgings", "", jury_page),
        row(get.clone(), "/jury/rejudgings/1", "", jury_page),
        row(
            get.clone(),
            "/jury/rejudgings/999",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(get.clone(), "/jury/fragment/rejudgings/1", "", jury_only),
        row(
            post.clone(),
            "/jury/rejudgings/1/nothing",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(
            post.clone(),
            "/jury/rejudgings/1/apply",
            "",
            ["303 /login", "404", "404", "403"],
        ),
        row(
            post.clone(),
            "/jury/rejudgings/1/cancel",
            "",
            ["303 /login", "404", "404", "303 /jury/rejudgings/1"],
        ),
        row(
            post.clone(),
            &format!("{theirs}/rejudge"),
            "preview=yes",
            ["303 /login", "404", "404", "303 /jury/rejudgings/2"],
        ),
        // The clock's actions that ask first lead to their confirmation.
        row(
            post.clone(),
            "/jury/clock/thaw",
            "",
            ["303 /login", "404", "404", "303 /jury/confirm/thaw"],
        ),
        row(
            post.clone(),
            "/jury/clock/finalize",
            "",
            ["303 /login", "404", "404", "303 /jury/confirm/finalize"],
        ),
        row(
            post.clone(),
            "/jury/contest/end",
            "",
            ["303 /login", "404", "404", "303 /jury/confirm/end"],
        ),
        row(
            post.clone(),
            "/jury/contest/duration",
            "duration=6h",
            ["303 /login", "404", "404", "303 /jury?done="],
        ),
        row(
            post.clone(),
            "/jury/contest/duration",
            "duration=soon",
            ["303 /login", "404", "404", "400"],
        ),
        row(
            post.clone(),
            "/jury/contest/freeze",
            "freeze=never",
            ["303 /login", "404", "404", "303 /jury?done="],
        ),
        // t1's question (the first message, from the form above).
        row(
            post.clone(),
            "/jury/clarifications/1/claim",
            "",
            ["303 /login", "404", "404", "303 /jury/clarifications"],
        ),
        row(
            post.clone(),
            "/jury/clarifications/1/release",
            "",
            ["303 /login", "404", "404", "303 /jury/clarifications"],
        ),
        row(
            post.clone(),
            "/jury/clarifications/1/nothing",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(
            post.clone(),
            "/jury/clarifications/x/claim",
            "",
            ["303 /login", "404", "404", "404"],
        ),
        // Not judged: no balloon yet.
        row(
            post.clone(),
            &format!("{balloon}/done"),
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(
            post.clone(),
            &format!("{balloon}/nothing"),
            "",
            ["303 /login", "404", "404", "404"],
        ),
        row(post.clone(), "/logout", "", all("303 /login")),
    ];
    // Changing forms without the token, or from another site: 403 to those
    // they are for (after their session is checked), and nothing done.
    let team_form = ["303 /login", "403", "403", "303 /jury"];
    let jury_form = ["303 /login", "404", "404", "403"];
    let forms = [
        row(
            post.clone(),
            "/team/clarifications",
            "text=hello",
            team_form,
        ),
        row(post.clone(), "/jury/clock/freeze", "", jury_form),
        row(
            post.clone(),
            "/jury/clarifications",
            "text=to+all&everyone=on",
            jury_form,
        ),
        row(post.clone(), &format!("{theirs}/rejudge"), "", jury_form),
        row(
            post.clone(),
            &format!("{theirs}/rejudge"),
            "preview=yes",
            jury_form,
        ),
        row(post.clone(), "/jury/rejudgings/1/apply", "", jury_form),
        row(post.clone(), "/jury/rejudgings/1/cancel", "", jury_form),
        row(post.clone(), "/jury/rejudge", "problem=a", jury_form),
        row(
            post.clone(),
            "/jury/rejudge",
            "problem=a&confirmed=yes",
            jury_form,
        ),
        row(post.clone(), "/jury/clock/thaw", "confirmed=yes", jury_form),
        row(
            post.clone(),
            "/jury/clock/finalize",
            "confirmed=yes",
            jury_form,
        ),
        row(
            post.clone(),
            "/jury/contest/end",
            "confirmed=yes",
            jury_form,
        ),
        row(
            post.clone(),
            "/jury/contest/duration",
            "duration=1h",
            jury_form,
        ),
        row(post.clone(), "/jury/contest/freeze", "freeze=1m", jury_form),
        row(post.clone(), "/jury/clarifications/1/claim", "", jury_form),
        row(
            post.clone(),
            "/jury/clarifications/1/release",
            "",
            jury_form,
        ),
        row(post.clone(), &format!("{balloon}/done"), "", jury_form),
    ];
    let clock = f.app.live.contest_now().await.unwrap().clock;
    for (i, viewer) in WHO.iter().enumerate() {
        let peer = format!("10.0.1.{i}");
        for r in &forms {
            let (got, body) = answer(&router, request(r, browsers[i].as_ref(), None, &peer)).await;
            assert_eq!(
                got, r.expect[i],
                "{} {} as {viewer} without a token: {body}",
                r.method, r.uri
            );
            let csrf = browsers[i].as_ref().map(|b| b.csrf.as_str());
            let mut cross = request(r, browsers[i].as_ref(), csrf, &peer);
            cross
                .headers_mut()
                .insert(header::ORIGIN, "http://evil.example".parse().unwrap());
            let (got, body) = answer(&router, cross).await;
            assert_eq!(
                got, r.expect[i],
                "{} {} as {viewer} from another site: {body}",
                r.method, r.uri
            );
        }
    }
    let questions = f
        .app
        .live
        .clarifications_for(&crate::server::visibility::Viewer::Jury)
        .await
        .unwrap();
    assert!(
        questions.is_empty(),
        "a refused form was taken: {questions:?}"
    );
    let state = f.app.live.state().await.unwrap();
    assert!(state.frozen.is_none(), "a refused form froze the board");
    assert!(
        state.ended.is_none() && state.finalized.is_none(),
        "a refused form ended the contest: {state:?}"
    );
    assert_eq!(
        f.app.live.contest_now().await.unwrap().clock,
        clock,
        "a refused form moved the clock"
    );
    // With the token (logging out, which ends the session, last).
    for r in &table {
        for (i, viewer) in WHO.iter().enumerate() {
            let peer = format!("10.0.2.{i}");
            let csrf = browsers[i].as_ref().map(|b| b.csrf.as_str());
            let (got, body) = answer(&router, request(r, browsers[i].as_ref(), csrf, &peer)).await;
            assert!(
                matches(&got, &r.expect[i]),
                "{} {} as {viewer}: {got}, expected {}: {body}",
                r.method,
                r.uri,
                r.expect[i]
            );
        }
    }
}

/// What one team's pages show of another's: nothing, and the jury sees
/// all; a sample is served as a file.
#[tokio::test]
async fn a_team_page_shows_its_own_submissions_only() {
    let f = fixture(true, false).await;
    f.app
        .live
        .submit(
            "t1",
            "a",
            None,
            None,
            vec![crate::server::model::SourceFile::new(
                "t1secret.py",
                b"print(1)\n".to_vec(),
            )],
        )
        .await
        .unwrap();
    let router = f.router();
    let t1 = browser(&f.app, Account::Team("t1".into())).await;
    let t2 = browser(&f.app, Account::Team("t2".into())).await;
    let jury = browser(&f.app, Account::Jury).await;
    let page = |uri: &str, b: &Browser| {
        Request::get(uri)
            .header(PEER, "10.0.3.1")
            .header(header::COOKIE, &b.cookie)
            .body(Body::empty())
            .unwrap()
    };
    for uri in ["/team", "/team/fragment/submissions"] {
        let (_, mine) = answer(&router, page(uri, &t1)).await;
        assert!(mine.contains("t1secret.py"), "{uri}: {mine}");
        let (_, other) = answer(&router, page(uri, &t2)).await;
        assert!(!other.contains("t1secret.py"), "{uri}: {other}");
    }
    let (_, all) = answer(&router, page("/jury/submissions", &jury)).await;
    assert!(all.contains("href=\"/jury/submissions/1\""), "{all}");
    let (_, statement) = answer(&router, page("/team/problems/a", &t2)).await;
    assert!(statement.contains("Add one to the number."), "{statement}");
    let (_, sample) = answer(&router, page("/team/problems/a/samples/1.ans", &t2)).await;
    assert_eq!(sample, "2\n");
}

/// Before the start a team's problem pages and samples are 404, and its
/// pages name no problem.
#[tokio::test]
async fn problems_are_not_shown_to_teams_before_the_start() {
    let f = fixture(false, false).await;
    let router = f.router();
    let t1 = browser(&f.app, Account::Team("t1".into())).await;
    for (uri, expected) in [
        ("/team/problems/a", "404"),
        ("/team/problems/a/samples/1.in", "404"),
        ("/team", "200"),
        ("/team/clarifications", "200"),
        ("/team/scoreboard", "200"),
    ] {
        let request = Request::get(uri)
            .header(PEER, "10.0.4.1")
            .header(header::COOKIE, &t1.cookie)
            .body(Body::empty())
            .unwrap();
        let (got, body) = answer(&router, request).await;
        assert_eq!(got, expected, "{uri}: {body}");
        assert!(!body.contains("Secret Title"), "{uri}: {body}");
    }
}

/// The final scoreboard shows the awards: to the jury once the results
/// are final, to teams and the public once the board is thawed too; never
/// before.
#[tokio::test]
async fn the_final_scoreboard_shows_the_awards_when_the_door_opens_them() {
    let f = fixture(true, true).await;
    let live = &f.app.live;
    let source = vec![crate::server::model::SourceFile::new(
        "a.py",
        b"print(1)\n".to_vec(),
    )];
    live.submit("t1", "a", None, None, source).await.unwrap();
    crate::server::testing::judge_queued(live, &[crate::verdict::Verdict::AC]).await;
    let router = f.router();
    let t1 = browser(&f.app, Account::Team("t1".into())).await;
    let jury = browser(&f.app, Account::Jury).await;
    let page = |uri: &str, who: Option<&Browser>| {
        let mut r = Request::get(uri).header(PEER, "10.0.9.1");
        if let Some(b) = who {
            r = r.header(header::COOKIE, &b.cookie);
        }
        r.body(Body::empty()).unwrap()
    };
    let shows = |body: &str| body.contains("Awards") && body.contains("Gold medal");
    let mut seen = Vec::new();
    for phase in ["running", "finalized", "thawed"] {
        match phase {
            "finalized" => {
                live.end_now().await.unwrap();
                live.finalize().await.unwrap();
            }
            "thawed" => live.thaw_now().await.unwrap(),
            _ => {}
        }
        let mut row = Vec::new();
        for (uri, who) in [
            ("/scoreboard", None),
            ("/team/scoreboard", Some(&t1)),
            ("/jury/scoreboard", Some(&jury)),
        ] {
            let (status, body) = answer(&router, page(uri, who)).await;
            assert_eq!(status, "200", "{uri}");
            row.push(shows(&body));
            if shows(&body) {
                // The winner by name, escaped as every name is.
                let winner = "data-award=\"winner\"><th>Contest winner</th><td>T1</td>";
                assert!(body.contains(winner), "{body}");
            }
        }
        seen.push((phase, row));
    }
    assert_eq!(
        seen,
        [
            ("running", vec![false, false, false]),
            ("finalized", vec![false, false, true]),
            ("thawed", vec![true, true, true]),
        ]
    );
}
