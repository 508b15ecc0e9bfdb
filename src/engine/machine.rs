//! Turns shared by every judge on the machine: each judge's programs run
//! holding a shared lock, and a result near the limit is confirmed holding
//! it exclusively, so that no program of another judge runs beside the
//! confirming runs (a second judge inflated a memory-bound program's CPU
//! time 1.6 x; this judge's own slots only keep its own runs away).
//!
//! Two lock files in [`LOCK_DIR`]: `judge-runs.lock`, shared by every run
//! and held exclusively by a confirmation, and `judge-runs-turnstile.lock`,
//! held by a confirmation from before it waits, so that new runs queue
//! behind it instead of starving it. Every wait is bounded: a lock held by
//! a stranger (any local user can take one) delays a run, never stops it.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

/// Where the lock files are: machine-wide, as the CPU claims.
pub(super) const LOCK_DIR: &str = "/tmp";
const RUNS: &str = "judge-runs.lock";
const TURNSTILE: &str = "judge-runs-turnstile.lock";
const POLL: Duration = Duration::from_millis(20);
/// The longest a run waits for a confirmation elsewhere to end. Short:
/// judges that share a machine (a test suite's, a contest's judgehosts)
/// must not queue for long behind each other's confirmations.
pub(super) const SHARE_WAIT: Duration = Duration::from_secs(3);
/// The longest a confirmation waits for the machine's other runs to end
/// (then it runs beside them, marked contended).
pub(super) const ALONE_WAIT: Duration = Duration::from_secs(3);

/// Held while one of this judge's programs runs (with its slot).
#[derive(Debug)]
pub(crate) struct Share {
    /// `None`: the wait ran out, or the lock files cannot be had.
    _runs: Option<File>,
}

/// Held while a result is confirmed: no other judge's program runs.
#[derive(Debug)]
pub(super) struct Alone {
    _turnstile: File,
    _runs: File,
}

/// Waits (at most `bound`) until no confirmation holds the machine, then
/// shares it.
pub(super) async fn share(dir: &Path, bound: Duration) -> Share {
    let deadline = Instant::now() + bound;
    loop {
        let (Some(turnstile), Some(runs)) = (open(dir, TURNSTILE), open(dir, RUNS)) else {
            return Share { _runs: None };
        };
        // Past the turnstile (no confirmation holds or waits for the
        // machine), the shared lock is free but for a stranger's hold.
        if crate::sandbox::try_lock_shared(&turnstile) && crate::sandbox::try_lock_shared(&runs) {
            return Share { _runs: Some(runs) };
        }
        drop((turnstile, runs));
        if Instant::now() >= deadline {
            return Share { _runs: None };
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Takes the machine for a confirmation: the turnstile first (new runs
/// wait), then the runs' lock once the runs under way have ended. `None`
/// when that did not happen within `bound`.
pub(super) async fn alone(dir: &Path, bound: Duration) -> Option<Alone> {
    let deadline = Instant::now() + bound;
    let turnstile = exclusive(dir, TURNSTILE, deadline).await?;
    let runs = exclusive(dir, RUNS, deadline).await?;
    Some(Alone {
        _turnstile: turnstile,
        _runs: runs,
    })
}

async fn exclusive(dir: &Path, name: &str, deadline: Instant) -> Option<File> {
    loop {
        let file = open(dir, name)?;
        if crate::sandbox::try_lock_exclusive(&file) {
            return Some(file);
        }
        drop(file);
        if Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(POLL).await;
    }
}

/// A lock file, made if missing (readable by all: a shared or exclusive
/// `flock` needs only a descriptor); never through a link, never a pipe
/// or other file that a stranger put there (`None`).
fn open(dir: &Path, name: &str) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join(name);
    let flags = libc::O_NOFOLLOW | libc::O_NONBLOCK;
    let open = || {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(flags)
            .open(&path)
    };
    let file = match open() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(flags)
            .open(&path)
            .or_else(|_| open()),
        other => other,
    }
    .ok()?;
    file.metadata().ok()?.is_file().then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    }

    /// Runs share the machine; a confirmation waits for them to end, and
    /// runs that come meanwhile wait behind it.
    #[test]
    fn a_confirmation_waits_for_runs_and_new_runs_wait_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        rt().block_on(async {
            let a = share(dir, SHARE_WAIT).await;
            let b = share(dir, SHARE_WAIT).await;
            assert!(a._runs.is_some() && b._runs.is_some(), "runs share");
            // Two runs under way: no confirmation yet.
            assert!(alone(dir, Duration::from_millis(100)).await.is_none());
            drop((a, b));
            let confirming = alone(dir, Duration::from_millis(100)).await;
            assert!(confirming.is_some(), "alone once the runs ended");
            // A run now waits, and gives up waiting at its bound.
            let late = share(dir, Duration::from_millis(100)).await;
            assert!(late._runs.is_none());
            drop(confirming);
            assert!(share(dir, Duration::from_millis(100)).await._runs.is_some());
        });
    }

    /// A confirmation waiting for a long run holds the turnstile: a run
    /// that comes after it does not start before it.
    #[test]
    fn a_waiting_confirmation_is_not_starved_by_new_runs() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path().to_path_buf();
        rt().block_on(async {
            let long_run = share(&dir, SHARE_WAIT).await;
            let d = dir.clone();
            let confirming = tokio::spawn(async move { alone(&d, Duration::from_secs(5)).await });
            tokio::time::sleep(Duration::from_millis(200)).await;
            // The turnstile is the confirmation's: this run waits.
            assert!(share(&dir, Duration::from_millis(100))
                .await
                ._runs
                .is_none());
            drop(long_run);
            let held = confirming.await.unwrap();
            assert!(held.is_some());
        });
    }

    /// What a stranger put in place of a lock file is not used (and a
    /// pipe does not block the judge): runs go on without the lock.
    #[test]
    fn a_strangers_pipe_or_link_in_place_of_a_lock_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join(RUNS);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join(TURNSTILE)).unwrap();
        rt().block_on(async {
            let s = share(dir.path(), SHARE_WAIT).await;
            assert!(s._runs.is_none());
            assert!(alone(dir.path(), Duration::from_millis(50)).await.is_none());
        });
    }
}
