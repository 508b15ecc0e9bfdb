//! `judge batch` and `judge merge`: a mock contest judged into results.json,
//! scoreboards and JUnit; partitions merged equal to one full run; the HTML
//! scoreboard rendered by headless Chromium, its DOM checked against
//! results.json and a screenshot saved.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{repo, Workspace};

fn contest(name: &str) -> String {
    format!("tests/fixtures/{name}")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// (rank, contestant, solved, penalty, score) of every row.
fn rows(results: &Value) -> Vec<(u64, String, u64, u64, u64)> {
    results["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["rank"].as_u64().unwrap(),
                s["contestant"].as_str().unwrap().to_string(),
                s["solved"].as_u64().unwrap(),
                s["penalty"].as_u64().unwrap(),
                s["score"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn icpc_contest_is_judged_scored_and_reported() {
    let _heavy = crate::support::cpu_heavy();
    let workspace = Workspace::new();
    let out = workspace.path().join("out");
    let judged = workspace.judge([
        "batch",
        &contest("contest-icpc"),
        "--out",
        out.to_str().unwrap(),
    ]);
    judged.expect_code(0);
    let results = read_json(&out.join("results.json"));
    assert_eq!(results["schema_version"], 1);
    assert_eq!(results["contest"]["scoring"], "icpc");
    assert_eq!(
        rows(&results),
        [
            (1, "alice".into(), 2, 20, 200),
            (1, "bob".into(), 2, 20, 200),
            (3, "carol".into(), 0, 0, 0),
            (3, "dave".into(), 0, 0, 0),
        ]
    );
    let entries = results["entries"].as_array().unwrap();
    let find = |file: &str| {
        entries
            .iter()
            .find(|e| e["file"] == file)
            .unwrap_or_else(|| panic!("no entry {file}"))
    };
    // Every file is in the results: judged with its full report, or with why not.
    assert_eq!(find("bob/hdu-1846.2.cpp")["report"]["verdict"], "CE");
    assert_eq!(find("bob/hdu-1846.2.cpp")["attempt"], 2);
    // Lazy judging (ICPC): the wrong answer stops the submission; the
    // tests after it are listed as not run, and why.
    let wrong = &find("alice/poj-2484.py")["report"];
    assert_eq!(wrong["verdict"], "WA");
    let ran = wrong["tests"].as_array().unwrap();
    assert_eq!(ran.last().unwrap()["verdict"], "WA", "{wrong}");
    assert!(ran[..ran.len() - 1].iter().all(|t| t["verdict"] == "AC"));
    assert!(!wrong["skipped"].as_array().unwrap().is_empty(), "{wrong}");
    assert_eq!(wrong["skip_reason"], "after_failure");
    assert!(find("dave/hdu-9999.cpp")["error"]
        .as_str()
        .unwrap()
        .contains("names no problem of the contest"));
    assert!(find("dave/hdu-1846.zig")["error"]
        .as_str()
        .unwrap()
        .contains("unknown extension `.zig`"));
    assert!(
        find("")["error"].is_null()
            || entries.iter().any(
                |e| e["contestant"] == "carol" && e["error"] == "no submissions in this folder"
            )
    );
    assert!(find("README")["error"]
        .as_str()
        .unwrap()
        .contains("not inside a contestant folder"));
    let text = std::fs::read_to_string(out.join("scoreboard.txt")).unwrap();
    assert_eq!(text, judged.stdout, "stdout shows the scoreboard");
    assert!(
        text.contains("   1  alice            2       20  + AC      +1 AC"),
        "{text}"
    );
    let html = std::fs::read_to_string(out.join("scoreboard.html")).unwrap();
    assert!(
        !html.contains("<script")
            && !html.contains("http://")
            && !html.contains("https://")
            && !html.contains("src=")
    );
    let junit = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    assert!(
        junit.starts_with("<?xml") && junit.contains("<testsuite name=\"alice/poj-2484.py\""),
        "{junit}"
    );
    assert!(junit.contains("type=\"CE\""), "{junit}");
}

#[test]
fn ioi_contest_scores_subtasks() {
    let workspace = Workspace::new();
    let out = workspace.path().join("out");
    workspace
        .judge([
            "batch",
            &contest("contest-ioi"),
            "--out",
            out.to_str().unwrap(),
            "--format",
            "json",
        ])
        .expect_code(0);
    let results = read_json(&out.join("results.json"));
    assert_eq!(results["contest"]["problems"][0]["points"], 100);
    // carol's solution is right only on the small subtask: 40 of 100.
    assert_eq!(
        rows(&results),
        [
            (1, "alice".into(), 1, 0, 100),
            (2, "carol".into(), 0, 0, 40)
        ]
    );
    // Lazy by subtask: the large one stopped at its first failure, the
    // small one ran whole.
    let carol = results["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["file"] == "carol/subtasks.py")
        .expect("carol's entry");
    let report = &carol["report"];
    assert_eq!(report["skip_reason"], "after_failure_in_group", "{report}");
    let tests = report["tests"].as_array().unwrap();
    let failed: Vec<&Value> = tests.iter().filter(|t| t["verdict"] != "AC").collect();
    assert_eq!(failed.len(), 1, "one failure per lost subtask: {report}");
    let lost = failed[0]["group"].as_str().unwrap();
    for skipped in report["skipped"].as_array().unwrap() {
        let name = skipped.as_str().unwrap();
        assert!(
            !tests.iter().any(|t| t["name"] == name),
            "{name} both run and not run"
        );
    }
    assert!(
        tests.iter().any(|t| t["group"] != lost),
        "the other subtasks ran: {report}"
    );
}

/// `--all-tests` runs every test; the verdicts and scores are those of the
/// lazy judging (ICPC and IOI alike).
#[test]
fn all_tests_judges_everything_with_the_same_standings() {
    for (name, submission) in [
        ("contest-icpc", "alice/poj-2484.py"),
        ("contest-ioi", "carol/subtasks.py"),
    ] {
        let workspace = Workspace::new();
        let mut standings = Vec::new();
        let mut reports = Vec::new();
        for all in [false, true] {
            let out = workspace.path().join(format!("out-{all}"));
            let mut args = vec![
                "batch".to_string(),
                contest(name),
                "--out".to_string(),
                out.display().to_string(),
            ];
            if all {
                args.push("--all-tests".to_string());
            }
            workspace.judge(&args);
            let results = read_json(&out.join("results.json"));
            standings.push(rows(&results));
            let entry = results["entries"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["file"] == submission)
                .expect("the entry")
                .clone();
            reports.push(entry["report"].clone());
        }
        assert_eq!(standings[0], standings[1], "{name}");
        assert_eq!(reports[0]["verdict"], reports[1]["verdict"], "{name}");
        assert!(
            !reports[0]["skipped"].as_array().unwrap().is_empty(),
            "{name}"
        );
        assert!(
            reports[1]["skipped"].as_array().unwrap().is_empty(),
            "{name}"
        );
        assert!(reports[1]["skip_reason"].is_null(), "{name}");
        assert!(
            reports[1]["tests"].as_array().unwrap().len()
                > reports[0]["tests"].as_array().unwrap().len(),
            "{name}"
        );
    }
}

/// results.json without what differs between runs of the same judging.
fn normalised(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for key in ["time_ms", "wall_ms", "memory_kib", "cached", "partition"] {
                    map.remove(key);
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn partitions_merged_equal_the_full_run() {
    let _heavy = crate::support::cpu_heavy();
    let workspace = Workspace::new();
    let dir = workspace.path();
    let full = dir.join("full");
    workspace
        .judge([
            "batch",
            &contest("contest-icpc"),
            "--out",
            full.to_str().unwrap(),
        ])
        .expect_code(0);
    let mut parts: Vec<PathBuf> = Vec::new();
    for k in 1..=3 {
        let out = dir.join(format!("part{k}"));
        let slice = format!("slice:{k}/3");
        workspace
            .judge([
                "batch",
                &contest("contest-icpc"),
                "--out",
                out.to_str().unwrap(),
                "--partition",
                &slice,
            ])
            .expect_code(0);
        let part = read_json(&out.join("results.json"));
        assert_eq!(part["partition"], slice.as_str());
        parts.push(out.join("results.json"));
    }
    let sizes: Vec<usize> = parts
        .iter()
        .map(|p| read_json(p)["entries"].as_array().unwrap().len())
        .collect();
    assert_eq!(
        sizes.iter().sum::<usize>(),
        read_json(&full.join("results.json"))["entries"]
            .as_array()
            .unwrap()
            .len()
    );
    assert!(
        sizes.iter().all(|&n| n > 0),
        "every part has work: {sizes:?}"
    );
    let merged = dir.join("merged");
    let mut args: Vec<String> = vec!["merge".into()];
    args.extend(parts.iter().map(|p| p.display().to_string()));
    args.extend(["--out".into(), merged.display().to_string()]);
    workspace.judge(&args).expect_code(0);
    assert_eq!(
        normalised(read_json(&merged.join("results.json"))),
        normalised(read_json(&full.join("results.json")))
    );
    // The scoreboard is the same too (the HTML also shows times, which vary).
    assert_eq!(
        std::fs::read_to_string(merged.join("scoreboard.txt")).unwrap(),
        std::fs::read_to_string(full.join("scoreboard.txt")).unwrap()
    );
    // The same part twice is refused.
    let twice = workspace.judge([
        "merge",
        parts[0].to_str().unwrap(),
        parts[0].to_str().unwrap(),
        "--out",
        dir.join("x").to_str().unwrap(),
    ]);
    twice.expect_code(2);
    assert!(
        twice.stderr.contains("are both part slice:1/3"),
        "{}",
        twice.stderr
    );
    // Two of three parts: refused, naming the missing part, and nothing
    // written; with --allow-partial, merged and marked partial.
    let partial = dir.join("partial");
    let two = |extra: &[&str]| {
        let mut args = vec![
            "merge",
            parts[0].to_str().unwrap(),
            parts[2].to_str().unwrap(),
            "--out",
            partial.to_str().unwrap(),
        ];
        args.extend(extra);
        workspace.judge(&args)
    };
    let refused = two(&[]);
    refused.expect_code(2);
    assert!(
        refused
            .stderr
            .contains("incomplete set of parts: slice:2/3 missing (of 3)"),
        "{}",
        refused.stderr
    );
    assert!(!partial.join("results.json").exists());
    let allowed = two(&["--allow-partial"]);
    allowed.expect_code(0);
    assert!(
        allowed.stderr.contains("warning: partial results"),
        "{}",
        allowed.stderr
    );
    let results = read_json(&partial.join("results.json"));
    assert_eq!(
        results["partial"]["missing"],
        serde_json::json!([2]),
        "{results}"
    );
    let text = std::fs::read_to_string(partial.join("scoreboard.txt")).unwrap();
    assert!(
        text.contains("PARTIAL: partial results: part(s) 2 of 3 missing"),
        "{text}"
    );
}

/// Attribute `name` of every element whose opening tag contains `marker`.
fn attributes(dom: &str, marker: &str, name: &str) -> Vec<String> {
    dom.match_indices(marker)
        .filter_map(|(at, _)| {
            let tag_start = dom[..at].rfind('<')?;
            let tag_end = at + dom[at..].find('>')?;
            let tag = &dom[tag_start..tag_end];
            let key = format!("{name}=\"");
            let start = tag.find(&key)? + key.len();
            let len = tag[start..].find('"')?;
            Some(tag[start..start + len].to_string())
        })
        .collect()
}

#[test]
fn scoreboard_renders_in_a_browser_and_matches_the_results() {
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    // CI must run it (.ci/run installs Chromium); elsewhere say it was skipped.
    let Some(chromium) = found else {
        crate::support::skip_missing("Chromium (apt-get install chromium)");
        return;
    };
    let workspace = Workspace::new();
    let out = workspace.path().join("out");
    workspace
        .judge([
            "batch",
            &contest("contest-ioi"),
            "--out",
            out.to_str().unwrap(),
        ])
        .expect_code(0);
    let results = read_json(&out.join("results.json"));
    let page = format!("file://{}", out.join("scoreboard.html").display());
    let profile = workspace.path().join("chromium-profile");
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ];
    let dom = std::process::Command::new(chromium)
        .args(flags)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &page])
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    assert!(
        dom.contains("id=\"scoreboard\""),
        "chromium rendered no scoreboard: {dom}"
    );
    // Rows: rank and contestant as in results.json.
    let ranks = attributes(&dom, "class=\"row\"", "data-rank");
    let who = attributes(&dom, "class=\"row\"", "data-contestant");
    let expected: Vec<(String, String)> = rows(&results)
        .into_iter()
        .map(|r| (r.0.to_string(), r.1))
        .collect();
    let got: Vec<(String, String)> = ranks.into_iter().zip(who).collect();
    assert_eq!(got, expected);
    // Cells: verdict and points of every contestant x problem.
    let verdicts = attributes(&dom, "class=\"cell ", "data-verdict");
    let scores = attributes(&dom, "class=\"cell ", "data-score");
    let cells: Vec<(String, String)> = results["standings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["cells"].as_array().unwrap().iter())
        .map(|c| {
            (
                c["verdict"].as_str().unwrap_or("").to_string(),
                c["score"].to_string(),
            )
        })
        .collect();
    assert_eq!(verdicts.into_iter().zip(scores).collect::<Vec<_>>(), cells);
    // The expandable attempts hold each attempt's per-test verdicts.
    assert!(dom.contains("<details>") && dom.contains("class=\"attempt\""));
    // A screenshot, kept with the build for people to look at.
    let shots = repo().join("target/test-artifacts");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join("scoreboard.png");
    let status = std::process::Command::new(chromium)
        .args(flags)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args([
            "--window-size=1200,600",
            &format!("--screenshot={}", shot.display()),
            &page,
        ])
        .output()
        .expect("run chromium");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(
        std::fs::metadata(&shot)
            .map(|m| m.len() > 1000)
            .unwrap_or(false),
        "no screenshot at {}",
        shot.display()
    );
}

#[test]
fn results_are_cached_and_marked_unless_no_cache() {
    let workspace = Workspace::new();
    let file = crate::support::submission("acwing-891/wa-sum-parity.c");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "acwing-891",
            file.as_str(),
            "--tests",
            "sample-*",
            "edge-*",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let judged = workspace.judge(&args);
        judged.expect_code(1);
        judged.report()
    };
    let cached = |r: &Value| -> Vec<bool> {
        r["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["cached"].as_bool().unwrap())
            .collect()
    };
    let first = run(&[]);
    assert!(cached(&first).iter().all(|c| !c), "{first}");
    let second = run(&[]);
    assert!(cached(&second).iter().all(|c| *c), "{second}");
    assert_eq!(first["verdict"], second["verdict"]);
    let verdicts = |r: &Value| -> Vec<String> {
        r["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["verdict"].to_string())
            .collect()
    };
    assert_eq!(verdicts(&first), verdicts(&second));
    let third = run(&["--no-cache"]);
    assert!(cached(&third).iter().all(|c| !c), "{third}");
}

#[test]
fn run_writes_junit_with_one_case_per_test() {
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "run",
        "acwing-891",
        &crate::support::submission("acwing-891/wa-sum-parity.c"),
        &crate::support::submission("acwing-891/ac.c"),
        "--tests",
        "sample-*",
        "edge-*",
        "--format",
        "junit",
    ]);
    judged.expect_code(1);
    let xml = &judged.stdout;
    assert!(
        xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
        "{xml}"
    );
    assert_eq!(xml.matches("<testsuite ").count(), 2);
    assert_eq!(xml.matches("<testcase ").count(), 20, "{xml}");
    assert!(
        xml.contains("<failure message=\"WA: line 1: expected `Yes`, got `No`\" type=\"WA\">"),
        "{xml}"
    );
    assert!(
        xml.contains("--- expected (answer)"),
        "the failure carries the diff: {xml}"
    );
}

#[test]
fn with_a_start_penalty_counts_minutes_and_the_event_feed_is_written() {
    let workspace = Workspace::new();
    let dir = workspace.path().join("timed");
    let mini = repo().join(crate::support::problem("mini-nim"));
    let start = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_796_115_600);
    std::fs::create_dir_all(dir.join("alice")).unwrap();
    std::fs::create_dir_all(dir.join("bob")).unwrap();
    std::fs::write(
        dir.join("contest.toml"),
        format!(
            "title = \"Timed\"\nid = \"timed\"\nproblems = [\"{}\"]\nstart = 2026-12-01T09:00:00Z\nduration = \"5h\"\n",
            mini.display()
        ),
    )
    .unwrap();
    let accepted = "a, b = map(int, input().split())\nprint(\"Yes\" if a != b else \"No\")\n";
    let wrong = "print(\"Yes\")\n";
    // alice: accepted at minute 50 on her first try (50); bob: rejected at
    // minute 1, accepted at minute 3 (3 + 20 = 23): bob ranks first.
    for (file, text, minute) in [
        ("alice/mini-nim.py", accepted, 50),
        ("bob/mini-nim.py", wrong, 1),
        ("bob/mini-nim.2.py", accepted, 3),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let when = start + std::time::Duration::from_secs(minute * 60 + 7);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(when)
            .unwrap();
    }
    let out = workspace.path().join("out");
    workspace
        .judge([
            "batch",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .expect_code(0);
    let results = read_json(&out.join("results.json"));
    let summary: Vec<(u64, String, u64, u64, u64)> = rows(&results);
    assert_eq!(
        summary,
        [
            (1, "bob".to_string(), 1, 23, 100),
            (2, "alice".to_string(), 1, 50, 100)
        ]
    );
    let feed = std::fs::read_to_string(out.join("event-feed.ndjson")).unwrap();
    let events = crate::serve_support::check_feed(&feed);
    let submissions: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "submissions")
        .collect();
    assert_eq!(submissions.len(), 3);
    assert_eq!(submissions[0]["data"]["contest_time"], "0:01:07.000");
    assert_eq!(
        submissions[0]["data"]["time"],
        "2026-12-01T09:01:07.000+00:00"
    );
    let last = events.last().unwrap();
    assert_eq!(last["type"], "state");
    assert!(last["data"]["end_of_updates"].is_string());
    // Merged parts write the same feed.
    let merged = workspace.path().join("merged");
    workspace
        .judge([
            "merge",
            out.join("results.json").to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ])
        .expect_code(0);
    assert_eq!(
        std::fs::read_to_string(merged.join("event-feed.ndjson")).unwrap(),
        feed
    );
}

/// A submit-answer problem in a contest: a contestant's file is the answer
/// to every test, a folder holds one answer per test (by the test's name or
/// its last part), checked as they are in no language; a link in a folder
/// is not followed.
#[test]
fn a_submit_answer_problem_is_judged_from_answer_files_and_folders() {
    let workspace = Workspace::new();
    let dir = workspace.path().join("answers");
    let package = repo().join("tests/fixtures/kattis/submitanswer");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("contest.toml"),
        format!(
            "title = \"Answers\"\nid = \"answers\"\nproblems = [\"{}\"]\n",
            package.display()
        ),
    )
    .unwrap();
    let files: &[(&str, &str)] = &[
        // One file for every test: 7 is not secret/2's answer.
        ("alice/submitanswer.txt", "7\n"),
        // A folder: sample/1 by its whole name, secret/1 and secret/2 by
        // their last part.
        ("alice/submitanswer.2/sample/1.ans", "7\n"),
        ("alice/submitanswer.2/1.out", "7\n"),
        ("alice/submitanswer.2/2.txt", "12\n"),
        ("alice/submitanswer.2/notes.md", "not an answer\n"),
        ("bob/submitanswer/1.ans", "7\n"),
    ];
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    // bob's answer to test 2 is a link to a file outside his folder.
    let outside = workspace.path().join("twelve.ans");
    std::fs::write(&outside, "12\n").unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("bob/submitanswer/2.ans")).unwrap();
    let out = workspace.path().join("out");
    let judged = workspace.judge([
        "batch",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    judged.expect_code(0);
    let results = read_json(&out.join("results.json"));
    let entry = |file: &str| -> Value {
        results["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["file"] == file)
            .unwrap_or_else(|| panic!("no entry {file}: {results:#}"))
            .clone()
    };
    let alice = entry("alice/submitanswer.txt");
    assert_eq!(alice["error"], Value::Null, "{alice:#}");
    assert_eq!(alice["report"]["language"], "answers", "{alice:#}");
    assert_eq!(alice["report"]["verdict"], "WA", "{alice:#}");
    let folder = entry("alice/submitanswer.2");
    assert_eq!(folder["report"]["verdict"], "AC", "{folder:#}");
    assert_eq!(folder["report"]["tests"].as_array().unwrap().len(), 3);
    let bob = entry("bob/submitanswer");
    assert_eq!(bob["report"]["verdict"], "WA", "{bob:#}");
    let tests = bob["report"]["tests"].as_array().unwrap();
    let missing = tests.iter().find(|t| t["name"] == "secret/2").unwrap();
    assert!(
        missing["message"].as_str().unwrap().contains("no answer"),
        "{bob:#}"
    );
    assert_eq!(
        rows(&results),
        [(1, "alice".into(), 1, 20, 100), (2, "bob".into(), 0, 0, 0)]
    );
}
