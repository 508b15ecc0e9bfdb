//! Global settings from `judge.toml`: the language table, default limits,
//! parallelism and the cache directory. The main type is [`Config`].
//!
//! `judge.toml` is found in the current directory or its nearest ancestor (as
//! cargo finds `Cargo.toml`), or given with `--config`. Without one, the
//! built-in defaults (the `judge.toml` shipped with the project) apply and the
//! current directory is the workspace.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::error::{Error, Result, SpecError};
use crate::sandbox::CpuChoice;
use crate::units::{Bytes, Millis};

/// The file name looked for in the current directory and its ancestors.
pub(crate) const CONFIG_FILE: &str = "judge.toml";

/// The built-in configuration, used when no judge.toml is found.
pub(crate) const BUILTIN_CONFIG: &str = include_str!("../judge.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigDeserialize {
    jobs: Option<usize>,
    cpu: Option<CpuDeserialize>,
    cache_dir: Option<PathBuf>,
    pch_dir: Option<PathBuf>,
    problems_dir: Option<PathBuf>,
    testdata_dir: Option<PathBuf>,
    package_python: Option<String>,
    #[serde(default)]
    limits: LimitsDeserialize,
    #[serde(default)]
    languages: BTreeMap<String, LanguageDeserialize>,
}

/// `cpu = "auto"`, `"off"` or a CPU number.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum CpuDeserialize {
    Number(usize),
    Name(String),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsDeserialize {
    time: Option<Millis>,
    memory: Option<Bytes>,
    output: Option<Bytes>,
    compile_time: Option<Millis>,
    compile_output: Option<Bytes>,
    compile_memory: Option<Bytes>,
    compile_disk: Option<Bytes>,
    build_size: Option<Bytes>,
    package_time: Option<Millis>,
    package_memory: Option<Bytes>,
    package_output: Option<Bytes>,
    probe_time: Option<Millis>,
    keeper_start: Option<Millis>,
    wall_factor: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguageDeserialize {
    name: Option<String>,
    #[serde(default)]
    extensions: Vec<String>,
    compile: Option<String>,
    run: String,
    version: Option<String>,
    source_name: Option<String>,
    #[serde(default = "default_true")]
    address_space_limit: bool,
    #[serde(default)]
    env: BTreeMap<String, String>,
    toolchain: Option<String>,
    #[serde(default)]
    toolchain_dirs: Vec<PathBuf>,
    debian: Option<String>,
    install: Option<String>,
    time_factor: Option<f64>,
    precompiled_header: Option<String>,
}

fn default_true() -> bool {
    true
}

/// Validated global settings.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// The workspace root: the directory of judge.toml.
    pub(crate) root: PathBuf,
    /// Tests run at once.
    pub(crate) jobs: NonZeroUsize,
    /// Whether a one-job judging keeps to one CPU (`cpu`).
    pub(crate) cpu: CpuChoice,
    /// Where builds, generated inputs and answers are cached.
    pub(crate) cache_dir: PathBuf,
    /// Where precompiled headers are kept (default: in the cache).
    pub(crate) pch_dir: PathBuf,
    /// Where problems are looked up by id.
    pub(crate) problems_dir: PathBuf,
    /// Where fixed tests live, one folder per problem id.
    pub(crate) testdata_dir: PathBuf,
    /// Limits used when a problem does not set its own.
    pub(crate) limits: DefaultLimits,
    /// The language table, in a stable order.
    pub(crate) languages: Vec<Language>,
    /// The language of `.py` submissions in Kattis/ICPC packages
    /// (`package_python`): "auto" is PyPy where installed, as problemtools
    /// and BAPCtools run them.
    pub(crate) package_python: String,
}

