//! Rejudging with a preview driven in-process, as the jury's browser: from
//! the confirmation to the rejudging's page, which follows the judges
//! live (per submission the verdict before and the new one, the changed
//! ones marked, the counts), then applied or cancelled; meanwhile teams,
//! the public and the API read byte for byte what they read before.

use axum::http::StatusCode;
use axum::Router;
use serde_json::Value;

use super::desk::{next_message, submit, Browser};
use super::{fixture, get};
use crate::server::testing::{judge_next, judge_queued};
use crate::verdict::Verdict;
use crate::web::auth::Account;

/// What everyone but the jury's desk reads of the results: the API's
/// collections and feed as the public, t1, t2 and the jury (the
/// scoreboard's rows, not when it was made), and t1's pages (their
/// content, not the clock above it) in its browser `t1`.
async fn everything_read(router: &Router, t1: &Browser) -> Vec<String> {
    let mut all = Vec::new();
    let who = [
        None,
        Some(("t1", "p1")),
        Some(("t2", "p2")),
        Some(("jury", "pj")),
    ];
    for (i, auth) in who.into_iter().enumerate() {
        let peer = format!("10.3.0.{i}");
        for what in [
            "submissions",
            "judgements",
            "runs",
            "awards",
            "event-feed?stream=false",
        ] {
            let uri = format!("/api/contests/mock/{what}");
            let (status, body) = get(router, &uri, auth, &peer).await;
            all.push(format!("{uri} as {auth:?}: {status} {body}"));
        }
        let (_, board) = get(router, "/api/contests/mock/scoreboard", auth, &peer).await;
        let board: Value = serde_json::from_str(&board).unwrap();
        all.push(format!("scoreboard as {auth:?}: {}", board["rows"]));
    }
    for uri in ["/team", "/team/submissions/1", "/team/fragment/submissions"] {
        let (status, page) = t1.get(router, uri).await;
        let content = page.find("<main").map_or(page.as_str(), |at| &page[at..]);
        all.push(format!("{uri}: {status} {content}"));
    }
    let (_, board) = get(router, "/scoreboard/fragment", None, "10.3.1.1").await;
    all.push(board);
    all
}

