//! The contestant's loop: a folder of samples judged without a package (every
//! layout contestants' tools leave, `judge gen --format oj` read back), file
//! input and output in the sandbox (and what a hostile program leaves under
//! the output's name), `--input -`, `judge stress --generator` on a samples
//! folder, and `judge listen` receiving problems as Competitive Companion
//! sends them (the same HTTP requests, headers and chunks), refusing what it
//! must, then `judge run` on what it wrote.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{repo, str_field, tests_of, Workspace};

/// A+B in Python, right.
const SUM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A temporary folder with `files`.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("judge-contestant-")
        .tempdir()
        .unwrap();
    write(dir.path(), files);
    dir
}

#[test]
fn a_samples_folder_is_judged_in_every_layout_naming_its_files() {
    let ws = Workspace::new();
    let code = folder(&[
        ("sum.py", SUM),
        (
            "off.py",
            "a, b = map(int, input().split())\nprint(a + b + (a == 5))\n",
        ),
    ]);
    let sum = code.path().join("sum.py");
    let off = code.path().join("off.py");
    for files in [
        &[
            ("sample-1.in", "1 2\n"),
            ("sample-1.out", "3\n"),
            ("sample-2.in", "5 7\n"),
            ("sample-2.ans", "12\n"),
        ][..],
        &[
            ("test/sample-1.in", "1 2\n"),
            ("test/sample-1.out", "3\n"),
            ("test/sample-2.in", "5 7\n"),
            ("test/sample-2.out", "12\n"),
        ],
        &[
            ("data/sample/1.in", "1 2\n"),
            ("data/sample/1.ans", "3\n"),
            ("data/sample/2.in", "5 7\n"),
            ("data/sample/2.ans", "12\n"),
            ("problem.pdf", "%PDF"),
        ],
        &[
            ("in1.txt", "1 2\n"),
            ("ans1.txt", "3\n"),
            ("in2.txt", "5 7\n"),
            ("ans2.txt", "12\n"),
        ],
    ] {
        let dir = folder(files);
        let ok = ws.judge(["run", s(dir.path()), s(&sum)]);
        ok.expect_code(0);
        let inputs: Vec<&str> = files
            .iter()
            .map(|f| f.0)
            .filter(|f| f.contains("in"))
            .collect();
        for input in &inputs {
            let (dir, file) = input.rsplit_once('/').unwrap_or(("", input));
            assert!(
                ok.stdout.contains(&format!(" {file} + ")),
                "{input} named in {ok:#?}"
            );
            assert!(
                ok.stdout.contains(&format!("{dir}/: ")),
                "{dir} named in {ok:#?}"
            );
        }
        assert!(ok.stdout.contains("  tests in "), "{ok:#?}");
        let wrong = ws.judge(["run", s(dir.path()), s(&off), "--format", "json"]);
        wrong.expect_code(1);
        let report = wrong.report();
        assert_eq!(str_field(&report, "verdict"), "WA");
        let failed = &tests_of(&report)[1];
        let input = &failed["input"];
        assert!(str_field(input, "path").ends_with(inputs[1]), "{input}");
        assert_eq!(str_field(input, "head"), "5 7\n");
    }
    // The human report shows the failing input, with its path.
    let dir = folder(&[("a.in", "5 7\n"), ("a.out", "12\n")]);
    let shown = ws.judge(["run", s(dir.path()), s(&off)]);
    let path = dir.path().join("a.in");
    assert!(
        shown.stdout.contains(&format!(
            "input {} (1 line, 4 bytes):\n        5 7\n",
            path.display()
        )),
        "{shown:#?}"
    );
    // A sample without an answer is run, not checked; two answers are refused.
    let unanswered = folder(&[("1.in", "1 2\n")]);
    let ran = ws.judge(["run", s(unanswered.path()), s(&sum), "--format", "json"]);
    ran.expect_code(0);
    assert!(str_field(&tests_of(&ran.report())[0], "message").contains("no answer"));
    let both = folder(&[("1.in", "1 2\n"), ("1.out", "3\n"), ("1.ans", "3\n")]);
    let refused = ws.judge(["run", s(both.path()), s(&sum)]);
    refused.expect_code(2);
    assert!(
        refused.stderr.contains("both 1.out and 1.ans answer 1.in"),
        "{refused:#?}"
    );
    // A problem received without samples (its page had none) says so.
    let received = folder(&[("companion.json", r#"{"name":"A","tests":[]}"#)]);
    let nothing = ws.judge(["run", s(received.path()), s(&sum)]);
    nothing.expect_code(2);
    assert!(nothing.stderr.contains("no samples in it"), "{nothing:#?}");
    // A folder with nothing to judge says what it looked for.
    let empty = folder(&[("notes.txt", "x")]);
    let none = ws.judge(["run", s(empty.path()), s(&sum)]);
    none.expect_code(2);
    assert!(
        none.stderr.contains("or samples (NAME.in with NAME.out"),
        "{none:#?}"
    );
}

/// What `judge gen --format oj` writes is read back: the same tests, and
/// the same verdict as on the package.
#[test]
fn gen_in_oj_layout_reads_back_as_a_samples_folder() {
    let ws = Workspace::new();
    let dir = folder(&[]);
    let test = dir.path().join("test");
    ws.judge(["gen", "acwing-891", "--out", s(&test), "--format", "oj"])
        .expect_code(0);
    let package = ws.judge([
        "run",
        "acwing-891",
        "problems/acwing-891/solutions/wa-sum-parity.cpp",
        "--format",
        "json",
    ]);
    let folder = ws.judge([
        "run",
        s(dir.path()),
        "problems/acwing-891/solutions/wa-sum-parity.cpp",
        "--format",
        "json",
    ]);
    let (package, folder) = (package.report(), folder.report());
    // (The same tests and verdicts; the folder's in natural order of names.)
    let verdicts = |r: &serde_json::Value| -> std::collections::BTreeSet<(String, String)> {
        tests_of(r)
            .iter()
            .map(|t| {
                (
                    str_field(t, "name").to_string(),
                    str_field(t, "verdict").to_string(),
                )
            })
            .collect()
    };
    assert_eq!(verdicts(&package), verdicts(&folder));
    assert_eq!(str_field(&folder, "verdict"), "WA");
    ws.judge([
        "run",
        s(dir.path()),
        "problems/acwing-891/solutions/accepted.py",
    ])
    .expect_code(0);
}

/// A problem that reads input.txt and writes output.txt is judged so, in
/// the sandbox and without it; whatever a program leaves under the output's
/// name that is not a regular file (a link to a secret, a pipe, a folder) is
/// never read.
#[test]
fn file_input_and_output_are_judged_as_such() {
    let ws = Workspace::new();
    let companion = r#"{"name":"A. Files","group":"Codeforces","url":"https://codeforces.com/problemset/problem/120/A","interactive":false,"memoryLimit":256,"timeLimit":2000,"tests":[],"testType":"single","input":{"type":"file","fileName":"input.txt"},"output":{"type":"file","fileName":"output.txt"},"languages":{"java":{"mainClass":"Main","taskClass":"AFiles"}}}"#;
    let dir = folder(&[
        ("sample-1.in", "1 2\n"),
        ("sample-1.out", "3\n"),
        ("sample-2.in", "20 22\n"),
        ("sample-2.out", "42\n"),
        ("companion.json", companion),
    ]);
    let secret = folder(&[("secret.txt", "42\n")]);
    let secret = secret.path().join("secret.txt");
    let files = folder(&[
        ("files.py", "a, b = map(int, open('input.txt').read().split())\nopen('output.txt', 'w').write(f'{a + b}\\n')\n"),
        ("stdout.py", SUM),
        ("printer.py", "a, b = map(int, open('input.txt').read().split())\nprint(a + b)\n"),
        ("link.py", &format!("import os\nos.symlink({:?}, 'output.txt')\n", s(&secret))),
        ("fifo.py", "import os\nos.mkfifo('output.txt')\n"),
        ("folder.py", "import os\nos.mkdir('output.txt')\n"),
        ("change-input.py", "open('input.txt', 'w').write('9 9\\n')\n"),
    ]);
    let file = |name: &str| s(&files.path().join(name)).to_string();
    for isolation in ["auto", "none"] {
        let run = |name: &str| {
            ws.judge([
                "--isolation",
                isolation,
                "run",
                s(dir.path()),
                &file(name),
                "--format",
                "json",
            ])
        };
        let ok = run("files.py");
        ok.expect_code(0);
        assert!(
            ok.stderr.contains("reads input.txt, writes output.txt"),
            "{ok:#?}"
        );
        // stdin is empty: the real judge gives the input only as the file.
        let stdin = run("stdout.py").report();
        assert_eq!(str_field(&stdin, "verdict"), "RE", "{isolation}: {stdin}");
        let printed = run("printer.py").report();
        let message = str_field(&tests_of(&printed)[0], "message").to_string();
        assert!(
            message.contains("wrote no `output.txt`") && message.contains("printed 2 bytes"),
            "{message}"
        );
        for hostile in ["link.py", "fifo.py", "folder.py"] {
            let report = run(hostile).report();
            let test = &tests_of(&report)[1];
            assert_eq!(
                str_field(test, "verdict"),
                "WA",
                "{isolation} {hostile}: {report}"
            );
            assert!(
                str_field(test, "message").contains("not a regular file"),
                "{report}"
            );
        }
        // The run's input is a copy: the sample is never changed.
        run("change-input.py");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("sample-2.in")).unwrap(),
            "20 22\n"
        );
    }
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "42\n");
    // An interactive problem's samples are refused, naming why.
    write(
        dir.path(),
        &[(
            "companion.json",
            &companion.replace("\"interactive\":false", "\"interactive\":true"),
        )],
    );
    let interactive = ws.judge(["run", s(dir.path()), &file("files.py")]);
    interactive.expect_code(2);
    assert!(
        interactive.stderr.contains("interactive"),
        "{interactive:#?}"
    );
}

