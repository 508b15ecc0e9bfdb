//! The harness: a private workspace per test (a `judge.toml` whose cache lives
//! in a temporary directory, so tests run in parallel without sharing builds),
//! a builder for `judge` command lines, and helpers over the JSON report. The
//! main type is [`Workspace`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

/// Longest any single `judge` invocation may take before the test fails
/// (instead of hanging): far above the slowest expected run on a busy
/// machine. 120 s was not: verifying an exported interactive package (all
/// its tests, a dozen TLEs among them) took 140 s with both cores loaded.
const JUDGE_TIMEOUT: Duration = Duration::from_secs(900);

/// The repository root, where `judge` runs (fixture paths are relative to it).
pub(crate) fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture submission, as a path relative to the repository root.
pub(crate) fn submission(relative: &str) -> String {
    format!("tests/fixtures/submissions/{relative}")
}

/// A fixture problem directory, as a path relative to the repository root.
pub(crate) fn problem(name: &str) -> String {
    format!("tests/fixtures/problems/{name}")
}

/// A temporary workspace: a `judge.toml` copied from the repository's, with
/// the cache in the temporary directory and the problem and test-data
/// directories pointing (absolutely) at the repository's.
pub(crate) struct Workspace {
    /// Removes the directory when dropped (`None` for a shared workspace).
    _temporary: Option<tempfile::TempDir>,
    root: PathBuf,
    config: PathBuf,
}

impl Workspace {
    /// A fresh workspace with an empty cache.
    pub(crate) fn new() -> Workspace {
        Workspace::with_limits("")
    }

    /// A fresh workspace whose judge.toml `[limits]` also gets `limits` (TOML lines).
    pub(crate) fn with_limits(limits: &str) -> Workspace {
        Workspace::with_config(limits, "")
    }

    /// A fresh workspace whose judge.toml `[limits]` also gets `limits`, and
    /// which also has the tables of `extra` (TOML: languages, say).
    pub(crate) fn with_config(limits: &str, extra: &str) -> Workspace {
        let dir = tempfile::Builder::new()
            .prefix("judge-cli-test-")
            .tempdir()
            .expect("create a temporary directory");
        let config = write_config(dir.path(), limits, extra);
        Workspace {
            root: dir.path().to_path_buf(),
            _temporary: Some(dir),
            config,
        }
    }

    /// A workspace kept in `target/tmp/NAME` across tests and test runs, for
    /// tests that need the same slow builds (the cache is content-addressed
    /// and its writes atomic, so sharing it is safe). Create it once per test
    /// binary (e.g. in a `OnceLock`): this rewrites its judge.toml.
    pub(crate) fn shared(name: &str) -> Workspace {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::create_dir_all(&root).expect("create the shared workspace");
        let config = write_config(&root, "", "");
        Workspace {
            _temporary: None,
            root,
            config,
        }
    }

    /// The workspace's judge.toml.
    pub(crate) fn config_path(&self) -> &Path {
        &self.config
    }

    /// The temporary directory. Its path appears in the argv of every program
    /// the judge runs from its cache, so it also marks this test's processes.
    pub(crate) fn path(&self) -> &Path {
        &self.root
    }

    /// `judge --config WORKSPACE/judge.toml`, to run from the repository
    /// root, for a test that needs the running child itself (to signal it,
    /// or to read it while it runs).
    pub(crate) fn command(&self) -> std::process::Command {
        self.command_of(Path::new(env!("CARGO_BIN_EXE_judge")))
    }

    /// [`Workspace::command`] with the judge at `binary` (a copy of it).
    pub(crate) fn command_of(&self, binary: &Path) -> std::process::Command {
        let mut command = std::process::Command::new(binary);
        command
            .current_dir(repo())
            .arg("--config")
            .arg(&self.config);
        command
    }

