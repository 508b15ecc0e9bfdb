//! Finding a problem package and its on-disk format ([`Format`]), and
//! loading it with that format's loader.

use std::path::Path;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::problem::{native, Problem};

/// An on-disk package format, each with its loader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// judge's own `problem.toml` (docs/problem-format.md).
    Native,
}

impl Format {
    /// The format of the package in `dir`, if `dir` holds one.
    pub(crate) fn detect(dir: &Path) -> Option<Format> {
        dir.join(native::SPEC_FILE)
            .is_file()
            .then_some(Format::Native)
    }

    /// Loads and validates the package in `dir`.
    pub(crate) fn load(self, dir: &Path, config: &Config) -> Result<Problem> {
        match self {
            Format::Native => native::load(dir, config),
        }
    }
}

impl Problem {
    /// Finds a problem by id (in the workspace's problems dir) or by path.
    pub(crate) fn find(name: &str, config: &Config) -> Result<Problem> {
        let as_path = Path::new(name);
        let looks_like_path = name.contains('/') || name.starts_with('.') || as_path.is_dir();
        let (dir, format) = if looks_like_path {
            let dir = crate::config::absolute(as_path);
            let dir = if dir.file_name().is_some_and(|f| f == native::SPEC_FILE) {
                dir.parent().map(Path::to_path_buf).unwrap_or(dir)
            } else {
                dir
            };
            let Some(format) = Format::detect(&dir) else {
                return Err(Error::UnknownProblem {
                    name: name.into(),
                    reason: format!("{} has no {}", dir.display(), native::SPEC_FILE),
                });
            };
            (dir, format)
        } else {
            let dir = config.problems_dir.join(name);
            let Some(format) = Format::detect(&dir) else {
                let known = Problem::list_ids(config);
                let reason = if known.is_empty() {
                    format!("no problems in {}", config.problems_dir.display())
                } else {
                    format!(
                        "not found in {}; known problems: {}",
                        config.problems_dir.display(),
                        known.join(", ")
                    )
                };
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
