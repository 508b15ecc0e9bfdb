//! Input validator for `luogu-p2197` (Nim, T positions, empty piles allowed).
//!
//! Usage: `validator [--max-t T] [--max-n N] [--max-pile P] < input`
//!   Exit 0: valid. Exit 1: invalid, with ONE message on stderr naming the line,
//!   e.g. `line 5: pile 3 is 10000, must be in [0, 9999]`. Exit 2: bad arguments.
//!   The options tighten the bounds (the brute force's domain); they never loosen them.
//!
//! The exact format accepted:
//!   line 1: `T`                          1 <= T <= 10
//!   then for each of the T cases two lines:
//!     `n`                                1 <= n <= 10000
//!     `a_1 a_2 ... a_n`                  0 <= a_i <= 9999, separated by single spaces
//!   Every line ends with '\n' (the last one too); nothing follows the last case.
//!   Numbers are plain decimal: digits only, no sign, no leading zeros (`0` itself is fine).

use std::io::Read;
use std::process::exit;

const MAX_T: u64 = 10;
const MAX_N: u64 = 10_000;
const MAX_PILE: u64 = 9_999;

/// Rejects the input: prints the message, exits with 1.
fn reject(line: usize, message: &str) -> ! {
    eprintln!("line {line}: {message}");
    exit(1);
}

/// Splits the whole input into lines, checking the characters and the final newline.
fn split_lines(input: &[u8]) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, &b) in input.iter().enumerate() {
        let line = lines.len() + 1;
        match b {
            b'\n' => {
                lines.push(std::str::from_utf8(&input[start..i]).expect("checked ASCII"));
                start = i + 1;
            }
            b' ' | b'0'..=b'9' => {}
            b'\r' => reject(
                line,
                "carriage return found (line ends must be a bare '\\n')",
            ),
            b'\t' => reject(
                line,
                "tab found (tokens must be separated by single spaces)",
            ),
            _ => reject(
                line,
                &format!("unexpected byte 0x{b:02x} (only digits, spaces and '\\n' are allowed)"),
            ),
        }
    }
    if start < input.len() {
        reject(lines.len() + 1, "the last line does not end with '\\n'");
    }
    lines
}

/// Splits one line into tokens separated by exactly one space.
fn tokens(line_no: usize, line: &str) -> Vec<&str> {
    if line.is_empty() {
        reject(line_no, "empty line");
    }
    if line.starts_with(' ') {
        reject(line_no, "leading space");
    }
    if line.ends_with(' ') {
        reject(line_no, "trailing space");
    }
    if line.contains("  ") {
        reject(
            line_no,
            "two spaces in a row (tokens must be separated by one space)",
        );
    }
    line.split(' ').collect()
}

/// Parses a plain decimal number named `what` and checks it lies in [lo, hi].
fn number(line_no: usize, token: &str, what: &str, lo: u64, hi: u64) -> u64 {
    if token.len() > 1 && token.starts_with('0') {
        reject(line_no, &format!("{what} `{token}` has a leading zero"));
    }
    // Only digits reach here (split_lines checked the bytes); 18 digits fit in u64.
    if token.len() > 18 {
        reject(
            line_no,
            &format!("{what} `{token}` is too long, must be in [{lo}, {hi}]"),
        );
    }
    let value: u64 = token.parse().expect("digits only");
    if value < lo || value > hi {
        reject(
            line_no,
            &format!("{what} is {value}, must be in [{lo}, {hi}]"),
        );
    }
    value
}

/// A line that must hold exactly one number.
fn single_number(lines: &[&str], line_no: usize, what: &str, lo: u64, hi: u64) -> u64 {
    let Some(line) = lines.get(line_no - 1) else {
        reject(line_no, &format!("missing the line with {what}"))
    };
    let parts = tokens(line_no, line);
    if parts.len() != 1 {
        reject(
            line_no,
            &format!(
                "expected exactly one number ({what}), found {} tokens",
                parts.len()
            ),
        );
    }
    number(line_no, parts[0], what, lo, hi)
}

/// Reads `--max-t T --max-n N --max-pile P`; each must lie within the problem's own bound.
fn parse_options() -> (u64, u64, u64) {
    let (mut max_t, mut max_n, mut max_pile) = (MAX_T, MAX_N, MAX_PILE);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), value) {
            ("--max-t", Some(v)) if (1..=MAX_T).contains(&v) => max_t = v,
            ("--max-n", Some(v)) if (1..=MAX_N).contains(&v) => max_n = v,
            ("--max-pile", Some(v)) if v <= MAX_PILE => max_pile = v,
            _ => {
                eprintln!("validator: bad arguments {args:?}");
                eprintln!("usage: validator [--max-t 1..={MAX_T}] [--max-n 1..={MAX_N}] [--max-pile 0..={MAX_PILE}]");
                exit(2);
            }
        }
        i += 2;
    }
    (max_t, max_n, max_pile)
}

fn main() {
    let (max_t, max_n, max_pile) = parse_options();
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .expect("read stdin");
    let lines = split_lines(&input);
    if lines.is_empty() {
        reject(1, "the input is empty, expected `T`");
    }

    let t = single_number(&lines, 1, "T", 1, max_t);
    let mut line_no = 2;
    for case in 1..=t {
        let n = single_number(&lines, line_no, &format!("n of case {case}"), 1, max_n);
        line_no += 1;
        let Some(line) = lines.get(line_no - 1) else {
            reject(line_no, &format!("missing the pile sizes of case {case}"))
        };
        let piles = tokens(line_no, line);
        if piles.len() as u64 != n {
            reject(
                line_no,
                &format!(
                    "case {case}: expected {n} pile sizes, found {}",
                    piles.len()
                ),
            );
        }
        for (i, token) in piles.iter().enumerate() {
            number(line_no, token, &format!("pile {}", i + 1), 0, max_pile);
        }
        line_no += 1;
    }
    if lines.len() >= line_no {
        reject(
            line_no,
            &format!("unexpected extra line after the last of the {t} cases"),
        );
    }
}
