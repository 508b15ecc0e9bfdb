//! Test generator for `acwing-891` (Nim: one position, answer `Yes` or `No`).
//!
//! Usage: `gen MODE SEED [SIZE]`. Prints ONE complete input file on stdout:
//! a line with `n`, then a line with the `n` pile sizes.
//!
//! The answer is `No` exactly when the xor of all piles is 0. Random positions
//! almost never have xor 0, so losing positions are BUILT: draw n-1 piles, then
//! set the last pile to the xor of the others (retrying when that value is out
//! of bounds), then shuffle.
//!
//! Modes (SEED is any unsigned 64-bit number):
//!   random SEED        one position; n and the pile range are spread over several
//!                      orders of magnitude (n <= 10^4, piles <= 10^9). A coin from
//!                      the PRNG decides losing (built) or winning.
//!   losing SEED        like `random`, but always a losing position (answer `No`).
//!   boundary SEED      piles taken from the edges of the bounds and of the binary
//!                      powers (1, 2, 3, 2^k - 1, 2^k, 2^k + 1, 999999999, 10^9) with
//!                      the xor forced to 0 (`No`) or to 1, the smallest nonzero xor (`Yes`).
//!                      n is 1 (always `Yes`), 2, 3 or 4..20.
//!   max SEED           n = 10^5 piles in [1, 10^9]. Odd seeds give a losing position,
//!                      even seeds a winning one (a quadratic search that stops at the
//!                      first winning move is slow on the losing ones).
//!   small SEED [SIZE]  inside the brute force's bounds (n <= 6, piles <= 15).
//!                      SIZE in 1..=6 (default 6): n <= SIZE, piles <= PILE_CAP[SIZE].
//!                      About half the positions are losing (when n >= 2).
//!
//! Determinism: every random choice comes from the splitmix64 generator below,
//! seeded with SEED. No clock, no addresses, no hash-map order: the same
//! arguments give the same bytes on every machine.

use std::io::Write;
use std::process::exit;

/// Bounds of the problem.
const MAX_N: usize = 100_000;
const MIN_PILE: u64 = 1;
const MAX_PILE: u64 = 1_000_000_000;

/// Largest pile for `small` mode, indexed by SIZE (index 0 unused).
const PILE_CAP: [u64; 7] = [0, 3, 5, 7, 9, 12, 15];

/// splitmix64 (Steele, Lea, Flood 2014): state += golden gamma, then mix.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough integer in [lo, hi] (modulo bias is below 2^-30 here).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// Fisher-Yates shuffle.
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i as u64) as usize;
            v.swap(i, j);
        }
    }
}

fn xor_all(piles: &[u64]) -> u64 {
    piles.iter().fold(0, |acc, &p| acc ^ p)
}

/// A position of `n` piles, each drawn by `draw`, whose xor is `target`:
/// n-1 piles are drawn, the last one is forced, and the whole is retried
/// until the forced pile lies in [lo, hi]. Needs n >= 2.
fn with_xor(
    rng: &mut Rng,
    n: usize,
    target: u64,
    lo: u64,
    hi: u64,
    draw: &dyn Fn(&mut Rng) -> u64,
) -> Vec<u64> {
    assert!(
        n >= 2,
        "a position with a forced xor needs at least two piles"
    );
    for _ in 0..100_000 {
        let mut piles: Vec<u64> = (0..n - 1).map(|_| draw(rng)).collect();
        let last = xor_all(&piles) ^ target;
        if (lo..=hi).contains(&last) {
            piles.push(last);
            rng.shuffle(&mut piles);
            return piles;
        }
    }
    panic!("could not build a position with xor {target} (n = {n}, piles in [{lo}, {hi}])");
}

/// A losing position (xor 0) with piles uniform in [lo, hi].
fn losing(rng: &mut Rng, n: usize, lo: u64, hi: u64) -> Vec<u64> {
    with_xor(rng, n, 0, lo, hi, &|r: &mut Rng| r.range(lo, hi))
}

