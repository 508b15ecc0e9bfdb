//! `judge gen`: writes a problem's materialised test set (inputs and answers)
//! to a directory, for other tools and other judges. The main items are
//! [`Layout`], [`file_names`] (pure: which test gets which file names) and
//! [`fn@write`].

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::testset::TestSet;

/// How the files are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `01.in` / `01.ans` in test order, zero-padded to the width of the count
    /// (Polygon, Codeforces, DOMjudge style).
    Numbered,
    /// online-judge-tools' `test/` folder: samples as `sample-1.in` /
    /// `sample-1.out` (numbered in test order), other tests as `NAME.in` /
    /// `NAME.out`.
    Oj,
}

/// One test as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Exported {
    /// The test's name in the package.
    pub(crate) test: String,
    /// The input file's name.
    pub(crate) input: String,
    /// The answer file's name.
    pub(crate) answer: String,
}

/// Whether a test is a sample: in a group named `samples` (or `sample`), or
/// named `sample...`.
fn is_sample(name: &str, group: &str) -> bool {
    group == "samples" || group == "sample" || name.starts_with("sample")
}

/// The file names of each test (given as name and group, in test order).
/// Names never collide: test names are unique, and only samples are named
/// `sample...`.
pub(crate) fn file_names(tests: &[(String, String)], layout: Layout) -> Vec<Exported> {
    match layout {
        Layout::Numbered => {
            let width = tests.len().to_string().len();
            tests
                .iter()
                .enumerate()
                .map(|(i, (name, _))| Exported {
                    test: name.clone(),
                    input: format!("{:0width$}.in", i + 1),
                    answer: format!("{:0width$}.ans", i + 1),
                })
                .collect()
        }
        Layout::Oj => {
            let mut samples = 0;
            tests
                .iter()
                .map(|(name, group)| {
                    let stem = if is_sample(name, group) {
                        samples += 1;
                        format!("sample-{samples}")
                    } else {
                        name.clone()
                    };
                    Exported {
                        test: name.clone(),
                        input: format!("{stem}.in"),
                        answer: format!("{stem}.out"),
                    }
                })
                .collect()
        }
    }
}

/// Whether a file in the output directory is one `judge gen` writes.
fn is_test_file(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .is_some_and(|e| e == "in" || e == "ans" || e == "out")
}

/// Writes `tests` (of problem `problem`) to `dir`. A directory that is not
/// empty is refused unless `force`, which first removes the test files
/// (`*.in`, `*.ans`, `*.out`) in it and leaves anything else alone.
pub(crate) fn write(
    problem: &str,
    tests: &TestSet,
    dir: &Path,
    layout: Layout,
    force: bool,
) -> Result<Vec<Exported>> {
    let named: Vec<(String, String)> = tests
        .tests
        .iter()
        .map(|t| (t.name.clone(), t.group.clone()))
        .collect();
    let names = file_names(&named, layout);
    if dir.exists() {
        let entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| Error::io(dir, e))?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .map_err(|e| Error::io(dir, e))?;
        if !entries.is_empty() {
            if !force {
                return Err(Error::Usage(format!(
                    "{} is not empty; pass --force to replace the test files in it",
                    dir.display()
                )));
            }
            for path in entries.iter().filter(|p| is_test_file(p)) {
                std::fs::remove_file(path).map_err(|e| Error::io(path, e))?;
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    for (test, names) in tests.tests.iter().zip(&names) {
        let answer = test.answer.as_ref().ok_or_else(|| {
            let test = test.name.clone();
            Error::package(problem, crate::error::PackageError::NoAnswer { test })
        })?;
        for (from, name) in [(&test.input, &names.input), (answer, &names.answer)] {
            let to = dir.join(name);
            std::fs::copy(from, &to).map_err(|e| Error::io(&to, e))?;
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tests(names: &[(&str, &str)]) -> Vec<(String, String)> {
        names
            .iter()
            .map(|(n, g)| (n.to_string(), g.to_string()))
            .collect()
    }

    fn inputs(names: &[Exported]) -> Vec<(&str, &str)> {
        names
            .iter()
            .map(|e| (e.input.as_str(), e.answer.as_str()))
            .collect()
    }

    #[test]
    fn numbered_names_are_padded_to_the_width_of_the_count() {
        let few = tests(&[("sample-1", "samples"), ("edge-1", "edge")]);
        let names = file_names(&few, Layout::Numbered);
        assert_eq!(inputs(&names), [("1.in", "1.ans"), ("2.in", "2.ans")]);
        let many: Vec<(String, String)> = (1..=12)
            .map(|i| (format!("random-{i}"), "random".to_string()))
            .collect();
        let names = file_names(&many, Layout::Numbered);
        assert_eq!(names[0].input, "01.in");
        assert_eq!(names[11].answer, "12.ans");
        assert_eq!(names[11].test, "random-12");
    }

    #[test]
    fn oj_names_samples_in_order_and_keeps_other_names() {
        let set = tests(&[
            ("sample-2", "samples"),
            ("sample-10", "samples"),
            ("statement", "samples"),
            ("sample-big", "edge"),
            ("edge-1", "edge"),
            ("max-1", "max"),
        ]);
        let names = file_names(&set, Layout::Oj);
        assert_eq!(
            inputs(&names),
            [
                ("sample-1.in", "sample-1.out"),
                ("sample-2.in", "sample-2.out"),
                ("sample-3.in", "sample-3.out"),
                ("sample-4.in", "sample-4.out"),
                ("edge-1.in", "edge-1.out"),
                ("max-1.in", "max-1.out"),
            ]
        );
    }
}
