// Brute force for poj-2234: exhaustive win/lose search over the real game.
// A position is the multiset of heap sizes (kept as a sorted vector). From a position a
// move picks one heap with h > 0 and leaves it with any size in [0, h-1]. The player
// with no move (all heaps empty) has lost, which is the same as "taking the last match
// wins". Results are memoised in a BTreeMap keyed by the sorted position.
// Covers M <= 5 and every pile <= 8; exits with code 3 on anything bigger.

use std::collections::BTreeMap;
use std::io::{Read, Write};

fn wins(pos: &Vec<u32>, memo: &mut BTreeMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(pos) {
        return w;
    }
    let mut result = false;
    'outer: for i in 0..pos.len() {
        for left in 0..pos[i] {
            let mut next = pos.clone();
            next[i] = left;
            next.sort();
            if !wins(&next, memo) {
                result = true;
                break 'outer;
            }
        }
    }
    memo.insert(pos.clone(), result);
    result
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut memo = BTreeMap::new();
    let mut out = String::new();
    for line in input.lines() {
        let v: Vec<u32> = line.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
        if v.is_empty() {
            continue;
        }
        let m = v[0] as usize;
        let mut pos: Vec<u32> = v[1..].to_vec();
        if m > 5 || pos.len() != m || pos.iter().any(|&p| p > 8) {
            eprintln!("brute: position outside M <= 5, pile <= 8");
            std::process::exit(3);
        }
        pos.sort();
        out.push_str(if wins(&pos, &mut memo) { "Yes\n" } else { "No\n" });
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
