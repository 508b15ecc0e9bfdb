// Reference solution for hdu-1846 (Brave Game, the Bash game).
// Rule: the positions n = 0, m+1, 2(m+1), ... are lost for the player to move
// (whatever x in 1..=m he takes, the opponent answers m+1-x), every other n is won
// by taking n mod (m+1). So the first player wins iff n % (m + 1) != 0.
use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let c = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..c {
        let n = it.next().unwrap();
        let m = it.next().unwrap();
        out.push_str(if n % (m + 1) != 0 { "first\n" } else { "second\n" });
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
