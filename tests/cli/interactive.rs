//! Interactive problems: the submission talks to the package's interactor
//! (testlib protocol in judge's own packages and Polygon's, the Kattis one
//! in ICPC packages). `tests/fixtures/problems/guess` has a player for every
//! verdict rule; an interactor that fails is IE, never AC; a failed test
//! shows the tail of the interaction (text and JSON).

use std::path::Path;

use serde_json::Value;

use crate::support::{copy_dir, repo, Workspace};

fn guess() -> std::path::PathBuf {
    repo().join("tests/fixtures/problems/guess")
}

fn run_json(ws: &Workspace, problem: &Path, player: &Path) -> Value {
    let judged = ws.judge([
        "run".as_ref(),
        problem.as_os_str(),
        player.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    serde_json::from_str(judged.stdout.lines().next().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {judged:#?}"))
}

#[test]
fn every_verdict_rule_of_interactive_problems_holds() {
    // The package declares a player per rule: AC, WA (the interactor
    // rejects; also when the player crashes after it did), RE (a crash
    // before it decided), PE (a malformed line), TLE (CPU; both idle; a
    // player that never flushes), MLE.
    let ws = Workspace::new();
    let judged = ws.judge([
        "verify".as_ref(),
        guess().as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let report: Value = serde_json::from_str(judged.stdout.trim()).unwrap();
    assert_eq!(report["ok"], true, "{report:#}");
    let got: Vec<(String, String)> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["report"]["submission"].as_str().unwrap().to_string(),
                s["report"]["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (player, verdict) in [
        ("players/binary.py", "AC"),
        ("players/linear.py", "WA"),
        ("players/crash-first.py", "RE"),
        ("players/wrong-then-crash.py", "WA"),
        ("players/malformed.py", "PE"),
        ("players/silent.py", "TLE"),
        ("players/no-flush.py", "TLE"),
        ("players/spin.py", "TLE"),
        ("players/hog.c", "MLE"),
    ] {
        assert!(
            got.contains(&(player.to_string(), verdict.to_string())),
            "{player} should get {verdict}: {got:?}"
        );
    }
}

#[test]
fn a_failed_test_shows_the_last_lines_of_the_interaction() {
    let ws = Workspace::new();
    let report = run_json(&ws, &guess(), &guess().join("players/linear.py"));
    let failed = &report["tests"].as_array().unwrap()[2];
    assert_eq!(failed["verdict"], "WA", "{report:#}");
    let lines = failed["interaction"]
        .as_array()
        .expect("an interaction field");
    assert!(!lines.is_empty() && lines.len() <= 24, "{lines:?}");
    let last = lines.last().unwrap();
    assert_eq!(last["side"], "submission");
    assert_eq!(last["line"], "? 21");
    assert!(lines
        .iter()
        .any(|l| l["side"] == "interactor" && l["line"] == ">"));
    // Passed tests carry none.
    assert!(report["tests"][0].get("interaction").is_none());
    let text = ws.judge([
        "run".as_ref(),
        guess().as_os_str(),
        guess().join("players/linear.py").as_os_str(),
    ]);
    assert!(
        text.stdout.contains("the interaction's last lines:")
            && text.stdout.contains("submission > ? 21")
            && text.stdout.contains("interactor < >"),
        "{}",
        text.stdout
    );
}

#[test]
fn an_interactor_that_fails_is_an_internal_error_never_accepted() {
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("guess");
    copy_dir(&guess(), &package);
    let ws = Workspace::new();
    for (body, why) in [
        // It plays along, then exits with a code outside the protocol.
        (
            "import sys\nprint(10, flush=True)\nsys.stdin.readline()\nsys.exit(5)\n",
            "exit code 5",
        ),
        // It crashes.
        ("import os\nprint(10, flush=True)\nos.abort()\n", "SIGABRT"),
        // It accepts without asking anything, but by a wrong code.
        ("import sys\nsys.exit(42)\n", "exit code 42"),
    ] {
        std::fs::write(package.join("interactor.py"), body).unwrap();
        let report = run_json(&ws, &package, &guess().join("players/binary.py"));
        for test in report["tests"].as_array().unwrap() {
            assert_eq!(test["verdict"], "IE", "{body}: {report:#}");
            let message = test["message"].as_str().unwrap();
            assert!(
                message.contains("interactor failed") && message.contains(why),
                "{body}: {message}"
            );
        }
        assert_eq!(report["verdict"], "IE");
    }
}

#[test]
fn an_interactive_icpc_package_talks_through_its_output_validator() {
    // Kattis protocol: 42/43 and judgemessage.txt. (problemtools agrees on
    // its verdicts: tests/cli/formats.rs.)
    let package = repo().join("tests/fixtures/kattis/guess");
    let ws = Workspace::new();
    let report = run_json(
        &ws,
        &package,
        &package.join("submissions/wrong_answer/linear.py"),
    );
    let failed = &report["tests"].as_array().unwrap()[1];
    assert_eq!(failed["verdict"], "WA", "{report:#}");
    assert_eq!(failed["message"], "more than 20 questions");
    assert!(failed["interaction"].as_array().is_some());
    let accepted = run_json(
        &ws,
        &package,
        &package.join("submissions/accepted/binary.py"),
    );
    assert_eq!(accepted["verdict"], "AC", "{accepted:#}");
}

#[test]
fn writing_after_an_accepting_interactor_ended_is_ac_not_a_crash() {
    // BAPCtools' `guessnoeofcheck` declares such a submission accepted: it
    // guesses right, then writes on after the interactor has exited, and
    // dies of SIGPIPE (as a C++ program does: SIGPIPE left at its default).
    let package = repo().join("tests/fixtures/kattis/guess");
    let scratch = tempfile::tempdir().unwrap();
    let player = scratch.path().join("extra-output.py");
    let binary = std::fs::read_to_string(package.join("submissions/accepted/binary.py")).unwrap();
    std::fs::write(
        &player,
        format!(
            "import signal, sys, time\nsignal.signal(signal.SIGPIPE, signal.SIG_DFL)\n{binary}\n\
             time.sleep(0.2)\nsys.stdout.write(\"0\\n\" * 500000)\nsys.stdout.flush()\n"
        ),
    )
    .unwrap();
    let ws = Workspace::new();
    let report = run_json(&ws, &package, &player);
    assert_eq!(report["verdict"], "AC", "{report:#}");
    let tests = report["tests"].as_array().unwrap();
    assert!(
        tests.iter().any(|t| t["signal"] == "SIGPIPE"),
        "the player did not die of SIGPIPE: {report:#}"
    );
}

#[test]
fn an_interactor_protocol_judge_does_not_know_is_named() {
    let scratch = tempfile::tempdir().unwrap();
    let package = scratch.path().join("guess");
    copy_dir(&guess(), &package);
    let spec = std::fs::read_to_string(package.join("problem.toml")).unwrap();
    let spec = spec.replace(
        "source = \"interactor.py\"",
        "source = \"interactor.py\"\nprotocol = \"cms\"",
    );
    std::fs::write(package.join("problem.toml"), spec).unwrap();
    let judged = Workspace::new().judge([
        "run".as_ref(),
        package.as_os_str(),
        guess().join("players/binary.py").as_os_str(),
    ]);
    judged.expect_code(2);
    assert!(
        judged
            .stderr
            .contains("interactor.protocol: unknown protocol `cms` (known: testlib, icpc)"),
        "{}",
        judged.stderr
    );
}

#[test]
fn stress_plays_generated_games_and_shrinks_a_losing_player() {
    // The generator makes the interactor's input; a greedy Nim player loses
    // a won position, and the minimal game shows how.
    let ws = Workspace::new();
    let judged = ws.judge([
        "stress",
        "play-nim",
        &repo()
            .join("problems/play-nim/solutions/wa-greedy.cpp")
            .display()
            .to_string(),
        "--iterations",
        "50",
        "--format",
        "json",
    ]);
    judged.expect_code(1);
    let report: Value = serde_json::from_str(judged.stdout.trim()).unwrap();
    let found = &report["counterexample"];
    assert_eq!(found["verdict"], "WA", "{report:#}");
    assert!(
        found["message"]
            .as_str()
            .unwrap()
            .contains("the interactor took the last stone"),
        "{found:#}"
    );
    let lines = found["interaction"].as_array().expect("the interaction");
    assert!(lines.iter().any(|l| l["side"] == "submission"), "{lines:?}");
    // One game of two small piles is as small as a lost game gets.
    assert!(
        found["minimal"]["tokens"].as_u64().unwrap() <= 4,
        "{found:#}"
    );
}

#[test]
fn batch_judges_an_interactive_problem_and_keeps_the_interaction() {
    let contest = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let solutions = repo().join("problems/play-nim/solutions");
    for (who, file, name) in [
        ("alice", "accepted.py", "play-nim.py"),
        ("bob", "wa-greedy.cpp", "play-nim.cpp"),
    ] {
        std::fs::create_dir_all(contest.path().join(who)).unwrap();
        std::fs::copy(solutions.join(file), contest.path().join(who).join(name)).unwrap();
    }
    let judged = Workspace::new().judge([
        "batch".as_ref(),
        contest.path().as_os_str(),
        "--out".as_ref(),
        out.path().as_os_str(),
    ]);
    judged.expect_code(0);
    let board = std::fs::read_to_string(out.path().join("scoreboard.txt")).unwrap();
    assert!(board.contains("+ AC") && board.contains("-1 WA"), "{board}");
    let results = std::fs::read_to_string(out.path().join("results.json")).unwrap();
    assert!(results.contains("\"interaction\""), "{results}");
    let junit = std::fs::read_to_string(out.path().join("junit.xml")).unwrap();
    assert!(
        junit.contains("the interactor took the last stone"),
        "{junit}"
    );
}

#[test]
fn a_polygon_interactor_decides_and_the_checker_reads_what_it_wrote() {
    // testlib protocol: the interactor accepts the linear player on test 1
    // (7 questions), and the package's checker, reading the interactor's
    // output file against the answer (at most 4), rejects it.
    let package = repo().join("tests/fixtures/polygon/guess");
    let ws = Workspace::new();
    let report = run_json(&ws, &package, &package.join("solutions/linear.py"));
    let first = &report["tests"][0];
    assert_eq!(first["verdict"], "WA", "{report:#}");
    assert_eq!(first["message"], "7 questions, at most 4 allowed");
    let judged = ws.judge([
        "verify".as_ref(),
        package.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let verified: Value = serde_json::from_str(judged.stdout.trim()).unwrap();
    assert_eq!(verified["ok"], true, "{verified:#}");
}

/// The verdict rules again as an unprivileged user (set up by .ci/run): two
/// programs wired together at the `namespaces` level.
#[test]
fn interactive_runs_work_as_an_unprivileged_user() {
    let Some(user) = crate::support::unprivileged_user() else {
        return;
    };
    let dir = tempfile::Builder::new()
        .prefix("judge-unprivileged-")
        .tempdir()
        .unwrap();
    let root = dir.path();
    copy_dir(&guess(), &root.join("guess"));
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), root.join("judge")).unwrap();
    std::fs::write(root.join("judge.toml"), "").unwrap();
    crate::support::hand_over(root, Some(&user));
    let output = std::process::Command::new("runuser")
        .args(["-u", &user, "--"])
        .arg(root.join("judge"))
        .args(["verify", "./guess", "--format", "json"])
        .current_dir(root)
        .output()
        .expect("run judge as the unprivileged user");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(report["ok"], true, "{report:#}");
}

#[test]
fn a_wall_clock_verdict_that_a_second_play_does_not_repeat_is_not_given() {
    // An interactor that, on its first play only, starts answering after the
    // player's wall limit (as one started late on a busy machine does): the
    // player is stopped idle. The second play goes normally: the verdict is
    // the second play's, AC, and says why. Without isolation, so that the
    // interactor can leave itself a mark between plays.
    let ws = Workspace::new();
    let problem = ws.path().join("guess");
    copy_dir(&guess(), &problem);
    let mark = ws.path().join("first-play-done");
    let interactor = std::fs::read_to_string(guess().join("interactor.py")).unwrap();
    let late = crate::support::scaled(std::time::Duration::from_secs(7)).as_secs();
    let prelude = format!(
        "import os, time\nif not os.path.exists({mark:?}):\n    open({mark:?}, 'w').close()\n    time.sleep({late})\n",
        mark = mark.to_str().unwrap(),
    );
    std::fs::write(problem.join("interactor.py"), prelude + &interactor).unwrap();
    let judged = ws.judge([
        "--isolation".as_ref(),
        "none".as_ref(),
        "run".as_ref(),
        problem.as_os_str(),
        problem.join("players/binary.py").as_os_str(),
        "--tests".as_ref(),
        "sample-1".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let report: Value = serde_json::from_str(judged.stdout.lines().next().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {judged:#?}"));
    let test = &report["tests"][0];
    assert_eq!(test["verdict"], "AC", "{report:#}");
    let message = test["message"].as_str().unwrap_or("");
    assert!(
        message.contains(
            "judged on a second play: the first play was stopped by the wall clock (TLE)"
        ),
        "{report:#}"
    );
    assert!(mark.exists(), "the first play ran the late interactor");
}
