//! `judge serve` over HTTP, as its clients use it: teams submitting
//! through the Contest API (JSON with a base64 zip, and the form DOMjudge's
//! submit client sends), the judging, the scoreboard (ICPC and IOI), the
//! freeze and the thaw, rejudging, clarifications, who may see what (a
//! team reading another's submission gets 404), every response and event
//! against the API's schemas and the event feed's order rules, a restart
//! after `kill -9` during judging, and bad input of every kind.

use std::time::Duration;

use serde_json::{json, Value};

use crate::serve_support::*;
use crate::support::{problem, repo, Workspace};

const ACCEPTED: &[u8] = b"a, b = map(int, input().split())\nprint(\"Yes\" if a != b else \"No\")\n";
/// A program of two files: the main one imports the other.
const MAIN_OF_TWO: &[u8] =
    b"import nim_rule\na, b = map(int, input().split())\nprint(nim_rule.answer(a, b))\n";
const RULE_OF_TWO: &[u8] = b"def answer(a, b):\n    return \"Yes\" if a != b else \"No\"\n";
const WRONG: &[u8] =
    b"a, b = map(int, input().split())\nprint(\"Yes\" if (a + b) % 2 else \"No\")\n";

/// An ICPC contest of mini-nim that started a minute ago.
fn icpc_contest(workspace: &Workspace, name: &str, extra: &str) -> Contest {
    contest_of(
        workspace,
        name,
        "Live test",
        &repo().join(problem("mini-nim")),
        &format!(
            "start = {}\nduration = \"5h\"\nlanguages = [\"python\", \"c\"]\n{extra}",
            toml_time(-60)
        ),
    )
}

/// Every endpoint as `auth` sees it, against the schemas.
fn check_endpoints(server: &Server, auth: Option<(&str, &str)>) {
    check_schema(
        "api",
        &get(&format!("{}/api", server.base), auth).json(),
        "/api",
    );
    check_schema(
        "contests",
        &get(&format!("{}/api/contests", server.base), auth).json(),
        "contests",
    );
    check_schema("contest", &get(&server.api(""), auth).json(), "contest");
    check_schema(
        "access",
        &get(&server.api("/access"), auth).json(),
        "access",
    );
    check_schema("state", &get(&server.api("/state"), auth).json(), "state");
    check_schema(
        "scoreboard",
        &get(&server.api("/scoreboard"), auth).json(),
        "scoreboard",
    );
    let mut collections = vec![
        "judgement-types",
        "languages",
        "problems",
        "teams",
        "clarifications",
    ];
    if auth.is_some() {
        collections.extend(["submissions", "judgements", "runs"]);
    }
    for c in collections {
        let list = get(&server.api(&format!("/{c}")), auth).json();
        check_schema(c, &list, c);
        for item in list.as_array().unwrap().iter().take(3) {
            let id = item["id"].as_str().unwrap();
            let one = get(&server.api(&format!("/{c}/{id}")), auth);
            assert_eq!(one.status, 200, "{c}/{id}");
            assert_eq!(&one.json(), item);
        }
    }
}

