//! `judge serve` against what a hostile team or a confused client tries
//! (issue 33's review): the problems stay hidden before the start in the
//! event feed as in `GET problems`, failed logins of one team or the jury's
//! name do not lock out clients that log in with the right password, and
//! odd paths are answered, never a crash.

use std::time::Duration;

use serde_json::Value;

use crate::serve_support::*;
use crate::support::{problem, repo, Workspace};

/// A contest of mini-nim that the jury starts.
fn unstarted(workspace: &Workspace, name: &str) -> Contest {
    contest_of(
        workspace,
        name,
        "Review",
        &repo().join(problem("mini-nim")),
        "duration = \"5h\"\nlanguages = [\"python\"]",
    )
}

fn kinds(feed: &[Value]) -> Vec<String> {
    feed.iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn problems_stay_hidden_in_the_feed_until_the_start() {
    let workspace = Workspace::new();
    let contest = unstarted(&workspace, "review-feed");
    let server = Server::start(&workspace, &contest, &[]);
    let (jury, t1) = (JURY, T1);
    assert_eq!(
        get(&server.api("/problems"), None).json(),
        Value::Array(vec![])
    );
    for viewer in [None, Some(t1)] {
        let seen = kinds(&checked_feed(&server, viewer));
        assert!(
            !seen.iter().any(|k| k == "problems"),
            "{viewer:?} reads the problems before the start: {seen:?}"
        );
    }
    assert!(kinds(&checked_feed(&server, Some(jury)))
        .iter()
        .any(|k| k == "problems"));
    // A public client that follows the feed from before the start gets the
    // problems when the contest starts.
    let address = server.base.trim_start_matches("http://").to_string();
    let path = format!("/api/contests/{}/event-feed", server.contest);
    let follower = std::thread::spawn(move || {
        use std::io::{BufRead, BufReader, Write};
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
        let mut lines = BufReader::new(stream).lines();
        let mut problems = 0;
        while let Some(Ok(line)) = lines.next() {
            if line.contains("\"type\":\"problems\"") {
                problems += 1;
                return problems;
            }
        }
        problems
    });
    std::thread::sleep(Duration::from_millis(500));
    let desk = Browser::login(&server, "jury", "jury-pw");
    let token = desk.csrf(&format!("{}/jury", server.base));
    assert_eq!(
        desk.post(&server, "/jury/clock/start", &format!("csrf={token}"))
            .status,
        303
    );
    assert_eq!(follower.join().unwrap(), 1, "the follower got the problems");
    for viewer in [None, Some(t1)] {
        let seen = checked_feed(&server, viewer);
        let problems: Vec<&Value> = seen.iter().filter(|e| e["type"] == "problems").collect();
        assert!(!problems.is_empty(), "{viewer:?}: {:?}", kinds(&seen));
        for e in problems {
            check_schema("event", e, "a problem event");
        }
    }
    assert_eq!(
        get(&server.api("/problems"), None)
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // t2 asks; the jury answers everyone. The others read the answer, which
    // refers to no question they cannot read; t2 and the jury see the link.
    let question = post_json(
        &server.api("/clarifications"),
        Some(T2),
        &serde_json::json!({"text": "Is 0 0 a valid input?"}),
    );
    assert_eq!(question.status, 201, "{}", question.text());
    let question = question.json()["id"].as_str().unwrap().to_string();
    let answer = post_json(
        &server.api("/clarifications"),
        Some(jury),
        &serde_json::json!({"text": "Yes.", "reply_to_id": question}),
    );
    assert_eq!(answer.status, 201, "{}", answer.text());
    let reply_of = |auth| {
        let all = get(&server.api("/clarifications"), auth).json();
        let answer = all
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["text"] == "Yes.")
            .cloned();
        answer.unwrap()["reply_to_id"].clone()
    };
    assert!(reply_of(None).is_null());
    assert!(reply_of(Some(t1)).is_null());
    assert_eq!(reply_of(Some(T2)), question.as_str());
    assert_eq!(reply_of(Some(jury)), question.as_str());
    for viewer in [None, Some(t1), Some(T2), Some(jury)] {
        // check_feed refuses a reference to an object not seen before.
        let seen = checked_feed(&server, viewer);
        assert!(
            seen.iter().any(|e| e["data"]["text"] == "Yes."),
            "{viewer:?}"
        );
    }
}

#[test]
fn failed_logins_do_not_lock_out_the_right_password_and_odd_paths_are_404() {
    let workspace = Workspace::new();
    let contest = contest_of(
        &workspace,
        "review-logins",
        "Review",
        &repo().join(problem("mini-nim")),
        &format!(
            "start = {}\nduration = \"5h\"\nlanguages = [\"python\"]",
            toml_time(3600)
        ),
    );
    let server = Server::start(&workspace, &contest, &[]);
    let (jury, t1) = (JURY, T1);
    // Slow clients, meanwhile: headers that never end and a body sent a
    // byte at a time are cut off, not kept for ever.
    let slow_head = slow_client(&server, b"GET /login HTTP/1.1\r\nHost: x\r\n", false);
    let slow_body = slow_client(
        &server,
        format!(
            "POST /api/contests/{}/clarifications HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
            server.contest
        )
        .as_bytes(),
        true,
    );
    // The jury's feed client and a team's tool have logged in.
    assert_eq!(get(&server.api("/submissions"), Some(jury)).status, 200);
    assert_eq!(get(&server.api("/submissions"), Some(t1)).status, 200);
    // Another team guesses: ten times `jury`, ten times `t1`, and made-up names.
    for login in ["jury", "t1", "t2"] {
        for _ in 0..10 {
            assert_eq!(
                get(&server.api("/submissions"), Some((login, "guess"))).status,
                401
            );
        }
    }
    for i in 0..20 {
        let name = format!("nobody{i}");
        assert_eq!(
            get(&server.api("/submissions"), Some((&name, "x"))).status,
            401
        );
    }
    // The guessing is still limited, but the right password goes on working.
    assert_eq!(
        get(&server.api("/submissions"), Some(("jury", "again"))).status,
        429
    );
    assert_eq!(get(&server.api("/submissions"), Some(jury)).status, 200);
    assert_eq!(get(&server.api("/submissions"), Some(t1)).status, 200);
    // t2 never logged in: its login stays locked for the window.
    assert_eq!(get(&server.api("/submissions"), Some(T2)).status, 429);
    // The page DOMjudge's submit client points to, with anything as its id.
    for odd in ["%0d%0aSet-Cookie:%20x=1", "s12", "%2e%2e%2fjury", "s"] {
        let a = get(&format!("{}/team/submission/{odd}", server.base), None);
        assert!(
            a.status == 303 || a.status == 404,
            "{odd}: {} {}",
            a.status,
            a.text()
        );
        assert!(a.header("set-cookie").is_none(), "{odd}");
    }
    assert_eq!(slow_head.join().unwrap(), "", "headers that never end");
    assert!(
        slow_body.join().unwrap().starts_with("HTTP/1.1 408"),
        "a body sent a byte at a time"
    );
    // Times a client may send to move the start: refused, never a crash.
    for odd in [
        "99999999999999999-01-01T00:00:00Z",
        "2099-01-01T00:00:00+99999999999999999:00",
        "2099-01-01T00:00:00.-5Z",
    ] {
        let body = serde_json::json!({"id": server.contest, "start_time": odd});
        let a = send_json(&server.api(""), "PATCH", Some(jury), &body);
        assert_eq!(a.status, 400, "{odd}: {}", a.text());
    }
    // The jury clears contest.toml's start (to start by hand): no start
    // time, in the contest and in the feed, as the schemas have it.
    let body = serde_json::json!({"id": server.contest, "start_time": null});
    let a = send_json(&server.api(""), "PATCH", Some(jury), &body);
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.json()["start_time"].is_null(), "{}", a.text());
    let events = checked_feed(&server, Some(jury));
    let contest_event = events
        .iter()
        .rev()
        .find(|e| e["type"] == "contest")
        .unwrap();
    assert!(
        contest_event["data"]["start_time"].is_null(),
        "{contest_event}"
    );
    assert!(
        server.said().lines().all(|l| !l.contains("panicked")),
        "{}",
        server.said()
    );
}

