//! The ICPC package format's default output validator, as problemtools'
//! `default_validator` behaves: whitespace-separated tokens, compared
//! ASCII-case-insensitively unless `case_sensitive`; with
//! `space_change_sensitive` every whitespace byte must match; with a float
//! tolerance, an answer token that parses entirely as a finite number (hex
//! included) accepts a number within the absolute or the relative tolerance.
//! The flags come from the test's group (`output_validator_flags`).

use std::io::{self, BufRead, BufReader, Read};

use super::CheckResult;
use crate::problem::DefaultFlags;
use crate::verdict::Verdict;

/// One stream, byte by byte, counting lines.
struct Stream<R> {
    reader: BufReader<R>,
    line: usize,
}

impl<R: Read> Stream<R> {
    fn new(reader: R) -> Self {
        Stream {
            reader: BufReader::with_capacity(64 << 10, reader),
            line: 1,
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        Ok(self.reader.fill_buf()?.first().copied())
    }

    fn next(&mut self) -> io::Result<Option<u8>> {
        let b = self.peek()?;
        if let Some(b) = b {
            self.reader.consume(1);
            if b == b'\n' {
                self.line += 1;
            }
        }
        Ok(b)
    }

    /// The next token (bytes up to whitespace or the end), into `out`.
    fn token(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        out.clear();
        while let Some(b) = self.peek()? {
            if is_space(b) {
                break;
            }
            out.push(b);
            self.reader.consume(1);
        }
        Ok(())
    }
}

/// C's `isspace`.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Compares `output` with `answer` as the default output validator does.
pub(crate) fn compare(
    flags: &DefaultFlags,
    output: impl Read,
    answer: impl Read,
) -> io::Result<CheckResult> {
    let (mut team, mut judge) = (Stream::new(output), Stream::new(answer));
    let wrong = |team: &Stream<_>, judge: &Stream<_>, what: String| CheckResult {
        verdict: Verdict::WA,
        message: format!("line {}: {what}", team.line),
        position: Some((team.line, judge.line)),
        diff: None,
        score: None,
    };
    let (mut j, mut t) = (Vec::new(), Vec::new());
    loop {
        // The answer's whitespace; each byte must be the output's too when
        // whitespace matters.
        while let Some(b) = judge.peek()? {
            if !is_space(b) {
                break;
            }
            if flags.space_change_sensitive {
                let got = team.peek()?;
                if got != Some(b) {
                    return Ok(wrong(
                        &team,
                        &judge,
                        format!("expected {}, got {}", show_byte(Some(b)), show_byte(got)),
                    ));
                }
                team.next()?;
            }
            judge.next()?;
        }
        // The output's own whitespace: none more is allowed when it matters.
        while let Some(b) = team.peek()? {
            if !is_space(b) {
                break;
            }
            if flags.space_change_sensitive {
                let what = match judge.peek()? {
                    Some(_) => format!("expected the next token, got {}", show_byte(Some(b))),
                    None => format!("expected the end of the output, got {}", show_byte(Some(b))),
                };
                return Ok(wrong(&team, &judge, what));
            }
            team.next()?;
        }
        judge.token(&mut j)?;
        team.token(&mut t)?;
        match (j.is_empty(), t.is_empty()) {
            (true, true) => return Ok(CheckResult::accepted()),
            (true, false) => {
                let what = format!("expected the end of the output, got `{}`", shown(&t));
                return Ok(wrong(&team, &judge, what));
            }
            (false, true) => {
                let what = format!("expected `{}`, got the end of the output", shown(&j));
                return Ok(wrong(&team, &judge, what));
            }
            (false, false) => {}
        }
        if let Some(why) = differ(flags, &j, &t) {
            return Ok(wrong(&team, &judge, why));
        }
    }
}

/// Why a token of the output does not match the answer's, if it does not.
fn differ(flags: &DefaultFlags, judge: &[u8], team: &[u8]) -> Option<String> {
    let tolerant = flags.absolute.is_some() || flags.relative.is_some();
    if tolerant {
        if let Some(expected) = parse_double(judge).filter(|v| v.is_finite()) {
            let Some(got) = parse_double(team) else {
                return Some(format!(
                    "expected the number `{}`, got `{}`",
                    shown(judge),
                    shown(team)
                ));
            };
            let diff = (expected - got).abs();
            let within_abs = flags.absolute.is_some_and(|e| diff <= e);
            let within_rel = flags.relative.is_some_and(|e| diff <= e * expected.abs());
            return (!(within_abs || within_rel)).then(|| {
                format!(
                    "expected `{}`, got `{}`: off by {diff:e}, more than the tolerance",
                    shown(judge),
                    shown(team)
                )
            });
        }
    }
    let same = if flags.case_sensitive {
        judge == team
    } else {
        judge.eq_ignore_ascii_case(team)
    };
    (!same).then(|| format!("expected `{}`, got `{}`", shown(judge), shown(team)))
}

/// A token parsed as C's `sscanf("%lf")` does when nothing follows it:
/// decimal or hexadecimal, with a sign and an exponent; `None` if any of
/// the token is left over.
fn parse_double(token: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(token).ok()?;
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let value = if rest.len() > 2 && rest[..2].eq_ignore_ascii_case("0x") {
        parse_hex(&rest[2..])?
    } else {
        // Rust's parser takes what strtod takes in decimal (and "inf" and
        // "nan", which are not finite and so compared as text).
        if rest.starts_with(['+', '-']) {
            return None;
        }
        rest.parse::<f64>().ok()?
    };
    Some(if negative { -value } else { value })
}

/// `1f`, `1.8`, `1.8p3`: a hexadecimal mantissa and an optional binary exponent.
fn parse_hex(text: &str) -> Option<f64> {
    let (mantissa, exponent) = match text.find(['p', 'P']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in whole.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in fraction.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    if let Some(exponent) = exponent {
        let e: i32 = exponent.parse().ok()?;
        value *= 2f64.powi(e);
    }
    Some(value)
}

/// A token for a message: lossy UTF-8, cut at 100 characters.
fn shown(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    if text.chars().count() > 100 {
        text.chars().take(100).collect::<String>() + "…"
    } else {
        text.into_owned()
    }
}

fn show_byte(b: Option<u8>) -> String {
    match b {
        None => "the end of the output".into(),
        Some(b' ') => "a space".into(),
        Some(b'\n') => "a line break".into(),
        Some(b'\r') => "a carriage return".into(),
        Some(b'\t') => "a tab".into(),
        Some(b) if is_space(b) => format!("whitespace 0x{b:02x}"),
        Some(b) => format!("`{}`", char::from(b).escape_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(judge: &str, team: &str, flags: &[&str]) -> Verdict {
        let flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        let flags = DefaultFlags::parse(&flags).unwrap();
        compare(&flags, team.as_bytes(), judge.as_bytes())
            .unwrap()
            .verdict
    }

    /// problemtools' default_validator on these pairs (run by hand: exit 42
    /// is AC, 43 WA).
    #[test]
    fn agrees_with_problemtools_default_validator() {
        use Verdict::{AC, WA};
        let cases: &[(&str, &str, &[&str], Verdict)] = &[
            ("200\n", "2.0e2\n", &["float_tolerance", "1e-6"], AC),
            ("200\n", "2.0e2\n", &[], WA),
            ("Hello", "hello", &[], AC),
            ("Hello", "hello", &["case_sensitive"], WA),
            ("1 2\n", "1  2\n", &["space_change_sensitive"], WA),
            ("1 2\n", "1 2", &["space_change_sensitive"], WA),
            ("1 2\n", "1 2\n\n", &["space_change_sensitive"], WA),
            ("1 2\n", "1 2\n", &["space_change_sensitive"], AC),
            ("1 2\n", "1 2\n\n", &[], AC),
            ("1 2\n", "1\n2", &[], AC),
            ("1.0", "1.00001", &["float_relative_tolerance", "1e-4"], AC),
            ("0", "0.00001", &["float_relative_tolerance", "1e-4"], WA),
            ("0", "1e-5", &["float_absolute_tolerance", "1e-4"], AC),
            ("abc", "abc", &["float_tolerance", "1e-6"], AC),
            ("1.5", "abc", &["float_tolerance", "1e-6"], WA),
            ("inf", "inf", &["float_tolerance", "1e-6"], AC),
            ("0x10", "16", &["float_tolerance", "1e-6"], AC),
            ("1\r\n", "1\n", &[], AC),
            ("1\n", "1\r\n", &["space_change_sensitive"], WA),
            ("", "\n", &[], AC),
            ("", "x", &[], WA),
            ("3\n", "", &[], WA),
            ("1 2 3", "1 2", &[], WA),
            (
                "-1.5",
                "-1.5000001",
                &["float_absolute_tolerance", "1e-6"],
                AC,
            ),
        ];
        for (judge, team, flags, want) in cases {
            assert_eq!(
                check(judge, team, flags),
                *want,
                "judge {judge:?} team {team:?} flags {flags:?}"
            );
        }
    }

    #[test]
    fn bad_flags_are_refused_with_the_flag_named() {
        let parse =
            |f: &[&str]| DefaultFlags::parse(&f.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(parse(&["bogus_flag"]).unwrap_err().contains("bogus_flag"));
        assert!(parse(&["float_tolerance"])
            .unwrap_err()
            .contains("needs a number"));
        assert!(parse(&["float_tolerance", "x"])
            .unwrap_err()
            .contains("not a number"));
    }

    #[test]
    fn hex_and_signs_parse_like_strtod() {
        assert_eq!(parse_double(b"0x10"), Some(16.0));
        assert_eq!(parse_double(b"-0x1.8p1"), Some(-3.0));
        assert_eq!(parse_double(b"+2.5e1"), Some(25.0));
        assert_eq!(parse_double(b"1.5x"), None);
        assert_eq!(parse_double(b"--1"), None);
    }

    #[test]
    fn messages_name_the_line_and_the_tokens() {
        let flags = DefaultFlags::default();
        let r = compare(&flags, "1\n2\n".as_bytes(), "1\n3\n".as_bytes()).unwrap();
        assert_eq!(r.message, "line 2: expected `3`, got `2`");
        assert_eq!(r.position, Some((2, 2)));
    }
}