/// Default limits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DefaultLimits {
    /// CPU time per test.
    pub(crate) time: Duration,
    /// Memory per test, bytes.
    pub(crate) memory: u64,
    /// Output (stdout) per test, bytes.
    pub(crate) output: u64,
    /// Wall time of a compilation (CPU time is limited the same).
    pub(crate) compile_time: Duration,
    /// Compiler output kept, bytes.
    pub(crate) compile_output: u64,
    /// Memory of a compilation (in the sandbox's cgroup), bytes.
    pub(crate) compile_memory: u64,
    /// What a compilation may write: its work directory and its /tmp may
    /// each hold this much, and no file may be larger, bytes.
    pub(crate) compile_disk: u64,
    /// What a build may keep (the files its runs need), bytes: more is CE.
    pub(crate) build_size: u64,
    /// CPU time of a package program (generator, validator, reference,
    /// checker, interactor) per run; its wall time is twice that.
    pub(crate) package_time: Duration,
    /// Memory of a package program per run, bytes.
    pub(crate) package_memory: u64,
    /// Output a package program may write (a generator's input, a
    /// reference's answer), bytes.
    pub(crate) package_output: u64,
    /// CPU time of a toolchain or version probe of judge.toml (trusted, run
    /// outside the sandbox); its wall time is twice that.
    pub(crate) probe_time: Duration,
    /// How long the judge waits for a new sandbox keeper to say it is ready.
    pub(crate) keeper_start: Duration,
    /// Wall-time limit as a multiple of the time limit.
    pub(crate) wall_factor: f64,
}

/// One language: how to recognise, compile and run it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Language {
    /// Key in the table, used by `--lang` (e.g. `cpp`).
    pub(crate) id: String,
    /// Display name (e.g. `C++`).
    pub(crate) name: String,
    /// File extensions without the dot.
    pub(crate) extensions: Vec<String>,
    /// Compile command template (argv), if the language is compiled.
    pub(crate) compile: Option<Vec<String>>,
    /// Run command template (argv).
    pub(crate) run: Vec<String>,
    /// Command whose output identifies the compiler version (cache key).
    pub(crate) version: Option<Vec<String>>,
    /// File name the source must have when compiled (e.g. `Main.java`).
    pub(crate) source_name: Option<String>,
    /// Whether the memory limit is applied as an address-space rlimit
    /// (off for runtimes such as the JVM that reserve far more than they use).
    pub(crate) address_space_limit: bool,
    /// Variables added to the fixed environment of its compilations and runs.
    pub(crate) env: Vec<(String, String)>,
    /// A command (run with the judge's own environment, outside the sandbox)
    /// that prints the toolchain's directory: shown to compilations, and
    /// `{toolchain}` in the commands (e.g. `rustc --print sysroot`).
    pub(crate) toolchain: Option<Vec<String>>,
    /// More directories its compilations see (read-only), besides the
    /// system's.
    pub(crate) toolchain_dirs: Vec<PathBuf>,
    /// Toolchain probes of other languages whose compilers its compilation
    /// may call (shown, with their `bin` on its PATH): a `build` script's.
    pub(crate) borrowed_toolchains: Vec<Vec<String>>,
    /// Debian packages that provide the toolchain (named when it is missing).
    pub(crate) debian: Vec<String>,
    /// How else to install it (a command, named when it is missing).
    pub(crate) install: Option<String>,
    /// The problem's time limit is multiplied by this for the language.
    pub(crate) time_factor: f64,
    /// A header (`bits/stdc++.h`) precompiled once and offered to its
    /// compilations.
    pub(crate) precompiled_header: Option<String>,
}

/// The pseudo-language of a file that is already an executable.
pub(crate) const EXECUTABLE: &str = "executable";

impl Language {
    /// The language of a ready executable: run as it is.
    pub(crate) fn executable() -> Language {
        Language {
            id: EXECUTABLE.into(),
            name: "executable".into(),
            extensions: vec![],
            compile: None,
            run: vec!["{exe}".into()],
            version: None,
            source_name: None,
            address_space_limit: true,
            env: Vec::new(),
            toolchain: None,
            toolchain_dirs: Vec::new(),
            borrowed_toolchains: Vec::new(),
            debian: Vec::new(),
            install: None,
            time_factor: 1.0,
            precompiled_header: None,
        }
    }
}

