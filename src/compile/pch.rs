//! Precompiled headers: a language's `precompiled_header` (C++'s
//! `bits/stdc++.h`) built once per compiler version, flags and header, and
//! offered to its compilations with `-I`.
//!
//! Transparent by GCC's own rule: a `NAME.gch` found on the include path is
//! used only when it is valid for the compilation (same compiler, same
//! macro-affecting flags, nothing defined before the include); otherwise GCC
//! goes on and includes the real header. The directory offered holds the
//! `.gch` and nothing else, so that fallback finds the system's header. The
//! header is compiled in the compile sandbox from a one-line wrapper (no
//! submission is involved), published atomically and shown read-only. It is
//! rebuilt when a header it was made from changes (its dependency list is
//! kept beside it). Anything that goes wrong leaves the compilation as it
//! would be without: a missing precompiled header is never an error.

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::underway::Underway;
use crate::cache::Key;
use crate::config::{DefaultLimits, Language};
use crate::sandbox::{self, Environment, Profile, RunRequest, Sandbox, Stdin};

/// The include directory inside an entry: the `.gch` alone.
const INCLUDE: &str = "include";
/// The headers the `.gch` was made from, with their identities.
const DEPENDS: &str = "depends.txt";

/// Where precompiled headers are kept, and which are being built.
#[derive(Debug)]
pub(super) struct Headers {
    root: PathBuf,
    /// One lock per entry: compilations in this judge wait for a build
    /// under way here instead of starting their own.
    building: Underway,
}

/// What a header build needs from the compiler.
pub(super) struct Needs<'a> {
    pub(super) language: &'a Language,
    /// Whether to build it when it is not there yet.
    pub(super) build: bool,
    /// The compile command, placeholders filled but `{src}`, `{exe}`, `{dir}`.
    pub(super) compile: &'a [OsString],
    /// The compiler's version text (part of the key).
    pub(super) version: &'a str,
    /// Directories the compilation sees besides the system's.
    pub(super) shown: &'a [PathBuf],
    pub(super) sandbox: &'a Sandbox,
    pub(super) limits: &'a DefaultLimits,
    /// Compile slots: one is held while the header is built.
    pub(super) slots: &'a tokio::sync::Semaphore,
}

impl Headers {
    pub(super) fn new(root: PathBuf) -> Headers {
        Headers {
            root,
            building: Underway::default(),
        }
    }

    /// The directory to put on the include path of `needs.language`'s
    /// compilations, built first if nobody has; None when the language has
    /// no precompiled header, or it cannot be had now.
    pub(super) async fn include_dir(&self, needs: &Needs<'_>) -> Option<PathBuf> {
        let header = needs.language.precompiled_header.as_deref()?;
        let flags = header_flags(needs.compile)?;
        let key = Key::of(&[
            b"pch-v1",
            needs.version.as_bytes(),
            flags
                .join(OsString::from("\0").as_os_str())
                .as_encoded_bytes(),
            header.as_bytes(),
        ]);
        let entry = self.root.join(key.as_str());
        if fresh(&entry) {
            return Some(entry.join(INCLUDE));
        }
        if !needs.build {
            return None;
        }
        let _turn = self.building.turn(&key).await;
        if fresh(&entry) {
            return Some(entry.join(INCLUDE));
        }
        // Another judge building it: compile without this time.
        std::fs::create_dir_all(&self.root).ok()?;
        let lock = std::fs::File::create(self.root.join(format!("{}.lock", key.as_str()))).ok()?;
        if !sandbox::try_lock_exclusive(&lock) {
            return None;
        }
        if fresh(&entry) {
            return Some(entry.join(INCLUDE));
        }
        let _slot = needs.slots.acquire().await.expect("never closed");
        self.build(needs, header, &flags, &entry).await?;
        Some(entry.join(INCLUDE))
    }

    /// Compiles `header` with `flags` into `entry` (replacing a stale one).
    async fn build(
        &self,
        needs: &Needs<'_>,
        header: &str,
        flags: &[OsString],
        entry: &Path,
    ) -> Option<()> {
        let scratch = tempfile::Builder::new()
            .prefix("building-")
            .tempdir_in(&self.root)
            .ok()?;
        let work = scratch.path();
        // Compiled at the top of the work directory (the compiler runs as
        // the sandbox's uid, which owns only that), then moved into the
        // include directory: the wrapper stays out of it, so that GCC finds
        // the system's header when it refuses the .gch.
        let wrapper = work.join("header.h");
        std::fs::write(&wrapper, format!("#include <{header}>\n")).ok()?;
        let built = work.join("header.gch");
        let depends = work.join("depends.d");
        let kind = if needs.language.compile_is_c() {
            "c-header"
        } else {
            "c++-header"
        };
        let mut argv: Vec<OsString> = vec![needs.compile[0].clone()];
        argv.extend(flags.iter().cloned());
        argv.extend(["-x".into(), kind.into(), wrapper.clone().into_os_string()]);
        argv.extend(["-o".into(), built.clone().into_os_string()]);
        argv.extend(["-MD".into(), "-MF".into(), depends.clone().into_os_string()]);
        let request = RunRequest {
            argv,
            cwd: work.to_path_buf(),
            stdin: Stdin::Null,
            stdout_spill: None,
            stdout_to: None,
            environment: Environment::Minimal(needs.language.env.clone()),
            limits: sandbox::Limits {
                cpu_time: needs.limits.compile_time.saturating_mul(4),
                wall_time: needs.limits.compile_time.saturating_mul(4),
                memory: None,
                address_space: false,
                stdout: 64 << 10,
                stderr: 64 << 10,
                file_size: needs.limits.compile_disk,
                output_ends_run: true,
            },
            program_dir: None,
            exchange: Default::default(),
        };
        let profile = Profile::Compile {
            memory: needs.limits.compile_memory,
            disk: needs.limits.compile_disk,
            toolchain: needs.shown.to_vec(),
            headers: None,
            keep: sandbox::Keep {
                select: sandbox::untrusted::Select::Only(vec![
                    "header.gch".into(),
                    "depends.d".into(),
                ]),
                limits: sandbox::untrusted::TreeLimits {
                    bytes: needs.limits.compile_disk,
                    files: 2,
                    depth: 0,
                },
            },
        };
        let outcome = needs.sandbox.run(&request, profile).await.ok()?;
        if !outcome.success() || outcome.keep_error.is_some() || !built.is_file() {
            return None;
        }
        let listed = std::fs::read_to_string(&depends).ok()?;
        std::fs::write(work.join(DEPENDS), identities(&listed, work)?).ok()?;
        let gch = work.join(INCLUDE).join(format!("{header}.gch"));
        std::fs::create_dir_all(gch.parent()?).ok()?;
        std::fs::rename(&built, &gch).ok()?;
        std::fs::remove_file(&wrapper).ok()?;
        std::fs::remove_file(&depends).ok()?;
        for dir in gch.ancestors().skip(1).take_while(|d| d.starts_with(work)) {
            set_mode(dir, 0o755)?;
        }
        set_mode(&gch, 0o644)?;
        // A stale entry goes first; a fresh one another judge just put
        // there is as good as ours.
        if entry.exists() && !fresh(entry) {
            let _ = std::fs::remove_dir_all(entry);
        }
        if std::fs::rename(scratch.keep(), entry).is_err() && !fresh(entry) {
            return None;
        }
        Some(())
    }
}