#[tokio::test]
async fn a_rejudging_is_previewed_live_and_counts_only_once_applied() {
    let f = fixture(true, false).await;
    let router = f.router();
    submit(&f, &["t1", "t2"]).await;
    judge_queued(&f.app.live, &[Verdict::AC, Verdict::WA]).await;
    let jury = Browser::login(&f, Account::Jury).await;
    let t1 = Browser::login(&f, Account::Team("t1".into())).await;
    let before = everything_read(&router, &t1).await;

    let (status, to) = jury
        .post(
            &router,
            "/jury/rejudge",
            &[("problem", "a"), ("confirmed", "yes")],
        )
        .await;
    assert_eq!(
        (status, to.as_str()),
        (StatusCode::SEE_OTHER, "/jury/rejudgings/1")
    );
    let (status, page) = jury.get(&router, &to).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("Judged <strong class=\"progress\">0 of 2</strong>"),
        "{page}"
    );
    assert!(page.contains("0 of 2 would change (so far: 2 still being judged)"));
    assert!(page.contains("data-live=\"/jury/fragment/rejudgings/1\""));
    let apply = |page: &str| {
        let at = page
            .find("/jury/rejudgings/1/apply")
            .expect("the apply form");
        let button = &page[at..];
        let button = &button[..button.find("</button>").unwrap()];
        !button.contains("disabled")
    };
    assert!(
        !apply(&page),
        "applied only once every submission is judged"
    );
    // Another of the same problem waits for it.
    let (status, text) = jury
        .post(
            &router,
            "/jury/rejudge",
            &[("problem", "a"), ("confirmed", "yes")],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
    assert!(
        text.contains("rejudging 1 of problem A is pending"),
        "{text}"
    );

    // The page follows the judges: the jury's stream says so, and its
    // part shows the verdicts before and after, the changed one marked.
    let mut stream = jury.open(&router, "/jury/updates").await.into_body();
    judge_next(&f.app.live, Verdict::WA, 2).await;
    assert_eq!(next_message(&mut stream).await, "data: changed");
    let (_, part) = jury.get(&router, "/jury/fragment/rejudgings/1").await;
    assert!(
        part.contains("1 of 2 would change: 1 AC→WA (so far: 1 still being judged)"),
        "{part}"
    );
    assert!(
        part.contains("<tr class=\"changed\" data-submission=\"1\">"),
        "{part}"
    );
    judge_next(&f.app.live, Verdict::WA, 2).await;
    let (_, part) = jury.get(&router, "/jury/fragment/rejudgings/1").await;
    assert!(
        part.contains("1 of 2 would change: 1 AC→WA</strong>"),
        "{part}"
    );
    assert!(
        part.contains("<tr data-submission=\"2\">"),
        "unchanged: {part}"
    );
    assert!(apply(&part));
    // The jury's submission page shows the new judgement, marked.
    let (_, page) = jury.get(&router, "/jury/submissions/1").await;
    assert!(page.contains("rejudging 1</a>, not applied)"), "{page}");

    // Nobody else reads anything of it, not even the jury's API.
    assert_eq!(everything_read(&router, &t1).await, before);
    for uri in [
        "/jury/rejudgings",
        "/jury/rejudgings/1",
        "/jury/fragment/rejudgings/1",
    ] {
        assert_eq!(t1.get(&router, uri).await.0, StatusCode::NOT_FOUND, "{uri}");
    }
    assert_eq!(
        t1.post(&router, "/jury/rejudgings/1/apply", &[]).await.0,
        StatusCode::NOT_FOUND
    );

    let (status, to) = jury.post(&router, "/jury/rejudgings/1/apply", &[]).await;
    assert_eq!(
        (status, to.as_str()),
        (StatusCode::SEE_OTHER, "/jury/rejudgings/1")
    );
    let (_, page) = jury.get(&router, &to).await;
    assert!(page.contains("data-state=\"applied\""), "{page}");
    assert!(page.contains("1 of 2 changed: 1 AC→WA"), "{page}");
    let (_, list) = jury.get(&router, "/jury/rejudgings").await;
    assert!(list.contains("1 of 2 changed: 1 AC→WA"), "{list}");
    // Now t1 reads its new verdict, and the board follows.
    let (_, judgements) = get(
        &router,
        "/api/contests/mock/judgements?submission_id=1",
        Some(("t1", "p1")),
        "10.3.2.1",
    )
    .await;
    let judgements: Value = serde_json::from_str(&judgements).unwrap();
    let types: Vec<&str> = judgements
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["judgement_type_id"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["AC", "WA"]);
    let (_, board) = get(&router, "/api/contests/mock/scoreboard", None, "10.3.2.2").await;
    let board: Value = serde_json::from_str(&board).unwrap();
    for row in board["rows"].as_array().unwrap() {
        assert_eq!(row["score"]["num_solved"], 0, "{row}");
    }
}

#[tokio::test]
async fn a_cancelled_rejudging_of_one_submission_changes_nothing_anyone_reads() {
    let f = fixture(true, false).await;
    let router = f.router();
    submit(&f, &["t1", "t2"]).await;
    judge_queued(&f.app.live, &[Verdict::AC, Verdict::WA]).await;
    let jury = Browser::login(&f, Account::Jury).await;
    let t1 = Browser::login(&f, Account::Team("t1".into())).await;
    let before = everything_read(&router, &t1).await;
    // From the submission's page, with a preview.
    let (status, to) = jury
        .post(
            &router,
            "/jury/submissions/1/rejudge",
            &[("preview", "yes")],
        )
        .await;
    assert_eq!(
        (status, to.as_str()),
        (StatusCode::SEE_OTHER, "/jury/rejudgings/1")
    );
    let (_, page) = jury.get(&router, &to).await;
    assert!(page.contains("Judging again submission"), "{page}");
    // Rejudged at once meanwhile: refused, it would race the preview.
    let (status, _) = jury.post(&router, "/jury/submissions/1/rejudge", &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    judge_next(&f.app.live, Verdict::TLE, 3).await;
    let (_, part) = jury.get(&router, "/jury/fragment/rejudgings/1").await;
    assert!(part.contains("1 of 1 would change: 1 AC→TLE"), "{part}");
    let (status, to) = jury.post(&router, "/jury/rejudgings/1/cancel", &[]).await;
    assert_eq!(
        (status, to.as_str()),
        (StatusCode::SEE_OTHER, "/jury/rejudgings/1")
    );
    let (_, page) = jury.get(&router, &to).await;
    assert!(page.contains("data-state=\"cancelled\""), "{page}");
    assert_eq!(everything_read(&router, &t1).await, before);
    let (_, page) = jury.get(&router, "/jury/submissions/1").await;
    assert!(!page.contains("not applied"), "{page}");
    // Decided once.
    let (status, _) = jury.post(&router, "/jury/rejudgings/1/apply", &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
