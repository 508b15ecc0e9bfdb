//! The results of a contest as data: every file's entry and the standings
//! (also results.json, merged across partitions). The main type is
//! [`Results`].

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::contest::clock::ContestClock;
use crate::contest::{sort_entries, standings, Attempt, Scoring};
use crate::error::{Error, Result};
use crate::report::SubmissionReport;
use crate::verdict::Verdict;

/// Version of the results.json schema.
pub(crate) const RESULTS_SCHEMA_VERSION: u32 = 1;

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
    /// The contest's id in the Contest API (contest.toml `id`, else the
    /// folder's name).
    #[serde(default)]
    pub(crate) id: String,
    /// When it ran (contest.toml `start`, `duration`, `freeze`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) clock: Option<ContestClock>,
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
    /// When it was submitted (the file's modification time, ms since the
    /// epoch), recorded when contest.toml gives a `start`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) submitted_ms: Option<i64>,
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
    /// Attempts not judged yet (or hidden by the scoreboard freeze; a
    /// live contest's only).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) pending: usize,
    /// Minutes into the contest of the accepted attempt (ICPC) or of the
    /// first attempt with the best points (IOI), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) minute: Option<u64>,
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
    /// The minute of the last accepted attempt (ICPC tie-break), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) last_solve: Option<u64>,
    /// One cell per contest problem, in order.
    pub(crate) cells: Vec<Cell>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
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
    /// A merge of only some parts (`judge merge --allow-partial`): which
    /// are missing. Absent for a complete run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) partial: Option<PartialMerge>,
}

/// The parts a partial merge lacks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PartialMerge {
    /// How many parts the run had.
    pub(crate) parts: usize,
    /// The parts missing (from 1).
    pub(crate) missing: Vec<usize>,
}

impl PartialMerge {
    /// For the scoreboards: what is missing.
    pub(crate) fn describe(&self) -> String {
        let missing: Vec<String> = self.missing.iter().map(ToString::to_string).collect();
        format!(
            "partial results: part(s) {} of {} missing, so their submissions are not on this scoreboard",
            missing.join(", "),
            self.parts
        )
    }
}

impl Results {
    /// Results with the standings computed from the entries.
    pub(crate) fn new(
        contest: ContestInfo,
        partition: Option<String>,
        mut entries: Vec<Entry>,
    ) -> Results {
        sort_entries(&mut entries);
        let start = contest.clock.and_then(|c| c.start);
        let attempts: Vec<Attempt> = entries
            .iter()
            .filter_map(|e| Attempt::of_entry(e, start))
            .collect();
        let standings = standings(&contest, &attempts);
        Results {
            schema_version: RESULTS_SCHEMA_VERSION,
            contest,
            partition,
            entries,
            standings,
            partial: None,
        }
    }

    /// Combines the parts of a partitioned run into the results of the whole
    /// run. The parts must describe the same contest.
    pub(crate) fn merge(parts: Vec<(PathBuf, Results)>, allow_partial: bool) -> Result<Results> {
        let partial = check_parts(&parts, allow_partial)?;
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
        let mut merged = Results::new(contest, None, entries);
        merged.partial = partial;
        Ok(merged)
    }
}

/// Checks that `parts` are the parts of one partitioned run, each once, and
/// all of them (or, with `allow_partial`, says which are missing). A single
/// unpartitioned results.json is complete on its own.
fn check_parts(parts: &[(PathBuf, Results)], allow_partial: bool) -> Result<Option<PartialMerge>> {
    let mut of = None;
    let mut seen: Vec<(usize, &PathBuf)> = Vec::new();
    for (path, results) in parts {
        let Some(slice) = &results.partition else {
            if parts.len() == 1 {
                return Ok(None);
            }
            return Err(Error::Usage(format!(
                "{} holds a whole run (judged without --partition): it cannot be merged with \
                 other parts",
                path.display()
            )));
        };
        let partition: crate::partition::Partition = slice
            .parse()
            .map_err(|e| Error::Usage(format!("{}: `partition`: {e}", path.display())))?;
        match of {
            None => of = Some((partition.of, path)),
            Some((n, first)) if n != partition.of => {
                return Err(Error::Usage(format!(
                    "{} is part {partition} but {} is a part of {n}: parts of different \
                     partitions cannot be merged",
                    path.display(),
                    first.display()
                )))
            }
            Some(_) => {}
        }
        if let Some((_, other)) = seen.iter().find(|(k, _)| *k == partition.part) {
            return Err(Error::Usage(format!(
                "{} and {} are both part {partition}",
                other.display(),
                path.display()
            )));
        }
        seen.push((partition.part, path));
    }
    let Some((n, _)) = of else { return Ok(None) };
    let missing: Vec<usize> = (1..=n)
        .filter(|k| !seen.iter().any(|(part, _)| part == k))
        .collect();
    if missing.is_empty() {
        return Ok(None);
    }
    let list: Vec<String> = missing.iter().map(|k| format!("slice:{k}/{n}")).collect();
    if !allow_partial {
        return Err(Error::Usage(format!(
            "incomplete set of parts: {} missing (of {n}); give every part's results.json, or \
             --allow-partial to publish a scoreboard marked partial",
            list.join(", ")
        )));
    }
    Ok(Some(PartialMerge { parts: n, missing }))
}
