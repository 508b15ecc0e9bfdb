//! Interactor of `play-wythoff` (testlib protocol, exit codes only).
//!
//! Usage: `interactor INPUT OUTPUT [ANSWER]`; stdin is the player's output,
//! stdout the player's input. Exit 0: the player won every game; 1: wrong
//! answer, with ONE message on stderr naming the game and the player's
//! line; 3: the interactor failed (a bad INPUT).
//!
//! Protocol: it writes `T`; for each game `a b`; the player answers
//! `first` or `second`; moves alternate: `1 k` takes k from pile 1, `2 k`
//! from pile 2, `3 k` from both; whoever empties both piles wins. The
//! interactor plays perfectly on a winning position (to a losing pair
//! (floor(j phi), floor(j phi) + j), computed exactly in integers) and
//! otherwise makes a random legal move, seeded from the test's bytes.

use std::io::{BufRead, BufWriter, Write};
use std::process::exit;

const MAX_LINE: usize = 64;

/// floor(j * phi), exactly: (j + isqrt(5 j^2)) / 2.
fn lower(j: u64) -> u64 {
    let j = u128::from(j);
    ((j + (5 * j * j).isqrt()) / 2) as u64
}

/// Whether (x, y) is a losing position for the player to move.
fn losing(a: u64, b: u64) -> bool {
    let (x, y) = (a.min(b), a.max(b));
    lower(y - x) == x
}

/// The j whose pair holds `v` (v > 0) as its lower or upper member.
fn pair_of(v: u64) -> (u64, bool) {
    let guess = |r: f64| (v as f64 * r) as u64;
    for (center, upper) in [(guess(0.618_033_988_75), false), (guess(0.381_966_011_25), true)] {
        for j in center.saturating_sub(3)..=center + 3 {
            let a = lower(j);
            if !upper && j > 0 && a == v {
                return (j, false);
            }
            if upper && a + j == v {
                return (j, true);
            }
        }
    }
    unreachable!("every positive integer is in exactly one pair (Beatty)");
}

/// A move to a losing position from a winning one: (kind, k).
fn winning_move(a: u64, b: u64) -> (u8, u64) {
    let (x, y, big) = if a <= b { (a, b, 2) } else { (b, a, 1) };
    if x == 0 {
        return (big, y);
    }
    let ak = lower(y - x);
    if x > ak {
        return (3, x - ak);
    }
    let (j, upper) = pair_of(x);
    let target = if upper { lower(j) } else { x + j };
    // x = b_j: y down to a_j; x = a_j: j < k (as x < a_k), so b_j < y.
    (big, y - target)
}

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

fn wrong(game: usize, line: usize, why: &str) -> ! {
    eprintln!("game {game}, line {line} of the player: {why}");
    exit(1);
}

struct Player<R> {
    input: R,
    line: usize,
}

impl<R: BufRead> Player<R> {
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
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            exit(1);
        }
    };
    say(&mut out, games.to_string());
    for game in 1..=games {
        let (mut a, mut b) = (next(), next());
        say(&mut out, format!("{a} {b}"));
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
        while a > 0 || b > 0 {
            if player_moves {
                let line = player.line(game);
                let words: Vec<&str> = line.split(' ').collect();
                let parsed = match words.as_slice() {
                    [t, k] => t.parse::<u8>().ok().zip(k.parse::<u64>().ok()),
                    _ => None,
                };
                let Some((t, k)) = parsed else {
                    wrong(game, player.line, &format!("expected a move `t k`, got `{line}`"));
                };
                let legal = k >= 1
                    && match t {
                        1 => k <= a,
                        2 => k <= b,
                        3 => k <= a.min(b),
                        _ => false,
                    };
                if !legal {
                    wrong(
                        game,
                        player.line,
                        &format!("illegal move `{line}` with piles {a} and {b}"),
                    );
                }
                if t != 2 {
                    a -= k;
                }
                if t != 1 {
                    b -= k;
                }
                if a == 0 && b == 0 {
                    break;
                }
            } else {
                let (t, k) = if !losing(a, b) {
                    winning_move(a, b)
                } else {
                    let mut kinds = Vec::new();
                    if a > 0 {
                        kinds.push(1);
                    }
                    if b > 0 {
                        kinds.push(2);
                    }
                    if a > 0 && b > 0 {
                        kinds.push(3);
                    }
                    let t = kinds[rng.below(kinds.len() as u64) as usize];
                    let most = match t {
                        1 => a,
                        2 => b,
                        _ => a.min(b),
                    };
                    (t, 1 + rng.below(most))
                };
                if t != 2 {
                    a -= k;
                }
                if t != 1 {
                    b -= k;
                }
                say(&mut out, format!("{t} {k}"));
                if a == 0 && b == 0 {
                    wrong(game, player.line, "the interactor emptied both piles and won");
                }
            }
            player_moves = !player_moves;
        }
    }
    let done = std::fs::write(&args[2], format!("won all {games} games\n"));
    done.unwrap_or_else(|e| fail(&format!("{}: {e}", args[2])));
}
