//! Interactor of `play-nim` (testlib protocol, exit codes only).
//!
//! Usage: `interactor INPUT OUTPUT [ANSWER]`; stdin is the player's output,
//! stdout the player's input. Exit 0: the player won every game (OUTPUT
//! says so); 1: wrong answer, with ONE message on stderr naming the game
//! and the player's line; 3: the interactor itself failed (a bad INPUT).
//!
//! Protocol: it writes `T`; for each game `n a_1 ... a_n`; the player
//! answers `first` or `second`; moves `i k` alternate from the chosen side;
//! whoever takes the last stone wins the game. The interactor plays
//! perfectly on a winning position (it leaves xor 0) and otherwise makes a
//! random legal move (a random non-empty pile, a random k), deterministic
//! per test: its generator is seeded from the test's bytes.

use std::io::{BufRead, BufWriter, Write};
use std::process::exit;

/// Longest line read from the player.
const MAX_LINE: usize = 64;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    exit(3);
}

/// The player's lines, counted.
struct Player<R> {
    input: R,
    line: usize,
}

impl<R: BufRead> Player<R> {
    /// The next line, or a wrong answer naming the game.
    fn line(&mut self, game: usize) -> String {
        self.line += 1;
        let mut bytes = Vec::new();
        let mut limited = <&mut R as std::io::Read>::take(&mut self.input, MAX_LINE as u64 + 1);
        let n = limited.read_until(b'\n', &mut bytes).unwrap_or(0);
        if n == 0 {
            wrong(game, self.line, "the player's output ended");
        }
        if bytes.last() != Some(&b'\n') {
            if bytes.len() > MAX_LINE {
                wrong(game, self.line, "the line is too long");
            }
            wrong(game, self.line, "the output ended in the middle of a line");
        }
        bytes.pop();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

fn wrong(game: usize, line: usize, why: &str) -> ! {
    eprintln!("game {game}, line {line} of the player: {why}");
    exit(1);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        fail("usage: interactor INPUT OUTPUT [ANSWER]");
    }
    let text = std::fs::read(&args[1]).unwrap_or_else(|e| fail(&format!("{}: {e}", args[1])));
    let mut seed = 0xcbf2_9ce4_8422_2325u64;
    for &b in &text {
        seed = (seed ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut rng = Rng(seed);
    let text = String::from_utf8_lossy(&text);
    let mut numbers = text
        .split_ascii_whitespace()
        .map(|w| w.parse::<u64>().unwrap_or_else(|_| fail("the test is not numbers")));
    let mut next = || numbers.next().unwrap_or_else(|| fail("the test ends early"));
    let games = next() as usize;
    let stdin = std::io::stdin();
    let mut player = Player {
        input: stdin.lock(),
        line: 0,
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let say = |out: &mut BufWriter<_>, text: String| {
        // A player that is gone cannot be told more: it has lost.
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            exit(1);
        }
    };
    say(&mut out, games.to_string());
    for game in 1..=games {
        let n = next() as usize;
        let mut piles: Vec<u64> = (0..n).map(|_| next()).collect();
        let shown: Vec<String> = piles.iter().map(u64::to_string).collect();
        say(&mut out, format!("{n} {}", shown.join(" ")));
        let choice = player.line(game);
        let mut player_moves = match choice.as_str() {
            "first" => true,
            "second" => false,
            other => wrong(
                game,
                player.line,
                &format!("expected `first` or `second`, got `{other}`"),
            ),
        };
        while piles.iter().any(|&p| p > 0) {
            if player_moves {
                let line = player.line(game);
                let words: Vec<&str> = line.split(' ').collect();
                let parsed = match words.as_slice() {
                    [i, k] => i.parse::<usize>().ok().zip(k.parse::<u64>().ok()),
                    _ => None,
                };
                let Some((i, k)) = parsed else {
                    wrong(game, player.line, &format!("expected a move `i k`, got `{line}`"));
                };
                if i < 1 || i > n || k < 1 || k > piles[i - 1] {
                    wrong(
                        game,
                        player.line,
                        &format!(
                            "illegal move `{line}`: pile {i} {}",
                            if i >= 1 && i <= n {
                                format!("has {} stones", piles[i - 1])
                            } else {
                                format!("does not exist (there are {n})")
                            }
                        ),
                    );
                }
                piles[i - 1] -= k;
                if piles.iter().all(|&p| p == 0) {
                    break;
                }
            } else {
                let x = piles.iter().fold(0, |a, &p| a ^ p);
                let (i, k) = if x != 0 {
                    let i = (0..n).find(|&i| piles[i] ^ x < piles[i]).expect("xor theory");
                    (i, piles[i] - (piles[i] ^ x))
                } else {
                    let live: Vec<usize> = (0..n).filter(|&i| piles[i] > 0).collect();
                    let i = live[rng.below(live.len() as u64) as usize];
                    (i, 1 + rng.below(piles[i]))
                };
                piles[i] -= k;
                say(&mut out, format!("{} {k}", i + 1));
                if piles.iter().all(|&p| p == 0) {
                    wrong(game, player.line, "the interactor took the last stone and won");
                }
            }
            player_moves = !player_moves;
        }
    }
    let done = std::fs::write(&args[2], format!("won all {games} games\n"));
    done.unwrap_or_else(|e| fail(&format!("{}: {e}", args[2])));
}
