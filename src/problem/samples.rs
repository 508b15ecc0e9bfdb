//! A plain folder of samples as a problem: no package, the default checker
//! and limits. The layouts contestants' tools leave:
//!
//! - `NAME.in` with `NAME.out` or `NAME.ans` in the folder itself (what
//!   `judge listen` writes, CPH-style `1.in`/`1.out`);
//! - online-judge-tools' `test/sample-1.in` / `test/sample-1.out` (`oj
//!   download`, `judge gen --format oj`);
//! - Kattis' `data/sample/1.in` / `1.ans` (a package without problem.yaml
//!   and `data/secret/`, as a contestant downloads it);
//! - Codeforces' cf-tool: `in1.txt` / `ans1.txt`.
//!
//! A `companion.json` beside them (what Competitive Companion sent, as
//! `judge listen` keeps it) gives the title, the limits, whether the
//! problem reads and writes files, and whether it is interactive. The entry
//! points are [`find_tests`] and [`load`].

use std::path::{Path, PathBuf};

use super::companion::Task;
use crate::config::Config;
use crate::error::{Error, Result, SpecError};
use crate::problem::{Format, GroupSource, Problem, TestGroup, TestSource, TestSpec, MAX_TESTS};

/// What `judge listen` keeps of Competitive Companion's request beside the
/// samples.
pub(crate) const COMPANION_FILE: &str = "companion.json";

/// Subfolders that hold the samples, after the folder itself.
const SUBFOLDERS: &[&str] = &["test", "data/sample"];

/// The largest `companion.json` read (what Competitive Companion sends is a
/// few KiB: the samples are in their own files).
const COMPANION_MAX: u64 = 1 << 20;

/// Whether `dir` is a folder of samples: it has samples in one of the
/// layouts (or two answers to one, an error to tell), or the
/// `companion.json` of a problem received without any.
pub(crate) fn is_samples_folder(dir: &Path) -> bool {
    dir.join(COMPANION_FILE).is_file() || !matches!(find_tests(dir), Ok(None))
}

/// One sample: its name (the input's file stem), input and answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sample {
    /// The test's name.
    pub(crate) name: String,
    /// The input file.
    pub(crate) input: PathBuf,
    /// The answer file, if there is one.
    pub(crate) answer: Option<PathBuf>,
}

/// The samples of the folder `dir`, in natural order of their names, from
/// the first layout that has any (see the module documentation); `None`
/// when it has none. Two answers to one input is an error.
pub(crate) fn find_tests(dir: &Path) -> std::result::Result<Option<Vec<Sample>>, String> {
    let folders = std::iter::once(dir.to_path_buf()).chain(SUBFOLDERS.iter().map(|s| dir.join(s)));
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut files: Vec<String> = entries
            .flatten()
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        files.sort();
        let has = |name: &str| files.binary_search_by(|f| f.as_str().cmp(name)).is_ok();
        let mut samples = Vec::new();
        for file in &files {
            let (name, answers) = if let Some(stem) = file.strip_suffix(".in") {
                (
                    stem.to_string(),
                    [format!("{stem}.out"), format!("{stem}.ans")],
                )
            } else if let Some(n) = cf_tool_number(file) {
                (
                    n.to_string(),
                    [format!("ans{n}.txt"), format!("out{n}.txt")],
                )
            } else {
                continue;
            };
            let present: Vec<&String> = answers.iter().filter(|a| has(a)).collect();
            if present.len() > 1 {
                return Err(format!(
                    "{}: both {} and {} answer {file}; remove one",
                    folder.display(),
                    present[0],
                    present[1]
                ));
            }
            samples.push(Sample {
                name,
                input: folder.join(file),
                answer: present.first().map(|a| folder.join(a)),
            });
        }
        if !samples.is_empty() {
            samples.sort_by_cached_key(|s| natural_key(&s.name));
            return Ok(Some(samples));
        }
    }
    Ok(None)
}

/// `inN.txt` (cf-tool's input of sample N): N.
fn cf_tool_number(file: &str) -> Option<&str> {
    let n = file.strip_prefix("in")?.strip_suffix(".txt")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(n)
}

