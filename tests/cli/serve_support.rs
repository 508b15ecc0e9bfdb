//! The harness of the contest-server tests: a contest folder written for
//! the test, `judge serve` started on a port the system picks (its address
//! read from what it prints), HTTP requests as clients send them (basic
//! authentication, sessions with their form tokens), and the checks of the
//! Contest API's JSON against schemas. The main type is [`Server`].

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;

use crate::support::{is_root, repo, Workspace};

/// How long a server may take to start (it makes its problems ready).
const START_TIMEOUT: Duration = Duration::from_secs(180);

/// A contest folder: contest.toml and the problems it names.
pub(crate) struct Contest {
    pub(crate) dir: PathBuf,
}

impl Contest {
    /// A contest in `workspace` with `toml` as its contest.toml.
    pub(crate) fn new(workspace: &Workspace, name: &str, toml: &str) -> Contest {
        let dir = workspace.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("contest.toml"), toml).unwrap();
        Contest { dir }
    }

    /// The database `judge serve` keeps by default.
    pub(crate) fn db(&self) -> PathBuf {
        self.dir.join(".judge-serve/contest.sqlite")
    }
}

/// The standard teams and jury of these tests (passwords in clear).
pub(crate) const TEAMS: &str = r#"
[jury]
password = "jury-pw"

[[teams]]
id = "t1"
name = "Team <b>One</b>"
password = "pw-1"

[[teams]]
id = "t2"
name = "Team Two"
password = "pw-2"

[[teams]]
id = "t3"
name = "Team Three"
password = "pw-3"
"#;

/// The logins of [`TEAMS`], as `(login, password)`.
pub(crate) const JURY: (&str, &str) = ("jury", "jury-pw");
pub(crate) const T1: (&str, &str) = ("t1", "pw-1");
pub(crate) const T2: (&str, &str) = ("t2", "pw-2");

/// A contest in `workspace` of the problem at `problem_dir` with the
/// standard [`TEAMS`]: contest.toml holds `title`, the problem, then the
/// lines `settings`.
pub(crate) fn contest_of(
    workspace: &Workspace,
    name: &str,
    title: &str,
    problem_dir: &Path,
    settings: &str,
) -> Contest {
    Contest::new(
        workspace,
        name,
        &format!(
            "title = \"{title}\"\nproblems = [\"{}\"]\n{settings}\n{TEAMS}",
            problem_dir.display()
        ),
    )
}

/// A TOML date-time `seconds` from now (negative: in the past).
pub(crate) fn toml_time(seconds: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let t = now + seconds;
    let days = t.div_euclid(86_400);
    let rest = t.rem_euclid(86_400);
    // Civil date from days since the epoch.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 {
        yoe + era * 400 + 1
    } else {
        yoe + era * 400
    };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A running `judge serve`, killed when dropped.
pub(crate) struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub(crate) base: String,
    /// Everything it printed on stderr.
    pub(crate) log: Arc<Mutex<Vec<String>>>,
    /// The contest's id.
    pub(crate) contest: String,
}

/// What `judge serve` was started with.
pub(crate) fn serve_command(workspace: &Workspace, dir: &Path, extra: &[&str]) -> Command {
    serve_command_of(workspace.command(), dir, extra)
}

/// [`serve_command`] from `command` (a judge with its workspace's config).
pub(crate) fn serve_command_of(mut command: Command, dir: &Path, extra: &[&str]) -> Command {
    command.args(["--color", "never", "-j", "2"]);
    command.arg("serve").arg(dir);
    if !extra.contains(&"--listen") {
        command.args(["--listen", "127.0.0.1:0"]);
    }
    if !is_root() {
        // Full isolation needs root here; the tests still run elsewhere.
        command.arg("--insecure");
    }
    command.args(extra);
    command
}

impl Server {
    /// Starts `judge serve` on `contest` and waits until it listens.
    pub(crate) fn start(workspace: &Workspace, contest: &Contest, extra: &[&str]) -> Server {
        let id = contest
            .dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        Server::start_with(serve_command(workspace, &contest.dir, extra), &id)
    }

