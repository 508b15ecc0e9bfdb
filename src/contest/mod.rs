//! Contests: the submissions of a contest directory, their scoring (ICPC or
//! IOI) and the standings. The main types are [`Results`] (what `judge
//! batch` writes to `results.json` and `judge merge` reads back) and
//! [`Standing`], and the scoring that makes them. Judging itself is in
//! [`run`].
//!
//! A contest directory holds one folder per contestant; a submission is
//! named after the problem id, `alice/hdu-1527.cpp`, and further attempts
//! number themselves, `alice/hdu-1527.2.cpp` (the unnumbered file is attempt
//! 1). An optional `contest.toml` sets the title, the scoring and the problems.

pub(crate) mod run;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, SpecError};
use crate::report::SubmissionReport;
use crate::verdict::Verdict;

/// Version of the results.json schema.
pub(crate) const RESULTS_SCHEMA_VERSION: u32 = 1;
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
struct ContestDeserialize {
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

/// A problem of the contest, as reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ContestProblem {
    /// Problem id.
    pub(crate) id: String,
    /// Title.
    pub(crate) title: String,
    /// Points available (IOI): the sum of the groups' points, or 100 when
    /// the problem declares none (then an accepted submission gets 100).
    pub(crate) points: u64,
}

/// The contest as reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ContestInfo {
    /// Title.
    pub(crate) title: String,
    /// Scoring mode.
    pub(crate) scoring: Scoring,
    /// ICPC penalty per rejected attempt, minutes.
    pub(crate) penalty: u64,
    /// Problems, in scoreboard order.
    pub(crate) problems: Vec<ContestProblem>,
    /// Every contestant folder, sorted (also those without submissions).
    pub(crate) contestants: Vec<String>,
}

/// One file of the contest directory and what became of it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// Contestant (folder name).
    pub(crate) contestant: String,
    /// The file, relative to the contest directory (empty for a contestant
    /// without any file).
    pub(crate) file: String,
    /// The problem it names, when it names one.
    pub(crate) problem: Option<String>,
    /// Attempt number (1 for `PROBLEM.EXT`, N for `PROBLEM.N.EXT`).
    pub(crate) attempt: u32,
    /// Why it was not judged (unknown problem, unknown language, ...).
    pub(crate) error: Option<String>,
    /// IOI points of this attempt.
    pub(crate) score: Option<u64>,
    /// The full report (the schema of `run --format json`).
    pub(crate) report: Option<SubmissionReport>,
}

impl Entry {
    /// The verdict, when judged.
    pub(crate) fn verdict(&self) -> Option<Verdict> {
        self.report.as_ref().map(|r| r.verdict)
    }
}

/// A contestant's result on one problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Cell {
    /// Problem id.
    pub(crate) problem: String,
    /// Judged attempts (compile errors included).
    pub(crate) attempts: usize,
    /// Attempts counted for ICPC: up to the first AC, compile errors excluded.
    pub(crate) counted: usize,
    /// The deciding verdict: AC if any attempt was accepted, else the last.
    pub(crate) verdict: Option<Verdict>,
    /// Whether an attempt was accepted.
    pub(crate) solved: bool,
    /// ICPC penalty on this problem, minutes.
    pub(crate) penalty: u64,
    /// IOI points (best attempt).
    pub(crate) score: u64,
}

/// One row of the scoreboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Standing {
    /// Rank (ties share it: 1, 1, 3).
    pub(crate) rank: usize,
    /// Contestant.
    pub(crate) contestant: String,
    /// Problems solved.
    pub(crate) solved: usize,
    /// ICPC penalty, minutes.
    pub(crate) penalty: u64,
    /// IOI points.
    pub(crate) score: u64,
    /// One cell per contest problem, in order.
    pub(crate) cells: Vec<Cell>,
}

/// Everything `judge batch` writes to results.json.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Results {
    /// Schema version of this file.
    pub(crate) schema_version: u32,
    /// The contest.
    pub(crate) contest: ContestInfo,
    /// `slice:K/N` when this holds one part of a partitioned run.
    pub(crate) partition: Option<String>,
    /// Every file (of this part), sorted by contestant, problem, attempt.
    pub(crate) entries: Vec<Entry>,
    /// The scoreboard computed from the entries.
    pub(crate) standings: Vec<Standing>,
}