impl Language {
    /// Whether its compiler is a C compiler (`gcc`, `cc`, `clang`): its
    /// headers are precompiled as C.
    fn compile_is_c(&self) -> bool {
        let program = self
            .compile
            .as_ref()
            .and_then(|c| c.first())
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
            .unwrap_or_default();
        matches!(program.as_str(), "gcc" | "cc" | "clang") || program.starts_with("gcc-")
    }
}

/// The compile command's flags that shape a precompiled header: all but the
/// compiler, the source, the output (`-o X`) and link-only words (`-l...`,
/// `-L...`, `-static`, `-Wl,...`). None when a word still holds a
/// placeholder of the build (the header could not be made like the build).
fn header_flags(compile: &[OsString]) -> Option<Vec<OsString>> {
    let mut flags = Vec::new();
    let mut words = compile.iter().skip(1);
    while let Some(word) = words.next() {
        let text = word.to_string_lossy();
        if text == "-o" {
            words.next();
            continue;
        }
        if text.contains("{src}") || text.contains("{exe}") || text.contains("{dir}") {
            if text == "{src}" || text == "{exe}" {
                continue;
            }
            return None;
        }
        if text.starts_with("-l") || text.starts_with("-L") || text.starts_with("-Wl,") {
            continue;
        }
        if text == "-static" || text == "-pipe" {
            continue;
        }
        flags.push(word.clone());
    }
    Some(flags)
}

/// Whether the entry is there and made from the headers as they are now.
fn fresh(entry: &Path) -> bool {
    let Ok(listed) = std::fs::read_to_string(entry.join(DEPENDS)) else {
        return false;
    };
    listed.lines().all(|line| {
        let Some((identity, path)) = line.split_once(' ') else {
            return false;
        };
        identity_of(Path::new(path)).is_some_and(|now| now == identity)
    })
}

/// `identity path` lines for the headers of a make-style dependency list
/// (the wrapper in `work` left out).
fn identities(listed: &str, work: &Path) -> Option<String> {
    let mut out = String::new();
    let joined = listed.replace("\\\n", " ");
    let (_, paths) = joined.split_once(':')?;
    for path in paths.split_whitespace() {
        let path = Path::new(path);
        if path.starts_with(work) || path.starts_with(sandbox::keeper::WORK_MOUNT) {
            continue;
        }
        out.push_str(&format!("{} {}\n", identity_of(path)?, path.display()));
    }
    Some(out)
}

/// A file's size and change time, as one word.
fn identity_of(path: &Path) -> Option<String> {
    let m = std::fs::metadata(path).ok()?;
    Some(format!("{}:{}.{}", m.len(), m.mtime(), m.mtime_nsec()))
}

fn set_mode(path: &Path, mode: u32) -> Option<()> {
    super::executable::set_mode(path, mode).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<OsString> {
        text.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn header_flags_keep_what_shapes_the_header() {
        assert_eq!(
            header_flags(&words(
                "g++ -O2 -std=gnu++20 -pipe -DONLINE_JUDGE -o {exe} {src} -static -lm -Wl,-z"
            )),
            Some(words("-O2 -std=gnu++20 -DONLINE_JUDGE"))
        );
        assert_eq!(header_flags(&words("g++ -I{dir}/inc {src}")), None);
    }

    #[test]
    fn a_changed_header_makes_the_entry_stale() {
        let dir = tempfile::tempdir().unwrap();
        let header = dir.path().join("h.h");
        std::fs::write(&header, "int x;\n").unwrap();
        let listed = format!(
            "out.gch: /judge/work/source/w.h \\\n {}\n",
            header.display()
        );
        let entry = dir.path().join("entry");
        std::fs::create_dir(&entry).unwrap();
        let ids = identities(&listed, Path::new("/elsewhere")).unwrap();
        assert_eq!(ids.lines().count(), 1, "{ids}");
        std::fs::write(entry.join(DEPENDS), ids).unwrap();
        assert!(fresh(&entry));
        std::fs::write(&header, "int xy;\n").unwrap();
        assert!(!fresh(&entry));
        assert!(!fresh(&dir.path().join("missing")));
    }
}
