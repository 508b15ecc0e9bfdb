// Generator for hdu-1527 (Wythoff's game). Writes one input file to stdout.
//
// Usage: gen MODE SEED [SIZE]
//   random SEED    2000 lines, about half losing positions (constructed), the rest
//                  winning positions of several kinds (near misses, a == b, zeros, uniform)
//   losing SEED    2000 lines, all losing positions (a_k, b_k) in either order
//   boundary SEED  corners of the bounds, the first and the largest losing pairs
//                  (b_k <= 10^9) and their neighbours, Fibonacci differences, and the
//                  pairs that break floating-point formulas; order shuffled by SEED
//   fp SEED        only the inputs that break floating-point formulas: the 14 double
//                  killers and float killers, as losing pairs and shifted winning pairs
//   max SEED       100000 lines (the maximum), half losing, values up to 10^9
//   small SEED [SIZE]  SIZE in 1..=30 (default 30): 3*SIZE+10 lines, values <= 10*SIZE
//                  (<= 300, the brute-force bound), about half losing
//
// Randomness: splitmix64 seeded with the SEED argument (parsed as u64); nothing else
// (no time, no hashing) influences the output, so the same arguments give the same bytes.
//
// Losing pairs: a_k = floor(k * phi) = (k + isqrt(5 k^2)) / 2 (exact integers), b_k = a_k + k.
use std::io::{self, Write};

const MAX_VALUE: u64 = 1_000_000_000;
const MAX_LINES: usize = 100_000;

// Differences k (with b_k <= 10^9) where the double formula
// (int)(k * (1 + sqrt(5)) / 2) is one too high, found by scanning every k up to 4e8
// against the exact value. There are exactly these 14 within the bounds.
const DOUBLE_KILLERS: [u64; 14] = [
    102334155, 141422324, 180510493, 204668310, 219598662, 243756479, 267914296,
    282844648, 307002465, 321932817, 336863169, 346090634, 361020986, 370248451,
];
// The smallest differences where the single-precision formula (float phi) is one too
// high (found by the same scan); it is wrong for about 93% of all k <= 3.8e8 as well.
const FLOAT_KILLERS: [u64; 12] = [
    2584, 5168, 6765, 7752, 9349, 10336, 11323, 11933, 12920, 13530, 14517, 15504,
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    /// uniform in [lo, hi]
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i as u64) as usize;
            v.swap(i, j);
        }
    }
}

fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let bits = 128 - n.leading_zeros();
    let mut x: u128 = 1u128 << ((bits + 1) / 2);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            return x;
        }
        x = y;
    }
}

fn wythoff_a(k: u64) -> u64 {
    let k = k as u128;
    ((k + isqrt(5 * k * k)) / 2) as u64
}

/// The losing pair with difference k.
fn pair(k: u64) -> (u64, u64) {
    let a = wythoff_a(k);
    (a, a + k)
}

