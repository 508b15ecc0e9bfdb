//! What a package program's build sees: its source, and beside it the
//! headers of its directory (`testlib.h` next to a checker, `validate.h`
//! next to an output validator), or, for a program that is a directory (the
//! ICPC package format allows it), every file of that directory.

use std::path::{Path, PathBuf};

use crate::compile::Companion;
use crate::config::Config;
use crate::error::{Error, PackageError, Result};
use crate::problem::{EntryKind, PackageRoot, Problem, ProgramSpec};

/// File extensions of headers: a single-file program's build sees those of
/// its directory.
const HEADER_EXTENSIONS: &[&str] = &["h", "hh", "hpp", "hxx", "h++", "inc", "ipp", "tcc", "H"];

/// Most bytes of companions one program brings: more is not part of a
/// program (a directory of test data next to it, say).
const COMPANIONS_MAX: u64 = 32 << 20;

/// A package program's files.
#[derive(Debug)]
pub(crate) struct ProgramFiles {
    /// The source compiled (or run).
    pub(crate) main: PathBuf,
    /// What its build sees beside it.
    pub(crate) companions: Vec<Companion>,
    /// Whether it is a `build`/`run` program (`main` is the `build` script).
    pub(crate) build_run: bool,
}

/// The source judge compiles for a program of `problem` that is a directory.
pub(crate) fn main_source(
    problem: &Problem,
    spec: &ProgramSpec,
    config: &Config,
) -> Result<PathBuf> {
    Ok(program_files(problem, spec, config)?.main)
}

/// The headers in `dir`, a folder of the package `root` (what a single-file
/// program's build sees).
pub(crate) fn header_files(root: &PackageRoot, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut headers: Vec<PathBuf> = regular_files(root, dir)?
        .into_iter()
        .filter(|f| is_header(f))
        .collect();
    headers.sort();
    Ok(headers)
}

/// The files of the program `spec` names, for the problem `problem`: links
/// are followed inside its package only.
pub(crate) fn program_files(
    problem: &Problem,
    spec: &ProgramSpec,
    config: &Config,
) -> Result<ProgramFiles> {
    let fail = |why: String| {
        Error::package(
            &problem.id,
            PackageError::Program {
                path: spec.path.clone(),
                why,
            },
        )
    };
    let read_err =
        |path: &Path, e: std::io::Error| fail(format!("cannot read {}: {e}", path.display()));
    let root = problem.root().map_err(|e| read_err(&problem.dir, e))?;
    if root.is_dir(&spec.path) {
        let files = regular_files(&root, &spec.path).map_err(|e| read_err(&spec.path, e))?;
        let (main, build_run, others) =
            directory_program(&spec.path, files, spec.lang.as_deref(), config).map_err(fail)?;
        let others: Vec<&PathBuf> = others.iter().collect();
        let companions = read_companions(&others).map_err(|(p, e)| read_err(&p, e))?;
        return Ok(ProgramFiles {
            main,
            companions,
            build_run,
        });
    }
    let dir = spec.path.parent().unwrap_or(Path::new("/"));
    let headers: Vec<PathBuf> = regular_files(&root, dir)
        .map_err(|e| read_err(dir, e))?
        .into_iter()
        .filter(|f| is_header(f) && *f != spec.path)
        .collect();
    let mut headers = headers;
    headers.sort();
    let included = included_files(problem, &root, spec, config).map_err(|e| read_err(dir, e))?;
    for f in included {
        // A file of the submission's own wins over one of the same name.
        if f.file_name() != spec.path.file_name()
            && !headers.iter().any(|h| h.file_name() == f.file_name())
        {
            headers.push(f);
        }
    }
    let refs: Vec<&PathBuf> = headers.iter().collect();
    let companions = read_companions(&refs).map_err(|(p, e)| read_err(&p, e))?;
    Ok(ProgramFiles {
        main: spec.path.clone(),
        companions,
        build_run: false,
    })
}

/// The files of an ICPC package's `include/<language>/` that a submission
/// (a file under `submissions/`) of that language gets beside it, as the
/// format says; the language by the spec's codes (`cpp`, `python3`, ...).
fn included_files(
    problem: &Problem,
    root: &PackageRoot,
    spec: &ProgramSpec,
    config: &Config,
) -> std::io::Result<Vec<PathBuf>> {
    if problem.format != crate::problem::Format::Kattis
        || !spec.path.starts_with(problem.dir.join("submissions"))
    {
        return Ok(Vec::new());
    }
    let language = match &spec.lang {
        Some(id) => config.language_by_id(id, &spec.path).ok(),
        None => config.detect_language(&spec.path).ok(),
    };
    let Some(language) = language else {
        return Ok(Vec::new());
    };
    let code = match language.id.as_str() {
        "cpp" | "cpp17" | "cpp23" => "cpp",
        "python" | "pypy" => "python3",
        "shell" => "sh",
        other => other,
    };
    let dir = problem.dir.join("include").join(code);
    if !root.is_dir(&dir) {
        return Ok(Vec::new());
    }
    let mut files = regular_files(root, &dir)?;
    files.sort();
    Ok(files)
}

