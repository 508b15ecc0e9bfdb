// Generator for hdu-1846 (Brave Game). Writes one input file to stdout.
//
// Usage: gen MODE SEED [SIZE]
//   random SEED       20..100 cases, about half of them lost for the first player
//                     (n a multiple of m + 1, constructed), the rest won
//   losing SEED       50..100 cases, all with n a multiple of m + 1
//   boundary SEED     100 cases around the edges of the rule and the bounds:
//                     n in {1, 2, m - 1, m, m + 1, m + 2, 2m + 1, 2m + 2, 2m + 3,
//                     the largest multiple of m + 1 and one more, 999, 1000} for
//                     m in {1, 2, 3, 4, 9, 26, 99, 332, 499, 500, 998, 999, 1000} plus four
//                     seed-dependent m; the seed picks up to 50 lost and fills with won ones
//   max SEED          100 cases with n in [900, 1000] and m up to 1000, half of them lost
//   small SEED [SIZE] n, m <= SIZE (default 1000, the brute force covers every valid
//                     input) and C <= min(100, SIZE); about half lost
//
// Randomness: splitmix64, seeded with SEED XOR an FNV-1a hash of MODE, so the
// output depends only on the arguments.
use std::fmt::Write;

const MAX_C: usize = 100;
const MAX_V: u64 = 1000;

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

/// A random value in [1, hi] on a random scale (tiny or full range).
fn scaled(rng: &mut SplitMix64, hi: u64) -> u64 {
    if rng.coin() {
        rng.range(1, hi.min(20))
    } else {
        rng.range(1, hi)
    }
}

/// A case lost for the first player (n a multiple of m + 1), n, m <= max_v (max_v >= 2).
fn losing_case(rng: &mut SplitMix64, min_n: u64, max_v: u64) -> (u64, u64) {
    if rng.coin() {
        // pick n, then a divisor d >= 2 of n, and m = d - 1
        let n = rng.range(min_n.max(2), max_v);
        let divisors: Vec<u64> = (2..=n).filter(|d| n % d == 0).collect();
        let d = divisors[rng.range(0, divisors.len() as u64 - 1) as usize];
        (n, d - 1)
    } else {
        // pick m, then a multiple of m + 1 in [min_n, max_v] (retry m if there is none)
        loop {
            let m = scaled(rng, (max_v / 2).max(1));
            let top = max_v / (m + 1);
            let lo = min_n.div_ceil(m + 1).max(1);
            if lo <= top {
                return (rng.range(lo, top) * (m + 1), m);
            }
        }
    }
}

/// A case won by the first player (n not a multiple of m + 1), n, m <= max_v (max_v >= 1).
fn winning_case(rng: &mut SplitMix64, min_n: u64, max_v: u64) -> (u64, u64) {
    loop {
        let m = scaled(rng, max_v);
        let n = if rng.range(0, 3) == 0 {
            // n just below or above a multiple of m + 1
            let q = rng.range(0, max_v / (m + 1));
            let base = q * (m + 1);
            if rng.coin() { base + 1 } else { base.saturating_sub(1) }
        } else {
            rng.range(min_n, max_v)
        };
        if n >= min_n.max(1) && n <= max_v && n % (m + 1) != 0 {
            return (n, m);
        }
    }
}

fn render(cases: &[(u64, u64)]) -> String {
    assert!(!cases.is_empty() && cases.len() <= MAX_C);
    let mut s = String::new();
    writeln!(s, "{}", cases.len()).unwrap();
    for &(n, m) in cases {
        assert!((1..=MAX_V).contains(&n) && (1..=MAX_V).contains(&m));
        writeln!(s, "{} {}", n, m).unwrap();
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
    if args.len() > 2 && mode != "small" {
        usage();
    }
    let mut rng = SplitMix64(seed ^ fnv1a(mode));
    let mut cases: Vec<(u64, u64)> = Vec::new();
    match mode {
        "random" => {
            let c = rng.range(20, MAX_C as u64);
            for _ in 0..c {
                let case = if rng.coin() { losing_case(&mut rng, 1, MAX_V) } else { winning_case(&mut rng, 1, MAX_V) };
                cases.push(case);
            }
        }
        "losing" => {
            let c = rng.range(50, MAX_C as u64);
            for _ in 0..c {
                cases.push(losing_case(&mut rng, 1, MAX_V));
            }
        }
        "boundary" => {
            // m + 1 dividing 1000 or 999 puts a lost position at the top of the range
            let mut ms: Vec<u64> = vec![1, 2, 3, 4, 9, 26, 99, 332, 499, 500, 998, 999, 1000];
            for _ in 0..4 {
                ms.push(rng.range(5, 498));
            }
            let mut pool: Vec<(u64, u64)> = Vec::new();
            for &m in &ms {
                let top = MAX_V / (m + 1) * (m + 1);
                for n in [1, 2, m.saturating_sub(1), m, m + 1, m + 2, 2 * m + 1, 2 * m + 2, 2 * m + 3, top, top + 1, 999, 1000] {
                    if (1..=MAX_V).contains(&n) && !pool.contains(&(n, m)) {
                        pool.push((n, m));
                    }
                }
            }
            rng.shuffle(&mut pool);
            // at most half of the cases lost for the first player, the rest won
            let (lost, won): (Vec<(u64, u64)>, Vec<(u64, u64)>) = pool.into_iter().partition(|&(n, m)| n % (m + 1) == 0);
            cases = lost.into_iter().take(MAX_C / 2).collect();
            let room = MAX_C - cases.len();
            cases.extend(won.into_iter().take(room));
            rng.shuffle(&mut cases);
        }
        "max" => {
            for i in 0..MAX_C {
                let case = match i {
                    0 => (1000, 1000),
                    1 => (1000, 999),
                    _ if rng.coin() => losing_case(&mut rng, 900, MAX_V),
                    _ => winning_case(&mut rng, 900, MAX_V),
                };
                cases.push(case);
            }
        }
        "small" => {
            let size: u64 = match args.get(2) {
                Some(s) => s.parse().unwrap_or_else(|_| usage()),
                None => MAX_V,
            };
            let size = size.clamp(1, MAX_V);
            let c = rng.range(1, size.min(MAX_C as u64));
            for _ in 0..c {
                let case = if size >= 2 && rng.coin() {
                    losing_case(&mut rng, 1, size)
                } else {
                    winning_case(&mut rng, 1, size)
                };
                cases.push(case);
            }
        }
        _ => usage(),
    }
    print!("{}", render(&cases));
}
