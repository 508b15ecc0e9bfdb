//! The Contest API and the streams as each viewer: the routes that carry
//! the attacks of the review (the freeze read from tokens and run ids,
//! cross-site writes, the login lock-out, streams without end, problems
//! before the start), and every API route × viewer.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

use super::{basic, fixture, get, unauthenticated};
use crate::server::model::{Audience, EventData, TeamSnapshot};

fn tokens(feed: &str) -> Vec<String> {
    feed.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["token"].as_str().unwrap().to_string()
        })
        .collect()
}

#[tokio::test]
async fn the_public_feed_does_not_count_hidden_events() {
    let f = fixture(true, true).await;
    let router = f.router();
    let feed = "/api/contests/mock/event-feed?stream=false";
    let (_, before) = get(&router, feed, None, "1.1.1.1").await;
    let first = tokens(&before).last().unwrap().clone();
    // 25 runs of a hidden judgement (AC on a 25-test problem), then a
    // public event; and the same with 1 run.
    f.runs("t1", 25).await;
    f.app.live.freeze_now().await.ok();
    f.app
        .live
        .test_store()
        .publish(vec![(
            Audience::Public,
            EventData::Team(TeamSnapshot {
                id: "t1".into(),
                name: "T1".into(),
                ..TeamSnapshot::default()
            }),
        )])
        .await
        .unwrap();
    let (_, after) = get(&router, feed, None, "1.1.1.1").await;
    let all = tokens(&after);
    let next = &all[all.iter().position(|t| *t == first).unwrap() + 1];
    // Numeric tokens would differ by 26: opaque ones say nothing.
    assert!(
        first.parse::<u64>().is_err() && next.parse::<u64>().is_err(),
        "tokens count the hidden events: {first} then {next}"
    );
    // A client resumes from an opaque token, and a made-up one is refused.
    let (status, rest) = get(
        &router,
        &format!("{feed}&since_token={first}"),
        None,
        "1.1.1.1",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(tokens(&rest).first(), Some(next));
    let (status, _) = get(&router, &format!("{feed}&since_token=28"), None, "1.1.1.1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_team_sees_its_runs_without_the_global_counter() {
    let f = fixture(true, true).await;
    let router = f.router();
    f.runs("t2", 25).await;
    f.runs("t1", 2).await;
    let (_, feed) = get(
        &router,
        "/api/contests/mock/event-feed?stream=false",
        Some(("t1", "p1")),
        "1.1.1.2",
    )
    .await;
    let ids: Vec<String> = feed
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "runs")
        .flat_map(|v| {
            [
                v["id"].as_str().unwrap().to_string(),
                v["data"]["id"].as_str().unwrap().to_string(),
            ]
        })
        .collect();
    assert_eq!(ids, ["1-1", "1-1", "1-2", "1-2"], "{feed}");
    // The API's runs, the same.
    let (_, runs) = get(
        &router,
        "/api/contests/mock/runs",
        Some(("t1", "p1")),
        "1.1.1.2",
    )
    .await;
    assert!(!runs.contains("\"id\":\"0\""), "{runs}");
}

#[tokio::test]
async fn page_updates_say_only_that_something_changed() {
    let f = fixture(true, true).await;
    let router = f.router();
    let response = unauthenticated(&router, "/updates", "1.1.1.3").await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    // Hidden runs, then a change of the public board's state.
    f.runs("t1", 25).await;
    f.app.live.freeze_now().await.ok();
    f.app.live.schedule_start(None).await.ok();
    f.app
        .live
        .test_store()
        .publish(vec![(
            Audience::Public,
            EventData::Team(TeamSnapshot {
                id: "t2".into(),
                name: "T2".into(),
                ..TeamSnapshot::default()
            }),
        )])
        .await
        .unwrap();
    let frame = tokio::time::timeout(std::time::Duration::from_secs(30), body.frame())
        .await
        .expect("a message for the public event")
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(frame.data_ref().unwrap()).into_owned();
    assert_eq!(text.trim(), "data: changed", "{text}");
}

#[tokio::test]
async fn streams_over_the_cap_get_503_and_pages_go_on() {
    let f = fixture(true, false).await;
    let router = f.router();
    let mut open = Vec::new();
    for _ in 0..3 {
        let r = router
            .clone()
            .oneshot(
                Request::get("/updates")
                    .header(crate::web::connections::PEER, "6.6.6.6")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        open.push(r);
    }
    let (status, _) = get(&router, "/updates", None, "6.6.6.6").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "per address");
    let (status, _) = get(&router, "/api/contests/mock/event-feed", None, "6.6.6.6").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "the feed too");
    let (status, _) = get(&router, "/scoreboard", None, "6.6.6.6").await;
    assert_eq!(status, StatusCode::OK, "pages go on");
    let (status, _) = get(&router, "/api/contests/mock/state", None, "6.6.6.6").await;
    assert_eq!(status, StatusCode::OK, "the API goes on");
    // Another address still gets its stream; a closed one is given back.
    let (status, _) = get(
        &router,
        "/api/contests/mock/event-feed?stream=false",
        None,
        "7.7.7.7",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    open.clear();
    let r = unauthenticated(&router, "/updates", "6.6.6.6").await;
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn failed_logins_lock_out_the_address_not_the_jury() {
    let f = fixture(true, false).await;
    let router = f.router();
    let state = "/api/contests/mock/state";
    for _ in 0..12 {
        get(&router, state, Some(("jury", "wrong")), "6.6.6.6").await;
    }
    let (status, _) = get(&router, state, Some(("jury", "pj")), "6.6.6.6").await;
    assert_eq!(
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "the attacker's address"
    );
    let (status, _) = get(&router, state, Some(("jury", "pj")), "10.0.0.1").await;
    assert_eq!(status, StatusCode::OK, "the jury elsewhere");
}

#[tokio::test]
async fn the_api_refuses_cross_site_writes_and_allows_no_origin() {
    let f = fixture(true, false).await;
    let router = f.router();
    let response = router
        .clone()
        .oneshot(
            Request::post("/api/contests/mock/clarifications")
                .header(crate::web::connections::PEER, "1.1.1.4")
                .header(header::HOST, "judge.local:8080")
                .header(header::ORIGIN, "https://evil.example")
                .header(header::CONTENT_TYPE, "text/plain")
                .header(header::AUTHORIZATION, basic("t1", "p1"))
                .body(Body::from(r#"{"text":"spam"}"#))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(f
        .app
        .live
        .clarifications_for(&crate::server::visibility::Viewer::Jury)
        .await
        .unwrap()
        .is_empty());
    let (_, _) = get(&router, "/api/contests/mock", None, "1.1.1.4").await;
    let response = router
        .clone()
        .oneshot(
            Request::get("/api/contests/mock")
                .header(crate::web::connections::PEER, "1.1.1.4")
                .header(header::ORIGIN, "https://evil.example")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert!(
        response
            .headers()
            .get(header::ACCESS_CONTROL_ALLOW_ORIGIN)
            .is_none(),
        "no CORS header"
    );
}

#[tokio::test]
async fn problem_titles_are_hidden_before_the_start() {
    let f = fixture(false, false).await;
    let router = f.router();
    for uri in ["/scoreboard", "/scoreboard/fragment", "/login"] {
        let (status, body) = get(&router, uri, None, "1.1.1.5").await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(!body.contains("Secret Title"), "{uri}: {body}");
    }
    let (_, board) = get(
        &router,
        "/api/contests/mock/scoreboard",
        Some(("t1", "p1")),
        "1.1.1.5",
    )
    .await;
    assert!(!board.contains("Secret Title"), "{board}");
}

#[tokio::test]
async fn a_submission_during_the_freeze_refreshes_the_public_board_once() {
    let f = fixture(true, true).await;
    let router = f.router();
    let response = unauthenticated(&router, "/updates", "1.1.1.6").await;
    let mut body = response.into_body();
    // The board shows the new attempt as pending: the page must refresh.
    f.app
        .live
        .submit(
            "t2",
            "a",
            None,
            None,
            vec![crate::server::model::SourceFile::new(
                "a.py",
                b"print(1)\n".to_vec(),
            )],
        )
        .await
        .unwrap();
    let frame = tokio::time::timeout(std::time::Duration::from_secs(30), body.frame())
        .await
        .expect("a message for the pending attempt")
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(frame.data_ref().unwrap()).into_owned();
    assert_eq!(text.trim(), "data: changed", "{text}");
}

#[tokio::test]
async fn the_api_answers_what_check_api_asks_first() {
    let f = fixture(true, false).await;
    let router = f.router();
    for uri in [
        "/api/",
        "/api",
        "/api/contests/mock/groups",
        "/api/contests/mock/organizations",
        "/api/contests/mock/awards",
    ] {
        let (status, body) = get(&router, uri, None, "10.0.0.9").await;
        assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    }
    let (_, contest) = get(&router, "/api/contests/mock", None, "10.0.0.9").await;
    assert!(!contest.contains("shortname"), "{contest}");
    let (status, _) = get(
        &router,
        "/api/contests/mock/event-feed?since_id=999999&stream=false",
        None,
        "10.0.0.9",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_public_reads_empty_submission_lists_and_no_submission() {
    let f = fixture(true, false).await;
    let router = f.router();
    for what in ["submissions", "judgements", "runs"] {
        let uri = format!("/api/contests/mock/{what}");
        let (status, body) = get(&router, &uri, None, "10.0.0.9").await;
        assert_eq!((status, body.trim()), (StatusCode::OK, "[]"), "{uri}");
        let (status, _) = get(&router, &format!("{uri}/1"), None, "10.0.0.9").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}/1");
    }
}

/// A route and what each viewer (public, t1, t2, the jury) gets.
struct Row<'a> {
    uri: &'a str,
    statuses: [u16; 4],
    /// For a list, how many objects.
    lengths: Option<[usize; 4]>,
}

/// Every API route × viewer (public, t1, t2, the jury), with one
/// submission of t1's: the status each gets, and for a list how many
/// objects.
#[tokio::test]
async fn every_api_route_answers_each_viewer_by_the_rules() {
    let f = fixture(true, false).await;
    let id = f
        .app
        .live
        .submit(
            "t1",
            "a",
            Some("python3"),
            None,
            vec![crate::server::model::SourceFile::new(
                "a.py",
                b"print(1)".to_vec(),
            )],
        )
        .await
        .unwrap()
        .id;
    let router = f.router();
    let viewers: [Option<(&str, &str)>; 4] = [
        None,
        Some(("t1", "p1")),
        Some(("t2", "p2")),
        Some(("jury", "pj")),
    ];
    let c = "/api/contests/mock";
    let sub = format!("{c}/submissions/{id}");
    let files = format!("{sub}/files");
    let all_ok = [200; 4];
    let own = [404, 200, 404, 200];
    let table = [
        Row {
            uri: "/api",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests",
            statuses: all_ok,
            lengths: Some([1; 4]),
        },
        Row {
            uri: c,
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/access",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/state",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/scoreboard",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/event-feed?stream=false",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/archive",
            statuses: [404, 404, 404, 200],
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/problems",
            statuses: all_ok,
            lengths: Some([1; 4]),
        },
        Row {
            uri: "/api/contests/mock/problems/a",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/teams",
            statuses: all_ok,
            lengths: Some([2; 4]),
        },
        Row {
            uri: "/api/contests/mock/teams/t2",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/languages",
            statuses: all_ok,
            lengths: Some([1; 4]),
        },
        Row {
            uri: "/api/contests/mock/languages/python3",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/judgement-types",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/groups",
            statuses: all_ok,
            lengths: Some([0; 4]),
        },
        Row {
            uri: "/api/contests/mock/organizations",
            statuses: all_ok,
            lengths: Some([0; 4]),
        },
        Row {
            uri: "/api/contests/mock/awards",
            statuses: all_ok,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/submissions",
            statuses: all_ok,
            lengths: Some([0, 1, 0, 1]),
        },
        Row {
            uri: &sub,
            statuses: own,
            lengths: None,
        },
        Row {
            uri: &files,
            statuses: own,
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/judgements",
            statuses: all_ok,
            lengths: Some([0; 4]),
        },
        Row {
            uri: "/api/contests/mock/judgements/1",
            statuses: [404; 4],
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/runs",
            statuses: all_ok,
            lengths: Some([0; 4]),
        },
        Row {
            uri: "/api/contests/mock/clarifications",
            statuses: all_ok,
            lengths: Some([0; 4]),
        },
        Row {
            uri: "/api/contests/other",
            statuses: [404; 4],
            lengths: None,
        },
        Row {
            uri: "/api/contests/other/submissions",
            statuses: [404; 4],
            lengths: None,
        },
        Row {
            uri: "/api/contests/mock/nothing-here",
            statuses: [404; 4],
            lengths: None,
        },
    ];
    for Row {
        uri,
        statuses,
        lengths,
    } in table
    {
        for (i, viewer) in viewers.iter().enumerate() {
            let (status, body) = get(&router, uri, *viewer, "10.0.0.9").await;
            let who = viewer.map_or("public", |v| v.0);
            assert_eq!(status.as_u16(), statuses[i], "{uri} as {who}: {body}");
            if let Some(lengths) = lengths {
                let list: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
                assert_eq!(list.len(), lengths[i], "{uri} as {who}: {body}");
            }
        }
    }
    // A wrong password is 401 on every route, public ones included.
    for uri in ["/api/contests/mock/state", "/api/contests/mock/submissions"] {
        let (status, _) = get(&router, uri, Some(("t1", "wrong")), "10.0.0.8").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{uri}");
    }
}
