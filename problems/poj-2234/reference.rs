// Reference solution for poj-2234 (Matches Game, normal-play Nim).
// Sprague-Grundy: the first player wins iff the xor of all heap sizes is non-zero.
// Each input line is one position `M p1 .. pM`; lines are processed until end of file.

use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut out = String::new();
    for line in input.lines() {
        let mut toks = line.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
        let m = match toks.next() {
            Some(m) => m as usize,
            None => continue,
        };
        let x = toks.take(m).fold(0u64, |acc, p| acc ^ p);
        out.push_str(if x != 0 { "Yes\n" } else { "No\n" });
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