impl Language {
    /// How to install the toolchain, for a missing-tool error: judge.toml's
    /// `debian` packages, or nothing.
    pub(crate) fn install_hint(&self) -> String {
        match (self.debian.is_empty(), &self.install) {
            (true, None) => String::new(),
            (false, None) => format!(
                " (on Debian or Ubuntu: apt-get install {})",
                self.debian.join(" ")
            ),
            (true, Some(how)) => format!(" (install it: {how})"),
            (false, Some(how)) => format!(
                " (install it: {how}; on Debian or Ubuntu it needs apt-get install {})",
                self.debian.join(" ")
            ),
        }
    }
}

/// The pseudo-language of a program that is a directory with a `build`
/// script making a `run` script (the ICPC package format's).
pub(crate) const BUILD_RUN: &str = "build-run";

/// The pseudo-language of a submit-answer problem's submissions: answers,
/// checked as they are (nothing is built or run).
pub(crate) const ANSWERS: &str = "answers";

impl Language {
    /// A submit-answer problem's submissions.
    pub(crate) fn answers() -> Language {
        Language {
            id: ANSWERS.into(),
            name: "answers (submit-answer: checked as they are, nothing runs)".into(),
            run: Vec::new(),
            ..Language::executable()
        }
    }
}

impl Language {
    /// The language of a `build`/`run` program: `build` runs in the build
    /// directory (in the compile sandbox, which shows the system's
    /// directories and the toolchains of `config`'s languages, so that a
    /// script may call `rustc` installed by rustup), `run` is run.
    pub(crate) fn build_run(config: &Config) -> Language {
        let mut toolchain_dirs: Vec<PathBuf> = Vec::new();
        for dir in config.languages.iter().flat_map(|l| &l.toolchain_dirs) {
            if !toolchain_dirs.contains(dir) {
                toolchain_dirs.push(dir.clone());
            }
        }
        Language {
            toolchain_dirs,
            borrowed_toolchains: config
                .languages
                .iter()
                .filter_map(|l| l.toolchain.clone())
                .collect(),
            id: BUILD_RUN.into(),
            name: "build/run scripts".into(),
            compile: Some(vec!["{dir}/build".into()]),
            run: vec!["{dir}/run".into()],
            source_name: Some("build".into()),
            version: Some(vec!["true".into()]),
            ..Language::executable()
        }
    }
}

/// The placeholders allowed in command templates.
pub(crate) const PLACEHOLDERS: &[&str] = &[
    "{src}",
    "{exe}",
    "{dir}",
    "{name}",
    "{memory_mib}",
    "{toolchain}",
    "{files}",
];

impl Config {
    /// Finds and loads judge.toml: `explicit` if given, else the nearest one
    /// from `start` upwards, else the built-in defaults rooted at `start`.
    pub(crate) fn discover(explicit: Option<&Path>, start: &Path) -> Result<Config> {
        if let Some(path) = explicit {
            let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
            let abs = absolute(path);
            let root = abs.parent().map(Path::to_path_buf).unwrap_or_default();
            return Config::parse(&text, Some(abs), root);
        }
        let start = absolute(start);
        for dir in start.ancestors() {
            let candidate = dir.join(CONFIG_FILE);
            if candidate.is_file() {
                let text =
                    std::fs::read_to_string(&candidate).map_err(|e| Error::io(&candidate, e))?;
                return Config::parse(&text, Some(candidate), dir.to_path_buf());
            }
        }
        Config::parse(BUILTIN_CONFIG, None, start)
    }

    /// Parses and validates a judge.toml text.
    pub(crate) fn parse(text: &str, path: Option<PathBuf>, root: PathBuf) -> Result<Config> {
        let shown = path
            .clone()
            .unwrap_or_else(|| PathBuf::from("<built-in judge.toml>"));
        let wrap = |source: SpecError| Error::Config {
            path: shown.clone(),
            source,
        };
        let mut raw: ConfigDeserialize =
            toml::from_str(text).map_err(|e| wrap(SpecError::one(e.to_string().trim_end())))?;
        if path.is_some() {
            // A user's file adds to or overrides the built-in languages, one
            // table per language id; it need not repeat them all.
            let builtin: ConfigDeserialize =
                toml::from_str(BUILTIN_CONFIG).expect("built-in config parses");
            for (id, lang) in builtin.languages {
                raw.languages.entry(id).or_insert(lang);
            }
        }
        Config::validate(raw, root).map_err(wrap)
    }

