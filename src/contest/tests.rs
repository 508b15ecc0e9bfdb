//! Scoring and standings: ICPC penalties and ties, IOI best attempts, file names.

use super::*;
use crate::compile::{CompileReport, CompileStatus};
use crate::report::{LimitsReport, SubmissionReport, Summary};
use crate::verdict::Verdict;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn report(verdict: Verdict) -> SubmissionReport {
    SubmissionReport {
        schema_version: 1,
        problem: "p".into(),
        submission: "f".into(),
        language: "cpp".into(),
        verdict,
        compile: CompileReport {
            status: if verdict == Verdict::CE {
                CompileStatus::Error
            } else {
                CompileStatus::Ok
            },
            message: String::new(),
            time_ms: 0,
            cached: false,
        },
        limits: LimitsReport {
            time_ms: 1000,
            wall_ms: 3000,
            memory_kib: 1024,
            output_kib: 1024,
        },
        isolation: "cgroup-v1".into(),
        isolation_gaps: None,
        tests: vec![],
        skipped: vec![],
        skip_reason: None,
        summary: Summary::of(&[]),
    }
}

fn entry(who: &str, problem: &str, attempt: u32, verdict: Verdict, score: u64) -> Entry {
    Entry {
        contestant: who.into(),
        file: format!("{who}/{problem}.{attempt}.cpp"),
        problem: Some(problem.into()),
        attempt,
        error: None,
        score: Some(score),
        submitted_ms: None,
        report: Some(report(verdict)),
    }
}

fn attempts(entries: &[Entry]) -> Vec<Attempt> {
    entries
        .iter()
        .filter_map(|e| Attempt::of_entry(e, None))
        .collect()
}

fn contest(scoring: Scoring, who: &[&str]) -> ContestInfo {
    ContestInfo {
        title: "t".into(),
        scoring,
        penalty: 20,
        problems: ["a", "b"]
            .iter()
            .map(|id| ContestProblem {
                id: id.to_string(),
                title: id.to_string(),
                points: 100,
            })
            .collect(),
        contestants: who.iter().map(|s| s.to_string()).collect(),
        id: "t".into(),
        clock: None,
    }
}

#[test]
fn icpc_counts_rejected_attempts_before_the_first_ac_but_not_compile_errors() {
    use Verdict::*;
    let entries = vec![
        entry("alice", "a", 1, WA, 0),
        entry("alice", "a", 2, CE, 0),
        entry("alice", "a", 3, AC, 100),
        entry("alice", "a", 4, WA, 0),
        entry("alice", "b", 1, TLE, 0),
        entry("bob", "a", 1, AC, 100),
        entry("bob", "b", 1, AC, 100),
        entry("carol", "a", 1, AC, 100),
        entry("carol", "b", 1, WA, 0),
        entry("carol", "b", 2, AC, 100),
    ];
    let rows = standings(
        &contest(Scoring::Icpc, &["alice", "bob", "carol", "dave"]),
        &attempts(&entries),
    );
    let summary: Vec<(usize, &str, usize, u64)> = rows
        .iter()
        .map(|r| (r.rank, r.contestant.as_str(), r.solved, r.penalty))
        .collect();
    assert_eq!(
        summary,
        [
            (1, "bob", 2, 0),
            (2, "carol", 2, 20),
            (3, "alice", 1, 20),
            (4, "dave", 0, 0)
        ]
    );
    let alice_a = &rows[2].cells[0];
    assert_eq!(
        (alice_a.attempts, alice_a.counted, alice_a.verdict),
        (4, 2, Some(AC))
    );
    let alice_b = &rows[2].cells[1];
    assert_eq!((alice_b.solved, alice_b.verdict), (false, Some(TLE)));
}

#[test]
fn ties_share_a_rank() {
    let entries = vec![
        entry("x", "a", 1, Verdict::AC, 100),
        entry("y", "a", 1, Verdict::AC, 100),
    ];
    let rows = standings(
        &contest(Scoring::Icpc, &["x", "y", "z"]),
        &attempts(&entries),
    );
    let ranks: Vec<usize> = rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 1, 3]);
}

#[test]
fn ioi_takes_the_best_attempt_per_problem() {
    use Verdict::*;
    let entries = vec![
        entry("alice", "a", 1, WA, 40),
        entry("alice", "a", 2, WA, 10),
        entry("alice", "b", 1, AC, 100),
        entry("bob", "a", 1, AC, 100),
    ];
    let rows = standings(
        &contest(Scoring::Ioi, &["alice", "bob"]),
        &attempts(&entries),
    );
    assert_eq!((rows[0].contestant.as_str(), rows[0].score), ("alice", 140));
    assert_eq!(rows[0].cells[0].score, 40);
    assert_eq!((rows[1].contestant.as_str(), rows[1].score), ("bob", 100));
}

