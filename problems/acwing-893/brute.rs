// Brute force for acwing-893: exhaustive win/lose search over the real game.
// A position is the multiset of heap sizes (kept sorted). A move picks a heap h and a
// move size s in S with s <= h and replaces h by h - s. The player to move with no legal
// move loses. Results are memoised in a BTreeMap keyed by the sorted position.
// No Sprague-Grundy theory is used. Covers k <= 4, n <= 4, s_i <= 12, h_i <= 12;
// exits with code 3 outside these bounds.

use std::collections::BTreeMap;
use std::io::Read;

fn wins(pos: &Vec<u32>, moves: &[u32], memo: &mut BTreeMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(pos) {
        return w;
    }
    let mut result = false;
    'outer: for i in 0..pos.len() {
        for &m in moves {
            if m <= pos[i] {
                let mut next = pos.clone();
                next[i] -= m;
                next.sort();
                if !wins(&next, moves, memo) {
                    result = true;
                    break 'outer;
                }
            }
        }
    }
    memo.insert(pos.clone(), result);
    result
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let v: Vec<u32> = input.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let k = v[0] as usize;
    let moves = v[1..1 + k].to_vec();
    let n = v[1 + k] as usize;
    let mut heaps = v[2 + k..2 + k + n].to_vec();
    if k > 4 || n > 4 || moves.iter().any(|&m| m > 12) || heaps.iter().any(|&h| h > 12) {
        eprintln!("brute: input outside k <= 4, n <= 4, s <= 12, h <= 12");
        std::process::exit(3);
    }
    heaps.sort();
    let mut memo = BTreeMap::new();
    println!("{}", if wins(&heaps, &moves, &mut memo) { "Yes" } else { "No" });
}
