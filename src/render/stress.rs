//! `judge stress` as text: the report ([`render_human`]) and its progress
//! lines ([`render_progress`]).

use crate::printable::{printable, printable_line};
use crate::report::stress::{InputSummary, Progress, StressReport};

/// Lines shown per block (input, expected, actual) in human output.
const SHOWN_LINES: usize = 40;

fn block(out: &mut String, title: &str, text: &str) {
    out.push_str(&format!("  {title}:\n"));
    let text = printable(text);
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(SHOWN_LINES) {
        out.push_str(&format!("    {line}\n"));
    }
    if lines.len() > SHOWN_LINES {
        out.push_str(&format!(
            "    ... ({} more lines)\n",
            lines.len() - SHOWN_LINES
        ));
    }
    if lines.is_empty() {
        out.push_str("    (empty)\n");
    }
}

fn sizes_of(s: &InputSummary) -> String {
    format!("{} lines, {} tokens, {} bytes", s.lines, s.tokens, s.bytes)
}

/// The line printed (on a terminal) about a stress run's progress.
pub(crate) fn render_progress(p: &Progress) -> String {
    match p {
        Progress::Searching {
            done,
            invalid,
            per_second,
            size,
        } => {
            let size = size.map(|s| format!(", size {s}")).unwrap_or_default();
            format!("stress: {done} iterations, {per_second}/s{size}, {invalid} invalid skipped\n")
        }
        Progress::Shrinking { tried, smallest } => format!(
            "shrinking: {tried} candidates tried, smallest failing input {smallest} bytes\n"
        ),
    }
}

/// Renders a stress report as text (a pure function of the report).
pub(crate) fn render_human(r: &StressReport) -> String {
    let against = match r.against.as_str() {
        "reference" => "the reference".to_string(),
        "brute" => "the brute force".to_string(),
        other => other.to_string(),
    };
    let mut out = format!(
        "stress {}: {} [{}] against {}, seed {}\n",
        r.problem,
        printable_line(&r.submission),
        r.language_name,
        printable_line(&against),
        r.seed
    );
    let sizes = match (r.max_size, r.size_cap) {
        (Some(max), Some(cap)) => format!(", sizes 1..{max} (the generator accepts up to {cap})"),
        (Some(max), None) => format!(", sizes 1..{max}"),
        _ => String::new(),
    };
    let speed = format!(
        "{} iterations{sizes}, {} invalid skipped, in {:.1} s ({} iterations/s)",
        r.iterations,
        r.invalid,
        r.elapsed_ms as f64 / 1000.0,
        r.iterations_per_second
    );
    let Some(c) = &r.counterexample else {
        out.push_str(&format!("ok: no counterexample in {speed}\n"));
        return out;
    };
    let size = c.size.map(|s| format!("size {s}, ")).unwrap_or_default();
    out.push_str(&format!(
        "{} {} on iteration {} ({size}seed {}: generator args `{}`)\n",
        c.verdict,
        c.verdict.description(),
        c.iteration,
        c.iteration_seed,
        c.generator_args.join(" ")
    ));
    out.push_str(&format!("  original input: {}\n", sizes_of(&c.original)));
    let how = if c.shrink.complete {
        "no smaller candidate fails the same way"
    } else {
        "shrinking stopped early, so it may not be minimal"
    };
    let steps = c.shrink.steps.len();
    out.push_str(&format!(
        "  shrunk in {steps} step{} ({} candidates tried): {how}\n",
        if steps == 1 { "" } else { "s" },
        c.shrink.candidates_tried
    ));
    block(
        &mut out,
        &format!("minimal input ({})", sizes_of(&c.minimal)),
        &c.minimal.input,
    );
    match &c.interaction {
        Some(lines) => {
            out.push_str("  the interaction's last lines:\n");
            for l in lines {
                let arrow = if l.side == "submission" {
                    "submission >"
                } else {
                    "interactor <"
                };
                out.push_str(&format!("    {arrow} {}\n", printable_line(&l.line)));
            }
        }
        None => {
            block(&mut out, "expected output", &c.expected);
            block(&mut out, "actual output", &c.actual);
        }
    }
    out.push_str(&format!(
        "  {}: {}\n",
        c.verdict,
        printable_line(&c.message)
    ));
    if let Some(diff) = &c.diff {
        for line in printable(diff).lines() {
            out.push_str(&format!("      {line}\n"));
        }
    }
    if let Some(saved) = &c.saved {
        out.push_str(&format!("  saved to {}\n", saved.display()));
    }
    if let Some(replay) = &c.replay {
        out.push_str(&format!("  replay: {replay}\n"));
    }
    out.push_str(&format!("counterexample found after {speed}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stress::{Counterexample, ShrinkSummary};
    use crate::report::SCHEMA_VERSION;
    use crate::verdict::Verdict;

    fn summary(text: &str) -> InputSummary {
        InputSummary::of(text.as_bytes())
    }

    fn report(counterexample: Option<Counterexample>) -> StressReport {
        StressReport {
            schema_version: SCHEMA_VERSION,
            problem: "luogu-p2197".into(),
            submission: "wa-no-reset.c".into(),
            language: "c".into(),
            language_name: "C".into(),
            against: "reference".into(),
            seed: 1,
            iterations: 12,
            invalid: 0,
            elapsed_ms: 250,
            iterations_per_second: 48.0,
            max_size: Some(2),
            size_cap: None,
            counterexample,
        }
    }

    #[test]
    fn human_report_without_counterexample() {
        insta::assert_snapshot!(render_human(&report(None)));
    }

    #[test]
    fn human_report_with_counterexample() {
        let c = Counterexample {
            iteration: 7,
            size: Some(1),
            iteration_seed: 123,
            generator_args: vec!["small".into(), "123".into(), "1".into()],
            verdict: Verdict::WA,
            original: summary("2\n1\n3\n2\n1 2\n"),
            minimal: summary("2\n1\n1\n1\n0\n"),
            shrink: ShrinkSummary {
                steps: vec!["lower 3 to 1 on line 3".into()],
                candidates_tried: 31,
                complete: true,
            },
            expected: "Yes\nNo\n".into(),
            actual: "Yes\nYes\n".into(),
            message: "line 2: expected `No`, got `Yes`".into(),
            diff: Some("--- expected (answer)\n+++ got (output)\n      1 | Yes\n-     2 | No\n+     2 | Yes\n".into()),
            saved: Some(".judge-cache/stress/luogu-p2197-1.in".into()),
            replay: Some("judge run luogu-p2197 wa-no-reset.c --input .judge-cache/stress/luogu-p2197-1.in".into()),
            interaction: None,
        };
        insta::assert_snapshot!(render_human(&report(Some(c))));
    }
}