impl Results {
    /// Results with the standings computed from the entries.
    pub(crate) fn new(
        contest: ContestInfo,
        partition: Option<String>,
        mut entries: Vec<Entry>,
    ) -> Results {
        sort_entries(&mut entries);
        let standings = standings(&contest, &entries);
        Results {
            schema_version: RESULTS_SCHEMA_VERSION,
            contest,
            partition,
            entries,
            standings,
        }
    }

    /// Combines the parts of a partitioned run into the results of the whole
    /// run. The parts must describe the same contest.
    pub(crate) fn merge(parts: Vec<(PathBuf, Results)>) -> Result<Results> {
        let mut iter = parts.into_iter();
        let Some((first_path, first)) = iter.next() else {
            return Err(Error::Usage(
                "judge merge needs at least one results file".into(),
            ));
        };
        let contest = first.contest.clone();
        let mut entries = first.entries;
        let mut seen: BTreeSet<(String, String)> = entries
            .iter()
            .map(|e| (e.contestant.clone(), e.file.clone()))
            .collect();
        for (path, part) in iter {
            if part.contest != contest {
                return Err(Error::Usage(format!(
                    "{} and {} are results of different contests (title, scoring, problems or contestants differ)",
                    first_path.display(),
                    path.display()
                )));
            }
            for entry in part.entries {
                if !seen.insert((entry.contestant.clone(), entry.file.clone())) {
                    return Err(Error::Usage(format!(
                        "{} holds `{}/{}` again: were the same parts given twice?",
                        path.display(),
                        entry.contestant,
                        entry.file
                    )));
                }
                entries.push(entry);
            }
        }
        Ok(Results::new(contest, None, entries))
    }
}

/// Sorts entries by contestant, problem, attempt, file.
pub(crate) fn sort_entries(entries: &mut [Entry]) {
    entries.sort_by(|a, b| {
        (&a.contestant, &a.problem, a.attempt, &a.file).cmp(&(
            &b.contestant,
            &b.problem,
            b.attempt,
            &b.file,
        ))
    });
}

/// The scoreboard: one row per contestant, ranked.
pub(crate) fn standings(contest: &ContestInfo, entries: &[Entry]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = contest
        .contestants
        .iter()
        .map(|who| {
            let cells: Vec<Cell> = contest
                .problems
                .iter()
                .map(|p| {
                    cell(
                        contest,
                        p,
                        entries
                            .iter()
                            .filter(|e| &e.contestant == who && e.problem.as_ref() == Some(&p.id)),
                    )
                })
                .collect();
            Standing {
                rank: 0,
                contestant: who.clone(),
                solved: cells.iter().filter(|c| c.solved).count(),
                penalty: cells.iter().filter(|c| c.solved).map(|c| c.penalty).sum(),
                score: cells.iter().map(|c| c.score).sum(),
                cells,
            }
        })
        .collect();
    let key = |s: &Standing| match contest.scoring {
        Scoring::Icpc => (std::cmp::Reverse(s.solved as u64), s.penalty),
        Scoring::Ioi => (std::cmp::Reverse(s.score), 0),
    };
    rows.sort_by(|a, b| {
        key(a)
            .cmp(&key(b))
            .then_with(|| a.contestant.cmp(&b.contestant))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    rows
}

fn cell<'a>(
    contest: &ContestInfo,
    problem: &ContestProblem,
    attempts: impl Iterator<Item = &'a Entry>,
) -> Cell {
    let mut judged: Vec<&Entry> = attempts.filter(|e| e.report.is_some()).collect();
    judged.sort_by_key(|e| e.attempt);
    let mut c = Cell {
        problem: problem.id.clone(),
        attempts: judged.len(),
        counted: 0,
        verdict: judged.last().and_then(|e| e.verdict()),
        solved: false,
        penalty: 0,
        score: judged.iter().filter_map(|e| e.score).max().unwrap_or(0),
    };
    for e in &judged {
        let verdict = e.verdict().expect("judged");
        if verdict == Verdict::CE {
            continue;
        }
        c.counted += 1;
        if verdict == Verdict::AC {
            c.solved = true;
            c.verdict = Some(Verdict::AC);
            c.penalty = contest.penalty * (c.counted as u64 - 1);
            break;
        }
    }
    if contest.scoring == Scoring::Ioi {
        // The deciding verdict of an IOI cell is the best-scoring attempt's.
        if let Some(best) = judged
            .iter()
            .filter(|e| e.score == Some(c.score))
            .max_by_key(|e| e.attempt)
        {
            if !c.solved {
                c.verdict = best.verdict();
            }
        }
    }
    c
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

#[cfg(test)]
mod tests;
