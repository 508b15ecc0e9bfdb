//! `judge stress`: runs a file on inputs from the package's generator until
//! its output disagrees with a trusted solution's (per the problem's checker)
//! or it fails (RE, TLE, MLE, OLE), then shrinks that input with
//! [`shrink`]. The main function is [`stress`], which returns a
//! [`StressReport`](crate::report::stress::StressReport); `render::stress` renders it.
//!
//! One iteration: generator (`[stress] generate` with `{seed}` and `{size}`)
//! → validator (an invalid input is counted and skipped, never used) → the
//! expected answer (reference, brute force, or another file) → the file, in
//! the sandbox → the checker. Iterations run concurrently within `--jobs`,
//! and the result is deterministic: iteration `i` always has the same seed
//! and size, and the counterexample is the failing iteration with the lowest
//! index among those run (later ones in flight are waited for and ignored).

mod counterexample;
mod harness;
mod schedule;
mod search;
mod shrink;

pub(crate) use search::{default_save_path, stress, Against, StressOptions};
