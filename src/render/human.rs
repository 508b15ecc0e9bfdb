//! Human-readable output: a header per submission, one line per test (in test
//! order, as tests finish), the diff of the first failure, and a summary.
//! Colours only when asked (on a terminal).

use anstyle::{AnsiColor, Style};

use crate::compile::CompileStatus;
use crate::config::Language;
use crate::printable::{printable, printable_line};
use crate::problem::ProblemLimits;
use crate::report::{ShownInput, SubmissionReport, TestReport};
use crate::units::{format_kib, format_ms};
use crate::verdict::Verdict;

/// Renders text, with or without colour.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Human {
    /// Use ANSI colours.
    pub(crate) color: bool,
    /// Show the diff of every failing test, not only the first.
    pub(crate) all_diffs: bool,
}

impl Human {
    fn paint(&self, style: Style, text: &str) -> String {
        if self.color {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_string()
        }
    }

    fn verdict(&self, v: Verdict) -> String {
        let color = match v {
            Verdict::AC => AnsiColor::Green,
            Verdict::WA | Verdict::PE | Verdict::RE => AnsiColor::Red,
            Verdict::TLE | Verdict::MLE | Verdict::OLE => AnsiColor::Yellow,
            Verdict::CE | Verdict::IE => AnsiColor::Magenta,
        };
        self.paint(
            Style::new().bold().fg_color(Some(color.into())),
            &format!("{:<3}", v.as_str()),
        )
    }

    /// The language as the header shows it: its name, and the time limit
    /// that applies when its `time_factor` changes the problem's.
    pub(crate) fn language_label(language: &Language, problem: ProblemLimits) -> String {
        let effective = problem.for_language(language);
        match effective.time == problem.time {
            true => language.name.clone(),
            false => format!(
                "{}, time limit {} = {} x {}",
                language.name,
                format_ms(effective.time.as_millis() as u64),
                format_ms(problem.time.as_millis() as u64),
                language.time_factor
            ),
        }
    }

    /// The line printed when judging of a submission starts.
    pub(crate) fn header(
        &self,
        problem: &str,
        title: &str,
        submission: &str,
        language: &str,
    ) -> String {
        let bold = Style::new().bold();
        format!(
            "{} {}  {} [{}]\n",
            self.paint(bold, &printable_line(problem)),
            printable_line(title),
            self.paint(bold, &printable_line(submission)),
            printable_line(language)
        )
    }

    /// The line that says which files are which test (a folder of
    /// samples): `tests: ab/sample-1.in + .out = sample-1, ...`. `tests` are
    /// (name, input, answer) paths, as shown.
    pub(crate) fn test_files(&self, tests: &[(String, String, Option<String>)]) -> String {
        const SHOWN: usize = 6;
        // Inputs and answers in one folder: it is said once.
        let folder = |path: &str| path.rsplit_once('/').map_or("", |(dir, _)| dir).to_string();
        let common = tests.first().map(|t| folder(&t.1)).filter(|dir| {
            !dir.is_empty()
                && tests.iter().all(|(_, input, answer)| {
                    folder(input) == *dir && answer.as_deref().is_none_or(|a| folder(a) == *dir)
                })
        });
        let strip = |path: &str| match &common {
            Some(dir) => path[dir.len() + 1..].to_string(),
            None => path.to_string(),
        };
        let one = |(name, input, answer): &(String, String, Option<String>)| {
            let (input, answer) = (strip(input), answer.as_deref().map(strip));
            let answer = match answer {
                Some(answer) => match (answer.rsplit_once('.'), input.rsplit_once('.')) {
                    (Some((a, ext)), Some((i, _))) if a == i => format!(" + .{ext}"),
                    _ => format!(" + {answer}"),
                },
                None => " (no answer)".into(),
            };
            format!(
                "{}{answer} = {}",
                printable_line(&input),
                printable_line(name)
            )
        };
        let mut shown: Vec<String> = tests.iter().take(SHOWN).map(one).collect();
        if tests.len() > SHOWN {
            shown.push(format!("and {} more", tests.len() - SHOWN));
        }
        let place = match &common {
            Some(dir) => format!(" in {}/", printable_line(dir)),
            None => String::new(),
        };
        format!("  tests{place}: {}\n", shown.join(", "))
    }

