//! What only PostgreSQL gives the contest server: a session-level advisory
//! lock that says a server or a judging host is alive (held on a
//! connection of its own, released by PostgreSQL when the process dies and
//! its connection closes, so a dead host's claims are taken over at once),
//! and LISTEN/NOTIFY, which wakes idle judges when work is queued and the
//! server's feeds when another process wrote events. The main types are
//! [`PgLock`] and [`spawn_listener`].

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnection, PgListener};
use sqlx::{AnyPool, Connection, Row};
use tokio::sync::{oneshot, watch};

use super::Changes;
use crate::error::{Error, Result};

/// Notified (at commit) when a judgement is queued.
pub(super) const QUEUE_CHANNEL: &str = "judge_queue";
/// Notified (at commit) with the id of the latest event written.
pub(super) const EVENTS_CHANNEL: &str = "judge_events";

/// Notified (at commit) when the jury's desk changed without an event (a
/// rejudging's judgement finished on a judging host).
pub(super) const DESK_CHANNEL: &str = "judge_desk";

/// How often the lock's connection is checked, and how often a listener
/// reads the latest event id when nothing was notified (a safety net).
const CHECK_EVERY: Duration = Duration::from_secs(5);

/// The advisory-lock key of a judge named `name` (positive, below 2^62,
/// so it reads back from `pg_locks` as `classid * 2^32 + objid`).
pub(crate) fn lock_key(name: &str) -> i64 {
    let hash = blake3::hash(format!("judge serve holder {name}").as_bytes());
    let bytes: [u8; 8] = hash.as_bytes()[..8].try_into().expect("8 bytes");
    i64::from_le_bytes(bytes) & 0x3fff_ffff_ffff_ffff
}

/// An advisory lock held on a connection of its own (on a thread of its
/// own, so it outlives any runtime of the caller); released when dropped
/// or when the process dies.
#[derive(Debug)]
pub(crate) struct PgLock {
    stop: Option<oneshot::Sender<()>>,
    lost: watch::Receiver<Option<String>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl PgLock {
    /// Connects to `url` and takes the lock `key`: `None` when another
    /// session holds it.
    pub(crate) fn take(url: &str, shown: &str, key: i64) -> Result<Option<PgLock>> {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<bool>>();
        let (stop_tx, mut stop_rx) = oneshot::channel::<()>();
        let (lost_tx, lost_rx) = watch::channel(None);
        let (url, shown) = (url.to_string(), shown.to_string());
        let thread = std::thread::Builder::new()
            .name("db-lock".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = ready_tx.send(Err(Error::server("cannot start a runtime", e)));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let mut conn = match PgConnection::connect(&url).await {
                        Ok(c) => c,
                        Err(e) => {
                            let _ = ready_tx
                                .send(Err(Error::server(format!("cannot connect to {shown}"), e)));
                            return;
                        }
                    };
                    let got = sqlx::query("SELECT pg_try_advisory_lock($1)")
                        .bind(key)
                        .fetch_one(&mut conn)
                        .await
                        .map(|row| row.get::<bool, _>(0))
                        .map_err(|e| Error::server(format!("database {shown}: cannot lock"), e));
                    let held = matches!(got, Ok(true));
                    let _ = ready_tx.send(got);
                    if !held {
                        return;
                    }
                    loop {
                        tokio::select! {
                            _ = &mut stop_rx => {
                                let _ = conn.close().await;
                                return;
                            }
                            () = tokio::time::sleep(CHECK_EVERY) => {
                                if let Err(e) = sqlx::query("SELECT 1").execute(&mut conn).await {
                                    let _ = lost_tx.send(Some(e.to_string()));
                                    return;
                                }
                            }
                        }
                    }
                });
            })
            .map_err(|e| Error::server("cannot start the database lock's thread", e))?;
        let held = ready_rx.recv().unwrap_or_else(|_| {
            Err(Error::server(
                "the database lock's thread stopped",
                std::io::Error::other("gone"),
            ))
        })?;
        let lock = PgLock {
            stop: Some(stop_tx),
            lost: lost_rx,
            thread: Some(thread),
        };
        Ok(held.then_some(lock))
    }

    /// Waits until the lock's connection is lost; why.
    pub(crate) async fn lost(&mut self) -> String {
        loop {
            if let Some(why) = self.lost.borrow().clone() {
                return why;
            }
            if self.lost.changed().await.is_err() {
                return "its connection closed".into();
            }
        }
    }
}

impl Drop for PgLock {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Listens (on a connection of its own, reconnecting when it drops) for
/// work queued and events written by any process, and tells `changes`.
/// Every few seconds without a notification, and after reconnecting, it
/// reads the latest event id and wakes the judges anyway, so nothing
/// missed while disconnected is missed for long.
pub(super) fn spawn_listener(url: Arc<str>, pool: AnyPool, changes: Arc<Changes>) {
    tokio::spawn(async move {
        loop {
            let listening = async {
                let mut listener = PgListener::connect(&url).await?;
                listener
                    .listen_all([QUEUE_CHANNEL, EVENTS_CHANNEL, DESK_CHANNEL])
                    .await?;
                Ok::<_, sqlx::Error>(listener)
            };
            let mut listener = match listening.await {
                Ok(l) => l,
                Err(_) => {
                    tokio::time::sleep(CHECK_EVERY).await;
                    continue;
                }
            };
            catch_up(&pool, &changes).await;
            changes.announce(None, true);
            loop {
                match tokio::time::timeout(CHECK_EVERY, listener.try_recv()).await {
                    Ok(Ok(Some(note))) => match note.channel() {
                        QUEUE_CHANNEL => changes.announce(None, true),
                        DESK_CHANNEL => changes.desk_changed(),
                        _ => {
                            if let Ok(id) = note.payload().parse::<i64>() {
                                changes.announce(Some(id), false);
                            }
                        }
                    },
                    // The connection dropped: the next call reconnects.
                    Ok(Ok(None)) => catch_up(&pool, &changes).await,
                    Ok(Err(_)) => break,
                    Err(_quiet) => catch_up(&pool, &changes).await,
                }
            }
        }
    });
}

async fn catch_up(pool: &AnyPool, changes: &Changes) {
    let row = sqlx::query("SELECT value FROM counters WHERE name = 'events'")
        .fetch_one(pool)
        .await;
    if let Ok(row) = row {
        changes.announce(Some(row.get::<i64, _>(0)), false);
    }
}
