//! Input validator for `acwing-891` (Nim, one position).
//!
//! Usage: `validator [--max-n N] [--max-pile P] < input`
//!   Exit 0: the input is valid. Exit 1: invalid, with ONE message on stderr that
//!   names the line, e.g. `line 2: pile 4 is 0, must be in [1, 1000000000]`.
//!   Exit 2: bad command-line arguments.
//!   The options tighten the bounds (used to describe the brute force's domain);
//!   they may not loosen them.
//!
//! The exact format accepted:
//!   line 1: `n`                  1 <= n <= 100000
//!   line 2: `a_1 a_2 ... a_n`    1 <= a_i <= 1000000000, separated by single spaces
//!   Every line ends with '\n' (the last one too); nothing follows line 2.
//!   Numbers are plain decimal: digits only, no sign, no leading zeros.

use std::io::Read;
use std::process::exit;

const MAX_N: u64 = 100_000;
const MIN_PILE: u64 = 1;
const MAX_PILE: u64 = 1_000_000_000;

/// Rejects the input: prints the message, exits with 1.
fn reject(line: usize, message: &str) -> ! {
    eprintln!("line {line}: {message}");
    exit(1);
}

/// Splits the whole input into lines, checking the characters and the final newline.
/// Returns the lines without their '\n'.
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
    // Only digits can reach here (split_lines checked the bytes); 18 digits fit in u64.
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

/// Reads `--max-n N --max-pile P`; each must lie within the problem's own bound.
fn parse_options() -> (u64, u64) {
    let (mut max_n, mut max_pile) = (MAX_N, MAX_PILE);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), value) {
            ("--max-n", Some(v)) if (1..=MAX_N).contains(&v) => max_n = v,
            ("--max-pile", Some(v)) if (MIN_PILE..=MAX_PILE).contains(&v) => max_pile = v,
            _ => {
                eprintln!("validator: bad arguments {args:?}");
                eprintln!(
                    "usage: validator [--max-n 1..={MAX_N}] [--max-pile {MIN_PILE}..={MAX_PILE}]"
                );
                exit(2);
            }
        }
        i += 2;
    }
    (max_n, max_pile)
}

fn main() {
    let (max_n, max_pile) = parse_options();
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .expect("read stdin");
    let lines = split_lines(&input);

    // Line 1: n.
    let Some(first) = lines.first() else {
        reject(1, "the input is empty, expected `n`")
    };
    let head = tokens(1, first);
    if head.len() != 1 {
        reject(
            1,
            &format!(
                "expected exactly one number `n`, found {} tokens",
                head.len()
            ),
        );
    }
    let n = number(1, head[0], "n", 1, max_n);

    // Line 2: the n piles.
    let Some(second) = lines.get(1) else {
        reject(2, "missing the line with the pile sizes")
    };
    let piles = tokens(2, second);
    if piles.len() as u64 != n {
        reject(
            2,
            &format!("expected {n} pile sizes, found {}", piles.len()),
        );
    }
    for (i, token) in piles.iter().enumerate() {
        number(2, token, &format!("pile {}", i + 1), MIN_PILE, max_pile);
    }

    // Nothing after line 2.
    if lines.len() > 2 {
        reject(
            3,
            "unexpected extra line after the pile sizes (the input has exactly two lines)",
        );
    }
}
