//! The contest's clock at work: the published state kept in step with it
//! (the start, the freeze and the end happen without anyone asking), and
//! the whole event feed written to a file, its owner's only, once the
//! contest is final. The main function is [`LiveContest::keep_time`].

use std::future::Future;
use std::path::Path;
use std::time::Duration;

use super::live::LiveContest;
use crate::error::Result;

impl LiveContest {
    /// Ticks the clock four times a second, for ever; once the contest has
    /// its end of updates, writes `feed()` (the whole event feed, as the
    /// layer above renders it) to `feed_file`, for the ICPC Resolver.
    pub(crate) async fn keep_time<F>(&self, feed_file: &Path, feed: impl Fn() -> F)
    where
        F: Future<Output = Result<String>>,
    {
        let mut written = false;
        let mut every = tokio::time::interval(Duration::from_millis(250));
        loop {
            every.tick().await;
            if let Err(e) = self.tick().await {
                eprintln!("{}", crate::error::render_chain(&e));
                continue;
            }
            let done = self
                .state()
                .await
                .map(|s| s.end_of_updates.is_some())
                .unwrap_or(false);
            if done && !written {
                written = true;
                match feed().await {
                    Ok(text) => match write_private(feed_file, &text) {
                        Ok(()) => eprintln!(
                            "the contest is final: its event feed is in {} (for the ICPC Resolver)",
                            feed_file.display()
                        ),
                        Err(e) => eprintln!("error: cannot write {}: {e}", feed_file.display()),
                    },
                    Err(e) => eprintln!("{}", crate::error::render_chain(&e)),
                }
            }
        }
    }
}

/// Writes `text` to `path`, readable by its owner only (the whole feed
/// holds every team's judgements).
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_feed_file_is_its_owners_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("event-feed.ndjson");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        super::write_private(&path, "{}\n").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
    }
}
