//! Storage of a live contest and its judging queue: one interface, [`Store`],
//! over SQL that SQLite (embedded, the default) and PostgreSQL both run,
//! through sqlx's `Any` driver with queries checked at run time. What the
//! server acknowledges is committed first; ids and the event log are
//! assigned inside the writing transaction. Changes are announced in the
//! process ([`Changes`]) so the judging and the event feeds wake at once;
//! on PostgreSQL also to other processes (NOTIFY at commit, see
//! [`postgres`]); the judges also poll, so nothing is missed for long.

mod accounts;
mod desk;
mod postgres;
mod printing;
mod queue;
mod records;
mod rejudgings;
mod schema;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};
use tokio::sync::{watch, Mutex, Notify};

use crate::error::{Error, Result};

pub(crate) use accounts::{AccountRow, SessionRow};
pub(crate) use desk::ClaimRow;
pub(crate) use postgres::{lock_key, PgLock};
pub(crate) use printing::{PrintJob, PrintState};
pub(crate) use queue::{Claim, Finished, Holder};
pub(crate) use records::{ClockRow, NewClarification, NewSubmission, NO_FREEZE};
pub(crate) use rejudgings::{Decision, RejudgingRow, RejudgingState, Started};

/// What the parts of one server tell each other: a new event, work queued.
#[derive(Debug)]
pub(crate) struct Changes {
    /// The id of the latest event written.
    events: watch::Sender<i64>,
    /// Woken when a submission or rejudge is queued.
    queue: Notify,
    /// One writing transaction at a time in this process (SQLite takes one
    /// writer; waiting here is cheaper than its busy loop).
    write: Mutex<()>,
    /// Counts the clock's changes, each counted after its commit and before
    /// its events are announced.
    clock: AtomicU64,
    /// Counts the jury's desk's changes that write no event (a question
    /// claimed, a balloon handed out, a rejudging's judgement finished):
    /// the jury's pages follow them.
    desk: watch::Sender<u64>,
}

impl Changes {
    /// Fresh, with the latest event id known.
    pub(crate) fn new(last_event: i64) -> Arc<Changes> {
        Arc::new(Changes {
            events: watch::channel(last_event).0,
            queue: Notify::new(),
            write: Mutex::new(()),
            clock: AtomicU64::new(0),
            desk: watch::channel(0).0,
        })
    }

    /// A receiver of the jury's desk's changes (see [`Changes::desk`]).
    pub(crate) fn subscribe_desk(&self) -> watch::Receiver<u64> {
        self.desk.subscribe()
    }

    /// Announces a change of the jury's desk.
    pub(super) fn desk_changed(&self) {
        self.desk.send_modify(|n| *n += 1);
    }

    /// Records the latest event id (read from the database at start).
    pub(crate) fn bump(&self, last_event: i64) {
        self.announce(Some(last_event), false);
    }

    /// The latest event id known in this process.
    pub(crate) fn latest(&self) -> i64 {
        *self.events.borrow()
    }

    /// How many times the clock was changed in this process: what was read
    /// of it before is current while this stays the same.
    pub(crate) fn clock_version(&self) -> u64 {
        self.clock.load(Ordering::SeqCst)
    }

    /// A receiver of the latest event id.
    pub(crate) fn subscribe(&self) -> watch::Receiver<i64> {
        self.events.subscribe()
    }

    /// Waits until work may have been queued (or a while has passed).
    pub(crate) async fn queued(&self, poll: std::time::Duration) {
        let _ = tokio::time::timeout(poll, self.queue.notified()).await;
    }

    pub(super) fn announce(&self, last_event: Option<i64>, queued: bool) {
        if let Some(id) = last_event {
            self.events.send_if_modified(|latest| {
                let newer = id > *latest;
                if newer {
                    *latest = id;
                }
                newer
            });
        }
        if queued {
            self.queue.notify_waiters();
            self.queue.notify_one();
        }
    }
}

/// Where a live contest's state lives: an SQLite file (the default) or a
/// PostgreSQL database, which judging hosts on other machines share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Database {
    /// The file.
    Sqlite(PathBuf),
    /// A `postgres://` or `postgresql://` URL (libpq's keywords in the
    /// query: `?host=/run/postgresql`, `sslmode=require`, ...).
    Postgres(String),
}