#[test]
fn teams_submit_through_the_api_and_the_scoreboard_follows() {
    let workspace = Workspace::new();
    let contest = icpc_contest(&workspace, "live-icpc", "");
    let server = Server::start(&workspace, &contest, &[]);
    let t1 = T1;
    let t2 = T2;
    let jury = JURY;

    // The Contest API's way: JSON, the file in a base64 zip.
    let a = post_json(
        &server.api("/submissions"),
        Some(t1),
        &ccs_submission("mini-nim", "python", "nim.py", ACCEPTED),
    );
    assert_eq!(a.status, 201, "{}", a.text());
    let first = a.json();
    check_schema("submission", &first, "the created submission");
    let id1 = first["id"].as_str().unwrap().to_string();
    assert_eq!(
        a.header("location"),
        Some(format!("/api/contests/live-icpc/submissions/{id1}").as_str())
    );
    // DOMjudge's submit client's way: a form with `code[]`; the problem
    // by its label and the language by the file's extension, as it sends.
    let (content_type, body) = domjudge_form("A", "py", "wrong.py", WRONG);
    let b = send(
        &server.api("/submissions"),
        "POST",
        Some(t2),
        &content_type,
        body,
    );
    assert_eq!(b.status, 201, "{}", b.text());
    let id2 = b.json()["id"].as_str().unwrap().to_string();
    assert!(b.json()["time"].as_str().unwrap().ends_with("+00:00"));
    let c = post_json(
        &server.api("/submissions"),
        Some(t1),
        &ccs_submission("mini-nim", "python", "again.py", WRONG),
    );
    assert_eq!(c.status, 201);
    let id3 = c.json()["id"].as_str().unwrap().to_string();
    // Several files in one (`submit main.py nim_rule.py`): judged as a
    // folder, as `judge run` judges one; the first file's extension names
    // the language.
    let (content_type, body) = domjudge_form_of(
        "A",
        "py",
        &[("main.py", MAIN_OF_TWO), ("nim_rule.py", RULE_OF_TWO)],
    );
    let d = send(
        &server.api("/submissions"),
        "POST",
        Some(t2),
        &content_type,
        body,
    );
    assert_eq!(d.status, 201, "{}", d.text());
    let id4 = d.json()["id"].as_str().unwrap().to_string();

    assert_eq!(verdict_of(&server, t1, &id1), "AC");
    assert_eq!(verdict_of(&server, t2, &id2), "WA");
    assert_eq!(verdict_of(&server, t1, &id3), "WA");
    assert_eq!(verdict_of(&server, t2, &id4), "AC");
    let zip = get(&server.api(&format!("/submissions/{id4}/files")), Some(t2));
    let archive = zip::ZipArchive::new(std::io::Cursor::new(zip.body)).unwrap();
    let names: Vec<&str> = archive.file_names().collect();
    assert_eq!(names, ["main.py", "nim_rule.py"]);

    // A team sees its own submissions only: another's is 404, as if absent.
    let mine = get(&server.api("/submissions"), Some(t2)).json();
    let ids: Vec<&str> = mine
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [id2.as_str(), id4.as_str()]);
    for path in [
        format!("/submissions/{id1}"),
        format!("/submissions/{id1}/files"),
        format!("/judgements/{id1}"),
    ] {
        assert_eq!(get(&server.api(&path), Some(t2)).status, 404, "{path}");
    }
    let judgements = get(&server.api("/judgements"), Some(t2)).json();
    assert!(judgements
        .as_array()
        .unwrap()
        .iter()
        .all(|j| j["submission_id"] == id2.as_str() || j["submission_id"] == id4.as_str()));
    // The public reads an empty list (as check-api.sh asks), not a refusal.
    let public = get(&server.api("/submissions"), None);
    assert_eq!((public.status, public.json()), (200, json!([])));
    assert_eq!(
        get(&server.api(&format!("/submissions/{id1}")), None).status,
        404
    );
    assert_eq!(
        get(&server.api("/submissions"), Some(("t1", "wrong"))).status,
        401
    );
    // Public endpoints too: a wrong password is said, not shown the public view.
    assert_eq!(get(&server.api("/state"), None).status, 200);
    let wrong = get(&server.api("/state"), Some(("t2", "wrong")));
    assert_eq!(wrong.status, 401);
    assert!(wrong.header("www-authenticate").is_some());
    assert_eq!(
        get(
            &format!("{}/api/contests", server.base),
            Some(("nobody", "x"))
        )
        .status,
        401
    );
    // Its own file comes back as it was sent.
    let zip = get(&server.api(&format!("/submissions/{id1}/files")), Some(t1));
    assert_eq!(zip.header("content-type"), Some("application/zip"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip.body)).unwrap();
    let mut file = archive.by_name("nim.py").unwrap();
    let mut back = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut back).unwrap();
    assert_eq!(back, ACCEPTED);
    // The team's page: its submission with the verdict; another's is 404.
    let page = Browser::login(&server, "t2", "pw-2");
    assert!(page
        .get(&format!("{}/team", server.base))
        .text()
        .contains("WA"));
    assert_eq!(
        page.get(&format!("{}/team/submissions/{id1}", server.base))
            .status,
        404
    );
    let own = page
        .get(&format!("{}/team/submissions/{id2}", server.base))
        .text();
    assert!(
        own.contains("expected and got"),
        "the failed sample's diff: {own}"
    );
    assert_eq!(page.get(&format!("{}/jury", server.base)).status, 404);

    // The scoreboard: t1 solved A on its first try; t2 after one rejected.
    let board = get(&server.api("/scoreboard"), None).json();
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows[0]["team_id"], "t1");
    assert_eq!(rows[0]["score"]["num_solved"], 1);
    assert_eq!(rows[0]["problems"][0]["solved"], true);
    let t2_row = rows.iter().find(|r| r["team_id"] == "t2").unwrap();
    assert_eq!(t2_row["score"]["num_solved"], 1);
    assert_eq!(t2_row["problems"][0]["num_judged"], 2);
    let html = get(&format!("{}/scoreboard", server.base), None).text();
    assert!(
        html.contains("Team &lt;b&gt;One&lt;/b&gt;"),
        "team names are escaped"
    );

    // Clarifications: a question, an answer to its team only, an announcement.
    let q = post_json(
        &server.api("/clarifications"),
        Some(t1),
        &json!({"problem_id": "mini-nim", "text": "Is <a> 0 allowed?"}),
    );
    assert_eq!(q.status, 201, "{}", q.text());
    let qid = q.json()["id"].as_str().unwrap().to_string();
    let answer = post_json(
        &server.api("/clarifications"),
        Some(jury),
        &json!({"reply_to_id": qid, "to_team_id": "t1", "text": "Yes."}),
    );
    assert_eq!(answer.status, 201, "{}", answer.text());
    let all = post_json(
        &server.api("/clarifications"),
        Some(jury),
        &json!({"text": "Ten minutes left."}),
    );
    assert_eq!(all.status, 201);
    let texts = |who| -> Vec<String> {
        get(&server.api("/clarifications"), Some(who))
            .json()
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        texts(t1),
        ["Is <a> 0 allowed?", "Yes.", "Ten minutes left."]
    );
    assert_eq!(texts(t2), ["Ten minutes left."]);
    let team_page = page
        .get(&format!("{}/team/clarifications", server.base))
        .text();
    assert!(team_page.contains("Ten minutes left.") && !team_page.contains("allowed?"));

    // Rejudging (the jury's page, with its form token): a new judgement of
    // the same submission, judged afresh, the same verdict.
    let desk = Browser::login(&server, "jury", "jury-pw");
    let token = desk.csrf(&format!("{}/jury/submissions/{id2}", server.base));
    let r = desk.post(
        &server,
        &format!("/jury/submissions/{id2}/rejudge"),
        &format!("csrf={token}"),
    );
    assert_eq!(r.status, 303);
    wait_for(Duration::from_secs(120), "the rejudge", || {
        let js = get(
            &server.api(&format!("/judgements?submission_id={id2}")),
            Some(jury),
        )
        .json();
        let done: Vec<&Value> = js
            .as_array()?
            .iter()
            .filter(|j| j["judgement_type_id"].is_string())
            .collect();
        (done.len() == 2).then_some(())
    });
    // Without the form token, or from another site, a change is refused.
    assert_eq!(
        desk.post(
            &server,
            &format!("/jury/submissions/{id2}/rejudge"),
            "csrf=nope"
        )
        .status,
        403
    );
    let jury_page = desk
        .get(&format!("{}/jury/submissions/{id1}", server.base))
        .text();
    assert!(
        jury_page.contains("print(&quot;Yes&quot;"),
        "the source, escaped"
    );
    assert!(jury_page.contains("sample-1"), "per-test verdicts");

    for who in [Some(t1), Some(jury), None] {
        check_endpoints(&server, who);
    }
    let full = checked_feed(&server, Some(jury));
    let team_feed = checked_feed(&server, Some(t2));
    assert!(full.iter().any(|e| e["type"] == "runs"));
    assert!(
        team_feed
            .iter()
            .all(|e| e["data"]["team_id"].as_str().is_none_or(|t| t == "t2")),
        "a team's feed holds only its own submissions"
    );
    let public = checked_feed(&server, None);
    assert!(public
        .iter()
        .all(|e| e["type"] != "submissions" && e["type"] != "judgements"));
}

