// Brute force for hdu-2516: exhaustive search over the real game.
// A position is (r, m): r stones remain, the mover may take 1..=m stones
// (m is capped at r, which changes nothing). The mover wins if he can take the
// last stone (t == r) or move to a position (r - t, min(2t, r - t)) that is lost
// for the opponent. The whole game starts at (n, n - 1) (first move may not take all).
// win[r][m] = win[r][m-1] || (move t = m wins): the moves allowed with bound m are
// those allowed with bound m-1 plus t = m, so the table is filled in O(N^2).
// Covers n <= 2000; exits with code 3 on anything larger.
use std::io::{self, Read, Write};

const LIMIT: usize = 2000;

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut ns: Vec<usize> = Vec::new();
    for tok in input.split_ascii_whitespace() {
        let n: u64 = tok.parse().unwrap();
        if n == 0 {
            break;
        }
        if n > LIMIT as u64 || n < 2 {
            eprintln!("brute: n = {} outside [2, {}]", n, LIMIT);
            std::process::exit(3);
        }
        ns.push(n as usize);
    }
    let top = ns.iter().copied().max().unwrap_or(2);
    // win[r] has entries for m = 0..=r; win[r][0] = false (no move possible, only for r=0 in play)
    let mut win: Vec<Vec<bool>> = Vec::with_capacity(top + 1);
    win.push(vec![false]); // r = 0: the previous mover took the last stone, mover has lost
    for r in 1..=top {
        let mut row = vec![false; r + 1];
        for m in 1..=r {
            let t = m;
            let by_t = if t == r {
                true
            } else {
                let rest = r - t;
                let cap = std::cmp::min(2 * t, rest);
                !win[rest][cap]
            };
            row[m] = row[m - 1] || by_t;
        }
        win.push(row);
    }
    let mut out = String::new();
    for &n in &ns {
        if win[n][n - 1] {
            out.push_str("First win\n");
        } else {
            out.push_str("Second win\n");
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
