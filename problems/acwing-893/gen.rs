// Generator for acwing-893 (Set-Nim Game): `gen MODE SEED [SIZE]`, one input file on stdout.
//
// Randomness: splitmix64 seeded with SEED (xored with a fixed constant); each call adds
// 0x9E3779B97F4A7C15 to the state and mixes it with the standard splitmix64 finaliser.
// Nothing else (no time, no hash-map order) influences the output.
//
// Every file holds ONE position. The generator computes the Sprague-Grundy values of the
// move set itself and constructs the answer it wants: a losing position is n-1 random heaps
// plus one heap whose SG value equals the xor of the others; a winning position is re-drawn
// (or has one heap replaced) until the xor is non-zero. The move set is always printed
// unsorted (shuffled), except in `descending` mode where it is printed in decreasing order.
//
// Modes:
//   random SEED       mixed move sets and heap ranges; losing iff SEED is even
//   losing SEED       always losing
//   boundary SEED     with b = SEED-1: bit 0 = losing (0) or a losing position with one heap
//                     changed by +-1 so that it wins (1); bit 1 = k is 1 or 100; bit 2 = n is
//                     1 or 100; b % 3 picks the move set: {1} / {10000} / {random in 2..50}
//                     for k = 1, {1..100} / {9901..10000} / random with 1 and 10000 for
//                     k = 100; heaps are 1, 2, 9999 or 10000 about half of the time
//   descending SEED   move set printed in decreasing order; losing iff SEED is even
//   max SEED          k = n = 100, small move sizes (1 and 2 included), heaps in
//                     [9000, 10000] with a heap of 10000; losing iff SEED is even
//   small SEED [SIZE] SIZE in 1..4 (default 4): k, n <= SIZE, move sizes and heaps <= 3*SIZE
//                     (inside the brute force's k, n <= 4 and values <= 12); about half losing

const MAX_V: usize = 10_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Integer in [lo, hi] (inclusive).
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i);
            v.swap(i, j);
        }
    }
}

/// SG values of a single heap for x = 0 ..= MAX_V under move set `s`.
fn sg_table(s: &[usize]) -> Vec<usize> {
    let mut sg = vec![0usize; MAX_V + 1];
    let mut seen = vec![usize::MAX; s.len() + 2];
    for x in 1..=MAX_V {
        for &m in s {
            if m <= x {
                seen[sg[x - m]] = x;
            }
        }
        let mut g = 0;
        while seen[g] == x {
            g += 1;
        }
        sg[x] = g;
    }
    sg
}

/// `k` distinct values from [lo, hi], in random order; `forced` values are included.
fn distinct(rng: &mut Rng, k: usize, lo: usize, hi: usize, forced: &[usize]) -> Vec<usize> {
    assert!(k <= hi - lo + 1 && forced.len() <= k);
    let mut taken = vec![false; hi + 1];
    let mut v = Vec::new();
    for &f in forced {
        if !taken[f] {
            taken[f] = true;
            v.push(f);
        }
    }
    while v.len() < k {
        let x = rng.range(lo, hi);
        if !taken[x] {
            taken[x] = true;
            v.push(x);
        }
    }
    rng.shuffle(&mut v);
    v
}

/// How heap sizes are drawn.
#[derive(Clone, Copy)]
enum HeapDist {
    /// uniform in [lo, hi]
    Range(usize, usize),
    /// half of the time one of 1, 2, 9999, 10000, otherwise uniform in [1, 10000]
    Extremes,
}

impl HeapDist {
    fn draw(self, rng: &mut Rng) -> usize {
        match self {
            HeapDist::Range(lo, hi) => rng.range(lo, hi),
            HeapDist::Extremes => {
                if rng.chance(1, 2) {
                    [1, 2, MAX_V - 1, MAX_V][rng.range(0, 3)]
                } else {
                    rng.range(1, MAX_V)
                }
            }
        }
    }
    fn bounds(self) -> (usize, usize) {
        match self {
            HeapDist::Range(lo, hi) => (lo, hi),
            HeapDist::Extremes => (1, MAX_V),
        }
    }
}

fn xor_of(sg: &[usize], h: &[usize]) -> usize {
    h.iter().fold(0, |a, &x| a ^ sg[x])
}

