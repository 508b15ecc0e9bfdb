//! Test generator for `play-wythoff`.
//!
//! Usage: `gen MODE SEED`. Prints ONE test: a line `T`, then T lines `a b`
//! (1 <= T <= 100, 0 <= a, b <= 10^9, not both 0).
//!
//! Modes:
//!   random SEED      T in [1, 100]; piles over several orders of magnitude;
//!                    about half the games are losing pairs (built exactly:
//!                    (floor(j phi), floor(j phi) + j), in either order), the
//!                    rest winning.
//!   losing SEED      every game a losing pair, j up to 3.8 * 10^8.
//!   precision SEED   the positions where floor(j phi) in double precision
//!                    is wrong (j a Fibonacci number or a sum of two, where
//!                    j phi is within 1e-8 of an integer): the losing pair
//!                    itself, and winning positions one move away from it
//!                    (both piles raised by d, or the larger one by d).
//!   small SEED       T <= 5, piles <= 10.
//!
//! Deterministic: splitmix64 seeded with SEED; the precision positions are
//! found by exact integer arithmetic.

use std::process::exit;

const MAX_PILE: u64 = 1_000_000_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

/// floor(j * phi), exactly.
fn lower(j: u64) -> u64 {
    let j = u128::from(j);
    ((j + (5 * j * j).isqrt()) / 2) as u64
}

/// The largest j whose losing pair fits under MAX_PILE.
fn max_j() -> u64 {
    let (mut lo, mut hi) = (1u64, MAX_PILE);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if lower(mid) + mid <= MAX_PILE {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The j where double precision gets floor(j phi) wrong.
fn float_traps() -> Vec<u64> {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut fib = vec![1u64, 2];
    while *fib.last().unwrap() < MAX_PILE {
        let n = fib[fib.len() - 1] + fib[fib.len() - 2];
        fib.push(n);
    }
    let mut candidates: Vec<u64> = fib.clone();
    for i in 0..fib.len() {
        for j in 0..i {
            candidates.push(fib[i] + fib[j]);
        }
    }
    let top = max_j();
    let mut traps: Vec<u64> = candidates
        .into_iter()
        .filter(|&j| j <= top && ((j as f64) * phi).floor() as u64 != lower(j))
        .collect();
    traps.sort_unstable();
    traps.dedup();
    traps
}

fn pair(rng: &mut Rng, j: u64) -> (u64, u64) {
    let (a, b) = (lower(j), lower(j) + j);
    if rng.next() & 1 == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (mode, seed) = match args.as_slice() {
        [_, mode, seed] => (mode.as_str(), seed.parse::<u64>()),
        _ => {
            eprintln!("usage: gen MODE SEED");
            exit(2);
        }
    };
    let Ok(seed) = seed else {
        eprintln!("SEED must be an unsigned number");
        exit(2);
    };
    let mut rng = Rng(seed);
    let top = max_j();
    let mut games: Vec<(u64, u64)> = Vec::new();
    match mode {
        "random" => {
            for _ in 0..rng.range(1, 100) {
                let scale = [10, 1000, 1_000_000, top][rng.range(0, 3) as usize];
                if rng.next() & 1 == 0 {
                    let j = rng.range(0, scale.min(top));
                    if j == 0 {
                        games.push((0, rng.range(1, 10)));
                    } else {
                        games.push(pair(&mut rng, j));
                    }
                } else {
                    let hi = (scale * 2).min(MAX_PILE);
                    let (a, b) = (rng.range(0, hi), rng.range(1, hi));
                    let x = a.min(b);
                    if lower(a.max(b) - x) == x {
                        games.push((a, b + 1)); // was losing: one more stone makes it winning
                    } else {
                        games.push((a, b));
                    }
                }
            }
        }
        "losing" => {
            for _ in 0..rng.range(20, 100) {
                let j = rng.range(1, top);
                games.push(pair(&mut rng, j));
            }
        }
        "precision" => {
            for j in float_traps() {
                let (a, b) = (lower(j), lower(j) + j);
                games.push(pair(&mut rng, j));
                let d = rng.range(1, 1000);
                games.push((a + d, b + d));
                if b + d <= MAX_PILE {
                    games.push((a, b + d));
                }
            }
            games.truncate(100);
        }
        "small" => {
            for _ in 0..rng.range(1, 5) {
                let (a, b) = (rng.range(0, 10), rng.range(1, 10));
                games.push((a, b));
            }
        }
        other => {
            eprintln!("unknown mode `{other}` (random, losing, precision, small)");
            exit(2);
        }
    }
    let mut out = format!("{}\n", games.len());
    for (a, b) in &games {
        out.push_str(&format!("{a} {b}\n"));
    }
    print!("{out}");
}