#[test]
fn the_freeze_hides_new_results_until_the_thaw_and_the_feed_is_written_at_the_end() {
    let workspace = Workspace::new();
    // The jury starts the contest; it lasts 45 seconds (room for a busy
    // machine to log in, start, freeze and submit before the end).
    let contest = contest_of(
        &workspace,
        "live-freeze",
        "Freeze",
        &repo().join(problem("mini-nim")),
        "duration = \"45s\"\nlanguages = [\"python\"]",
    );
    let server = Server::start(&workspace, &contest, &[]);
    let jury = JURY;
    let t1 = T1;
    let early = post_json(
        &server.api("/submissions"),
        Some(t1),
        &ccs_submission("mini-nim", "python", "a.py", ACCEPTED),
    );
    assert_eq!(
        early.status,
        403,
        "no submissions before the start: {}",
        early.text()
    );
    let desk = Browser::login(&server, "jury", "jury-pw");
    let token = desk.csrf(&format!("{}/jury", server.base));
    assert_eq!(
        desk.post(&server, "/jury/clock/start", &format!("csrf={token}"))
            .status,
        303
    );
    assert_eq!(
        desk.post(&server, "/jury/clock/freeze", &format!("csrf={token}"))
            .status,
        303
    );
    let a = post_json(
        &server.api("/submissions"),
        Some(t1),
        &ccs_submission("mini-nim", "python", "a.py", ACCEPTED),
    );
    assert_eq!(a.status, 201, "{}", a.text());
    let id = a.json()["id"].as_str().unwrap().to_string();
    // The team sees its own verdict; the scoreboard it and the public see
    // keeps the attempt pending; the jury's shows it solved.
    assert_eq!(verdict_of(&server, t1, &id), "AC");
    let cell =
        |auth| get(&server.api("/scoreboard"), auth).json()["rows"][0]["problems"][0].clone();
    assert_eq!(cell(Some(t1))["solved"], false);
    assert_eq!(cell(Some(t1))["num_pending"], 1);
    assert_eq!(cell(None)["num_pending"], 1);
    assert_eq!(cell(Some(jury))["solved"], true);
    let page = get(&format!("{}/scoreboard", server.base), None).text();
    assert!(page.contains("frozen"));
    // After the end: thaw, finalize; the feed ends with the end of updates
    // and is written beside the database for the Resolver.
    wait_for(Duration::from_secs(180), "the end", || {
        get(&server.api("/state"), None).json()["ended"]
            .as_str()
            .map(|_| ())
    });
    assert_eq!(
        desk.post(
            &server,
            "/jury/clock/finalize",
            &format!("csrf={token}&confirmed=yes")
        )
        .status,
        303
    );
    assert!(
        get(&server.api("/state"), None).json()["end_of_updates"].is_null(),
        "frozen: not final until thawed"
    );
    assert_eq!(
        desk.post(
            &server,
            "/jury/clock/thaw",
            &format!("csrf={token}&confirmed=yes")
        )
        .status,
        303
    );
    assert_eq!(cell(None)["solved"], true);
    let state = get(&server.api("/state"), None).json();
    check_schema("state", &state, "state");
    assert!(
        state["thawed"].is_string()
            && state["finalized"].is_string()
            && state["end_of_updates"].is_string()
    );
    let feed = checked_feed(&server, Some(jury));
    let last = feed.last().unwrap();
    assert_eq!(last["type"], "state");
    assert!(last["data"]["end_of_updates"].is_string());
    let file = contest.dir.join(".judge-serve/event-feed.ndjson");
    let written = wait_for(Duration::from_secs(60), "event-feed.ndjson", || {
        std::fs::read_to_string(&file).ok()
    });
    assert_eq!(written.lines().count(), feed.len());
    // The state's steps are in the order the specification gives.
    let times: Vec<&str> = ["started", "frozen", "ended", "thawed"]
        .iter()
        .map(|k| state[k].as_str().unwrap())
        .collect();
    let mut sorted = times.clone();
    sorted.sort();
    assert_eq!(times, sorted);
}

