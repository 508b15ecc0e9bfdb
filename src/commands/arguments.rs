//! The files and folders named on the command line, checked before
//! anything runs: a device or a pipe would be read forever, and results
//! must never be lost for want of a writable output folder.

use std::path::Path;

use crate::config::Config;
use crate::engine::Submission;
use crate::error::{Error, Result};

/// Checks that a file named on the command line exists and is a regular file
/// (a link to one is followed): a device or a pipe would be read forever.
pub(super) fn regular_file(file: &Path) -> Result<()> {
    let why = match std::fs::metadata(file) {
        Ok(meta) if meta.is_file() => return Ok(()),
        Ok(_) => std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a device, pipe or directory cannot be judged or read as a test)",
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
        }
        Err(e) => e,
    };
    Err(Error::io(file, why))
}

/// A file named on the command line, with its language; with `answers`
/// (a submit-answer problem), the file or folder of its answers.
pub(super) fn submission_of(
    config: &Config,
    file: &Path,
    lang: Option<&str>,
    answers: bool,
) -> Result<Submission> {
    if answers {
        if !file.is_dir() {
            regular_file(file)?;
        }
        return Ok(Submission {
            path: file.to_path_buf(),
            shown: None,
            language: crate::config::Language::answers(),
            companions: Vec::new(),
            text: None,
        });
    }
    if file.is_dir() {
        // A program of several files: its sources are built together.
        let (main, companions, build_run) =
            crate::engine::directory_submission(file, lang, config)?;
        let language = match (lang, build_run) {
            (_, true) => crate::config::Language::build_run(config),
            (Some(id), false) => config.language_by_id(id, &main)?,
            (None, false) => config.detect_language(&main)?,
        };
        return Ok(Submission {
            path: main,
            shown: Some(file.to_path_buf()),
            language,
            companions,
            text: None,
        });
    }
    regular_file(file)?;
    let language = match lang {
        Some(id) => config.language_by_id(id, file)?,
        None => config.detect_language(file)?,
    };
    Ok(Submission {
        path: file.to_path_buf(),
        shown: None,
        language,
        companions: Vec::new(),
        text: None,
    })
}

/// Makes `dir` (if missing) and checks that files can be written in it.
pub(super) fn writable_dir(dir: &Path) -> Result<()> {
    let write = |source| Error::Write {
        path: dir.to_path_buf(),
        source,
    };
    if dir.exists() && !dir.is_dir() {
        return Err(write(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "--out must name a directory, and this is not one",
        )));
    }
    std::fs::create_dir_all(dir).map_err(write)?;
    tempfile::NamedTempFile::new_in(dir).map_err(write)?;
    Ok(())
}
