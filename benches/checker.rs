//! Throughput of the tokens checker on two large outputs: identical, and
//! identical except for whitespace, with two baselines measured in the same
//! run: `cmp` on the identical files, and a naive token split (read both
//! files whole as text, `split_ascii_whitespace` each, compare the two
//! iterators). Also the process's peak RSS after the checker passes (before
//! the naive baseline reads the files whole): the checker streams, so it
//! does not grow with the output.
//!
//! GB/s counts the bytes of both files, which is how `cmp` "reads two 100 MB
//! files at about 2.5 GB/s" in the issue that set the targets (on this
//! machine it compares them in 0.09 s: 2.3 GB/s of both files, 1.16 GB/s of
//! one). The same figures per byte of the answer alone are printed too
//! (`*_per_answer_byte`). Prints JSON on stdout for bench/run.sh.
//! Run: `cargo bench --bench checker [-- MB]`.

use std::io::Write;
use std::time::Instant;

use judge::compare;
use judge::Captured;
use judge::CheckerSpec;

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
    let file_size = |p: &std::path::Path| std::fs::metadata(p).unwrap().len() as f64;
    let size = file_size(&answer);
    // Bytes read by a comparison of the answer with each output.
    let (equal_bytes, spaced_bytes) = (2.0 * size, size + file_size(&spaced));
    let spec = CheckerSpec::Tokens {
        case_sensitive: true,
    };
    let rate = |output: &std::path::Path, bytes: f64| {
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
                assert_eq!(result.verdict, judge::Verdict::AC);
                bytes / start.elapsed().as_secs_f64() / 1e9
            })
            .fold(0.0, f64::max)
    };
    let best_of_3 = |bytes: f64, f: &dyn Fn()| {
        (0..3)
            .map(|_| {
                let start = Instant::now();
                f();
                bytes / start.elapsed().as_secs_f64() / 1e9
            })
            .fold(0.0, f64::max)
    };
    // Interleaved: contender, baseline, contender, baseline.
    let equal_gbps = rate(&equal, equal_bytes);
    let cmp_gbps = best_of_3(equal_bytes, &|| {
        let status = std::process::Command::new("cmp")
            .args([&answer, &equal])
            .status()
            .expect("cmp runs");
        assert!(status.success());
    });
    let tokens_gbps = rate(&spaced, spaced_bytes);
    let checker_rss_mib = peak_rss_kib() as f64 / 1024.0;
    let naive_gbps = best_of_3(spaced_bytes, &|| {
        let (x, y) = (
            std::fs::read_to_string(&answer).unwrap(),
            std::fs::read_to_string(&spaced).unwrap(),
        );
        assert!(x.split_ascii_whitespace().eq(y.split_ascii_whitespace()));
    });
    let per_answer_byte = |gbps: f64, bytes: f64| gbps * size / bytes;
    println!(
        "{{\"checker_gbps_equal\": {equal_gbps:.3}, \"checker_gbps_tokens\": {tokens_gbps:.3}, \"cmp_gbps\": {cmp_gbps:.3}, \"naive_split_gbps\": {naive_gbps:.3}, \"checker_gbps_equal_per_answer_byte\": {:.3}, \"checker_gbps_tokens_per_answer_byte\": {:.3}, \"cmp_gbps_per_answer_byte\": {:.3}, \"checker_peak_rss_mib\": {checker_rss_mib:.1}, \"checker_mb\": {mb}}}",
        per_answer_byte(equal_gbps, equal_bytes),
        per_answer_byte(tokens_gbps, spaced_bytes),
        per_answer_byte(cmp_gbps, equal_bytes),
    );
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