/// A key that orders `sample-2` before `sample-10`.
fn natural_key(name: &str) -> Vec<(String, usize, String)> {
    let mut key = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let text_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (text, after) = rest.split_at(text_len);
        let digits_len = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let (digits, after) = after.split_at(digits_len);
        let number = digits.trim_start_matches('0');
        key.push((text.to_string(), number.len(), number.to_string()));
        rest = after;
    }
    key
}

/// Loads the samples folder `dir` as a problem.
pub(crate) fn load(dir: &Path, config: &Config) -> Result<Problem> {
    let dir = crate::config::absolute(dir);
    let id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "samples".into());
    let invalid = |path: &Path, problems: Vec<String>| Error::Problem {
        path: path.to_path_buf(),
        source: SpecError { problems },
    };
    let companion = dir.join(COMPANION_FILE);
    let task = match companion.is_file() {
        true => Some(read_companion(&companion).map_err(|e| invalid(&companion, vec![e]))?),
        false => None,
    };
    let samples = match find_tests(&dir) {
        Ok(Some(samples)) => samples,
        Ok(None) => {
            return Err(invalid(
                &dir,
                vec![
                    "no samples in it (the problem's page had none for Competitive \
                      Companion to send): add NAME.in and NAME.out files to judge on"
                        .into(),
                ],
            ))
        }
        Err(e) => return Err(invalid(&dir, vec![e])),
    };
    // A sample that is a link out of the folder (to /etc/shadow, to
    // someone's key) is refused, as in packages: its diff would print it.
    let root = super::package::PackageRoot::new(&dir).map_err(|e| Error::io(&dir, e))?;
    let outside: Vec<String> = samples
        .iter()
        .flat_map(|s| std::iter::once(&s.input).chain(s.answer.as_ref()))
        .filter_map(|path| {
            root.inside(path).err().map(|e| {
                e.replace(
                    "leaves the package: a package",
                    "leaves the folder: a samples folder",
                )
            })
        })
        .collect();
    if !outside.is_empty() {
        return Err(invalid(&dir, outside));
    }
    if samples.len() as u64 > MAX_TESTS {
        return Err(invalid(
            &dir,
            vec![format!("{} samples: at most {MAX_TESTS}", samples.len())],
        ));
    }
    let testdata_dir = samples[0]
        .input
        .parent()
        .map_or_else(|| dir.clone(), Path::to_path_buf);
    let mut problem = Problem {
        id: id.clone(),
        title: id,
        groups: vec![TestGroup {
            name: "samples".into(),
            source: GroupSource::Tests(
                samples
                    .into_iter()
                    .map(|s| TestSpec {
                        name: s.name,
                        source: TestSource::File {
                            input: s.input,
                            answer: s.answer,
                        },
                        validator_args: None,
                        checker_args: None,
                    })
                    .collect(),
            ),
            points: None,
            validator_args: Vec::new(),
            checker_args: Vec::new(),
        }],
        ..Problem::base(dir.clone(), Format::Samples, testdata_dir, config)
    };
    if let Some(task) = task {
        apply_companion(&mut problem, &task);
    }
    Ok(problem)
}

/// Reads what Competitive Companion said of the problem (as `judge listen`
/// kept it); an interactive problem is refused (its samples are a
/// dialogue, which only the site's interactor can judge).
fn read_companion(path: &Path) -> std::result::Result<Task, String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(COMPANION_MAX + 1).read_to_string(&mut text))
        .map_err(|e| format!("cannot read it: {e}"))?;
    if text.len() as u64 > COMPANION_MAX {
        return Err(format!("over {COMPANION_MAX} bytes"));
    }
    let task = Task::parse(text.as_bytes())?;
    if task.interactive {
        return Err(
            "the problem is interactive (`interactive: true`): its samples show a dialogue, \
             which needs the site's interactor to judge"
                .into(),
        );
    }
    Ok(task)
}

