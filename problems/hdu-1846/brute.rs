// Brute force for hdu-1846 (Brave Game): exhaustive win/lose table over the real
// rules, not the closed-form rule. For a given m, win[0] = false (the previous
// player took the last stone) and win[x] = some take t in 1..=min(m, x) leaves
// a lost position win[x - t] == false. O(n * m) per distinct m.
// Covers every valid input (n, m <= 1000); exits with code 3 on anything else.
use std::io::Read;
use std::process::exit;

const MAX_V: usize = 1000;

fn table(m: usize) -> Vec<bool> {
    let mut win = vec![false; MAX_V + 1];
    for x in 1..=MAX_V {
        win[x] = (1..=m.min(x)).any(|t| !win[x - t]);
    }
    win
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let nums: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap_or_else(|_| exit(3)))
        .collect();
    if nums.is_empty() || nums.len() != 1 + 2 * nums[0] {
        exit(3);
    }
    let mut tables: Vec<Option<Vec<bool>>> = vec![None; MAX_V + 1];
    let mut out = String::new();
    for case in 0..nums[0] {
        let n = nums[1 + 2 * case];
        let m = nums[2 + 2 * case];
        if !(1..=MAX_V).contains(&n) || !(1..=MAX_V).contains(&m) {
            exit(3);
        }
        let win = tables[m].get_or_insert_with(|| table(m));
        out.push_str(if win[n] { "first\n" } else { "second\n" });
    }
    print!("{}", out);
}