    /// One test line, with its diff when `with_diff`.
    pub(crate) fn test(&self, t: &TestReport, with_diff: bool) -> String {
        // The share of the time limit used, and how often it ran when it
        // was near the limit (judged again alone: the least CPU time decides).
        let share = match t.runs.len() {
            0 | 1 => format!("{:>4}%", t.limit_percent),
            n => format!("{:>4}% of {n} runs", t.limit_percent),
        };
        let mut line = format!(
            "  {:<24} {} {:>8} {share} {:>10}",
            printable_line(&t.name),
            self.verdict(t.verdict),
            format_ms(t.time_ms),
            format_kib(t.memory_kib)
        );
        if !t.message.is_empty() {
            line.push_str("  ");
            line.push_str(&printable_line(&t.message));
        }
        if t.cached {
            line.push_str(&self.paint(Style::new().dimmed(), "  (cached)"));
        }
        line.push('\n');
        if with_diff {
            if let Some(diff) = &t.diff {
                for l in printable(diff).lines() {
                    let styled = match l.chars().next() {
                        Some('-') => {
                            self.paint(Style::new().fg_color(Some(AnsiColor::Red.into())), l)
                        }
                        Some('+') => {
                            self.paint(Style::new().fg_color(Some(AnsiColor::Green.into())), l)
                        }
                        _ => l.to_string(),
                    };
                    line.push_str(&format!("      {styled}\n"));
                }
            }
            if let Some(lines) = &t.interaction {
                line.push_str("      the interaction's last lines:\n");
                for l in lines {
                    let (arrow, color) = match l.side.as_str() {
                        "submission" => ("submission >", AnsiColor::Cyan),
                        _ => ("interactor <", AnsiColor::Yellow),
                    };
                    let arrow = self.paint(Style::new().fg_color(Some(color.into())), arrow);
                    line.push_str(&format!("      {arrow} {}\n", printable_line(&l.line)));
                }
            }
            if let Some(input) = &t.input {
                line.push_str(&self.input(input));
            }
        }
        line
    }

    /// A failed test's input: its file, and its first lines.
    fn input(&self, input: &ShownInput) -> String {
        let lines = match input.lines {
            1 => "1 line".to_string(),
            n => format!("{n} lines"),
        };
        let mut out = format!(
            "      input {} ({lines}, {} bytes){}\n",
            printable_line(&input.path),
            input.bytes,
            if input.whole() { ":" } else { ", begins:" }
        );
        for l in printable(&input.head).lines() {
            out.push_str(&format!("        {l}\n"));
        }
        if !input.whole() {
            out.push_str("        ...\n");
        }
        out
    }

    /// Whether test `t` gets its diff shown, given whether a failure was shown before.
    pub(crate) fn wants_diff(&self, t: &TestReport, failure_shown: bool) -> bool {
        !t.verdict.is_accepted() && (self.all_diffs || !failure_shown)
    }

    /// The compile error block and the summary of a submission.
    pub(crate) fn summary(&self, r: &SubmissionReport) -> String {
        let mut out = String::new();
        if r.compile.status == CompileStatus::Error {
            out.push_str("  compile error:\n");
            for l in printable(&r.compile.message).lines() {
                out.push_str(&format!("    {l}\n"));
            }
        }
        let mut line = format!("{} {}", self.verdict(r.verdict), r.verdict.description());
        if r.verdict.is_accepted() && r.summary.unchecked > 0 {
            // Nothing was compared: say so, rather than that it passed.
            line = format!(
                "{} ran without error, but nothing was checked: {} of {} tests had no answer to compare with, max {}, {}",
                self.verdict(r.verdict),
                r.summary.unchecked,
                r.summary.total,
                format_ms(r.summary.max_time_ms),
                format_kib(r.summary.max_memory_kib)
            );
        } else if r.compile.status != CompileStatus::Error {
            line.push_str(&format!(
                ": {}/{} tests passed, max {}, {}",
                r.summary.passed,
                r.summary.total,
                format_ms(r.summary.max_time_ms),
                format_kib(r.summary.max_memory_kib)
            ));
            if !r.skipped.is_empty() {
                line.push_str(&format!(", {} not run", r.skipped.len()));
                if let Some(reason) = r.skip_reason {
                    line.push_str(&format!(" ({})", reason.describe()));
                }
            }
        }
        let compile = match (r.compile.status, r.compile.cached) {
            (CompileStatus::Ok, true) => " (build cached)".to_string(),
            (CompileStatus::Ok, false) => {
                format!(" (compiled in {})", format_ms(r.compile.time_ms))
            }
            _ => String::new(),
        };
        line.push_str(&self.paint(Style::new().dimmed(), &compile));
        out.push_str(&line);
        out.push('\n');
        if let Some(gaps) = &r.isolation_gaps {
            out.push_str(&format!(
                "  isolation: {} (weaker than full): {gaps}\n",
                r.isolation
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::submission_report;

    /// A fallen-back level is said under the summary, with what it does not
    /// protect; full isolation says nothing.
    #[test]
    fn a_weaker_level_is_said_with_its_gaps() {
        let human = Human {
            color: false,
            all_diffs: false,
        };
        let mut report = submission_report(Vec::new(), Verdict::AC);
        assert!(!human.summary(&report).contains("isolation"));
        report.isolation = "namespaces".into();
        report.isolation_gaps = Some("runs have no cgroup".into());
        assert!(human
            .summary(&report)
            .ends_with("  isolation: namespaces (weaker than full): runs have no cgroup\n"));
    }
}