    fn validate(raw: ConfigDeserialize, root: PathBuf) -> std::result::Result<Config, SpecError> {
        let mut problems = Vec::new();
        let l = raw.limits;
        let wall_factor = l.wall_factor.unwrap_or(3.0);
        if !(1.0..=100.0).contains(&wall_factor) {
            problems.push(format!(
                "limits.wall_factor: must be a number from 1 to 100, got {}",
                if wall_factor.abs() < 1e9 {
                    wall_factor.to_string()
                } else {
                    format!("{wall_factor:e}")
                }
            ));
        }
        // Waits that end in "could not judge": a machine slow enough to need
        // less than a second has no use for them, and zero would fail every run.
        for (key, wait) in [
            ("probe_time", l.probe_time),
            ("keeper_start", l.keeper_start),
        ] {
            if wait.is_some_and(|w| w.0 < Duration::from_secs(1)) {
                problems.push(format!("limits.{key}: must be at least 1s"));
            }
        }
        for (key, memory) in [
            ("memory", l.memory),
            ("compile_memory", l.compile_memory),
            ("package_memory", l.package_memory),
        ] {
            if let Some(Err(why)) = memory.map(|m| crate::units::check_memory_limit(m.0)) {
                problems.push(format!("limits.{key}: {why}"));
            }
        }
        let limits = DefaultLimits {
            time: l.time.map_or(Duration::from_secs(1), |m| m.0),
            memory: l.memory.map_or(256 << 20, |b| b.0),
            output: l.output.map_or(64 << 20, |b| b.0),
            compile_time: l.compile_time.map_or(Duration::from_secs(60), |m| m.0),
            compile_output: l.compile_output.map_or(64 << 10, |b| b.0),
            compile_memory: l.compile_memory.map_or(2 << 30, |b| b.0),
            compile_disk: l.compile_disk.map_or(1 << 30, |b| b.0),
            build_size: l.build_size.map_or(256 << 20, |b| b.0),
            package_time: l.package_time.map_or(Duration::from_secs(60), |m| m.0),
            package_memory: l.package_memory.map_or(2 << 30, |b| b.0),
            package_output: l.package_output.map_or(512 << 20, |b| b.0),
            probe_time: l.probe_time.map_or(Duration::from_secs(60), |m| m.0),
            keeper_start: l.keeper_start.map_or(Duration::from_secs(20), |m| m.0),
            wall_factor,
        };
        let mut languages = Vec::new();
        let mut seen_ext: BTreeMap<String, String> = BTreeMap::new();
        for (id, lang) in raw.languages {
            let at = format!("languages.{id}");
            let compile = lang.compile.as_deref().map(split_template);
            let run = split_template(&lang.run);
            if run.is_empty() {
                problems.push(format!("{at}.run: must not be empty"));
            }
            if compile.as_ref().is_some_and(Vec::is_empty) {
                problems.push(format!("{at}.compile: must not be empty when present"));
            }
            let version_template = lang.version.as_deref().map(split_template);
            let toolchain = lang.toolchain.as_deref().map(split_template);
            if toolchain.as_ref().is_some_and(Vec::is_empty) {
                problems.push(format!("{at}.toolchain: must not be empty when present"));
            }
            for dir in &lang.toolchain_dirs {
                if !dir.is_absolute() {
                    problems.push(format!(
                        "{at}.toolchain_dirs: `{}` is not an absolute path",
                        dir.display()
                    ));
                }
            }
            for (key, template) in [
                ("compile", compile.as_ref()),
                ("run", Some(&run)),
                ("version", version_template.as_ref()),
            ] {
                for word in template.into_iter().flatten() {
                    check_placeholders(word, &format!("{at}.{key}"), &mut problems);
                }
            }
            for ext in &lang.extensions {
                let ext = ext.trim_start_matches('.').to_string();
                if let Some(other) = seen_ext.insert(ext.clone(), id.clone()) {
                    problems.push(format!(
                        "{at}.extensions: `{ext}` is already used by language `{other}`"
                    ));
                }
            }
            if let Some(header) = lang.precompiled_header.as_deref().filter(|h| !h.is_empty()) {
                let safe = header
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_+-./".contains(c));
                if !safe || header.starts_with('/') || header.split('/').any(|p| p == "..") {
                    problems.push(format!(
                        "{at}.precompiled_header: `{header}` is not a header name such as \
                         `bits/stdc++.h` (relative, no `..`)"
                    ));
                }
            }
            let time_factor = lang.time_factor.unwrap_or(1.0);
            if !(0.1..=20.0).contains(&time_factor) {
                problems.push(format!(
                    "{at}.time_factor: must be a number from 0.1 to 20, got {time_factor}"
                ));
            }
            if id == EXECUTABLE {
                problems.push(format!(
                    "{at}: `{EXECUTABLE}` is reserved for ready executables"
                ));
            }
            let version = version_template.or_else(|| {
                compile
                    .as_ref()
                    .or(Some(&run))
                    .and_then(|argv| argv.first())
                    .filter(|p| !p.contains('{'))
                    .map(|p| vec![p.clone(), "--version".into()])
            });
            languages.push(Language {
                name: lang.name.unwrap_or_else(|| id.clone()),
                extensions: lang
                    .extensions
                    .iter()
                    .map(|e| e.trim_start_matches('.').to_string())
                    .collect(),
                compile,
                run,
                version,
                source_name: lang.source_name,
                address_space_limit: lang.address_space_limit,
                env: lang.env.into_iter().collect(),
                toolchain,
                toolchain_dirs: lang.toolchain_dirs,
                borrowed_toolchains: Vec::new(),
                debian: lang
                    .debian
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
                install: lang.install,
                time_factor,
                precompiled_header: lang.precompiled_header.filter(|h| !h.is_empty()),
                id,
            });
        }
        let jobs = match raw.jobs {
            None => default_jobs(),
            Some(n) => NonZeroUsize::new(n).unwrap_or_else(|| {
                problems.push("jobs: must be at least 1 (leave it out to use every CPU)".into());
                NonZeroUsize::MIN
            }),
        };
        let cpu = match raw.cpu {
            None => CpuChoice::Auto,
            Some(CpuDeserialize::Number(n)) => CpuChoice::Cpu(n),
            Some(CpuDeserialize::Name(name)) => name.parse().unwrap_or_else(|e| {
                problems.push(format!("cpu: {e}"));
                CpuChoice::Auto
            }),
        };
        let package_python = raw.package_python.unwrap_or_else(|| "auto".into());
        if package_python != "auto" && !languages.iter().any(|l: &Language| l.id == package_python)
        {
            problems.push(format!(
                "package_python: `{package_python}` is not a language (\"auto\", \"pypy\" or \"python\")"
            ));
        }
        if !problems.is_empty() {
            return Err(SpecError { problems });
        }
        let join =
            |p: Option<PathBuf>, default: &str| root.join(p.unwrap_or_else(|| default.into()));
        Ok(Config {
            jobs,
            cpu,
            pch_dir: match raw.pch_dir {
                Some(dir) => root.join(dir),
                None => join(raw.cache_dir.clone(), ".judge-cache").join("pch"),
            },
            cache_dir: join(raw.cache_dir, ".judge-cache"),
            problems_dir: join(raw.problems_dir, "problems"),
            testdata_dir: join(raw.testdata_dir, "testdata"),
            limits,
            languages,
            package_python,
            root,
        })
    }

