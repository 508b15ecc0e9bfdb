//! A contest package (the CCS specification's contest archive, as `judge
//! serve` writes it or another system does) read as a contest to judge
//! again: each submission of `submissions.json` from its files
//! (`submissions/ID/FILENAME`, a zip), as its team, at its time, on the
//! problems of `problems.json` (a package in `problems/ID/`, else found by
//! id as contest.toml's are), scored by `contest.json` (or `contest.yaml`)
//! over the teams of `teams.json`. Nothing is read through a link or from
//! outside the folder, and what a zip holds is written only into a fresh
//! scratch folder under plain names: a package that names a path, a link,
//! or a file too large is refused, naming the file. The main function is
//! [`discover_package`].

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::clock::{parse_reltime, parse_time, ContestClock};
use super::run::{available_points, Discovered, Found, Located, MAX_SUBMISSION_BYTES};
use super::{ContestInfo, ContestProblem, Entry, Scoring};
use crate::config::{Config, Language};
use crate::engine::Submission;
use crate::error::{Error, Result};
use crate::problem::{Format, Problem};
use crate::sandbox::untrusted::{read_capped, Dir};

/// The file that makes a folder a contest package to `judge batch`.
pub(crate) const SUBMISSIONS_FILE: &str = "submissions.json";

/// The most files in one submission's zip.
const MAX_FILES: usize = 100;

/// The largest JSON file of a package read.
const MAX_JSON_BYTES: u64 = 256 << 20;

/// Whether `dir` is a contest package (it has `submissions.json` and a
/// contest).
pub(crate) fn is_package(dir: &Path) -> bool {
    dir.join(SUBMISSIONS_FILE).is_file()
        && (dir.join("contest.json").is_file() || dir.join("contest.yaml").is_file())
}

/// A contest package read: the contest, its submissions found (unpacked
/// into `scratch`, which lives as long as this).
#[derive(Debug)]
pub(crate) struct Package {
    /// The contest as reported.
    pub(crate) info: ContestInfo,
    /// Its problems and submissions.
    pub(crate) discovered: Discovered,
    /// Where the submissions' files were unpacked (hide it from runs).
    pub(crate) scratch: PathBuf,
}

/// `contest.json`: what scoring needs.
#[derive(Debug, Deserialize)]
struct PackageContest {
    id: String,
    name: String,
    start_time: Option<String>,
    duration: String,
    scoreboard_freeze_duration: Option<String>,
    scoreboard_type: Option<String>,
    penalty_time: Option<u64>,
}

/// A problem of `problems.json`.
#[derive(Debug, Deserialize)]
struct PackageProblem {
    id: String,
    ordinal: Option<i64>,
}

/// A team of `teams.json`.
#[derive(Debug, Deserialize)]
struct PackageTeam {
    id: String,
}

/// A submission of `submissions.json`.
#[derive(Debug, Deserialize)]
struct PackageSubmission {
    id: String,
    language_id: String,
    problem_id: String,
    team_id: String,
    time: String,
    #[serde(default)]
    files: Vec<FileRef>,
}

/// A file reference.
#[derive(Debug, Deserialize)]
struct FileRef {
    filename: Option<String>,
}

/// An error about the package's file `path`.
fn bad(path: &Path, why: impl std::fmt::Display) -> Error {
    Error::Usage(format!("{}: {why}", path.display()))
}

/// Reads `name` of the package (never through a link) as `T`, from JSON,
/// or from YAML when the name says so.
fn read<T: for<'de> Deserialize<'de>>(package: &Dir, dir: &Path, name: &str) -> Result<T> {
    let path = dir.join(name);
    let file = package
        .file(OsStr::new(name))
        .map_err(|e| Error::io(&path, e))?;
    let bytes = read_capped(file, MAX_JSON_BYTES).map_err(|e| Error::io(&path, e))?;
    let text = String::from_utf8(bytes).map_err(|_| bad(&path, "not UTF-8 text"))?;
    if name.ends_with(".yaml") {
        serde_saphyr::from_str(&text).map_err(|e| bad(&path, e))
    } else {
        serde_json::from_str(&text).map_err(|e| bad(&path, e))
    }
}

