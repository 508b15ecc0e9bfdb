//! Working directories and spill files of runs, reused from test to test.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::{Error, Result};
use crate::sandbox;

/// Working directories of unsandboxed runs and custom checkers, reused from
/// test to test: emptied after each use instead of made and removed (two
/// directory operations that cost a tenth of starting a small program).
#[derive(Debug, Default)]
pub(crate) struct ScratchDirs(std::sync::Mutex<Vec<tempfile::TempDir>>);

impl ScratchDirs {
    pub(crate) fn take(&self) -> Result<Scratch<'_>> {
        let reused = self.0.lock().expect("not poisoned").pop();
        let dir = match reused {
            Some(dir) => dir,
            None => tempfile::Builder::new()
                .prefix(&format!("judge-run-{}-", std::process::id()))
                .tempdir()
                .map_err(|e| Error::io(std::env::temp_dir(), e))?,
        };
        Ok(Scratch {
            pool: self,
            dir: Some(dir),
        })
    }
}

/// A scratch directory on loan; back to the pool, empty, when dropped (or
/// removed, when something in it cannot be removed).
pub(crate) struct Scratch<'a> {
    pool: &'a ScratchDirs,
    dir: Option<tempfile::TempDir>,
}

impl Scratch<'_> {
    pub(crate) fn path(&self) -> &Path {
        self.dir.as_ref().expect("until dropped").path()
    }
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let dir = self.dir.take().expect("dropped once");
        if sandbox::empty_dir(dir.path()).is_ok() {
            self.pool.0.lock().expect("not poisoned").push(dir);
        }
    }
}

/// Fresh file names for outputs that outgrow memory, in one directory per
/// judge run (instead of a directory per test), made when first needed: runs
/// that work in a scratch directory spill there, and a directory made and
/// removed for nothing costs about a tenth of starting a small program.
#[derive(Debug, Default)]
pub(crate) struct SpillFiles {
    dir: std::sync::OnceLock<tempfile::TempDir>,
    next: AtomicUsize,
}

impl SpillFiles {
    pub(crate) fn next(&self) -> Result<PathBuf> {
        let dir = match self.dir.get() {
            Some(dir) => dir,
            None => {
                let made = tempfile::Builder::new()
                    .prefix(&format!("judge-run-{}-", std::process::id()))
                    .tempdir()
                    .map_err(|e| Error::io(std::env::temp_dir(), e))?;
                // Another task may have made one meanwhile: then this one goes.
                self.dir.get_or_init(|| made)
            }
        };
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        Ok(dir.path().join(format!("{n}.out")))
    }
}

/// Removes a file (if it was ever created) when dropped.
pub(crate) struct RemoveOnDrop(pub(crate) PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
