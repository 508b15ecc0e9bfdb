// Validator for hdu-1527 (Wythoff's game).
//
// Input: 1 to MAX_LINES lines, each "a b": two integers separated by one space,
// 0 <= a, b <= MAX_VALUE, decimal without sign or leading zeros, every line ending in '\n'.
// Nothing else: no empty lines, no '\r', no extra spaces.
//
// Options: --max-value V (default 1000000000), --max-lines L (default 100000).
// Exit 0 if valid; otherwise exit 1 with one message "line N: ..." on stderr.
use std::io::{self, Read};
use std::process::exit;

fn fail(line: usize, msg: &str) -> ! {
    eprintln!("line {}: {}", line, msg);
    exit(1);
}

fn parse_number(tok: &[u8], line: usize, what: &str, max: u64) -> u64 {
    if tok.is_empty() {
        fail(line, &format!("{} is missing", what));
    }
    if !tok.iter().all(|c| c.is_ascii_digit()) {
        fail(line, &format!("{} {:?} is not a non-negative decimal integer", what, String::from_utf8_lossy(tok)));
    }
    if tok.len() > 1 && tok[0] == b'0' {
        fail(line, &format!("{} {:?} has a leading zero", what, String::from_utf8_lossy(tok)));
    }
    if tok.len() > 19 {
        fail(line, &format!("{} {} must be in [0, {}]", what, String::from_utf8_lossy(tok), max));
    }
    let v: u64 = std::str::from_utf8(tok).unwrap().parse().unwrap();
    if v > max {
        fail(line, &format!("{} {} must be in [0, {}]", what, v, max));
    }
    v
}

fn main() {
    let mut max_value: u64 = 1_000_000_000;
    let mut max_lines: usize = 100_000;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = args.get(i + 1).unwrap_or_else(|| {
            eprintln!("validator: option {} needs a value", args[i]);
            exit(2)
        });
        match args[i].as_str() {
            "--max-value" => max_value = val.parse().expect("--max-value takes an integer"),
            "--max-lines" => max_lines = val.parse().expect("--max-lines takes an integer"),
            other => {
                eprintln!("validator: unknown option {}", other);
                exit(2);
            }
        }
        i += 2;
    }

    let mut data = Vec::new();
    io::stdin().read_to_end(&mut data).unwrap();
    if data.is_empty() {
        fail(1, "input is empty, at least one line \"a b\" is required");
    }
    if *data.last().unwrap() != b'\n' {
        let n = data.iter().filter(|&&c| c == b'\n').count() + 1;
        fail(n, "last line does not end with '\\n'");
    }
    let body = &data[..data.len() - 1];
    for (idx, line) in body.split(|&c| c == b'\n').enumerate() {
        let no = idx + 1;
        if no > max_lines {
            fail(no, &format!("too many lines, at most {} are allowed", max_lines));
        }
        if line.is_empty() {
            fail(no, "empty line, expected \"a b\"");
        }
        if let Some(c) = line.iter().find(|&&c| !(c.is_ascii_digit() || c == b' ')) {
            fail(no, &format!("unexpected character {:?}, only digits and single spaces are allowed", *c as char));
        }
        if line[0] == b' ' {
            fail(no, "leading space");
        }
        if line[line.len() - 1] == b' ' {
            fail(no, "trailing space");
        }
        if line.windows(2).any(|w| w == b"  ") {
            fail(no, "two spaces in a row, numbers must be separated by exactly one space");
        }
        let parts: Vec<&[u8]> = line.split(|&c| c == b' ').collect();
        if parts.len() != 2 {
            fail(no, &format!("expected exactly two numbers separated by one space, found {} number(s)", parts.len()));
        }
        parse_number(parts[0], no, "a", max_value);
        parse_number(parts[1], no, "b", max_value);
    }
}
