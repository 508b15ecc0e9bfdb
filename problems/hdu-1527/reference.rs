// Reference solution for hdu-1527 (Wythoff's game).
//
// The losing positions (P-positions) are the pairs (a_k, a_k + k), k >= 0, with
// a_k = floor(k * phi), phi = (1 + sqrt 5) / 2. For a <= b the position (a, b)
// is losing iff a == a_{b-a}.
//
// a_k is computed with exact integer arithmetic only:
//   k * phi = (k + sqrt(5 k^2)) / 2, and since sqrt(5 k^2) is irrational for k > 0,
//   floor((k + sqrt(5 k^2)) / 2) = (k + isqrt(5 k^2)) / 2   (integer division),
// where isqrt is the integer square root (Newton's method on u128, no floating point).
use std::io::{self, Read, Write};

/// floor(sqrt(n)), exact, by Newton's method from a start value >= sqrt(n).
fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let bits = 128 - n.leading_zeros();
    let mut x: u128 = 1u128 << ((bits + 1) / 2);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// a_k = floor(k * (1 + sqrt 5) / 2).
fn wythoff_a(k: u128) -> u128 {
    (k + isqrt(5 * k * k)) / 2
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut nums = input.split_ascii_whitespace().map(|t| t.parse::<u128>().unwrap());
    let mut out = String::new();
    while let (Some(x), Some(y)) = (nums.next(), nums.next()) {
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        let losing = a == wythoff_a(b - a);
        out.push_str(if losing { "0\n" } else { "1\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
