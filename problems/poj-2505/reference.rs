// Reference solution for poj-2505 (a multiplication game).
//
// Stan (first player) wins exactly when n lies in an interval (18^k, 9 * 18^k] for some
// k >= 0, and Ollie wins when n lies in (9 * 18^k, 18^(k+1)]. Reason: from p, the
// mover wins at once if 9p >= n; for n in (9, 18] every move gives p in [2, 9] and the
// opponent then reaches 18 >= n; dividing n by 18 (rounding up) maps the game one level
// down, since a "9 then 2" or "2 then 9" round multiplies p by exactly 18.
// (Checked against brute.rs, an exhaustive search over the real game, for every n.)
//
// Exact u64 arithmetic: p * 18 reaches 18^8 > 2^32, which is why 32-bit types fail.
use std::io::{self, Read, Write};

fn stan_wins(n: u64) -> bool {
    let mut p: u64 = 1; // 18^k
    loop {
        if n <= 9 * p {
            return true;
        }
        if n <= 18 * p {
            return false;
        }
        p *= 18;
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = String::new();
    for tok in input.split_ascii_whitespace() {
        let n: u64 = tok.parse().unwrap();
        out.push_str(if stan_wins(n) { "Stan wins.\n" } else { "Ollie wins.\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