/// Whether `name` is an id of the Contest API usable as a folder's name:
/// letters, digits, `_`, `.` and `-`, not starting with a `.`, at most 64.
fn plain_id(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Reads the contest package `dir`: its contest, problems, teams and
/// submissions, each submission's files unpacked into a fresh scratch
/// folder. A submission whose problem, team or language is not the
/// contest's is an entry with an error, as `judge batch` lists a file it
/// cannot judge; a package that names a path, holds a link where a file
/// is read, or a file too large, is refused.
pub(crate) fn discover_package(dir: &Path, config: &Config) -> Result<Package> {
    let package = Dir::open(dir).map_err(|e| Error::io(dir, e))?;
    let contest: PackageContest = match package.file(OsStr::new("contest.json")) {
        Ok(_) => read(&package, dir, "contest.json")?,
        Err(_) => read(&package, dir, "contest.yaml")?,
    };
    let contest_path = dir.join("contest.json");
    let reltime = |t: &str| parse_reltime(t).map_err(|e| bad(&contest_path, e));
    let clock = ContestClock {
        start: match &contest.start_time {
            Some(t) => Some(parse_time(t).map_err(|e| bad(&contest_path, e))?),
            None => None,
        },
        duration_ms: reltime(&contest.duration)?,
        freeze_ms: match &contest.scoreboard_freeze_duration {
            Some(f) => Some(reltime(f)?),
            None => None,
        },
    };
    let problems_name = if package.file(OsStr::new("problems.json")).is_ok() {
        "problems.json"
    } else {
        "problems.yaml"
    };
    let mut listed: Vec<PackageProblem> = read(&package, dir, problems_name)?;
    listed.sort_by_key(|p| p.ordinal.unwrap_or(i64::MAX));
    let mut problems = Vec::new();
    for p in &listed {
        if !plain_id(&p.id) {
            return Err(bad(
                &dir.join(problems_name),
                format!("problem id `{}` is not an id of the Contest API", p.id),
            ));
        }
        // A package kept beside the archive, else the id as contest.toml's.
        let kept = dir.join("problems").join(&p.id);
        let is_folder = std::fs::symlink_metadata(&kept).is_ok_and(|m| m.is_dir());
        let name = if is_folder && Format::detect(&kept).is_some() {
            kept.display().to_string()
        } else {
            p.id.clone()
        };
        problems.push(Arc::new(Problem::find(&name, config)?));
    }
    let teams: Vec<PackageTeam> = read(&package, dir, "teams.json")?;
    let mut contestants: Vec<String> = teams.into_iter().map(|t| t.id).collect();
    contestants.sort();
    contestants.dedup();
    let submissions: Vec<PackageSubmission> = read(&package, dir, SUBMISSIONS_FILE)?;
    let scratch = tempfile::Builder::new()
        .prefix("judge-package-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let unpacked = Arc::new(Dir::open(scratch.path()).map_err(|e| Error::io(scratch.path(), e))?);
    let found = found(
        dir,
        &package,
        submissions,
        &problems,
        &contestants,
        config,
        (scratch.path(), &unpacked),
        clock.start.is_some(),
    )?;
    let info = ContestInfo {
        title: contest.name,
        scoring: match contest.scoreboard_type.as_deref() {
            Some("score") => Scoring::Ioi,
            _ => Scoring::Icpc,
        },
        penalty: contest.penalty_time.unwrap_or(20),
        problems: problems
            .iter()
            .map(|p| ContestProblem {
                id: p.id.clone(),
                title: p.title.clone(),
                points: available_points(p),
            })
            .collect(),
        contestants: contestants.clone(),
        id: contest.id,
        clock: Some(clock),
    };
    let scratch_path = scratch.path().to_path_buf();
    Ok(Package {
        info,
        discovered: Discovered {
            problems,
            contestants,
            found,
            scratch: Some(scratch),
        },
        scratch: scratch_path,
    })
}

/// The submissions of `submissions.json` as entries to judge, their files
/// unpacked into `scratch`, attempts numbered per team and problem in
/// the order they were made.
#[expect(clippy::too_many_arguments, reason = "one call, all of the package")]
fn found(
    dir: &Path,
    package: &Dir,
    mut submissions: Vec<PackageSubmission>,
    problems: &[Arc<Problem>],
    contestants: &[String],
    config: &Config,
    (scratch, unpacked): (&Path, &Arc<Dir>),
    timed: bool,
) -> Result<Vec<Found>> {
    let list = dir.join(SUBMISSIONS_FILE);
    let mut times = BTreeMap::new();
    let mut ids = BTreeSet::new();
    for s in &submissions {
        if !plain_id(&s.id) {
            return Err(bad(
                &list,
                format!(
                    "submission id `{}` is not an id of the Contest API (letters, digits, `_`, `.`, `-`)",
                    s.id
                ),
            ));
        }
        if !ids.insert(s.id.clone()) {
            return Err(bad(
                &list,
                format!("two submissions have the id `{}`", s.id),
            ));
        }
        let time =
            parse_time(&s.time).map_err(|e| bad(&list, format!("submission `{}`: {e}", s.id)))?;
        times.insert(s.id.clone(), time);
    }
    submissions.sort_by_key(|s| (times[&s.id], s.id.clone()));
    let folder = package
        .dir(OsStr::new("submissions"))
        .map_err(|e| Error::io(dir.join("submissions"), e));
    let mut attempts: BTreeMap<(String, String), u32> = BTreeMap::new();
    let mut found = Vec::new();
    for s in submissions {
        let attempt = attempts
            .entry((s.team_id.clone(), s.problem_id.clone()))
            .or_insert(0);
        *attempt += 1;
        let mut entry = Entry {
            contestant: s.team_id.clone(),
            file: format!("submissions/{}", s.id),
            problem: Some(s.problem_id.clone()),
            attempt: *attempt,
            error: None,
            score: None,
            submitted_ms: timed.then(|| times[&s.id]),
            report: None,
        };
        let problem = problems.iter().find(|p| p.id == s.problem_id);
        let language = config.languages.iter().find(|l| l.id == s.language_id);
        let why = match (problem, language) {
            _ if !contestants.contains(&s.team_id) => {
                Some(format!("team `{}` is not in teams.json", s.team_id))
            }
            (None, _) => Some(format!("problem `{}` is not in the problems", s.problem_id)),
            (Some(p), None) if !p.submit_answer => Some(format!(
                "language `{}` is not one of judge.toml's",
                s.language_id
            )),
            _ => None,
        };
        if let Some(why) = why {
            entry.problem = problem.map(|p| p.id.clone());
            entry.error = Some(why);
            found.push(Found {
                entry,
                submission: None,
            });
            continue;
        }
        let problem = problem.expect("checked above");
        let name = s
            .files
            .first()
            .and_then(|f| f.filename.clone())
            .unwrap_or_else(|| "files.zip".into());
        let zip_path = dir.join("submissions").join(&s.id).join(&name);
        if !plain_id(&name) {
            return Err(bad(
                &list,
                format!(
                    "submission `{}`: its file `{name}` is not a plain file name",
                    s.id
                ),
            ));
        }
        let folder = folder.as_ref().map_err(|e| bad(&zip_path, e))?;
        let zip = folder
            .dir(OsStr::new(&s.id))
            .and_then(|d| d.file(OsStr::new(&name)))
            .and_then(|f| read_capped(f, MAX_SUBMISSION_BYTES))
            .map_err(|e| Error::io(&zip_path, e))?;
        let files = unzip(&zip).map_err(|why| bad(&zip_path, why))?;
        let language = match problem.submit_answer {
            true => Language::answers(),
            false => language.expect("checked above").clone(),
        };
        let submission = unpack(scratch, unpacked, &s.id, files, language, config)
            .map_err(|e| bad(&zip_path, crate::error::render_chain(&e)))?;
        found.push(Found {
            entry,
            submission: Some(submission),
        });
    }
    Ok(found)
}

/// The files of a submission's zip, each under a plain name (no folder,
/// not hidden), regular files only, at most [`MAX_FILES`] and
/// [`MAX_SUBMISSION_BYTES`] in all.
fn unzip(bytes: &[u8]) -> std::result::Result<Vec<(String, Vec<u8>)>, String> {
    let mut zip =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| format!("not a zip: {e}"))?;
    if zip.is_empty() {
        return Err("the zip holds no file".into());
    }
    if zip.len() > MAX_FILES {
        return Err(format!(
            "the zip holds {} files (at most {MAX_FILES})",
            zip.len()
        ));
    }
    let mut budget = MAX_SUBMISSION_BYTES;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| format!("entry {i}: {e}"))?;
        let name = entry.name().to_string();
        let link = entry.unix_mode().is_some_and(|m| m & 0o170000 == 0o120000);
        if entry.is_dir() || link || !plain_name(&name) {
            return Err(format!(
                "entry `{}` is not a plain file name (folders, links, `..` and absolute paths are refused)",
                name.escape_debug()
            ));
        }
        if files.iter().any(|(n, _)| *n == name) {
            return Err(format!("entry `{name}` is there twice"));
        }
        let mut content = Vec::new();
        (&mut entry)
            .take(budget + 1)
            .read_to_end(&mut content)
            .map_err(|e| format!("entry `{name}`: {e}"))?;
        if content.len() as u64 > budget {
            return Err(format!(
                "its files are over {MAX_SUBMISSION_BYTES} bytes in all"
            ));
        }
        budget -= content.len() as u64;
        files.push((name, content));
    }
    Ok(files)
}

