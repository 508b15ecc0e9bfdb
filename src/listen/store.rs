//! A received problem kept as a samples folder of DIR in online-judge-tools'
//! layout (`oj test` works in it too): `test/sample-N.in` and
//! `test/sample-N.out` per sample, and `companion.json` (what the extension
//! sent, but the samples). The folder's name comes from the problem's name, made
//! a safe file name (ASCII letters, digits and `-`: no path, no control
//! character, no hidden or reserved name); a folder that exists is never
//! written into: the same problem sent again is left as it is, another one
//! of the same name gets `-2`, `-3`, ... The main function is [`save`].

use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::problem::companion::Task;
use crate::problem::COMPANION_FILE;

/// The longest folder name made from a problem's name.
const MAX_NAME: usize = 60;

/// Suffixes tried before giving up (`name-2` ... `name-1000`).
const MAX_SUFFIX: u32 = 1000;

/// A problem kept in DIR.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Saved {
    /// Its folder.
    pub(crate) folder: PathBuf,
    /// Whether the folder was there already, with the same samples (the
    /// problem sent again): nothing was written.
    pub(crate) unchanged: bool,
}

/// Writes `task` (as received in `body`) as a new folder of `dir`.
pub(crate) fn save(dir: &Path, task: &Task, body: &Value) -> io::Result<Saved> {
    let base = folder_name(task);
    for n in 1..=MAX_SUFFIX {
        let name = match n {
            1 => base.clone(),
            n => format!("{base}-{n}"),
        };
        let folder = dir.join(&name);
        match std::fs::create_dir(&folder) {
            Ok(()) => {
                if let Err(e) = write_folder(&folder, task, body) {
                    remove_written(&folder, task.tests.len());
                    return Err(e);
                }
                return Ok(Saved {
                    folder,
                    unchanged: false,
                });
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                if holds(&folder, task) {
                    return Ok(Saved {
                        folder,
                        unchanged: true,
                    });
                }
            }
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{base} and {base}-2 ... {base}-{MAX_SUFFIX} all exist"),
    ))
}

/// The folder name of a problem: its name, else the class name the
/// extension made of it, else the last part of its address, in lower-case
/// ASCII letters, digits and single dashes.
pub(crate) fn folder_name(task: &Task) -> String {
    let from_url = task
        .url
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_string();
    [
        task.name.as_str(),
        task.task_class.as_deref().unwrap_or(""),
        &from_url,
    ]
    .iter()
    .map(|s| slug(s))
    .find(|s| !s.is_empty())
    .unwrap_or_else(|| "problem".into())
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if out.len() >= MAX_NAME {
                break;
            }
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Where the samples go in a problem's folder.
const SAMPLES: &str = "test";

fn sample_names(i: usize) -> (String, String) {
    (
        format!("{SAMPLES}/sample-{}.in", i + 1),
        format!("{SAMPLES}/sample-{}.out", i + 1),
    )
}

fn write_folder(folder: &Path, task: &Task, body: &Value) -> io::Result<()> {
    std::fs::create_dir(folder.join(SAMPLES))?;
    for (i, (input, output)) in task.tests.iter().enumerate() {
        let (in_name, out_name) = sample_names(i);
        write_new(&folder.join(in_name), input.as_bytes())?;
        // An empty output is one the page did not give: no answer.
        if !output.is_empty() {
            write_new(&folder.join(out_name), output.as_bytes())?;
        }
    }
    let mut kept = body.clone();
    if let Value::Object(object) = &mut kept {
        object.remove("tests");
    }
    let mut json = serde_json::to_vec_pretty(&kept).map_err(io::Error::other)?;
    json.push(b'\n');
    write_new(&folder.join(COMPANION_FILE), &json)
}

/// Creates `path` (never an existing file, never through a link).
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .open(path)?;
    file.write_all(bytes)
}

/// Removes what [`write_folder`] wrote in the folder it made, and the folder.
fn remove_written(folder: &Path, samples: usize) {
    for i in 0..samples {
        let (a, b) = sample_names(i);
        let _ = std::fs::remove_file(folder.join(a));
        let _ = std::fs::remove_file(folder.join(b));
    }
    let _ = std::fs::remove_file(folder.join(COMPANION_FILE));
    let _ = std::fs::remove_dir(folder.join(SAMPLES));
    let _ = std::fs::remove_dir(folder);
}

