// Brute force for hdu-1527 (Wythoff's game): exhaustive win/lose table over the real
// game rules, no formula. From (a, b) a move removes i >= 1 tokens from one pile, or
// the same i >= 1 from both piles; the player who cannot move loses.
// win[a][b] = some move leads to a losing position. Filled in increasing a, then b,
// so every successor is already known. Covers every value <= 300 (exits 3 otherwise).
use std::io::{self, Read, Write};

const LIMIT: usize = 300;

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let nums: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap())
        .collect();
    let m = nums.iter().copied().max().unwrap_or(0);
    if m > LIMIT {
        eprintln!("brute: value {} is above the covered bound {}", m, LIMIT);
        std::process::exit(3);
    }
    let w = m + 1;
    let mut win = vec![false; w * w];
    for a in 0..w {
        for b in 0..w {
            let mut can_win = false;
            for i in 1..=a {
                if !win[(a - i) * w + b] {
                    can_win = true;
                    break;
                }
            }
            if !can_win {
                for j in 1..=b {
                    if !win[a * w + (b - j)] {
                        can_win = true;
                        break;
                    }
                }
            }
            if !can_win {
                for i in 1..=a.min(b) {
                    if !win[(a - i) * w + (b - i)] {
                        can_win = true;
                        break;
                    }
                }
            }
            win[a * w + b] = can_win;
        }
    }
    let mut out = String::new();
    for pair in nums.chunks(2) {
        if pair.len() == 2 {
            out.push_str(if win[pair[0] * w + pair[1]] { "1\n" } else { "0\n" });
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