#[test]
fn ioi_contests_score_subtasks_over_http() {
    let workspace = Workspace::new();
    let subtasks = repo().join(problem("subtasks"));
    let contest = Contest::new(
        &workspace,
        "live-ioi",
        &format!(
            "title = \"IOI\"\nscoring = \"ioi\"\nproblems = [\"{}\"]\nstart = {}\nlanguages = [\"python\"]\n{TEAMS}",
            subtasks.display(),
            toml_time(-30)
        ),
    );
    let server = Server::start(&workspace, &contest, &[]);
    let t1 = T1;
    let a = post_json(
        &server.api("/submissions"),
        Some(t1),
        &ccs_submission("subtasks", "python", "a.py", ACCEPTED),
    );
    let id = a.json()["id"].as_str().unwrap().to_string();
    assert_eq!(verdict_of(&server, t1, &id), "AC");
    let judgement = &get(&server.api("/judgements"), Some(t1)).json()[0];
    assert_eq!(judgement["score"], 100);
    let board = get(&server.api("/scoreboard"), None).json();
    check_schema("scoreboard", &board, "scoreboard");
    assert_eq!(board["rows"][0]["score"]["score"], 100);
    assert_eq!(board["rows"][0]["problems"][0]["score"], 100);
    let c = get(&server.api(""), None).json();
    assert_eq!(c["scoreboard_type"], "score");
    check_endpoints(&server, Some(t1));
}

