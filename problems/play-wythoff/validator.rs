//! Input validator for `play-wythoff`.
//!
//! Usage: `validator < input`. Exit 0: valid. Exit 1: invalid, with ONE
//! message on stderr naming the line.
//!
//! The exact format: line 1 `T` (1 <= T <= 100); then T lines `a b` with
//! 0 <= a, b <= 10^9, not both 0; single spaces, every line ends with
//! '\n', nothing else follows; plain decimal numbers (no sign, no leading
//! zeros).

use std::io::Read;
use std::process::exit;

fn reject(line: usize, message: &str) -> ! {
    eprintln!("line {line}: {message}");
    exit(1);
}

fn number(line: usize, word: &str, lo: u64, hi: u64, what: &str) -> u64 {
    let plain = !word.is_empty()
        && word.len() <= 10
        && word.bytes().all(|b| b.is_ascii_digit())
        && (word == "0" || !word.starts_with('0'));
    if !plain {
        reject(line, &format!("{what} `{word}` is not a plain decimal number"));
    }
    let v: u64 = word.parse().expect("digits");
    if v < lo || v > hi {
        reject(line, &format!("{what} is {v}, must be in [{lo}, {hi}]"));
    }
    v
}

fn main() {
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        reject(1, "cannot read the input");
    }
    let Ok(text) = String::from_utf8(input) else {
        reject(1, "the input is not text");
    };
    if !text.ends_with('\n') {
        reject(text.lines().count().max(1), "the last line does not end with a newline");
    }
    let lines: Vec<&str> = text[..text.len() - 1].split('\n').collect();
    let t = number(1, lines[0], 1, 100, "T") as usize;
    if lines.len() != t + 1 {
        reject(lines.len().min(t + 1) + 1, &format!("expected {t} games after T, found {}", lines.len() - 1));
    }
    for (index, line) in lines[1..].iter().enumerate() {
        let at = index + 2;
        let words: Vec<&str> = line.split(' ').collect();
        if words.len() != 2 {
            reject(at, &format!("expected two piles `a b`, found {} words", words.len()));
        }
        let a = number(at, words[0], 0, 1_000_000_000, "pile a");
        let b = number(at, words[1], 0, 1_000_000_000, "pile b");
        if a == 0 && b == 0 {
            reject(at, "both piles are empty: there is no game");
        }
    }
}