/// A winning position (xor != 0) with piles uniform in [lo, hi]; redrawn while
/// the xor happens to be 0.
fn winning(rng: &mut Rng, n: usize, lo: u64, hi: u64) -> Vec<u64> {
    loop {
        let piles: Vec<u64> = (0..n).map(|_| rng.range(lo, hi)).collect();
        if xor_all(&piles) != 0 {
            return piles;
        }
    }
}

/// n from 1 to 10^4 and the largest pile from 10 to 10^9, both log-spread.
fn random_shape(rng: &mut Rng) -> (usize, u64) {
    let magnitude = rng.range(0, 4) as u32;
    let n = rng.range(1, 10u64.pow(magnitude)) as usize;
    let hi = 10u64.pow(rng.range(1, 9) as u32);
    (n, hi)
}

/// 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 (2 <= k <= 29), 999999999 and 10^9.
fn boundary_values() -> Vec<u64> {
    let mut values = vec![1, 2, 3];
    for k in 2..=29 {
        values.extend([(1u64 << k) - 1, 1u64 << k, (1u64 << k) + 1]);
    }
    values.extend([MAX_PILE - 1, MAX_PILE]);
    values.sort_unstable();
    values.dedup();
    values
}

fn generate(mode: &str, seed: u64, size: Option<u64>) -> Vec<u64> {
    let rng = &mut Rng(seed);
    match mode {
        "random" | "losing" => {
            let (n, hi) = random_shape(rng);
            if mode == "losing" || rng.coin() {
                losing(rng, n.max(2), MIN_PILE, hi)
            } else {
                winning(rng, n, MIN_PILE, hi)
            }
        }
        "boundary" => {
            let values = boundary_values();
            let pick = |r: &mut Rng| values[r.range(0, values.len() as u64 - 1) as usize];
            let n = match rng.range(0, 7) {
                0 => 1,
                1 | 2 => 2,
                3 | 4 => 3,
                _ => rng.range(4, 20) as usize,
            };
            if n == 1 {
                vec![pick(rng)]
            } else {
                let target = if rng.coin() { 0 } else { 1 };
                with_xor(rng, n, target, MIN_PILE, MAX_PILE, &pick)
            }
        }
        "max" => {
            if seed % 2 == 1 {
                losing(rng, MAX_N, MIN_PILE, MAX_PILE)
            } else {
                winning(rng, MAX_N, MIN_PILE, MAX_PILE)
            }
        }
        "small" => {
            let k = size.unwrap_or(6);
            if !(1..=6).contains(&k) {
                usage(&format!("small: SIZE must be in 1..=6, got {k}"));
            }
            let n = rng.range(1, k) as usize;
            let hi = PILE_CAP[k as usize];
            if n >= 2 && rng.coin() {
                losing(rng, n, MIN_PILE, hi)
            } else {
                winning(rng, n, MIN_PILE, hi)
            }
        }
        _ => usage(&format!("unknown mode `{mode}`")),
    }
}

fn usage(problem: &str) -> ! {
    eprintln!("gen: {problem}");
    eprintln!("usage: gen random|losing|boundary|max SEED | gen small SEED [SIZE]");
    exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 || args.len() > 3 {
        usage("expected MODE SEED [SIZE]");
    }
    let parse = |s: &str| {
        s.parse::<u64>()
            .unwrap_or_else(|_| usage(&format!("`{s}` is not a u64")))
    };
    let seed = parse(&args[1]);
    let size = args.get(2).map(|s| parse(s));
    if size.is_some() && args[0] != "small" {
        usage("only `small` takes a SIZE");
    }
    let piles = generate(&args[0], seed, size);

    let mut out = String::with_capacity(piles.len() * 11 + 16);
    out.push_str(&format!("{}\n", piles.len()));
    let line: Vec<String> = piles.iter().map(u64::to_string).collect();
    out.push_str(&line.join(" "));
    out.push('\n');
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
