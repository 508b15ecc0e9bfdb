//! One lock per cache key: work asked for while the same work is under way
//! in this judge waits for it, then finds its result in the cache.

use std::collections::HashMap;
use std::sync::Arc;

use crate::cache::Key;

/// The keys whose work is under way, each with its lock.
#[derive(Debug, Default)]
pub(super) struct Underway(std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>);

impl Underway {
    /// Waits until no other work on `key` is under way here; the turn lasts
    /// as long as the guard.
    pub(super) async fn turn(&self, key: &Key) -> tokio::sync::OwnedMutexGuard<()> {
        let gate = Arc::clone(
            self.0
                .lock()
                .expect("not poisoned")
                .entry(key.as_str().to_string())
                .or_default(),
        );
        gate.lock_owned().await
    }
}
