//! Reference player of `play-wythoff`: move first exactly when the
//! position is not a losing pair (floor(j phi), floor(j phi) + j), and
//! always move to one; everything in exact integer arithmetic.

use std::io::{BufRead, Write};

/// floor(j * phi), exactly: (j + isqrt(5 j^2)) / 2.
fn lower(j: u64) -> u64 {
    let j = u128::from(j);
    ((j + (5 * j * j).isqrt()) / 2) as u64
}

/// Whether (x, y) is a losing position for the player to move.
fn losing(a: u64, b: u64) -> bool {
    let (x, y) = (a.min(b), a.max(b));
    lower(y - x) == x
}

/// The j whose pair holds `v` (v > 0) as its lower or upper member.
fn pair_of(v: u64) -> (u64, bool) {
    let guess = |r: f64| (v as f64 * r) as u64;
    for (center, upper) in [(guess(0.618_033_988_75), false), (guess(0.381_966_011_25), true)] {
        for j in center.saturating_sub(3)..=center + 3 {
            let a = lower(j);
            if !upper && j > 0 && a == v {
                return (j, false);
            }
            if upper && a + j == v {
                return (j, true);
            }
        }
    }
    unreachable!("every positive integer is in exactly one pair (Beatty)");
}

/// A move to a losing position from a winning one: (kind, k).
fn winning_move(a: u64, b: u64) -> (u8, u64) {
    let (x, y, big) = if a <= b { (a, b, 2) } else { (b, a, 1) };
    if x == 0 {
        return (big, y);
    }
    let ak = lower(y - x);
    if x > ak {
        return (3, x - ak);
    }
    let (j, upper) = pair_of(x);
    let target = if upper { lower(j) } else { x + j };
    // x = b_j: y down to a_j; x = a_j: j < k (as x < a_k), so b_j < y.
    (big, y - target)
}

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.expect("a line"));
    let mut out = std::io::stdout().lock();
    let games: usize = lines.next().expect("T").trim().parse().expect("T");
    for _ in 0..games {
        let line = lines.next().expect("a game");
        let mut words = line.split_whitespace().map(|w| w.parse::<u64>().expect("a number"));
        let (mut a, mut b) = (words.next().unwrap(), words.next().unwrap());
        let mut mine = !losing(a, b);
        writeln!(out, "{}", if mine { "first" } else { "second" }).unwrap();
        out.flush().unwrap();
        while a > 0 || b > 0 {
            let (t, k) = if mine {
                let (t, k) = winning_move(a, b);
                writeln!(out, "{t} {k}").unwrap();
                out.flush().unwrap();
                (t, k)
            } else {
                let line = lines.next().expect("a move");
                let mut w = line.split_whitespace().map(|w| w.parse::<u64>().unwrap());
                (w.next().unwrap() as u8, w.next().unwrap())
            };
            if t != 2 {
                a -= k;
            }
            if t != 1 {
                b -= k;
            }
            mine = !mine;
        }
    }
}
