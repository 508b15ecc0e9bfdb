//! Judging a contest directory: discovering contestants and their files,
//! judging every submission under the sandbox, and scoring. The main function
//! is [`judge_contest`]. Nothing in the directory is skipped silently: a file
//! that names no problem, a file in an unknown language, an empty contestant
//! folder, a problem that cannot be loaded are entries with an `error`.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::sync::Arc;

use super::{
    parse_submission_name, sort_entries, ContestInfo, ContestProblem, ContestSpec, Entry, Results,
    CONTEST_FILE,
};
use crate::compile::Companion;
use crate::config::{Config, Language, ANSWERS};
use crate::engine::{is_answer_name, Judge, RunOptions, Submission};
use crate::error::{Error, Result};
use crate::partition::Partition;
use crate::problem::Problem;
use crate::report::SubmissionReport;
use crate::sandbox::untrusted::{read_capped, Dir, EntryKind};
use crate::testset::{self, TestFilter};
use crate::verdict::Verdict;

/// A problem ready to judge on: its tests and checker.
type Prepared = (Arc<Problem>, Arc<testset::TestSet>, crate::check::Checker);

/// A file found in the contest directory, before judging.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The entry (report empty; `error` set when it cannot be judged).
    pub(crate) entry: Entry,
    /// The submission (a file, or a folder of several) and where it is,
    /// when it can be judged.
    pub(crate) submission: Option<(Located, Submission)>,
}

/// Where a submission is: its contestant's folder and its name in the
/// contest folder (opened once, when the listing was made), and its path
/// for reports. It is read when judged, by name from the contest folder's
/// descriptor, never through a link, and never by waiting on a pipe.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    /// The contest folder.
    pub(crate) contest: Arc<Dir>,
    /// The contestant's folder, by name.
    pub(crate) folder: OsString,
    /// The file (or the folder of a program of several files), by name.
    pub(crate) file: OsString,
}

impl Located {
    /// `submission` with its bytes read now (a folder's main file and the
    /// files beside it too): a link, a pipe, a file larger than
    /// [`MAX_SUBMISSION_BYTES`] are refused, saying so.
    pub(crate) fn read(&self, mut submission: Submission) -> std::io::Result<Submission> {
        let contestant = self.contest.dir(&self.folder)?;
        if submission.language.id == ANSWERS && submission.shown.is_some() {
            // A folder of answers: its answer files, by their path in it.
            let folder = contestant.dir(&self.file)?;
            let mut budget = MAX_SUBMISSION_BYTES;
            read_answers(&folder, "", 0, &mut budget, &mut submission.companions)?;
            submission.text = Some(Arc::new(Vec::new()));
            return Ok(submission);
        }
        if submission.shown.is_none() {
            let text = read_capped(contestant.file(&self.file)?, MAX_SUBMISSION_BYTES)?;
            submission.text = Some(Arc::new(text));
            return Ok(submission);
        }
        let folder = contestant.dir(&self.file)?;
        let main = submission.path.file_name().unwrap_or_default();
        let text = read_capped(folder.file(main)?, MAX_SUBMISSION_BYTES)?;
        submission.text = Some(Arc::new(text));
        for companion in &mut submission.companions {
            let file = folder.file(OsStr::new(&companion.name))?;
            companion.bytes = read_capped(file, MAX_SUBMISSION_BYTES)?;
        }
        Ok(submission)
    }
}

