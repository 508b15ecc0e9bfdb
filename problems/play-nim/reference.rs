//! Reference player of `play-nim`: move first exactly when the xor of the
//! piles is not 0, and always leave xor 0 (take from a pile whose size
//! drops when xored with the total).

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.expect("a line"));
    let mut out = std::io::stdout().lock();
    let games: usize = lines.next().expect("T").trim().parse().expect("T");
    for _ in 0..games {
        let numbers: Vec<u64> = lines
            .next()
            .expect("a game")
            .split_whitespace()
            .map(|w| w.parse().expect("a number"))
            .collect();
        let mut piles = numbers[1..].to_vec();
        let xor = |p: &[u64]| p.iter().fold(0, |a, &b| a ^ b);
        let mut mine = xor(&piles) != 0;
        writeln!(out, "{}", if mine { "first" } else { "second" }).unwrap();
        out.flush().unwrap();
        while piles.iter().any(|&p| p > 0) {
            if mine {
                let x = xor(&piles);
                let i = (0..piles.len()).find(|&i| piles[i] ^ x < piles[i]).unwrap();
                let k = piles[i] - (piles[i] ^ x);
                piles[i] -= k;
                writeln!(out, "{} {k}", i + 1).unwrap();
                out.flush().unwrap();
            } else {
                let line = lines.next().expect("a move");
                let mut words = line.split_whitespace().map(|w| w.parse::<u64>().unwrap());
                let (i, k) = (words.next().unwrap() as usize, words.next().unwrap());
                piles[i - 1] -= k;
            }
            mine = !mine;
        }
    }
}
