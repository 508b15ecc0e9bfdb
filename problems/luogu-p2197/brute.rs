//! Brute force for `luogu-p2197`: exhaustive search over the real Nim rules.
//!
//! A position is a multiset of piles (empty piles allowed); a move takes one or
//! more stones from one pile; the player who cannot move loses. A position is
//! winning when some move leads to a losing position. Positions are memoised in
//! sorted form, shared by all cases. No xor rule is used anywhere.
//!
//! Covers n <= 6 and piles <= 15 in every case (exit code 3 for anything larger).

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
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let t = numbers.next().expect("T");
    let mut memo = HashMap::new();
    let mut out = String::new();
    for _ in 0..t {
        let n = numbers.next().expect("n") as usize;
        let mut piles: Vec<u64> = numbers.by_ref().take(n).collect();
        if n > MAX_N || piles.iter().any(|&p| p > MAX_PILE) {
            eprintln!("brute: outside the covered bounds (n <= {MAX_N}, piles <= {MAX_PILE})");
            exit(3);
        }
        piles.sort_unstable();
        out.push_str(if wins(&piles, &mut memo) {
            "Yes\n"
        } else {
            "No\n"
        });
    }
    print!("{out}");
}
