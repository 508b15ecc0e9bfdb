//! Packages and contest folders are as hostile as submissions: their
//! programs run in the sandbox with their own limits and a view of their
//! own package; nothing outside a package is read through its paths or
//! links; a contest folder's files are read once, safely, and one
//! submission never ends a contest; every folder of a judging is hidden
//! from runs wherever it is. Each test runs as root (full isolation, as CI
//! does) and, with `JUDGE_TEST_UNPRIVILEGED_USER` set (as .ci/run does), as
//! that unprivileged user too.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{assert_none_named, is_root, repo, str_field, tests_of, Judged};

fn hostile(name: &str) -> PathBuf {
    repo().join("tests/fixtures/hostile").join(name)
}

/// Who runs the judge.
#[derive(Debug, Clone)]
enum Who {
    /// Root, at `--isolation strict`.
    Root,
    /// The unprivileged user .ci/run creates, at `--isolation auto`
    /// (namespaces).
    User(String),
}

/// Root, and the unprivileged user when one is set (and the tests run as
/// root, which can switch to it).
fn everyone() -> Vec<Who> {
    if !is_root() {
        crate::support::note("not root: these tests check the unprivileged level only");
        return vec![Who::User(String::new())];
    }
    let mut who = vec![Who::Root];
    match std::env::var("JUDGE_TEST_UNPRIVILEGED_USER") {
        Ok(user) => who.push(Who::User(user)),
        Err(_) => {
            crate::support::unprivileged_user();
        }
    }
    who
}

/// A folder the judge works in (its workspace: judge.toml with the built-in
/// settings), owned by whoever runs the judge, with a copy of the judge.
struct Arena {
    dir: tempfile::TempDir,
    who: Who,
}

