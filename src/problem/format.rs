//! Finding a problem package and its on-disk format ([`Format`]), and
//! loading it with that format's loader.

use std::path::Path;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::problem::{kattis, native, polygon, samples, Problem};

/// An on-disk package format, each with its loader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// judge's own `problem.toml` (docs/problem-format.md).
    Native,
    /// The ICPC problem package format (`problem.yaml`, `data/`).
    Kattis,
    /// Polygon's packages (`problem.xml`).
    Polygon,
    /// A plain folder of samples (`*.in` with `*.out` or `*.ans`, `test/`,
    /// `data/sample/`): no package, the defaults.
    Samples,
}

impl Format {
    /// The format of the package in `dir`, if `dir` holds one: judge's own
    /// first (a package may carry files of other formats beside it).
    pub(crate) fn detect(dir: &Path) -> Option<Format> {
        if dir.join(native::SPEC_FILE).is_file() {
            Some(Format::Native)
        } else if dir.join(polygon::SPEC_FILE).is_file() {
            Some(Format::Polygon)
        } else if kattis::is_package(dir) {
            Some(Format::Kattis)
        } else if samples::is_samples_folder(dir) {
            Some(Format::Samples)
        } else {
            None
        }
    }

    /// Its name in reports: `judge`, `icpc`, `polygon`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Format::Native => "judge",
            Format::Kattis => "icpc",
            Format::Polygon => "polygon",
            Format::Samples => "samples",
        }
    }

    /// Loads and validates the package in `dir`.
    pub(crate) fn load(self, dir: &Path, config: &Config) -> Result<Problem> {
        match self {
            Format::Native => native::load(dir, config),
            Format::Kattis => kattis::load(dir, config),
            Format::Polygon => polygon::load(dir, config),
            Format::Samples => samples::load(dir, config),
        }
    }

    /// The files that mark a package of some format, for messages.
    const MARKERS: &'static str =
        "problem.toml (judge's), problem.yaml or data/secret/ (ICPC/Kattis), problem.xml (Polygon), \
         or samples (NAME.in with NAME.out or NAME.ans, there or in test/ or data/sample/)";
}

impl Problem {
    /// Finds a problem by id (in the workspace's problems dir) or by path.
    pub(crate) fn find(name: &str, config: &Config) -> Result<Problem> {
        let as_path = Path::new(name);
        let looks_like_path = name.contains('/') || name.starts_with('.') || as_path.is_dir();
        let (dir, format) = if looks_like_path {
            let dir = crate::config::absolute(as_path);
            let spec_file = [native::SPEC_FILE, kattis::SPEC_FILE, polygon::SPEC_FILE];
            let dir = if dir
                .file_name()
                .is_some_and(|f| spec_file.iter().any(|s| f == *s))
            {
                dir.parent().map(Path::to_path_buf).unwrap_or(dir)
            } else {
                dir
            };
            let Some(format) = Format::detect(&dir) else {
                return Err(Error::UnknownProblem {
                    name: name.into(),
                    reason: if dir.is_dir() {
                        format!(
                            "{} is not a problem package: it has none of {}",
                            dir.display(),
                            Format::MARKERS
                        )
                    } else {
                        format!("{}: no such directory", dir.display())
                    },
                });
            };
            (dir, format)
        } else {
            let dir = config.problems_dir.join(name);
            let Some(format) = Format::detect(&dir) else {
                let known = Problem::list_ids(config);
                let mut reason = if known.is_empty() {
                    format!(
                        "no problems in {} (a problem id is looked up in the problems/ folder \
                         beside the nearest judge.toml, else in the current folder's; give a \
                         package's path instead)",
                        config.problems_dir.display()
                    )
                } else {
                    format!(
                        "not found in {}; known problems: {}",
                        config.problems_dir.display(),
                        known.join(", ")
                    )
                };
                // The bundled problems, where this binary was built from.
                let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
                if checkout.join("problems").join(name).is_dir()
                    && checkout.join("problems") != config.problems_dir
                {
                    reason.push_str(&format!(
                        "; `{name}` is one of judge's bundled problems, in {}: add `--config {}` \
                         to use them (their tests are in its testdata/)",
                        checkout.join("problems").display(),
                        checkout.join("judge.toml").display()
                    ));
                }
                return Err(Error::UnknownProblem {
                    name: name.into(),
                    reason,
                });
            };
            (dir, format)
        };
        format.load(&dir, config)
    }

    /// Ids of the problems in the workspace, sorted.
    pub(crate) fn list_ids(config: &Config) -> Vec<String> {
        let mut ids: Vec<String> = std::fs::read_dir(&config.problems_dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| Format::detect(&e.path()).is_some())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        ids.sort();
        ids
    }

    /// Loads the package in `dir`, whatever its format.
    pub(crate) fn load(dir: &Path, config: &Config) -> Result<Problem> {
        match Format::detect(dir) {
            Some(format) => format.load(dir, config),
            None => Format::Native.load(dir, config),
        }
    }
}