    /// `judge --config WORKSPACE/judge.toml --color never ARGS...`, run from
    /// the repository root.
    pub(crate) fn judge<I, S>(&self, args: I) -> Judged
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        self.judge_with_env(args, &[])
    }

    /// [`Workspace::judge`] with more variables in the judge's environment.
    pub(crate) fn judge_with_env<I, S>(&self, args: I, env: &[(&str, &str)]) -> Judged
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_judge"))
            .current_dir(repo())
            .envs(env.iter().copied())
            .arg("--config")
            .arg(&self.config)
            .args(["--color", "never"])
            .args(args)
            .timeout(scaled(JUDGE_TIMEOUT))
            .output()
            .expect("run judge");
        Judged {
            code: output.status.code(),
            stdout: String::from_utf8(output.stdout).expect("judge prints UTF-8"),
            stderr: String::from_utf8(output.stderr).expect("judge prints UTF-8"),
        }
    }
}

/// Copies the folder `from` (a fixture) to `to`, with all it holds.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Writes `dir/judge.toml`: the repository's, with the cache in `dir`,
/// `limits` added to `[limits]` and the tables of `extra` merged in. Returns
/// its path.
fn write_config(dir: &Path, limits: &str, extra: &str) -> PathBuf {
    let text = std::fs::read_to_string(repo().join("judge.toml")).expect("read judge.toml");
    let mut config: toml::Table = text.parse().expect("the repository's judge.toml parses");
    let mut set = |key: &str, path: &Path| {
        let path = path.to_str().expect("UTF-8 temporary path").to_string();
        config.insert(key.into(), toml::Value::String(path));
    };
    set("cache_dir", &dir.join("cache"));
    // One set of precompiled headers for every test: built once per run of
    // the suite (a header takes seconds), used by all.
    set(
        "pch_dir",
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("precompiled-headers"),
    );
    set("problems_dir", &repo().join("problems"));
    set("testdata_dir", &repo().join("testdata"));
    // Tests share two cores: give CPU-bound runs room to reach their CPU
    // limit before the wall clock stops them (the default is 3).
    let table = config
        .entry("limits")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(t) = table {
        t.insert("wall_factor".into(), toml::Value::Float(5.0));
    }
    scale_for_emulation(&mut config);
    if !limits.is_empty() {
        let extra: toml::Table = limits.parse().expect("limits parse");
        let table = config
            .entry("limits")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(t) = table {
            t.extend(extra);
        }
    }
    let extra: toml::Table = extra.parse().expect("extra config parses");
    for (key, value) in extra {
        match (config.get_mut(&key), value) {
            (Some(toml::Value::Table(mine)), toml::Value::Table(theirs)) => mine.extend(theirs),
            (_, value) => {
                config.insert(key, value);
            }
        }
    }
    let path = dir.join("judge.toml");
    std::fs::write(
        &path,
        toml::to_string(&config).expect("serialise judge.toml"),
    )
    .expect("write judge.toml");
    path
}

/// Under emulation (the cgroup-v2 VM, [`slowdown`] above 1) the limits that
/// decide TLE (each language's `time_factor`), the compile time and the
/// judge's own waits (a new keeper's start, a toolchain or version probe)
/// grow by the slowdown from judge.toml's defaults; every other limit stays.
fn scale_for_emulation(config: &mut toml::Table) {
    if slowdown() == 1 {
        return;
    }
    let table = config
        .entry("limits")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(t) = table {
        for (key, seconds) in [
            ("compile_time", 60),
            ("keeper_start", 20),
            ("probe_time", 60),
        ] {
            t.insert(key.into(), format!("{}s", seconds * slowdown()).into());
        }
    }
    if let Some(toml::Value::Table(languages)) = config.get_mut("languages") {
        for (_, language) in languages.iter_mut() {
            if let toml::Value::Table(l) = language {
                let factor = l
                    .get("time_factor")
                    .and_then(|f| f.as_float())
                    .unwrap_or(1.0);
                let scaled = (factor * slowdown() as f64).min(20.0);
                l.insert("time_factor".into(), toml::Value::Float(scaled));
            }
        }
    }
}