#[test]
fn the_judges_failure_is_no_attempt_on_the_board() {
    use Verdict::*;
    let entries = vec![entry("alice", "a", 1, IE, 0), entry("bob", "a", 1, WA, 0)];
    let rows = standings(
        &contest(Scoring::Icpc, &["alice", "bob"]),
        &attempts(&entries),
    );
    let alice = rows.iter().find(|r| r.contestant == "alice").unwrap();
    assert_eq!((alice.cells[0].attempts, alice.cells[0].verdict), (0, None));
    let bob = rows.iter().find(|r| r.contestant == "bob").unwrap();
    assert_eq!((bob.cells[0].attempts, bob.cells[0].verdict), (1, Some(WA)));
}

#[test]
fn file_names_give_problem_and_attempt() {
    let known: BTreeSet<String> = ["hdu-1527", "a.b"].iter().map(|s| s.to_string()).collect();
    assert_eq!(
        parse_submission_name("hdu-1527.cpp", &known),
        Some(("hdu-1527".into(), 1))
    );
    assert_eq!(
        parse_submission_name("hdu-1527.2.cpp", &known),
        Some(("hdu-1527".into(), 2))
    );
    assert_eq!(
        parse_submission_name("a.b.py", &known),
        Some(("a.b".into(), 1))
    );
    assert_eq!(
        parse_submission_name("a.b.3.py", &known),
        Some(("a.b".into(), 3))
    );
    assert_eq!(parse_submission_name("hdu-1527.0.cpp", &known), None);
    assert_eq!(parse_submission_name("hdu-9999.cpp", &known), None);
    assert_eq!(parse_submission_name("notes.txt", &known), None);
}

#[test]
fn merged_parts_equal_the_whole() {
    let all = vec![
        entry("alice", "a", 1, Verdict::WA, 0),
        entry("alice", "a", 2, Verdict::AC, 100),
        entry("bob", "b", 1, Verdict::AC, 100),
    ];
    let info = contest(Scoring::Icpc, &["alice", "bob"]);
    let whole = Results::new(info.clone(), None, all.clone());
    let parts = vec![
        (
            PathBuf::from("1.json"),
            Results::new(
                info.clone(),
                Some("slice:1/2".into()),
                vec![all[0].clone(), all[2].clone()],
            ),
        ),
        (
            PathBuf::from("2.json"),
            Results::new(info.clone(), Some("slice:2/2".into()), vec![all[1].clone()]),
        ),
    ];
    let merged = Results::merge(parts.clone(), false).unwrap();
    assert_eq!(merged.partial, None);
    assert_eq!(merged.standings, whole.standings);
    assert_eq!(
        serde_json::to_string(&merged.entries).unwrap(),
        serde_json::to_string(&whole.entries).unwrap()
    );
    let dup = vec![
        (
            PathBuf::from("1.json"),
            Results::new(info.clone(), None, all.clone()),
        ),
        (
            PathBuf::from("1.json"),
            Results::new(info.clone(), None, all.clone()),
        ),
    ];
    assert_eq!(
        Results::merge(dup, false).unwrap_err().to_string(),
        "1.json holds a whole run (judged without --partition): it cannot be merged with other parts"
    );
    // Two of three parts: refused, naming the missing one, unless allowed;
    // then the results say they are partial.
    let part = |k: usize, n: usize, e: &[Entry]| {
        (
            PathBuf::from(format!("{k}.json")),
            Results::new(info.clone(), Some(format!("slice:{k}/{n}")), e.to_vec()),
        )
    };
    let two_of_three = vec![part(1, 3, &all[..1]), part(3, 3, &all[2..])];
    assert_eq!(
        Results::merge(two_of_three.clone(), false)
            .unwrap_err()
            .to_string(),
        "incomplete set of parts: slice:2/3 missing (of 3); give every part's results.json, or \
         --allow-partial to publish a scoreboard marked partial"
    );
    let partial = Results::merge(two_of_three, true).unwrap();
    assert_eq!(
        partial.partial,
        Some(results::PartialMerge {
            parts: 3,
            missing: vec![2]
        })
    );
    assert!(crate::render::scoreboard::render_text(&partial)
        .contains("PARTIAL: partial results: part(s) 2 of 3 missing"));
    assert!(crate::render::scoreboard::render_html(&partial).contains("id=\"partial\""));
    // Parts of different partitions, or the same part twice: refused.
    let mixed = vec![part(1, 2, &all[..1]), part(2, 3, &all[1..2])];
    assert!(Results::merge(mixed, true)
        .unwrap_err()
        .to_string()
        .contains("parts of different partitions"));
    let twice = vec![
        part(1, 2, &all[..1]),
        part(1, 2, &all[1..2]),
        part(2, 2, &all[2..]),
    ];
    assert_eq!(
        Results::merge(twice, true).unwrap_err().to_string(),
        "1.json and 1.json are both part slice:1/2"
    );
}