/// The answer files (`.ans`, `.out`, `.txt`) of a submit-answer problem's
/// folder `dir`, at `prefix` in it, `depth` folders down (at most
/// [`MAX_ANSWER_DEPTH`]), as companions named by their path; links and
/// hidden entries are not followed, and all of them together may have at
/// most `budget` bytes.
fn read_answers(
    dir: &Dir,
    prefix: &str,
    depth: usize,
    budget: &mut u64,
    into: &mut Vec<Companion>,
) -> std::io::Result<()> {
    for (raw, kind) in dir.entries(MAX_ENTRIES)? {
        let name = shown_name(&raw);
        if not_followed(&name, kind).is_some() {
            continue;
        }
        let path = format!("{prefix}{name}");
        match kind {
            EntryKind::Dir if depth < MAX_ANSWER_DEPTH => {
                let inner = dir.dir(&raw)?;
                read_answers(&inner, &format!("{path}/"), depth + 1, budget, into)?;
            }
            EntryKind::File if is_answer_name(&name) => {
                let bytes = read_capped(dir.file(&raw)?, *budget).map_err(|e| {
                    std::io::Error::new(
                        e.kind(),
                        format!("the answers are over {MAX_SUBMISSION_BYTES} bytes in all"),
                    )
                })?;
                *budget -= bytes.len() as u64;
                into.push(Companion {
                    name: path,
                    bytes,
                    executable: false,
                });
            }
            _ => {}
        }
    }
    Ok(())
}

/// How deep a folder of answers is read (`secret/group/1.ans` is two down).
const MAX_ANSWER_DEPTH: usize = 4;

/// The contest's problems and files.
#[derive(Debug)]
pub(crate) struct Discovered {
    /// The problems, loaded (a problem that failed to load is absent, and its
    /// entries carry the error).
    pub(crate) problems: Vec<Arc<Problem>>,
    /// Contestant folders, sorted.
    pub(crate) contestants: Vec<String>,
    /// Every file, sorted by contestant, problem, attempt.
    pub(crate) found: Vec<Found>,
    /// Where a contest package's submissions were unpacked, removed when
    /// the judging is done.
    #[expect(dead_code, reason = "held only to be removed when dropped")]
    pub(crate) scratch: Option<tempfile::TempDir>,
}

/// The largest submission judged (a bigger file is listed, not read).
pub(crate) const MAX_SUBMISSION_BYTES: u64 = 64 << 20;

