// Reference solution for poj-2484 (A Funny Game).
// With n <= 2 Alice takes every coin at once. With n >= 3 Bob wins: after Alice's first
// move the coins form one line, and Bob removes the middle coin (or middle two coins) so that
// two equal lines remain; from then on he copies each of Alice's moves in the other line.
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = String::new();
    for tok in input.split_ascii_whitespace() {
        let n: u64 = tok.parse().unwrap();
        if n == 0 {
            break;
        }
        out.push_str(if n <= 2 { "Alice\n" } else { "Bob\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
