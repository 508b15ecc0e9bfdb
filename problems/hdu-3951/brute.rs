// Brute force for hdu-3951 (Coin Game): exhaustive game search over the real rules,
// not the closed-form rule.
// After the first move the ring becomes one line of N - t coins (t = coins taken);
// from then on a position is a multiset of lines, i.e. a disjoint sum of games, so
// it is won iff the XOR of the Sprague-Grundy values of its lines is non-zero.
// A move on a line of length L removes t (1..=min(K, L)) consecutive coins and
// leaves two lines a and b with a + b = L - t (either may be empty).
// grundy_K(L) = mex { grundy_K(a) ^ grundy_K(b) }. The first player wins the ring
// iff some first move t (1..=min(K, N)) leaves a line of SG value 0 (t = N leaves
// nothing, value 0).
// Covers N <= 40 and every K in 1..=10; exits with code 3 on anything outside.
use std::io::Read;
use std::process::exit;

const MAX_N: usize = 40;

fn grundy_table(k: usize) -> Vec<usize> {
    let mut g = vec![0usize; MAX_N + 1];
    for len in 1..=MAX_N {
        let mut seen = [false; 64];
        for t in 1..=k.min(len) {
            for a in 0..=(len - t) {
                let b = len - t - a;
                seen[g[a] ^ g[b]] = true;
            }
        }
        g[len] = seen.iter().position(|&s| !s).unwrap();
    }
    g
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let nums: Vec<u64> = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().unwrap_or_else(|_| exit(3)))
        .collect();
    if nums.is_empty() {
        exit(3);
    }
    let t = nums[0] as usize;
    if nums.len() != 1 + 2 * t {
        exit(3);
    }
    let tables: Vec<Vec<usize>> = (0..=10).map(|k| if k == 0 { Vec::new() } else { grundy_table(k) }).collect();
    let mut out = String::new();
    for case in 0..t {
        let n = nums[1 + 2 * case] as usize;
        let k = nums[2 + 2 * case] as usize;
        if !(1..=MAX_N).contains(&n) || !(1..=10).contains(&k) {
            exit(3);
        }
        let g = &tables[k];
        let first = (1..=k.min(n)).any(|t| g[n - t] == 0);
        out.push_str(&format!("Case {}: {}\n", case + 1, if first { "first" } else { "second" }));
    }
    print!("{}", out);
}