/// Largest k whose losing pair has b_k <= limit.
fn max_k(limit: u64) -> u64 {
    let (mut lo, mut hi) = (0u64, limit);
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        if pair(mid).1 <= limit {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// k drawn half uniformly, half log-uniformly (so small and large differences both occur).
fn random_k(rng: &mut Rng, kmax: u64) -> u64 {
    if rng.coin() {
        rng.range(0, kmax)
    } else {
        let bits = 64 - kmax.leading_zeros() as u64;
        let b = rng.range(0, bits);
        let hi = if b >= 63 { kmax } else { ((1u64 << b) - 1).min(kmax) };
        rng.range(0, hi)
    }
}

fn oriented(rng: &mut Rng, (a, b): (u64, u64)) -> (u64, u64) {
    if rng.coin() {
        (b, a)
    } else {
        (a, b)
    }
}

/// A losing pair in random orientation, values <= limit.
fn losing(rng: &mut Rng, limit: u64) -> (u64, u64) {
    let k = random_k(rng, max_k(limit));
    let p = pair(k);
    oriented(rng, p)
}

/// A winning position (or, for the uniform kind, almost surely winning), values <= limit.
fn winning(rng: &mut Rng, limit: u64) -> (u64, u64) {
    let kmax = max_k(limit);
    let p = match rng.range(0, 6) {
        // near misses: a losing pair with one or both values moved
        0 | 1 | 2 => {
            let k = random_k(rng, kmax);
            let (a, b) = pair(k);
            let d = rng.range(1, 3);
            let cand = match rng.range(0, 4) {
                0 => (a + d, b),
                1 => (a.saturating_sub(d), b),
                2 => (a, b + d),
                3 => (a, b.saturating_sub(d)),
                _ => (a + d, b + d),
            };
            if cand.0.max(cand.1) > limit || cand == (a, b) {
                (a + 1, b.min(limit))
            } else {
                cand
            }
        }
        3 => {
            let v = rng.range(1, limit);
            (v, v)
        }
        4 => (0, rng.range(1, limit)),
        _ => (rng.range(0, limit), rng.range(0, limit)),
    };
    oriented(rng, p)
}

fn fp_lines(rng: &mut Rng) -> Vec<(u64, u64)> {
    let mut v = Vec::new();
    for &k in DOUBLE_KILLERS.iter().chain(FLOAT_KILLERS.iter()) {
        let (a, b) = pair(k);
        v.push(oriented(rng, (a, b))); // losing, the float formulas say winning
        v.push(oriented(rng, (a + 1, b + 1))); // winning, the float formulas say losing
    }
    v
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: gen random|losing|boundary|fp|max|small SEED [SIZE]");
        std::process::exit(2);
    }
    let mode = args[1].as_str();
    let seed: u64 = args[2].parse().expect("SEED must be an unsigned integer");
    let mut rng = Rng(seed);
    let mut lines: Vec<(u64, u64)> = Vec::new();
    match mode {
        "random" => {
            for _ in 0..2000 {
                let l = if rng.coin() { losing(&mut rng, MAX_VALUE) } else { winning(&mut rng, MAX_VALUE) };
                lines.push(l);
            }
        }
        "losing" => {
            for _ in 0..2000 {
                lines.push(losing(&mut rng, MAX_VALUE));
            }
        }
        "boundary" => {
            let m = MAX_VALUE;
            for &(a, b) in &[(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0), (1, 2), (2, 1), (2, 2),
                (0, m), (m, 0), (m, m), (m - 1, m), (m, m - 1), (1, m), (m, 1)] {
                lines.push((a, b));
            }
            let kmax = max_k(m);
            let mut ks: Vec<u64> = (0..=20).collect();
            ks.extend(kmax - 3..=kmax);
            // Fibonacci differences: k * phi is closest to an integer there
            let (mut f0, mut f1) = (1u64, 2u64);
            while f1 <= kmax {
                ks.push(f1);
                let f2 = f0 + f1;
                f0 = f1;
                f1 = f2;
            }
            for k in ks {
                let (a, b) = pair(k);
                lines.push((a, b));
                lines.push((b, a));
                if a + 1 <= m && b + 1 <= m {
                    lines.push(oriented(&mut rng, (a + 1, b + 1)));
                }
                if a >= 1 {
                    lines.push(oriented(&mut rng, (a - 1, b)));
                }
                if b + 1 <= m {
                    lines.push(oriented(&mut rng, (a, b + 1)));
                }
            }
            lines.extend(fp_lines(&mut rng));
            rng.shuffle(&mut lines);
        }
        "fp" => {
            lines = fp_lines(&mut rng);
            rng.shuffle(&mut lines);
        }
        "max" => {
            for _ in 0..MAX_LINES {
                let l = if rng.coin() {
                    // large differences mostly: a max test should have big numbers
                    let kmax = max_k(MAX_VALUE);
                    let k = rng.range(kmax / 2, kmax);
                    let p = pair(k);
                    oriented(&mut rng, p)
                } else {
                    winning(&mut rng, MAX_VALUE)
                };
                lines.push(l);
            }
        }
        "small" => {
            let size: u64 = match args.get(3) {
                Some(s) => s.parse().expect("SIZE must be an integer"),
                None => 30,
            };
            let size = size.clamp(1, 30);
            let limit = 10 * size;
            for _ in 0..(3 * size + 10) {
                let l = if rng.coin() { losing(&mut rng, limit) } else { winning(&mut rng, limit) };
                lines.push(l);
            }
        }
        _ => {
            eprintln!("unknown mode {}", mode);
            std::process::exit(2);
        }
    }
    let mut out = String::new();
    for (a, b) in lines {
        out.push_str(&format!("{} {}\n", a, b));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