/// `n` heaps (the `fixed` ones first, at random places) whose SG xor is 0 (losing) or not.
/// The completing heap of a losing position (or the replaced heap of a winning one) comes from
/// the distribution's bounds if possible, otherwise from [1, `hard_hi`]; with `Extremes` the
/// completing heap is an extreme value half of the time. Panics if no such position is found (never seen in practice).
fn make_heaps(
    rng: &mut Rng,
    sg: &[usize],
    n: usize,
    dist: HeapDist,
    fixed: &[usize],
    losing: bool,
    hard_hi: usize,
) -> Vec<usize> {
    assert!(fixed.len() < n || (!losing && fixed.len() <= n));
    for _ in 0..20_000 {
        let mut h: Vec<usize> = fixed.to_vec();
        let free = if losing { n - 1 } else { n };
        while h.len() < free {
            h.push(dist.draw(rng));
        }
        if losing {
            let x = xor_of(sg, &h);
            let (lo, hi) = dist.bounds();
            let mut cands: Vec<usize> = (lo..=hi).filter(|&v| sg[v] == x).collect();
            if cands.is_empty() {
                cands = (1..=hard_hi).filter(|&v| sg[v] == x).collect();
            }
            if cands.is_empty() {
                continue;
            }
            if matches!(dist, HeapDist::Extremes) && rng.chance(1, 2) {
                let ext: Vec<usize> = cands.iter().copied().filter(|&v| v <= 2 || v >= MAX_V - 1).collect();
                if !ext.is_empty() {
                    cands = ext;
                }
            }
            let c = cands[rng.range(0, cands.len() - 1)];
            h.push(c);
        } else if xor_of(sg, &h) == 0 {
            // replace one non-fixed heap by a value with a different SG value
            if h.len() == fixed.len() {
                continue;
            }
            let i = rng.range(fixed.len(), h.len() - 1);
            let (lo, hi) = dist.bounds();
            let mut cands: Vec<usize> = (lo..=hi).filter(|&v| sg[v] != sg[h[i]]).collect();
            if cands.is_empty() {
                cands = (1..=hard_hi).filter(|&v| sg[v] != sg[h[i]]).collect();
            }
            if cands.is_empty() {
                continue;
            }
            h[i] = cands[rng.range(0, cands.len() - 1)];
        }
        rng.shuffle(&mut h);
        assert_eq!(xor_of(sg, &h) == 0, losing);
        return h;
    }
    panic!("could not build a position");
}

fn print_instance(s: &[usize], h: &[usize]) {
    let join = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
    print!("{}\n{}\n{}\n{}\n", s.len(), join(s), h.len(), join(h));
}

/// A random move set of one of several shapes, shuffled.
fn random_moves(rng: &mut Rng) -> Vec<usize> {
    match rng.range(0, 4) {
        0 => {
            let k = rng.range(1, 100);
            distinct(rng, k, 1, MAX_V, &[])
        }
        1 => {
            let k = rng.range(1, 8);
            distinct(rng, k, 1, 20, &[])
        }
        2 => {
            let k = rng.range(1, 30);
            distinct(rng, k, 1, 100, &[])
        }
        3 => {
            let k = rng.range(50, 100);
            distinct(rng, k, 1, 200, &[])
        }
        _ => {
            let k = rng.range(1, 5);
            distinct(rng, k, 1, 10, &[])
        }
    }
}

fn random_dist(rng: &mut Rng) -> HeapDist {
    match rng.range(0, 4) {
        0 | 1 => HeapDist::Range(1, MAX_V),
        2 => HeapDist::Range(1, 100),
        3 => HeapDist::Range(9000, MAX_V),
        _ => HeapDist::Range(1, 30),
    }
}

