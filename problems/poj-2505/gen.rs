// Generator for poj-2505 (a multiplication game). Writes one input file to stdout.
//
// Usage: gen MODE SEED [SIZE]
//   random SEED    300 lines; each picks a winning interval uniformly among all levels,
//                  then Stan's side (18^k, 9*18^k] or Ollie's side (9*18^k, 18^(k+1)]
//                  with probability 1/2, then a value inside (often next to an edge)
//   losing SEED    300 lines, all losing for the first player (Ollie wins)
//   boundary SEED  every interval edge e in {9*18^k, 18^(k+1)} up to the bound with e-2..e+2,
//                  plus 2, 3 and the largest values; order shuffled by SEED
//   overflow SEED  values where 32-bit products wrap (p*9 after p = 18^7): the ranges
//                  [1215012993, 2430025984] and [4116971521, 4294967294] and their edges,
//                  mixed half and half with Ollie positions
//   max SEED       1000 lines (the maximum), half Ollie, values mostly large
//   worst SEED     1000 lines within 2^20 of the largest n (all Stan): the most work for
//                  a search over reachable p memoised per n, which does ~1.8x more on
//                  these than on `max` (the number of reachable p grows with n)
//   small SEED [SIZE]  SIZE in 1..=8 (default 8): 30 lines, n <= min(20*18^(SIZE-1), 4294967294);
//                  the brute force covers every legal n, so every SIZE is within its bound
//
// Randomness: splitmix64 seeded with the SEED argument (parsed as u64); nothing else
// influences the output, so the same arguments give the same bytes.
use std::io::{self, Write};

const MAX_N: u64 = 4_294_967_294;
const MIN_N: u64 = 2;
const MAX_LINES: usize = 1000;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
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

/// The intervals (lo, hi] (inclusive bounds returned as [lo+1, hi]) clipped to [MIN_N, limit]
/// on which Stan wins (stan = true) or Ollie wins (stan = false).
fn intervals(stan: bool, limit: u64) -> Vec<(u64, u64)> {
    let mut v = Vec::new();
    let mut p: u64 = 1; // 18^k
    while p < limit {
        let (lo, hi) = if stan { (p + 1, 9 * p) } else { (9 * p + 1, 18 * p) };
        let lo = lo.max(MIN_N);
        let hi = hi.min(limit);
        if lo <= hi {
            v.push((lo, hi));
        }
        p *= 18;
    }
    v
}

/// A value where the given player wins, n <= limit; the level is chosen uniformly,
/// and one time in three the value is within 3 of an end of the interval.
fn value(rng: &mut Rng, stan: bool, limit: u64) -> u64 {
    let iv = intervals(stan, limit);
    let (lo, hi) = iv[rng.range(0, iv.len() as u64 - 1) as usize];
    match rng.range(0, 2) {
        0 => {
            if rng.coin() {
                rng.range(lo, (lo + 3).min(hi))
            } else {
                rng.range(hi.saturating_sub(3).max(lo), hi)
            }
        }
        _ => rng.range(lo, hi),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: gen random|losing|boundary|overflow|max|worst|small SEED [SIZE]");
        std::process::exit(2);
    }
    let mode = args[1].as_str();
    let seed: u64 = args[2].parse().expect("SEED must be an unsigned integer");
    let mut rng = Rng(seed);
    let mut ns: Vec<u64> = Vec::new();
    match mode {
        "random" => {
            for _ in 0..300 {
                let stan = rng.coin();
                ns.push(value(&mut rng, stan, MAX_N));
            }
        }
        "losing" => {
            for _ in 0..300 {
                ns.push(value(&mut rng, false, MAX_N));
            }
        }
        "boundary" => {
            let mut edges = vec![MIN_N, MIN_N + 1, MAX_N - 2, MAX_N - 1, MAX_N];
            let mut p: u64 = 1;
            while 9 * p <= MAX_N + 2 {
                for e in [9 * p, 18 * p] {
                    for d in 0..=4u64 {
                        let n = e + d;
                        if n >= 2 + MIN_N && n - 2 <= MAX_N {
                            edges.push(n - 2);
                        }
                    }
                }
                p *= 18;
            }
            edges.sort_unstable();
            edges.dedup();
            ns = edges;
            rng.shuffle(&mut ns);
        }
        "overflow" => {
            let fixed = [
                1215012992, 1215012993, 1215012994, 2430025983, 2430025984, 2430025985,
                4116971520, 4116971521, 4116971522, MAX_N - 1, MAX_N,
            ];
            ns.extend_from_slice(&fixed);
            for _ in 0..150 {
                ns.push(if rng.coin() { rng.range(1215012993, 2430025984) } else { rng.range(4116971521, MAX_N) });
                ns.push(value(&mut rng, false, MAX_N));
            }
            rng.shuffle(&mut ns);
        }
        "max" => {
            for _ in 0..MAX_LINES {
                let stan = rng.coin();
                // mostly the top levels, where values are large
                let n = if rng.range(0, 3) == 0 {
                    value(&mut rng, stan, MAX_N)
                } else if stan {
                    rng.range(612220033, MAX_N)
                } else {
                    rng.range(306110017, 612220032)
                };
                ns.push(n);
            }
        }
        "worst" => {
            ns.push(MAX_N);
            while ns.len() < MAX_LINES {
                ns.push(rng.range(MAX_N - (1 << 20), MAX_N));
            }
        }
        "small" => {
            let size: u32 = match args.get(3) {
                Some(s) => s.parse().expect("SIZE must be an integer"),
                None => 8,
            };
            let size = size.clamp(1, 8);
            let limit = (20 * 18u64.pow(size - 1)).min(MAX_N);
            for _ in 0..30 {
                let n = match rng.range(0, 2) {
                    0 => rng.range(MIN_N, limit),
                    _ => {
                        let stan = rng.coin();
                        value(&mut rng, stan, limit)
                    }
                };
                ns.push(n);
            }
        }
        _ => {
            eprintln!("unknown mode {}", mode);
            std::process::exit(2);
        }
    }
    let mut out = String::new();
    for n in ns {
        out.push_str(&format!("{}\n", n));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
