//! A package's own paths: a package is as hostile as a submission, so every
//! file it names or holds is resolved inside it (its directory, and its test
//! data folder where that lies elsewhere), and a link that leaves it, an
//! absolute path or one that climbs out of it is an error naming it. Its
//! folders are listed without following a link outside, and walks of them
//! are bounded in depth and in entries. The main type is [`PackageRoot`].

use std::path::{Component, Path, PathBuf};

/// The most entries one listing of a package's folder may hold.
pub(crate) const MAX_ENTRIES: usize = 200_000;

/// How deep a package's folders (of test groups, of a program) may nest.
pub(crate) const MAX_DEPTH: usize = 16;

/// The largest text file of a package read (a spec, a statement).
const MAX_TEXT: u64 = 16 << 20;

/// The folders a package may read from, canonical.
#[derive(Debug, Clone)]
pub(crate) struct PackageRoot {
    roots: Vec<PathBuf>,
}

/// What an entry of a package's folder is, links followed inside the
/// package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// A pipe, a socket or a device: never a package's file.
    Other,
}

/// An entry of a package's folder.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// Its name (lossy where it is not UTF-8).
    pub(crate) name: String,
    /// Its own path: the folder's and its name as it is.
    pub(crate) at: PathBuf,
    /// Where it really is (a link followed): canonical, inside the package.
    pub(crate) path: PathBuf,
    /// What it is.
    pub(crate) kind: EntryKind,
}

impl PackageRoot {
    /// The package in `dir` (which must exist), and its other folders.
    pub(crate) fn new(dir: &Path) -> std::io::Result<PackageRoot> {
        Ok(PackageRoot {
            roots: vec![std::fs::canonicalize(dir)?],
        })
    }

    /// Also `dir` (a test data folder kept apart), when it exists.
    pub(crate) fn with(mut self, dir: &Path) -> PackageRoot {
        if let Ok(dir) = std::fs::canonicalize(dir) {
            if !self.roots.iter().any(|r| dir.starts_with(r)) {
                self.roots.push(dir);
            }
        }
        self
    }

    /// The package's directory, canonical.
    pub(crate) fn dir(&self) -> &Path {
        &self.roots[0]
    }

    /// Its folders, canonical: its directory first.
    pub(crate) fn dirs(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Where `path` (absolute, found in the package) really is, if that is
    /// inside the package; else why not. A path that does not exist is
    /// returned as it is when its folder is inside.
    pub(crate) fn inside(&self, path: &Path) -> Result<PathBuf, String> {
        let real = match std::fs::canonicalize(path) {
            Ok(real) => real,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // A dangling link is a link all the same: it must not point out.
                if let Ok(target) = std::fs::read_link(path) {
                    let target = path.parent().unwrap_or(Path::new("/")).join(target);
                    return self
                        .inside_lexically(&target)
                        .map(|_| path.to_path_buf())
                        .map_err(|_| self.leaves(path));
                }
                let parent = path.parent().ok_or_else(|| self.leaves(path))?;
                let name = path.file_name().ok_or_else(|| self.leaves(path))?;
                return self.inside(parent).map(|p| p.join(name));
            }
            Err(e) => return Err(format!("{}: {e}", self.shown(path))),
        };
        if self.roots.iter().any(|r| real.starts_with(r)) {
            Ok(real)
        } else {
            Err(self.leaves(path))
        }
    }

    fn inside_lexically(&self, path: &Path) -> Result<(), ()> {
        let mut normal = PathBuf::new();
        for c in path.components() {
            match c {
                Component::ParentDir => {
                    normal.pop();
                }
                Component::CurDir => {}
                other => normal.push(other),
            }
        }
        if self.roots.iter().any(|r| normal.starts_with(r)) {
            Ok(())
        } else {
            Err(())
        }
    }

    fn leaves(&self, path: &Path) -> String {
        let target = std::fs::read_link(path)
            .map(|t| format!(" (a link to {})", t.display()))
            .unwrap_or_default();
        format!(
            "{}{target} leaves the package: a package may only use its own files",
            self.shown(path)
        )
    }

    /// `path` as a message shows it: relative to the package where it can be.
    fn shown(&self, path: &Path) -> String {
        self.roots
            .iter()
            .find_map(|r| path.strip_prefix(r).ok())
            .map_or_else(|| path.display().to_string(), |p| p.display().to_string())
    }

    /// The file or folder `named` (a path as the package writes it, relative
    /// to `base`, a folder of the package) inside the package: an absolute
    /// path, one that climbs out of the package or a link that leads out is
    /// an error saying so.
    pub(crate) fn resolve(&self, base: &Path, named: &Path) -> Result<PathBuf, String> {
        if named.is_absolute() {
            return Err(format!(
                "`{}` is an absolute path: a package may only name its own files, relative to it",
                named.display()
            ));
        }
        let joined = base.join(named);
        let mut normal = PathBuf::new();
        for c in joined.components() {
            match c {
                Component::ParentDir => {
                    normal.pop();
                }
                Component::CurDir => {}
                other => normal.push(other),
            }
        }
        if !self.roots.iter().any(|r| normal.starts_with(r)) {
            return Err(format!(
                "`{}` leaves the package: a package may only use its own files",
                named.display()
            ));
        }
        self.inside(&normal)
    }

