//! The jury's desk and the teams' notices driven in-process, as browsers
//! (a session cookie, the form token): who is told of a new message on
//! any page, the badges, claims between two judges.

use axum::body::Body;
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use tower::ServiceExt;

use super::{fixture, unauthenticated, Fixture};
use crate::server::testing::judge_queued;
use crate::server::visibility::Viewer;
use crate::verdict::Verdict;
use crate::web::auth::{self, Account};

/// A logged-in browser: its cookie and its form token.
pub(super) struct Browser {
    cookie: String,
    pub(super) csrf: String,
}

impl Browser {
    pub(super) async fn login(f: &Fixture, account: Account) -> Browser {
        let set = auth::start_session(&f.app, &account).await.unwrap();
        let cookie = set.split(';').next().unwrap().to_string();
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, cookie.parse().unwrap());
        let session = auth::session(&f.app, &headers).await.unwrap();
        Browser {
            cookie,
            csrf: session.csrf,
        }
    }

    fn request(&self, method: &str, uri: &str) -> axum::http::request::Builder {
        Request::builder()
            .method(method)
            .uri(uri)
            .header(crate::web::connections::PEER, "10.1.1.1")
            .header(header::COOKIE, &self.cookie)
    }

    /// A GET: status and body.
    pub(super) async fn get(&self, router: &Router, uri: &str) -> (StatusCode, String) {
        let response = router
            .clone()
            .oneshot(self.request("GET", uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// A stream's response, its body unread.
    pub(super) async fn open(&self, router: &Router, uri: &str) -> axum::response::Response {
        router
            .clone()
            .oneshot(self.request("GET", uri).body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    /// A form POSTed with the browser's token (`fields` url-encoded):
    /// status, and where it leads (`Location`) or else the body.
    pub(super) async fn post(
        &self,
        router: &Router,
        uri: &str,
        fields: &[(&str, &str)],
    ) -> (StatusCode, String) {
        let mut form = format!("csrf={}", encode(&self.csrf));
        for (k, v) in fields {
            form.push_str(&format!("&{k}={}", encode(v)));
        }
        let response = router
            .clone()
            .oneshot(
                self.request("POST", uri)
                    .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .body(Body::from(form))
                    .unwrap(),
            )
            .await
            .unwrap();
        let status = response.status();
        if let Some(to) = response.headers().get(header::LOCATION) {
            return (status, to.to_str().unwrap().to_string());
        }
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }
}

/// `text` percent-encoded for a form.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The next server-sent message of `body` (within 30 s).
pub(super) async fn next_message(body: &mut Body) -> String {
    let frame = tokio::time::timeout(std::time::Duration::from_secs(30), body.frame())
        .await
        .expect("a message")
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(frame.data_ref().unwrap())
        .trim()
        .to_string()
}

const NOTICE: &str = "event: clarification\ndata: changed";

#[tokio::test]
async fn a_team_is_told_of_its_answer_on_any_page_and_no_one_else_is() {
    let f = fixture(true, false).await;
    let router = f.router();
    let t1 = Browser::login(&f, Account::Team("t1".into())).await;
    let t2 = Browser::login(&f, Account::Team("t2".into())).await;
    let jury = Browser::login(&f, Account::Jury).await;
    let mut t1_stream = t1.open(&router, "/team/updates").await.into_body();
    let mut t2_stream = t2.open(&router, "/team/updates").await.into_body();
    let mut public = unauthenticated(&router, "/updates", "1.2.3.4")
        .await
        .into_body();
    let mut jury_stream = jury.open(&router, "/jury/updates").await.into_body();

    // t1 asks a technical question: the jury is told and counts it.
    let (status, _) = t1
        .post(
            &router,
            "/team/clarifications",
            &[("problem", "*technical"), ("text", "Which g++?")],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(next_message(&mut jury_stream).await, NOTICE);
    let (_, badge) = jury.get(&router, "/jury/fragment/badge").await;
    assert_eq!(badge, "1 unanswered");
    let (_, page) = jury.get(&router, "/jury").await;
    assert!(page.contains("1 unanswered"), "in the menu of every page");
    // Its own question tells t1 nothing new: its first message is plain.
    assert_eq!(next_message(&mut t1_stream).await, "data: changed");

    // The jury answers t1 alone: t1 is told, on whatever page it has open.
    let (status, _) = jury
        .post(
            &router,
            "/jury/clarifications",
            &[("reply_to", "1"), ("team", "t1"), ("text", "g++ 12")],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(next_message(&mut t1_stream).await, NOTICE);
    let (_, badge) = t1.get(&router, "/team/fragment/badge").await;
    assert_eq!(badge, "1 new");
    let (_, home) = t1.get(&router, "/team/scoreboard").await;
    assert!(
        home.contains("1 new") && home.contains("data-notice"),
        "{home}"
    );
    let (_, badge) = jury.get(&router, "/jury/fragment/badge").await;
    assert_eq!(badge, "", "answered");
    let (_, desk) = jury.get(&router, "/jury/fragment/clarifications").await;
    assert!(desk.contains("<strong>answered</strong>"), "{desk}");
    assert!(desk.contains("technical"), "{desk}");

    // Neither t2 nor the public hears of it: their first message is for
    // a public change, and plain.
    f.app
        .live
        .test_store()
        .publish(vec![(
            crate::server::model::Audience::Public,
            crate::server::model::EventData::Team(crate::server::model::TeamSnapshot {
                id: "t2".into(),
                name: "T2".into(),
                ..Default::default()
            }),
        )])
        .await
        .unwrap();
    assert_eq!(next_message(&mut t2_stream).await, "data: changed");
    assert_eq!(next_message(&mut public).await, "data: changed");
    let (_, badge) = t2.get(&router, "/team/fragment/badge").await;
    assert_eq!(badge, "");

    // An announcement tells every team; reading the page clears the badge.
    jury.post(
        &router,
        "/jury/clarifications",
        &[("problem", "a"), ("text", "A: n fits in 64 bits")],
    )
    .await;
    assert_eq!(next_message(&mut t2_stream).await, NOTICE);
    let (_, badge) = t1.get(&router, "/team/fragment/badge").await;
    assert_eq!(badge, "2 new");
    let (_, page) = t1.get(&router, "/team/clarifications").await;
    assert!(page.contains("problem A") && page.contains("technical"));
    let (_, badge) = t1.get(&router, "/team/fragment/badge").await;
    assert_eq!(badge, "", "read");
    // The public hears of the announcement only as a change.
    assert_eq!(next_message(&mut public).await, "data: changed");

    // Badges are their owners': another's is 404.
    assert_eq!(
        t1.get(&router, "/jury/fragment/badge").await.0,
        StatusCode::NOT_FOUND
    );
    let response = unauthenticated(&router, "/team/fragment/badge", "1.2.3.4").await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_question_claimed_by_one_judge_is_not_answered_by_another() {
    let f = fixture(true, false).await;
    let router = f.router();
    let t1 = Browser::login(&f, Account::Team("t1".into())).await;
    let first = Browser::login(&f, Account::Jury).await;
    let second = Browser::login(&f, Account::Jury).await;
    t1.post(
        &router,
        "/team/clarifications",
        &[("problem", "a"), ("text", "Is 0 allowed?")],
    )
    .await;
    let mut second_stream = second.open(&router, "/jury/updates").await.into_body();

    let (status, _) = first
        .post(&router, "/jury/clarifications/1/claim", &[])
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // The other judge's list follows the claim (no event of the feed).
    assert_eq!(next_message(&mut second_stream).await, "data: changed");
    let (_, desk) = second.get(&router, "/jury/fragment/clarifications").await;
    assert!(desk.contains("claimed by judge "), "{desk}");
    assert!(
        !desk.contains("name=\"reply_to\""),
        "no answer form: {desk}"
    );
    let (_, mine) = first.get(&router, "/jury/fragment/clarifications").await;
    assert!(mine.contains("claimed by you") && mine.contains("name=\"reply_to\""));

    // The second judge can neither claim it nor answer it.
    let (status, text) = second
        .post(&router, "/jury/clarifications/1/claim", &[])
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
    let answer = [("reply_to", "1"), ("team", "t1"), ("text", "yes")];
    let (status, _) = second.post(&router, "/jury/clarifications", &answer).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let all = f.app.live.clarifications_for(&Viewer::Jury).await.unwrap();
    assert_eq!(all.len(), 1, "not answered");

    // The first answers; the claim goes with the question.
    let (status, _) = first.post(&router, "/jury/clarifications", &answer).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let desk = f
        .app
        .live
        .clarification_desk(&Viewer::Jury, "nobody")
        .await
        .unwrap();
    assert!(desk[0].answered && desk[0].claim.is_none());
    assert_eq!(desk[1].clarification.problem.as_deref(), Some("a"));

    // A team reaches none of it.
    let (status, _) = t1
        .post(&router, "/jury/clarifications/1/release", &[])
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        t1.get(&router, "/jury/fragment/clarifications").await.0,
        StatusCode::NOT_FOUND
    );
    for viewer in [Viewer::Public, Viewer::Team("t1".into())] {
        assert!(f.app.live.clarification_desk(&viewer, "x").await.is_err());
        assert!(f
            .app
            .live
            .claim_clarification(&viewer, 1, "x")
            .await
            .is_err());
    }
}

/// Submits `teams`' submissions of problem a, in order.
pub(super) async fn submit(f: &Fixture, teams: &[&str]) {
    for team in teams {
        f.app
            .live
            .submit(
                team,
                "a",
                Some("python3"),
                None,
                vec![crate::server::model::SourceFile::new(
                    "a.py",
                    b"print(1)".to_vec(),
                )],
            )
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn the_jury_list_names_filters_and_marks_first_solves_and_balloons_follow() {
    let f = fixture(true, false).await;
    let router = f.router();
    // 1: t1 WA, 2: t2 AC (the first solve), 3: t1 AC; 4: t2, not judged.
    submit(&f, &["t1", "t2", "t1"]).await;
    judge_queued(&f.app.live, &[Verdict::WA, Verdict::AC, Verdict::AC]).await;
    submit(&f, &["t2"]).await;
    let jury = Browser::login(&f, Account::Jury).await;

    let (_, page) = jury.get(&router, "/jury/submissions").await;
    assert!(
        page.contains("<td>T1 (t1)</td>") && page.contains("<td>A</td>"),
        "{page}"
    );
    assert!(
        page.contains("<tr class=\"first-solve\" data-submission=\"2\">"),
        "{page}"
    );
    assert_eq!(page.matches("class=\"first-solve\"").count(), 1);
    let shown = |html: &str| -> Vec<i64> {
        let mut ids: Vec<i64> = html
            .split("data-submission=\"")
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
            .collect();
        ids.sort();
        ids
    };
    for (query, expected) in [
        ("?team=t1", vec![1, 3]),
        ("?problem=a&verdict=unjudged", vec![4]),
        ("?verdict=WA", vec![1]),
        ("?team=t2&verdict=AC", vec![2]),
        ("?team=&problem=&verdict=", vec![1, 2, 3, 4]),
    ] {
        let (status, html) = jury
            .get(&router, &format!("/jury/fragment/submissions{query}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{query}");
        assert_eq!(shown(&html), expected, "{query}");
    }
    // The page keeps its filter when it refreshes.
    let (_, page) = jury.get(&router, "/jury/submissions?team=t1").await;
    assert!(page.contains("data-live=\"/jury/fragment/submissions?team=t1\""));
    let (status, _) = jury.get(&router, "/jury/submissions?verdict=XYZ").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Balloons: each team's first accept, in order, with colour and place.
    let (_, list) = jury.get(&router, "/jury/fragment/balloons").await;
    let balloons: Vec<&str> = list.split("data-balloon=\"").skip(1).collect();
    assert_eq!(balloons.len(), 2, "{list}");
    assert!(balloons[0].starts_with('2') && balloons[0].contains("first solve"));
    assert!(balloons[0].contains("fill=\"#ff0000\"") && balloons[0].contains("<td>1</td>"));
    assert!(
        balloons[1].starts_with('3') && balloons[1].contains("<td>2</td>"),
        "t1 is second"
    );
    let (status, _) = jury.post(&router, "/jury/balloons/2/done", &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, list) = jury.get(&router, "/jury/fragment/balloons").await;
    assert!(
        list.contains("<tr class=\"done\" data-balloon=\"2\">"),
        "{list}"
    );
    assert!(list.contains("1 to hand out, 1 handed out"));
    let (status, _) = jury.post(&router, "/jury/balloons/1/done", &[]).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "a rejected submission has no balloon"
    );

    // The jury's only.
    let t1 = Browser::login(&f, Account::Team("t1".into())).await;
    for uri in [
        "/jury/balloons",
        "/jury/submissions?team=t2",
        "/jury/fragment/balloons",
    ] {
        assert_eq!(t1.get(&router, uri).await.0, StatusCode::NOT_FOUND, "{uri}");
    }
    assert_eq!(
        t1.post(&router, "/jury/balloons/3/undone", &[]).await.0,
        StatusCode::NOT_FOUND
    );
    for viewer in [Viewer::Public, Viewer::Team("t1".into())] {
        assert!(f.app.live.balloons_for(&viewer).await.is_err());
        assert!(f
            .app
            .live
            .submission_list(&viewer, &Default::default())
            .await
            .is_err());
    }
}

#[tokio::test]
async fn thaw_finalize_end_and_a_whole_problem_rejudge_ask_first() {
    let f = fixture(true, false).await;
    let router = f.router();
    submit(&f, &["t1", "t2"]).await;
    judge_queued(&f.app.live, &[Verdict::AC, Verdict::WA]).await;
    let jury = Browser::login(&f, Account::Jury).await;
    let unfinished = || async { f.app.live.jury_counts(&Viewer::Jury).await.unwrap().1 };

    // A rejudge of a problem leads to what it would touch, and is done
    // only from there.
    let (status, to) = jury
        .post(&router, "/jury/rejudge", &[("problem", "a")])
        .await;
    assert_eq!(
        (status, to.as_str()),
        (StatusCode::SEE_OTHER, "/jury/confirm/rejudge?problem=a")
    );
    assert_eq!(unfinished().await, 0, "nothing rejudged yet");
    let (_, preview) = jury.get(&router, &to).await;
    assert!(preview.contains("2 submissions of problem"), "{preview}");
    assert!(preview.contains("1 of them are accepted now"), "{preview}");
    assert!(preview.contains("data-submission=\"1\"") && preview.contains("data-submission=\"2\""));
    let (status, _) = jury
        .post(
            &router,
            "/jury/rejudge",
            &[("problem", "a"), ("confirmed", "yes")],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(unfinished().await, 2);

    // Thaw and finalize lead to their confirmation; so does ending now.
    for action in ["thaw", "finalize"] {
        let (_, to) = jury
            .post(&router, &format!("/jury/clock/{action}"), &[])
            .await;
        assert_eq!(to, format!("/jury/confirm/{action}"));
        let (status, page) = jury.get(&router, &to).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("cannot be undone") && page.contains("name=\"confirmed\""));
    }
    let (_, to) = jury.post(&router, "/jury/contest/end", &[]).await;
    assert_eq!(to, "/jury/confirm/end");
    assert!(f.app.live.state().await.unwrap().ended.is_none());
    // Longer, then ended: the API's contest and state say so.
    let (status, _) = jury
        .post(&router, "/jury/contest/duration", &[("duration", "6h 30m")])
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (status, _) = jury
        .post(&router, "/jury/contest/freeze", &[("freeze", "1h")])
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, contest) = jury.get(&router, "/api/contests/mock").await;
    let contest: serde_json::Value = serde_json::from_str(&contest).unwrap();
    assert_eq!(contest["duration"], "6:30:00.000", "{contest}");
    assert_eq!(contest["scoreboard_freeze_duration"], "1:00:00.000");
    let (status, text) = jury
        .post(&router, "/jury/contest/duration", &[("duration", "soon")])
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
    let (status, _) = jury
        .post(&router, "/jury/contest/end", &[("confirmed", "yes")])
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let state = f.app.live.state().await.unwrap();
    assert!(state.ended.is_some() && state.frozen.is_none(), "{state:?}");

    // The jury's only.
    let t1 = Browser::login(&f, Account::Team("t1".into())).await;
    assert_eq!(
        t1.get(&router, "/jury/confirm/thaw").await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        t1.get(&router, "/jury/confirm/rejudge?problem=a").await.0,
        StatusCode::NOT_FOUND
    );
    for uri in [
        "/jury/contest/end",
        "/jury/contest/duration",
        "/jury/contest/freeze",
    ] {
        let (status, _) = t1
            .post(
                &router,
                uri,
                &[("confirmed", "yes"), ("duration", "9h"), ("freeze", "")],
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
    }
    assert!(f
        .app
        .live
        .rejudge_preview(&Viewer::Team("t1".into()), "a")
        .await
        .is_err());
}
