//! A contest folder read into what a server or a judging host runs: the
//! checks of contest.toml for a live contest, the isolation insisted on,
//! the accounts, the problems loaded and made ready by the engine, the
//! languages, and the fingerprint the hosts compare. The main function is
//! [`prepare`].

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::config::{Config, Language};
use crate::contest::{ContestSpec, Credential, CONTEST_FILE};
use crate::engine::{Hide, Judge};
use crate::error::{Error, Result, SpecError};
use crate::problem::Problem;
use crate::sandbox::IsolationMode;
use crate::server::auth::{is_valid_hash, Argon};
use crate::server::live::ProblemPage;
use crate::server::model::{
    ContestSnapshot, GroupSnapshot, LanguageSnapshot, LiveConfig, OrganizationSnapshot,
    TeamSnapshot,
};
use crate::server::packages::{self, Fingerprint};
use crate::server::problems;
use crate::server::store::AccountRow;
use crate::server::worker::Prepared;
use crate::testset::TestFilter;

/// Prints one note of a problem (on stderr: not results).
fn print_note(problem: &str, note: &str) {
    eprintln!(
        "note: {}: {}",
        crate::printable::printable_line(problem),
        crate::printable::printable_line(note)
    );
}

/// The engine for a contest's `problems`, its sandbox's warning printed
/// once. No run sees the problems' folders, nor `hide` (the contest folder
/// with its password hashes, the database's folder).
pub(crate) fn start_judge(
    config: Config,
    isolation: IsolationMode,
    problems: &[Arc<Problem>],
    hide: &[Hide],
) -> Result<Judge> {
    let mut all: Vec<Hide> = problems
        .iter()
        .flat_map(|p| [p.dir.clone(), p.testdata_dir.clone()])
        .map(Hide::Required)
        .collect();
    all.extend(hide.iter().cloned());
    let judge = Judge::new(config, isolation, &all)?;
    if let Some(warning) = judge.sandbox().warning() {
        eprintln!("warning: {warning}");
    }
    Ok(judge)
}

/// What the server judges with, for the hosts to compare.
pub(super) fn fingerprint(
    problems: &[Arc<Problem>],
    prepared: &BTreeMap<String, Prepared>,
    languages: &BTreeMap<String, Language>,
) -> Result<Fingerprint> {
    let mut prints = BTreeMap::new();
    for problem in problems {
        let settled = &prepared[&problem.id].problem;
        prints.insert(
            problem.id.clone(),
            packages::problem_print(problem, settled.limits.time.as_millis() as u64)?,
        );
    }
    Ok(Fingerprint {
        judge: env!("CARGO_PKG_VERSION").into(),
        problems: prints,
        languages: languages
            .iter()
            .map(|(id, l)| (id.clone(), packages::language_hash(l)))
            .collect(),
    })
}

/// contest.toml has what a live contest needs: problems, teams with
/// passwords, the jury's password.
pub(crate) fn check_live(spec: &ContestSpec, contest_file: &Path) -> Result<()> {
    let mut problems = Vec::new();
    if spec.problems.as_ref().is_none_or(|p| p.is_empty()) {
        problems.push("`problems` is missing: list the contest's problems (ids or paths)".into());
    }
    if spec.teams.is_empty() {
        problems.push(
            "no teams: add one `[[teams]]` table per team with `id`, `name` and `password`, \
             `teams = N` for a quick camp, or a teams.tsv (DOMjudge), teams.json (contest \
             package) or teams.csv (`id,name,affiliation,group`) beside contest.toml"
                .into(),
        );
    }
    for t in spec.teams.iter().filter(|t| t.credential.is_none()) {
        problems.push(format!(
            "team `{}` has no `password` (or `password_hash`; `judge passwords` makes them)",
            t.id
        ));
    }
    if spec.jury.is_none() {
        problems.push("no `[jury]` with a `password`: the jury logs in as `jury` with it".into());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Config {
            path: contest_file.to_path_buf(),
            source: SpecError { problems },
        })
    }
}

