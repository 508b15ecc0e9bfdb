//! The floor of an interactive test: the same two programs (a player and an
//! interactor of the testlib protocol) connected by a bare pipe pair, from
//! Rust, with nothing else: spawn both, wait for both, N times. Prints the
//! mean wall time per test in microseconds. Built by bench/interactive.sh
//! with plain rustc (std only).
//!
//! usage: pipe_pair PLAYER INTERACTOR INPUT N

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: pipe_pair PLAYER INTERACTOR INPUT N");
        std::process::exit(2);
    }
    let (player, interactor, input) = (&args[1], &args[2], &args[3]);
    let n: u32 = args[4].parse().expect("N is a number");
    let output = std::env::temp_dir().join(format!("pipe-pair-{}", std::process::id()));
    let start = Instant::now();
    for _ in 0..n {
        let (to_interactor, from_player) = std::io::pipe().expect("a pipe");
        let (to_player, from_interactor) = std::io::pipe().expect("a pipe");
        let mut judge = Command::new(interactor)
            .args([input.as_str(), output.to_str().unwrap(), input.as_str()])
            .stdin(Stdio::from(to_interactor))
            .stdout(Stdio::from(from_interactor))
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn INTERACTOR");
        let mut play = Command::new(player)
            .stdin(Stdio::from(to_player))
            .stdout(Stdio::from(from_player))
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn PLAYER");
        let mut err = Vec::new();
        judge.stderr.take().unwrap().read_to_end(&mut err).unwrap();
        let verdict = judge.wait().unwrap();
        play.stderr.take().unwrap().read_to_end(&mut err).unwrap();
        let played = play.wait().unwrap();
        assert!(verdict.success() && played.success(), "{}", String::from_utf8_lossy(&err));
    }
    let _ = std::fs::remove_file(&output);
    println!("{:.1}", start.elapsed().as_secs_f64() * 1e6 / n as f64);
}