/// Finds the contestants, their files and the problems of a contest.
///
/// Nothing outside `dir` is read through links: a contestant folder or a
/// file that is a symbolic link is listed, not followed, and so is anything
/// that is neither a folder nor a regular file, a hidden (dot) entry, a file
/// too large to judge and a folder that cannot be read. A name that is not
/// valid UTF-8 is shown with its odd bytes escaped (`\xff`) and judged all
/// the same. One bad entry never stops the others.
pub(crate) fn discover(dir: &Path, spec: &ContestSpec, config: &Config) -> Result<Discovered> {
    let contest = Arc::new(Dir::open(dir).map_err(|e| Error::io(dir, e))?);
    let entries = contest
        .entries(MAX_ENTRIES)
        .map_err(|e| Error::io(dir, e))?;
    let mut contestants: Vec<(String, OsString)> = Vec::new();
    let mut loose = Vec::new();
    let mut found = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    for (raw, kind) in entries {
        let name = shown_name(&raw);
        if name == CONTEST_FILE {
            continue;
        }
        if let Some(why) = not_followed(&name, kind) {
            found.push(error_entry("", &name, why));
        } else if kind == EntryKind::Dir {
            contestants.push((name, raw));
        } else {
            loose.push(name);
        }
    }
    contestants.sort();
    // The problems: listed in contest.toml, else every problem of the workspace
    // (the contest then shows those some file names).
    let (listed, known): (Option<Vec<Problem>>, BTreeSet<String>) = match &spec.problems {
        Some(names) => {
            let mut problems = Vec::new();
            for name in names {
                let as_path = dir.join(name);
                let name = if as_path.is_dir() {
                    as_path.display().to_string()
                } else {
                    name.clone()
                };
                problems.push(Problem::find(&name, config)?);
            }
            let ids = problems.iter().map(|p| p.id.clone()).collect();
            (Some(problems), ids)
        }
        None => (None, Problem::list_ids(config).into_iter().collect()),
    };
    // A problem's package kept in the contest folder is not a contestant.
    let packages: Vec<std::path::PathBuf> = listed
        .iter()
        .flatten()
        .filter_map(|p| p.dir.canonicalize().ok())
        .collect();
    contestants.retain(|(name, _)| {
        let path = dir.join(name);
        let listed = path
            .canonicalize()
            .is_ok_and(|real| packages.contains(&real));
        let package = matches!(
            crate::problem::Format::detect(&path),
            Some(
                crate::problem::Format::Native
                    | crate::problem::Format::Kattis
                    | crate::problem::Format::Polygon
            )
        );
        !(listed || package)
    });
    for name in loose {
        found.push(error_entry(
            "",
            &name,
            "not inside a contestant folder (expected CONTESTANT/PROBLEM.EXT)".into(),
        ));
    }
    for (who, folder) in &contestants {
        let unreadable =
            |e: std::io::Error| error_entry(who, "", format!("the folder cannot be read: {e}"));
        // Opened without following a link: one swapped in since the
        // listing is refused.
        let listing = match contest
            .dir(folder)
            .and_then(|d| d.entries(MAX_ENTRIES).map(|e| (d, e)))
        {
            Ok(listing) => listing,
            Err(e) => {
                found.push(unreadable(e));
                continue;
            }
        };
        let (opened, listing) = listing;
        let mut files: Vec<(String, OsString, bool)> = Vec::new();
        for (raw, kind) in listing {
            let file = shown_name(&raw);
            let rel = format!("{who}/{file}");
            if let Some(why) = not_followed(&file, kind) {
                found.push(error_entry(who, &rel, why));
            } else if kind == EntryKind::Dir {
                // A program of several files (PROBLEM/ or PROBLEM.N/).
                files.push((file, raw, true));
            } else {
                // Its size on the descriptor, as it is now (it is read again
                // when judged, and checked again then).
                let size = opened
                    .file(&raw)
                    .and_then(|f| f.metadata())
                    .map(|m| m.len());
                match size {
                    Err(e) => found.push(error_entry(who, &rel, format!("cannot be read: {e}"))),
                    Ok(len) if len > MAX_SUBMISSION_BYTES => found.push(error_entry(
                        who,
                        &rel,
                        format!("too large to judge ({len} bytes; at most {MAX_SUBMISSION_BYTES})"),
                    )),
                    Ok(_) => files.push((file, raw, false)),
                }
            }
        }
        files.sort_by(|a, b| a.0.cmp(&b.0));
        if files.is_empty() {
            found.push(error_entry(who, "", "no submissions in this folder".into()));
        }
        let mut attempts: BTreeMap<(String, u32), String> = BTreeMap::new();
        for (file, raw, is_dir) in files {
            let path = dir.join(folder).join(&raw);
            let rel = format!("{who}/{file}");
            // With a start in contest.toml, a file's time is when it was
            // last modified: ICPC penalty time counts from the start.
            let submitted_ms = spec
                .clock
                .start
                .and_then(|_| {
                    let opened = match is_dir {
                        true => opened.dir(&raw).map(|d| std::fs::File::from(d.into_fd())),
                        false => opened.file(&raw),
                    };
                    opened.and_then(|f| f.metadata()).ok()
                })
                .and_then(|m| modified_ms(&m));
            let named = match is_dir {
                true => format!("{file}.dir"),
                false => file.clone(),
            };
            let Some((problem, attempt)) = parse_submission_name(&named, &known) else {
                let known_list: Vec<&str> = known.iter().map(String::as_str).collect();
                found.push(error_entry(
                    who,
                    &rel,
                    format!("names no problem of the contest (expected PROBLEM.EXT or PROBLEM.N.EXT, or a folder PROBLEM or PROBLEM.N, PROBLEM one of: {})", known_list.join(", ")),
                ));
                continue;
            };
            let mut entry = Entry {
                contestant: who.clone(),
                file: rel.clone(),
                problem: Some(problem.clone()),
                attempt,
                error: None,
                score: None,
                submitted_ms,
                report: None,
            };
            if let Some(first) = attempts.insert((problem.clone(), attempt), rel.clone()) {
                entry.error = Some(format!("attempt {attempt} of {problem} is also `{first}`: number attempts as {problem}.2.EXT, {problem}.3.EXT, ..."));
                found.push(Found {
                    entry,
                    submission: None,
                });
                continue;
            }
            pending.push(Pending {
                entry,
                path,
                folder: folder.clone(),
                file: raw,
                is_dir,
            });
        }
    }
    let contestants: Vec<String> = contestants.into_iter().map(|(who, _)| who).collect();
    let mut unloaded: BTreeMap<String, String> = BTreeMap::new();
    let problems: Vec<Arc<Problem>> = match listed {
        Some(list) => list.into_iter().map(Arc::new).collect(),
        None => {
            let named: BTreeSet<String> = pending
                .iter()
                .filter_map(|p| p.entry.problem.clone())
                .collect();
            let mut problems = Vec::new();
            for id in named {
                match Problem::find(&id, config) {
                    Ok(p) => problems.push(Arc::new(p)),
                    Err(e) => {
                        let why = crate::error::render_chain(&e);
                        unloaded.insert(id, format!("the problem could not be loaded: {why}"));
                    }
                }
            }
            problems
        }
    };
    // A submit-answer problem's files are answers, in no language.
    let answers: BTreeSet<&str> = problems
        .iter()
        .filter(|p| p.submit_answer)
        .map(|p| p.id.as_str())
        .collect();
    for Pending {
        mut entry,
        path,
        folder,
        file,
        is_dir,
    } in pending
    {
        let problem = entry.problem.as_deref().unwrap_or_default();
        if let Some(why) = unloaded.get(problem) {
            entry.error = Some(why.clone());
            found.push(Found {
                entry,
                submission: None,
            });
            continue;
        }
        match submission_at(config, &path, is_dir, answers.contains(problem)) {
            Ok(submission) => found.push(Found {
                entry,
                submission: Some((
                    Located {
                        contest: Arc::clone(&contest),
                        folder,
                        file,
                    },
                    submission,
                )),
            }),
            Err(e) => {
                entry.error = Some(e.to_string());
                found.push(Found {
                    entry,
                    submission: None,
                });
            }
        }
    }
    found.sort_by(|a, b| {
        let (a, b) = (&a.entry, &b.entry);
        (&a.contestant, &a.problem, a.attempt, &a.file).cmp(&(
            &b.contestant,
            &b.problem,
            b.attempt,
            &b.file,
        ))
    });
    Ok(Discovered {
        problems,
        contestants,
        found,
        scratch: None,
    })
}

