//! Test generator for `play-nim`.
//!
//! Usage: `gen MODE SEED`. Prints ONE test: a line `T`, then T lines
//! `n a_1 ... a_n` (1 <= T <= 100, 1 <= n <= 10, 0 <= a_i <= 100, some
//! a_i > 0).
//!
//! Modes:
//!   random SEED   T in [1, 100]; about half the games are losing positions
//!                 for the first player (xor 0, built on purpose: the player
//!                 must choose `second`), empty piles now and then.
//!   losing SEED   every game a losing position for the first player.
//!   max SEED      T = 100, n = 10, piles in [90, 100] (long games).
//!   small SEED    T <= 5, n <= 3, piles <= 5.
//!
//! Deterministic: splitmix64 seeded with SEED.

use std::process::exit;

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

/// A game of `n` piles in [lo, hi]; `losing`: xor 0, made by setting the
/// last pile to the xor of the others (retried until it is at most 100; a one-pile game cannot be losing, so it gets a second pile).
fn game(rng: &mut Rng, n: usize, lo: u64, hi: u64, losing: bool) -> Vec<u64> {
    let n = if losing { n.max(2) } else { n };
    loop {
        let mut piles: Vec<u64> = (0..n).map(|_| rng.range(lo, hi)).collect();
        if losing {
            piles[n - 1] = piles[..n - 1].iter().fold(0, |a, &b| a ^ b);
        } else if piles.iter().fold(0, |a, &b| a ^ b) == 0 {
            // One stone more or less in the last pile: xor p ^ (p +- 1) != 0.
            let last = &mut piles[n - 1];
            *last = if *last < 100 { *last + 1 } else { *last - 1 };
        }
        let xor = piles.iter().fold(0, |a, &b| a ^ b);
        if piles.iter().all(|&p| p <= 100) && piles.iter().any(|&p| p > 0) && (xor == 0) == losing {
            return piles;
        }
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
    let mut games = Vec::new();
    match mode {
        "random" => {
            for _ in 0..rng.range(1, 100) {
                let n = rng.range(1, 10) as usize;
                let lo = if rng.range(0, 3) == 0 { 0 } else { 1 };
                let losing = rng.next() & 1 == 0;
                let hi = rng.range(1, 100);
                games.push(game(&mut rng, n, lo, hi, losing));
            }
        }
        "losing" => {
            for _ in 0..rng.range(20, 100) {
                let n = rng.range(2, 10) as usize;
                let hi = rng.range(1, 100);
                games.push(game(&mut rng, n, 0, hi, true));
            }
        }
        "max" => {
            for i in 0..100 {
                games.push(game(&mut rng, 10, 90, 100, i % 2 == 0));
            }
        }
        "small" => {
            for _ in 0..rng.range(1, 5) {
                let n = rng.range(1, 3) as usize;
                let losing = n > 1 && rng.next() & 1 == 0;
                games.push(game(&mut rng, n, 0, 5, losing));
            }
        }
        other => {
            eprintln!("unknown mode `{other}` (random, losing, max, small)");
            exit(2);
        }
    }
    let mut out = format!("{}\n", games.len());
    for g in &games {
        let piles: Vec<String> = g.iter().map(u64::to_string).collect();
        out.push_str(&format!("{} {}\n", g.len(), piles.join(" ")));
    }
    print!("{out}");
}
