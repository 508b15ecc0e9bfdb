//! Compiling by language in the sandbox, with the content-addressed build
//! cache and a memo of compiler versions.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::command::{fill, Paths};
use super::executable::{set_mode, Build, CompileReport, CompileStatus, Executable, EXE_NAME};
use super::pch::{Headers, Needs};
use super::underway::Underway;
use crate::cache::{Cache, Key, Kind};
use crate::config::{DefaultLimits, Language};
use crate::error::{Error, Result};
use crate::sandbox::{self, Environment, LimitHit, Profile, RunError, RunRequest, Sandbox, Stdin};

/// Marks a cached compile error inside a build directory.
const ERROR_FILE: &str = "compile-error.txt";
/// The largest source compiled.
const MAX_SOURCE: u64 = 64 << 20;
/// Files a build may keep.
const BUILD_FILES: u64 = 1024;
/// How deep a build's folders may nest.
const BUILD_DEPTH: usize = 32;
/// Compiler messages shown, in lines.
const MESSAGE_LINES: usize = 40;

/// A file a build sees beside its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Companion {
    /// Its name in the build directory (no directories). (A submit-answer
    /// problem's folder of answers keeps its files here by their path in it.)
    pub(crate) name: String,
    /// Its content.
    pub(crate) bytes: Vec<u8>,
    /// Whether it is executable (a script a `build` script calls).
    pub(crate) executable: bool,
}

/// Compiles programs, caching builds and compiler versions.
#[derive(Debug)]
pub(crate) struct Compiler {
    cache: Cache,
    limits: DefaultLimits,
    versions: tokio::sync::Mutex<HashMap<String, String>>,
    toolchains: tokio::sync::Mutex<HashMap<String, Option<PathBuf>>>,
    /// One lock per build key: a build asked for while the same one is
    /// under way waits for it and takes it from the cache.
    underway: Underway,
    /// Precompiled headers.
    headers: Headers,
}

impl Compiler {
    /// A compiler storing builds in `cache`.
    pub(crate) fn new(cache: Cache, limits: DefaultLimits, pch_dir: PathBuf) -> Compiler {
        Compiler {
            headers: Headers::new(pch_dir),
            cache,
            limits,
            versions: tokio::sync::Mutex::new(HashMap::new()),
            toolchains: tokio::sync::Mutex::new(HashMap::new()),
            underway: Underway::default(),
        }
    }

