// Brute force for poj-2484: exhaustive search over the real game.
// The circle of n coins: the first move takes one coin (leaving a line of n - 1 coins) or,
// when n >= 2, two adjacent coins (leaving a line of n - 2). From then on a position is a
// multiset of lines (segments of adjacent coins), kept as a sorted vector of lengths.
// A move picks one segment of length L and removes one coin at position i (leaving segments
// i and L-1-i) or two adjacent coins at positions i, i+1 (leaving i and L-2-i); empty
// segments vanish. The player facing no coins has lost (the opponent took the last coin).
// Win/lose of every multiset is memoised. Covers n <= 40; exits with code 3 otherwise.
use std::collections::HashMap;
use std::io::{self, Read, Write};

const LIMIT: u64 = 40;

fn after(state: &[u8], idx: usize, a: usize, b: usize) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(state.len() + 1);
    for (j, &x) in state.iter().enumerate() {
        if j != idx {
            v.push(x);
        }
    }
    if a > 0 {
        v.push(a as u8);
    }
    if b > 0 {
        v.push(b as u8);
    }
    v.sort_unstable();
    v
}

fn wins(state: Vec<u8>, memo: &mut HashMap<Vec<u8>, bool>) -> bool {
    if state.is_empty() {
        return false;
    }
    if let Some(&w) = memo.get(&state) {
        return w;
    }
    let mut res = false;
    'outer: for idx in 0..state.len() {
        if idx > 0 && state[idx] == state[idx - 1] {
            continue; // same length as the previous segment: same moves
        }
        let l = state[idx] as usize;
        for i in 0..l {
            // remove coin i
            if !wins(after(&state, idx, i, l - 1 - i), memo) {
                res = true;
                break 'outer;
            }
            // remove coins i and i+1
            if i + 1 < l && !wins(after(&state, idx, i, l - 2 - i), memo) {
                res = true;
                break 'outer;
            }
        }
    }
    memo.insert(state, res);
    res
}

fn line(len: u64) -> Vec<u8> {
    if len == 0 { vec![] } else { vec![len as u8] }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut memo: HashMap<Vec<u8>, bool> = HashMap::new();
    let mut out = String::new();
    for tok in input.split_ascii_whitespace() {
        let n: u64 = tok.parse().unwrap();
        if n == 0 {
            break;
        }
        if n > LIMIT {
            eprintln!("brute: n = {} outside [1, {}]", n, LIMIT);
            std::process::exit(3);
        }
        // Alice's first move on the circle
        let mut alice = !wins(line(n - 1), &mut memo);
        if !alice && n >= 2 {
            alice = !wins(line(n - 2), &mut memo);
        }
        out.push_str(if alice { "Alice\n" } else { "Bob\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