    /// The text of the package's file `path`: inside the package, a regular
    /// file (a pipe is not waited on), at most 16 MiB.
    pub(crate) fn read_text(&self, path: &Path) -> Result<String, String> {
        let real = self.inside(path)?;
        let bytes = crate::sandbox::untrusted::open_regular(&real)
            .and_then(|f| crate::sandbox::untrusted::read_capped(f, MAX_TEXT))
            .map_err(|e| format!("cannot read {}: {e}", self.shown(path)))?;
        String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", self.shown(path)))
    }

    /// Whether `path` is a regular file inside the package (a link to one
    /// inside counts).
    pub(crate) fn is_file(&self, path: &Path) -> bool {
        self.inside(path)
            .is_ok_and(|real| std::fs::metadata(real).is_ok_and(|m| m.is_file()))
    }

    /// Whether `path` is a folder inside the package.
    pub(crate) fn is_dir(&self, path: &Path) -> bool {
        self.inside(path)
            .is_ok_and(|real| std::fs::metadata(real).is_ok_and(|m| m.is_dir()))
    }

    /// The entries of `dir` (a folder of the package) but hidden ones, by
    /// name in byte order; a link is followed when it stays inside the
    /// package and is an error naming it when it does not. At most
    /// [`MAX_ENTRIES`].
    pub(crate) fn entries(&self, dir: &Path) -> Result<Vec<Entry>, String> {
        let listing = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", self.shown(dir)))?;
        let mut out = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|e| format!("{}: {e}", self.shown(dir)))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            if out.len() == MAX_ENTRIES {
                return Err(format!(
                    "{}: more than {MAX_ENTRIES} entries",
                    self.shown(dir)
                ));
            }
            let at = entry.path();
            let kind = entry
                .file_type()
                .map_err(|e| format!("{}: {e}", self.shown(&at)))?;
            let (path, kind) = if kind.is_symlink() {
                let real = self.inside(&at)?;
                match std::fs::metadata(&real) {
                    Ok(meta) => (real, kind_of(&meta.file_type())),
                    // Dangling, but inside: nothing there.
                    Err(_) => continue,
                }
            } else {
                (at.clone(), kind_of(&kind))
            };
            out.push(Entry {
                name,
                at,
                path,
                kind,
            });
        }
        out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        Ok(out)
    }
}

fn kind_of(kind: &std::fs::FileType) -> EntryKind {
    if kind.is_file() {
        EntryKind::File
    } else if kind.is_dir() {
        EntryKind::Dir
    } else {
        EntryKind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Links out of a package, absolute paths and paths that climb out are
    /// errors that name them; links that stay inside are followed.
    #[test]
    fn nothing_outside_the_package_is_reached() {
        let top = tempfile::tempdir().unwrap();
        let package = top.path().join("p");
        std::fs::create_dir_all(package.join("data/secret")).unwrap();
        std::fs::write(package.join("data/secret/1.in"), "1\n").unwrap();
        std::fs::write(top.path().join("outside.txt"), "secret\n").unwrap();
        let link = |target: &str, name: &str| {
            std::os::unix::fs::symlink(target, package.join(name)).unwrap();
        };
        link("/", "data/secret/root");
        link("../../../outside.txt", "data/secret/2.in");
        link("1.in", "data/secret/3.in");
        link("../nowhere", "data/secret/dangling");
        let root = PackageRoot::new(&package).unwrap();
        let secret = package.join("data/secret");
        let error = root.entries(&secret).unwrap_err();
        assert!(error.contains("leaves the package"), "{error}");
        std::fs::remove_file(secret.join("root")).unwrap();
        let error = root.entries(&secret).unwrap_err();
        assert!(error.contains("data/secret/2.in"), "{error}");
        assert!(error.contains("outside.txt"), "{error}");
        std::fs::remove_file(secret.join("2.in")).unwrap();
        let names: Vec<_> = root
            .entries(&secret)
            .unwrap()
            .into_iter()
            .map(|e| (e.name, e.kind))
            .collect();
        assert_eq!(
            names,
            vec![
                ("1.in".to_string(), EntryKind::File),
                ("3.in".to_string(), EntryKind::File)
            ]
        );
        for named in [
            "../../etc/hostname",
            "/etc/shadow",
            "data/../../outside.txt",
        ] {
            let error = root.resolve(root.dir(), Path::new(named)).unwrap_err();
            assert!(
                error.contains("leaves the package") || error.contains("absolute"),
                "{named}: {error}"
            );
        }
        assert_eq!(
            root.resolve(root.dir(), Path::new("data/./secret/../secret/1.in"))
                .unwrap(),
            std::fs::canonicalize(secret.join("1.in")).unwrap()
        );
    }
}