/// Sends `head`, then (when `trickle`) a byte every second; what the server
/// answered when it ended the connection (empty: it closed without an
/// answer). Panics if the connection is still open after three minutes.
fn slow_client(server: &Server, head: &[u8], trickle: bool) -> std::thread::JoinHandle<String> {
    use std::io::{Read, Write};
    let address = server.base.trim_start_matches("http://").to_string();
    let head = head.to_vec();
    std::thread::spawn(move || {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream.write_all(&head).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(1)))
            .unwrap();
        let began = std::time::Instant::now();
        let mut answer = Vec::new();
        while began.elapsed() < Duration::from_secs(180) {
            let mut buffer = [0u8; 256];
            match stream.read(&mut buffer) {
                Ok(0) => return String::from_utf8_lossy(&answer).into_owned(),
                Ok(n) => answer.extend_from_slice(&buffer[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    if trickle && stream.write_all(b" ").is_err() {
                        return String::from_utf8_lossy(&answer).into_owned();
                    }
                }
                Err(_) => return String::from_utf8_lossy(&answer).into_owned(),
            }
        }
        panic!("the server kept a slow client for three minutes");
    })
}

/// A multipart form: `fields`, then a file under `file`.
fn print_form(boundary: &str, csrf: &str, name: &str, content: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
         Content-Type: text/plain\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(content);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    body
}