#[test]
fn judge_errors_cost_no_penalty() {
    use Verdict::*;
    let entries = vec![
        entry("alice", "a", 1, IE, 0),
        entry("alice", "a", 2, AC, 100),
    ];
    let rows = standings(&contest(Scoring::Icpc, &["alice"]), &attempts(&entries));
    assert_eq!((rows[0].solved, rows[0].penalty), (1, 0));
}

/// A submission of `path` (in the contest folder), as discovery makes it.
fn found_at(path: &std::path::Path, is_dir: bool) -> crate::engine::Submission {
    let config =
        crate::config::Config::parse(crate::config::BUILTIN_CONFIG, None, "/w".into()).unwrap();
    run::submission_at(&config, path, is_dir, false).unwrap()
}

/// The bytes `located` reads now for `submission`: the main file's, then
/// each companion's.
fn read_now(
    located: &run::Located,
    submission: &crate::engine::Submission,
) -> std::io::Result<Vec<Vec<u8>>> {
    let read = located.read(submission.clone())?;
    let mut out = vec![read.text.as_deref().cloned().unwrap_or_default()];
    out.extend(read.companions.iter().map(|c| c.bytes.clone()));
    Ok(out)
}

/// The file `file` of `folder` in the contest folder `contest`, as the
/// listing found it.
fn located_in(contest: &std::path::Path, folder: &str, file: &str) -> run::Located {
    run::Located {
        contest: std::sync::Arc::new(crate::sandbox::untrusted::Dir::open(contest).unwrap()),
        folder: folder.into(),
        file: file.into(),
    }
}

/// A named pipe at `path` (that nobody writes).
fn make_fifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// A contestant's file is read when judged, by name from the contest
/// folder's descriptor: swapped since the listing for a link to a secret, a
/// pipe nobody writes or a folder, or its folder swapped for a link, it is
/// refused at once, saying why; nothing is read through the link.
#[test]
fn a_file_swapped_after_the_listing_is_refused_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let contest = dir.path().join("contest");
    std::fs::create_dir_all(contest.join("alice")).unwrap();
    std::fs::write(contest.join("alice/p.py"), "print(1)\n").unwrap();
    std::fs::write(dir.path().join("secret"), "the secret\n").unwrap();
    let located = located_in(&contest, "alice", "p.py");
    let submission = found_at(&contest.join("alice/p.py"), false);
    assert_eq!(
        read_now(&located, &submission).unwrap(),
        vec![b"print(1)\n".to_vec()]
    );
    let file = contest.join("alice/p.py");
    let swap = |make: &dyn Fn()| {
        let _ = std::fs::remove_file(&file);
        let _ = std::fs::remove_dir(&file);
        make();
    };
    swap(&|| std::os::unix::fs::symlink(dir.path().join("secret"), &file).unwrap());
    let error = read_now(&located, &submission).unwrap_err().to_string();
    assert!(error.contains("symbolic link"), "{error}");
    swap(&|| make_fifo(&file));
    let started = std::time::Instant::now();
    let error = read_now(&located, &submission).unwrap_err().to_string();
    assert!(error.contains("pipe"), "{error}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    swap(&|| std::fs::create_dir(&file).unwrap());
    assert!(read_now(&located, &submission).is_err());
    // The contestant's folder itself swapped for a link.
    std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
    std::fs::write(dir.path().join("elsewhere/p.py"), "the secret\n").unwrap();
    std::fs::remove_dir_all(contest.join("alice")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), contest.join("alice")).unwrap();
    let error = read_now(&located, &submission).unwrap_err().to_string();
    assert!(error.contains("symbolic link"), "{error}");
}