#[test]
fn a_server_killed_during_judging_loses_nothing_and_judges_again_once() {
    let workspace = Workspace::new();
    let contest = icpc_contest(&workspace, "live-crash", "");
    let server = Server::start(&workspace, &contest, &[]);
    let t1 = T1;
    // A sleeper: judged until the wall-clock limit (seconds per test).
    let sleeper = b"import time\ntime.sleep(60)\n";
    let s = post_json(
        &server.api("/submissions"),
        Some(t1),
        &ccs_submission("mini-nim", "python", "sleep.py", sleeper),
    );
    let sleeping = s.json()["id"].as_str().unwrap().to_string();
    let mut acknowledged = vec![sleeping.clone()];
    for i in 0..5 {
        let a = post_json(
            &server.api("/submissions"),
            Some(T2),
            &ccs_submission("mini-nim", "python", &format!("a{i}.py"), ACCEPTED),
        );
        assert_eq!(a.status, 201);
        acknowledged.push(a.json()["id"].as_str().unwrap().to_string());
    }
    // Killed while the sleeper is being judged.
    wait_for(Duration::from_secs(120), "the judging to start", || {
        let js = get(
            &server.api(&format!("/judgements?submission_id={sleeping}")),
            Some(t1),
        )
        .json();
        js.as_array().filter(|a| !a.is_empty()).map(|_| ())
    });
    // A second server on the same database is refused while this one runs.
    let second = crate::serve_support::serve_command(&workspace, &contest.dir, &[])
        .output()
        .expect("run a second judge serve");
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{said}");
    assert!(
        said.contains("another `judge serve` is running on the database"),
        "{said}"
    );
    server.kill_9();

    let server = Server::start(&workspace, &contest, &[]);
    let requeued = wait_for(
        Duration::from_secs(120),
        "the restarted server to start judging",
        || {
            let said = server.said();
            said.contains("judging again").then_some(said)
        },
    );
    // The sleeper, and what else the judging had in hand (2 x -j 2).
    let held: u32 = requeued
        .split("judging again ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!((1..=4).contains(&held), "{requeued}");
    let jury = JURY;
    for id in &acknowledged {
        let who = if id == &sleeping { t1 } else { T2 };
        let v = verdict_of(&server, who, id);
        assert_eq!(
            v,
            if id == &sleeping { "TLE" } else { "AC" },
            "submission {id}"
        );
    }
    let submissions = get(&server.api("/submissions"), Some(jury)).json();
    assert_eq!(submissions.as_array().unwrap().len(), acknowledged.len());
    // Judged once: one judgement per submission, and each run once.
    let judgements = get(&server.api("/judgements"), Some(jury)).json();
    assert_eq!(
        judgements.as_array().unwrap().len(),
        acknowledged.len(),
        "{judgements:#}"
    );
    assert_runs_written_once(&server, jury);
    checked_feed(&server, Some(jury));
}

#[test]
fn bad_requests_get_clear_answers_never_a_crash() {
    let workspace = Workspace::new();
    let contest = icpc_contest(
        &workspace,
        "live-bad",
        "[server]\nmax_source = \"1KiB\"\nsubmissions_per_minute = 3\n",
    );
    let server = Server::start(&workspace, &contest, &[]);
    let t1 = T1;
    let url = server.api("/submissions");
    let cases: Vec<(Answer, u16, &str)> = vec![
        (
            send(
                &url,
                "POST",
                Some(t1),
                "application/json",
                b"{not json".to_vec(),
            ),
            400,
            "not JSON",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &json!({"problem_id": "mini-nim", "language_id": "python"}),
            ),
            400,
            "no file",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &json!({"problem_id": "mini-nim", "language_id": "python", "files": [{"data": "%%%"}]}),
            ),
            400,
            "not base64",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &json!({"problem_id": "mini-nim", "language_id": "python", "files": [{"data": "AAAA"}]}),
            ),
            400,
            "not a zip",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &ccs_submission("nope", "python", "a.py", ACCEPTED),
            ),
            400,
            "no problem `nope`",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &ccs_submission("mini-nim", "cobol", "a.py", ACCEPTED),
            ),
            400,
            "no language `cobol`",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &ccs_submission("mini-nim", "python", "../../etc/x.py", ACCEPTED),
            ),
            400,
            "is not accepted",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &ccs_submission("mini-nim", "python", "big.py", &[b'#'; 2000]),
            ),
            413,
            "over 1024 bytes",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &json!({"problem_id": "mini-nim", "language_id": "python", "team_id": "t2", "files": ccs_submission("mini-nim", "python", "a.py", ACCEPTED)["files"]}),
            ),
            403,
            "logged in as `t1`",
        ),
        (
            post_json(
                &url,
                Some(t1),
                &json!({"id": "99", "problem_id": "mini-nim", "language_id": "python", "files": []}),
            ),
            400,
            "set by the server",
        ),
        (
            post_json(
                &url,
                Some(JURY),
                &ccs_submission("mini-nim", "python", "a.py", ACCEPTED),
            ),
            403,
            "come from teams",
        ),
        (
            post_json(
                &url,
                None,
                &ccs_submission("mini-nim", "python", "a.py", ACCEPTED),
            ),
            401,
            "log in",
        ),
        (
            get(&format!("{}/api/contests/other", server.base), None),
            404,
            "no contest",
        ),
        (
            get(&server.api("/nothing-here"), Some(t1)),
            404,
            "no endpoint",
        ),
        (
            post_json(
                &server.api("/clarifications"),
                Some(t1),
                &json!({"text": ""}),
            ),
            400,
            "empty",
        ),
        (
            post_json(
                &server.api("/clarifications"),
                Some(t1),
                &json!({"text": "hi", "to_team_id": "t2"}),
            ),
            400,
            "other teams",
        ),
    ];
    for (answer, status, says) in &cases {
        assert_eq!(answer.status, *status, "{says}: {}", answer.text());
        let body = answer.json();
        assert_eq!(body["code"], *status);
        assert!(
            body["message"].as_str().unwrap().contains(says),
            "{says}: {body}"
        );
    }
    // Several files are a folder submission, but a file in a folder of
    // the zip is refused as any name with a folder.
    let nested = zip_of(&[("a.py", ACCEPTED), ("lib/b.py", ACCEPTED)]);
    let body = json!({"problem_id": "mini-nim", "language_id": "python", "files": [{"data": base64::Engine::encode(&base64::engine::general_purpose::STANDARD, nested)}]});
    let a = post_json(&url, Some(t1), &body);
    assert_eq!(a.status, 400);
    assert!(a.json()["message"]
        .as_str()
        .unwrap()
        .contains("`lib/b.py` is not accepted"));
    // A body far over the limit is refused before it is read: the answer
    // comes after the headers alone.
    {
        use std::io::{Read, Write};
        let address = server.base.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        write!(
            stream,
            "POST /api/contests/live-bad/submissions HTTP/1.1\r\nHost: {address}\r\nAuthorization: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            basic("t1", "pw-1"),
            64 << 20
        )
        .unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).unwrap();
        assert_eq!(&head, b"HTTP/1.1 413");
    }
    // The rate limit: 3 a minute.
    for i in 0..3 {
        let a = post_json(
            &url,
            Some(t1),
            &ccs_submission("mini-nim", "python", &format!("r{i}.py"), ACCEPTED),
        );
        assert_eq!(a.status, 201, "{}", a.text());
    }
    let over = post_json(
        &url,
        Some(t1),
        &ccs_submission("mini-nim", "python", "r4.py", ACCEPTED),
    );
    assert_eq!(over.status, 429);
    // Failed logins are limited per login.
    for _ in 0..10 {
        assert_eq!(
            get(&server.api("/submissions"), Some(("t3", "guess"))).status,
            401
        );
    }
    assert_eq!(
        get(&server.api("/submissions"), Some(("t3", "pw-3"))).status,
        429
    );
    // A form from another site is refused, logged in or not.
    let desk = Browser::login(&server, "jury", "jury-pw");
    let token = desk.csrf(&format!("{}/jury", server.base));
    let cross = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent()
        .post(&format!("{}/jury/clock/freeze", server.base))
        .header("Cookie", &desk.cookie)
        .header("Origin", "http://evil.example")
        .content_type("application/x-www-form-urlencoded")
        .send(format!("csrf={token}").as_bytes())
        .unwrap();
    assert_eq!(cross.status().as_u16(), 403);
    // The pages carry a policy that forbids scripts from elsewhere.
    let page = get(&format!("{}/login", server.base), None);
    assert!(page
        .header("content-security-policy")
        .unwrap()
        .contains("script-src 'self'"));
    assert!(
        server.said().lines().all(|l| !l.contains("panicked")),
        "{}",
        server.said()
    );
}

