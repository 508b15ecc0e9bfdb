// Validator for hdu-3951 (Coin Game).
// Input: a line `T`, then T lines `N K`.
// Bounds: 1 <= T <= 100, 3 <= N <= 10^9, 1 <= K <= 10.
// Options (tighten the bounds): --max-t X, --max-n X, --max-k X.
// Exit 0 if valid; otherwise exit 1 with one message `line L: ...` on stderr.
use std::io::Read;
use std::process::exit;

fn fail(line: usize, msg: &str) -> ! {
    eprintln!("line {}: {}", line, msg);
    exit(1);
}

fn parse_args() -> (u64, u64, u64) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut max_t, mut max_n, mut max_k) = (100u64, 1_000_000_000u64, 10u64);
    let mut i = 0;
    while i < args.len() {
        let val = args.get(i + 1).and_then(|v| v.parse::<u64>().ok()).unwrap_or_else(|| {
            eprintln!("usage: validator [--max-t X] [--max-n X] [--max-k X]");
            exit(2);
        });
        match args[i].as_str() {
            "--max-t" => max_t = max_t.min(val),
            "--max-n" => max_n = max_n.min(val),
            "--max-k" => max_k = max_k.min(val),
            other => {
                eprintln!("unknown option {}", other);
                exit(2);
            }
        }
        i += 2;
    }
    (max_t, max_n, max_k)
}

/// Splits a line into tokens separated by exactly one space, no leading or trailing space.
fn tokens(line: &str, no: usize) -> Vec<&str> {
    if line.is_empty() {
        fail(no, "empty line");
    }
    if line.starts_with(' ') {
        fail(no, "leading space");
    }
    if line.ends_with(' ') {
        fail(no, "trailing space");
    }
    if line.contains("  ") {
        fail(no, "two spaces in a row, tokens must be separated by exactly one space");
    }
    line.split(' ').collect()
}

/// Parses a decimal integer: digits only, no sign, no leading zeros, within [lo, hi].
fn number(tok: &str, no: usize, name: &str, lo: u64, hi: u64) -> u64 {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        fail(no, &format!("{} `{}` is not a non-negative decimal integer", name, tok));
    }
    if tok.len() > 1 && tok.starts_with('0') {
        fail(no, &format!("{} `{}` has a leading zero", name, tok));
    }
    if tok.len() > 18 {
        fail(no, &format!("{} `{}` is too large, must be in [{}, {}]", name, tok, lo, hi));
    }
    let v: u64 = tok.parse().unwrap();
    if v < lo || v > hi {
        fail(no, &format!("{} is {}, must be in [{}, {}]", name, v, lo, hi));
    }
    v
}

fn main() {
    let (max_t, max_n, max_k) = parse_args();
    let mut raw = Vec::new();
    std::io::stdin().read_to_end(&mut raw).unwrap();
    for (pos, &b) in raw.iter().enumerate() {
        if b != b'\n' && b != b' ' && !(0x21..=0x7e).contains(&b) {
            let line = raw[..pos].iter().filter(|&&c| c == b'\n').count() + 1;
            fail(line, &format!("forbidden byte 0x{:02x} (no control characters other than '\\n', no non-ASCII bytes)", b));
        }
    }
    let text = String::from_utf8(raw).unwrap();
    if text.is_empty() {
        fail(1, "empty input, expected the number of cases T");
    }
    if !text.ends_with('\n') {
        let last = text.split('\n').count();
        fail(last, "the last line does not end with '\\n'");
    }
    let lines: Vec<&str> = text[..text.len() - 1].split('\n').collect();

    let first = tokens(lines[0], 1);
    if first.len() != 1 {
        fail(1, &format!("expected exactly one integer T, found {} tokens", first.len()));
    }
    let t = number(first[0], 1, "T", 1, max_t) as usize;
    for i in 0..t {
        let no = i + 2;
        if no > lines.len() {
            fail(no, &format!("missing case {} of {}: expected a line `N K`", i + 1, t));
        }
        let toks = tokens(lines[no - 1], no);
        if toks.len() != 2 {
            fail(no, &format!("expected two integers `N K`, found {} tokens", toks.len()));
        }
        number(toks[0], no, "N", 3, max_n);
        number(toks[1], no, "K", 1, max_k);
    }
    if lines.len() > t + 1 {
        fail(t + 2, &format!("extra data after the {} cases announced by T", t));
    }
}
