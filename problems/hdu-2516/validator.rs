// Validator for hdu-2516.
// Input: one integer n per line, 2 <= n <= 2^31 - 1, at least 1 and at most 100000 such
// lines, then a line containing exactly `0`, and nothing after it. Every line ends with '\n'.
// Options: --max-n N (tighten the upper bound of n), --max-count C (tighten the number of cases).
// Exit 0 if valid; otherwise exit 1 with one message `line L: ...` on stderr.
use std::io::{self, Read};

fn fail(line: usize, msg: &str) -> ! {
    eprintln!("line {}: {}", line, msg);
    std::process::exit(1);
}

fn main() {
    let mut max_n: u64 = (1u64 << 31) - 1;
    let mut max_count: usize = 100_000;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = |j: usize| -> u64 {
            args.get(j)
                .and_then(|s| s.parse::<u64>().ok())
                .unwrap_or_else(|| {
                    eprintln!("validator: bad value for option {}", args[j - 1]);
                    std::process::exit(2)
                })
        };
        match args[i].as_str() {
            "--max-n" => max_n = max_n.min(val(i + 1)),
            "--max-count" => max_count = max_count.min(val(i + 1) as usize),
            other => {
                eprintln!("validator: unknown option {}", other);
                std::process::exit(2);
            }
        }
        i += 2;
    }

    let mut data = Vec::new();
    io::stdin().read_to_end(&mut data).unwrap();
    if data.is_empty() {
        fail(1, "empty input, expected at least one case and the terminating line `0`");
    }
    let ends_nl = *data.last().unwrap() == b'\n';
    let body = if ends_nl { &data[..data.len() - 1] } else { &data[..] };
    let lines: Vec<&[u8]> = body.split(|&c| c == b'\n').collect();
    let mut count = 0usize;
    for (idx, line) in lines.iter().enumerate() {
        let ln = idx + 1;
        let is_last = idx + 1 == lines.len();
        if line.is_empty() {
            fail(ln, "empty line, expected one integer");
        }
        if let Some(&c) = line.iter().find(|c| !c.is_ascii_digit()) {
            if c == b' ' || c == b'\t' {
                fail(ln, "whitespace inside the line, expected exactly one integer and nothing else");
            } else if c == b'\r' {
                fail(ln, "carriage return found, lines must end with '\\n' only");
            } else {
                fail(ln, &format!("unexpected character {:?}, expected only decimal digits", c as char));
            }
        }
        if line.len() > 1 && line[0] == b'0' {
            fail(ln, "leading zero");
        }
        if line.len() > 18 {
            fail(ln, &format!("n is too large, must be in [2, {}]", max_n));
        }
        let v: u64 = std::str::from_utf8(line).unwrap().parse().unwrap();
        if v == 0 {
            if count == 0 {
                fail(ln, "terminating `0` before any case, at least one case is required");
            }
            if !is_last {
                fail(ln + 1, "data after the terminating line `0`");
            }
            if !ends_nl {
                fail(ln, "the last line does not end with '\\n'");
            }
            return;
        }
        if v < 2 || v > max_n {
            fail(ln, &format!("n is {}, must be in [2, {}]", v, max_n));
        }
        count += 1;
        if count > max_count {
            fail(ln, &format!("more than {} cases", max_count));
        }
        if is_last {
            if !ends_nl {
                fail(ln, "the last line does not end with '\\n' (and the terminating `0` is missing)");
            }
            fail(ln + 1, "missing the terminating line `0`");
        }
    }
}