/// A program of several files (a folder) is read again when judged, each
/// of its files by name from the folder's descriptor: its main file or a
/// file beside it swapped for a link to a secret or for a pipe is refused,
/// and the folder itself swapped for a link too.
#[test]
fn a_folder_submission_swapped_after_the_listing_is_refused_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let contest = dir.path().join("contest");
    let folder = contest.join("alice/p");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("main.py"), "import helper\n").unwrap();
    std::fs::write(folder.join("helper.py"), "X = 1\n").unwrap();
    std::fs::write(dir.path().join("secret"), "the secret\n").unwrap();
    let located = located_in(&contest, "alice", "p");
    let submission = found_at(&folder, true);
    assert_eq!(
        read_now(&located, &submission).unwrap(),
        vec![b"import helper\n".to_vec(), b"X = 1\n".to_vec()]
    );
    for name in ["main.py", "helper.py"] {
        let file = folder.join(name);
        let kept = std::fs::read(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), &file).unwrap();
        let error = read_now(&located, &submission).unwrap_err().to_string();
        assert!(error.contains("symbolic link"), "{name}: {error}");
        std::fs::remove_file(&file).unwrap();
        make_fifo(&file);
        let started = std::time::Instant::now();
        let error = read_now(&located, &submission).unwrap_err().to_string();
        assert!(error.contains("pipe"), "{name}: {error}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        std::fs::remove_file(&file).unwrap();
        std::fs::write(&file, kept).unwrap();
    }
    std::fs::rename(&folder, dir.path().join("p")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("p"), &folder).unwrap();
    let error = read_now(&located, &submission).unwrap_err().to_string();
    assert!(error.contains("symbolic link"), "{error}");
}

fn timed(who: &str, problem: &str, order: i64, verdict: Option<Verdict>, minute: u64) -> Attempt {
    Attempt {
        contestant: who.into(),
        problem: problem.into(),
        order,
        verdict,
        score: if verdict == Some(Verdict::AC) { 100 } else { 0 },
        minute: Some(minute),
    }
}

#[test]
fn icpc_penalty_counts_the_minutes_of_each_solve_and_ties_break_on_the_last_solve() {
    use Verdict::*;
    let attempts = vec![
        // alice: a at 10 after one WA (10 + 20), b at 50: 80, last solve 50
        timed("alice", "a", 1, Some(WA), 5),
        timed("alice", "a", 2, Some(AC), 10),
        timed("alice", "b", 1, Some(AC), 50),
        // bob: a at 30, b at 50: 80, last solve 50 (tied with alice)
        timed("bob", "a", 1, Some(AC), 30),
        timed("bob", "b", 1, Some(AC), 50),
        // carol: a at 40, b at 40: 80, last solve 40 (ahead of both)
        timed("carol", "a", 1, Some(AC), 40),
        timed("carol", "b", 1, Some(AC), 40),
    ];
    let rows = standings(
        &contest(Scoring::Icpc, &["alice", "bob", "carol"]),
        &attempts,
    );
    let summary: Vec<(usize, &str, u64, Option<u64>)> = rows
        .iter()
        .map(|r| (r.rank, r.contestant.as_str(), r.penalty, r.last_solve))
        .collect();
    assert_eq!(
        summary,
        [
            (1, "carol", 80, Some(40)),
            (2, "alice", 80, Some(50)),
            (2, "bob", 80, Some(50))
        ]
    );
    assert_eq!(rows[1].cells[0].minute, Some(10));
}

#[test]
fn pending_attempts_are_counted_apart_and_decide_nothing() {
    use Verdict::*;
    let attempts = vec![
        timed("alice", "a", 1, Some(WA), 5),
        timed("alice", "a", 2, None, 10),
        timed("alice", "b", 1, Some(AC), 20),
        timed("alice", "b", 2, None, 30),
    ];
    let rows = standings(&contest(Scoring::Icpc, &["alice"]), &attempts);
    let a = &rows[0].cells[0];
    assert_eq!(
        (a.solved, a.attempts, a.counted, a.pending),
        (false, 1, 1, 1)
    );
    let b = &rows[0].cells[1];
    assert_eq!((b.solved, b.pending, b.penalty), (true, 0, 20));
}

fn contest_dir(toml: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(CONTEST_FILE), toml).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn a_roster_file_gives_the_teams_and_contest_toml_their_passwords() {
    let dir = contest_dir(
        "[[teams]]\nid = \"team002\"\npassword = \"pw2\"\nroom = \"Lab 2, seat 4\"\n\n[[teams]]\nid = \"guest\"\nname = \"Guest\"\ngroup = \"obs\"\nroom = \"Hall\"\n\n[[groups]]\nid = \"obs\"\nname = \"Observers\"\nhidden = true\n",
        &[(
            "teams.tsv",
            "File_Version\t2\n1\t1\t\tOne\n2\t2\t\tTwo\tUni\tU\tNLD\tu\n",
        )],
    );
    let spec = ContestSpec::load(dir.path()).unwrap();
    let ids: Vec<&str> = spec.teams.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["team001", "team002", "guest"]);
    assert_eq!(
        spec.teams[1].credential,
        Some(Credential::Plain("pw2".into()))
    );
    assert_eq!(spec.teams[1].organization.as_deref(), Some("u"));
    assert_eq!(spec.teams[2].groups, ["obs"]);
    assert!(spec.groups.iter().any(|g| g.id == "obs" && g.hidden));
    let rooms: Vec<Option<&str>> = spec.teams.iter().map(|t| t.room.as_deref()).collect();
    assert_eq!(rooms, [None, Some("Lab 2, seat 4"), Some("Hall")]);
}

