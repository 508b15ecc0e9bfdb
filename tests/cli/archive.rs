//! The contest's archive: a served contest downloaded by the jury as the
//! specification's contest package (every file against the API's schemas
//! and equal to what the live API serves), then judged again by `judge
//! batch` with the same verdicts and scoreboard; and hostile packages
//! (paths that climb, absolute paths, links, files too large) refused by
//! `judge batch`, naming the file, with nothing written outside.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;

use serde_json::{json, Value};

use crate::serve_support::*;
use crate::support::{copy_dir, problem, repo, Workspace};

const ACCEPTED: &[u8] = b"a, b = map(int, input().split())\nprint(\"Yes\" if a != b else \"No\")\n";
const WRONG: &[u8] =
    b"a, b = map(int, input().split())\nprint(\"Yes\" if (a + b) % 2 else \"No\")\n";
const MAIN_OF_TWO: &[u8] =
    b"import nim_rule\na, b = map(int, input().split())\nprint(nim_rule.answer(a, b))\n";
const RULE_OF_TWO: &[u8] = b"def answer(a, b):\n    return \"Yes\" if a != b else \"No\"\n";

/// The files of a zip, by name.
fn unzipped(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut files = BTreeMap::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        files.insert(entry.name().to_string(), content);
    }
    files
}