    /// Builds `source` as `language`, from the cache when possible.
    /// Compilation runs in `sandbox`; a ready executable is copied into the
    /// build cache like a source, so the sandbox can show it to runs.
    /// `companions` are files the build sees beside the source (headers, the
    /// other files of a program that is a directory); they are part of the
    /// build's key. A compile error is remembered only with `remember_failure`
    /// (not for package programs: one may fail for want of something outside
    /// what the key sees, a system header, and be fixed without a change here).
    #[expect(
        clippy::too_many_arguments,
        reason = "a build: what, in which language, where, beside what, how remembered"
    )]
    pub(crate) async fn build(
        &self,
        source: &Path,
        text: Option<&[u8]>,
        language: &Language,
        sandbox: &Sandbox,
        companions: &[Companion],
        remember_failure: bool,
        slots: &tokio::sync::Semaphore,
    ) -> Result<Build> {
        let source = crate::config::absolute(source);
        let bytes = match text {
            Some(text) => text.to_vec(),
            // Never waiting on a pipe, never reading a device forever.
            None => sandbox::untrusted::open_regular(&source)
                .and_then(|f| sandbox::untrusted::read_capped(f, MAX_SOURCE))
                .map_err(|e| Error::io(&source, e))?,
        };
        let toolchain = self.toolchain(language).await?;
        let version = self.version(language, toolchain.as_deref()).await?;
        let name = source_name(&source, language, &bytes);
        let mut companion_key = Vec::new();
        for c in companions {
            companion_key.extend_from_slice(c.name.as_bytes());
            companion_key.push(u8::from(c.executable));
            companion_key.extend_from_slice(Key::of(&[&c.bytes]).as_str().as_bytes());
            companion_key.push(0);
        }
        let key = Key::of(&[
            b"build-v3",
            &companion_key,
            language.id.as_bytes(),
            language
                .compile
                .as_ref()
                .map(|c| c.join(" "))
                .unwrap_or_default()
                .as_bytes(),
            language.run.join(" ").as_bytes(),
            name.as_bytes(),
            version.as_bytes(),
            toolchain
                .as_deref()
                .map(|t| t.as_os_str().as_encoded_bytes())
                .unwrap_or_default(),
            &bytes,
        ]);
        // A language nothing compiles: its runs' program (`pyctd`) is
        // checked here, cached or not, as a compiled language's is below.
        if language.compile.is_none() {
            if let Some(program) = run_program(&language.run).map(OsString::from) {
                if let Some(why) = sandbox.hidden_program(&program, &[]) {
                    return Err(Error::MissingTool {
                        language: language.id.clone(),
                        program: program.to_string_lossy().into_owned(),
                        install: language.install_hint(),
                        source: std::io::Error::other(format!("runs cannot see it: {why}")),
                    });
                }
            }
        }
        if let Some(dir) = self.cache.get(Kind::Build, &key) {
            return Ok(self.cached_build(&source, language, key, dir, &name, toolchain));
        }
        let _turn = self.underway.turn(&key).await;
        if let Some(dir) = self.cache.get(Kind::Build, &key) {
            return Ok(self.cached_build(&source, language, key, dir, &name, toolchain));
        }
        // Before the slot: building the header takes one of its own.
        let header_dir = self
            .header_dir(
                language,
                &bytes,
                sandbox,
                toolchain.as_deref(),
                &version,
                slots,
            )
            .await;
        let _slot = slots.acquire().await.expect("never closed");
        let scratch = self.cache.scratch_dir()?;
        for c in companions {
            let path = scratch.path().join(&c.name);
            std::fs::write(&path, &c.bytes).map_err(|e| Error::io(&path, e))?;
            if c.executable {
                set_mode(&path, 0o755)?;
            }
        }
        let src = scratch.path().join(&name);
        std::fs::write(&src, &bytes).map_err(|e| Error::io(&src, e))?;
        if language.id == crate::config::EXECUTABLE || language.id == crate::config::BUILD_RUN {
            set_mode(&src, 0o755)?;
        }
        let Some(compile) = &language.compile else {
            let dir = self.publish(&key, scratch)?;
            return Ok(self.cached_build(&source, language, key, dir, &name, toolchain));
        };
        let exe_path = scratch.path().join(EXE_NAME);
        // `{files}`: the source, then the other sources of its language
        // beside it (a program that is a directory), in byte order.
        let mut files = vec![src.clone()];
        let mut others: Vec<&Companion> = companions
            .iter()
            .filter(|c| {
                Path::new(&c.name)
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| language.extensions.iter().any(|x| x == e))
            })
            .collect();
        others.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        files.extend(others.iter().map(|c| scratch.path().join(&c.name)));
        let paths = Paths {
            src: &src,
            exe: &exe_path,
            dir: scratch.path(),
            toolchain: toolchain.as_deref(),
            files: &files,
        };
        let mut argv = fill(compile, &paths, None);
        let borrowed = self.borrowed(language).await;
        let shown: Vec<PathBuf> = toolchain
            .iter()
            .chain(&language.toolchain_dirs)
            .chain(&borrowed)
            .cloned()
            .collect();
        if let Some(dir) = &header_dir {
            let mut flag = OsString::from("-I");
            flag.push(dir);
            argv.insert(1, flag);
        }
        let mut env = language.env.clone();
        if !borrowed.is_empty() {
            let bins = borrowed.iter().map(|d| d.join("bin"));
            let path = std::env::join_paths(
                std::env::split_paths(crate::sandbox::SYSTEM_PATH).chain(bins),
            )
            .map_err(|e| Error::io(&source, std::io::Error::other(e)))?;
            env.push(("PATH".into(), path.to_string_lossy().into_owned()));
        }
        // A program outside what the sandbox shows would fail there with a
        // confusing error: say so now, naming it.
        let run_program = run_program(&language.run);
        for (program, dirs, who) in [
            (argv.first().cloned(), &shown[..], "compilations"),
            (run_program.map(OsString::from), &[][..], "runs"),
        ] {
            let Some(program) = program else { continue };
            // A program of the build itself (a `build` script) is in the
            // build directory, which its compilation sees.
            if Path::new(&program).starts_with(scratch.path()) {
                continue;
            }
            if let Some(why) = sandbox.hidden_program(&program, dirs) {
                return Err(Error::MissingTool {
                    language: language.id.clone(),
                    program: program.to_string_lossy().into_owned(),
                    install: language.install_hint(),
                    source: std::io::Error::other(format!("{who} cannot see it: {why}")),
                });
            }
        }
        // A package's own program (not remembered when it fails) may take
        // as long as its runs may: a `build` script compiling several files
        // is not held to a submission's compile limit.
        let compile_time = match remember_failure {
            true => self.limits.compile_time,
            false => self.limits.compile_time.max(self.limits.package_time),
        };
        let request = RunRequest {
            argv,
            cwd: scratch.path().to_path_buf(),
            stdin: Stdin::Null,
            stdout_spill: None,
            stdout_to: None,
            environment: Environment::Minimal(env),
            limits: sandbox::Limits {
                cpu_time: compile_time,
                // The limit is of CPU time; the wall may run three times
                // as long (a compiler's children, e.g. `kotlinc`'s JVM or
                // gcc's cc1plus, wait for a CPU on a loaded machine, and
                // that must not fail a build).
                wall_time: compile_time * 3,
                memory: None,
                address_space: false,
                stdout: self.limits.compile_output,
                stderr: self.limits.compile_output,
                file_size: self.limits.compile_disk,
                output_ends_run: true,
            },
            program_dir: None,
            exchange: Default::default(),
        };
        let profile = Profile::Compile {
            memory: self.limits.compile_memory,
            disk: self.limits.compile_disk,
            toolchain: shown,
            headers: header_dir,
            keep: kept(language, self.limits.build_size),
        };
        let outcome = sandbox
            .run(&request, profile)
            .await
            .map_err(|e| Error::from_run(e, Some((&language.id, language.install_hint()))))?;
        let time_ms = outcome.wall_time.as_millis() as u64;
        let mut text = String::from_utf8_lossy(&outcome.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(
            &outcome.stdout.to_vec().unwrap_or_default(),
        ));
        let prefix = format!("{}/", scratch.path().display());
        let inner = format!("{}/", crate::sandbox::keeper::WORK_MOUNT);
        let message = trim_message(&text.replace(&prefix, "").replace(&inner, ""));
        // One rule whichever mechanism fired first: the judge's measure, or
        // the rlimit backstop stopping the compiler or one of its children
        // (gcc's cc1plus, reported by the driver).
        let limit_hit = match outcome.limit_hit {
            None if !outcome.success() && child_hit_cpu_rlimit(&text) => Some(LimitHit::CpuTime),
            hit => hit,
        };
        let stopped = match limit_hit {
            _ if outcome.success() && outcome.keep_error.is_some() => outcome.keep_error.clone(),
            Some(LimitHit::CpuTime) => Some(format!(
                "compilation exceeded the compile time limit of {}",
                humantime::format_duration(compile_time)
            )),
            Some(LimitHit::WallTime) => Some(format!(
                "compilation exceeded the compile time limit of {} (wall time {} with {} ms of CPU time: the compiler slept, or the machine is overloaded)",
                humantime::format_duration(compile_time),
                humantime::format_duration(compile_time * 3),
                outcome.cpu_time.as_millis()
            )),
            Some(LimitHit::Output) => Some(format!(
                "compiler output exceeded the limit of {} bytes",
                self.limits.compile_output
            )),
            None if outcome.stderr_truncated => Some(format!(
                "compiler output exceeded the limit of {} bytes",
                self.limits.compile_output
            )),
            None => None,
        };
        if let Some(reason) = stopped {
            let message = if message.is_empty() {
                reason
            } else {
                format!("{reason}\n{message}")
            };
            return Ok(failed_build(message, time_ms));
        }
        if !outcome.success() {
            let message = if message.is_empty() {
                format!("compiler failed with {}", outcome.describe_exit())
            } else {
                message
            };
            if remember_failure {
                self.publish_failure(&key, scratch, &message)?;
            }
            return Ok(failed_build(message, time_ms));
        }
        // A program to run, where its run needs one (rustc makes a library
        // of a `#![crate_type = "lib"]` file, a compile-time program may
        // delete it).
        let made = scratch.path().join(EXE_NAME);
        if uses(&language.run, "{exe}") && !sandbox::is_executable_file(&made) {
            let message = format!(
                "the compiler made no program to run (no executable `{EXE_NAME}`){}",
                if message.is_empty() {
                    String::new()
                } else {
                    format!("\n{message}")
                }
            );
            if remember_failure {
                self.publish_failure(&key, scratch, &message)?;
            }
            return Ok(failed_build(message, time_ms));
        }
        let dir = self.publish(&key, scratch)?;
        let exe = Executable {
            language: language.clone(),
            source,
            key,
            src: dir.join(&name),
            dir,
            toolchain,
            package: None,
            run_as: None,
        };
        Ok(Build::Ready(
            Box::new(exe),
            CompileReport {
                status: CompileStatus::Ok,
                message,
                time_ms,
                cached: false,
            },
        ))
    }

    /// Moves a finished build directory into the cache, readable by the
    /// sandbox's unprivileged uid.
    fn publish(&self, key: &Key, scratch: tempfile::TempDir) -> Result<PathBuf> {
        set_mode(scratch.path(), 0o755)?;
        self.cache.put_dir(Kind::Build, key, &scratch.keep())
    }

    /// Keeps a failed compilation's `message` in the cache under `key`, so
    /// the same source is not compiled again to fail again.
    fn publish_failure(&self, key: &Key, scratch: tempfile::TempDir, message: &str) -> Result<()> {
        let marker = marker_path(scratch.path());
        std::fs::write(&marker, message).map_err(|e| Error::io(&marker, e))?;
        self.publish(key, scratch)?;
        Ok(())
    }

    fn cached_build(
        &self,
        source: &Path,
        language: &Language,
        key: Key,
        dir: PathBuf,
        name: &str,
        toolchain: Option<PathBuf>,
    ) -> Build {
        if let Ok(message) = std::fs::read_to_string(marker_path(&dir)) {
            return Build::Failed(CompileReport {
                status: CompileStatus::Error,
                message,
                time_ms: 0,
                cached: true,
            });
        }
        let report = if language.compile.is_some() {
            CompileReport {
                status: CompileStatus::Ok,
                message: String::new(),
                time_ms: 0,
                cached: true,
            }
        } else {
            none_report()
        };
        let exe = Executable {
            language: language.clone(),
            source: source.to_path_buf(),
            key,
            src: dir.join(name),
            dir,
            toolchain,
            package: None,
            run_as: None,
        };
        Build::Ready(Box::new(exe), report)
    }

    /// Whether `language` can be used here: its toolchain probe works, its
    /// compiler and run program are installed, and its version command
    /// answers. Returns the version's first line.
    pub(crate) async fn check_language(&self, language: &Language) -> Result<String> {
        let toolchain = self.toolchain(language).await?;
        let none = Path::new("");
        let paths = Paths {
            src: none,
            exe: none,
            dir: none,
            toolchain: toolchain.as_deref(),
            files: &[],
        };
        let compiler = language.compile.as_deref().and_then(|c| c.first());
        for program in compiler.into_iter().chain(run_program(&language.run)) {
            let program = fill(std::slice::from_ref(program), &paths, None).remove(0);
            let resolved = sandbox::resolve_program(&program);
            if !Path::new(&resolved).is_file() {
                return Err(Error::MissingTool {
                    language: language.id.clone(),
                    program: program.to_string_lossy().into_owned(),
                    install: language.install_hint(),
                    source: std::io::Error::other(format!(
                        "not found on {}",
                        crate::sandbox::SYSTEM_PATH
                    )),
                });
            }
        }
        let version = self.version(language, toolchain.as_deref()).await?;
        Ok(version
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
            .to_string())
    }

    /// The include directory holding `language`'s precompiled header, if it
    /// has one and it can be had (see [`pch`](super::pch)).
    async fn header_dir(
        &self,
        language: &Language,
        source: &[u8],
        sandbox: &Sandbox,
        toolchain: Option<&Path>,
        version: &str,
        slots: &tokio::sync::Semaphore,
    ) -> Option<PathBuf> {
        let compile = language.compile.as_ref()?;
        let header = language.precompiled_header.as_ref()?;
        // Building it costs seconds: only for a source that names it (one
        // that does not is offered it when it is there, to no effect).
        let wanted = source.windows(header.len()).any(|w| w == header.as_bytes());
        let kept = Paths {
            src: Path::new("{src}"),
            exe: Path::new("{exe}"),
            dir: Path::new("{dir}"),
            toolchain,
            files: &[],
        };
        let shown: Vec<PathBuf> = toolchain
            .map(Path::to_path_buf)
            .into_iter()
            .chain(language.toolchain_dirs.iter().cloned())
            .collect();
        let needs = Needs {
            language,
            build: wanted,
            compile: &fill(compile, &kept, None),
            version,
            shown: &shown,
            sandbox,
            limits: &self.limits,
            slots,
        };
        self.headers.include_dir(&needs).await
    }

    /// The toolchain directory of a language with a `toolchain` probe,
    /// asked once per probe per judge run. The probe is judge.toml's
    /// command, trusted: it runs outside the sandbox, with the judge's
    /// environment (a version manager such as rustup needs it).
    async fn toolchain(&self, language: &Language) -> Result<Option<PathBuf>> {
        match &language.toolchain {
            Some(argv) => self.probe_toolchain(language, argv).await.map(Some),
            None => Ok(None),
        }
    }

    /// The directory `argv` prints (for `language`'s errors), remembered.
    async fn probe_toolchain(&self, language: &Language, argv: &[String]) -> Result<PathBuf> {
        let memo = argv.join(" ");
        let mut toolchains = self.toolchains.lock().await;
        if let Some(Some(t)) = toolchains.get(&memo) {
            return Ok(t.clone());
        }
        let missing = |program: String, why: String| Error::MissingTool {
            language: language.id.clone(),
            program,
            install: language.install_hint(),
            source: std::io::Error::other(why),
        };
        let outcome = probe(
            argv.iter().map(OsString::from).collect(),
            Environment::Inherit,
            self.limits.probe_time,
        )
        .await
        .map_err(|e| Error::from_run(e, Some((&language.id, language.install_hint()))))?;
        let text = String::from_utf8_lossy(&outcome.stdout.to_vec().unwrap_or_default())
            .trim()
            .to_string();
        if !outcome.success() {
            return Err(missing(
                argv.join(" "),
                format!(
                    "the toolchain probe failed with {}: {}",
                    outcome.describe_exit(),
                    String::from_utf8_lossy(&outcome.stderr).trim()
                ),
            ));
        }
        let dir = std::fs::canonicalize(&text)
            .ok()
            .filter(|d| d.is_dir() && d.parent().is_some());
        let Some(dir) = dir else {
            return Err(missing(
                argv.join(" "),
                format!("the toolchain probe printed `{text}`, not a directory"),
            ));
        };
        toolchains.insert(memo, Some(dir.clone()));
        Ok(dir)
    }

    /// The toolchains a `build` script may call: those whose probes work
    /// (a language not installed here is no reason to fail the build).
    async fn borrowed(&self, language: &Language) -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        for argv in &language.borrowed_toolchains {
            if let Ok(dir) = self.probe_toolchain(language, argv).await {
                dirs.push(dir);
            }
        }
        dirs
    }

    /// The compiler's version text, asked once per language per judge run.
    async fn version(&self, language: &Language, toolchain: Option<&Path>) -> Result<String> {
        let mut versions = self.versions.lock().await;
        if let Some(v) = versions.get(&language.id) {
            return Ok(v.clone());
        }
        let Some(template) = &language.version else {
            return Ok(String::new());
        };
        let none = Path::new("");
        let paths = Paths {
            src: none,
            exe: none,
            dir: none,
            toolchain,
            files: &[],
        };
        let argv: Vec<String> = fill(template, &paths, None)
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        // Asking costs a process start (milliseconds, more than judging a
        // small test): remembered across runs for the same compiler binary.
        let memo = version_memo_key(&argv);
        if let Some(text) = memo
            .as_ref()
            .and_then(|k| self.cache.get(Kind::Version, k))
            .and_then(|p| std::fs::read_to_string(p).ok())
        {
            versions.insert(language.id.clone(), text.clone());
            return Ok(text);
        }
        let outcome = probe(
            argv.iter().map(OsString::from).collect(),
            Environment::Minimal(language.env.clone()),
            self.limits.probe_time,
        )
        .await
        .map_err(|e| Error::from_run(e, Some((&language.id, language.install_hint()))))?;
        let mut text = outcome.stdout.to_vec().unwrap_or_default();
        text.extend_from_slice(&outcome.stderr);
        let version = String::from_utf8_lossy(&text).into_owned();
        if let (Some(key), true) = (&memo, outcome.success()) {
            self.cache
                .put_bytes(Kind::Version, key, version.as_bytes())?;
        }
        versions.insert(language.id.clone(), version.clone());
        Ok(version)
    }
}

