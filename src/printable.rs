//! Text from submissions (their output, their messages, their file and
//! folder names) made safe for a terminal: control characters (C0 but line
//! feed and tab, DEL, C1) and the Unicode controls that reorder text are
//! shown escaped (`\x1b`, `\u{202e}`), so that no submission can move the
//! cursor, recolour or rewrite what the judge prints. Used by every human
//! renderer and by `scoreboard.txt`; JSON escapes on its own.

use std::borrow::Cow;

/// Whether `c` is shown escaped (in every renderer of text for people).
fn escaped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape(c: char, out: &mut String) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// `text` with its control characters escaped; line feeds and tabs kept.
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` on one line: as [`printable`], with line feeds and tabs escaped too
/// (names of files, folders and tests).
pub(crate) fn printable_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| escaped(c) || c == '\n' || c == '\t') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) || c == '\n' || c == '\t' {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_the_rest_kept() {
        assert_eq!(printable("plain text\n\tok"), "plain text\n\tok");
        assert!(matches!(printable("plain"), Cow::Borrowed(_)));
        assert_eq!(
            printable("\x1b[2J\x1b]0;owned\x07red\r\x7f\u{9b}"),
            "\\x1b[2J\\x1b]0;owned\\x07red\\r\\x7f\\u{9b}"
        );
        assert_eq!(printable("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(printable_line("a\nb\tc\x1b"), "a\\nb\\tc\\x1b");
        assert_eq!(printable_line("héllo wörld"), "héllo wörld");
    }
}
