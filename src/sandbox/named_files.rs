//! Files a run reads and writes by name in its working directory (problems
//! with file input and output: `input.txt`, `output.txt`): the input put
//! there before the run starts, the output copied out after it ends and
//! before the directory is emptied. The main type is [`RunFiles`]; the
//! output comes back as an [`OutputFile`].
//!
//! A run owns its working directory and may leave anything under the
//! output's name: a link (to a host file the judge could read), a pipe
//! (which would block the reader), a directory. Only a regular file is
//! read, opened without following links and without blocking, and only up
//! to the output limit.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::Captured;

/// The named files of one run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RunFiles {
    /// A host file the run finds in its working directory under this name
    /// (a copy: the run cannot change the original).
    pub(crate) input: Option<(String, PathBuf)>,
    /// The name of the file the run writes in its working directory, and
    /// the host file it is copied to once the run has ended.
    pub(crate) output: Option<(String, PathBuf)>,
}

impl RunFiles {
    /// Checks both names (see [`check_name`]).
    pub(crate) fn check(&self) -> io::Result<()> {
        for (name, _) in self.input.iter().chain(&self.output) {
            check_name(name)?;
        }
        Ok(())
    }
}

/// What a run left under the output's name.
#[derive(Debug)]
pub(crate) enum OutputFile {
    /// A regular file: its bytes (at most the output limit).
    Written(Captured),
    /// Nothing.
    Missing,
    /// Something that is not a regular file (a link, a pipe, a directory),
    /// or a file that could not be read: never read.
    NotRegular,
    /// A regular file over the output limit (this many bytes).
    OverLimit(u64),
}

/// What [`collect`] found, without the bytes (they went to the sink).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Collected {
    /// A regular file, this many bytes copied.
    Copied(u64),
    /// Nothing under the name.
    Missing,
    /// Not a regular file, or unreadable.
    NotRegular,
    /// A regular file over the limit (the limit given).
    OverLimit(u64),
}

impl Collected {
    /// The outcome, the bytes being in `sink`.
    pub(crate) fn into_output(self, sink: &Path) -> OutputFile {
        match self {
            Collected::Copied(len) => OutputFile::Written(Captured::File {
                path: sink.to_path_buf(),
                len,
            }),
            Collected::Missing => OutputFile::Missing,
            Collected::NotRegular => OutputFile::NotRegular,
            Collected::OverLimit(limit) => OutputFile::OverLimit(limit),
        }
    }
}

/// A name a run's file may have: one plain file name (no `/`, not `.` or
/// `..`, no control characters, at most 255 bytes).
pub(crate) fn check_name(name: &str) -> io::Result<()> {
    let bad = name.is_empty()
        || name.len() > 255
        || name == "."
        || name == ".."
        || name.contains('/')
        || name.chars().any(char::is_control);
    match bad {
        true => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{}` is not a plain file name", name.escape_debug()),
        )),
        false => Ok(()),
    }
}

/// Puts `input` in `dir` as `name`: a new file (never an existing one, nor
/// through a link), readable by everyone.
pub(crate) fn place(dir: &Path, name: &str, mut input: impl Read) -> io::Result<()> {
    check_name(name)?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW)
        .open(dir.join(name))?;
    io::copy(&mut input, &mut file)?;
    Ok(())
}

/// Copies the regular file `name` of `dir` (at most `limit` bytes) into
/// `sink`; a longer one is over the limit, not cut. Never follows a link,
/// never blocks on a pipe.
pub(crate) fn collect(dir: &Path, name: &str, limit: u64, sink: &mut File) -> Collected {
    if check_name(name).is_err() {
        return Collected::NotRegular;
    }
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(dir.join(name));
    let file = match opened {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Collected::Missing,
        Err(_) => return Collected::NotRegular,
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Collected::NotRegular;
    }
    if file.metadata().is_ok_and(|m| m.len() > limit) {
        return Collected::OverLimit(limit);
    }
    match io::copy(&mut file.take(limit), sink).and_then(|n| sink.flush().map(|()| n)) {
        Ok(n) => Collected::Copied(n),
        Err(_) => Collected::NotRegular,
    }
}

/// [`collect`] into the host file `sink` (created, or emptied).
pub(crate) fn collect_to(
    dir: &Path,
    name: &str,
    limit: u64,
    sink: &Path,
) -> io::Result<OutputFile> {
    let mut file = create_sink(sink)?;
    Ok(collect(dir, name, limit, &mut file).into_output(sink))
}

/// The host file an output is copied to: created, or emptied.
pub(crate) fn create_sink(sink: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(sink)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_file_names() {
        for good in ["input.txt", "OUTPUT", "a b.in", "..x", "ввод.txt"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        let long = "x".repeat(256);
        for bad in [
            "",
            ".",
            "..",
            "../x",
            "a/b",
            "/etc/passwd",
            "a\nb",
            "a\0b",
            &long,
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_input_is_a_new_file_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        place(dir.path(), "input.txt", &b"1 2\n"[..]).unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("input.txt")).unwrap(),
            b"1 2\n"
        );
        assert!(place(dir.path(), "input.txt", &b"x"[..]).is_err());
        let target = dir.path().join("target");
        std::os::unix::fs::symlink(&target, dir.path().join("link")).unwrap();
        assert!(place(dir.path(), "link", &b"x"[..]).is_err());
        assert!(!target.exists());
        assert!(place(dir.path(), "../escape", &b"x"[..]).is_err());
    }

    /// A link, a pipe or a directory left under the output's name is never
    /// read (a link to a secret, a pipe that would block); a file is read up
    /// to the limit.
    #[test]
    fn only_a_regular_output_file_is_read_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let sink = dir.path().join("sink");
        let secret = dir.path().join("secret");
        std::fs::write(&secret, "secret").unwrap();
        let got = |name: &str, limit| match collect_to(dir.path(), name, limit, &sink).unwrap() {
            OutputFile::Written(c) => Some(c.to_vec().unwrap()),
            OutputFile::Missing => None,
            OutputFile::NotRegular => Some(b"<not regular>".to_vec()),
            OutputFile::OverLimit(l) => Some(format!("<over {l}>").into_bytes()),
        };
        assert_eq!(got("missing", 10), None);
        std::fs::write(dir.path().join("out"), "0123456789").unwrap();
        assert_eq!(got("out", 10).unwrap(), b"0123456789");
        // Over the limit is over the limit (OLE), not a cut output (WA).
        std::fs::write(dir.path().join("out"), "0123456789abc").unwrap();
        assert_eq!(got("out", 10).unwrap(), b"<over 10>");
        std::os::unix::fs::symlink(&secret, dir.path().join("link")).unwrap();
        assert_eq!(got("link", 10).unwrap(), b"<not regular>");
        std::fs::create_dir(dir.path().join("dir")).unwrap();
        assert_eq!(got("dir", 10).unwrap(), b"<not regular>");
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        assert_eq!(got("fifo", 10).unwrap(), b"<not regular>");
    }
}
