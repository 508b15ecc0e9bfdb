// Reference solution for hdu-2516 (Fibonacci Nim).
// The player to move loses exactly when the pile size n is a Fibonacci number
// (1, 2, 3, 5, 8, ...). We list every Fibonacci number below 2^32 in u64
// (exact integer arithmetic, no overflow) and test membership by binary search.
use std::io::{self, Read, Write};

fn main() {
    let mut fib: Vec<u64> = vec![1, 2];
    while *fib.last().unwrap() < (1u64 << 32) {
        let k = fib.len();
        fib.push(fib[k - 1] + fib[k - 2]);
    }
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = String::new();
    for tok in input.split_ascii_whitespace() {
        let n: u64 = tok.parse().unwrap();
        if n == 0 {
            break;
        }
        if fib.binary_search(&n).is_ok() {
            out.push_str("Second win\n");
        } else {
            out.push_str("First win\n");
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
