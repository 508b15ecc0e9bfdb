// Brute force for poj-2505: exhaustive search over the real game, no formula.
// The number p starts at 1; a move multiplies p by 2..=9; whoever makes p >= n wins.
// win(p) = some m in 2..=9 has p*m >= n, or leads to q = p*m < n with win(q) false.
// Memoised on p in a BTreeMap. Only products of 2, 3, 5, 7 below n are ever reached
// (fewer than 5000 of them below 2^32), so this covers every legal n.
// u64 arithmetic: p < n < 2^32, so p * 9 < 2^36.
use std::collections::BTreeMap;
use std::io::{self, Read, Write};

fn win(p: u64, n: u64, memo: &mut BTreeMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&p) {
        return w;
    }
    let mut w = false;
    for m in 2..=9u64 {
        let q = p * m;
        if q >= n || !win(q, n, memo) {
            w = true;
            break;
        }
    }
    memo.insert(p, w);
    w
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = String::new();
    for tok in input.split_ascii_whitespace() {
        let n: u64 = tok.parse().unwrap();
        if n < 2 || n > 4_294_967_294 {
            eprintln!("brute: n = {} is outside [2, 4294967294]", n);
            std::process::exit(3);
        }
        let mut memo = BTreeMap::new();
        out.push_str(if win(1, n, &mut memo) { "Stan wins.\n" } else { "Ollie wins.\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
