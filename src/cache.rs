//! The content-addressed cache: compiled programs, generated inputs, reference
//! answers and validation marks, each under a key that hashes everything its
//! content depends on. The main type is [`Cache`].
//!
//! Every write is atomic: the content is written to a temporary file (or
//! directory) inside the cache and renamed into place, so two judges sharing a
//! cache never see a half-written entry; when both produce the same entry the
//! first rename wins and the other copy is discarded.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A cache key: a BLAKE3 hash of the parts that determine an entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key(String);

impl Key {
    /// Hashes `parts` (each length-prefixed, so parts cannot run together).
    pub(crate) fn of(parts: &[&[u8]]) -> Key {
        let mut hasher = blake3::Hasher::new();
        for part in parts {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        Key(hasher.finalize().to_hex()[..32].to_string())
    }

    /// Hashes a file's content. It must be a regular file (a link to one is
    /// followed): a test's input that is a device (`/dev/zero`), a pipe or a
    /// socket would hang whoever reads it, and is an error here; so is one
    /// larger than [`crate::units::MAX_SIZE`]. At most the size it had when
    /// opened is read.
    pub(crate) fn of_file(path: &Path) -> io::Result<Key> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file (a device, pipe or socket cannot be a test's file)",
            ));
        }
        if meta.len() > crate::units::MAX_SIZE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} bytes: larger than 1 TiB", meta.len()),
            ));
        }
        let mut hasher = blake3::Hasher::new();
        hasher.update_reader(io::Read::take(file, meta.len()))?;
        Ok(Key(hasher.finalize().to_hex()[..32].to_string()))
    }

    /// The hex form.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// The kinds of entries, each in its own folder.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// Build directories of compiled programs.
    Build,
    /// Generated test inputs.
    Input,
    /// Answers produced by a reference solution.
    Answer,
    /// Marks that an input passed its validator.
    Valid,
    /// Judged test results (the result cache).
    Result,
    /// Compiler version texts, keyed by the compiler binary's identity.
    Version,
}

impl Kind {
    fn dir(self) -> &'static str {
        match self {
            Kind::Build => "builds",
            Kind::Input => "inputs",
            Kind::Answer => "answers",
            Kind::Valid => "valid",
            Kind::Result => "results",
            Kind::Version => "versions",
        }
    }
}

/// The cache directory.
#[derive(Debug, Clone)]
pub(crate) struct Cache {
    root: PathBuf,
}

impl Cache {
    /// A cache rooted at `root` (created on first write).
    pub(crate) fn new(root: PathBuf) -> Cache {
        Cache { root }
    }

    /// The directory of temporary files and directories: scratch
    /// directories and the sandbox's copies of builds, on the same file
    /// system as the entries. Created if missing.
    pub(crate) fn tmp_dir(&self) -> Result<PathBuf> {
        let tmp = self.root.join("tmp");
        std::fs::create_dir_all(&tmp).map_err(|e| self.err(e))?;
        Ok(tmp)
    }

    /// The file under the cache directory that keeps this machine's quiet
    /// time of the contention probe.
    pub(crate) fn probe_calibration(&self) -> PathBuf {
        self.root.join("contention-probe")
    }

    /// Where the entry `key` of `kind` lives (whether or not it exists).
    pub(crate) fn path(&self, kind: Kind, key: &Key) -> PathBuf {
        self.root.join(kind.dir()).join(&key.0[..2]).join(&key.0)
    }

    /// The entry's path if it exists.
    pub(crate) fn get(&self, kind: Kind, key: &Key) -> Option<PathBuf> {
        let path = self.path(kind, key);
        path.exists().then_some(path)
    }

    fn err(&self, source: io::Error) -> Error {
        Error::Cache {
            path: self.root.clone(),
            source,
        }
    }

    fn parent_of(&self, kind: Kind, key: &Key) -> Result<PathBuf> {
        let path = self.path(kind, key);
        let parent = path
            .parent()
            .expect("cache paths have parents")
            .to_path_buf();
        std::fs::create_dir_all(&parent).map_err(|e| self.err(e))?;
        Ok(path)
    }

    /// Stores `bytes` under `key`, atomically.
    pub(crate) fn put_bytes(&self, kind: Kind, key: &Key, bytes: &[u8]) -> Result<PathBuf> {
        let path = self.parent_of(kind, key)?;
        let dir = path.parent().expect("has parent");
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| self.err(e))?;
        tmp.write_all(bytes).map_err(|e| self.err(e))?;
        tmp.persist(&path).map_err(|e| self.err(e.error))?;
        Ok(path)
    }

    /// Moves the file `from` (on the same file system, e.g. from
    /// [`Cache::scratch_dir`]) into the cache under `key`, atomically.
    pub(crate) fn put_file(&self, kind: Kind, key: &Key, from: &Path) -> Result<PathBuf> {
        let path = self.parent_of(kind, key)?;
        std::fs::rename(from, &path).map_err(|e| self.err(e))?;
        Ok(path)
    }

    /// Moves the directory `from` into the cache under `key`. If another judge
    /// stored the same key first, keeps theirs and removes `from`.
    pub(crate) fn put_dir(&self, kind: Kind, key: &Key, from: &Path) -> Result<PathBuf> {
        let path = self.parent_of(kind, key)?;
        if let Err(e) = std::fs::rename(from, &path) {
            if path.is_dir() {
                let _ = std::fs::remove_dir_all(from);
            } else {
                return Err(self.err(e));
            }
        }
        Ok(path)
    }

    /// A fresh private directory inside the cache (same file system as the
    /// entries, so it can be renamed into place), removed when dropped.
    /// Its name carries the judge's process id, so that what a judge killed
    /// meanwhile left behind can be told and removed.
    pub(crate) fn scratch_dir(&self) -> Result<tempfile::TempDir> {
        tempfile::Builder::new()
            .prefix(&format!("work-{}-", std::process::id()))
            .tempdir_in(self.tmp_dir()?)
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_separate_their_parts() {
        assert_ne!(Key::of(&[b"ab", b"c"]), Key::of(&[b"a", b"bc"]));
        assert_eq!(Key::of(&[b"x"]), Key::of(&[b"x"]));
    }

    #[test]
    fn atomic_put_and_get() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().to_path_buf());
        let key = Key::of(&[b"input"]);
        assert!(cache.get(Kind::Input, &key).is_none());
        let path = cache.put_bytes(Kind::Input, &key, b"1 2\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"1 2\n");
        assert_eq!(cache.get(Kind::Input, &key), Some(path));
    }

    #[test]
    fn second_dir_with_same_key_is_discarded() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().to_path_buf());
        let key = Key::of(&[b"build"]);
        for content in ["first", "second"] {
            let scratch = cache.scratch_dir().unwrap().keep();
            std::fs::write(scratch.join("f"), content).unwrap();
            cache.put_dir(Kind::Build, &key, &scratch).unwrap();
        }
        let stored = cache.get(Kind::Build, &key).unwrap();
        assert_eq!(std::fs::read_to_string(stored.join("f")).unwrap(), "first");
        let leftovers = std::fs::read_dir(dir.path().join("tmp")).unwrap().count();
        assert_eq!(leftovers, 0);
    }
}
