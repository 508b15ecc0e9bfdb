// Wrong: builds 60 "Fibonacci numbers" in i32. From the 46th term on the sums overflow
// (rustc -O wraps silently), and some wrapped values land inside [2, 2^31): 512559680,
// 1776683621, 368225352, 2144908973, 363076002, 1820529360, 764848393 are reported as
// "Second win" although they are not Fibonacci numbers.
use std::io::{self, Read, Write};

fn main() {
    let mut f = [0i32; 60];
    f[0] = 1;
    f[1] = 2;
    for i in 2..60 {
        f[i] = f[i - 1] + f[i - 2];
    }
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut out = String::new();
    for tok in s.split_ascii_whitespace() {
        let n: i64 = tok.parse().unwrap();
        if n == 0 {
            break;
        }
        let lose = f.iter().any(|&x| x as i64 == n);
        out.push_str(if lose { "Second win\n" } else { "First win\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