/// Whether a compiler's output says one of its processes was stopped at its
/// CPU rlimit: SIGXCPU's own description, as a compiler driver reports a
/// child it lost that way ("CPU time limit exceeded signal terminated
/// program cc1plus") and as a shell reports a command.
fn child_hit_cpu_rlimit(output: &str) -> bool {
    output.contains("CPU time limit exceeded")
}

/// A failed compilation: `message`, after `time_ms`, not from the cache.
fn failed_build(message: String, time_ms: u64) -> Build {
    Build::Failed(CompileReport {
        status: CompileStatus::Error,
        message,
        time_ms,
        cached: false,
    })
}

/// Where a build directory marks a compile error. Nothing of what a
/// compilation left can be there: [`kept`] keeps only what runs need, and
/// never this name.
fn marker_path(dir: &Path) -> PathBuf {
    dir.join(ERROR_FILE)
}

/// Whether a command template uses `placeholder`.
fn uses(template: &[String], placeholder: &str) -> bool {
    template.iter().any(|w| w.contains(placeholder))
}

/// What of a compilation's work directory a language's runs need, and how
/// much it may be: the whole directory when the run names it (`{dir}`: a
/// JVM's class path, a `run` script), else the executable when it names
/// that; the sources are the judge's own copies.
fn kept(language: &Language, build_size: u64) -> sandbox::Keep {
    let select = if uses(&language.run, "{dir}") {
        sandbox::untrusted::Select::AllBut(vec![ERROR_FILE.into()])
    } else if uses(&language.run, "{exe}") {
        sandbox::untrusted::Select::Only(vec![EXE_NAME.into()])
    } else {
        sandbox::untrusted::Select::Only(Vec::new())
    };
    sandbox::Keep {
        select,
        limits: sandbox::untrusted::TreeLimits {
            bytes: build_size,
            files: BUILD_FILES,
            depth: BUILD_DEPTH,
        },
    }
}

