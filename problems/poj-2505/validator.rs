// Validator for poj-2505 (a multiplication game).
//
// Input: 1 to MAX_LINES lines, each holding one integer n with MIN_N <= n <= MAX_N
// (default 2 <= n <= 4294967294, i.e. 1 < n < 4294967295), decimal without sign or
// leading zeros, every line ending in '\n'. No empty lines, spaces or '\r'.
//
// Options: --max-n N, --max-lines L (default 1000).
// Exit 0 if valid; otherwise exit 1 with one message "line N: ..." on stderr.
use std::io::{self, Read};
use std::process::exit;

fn fail(line: usize, msg: &str) -> ! {
    eprintln!("line {}: {}", line, msg);
    exit(1);
}

fn main() {
    let min_n: u64 = 2;
    let mut max_n: u64 = 4_294_967_294;
    let mut max_lines: usize = 1000;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = args.get(i + 1).unwrap_or_else(|| {
            eprintln!("validator: option {} needs a value", args[i]);
            exit(2)
        });
        match args[i].as_str() {
            "--max-n" => max_n = val.parse().expect("--max-n takes an integer"),
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
        fail(1, "input is empty, at least one line with n is required");
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
            fail(no, "empty line, expected one integer n");
        }
        if let Some(c) = line.iter().find(|c| !c.is_ascii_digit()) {
            fail(no, &format!("unexpected character {:?}, the line must be exactly one decimal integer", *c as char));
        }
        if line.len() > 1 && line[0] == b'0' {
            fail(no, &format!("n {:?} has a leading zero", String::from_utf8_lossy(line)));
        }
        let text = std::str::from_utf8(line).unwrap();
        let v: Option<u64> = if line.len() > 19 { None } else { text.parse().ok() };
        match v {
            Some(n) if n >= min_n && n <= max_n => {}
            _ => fail(no, &format!("n = {} must be in [{}, {}]", text, min_n, max_n)),
        }
    }
}
