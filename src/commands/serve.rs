//! `judge serve CONTEST_DIR`: a live contest in one command. Checks
//! contest.toml for a live contest, binds the address, locks the database,
//! makes the problems ready with the engine, then runs two things until
//! Ctrl-C: the web server (pages, the Contest API, the clock) on threads of
//! its own, and the judging of the queue on the engine's thread.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{mpsc, Arc};

use super::start_judge;
use crate::cli::args::ServeArgs;
use crate::cli::Settings;
use crate::config::Language;
use crate::contest::{ContestSpec, Credential, Scoring, CONTEST_FILE};
use crate::engine::{Hide, Judge};
use crate::error::{exit_code, Error, Result, SpecError};
use crate::problem::Problem;
use crate::sandbox::IsolationMode;
use crate::server::auth::{is_valid_hash, Argon, Verifier};
use crate::server::live::{LiveContest, ProblemPage};
use crate::server::model::{
    ContestSnapshot, GroupSnapshot, LanguageSnapshot, LiveConfig, OrganizationSnapshot,
    TeamSnapshot,
};
use crate::server::packages::{self, Fingerprint};
use crate::server::store::{lock_key, AccountRow, Changes, Database, Holder, Store, SERVER};
use crate::server::worker::{judge_queue, Judging, Prepared, QueueTimes};
use crate::server::{problems, setup};
use crate::testset::TestFilter;

pub(super) fn serve(mut settings: Settings, args: ServeArgs) -> Result<i32> {
    if !args.dir.is_dir() {
        let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory");
        return Err(Error::io(&args.dir, source));
    }
    let contest_file = args.dir.join(CONTEST_FILE);
    if !contest_file.is_file() {
        return Err(Error::Config {
            path: contest_file,
            source: SpecError::one(
                "judge serve needs this file: the problems, the teams (`[[teams]]` with `id` and \
                 `password`), the jury's password (`[jury] password`); see README, \"Running a \
                 live mock contest\"",
            ),
        });
    }
    let spec = ContestSpec::load(&args.dir)?;
    check_live(&spec, &contest_file)?;
    settings.isolation = isolation(settings.isolation, args.insecure)?;
    let db = match &args.db {
        Some(text) => Database::parse(text),
        None => Database::Sqlite(args.dir.join(".judge-serve").join("contest.sqlite")),
    }
    .with_password_file(args.db_password_file.as_deref())?;
    let listener = std::net::TcpListener::bind(&args.listen).map_err(|e| {
        Error::server(
            format!(
                "cannot listen on {} (another server there? give another --listen)",
                args.listen
            ),
            e,
        )
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::server("cannot listen", e))?;
    let address = listener
        .local_addr()
        .map_err(|e| Error::server("cannot listen", e))?;
    let mut lock = Store::lock(&db, SERVER)?;
    // Pages, logins and the API keep answering with many streams open;
    // the streams are capped well below this (crate::web::connections).
    let descriptors = crate::sandbox::raise_open_files_limit();
    let private_dir = match &db {
        Database::Sqlite(path) => path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| args.dir.join(".judge-serve")),
        Database::Postgres(_) => args.dir.join(".judge-serve"),
    };
    let scratch = crate::server::worker::fresh_scratch(&private_dir.join("scratch"))?;
    let argon = Argon::default();
    let accounts = accounts(&spec, &contest_file, &argon)?;
    let problems = load_problems(&spec, &args.dir, &settings)?;
    let changes = Changes::new(0);
    // The web server's threads start before the engine, which keeps its
    // thread (and threads it starts) to one CPU with one job.
    let (to_web, web_gets) = mpsc::channel::<(LiveConfig, BTreeMap<String, ProblemPage>)>();
    let no_judging = args.no_judging;
    let (web_ready, ready) = tokio::sync::oneshot::channel::<Result<()>>();
    let (web_failed, failed) = tokio::sync::oneshot::channel::<Error>();
    let web = {
        let (db, changes) = (db.clone(), Arc::clone(&changes));
        let (limits, contest_file) = (spec.server, contest_file.clone());
        let feed_file = match &db {
            Database::Sqlite(path) => path.with_file_name("event-feed.ndjson"),
            Database::Postgres(_) => args.dir.join(".judge-serve").join("event-feed.ndjson"),
        };
        std::thread::Builder::new()
            .name("web".into())
            .spawn(move || {
                let Ok((config, pages)) = web_gets.recv() else {
                    return;
                };
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ =
                            web_ready.send(Err(Error::server("cannot start the web server", e)));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let started = async {
                        let store = Store::open(&db, changes).await?;
                        store.listen();
                        setup::sync(&store, &config, &accounts, &contest_file).await?;
                        let last = store.last_event().await?;
                        store.changes().bump(last);
                        let verifier = Verifier::new(
                            argon,
                            accounts
                                .iter()
                                .map(|a| (a.id.clone(), a.password_hash.clone())),
                        );
                        let live = LiveContest::new(config, limits, pages, store, verifier);
                        live.tick().await?;
                        let app = crate::web::App {
                            live: Arc::new(live),
                            failures: Arc::new(crate::web::Failures::default()),
                            streams: Arc::new(crate::web::Streams::for_descriptors(descriptors)),
                            rendered: Arc::default(),
                        };
                        let listener = tokio::net::TcpListener::from_std(listener)
                            .map_err(|e| Error::server("cannot listen", e))?;
                        Ok::<_, Error>((app, listener))
                    };
                    let (app, listener) = match started.await {
                        Ok(x) => x,
                        Err(e) => {
                            let _ = web_ready.send(Err(e));
                            return;
                        }
                    };
                    let _ = web_ready.send(Ok(()));
                    tokio::spawn(crate::web::keep_time(app.clone(), feed_file));
                    let router = crate::web::router(app);
                    crate::web::serve(listener, router, descriptors).await;
                    // Serving ends only with the process; a panic of this
                    // thread drops the sender, which stops the server.
                    drop(web_failed);
                });
            })
            .map_err(|e| Error::server("cannot start the web server's thread", e))?
    };
    let no_cache = settings.no_cache;
    // No run sees the contest folder (contest.toml holds the password
    // hashes) nor the database's folder.
    let mut hide = vec![Hide::Required(args.dir.clone())];
    if let Database::Sqlite(path) = &db {
        hide.extend(path.parent().map(|d| Hide::IfPossible(d.to_path_buf())));
    }
    let judge = start_judge(settings, &problems, &hide)?;
    let ioi = spec.scoring == Scoring::Ioi;
    // More submissions in hand than slots, so a slot never waits while a
    // judging writes its outcome or starts the next (the slots still bound
    // what runs at once, first come first served).
    let parallel = judge.config().jobs.get() * 2;
    let gone = || {
        Error::server(
            "the web server's thread stopped",
            std::io::Error::other("gone"),
        )
    };
    // One runtime for all the engine's work: its processes and tasks live
    // as long as it does.
    let judging = async {
        let (prepared, languages, config, pages) =
            prepare(&judge, &spec, &problems, &contest_file).await?;
        let fingerprint = fingerprint(&problems, &prepared, &languages)?;
        to_web.send((config.clone(), pages)).map_err(|_| gone())?;
        ready.await.map_err(|_| gone())??;
        eprintln!(
            "judge serve: `{}` ({} teams, {} problems, {} languages) at http://{address}/ \
             (the jury logs in as `jury`); database {}; {}; Ctrl-C stops it, nothing is lost",
            config.contest.title,
            config.teams.len(),
            config.problems.len(),
            config.languages.len(),
            db.shown(),
            if no_judging {
                "judging left to `judge judgehost`".to_string()
            } else {
                format!("judging {parallel} at once")
            }
        );
        let store = Store::open(&db, Arc::clone(&changes)).await?;
        // Hosts compare their copy of the contest with this (and every
        // claim of theirs compares the id, so a host of an older copy
        // stops when the server restarts with changed problems).
        let text = serde_json::to_string(&fingerprint).expect("fingerprints serialise");
        store.set_meta(packages::META_KEY, &text).await?;
        store.set_meta("fingerprint", &fingerprint.id()).await?;
        let judging = Judging {
            store: store.clone(),
            problems: Arc::new(prepared),
            languages: Arc::new(languages),
            holder: Holder {
                name: SERVER.into(),
                key: store.is_postgres().then(|| lock_key(SERVER)),
                fingerprint: None,
            },
            ioi,
            parallel,
            scratch,
            no_cache,
            queue_times: QueueTimes::new(false),
        };
        let judged = async {
            if no_judging {
                // Only what the server held when it stopped goes back.
                store.requeue_claims_of(SERVER).await?;
                std::future::pending::<()>().await;
            }
            judge_queue(judge.clone(), judging).await
        };
        tokio::select! {
            done = judged => done,
            e = failed => Err(e.unwrap_or_else(|_| gone())),
            why = lock.lost() => Err(Error::Server {
                what: format!(
                    "lost the connection to the database {} that holds the server's lock ({why}): \
                     stopped, so that another server may take over; start it again",
                    db.shown()
                ),
                source: None,
            }),
        }
    };
    let result = judge.block_on(judging);
    drop(web);
    match result {
        Err(Error::Interrupted) => {
            eprintln!(
                "judge serve: stopped; what was being judged is judged again at the next start"
            );
            Ok(exit_code::OK)
        }
        Err(e) => Err(e),
        Ok(()) => Ok(exit_code::OK),
    }
}

