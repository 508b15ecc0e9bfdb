//! Throughput of the tokens checker on two large outputs: identical, and
//! identical except for whitespace. Prints GB/s (of the output's size) as
//! JSON on stdout for bench/run.sh. Run: `cargo bench --bench checker [-- MB]`.

use std::io::Write;
use std::time::Instant;

use judge::check::compare;
use judge::problem::CheckerSpec;
use judge::sandbox::Captured;

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let dir = tempfile::tempdir().expect("temp dir");
    let answer = dir.path().join("answer");
    let equal = dir.path().join("equal");
    let spaced = dir.path().join("spaced");
    // Numbers on lines, as judge outputs are.
    let mut a = std::io::BufWriter::new(std::fs::File::create(&answer).unwrap());
    let mut s = std::io::BufWriter::new(std::fs::File::create(&spaced).unwrap());
    let mut written = 0usize;
    let mut i: u64 = 0;
    while written < mb << 20 {
        let line = format!("{} {}\n", i * 7919 % 1_000_000_007, i);
        a.write_all(line.as_bytes()).unwrap();
        // The same tokens with other whitespace: tabs, double spaces, CRLF.
        s.write_all(line.replace(' ', "\t  ").replace('\n', " \r\n").as_bytes())
            .unwrap();
        written += line.len();
        i += 1;
    }
    a.flush().unwrap();
    s.flush().unwrap();
    drop((a, s));
    std::fs::copy(&answer, &equal).unwrap();
    let size = std::fs::metadata(&answer).unwrap().len() as f64;
    let spec = CheckerSpec::Tokens {
        case_sensitive: true,
    };
    let rate = |output: &std::path::Path| {
        let len = std::fs::metadata(output).unwrap().len();
        let captured = Captured::File {
            path: output.to_path_buf(),
            len,
        };
        // Best of 3: the first pass also warms the page cache.
        (0..3)
            .map(|_| {
                let start = Instant::now();
                let result = compare(&spec, &captured, &answer).unwrap();
                assert_eq!(result.verdict, judge::verdict::Verdict::AC);
                size / start.elapsed().as_secs_f64() / 1e9
            })
            .fold(0.0, f64::max)
    };
    let equal_gbps = rate(&equal);
    let tokens_gbps = rate(&spaced);
    println!("{{\"checker_gbps_equal\": {equal_gbps:.3}, \"checker_gbps_tokens\": {tokens_gbps:.3}, \"checker_mb\": {mb}}}");
}