/// A program that is a directory, as problemtools and BAPCtools read one:
/// a `build` script (with `run`), else the sources of the language most of
/// its files are in (`lang` when given), the main one `main.*` (any case),
/// else the one that declares a `main`, else the first by name. `files` are
/// its regular files, listed by the caller (who decides which links count).
/// Returns the main file, whether it is a `build` script, and the other files.
fn directory_program(
    dir: &Path,
    mut files: Vec<PathBuf>,
    lang: Option<&str>,
    config: &Config,
) -> std::result::Result<(PathBuf, bool, Vec<PathBuf>), String> {
    files.sort();
    let build = dir.join("build");
    if crate::sandbox::is_executable_file(&build) {
        let others = files.into_iter().filter(|f| *f != build).collect();
        return Ok((build, true, others));
    }
    let language_of = |f: &PathBuf| -> Option<String> {
        if is_header(f) || f.extension().is_none() {
            return None;
        }
        match lang {
            Some(id) => config
                .language_by_id(id, f)
                .ok()
                .filter(|l| has_extension_of(f, &l.extensions))
                .map(|l| l.id),
            None => config.detect_language(f).ok().map(|l| l.id),
        }
    };
    // The language with the most sources (the first in the table on a tie).
    let mut counts: Vec<(String, usize)> = Vec::new();
    for id in files.iter().filter_map(language_of) {
        match counts.iter_mut().find(|(l, _)| *l == id) {
            Some((_, n)) => *n += 1,
            None => counts.push((id, 1)),
        }
    }
    let Some(chosen) = counts
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(l, _)| l.clone())
    else {
        return Err("the directory holds no source of a known language".into());
    };
    let sources: Vec<&PathBuf> = files
        .iter()
        .filter(|f| language_of(f).as_deref() == Some(chosen.as_str()))
        .collect();
    let named_main = sources.iter().find(|f| {
        f.file_stem()
            .is_some_and(|s| s.to_string_lossy().eq_ignore_ascii_case("main"))
    });
    let declares_main = || {
        sources.iter().find(|f| {
            let text = crate::sandbox::untrusted::open_regular(f)
                .and_then(|file| crate::sandbox::untrusted::read_capped(file, COMPANIONS_MAX))
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
            text.is_ok_and(|text| {
                [
                    "void main(",
                    "int main(",
                    "fun main(",
                    "def main(args",
                    "static void main",
                ]
                .iter()
                .any(|m| text.contains(m))
            })
        })
    };
    let main = named_main
        .or_else(declares_main)
        .or(sources.first())
        .map(|f| (*f).clone())
        .expect("a language was counted");
    let others = files.into_iter().filter(|f| *f != main).collect();
    Ok((main, false, others))
}

/// A submission named on the command line that is a directory (a program of
/// several files, as Kattis and DOMjudge accept one): its main source and
/// what its build sees beside it.
pub(crate) fn directory_submission(
    dir: &Path,
    lang: Option<&str>,
    config: &Config,
) -> Result<(PathBuf, Vec<Companion>, bool)> {
    let fail = |why: String| Error::Language {
        path: dir.to_path_buf(),
        reason: why,
    };
    // Nothing outside the folder is read through a link.
    let entries = std::fs::read_dir(dir).map_err(|e| fail(format!("cannot be read: {e}")))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| fail(format!("cannot be read: {e}")))?;
        let kind = entry
            .file_type()
            .map_err(|e| fail(format!("cannot be read: {e}")))?;
        if kind.is_symlink() {
            return Err(fail(format!(
                "{} is a symbolic link: a submission's files must be its own",
                entry.path().display()
            )));
        }
        if kind.is_file() && !entry.file_name().to_string_lossy().starts_with('.') {
            files.push(entry.path());
        }
    }
    let (main, build_run, others) = directory_program(dir, files, lang, config).map_err(fail)?;
    let others: Vec<&PathBuf> = others.iter().collect();
    let companions = read_companions(&others)
        .map_err(|(p, e)| fail(format!("cannot read {}: {e}", p.display())))?;
    Ok((main, companions, build_run))
}

fn is_header(f: &Path) -> bool {
    f.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| HEADER_EXTENSIONS.contains(&e))
}

fn has_extension_of(f: &Path, extensions: &[String]) -> bool {
    f.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| x == e))
}

/// The regular files directly in `dir` (links to regular files of the
/// package count, a link leading out of it is an error; no hidden files).
fn regular_files(root: &PackageRoot, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    Ok(root
        .entries(dir)
        .map_err(std::io::Error::other)?
        .into_iter()
        .filter(|e| e.kind == EntryKind::File)
        .map(|e| e.at)
        .collect())
}

fn read_companions(
    files: &[&PathBuf],
) -> std::result::Result<Vec<Companion>, (PathBuf, std::io::Error)> {
    let mut total = 0u64;
    let mut out = Vec::new();
    for f in files {
        let len = std::fs::metadata(f).map_err(|e| ((*f).clone(), e))?.len();
        total += len;
        if total > COMPANIONS_MAX {
            return Err((
                (*f).clone(),
                std::io::Error::other(format!(
                    "the files beside the program come to more than {} MiB; keep the program in a directory of its own",
                    COMPANIONS_MAX >> 20
                )),
            ));
        }
        let bytes = crate::sandbox::untrusted::open_regular(f)
            .and_then(|file| crate::sandbox::untrusted::read_capped(file, COMPANIONS_MAX))
            .map_err(|e| ((*f).clone(), e))?;
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let executable = crate::sandbox::is_executable_file(f);
        out.push(Companion {
            name,
            bytes,
            executable,
        });
    }
    Ok(out)
}