    /// Starts `command` (a `judge serve`) and waits until it listens.
    pub(crate) fn start_with(mut command: Command, contest: &str) -> Server {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start judge serve");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    if let Some(at) = line.find(" at http://") {
                        let rest = &line[at + " at ".len()..];
                        let url = rest.split('/').take(3).collect::<Vec<_>>().join("/");
                        let _ = tx.send(url);
                    }
                    log.lock().unwrap().push(line);
                }
            });
        }
        let base = match rx.recv_timeout(START_TIMEOUT) {
            Ok(url) => url,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                std::thread::sleep(Duration::from_millis(200));
                panic!(
                    "judge serve did not start; it said:\n{}",
                    log.lock().unwrap().join("\n")
                );
            }
        };
        Server {
            child,
            base,
            log,
            contest: contest.to_string(),
        }
    }

    /// Kills it with SIGKILL and waits for it.
    pub(crate) fn kill_9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// `/api/contests/ID` + `path`.
    pub(crate) fn api(&self, path: &str) -> String {
        format!("{}/api/contests/{}{path}", self.base, self.contest)
    }

    /// What it printed so far.
    pub(crate) fn said(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
    pub(crate) headers: Vec<(String, String)>,
}

impl Answer {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}), status {}: {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn answer(r: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
    let r = r.expect("the request reaches the server");
    let status = r.status().as_u16();
    let headers = r
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let body = r.into_body().read_to_vec().unwrap_or_default();
    Answer {
        status,
        body,
        headers,
    }
}

/// `Basic ...` for `login:password`.
pub(crate) fn basic(login: &str, password: &str) -> String {
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{login}:{password}"))
    )
}

/// GET, with basic authentication when `auth` is given.
pub(crate) fn get(url: &str, auth: Option<(&str, &str)>) -> Answer {
    let mut request = agent().get(url);
    if let Some((l, p)) = auth {
        request = request.header("Authorization", basic(l, p));
    }
    answer(request.call())
}

/// POST of JSON with basic authentication.
pub(crate) fn post_json(url: &str, auth: Option<(&str, &str)>, body: &Value) -> Answer {
    send_json(url, "POST", auth, body)
}

/// A request with `body` as JSON.
pub(crate) fn send_json(
    url: &str,
    method: &str,
    auth: Option<(&str, &str)>,
    body: &Value,
) -> Answer {
    send(
        url,
        method,
        auth,
        "application/json",
        body.to_string().into_bytes(),
    )
}

/// A request with a body.
pub(crate) fn send(
    url: &str,
    method: &str,
    auth: Option<(&str, &str)>,
    content_type: &str,
    body: Vec<u8>,
) -> Answer {
    let agent = agent();
    let mut request = match method {
        "POST" => agent.post(url),
        "PATCH" => agent.patch(url),
        "PUT" => agent.put(url),
        other => panic!("method {other}"),
    };
    if let Some((l, p)) = auth {
        request = request.header("Authorization", basic(l, p));
    }
    answer(request.content_type(content_type).send(&body[..]))
}

/// A zip holding one file.
pub(crate) fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
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

/// The Contest API's submission body: the file in a base64 zip.
pub(crate) fn ccs_submission(problem: &str, language: &str, name: &str, source: &[u8]) -> Value {
    serde_json::json!({
        "problem_id": problem,
        "language_id": language,
        "files": [{"data": base64::engine::general_purpose::STANDARD.encode(zip_of(&[(name, source)]))}],
    })
}

/// The multipart body DOMjudge's submit client sends (Python requests with
/// `data={problem, language}` and `files=[('code[]', file)]`).
pub(crate) fn domjudge_form(
    problem: &str,
    language: &str,
    name: &str,
    source: &[u8],
) -> (String, Vec<u8>) {
    domjudge_form_of(problem, language, &[(name, source)])
}

