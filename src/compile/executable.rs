//! A built program and how its build went.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::command::{fill, Paths};
use crate::cache::Key;
use crate::config::Language;
use crate::error::{Error, Result};

/// Name of the produced executable inside a build directory.
pub(super) const EXE_NAME: &str = "prog";
/// A program ready to run.
#[derive(Debug, Clone)]
pub(crate) struct Executable {
    /// Its language.
    pub(crate) language: Language,
    /// The source (or executable) it was built from.
    pub(crate) source: PathBuf,
    /// Identity of the built program: same key, same behaviour.
    pub(crate) key: Key,
    pub(super) dir: PathBuf,
    pub(super) src: PathBuf,
    pub(super) toolchain: Option<PathBuf>,
    /// A package's program: how it runs (what it sees, its limits); `None`
    /// for a submission.
    pub(crate) package: Option<crate::sandbox::PackageRun>,
    /// The link in `dir` it is run by, when not its own name ([`Executable::as_generator`]).
    pub(super) run_as: Option<PathBuf>,
}

impl Executable {
    /// The command line that runs it, with the memory limit filled in.
    pub(crate) fn argv(&self, memory: Option<u64>) -> Vec<OsString> {
        let exe = if self.language.compile.is_some() {
            self.run_as
                .clone()
                .unwrap_or_else(|| self.dir.join(EXE_NAME))
        } else {
            self.src.clone()
        };
        let paths = Paths {
            src: &self.src,
            exe: &exe,
            dir: &self.dir,
            toolchain: self.toolchain.as_deref(),
            files: &[],
        };
        fill(&self.language.run, &paths, memory)
    }

    /// The program run by the name BAPCtools runs a generator by,
    /// `.../generators/NAME/run` (a hard link in its build directory, which
    /// the sandbox shows as it shows the program; it follows no symbolic
    /// link): a
    /// program may take its role from its name, as BAPCtools'
    /// `validation.h` does (an input validator linked as a generator
    /// generates when its name holds `generat`). A compiled program only
    /// (an interpreted one is named by its source); as it is when the link
    /// cannot be made.
    pub(crate) fn as_generator(&self) -> Executable {
        if self.language.compile.is_none() {
            return self.clone();
        }
        let name = self
            .source
            .file_stem()
            .map_or_else(|| "generator".into(), |s| s.to_string_lossy().into_owned());
        let folder = self.dir.join("generators").join(&name);
        let link = folder.join("run");
        let made = std::fs::create_dir_all(&folder).and_then(|()| {
            match std::fs::hard_link(self.dir.join(EXE_NAME), &link) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
                _ => Ok(()),
            }
        });
        let mut named = self.clone();
        if made.is_ok() {
            named.run_as = Some(link);
        }
        named
    }

    /// The build directory: everything the program is (a sandboxed run sees
    /// it, and no other build).
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The environment its runs get besides the fixed one.
    pub(crate) fn env(&self) -> &[(String, String)] {
        &self.language.env
    }

    /// Whether the language's memory limit is an address-space rlimit.
    pub(crate) fn address_space_limit(&self) -> bool {
        self.language.address_space_limit
    }
}

/// How compilation went, as reported.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub(crate) struct CompileReport {
    /// `ok`, `error`, or `none` (nothing to compile).
    pub(crate) status: CompileStatus,
    /// Compiler messages (trimmed), or why the compile was stopped.
    pub(crate) message: String,
    /// Wall time of the compilation, ms (0 when cached).
    pub(crate) time_ms: u64,
    /// Whether the result came from the build cache.
    pub(crate) cached: bool,
}

/// Compilation status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CompileStatus {
    /// Compiled.
    Ok,
    /// Compile error (CE).
    Error,
    /// Nothing to compile (interpreted without a check, or an executable).
    None,
}

/// The result of [`super::Compiler::build`].
#[derive(Debug)]
pub(crate) enum Build {
    /// A runnable program.
    Ready(Box<Executable>, CompileReport),
    /// A compile error.
    Failed(CompileReport),
}

/// Gives `path` the permission bits `mode` (a build's files must be readable,
/// its programs runnable, by the sandbox's user).
pub(super) fn set_mode(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| Error::io(path, e))
}