impl Database {
    /// A `--db` value: a PostgreSQL URL, else a path.
    pub(crate) fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_string())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }

    /// `--db` with `--db-password-file`: the password read from `file`
    /// (its first line) put into the URL, which the command line then
    /// never shows. A password in the URL itself is warned about.
    pub(crate) fn with_password_file(self, file: Option<&Path>) -> Result<Database> {
        let Database::Postgres(url) = self else {
            return match file {
                Some(f) => Err(Error::Server {
                    what: format!(
                        "--db-password-file {} is for a PostgreSQL --db only",
                        f.display()
                    ),
                    source: None,
                }),
                None => Ok(self),
            };
        };
        let has_password = url
            .split_once("://")
            .and_then(|(_, rest)| rest.split('/').next())
            .and_then(|authority| authority.rsplit_once('@'))
            .is_some_and(|(user, _)| user.contains(':'));
        let Some(file) = file else {
            if has_password {
                eprintln!(
                    "warning: the database's password is on the command line, where every user \
                     of this machine sees it (`ps`): give it in PGPASSWORD, ~/.pgpass or \
                     --db-password-file instead"
                );
            }
            return Ok(Database::Postgres(url));
        };
        if has_password {
            return Err(Error::Server {
                what: "the database's password is both in --db and in --db-password-file: \
                       give it once"
                    .into(),
                source: None,
            });
        }
        let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
        let password = text.lines().next().unwrap_or("").trim_end_matches('\r');
        if password.is_empty() {
            return Err(Error::Server {
                what: format!("{}: its first line is empty (the password)", file.display()),
                source: None,
            });
        }
        let encoded: String = password
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect();
        let (scheme, rest) = url.split_once("://").expect("a postgres URL has `://`");
        let authority_end = rest.find('/').unwrap_or(rest.len());
        let (authority, path) = rest.split_at(authority_end);
        let with = match authority.rsplit_once('@') {
            Some((user, host)) => format!("{scheme}://{user}:{encoded}@{host}{path}"),
            None => {
                let user = std::env::var("PGUSER")
                    .or_else(|_| std::env::var("USER"))
                    .unwrap_or_else(|_| "postgres".into());
                format!("{scheme}://{user}:{encoded}@{authority}{path}")
            }
        };
        Ok(Database::Postgres(with))
    }

    /// For messages: the path, or the URL without its password.
    pub(crate) fn shown(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(url) => hide_password(url),
        }
    }
}

#[cfg(test)]
mod security_tests {
    use super::*;

