// Reference solution for hdu-3951 (Coin Game).
// Rule: K = 1 -> the game is forced, the first player wins iff N is odd.
//       K >= N -> the first player takes every coin at once.
//       otherwise (2 <= K < N) the second player wins: after the first move the
//       coins form one line; the second player removes the middle 1 or 2 coins
//       so that two equal lines remain, then mirrors every move.
use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for case in 1..=t {
        let n = it.next().unwrap();
        let k = it.next().unwrap();
        let first = if k == 1 { n % 2 == 1 } else { k >= n };
        out.push_str(&format!("Case {}: {}\n", case, if first { "first" } else { "second" }));
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
