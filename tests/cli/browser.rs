//! `judge serve` in a real browser: headless Chromium driven through
//! chromedriver (the W3C WebDriver protocol, spoken here over HTTP). A team
//! logs in, submits a file through the page, and sees its verdict appear
//! without a reload; the jury freezes the scoreboard and the team's board
//! stops changing while the jury's goes on; and a team and a judge, each
//! in a browser of its own, walk through a camp's day: a clarification, a
//! balloon, a rejudging with a preview, the final awards.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use crate::serve_support::*;
use crate::support::{problem, repo, Workspace};

/// The key of an element reference in WebDriver answers.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver with one headless Chromium session, ended when dropped.
struct Driver {
    process: Child,
    session: String,
    base: String,
}

impl Driver {
    fn start(profile: &Path) -> Option<Driver> {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .into_iter()
            .find(|p| Path::new(p).exists());
        let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
            .into_iter()
            .find(|p| Path::new(p).exists());
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            crate::support::skip_missing(
                "Chromium or chromedriver (apt-get install chromium chromium-driver)",
            );
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        wait_for(Duration::from_secs(30), "chromedriver", || {
            let a = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .new_agent()
                .get(&format!("{base}/status"))
                .call()
                .ok()?;
            (a.status().as_u16() == 200).then_some(())
        });
        let capabilities = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1200,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }}}});
        let mut driver = Driver {
            process,
            session: String::new(),
            base,
        };
        let created = driver.call("POST", "/session", Some(capabilities));
        driver.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_string();
        Some(driver)
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let value = self.try_call(method, path, body);
        assert!(
            value["error"].is_null() || path == "/session",
            "{method} {path}: {value}"
        );
        value
    }

    /// A command's answer's `value`, an error (`{"error": ...}`) included.
    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = if path == "/session" {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let answer = match method {
            "GET" => get(&url, None),
            "DELETE" => {
                let r = ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .build()
                    .new_agent()
                    .delete(&url)
                    .call()
                    .unwrap();
                return serde_json::from_str(&r.into_body().read_to_string().unwrap())
                    .unwrap_or(Value::Null);
            }
            _ => post_json(&url, None, &body.unwrap_or(json!({}))),
        };
        let value = answer.json();
        value.get("value").cloned().unwrap_or(value)
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    fn find(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    fn type_in(&self, css: &str, text: &str) {
        let el = self.find(css);
        self.call(
            "POST",
            &format!("/element/{el}/value"),
            Some(json!({"text": text})),
        );
    }

    fn click(&self, css: &str) {
        let el = self.find(css);
        self.call("POST", &format!("/element/{el}/click"), None);
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn text(&self, css: &str) -> String {
        let value = self.script(&format!(
            "var e = document.querySelector({}); return e ? e.textContent : null;",
            Value::String(css.to_string())
        ));
        value.as_str().unwrap_or("").trim().to_string()
    }

    fn screenshot(&self, name: &str) {
        let shot = self.call("GET", "/screenshot", None);
        if let Some(data) = shot.as_str() {
            let bytes =
                base64::Engine::decode(&base64::engine::general_purpose::STANDARD, data).unwrap();
            let dir = repo().join("target/test-artifacts");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            self.call("DELETE", "", None);
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// A solution that takes a few seconds (sleeping, not computing) so its
/// verdict arrives after the page has loaded.
const SLOW_ACCEPTED: &[u8] =
    b"import time\ntime.sleep(1.2)\na, b = map(int, input().split())\nprint(\"Yes\" if a != b else \"No\")\n";
const ACCEPTED: &[u8] = b"a, b = map(int, input().split())\nprint(\"Yes\" if a != b else \"No\")\n";

#[test]
fn a_team_sees_its_verdict_live_and_the_frozen_board_stops_changing() {
    let workspace = Workspace::new();
    let Some(browser) = Driver::start(&workspace.path().join("chromium-profile")) else {
        return;
    };
    let contest = contest_of(
        &workspace,
        "live-browser",
        "Browser",
        &repo().join(problem("mini-nim")),
        &format!("start = {}\nlanguages = [\"python\"]", toml_time(-60)),
    );
    let server = Server::start(&workspace, &contest, &[]);
    let base = &server.base;

    // The team logs in through the form.
    browser.open(&format!("{base}/login"));
    browser.type_in("input[name=login]", "t1");
    browser.type_in("input[name=password]", "pw-1");
    browser.click("button[type=submit]");
    wait_for(Duration::from_secs(60), "the team's page", || {
        browser.text("h1").contains("Problems").then_some(())
    });
    // It submits a file through the page's form.
    let file = workspace.path().join("nim.py");
    std::fs::write(&file, SLOW_ACCEPTED).unwrap();
    browser.type_in("input[type=file]", file.to_str().unwrap());
    browser.click("form[action='/team/submit'] button[type=submit]");
    wait_for(Duration::from_secs(60), "the submission's row", || {
        (!browser.text("#submissions td.result").is_empty()).then_some(())
    });
    // Marked, so a reload would be seen: the verdict must come without one.
    browser.script("window.judgeMarker = 'no reload';");
    let first = browser.text("#submissions td.result");
    assert_eq!(
        first, "pending",
        "the verdict should still be pending when the page shows the row"
    );
    let verdict = wait_for(Duration::from_secs(120), "the verdict on the page", || {
        let v = browser.text("#submissions td.result");
        (v != "pending" && !v.is_empty()).then_some(v)
    });
    assert_eq!(verdict, "AC");
    assert_eq!(
        browser.script("return window.judgeMarker;"),
        json!("no reload")
    );
    browser.screenshot("serve-team.png");

    // The team's scoreboard follows live until the jury freezes it.
    browser.open(&format!("{base}/team/scoreboard"));
    browser.script("window.judgeMarker = 'board';");
    let cell = |team: &str| {
        browser.text(&format!(
            "tr[data-team='{team}'] td[data-problem='mini-nim']"
        ))
    };
    let t3 = post_json(
        &server.api("/submissions"),
        Some(("t3", "pw-3")),
        &ccs_submission("mini-nim", "python", "a.py", ACCEPTED),
    );
    assert_eq!(t3.status, 201);
    wait_for(
        Duration::from_secs(120),
        "t3's solve on the live board",
        || {
            let c = cell("t3");
            (c.contains("try") && !c.contains("pending")).then_some(())
        },
    );
    let desk = Browser::login(&server, "jury", "jury-pw");
    let token = desk.csrf(&format!("{base}/jury"));
    assert_eq!(
        desk.post(&server, "/jury/clock/freeze", &format!("csrf={token}"))
            .status,
        303
    );
    let t2 = post_json(
        &server.api("/submissions"),
        Some(T2),
        &ccs_submission("mini-nim", "python", "a.py", ACCEPTED),
    );
    let id = t2.json()["id"].as_str().unwrap().to_string();
    assert_eq!(verdict_of(&server, JURY, &id), "AC");
    let jury_board = get(&server.api("/scoreboard"), Some(JURY)).json();
    let t2_row = jury_board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team_id"] == "t2")
        .unwrap()
        .clone();
    assert_eq!(t2_row["score"]["num_solved"], 1, "the jury sees the solve");
    // Let any refresh the judging caused arrive, then look: pending, not solved.
    std::thread::sleep(Duration::from_secs(2));
    let frozen = cell("t2");
    assert!(
        frozen.contains("pending"),
        "t2's cell on the frozen board: {frozen:?}"
    );
    assert!(browser.text("p.frozen").contains("frozen"));
    assert_eq!(browser.script("return window.judgeMarker;"), json!("board"));
    browser.screenshot("serve-frozen-board.png");
}

#[test]
fn a_team_is_told_of_an_answer_on_any_page_without_a_reload() {
    let workspace = Workspace::new();
    let Some(browser) = Driver::start(&workspace.path().join("chromium-profile")) else {
        return;
    };
    let contest = contest_of(
        &workspace,
        "live-notice",
        "Notice",
        &repo().join(problem("mini-nim")),
        &format!(
            "start = {}\nlanguages = [\"python\"]\n[balloons]\nA = \"#1e90ff\"",
            toml_time(-60)
        ),
    );
    let server = Server::start(&workspace, &contest, &[]);
    let base = &server.base;
    browser.open(&format!("{base}/login"));
    browser.type_in("input[name=login]", "t1");
    browser.type_in("input[name=password]", "pw-1");
    browser.click("button[type=submit]");
    wait_for(Duration::from_secs(60), "the team's page", || {
        browser.text("h1").contains("Problems").then_some(())
    });
    // The team is on its scoreboard, a page without messages on it.
    browser.open(&format!("{base}/team/scoreboard"));
    browser.script("window.judgeMarker = 'no reload';");
    assert_eq!(browser.text("span.badge"), "");
    let asked = post_json(
        &server.api("/clarifications"),
        Some(("t1", "pw-1")),
        &json!({"text": "Is n at most 10^9?"}),
    );
    assert_eq!(asked.status, 201);
    let question = asked.json()["id"].as_str().unwrap().to_string();
    // A judge answers it from the jury's page.
    let desk = Browser::login(&server, "jury", "jury-pw");
    let token = desk.csrf(&format!("{base}/jury/clarifications"));
    let page = desk.get(&format!("{base}/jury/clarifications")).text();
    assert!(page.contains("1 unanswered"), "the jury's menu counts it");
    assert_eq!(
        desk.post(
            &server,
            &format!("/jury/clarifications/{question}/claim"),
            &format!("csrf={token}")
        )
        .status,
        303
    );
    assert_eq!(
        desk.post(
            &server,
            "/jury/clarifications",
            &format!("csrf={token}&reply_to={question}&team=t1&text=Yes.")
        )
        .status,
        303
    );
    // The badge and the notice come without a reload.
    wait_for(Duration::from_secs(60), "the badge", || {
        (browser.text("span.badge") == "1 new").then_some(())
    });
    wait_for(Duration::from_secs(10), "the notice", || {
        let shown = browser.script("return !document.querySelector('p.notice').hidden;");
        (shown == json!(true)).then_some(())
    });
    assert_eq!(
        browser.script("return window.judgeMarker;"),
        json!("no reload")
    );
    browser.screenshot("serve-team-notice.png");
    // Reading it clears the badge.
    browser.click("p.notice a");
    wait_for(Duration::from_secs(30), "the clarifications page", || {
        browser.text("h1").contains("Clarifications").then_some(())
    });
    assert!(browser.text("main").contains("Yes."));
    assert_eq!(browser.text("span.badge"), "");
    let page = desk.get(&format!("{base}/jury/clarifications")).text();
    assert!(!page.contains("unanswered</span>") && page.contains("<strong>answered</strong>"));
}

/// Logs `browser` in through the form as `login` and waits for the page
/// whose heading holds `heading`.
fn log_in(browser: &Driver, base: &str, login: &str, password: &str, heading: &str) {
    browser.open(&format!("{base}/login"));
    browser.type_in("input[name=login]", login);
    browser.type_in("input[name=password]", password);
    browser.click("button[type=submit]");
    wait_for(Duration::from_secs(60), heading, || {
        browser.text("h1").contains(heading).then_some(())
    });
}

/// Clicks the button `css` once it is there and enabled; again when a
/// part of the page refreshed live replaced it between its find and its
/// click (a stale element).
fn press(browser: &Driver, css: &str) {
    let find = json!({"using": "css selector", "value": css});
    wait_for(Duration::from_secs(60), css, || {
        let found = browser.try_call("POST", "/element", Some(find.clone()));
        let element = found[ELEMENT].as_str()?.to_string();
        let enabled = browser.try_call("GET", &format!("/element/{element}/enabled"), None);
        if enabled != json!(true) {
            return None;
        }
        let clicked = browser.try_call("POST", &format!("/element/{element}/click"), None);
        clicked["error"].is_null().then_some(())
    });
}

/// Waits until the text of `css` in `browser` satisfies `ok`: the text.
/// Generous: what it waits for may be a judging, which on a busy machine
/// waits behind other judges' confirmations (up to 3 s a run).
fn wait_text(browser: &Driver, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
    wait_for(Duration::from_secs(300), what, || {
        let text = browser.text(css);
        ok(&text).then_some(text)
    })
}

/// A camp's day in two browsers, a team's and a judge's: a clarification
/// asked, seen live and claimed by the judge, answered, and the answer
/// noticed by the team without a reload; an accepted submission and its
/// balloon handed out; the problem rejudged with a preview (nothing would
/// change) and applied; the contest ended and finalized, and the final
/// board's awards.
#[test]
fn a_team_and_a_judge_walk_through_clarification_balloon_rejudging_and_awards() {
    let workspace = Workspace::new();
    let Some(team) = Driver::start(&workspace.path().join("team-profile")) else {
        return;
    };
    let Some(judge) = Driver::start(&workspace.path().join("judge-profile")) else {
        return;
    };
    let contest = contest_of(
        &workspace,
        "camp-walk",
        "Camp",
        &repo().join(problem("mini-nim")),
        &format!(
            "start = {}\nlanguages = [\"python\"]\n[balloons]\nA = \"#1e90ff\"\n\
             [awards]\ngold = 1\nsilver = 1\nbronze = 1",
            toml_time(-60)
        ),
    );
    let server = Server::start(&workspace, &contest, &[]);
    let base = &server.base;
    log_in(&team, base, "t1", "pw-1", "Problems");
    log_in(&judge, base, "jury", "jury-pw", "Contest");
    judge.script("window.judgeMarker = 'judge';");

    // The team asks about the problem; the judge's menu counts it live.
    team.open(&format!("{base}/team/clarifications"));
    team.type_in(
        "form[action='/team/clarifications'] textarea[name=text]",
        "May n be 0?",
    );
    team.click("form[action='/team/clarifications'] button[type=submit]");
    wait_text(&judge, "span.badge", "the judge's badge", |t| {
        t == "1 unanswered"
    });
    assert_eq!(judge.script("return window.judgeMarker;"), json!("judge"));
    // The team waits on its problems page; the judge claims and answers.
    team.open(&format!("{base}/team"));
    team.script("window.judgeMarker = 'team';");
    judge.open(&format!("{base}/jury/clarifications"));
    let question = "div[data-clarification='1']";
    press(
        &judge,
        &format!("{question} form[action='/jury/clarifications/1/claim'] button"),
    );
    wait_text(&judge, question, "the claim", |t| {
        t.contains("claimed by you")
    });
    judge.type_in(
        &format!("{question} textarea[name=text]"),
        "Yes, n may be 0.",
    );
    press(
        &judge,
        &format!("{question} form[action='/jury/clarifications'] button[type=submit]"),
    );
    wait_text(&judge, question, "the answered mark", |t| {
        t.contains("answered") && !t.contains("unanswered")
    });
    wait_text(&team, "span.badge", "the team's badge", |t| t == "1 new");
    wait_for(Duration::from_secs(10), "the team's notice", || {
        let shown = team.script("return !document.querySelector('p.notice').hidden;");
        (shown == json!(true)).then_some(())
    });
    assert_eq!(team.script("return window.judgeMarker;"), json!("team"));
    team.screenshot("serve-walk-team-notice.png");

    // The judge watches the balloons while the team solves the problem.
    judge.open(&format!("{base}/jury/balloons"));
    judge.script("window.judgeMarker = 'balloons';");
    let file = workspace.path().join("nim.py");
    std::fs::write(&file, ACCEPTED).unwrap();
    team.type_in("input[type=file]", file.to_str().unwrap());
    team.click("form[action='/team/submit'] button[type=submit]");
    wait_text(&team, "#submissions td.result", "the verdict", |t| {
        t == "AC"
    });
    let balloon = wait_text(
        &judge,
        "table.balloons tr[data-balloon]",
        "the balloon",
        |t| !t.is_empty(),
    );
    assert!(
        balloon.contains("#1e90ff") && balloon.contains("first solve"),
        "{balloon}"
    );
    assert_eq!(
        judge.script("return window.judgeMarker;"),
        json!("balloons")
    );
    judge.screenshot("serve-walk-balloons.png");
    press(
        &judge,
        "table.balloons tr[data-balloon] form[action$='/done'] button",
    );
    wait_for(Duration::from_secs(60), "the balloon handed out", || {
        let done = judge.script("return document.querySelectorAll('tr.done').length;");
        (done == json!(1)).then_some(())
    });

    // A rejudge of the problem, with a preview: nothing would change.
    judge.open(&format!("{base}/jury"));
    judge.click("form[action='/jury/confirm/rejudge'] button[type=submit]");
    wait_text(&judge, "h1", "the confirmation", |t| t.contains("Rejudge"));
    judge.click("form[action='/jury/rejudge'] button[type=submit]");
    wait_text(&judge, "h1", "the rejudging's page", |t| t == "Rejudging 1");
    let summary = wait_text(&judge, "p.summary", "the preview", |t| {
        t.contains("of 1") && !t.contains("still being judged")
    });
    assert_eq!(summary, "0 of 1 would change");
    judge.screenshot("serve-walk-rejudging.png");
    press(&judge, "form[action='/jury/rejudgings/1/apply'] button");
    wait_for(Duration::from_secs(300), "the rejudging applied", || {
        let applied = judge.script("return !!document.querySelector('[data-state=applied]');");
        (applied == json!(true)).then_some(())
    });
    let judgements = get(&server.api("/judgements"), Some(T1)).json();
    assert_eq!(judgements.as_array().unwrap().len(), 2, "{judgements}");

    // The end: ended now and finalized, each from its confirmation.
    for (ask, what) in [
        ("/jury/confirm/end", "End"),
        ("/jury/confirm/finalize", "Finalize"),
    ] {
        judge.open(&format!("{base}/jury"));
        judge.click(&format!("form[action='{ask}'] button"));
        wait_text(&judge, "h1", "the confirmation", |t| t.contains(what));
        judge.click("form.card button[type=submit]");
        wait_text(&judge, "h1", "the contest page", |t| t == "Contest");
    }
    team.open(&format!("{base}/team/scoreboard"));
    let gold = wait_text(&team, "tr[data-award='gold-medal'] td", "the awards", |t| {
        !t.is_empty()
    });
    assert_eq!(gold, "Team <b>One</b>");
    assert_eq!(
        team.text("tr[data-award='first-to-solve-mini-nim'] td"),
        "Team <b>One</b>"
    );
    team.screenshot("serve-walk-awards.png");
}

/// A page refused its stream of updates (every stream its address may
/// hold is taken) misses nothing: it asks again later, and once a stream
/// opens it fetches its live parts, so what changed while it had none (or
/// between the page's making and its stream) shows without a reload.
#[test]
fn a_page_refused_its_stream_catches_up_without_a_reload_once_one_opens() {
    let workspace = Workspace::new();
    let Some(judge) = Driver::start(&workspace.path().join("judge-profile")) else {
        return;
    };
    if !Path::new("/usr/bin/prlimit").exists() {
        crate::support::skip_missing("prlimit (apt-get install util-linux)");
        return;
    }
    let contest = contest_of(
        &workspace,
        "live-refused",
        "Refused",
        &repo().join(problem("mini-nim")),
        &format!("start = {}\nlanguages = [\"python\"]", toml_time(-60)),
    );
    // Few descriptors: one address may hold 16 streams.
    let mut command = Command::new("/usr/bin/prlimit");
    command
        .args(["--nofile=1024:1024", "--"])
        .arg(env!("CARGO_BIN_EXE_judge"))
        .current_dir(repo())
        .arg("--config")
        .arg(workspace.config_path());
    let server = Server::start_with(serve_command_of(command, &contest.dir, &[]), "live-refused");
    let base = &server.base;
    log_in(&judge, base, "jury", "jury-pw", "Contest");
    let desk = Browser::login(&server, "jury", "jury-pw");
    let held = hold_every_stream(base, &desk.cookie);
    judge.open(&format!("{base}/jury/clarifications"));
    wait_for(Duration::from_secs(60), "the clarifications page", || {
        judge.text("h1").contains("Clarifications").then_some(())
    });
    judge.script("window.judgeMarker = 'no reload';");
    let ask = |text: &str| {
        let asked = post_json(
            &server.api("/clarifications"),
            Some(("t1", "pw-1")),
            &json!({ "text": text }),
        );
        assert_eq!(asked.status, 201, "{}", asked.text());
    };
    ask("Question one?");
    // No stream: the page does not know yet.
    std::thread::sleep(Duration::from_secs(2));
    assert!(!judge.text("main").contains("Question one?"));
    // The streams let go; the server finds them gone on writing to them.
    drop(held);
    ask("Question two?");
    std::thread::sleep(Duration::from_millis(400));
    ask("Question three?");
    wait_for(
        Duration::from_secs(180),
        "the questions on the page",
        || {
            let main = judge.text("main");
            ["Question one?", "Question two?", "Question three?"]
                .iter()
                .all(|q| main.contains(q))
                .then_some(())
        },
    );
    assert_eq!(
        judge.script("return window.judgeMarker;"),
        json!("no reload")
    );
}

/// Opens streams of the jury's updates from this address until the
/// server refuses one: the open ones, held until dropped.
fn hold_every_stream(base: &str, cookie: &str) -> Vec<std::net::TcpStream> {
    use std::io::{Read, Write};
    let address = base.trim_start_matches("http://");
    let mut held = Vec::new();
    for _ in 0..200 {
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        write!(
            stream,
            "GET /jury/updates HTTP/1.1\r\nHost: {address}\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            if stream.read(&mut byte).unwrap() == 0 {
                break;
            }
            head.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&head).to_string();
        if head.starts_with("HTTP/1.1 503") {
            assert!(!held.is_empty(), "no stream at all was open");
            return held;
        }
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        held.push(stream);
    }
    panic!("the server held 200 streams from one address");
}
