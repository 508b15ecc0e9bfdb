//! Reading what someone else controls: a contest folder, a package, what a
//! compilation or a package program left. Every name is opened once,
//! relative to its directory's descriptor (so no path grows with what the
//! other side chose), never through a link, never blocking (a pipe does not
//! stall the judge), checked to be a regular file or a directory on the
//! opened descriptor, and read with a cap. The main type is [`Dir`];
//! [`copy_tree`] copies a tree under limits.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use super::sys;
pub(crate) use super::sys::EntryKind;

/// A directory, open.
#[derive(Debug)]
pub(crate) struct Dir {
    fd: OwnedFd,
}

impl AsRawFd for Dir {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.fd.as_raw_fd()
    }
}

/// Why an entry is not what it must be, as an error naming its kind.
fn not_regular(kind: EntryKind) -> io::Error {
    let what = match kind {
        EntryKind::Link => "a symbolic link (links are not followed)",
        EntryKind::Dir => "a folder, not a file",
        EntryKind::File => "a regular file",
        EntryKind::Other => "a pipe, socket or device, not a regular file",
    };
    io::Error::new(io::ErrorKind::InvalidInput, what)
}

/// The kind of an open descriptor's file.
fn kind_of(file: &File) -> io::Result<EntryKind> {
    let kind = file.metadata()?.file_type();
    Ok(if kind.is_file() {
        EntryKind::File
    } else if kind.is_dir() {
        EntryKind::Dir
    } else if kind.is_symlink() {
        EntryKind::Link
    } else {
        EntryKind::Other
    })
}

/// A link met where none is followed shows as ELOOP (or ENOTDIR for a
/// directory wanted): said in words.
fn explain(e: io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(libc::ELOOP) => not_regular(EntryKind::Link),
        _ => e,
    }
}

impl Dir {
    /// The directory open at `fd`.
    pub(crate) fn from_fd(fd: OwnedFd) -> Dir {
        Dir { fd }
    }

    /// Its descriptor.
    pub(crate) fn into_fd(self) -> OwnedFd {
        self.fd
    }

    /// Opens the directory at `path` (links in `path` are followed: the
    /// caller named it).
    pub(crate) fn open(path: &Path) -> io::Result<Dir> {
        let fd = sys::open_at(
            None,
            path.as_os_str(),
            libc::O_RDONLY | libc::O_DIRECTORY,
            0,
        )?;
        Ok(Dir { fd })
    }

    /// The directory `name` inside this one; a link is an error.
    pub(crate) fn dir(&self, name: &OsStr) -> io::Result<Dir> {
        check_name(name)?;
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
        match sys::open_at(Some(self.as_raw_fd()), name, flags, 0) {
            Ok(fd) => Ok(Dir { fd }),
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => {
                Err(sys::kind_at(self.as_raw_fd(), name).map_or(e, not_regular))
            }
            Err(e) => Err(explain(e)),
        }
    }

    /// The regular file `name` inside this one, open for reading; a link, a
    /// pipe, a socket or a device is an error (and a pipe is not waited on).
    pub(crate) fn file(&self, name: &OsStr) -> io::Result<File> {
        check_name(name)?;
        // Devices are not opened at all (opening some has effects).
        let kind = sys::kind_at(self.as_raw_fd(), name)?;
        if kind != EntryKind::File {
            return Err(not_regular(kind));
        }
        let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY;
        let file =
            File::from(sys::open_at(Some(self.as_raw_fd()), name, flags, 0).map_err(explain)?);
        // Checked again on the descriptor: it may have been swapped meanwhile.
        match kind_of(&file)? {
            EntryKind::File => Ok(file),
            other => Err(not_regular(other)),
        }
    }