/// The judge.toml of a test's own workspace that otherwise takes the
/// built-in settings: empty on this machine; under emulation the
/// repository's, scaled by [`scale_for_emulation`] (its paths are relative:
/// they stay the workspace's).
pub(crate) fn default_judge_toml() -> String {
    if slowdown() == 1 {
        return String::new();
    }
    let text = std::fs::read_to_string(repo().join("judge.toml")).expect("read judge.toml");
    let mut config: toml::Table = text.parse().expect("the repository's judge.toml parses");
    scale_for_emulation(&mut config);
    toml::to_string(&config).expect("serialise judge.toml")
}

/// How many times slower than this machine the tests run
/// (`JUDGE_TEST_SLOWDOWN`, set by tests/vm for the emulated VM; 1 by
/// default): time limits that decide verdicts and the tests' own deadlines
/// grow by it, nothing else.
pub(crate) fn slowdown() -> u32 {
    std::env::var("JUDGE_TEST_SLOWDOWN")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1)
}

/// A test's deadline, grown by [`slowdown`].
pub(crate) fn scaled(d: Duration) -> Duration {
    d * slowdown()
}

/// Held by tests that saturate the CPU (fork bombs, a thousand runs, the
/// verdict table) so they do not starve each other's time-limited runs.
pub(crate) fn cpu_heavy() -> std::sync::MutexGuard<'static, ()> {
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    HEAVY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a `judge` invocation printed and how it exited.
#[derive(Debug)]
pub(crate) struct Judged {
    /// Exit code (`None` if killed, e.g. by the timeout).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Judged {
    /// Asserts the exit code, showing both streams when it differs.
    pub(crate) fn expect_code(&self, code: i32) -> &Judged {
        assert_eq!(self.code, Some(code), "unexpected exit code; {self:#?}");
        self
    }

    /// The JSON report lines (`--format json`), one per submission.
    pub(crate) fn reports(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|line| {
                serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}\n{self:#?}"))
            })
            .collect()
    }

    /// The single JSON report of a one-submission run.
    pub(crate) fn report(&self) -> Value {
        let mut reports = self.reports();
        assert_eq!(reports.len(), 1, "expected one report; {self:#?}");
        reports.remove(0)
    }
}

/// `--tests GLOB...` arguments, or none for the whole test set.
pub(crate) fn tests_args(globs: &[&str]) -> Vec<String> {
    if globs.is_empty() {
        return Vec::new();
    }
    std::iter::once("--tests".to_string())
        .chain(globs.iter().map(|g| g.to_string()))
        .collect()
}

/// A string field of a JSON object, failing with the object when missing.
pub(crate) fn str_field<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is not a string in {value}"))
}

