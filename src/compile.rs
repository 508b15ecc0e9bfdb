//! Compilation by language, with the content-addressed build cache. The main
//! types are [`Compiler`] and [`Executable`].
//!
//! A program is compiled in a private scratch directory under the same
//! machinery (and limits) as every other run, then moved into the cache under a
//! key made of the language, its commands, the compiler's version and the
//! source bytes. A compile error is cached too (it is as deterministic as a
//! success); a compile stopped by a limit is not.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::cache::{Cache, Key, Kind};
use crate::config::{DefaultLimits, Language};
use crate::error::{Error, Result};
use crate::sandbox::{self, Environment, LimitHit, Profile, RunError, RunRequest, Sandbox, Stdin};

/// Name of the produced executable inside a build directory.
const EXE_NAME: &str = "prog";
/// Marks a cached compile error inside a build directory.
const ERROR_FILE: &str = "compile-error.txt";
/// Compiler messages shown, in lines.
const MESSAGE_LINES: usize = 40;

/// A program ready to run.
#[derive(Debug, Clone)]
pub struct Executable {
    /// Its language.
    pub language: Language,
    /// The source (or executable) it was built from.
    pub source: PathBuf,
    /// Identity of the built program: same key, same behaviour.
    pub key: Key,
    dir: PathBuf,
    src: PathBuf,
}

impl Executable {
    /// The command line that runs it, with the memory limit filled in.
    pub fn argv(&self, memory: Option<u64>) -> Vec<OsString> {
        let exe = if self.language.compile.is_some() {
            self.dir.join(EXE_NAME)
        } else {
            self.src.clone()
        };
        fill(&self.language.run, &self.src, &exe, &self.dir, memory)
    }

    /// Whether the language's memory limit is an address-space rlimit.
    pub fn address_space_limit(&self) -> bool {
        self.language.address_space_limit
    }
}

/// How compilation went, as reported.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct CompileReport {
    /// `ok`, `error`, or `none` (nothing to compile).
    pub status: CompileStatus,
    /// Compiler messages (trimmed), or why the compile was stopped.
    pub message: String,
    /// Wall time of the compilation, ms (0 when cached).
    pub time_ms: u64,
    /// Whether the result came from the build cache.
    pub cached: bool,
}

/// Compilation status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompileStatus {
    /// Compiled.
    Ok,
    /// Compile error (CE).
    Error,
    /// Nothing to compile (interpreted without a check, or an executable).
    None,
}

/// The result of [`Compiler::build`].
#[derive(Debug)]
pub enum Build {
    /// A runnable program.
    Ready(Box<Executable>, CompileReport),
    /// A compile error.
    Failed(CompileReport),
}

/// Compiles programs, caching builds and compiler versions.
#[derive(Debug)]
pub struct Compiler {
    cache: Cache,
    limits: DefaultLimits,
    versions: tokio::sync::Mutex<HashMap<String, String>>,
}

impl Compiler {
    /// A compiler storing builds in `cache`.
    pub fn new(cache: Cache, limits: DefaultLimits) -> Compiler {
        Compiler {
            cache,
            limits,
            versions: tokio::sync::Mutex::new(HashMap::new()),
        }
    }