/// A file of a contestant that names a problem, before the problems are
/// loaded (whether it is a program or answers depends on its problem).
struct Pending {
    entry: Entry,
    path: std::path::PathBuf,
    folder: OsString,
    file: OsString,
    is_dir: bool,
}

/// The submission at `path`: a file in the language of its extension, or a
/// folder of several files built together; with `answers` (a submit-answer
/// problem's), the file or folder of its answers.
pub(super) fn submission_at(
    config: &Config,
    path: &Path,
    is_dir: bool,
    answers: bool,
) -> Result<Submission> {
    if answers {
        return Ok(Submission {
            path: path.to_path_buf(),
            shown: is_dir.then(|| path.to_path_buf()),
            language: Language::answers(),
            companions: Vec::new(),
            text: None,
        });
    }
    if !is_dir {
        return Ok(Submission {
            path: path.to_path_buf(),
            shown: None,
            language: config.detect_language(path)?,
            companions: Vec::new(),
            text: None,
        });
    }
    let (main, companions, build_run) = crate::engine::directory_submission(path, None, config)?;
    let language = match build_run {
        true => Language::build_run(config),
        false => config.detect_language(&main)?,
    };
    Ok(Submission {
        path: main,
        shown: Some(path.to_path_buf()),
        language,
        companions,
        text: None,
    })
}

/// Why an entry of the contest directory is not read, if it is not: a link
/// (never followed), a hidden entry, or anything but a folder or a file.
fn not_followed(name: &str, kind: EntryKind) -> Option<String> {
    match kind {
        EntryKind::Link => Some("a symbolic link: links are not followed".into()),
        _ if name.starts_with('.') => {
            Some("a hidden entry (its name starts with `.`): not judged".into())
        }
        EntryKind::Other => Some("neither a folder nor a regular file".into()),
        EntryKind::File | EntryKind::Dir => None,
    }
}