/// What the server judges with, for the hosts to compare.
fn fingerprint(
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
pub(super) fn check_live(spec: &ContestSpec, contest_file: &Path) -> Result<()> {
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
pub(super) fn isolation(asked: IsolationMode, insecure: bool) -> Result<IsolationMode> {
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
fn accounts(spec: &ContestSpec, contest_file: &Path, argon: &Argon) -> Result<Vec<AccountRow>> {
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

pub(super) fn load_problems(
    spec: &ContestSpec,
    dir: &Path,
    settings: &Settings,
) -> Result<Vec<Arc<Problem>>> {
    let mut problems = Vec::new();
    for name in spec.problems.iter().flatten() {
        let as_path = dir.join(name);
        let name = if as_path.is_dir() {
            as_path.display().to_string()
        } else {
            name.clone()
        };
        let problem = Problem::find(&name, &settings.config)?;
        if problems.iter().any(|p: &Arc<Problem>| p.id == problem.id) {
            return Err(Error::Config {
                path: dir.join(CONTEST_FILE),
                source: SpecError::one(format!("`problems` names `{}` twice", problem.id)),
            });
        }
        super::print_notes(&problem);
        problems.push(Arc::new(problem));
    }
    Ok(problems)
}

pub(super) type Ready = (
    BTreeMap<String, Prepared>,
    BTreeMap<String, Language>,
    LiveConfig,
    BTreeMap<String, ProblemPage>,
);

/// The problems made ready (tests, answers, checkers), the languages
/// checked, and what the server shows.
pub(super) async fn prepare(
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
            super::print_note(&problem.id, Some(note));
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
    let languages = languages(judge, spec, contest_file).await?;
    let config = LiveConfig {
        contest: ContestSnapshot {
            id: spec.id.clone(),
            title: spec.title.clone(),
            scoring: spec.scoring,
            penalty: spec.penalty,
            clock: spec.clock,
        },
        problems: snapshots,
        languages: languages
            .values()
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
    };
    let unknown: Vec<String> = config
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