/// The program a run command starts: its first word, past `env` and its
/// `NAME=value` words; None when it is a placeholder (the build's own).
fn run_program(run: &[String]) -> Option<&String> {
    let mut words = run.iter().peekable();
    if words
        .peek()
        .is_some_and(|w| *w == "env" || w.ends_with("/env"))
    {
        words.next();
        while words.peek().is_some_and(|w| w.contains('=')) {
            words.next();
        }
    }
    words.next().filter(|p| !p.contains('{'))
}

/// Runs a probe of judge.toml (a version or toolchain command): trusted, so
/// with the plain runner, `cpu_time` of CPU (judge.toml's `probe_time`,
/// generous: a compiler's first start on a slow or emulated machine takes
/// seconds, rustc's under emulation over 20) and twice that of wall time, in
/// a scratch directory.
async fn probe(
    argv: Vec<OsString>,
    environment: Environment,
    cpu_time: Duration,
) -> std::result::Result<sandbox::RunOutcome, RunError> {
    let request = RunRequest {
        argv,
        cwd: std::env::temp_dir(),
        stdin: Stdin::Null,
        stdout_spill: None,
        stdout_to: None,
        environment,
        limits: sandbox::Limits {
            cpu_time,
            wall_time: cpu_time.saturating_mul(2),
            memory: None,
            address_space: false,
            stdout: 64 << 10,
            stderr: 64 << 10,
            file_size: 1 << 20,
            output_ends_run: true,
        },
        program_dir: None,
        exchange: Default::default(),
    };
    sandbox::run(&request).await
}