/// The most entries of the contest folder, or of a contestant's, listed.
const MAX_ENTRIES: usize = 100_000;

/// A file name as shown in reports: as it is when it is valid UTF-8, else
/// with each byte that is not escaped as `\xNN` (so two names never show
/// the same, and nothing is lost).
pub(crate) fn shown_name(name: &std::ffi::OsStr) -> String {
    let bytes = name.as_encoded_bytes();
    let mut shown = String::new();
    for chunk in bytes.utf8_chunks() {
        shown.push_str(&chunk.valid().replace('\\', "\\\\"));
        for byte in chunk.invalid() {
            shown.push_str(&format!("\\x{byte:02x}"));
        }
    }
    shown
}

fn error_entry(contestant: &str, file: &str, error: String) -> Found {
    Found {
        entry: Entry {
            contestant: contestant.into(),
            file: file.into(),
            problem: None,
            attempt: 0,
            error: Some(error),
            score: None,
            submitted_ms: None,
            report: None,
        },
        submission: None,
    }
}

/// The contest as reported (title, scoring, problems with their points).
pub(crate) fn contest_info(spec: &ContestSpec, discovered: &Discovered) -> ContestInfo {
    ContestInfo {
        title: spec.title.clone(),
        scoring: spec.scoring,
        penalty: spec.penalty,
        problems: discovered
            .problems
            .iter()
            .map(|p| ContestProblem {
                id: p.id.clone(),
                title: p.title.clone(),
                points: available_points(p),
            })
            .collect(),
        contestants: discovered.contestants.clone(),
        id: spec.id.clone(),
        clock: Some(spec.clock),
    }
}

/// A file's modification time, ms since the epoch.
fn modified_ms(meta: &std::fs::Metadata) -> Option<i64> {
    let since = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(since.as_millis() as i64)
}

/// Points a problem is worth: its groups' points, or 100 when it declares none.
pub(crate) fn available_points(problem: &Problem) -> u64 {
    let declared: u64 = problem
        .groups
        .iter()
        .filter_map(|g| g.points)
        .map(u64::from)
        .sum();
    if problem.groups.iter().any(|g| g.points.is_some()) {
        declared
    } else {
        100
    }
}

/// IOI points of a judged submission: each group with points counts when all
/// its tests are accepted; a problem without points gives 100 for AC.
pub(crate) fn ioi_score(problem: &Problem, report: &SubmissionReport) -> u64 {
    if report.verdict == Verdict::CE {
        return 0;
    }
    if !problem.groups.iter().any(|g| g.points.is_some()) {
        return if report.verdict == Verdict::AC {
            100
        } else {
            0
        };
    }
    problem
        .groups
        .iter()
        .filter_map(|g| g.points.map(|p| (g, u64::from(p))))
        .filter(|(g, _)| {
            let mut tests = report.tests.iter().filter(|t| t.group == g.name).peekable();
            tests.peek().is_some() && tests.all(|t| t.verdict == Verdict::AC)
        })
        .map(|(_, p)| p)
        .sum()
}

/// How judging one file of the contest went.
enum Judged {
    /// Judged.
    Report(SubmissionReport),
    /// It could not be read (it changed since the listing).
    Unreadable(String),
    /// The judge failed on it: why, and its IE report.
    Failed(String, Box<SubmissionReport>),
    /// The judging was interrupted.
    Stop(Error),
}

