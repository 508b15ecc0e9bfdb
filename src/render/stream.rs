//! What `judge run` prints as the judging goes: for each submission a header,
//! a line per test in test order as soon as it is known (with the diff of the
//! first failure and, with `--input`, the program's output), and a summary;
//! or one JSON line per submission; or one JUnit document at the end.

use std::io::Write;

use super::human::Human;
use super::junit::{self, JunitSubmission};
use super::{json, Format};
use crate::printable::printable;
use crate::report::{SubmissionReport, TestReport};

/// Prints a `judge run` to `out` in `format`.
#[derive(Debug)]
pub(crate) struct RunPrinter<W: Write> {
    out: W,
    format: Format,
    human: Human,
    /// Whether the current submission's first failure was shown.
    failure_shown: bool,
}

impl<W: Write> RunPrinter<W> {
    /// A printer writing to `out`.
    pub(crate) fn new(out: W, format: Format, human: Human) -> Self {
        RunPrinter {
            out,
            format,
            human,
            failure_shown: false,
        }
    }

    /// Judging of a submission starts.
    pub(crate) fn start(&mut self, problem: &str, title: &str, submission: &str, language: &str) {
        self.failure_shown = false;
        if self.format == Format::Human {
            let header = self.human.header(problem, title, submission, language);
            self.write(&header);
        }
    }

    /// Which files are which test (before the first submission; human
    /// output only): see [`Human::test_files`].
    pub(crate) fn test_files(&mut self, tests: &[(String, String, Option<String>)]) {
        if self.format == Format::Human {
            let text = self.human.test_files(tests);
            self.write(&text);
        }
    }

    /// A test is done (called in test order).
    pub(crate) fn test(&mut self, t: &TestReport) {
        if self.format != Format::Human {
            return;
        }
        let with_diff = self.human.wants_diff(t, self.failure_shown);
        self.failure_shown |= !t.verdict.is_accepted();
        let mut text = self.human.test(t, with_diff);
        if let Some(output) = &t.output {
            text.push_str("  output:\n");
            for line in printable(output).lines() {
                text.push_str(&format!("    {line}\n"));
            }
        }
        self.write(&text);
    }

    /// A submission is done.
    pub(crate) fn submission(&mut self, r: &SubmissionReport) {
        let text = match self.format {
            Format::Human => self.human.summary(r),
            Format::Json => json::render(r),
            Format::Junit => return,
        };
        self.write(&text);
    }

    /// Everything is done (JUnit prints its one document, named `name`);
    /// gives the writer back.
    pub(crate) fn finish(mut self, name: &str, reports: &[SubmissionReport]) -> W {
        if self.format == Format::Junit {
            let suites: Vec<JunitSubmission> = reports
                .iter()
                .map(|r| JunitSubmission {
                    suite: format!("{} {}", r.problem, r.submission),
                    report: r,
                    expected: None,
                })
                .collect();
            let text = junit::render(name, &suites);
            self.write(&text);
        }
        self.out
    }

    /// Writes and flushes; a closed stdout is not an error of the judging.
    fn write(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::CompileStatus;
    use crate::report::fixtures::{submission_report as report, test_report as test};
    use crate::verdict::Verdict;

    /// What `judge run` prints for `r`, the way it prints it.
    fn printed(r: &SubmissionReport, color: bool) -> String {
        let human = Human {
            color,
            all_diffs: false,
        };
        let mut printer = RunPrinter::new(Vec::new(), Format::Human, human);
        printer.start(&r.problem, "Nim Game", &r.submission, "C++17");
        for t in &r.tests {
            printer.test(t);
        }
        printer.submission(r);
        String::from_utf8(printer.finish("judge run", std::slice::from_ref(r))).unwrap()
    }

    #[test]
    fn plain_report() {
        let diff = "--- expected (answer)\n+++ got (output)\n-     1 | Yes\n+     1 | No\n";
        let mut with_output = test("input", Verdict::AC, "", None);
        with_output.output = Some("Yes\n\x1b[2J\n".into());
        let r = report(
            vec![
                test("sample-1", Verdict::AC, "", None),
                test(
                    "edge-1",
                    Verdict::WA,
                    "line 1: expected `Yes`, got `No`",
                    Some(diff),
                ),
                test(
                    "edge-2",
                    Verdict::WA,
                    "line 1: expected `Yes`, got `No`",
                    Some(diff),
                ),
                with_output,
            ],
            Verdict::WA,
        );
        insta::assert_snapshot!(printed(&r, false));
    }

    #[test]
    fn compile_error_report() {
        let mut r = report(vec![], Verdict::CE);
        r.compile.status = CompileStatus::Error;
        r.compile.message = "wa.cpp:1:1: error: 'x' does not name a type".into();
        insta::assert_snapshot!(printed(&r, false));
    }

    #[test]
    fn colour_only_when_asked() {
        let r = report(vec![test("s", Verdict::AC, "", None)], Verdict::AC);
        assert!(!printed(&r, false).contains('\x1b'));
        assert!(printed(&r, true).contains('\x1b'));
    }

    #[test]
    fn json_and_junit_print_nothing_per_test() {
        let r = report(vec![test("s", Verdict::AC, "", None)], Verdict::AC);
        for format in [Format::Json, Format::Junit] {
            let human = Human {
                color: false,
                all_diffs: false,
            };
            let mut printer = RunPrinter::new(Vec::new(), format, human);
            printer.start(&r.problem, "T", &r.submission, "C++17");
            printer.test(&r.tests[0]);
            let printed = printer.out.clone();
            assert!(printed.is_empty(), "{format:?}");
            printer.submission(&r);
            let out =
                String::from_utf8(printer.finish("judge run", std::slice::from_ref(&r))).unwrap();
            assert!(out.starts_with(if format == Format::Json { "{" } else { "<?xml" }));
        }
    }
}