/// The key under which the version text of `argv` is remembered: the
/// command and the identity of the binary it starts (device, inode, size,
/// change times). None when that binary is a script, such as a version
/// manager's shim, whose answer can change while the file does not.
fn version_memo_key(argv: &[String]) -> Option<Key> {
    use std::os::unix::fs::MetadataExt;
    let program = sandbox::resolve_program(&OsString::from(argv.first()?));
    let path = std::fs::canonicalize(program).ok()?;
    let mut magic = [0u8; 4];
    std::io::Read::read_exact(&mut std::fs::File::open(&path).ok()?, &mut magic).ok()?;
    if &magic != b"\x7fELF" {
        return None;
    }
    let m = std::fs::metadata(&path).ok()?;
    let identity = format!(
        "{} {} {} {} {} {} {}",
        path.display(),
        m.dev(),
        m.ino(),
        m.len(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime_nsec()
    );
    Some(Key::of(&[
        b"version-v1",
        argv.join("\0").as_bytes(),
        identity.as_bytes(),
    ]))
}

fn none_report() -> CompileReport {
    CompileReport {
        status: CompileStatus::None,
        message: String::new(),
        time_ms: 0,
        cached: false,
    }
}

/// The name the source gets in its build directory: the language's fixed
/// name (`Main.java`), else the file's own with every character but letters,
/// digits, `_` and `-` of its stem made `_`, so that the name cannot change a
/// verdict (rustc names the crate after the file: `alice/p.2.rs` would not
/// compile as it is).
pub(crate) fn source_name(source: &Path, language: &Language, text: &[u8]) -> String {
    if let Some(name) = &language.source_name {
        return match name.contains("{class}") {
            true => name.replace("{class}", &java_class(text, source)),
            false => name.clone(),
        };
    }
    let stem: String = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = if stem.is_empty() || stem == EXE_NAME || stem == "compile-error" {
        format!("source-{stem}")
    } else {
        stem
    };
    match source.extension() {
        Some(ext) => format!("{stem}.{}", ext.to_string_lossy()),
        None => stem,
    }
}

/// The class a Java source is run as: its public class (javac wants the
/// file named after it), else a class named after the file, else `Main`,
/// else the file's name. Comments are skipped; a name that is not an
/// identifier, or too long for a file's name, falls back to `Main`.
fn java_class(text: &[u8], source: &Path) -> String {
    let text = String::from_utf8_lossy(text);
    let mut code = String::with_capacity(text.len());
    let mut rest = text.as_ref();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
            code.push(' ');
        } else {
            let c = rest.chars().next().expect("not empty");
            code.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .collect();
    const MODIFIERS: &[&str] = &["final", "abstract", "static", "sealed", "strictfp"];
    // `object`: Scala's (its sources are named the same way).
    const KINDS: &[&str] = &["class", "interface", "enum", "record", "object"];
    let declared = |public: bool| -> Vec<&str> {
        let mut names = Vec::new();
        for (i, w) in words.iter().enumerate() {
            if public && *w != "public" {
                continue;
            }
            if !public && !KINDS.contains(w) {
                continue;
            }
            let mut j = if public { i + 1 } else { i };
            if public {
                while j < words.len() && MODIFIERS.contains(&words[j]) {
                    j += 1;
                }
                if j >= words.len() || !KINDS.contains(&words[j]) {
                    continue;
                }
            }
            if let Some(name) = words.get(j + 1) {
                names.push(*name);
            }
        }
        names
    };
    let stem = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let identifier = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && w.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let classes = declared(false);
    let chosen = declared(true)
        .first()
        .map(|c| c.to_string())
        .or_else(|| classes.contains(&stem.as_str()).then(|| stem.clone()))
        .or_else(|| classes.contains(&"Main").then(|| "Main".to_string()))
        .unwrap_or(stem);
    // A name no file can have (over 250 bytes) is not given to the file:
    // the compiler then says the class is in the wrong file (CE).
    if identifier(&chosen) && chosen.len() <= 250 {
        chosen
    } else {
        "Main".into()
    }
}

/// Keeps the first lines of a compiler message.
fn trim_message(text: &str) -> String {
    let text = text.trim_end();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MESSAGE_LINES {
        return text.to_string();
    }
    let mut kept = lines[..MESSAGE_LINES].join("\n");
    kept.push_str(&format!(
        "\n... ({} more lines)",
        lines.len() - MESSAGE_LINES
    ));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_long_messages() {
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let trimmed = trim_message(&text);
        assert_eq!(trimmed.lines().count(), MESSAGE_LINES + 1);
        assert!(trimmed.ends_with("... (60 more lines)"));
    }

    #[test]
    fn a_java_source_runs_as_its_public_class_else_its_file_else_main() {
        let class = |text: &str, file: &str| java_class(text.as_bytes(), Path::new(file));
        // A class name no file can have: `Main`, and javac's CE.
        let long = "C".repeat(300);
        assert_eq!(
            class(&format!("public class {long} {{}}"), "a.java"),
            "Main"
        );
        assert_eq!(
            class("public final class Different { }", "x.java"),
            "Different"
        );
        // A comment does not declare anything.
        assert_eq!(
            class(
                "// public class Nope\n/* public class No */ class Main {}",
                "a.java"
            ),
            "Main"
        );
        assert_eq!(
            class("class Helper {} class Solution {}", "Solution.java"),
            "Solution"
        );
        assert_eq!(
            class("class Helper {} class Main {}", "whatever.java"),
            "Main"
        );
        assert_eq!(class("class Helper {}", "Sol.java"), "Sol");
        // Not an identifier: Main.
        assert_eq!(class("class A {}", "1-bad.java"), "Main");
    }
}
