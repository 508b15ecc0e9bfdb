// Generator for hdu-2516 (Fibonacci Nim).
// Usage: gen MODE SEED [SIZE]
//   random SEED    200..2000 cases, about half Fibonacci numbers (losing for the first player)
//   losing SEED    200..2000 cases, about 85% Fibonacci numbers (every one in range at least once)
//   boundary SEED  every Fibonacci number in range (twice), each neighbour F-1 and F+1 in range,
//                  and the bounds 2, 3, 4, 2^31-2, 2^31-1, shuffled
//   max SEED       100000 cases (the maximum), half of them large Fibonacci numbers, half large
//                  non-Fibonacci numbers (most with 10 digits)
//   traps SEED     the inputs found (by scanning) to break the wrong solutions, shuffled: the 7 values
//                  that an i32 Fibonacci table reaches by wrapping (512559680, ...), the 15 non-Fibonacci
//                  numbers a single-precision Binet test accepts (2178310, ...), every Fibonacci number
//                  >= 2178309 (which that test misses), 2 and 1836311903
//   small SEED [SIZE]  1..30 cases with 2 <= n <= max(SIZE, 2); SIZE in 1..=2000, default 2000
//                  (the brute force covers n <= 2000); about half Fibonacci numbers
// Randomness: splitmix64 seeded with the SEED argument (a u64), implemented below;
// output depends only on the arguments.
use std::io::Write;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

const MAXN: u64 = (1u64 << 31) - 1;

fn fibs_upto(limit: u64) -> Vec<u64> {
    // Fibonacci numbers 2, 3, 5, ... <= limit (the game needs n >= 2)
    let mut v = Vec::new();
    let (mut a, mut b) = (1u64, 2u64);
    while b <= limit {
        v.push(b);
        let c = a + b;
        a = b;
        b = c;
    }
    v
}

fn is_fib(fibs: &[u64], n: u64) -> bool {
    n == 1 || fibs.binary_search(&n).is_ok()
}

// a random non-Fibonacci n in [2, hi] (hi >= 4), drawn from a mixture of shapes
fn non_fib(r: &mut Rng, fibs: &[u64], hi: u64, large: bool) -> u64 {
    loop {
        let n = match r.below(if large { 2 } else { 4 }) {
            0 => r.range(2, hi),                       // uniform
            1 => {
                // next to a Fibonacci number
                let f = fibs[r.below(fibs.len() as u64) as usize];
                let d = r.range(1, 20);
                if r.below(2) == 0 { f.saturating_sub(d) } else { f + d }
            }
            _ => {
                // log-uniform
                let bits = r.range(2, 64 - hi.leading_zeros() as u64);
                r.range(1u64 << (bits - 1), (1u64 << bits) - 1)
            }
        };
        let n = if large && n < 1_000_000_000 && r.below(4) != 0 { r.range(1_000_000_000, hi) } else { n };
        if n >= 2 && n <= hi && !is_fib(fibs, n) {
            return n;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: gen MODE SEED [SIZE]");
        std::process::exit(2);
    }
    let mode = args[1].as_str();
    let seed: u64 = args[2].parse().expect("SEED must be an unsigned integer");
    let mut r = Rng(seed ^ 0x2516_0000_0000_0000);
    let fibs = fibs_upto(MAXN);
    let mut v: Vec<u64> = Vec::new();
    match mode {
        "random" => {
            let cnt = r.range(200, 2000);
            for _ in 0..cnt {
                if r.below(2) == 0 {
                    v.push(fibs[r.below(fibs.len() as u64) as usize]);
                } else {
                    v.push(non_fib(&mut r, &fibs, MAXN, false));
                }
            }
        }
        "losing" => {
            let cnt = r.range(200, 2000) as usize;
            v.extend_from_slice(&fibs);
            while v.len() < cnt {
                if r.below(100) < 85 {
                    v.push(fibs[r.below(fibs.len() as u64) as usize]);
                } else {
                    v.push(non_fib(&mut r, &fibs, MAXN, false));
                }
            }
            r.shuffle(&mut v);
        }
        "boundary" => {
            for &f in &fibs {
                v.push(f);
                v.push(f);
                for x in [f - 1, f + 1] {
                    if x >= 2 && x <= MAXN && !is_fib(&fibs, x) {
                        v.push(x);
                    }
                }
            }
            v.extend_from_slice(&[2, 3, 4, MAXN - 1, MAXN]);
            r.shuffle(&mut v);
        }
        "traps" => {
            // i32 wrapping: terms 47.. of 1, 2, 3, ... computed mod 2^32 that land in [2, 2^31)
            v.extend_from_slice(&[512559680, 1776683621, 368225352, 2144908973, 363076002, 1820529360, 764848393]);
            // accepted by round(powf(phi, k) / sqrtf(5)) == n with k = round(logf(n*sqrt5)/logf(phi))
            v.extend_from_slice(&[
                2178310, 3524579, 5702889, 9227468, 14930357, 24157826, 39088184, 63246012,
                102334200, 165580208, 267914400, 433494624, 701409024, 1134903680, 1836312704,
            ]);
            for &f in &fibs {
                if f >= 2178309 || f == 2 {
                    v.push(f);
                    v.push(f);
                }
            }
            r.shuffle(&mut v);
        }
        "max" => {
            let big: Vec<u64> = fibs.iter().copied().filter(|&f| f >= 100_000_000).collect();
            for _ in 0..100_000 {
                if r.below(2) == 0 {
                    if r.below(10) < 8 {
                        v.push(big[r.below(big.len() as u64) as usize]);
                    } else {
                        v.push(fibs[r.below(fibs.len() as u64) as usize]);
                    }
                } else {
                    v.push(non_fib(&mut r, &fibs, MAXN, true));
                }
            }
        }
        "small" => {
            let size: u64 = match args.get(3) {
                Some(s) => s.parse().expect("SIZE must be an unsigned integer"),
                None => 2000,
            };
            if size < 1 || size > 2000 {
                eprintln!("small: SIZE must be in [1, 2000]");
                std::process::exit(2);
            }
            let hi = size.max(2);
            let small_fibs = fibs_upto(hi);
            let cnt = r.range(1, 30.min(size));
            for _ in 0..cnt {
                if r.below(2) == 0 || hi < 4 {
                    v.push(small_fibs[r.below(small_fibs.len() as u64) as usize]);
                } else {
                    v.push(non_fib(&mut r, &small_fibs, hi, false));
                }
            }
        }
        _ => {
            eprintln!("unknown mode {}", mode);
            std::process::exit(2);
        }
    }
    let mut out = String::with_capacity(v.len() * 11 + 2);
    for x in &v {
        out.push_str(&x.to_string());
        out.push('\n');
    }
    out.push_str("0\n");
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