    /// The regular file at `relative` below this directory, each of its
    /// components opened without following a link.
    pub(crate) fn file_at(&self, relative: &Path) -> io::Result<File> {
        let names = plain_components(relative)?;
        let Some((last, dirs)) = names.split_last() else {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "an empty path"));
        };
        let mut opened: Option<Dir> = None;
        for name in dirs {
            let next = opened.as_ref().unwrap_or(self).dir(name)?;
            opened = Some(next);
        }
        opened.as_ref().unwrap_or(self).file(last)
    }

    /// The entries of this directory with their kinds (links not followed),
    /// at most `max` of them: more is an error.
    pub(crate) fn entries(&self, max: usize) -> io::Result<Vec<(OsString, EntryKind)>> {
        sys::list(self, max)
    }

    /// A new directory `name` here (an existing directory is reused).
    pub(crate) fn create_dir(&self, name: &OsStr, mode: u32) -> io::Result<Dir> {
        check_name(name)?;
        match sys::mkdir_at(self, name, mode) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
        let dir = self.dir(name)?;
        sys::fchmod(&dir, mode)?;
        Ok(dir)
    }

    /// The file `name` here, created (or emptied), for writing; a link of
    /// that name is an error.
    pub(crate) fn create_file(&self, name: &OsStr, mode: u32) -> io::Result<File> {
        check_name(name)?;
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_NOFOLLOW;
        let file =
            File::from(sys::open_at(Some(self.as_raw_fd()), name, flags, mode).map_err(explain)?);
        sys::fchmod(&file, mode)?;
        Ok(file)
    }
}

