//! `judge serve --db postgres://...` with judging hosts (`judge
//! judgehost`) as separate processes on a real PostgreSQL started for the
//! test: the hosts share the queue, a host killed with `kill -9` in the
//! middle of a judging loses nothing (another host judges that submission
//! again, once), a host that comes back judges nothing twice, a server
//! killed and restarted loses nothing; a host with other problems, a second
//! host of one name, a second server are refused.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::postgres_support::Postgres;
use crate::serve_support::*;
use crate::support::{copy_dir, is_root, problem, repo, Workspace};

const ACCEPTED: &[u8] = b"a, b = map(int, input().split())\nprint(\"Yes\" if a != b else \"No\")\n";
const WRONG: &[u8] =
    b"a, b = map(int, input().split())\nprint(\"Yes\" if (a + b) % 2 else \"No\")\n";
/// Judged until the wall-clock limit: a host is surely busy with it.
const SLEEPER: &[u8] = b"import time\ntime.sleep(60)\n";

/// A running `judge judgehost`, killed when dropped; what it prints goes
/// to a file.
struct Host {
    child: Child,
    log: PathBuf,
}

impl Host {
    fn start(workspace: &Workspace, dir: &Path, db: &str, name: &str, jobs: &str) -> Host {
        let log = workspace.path().join(format!("{name}.log"));
        let child = host_command(workspace, dir, db, name, jobs)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("start judge judgehost");
        Host { child, log }
    }

