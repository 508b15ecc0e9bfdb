//! Reference solution for `luogu-p2197` (Nim, T positions).
//!
//! Bouton's theorem: the player to move wins exactly when the xor of all pile
//! sizes is nonzero (empty piles contribute 0; all piles empty gives xor 0, a
//! loss for the player who cannot move). O(total n), exact integer arithmetic.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("read stdin");
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let t = numbers.next().expect("T");
    let mut out = String::new();
    for _ in 0..t {
        let n = numbers.next().expect("n") as usize;
        let xor = numbers.by_ref().take(n).fold(0u64, |acc, pile| acc ^ pile);
        out.push_str(if xor != 0 { "Yes\n" } else { "No\n" });
    }
    print!("{out}");
}
