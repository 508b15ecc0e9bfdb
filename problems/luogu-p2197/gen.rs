//! Test generator for `luogu-p2197` (Nim, T positions, empty piles allowed).
//!
//! Usage: `gen MODE SEED [SIZE]`. Prints ONE complete input file on stdout:
//! `T`, then per case a line `n` and a line with the `n` pile sizes.
//!
//! A case's answer is `No` exactly when the xor of its piles is 0. Losing cases
//! are BUILT: draw n-1 piles, set the last to the xor of the others (retrying
//! when that is out of bounds), shuffle.
//!
//! Modes (SEED is any unsigned 64-bit number):
//!   random SEED        T in [1, 10]; per case n and the pile range are spread over
//!                      several magnitudes (n <= 10^4, piles <= 9999), a share of the
//!                      piles is 0 (none, 10% or 50%), and a coin decides losing/winning.
//!   losing SEED        like `random`, every case losing.
//!   boundary SEED      T = 10; piles from the edges of the bounds and of the binary
//!                      powers (0, 1, 2, 3, 2^k - 1, 2^k, 2^k + 1, 9998, 9999) with the
//!                      xor forced to 0 (`No`) or 1 (`Yes`); n is 1, 2, 3 or 4..20.
//!   zeros SEED         T = 10 cases built around empty piles: all piles empty (`No`),
//!                      one non-empty pile among empty ones (`Yes`), losing and winning
//!                      positions where most piles are empty, and cases of 0/1 piles only.
//!   max SEED           T = 10 cases of n = 10^4 piles in [0, 9999]; the cases alternate
//!                      losing / winning, starting with losing for odd seeds.
//!   small SEED [SIZE]  inside the brute force's bounds (n <= 6, piles <= 15).
//!                      SIZE in 1..=6 (default 6): T <= min(10, 2 SIZE), n <= SIZE,
//!                      piles <= PILE_CAP[SIZE]; about half the cases losing.
//!
//! Determinism: every random choice comes from the splitmix64 generator below,
//! seeded with SEED. No clock, no addresses, no hash-map order: the same
//! arguments give the same bytes on every machine.

use std::io::Write;
use std::process::exit;

/// Bounds of the problem.
const MAX_T: u64 = 10;
const MAX_N: usize = 10_000;
const MAX_PILE: u64 = 9_999;

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

    /// Integer in [lo, hi] (modulo bias is negligible for these small ranges).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.range(0, 99) < percent
    }

    /// Fisher-Yates shuffle.
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i as u64) as usize;
            v.swap(i, j);
        }
    }
}

/// How one pile is drawn.
type Draw<'a> = &'a dyn Fn(&mut Rng) -> u64;

fn xor_all(piles: &[u64]) -> u64 {
    piles.iter().fold(0, |acc, &p| acc ^ p)
}

/// `n` piles drawn by `draw` whose xor is `target`: n-1 are drawn, the last is
/// forced, retried until the forced pile is at most MAX_PILE. For n = 1 the only
/// pile is `target` itself.
fn with_xor(rng: &mut Rng, n: usize, target: u64, draw: Draw) -> Vec<u64> {
    for _ in 0..100_000 {
        let mut piles: Vec<u64> = (0..n - 1).map(|_| draw(rng)).collect();
        let last = xor_all(&piles) ^ target;
        if last <= MAX_PILE {
            piles.push(last);
            rng.shuffle(&mut piles);
            return piles;
        }
    }
    panic!("could not build a position with xor {target} from {n} piles");
}

/// `n` piles drawn by `draw` with a nonzero xor (redrawn while it is 0).
fn winning(rng: &mut Rng, n: usize, draw: Draw) -> Vec<u64> {
    loop {
        let piles: Vec<u64> = (0..n).map(|_| draw(rng)).collect();
        if xor_all(&piles) != 0 {
            return piles;
        }
    }
}

/// Uniform piles in [0, hi], each replaced by 0 with probability `zero_percent`.
fn draw_piles(hi: u64, zero_percent: u64) -> impl Fn(&mut Rng) -> u64 {
    move |r: &mut Rng| {
        if r.chance(zero_percent) {
            0
        } else {
            r.range(0, hi)
        }
    }
}