    /// The language that runs a `.py` submission of a Kattis/ICPC package,
    /// as the format's own tools run it: PyPy (`pypy`) where its command is
    /// installed, else none (the `.py` language); `package_python` in
    /// judge.toml chooses one.
    pub(crate) fn package_python_language(&self) -> Option<&Language> {
        if self.package_python != "auto" {
            return self.languages.iter().find(|l| l.id == self.package_python);
        }
        let pypy = self.languages.iter().find(|l| l.id == "pypy")?;
        let command = pypy.compile.as_ref().unwrap_or(&pypy.run);
        let program = command
            .iter()
            .find(|w| w.as_str() != "env" && !w.contains('='))?;
        let installed = ["/usr/local/bin", "/usr/bin", "/bin"]
            .iter()
            .any(|dir| Path::new(dir).join(program).is_file());
        installed.then_some(pypy)
    }

    /// The language with this id (`--lang`), or an error listing the known ones.
    pub(crate) fn language_by_id(&self, id: &str, file: &Path) -> Result<Language> {
        if id == EXECUTABLE {
            return Ok(Language::executable());
        }
        self.languages
            .iter()
            .find(|l| l.id == id || l.name.eq_ignore_ascii_case(id))
            .cloned()
            .ok_or_else(|| Error::Language {
                path: file.to_path_buf(),
                reason: format!("unknown language `{id}`; known: {}", self.known_languages()),
            })
    }