/// A live contest judges at full isolation: `--isolation none` or a
/// machine without it is refused unless `--insecure`.
pub(crate) fn isolation(asked: IsolationMode, insecure: bool) -> Result<IsolationMode> {
    match (asked, insecure) {
        (mode, true) => Ok(mode),
        (IsolationMode::None, false) => Err(Error::Usage(
            "judge serve judges teams' programs at full isolation; `--isolation none` is refused \
             (add --insecure to judge without a sandbox anyway)"
                .into(),
        )),
        (_, false) => Ok(IsolationMode::Strict),
    }
}

/// The accounts with their hashes: a password in clear is hashed now.
pub(super) fn accounts(
    spec: &ContestSpec,
    contest_file: &Path,
    argon: &Argon,
) -> Result<Vec<AccountRow>> {
    let mut wanted: Vec<(String, bool, Credential)> = spec
        .teams
        .iter()
        .filter_map(|t| t.credential.clone().map(|c| (t.id.clone(), true, c)))
        .collect();
    if let Some(jury) = &spec.jury {
        wanted.push(("jury".into(), false, jury.clone()));
    }
    let mut bad = Vec::new();
    for (id, _, c) in &wanted {
        if let Credential::Hash(h) = c {
            if !is_valid_hash(h) {
                bad.push(format!(
                    "`{id}`: `password_hash` is not a valid Argon2 hash"
                ));
            }
        }
    }
    if !bad.is_empty() {
        return Err(Error::Config {
            path: contest_file.to_path_buf(),
            source: SpecError { problems: bad },
        });
    }
    // One Argon2 memory for all (tens of milliseconds a password).
    let rows = wanted
        .iter()
        .map(|(id, is_team, c)| AccountRow {
            id: id.clone(),
            is_team: *is_team,
            password_hash: match c {
                Credential::Plain(p) => argon.hash_of_clear(id, p),
                Credential::Hash(h) => h.clone(),
            },
        })
        .collect();
    Ok(rows)
}

/// The problems contest.toml names, each loaded (a folder beside it, or
/// a problem judge.toml finds by name); one named twice is refused.
pub(crate) fn load_problems(
    spec: &ContestSpec,
    dir: &Path,
    config: &Config,
) -> Result<Vec<Arc<Problem>>> {
    let mut problems = Vec::new();
    for name in spec.problems.iter().flatten() {
        let as_path = dir.join(name);
        let name = if as_path.is_dir() {
            as_path.display().to_string()
        } else {
            name.clone()
        };
        let problem = Problem::find(&name, config)?;
        if problems.iter().any(|p: &Arc<Problem>| p.id == problem.id) {
            return Err(Error::Config {
                path: dir.join(CONTEST_FILE),
                source: SpecError::one(format!("`problems` names `{}` twice", problem.id)),
            });
        }
        for note in &problem.notes {
            print_note(&problem.id, note);
        }
        problems.push(Arc::new(problem));
    }
    Ok(problems)
}

/// What a contest is judged and shown with: the problems made ready, the
/// languages, the configuration and the problems' pages.
pub(crate) type Ready = (
    BTreeMap<String, Prepared>,
    BTreeMap<String, Language>,
    LiveConfig,
    BTreeMap<String, ProblemPage>,
);

