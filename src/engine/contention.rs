//! How contended the machine is now: a short fixed probe, bound by cache
//! and memory latency (a pointer chase through 8 MiB), timed in its own CPU
//! time against the quietest time this machine ever gave it, kept in the
//! cache directory ([`Slowdown`]). CPU time is what the judge limits, and
//! what shared caches and memory bandwidth inflate.

use std::path::Path;
use std::time::Duration;

/// Above this slowdown the machine is contended: a result near the limit
/// is marked so, and not cached as final.
pub(super) const CONTENDED: f64 = 1.15;

/// The machine's slowdown now against its calibration (1.0 when quiet).
#[derive(Debug, Clone, Copy)]
pub(super) struct Slowdown(pub(super) f64);

/// Runs the probe (a few milliseconds, the least of three) and compares
/// it with the calibration kept at `calibration`, which it lowers when it
/// is faster (the first run calibrates).
pub(super) fn measure(calibration: &Path) -> Slowdown {
    let now = (0..3).map(|_| probe()).min().expect("three probes");
    let quiet = std::fs::read_to_string(calibration)
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok())
        .map(Duration::from_nanos);
    match quiet {
        Some(q) if q <= now && !q.is_zero() => Slowdown(now.as_secs_f64() / q.as_secs_f64()),
        _ => {
            // A lost write only means calibrating again next time.
            let _ = std::fs::write(calibration, now.as_nanos().to_string());
            Slowdown(1.0)
        }
    }
}

/// One pointer chase: 8 MiB of indices in one cycle, 400 000 steps.
fn probe() -> Duration {
    let next = cycle();
    let start = crate::sandbox::thread_cpu_time();
    let mut at = 0u32;
    for _ in 0..400_000 {
        at = next[at as usize];
    }
    let spent = crate::sandbox::thread_cpu_time().saturating_sub(start);
    std::hint::black_box(at);
    spent
}

/// The probe's cycle, made once per process (making it takes longer than
/// the chase itself).
fn cycle() -> &'static [u32] {
    static CYCLE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    CYCLE.get_or_init(|| {
        const LEN: usize = 2 << 20;
        let mut next: Vec<u32> = (0..LEN as u32).collect();
        // Sattolo's shuffle with a fixed generator: a single cycle, the
        // same every time.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for i in (1..LEN).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let j = (state % i as u64) as usize;
            next.swap(i, j);
        }
        next
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first measure calibrates; a later one is against it, never
    /// below 1.
    #[test]
    fn the_first_probe_calibrates_and_later_ones_compare() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("contention-probe");
        assert_eq!(measure(&file).0, 1.0);
        assert!(file.exists());
        assert!(measure(&file).0 >= 1.0);
    }
}