    #[test]
    fn the_database_and_its_journal_are_their_owners_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join(".judge-serve");
        std::fs::create_dir(&folder).unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        let db = folder.join("contest.sqlite");
        // A journal left readable by an older version.
        let wal = folder.join("contest.sqlite-wal");
        std::fs::write(&wal, "x").unwrap();
        std::fs::set_permissions(&wal, std::fs::Permissions::from_mode(0o644)).unwrap();
        make_private(&db).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(mode(&db), 0o600);
        assert_eq!(mode(&wal), 0o600);
    }

    #[test]
    fn the_lock_beside_the_database_is_its_owners_only_from_the_start() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join(".judge-serve/contest.sqlite");
        let _lock = Store::lock_file(&db).unwrap();
        let lock = dir.path().join(".judge-serve/contest.sqlite.lock");
        let mode = std::fs::metadata(lock).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn a_password_file_goes_into_the_url_and_never_twice() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pw");
        std::fs::write(&file, "s3cr@t/x\nignored\n").unwrap();
        let db = Database::parse("postgres://judge@db.local/contest")
            .with_password_file(Some(&file))
            .unwrap();
        assert_eq!(
            db,
            Database::Postgres("postgres://judge:s3cr%40t%2Fx@db.local/contest".into())
        );
        assert_eq!(db.shown(), "postgres://judge:***@db.local/contest");
        assert!(Database::parse("postgres://judge:pw@db/contest")
            .with_password_file(Some(&file))
            .is_err());
        assert!(Database::parse("x.sqlite")
            .with_password_file(Some(&file))
            .is_err());
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`.
fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{scheme}://{name}:***@{host}{path}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// The lock that makes one server the only one on its database: held
/// while the server runs, released by the system when it dies (a lock
/// file beside an SQLite database; an advisory lock on PostgreSQL).
#[derive(Debug)]
pub(crate) enum StoreLock {
    /// The lock file, locked (held, never read: closing it unlocks).
    File(#[expect(dead_code, reason = "held for its lock")] std::fs::File),
    /// PostgreSQL's advisory lock.
    Postgres(PgLock),
}

impl StoreLock {
    /// Waits until the lock is lost (PostgreSQL's connection dropped): why.
    /// A file lock is never lost.
    pub(crate) async fn lost(&mut self) -> String {
        match self {
            StoreLock::File(_) => std::future::pending().await,
            StoreLock::Postgres(lock) => lock.lost().await,
        }
    }
}

/// A live contest's database.
#[derive(Debug, Clone)]
pub(crate) struct Store {
    pool: AnyPool,
    changes: Arc<Changes>,
    /// The database, for messages.
    shown: Arc<str>,
    /// PostgreSQL's URL (claims then skip rows others hold, and commits
    /// notify the other processes).
    postgres: Option<Arc<str>>,
}

impl Store {
    /// Takes the lock of the judge named `holder` on `db`: the server's
    /// (`server`) is the one-server-per-database lock; a host's says it is
    /// alive. An error naming the database when another holds it.
    pub(crate) fn lock(db: &Database, holder: &str) -> Result<StoreLock> {
        match db {
            Database::Sqlite(path) => Store::lock_file(path),
            Database::Postgres(url) => {
                let shown = db.shown();
                match PgLock::take(url, &shown, lock_key(holder))? {
                    Some(lock) => Ok(StoreLock::Postgres(lock)),
                    None if holder == SERVER => Err(Error::Server {
                        what: format!(
                            "another `judge serve` is running on the database {shown}: two \
                             servers on one database would judge submissions twice; stop the \
                             other, or give this one its own --db"
                        ),
                        source: None,
                    }),
                    None => Err(Error::Server {
                        what: format!(
                            "a judging host named `{holder}` is already running on the database \
                             {shown}: give this one another --name"
                        ),
                        source: None,
                    }),
                }
            }
        }
    }

    /// Takes the lock beside the database file `db` (`DB.lock`), after
    /// making the database and its journal its owner's only: an error
    /// naming both when another server holds it.
    fn lock_file(db: &Path) -> Result<StoreLock> {
        use std::os::unix::fs::OpenOptionsExt;
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| Error::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        make_private(db)?;
        let lock_path = PathBuf::from(format!("{}.lock", db.display()));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&lock_path)
            .map_err(|source| Error::Write {
                path: lock_path.clone(),
                source,
            })?;
        if !crate::sandbox::try_lock_exclusive(&file) {
            return Err(Error::Server {
                what: format!(
                    "another `judge serve` is running on the database {} (it holds {}): \
                     two servers on one database would judge submissions twice; stop the other, \
                     or give this one its own --db",
                    db.display(),
                    lock_path.display()
                ),
                source: None,
            });
        }
        Ok(StoreLock::File(file))
    }

    /// Opens (creating if needed) the database and brings its schema up
    /// to date.
    pub(crate) async fn open(db: &Database, changes: Arc<Changes>) -> Result<Store> {
        match db {
            Database::Sqlite(path) => Store::open_sqlite(path, changes).await,
            Database::Postgres(url) => Store::open_postgres(url, &db.shown(), changes).await,
        }
    }

    /// Opens the PostgreSQL database at `url` (it must exist; its schema is
    /// created or brought up to date).
    async fn open_postgres(url: &str, shown: &str, changes: Arc<Changes>) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let shown: Arc<str> = shown.into();
        let pool = AnyPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(std::time::Duration::from_secs(60))
            .connect(url)
            .await
            .map_err(|e| Error::server(format!("cannot connect to the database {shown}"), e))?;
        let store = Store {
            pool,
            changes,
            shown,
            postgres: Some(url.into()),
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Tells this process's [`Changes`] what other processes queue and
    /// write (PostgreSQL's LISTEN; nothing to do on SQLite, where one
    /// process is the only writer). Called once per process, in a runtime
    /// that lasts.
    pub(crate) fn listen(&self) {
        if let Some(url) = &self.postgres {
            postgres::spawn_listener(
                Arc::clone(url),
                self.pool.clone(),
                Arc::clone(&self.changes),
            );
        }
    }

    /// Whether this is PostgreSQL.
    pub(crate) fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    /// A value of the `meta` table.
    pub(crate) async fn meta(&self, key: &str) -> Result<Option<String>> {
        let row = sqlx::query("SELECT value FROM meta WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.query_error(e))?;
        Ok(row.map(|r| r.get(0)))
    }

    /// Sets a value of the `meta` table.
    pub(crate) async fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        let (_guard, mut tx) = self.begin().await?;
        sqlx::query("DELETE FROM meta WHERE key = $1")
            .bind(key)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        sqlx::query("INSERT INTO meta (key, value) VALUES ($1, $2)")
            .bind(key)
            .bind(value)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.query_error(e))?;
        self.commit(tx, None, false).await
    }

    /// Opens (creating if needed) the SQLite database `db` and brings its
    /// schema up to date.
    async fn open_sqlite(db: &Path, changes: Arc<Changes>) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let absolute = std::path::absolute(db).map_err(|e| Error::io(db, e))?;
        let Some(text) = absolute.to_str() else {
            return Err(Error::Server {
                what: format!(
                    "the database path {} is not valid UTF-8; give another --db",
                    db.display()
                ),
                source: None,
            });
        };
        let url = format!("sqlite://{}?mode=rwc", encode_path(text));
        let shown: Arc<str> = db.display().to_string().into();
        let pool = AnyPoolOptions::new()
            .max_connections(4)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                         PRAGMA busy_timeout = 10000;",
                    )
                    .await?;
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| Error::server(format!("cannot open the database {shown}"), e))?;
        let store = Store {
            pool,
            changes,
            shown,
            postgres: None,
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<()> {
        let migrator = sqlx::migrate::Migrator::new(schema::Migrations)
            .await
            .map_err(|e| self.error("cannot read the schema migrations", e))?;
        migrator.run(&self.pool).await.map_err(|e| {
            self.error(
                "cannot bring the database's schema up to date (is it a database of `judge serve`?)",
                e,
            )
        })
    }

    /// What the parts of this server tell each other.
    pub(crate) fn changes(&self) -> &Arc<Changes> {
        &self.changes
    }

    /// Records the contest this database belongs to, or checks that it is
    /// the same: a database of another contest is refused.
    pub(crate) async fn claim_for_contest(&self, contest_id: &str) -> Result<()> {
        let _write = self.changes.write.lock().await;
        let row = sqlx::query("SELECT value FROM meta WHERE key = 'contest'")
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.error("cannot read the database", e))?;
        match row {
            Some(row) => {
                let theirs: String = row.get(0);
                if theirs != contest_id {
                    return Err(Error::Server {
                        what: format!(
                            "the database {} belongs to the contest `{theirs}`, not `{contest_id}` \
                             (contest.toml `id`): give this contest its own --db",
                            self.shown
                        ),
                        source: None,
                    });
                }
            }
            None => {
                sqlx::query("INSERT INTO meta (key, value) VALUES ('contest', $1)")
                    .bind(contest_id)
                    .execute(&self.pool)
                    .await
                    .map_err(|e| self.error("cannot write the database", e))?;
            }
        }
        Ok(())
    }

    /// An error of this database.
    pub(crate) fn error(
        &self,
        what: &str,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        Error::server(format!("database {}: {what}", self.shown), source)
    }

    /// The error of a failed query.
    fn query_error(&self, source: sqlx::Error) -> Error {
        self.error("a query failed", source)
    }
}

/// The name of the server's own judge in the queue's claims (a judging
/// host may not take it).
pub(crate) const SERVER: &str = "server";

/// A path as the sqlite URL takes it (`%`, `?`, `#` and spaces escaped).
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'%' | b'?' | b'#' | b' ' | b'"' | b'<' | b'>' | b'`' | b'{' | b'}' => {
                out.push_str(&format!("%{byte:02X}"))
            }
            0..=0x1f | 0x7f..=0xff => out.push_str(&format!("%{byte:02X}")),
            _ => out.push(byte as char),
        }
    }
    out
}

/// An optional integer column.
fn opt_i64(row: &AnyRow, column: &str) -> Option<i64> {
    row.try_get::<Option<i64>, _>(column).ok().flatten()
}

/// Makes the SQLite database `db` readable by its owner only, before SQLite
/// opens it: the file (created empty if missing: SQLite makes its journal
/// and shared memory with the database file's mode) and what is already
/// there (a database made by an older version) 0600, and a `.judge-serve`
/// folder that holds it 0700. It holds every team's source, hidden tests'
/// diffs and the sessions.
pub(crate) fn make_private(db: &Path) -> Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Write { path, source }
    };
    if let Some(dir) = db
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n == ".judge-serve"))
    {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(write_error(dir))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .append(true)
        .mode(0o600)
        .open(db)
        .map_err(write_error(db))?;
    for suffix in ["", "-wal", "-shm", "-journal", ".lock"] {
        let path = PathBuf::from(format!("{}{suffix}", db.display()));
        if path.exists() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                .map_err(write_error(&path))?;
        }
    }
    Ok(())
}
