//! Reading a run's stdout and stderr while it runs: at most the output limit
//! kept (in memory, then in a file), the rest drained and dropped. The main
//! type is [`Drains`].

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use tokio::io::AsyncReadExt;

use super::{Captured, Limits};

/// Stdout kept in memory before it spills to a file.
const SPILL_THRESHOLD: usize = 1 << 20;

/// How long leftover output pipes are drained after the process ended
/// (a descendant that escaped the group may hold them open).
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// What the two readers return: stdout (and whether it went over its
/// limit), stderr (and whether it was cut).
type DrainResults = (io::Result<(Captured, bool)>, io::Result<(Vec<u8>, bool)>);

/// The readers of a run's stdout and stderr: one future, polled by the run's
/// own task ([`Drains::progress`] in its select loop, then
/// [`Drains::finish`]), not tasks of their own, so that no other task has to
/// be woken and scheduled for each run.
pub(crate) struct Drains {
    both: std::pin::Pin<Box<dyn std::future::Future<Output = DrainResults> + Send>>,
    done: Option<DrainResults>,
    stop_stdout: Option<tokio::sync::oneshot::Sender<()>>,
    stop_stderr: Option<tokio::sync::oneshot::Sender<()>>,
}

/// What the drains read.
pub(crate) struct Drained {
    pub(crate) stdout: Captured,
    pub(crate) stdout_over: bool,
    pub(crate) stderr: Vec<u8>,
    pub(crate) stderr_truncated: bool,
}

impl Drains {
    /// The readers, and what resolves when stdout went over its limit.
    pub(crate) fn start(
        stdout: impl tokio::io::AsyncRead + Unpin + Send + 'static,
        stderr: impl tokio::io::AsyncRead + Unpin + Send + 'static,
        limits: &Limits,
        spill: Option<PathBuf>,
    ) -> (Drains, OutputExceeded) {
        // Told to stop when a descendant that escaped holds a pipe open after
        // the program exited: the drains then return what they have.
        let (stop_stdout, stdout_stop) = tokio::sync::oneshot::channel();
        let (stop_stderr, stderr_stop) = tokio::sync::oneshot::channel();
        let (exceeded_tx, exceeded) = tokio::sync::oneshot::channel();
        let stdout = drain_stdout(
            stdout,
            limits.stdout,
            spill,
            stdout_stop,
            (exceeded_tx, limits.output_ends_run),
        );
        let stderr = drain_keep(stderr, limits.stderr, stderr_stop);
        let drains = Drains {
            both: Box::pin(async move { tokio::join!(stdout, stderr) }),
            done: None,
            stop_stdout: Some(stop_stdout),
            stop_stderr: Some(stop_stderr),
        };
        let exceeded = OutputExceeded(limits.output_ends_run.then_some(exceeded));
        (drains, exceeded)
    }

    /// Reads on; resolves once both pipes are at their end (then never again).
    pub(crate) async fn progress(&mut self) {
        if self.done.is_some() {
            return std::future::pending().await;
        }
        let results = self.both.as_mut().await;
        self.done = Some(results);
    }

    /// Collects what was read, waiting at most [`DRAIN_GRACE`] for the pipes to close.
    pub(crate) async fn finish(mut self) -> io::Result<Drained> {
        let (stdout, stderr) = match self.done.take() {
            Some(results) => results,
            None => match tokio::time::timeout(DRAIN_GRACE, self.both.as_mut()).await {
                Ok(results) => results,
                Err(_) => {
                    for stop in [self.stop_stdout.take(), self.stop_stderr.take()] {
                        let _ = stop.map(|s| s.send(()));
                    }
                    self.both.as_mut().await
                }
            },
        };
        let (stdout, stdout_over) = stdout?;
        let (stderr, stderr_truncated) = stderr.unwrap_or_default();
        Ok(Drained {
            stdout,
            stdout_over,
            stderr,
            stderr_truncated,
        })
    }
}

/// Resolves when a run's stdout went over its limit (never otherwise).
pub(crate) struct OutputExceeded(Option<tokio::sync::oneshot::Receiver<()>>);

impl OutputExceeded {
    pub(crate) async fn wait(&mut self) {
        if let Some(rx) = &mut self.0 {
            if rx.await.is_ok() {
                return;
            }
            self.0 = None;
        }
        std::future::pending().await
    }
}

/// Reads stdout, keeping at most `cap` bytes (in memory up to the spill
/// threshold, then in `spill`). Returns the capture and whether the process
/// tried to write more than `cap` (the output limit): then it stops, or, when
/// the run goes on (`ends_run` false), reads the rest and drops it.
async fn drain_stdout(
    mut pipe: impl tokio::io::AsyncRead + Unpin,
    cap: u64,
    spill: Option<PathBuf>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
    (exceeded, ends_run): (tokio::sync::oneshot::Sender<()>, bool),
) -> io::Result<(Captured, bool)> {
    let mut memory = Vec::new();
    let mut file: Option<(io::BufWriter<File>, PathBuf)> = None;
    let mut total: u64 = 0;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = tokio::select! {
        read = pipe.read(&mut buf) => read?,
        _ = &mut stop => break};
        if n == 0 {
            break;
        }
        let keep = (cap.saturating_sub(total)).min(n as u64) as usize;
        total += keep as u64;
        let chunk = &buf[..keep];
        match (&mut file, &spill) {
            (Some((w, _)), _) => w.write_all(chunk)?,
            (None, Some(path)) if memory.len() + chunk.len() > SPILL_THRESHOLD => {
                let mut w = io::BufWriter::with_capacity(256 << 10, File::create(path)?);
                w.write_all(&memory)?;
                w.write_all(chunk)?;
                memory = Vec::new();
                file = Some((w, path.clone()));
            }
            _ => memory.extend_from_slice(chunk),
        }
        if keep < n {
            if ends_run {
                let _ = exceeded.send(());
            } else {
                // The run goes on: the rest is read and dropped.
                loop {
                    let n = tokio::select! {
                    read = pipe.read(&mut buf) => read?,
                    _ = &mut stop => 0};
                    if n == 0 {
                        break;
                    }
                }
            }
            return Ok((finish(memory, file, total)?, true));
        }
    }
    Ok((finish(memory, file, total)?, false))
}

pub(crate) fn finish(
    memory: Vec<u8>,
    file: Option<(io::BufWriter<File>, PathBuf)>,
    len: u64,
) -> io::Result<Captured> {
    Ok(match file {
        Some((mut w, path)) => {
            w.flush()?;
            Captured::File { path, len }
        }
        None => Captured::Memory(memory),
    })
}

/// Reads a pipe to its end, keeping the first `cap` bytes; tells whether more came.
async fn drain_keep(
    mut pipe: impl tokio::io::AsyncRead + Unpin,
    cap: u64,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> io::Result<(Vec<u8>, bool)> {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut buf = vec![0u8; 16 << 10];
    loop {
        let n = tokio::select! {
        read = pipe.read(&mut buf) => read?,
        _ = &mut stop => 0};
        if n == 0 {
            return Ok((kept, truncated));
        }
        let room = (cap as usize).saturating_sub(kept.len()).min(n);
        truncated |= room < n;
        kept.extend_from_slice(&buf[..room]);
    }
}