#[test]
fn input_from_stdin_and_an_input_that_does_not_parse() {
    let ws = Workspace::new();
    let judge_stdin = |input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
            .current_dir(repo())
            .args([
                "--config",
                s(ws.config_path()),
                "--color",
                "never",
                "run",
                "acwing-891",
            ])
            .args(["problems/acwing-891/solutions/accepted.py", "--input", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let ok = judge_stdin("3\n1 2 3\n");
    assert_eq!(ok.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(stdout.contains("output:\n    No\n"), "{stdout}");
    let bad = judge_stdin("3\n1 x 3\n");
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("standard input is not an input of problem acwing-891: the problem's validator rejects it"),
        "{stderr}"
    );
    let dir = folder(&[("bad.in", "garbage")]);
    let file = ws.judge([
        "run",
        "acwing-891",
        "problems/acwing-891/solutions/accepted.py",
        "--input",
        s(&dir.path().join("bad.in")),
    ]);
    file.expect_code(2);
    assert!(
        file.stderr
            .contains("bad.in is not an input of problem acwing-891"),
        "{file:#?}"
    );
}

#[test]
fn stress_a_samples_folder_with_a_generator_from_the_command_line() {
    let ws = Workspace::new();
    let dir = folder(&[
        ("p/sample-1.in", "1 2\n"),
        ("p/sample-1.out", "3\n"),
        ("gen.py", "import random, sys\nr = random.Random(int(sys.argv[1]))\nn = int(sys.argv[2])\nprint(r.randint(1, 3 * n), r.randint(1, 3 * n))\n"),
        ("brute.py", SUM),
        ("wrong.py", "a, b = map(int, input().split())\nprint(a + b + (a == b))\n"),
    ]);
    let at = |f: &str| s(&dir.path().join(f)).to_string();
    let save = dir.path().join("found.in");
    let out = ws.judge([
        "stress",
        &at("p"),
        &at("wrong.py"),
        "--against",
        &at("brute.py"),
        "--generator",
        &at("gen.py"),
        "--save",
        s(&save),
        "--format",
        "json",
    ]);
    out.expect_code(1);
    let minimal = std::fs::read_to_string(&save).unwrap();
    let numbers: Vec<u64> = minimal
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert!(
        numbers.len() == 2 && numbers[0] == numbers[1],
        "{minimal:?}"
    );
    // Without --against, a samples folder has no reference: said so.
    let none = ws.judge([
        "stress",
        &at("p"),
        &at("wrong.py"),
        "--generator",
        &at("gen.py"),
    ]);
    none.expect_code(2);
    assert!(none.stderr.contains("--against FILE"), "{none:#?}");
    let no_generator = ws.judge([
        "stress",
        &at("p"),
        &at("wrong.py"),
        "--against",
        &at("brute.py"),
    ]);
    no_generator.expect_code(2);
    assert!(
        no_generator.stderr.contains("--generator FILE"),
        "{no_generator:#?}"
    );
}

/// `judge listen --port 0 --dir DIR` running, its port read from its first line.
struct Listener {
    child: Child,
    stdout: BufReader<std::process::ChildStdout>,
    port: u16,
    first_line: String,
}

impl Listener {
    fn start(ws: &Workspace, dir: &Path, extra: &[&str]) -> Listener {
        let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
            .current_dir(dir)
            .args([
                "--config",
                s(ws.config_path()),
                "--color",
                "never",
                "listen",
                "--port",
                "0",
                "--dir",
                s(dir),
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first_line = String::new();
        stdout.read_line(&mut first_line).unwrap();
        let port = first_line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no port in {first_line:?}"));
        Listener {
            child,
            stdout,
            port,
            first_line,
        }
    }

    /// Waits for it to end (it was given --count); its stdout and stderr.
    fn finish(mut self) -> (String, String) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "judge listen did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut out = String::new();
        let mut err = String::new();
        self.stdout.read_to_string(&mut out).unwrap();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (out, err)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `parts` (written one after the other, `pause` apart) to the
/// listener and reads its whole answer (it closes the connection).
fn exchange(port: u16, parts: &[&[u8]], pause: Duration) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(40)))
        .unwrap();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(pause);
        }
        if stream.write_all(part).is_err() {
            break;
        }
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// The request Chrome sends for Competitive Companion's `fetch` (a POST
/// from the extension's service worker, the body a string: a
/// Content-Length, no chunks), with `host` as the Host header.
fn chrome_request(host: &str, body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: {host}\r\nConnection: keep-alive\r\nContent-Length: {}\r\n\
         sec-ch-ua-platform: \"Linux\"\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 \
         (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36\r\nsec-ch-ua: \"Chromium\";v=\"131\", \
         \"Not_A Brand\";v=\"24\"\r\nContent-Type: application/json\r\nsec-ch-ua-mobile: ?0\r\n\
         Accept: */*\r\nOrigin: chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl\r\n\
         Sec-Fetch-Site: none\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\n\
         Accept-Encoding: gzip, deflate, br, zstd\r\nAccept-Language: en-US,en;q=0.9\r\n\r\n{body}",
        body.len()
    )
}

/// The same from Firefox (a moz-extension origin, its header order).
fn firefox_request(host: &str, body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: {host}\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) \
         Gecko/20100101 Firefox/133.0\r\nAccept: */*\r\nAccept-Language: en-US,en;q=0.5\r\n\
         Accept-Encoding: gzip, deflate, br, zstd\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nOrigin: moz-extension://6d4b1f5e-2a7c-4f0e-9b1d-3c8e5a7f9b20\r\n\
         Connection: keep-alive\r\nSec-Fetch-Dest: empty\r\nSec-Fetch-Mode: cors\r\n\
         Sec-Fetch-Site: same-origin\r\nPriority: u=4\r\n\r\n{body}",
        body.len()
    )
}

/// A task as the extension serialises it (its fields in its order).
fn task(name: &str, tests: &[(&str, &str)], batch: (&str, u64), extra: &str) -> String {
    let tests: Vec<String> = tests
        .iter()
        .map(|(i, o)| serde_json::json!({"input": i, "output": o}).to_string())
        .collect();
    format!(
        "{{\"name\":{},\"group\":\"AtCoder - AtCoder Beginner Contest 096\",\"url\":\"https://atcoder.jp/contests/abc096/tasks/abc096_a\",\
         \"interactive\":false,\"memoryLimit\":1024,\"timeLimit\":2000,\"tests\":[{}],\"testType\":\"single\",\
         \"input\":{{\"type\":\"stdin\"}},\"output\":{{\"type\":\"stdout\"}}{extra},\
         \"languages\":{{\"java\":{{\"mainClass\":\"Main\",\"taskClass\":\"ADayOfTakahashi\"}}}},\
         \"batch\":{{\"id\":\"{}\",\"size\":{}}}}}",
        serde_json::Value::String(name.into()),
        tests.join(","),
        batch.0,
        batch.1
    )
}

fn status(answer: &str) -> &str {
    answer.split(' ').nth(1).unwrap_or("")
}

/// The two commands of the contestant's loop: `judge listen` receives
/// problems exactly as the extension posts them (Chrome and Firefox, a
/// contest sent problem by problem, the body split across packets), and
/// `judge run` judges a file on what it wrote.
#[test]
fn listen_receives_what_competitive_companion_sends_then_run_judges_it() {
    let ws = Workspace::new();
    let dir = folder(&[("sum.py", SUM)]);
    let listener = Listener::start(&ws, dir.path(), &["--count", "4"]);
    assert!(
        listener.first_line.contains("problems go to ."),
        "{}",
        listener.first_line
    );
    let host = format!("localhost:{}", listener.port);
    let batch = "4f0e2a7c-9b1d-4c8e-a7f9-b206d4b1f5e3";
    let a = task(
        "A - Day of Takahashi",
        &[("5 5\n", "10\n"), ("2 1\n", "3\n")],
        (batch, 3),
        "",
    );
    let b = task(
        "B - Maximum Sum",
        &[("5 3 11\n1\n", "30\n")],
        (batch, 3),
        "",
    );
    let answer = exchange(
        listener.port,
        &[chrome_request(&host, &a).as_bytes()],
        Duration::ZERO,
    );
    assert_eq!(status(&answer), "200", "{answer}");
    assert!(answer.contains("saved as a-day-of-takahashi"), "{answer}");
    // Firefox, the body arriving in three pieces.
    let request = firefox_request(&format!("127.0.0.1:{}", listener.port), &b);
    let (head, body) = request.split_at(request.find("\r\n\r\n").unwrap() + 4);
    let (body1, body2) = body.split_at(body.len() / 2);
    let answer = exchange(
        listener.port,
        &[head.as_bytes(), body1.as_bytes(), body2.as_bytes()],
        Duration::from_millis(100),
    );
    assert_eq!(status(&answer), "200", "{answer}");
    // The same problem again: left as it is.
    let again = exchange(
        listener.port,
        &[chrome_request(&host, &a).as_bytes()],
        Duration::ZERO,
    );
    assert_eq!(status(&again), "200", "{again}");
    // Another problem of the same name, with file input and output.
    let files = task("A - Day of Takahashi", &[("1 2\n", "3\n")], (batch, 3), "").replace(
        "\"input\":{\"type\":\"stdin\"}",
        "\"input\":{\"type\":\"file\",\"fileName\":\"input.txt\"}",
    );
    let answer = exchange(
        listener.port,
        &[chrome_request(&host, &files).as_bytes()],
        Duration::ZERO,
    );
    assert!(answer.contains("saved as a-day-of-takahashi-2"), "{answer}");
    let (out, _) = listener.finish();
    assert!(
        out.contains("received \"A - Day of Takahashi\" (AtCoder - AtCoder Beginner Contest 096) [one of 3 problems]: 2 samples, 2.00 s, 1.0 GiB\n  saved to ./a-day-of-takahashi\n  judge run ./a-day-of-takahashi FILE\n"),
        "{out}"
    );
    assert!(
        out.contains("already in ./a-day-of-takahashi, the same samples"),
        "{out}"
    );
    assert!(out.contains("reads input.txt, writes stdout"), "{out}");
    let folder = dir.path().join("a-day-of-takahashi");
    assert_eq!(
        std::fs::read_to_string(folder.join("test/sample-2.in")).unwrap(),
        "2 1\n"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("test/sample-2.out")).unwrap(),
        "3\n"
    );
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("companion.json")).unwrap())
            .unwrap();
    assert_eq!(kept["timeLimit"], 2000);
    assert!(kept.get("tests").is_none());
    // The second command: judged at once, with the problem's limits.
    let run = ws.judge([
        "run",
        s(&folder),
        s(&dir.path().join("sum.py")),
        "--format",
        "json",
    ]);
    run.expect_code(0);
    assert_eq!(run.report()["limits"]["time_ms"], 2000);
    let maximum = ws.judge([
        "run",
        s(&dir.path().join("b-maximum-sum")),
        s(&dir.path().join("sum.py")),
    ]);
    maximum.expect_code(1);
}

/// What the listener refuses, each with an error status and a line, without
/// stopping: web pages, other host names, not JSON, malformed HTTP or JSON,
/// bodies too large (declared or streamed), requests too slow; hostile names
/// stay inside DIR. It listens on 127.0.0.1 only.
#[test]
fn listen_refuses_what_is_not_a_problem_from_the_extension() {
    let ws = Workspace::new();
    let dir = folder(&[]);
    let listener = Listener::start(&ws, dir.path(), &["--count", "2"]);
    let port = listener.port;
    let host = format!("localhost:{port}");
    let good = task("C. Good", &[("1\n", "1\n")], ("b", 1), "");
    // Bound to 127.0.0.1 only (/proc/net/tcp: 0100007F, the port in hex).
    let tcp = std::fs::read_to_string("/proc/net/tcp").unwrap();
    let local = format!(":{port:04X} ");
    let bound: Vec<&str> = tcp
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|a| a.ends_with(local.trim()))
        })
        .collect();
    assert!(
        !bound.is_empty()
            && bound.iter().all(|l| l
                .split_whitespace()
                .nth(1)
                .unwrap()
                .starts_with("0100007F:")),
        "{bound:?}"
    );
    let send = |request: String| exchange(port, &[request.as_bytes()], Duration::ZERO);
    let from_page = chrome_request(&host, &good).replace(
        "chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl",
        "https://evil.example",
    );
    assert_eq!(status(&send(from_page)), "403");
    assert_eq!(
        status(&send(chrome_request(
            &format!("evil.example:{port}"),
            &good
        ))),
        "403"
    );
    let plain = chrome_request(&host, &good).replace(
        "Content-Type: application/json",
        "Content-Type: text/plain;charset=UTF-8",
    );
    assert_eq!(status(&send(plain)), "415");
    assert_eq!(
        status(&send(chrome_request(
            &host,
            "{\"name\": \"x\", \"tests\": ["
        ))),
        "400"
    );
    assert_eq!(
        status(&send(chrome_request(&host, "{\"tests\": 3}"))),
        "400"
    );
    assert_eq!(
        status(&send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".into())),
        "405"
    );
    assert_eq!(
        status(&send("\x16\x03\x01 not http at all\r\n\r\n".into())),
        "400"
    );
    let huge = format!("POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 999999999999\r\n\r\n{{");
    assert_eq!(status(&send(huge)), "413");
    let chunk = format!("{:x}\r\n{}\r\n", 1 << 20, "x".repeat(1 << 20));
    let streamed = exchange(
        port,
        &[format!("POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").as_bytes()]
            .into_iter()
            .chain(std::iter::repeat_n(chunk.as_bytes(), 20))
            .collect::<Vec<_>>(),
        Duration::ZERO,
    );
    // (The listener answers 413 and closes with the rest unread: the client
    // may see the answer, or the connection reset.)
    assert!(["413", ""].contains(&status(&streamed)), "{streamed}");
    // Slow: a body that stops coming, headers that never end. Both answered
    // 408 (and closed) while the listener goes on serving.
    let slow_body = std::thread::spawn(move || {
        exchange(
            port,
            &[format!("POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"na").as_bytes()],
            Duration::ZERO,
        )
    });
    let slow_head = std::thread::spawn(move || {
        exchange(
            port,
            &[b"POST / HTTP/1.1\r\nHost: loc", b"alhost\r\n"],
            Duration::from_secs(1),
        )
    });
    // Hostile names stay inside DIR, and an existing folder is not written.
    std::fs::create_dir_all(dir.path().join("etc-passwd-2j/test")).unwrap();
    std::fs::write(dir.path().join("etc-passwd-2j/test/sample-1.in"), "mine").unwrap();
    let hostile = task(
        "../../etc/passwd\u{1b}[2J\n",
        &[("1\n", "1\n")],
        ("b", 1),
        "",
    );
    let answer = send(chrome_request(&host, &hostile));
    assert!(answer.contains("saved as etc-passwd-2j-2"), "{answer}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("etc-passwd-2j/test/sample-1.in")).unwrap(),
        "mine"
    );
    let slow_body = slow_body.join().unwrap();
    assert_eq!(status(&slow_body), "408", "{slow_body}");
    let slow_head = slow_head.join().unwrap();
    assert_eq!(status(&slow_head), "408", "{slow_head}");
    assert_eq!(status(&send(chrome_request(&host, &good))), "200");
    let (out, err) = listener.finish();
    for line in [
        "(403): Origin `https://evil.example` is a web page",
        "(403): Host `evil.example",
        "(415)",
        "(400): not a Competitive Companion problem: not valid JSON",
        "(413)",
        "(408)",
    ] {
        assert!(err.contains(line), "{line} in {err}");
    }
    assert!(
        out.contains("received \"../../etc/passwd\\x1b[2J\\n\""),
        "{out}"
    );
    let names: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn listen_says_when_its_port_is_taken() {
    let ws = Workspace::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = ws.judge(["listen", "--port", &port, "--dir", s(folder(&[]).path())]);
    out.expect_code(2);
    assert!(out.stderr.contains("another program has it"), "{out:#?}");
}