#[test]
fn printing_is_read_from_contest_toml_and_its_mistakes_named() {
    let spec = ContestSpec::load(contest_dir("", &[]).path()).unwrap();
    assert!(!spec.printing.enabled);
    let dir = contest_dir("[printing]\nprint_command = \"lpr -T {title}\"\n", &[]);
    let spec = ContestSpec::load(dir.path()).unwrap();
    assert!(spec.printing.enabled && spec.printing.command.is_some());
    let dir = contest_dir("[printing]\nprinter = \"lpr\"\n", &[]);
    let error = crate::error::render_chain(&ContestSpec::load(dir.path()).unwrap_err());
    assert!(
        error.contains("contest.toml") && error.contains("printer"),
        "{error}"
    );
    let dir = contest_dir(
        "[printing]\nprint_command = \"lpr {file}.txt\"\nmax_size = \"big\"\n",
        &[],
    );
    let error = crate::error::render_chain(&ContestSpec::load(dir.path()).unwrap_err());
    assert!(
        error.contains("`{file}.txt`") && error.contains("max_size"),
        "{error}"
    );
}

#[test]
fn teams_n_makes_a_quick_camp_and_unknown_groups_are_named() {
    let spec = ContestSpec::load(contest_dir("teams = 3\n", &[]).path()).unwrap();
    let ids: Vec<&str> = spec.teams.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["team01", "team02", "team03"]);
    let dir = contest_dir("[[teams]]\nid = \"a\"\ngroup = \"nope\"\n", &[]);
    let err = ContestSpec::load(dir.path()).unwrap_err().to_string();
    let shown = format!("{err} {:?}", ContestSpec::load(dir.path()).unwrap_err());
    assert!(shown.contains("no group `nope`"), "{shown}");
    let dir = contest_dir("teams = 2\n", &[("teams.csv", "a,A\n")]);
    let shown = format!("{:?}", ContestSpec::load(dir.path()).unwrap_err());
    assert!(shown.contains("keep one"), "{shown}");
}

#[test]
fn a_package_kept_in_the_contest_folder_is_no_contestant() {
    let dir = tempfile::tempdir().unwrap();
    let contest = dir.path().join("contest");
    std::fs::create_dir_all(contest.join("alice")).unwrap();
    std::fs::write(contest.join("alice/a.py"), "print(1)\n").unwrap();
    for (package, marker) in [
        ("kattis-pkg", "problem.yaml"),
        ("polygon-pkg", "problem.xml"),
        ("judge-pkg", "problem.toml"),
    ] {
        std::fs::create_dir_all(contest.join(package)).unwrap();
        std::fs::write(contest.join(package).join(marker), "name: x\n").unwrap();
    }
    std::fs::write(contest.join("contest.toml"), "title = \"x\"\n").unwrap();
    let config =
        crate::config::Config::parse(crate::config::BUILTIN_CONFIG, None, dir.path().into())
            .unwrap();
    let spec = ContestSpec::load(&contest).unwrap();
    let found = run::discover(&contest, &spec, &config).unwrap();
    assert_eq!(found.contestants, ["alice"]);
}

#[test]
fn balloon_colours_are_colours_and_only_colours() {
    let dir = contest_dir(
        "[balloons]\nA = \"red\"\nb = \"#1E90ff\"\nC = \"#f00\"\n",
        &[],
    );
    let spec = ContestSpec::load(dir.path()).unwrap();
    assert_eq!(spec.balloons.get("b").map(String::as_str), Some("#1E90ff"));
    // A page shows the colour: nothing else may ride in with it.
    for bad in ["red; x", "#12345", "\\\"><script>", "", "url(x)", "#ggg"] {
        let toml = format!("[balloons]\nA = {bad:?}\n");
        let dir = contest_dir(&toml, &[]);
        let shown = format!("{:?}", ContestSpec::load(dir.path()).unwrap_err());
        assert!(
            shown.contains("[balloons]") && shown.contains("not a colour"),
            "{bad}: {shown}"
        );
    }
}
