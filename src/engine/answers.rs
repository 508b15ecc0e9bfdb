//! A submit-answer problem's judging (the ICPC format's `submit-answer`
//! type): the submission is its answers, one file for every test or a
//! folder of one file per test, each checked as a run's output would be by
//! the problem's checker. Nothing is built or run, so there is no time,
//! memory or run-time verdict; an answer past the output limit is OLE.
//! The answers are read from their path (`verify`, `run`) or were read
//! already, once (a contest's file or folder, `batch` and `serve`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::shown_input::shown_input;
use super::{Judge, Submission};
use crate::check::{Checker, Subject};
use crate::error::Result;
use crate::problem::Problem;
use crate::report::{overall_verdict, SubmissionReport, Summary, TestReport};
use crate::sandbox::Captured;
use crate::testset::{TestCase, TestSet};
use crate::verdict::Verdict;

/// The extensions an answer of a folder may have, in the order looked for.
const ANSWER_EXTENSIONS: &[&str] = &["ans", "out", "txt"];

impl Judge {
    /// Checks a submit-answer problem's `submission` on every test, in
    /// order; `on_test` is called with each test's report.
    pub(super) async fn judge_answers(
        &self,
        problem: &Arc<Problem>,
        tests: &Arc<TestSet>,
        checker: &Checker,
        submission: &Submission,
        mut on_test: impl FnMut(&TestReport),
    ) -> Result<SubmissionReport> {
        let mut report = self.unjudged_report(
            problem,
            submission,
            Verdict::AC,
            "nothing to build: the submission is its answers".into(),
        );
        for test in &tests.tests {
            let checked = self
                .check_answer(problem, test, checker, submission)
                .await?;
            on_test(&checked);
            report.tests.push(checked);
        }
        report.verdict = overall_verdict(&report.tests);
        report.summary = Summary::of(&report.tests);
        Ok(report)
    }

    /// One test: the submission's answer for it, checked.
    async fn check_answer(
        &self,
        problem: &Problem,
        test: &TestCase,
        checker: &Checker,
        submission: &Submission,
    ) -> Result<TestReport> {
        let mut report = TestReport::of(test);
        let Some((file, output)) = answer_of(submission, &test.name) else {
            report.verdict = Verdict::WA;
            report.message = format!(
                "no answer for this test in {}: a file {} or {} with .{}",
                submission
                    .shown
                    .as_ref()
                    .unwrap_or(&submission.path)
                    .display(),
                test.name,
                last_part(&test.name),
                ANSWER_EXTENSIONS.join(", .")
            );
            return Ok(report);
        };
        let len = output.len();
        if len > problem.limits.output {
            report.verdict = Verdict::OLE;
            report.message = format!(
                "the answer {} has {len} bytes, more than the output limit ({} bytes)",
                file.display(),
                problem.limits.output
            );
            return Ok(report);
        }
        let Some(answer) = &test.answer else {
            report.message = "not checked: the test has no answer to compare with".into();
            report.unchecked = true;
            return Ok(report);
        };
        let scratch = match checker.needs_work_dir() {
            true => Some(self.inner.scratch.take()?),
            false => None,
        };
        let subject = Subject {
            input: &test.input,
            output,
            answer,
            work: scratch.as_ref().map(|s| s.path()),
            args: &test.checker_args,
            carried_feedback: None,
        };
        let result = self.check(checker, subject).await?;
        report.verdict = result.verdict;
        report.message = result.message;
        report.diff = result.diff;
        report.score = result.score;
        if !report.verdict.is_accepted() {
            report.input = shown_input(&test.input);
        }
        Ok(report)
    }
}

/// The last part of a test's name (`1` of `secret/1`).
fn last_part(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// The submission's answer for the test `name`: where it is, and its
/// bytes. Answers read already (`text` set: a contest's submission) are
/// `text` for a file, else the folder's files kept as `companions` by
/// their path in it; others are read from `path` ([`answer_file`]).
fn answer_of(submission: &Submission, name: &str) -> Option<(PathBuf, Captured)> {
    let Some(text) = &submission.text else {
        let (file, len) = answer_file(&submission.path, name)?;
        let output = Captured::File {
            path: file.clone(),
            len,
        };
        return Some((file, output));
    };
    if submission.shown.is_none() {
        return Some((submission.path.clone(), Captured::Memory(text.to_vec())));
    }
    answer_names(name).find_map(|wanted| {
        let found = submission.companions.iter().find(|c| c.name == wanted)?;
        Some((
            submission.path.join(&wanted),
            Captured::Memory(found.bytes.clone()),
        ))
    })
}

/// The names a folder's answer to the test `name` may have, in the order
/// looked for: `NAME.ans` (`.out`, `.txt`) by the test's whole name
/// (`secret/1.ans`), then by its last part (`1.ans`).
fn answer_names(name: &str) -> impl Iterator<Item = String> + '_ {
    [name, last_part(name)].into_iter().flat_map(|stem| {
        ANSWER_EXTENSIONS
            .iter()
            .map(move |ext| format!("{stem}.{ext}"))
    })
}

/// Whether a file of a folder of answers may be an answer (its extension
/// is one looked for).
pub(crate) fn is_answer_name(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| ANSWER_EXTENSIONS.contains(&ext))
}

/// The submission's answer for the test `name` and its length: the
/// submission itself when it is a file; in a folder, the first of
/// [`answer_names`]. Only regular files count (a link is not followed: a
/// folder's answers are its own).
fn answer_file(submission: &Path, name: &str) -> Option<(PathBuf, u64)> {
    let meta = std::fs::metadata(submission).ok()?;
    if meta.is_file() {
        return Some((submission.to_path_buf(), meta.len()));
    }
    answer_names(name).find_map(|wanted| {
        let path = submission.join(wanted);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => Some((path, meta.len())),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_answers_by_the_whole_name_then_the_last_part_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("secret")).unwrap();
        std::fs::write(root.join("secret/1.ans"), "whole").unwrap();
        std::fs::write(root.join("1.out"), "part").unwrap();
        std::fs::write(root.join("2.txt"), "two").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", root.join("3.ans")).unwrap();
        let found = |name: &str| answer_file(root, name).map(|(p, _)| p);
        assert_eq!(found("secret/1"), Some(root.join("secret/1.ans")));
        assert_eq!(found("sample/1"), Some(root.join("1.out")));
        assert_eq!(found("secret/2"), Some(root.join("2.txt")));
        assert_eq!(found("secret/3"), None);
        assert_eq!(found("secret/4"), None);
        // A file is the answer to every test.
        let file = root.join("2.txt");
        assert_eq!(answer_file(&file, "secret/9"), Some((file.clone(), 3)));
    }
}
