// Validator for acwing-893 (Set-Nim Game).
//
// An input file is exactly four lines, each ending with '\n':
//   line 1: k                 1 <= k <= 100
//   line 2: s_1 .. s_k        exactly k integers, 1 <= s_i <= 10000, pairwise distinct
//   line 3: n                 1 <= n <= 100
//   line 4: h_1 .. h_n        exactly n integers, 1 <= h_i <= 10000
// Tokens are separated by exactly one space, no leading/trailing spaces, no '\r', integers
// in plain decimal (digits only, no sign, no leading zeros), nothing after line 4.
// Options tighten the bounds: --max-k X, --max-n X, --max-s X, --max-h X.
// Exit 0 if valid; otherwise exit 1 with one message on stderr naming the line.

use std::io::Read;
use std::process::exit;

fn fail(line: usize, msg: String) -> ! {
    eprintln!("line {}: {}", line, msg);
    exit(1);
}

fn parse_uint(tok: &[u8], line: usize, what: &str) -> u64 {
    let text = String::from_utf8_lossy(tok);
    if !tok.iter().all(|c| c.is_ascii_digit()) {
        fail(line, format!("{} '{}' is not a plain non-negative integer", what, text));
    }
    if tok.len() > 1 && tok[0] == b'0' {
        fail(line, format!("{} '{}' has a leading zero", what, text));
    }
    if tok.len() > 12 {
        fail(line, format!("{} '{}' is far too large", what, text));
    }
    text.parse::<u64>().unwrap()
}

/// Splits one line into tokens, checking the spacing rules.
fn tokens(raw: &[u8], line: usize) -> Vec<&[u8]> {
    if raw.is_empty() {
        fail(line, "empty line".to_string());
    }
    if let Some(c) = raw.iter().find(|&&c| c != b' ' && !c.is_ascii_digit()) {
        fail(line, format!("unexpected character 0x{:02x}", c));
    }
    if raw[0] == b' ' {
        fail(line, "leading space".to_string());
    }
    if *raw.last().unwrap() == b' ' {
        fail(line, "trailing space".to_string());
    }
    let toks: Vec<&[u8]> = raw.split(|&c| c == b' ').collect();
    if toks.iter().any(|t| t.is_empty()) {
        fail(line, "tokens must be separated by exactly one space".to_string());
    }
    toks
}

fn single(raw: &[u8], line: usize, what: &str, max: u64) -> u64 {
    let toks = tokens(raw, line);
    if toks.len() != 1 {
        fail(line, format!("expected only {} on this line, found {} tokens", what, toks.len()));
    }
    let v = parse_uint(toks[0], line, what);
    if v < 1 || v > max {
        fail(line, format!("{} is {}, must be in [1, {}]", what, v, max));
    }
    v
}

fn list(raw: &[u8], line: usize, count: u64, what: &str, count_name: &str, max: u64) -> Vec<u64> {
    let toks = tokens(raw, line);
    if toks.len() as u64 != count {
        fail(line, format!("{} is {} but the line has {} numbers", count_name, count, toks.len()));
    }
    toks.iter()
        .enumerate()
        .map(|(j, t)| {
            let name = format!("{} {}", what, j + 1);
            let v = parse_uint(t, line, &name);
            if v < 1 || v > max {
                fail(line, format!("{} is {}, must be in [1, {}]", name, v, max));
            }
            v
        })
        .collect()
}

fn main() {
    let (mut max_k, mut max_n, mut max_s, mut max_h) = (100u64, 100u64, 10_000u64, 10_000u64);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = match args.get(i + 1).and_then(|v| v.parse::<u64>().ok()) {
            Some(v) => v,
            None => {
                eprintln!("validator: option {} needs a non-negative integer", args[i]);
                exit(2);
            }
        };
        match args[i].as_str() {
            "--max-k" => max_k = v.min(100),
            "--max-n" => max_n = v.min(100),
            "--max-s" => max_s = v.min(10_000),
            "--max-h" => max_h = v.min(10_000),
            other => {
                eprintln!("validator: unknown option {}", other);
                exit(2);
            }
        }
        i += 2;
    }

    let mut data = Vec::new();
    std::io::stdin().read_to_end(&mut data).unwrap();
    if data.is_empty() {
        fail(1, "input is empty".to_string());
    }
    // Split into lines; every line must end with '\n'.
    let mut lines: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    for (pos, &c) in data.iter().enumerate() {
        if c == b'\n' {
            lines.push(&data[start..pos]);
            start = pos + 1;
        }
    }
    if start < data.len() {
        fail(lines.len() + 1, "last line does not end with a newline".to_string());
    }
    let expect_line = |idx: usize, what: &str| -> &[u8] {
        match lines.get(idx) {
            Some(l) => l,
            None => fail(idx + 1, format!("missing line, expected {}", what)),
        }
    };
    let k = single(expect_line(0, "k"), 1, "k", max_k);
    let s = list(expect_line(1, "the move sizes"), 2, k, "move size", "k", max_s);
    let mut sorted = s.clone();
    sorted.sort();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        fail(2, format!("move size {} appears more than once, the move sizes must be distinct", w[0]));
    }
    let n = single(expect_line(2, "n"), 3, "n", max_n);
    list(expect_line(3, "the heap sizes"), 4, n, "heap", "n", max_h);
    if lines.len() > 4 {
        fail(5, "unexpected data after the heap sizes (the input has exactly 4 lines)".to_string());
    }
    exit(0);
}