/// A file name a zip may hold: no folder, not hidden, no control
/// character, at most 255 bytes.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

/// Writes the files of submission `id` into `scratch/ID/` (one file: as
/// it is; several: in `ID/files/`, a program of several files as `judge
/// run DIR` judges one), and the submission to judge from there.
fn unpack(
    scratch: &Path,
    unpacked: &Arc<Dir>,
    id: &str,
    files: Vec<(String, Vec<u8>)>,
    language: Language,
    config: &Config,
) -> Result<(Located, Submission)> {
    let folder = unpacked
        .create_dir(OsStr::new(id), 0o700)
        .map_err(|e| Error::io(scratch.join(id), e))?;
    let several = files.len() > 1;
    let (into, into_path) = if several {
        let d = folder
            .create_dir(OsStr::new("files"), 0o700)
            .map_err(|e| Error::io(scratch.join(id).join("files"), e))?;
        (d, scratch.join(id).join("files"))
    } else {
        (folder, scratch.join(id))
    };
    for (name, content) in &files {
        use std::io::Write;
        let mut file = into
            .create_file(OsStr::new(name), 0o600)
            .map_err(|e| Error::io(into_path.join(name), e))?;
        file.write_all(content)
            .map_err(|e| Error::io(into_path.join(name), e))?;
    }
    let answers = language.id == crate::config::ANSWERS;
    let (file, submission): (OsString, Submission) = if !several {
        let name = &files[0].0;
        let submission = Submission {
            path: into_path.join(name),
            shown: None,
            language,
            companions: Vec::new(),
            text: None,
        };
        (OsString::from(name), submission)
    } else if answers {
        let submission = Submission {
            path: into_path.clone(),
            shown: Some(into_path.clone()),
            language,
            companions: Vec::new(),
            text: None,
        };
        (OsString::from("files"), submission)
    } else {
        let own = !language.extensions.is_empty();
        let (main, companions, _) = crate::engine::directory_submission(
            &into_path,
            own.then_some(language.id.as_str()),
            config,
        )?;
        let submission = Submission {
            path: main,
            shown: Some(into_path.clone()),
            language,
            companions,
            text: None,
        };
        (OsString::from("files"), submission)
    };
    let located = Located {
        contest: Arc::clone(unpacked),
        folder: OsString::from(id),
        file,
    };
    Ok((located, submission))
}
