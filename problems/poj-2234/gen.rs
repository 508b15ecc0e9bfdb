// Generator for poj-2234 (Matches Game): `gen MODE SEED [SIZE]`, one input file on stdout.
//
// Randomness: splitmix64 seeded with the SEED argument (state = seed; each call adds
// 0x9E3779B97F4A7C15 and mixes with the standard splitmix64 finaliser). No other source of
// randomness, so the output depends only on the arguments.
//
// Losing lines (xor of the piles = 0) are constructed on purpose: M-1 piles at random, the
// last pile is their xor (retried until it lies in the allowed range).
//
// Modes:
//   random SEED      100..400 lines, about half of them constructed losing, mixed value scales
//   losing SEED      300 lines, all losing
//   boundary SEED    bound extremes (M = 1/20, piles 1/10^7), all-ones lines (misere rule),
//                    losing lines next to copies with one pile changed by +-1
//   max SEED         10^4 lines (the bound), M = 20, large piles, half losing
//   small SEED [SIZE] SIZE in 1..5 (default 5): 1..40 lines, M <= SIZE, piles <= SIZE + 3
//                    (inside the brute force's M <= 5, pile <= 8), half losing

use std::fmt::Write;

const MAX_M: usize = 20;
const MAX_P: u64 = 10_000_000;
const MAX_LINES: usize = 10_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform-ish integer in [lo, hi] (inclusive).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

/// Piles drawn from [lo, hi]; if `losing`, the xor is made 0 (needs m >= 2).
/// Falls back to equal pairs if the construction keeps failing (does not happen in practice).
fn make_line(rng: &mut Rng, m: usize, lo: u64, hi: u64, losing: bool) -> Vec<u64> {
    if !losing {
        return (0..m).map(|_| rng.range(lo, hi)).collect();
    }
    assert!(m >= 2);
    for _ in 0..10_000 {
        let mut v: Vec<u64> = (0..m - 1).map(|_| rng.range(lo, hi)).collect();
        let x = v.iter().fold(0, |a, &p| a ^ p);
        if x >= 1 && x <= hi {
            let pos = rng.range(0, (m - 1) as u64) as usize;
            v.insert(pos, x);
            return v;
        }
    }
    // fallback: pairs of equal piles (m even) plus 1,2,3 if m is odd
    let mut v = Vec::new();
    if m % 2 == 1 {
        v.extend_from_slice(&[1, 2, 3]);
    }
    while v.len() < m {
        let p = rng.range(lo, hi);
        v.push(p);
        v.push(p);
    }
    v.truncate(m);
    v
}

/// A random value range: tiny, small, medium, large, near the maximum.
fn random_scale(rng: &mut Rng) -> (u64, u64) {
    match rng.range(0, 9) {
        0 => (1, 3),
        1 => (1, 20),
        2 | 3 => (1, 1000),
        4 => (MAX_P - 100, MAX_P),
        _ => (1, MAX_P),
    }
}

fn push_line(out: &mut String, v: &[u64]) {
    assert!(!v.is_empty() && v.len() <= MAX_M);
    write!(out, "{}", v.len()).unwrap();
    for p in v {
        assert!(*p >= 1 && *p <= MAX_P);
        write!(out, " {}", p).unwrap();
    }
    out.push('\n');
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: gen MODE SEED [SIZE]");
        std::process::exit(2);
    }
    let mode = args[0].as_str();
    let seed: u64 = args[1].parse().expect("SEED must be an unsigned integer");
    let mut rng = Rng(seed ^ 0x2234_0000_0000_0000);
    let mut lines: Vec<Vec<u64>> = Vec::new();
    match mode {
        "random" => {
            let count = rng.range(100, 400) as usize;
            for _ in 0..count {
                let (lo, hi) = random_scale(&mut rng);
                let losing = rng.chance(1, 2);
                let m = if losing { rng.range(2, MAX_M as u64) } else { rng.range(1, MAX_M as u64) } as usize;
                lines.push(make_line(&mut rng, m, lo, hi, losing));
            }
        }
        "losing" => {
            for _ in 0..300 {
                let (lo, hi) = random_scale(&mut rng);
                let m = rng.range(2, MAX_M as u64) as usize;
                lines.push(make_line(&mut rng, m, lo, hi, true));
            }
        }
        "boundary" => {
            // bound extremes
            lines.push(vec![1]);
            lines.push(vec![MAX_P]);
            lines.push(vec![1, 1]);
            lines.push(vec![MAX_P, MAX_P]);
            lines.push(vec![MAX_P, MAX_P - 1]);
            lines.push(vec![1; MAX_M]);
            lines.push(vec![1; MAX_M - 1]);
            lines.push(vec![MAX_P; MAX_M]);
            lines.push(vec![MAX_P; MAX_M - 1]);
            lines.push(vec![1, 2, 3]);
            lines.push(vec![1, 2, 4]);
            // all-ones lines of every count (normal play: odd count wins; misere: the opposite)
            for m in 1..=MAX_M {
                lines.push(vec![1; m]);
            }
            // highest bits: 2^k and 2^k - 1 next to each other
            let mut k = 1u64;
            while (k << 1) <= MAX_P {
                k <<= 1;
                lines.push(vec![k, k]);
                lines.push(vec![k, k - 1]);
                lines.push(vec![k - 1, k, 1]);
                if k >= 4 {
                    lines.push(vec![k - 1, 1, k - 2]);
                }
            }
            // losing lines and their neighbours with one pile changed by +1 or -1
            for _ in 0..60 {
                let (lo, hi) = random_scale(&mut rng);
                let m = rng.range(2, MAX_M as u64) as usize;
                let v = make_line(&mut rng, m, lo, hi, true);
                let i = rng.range(0, (m - 1) as u64) as usize;
                let mut up = v.clone();
                let mut down = v.clone();
                lines.push(v);
                if up[i] < MAX_P {
                    up[i] += 1;
                    lines.push(up);
                }
                if down[i] > 1 {
                    down[i] -= 1;
                    lines.push(down);
                }
            }
            // a seeded shuffle so that each seed gives a different order
            for i in (1..lines.len()).rev() {
                let j = rng.range(0, i as u64) as usize;
                lines.swap(i, j);
            }
        }
        "max" => {
            for _ in 0..MAX_LINES {
                let losing = rng.chance(1, 2);
                let lo = if rng.chance(1, 4) { MAX_P - 1000 } else { 1_000_000 };
                lines.push(make_line(&mut rng, MAX_M, lo, MAX_P, losing));
            }
        }
        "small" => {
            let size: u64 = match args.get(2) {
                Some(s) => s.parse().expect("SIZE must be an unsigned integer"),
                None => 5,
            };
            assert!((1..=5).contains(&size), "SIZE must be in 1..5");
            let count = rng.range(1, 40) as usize;
            for _ in 0..count {
                let losing = size >= 2 && rng.chance(1, 2);
                let m = if losing { rng.range(2, size) } else { rng.range(1, size) } as usize;
                lines.push(make_line(&mut rng, m, 1, size + 3, losing));
            }
        }
        other => {
            eprintln!("unknown mode {}", other);
            std::process::exit(2);
        }
    }
    assert!(!lines.is_empty() && lines.len() <= MAX_LINES);
    let mut out = String::new();
    for v in &lines {
        push_line(&mut out, v);
    }
    print!("{}", out);
}
