// Generator for poj-2484 (A Funny Game).
// Alice (first player) wins only for n = 1 and n = 2; every n >= 3 is a losing position for
// her (Bob wins). So the modes build the answer mix on purpose by drawing n from {1, 2}.
// Usage: gen MODE SEED [SIZE]
//   random SEED    200..2000 cases: half drawn from {1, 2} (Alice), half n >= 3 (Bob)
//   losing SEED    200..2000 cases: about 70% n >= 3 (the first player loses), 30% from {1, 2}
//   boundary SEED  1, 2 (three times each), 3, 4, 5, 6, 999998, 999999, 1000000, shuffled
//   max SEED       100000 cases (the maximum): half from {1, 2}, half large n (mostly 6 or 7
//                  digits, 1000000 included)
//   small SEED [SIZE]  1..30 cases with 1 <= n <= SIZE; SIZE in 1..=40, default 40
//                  (the brute force covers n <= 40); about 40% of them from {1, 2}
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

const MAXN: u64 = 1_000_000;

// n >= 3 (Bob wins), from a mixture of shapes
fn bob_case(r: &mut Rng, large: bool) -> u64 {
    match r.below(if large { 3 } else { 5 }) {
        0 => r.range(MAXN - 20, MAXN),
        1 | 2 => r.range(100_000, MAXN),
        3 => r.range(3, 10),
        _ => {
            let bits = r.range(2, 20); // log-uniform up to 2^20 > 10^6
            r.range(1u64 << (bits - 1), (1u64 << bits) - 1).clamp(3, MAXN)
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
    let mut r = Rng(seed ^ 0x2484_0000_0000_0000);
    let mut v: Vec<u64> = Vec::new();
    match mode {
        "random" => {
            let cnt = r.range(200, 2000);
            for _ in 0..cnt {
                if r.below(2) == 0 {
                    v.push(r.range(1, 2));
                } else {
                    v.push(bob_case(&mut r, false));
                }
            }
        }
        "losing" => {
            let cnt = r.range(200, 2000);
            for _ in 0..cnt {
                if r.below(10) < 7 {
                    v.push(bob_case(&mut r, false));
                } else {
                    v.push(r.range(1, 2));
                }
            }
        }
        "boundary" => {
            v.extend_from_slice(&[1, 1, 1, 2, 2, 2, 3, 4, 5, 6, MAXN - 2, MAXN - 1, MAXN]);
            r.shuffle(&mut v);
        }
        "max" => {
            v.push(MAXN);
            while v.len() < 100_000 {
                if r.below(2) == 0 {
                    v.push(r.range(1, 2));
                } else {
                    v.push(bob_case(&mut r, true));
                }
            }
            r.shuffle(&mut v);
        }
        "small" => {
            let size: u64 = match args.get(3) {
                Some(s) => s.parse().expect("SIZE must be an unsigned integer"),
                None => 40,
            };
            if size < 1 || size > 40 {
                eprintln!("small: SIZE must be in [1, 40]");
                std::process::exit(2);
            }
            let cnt = r.range(1, 30);
            for _ in 0..cnt {
                if r.below(10) < 4 {
                    v.push(r.range(1, size.min(2)));
                } else {
                    v.push(r.range(1, size));
                }
            }
        }
        _ => {
            eprintln!("unknown mode {}", mode);
            std::process::exit(2);
        }
    }
    let mut out = String::with_capacity(v.len() * 8 + 2);
    for x in &v {
        out.push_str(&x.to_string());
        out.push('\n');
    }
    out.push_str("0\n");
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
