//! The diff shown on WA/PE: a few lines of the answer and of the output around
//! the first difference, compared line by line with `similar`. Only a bounded
//! window is read and diffed, so a 100 MB output costs a linear scan to the
//! difference and nothing quadratic.

use std::io::{self, BufRead, Read};

use similar::{ChangeTag, TextDiff};

/// Lines of context before and after the first difference.
const CONTEXT: usize = 2;
/// Longest line shown, in characters.
const MAX_LINE: usize = 120;

/// Renders the expected-vs-got window around `(out_line, ans_line)` (1-based).
/// Lines are paired by position (judge output is positional); inside a pair
/// that differs, `similar` finds the changed words, which a `^` line marks.
/// With `show_whitespace`, spaces, tabs and carriage returns are made visible.
pub(super) fn render(
    output: impl Read,
    answer: impl Read,
    out_line: usize,
    ans_line: usize,
    show_whitespace: bool,
) -> io::Result<String> {
    let (out_first, got) = window(output, out_line, show_whitespace)?;
    let (ans_first, expected) = window(answer, ans_line, show_whitespace)?;
    // Align both windows on the line of the first difference.
    let before = (out_line - out_first).max(ans_line - ans_first);
    let mut out = String::from("--- expected (answer)\n+++ got (output)\n");
    for k in 0..before + CONTEXT + 1 {
        fn pick(
            k: usize,
            before: usize,
            first: usize,
            line: usize,
            lines: &[String],
        ) -> Option<(usize, &str)> {
            let offset = (k + line - first).checked_sub(before)?;
            lines
                .get(offset)
                .map(|text| (first + offset, text.as_str()))
        }
        let e = pick(k, before, ans_first, ans_line, &expected);
        let g = pick(k, before, out_first, out_line, &got);
        match (e, g) {
            (None, None) => {}
            (Some((_, et)), Some((gn, gt))) if et == gt => {
                out.push_str(&format!(" {gn:>6} | {gt}\n"))
            }
            _ => {
                match e {
                    Some((en, et)) => out.push_str(&format!("-{en:>6} | {et}\n")),
                    None => out.push_str("-       | (no line)\n"),
                }
                match g {
                    Some((gn, gt)) => {
                        out.push_str(&format!("+{gn:>6} | {gt}\n"));
                        if let Some((_, et)) = e {
                            let marks = mark_changes(et, gt);
                            if marks.contains('^') {
                                out.push_str(&format!("        | {}\n", marks.trim_end()));
                            }
                        }
                    }
                    None => out.push_str("+       | (no line)\n"),
                }
            }
        }
    }
    Ok(out)
}

/// A line of `^` under the words of `got` that differ from `expected`.
fn mark_changes(expected: &str, got: &str) -> String {
    let diff = TextDiff::from_words(expected, got);
    let mut marks = String::new();
    for change in diff.iter_all_changes() {
        let width = change.value().chars().count();
        match change.tag() {
            ChangeTag::Delete => {}
            ChangeTag::Equal => marks.push_str(&" ".repeat(width)),
            ChangeTag::Insert => marks.push_str(&"^".repeat(width)),
        }
    }
    if marks.trim().is_empty() && expected != got {
        // Only deletions: point at where they happened (or the line end).
        let at = expected
            .chars()
            .zip(got.chars())
            .take_while(|(a, b)| a == b)
            .count();
        marks = format!("{}^", " ".repeat(at));
    }
    marks
}

/// Reads the lines `line-CONTEXT ..= line+CONTEXT`; returns the first line's number.
fn window(
    reader: impl Read,
    line: usize,
    show_whitespace: bool,
) -> io::Result<(usize, Vec<String>)> {
    let first = line.saturating_sub(CONTEXT).max(1);
    let last = line + CONTEXT;
    let mut reader = io::BufReader::with_capacity(64 << 10, reader);
    let mut buf = Vec::new();
    let mut lines = Vec::new();
    let mut number = 0;
    loop {
        buf.clear();
        // Read at most a bounded amount per line: a single huge line is cut.
        let n = (&mut reader).take(1 << 20).read_until(b'\n', &mut buf)?;
        if n == 0 {
            break;
        }
        if !buf.ends_with(b"\n") && n == 1 << 20 {
            // Skip the rest of an over-long line.
            let mut sink = Vec::new();
            reader.read_until(b'\n', &mut sink)?;
        }
        number += 1;
        if number < first {
            continue;
        }
        if number > last {
            break;
        }
        lines.push(show_line(&buf, show_whitespace));
    }
    Ok((first, lines))
}

fn show_line(raw: &[u8], show_whitespace: bool) -> String {
    let ends_newline = raw.ends_with(b"\n");
    let body = raw.strip_suffix(b"\n").unwrap_or(raw);
    let text = String::from_utf8_lossy(body);
    let mut shown: String = if show_whitespace {
        text.chars()
            .map(|c| match c {
                ' ' => '·',
                '\t' => '→',
                '\r' => '␍',
                c => c,
            })
            .collect()
    } else {
        text.into_owned()
    };
    if shown.chars().count() > MAX_LINE {
        shown = shown.chars().take(MAX_LINE).collect::<String>() + "…";
    }
    if show_whitespace && !ends_newline {
        shown.push_str("  (no newline at end)");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_the_window_around_the_difference() {
        let answer = "No\nNo\nYes\nNo\nNo\nNo\nNo\n";
        let output = "No\nNo\nNo\nNo\nNo\nNo\nNo\n";
        let text = render(output.as_bytes(), answer.as_bytes(), 3, 3, false).unwrap();
        assert_eq!(
            text,
            "--- expected (answer)\n+++ got (output)\n      1 | No\n      2 | No\n-     3 | Yes\n+     3 | No\n        | ^^\n      4 | No\n      5 | No\n"
        );
    }

    #[test]
    fn marks_the_changed_word() {
        let text = render(
            "Case 1: first\nCase 2: frist\n".as_bytes(),
            "Case 1: first\nCase 2: first\n".as_bytes(),
            2,
            2,
            false,
        )
        .unwrap();
        assert!(
            text.ends_with(
                "-     2 | Case 2: first\n+     2 | Case 2: frist\n        |         ^^^^^\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn missing_lines_are_shown() {
        let text = render("a\n".as_bytes(), "a\nb\n".as_bytes(), 2, 2, false).unwrap();
        assert!(
            text.contains("-     2 | b\n+       | (no line)\n"),
            "{text}"
        );
    }

    #[test]
    fn makes_whitespace_visible() {
        let text = render("1 2 \n".as_bytes(), "1 2\n".as_bytes(), 1, 1, true).unwrap();
        assert!(text.contains("-     1 | 1·2\n"), "{text}");
        assert!(text.contains("+     1 | 1·2·\n"), "{text}");
    }

    #[test]
    fn empty_output_is_explained() {
        let text = render("".as_bytes(), "Yes\n".as_bytes(), 1, 1, false).unwrap();
        assert!(
            text.contains("-     1 | Yes\n+       | (no line)"),
            "{text}"
        );
    }

    #[test]
    fn huge_single_line_is_bounded() {
        let long = "9".repeat(5 << 20);
        let text = render(long.as_bytes(), "1\n".as_bytes(), 1, 1, false).unwrap();
        assert!(text.len() < 1000, "{}", text.len());
    }
}