    /// Detects the language of `file` by its extension; a file without a known
    /// extension that is executable runs as it is.
    pub(crate) fn detect_language(&self, file: &Path) -> Result<Language> {
        let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !ext.is_empty() {
            let found = self
                .languages
                .iter()
                .find(|l| l.extensions.iter().any(|e| e == ext))
                .or_else(|| {
                    self.languages
                        .iter()
                        .find(|l| l.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
                });
            if let Some(lang) = found {
                return Ok(lang.clone());
            }
        }
        if crate::sandbox::is_executable_file(file) {
            return Ok(Language::executable());
        }
        let reason = if ext.is_empty() {
            "it has no extension and is not an executable file".to_string()
        } else {
            format!("unknown extension `.{ext}`")
        };
        Err(Error::Language {
            path: file.to_path_buf(),
            reason: format!(
                "{reason}; known languages: {} (or pass --lang)",
                self.known_languages()
            ),
        })
    }

    fn known_languages(&self) -> String {
        let mut names: Vec<String> = self
            .languages
            .iter()
            .map(|l| {
                let exts: Vec<String> = l.extensions.iter().map(|e| format!(".{e}")).collect();
                match exts.is_empty() {
                    true => l.id.clone(),
                    false => format!("{} ({})", l.id, exts.join(" ")),
                }
            })
            .collect();
        names.push(EXECUTABLE.into());
        names.join(", ")
    }
}

fn default_jobs() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// Splits a command template on whitespace (no shell is involved).
pub(crate) fn split_template(template: &str) -> Vec<String> {
    template.split_whitespace().map(str::to_string).collect()
}

fn check_placeholders(word: &str, at: &str, problems: &mut Vec<String>) {
    let mut rest = word;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            problems.push(format!("{at}: unclosed `{{` in `{word}`"));
            return;
        };
        let placeholder = &rest[start..start + len + 1];
        if !PLACEHOLDERS.contains(&placeholder) {
            problems.push(format!(
                "{at}: unknown placeholder `{placeholder}` (known: {})",
                PLACEHOLDERS.join(" ")
            ));
        }
        rest = &rest[start + len + 1..];
    }
}

