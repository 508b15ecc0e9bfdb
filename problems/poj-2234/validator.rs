// Validator for poj-2234 (Matches Game).
//
// An input file is one or more lines, each of the form `M p1 p2 ... pM`:
//   - tokens separated by exactly one space, no leading or trailing spaces,
//   - every line ends with '\n' (the last one too), no empty lines, no '\r',
//   - integers in plain decimal: digits only, no sign, no leading zeros,
//   - 1 <= M <= 20, 1 <= p_i <= 10^7, 1 <= number of lines <= 10^4,
//   - nothing else in the file.
// Options tighten the bounds: --max-m X, --max-pile X, --max-lines X.
// Exit 0 if valid; otherwise exit 1 with one message on stderr naming the line.

use std::io::Read;
use std::process::exit;

fn fail(line: usize, msg: String) -> ! {
    eprintln!("line {}: {}", line, msg);
    exit(1);
}

fn parse_uint(tok: &[u8], line: usize, what: &str) -> u64 {
    let text = String::from_utf8_lossy(tok);
    if tok.is_empty() {
        fail(line, format!("{} is empty", what));
    }
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

fn main() {
    let mut max_m: u64 = 20;
    let mut max_pile: u64 = 10_000_000;
    let mut max_lines: usize = 10_000;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = |i: usize| -> u64 {
            match args.get(i + 1).and_then(|v| v.parse::<u64>().ok()) {
                Some(v) => v,
                None => {
                    eprintln!("validator: option {} needs a non-negative integer", args[i]);
                    exit(2);
                }
            }
        };
        match args[i].as_str() {
            "--max-m" => max_m = value(i).min(20),
            "--max-pile" => max_pile = value(i).min(10_000_000),
            "--max-lines" => max_lines = (value(i) as usize).min(10_000),
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
        fail(1, "input is empty, at least one line is required".to_string());
    }
    if *data.last().unwrap() != b'\n' {
        let line = data.iter().filter(|&&c| c == b'\n').count() + 1;
        fail(line, "last line does not end with a newline".to_string());
    }
    let body = &data[..data.len() - 1];
    let lines: Vec<&[u8]> = body.split(|&c| c == b'\n').collect();
    if lines.len() > max_lines {
        fail(max_lines + 1, format!("too many lines: {} lines, at most {} allowed", lines.len(), max_lines));
    }
    for (idx, raw) in lines.iter().enumerate() {
        let ln = idx + 1;
        if raw.is_empty() {
            fail(ln, "empty line".to_string());
        }
        if let Some(c) = raw.iter().find(|&&c| c != b' ' && !c.is_ascii_digit()) {
            fail(ln, format!("unexpected character 0x{:02x}", c));
        }
        if raw[0] == b' ' {
            fail(ln, "leading space".to_string());
        }
        if *raw.last().unwrap() == b' ' {
            fail(ln, "trailing space".to_string());
        }
        let toks: Vec<&[u8]> = raw.split(|&c| c == b' ').collect();
        if toks.iter().any(|t| t.is_empty()) {
            fail(ln, "tokens must be separated by exactly one space".to_string());
        }
        let m = parse_uint(toks[0], ln, "M");
        if m < 1 || m > max_m {
            fail(ln, format!("M is {}, must be in [1, {}]", m, max_m));
        }
        if toks.len() as u64 != m + 1 {
            fail(ln, format!("M is {} but the line has {} pile sizes", m, toks.len() - 1));
        }
        for (j, t) in toks[1..].iter().enumerate() {
            let p = parse_uint(t, ln, &format!("pile {}", j + 1));
            if p < 1 || p > max_pile {
                fail(ln, format!("pile {} is {}, must be in [1, {}]", j + 1, p, max_pile));
            }
        }
    }
    exit(0);
}