/// Judges the files of `discovered` that belong to `partition` (all without
/// one). `progress` is called as each file is done, with (done, total, entry).
pub(crate) async fn judge_contest(
    judge: &Judge,
    info: ContestInfo,
    discovered: Discovered,
    partition: Option<Partition>,
    options: &RunOptions,
    mut progress: impl FnMut(usize, usize, &Entry),
) -> Result<Results> {
    let mine: Vec<Found> = discovered
        .found
        .into_iter()
        .enumerate()
        .filter(|(i, _)| partition.is_none_or(|p| p.includes(*i)))
        .map(|(_, f)| f)
        .collect();
    // Tests and checkers of the problems this part needs.
    let needed: BTreeSet<&String> = mine
        .iter()
        .filter(|f| f.submission.is_some())
        .filter_map(|f| f.entry.problem.as_ref())
        .collect();
    let mut prepared: BTreeMap<String, std::result::Result<Prepared, String>> = BTreeMap::new();
    for problem in discovered
        .problems
        .iter()
        .filter(|p| needed.contains(&p.id))
    {
        // A problem whose tests cannot be made (a contest folder may name a
        // package of its own) is its entries' error, not the contest's.
        let ready = match judge.ready(problem, &TestFilter::default()).await {
            Ok(r) => {
                // Judging goes on without what could not run (a validator).
                for warning in &r.tests.warnings {
                    eprintln!("warning: {}: {warning}", problem.id);
                }
                Ok((r.problem, r.tests, r.checker))
            }
            Err(e @ Error::Interrupted) => return Err(e),
            Err(e) => Err(crate::error::render_chain(&e)),
        };
        prepared.insert(problem.id.clone(), ready);
    }
    let total = mine.len();
    let mut done = 0;
    let mut entries = Vec::new();
    let mut tasks = tokio::task::JoinSet::new();
    for found in mine {
        let Some((located, submission)) = found.submission.clone() else {
            done += 1;
            progress(done, total, &found.entry);
            entries.push(found.entry);
            continue;
        };
        let id = found
            .entry
            .problem
            .clone()
            .expect("judgeable entries name a problem");
        match prepared.get(&id) {
            Some(Ok((problem, tests, checker))) => {
                let (judge, problem, tests, checker) = (
                    judge.clone(),
                    Arc::clone(problem),
                    Arc::clone(tests),
                    checker.clone(),
                );
                let options = options.clone();
                tasks.spawn(async move {
                    // Read now, from the contest folder's descriptor: what
                    // is judged is what is read here, once.
                    let submission = match located.read(submission) {
                        Ok(submission) => submission,
                        Err(e) => {
                            let why = format!("cannot be read: {e}");
                            return (found.entry, problem, Judged::Unreadable(why));
                        }
                    };
                    let judged = judge
                        .judge_submission_queued(
                            &problem,
                            &tests,
                            &checker,
                            &submission,
                            &options,
                            |_| {},
                        )
                        .await;
                    let judged = match judged {
                        Ok(report) => Judged::Report(report),
                        Err(e @ Error::Interrupted) => {
                            return (found.entry, problem, Judged::Stop(e))
                        }
                        Err(e) => {
                            let why = crate::error::render_chain(&e);
                            let why = why.strip_prefix("error: ").unwrap_or(&why).to_string();
                            let report = judge.failed_report(&problem, &tests, &submission, &why);
                            Judged::Failed(why, Box::new(report))
                        }
                    };
                    (found.entry, problem, judged)
                });
            }
            Some(Err(why)) => {
                let mut entry = found.entry;
                entry.error = Some(format!("the problem's tests could not be built: {why}"));
                done += 1;
                progress(done, total, &entry);
                entries.push(entry);
            }
            None => unreachable!("every needed problem was prepared"),
        }
    }
    while let Some(joined) = tasks.join_next().await {
        let (mut entry, problem, report) = joined.expect("judging task panicked");
        match report {
            Judged::Report(mut report) => {
                report.submission = entry.file.clone();
                entry.score = Some(ioi_score(&problem, &report));
                entry.report = Some(report);
            }
            Judged::Unreadable(why) => entry.error = Some(why),
            Judged::Stop(e) => return Err(e),
            // One submission the judge failed on is that submission's IE:
            // every other is judged and written all the same.
            Judged::Failed(why, report) => {
                entry.error = Some(format!("the judge failed on it (IE): {why}"));
                entry.score = Some(0);
                entry.report = Some(*report);
            }
        }
        done += 1;
        progress(done, total, &entry);
        entries.push(entry);
    }
    sort_entries(&mut entries);
    Ok(Results::new(
        info,
        partition.map(|p| p.to_string()),
        entries,
    ))
}
