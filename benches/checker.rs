//! Throughput of the tokens checker on two large outputs: identical, and
//! identical except for whitespace, with two baselines measured in the same
//! run: `cmp` on the identical files, and a naive token split (read both
//! files whole, split on whitespace, compare the token lists). Also the
//! process's peak RSS after the checker passes (before the naive baseline
//! reads the files whole): the checker streams, so it does not grow with
//! the output. Prints GB/s (of the answer's size) as JSON on stdout for
//! bench/run.sh. Run: `cargo bench --bench checker [-- MB]`.

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
    let (mut line, mut spaced_line) = (String::new(), String::new());
    while written < mb << 20 {
        use std::fmt::Write as _;
        line.clear();
        spaced_line.clear();
        let (x, y) = (i * 7919 % 1_000_000_007, i);
        writeln!(line, "{x} {y}").unwrap();
        // The same tokens with other whitespace: tabs, double spaces, CRLF.
        write!(spaced_line, "{x}\t  {y} \r\n").unwrap();
        a.write_all(line.as_bytes()).unwrap();
        s.write_all(spaced_line.as_bytes()).unwrap();
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
    let best_of_3 = |f: &dyn Fn()| {
        (0..3)
            .map(|_| {
                let start = Instant::now();
                f();
                size / start.elapsed().as_secs_f64() / 1e9
            })
            .fold(0.0, f64::max)
    };
    // Interleaved: contender, baseline, contender, baseline.
    let equal_gbps = rate(&equal);
    let cmp_gbps = best_of_3(&|| {
        let status = std::process::Command::new("cmp")
            .args([&answer, &equal])
            .status()
            .expect("cmp runs");
        assert!(status.success());
    });
    let tokens_gbps = rate(&spaced);
    let checker_rss_mib = peak_rss_kib() as f64 / 1024.0;
    let naive_gbps = best_of_3(&|| {
        let (x, y) = (
            std::fs::read(&answer).unwrap(),
            std::fs::read(&spaced).unwrap(),
        );
        assert!(naive_tokens(&x) == naive_tokens(&y));
    });
    println!(
        "{{\"checker_gbps_equal\": {equal_gbps:.3}, \"checker_gbps_tokens\": {tokens_gbps:.3}, \"cmp_gbps\": {cmp_gbps:.3}, \"naive_split_gbps\": {naive_gbps:.3}, \"checker_peak_rss_mib\": {checker_rss_mib:.1}, \"checker_mb\": {mb}}}"
    );
}

/// The baseline's tokens: slices of the whole output, not copied.
fn naive_tokens(s: &[u8]) -> Vec<&[u8]> {
    s.split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .collect()
}

/// This process's peak resident set (VmHWM), KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