#[test]
fn a_broken_contest_or_a_busy_port_or_another_contests_database_is_refused_clearly() {
    let workspace = Workspace::new();
    let run = |dir: &std::path::Path, extra: &[&str]| {
        let out = crate::serve_support::serve_command(&workspace, dir, extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let broken = Contest::new(
        &workspace,
        "broken",
        "title = \"x\"\nstart = 2026-12-01T09:00:00\nduraton = \"5h\"\n",
    );
    let (code, said) = run(&broken.dir, &[]);
    assert_eq!(code, Some(2));
    assert!(
        said.contains("contest.toml") && said.contains("unknown field `duraton`"),
        "{said}"
    );
    let no_zone = Contest::new(
        &workspace,
        "nozone",
        &format!("problems = [\"x\"]\nstart = 2026-12-01T09:00:00\n{TEAMS}"),
    );
    let (code, said) = run(&no_zone.dir, &[]);
    assert_eq!(code, Some(2));
    assert!(said.contains("no time zone"), "{said}");
    let no_teams = Contest::new(&workspace, "noteams", "problems = [\"acwing-891\"]\n");
    let (code, said) = run(&no_teams.dir, &[]);
    assert_eq!(code, Some(2));
    assert!(
        said.contains("no teams: add one `[[teams]]`") && said.contains("`[jury]`"),
        "{said}"
    );
    let empty = workspace.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, said) = run(&empty, &[]);
    assert_eq!(code, Some(2));
    assert!(
        said.contains("contest.toml") && said.contains("needs this file"),
        "{said}"
    );
    let contest = icpc_contest(&workspace, "first", "");
    let (code, said) = run(&contest.dir, &["--isolation", "none"]);
    if crate::support::is_root() {
        assert_eq!(code, Some(2));
        assert!(said.contains("--isolation none` is refused"), "{said}");
    }
    // A port in use.
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().to_string();
    let out = crate::serve_support::serve_command(&workspace, &contest.dir, &["--listen", &port])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains(&format!("cannot listen on {port}")), "{said}");
    // The database of another contest.
    let server = Server::start(&workspace, &contest, &[]);
    drop(server);
    let other = icpc_contest(&workspace, "second", "");
    let db = contest.db();
    let (code, said) = run(&other.dir, &["--db", db.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        said.contains("belongs to the contest `first`, not `second`")
            && said.contains("contest.sqlite"),
        "{said}"
    );
}

#[test]
fn passwords_are_generated_hashed_and_judge_submit_uses_them() {
    let workspace = Workspace::new();
    let mini = repo().join(problem("mini-nim"));
    let contest = Contest::new(
        &workspace,
        "live-submit",
        &format!(
            "# the coach's comment stays\ntitle = \"Submit\"\nproblems = [\"{}\"]\nstart = {}\nlanguages = [\"python\"]\n\n[[teams]]\nid = \"t1\"\nname = \"One\"\n\n[[teams]]\nid = \"t2\"\nname = \"Two\"\n",
            mini.display(),
            toml_time(-60)
        ),
    );
    let out = workspace.judge(["passwords", contest.dir.to_str().unwrap()]);
    out.expect_code(0);
    let toml = std::fs::read_to_string(contest.dir.join("contest.toml")).unwrap();
    assert!(toml.starts_with("# the coach's comment stays"));
    assert_eq!(
        toml.matches("password_hash = \"$argon2id$").count(),
        3,
        "{toml}"
    );
    let password = |who: &str| -> String {
        let line = out
            .stdout
            .lines()
            .find(|l| l.contains(&format!("login {who} ")))
            .expect("a line per login");
        line.split("password ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    let (p1, pjury) = (password("t1"), password("jury"));
    assert!(!toml.contains(&p1), "the password itself is not stored");
    let server = Server::start(&workspace, &contest, &[]);
    let file = workspace.path().join("mini-nim.py");
    std::fs::write(&file, ACCEPTED).unwrap();
    let sent = workspace.judge_with_env(
        [
            "submit",
            "--server",
            &server.base,
            "--team",
            "t1",
            file.to_str().unwrap(),
        ],
        &[("JUDGE_PASSWORD", &p1)],
    );
    sent.expect_code(0);
    assert!(
        sent.stdout.contains("submission 1 received"),
        "{}",
        sent.stdout
    );
    assert_eq!(verdict_of(&server, ("jury", &pjury), "1"), "AC");
    let wrong = workspace.judge_with_env(
        [
            "submit",
            "--server",
            &server.base,
            "--team",
            "t1",
            file.to_str().unwrap(),
        ],
        &[("JUDGE_PASSWORD", "nope")],
    );
    assert_eq!(wrong.code, Some(2));
    assert!(
        wrong.stderr.contains("401") && wrong.stderr.contains("wrong login or password"),
        "{}",
        wrong.stderr
    );
}

#[test]
fn passwords_give_a_teams_tsv_roster_its_logins_without_touching_the_file() {
    let workspace = Workspace::new();
    let contest = Contest::new(
        &workspace,
        "camp",
        "title = \"Camp\"\nproblems = [\"mini-nim\"]\n",
    );
    let tsv = "File_Version\t2\n1\t1\t3\tNull Pointers\tUtrecht University\tUU\tNLD\tuu\n2\t2\t3\tOff By One\n";
    std::fs::write(contest.dir.join("teams.tsv"), tsv).unwrap();
    std::fs::write(
        contest.dir.join("accounts.tsv"),
        "accounts\t1\nteam\tOff By One\tteam002\tgiven-pw\n",
    )
    .unwrap();
    let out = workspace.judge(["passwords", contest.dir.to_str().unwrap()]);
    out.expect_code(0);
    // team001 has no account: a password is made; team002's is in accounts.tsv.
    assert!(out.stdout.contains("login team001 "), "{}", out.stdout);
    assert!(!out.stdout.contains("login team002 "), "{}", out.stdout);
    assert!(out.stdout.contains("login jury "), "{}", out.stdout);
    let toml = std::fs::read_to_string(contest.dir.join("contest.toml")).unwrap();
    assert!(toml.contains("id = \"team001\""), "{toml}");
    assert_eq!(toml.matches("password_hash").count(), 2, "{toml}");
    assert_eq!(
        std::fs::read_to_string(contest.dir.join("teams.tsv")).unwrap(),
        tsv
    );
    // A second run finds every team with a password.
    let again = workspace.judge(["passwords", contest.dir.to_str().unwrap()]);
    again.expect_code(0);
    assert!(
        again.stdout.contains("have a password already"),
        "{}",
        again.stdout
    );
}

/// A submit-answer problem (ICPC format's `type: submit-answer`) in a live
/// contest: a team's one file is its answer to every test, several files
/// (the API's zip) one answer per test, checked as they are in the
/// `answers` language whatever language the client named; `answers` is
/// refused for a problem whose submissions are programs.
#[test]
fn a_submit_answer_problem_takes_a_teams_file_of_answers() {
    let workspace = Workspace::new();
    let package = workspace.path().join("answer");
    for (file, text) in [
        (
            "problem.yaml",
            "problem_format_version: 2025-09\ntype: submit-answer\nname: The Answer\nuuid: 0c6e2f7a-5d1b-4e8f-9a3c-2b7d4f6e8a10\n",
        ),
        ("data/sample/1.in", "what\n"),
        ("data/sample/1.ans", "42\n"),
        ("data/secret/1.in", "again\n"),
        ("data/secret/1.ans", "42\n"),
        ("data/secret/2.in", "and now\n"),
        ("data/secret/2.ans", "7\n"),
        ("submissions/accepted/answers/1.ans", "42\n"),
        ("submissions/accepted/answers/2.ans", "7\n"),
    ] {
        let path = package.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let contest = Contest::new(
        &workspace,
        "live-answers",
        &format!(
            "title = \"Answers\"\nproblems = [\"{}\", \"{}\"]\nstart = {}\nduration = \"5h\"\nlanguages = [\"python\"]\n{TEAMS}",
            package.display(),
            repo().join(problem("mini-nim")).display(),
            toml_time(-60)
        ),
    );
    let server = Server::start(&workspace, &contest, &[]);
    // The Contest API's way, a zip of one answer per test (`1.ans` answers
    // sample/1 and secret/1), with a program language named: ignored.
    let per_test = json!({
        "problem_id": "answer",
        "language_id": "python",
        "files": [{"data": base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            zip_of(&[("1.ans", b"42\n"), ("2.ans", b"7\n")]),
        )}],
    });
    let right = post_json(&server.api("/submissions"), Some(T1), &per_test);
    assert_eq!(right.status, 201, "{}", right.text());
    assert_eq!(right.json()["language_id"], "answers");
    let right = right.json()["id"].as_str().unwrap().to_string();
    // One file answers every test: right for two, wrong for secret/2.
    let one = post_json(
        &server.api("/submissions"),
        Some(T1),
        &ccs_submission("answer", "python", "answer.txt", b"42\n"),
    );
    assert_eq!(one.status, 201, "{}", one.text());
    let one = one.json()["id"].as_str().unwrap().to_string();
    // DOMjudge's submit client's way: the language by the extension.
    let (content_type, body) = domjudge_form("A", "out", "mine.out", b"41\n");
    let wrong = send(
        &server.api("/submissions"),
        "POST",
        Some(T2),
        &content_type,
        body,
    );
    assert_eq!(wrong.status, 201, "{}", wrong.text());
    let wrong = wrong.json()["id"].as_str().unwrap().to_string();
    assert_eq!(verdict_of(&server, T1, &right), "AC");
    assert_eq!(verdict_of(&server, T1, &one), "WA");
    assert_eq!(verdict_of(&server, T2, &wrong), "WA");
    // `answers` is no language for a program.
    let refused = post_json(
        &server.api("/submissions"),
        Some(T1),
        &ccs_submission("mini-nim", "answers", "nim.txt", ACCEPTED),
    );
    assert_eq!(refused.status, 400, "{}", refused.text());
    assert!(
        refused.text().contains("submit-answer"),
        "{}",
        refused.text()
    );
    // The API lists the language its submissions name.
    let languages = get(&server.api("/languages"), Some(T1)).json();
    assert!(
        languages
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["id"] == "answers"),
        "{languages:#}"
    );
    check_endpoints(&server, Some(T1));
}