/// Printing as a camp uses it, through the real server: contest.toml's
/// `print_command` (here a script that keeps what it is given) gets the
/// team's file and the title as one word each, whatever the file's name;
/// the jury's queue shows the job printed; another team cannot read it; a
/// file over `max_size` is 413.
#[test]
fn a_team_prints_through_the_print_command_and_the_jury_sees_it() {
    let workspace = Workspace::new();
    let out = workspace.path().join("printer");
    std::fs::create_dir_all(&out).unwrap();
    let script = out.join("print.sh");
    std::fs::write(
        &script,
        format!(
            "cp \"$1\" '{0}/file'\nprintf '%s' \"$2\" > '{0}/title'\necho spooled\n",
            out.display()
        ),
    )
    .unwrap();
    let contest = contest_of(
        &workspace,
        "review-print",
        "Review",
        &repo().join(problem("mini-nim")),
        &format!(
            "start = {}\nduration = \"5h\"\nlanguages = [\"python\"]\n\n[printing]\n\
             print_command = [\"sh\", \"{}\", \"{{file}}\", \"{{title}}\"]\nmax_size = \"1KiB\"\n",
            toml_time(-60),
            script.display()
        ),
    );
    let server = Server::start(&workspace, &contest, &[]);
    let t1 = Browser::login(&server, T1.0, T1.1);
    let t2 = Browser::login(&server, T2.0, T2.1);
    let jury = Browser::login(&server, JURY.0, JURY.1);
    let page = format!("{}/team/print", server.base);
    assert!(t1
        .get(&format!("{}/team", server.base))
        .text()
        .contains("href=\"/team/print\""));
    let csrf = t1.csrf(&page);
    let boundary = "judge-print";
    let name = "../$(touch pwned) `id`.c";
    let text = b"int main() { return 0; }\n";
    let sent = t1.post_multipart(
        &server,
        "/team/print",
        boundary,
        &print_form(boundary, &csrf, name, text),
    );
    assert_eq!(sent.status, 303, "{}", sent.text());
    let title = wait_for(Duration::from_secs(120), "the print command", || {
        std::fs::read_to_string(out.join("title"))
            .ok()
            .filter(|t| !t.is_empty())
    });
    assert_eq!(title, "Team <b>One</b>: $(touch pwned) `id`.c");
    assert_eq!(std::fs::read(out.join("file")).unwrap(), text);
    let queue = wait_for(Duration::from_secs(60), "the outcome on the queue", || {
        let page = jury.get(&format!("{}/jury/print", server.base)).text();
        page.contains("exit 0").then_some(page)
    });
    assert!(
        queue.contains("spooled") && queue.contains("$(touch pwned) `id`.c"),
        "{queue}"
    );
    assert!(!workspace.path().join("pwned").exists() && !contest.dir.join("pwned").exists());
    assert_eq!(t2.get(&format!("{}/team/print/1", server.base)).status, 404);
    assert_eq!(
        t1.get(&format!("{}/team/print/1", server.base))
            .text()
            .as_bytes(),
        text
    );
    let csrf = t1.csrf(&page);
    let big = print_form(boundary, &csrf, "big.txt", &[b'x'; 2000]);
    assert_eq!(
        t1.post_multipart(&server, "/team/print", boundary, &big)
            .status,
        413
    );
}
