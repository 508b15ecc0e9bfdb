//! The spawn floor: the cheapest way to run a program on a test from Rust.
//! Spawns BINARY N times with stdin from INPUT and stdout/stderr piped,
//! reads the output, waits for the exit, and prints the mean wall time per
//! run in microseconds. Built by bench/run.sh with plain rustc (std only).
//!
//! usage: floor BINARY INPUT N

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: floor BINARY INPUT N");
        std::process::exit(2);
    }
    let (binary, input) = (&args[1], &args[2]);
    let n: u32 = args[3].parse().expect("N is a number");
    let start = Instant::now();
    let mut out = Vec::new();
    for _ in 0..n {
        let stdin = std::fs::File::open(input).expect("open INPUT");
        let mut child = Command::new(binary)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn BINARY");
        out.clear();
        child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
        let status = child.wait().unwrap();
        assert!(status.success() && !out.is_empty());
    }
    println!("{:.1}", start.elapsed().as_secs_f64() * 1e6 / n as f64);
}