/// Makes a path absolute against the current directory without resolving links.
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> std::result::Result<Config, String> {
        Config::parse(text, Some("judge.toml".into()), "/w".into()).map_err(|e| {
            let Error::Config { source, .. } = e else {
                panic!("unexpected error {e:?}")
            };
            source.to_string()
        })
    }

    #[test]
    fn builtin_config_is_valid_and_complete() {
        let config = Config::parse(BUILTIN_CONFIG, None, "/w".into()).unwrap();
        let ids: Vec<&str> = config.languages.iter().map(|l| l.id.as_str()).collect();
        for id in ["c", "cpp", "java", "python", "rust"] {
            assert!(ids.contains(&id), "missing {id} in {ids:?}");
        }
        assert_eq!(config.cache_dir, PathBuf::from("/w/.judge-cache"));
        let java = config.language_by_id("java", Path::new("x")).unwrap();
        assert!(!java.address_space_limit);
    }

    #[test]
    fn detection_by_extension() {
        let config = Config::parse(BUILTIN_CONFIG, None, "/w".into()).unwrap();
        assert_eq!(
            config.detect_language(Path::new("a.cpp")).unwrap().id,
            "cpp"
        );
        assert_eq!(
            config.detect_language(Path::new("a.py")).unwrap().id,
            "python"
        );
        assert_eq!(
            config.detect_language(Path::new("a.rs")).unwrap().id,
            "rust"
        );
        let err = config
            .detect_language(Path::new("/nonexistent/a.zig"))
            .unwrap_err();
        assert!(
            err.to_string().contains("unknown extension `.zig`"),
            "{err}"
        );
    }

    #[test]
    fn config_errors_name_the_key() {
        let cases = [
            (
                "jobz = 3",
                "unknown field `jobz`",
            ),
            (
                "[limits]\ntime = \"fast\"",
                "invalid duration `fast`",
            ),
            (
                "[languages.x]\nrun = \"{prog}\"",
                "languages.x.run: unknown placeholder `{prog}` (known: {src} {exe} {dir} {name} {memory_mib} {toolchain} {files})",
            ),
            (
                "[languages.a]\nextensions=[\"c\"]\nrun=\"{exe}\"\n[languages.b]\nextensions=[\"c\"]\nrun=\"{exe}\"",
                "languages.b.extensions: `c` is already used by language `a`",
            ),
            ("jobs = 0", "jobs: must be at least 1 (leave it out to use every CPU)"),
            (
                "cpu = \"fast\"",
                "cpu: `fast` is not a CPU: use `auto`, `off` or a CPU number such as 0",
            ),
            ("[limits]\nwall_factor = 0.5", "limits.wall_factor: must be a number from 1 to 100, got 0.5"),
            ("[limits]\nwall_factor = 1e308", "limits.wall_factor: must be a number from 1 to 100, got 1e308"),
            ("[limits]\ntime = \"7000000000000000000s\"", "must be at most 7 days"),
            ("[limits]\nmemory = \"1KiB\"", "limits.memory: 1 KiB is below the 4 MiB a process needs to start"),
            ("[limits]\noutput = \"99999999999999999999GiB\"", "must be at most 1 TiB"),
            ("[limits]\noutput = 0", "invalid size 0: must be at least one byte"),
            ("[limits]\nkeeper_start = \"500ms\"", "limits.keeper_start: must be at least 1s"),
            ("[limits]\nprobe_time = \"999ms\"", "limits.probe_time: must be at least 1s"),
        ];
        for (text, expected) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.contains(expected), "for {text:?}: {err}");
        }
    }

    #[test]
    fn user_file_inherits_and_overrides_languages() {
        let config = parse("[languages.cpp]\nextensions = [\"cpp\"]\nrun = \"{exe}\"\ncompile = \"clang++ -o {exe} {src}\"\n").unwrap();
        let cpp = config.language_by_id("cpp", Path::new("x")).unwrap();
        assert_eq!(cpp.compile.unwrap()[0], "clang++");
        assert!(config.language_by_id("python", Path::new("x")).is_ok());
    }

    #[test]
    fn cpu_is_auto_off_or_a_number() {
        assert_eq!(parse("").unwrap().cpu, CpuChoice::Auto);
        assert_eq!(parse("cpu = \"off\"").unwrap().cpu, CpuChoice::Off);
        assert_eq!(parse("cpu = \"auto\"").unwrap().cpu, CpuChoice::Auto);
        assert_eq!(parse("cpu = 3").unwrap().cpu, CpuChoice::Cpu(3));
    }

    #[test]
    fn unknown_key_error_has_line() {
        let err = parse("jobs = 2\n\n[limits]\ntimme = \"1s\"\n").unwrap_err();
        assert!(err.contains("line 4"), "{err}");
        assert!(err.contains("unknown field `timme`"), "{err}");
    }
}
