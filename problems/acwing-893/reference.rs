// Reference solution for acwing-893 (Set-Nim Game).
// Sprague-Grundy: sg(x) = mex{ sg(x - s) : s in S, s <= x }, computed bottom-up for
// x = 0 ..= max heap (the order of S does not matter). A sum of games is a first-player
// win iff the xor of the heaps' SG values is non-zero. SG values are at most k <= 100.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let k = it.next().unwrap();
    let s: Vec<usize> = (0..k).map(|_| it.next().unwrap()).collect();
    let n = it.next().unwrap();
    let h: Vec<usize> = (0..n).map(|_| it.next().unwrap()).collect();
    let max_h = *h.iter().max().unwrap();
    let mut sg = vec![0usize; max_h + 1];
    let mut seen = vec![usize::MAX; k + 2]; // seen[v] == x  <=>  v is an option value of x
    for x in 1..=max_h {
        for &m in &s {
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
    let total = h.iter().fold(0, |acc, &x| acc ^ sg[x]);
    println!("{}", if total != 0 { "Yes" } else { "No" });
}
