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
        let mut files = regular_files(&root, &spec.path).map_err(|e| read_err(&spec.path, e))?;
        files.sort();
        let build = spec.path.join("build");
        if crate::sandbox::is_executable_file(&build) {
            let others: Vec<&PathBuf> = files.iter().filter(|f| **f != build).collect();
            let companions = read_companions(&others).map_err(|(p, e)| read_err(&p, e))?;
            return Ok(ProgramFiles {
                main: build,
                companions,
                build_run: true,
            });
        }
        let is_source = |f: &PathBuf| match &spec.lang {
            Some(id) => config
                .language_by_id(id, f)
                .is_ok_and(|l| has_extension_of(f, &l.extensions)),
            None => f.extension().is_some() && config.detect_language(f).is_ok() && !is_header(f),
        };
        let sources: Vec<&PathBuf> = files.iter().filter(|f| is_source(f)).collect();
        let main = match sources.as_slice() {
            [] => {
                return Err(fail(
                    "the directory holds no source of a known language".into(),
                ))
            }
            [one] => (*one).clone(),
            several => match several
                .iter()
                .find(|f| f.file_stem().is_some_and(|s| s == "main"))
            {
                Some(main) => (*main).clone(),
                None => {
                    let names: Vec<String> = several
                        .iter()
                        .filter_map(|f| f.file_name())
                        .map(|n| n.to_string_lossy().into_owned())
                        .collect();
                    return Err(fail(format!(
                        "the directory holds several sources ({}); name the one to build `main.<ext>` \
                         (the others are beside it, to include or import)",
                        names.join(", ")
                    )));
                }
            },
        };
        let others: Vec<&PathBuf> = files.iter().filter(|f| **f != main).collect();
        let companions = read_companions(&others).map_err(|(p, e)| read_err(&p, e))?;
        return Ok(ProgramFiles {
            main,
            companions,
            build_run: false,
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
    let refs: Vec<&PathBuf> = headers.iter().collect();
    let companions = read_companions(&refs).map_err(|(p, e)| read_err(&p, e))?;
    Ok(ProgramFiles {
        main: spec.path.clone(),
        companions,
        build_run: false,
    })
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
