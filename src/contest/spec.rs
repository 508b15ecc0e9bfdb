//! A contest folder's settings (`contest.toml`: title, scoring, penalty)
//! and how its files are named (`PROBLEM.EXT`, `PROBLEM.N.EXT`).

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, SpecError};

/// The file a contest directory may hold.
pub(crate) const CONTEST_FILE: &str = "contest.toml";

/// How a contest is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Scoring {
    /// Problems solved, then penalty: `penalty` minutes per rejected attempt
    /// before the first accepted one (compile errors are not counted).
    Icpc,
    /// Points: per problem the best attempt's points, a subtask (test group
    /// with `points`) scoring only when all its tests pass.
    Ioi,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ContestDeserialize {
    title: Option<String>,
    scoring: Option<Scoring>,
    penalty: Option<u64>,
    problems: Option<Vec<String>>,
}

/// The settings of a contest (contest.toml, overridden by flags).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContestSpec {
    /// Title shown on the scoreboard.
    pub(crate) title: String,
    /// Scoring mode.
    pub(crate) scoring: Scoring,
    /// ICPC penalty per rejected attempt, minutes.
    pub(crate) penalty: u64,
    /// Problems (ids or paths); `None`: the problems the submissions name.
    pub(crate) problems: Option<Vec<String>>,
}

impl ContestSpec {
    /// Reads `DIR/contest.toml` if present.
    pub(crate) fn load(dir: &Path) -> Result<ContestSpec> {
        let path = dir.join(CONTEST_FILE);
        let default_title = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "contest".into());
        let meta = std::fs::symlink_metadata(&path).ok();
        if meta.as_ref().is_some_and(|m| !m.is_file()) {
            return Err(Error::Config {
                path: path.clone(),
                source: SpecError::one(
                    "not a regular file (a link, say): nothing of a contest folder is read \
                     through links",
                ),
            });
        }
        if meta.is_none() {
            return Ok(ContestSpec {
                title: default_title,
                scoring: Scoring::Icpc,
                penalty: 20,
                problems: None,
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let raw: ContestDeserialize = toml::from_str(&text).map_err(|e| Error::Config {
            path: path.clone(),
            source: SpecError::one(e.to_string().trim_end()),
        })?;
        Ok(ContestSpec {
            title: raw.title.unwrap_or(default_title),
            scoring: raw.scoring.unwrap_or(Scoring::Icpc),
            penalty: raw.penalty.unwrap_or(20),
            problems: raw.problems,
        })
    }
}

/// A file name split into problem and attempt: `hdu-1527.cpp` -> (`hdu-1527`, 1),
/// `hdu-1527.2.cpp` -> (`hdu-1527`, 2); `None` when it names no known problem.
pub(crate) fn parse_submission_name(name: &str, known: &BTreeSet<String>) -> Option<(String, u32)> {
    let stem = match name.rsplit_once('.') {
        Some((stem, _ext)) => stem,
        None => name,
    };
    if known.contains(stem) {
        return Some((stem.to_string(), 1));
    }
    let (problem, attempt) = stem.rsplit_once('.')?;
    let attempt: u32 = attempt.parse().ok().filter(|n| *n >= 1)?;
    known
        .contains(problem)
        .then(|| (problem.to_string(), attempt))
}
