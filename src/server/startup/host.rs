//! A judging host of a contest server on another machine (or this one):
//! takes its name's lock on the database (a second host of one name is
//! refused), waits for the server to record what it judges with, checks
//! its own copy of the contest against it by content hash (a host of other
//! problems or languages refuses to start, naming what differs), makes the
//! problems ready with the server's time limits, then judges the queue with
//! the engine until Ctrl-C. The main function is [`judgehost`].

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::contest::{check_live, isolation, load_problems, prepare, start_judge};
use crate::config::Config;
use crate::contest::{ContestSpec, Scoring, CONTEST_FILE};
use crate::engine::Hide;
use crate::error::{Error, Result, SpecError};
use crate::problem::TimeRule;
use crate::sandbox::IsolationMode;
use crate::server::packages::{self, Fingerprint};
use crate::server::store::{lock_key, Changes, Database, Holder, Store, SERVER};
use crate::server::worker::{judge_queue, Judging, QueueTimes};

/// How often a host looks for the server's fingerprint while it waits.
const WAIT_FOR_SERVER: Duration = Duration::from_secs(2);

/// What `judge judgehost` was asked to run.
#[derive(Debug)]
pub(crate) struct HostOptions {
    /// This host's copy of the contest folder.
    pub(crate) dir: PathBuf,
    /// The server's database, as given.
    pub(crate) db: String,
    /// A file holding the database's password.
    pub(crate) db_password_file: Option<PathBuf>,
    /// This host's name (default: the machine's).
    pub(crate) name: Option<String>,
    /// Judge without full isolation when the machine has none.
    pub(crate) insecure: bool,
    /// judge.toml.
    pub(crate) config: Config,
    /// The isolation asked for.
    pub(crate) isolation: IsolationMode,
    /// Judge every test again.
    pub(crate) no_cache: bool,
}

/// Judges the queue of the server's database until Ctrl-C (then
/// [`Error::Interrupted`]).
pub(crate) fn judgehost(options: HostOptions) -> Result<()> {
    let db =
        Database::parse(&options.db).with_password_file(options.db_password_file.as_deref())?;
    let Database::Postgres(_) = &db else {
        return Err(Error::Usage(format!(
            "judge judgehost needs the server's PostgreSQL database (--db postgres://USER@HOST/DB, the password in PGPASSWORD, ~/.pgpass or --db-password-file), \
             not `{}`: an SQLite database is the server's alone",
            options.db
        )));
    };
    let name = match options.name {
        Some(name) => name,
        None => machine_name(),
    };
    if name == SERVER || name.is_empty() || name.len() > 64 || name.chars().any(char::is_control) {
        return Err(Error::Usage(format!(
            "`{name}` cannot name a judging host (`server` is the server's own judge; at most 64 \
             printable characters): give another --name"
        )));
    }
    let contest_file = options.dir.join(CONTEST_FILE);
    if !contest_file.is_file() {
        return Err(Error::Config {
            path: contest_file,
            source: SpecError::one(
                "judge judgehost needs this host's copy of the contest folder (contest.toml and \
                 its problems, as the server has them)",
            ),
        });
    }
    let spec = ContestSpec::load(&options.dir)?;
    check_live(&spec, &contest_file)?;
    let isolation = isolation(options.isolation, options.insecure)?;
    let mut lock = Store::lock(&db, &name)?;
    let mut problems = load_problems(&spec, &options.dir, &options.config)?;
    let no_cache = options.no_cache;
    let jobs = options.config.jobs.get();
    // No run sees the contest folder (contest.toml holds password hashes).
    let judge = start_judge(
        options.config,
        isolation,
        &problems,
        &[Hide::Required(options.dir.clone())],
    )?;
    let ioi = spec.scoring == Scoring::Ioi;
    let work = async {
        let store = Store::open(&db, Changes::new(0)).await?;
        store.listen();
        let theirs = wait_for_server(&store, &db).await?;
        // The packages are compared before anything is made ready.
        let mut mine = BTreeMap::new();
        for problem in &problems {
            mine.insert(problem.id.clone(), packages::problem_print(problem, 0)?);
        }
        let mut languages = BTreeMap::new();
        for language in &judge.config().languages {
            if theirs.languages.contains_key(&language.id)
                && judge.check_language(language).await.is_ok()
            {
                languages.insert(language.id.clone(), packages::language_hash(language));
            }
        }
        let host = Fingerprint {
            judge: env!("CARGO_PKG_VERSION").into(),
            problems: mine,
            languages,
        };
        let differences = theirs.differences(&host);
        if !differences.is_empty() {
            return Err(Error::Config {
                path: contest_file.clone(),
                source: SpecError {
                    problems: differences
                        .into_iter()
                        .map(|d| {
                            format!("{d}: this host would judge otherwise than the server; copy the server's contest folder and judge.toml here")
                        })
                        .collect(),
                },
            });
        }
        // The server's time limits (settled on its machine where the
        // package infers them), so every host judges with the same.
        for problem in &mut problems {
            let limit = theirs.problems[&problem.id].time_limit_ms;
            let mut fixed = (**problem).clone();
            fixed.limits.time = Duration::from_millis(limit);
            fixed.time_rule = TimeRule::Fixed;
            *problem = Arc::new(fixed);
        }
        let (prepared, all_languages, _, _) =
            prepare(&judge, &spec, &problems, &contest_file).await?;
        let languages = all_languages
            .into_iter()
            .filter(|(id, _)| theirs.languages.contains_key(id))
            .collect();
        eprintln!(
            "judge judgehost `{name}`: judging the queue of {} ({} problems, {} slots, {} \
             submissions in hand); Ctrl-C stops it, what it judges is judged again elsewhere",
            db.shown(),
            prepared.len(),
            jobs,
            jobs * 2
        );
        let judging = Judging {
            store,
            problems: Arc::new(prepared),
            languages: Arc::new(languages),
            holder: Holder {
                name: name.clone(),
                key: Some(lock_key(&name)),
                fingerprint: Some(theirs.id()),
            },
            ioi,
            // Twice the slots in hand, as the server: a slot does not wait
            // while a judging writes its outcome and claims the next.
            parallel: jobs * 2,
            scratch: crate::server::worker::fresh_scratch(
                &std::env::temp_dir().join(format!("judge-judgehost-{name}")),
            )?,
            no_cache,
            queue_times: QueueTimes::new(true),
        };
        tokio::select! {
            done = judge_queue(judge.clone(), judging) => done,
            why = lock.lost() => Err(Error::Server {
                what: format!(
                    "lost the connection to the database {} that holds this host's lock ({why}): \
                     stopped (other hosts take over what it held); start it again",
                    db.shown()
                ),
                source: None,
            }),
        }
    };
    judge.block_on(work)
}

/// The server's fingerprint, once it has recorded it (a host may start
/// before the server has made its problems ready).
async fn wait_for_server(store: &Store, db: &Database) -> Result<Fingerprint> {
    let mut said = false;
    loop {
        if let Some(text) = store.meta(packages::META_KEY).await? {
            return serde_json::from_str(&text).map_err(|e| {
                Error::server(
                    format!(
                        "the database {}: the server's record of its problems is unreadable \
                         (another version of judge?)",
                        db.shown()
                    ),
                    e,
                )
            });
        }
        if !said {
            eprintln!(
                "judge judgehost: waiting for `judge serve` to start on {}",
                db.shown()
            );
            said = true;
        }
        tokio::time::sleep(WAIT_FOR_SERVER).await;
    }
}

/// This machine's name (the kernel's), else `judgehost`.
fn machine_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "judgehost".into())
}