fn json_of(files: &BTreeMap<String, Vec<u8>>, name: &str) -> Value {
    serde_json::from_slice(&files[name]).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_served_contest_archived_is_judged_again_by_batch_with_the_same_results() {
    let workspace = Workspace::new();
    let contest = contest_of(
        &workspace,
        "camp",
        "Archived camp",
        &repo().join(problem("mini-nim")),
        &format!(
            "start = {}\nduration = \"5h\"\nlanguages = [\"python\"]",
            toml_time(-600)
        ),
    );
    let server = Server::start(&workspace, &contest, &[]);
    let two = json!({
        "problem_id": "mini-nim",
        "language_id": "python",
        "files": [{"data": base64_of(&zip_of(&[("main.py", MAIN_OF_TWO), ("nim_rule.py", RULE_OF_TWO)]))}],
    });
    let sent = [
        (T2, ccs_submission("mini-nim", "python", "w.py", WRONG)),
        (T1, ccs_submission("mini-nim", "python", "a.py", ACCEPTED)),
        (T2, two),
    ];
    let mut live_verdicts = BTreeMap::new();
    for (team, body) in sent {
        let answer = post_json(&server.api("/submissions"), Some(team), &body);
        assert_eq!(answer.status, 201, "{}", answer.text());
        let id = answer.json()["id"].as_str().unwrap().to_string();
        live_verdicts.insert(id.clone(), verdict_of(&server, team, &id));
    }
    let values: Vec<&str> = live_verdicts.values().map(String::as_str).collect();
    assert_eq!(values, ["WA", "AC", "AC"]);
    let question = post_json(
        &server.api("/clarifications"),
        Some(T1),
        &json!({"text": "Is 0 a number?", "problem_id": "mini-nim"}),
    );
    assert_eq!(question.status, 201);

    // The jury's only: 404 for a team and the public, as what does not exist.
    assert_eq!(get(&server.api("/archive"), Some(T1)).status, 404);
    assert_eq!(get(&server.api("/archive"), None).status, 404);
    let archive = get(&server.api("/archive"), Some(JURY));
    assert_eq!(archive.status, 200, "{}", archive.text());
    let files = unzipped(&archive.body);

    // What the live API serves the jury, file for file, against the schemas.
    let endpoints = [
        ("contest", ""),
        ("state", "/state"),
        ("judgement-types", "/judgement-types"),
        ("languages", "/languages"),
        ("problems", "/problems"),
        ("teams", "/teams"),
        ("groups", "/groups"),
        ("organizations", "/organizations"),
        ("submissions", "/submissions"),
        ("judgements", "/judgements"),
        ("runs", "/runs"),
        ("clarifications", "/clarifications"),
        ("awards", "/awards"),
        ("scoreboard", "/scoreboard"),
    ];
    for (name, path) in endpoints {
        let stored = json_of(&files, &format!("{name}.json"));
        let live = get(&server.api(path), Some(JURY)).json();
        if name == "scoreboard" {
            assert_eq!(stored["rows"], live["rows"], "scoreboard.json");
        } else {
            assert_eq!(stored, live, "{name}.json");
        }
        check_schema(name, &stored, &format!("{name}.json"));
    }
    check_schema("api", &json_of(&files, "api.json"), "api.json");
    let accounts = json_of(&files, "accounts.json");
    check_schema("accounts", &accounts, "accounts.json");
    assert_eq!(accounts.as_array().unwrap().len(), 4, "{accounts}");
    let text = String::from_utf8_lossy(&files["accounts.json"]).into_owned();
    assert!(
        !text.contains("password") && !text.contains("pw-1"),
        "{text}"
    );
    let feed = String::from_utf8(files["event-feed.ndjson"].clone()).unwrap();
    let events = check_feed(&feed);
    assert_eq!(events.len(), checked_feed(&server, Some(JURY)).len());
    for id in live_verdicts.keys() {
        let zip = &files[&format!("submissions/{id}/files.zip")];
        let live = get(&server.api(&format!("/submissions/{id}/files")), Some(JURY));
        assert_eq!(&live.body, zip, "submission {id}'s files");
    }
    let board = get(&server.api("/scoreboard"), Some(JURY)).json();
    // `judge archive` downloads the same, as the jury.
    let zip = workspace.path().join("camp.zip");
    let downloaded = workspace.judge_with_env(
        [
            "archive",
            "--server",
            &server.base,
            "--out",
            zip.to_str().unwrap(),
        ],
        &[("JUDGE_PASSWORD", JURY.1)],
    );
    downloaded.expect_code(0);
    let zipped = workspace.judge(["batch", zip.to_str().unwrap(), "--out", "/nonexistent"]);
    zipped.expect_code(2);
    assert!(
        zipped.stderr.contains("unzip it into a folder first"),
        "{}",
        zipped.stderr
    );
    let again = unzipped(&std::fs::read(&zip).unwrap());
    assert_eq!(
        again.keys().collect::<Vec<_>>(),
        files.keys().collect::<Vec<_>>()
    );
    assert_eq!(again["submissions.json"], files["submissions.json"]);
    drop(server);

    // Replayed: `judge batch` of the unpacked archive.
    let replay = workspace.path().join("replay");
    for (name, content) in &files {
        let path = replay.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    // The problem is a fixture, not found by its id: kept in the archive's
    // problems/ID/, where the replay looks first.
    copy_dir(
        &repo().join(problem("mini-nim")),
        &replay.join("problems/mini-nim"),
    );
    let out = workspace.path().join("out");
    let judged = workspace.judge([
        "batch",
        replay.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    judged.expect_code(0);
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let replayed: BTreeMap<String, String> = results["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let id = e["file"]
                .as_str()
                .unwrap()
                .trim_start_matches("submissions/");
            (
                id.to_string(),
                e["report"]["verdict"]
                    .as_str()
                    .unwrap_or("none")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(replayed, live_verdicts, "{}", judged.stderr);
    let rows = |board: &Value| -> Vec<(u64, String, u64, u64)> {
        let mut rows: Vec<_> = board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["rank"].as_u64().unwrap(),
                    r["team_id"].as_str().unwrap().to_string(),
                    r["score"]["num_solved"].as_u64().unwrap(),
                    r["score"]["total_time"].as_u64().unwrap(),
                )
            })
            .collect();
        rows.sort();
        rows
    };
    let mut batch_rows: Vec<(u64, String, u64, u64)> = results["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["rank"].as_u64().unwrap(),
                s["contestant"].as_str().unwrap().to_string(),
                s["solved"].as_u64().unwrap(),
                s["penalty"].as_u64().unwrap(),
            )
        })
        .collect();
    batch_rows.sort();
    assert_eq!(batch_rows, rows(&board));
    assert!(
        rows(&board)[1].3 >= 30,
        "t2's penalty counts its wrong attempt"
    );
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A contest package of mini-nim with one submission `1` of team `t1`,
/// its `submissions.json` entry's id `id`, and `files.zip` as given.
fn package(dir: &Path, id: &str, zip: Option<&[u8]>) {
    std::fs::create_dir_all(dir.join("submissions/1")).unwrap();
    copy_dir(
        &repo().join(problem("mini-nim")),
        &dir.join("problems/mini-nim"),
    );
    let write = |name: &str, value: Value| {
        std::fs::write(dir.join(name), serde_json::to_vec_pretty(&value).unwrap()).unwrap()
    };
    write(
        "contest.json",
        json!({"id": "hostile", "name": "Hostile", "start_time": "2026-01-01T09:00:00Z", "duration": "5:00:00", "scoreboard_type": "pass-fail", "penalty_time": 20}),
    );
    write(
        "problems.json",
        json!([{"id": "mini-nim", "label": "A", "name": "Mini nim", "ordinal": 1}]),
    );
    write("teams.json", json!([{"id": "t1", "name": "T1"}]));
    write(
        "submissions.json",
        json!([{"id": id, "language_id": "python", "problem_id": "mini-nim", "team_id": "t1", "time": "2026-01-01T09:10:00Z", "contest_time": "0:10:00.000", "files": [{"href": "x", "filename": "files.zip", "mime": "application/zip"}]}]),
    );
    if let Some(zip) = zip {
        std::fs::write(dir.join("submissions/1/files.zip"), zip).unwrap();
    }
}

/// A zip of one entry `name` (any name, as a hostile tool writes it) of
/// `content`, deflated.
fn raw_zip(name: &str, content: &[u8], symlink: bool) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(content.len() > u32::MAX as usize / 2);
    if symlink {
        zip.add_symlink(name, "/etc/passwd", options).unwrap();
    } else {
        zip.start_file(name, options).unwrap();
        zip.write_all(content).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

/// (case, submission id, files.zip or a link, the file named, what is said)
type HostileCase<'a> = (&'a str, &'a str, Option<Vec<u8>>, &'a str, &'a str);

#[test]
fn a_hostile_package_is_refused_naming_the_file_and_nothing_is_written_outside() {
    let workspace = Workspace::new();
    let zero = vec![0u8; 65 << 20];
    let cases: Vec<HostileCase> = vec![
        // (case, id, files.zip, the file named, what is said)
        (
            "id that climbs",
            "../../escape",
            Some(raw_zip("a.py", ACCEPTED, false)),
            "submissions.json",
            "is not an id",
        ),
        (
            "entry that climbs",
            "1",
            Some(raw_zip("../../escape.py", ACCEPTED, false)),
            "submissions/1/files.zip",
            "not a plain file name",
        ),
        (
            "absolute entry",
            "1",
            Some(raw_zip("/tmp/escape.py", ACCEPTED, false)),
            "submissions/1/files.zip",
            "not a plain file name",
        ),
        (
            "link entry",
            "1",
            Some(raw_zip("a.py", b"", true)),
            "submissions/1/files.zip",
            "not a plain file name",
        ),
        (
            "zip bomb",
            "1",
            Some(raw_zip("a.py", &zero, false)),
            "submissions/1/files.zip",
            "bytes in all",
        ),
        (
            "files.zip a link",
            "1",
            None,
            "submissions/1/files.zip",
            "link",
        ),
    ];
    for (i, (case, id, zip, file, said)) in cases.into_iter().enumerate() {
        let dir = workspace.path().join(format!("package-{i}"));
        package(&dir, id, zip.as_deref());
        if zip.is_none() {
            std::os::unix::fs::symlink("/etc/passwd", dir.join("submissions/1/files.zip")).unwrap();
        }
        let out = workspace.path().join(format!("out-{i}"));
        let judged = workspace.judge([
            "batch",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        judged.expect_code(2);
        let named = dir.join(file);
        assert!(
            judged.stderr.contains(&named.display().to_string()) && judged.stderr.contains(said),
            "{case}: {}",
            judged.stderr
        );
        assert!(!out.join("results.json").exists(), "{case}");
    }
    for escaped in ["escape", "escape.py"] {
        assert!(!workspace.path().join(escaped).exists());
    }
    assert!(!Path::new("/tmp/escape.py").exists());
}
