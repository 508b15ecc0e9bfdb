//! Files a judge started with `sudo` creates belong to the user who ran
//! sudo (`SUDO_UID`/`SUDO_GID`), not to root: a CI job runs `sudo judge ...`
//! for full isolation and then saves the cache with a step that is not root
//! (`actions/cache`), which could not read a root-only cache. Commands name
//! the directories they write ([`claim`]); when the command ends, however it
//! ends, [`hand_over`] gives whatever in them is root's to the invoking user,
//! without following links. The main type is [`Invoker`].

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The directories this command writes, to hand over at its end.
static CLAIMED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The user who ran `sudo judge ...`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Invoker {
    uid: u32,
    gid: u32,
}

impl Invoker {
    /// The invoking user when this process is root under sudo (`None`
    /// otherwise, or when sudo's variables are not a user's).
    pub(crate) fn from_sudo() -> Option<Invoker> {
        use std::os::unix::fs::MetadataExt;
        // /proc/self belongs to the process's effective user.
        let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
        Invoker::from_vars(
            root,
            std::env::var("SUDO_UID").ok().as_deref(),
            std::env::var("SUDO_GID").ok().as_deref(),
        )
    }

    fn from_vars(root: bool, uid: Option<&str>, gid: Option<&str>) -> Option<Invoker> {
        let uid: u32 = uid?.parse().ok()?;
        let gid: u32 = gid?.parse().ok()?;
        (root && uid != 0).then_some(Invoker { uid, gid })
    }

    /// Gives every file and directory under `dir` (and `dir`) that root owns
    /// to the invoker; links themselves, never what they point to. Best
    /// effort: what cannot be changed stays as it is.
    pub(crate) fn take(&self, dir: &Path) {
        use std::os::unix::fs::MetadataExt;
        for entry in walkdir::WalkDir::new(dir)
            .follow_links(false)
            .into_iter()
            .flatten()
        {
            if entry.metadata().is_ok_and(|m| m.uid() == 0) {
                let _ = std::os::unix::fs::lchown(entry.path(), Some(self.uid), Some(self.gid));
            }
        }
    }
}

/// Notes that this command writes in `dir` (a cache, an output folder).
pub(crate) fn claim(dir: &Path) {
    let mut claimed = CLAIMED.lock().unwrap_or_else(|p| p.into_inner());
    if !claimed.iter().any(|d| d == dir) {
        claimed.push(dir.to_path_buf());
    }
}

/// At the end of a command: under sudo, the claimed directories go to the
/// invoking user.
pub(crate) fn hand_over() {
    let Some(invoker) = Invoker::from_sudo() else {
        return;
    };
    let claimed = std::mem::take(&mut *CLAIMED.lock().unwrap_or_else(|p| p.into_inner()));
    for dir in claimed {
        invoker.take(&dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_root_under_sudo_hands_over() {
        assert_eq!(
            Invoker::from_vars(true, Some("1001"), Some("1002")),
            Some(Invoker {
                uid: 1001,
                gid: 1002
            })
        );
        assert_eq!(Invoker::from_vars(false, Some("1001"), Some("1002")), None);
        assert_eq!(Invoker::from_vars(true, Some("0"), Some("0")), None);
        assert_eq!(Invoker::from_vars(true, None, Some("1")), None);
        assert_eq!(Invoker::from_vars(true, Some("x"), Some("1")), None);
    }

    /// As root (CI): a tree of root's files, a link out of it, and a file of
    /// another user; only root's files inside change owner.
    #[test]
    fn root_files_go_to_the_invoker_and_links_are_not_followed() {
        use std::os::unix::fs::MetadataExt;
        if !std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
            eprintln!("skipped: needs root");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::NamedTempFile::new().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/file"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        std::fs::write(dir.path().join("theirs"), "y").unwrap();
        std::os::unix::fs::chown(dir.path().join("theirs"), Some(4242), Some(4242)).unwrap();
        Invoker {
            uid: 1234,
            gid: 2345,
        }
        .take(dir.path());
        let owner = |p: &Path| {
            let m = std::fs::symlink_metadata(p).unwrap();
            (m.uid(), m.gid())
        };
        assert_eq!(owner(dir.path()), (1234, 2345));
        assert_eq!(owner(&dir.path().join("sub/file")), (1234, 2345));
        assert_eq!(owner(&dir.path().join("link")), (1234, 2345));
        assert_eq!(owner(outside.path()), (0, 0), "a link was followed");
        assert_eq!(owner(&dir.path().join("theirs")), (4242, 4242));
    }
}