/// The problems made ready (tests, answers, checkers), the languages
/// checked, and what the server shows.
pub(crate) async fn prepare(
    judge: &Judge,
    spec: &ContestSpec,
    problems: &[Arc<Problem>],
    contest_file: &Path,
) -> Result<Ready> {
    let mut prepared = BTreeMap::new();
    let mut snapshots = Vec::new();
    let mut pages = BTreeMap::new();
    for (i, problem) in problems.iter().enumerate() {
        eprintln!("preparing {} ({} of {})", problem.id, i + 1, problems.len());
        let ready = judge.ready(problem, &TestFilter::default()).await?;
        if let Some(note) = &ready.time_note {
            print_note(&problem.id, note);
        }
        snapshots.push(problems::snapshot(i, &ready.problem, &ready.tests));
        pages.insert(
            problem.id.clone(),
            problems::page(&ready.problem, &ready.tests),
        );
        prepared.insert(
            problem.id.clone(),
            Prepared {
                problem: Arc::clone(&ready.problem),
                tests: Arc::clone(&ready.tests),
                checker: ready.checker,
            },
        );
    }
    let mut languages = languages(judge, spec, contest_file).await?;
    // A submit-answer problem's submissions are answers: a language of
    // their own, which the judging knows and the API lists.
    if problems.iter().any(|p| p.submit_answer) {
        let answers = Language::answers();
        languages.insert(answers.id.clone(), answers);
    }
    let config = LiveConfig {
        contest: ContestSnapshot {
            id: spec.id.clone(),
            title: spec.title.clone(),
            scoring: spec.scoring,
            penalty: spec.penalty,
            clock: spec.clock,
        },
        problems: snapshots,
        languages: crate::server::setup::offered_order(languages.values())
            .map(|l| LanguageSnapshot {
                id: l.id.clone(),
                name: l.name.clone(),
                extensions: crate::server::setup::offered_extensions(l, &judge.config().languages),
                entry_point_name: None,
            })
            .collect(),
        teams: spec
            .teams
            .iter()
            .map(|t| TeamSnapshot {
                id: t.id.clone(),
                name: t.name.clone(),
                label: t.label.clone(),
                organization_id: t.organization.clone(),
                group_ids: t.groups.clone(),
                hidden: t
                    .groups
                    .iter()
                    .any(|g| spec.groups.iter().any(|x| &x.id == g && x.hidden)),
            })
            .collect(),
        groups: spec
            .groups
            .iter()
            .map(|g| GroupSnapshot {
                id: g.id.clone(),
                name: g.name.clone(),
                hidden: g.hidden,
            })
            .collect(),
        organizations: spec
            .organizations
            .iter()
            .map(|o| OrganizationSnapshot {
                id: o.id.clone(),
                name: o.name.clone(),
                formal_name: o.formal_name.clone(),
                country: o.country.clone(),
            })
            .collect(),
        medals: spec.medals,
        balloons: spec.balloons.clone(),
        printing: spec.printing.clone(),
        rooms: spec
            .teams
            .iter()
            .filter_map(|t| Some((t.id.clone(), t.room.clone()?)))
            .collect(),
        answer_problems: problems
            .iter()
            .filter(|p| p.submit_answer)
            .map(|p| p.id.clone())
            .collect(),
    };
    let mut unknown: Vec<String> = config
        .balloons
        .keys()
        .filter(|k| {
            !config
                .problems
                .iter()
                .any(|p| &p.id == *k || &p.label == *k)
        })
        .map(|k| format!("[balloons] `{k}`: no problem of this contest has this id or label"))
        .collect();
    unknown.extend(crate::server::printing::missing_printer(&config.printing));
    if !unknown.is_empty() {
        return Err(Error::Config {
            path: contest_file.to_path_buf(),
            source: SpecError { problems: unknown },
        });
    }
    Ok((prepared, languages, config, pages))
}

/// The contest's languages: those contest.toml lists (each must be
/// usable here), else every language of judge.toml usable here.
async fn languages(
    judge: &Judge,
    spec: &ContestSpec,
    contest_file: &Path,
) -> Result<BTreeMap<String, Language>> {
    let all = &judge.config().languages;
    let mut chosen = BTreeMap::new();
    match &spec.languages {
        Some(ids) => {
            let mut unknown = Vec::new();
            for id in ids {
                match all.iter().find(|l| &l.id == id) {
                    Some(l) => {
                        judge.check_language(l).await?;
                        chosen.insert(l.id.clone(), l.clone());
                    }
                    None => unknown.push(format!(
                        "`languages`: no language `{id}` in judge.toml (`judge list --languages` lists them)"
                    )),
                }
            }
            if !unknown.is_empty() {
                return Err(Error::Config {
                    path: contest_file.to_path_buf(),
                    source: SpecError { problems: unknown },
                });
            }
        }
        None => {
            let mut missing = Vec::new();
            for l in all.iter().filter(|l| l.id != "checktestdata") {
                match judge.check_language(l).await {
                    Ok(_) => {
                        chosen.insert(l.id.clone(), l.clone());
                    }
                    Err(_) => missing.push(l.id.clone()),
                }
            }
            if !missing.is_empty() {
                eprintln!(
                    "note: languages not installed here, left out of the contest: {}",
                    missing.join(", ")
                );
            }
        }
    }
    Ok(chosen)
}