fn random_n(rng: &mut Rng) -> usize {
    if rng.chance(1, 3) {
        rng.range(1, 5)
    } else {
        rng.range(1, 100)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: gen MODE SEED [SIZE]");
        std::process::exit(2);
    }
    let mode = args[0].as_str();
    let seed: u64 = args[1].parse().expect("SEED must be an unsigned integer");
    let mut rng = Rng(seed ^ 0x0893_0000_0000_0000);
    match mode {
        "random" | "losing" => {
            let losing = mode == "losing" || seed % 2 == 0;
            let s = random_moves(&mut rng);
            let sg = sg_table(&s);
            let n = random_n(&mut rng);
            let dist = random_dist(&mut rng);
            let h = make_heaps(&mut rng, &sg, n, dist, &[], losing, MAX_V);
            print_instance(&s, &h);
        }
        "descending" => {
            let losing = seed % 2 == 0;
            let k = rng.range(2, 100);
            let mut s = distinct(&mut rng, k, 1, 300, &[]);
            s.sort_unstable_by(|a, b| b.cmp(a));
            let sg = sg_table(&s);
            let n = random_n(&mut rng);
            let dist = if rng.chance(1, 2) { HeapDist::Range(1, 300) } else { HeapDist::Range(1, MAX_V) };
            let h = make_heaps(&mut rng, &sg, n, dist, &[], losing, MAX_V);
            print_instance(&s, &h);
        }
        "boundary" => {
            let b = seed.wrapping_sub(1);
            let neighbour = b & 1 == 1;
            let k_max = b & 2 == 2;
            let n_max = b & 4 == 4;
            let flavour = b % 3;
            let s = match (k_max, flavour) {
                (false, 0) => vec![1],
                (false, 1) => vec![MAX_V],
                (false, _) => vec![rng.range(2, 50)],
                (true, 0) => {
                    let mut v: Vec<usize> = (1..=100).collect();
                    rng.shuffle(&mut v);
                    v
                }
                (true, 1) => {
                    let mut v: Vec<usize> = (MAX_V - 99..=MAX_V).collect();
                    rng.shuffle(&mut v);
                    v
                }
                (true, _) => distinct(&mut rng, 100, 1, MAX_V, &[1, MAX_V]),
            };
            let sg = sg_table(&s);
            let n = if n_max { 100 } else { 1 };
            let h = if !neighbour {
                make_heaps(&mut rng, &sg, n, HeapDist::Extremes, &[], true, MAX_V)
            } else {
                // n-1 heaps, then a heap c with sg(c) = their xor (a losing position) moved to
                // c+d (d = +-1) where the SG value changes, so the position becomes a win.
                let mut found = None;
                for _ in 0..1000 {
                    let mut rest: Vec<usize> = (0..n - 1).map(|_| HeapDist::Extremes.draw(&mut rng)).collect();
                    let x = xor_of(&sg, &rest);
                    let mut moves: Vec<usize> = Vec::new();
                    for c in 1..=MAX_V {
                        if sg[c] == x && ((c < MAX_V && sg[c + 1] != x) || (c > 1 && sg[c - 1] != x)) {
                            moves.push(c);
                        }
                    }
                    if moves.is_empty() {
                        continue;
                    }
                    if rng.chance(1, 2) {
                        let ext: Vec<usize> = moves.iter().copied().filter(|&c| c <= 3 || c >= MAX_V - 2).collect();
                        if !ext.is_empty() {
                            moves = ext;
                        }
                    }
                    let c = moves[rng.range(0, moves.len() - 1)];
                    let up_ok = c < MAX_V && sg[c + 1] != x;
                    let down_ok = c > 1 && sg[c - 1] != x;
                    let up = if up_ok && down_ok { rng.chance(1, 2) } else { up_ok };
                    rest.push(if up { c + 1 } else { c - 1 });
                    rng.shuffle(&mut rest);
                    found = Some(rest);
                    break;
                }
                found.expect("no boundary position found")
            };
            assert_eq!(xor_of(&sg, &h) == 0, !neighbour);
            print_instance(&s, &h);
        }
        "max" => {
            let losing = seed % 2 == 0;
            let s = distinct(&mut rng, 100, 1, 300, &[1, 2]);
            let sg = sg_table(&s);
            let h = make_heaps(&mut rng, &sg, 100, HeapDist::Range(9000, MAX_V), &[MAX_V], losing, MAX_V);
            print_instance(&s, &h);
        }
        "small" => {
            let size: usize = match args.get(2) {
                Some(v) => v.parse().expect("SIZE must be an unsigned integer"),
                None => 4,
            };
            assert!((1..=4).contains(&size), "SIZE must be in 1..4");
            let losing = rng.chance(1, 2);
            let k = rng.range(1, size);
            let s = distinct(&mut rng, k, 1, 3 * size, &[]);
            let sg = sg_table(&s);
            let n = rng.range(1, size);
            let h = make_heaps(&mut rng, &sg, n, HeapDist::Range(1, 3 * size), &[], losing, 3 * size);
            print_instance(&s, &h);
        }
        other => {
            eprintln!("unknown mode {}", other);
            std::process::exit(2);
        }
    }
}