/// Whether `folder` holds exactly `task`'s samples (the problem sent again).
fn holds(folder: &Path, task: &Task) -> bool {
    let same = |path: PathBuf, text: &str| match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => std::fs::read(&path).is_ok_and(|b| b == text.as_bytes()),
        Ok(_) => false,
        Err(_) => text.is_empty(),
    };
    let count = std::fs::read_dir(folder.join(SAMPLES)).map_or(usize::MAX, |entries| {
        entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".in"))
            .count()
    });
    count == task.tests.len()
        && std::fs::symlink_metadata(folder.join(COMPANION_FILE)).is_ok_and(|m| m.is_file())
        && task.tests.iter().enumerate().all(|(i, (input, output))| {
            let (a, b) = sample_names(i);
            same(folder.join(a), input) && same(folder.join(b), output)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(name: &str, tests: &[(&str, &str)]) -> Task {
        let body = serde_json::json!({
            "name": name,
            "url": "https://codeforces.com/problemset/problem/954/G",
            "tests": tests.iter().map(|(i, o)| serde_json::json!({"input": i, "output": o})).collect::<Vec<_>>(),
        });
        Task::parse(body.to_string().as_bytes()).unwrap()
    }

    #[test]
    fn names_are_safe_file_names() {
        for (name, folder) in [
            ("G. Castle Defense", "g-castle-defense"),
            ("A - Day of Takahashi", "a-day-of-takahashi"),
            ("../../etc/passwd", "etc-passwd"),
            ("..", "954-g"),
            ("\u{1b}[2J\ttab\nnew", "2j-tab-new"),
            ("高橋君", "g"),
            ("CON", "con"),
            (".hidden", "hidden"),
        ] {
            let mut t = task(name, &[]);
            t.task_class = None;
            let got = folder_name(&t);
            if name == "高橋君" || name == ".." {
                // Nothing usable in the name: the address's last part.
                assert_eq!(got, "g", "{name}");
            } else {
                assert_eq!(got, folder, "{name}");
            }
        }
        let long = task(&"x".repeat(500), &[]);
        assert_eq!(folder_name(&long).len(), MAX_NAME);
        let mut nothing = task("???", &[]);
        nothing.url = String::new();
        nothing.task_class = None;
        assert_eq!(folder_name(&nothing), "problem");
    }

    #[test]
    fn never_writes_into_an_existing_folder() {
        let dir = tempfile::tempdir().unwrap();
        let body = serde_json::json!({"name": "A"});
        let a = task("A. Sum", &[("1 2\n", "3\n"), ("5 7\n", "")]);
        let first = save(dir.path(), &a, &body).unwrap();
        assert_eq!(
            first,
            Saved {
                folder: dir.path().join("a-sum"),
                unchanged: false
            }
        );
        assert_eq!(
            std::fs::read(first.folder.join("test/sample-1.out")).unwrap(),
            b"3\n"
        );
        assert!(!first.folder.join("test/sample-2.out").exists());
        // Sent again: the same folder, untouched.
        let again = save(dir.path(), &a, &body).unwrap();
        assert_eq!(
            again,
            Saved {
                folder: first.folder.clone(),
                unchanged: true
            }
        );
        // Another problem of the same name: a new folder.
        let b = task("A. Sum", &[("9\n", "9\n")]);
        let other = save(dir.path(), &b, &body).unwrap();
        assert_eq!(other.folder, dir.path().join("a-sum-2"));
        // A link or a file in the way is skipped, never followed.
        let target = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(target.path(), dir.path().join("c-link")).unwrap();
        std::fs::write(dir.path().join("c-link-2"), "mine").unwrap();
        let c = save(dir.path(), &task("C. Link", &[("1\n", "1\n")]), &body).unwrap();
        assert_eq!(c.folder, dir.path().join("c-link-3"));
        assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0);
        assert_eq!(std::fs::read(dir.path().join("c-link-2")).unwrap(), b"mine");
    }
}