/// One `random`/`losing` case: log-spread n and pile range, some empty piles.
fn random_case(rng: &mut Rng, losing: bool) -> Vec<u64> {
    let magnitude = rng.range(0, 4) as u32;
    let n = rng.range(1, 10u64.pow(magnitude)) as usize;
    let hi = [1, 9, 99, 999, MAX_PILE][rng.range(0, 4) as usize];
    let zero_percent = [0, 10, 50][rng.range(0, 2) as usize];
    let draw = draw_piles(hi, zero_percent);
    if losing {
        with_xor(rng, n, 0, &draw)
    } else {
        winning(rng, n, &draw)
    }
}

/// 0, 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 (2 <= k <= 13), 9998 and 9999.
fn boundary_values() -> Vec<u64> {
    let mut values = vec![0, 1, 2, 3];
    for k in 2..=13 {
        values.extend([(1u64 << k) - 1, 1u64 << k, (1u64 << k) + 1]);
    }
    values.extend([MAX_PILE - 1, MAX_PILE]);
    values.sort_unstable();
    values.dedup();
    values
}

fn boundary_case(rng: &mut Rng, values: &[u64]) -> Vec<u64> {
    let pick = |r: &mut Rng| values[r.range(0, values.len() as u64 - 1) as usize];
    let n = match rng.range(0, 7) {
        0 => 1,
        1 | 2 => 2,
        3 | 4 => 3,
        _ => rng.range(4, 20) as usize,
    };
    let target = if rng.coin() { 0 } else { 1 };
    with_xor(rng, n, target, &pick)
}

/// Case number `index` (0-based) of `zeros` mode: cycles through the shapes.
fn zeros_case(rng: &mut Rng, index: u64) -> Vec<u64> {
    let n = rng.range(1, 30) as usize;
    let mostly_empty = draw_piles(MAX_PILE, 80);
    let zero_one = |r: &mut Rng| r.range(0, 1);
    match index % 5 {
        // Every pile empty: the first player cannot move.
        0 => vec![0; n],
        // One non-empty pile among empty ones.
        1 => {
            let mut piles = vec![0; n];
            piles[rng.range(0, n as u64 - 1) as usize] = rng.range(1, MAX_PILE);
            piles
        }
        // Losing, most piles empty (n >= 2 so that something is non-empty or all are).
        2 => with_xor(rng, n.max(2), 0, &mostly_empty),
        // Winning, most piles empty.
        3 => winning(rng, n, &mostly_empty),
        // Piles of 0 and 1 only, losing or winning.
        _ => {
            let target = rng.range(0, 1);
            with_xor(rng, n, target, &zero_one)
        }
    }
}

fn generate(mode: &str, seed: u64, size: Option<u64>) -> Vec<Vec<u64>> {
    let rng = &mut Rng(seed);
    match mode {
        "random" | "losing" => {
            let t = rng.range(1, MAX_T);
            (0..t)
                .map(|_| {
                    let losing = mode == "losing" || rng.coin();
                    random_case(rng, losing)
                })
                .collect()
        }
        "boundary" => {
            let values = boundary_values();
            (0..MAX_T).map(|_| boundary_case(rng, &values)).collect()
        }
        "zeros" => (0..MAX_T).map(|i| zeros_case(rng, i)).collect(),
        "max" => {
            let draw = draw_piles(MAX_PILE, 0);
            (0..MAX_T)
                .map(|i| {
                    if (i + seed) % 2 == 1 {
                        with_xor(rng, MAX_N, 0, &draw)
                    } else {
                        winning(rng, MAX_N, &draw)
                    }
                })
                .collect()
        }
        "small" => {
            let k = size.unwrap_or(6);
            if !(1..=6).contains(&k) {
                usage(&format!("small: SIZE must be in 1..=6, got {k}"));
            }
            let t = rng.range(1, (2 * k).min(MAX_T));
            let draw = draw_piles(PILE_CAP[k as usize], 20);
            (0..t)
                .map(|_| {
                    let n = rng.range(1, k) as usize;
                    if rng.coin() {
                        with_xor(rng, n, 0, &draw)
                    } else {
                        winning(rng, n, &draw)
                    }
                })
                .collect()
        }
        _ => usage(&format!("unknown mode `{mode}`")),
    }
}

fn usage(problem: &str) -> ! {
    eprintln!("gen: {problem}");
    eprintln!("usage: gen random|losing|boundary|zeros|max SEED | gen small SEED [SIZE]");
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
    let cases = generate(&args[0], seed, size);

    let mut out = format!("{}\n", cases.len());
    for piles in &cases {
        out.push_str(&format!("{}\n", piles.len()));
        let line: Vec<String> = piles.iter().map(u64::to_string).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