impl Arena {
    fn new(who: &Who) -> Arena {
        let dir = tempfile::Builder::new()
            .prefix("judge-untrusted-")
            .tempdir()
            .unwrap();
        std::fs::write(
            dir.path().join("judge.toml"),
            crate::support::default_judge_toml(),
        )
        .unwrap();
        std::fs::copy(env!("CARGO_BIN_EXE_judge"), dir.path().join("judge")).unwrap();
        Arena {
            dir,
            who: who.clone(),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Copies a fixture folder into the arena.
    fn copy(&self, from: &Path, to: &str) -> PathBuf {
        let target = self.path().join(to);
        crate::support::copy_dir(from, &target);
        target
    }

    /// Hands the arena to the user who judges in it.
    fn hand_over(&self) {
        match &self.who {
            Who::User(user) if user.is_empty() => {}
            Who::User(user) => crate::support::hand_over(self.path(), Some(user)),
            Who::Root => crate::support::hand_over(self.path(), None),
        }
    }

    /// Runs the judge in the arena, with `JUDGE_SECRET_4711` in its
    /// environment (no program may see it).
    fn judge(&self, args: &[&str]) -> Judged {
        let judge = self.path().join("judge");
        let mut command = match &self.who {
            Who::Root => {
                let mut c = std::process::Command::new(&judge);
                c.args(["--isolation", "strict"]);
                c
            }
            Who::User(user) if user.is_empty() => std::process::Command::new(&judge),
            Who::User(user) => {
                let mut c = std::process::Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&judge);
                c
            }
        };
        let output = command
            .env("JUDGE_SECRET_4711", "the judge's own secret")
            .args(["--color", "never"])
            .args(args)
            .current_dir(self.path())
            .output()
            .expect("run judge");
        Judged {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// The hostile package in the arena at `at` (a folder name), its probe told
/// what it must not reach; and a Python A+B to judge on it.
fn probe_package(arena: &Arena, at: &str, secrets: &[PathBuf]) -> PathBuf {
    let package = arena.copy(&hostile("hostile-package"), at);
    let probe = package.join("probe.py");
    let secrets: Vec<String> = secrets.iter().map(|s| s.display().to_string()).collect();
    let text = std::fs::read_to_string(&probe)
        .unwrap()
        .replace("@SECRETS@", &secrets.join(":"));
    std::fs::write(&probe, text).unwrap();
    std::fs::write(
        arena.path().join("sum.py"),
        "a, b = map(int, input().split())\nprint(a + b)\n",
    )
    .unwrap();
    package
}

/// Secrets around a package: another package's file, a file of the
/// workspace, the cache.
fn secrets(arena: &Arena) -> Vec<PathBuf> {
    let other = arena.path().join("problems/other-package");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("answer.ans"), "42\n").unwrap();
    std::fs::write(arena.path().join("workspace-secret.txt"), "secret\n").unwrap();
    vec![
        other.join("answer.ans"),
        other,
        arena.path().join("workspace-secret.txt"),
        arena.path().join(".judge-cache"),
    ]
}

/// A listener the probes must not reach (its port is in the fixture: hold
/// `support::named_processes()` while it listens).
fn listener() -> std::net::TcpListener {
    std::net::TcpListener::bind("127.0.0.1:47115").expect("bind 127.0.0.1:47115")
}

/// Every program of a package (generator, validator, reference, checker)
/// runs as nobody, sees its own package and the system and nothing else (no
/// cache, no workspace, no other package, no secret of the host or of the
/// judge's environment), cannot write what it is given nor beside its work
/// directory, has no network, and leaves no process behind.
#[test]
fn package_programs_are_contained() {
    let _net = crate::support::cpu_heavy();
    // pkgdaemon4711 and the listener on 47115 are the machine's.
    let _names = crate::support::named_processes();
    for who in everyone() {
        let arena = Arena::new(&who);
        let secrets = secrets(&arena);
        probe_package(&arena, "problems/hostile-package", &secrets);
        arena.hand_over();
        let _listening = listener();
        let judged = arena.judge(&["run", "hostile-package", "sum.py", "--format", "json"]);
        assert_eq!(judged.code, Some(0), "{who:?}: {judged:#?}");
        let report = judged.report();
        assert_eq!(report["verdict"], "AC", "{who:?}: {judged:#?}");
        assert_eq!(tests_of(&report).len(), 2, "{report}");
        assert_none_named("pkgdaemon4711");
    }
}

/// The same probe outside the sandbox (`--isolation none`, as root) does
/// find what it looks for: the test above does not pass by accident.
#[test]
fn the_package_probe_does_detect_a_breach() {
    if !is_root() {
        crate::support::note("skipped: needs root (the probe looks for root's reach)");
        return;
    }
    // Uncontained, its pkgdaemon4711 outlives it until the pkill below.
    let _names = crate::support::named_processes();
    let arena = Arena::new(&Who::Root);
    let secrets = secrets(&arena);
    probe_package(&arena, "problems/hostile-package", &secrets);
    let judged = std::process::Command::new(arena.path().join("judge"))
        .args(["--isolation", "none", "run", "hostile-package", "sum.py"])
        .env("JUDGE_SECRET_4711", "x")
        .current_dir(arena.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&judged.stderr);
    assert_eq!(judged.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("BREACH"), "{stderr}");
    assert!(stderr.contains("/etc/shadow"), "{stderr}");
    assert!(stderr.contains("workspace-secret.txt"), "{stderr}");
    // Uncontained, its daemon outlives it: end it here.
    let _ = std::process::Command::new("pkill")
        .args(["-x", "pkgdaemon4711"])
        .status();
}

/// A contest folder may name a package of its own (contest.toml): its
/// checker is as contained as any package program.
#[test]
fn a_package_inside_a_contest_folder_is_contained() {
    let _net = crate::support::cpu_heavy();
    // pkgdaemon4711 and the listener on 47115 are the machine's.
    let _names = crate::support::named_processes();
    for who in everyone() {
        let arena = Arena::new(&who);
        let secrets = secrets(&arena);
        let contest = arena.path().join("contest");
        std::fs::create_dir_all(contest.join("alice")).unwrap();
        probe_package(&arena, "contest/hostile-package", &secrets);
        std::fs::copy(
            arena.path().join("sum.py"),
            contest.join("alice/hostile-package.py"),
        )
        .unwrap();
        std::fs::write(
            contest.join("contest.toml"),
            "problems = [\"hostile-package\"]\n",
        )
        .unwrap();
        arena.hand_over();
        let _listening = listener();
        let judged = arena.judge(&["batch", "contest", "--out", "out", "--format", "json"]);
        assert_eq!(judged.code, Some(0), "{who:?}: {judged:#?}");
        let results: Value = serde_json::from_str(&judged.stdout).unwrap();
        let entry = &results["entries"][0];
        assert_eq!(entry["report"]["verdict"], "AC", "{who:?}: {entry}");
        assert_none_named("pkgdaemon4711");
    }
}

/// An interactor gets a memory limit: one that buffers a submission that
/// never sends a newline is stopped at the package's limit (64 MiB here),
/// and the test is IE, quickly.
#[test]
fn an_interactor_has_a_memory_limit() {
    for who in everyone() {
        let arena = Arena::new(&who);
        arena.copy(&hostile("flood-interactor"), "flood-interactor");
        arena.hand_over();
        let started = Instant::now();
        let judged = arena.judge(&[
            "run",
            "./flood-interactor",
            "flood-interactor/flood.c",
            "--format",
            "json",
        ]);
        let report = judged.report();
        let test = &tests_of(&report)[0];
        let message = str_field(test, "message").to_lowercase();
        assert_eq!(test["verdict"], "IE", "{who:?}: {report}");
        assert!(
            message.contains("interactor failed") && message.contains("memory"),
            "{who:?}: {message}"
        );
        assert!(
            started.elapsed() < crate::support::scaled(Duration::from_secs(60)),
            "{who:?}: {:?}",
            started.elapsed()
        );
    }
}

/// A validator that never ends is stopped at its limit and named, and the
/// judging ends: twenty tests do not cost twenty waits. Where validators
/// decide (`judge gen`, as `verify`), the first failure ends it with an
/// error; where they only warn (`judge run`, `batch`), the validator is given
/// up on after its first failure and the submission is judged.
#[test]
fn a_hanging_package_program_is_stopped_and_ends_the_judging() {
    for who in everyone() {
        let arena = Arena::new(&who);
        arena.copy(&hostile("hanging-validator"), "hanging-validator");
        std::fs::write(arena.path().join("ok.py"), "print(1)\n").unwrap();
        arena.hand_over();
        let started = Instant::now();
        let judged = arena.judge(&["-j", "1", "gen", "./hanging-validator", "--out", "made"]);
        let elapsed = started.elapsed();
        assert_eq!(judged.code, Some(2), "{who:?}: {judged:#?}");
        assert!(
            judged.stderr.contains("the validator")
                && judged.stderr.contains("validator.py")
                && judged.stderr.contains("limit"),
            "{who:?}: {judged:#?}"
        );
        // One wall limit (2 s) and the setup, not twenty.
        assert!(
            elapsed < crate::support::scaled(Duration::from_secs(30)),
            "{who:?}: {elapsed:?}"
        );
        let started = Instant::now();
        let judged = arena.judge(&["-j", "1", "run", "./hanging-validator", "ok.py"]);
        let elapsed = started.elapsed();
        assert_eq!(judged.code, Some(0), "{who:?}: {judged:#?}");
        assert_eq!(
            judged.stderr.matches("validator.py failed on").count(),
            1,
            "{who:?}: {judged:#?}"
        );
        assert!(
            judged.stderr.contains("limit")
                && judged.stderr.contains("not run on the tests after it"),
            "{who:?}: {judged:#?}"
        );
        assert!(
            elapsed < crate::support::scaled(Duration::from_secs(30)),
            "{who:?}: {elapsed:?}"
        );
    }
}

/// A package (ICPC, Polygon, judge's own) that names or links to anything
/// outside itself is refused, naming the path: nothing outside is read, and
/// a link to `/` is not walked.
#[test]
fn foreign_packages_cannot_reach_outside_themselves() {
    let who = Who::Root;
    let arena = Arena::new(&who);
    let kattis = |name: &str| -> PathBuf {
        let dir = arena.path().join(name);
        std::fs::create_dir_all(dir.join("data/sample")).unwrap();
        std::fs::create_dir_all(dir.join("data/secret")).unwrap();
        std::fs::create_dir_all(dir.join("submissions/accepted")).unwrap();
        std::fs::write(dir.join("problem.yaml"), "name: Links\n").unwrap();
        std::fs::write(dir.join(".timelimit"), "1\n").unwrap();
        std::fs::write(dir.join("data/sample/1.in"), "1\n").unwrap();
        std::fs::write(dir.join("data/sample/1.ans"), "1\n").unwrap();
        std::fs::write(dir.join("submissions/accepted/echo.py"), "print(input())\n").unwrap();
        dir
    };
    let link = |target: &str, at: PathBuf| std::os::unix::fs::symlink(target, at).unwrap();
    let root_link = kattis("root-link");
    link("/", root_link.join("data/secret/root"));
    let file_link = kattis("file-link");
    link("/etc/hostname", file_link.join("data/secret/2.in"));
    let loop_link = kattis("loop-link");
    link("..", loop_link.join("data/secret/again"));
    let spec_link = kattis("spec-link");
    std::fs::remove_file(spec_link.join("problem.yaml")).unwrap();
    link("/etc/hostname", spec_link.join("problem.yaml"));
    let header_link = kattis("header-link");
    std::fs::write(
        header_link.join("problem.yaml"),
        "name: Links\nvalidation: custom\n",
    )
    .unwrap();
    std::fs::create_dir_all(header_link.join("output_validators/v")).unwrap();
    std::fs::write(
        header_link.join("output_validators/v/v.cpp"),
        "#include \"secret.h\"\nint main() { return 42; }\n",
    )
    .unwrap();
    link(
        "/etc/shadow",
        header_link.join("output_validators/v/secret.h"),
    );
    let polygon = |name: &str, pattern: &str| -> PathBuf {
        let dir = arena.path().join(name);
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(dir.join("tests/01"), "1\n").unwrap();
        std::fs::write(
            dir.join("problem.xml"),
            format!(
                "<problem short-name=\"{name}\"><judging><testset name=\"tests\">\
                 <time-limit>1000</time-limit><memory-limit>268435456</memory-limit>\
                 <input-path-pattern>{pattern}</input-path-pattern>\
                 <answer-path-pattern>tests/%02d.a</answer-path-pattern>\
                 <tests><test method=\"manual\"/></tests></testset></judging></problem>"
            ),
        )
        .unwrap();
        dir
    };
    let climbing = polygon("climbing", "../../../../../../etc/hostname");
    let absolute = polygon("absolute", "/etc/shadow");
    let native = arena.copy(
        &repo().join("tests/fixtures/problems/mini-nim"),
        "native-link",
    );
    let spec = std::fs::read_to_string(native.join("problem.toml"))
        .unwrap()
        .replace("id = \"mini-nim\"", "id = \"native-link\"")
        .replace(
            "source = \"reference.py\"",
            "source = \"../../../../etc/passwd\"",
        );
    std::fs::write(native.join("problem.toml"), spec).unwrap();
    for (package, says) in [
        (
            &root_link,
            "data/secret/root (a link to /) leaves the package",
        ),
        (
            &file_link,
            "data/secret/2.in (a link to /etc/hostname) leaves the package",
        ),
        (&loop_link, "data/secret/again"),
        (
            &spec_link,
            "problem.yaml (a link to /etc/hostname) leaves the package",
        ),
        (
            &header_link,
            "secret.h (a link to /etc/shadow) leaves the package",
        ),
        (
            &climbing,
            "`../../../../../../etc/hostname` leaves the package",
        ),
        (&absolute, "`/etc/shadow` is an absolute path"),
        (&native, "`../../../../etc/passwd` leaves the package"),
    ] {
        let started = Instant::now();
        let judged = arena.judge(&[
            "run",
            package.to_str().unwrap(),
            repo()
                .join("tests/fixtures/problems/mini-nim/solutions/accepted.py")
                .to_str()
                .unwrap(),
        ]);
        assert_eq!(judged.code, Some(2), "{package:?}: {judged:#?}");
        assert!(judged.stderr.contains(says), "{package:?}: {judged:#?}");
        assert!(!judged.stderr.contains("root:"), "{judged:#?}");
        assert!(
            started.elapsed() < crate::support::scaled(Duration::from_secs(30)),
            "{package:?}: {:?}",
            started.elapsed()
        );
    }
}

/// Numbers out of range in a package are errors naming the file and the
/// key: never a panic, never a silent cap or an unlimited limit.
#[test]
fn out_of_range_numbers_in_packages_are_errors() {
    let arena = Arena::new(&Who::Root);
    let kattis = |name: &str, yaml: &str, timelimit: Option<&str>| -> PathBuf {
        let dir = arena.path().join(name);
        std::fs::create_dir_all(dir.join("data/secret")).unwrap();
        std::fs::write(dir.join("problem.yaml"), yaml).unwrap();
        if let Some(t) = timelimit {
            std::fs::write(dir.join(".timelimit"), t).unwrap();
        }
        std::fs::write(dir.join("data/secret/1.in"), "1\n").unwrap();
        std::fs::write(dir.join("data/secret/1.ans"), "1\n").unwrap();
        dir
    };
    let cases = [
        (
            kattis("multiplier", "limits:\n  time_multiplier: 1e300\n", None),
            "limits.time_multiplier: must be a number from 1 to 100, got 1e300",
        ),
        (
            kattis(
                "time",
                "problem_format_version: 2023-07-draft\nlimits:\n  time_limit: 1e300\n",
                None,
            ),
            "limits.time_limit: must be a number of seconds above 0 and at most 7 days",
        ),
        (
            kattis("memory", "limits:\n  memory: 1e300\n", Some("1")),
            "limits.memory: must be a number of MiB above 0 and at most 1048576",
        ),
        (
            kattis("output", "limits:\n  output: 1e13\n", Some("1")),
            "limits.output: must be a number of MiB",
        ),
        (
            kattis("validation", "limits:\n  validation_memory: 1e300\n", Some("1")),
            "limits.validation_memory: must be a number of MiB",
        ),
        (
            kattis(
                "resolution",
                "problem_format_version: 2023-07-draft\nlimits:\n  time_resolution: 1e300\n",
                None,
            ),
            "limits.time_resolution: must be a number of seconds above 0 and at most 7 days",
        ),
        (
            kattis(
                "ac-multiplier",
                "problem_format_version: 2023-07-draft\nlimits:\n  time_multipliers:\n    ac_to_time_limit: 1e300\n",
                None,
            ),
            "limits.time_multipliers.ac_to_time_limit: must be a number from 1 to 100",
        ),
    ];
    let polygon = |name: &str, time: &str, memory: &str| -> PathBuf {
        let dir = arena.path().join(name);
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(dir.join("tests/01"), "1\n").unwrap();
        std::fs::write(dir.join("tests/01.a"), "1\n").unwrap();
        std::fs::write(
            dir.join("problem.xml"),
            format!(
                "<problem short-name=\"{name}\"><judging><testset name=\"tests\">\
                 <time-limit>{time}</time-limit><memory-limit>{memory}</memory-limit>\
                 <tests><test method=\"manual\"/></tests></testset></judging></problem>"
            ),
        )
        .unwrap();
        dir
    };
    let polygon_cases = [
        (
            polygon("ptime", "999999999999", "268435456"),
            "<time-limit>: must be from 1 to 604800000 ms",
        ),
        (
            polygon("pmemory", "1000", "9999999999999999"),
            "<memory-limit>: must be at most 1099511627776 bytes",
        ),
        (
            polygon("pwidth", "1000", "268435456"),
            "a field wider than 32 characters",
        ),
    ];
    let xml = arena.path().join("pwidth/problem.xml");
    let text = std::fs::read_to_string(&xml).unwrap().replace(
        "<tests>",
        "<input-path-pattern>tests/%0999999999d</input-path-pattern><tests>",
    );
    std::fs::write(&xml, text).unwrap();
    for (package, says) in cases.iter().chain(&polygon_cases) {
        let judged = arena.judge(&[
            "run",
            package.to_str().unwrap(),
            repo()
                .join("tests/fixtures/problems/mini-nim/solutions/accepted.py")
                .to_str()
                .unwrap(),
        ]);
        assert_eq!(judged.code, Some(2), "{package:?}: {judged:#?}");
        assert!(judged.stderr.contains(says), "{package:?}: {judged:#?}");
        assert!(!judged.stderr.contains("panicked"), "{judged:#?}");
    }
}

/// Whatever one submission is or does to its build, it gets a verdict and
/// every other submission is judged and written: a Rust library (no
/// program), classes 1500 packages deep or 4000 bytes of package path,
/// compile-time code leaving a deep tree, a sparse 2 GiB file and a folder
/// where the judge keeps its marker, a 512 MiB executable. The cache stays
/// small.
#[test]
fn one_submission_never_ends_a_contest() {
    // Java and Haskell are shipped languages; the cgroup-v2 VM holds C, C++,
    // Python and Rust only.
    if std::env::var_os("JUDGE_TEST_INSTALLED_LANGUAGES_ONLY").is_some()
        && !std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .any(|dir| dir.join("javac").is_file())
    {
        crate::support::note("skipped: needs Java (javac), not installed here");
        return;
    }
    let _heavy = crate::support::cpu_heavy();
    for who in everyone() {
        let arena = Arena::new(&who);
        arena.copy(&repo().join("tests/fixtures/problems/mini-nim"), "mini-nim");
        let contest = arena.path().join("contest");
        let mut entries = vec![
            (
                "alice",
                "mini-nim.py",
                repo().join("tests/fixtures/problems/mini-nim/solutions/accepted.py"),
                "AC",
            ),
            ("bob", "mini-nim.java", hostile("DeepPackage.java"), "CE"),
            ("carol", "mini-nim.java", hostile("LongPackage.java"), "RE"),
            ("dave", "mini-nim.hs", hostile("template-haskell.hs"), "*"),
            ("erin", "mini-nim.c", hostile("big-sections.c"), "CE"),
        ];
        // The unprivileged user has no Rust toolchain (rustup is root's).
        if matches!(who, Who::Root) {
            entries.push(("frank", "mini-nim.rs", hostile("crate-lib.rs"), "CE"));
        }
        for (name, file, source, _) in &entries {
            std::fs::create_dir_all(contest.join(name)).unwrap();
            std::fs::copy(source, contest.join(name).join(file)).unwrap();
        }
        std::fs::write(
            contest.join("contest.toml"),
            "problems = [\"../mini-nim\"]\n",
        )
        .unwrap();
        arena.hand_over();
        let judged = arena.judge(&[
            "-j", "2", "batch", "contest", "--out", "out", "--format", "json",
        ]);
        assert_eq!(judged.code, Some(0), "{who:?}: {judged:#?}");
        let results: Value = serde_json::from_str(
            &std::fs::read_to_string(arena.path().join("out/results.json")).unwrap(),
        )
        .unwrap();
        for (name, _, _, verdict) in &entries {
            let entry = results["entries"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["contestant"] == *name)
                .unwrap_or_else(|| panic!("{name} is missing: {results}"));
            let report = &entry["report"];
            assert!(report.is_object(), "{who:?} {name}: not judged: {entry}");
            if *verdict != "*" {
                assert_eq!(report["verdict"], *verdict, "{who:?} {name}: {entry}");
            }
            assert_ne!(report["verdict"], "IE", "{who:?} {name}: {entry}");
        }
        let message = |name: &str| -> String {
            results["entries"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["contestant"] == name)
                .map(|e| {
                    e["report"]["compile"]["message"]
                        .as_str()
                        .unwrap_or("")
                        .to_string()
                })
                .unwrap_or_default()
        };
        assert!(
            message("bob").contains("nested more than"),
            "{}",
            message("bob")
        );
        assert!(
            message("erin").contains("more than 268435456 bytes"),
            "{}",
            message("erin")
        );
        if matches!(who, Who::Root) {
            assert!(
                message("frank").contains("made no program"),
                "{}",
                message("frank")
            );
        }
        for out in [
            "results.json",
            "scoreboard.txt",
            "scoreboard.html",
            "junit.xml",
        ] {
            assert!(arena.path().join("out").join(out).is_file(), "{out}");
        }
        let cache = du(&arena.path().join(".judge-cache"));
        assert!(cache < 64 << 20, "{who:?}: the cache holds {cache} bytes");
    }
}

/// Bytes the files below `dir` take on disk.
fn du(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.blocks() * 512)
        .sum()
}

/// A contest folder in a directory every run sees (`/opt`), and reached
/// through a link: no submission reads another contestant's file.
#[test]
fn a_contest_folder_is_hidden_wherever_it_is() {
    if !is_root() {
        crate::support::note("skipped: needs root to make a folder in /opt");
        return;
    }
    for who in everyone() {
        let arena = Arena::new(&who);
        arena.copy(&repo().join("tests/fixtures/problems/mini-nim"), "mini-nim");
        let place = tempfile::Builder::new()
            .prefix("judge-untrusted-contest-")
            .tempdir_in("/opt")
            .unwrap();
        let contest = place.path().join("contest");
        let alice = contest.join("alice/mini-nim.py");
        std::fs::create_dir_all(alice.parent().unwrap()).unwrap();
        std::fs::write(&alice, "# alice's secret solution\nprint('Yes')\n").unwrap();
        // Bob looks for Alice's file: found, he prints it (WA); not, he
        // solves the problem (AC).
        let accepted = std::fs::read_to_string(
            repo().join("tests/fixtures/problems/mini-nim/solutions/accepted.py"),
        )
        .unwrap();
        std::fs::create_dir_all(contest.join("bob")).unwrap();
        std::fs::write(
            contest.join("bob/mini-nim.py"),
            format!(
                "import os\nif os.path.exists({:?}) or os.path.isdir({:?}) and os.listdir({:?}):\n    print('found alice')\n    raise SystemExit\n{accepted}",
                alice.display().to_string(),
                contest.display().to_string(),
                contest.display().to_string(),
            ),
        )
        .unwrap();
        std::fs::write(
            contest.join("contest.toml"),
            format!(
                "problems = [{:?}]\n",
                arena.path().join("mini-nim").display().to_string()
            ),
        )
        .unwrap();
        std::os::unix::fs::symlink(&contest, arena.path().join("linked-contest")).unwrap();
        arena.hand_over();
        if let Who::User(user) = &who {
            let chown = std::process::Command::new("chown")
                .args(["-R", user])
                .arg(place.path())
                .status()
                .unwrap();
            assert!(chown.success());
        }
        for folder in [contest.to_str().unwrap(), "linked-contest"] {
            let judged = arena.judge(&["batch", folder, "--out", "out", "--format", "json"]);
            assert_eq!(judged.code, Some(0), "{who:?}: {judged:#?}");
            let results: Value = serde_json::from_str(&judged.stdout).unwrap();
            let bob = results["entries"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["contestant"] == "bob")
                .unwrap();
            assert_eq!(bob["report"]["verdict"], "AC", "{who:?} {folder}: {bob}");
        }
    }
}

/// `run --input` on a problem without answers says that nothing was
/// checked, rather than AC for whatever the program printed; a `--save`
/// that cannot be written says so, before the search.
#[test]
fn what_was_not_checked_or_saved_is_said() {
    let arena = Arena::new(&Who::Root);
    let package = arena.copy(
        &repo().join("tests/fixtures/problems/mini-nim"),
        "no-answers",
    );
    let spec = std::fs::read_to_string(package.join("problem.toml"))
        .unwrap()
        .replace("id = \"mini-nim\"", "id = \"no-answers\"");
    let spec = spec[..spec.find("[reference]").unwrap()].to_string()
        + "[[tests]]\ngroup = \"samples\"\nload = [\"sample-*\"]\n";
    std::fs::write(package.join("problem.toml"), spec).unwrap();
    std::fs::write(arena.path().join("silent.py"), "").unwrap();
    let judged = arena.judge(&[
        "run",
        "./no-answers",
        "silent.py",
        "--input",
        "no-answers/testdata/sample-1.in",
    ]);
    assert!(judged.stdout.contains("nothing was checked"), "{judged:#?}");
    assert!(!judged.stdout.contains("accepted"), "{judged:#?}");
    let arena_nim = arena.copy(&repo().join("tests/fixtures/problems/mini-nim"), "mini-nim");
    let judged = arena.judge(&[
        "stress",
        arena_nim.to_str().unwrap(),
        "silent.py",
        "--save",
        "/proc/version",
    ]);
    assert_eq!(judged.code, Some(2), "{judged:#?}");
    assert!(judged.stderr.contains("cannot write /proc"), "{judged:#?}");
    assert!(!judged.stderr.contains("cannot read"), "{judged:#?}");
}