/// The client's body for several files (`submit a.py b.py`): each one
/// a `code[]` part, in order.
pub(crate) fn domjudge_form_of(
    problem: &str,
    language: &str,
    files: &[(&str, &[u8])],
) -> (String, Vec<u8>) {
    let boundary = "ab8b5b4e7f0e0c1d2e3f4a5b6c7d8e9f";
    let mut body = Vec::new();
    for (key, value) in [("problem", problem), ("language", language)] {
        write!(
            body,
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{key}\"\r\n\r\n{value}\r\n"
        )
        .unwrap();
    }
    for (name, source) in files {
        write!(
            body,
            "--{boundary}\r\nContent-Disposition: form-data; name=\"code[]\"; filename=\"{name}\"\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(source);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{boundary}--\r\n").unwrap();
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Polls `check` until it gives a value, for at most `limit`.
pub(crate) fn wait_for<T>(limit: Duration, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// No run of a judgement is written twice (the API's runs as `auth` sees
/// them: a judgement and an ordinal once each).
pub(crate) fn assert_runs_written_once(server: &Server, auth: (&str, &str)) {
    let runs = get(&server.api("/runs"), Some(auth)).json();
    let mut keys = HashSet::new();
    for r in runs.as_array().unwrap() {
        assert!(
            keys.insert((r["judgement_id"].to_string(), r["ordinal"].to_string())),
            "a run written twice: {r}"
        );
    }
}

/// Waits until submission `id` has a finished judgement; its verdict.
pub(crate) fn verdict_of(server: &Server, auth: (&str, &str), id: &str) -> String {
    wait_for(
        Duration::from_secs(120),
        &format!("submission {id} judged"),
        || {
            let judgements = get(
                &server.api(&format!("/judgements?submission_id={id}")),
                Some(auth),
            )
            .json();
            judgements
                .as_array()?
                .iter()
                .rev()
                .find_map(|j| j["judgement_type_id"].as_str().map(str::to_string))
        },
    )
}

/// A browser-like session: a cookie and the page's form token.
pub(crate) struct Browser {
    pub(crate) cookie: String,
}

impl Browser {
    /// Logs in through the login form.
    pub(crate) fn login(server: &Server, login: &str, password: &str) -> Browser {
        let form = format!("login={login}&password={password}");
        let a = send(
            &format!("{}/login", server.base),
            "POST",
            None,
            "application/x-www-form-urlencoded",
            form.into_bytes(),
        );
        assert_eq!(a.status, 303, "login as {login}: {}", a.text());
        let cookie = a
            .header("set-cookie")
            .expect("a session cookie")
            .split(';')
            .next()
            .unwrap()
            .to_string();
        Browser { cookie }
    }

    /// GET a page with the session.
    pub(crate) fn get(&self, url: &str) -> Answer {
        answer(agent().get(url).header("Cookie", &self.cookie).call())
    }

    /// The form token on a page.
    pub(crate) fn csrf(&self, url: &str) -> String {
        let page = self.get(url).text();
        let at = page
            .find("name=\"csrf\" value=\"")
            .expect("a form token on the page");
        let rest = &page[at + "name=\"csrf\" value=\"".len()..];
        rest[..rest.find('"').unwrap()].to_string()
    }

    /// POST a multipart form (`body` with `boundary`) with the session.
    pub(crate) fn post_multipart(
        &self,
        server: &Server,
        path: &str,
        boundary: &str,
        body: &[u8],
    ) -> Answer {
        answer(
            agent()
                .post(&format!("{}{path}", server.base))
                .header("Cookie", &self.cookie)
                .header("Origin", &server.base)
                .content_type(&format!("multipart/form-data; boundary={boundary}"))
                .send(body),
        )
    }

    /// POST a form with the session (and `Origin`, as a browser sends).
    pub(crate) fn post(&self, server: &Server, path: &str, form: &str) -> Answer {
        answer(
            agent()
                .post(&format!("{}{path}", server.base))
                .header("Cookie", &self.cookie)
                .header("Origin", &server.base)
                .content_type("application/x-www-form-urlencoded")
                .send(form.as_bytes()),
        )
    }
}

/// Validates `value` against our schema `name` of the Contest API
/// (tests/schemas/ccs-2023-06.json, written from the specification), and
/// against the specification's own schemas when `JUDGE_TEST_CCS_SCHEMAS`
/// names their folder (json-schema/ of icpc/ccs-specs at 2023-06).
pub(crate) fn check_schema(name: &str, value: &Value, what: &str) {
    static OURS: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let ours = OURS.get_or_init(|| {
        let text = std::fs::read_to_string(repo().join("tests/schemas/ccs-2023-06.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    });
    let mut schema = ours.clone();
    schema["$ref"] = Value::String(format!("#/$defs/{name}"));
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("our schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not match `{name}`: {errors:#?}\n{value:#}"
    );
    if let Some(dir) = std::env::var_os("JUDGE_TEST_CCS_SCHEMAS") {
        official(Path::new(&dir), name, value, what);
    }
}

fn official(dir: &Path, name: &str, value: &Value, what: &str) {
    let file = match name {
        "api" => "api_information",
        "event" => "event-feed",
        other => other,
    };
    let mut resources: Vec<(String, Value)> = Vec::new();
    for entry in std::fs::read_dir(dir).expect("JUDGE_TEST_CCS_SCHEMAS is a folder") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let schema: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let id = schema["$id"].as_str().unwrap().to_string();
            resources.push((id, schema));
        }
    }
    let registry = jsonschema::Registry::new()
        .extend(
            resources
                .into_iter()
                .map(|(id, v)| (id, jsonschema::Resource::from_contents(v))),
        )
        .expect("the specification's schemas load")
        .prepare()
        .expect("the specification's schemas load");
    let main: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{file}.json"))).unwrap())
            .unwrap();
    let validator = jsonschema::options()
        .with_registry(&registry)
        .build(&main)
        .expect("the specification's schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not match the specification's {file}.json: {errors:#?}\n{value:#}"
    );
}

/// Every event of the feed as `auth` sees it, checked (see [`check_feed`]).
pub(crate) fn checked_feed(server: &Server, auth: Option<(&str, &str)>) -> Vec<Value> {
    check_feed(&get(&server.api("/event-feed?stream=false"), auth).text())
}

/// The lines of an event feed, checked against the schema and the
/// specification's order rules: tokens unique (opaque), an object comes after
/// what it refers to, `contest` and `state` have no id, and nothing
/// follows the end of updates.
pub(crate) fn check_feed(text: &str) -> Vec<Value> {
    let events: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let mut seen: HashSet<(String, String)> = HashSet::new();
    let mut tokens_seen: HashSet<String> = HashSet::new();
    let mut ended = false;
    for (i, e) in events.iter().enumerate() {
        check_schema("event", e, &format!("event {i}"));
        assert!(!ended, "an event after the end of updates: {e}");
        // Tokens are opaque (they must not count others' events): unique.
        let token = e["token"].as_str().unwrap().to_string();
        assert!(tokens_seen.insert(token), "tokens are unique: {e}");
        let kind = e["type"].as_str().unwrap();
        let data = &e["data"];
        let refers = |k: &str, key: &str| {
            if let Some(id) = data[key].as_str() {
                assert!(
                    seen.contains(&(k.to_string(), id.to_string())),
                    "event {i} ({kind}) refers to {k} {id} before it appears"
                );
            }
        };
        match kind {
            "submissions" => {
                refers("teams", "team_id");
                refers("problems", "problem_id");
                refers("languages", "language_id");
            }
            "judgements" => refers("submissions", "submission_id"),
            "runs" => refers("judgements", "judgement_id"),
            "clarifications" => {
                refers("clarifications", "reply_to_id");
                refers("teams", "from_team_id");
                refers("teams", "to_team_id");
                refers("problems", "problem_id");
            }
            "state" => ended = !data["end_of_updates"].is_null(),
            _ => {}
        }
        if let Some(id) = e["id"].as_str() {
            seen.insert((kind.to_string(), id.to_string()));
        }
    }
    events
}
