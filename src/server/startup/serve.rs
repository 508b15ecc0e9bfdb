//! A live contest started and run until Ctrl-C: contest.toml checked for a
//! live contest, the address bound, the database locked, the descriptor
//! limit raised, the problems made ready with the engine; then the web
//! server (given by the layer above, [`Http`]) and the clock on threads of
//! their own, and the judging of the queue on the engine's thread. The
//! main function is [`serve`].

use std::collections::BTreeMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};

use super::contest::{
    accounts, check_live, fingerprint, isolation, load_problems, prepare, start_judge,
};
use crate::config::Config;
use crate::contest::{ContestSpec, Scoring, CONTEST_FILE};
use crate::engine::Hide;
use crate::error::{Error, Result, SpecError};
use crate::sandbox::IsolationMode;
use crate::server::auth::{Argon, Verifier};
use crate::server::live::{LiveContest, ProblemPage};
use crate::server::model::LiveConfig;
use crate::server::packages;
use crate::server::setup;
use crate::server::store::{lock_key, Changes, Database, Holder, Store, SERVER};
use crate::server::worker::{judge_queue, Judging, QueueTimes};

/// What `judge serve` was asked to run.
#[derive(Debug)]
pub(crate) struct ServeOptions {
    /// The contest folder.
    pub(crate) dir: PathBuf,
    /// The address to listen on.
    pub(crate) listen: String,
    /// The database, as given (default: an SQLite file in the folder).
    pub(crate) db: Option<String>,
    /// A file holding the database's password.
    pub(crate) db_password_file: Option<PathBuf>,
    /// Judge without full isolation when the machine has none.
    pub(crate) insecure: bool,
    /// Leave the judging to judging hosts.
    pub(crate) no_judging: bool,
    /// judge.toml.
    pub(crate) config: Config,
    /// The isolation asked for.
    pub(crate) isolation: IsolationMode,
    /// Judge every test again.
    pub(crate) no_cache: bool,
}

/// The HTTP layer (above this one), as the server starts it.
pub(crate) trait Http: Send + 'static {
    /// Serves `live` on `listener` for as long as the process runs, with
    /// at most as many connections as `descriptors` allow beside the
    /// judging's.
    fn serve(
        self,
        live: Arc<LiveContest>,
        listener: tokio::net::TcpListener,
        descriptors: u64,
    ) -> impl Future<Output = ()>;

    /// The whole event feed as the jury reads it (written to a file for
    /// the ICPC Resolver once the contest is final).
    fn feed(live: &LiveContest) -> impl Future<Output = Result<String>>;
}

/// Runs the contest of `options.dir` until Ctrl-C (then
/// [`Error::Interrupted`]), served by `http`.
pub(crate) fn serve<H: Http>(options: ServeOptions, http: H) -> Result<()> {
    let dir = options.dir;
    if !dir.is_dir() {
        let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory");
        return Err(Error::io(&dir, source));
    }
    let contest_file = dir.join(CONTEST_FILE);
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
    let spec = ContestSpec::load(&dir)?;
    check_live(&spec, &contest_file)?;
    let isolation = isolation(options.isolation, options.insecure)?;
    let db = match &options.db {
        Some(text) => Database::parse(text),
        None => Database::Sqlite(dir.join(".judge-serve").join("contest.sqlite")),
    }
    .with_password_file(options.db_password_file.as_deref())?;
    let listener = std::net::TcpListener::bind(&options.listen).map_err(|e| {
        Error::server(
            format!(
                "cannot listen on {} (another server there? give another --listen)",
                options.listen
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
            .unwrap_or_else(|| dir.join(".judge-serve")),
        Database::Postgres(_) => dir.join(".judge-serve"),
    };
    let scratch = crate::server::worker::fresh_scratch(&private_dir.join("scratch"))?;
    let argon = Argon::default();
    let accounts = accounts(&spec, &contest_file, &argon)?;
    let problems = load_problems(&spec, &dir, &options.config)?;
    let changes = Changes::new(0);
    // The web server's threads start before the engine, which keeps its
    // thread (and threads it starts) to one CPU with one job.
    let (to_web, web_gets) = mpsc::channel::<(LiveConfig, BTreeMap<String, ProblemPage>)>();
    let no_judging = options.no_judging;
    let (web_ready, ready) = tokio::sync::oneshot::channel::<Result<()>>();
    let (web_failed, failed) = tokio::sync::oneshot::channel::<Error>();
    let web = {
        let (db, changes) = (db.clone(), Arc::clone(&changes));
        let (limits, contest_file) = (spec.server, contest_file.clone());
        let feed_file = private_dir.join("event-feed.ndjson");
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
                        let listener = tokio::net::TcpListener::from_std(listener)
                            .map_err(|e| Error::server("cannot listen", e))?;
                        Ok::<_, Error>((Arc::new(live), listener))
                    };
                    let (live, listener) = match started.await {
                        Ok(x) => x,
                        Err(e) => {
                            let _ = web_ready.send(Err(e));
                            return;
                        }
                    };
                    let _ = web_ready.send(Ok(()));
                    let clock = {
                        let live = Arc::clone(&live);
                        async move {
                            let feed = {
                                let live = Arc::clone(&live);
                                move || {
                                    let live = Arc::clone(&live);
                                    async move { H::feed(&live).await }
                                }
                            };
                            live.keep_time(&feed_file, feed).await
                        }
                    };
                    tokio::join!(clock, http.serve(live, listener, descriptors));
                    // Serving ends only with the process; a panic of this
                    // thread drops the sender, which stops the server.
                    drop(web_failed);
                });
            })
            .map_err(|e| Error::server("cannot start the web server's thread", e))?
    };
    // No run sees the contest folder (contest.toml holds the password
    // hashes) nor the database's folder.
    let mut hide = vec![Hide::Required(dir.clone())];
    if let Database::Sqlite(path) = &db {
        hide.extend(path.parent().map(|d| Hide::IfPossible(d.to_path_buf())));
    }
    let no_cache = options.no_cache;
    let judge = start_judge(options.config, isolation, &problems, &hide)?;
    let ioi = spec.scoring == Scoring::Ioi;
    // More submissions in hand than slots, so a slot never waits while a
    // judging writes its outcome or starts the next (the slots still bound
    // what runs at once, first come first served).
    let jobs = judge.config().jobs.get();
    let parallel = jobs * 2;
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
                format!("{jobs} test(s) run at once (-j)")
            }
        );
        let store = Store::open(&db, Arc::clone(&changes)).await?;
        // Hosts compare their copy of the contest with this (and every
        // claim of theirs compares the id, so a host of an older copy
        // stops when the server restarts with changed problems).
        let text = serde_json::to_string(&fingerprint).expect("fingerprints serialise");
        store.set_meta(packages::META_KEY, &text).await?;
        store.set_meta("fingerprint", &fingerprint.id()).await?;
        // A rejudging pending when the server stopped goes on: what it
        // judged is kept, what it was judging is judged again.
        for r in store.rejudgings().await? {
            if r.state != crate::server::store::RejudgingState::Pending {
                continue;
            }
            let judgements = store.rejudging_judgements(r.id).await?;
            let done = judgements
                .iter()
                .filter(|j| j.state == crate::server::model::JudgementState::Done)
                .count();
            eprintln!(
                "rejudging {} of problem `{}` is pending ({done} of {} judged, kept); the rest \
                 are judged now; the jury applies or cancels it at /jury/rejudgings/{}",
                r.id,
                r.problem,
                judgements.len(),
                r.id
            );
        }
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
    result
}