/// Applies the task's name, limits, file input and output.
fn apply_companion(problem: &mut Problem, task: &Task) {
    if !task.name.trim().is_empty() {
        problem.title = task.name.clone();
    }
    problem.source = (!task.url.is_empty()).then(|| task.url.clone());
    if let Some(time) = task.time_limit {
        problem.limits.time = time;
    }
    if let Some(memory) = task.memory_limit {
        problem.limits.memory = memory;
    }
    problem.files = task.files.clone();
    if let Some(note) = &task.note {
        problem.notes.push(note.clone());
    }
    if !problem.files.is_standard() {
        problem
            .notes
            .push(format!("the program {}", problem.files.describe()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "1\n").unwrap();
        }
        dir
    }

    fn found(dir: &tempfile::TempDir) -> Vec<(String, String, Option<String>)> {
        let rel = |p: &Path| p.strip_prefix(dir.path()).unwrap().display().to_string();
        find_tests(dir.path())
            .unwrap()
            .unwrap_or_default()
            .into_iter()
            .map(|s| (s.name, rel(&s.input), s.answer.as_deref().map(rel)))
            .collect()
    }

    fn t(name: &str, input: &str, answer: Option<&str>) -> (String, String, Option<String>) {
        (name.into(), input.into(), answer.map(Into::into))
    }

    #[test]
    fn every_layout_pairs_inputs_with_answers_in_natural_order() {
        let flat = folder(&[
            "sample-10.in",
            "sample-10.out",
            "sample-2.in",
            "sample-2.ans",
            "x.in",
        ]);
        assert_eq!(
            found(&flat),
            [
                t("sample-2", "sample-2.in", Some("sample-2.ans")),
                t("sample-10", "sample-10.in", Some("sample-10.out")),
                t("x", "x.in", None),
            ]
        );
        let oj = folder(&["test/sample-1.in", "test/sample-1.out", "main.cpp"]);
        assert_eq!(
            found(&oj),
            [t("sample-1", "test/sample-1.in", Some("test/sample-1.out"))]
        );
        let kattis = folder(&["data/sample/1.in", "data/sample/1.ans", "problem.pdf"]);
        assert_eq!(
            found(&kattis),
            [t("1", "data/sample/1.in", Some("data/sample/1.ans"))]
        );
        let cf = folder(&["in2.txt", "ans2.txt", "in1.txt", "ans1.txt", "a.cpp"]);
        assert_eq!(
            found(&cf),
            [
                t("1", "in1.txt", Some("ans1.txt")),
                t("2", "in2.txt", Some("ans2.txt"))
            ]
        );
        assert!(found(&folder(&["a.cpp", "notes.txt", "input.txt"])).is_empty());
    }

    #[test]
    fn a_sample_linked_out_of_the_folder_is_refused_in_every_layout() {
        let secret = tempfile::tempdir().unwrap();
        let target = secret.path().join("shadow");
        std::fs::write(&target, "root:secret\n").unwrap();
        let config = crate::config::Config::parse(
            crate::config::BUILTIN_CONFIG,
            None,
            secret.path().to_path_buf(),
        )
        .unwrap();
        for (input, answer) in [
            ("1.in", "1.ans"),
            ("test/sample-1.in", "test/sample-1.out"),
            ("data/sample/1.in", "data/sample/1.ans"),
            ("in1.txt", "ans1.txt"),
        ] {
            for linked in [input, answer] {
                let dir = folder(&[input, answer]);
                let path = dir.path().join(linked);
                std::fs::remove_file(&path).unwrap();
                std::os::unix::fs::symlink(&target, &path).unwrap();
                let chain = crate::error::render_chain(&load(dir.path(), &config).unwrap_err());
                assert!(chain.contains("leaves the folder"), "{linked}: {chain}");
            }
        }
    }

    #[test]
    fn two_answers_to_one_input_are_an_error() {
        let dir = folder(&["1.in", "1.out", "1.ans"]);
        let e = find_tests(dir.path()).unwrap_err();
        assert!(e.contains("both 1.out and 1.ans answer 1.in"), "{e}");
    }
}