    /// Builds `source` as `language`, from the cache when possible.
    /// Compilation runs in `sandbox`; a ready executable is copied into the
    /// build cache like a source, so the sandbox can show it to runs.
    pub async fn build(
        &self,
        source: &Path,
        language: &Language,
        sandbox: &Sandbox,
    ) -> Result<Build> {
        let source = crate::config::absolute(source);
        let bytes = std::fs::read(&source).map_err(|e| Error::io(&source, e))?;
        let version = self.version(language).await?;
        let name = source_name(&source, language);
        let key = Key::of(&[
            b"build-v1",
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
            &bytes,
        ]);
        if let Some(dir) = self.cache.get(Kind::Build, &key) {
            return Ok(self.cached_build(&source, language, key, dir, &name));
        }
        let scratch = self.cache.scratch_dir()?;
        let src = scratch.path().join(&name);
        std::fs::write(&src, &bytes).map_err(|e| Error::io(&src, e))?;
        if language.id == crate::config::EXECUTABLE {
            set_mode(&src, 0o755)?;
        }
        let Some(compile) = &language.compile else {
            let dir = self.publish(&key, scratch)?;
            return Ok(self.cached_build(&source, language, key, dir, &name));
        };
        let argv = fill(
            compile,
            &src,
            &scratch.path().join(EXE_NAME),
            scratch.path(),
            None,
        );
        let request = RunRequest {
            argv,
            cwd: scratch.path().to_path_buf(),
            stdin: Stdin::Null,
            stdout_spill: None,
            environment: Environment::Inherit,
            limits: sandbox::Limits {
                cpu_time: self.limits.compile_time,
                wall_time: self.limits.compile_time,
                memory: None,
                address_space: false,
                stdout: self.limits.compile_output,
                stderr: self.limits.compile_output,
                file_size: 1 << 30,
            },
        };
        let profile = Profile::Compile {
            memory: self.limits.compile_memory,
        };
        let outcome = sandbox.run(&request, profile).await.map_err(|e| match e {
            RunError::Spawn { program, source } => Error::MissingTool {
                language: language.id.clone(),
                program,
                source,
            },
            RunError::Watch { program, source } => Error::Sandbox { program, source },
        })?;
        let time_ms = outcome.wall_time.as_millis() as u64;
        let mut text = String::from_utf8_lossy(&outcome.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(
            &outcome.stdout.to_vec().unwrap_or_default(),
        ));
        let prefix = format!("{}/", scratch.path().display());
        let inner = format!("{}/", crate::sandbox::keeper::WORK_MOUNT);
        let message = trim_message(&text.replace(&prefix, "").replace(&inner, ""));
        let stopped = match outcome.limit_hit {
            Some(LimitHit::CpuTime | LimitHit::WallTime) => Some(format!(
                "compilation exceeded the compile time limit of {}",
                humantime::format_duration(self.limits.compile_time)
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
            return Ok(Build::Failed(CompileReport {
                status: CompileStatus::Error,
                message,
                time_ms,
                cached: false,
            }));
        }
        if !outcome.success() {
            let message = if message.is_empty() {
                format!("compiler failed with {}", outcome.describe_exit())
            } else {
                message
            };
            let marker = scratch.path().join(ERROR_FILE);
            std::fs::write(&marker, &message).map_err(|e| Error::io(&marker, e))?;
            self.publish(&key, scratch)?;
            return Ok(Build::Failed(CompileReport {
                status: CompileStatus::Error,
                message,
                time_ms,
                cached: false,
            }));
        }
        let dir = self.publish(&key, scratch)?;
        let exe = Executable {
            language: language.clone(),
            source,
            key,
            src: dir.join(&name),
            dir,
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

    fn cached_build(
        &self,
        source: &Path,
        language: &Language,
        key: Key,
        dir: PathBuf,
        name: &str,
    ) -> Build {
        if let Ok(message) = std::fs::read_to_string(dir.join(ERROR_FILE)) {
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
        };
        Build::Ready(Box::new(exe), report)
    }

    /// The compiler's version text, asked once per language per judge run.
    async fn version(&self, language: &Language) -> Result<String> {
        let mut versions = self.versions.lock().await;
        if let Some(v) = versions.get(&language.id) {
            return Ok(v.clone());
        }
        let Some(argv) = &language.version else {
            return Ok(String::new());
        };
        // Asking costs a process start (milliseconds, more than judging a
        // small test): remembered across runs for the same compiler binary.
        let memo = version_memo_key(argv);
        if let Some(text) = memo
            .as_ref()
            .and_then(|k| self.cache.get(Kind::Version, k))
            .and_then(|p| std::fs::read_to_string(p).ok())
        {
            versions.insert(language.id.clone(), text.clone());
            return Ok(text);
        }
        let request = RunRequest {
            argv: argv.iter().map(OsString::from).collect(),
            cwd: std::env::temp_dir(),
            stdin: Stdin::Null,
            stdout_spill: None,
            environment: Environment::Inherit,
            limits: sandbox::Limits {
                cpu_time: Duration::from_secs(20),
                wall_time: Duration::from_secs(20),
                memory: None,
                address_space: false,
                stdout: 64 << 10,
                stderr: 64 << 10,
                file_size: 1 << 20,
            },
        };
        let outcome = sandbox::run(&request).await.map_err(|e| match e {
            RunError::Spawn { program, source } => Error::MissingTool {
                language: language.id.clone(),
                program,
                source,
            },
            RunError::Watch { program, source } => Error::Sandbox { program, source },
        })?;
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

/// The key under which the version text of `argv` is remembered: the
/// command and the identity of the binary it starts (device, inode, size,
/// change times). None when that binary is a script, such as a version
/// manager's shim, whose answer can change while the file does not.
fn version_memo_key(argv: &[String]) -> Option<Key> {
    use std::os::unix::fs::MetadataExt;
    let program = sandbox::find_in_user_path(&OsString::from(argv.first()?));
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

fn set_mode(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| Error::io(path, e))
}

fn none_report() -> CompileReport {
    CompileReport {
        status: CompileStatus::None,
        message: String::new(),
        time_ms: 0,
        cached: false,
    }
}

fn source_name(source: &Path, language: &Language) -> String {
    if let Some(name) = &language.source_name {
        return name.clone();
    }
    source
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "source".into())
}

/// Fills a command template's placeholders.
fn fill(
    template: &[String],
    src: &Path,
    exe: &Path,
    dir: &Path,
    memory: Option<u64>,
) -> Vec<OsString> {
    let memory_mib = memory.map_or(1024, |m| m.div_ceil(1 << 20)).to_string();
    template
        .iter()
        .map(|word| match word.as_str() {
            "{src}" => src.as_os_str().to_owned(),
            "{exe}" => exe.as_os_str().to_owned(),
            "{dir}" => dir.as_os_str().to_owned(),
            _ => word
                .replace("{src}", &src.to_string_lossy())
                .replace("{exe}", &exe.to_string_lossy())
                .replace("{dir}", &dir.to_string_lossy())
                .replace("{memory_mib}", &memory_mib)
                .into(),
        })
        .collect()
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
    fn fill_placeholders() {
        let t: Vec<String> = ["java", "-Xmx{memory_mib}m", "-cp", "{dir}", "Main"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let argv = fill(
            &t,
            Path::new("/b/Main.java"),
            Path::new("/b/prog"),
            Path::new("/b"),
            Some(64 << 20),
        );
        assert_eq!(
            argv,
            ["java", "-Xmx64m", "-cp", "/b", "Main"].map(OsString::from)
        );
    }

    #[test]
    fn trims_long_messages() {
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let trimmed = trim_message(&text);
        assert_eq!(trimmed.lines().count(), MESSAGE_LINES + 1);
        assert!(trimmed.ends_with("... (60 more lines)"));
    }
}
