//! A live contest as the CCS specification's contest package (2023-06,
//! "Contest Package"): each endpoint's JSON as the jury reads it from the
//! API, in `ENDPOINT.json` (`contest.json` for the contest, `api.json` for
//! `/api`), the event feed in `event-feed.ndjson`, and each submission's
//! files where its file reference says, `submissions/ID/files.zip`. The
//! objects are made by [`super::ccs`], the API's own renderer, so the
//! package holds what the API serves. The main function is
//! [`contest_package`].

use serde_json::Value;

use super::ccs::{self, Context, Dialect};
use crate::server::files::zip_of;
use crate::server::record::ContestRecord;
use crate::verdict::Verdict;

/// A file of the package: its path inside it and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PackageFile {
    /// Relative, `/`-separated.
    pub(crate) path: String,
    /// Its content.
    pub(crate) content: Vec<u8>,
}

/// The name of a submission's files in the package (its file reference's
/// `filename`, as [`ccs::submission`] writes it).
pub(crate) const SUBMISSION_FILES: &str = "files.zip";

/// The files of the package of `record`, with `feed` (the jury's whole
/// event feed) as `event-feed.ndjson`.
pub(crate) fn contest_package(record: &ContestRecord, feed: &str) -> Vec<PackageFile> {
    let cx = Context {
        contest_id: &record.contest.id,
        scoring: record.contest.scoring,
        start: record.start,
    };
    let scoring = record.contest.scoring;
    let mut contest = record.contest.clone();
    if contest.clock.start.is_some_and(|s| s > i64::MAX / 8) {
        contest.clock.start = None;
    }
    let list = |objects: Vec<Value>| Value::Array(objects);
    let json: Vec<(&str, Value)> = vec![
        ("api", ccs::api_info()),
        ("contest", ccs::contest(&contest, Dialect::Strict)),
        (
            "judgement-types",
            list(
                Verdict::ALL
                    .iter()
                    .map(|v| ccs::judgement_type(*v, scoring))
                    .collect(),
            ),
        ),
        (
            "languages",
            list(record.languages.iter().map(ccs::language).collect()),
        ),
        (
            "problems",
            list(
                record
                    .problems
                    .iter()
                    .map(|p| ccs::problem(p, scoring))
                    .collect(),
            ),
        ),
        (
            "groups",
            list(record.groups.iter().map(ccs::group).collect()),
        ),
        (
            "organizations",
            list(record.organizations.iter().map(ccs::organization).collect()),
        ),
        ("teams", list(record.teams.iter().map(ccs::team).collect())),
        ("accounts", list(ccs::accounts(&record.teams))),
        ("state", ccs::state(&record.state)),
        (
            "submissions",
            list(
                record
                    .submissions
                    .iter()
                    .map(|(s, _)| ccs::submission(s, &cx))
                    .collect(),
            ),
        ),
        (
            "judgements",
            list(
                record
                    .judgements
                    .iter()
                    .map(|j| ccs::judgement(j, &cx))
                    .collect(),
            ),
        ),
        (
            "runs",
            list(record.runs.iter().map(|r| ccs::run(r, &cx)).collect()),
        ),
        (
            "clarifications",
            list(
                record
                    .clarifications
                    .iter()
                    .map(|c| ccs::clarification(c, &cx))
                    .collect(),
            ),
        ),
        (
            "awards",
            list(record.awards.iter().map(ccs::award).collect()),
        ),
        ("scoreboard", ccs::scoreboard(&record.board, &cx)),
    ];
    let mut files: Vec<PackageFile> = json
        .into_iter()
        .map(|(name, value)| {
            let mut content = serde_json::to_vec_pretty(&value).expect("JSON values serialise");
            content.push(b'\n');
            PackageFile {
                path: format!("{name}.json"),
                content,
            }
        })
        .collect();
    files.push(PackageFile {
        path: "event-feed.ndjson".into(),
        content: feed.as_bytes().to_vec(),
    });
    for (s, sources) in &record.submissions {
        files.push(PackageFile {
            path: format!("submissions/{}/{SUBMISSION_FILES}", s.id),
            content: zip_of(sources),
        });
    }
    files
}

/// The package as one zip, its files at the zip's root (unzip it into a
/// folder named after the contest).
pub(crate) fn zip(files: &[PackageFile]) -> Vec<u8> {
    let entries: Vec<crate::server::model::SourceFile> = files
        .iter()
        .map(|f| crate::server::model::SourceFile::new(&f.path, f.content.clone()))
        .collect();
    zip_of(&entries)
}