/// One name, not `.` nor `..`, without a slash.
fn check_name(name: &OsStr) -> io::Result<()> {
    let bytes = name.as_encoded_bytes();
    if bytes.is_empty() || bytes == b"." || bytes == b".." || bytes.contains(&b'/') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{}` is not a file name", name.to_string_lossy()),
        ));
    }
    Ok(())
}

/// The names of a relative path that only goes down (no `..`, not absolute).
fn plain_components(path: &Path) -> io::Result<Vec<&OsStr>> {
    path.components()
        .filter(|c| *c != Component::CurDir)
        .map(|c| match c {
            Component::Normal(name) => Ok(name),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("`{}` leaves its folder", path.display()),
            )),
        })
        .collect()
}

/// Opens the regular file at `path` (following links: a path the judge
/// checked), without blocking: a pipe, a socket or a device is an error.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY;
    let file = File::from(sys::open_at(None, path.as_os_str(), flags, 0)?);
    match kind_of(&file)? {
        EntryKind::File => Ok(file),
        other => Err(not_regular(other)),
    }
}

/// All of `file`, at most `max` bytes: a longer file is an error.
pub(crate) fn read_capped(file: File, max: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {max} bytes"),
        ));
    }
    Ok(bytes)
}

/// Makes `to` hold every regular file of `from` (a build: bounded when it
/// was made) as a hard link, or a copy where a link cannot be made, and
/// its folders (mode 0755), one name at a time: no path grows with the
/// tree.
pub(crate) fn link_tree(from: &Dir, to: &Dir, depth: usize) -> io::Result<()> {
    if depth > 64 {
        return Err(io::Error::other("folders nested more than 64 deep"));
    }
    for (name, kind) in from.entries(usize::MAX)? {
        match kind {
            EntryKind::Dir => {
                let inner = to.create_dir(&name, 0o755)?;
                link_tree(&from.dir(&name)?, &inner, depth + 1)?;
            }
            EntryKind::File => {
                if sys::link_at(from, to, &name).is_err() {
                    let mut input = from.file(&name)?;
                    let mode = input.metadata()?.permissions().mode() & 0o755;
                    let mut output = to.create_file(&name, mode)?;
                    io::copy(&mut input, &mut output)?;
                }
            }
            EntryKind::Link | EntryKind::Other => {}
        }
    }
    Ok(())
}

/// Which names of a tree's top level are copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Select {
    /// These alone.
    Only(Vec<OsString>),
    /// All but these.
    AllBut(Vec<OsString>),
}

impl Select {
    fn takes(&self, name: &OsStr) -> bool {
        match self {
            Select::Only(names) => names.iter().any(|n| n == name),
            Select::AllBut(names) => !names.iter().any(|n| n == name),
        }
    }
}

/// What a copied tree may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TreeLimits {
    /// Bytes, counted as they are copied (a sparse file counts its holes).
    pub(crate) bytes: u64,
    /// Regular files.
    pub(crate) files: u64,
    /// Levels of folders below the top.
    pub(crate) depth: usize,
}

/// Why a tree was not copied (whole).
#[derive(Debug, thiserror::Error)]
pub(crate) enum TreeError {
    /// More bytes than allowed.
    #[error("it holds more than {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
    /// More files than allowed.
    #[error("it holds more than {limit} files")]
    TooManyFiles {
        /// The limit.
        limit: u64,
    },
    /// More entries in one folder than the files allowed could explain.
    #[error("it holds more than {limit} entries")]
    TooManyEntries {
        /// The limit.
        limit: usize,
    },
    /// Folders nested too deep.
    #[error("its folders are nested more than {limit} deep")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// An entry could not be read or written.
    #[error("{}: {source}", path.display())]
    Entry {
        /// The entry, relative to the tree's top.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// Copies the regular files and folders of `from` into `to`, replacing files
/// of the same name, within `limits`; links, pipes, sockets and devices are
/// left out, and nothing is followed. Of the top level, the names `select`
/// takes (each a file or a folder). Modes become 0644, or 0755 for folders
/// and files with an execute bit.
pub(crate) fn copy_tree(
    from: &Dir,
    to: &Dir,
    select: &Select,
    limits: TreeLimits,
) -> Result<(), TreeError> {
    let mut copier = Copier {
        limits,
        bytes: 0,
        files: 0,
        buffer: vec![0u8; 64 << 10],
        owner: None,
    };
    copier.copy(from, to, Some(select), Path::new(""), 0)
}

/// Copies the regular files of `from`'s top level into `to`, replacing
/// files of the same name, within `limits` (`depth` is not used): folders,
/// links, pipes, sockets and devices are left out, and nothing is followed.
/// Modes as [`copy_tree`]'s; the copies are `owner`'s (uid, gid) when given.
pub(crate) fn copy_files(
    from: &Dir,
    to: &Dir,
    limits: TreeLimits,
    owner: Option<(u32, u32)>,
) -> Result<(), TreeError> {
    let mut copier = Copier {
        limits,
        bytes: 0,
        files: 0,
        buffer: vec![0u8; 64 << 10],
        owner,
    };
    let max = usize::try_from(limits.files.saturating_add(1))
        .unwrap_or(usize::MAX)
        .saturating_mul(4);
    let entries = from
        .entries(max)
        .map_err(|source| match source.raw_os_error() {
            // The listing's own bound, not the system's error.
            None => TreeError::TooManyEntries { limit: max },
            Some(_) => TreeError::Entry {
                path: PathBuf::from("."),
                source,
            },
        })?;
    for (name, kind) in entries {
        if kind == EntryKind::File {
            copier.copy_counted(from, to, &name, Path::new(""))?;
        }
    }
    Ok(())
}

struct Copier {
    limits: TreeLimits,
    bytes: u64,
    files: u64,
    buffer: Vec<u8>,
    /// Who the copies belong to (uid, gid), when not the copier.
    owner: Option<(u32, u32)>,
}

impl Copier {
    fn copy(
        &mut self,
        from: &Dir,
        to: &Dir,
        select: Option<&Select>,
        at: &Path,
        depth: usize,
    ) -> Result<(), TreeError> {
        let entry_err = |name: &OsStr, source: io::Error| TreeError::Entry {
            path: at.join(name),
            source,
        };
        // Enough entries to exceed the file limit, and no more, are listed.
        let max = usize::try_from(self.limits.files.saturating_add(1)).unwrap_or(usize::MAX);
        let entries = from
            .entries(max.saturating_mul(4))
            .map_err(|source| TreeError::Entry {
                path: at.to_path_buf(),
                source,
            })?;
        for (name, kind) in entries {
            if select.is_some_and(|s| !s.takes(&name)) {
                continue;
            }
            match kind {
                EntryKind::Dir => {
                    if depth >= self.limits.depth {
                        return Err(TreeError::TooDeep {
                            limit: self.limits.depth,
                        });
                    }
                    let source = from.dir(&name).map_err(|e| entry_err(&name, e))?;
                    let target = to
                        .create_dir(&name, 0o755)
                        .map_err(|e| entry_err(&name, e))?;
                    self.copy(&source, &target, None, &at.join(&name), depth + 1)?;
                }
                EntryKind::File => self.copy_counted(from, to, &name, at)?,
                EntryKind::Link | EntryKind::Other => {}
            }
        }
        Ok(())
    }

    /// Copies the file `name` (at `at` in the tree), counted against the limits.
    fn copy_counted(
        &mut self,
        from: &Dir,
        to: &Dir,
        name: &OsStr,
        at: &Path,
    ) -> Result<(), TreeError> {
        self.files += 1;
        if self.files > self.limits.files {
            return Err(TreeError::TooManyFiles {
                limit: self.limits.files,
            });
        }
        self.copy_file(from, to, name).map_err(|e| match e {
            Copied::Over => TreeError::TooLarge {
                limit: self.limits.bytes,
            },
            Copied::Failed(source) => TreeError::Entry {
                path: at.join(name),
                source,
            },
        })
    }

    fn copy_file(&mut self, from: &Dir, to: &Dir, name: &OsStr) -> Result<(), Copied> {
        let mut input = from.file(name).map_err(Copied::Failed)?;
        let executable = input
            .metadata()
            .map_err(Copied::Failed)?
            .permissions()
            .mode()
            & 0o111
            != 0;
        let mode = if executable { 0o755 } else { 0o644 };
        let mut output = to.create_file(name, mode).map_err(Copied::Failed)?;
        if let Some((uid, gid)) = self.owner {
            std::os::unix::fs::fchown(&output, Some(uid), Some(gid)).map_err(Copied::Failed)?;
        }
        loop {
            let n = match input.read(&mut self.buffer) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Copied::Failed(e)),
            };
            self.bytes += n as u64;
            if self.bytes > self.limits.bytes {
                return Err(Copied::Over);
            }
            output
                .write_all(&self.buffer[..n])
                .map_err(Copied::Failed)?;
        }
    }
}

enum Copied {
    Over,
    Failed(io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Select {
        Select::AllBut(Vec::new())
    }

    fn limits() -> TreeLimits {
        TreeLimits {
            bytes: 1 << 20,
            files: 100,
            depth: 8,
        }
    }

    /// A pipe, a link to a secret and a socket are refused by name, at once.
    #[test]
    fn files_are_opened_without_following_or_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        std::fs::write(path.join("plain"), "hello").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", path.join("link")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(path.join("fifo"))
            .status()
            .unwrap();
        assert!(made.success());
        let _socket = std::os::unix::net::UnixListener::bind(path.join("socket")).unwrap();
        let opened = Dir::open(path).unwrap();
        let read = |name: &str| {
            opened
                .file(OsStr::new(name))
                .and_then(|f| read_capped(f, 100))
        };
        assert_eq!(read("plain").unwrap(), b"hello");
        for (name, says) in [
            ("link", "symbolic link"),
            ("fifo", "pipe"),
            ("socket", "pipe, socket"),
        ] {
            let error = read(name).unwrap_err().to_string();
            assert!(error.contains(says), "{name}: {error}");
        }
        assert!(opened.dir(OsStr::new("link")).is_err());
        assert!(opened.file_at(Path::new("../etc/passwd")).is_err());
        let long = opened.file(OsStr::new("plain")).unwrap();
        assert!(read_capped(long, 3).is_err());
        assert!(open_regular(&path.join("fifo")).is_err());
    }

    /// Sparse files count their holes; names at the limit of length and
    /// trees deeper than a path may be long are copied (or refused by the
    /// depth limit), never by an error of the judge's own paths.
    #[test]
    fn trees_are_copied_within_limits() {
        let from = tempfile::tempdir().unwrap();
        let sparse = std::fs::File::create(from.path().join("sparse")).unwrap();
        sparse.set_len(4 << 20).unwrap();
        let to = tempfile::tempdir().unwrap();
        let (a, b) = (
            Dir::open(from.path()).unwrap(),
            Dir::open(to.path()).unwrap(),
        );
        assert!(matches!(
            copy_tree(&a, &b, &all(), limits()),
            Err(TreeError::TooLarge { .. })
        ));
        std::fs::remove_file(from.path().join("sparse")).unwrap();
        // A chain of 200-byte names 30 deep: a path of 6000 bytes.
        let name = "n".repeat(200);
        let mut deep = Dir::open(from.path()).unwrap();
        for _ in 0..30 {
            deep = deep.create_dir(OsStr::new(&name), 0o755).unwrap();
        }
        deep.create_file(OsStr::new("x"), 0o644).unwrap();
        assert!(matches!(
            copy_tree(&a, &b, &all(), limits()),
            Err(TreeError::TooDeep { limit: 8 })
        ));
        let roomy = TreeLimits {
            depth: 40,
            ..limits()
        };
        copy_tree(&a, &b, &all(), roomy).unwrap();
        let mut found = Dir::open(to.path()).unwrap();
        for _ in 0..30 {
            found = found.dir(OsStr::new(&name)).unwrap();
        }
        assert!(found.file(OsStr::new("x")).is_ok());
        for i in 0..101 {
            std::fs::write(from.path().join(format!("f{i}")), "").unwrap();
        }
        assert!(matches!(
            copy_tree(&a, &b, &all(), roomy),
            Err(TreeError::TooManyFiles { limit: 100 })
        ));
        std::fs::write(from.path().join("prog"), "#!").unwrap();
        let only = Select::Only(vec![OsString::from("prog")]);
        let picked = tempfile::tempdir().unwrap();
        copy_tree(&a, &Dir::open(picked.path()).unwrap(), &only, roomy).unwrap();
        let names: Vec<_> = std::fs::read_dir(picked.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![OsString::from("prog")]);
    }

    /// A folder's top level as a package program left it (a multi-pass
    /// validator's feedback directory): only its regular files are copied;
    /// a link to a secret, a pipe, a socket and a folder are neither
    /// followed nor copied, and too many files or entries, or too many
    /// bytes together, are refused by name, without blocking.
    #[test]
    fn only_a_folders_regular_files_are_copied_within_limits() {
        let from = tempfile::tempdir().unwrap();
        let path = from.path();
        std::fs::write(path.join("state.txt"), "42").unwrap();
        std::fs::write(path.join("judgemessage.txt"), "pass 1\n").unwrap();
        let secret = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(secret.path(), "secret").unwrap();
        std::os::unix::fs::symlink(secret.path(), path.join("link")).unwrap();
        std::os::unix::fs::symlink("/etc", path.join("etc")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(path.join("fifo"))
            .status()
            .unwrap();
        assert!(made.success());
        let _socket = std::os::unix::net::UnixListener::bind(path.join("socket")).unwrap();
        std::fs::create_dir(path.join("sub")).unwrap();
        std::fs::write(path.join("sub/inner"), "x").unwrap();
        let to = tempfile::tempdir().unwrap();
        let (a, b) = (Dir::open(path).unwrap(), Dir::open(to.path()).unwrap());
        copy_files(&a, &b, limits(), None).unwrap();
        let mut names: Vec<_> = std::fs::read_dir(to.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["judgemessage.txt", "state.txt"]);
        for name in &names {
            let meta = std::fs::symlink_metadata(to.path().join(name)).unwrap();
            assert!(meta.is_file(), "{name}");
        }
        assert_eq!(std::fs::read(to.path().join("state.txt")).unwrap(), b"42");
        // Together over the bytes allowed.
        let small = TreeLimits {
            bytes: 5,
            ..limits()
        };
        assert!(matches!(
            copy_files(&a, &b, small, None),
            Err(TreeError::TooLarge { limit: 5 })
        ));
        // More files than allowed; a flood of links (never files) is
        // refused by the listing's bound, before anything is read.
        for i in 0..120 {
            std::fs::write(path.join(format!("f{i}")), "").unwrap();
        }
        assert!(matches!(
            copy_files(&a, &b, limits(), None),
            Err(TreeError::TooManyFiles { limit: 100 })
        ));
        let links = tempfile::tempdir().unwrap();
        for i in 0..500 {
            std::os::unix::fs::symlink("/etc/shadow", links.path().join(format!("l{i}"))).unwrap();
        }
        let error = copy_files(&Dir::open(links.path()).unwrap(), &b, limits(), None).unwrap_err();
        assert!(
            matches!(error, TreeError::TooManyEntries { limit: 404 }),
            "{error}"
        );
        assert_eq!(error.to_string(), "it holds more than 404 entries");
    }
}
