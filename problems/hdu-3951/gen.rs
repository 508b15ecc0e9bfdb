// Generator for hdu-3951 (Coin Game). Writes one input file to stdout.
//
// Usage: gen MODE SEED [SIZE]
//   random SEED       20..100 cases, about half first-player wins and half
//                     second-player wins, both constructed on purpose
//   losing SEED       50..100 cases, all second-player wins (K = 1 with even N,
//                     2 <= K < N, often N = K + 1)
//   boundary SEED     100 cases: every K with N in {K-1, K, K+1, K+2, 3, 4, 10^9 - 1, 10^9}
//                     (where N >= 3) and K = 1 with N in 5..12, filled up with random
//                     N = K, N = K + 1 and K = 1 with N near 10^9; shuffled by the seed
//   max SEED          100 cases with N in [10^9 - 1000, 10^9] (half of them K = 1 with odd N)
//   small SEED [SIZE] cases inside the brute force's bounds: N <= min(SIZE, 40),
//                     T <= min(100, 3 * SIZE); SIZE defaults to 40
//
// Randomness: splitmix64, seeded with SEED XOR an FNV-1a hash of MODE, so the
// output depends only on the arguments.
use std::fmt::Write;

const MAX_T: usize = 100;
const MAX_N: u64 = 1_000_000_000;
const MAX_K: u64 = 10;
const BRUTE_MAX_N: u64 = 40;

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform-ish integer in [lo, hi] (inclusive).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo <= hi);
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

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A random N in [lo, hi] on a random scale (tiny, medium, huge, next to hi).
fn scaled(rng: &mut SplitMix64, lo: u64, hi: u64) -> u64 {
    let top = match rng.range(0, 3) {
        0 => 20,
        1 => 1_000_000,
        2 => hi,
        _ => return rng.range(hi.saturating_sub(50).max(lo), hi),
    };
    rng.range(lo, top.clamp(lo, hi))
}

/// A case the first player wins, with N <= max_n (max_n >= 3).
fn first_case(rng: &mut SplitMix64, max_n: u64) -> (u64, u64) {
    if rng.coin() {
        // K = 1 and N odd
        let n = scaled(rng, 3, max_n) | 1;
        let n = if n > max_n { n - 2 } else { n };
        (n, 1)
    } else {
        // K >= N (needs N <= 10)
        let n = rng.range(3, max_n.min(MAX_K));
        (n, rng.range(n, MAX_K))
    }
}

/// A case the second player wins, with N <= max_n (max_n >= 3).
fn second_case(rng: &mut SplitMix64, max_n: u64) -> (u64, u64) {
    if max_n >= 4 && rng.range(0, 9) < 3 {
        // K = 1 and N even
        let n = scaled(rng, 4, max_n) & !1;
        (n, 1)
    } else {
        // 2 <= K < N, often right at the boundary N = K + 1
        let k = rng.range(2, MAX_K.min(max_n - 1));
        let n = if rng.range(0, 3) == 0 { k + 1 } else { scaled(rng, k + 1, max_n) };
        (n, k)
    }
}

fn render(cases: &[(u64, u64)]) -> String {
    assert!(!cases.is_empty() && cases.len() <= MAX_T);
    let mut s = String::new();
    writeln!(s, "{}", cases.len()).unwrap();
    for &(n, k) in cases {
        assert!((3..=MAX_N).contains(&n) && (1..=MAX_K).contains(&k));
        writeln!(s, "{} {}", n, k).unwrap();
    }
    s
}

fn usage() -> ! {
    eprintln!("usage: gen random|losing|boundary|max SEED | gen small SEED [SIZE]");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        usage();
    }
    let mode = args[0].as_str();
    let seed: u64 = args[1].parse().unwrap_or_else(|_| usage());
    let mut rng = SplitMix64(seed ^ fnv1a(mode));
    let mut cases: Vec<(u64, u64)> = Vec::new();
    match mode {
        "random" => {
            let t = rng.range(20, MAX_T as u64);
            for _ in 0..t {
                let c = if rng.coin() { first_case(&mut rng, MAX_N) } else { second_case(&mut rng, MAX_N) };
                cases.push(c);
            }
        }
        "losing" => {
            let t = rng.range(50, MAX_T as u64);
            for _ in 0..t {
                cases.push(second_case(&mut rng, MAX_N));
            }
        }
        "boundary" => {
            let mut pool: Vec<(u64, u64)> = Vec::new();
            for k in 1..=MAX_K {
                for n in [k.saturating_sub(1), k, k + 1, k + 2, 3, 4, MAX_N - 1, MAX_N] {
                    if n >= 3 && !pool.contains(&(n, k)) {
                        pool.push((n, k));
                    }
                }
            }
            for n in 5..=12 {
                if !pool.contains(&(n, 1)) {
                    pool.push((n, 1));
                }
            }
            // fill up to MAX_T with seed-dependent cases right at a boundary
            while pool.len() < MAX_T {
                let c = match rng.range(0, 3) {
                    0 => {
                        let k = rng.range(3, MAX_K);
                        (k, k)
                    }
                    1 => {
                        let k = rng.range(2, MAX_K);
                        (k + 1, k)
                    }
                    2 => (MAX_N - 2 * rng.range(0, 1000), 1),
                    _ => (MAX_N - 1 - 2 * rng.range(0, 1000), 1),
                };
                pool.push(c);
            }
            rng.shuffle(&mut pool);
            pool.truncate(MAX_T);
            cases = pool;
        }
        "max" => {
            for i in 0..MAX_T {
                let n = if i == 0 { MAX_N } else { rng.range(MAX_N - 1000, MAX_N) };
                let c = match rng.range(0, 3) {
                    0 | 1 => ((n | 1).min(MAX_N - 1), 1),
                    2 => (n & !1, 1),
                    _ => (n, rng.range(2, MAX_K)),
                };
                cases.push(c);
            }
        }
        "small" => {
            let size: u64 = match args.get(2) {
                Some(s) => s.parse().unwrap_or_else(|_| usage()),
                None => BRUTE_MAX_N,
            };
            let size = size.max(1);
            let max_n = size.clamp(3, BRUTE_MAX_N);
            let t = rng.range(1, (3 * size).min(MAX_T as u64));
            for _ in 0..t {
                let c = if rng.coin() { first_case(&mut rng, max_n) } else { second_case(&mut rng, max_n) };
                cases.push(c);
            }
        }
        _ => usage(),
    }
    if args.len() > 2 && mode != "small" {
        usage();
    }
    print!("{}", render(&cases));
}
