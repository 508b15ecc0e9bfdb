//! Reference solution for `acwing-891` (Nim, one position).
//!
//! Bouton's theorem: the player to move wins exactly when the xor of all
//! pile sizes is nonzero. O(n) time, exact integer arithmetic.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("read stdin");
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let n = numbers.next().expect("n") as usize;
    let xor = numbers.take(n).fold(0u64, |acc, pile| acc ^ pile);
    println!("{}", if xor != 0 { "Yes" } else { "No" });
}
