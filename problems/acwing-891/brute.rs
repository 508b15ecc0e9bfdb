//! Brute force for `acwing-891`: exhaustive search over the real Nim rules.
//!
//! A position is a multiset of piles; a move takes one or more stones from one
//! pile. The player who cannot move (all piles empty) loses. A position is
//! winning when some move leads to a losing position. Positions are memoised
//! in sorted form. No xor rule is used anywhere.
//!
//! Covers n <= 6 and piles <= 15 (exit code 3 for anything larger).

use std::collections::HashMap;
use std::io::Read;
use std::process::exit;

const MAX_N: usize = 6;
const MAX_PILE: u64 = 15;

fn wins(piles: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&known) = memo.get(piles) {
        return known;
    }
    let mut result = false;
    'search: for i in 0..piles.len() {
        for smaller in 0..piles[i] {
            let mut next = piles.to_vec();
            next[i] = smaller;
            next.sort_unstable();
            if !wins(&next, memo) {
                result = true;
                break 'search;
            }
        }
    }
    memo.insert(piles.to_vec(), result);
    result
}

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("read stdin");
    let numbers: Vec<u64> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().expect("a number"))
        .collect();
    let n = numbers[0] as usize;
    let mut piles = numbers[1..=n].to_vec();
    if n > MAX_N || piles.iter().any(|&p| p > MAX_PILE) {
        eprintln!("brute: outside the covered bounds (n <= {MAX_N}, piles <= {MAX_PILE})");
        exit(3);
    }
    piles.sort_unstable();
    let mut memo = HashMap::new();
    println!("{}", if wins(&piles, &mut memo) { "Yes" } else { "No" });
}
