//! The runtime a judging runs on. With one job, the sandbox keeps the thread
//! that made the [`Judge`] to the judging's CPU (see `sandbox::cpu`), so the
//! runtime is that thread alone; with more, a small pool of worker threads.

use super::Judge;
use crate::error::{Error, Result};

/// How long an interrupted judging has to end on its own (killing its runs,
/// removing its scratch) before the process exits regardless.
const INTERRUPT_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

impl Judge {
    /// Runs `future` to the end on a runtime fitted to the judging. Ctrl-C
    /// or SIGTERM drops it (which kills every running process and removes
    /// scratch directories) and gives [`Error::Interrupted`]. Must be called
    /// on the thread that made the judge.
    pub(crate) fn block_on<T>(
        &self,
        future: impl std::future::Future<Output = Result<T>>,
    ) -> Result<T> {
        assert_eq!(
            std::thread::current().id(),
            self.inner.home_thread,
            "a judging runs on the thread that made its judge (the one kept to its CPU)"
        );
        let jobs = self.config().jobs.get();
        // One test at a time needs no second thread: waking one per test
        // costs more than the judge's own work for it.
        let mut builder = if jobs <= 1 {
            tokio::runtime::Builder::new_current_thread()
        } else {
            let mut b = tokio::runtime::Builder::new_multi_thread();
            b.worker_threads(jobs.clamp(1, 4));
            b
        };
        let runtime = builder.enable_all().build().map_err(|e| Error::Sandbox {
            program: "tokio runtime".into(),
            source: e,
        })?;
        // Whatever the judging is stuck in, an interrupt ends it: if the
        // runtime has not ended it after a few seconds, the process exits.
        crate::sandbox::arm_interrupt_watchdog(
            INTERRUPT_GRACE,
            crate::error::exit_code::INTERRUPTED,
        );
        let result = runtime.block_on(async {
            let mut terminate = tokio::signal::unix::signal(
                tokio::signal::unix::SignalKind::terminate(),
            )
            .map_err(|e| Error::Sandbox {
                program: "signal handler".into(),
                source: e,
            })?;
            tokio::select! {
                r = future => r,
                _ = tokio::signal::ctrl_c() => Err(Error::Interrupted),
                _ = terminate.recv() => Err(Error::Interrupted),
            }
        });
        runtime.shutdown_timeout(std::time::Duration::from_secs(2));
        result
    }
}