    fn said(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn kill_9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn host_command(workspace: &Workspace, dir: &Path, db: &str, name: &str, jobs: &str) -> Command {
    let mut command = workspace.command();
    command
        .args(["--color", "never", "-j", jobs, "judgehost"])
        .arg(dir)
        .args(["--db", db, "--name", name]);
    if !is_root() {
        command.arg("--insecure");
    }
    command
}

/// The contest's judgements as the database has them: (submission, state,
/// verdict, judged by).
fn judgements(pg: &Postgres, db: &str) -> Vec<(String, String, String, String)> {
    pg.sql(
        db,
        "SELECT submission, state, coalesce(verdict, ''), coalesce(judged_by, coalesce(claimed_by, '')) \
         FROM judgements ORDER BY id",
    )
    .lines()
    .map(|l| {
        let f: Vec<&str> = l.split('|').collect();
        (f[0].into(), f[1].into(), f[2].into(), f[3].into())
    })
    .collect()
}

fn submit(server: &Server, team: (&str, &str), name: &str, source: &[u8]) -> String {
    let a = post_json(
        &server.api("/submissions"),
        Some(team),
        &ccs_submission("mini-nim", "python", name, source),
    );
    assert_eq!(a.status, 201, "{}", a.text());
    a.json()["id"].as_str().unwrap().to_string()
}

#[test]
fn judging_hosts_share_the_queue_and_survive_a_killed_host_and_a_restarted_server() {
    let Some(pg) = Postgres::start("judging_hosts_share_the_queue") else {
        return;
    };
    let url = pg.create("contest");
    let workspace = Workspace::new();
    // The problem copied into the contest folder: each host reads this
    // folder as its own copy of the contest.
    let mini = workspace.path().join("mini-nim");
    copy_dir(&repo().join(problem("mini-nim")), &mini);
    let contest = contest_of(
        &workspace,
        "multi",
        "Hosts",
        &mini,
        &format!(
            "start = {}\nduration = \"5h\"\nlanguages = [\"python\", \"c\"]",
            toml_time(-60)
        ),
    );
    let server = Server::start(&workspace, &contest, &["--db", &url, "--no-judging"]);
    // (The line with the address may reach the log just after the address.)
    wait_for(Duration::from_secs(10), "the server's first line", || {
        let said = server.said();
        said.contains("judging left to `judge judgehost`")
            .then_some(())
    });
    // A second server on the same database is refused (its advisory lock).
    let second = serve_command(&workspace, &contest.dir, &["--db", &url])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{said}");
    assert!(
        said.contains("another `judge serve` is running on the database"),
        "{said}"
    );

    // Three hosts, each with its own --jobs.
    let mut hosts: HashMap<&str, Host> = HashMap::new();
    for (name, jobs) in [("h1", "1"), ("h2", "1"), ("h3", "2")] {
        hosts.insert(
            name,
            Host::start(&workspace, &contest.dir, &url, name, jobs),
        );
    }
    for (name, host) in &hosts {
        wait_for(Duration::from_secs(120), "the hosts to start", || {
            host.said().contains("judging the queue").then_some(())
        });
        assert!(host.said().contains(&format!("`{name}`")));
    }
    // A second host of one name is refused.
    let twin = host_command(&workspace, &contest.dir, &url, "h1", "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&twin.stderr);
    assert_eq!(twin.status.code(), Some(2), "{said}");
    assert!(
        said.contains("a judging host named `h1` is already running"),
        "{said}"
    );

    let (t1, t2) = (T1, T2);
    let mut expected: Vec<(String, &str)> = Vec::new();
    let sleeper = submit(&server, t1, "sleep.py", SLEEPER);
    expected.push((sleeper.clone(), "TLE"));
    for i in 0..4 {
        expected.push((submit(&server, t2, &format!("a{i}.py"), ACCEPTED), "AC"));
        expected.push((submit(&server, t1, &format!("w{i}.py"), WRONG), "WA"));
    }
    // The host judging the sleeper is killed in the middle of it.
    let holder = wait_for(
        Duration::from_secs(60),
        "a host to judge the sleeper",
        || {
            let row = pg.sql(
            "contest",
            &format!(
                "SELECT claimed_by FROM judgements WHERE submission = {sleeper} AND state = 'running'"
            ),
        );
            let name = row.trim().to_string();
            (!name.is_empty()).then_some(name)
        },
    );
    let killed = hosts.remove(holder.as_str()).expect("a host of ours");
    killed.kill_9();
    // The others take it over at once (its lock died with it) and judge
    // everything.
    let all_done = |pg: &Postgres, n: usize| {
        let js = judgements(pg, "contest");
        (js.len() == n && js.iter().all(|j| j.1 == "done")).then_some(js)
    };
    let done = wait_for(Duration::from_secs(180), "every submission judged", || {
        all_done(&pg, expected.len())
    });
    let by_submission: HashMap<String, (String, String)> = done
        .iter()
        .map(|(s, _, v, by)| (s.clone(), (v.clone(), by.clone())))
        .collect();
    assert_eq!(by_submission.len(), expected.len(), "{done:?}");
    for (id, verdict) in &expected {
        assert_eq!(&by_submission[id].0, verdict, "submission {id}: {done:?}");
    }
    assert_ne!(
        by_submission[&sleeper].1, holder,
        "judged again by another host"
    );
    let judged_by: HashSet<&str> = done.iter().map(|j| j.3.as_str()).collect();
    assert!(judged_by.len() >= 2, "the hosts shared the work: {done:?}");
    // The killed host comes back under its name: nothing is judged twice.
    let back = Host::start(&workspace, &contest.dir, &url, &holder, "1");
    wait_for(Duration::from_secs(120), "the host to come back", || {
        back.said().contains("judging the queue").then_some(())
    });
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(judgements(&pg, "contest"), done, "{}", back.said());
    hosts.insert("back", back);

    // The server killed and restarted: nothing lost, nothing judged twice;
    // the hosts keep working for the new server.
    server.kill_9();
    let server = Server::start(&workspace, &contest, &["--db", &url, "--no-judging"]);
    for i in 0..3 {
        expected.push((submit(&server, t2, &format!("b{i}.py"), ACCEPTED), "AC"));
    }
    let done = wait_for(
        Duration::from_secs(180),
        "the new submissions judged",
        || all_done(&pg, expected.len()),
    );
    let jury = JURY;
    for (id, verdict) in &expected {
        assert_eq!(
            &verdict_of(&server, jury, id),
            verdict,
            "submission {id}: {done:?}"
        );
    }
    let submissions = get(&server.api("/submissions"), Some(jury)).json();
    assert_eq!(submissions.as_array().unwrap().len(), expected.len());
    let judgements_api = get(&server.api("/judgements"), Some(jury)).json();
    assert_eq!(judgements_api.as_array().unwrap().len(), expected.len());
    assert_runs_written_once(&server, jury);
    // The feed: every judgement starts once and ends once, in order.
    let feed = check_feed(&get(&server.api("/event-feed?stream=false"), Some(jury)).text());
    let mut started = HashMap::new();
    for event in &feed {
        if event["type"] == "judgements" {
            let id = event["data"]["id"].as_str().unwrap().to_string();
            let ended = !event["data"]["end_time"].is_null();
            let entry = started.entry(id).or_insert((0, 0));
            if ended {
                entry.1 += 1;
            } else {
                entry.0 += 1;
            }
        }
    }
    assert_eq!(started.len(), expected.len());
    assert!(started.values().all(|&c| c == (1, 1)), "{started:?}");
}

#[test]
fn a_host_with_other_problems_is_refused_naming_the_problem() {
    let Some(pg) = Postgres::start("a_host_with_other_problems_is_refused") else {
        return;
    };
    let url = pg.create("contest");
    let workspace = Workspace::new();
    let write_contest = |name: &str, mini: &Path| {
        contest_of(
            &workspace,
            name,
            "Hosts",
            mini,
            &format!("start = {}\nlanguages = [\"python\"]", toml_time(-60)),
        )
    };
    let mini = workspace.path().join("server/mini-nim");
    copy_dir(&repo().join(problem("mini-nim")), &mini);
    let contest = write_contest("contest", &mini);
    let server = Server::start(&workspace, &contest, &["--db", &url]);
    wait_for(Duration::from_secs(10), "the server's first line", || {
        server
            .said()
            .contains("2 test(s) run at once")
            .then_some(())
    });
    // The host's copy has one answer changed.
    let theirs = workspace.path().join("host/mini-nim");
    copy_dir(&mini, &theirs);
    let answer = walkdir::WalkDir::new(&theirs)
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x == "ans" || x == "out")
        })
        .expect("an answer file")
        .into_path();
    let mut text = std::fs::read(&answer).unwrap();
    text.extend_from_slice(b"\n");
    std::fs::write(&answer, text).unwrap();
    let host_contest = write_contest("host", &theirs);
    let out = host_command(&workspace, &host_contest.dir, &url, "h1", "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("contest.toml"), "{said}");
    assert!(
        said.contains("problem `mini-nim`: this host's package differs from the server's"),
        "{said}"
    );
    // An SQLite database is refused with the reason.
    let out = host_command(&workspace, &contest.dir, "x.sqlite", "h1", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs the server's PostgreSQL"));
    // The server judges on its own too (it was not told --no-judging).
    let id = submit(&server, T1, "a.py", ACCEPTED);
    assert_eq!(verdict_of(&server, T1, &id), "AC");
}