/// An unsigned integer field of a JSON object, failing with the object when missing.
pub(crate) fn u64_field(value: &Value, key: &str) -> u64 {
    value[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not an unsigned integer in {value}"))
}

/// The tests of a report.
pub(crate) fn tests_of(report: &Value) -> &[Value] {
    report["tests"]
        .as_array()
        .unwrap_or_else(|| panic!("`tests` is not an array in {report}"))
}

/// The test that decided a non-AC verdict: the first one that is not AC.
pub(crate) fn first_failure(report: &Value) -> Option<&Value> {
    tests_of(report)
        .iter()
        .find(|t| str_field(t, "verdict") != "AC")
}

/// Process ids of live processes whose command line contains `marker`.
pub(crate) fn processes_matching(marker: &str) -> Vec<String> {
    let output = std::process::Command::new("pgrep")
        .args(["-f", "--", marker])
        .output()
        .expect("run pgrep");
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// A judge judging the sleeper fixture (`sleeper4711`) on acwing-891 with
/// two jobs, its stderr to `stderr`, once the sleepers run (or the judge
/// ended, or ten minutes passed, scaled: the caller asserts what it needs).
pub(crate) fn judging_sleepers(
    workspace: &Workspace,
    stderr: std::process::Stdio,
) -> std::process::Child {
    let mut child = workspace
        .command()
        .args([
            "--isolation",
            isolation(),
            "run",
            "acwing-891",
            "tests/fixtures/hostile/sleeper.c",
            "--jobs",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("start judge");
    // After three Rust builds of the package: minutes under emulation. The
    // wait ends when the judge does; the bound only keeps a stuck judge from
    // hanging the suite.
    let deadline = std::time::Instant::now() + scaled(Duration::from_secs(600));
    while named("sleeper4711").is_empty()
        && std::time::Instant::now() < deadline
        && child.try_wait().expect("poll the judge").is_none()
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

/// Whether the tests run as root (then the judge must reach full isolation).
pub(crate) fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// `--isolation strict` as root (full isolation must work there), else `auto`.
pub(crate) fn isolation() -> &'static str {
    if is_root() {
        "strict"
    } else {
        "auto"
    }
}

/// Processes whose name (comm) is exactly `name`, on the whole machine:
/// only while this test holds [`named_processes`], so that it never counts
/// another suite's (a test that forgets it fails here, even run alone).
pub(crate) fn named(name: &str) -> Vec<String> {
    assert!(
        NAMED_HELD.with(std::cell::Cell::get) > 0,
        "looking for processes named {name} on the whole machine without holding \
         support::named_processes(): another run of the suite may have its own"
    );
    let output = std::process::Command::new("pgrep")
        .args(["-x", name])
        .output()
        .expect("run pgrep");
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Held by tests that use what is the machine's, not the suite's: the
/// hostile fixtures' named processes (`forkbomb4711`, `sleeper4711`,
/// `pkgdaemon4711`, ...) looked for on the whole machine, and the probes'
/// listener on 127.0.0.1:47115. One such test at a time, in this suite and
/// in any other run of it on the machine (a file lock): two suites at once
/// found each other's fork bomb "left behind", and then each other's
/// listener ("Address already in use"). Take [`cpu_heavy`] first when
/// holding both.
pub(crate) fn named_processes() -> NamedProcesses {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let path = std::env::temp_dir().join("judge-tests-named-processes.lock");
    // Read-only is enough for flock, so that every user running the tests
    // (the VM's placements run as several) shares the one file.
    let file = std::fs::File::open(&path)
        .or_else(|_| {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .mode(0o644)
                .open(&path)?;
            let _ = file.set_permissions(std::fs::Permissions::from_mode(0o644));
            Ok::<_, std::io::Error>(file)
        })
        .unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
        .unwrap_or_else(|e| panic!("lock {}: {e}", path.display()));
    NAMED_HELD.with(|held| held.set(held.get() + 1));
    NamedProcesses(file)
}

thread_local! {
    /// How many [`NamedProcesses`] this test's thread holds.
    static NAMED_HELD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The lock of [`named_processes`], released when dropped.
pub(crate) struct NamedProcesses(#[allow(dead_code)] std::fs::File);

impl Drop for NamedProcesses {
    fn drop(&mut self) {
        NAMED_HELD.with(|held| held.set(held.get() - 1));
    }
}

/// Waits up to two seconds for processes named `name` to be gone.
pub(crate) fn assert_none_named(name: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    let mut left = named(name);
    while !left.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = named(name);
    }
    assert!(
        left.is_empty(),
        "processes named {name} left behind: {left:?}"
    );
}

/// The host's IPC endpoints that `tests/fixtures/hostile/host-sockets.c`
/// must not reach: listening Unix sockets in the host's /dev/shm and /tmp and
/// an abstract one, named `judge-host-PID` after this test process, so that
/// two runs of the suite at once do not collide; [`HostSockets::fixture`]
/// writes the fixture with that name. One set at a time in a process: hold
/// it while the fixture runs.
pub(crate) struct HostSockets {
    _listeners: Vec<std::os::unix::net::UnixListener>,
    paths: Vec<PathBuf>,
    name: String,
    _one_at_a_time: std::sync::MutexGuard<'static, ()>,
}

impl HostSockets {
    /// Binds the sockets (world-connectable).
    pub(crate) fn bind() -> HostSockets {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::fs::PermissionsExt;
        static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let guard = ONE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let name = format!("judge-host-{}", std::process::id());
        let mut listeners = Vec::new();
        let mut paths = Vec::new();
        for dir in ["/dev/shm", "/tmp"] {
            let path = PathBuf::from(format!("{dir}/{name}.sock"));
            let _ = std::fs::remove_file(&path);
            if let Ok(listener) = std::os::unix::net::UnixListener::bind(&path) {
                let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777));
                listeners.push(listener);
                paths.push(path);
            }
        }
        let address = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes())
            .expect("an abstract name");
        listeners.push(
            std::os::unix::net::UnixListener::bind_addr(&address)
                .unwrap_or_else(|e| panic!("bind @{name}: {e}")),
        );
        HostSockets {
            _listeners: listeners,
            paths,
            name,
            _one_at_a_time: guard,
        }
    }

    /// Writes `tests/fixtures/hostile/host-sockets.c` to `path`, aimed at
    /// these sockets (the fixture names `judge-host-4711`).
    pub(crate) fn fixture(&self, path: &Path) {
        let text = std::fs::read_to_string(repo().join("tests/fixtures/hostile/host-sockets.c"))
            .expect("read host-sockets.c");
        assert!(text.contains("judge-host-4711"), "host-sockets.c changed");
        std::fs::write(path, text.replace("judge-host-4711", &self.name))
            .expect("write host-sockets.c");
    }
}

impl Drop for HostSockets {
    fn drop(&mut self) {
        for path in &self.paths {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Says something about a test where `cargo test` shows it: straight to the
/// process's stderr, which libtest's capture (of `eprintln!` and `print!`)
/// does not reach, named after the test.
pub(crate) fn note(text: &str) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let _ = writeln!(std::io::stderr(), "note: {test}: {text}");
}

/// Whether the tests run on CI (`CI` set, as CI services and .ci/run do).
pub(crate) fn on_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false")
}

/// A test skips because `what` is missing: said where `cargo test` shows
/// it, and a failure on CI, where .ci/run provides everything.
pub(crate) fn skip_missing(what: &str) {
    assert!(!on_ci(), "{what} is missing; .ci/run provides it on CI");
    note(&format!("skipped: {what} is missing"));
}

/// Gives the folder `root` and all it holds to `user` (none: it stays
/// root's), and lets everyone enter and read it.
pub(crate) fn hand_over(root: &Path, user: Option<&str>) {
    if let Some(user) = user {
        let chown = std::process::Command::new("chown")
            .args(["-R", user])
            .arg(root)
            .status()
            .unwrap();
        assert!(chown.success(), "chown -R {user} {}", root.display());
    }
    let chmod = std::process::Command::new("chmod")
        .arg("755")
        .arg(root)
        .status()
        .unwrap();
    assert!(chmod.success(), "chmod 755 {}", root.display());
}

/// The unprivileged user the tests run as (`JUDGE_TEST_UNPRIVILEGED_USER`),
/// or `None` (said, and a failure on CI as root, where .ci/run sets it).
pub(crate) fn unprivileged_user() -> Option<String> {
    if let Ok(user) = std::env::var("JUDGE_TEST_UNPRIVILEGED_USER") {
        return Some(user);
    }
    let what = "JUDGE_TEST_UNPRIVILEGED_USER (set it, as .ci/run does, to run this as that user)";
    if is_root() {
        skip_missing(what);
    } else {
        note(&format!("skipped: {what} is missing"));
    }
    None
}
