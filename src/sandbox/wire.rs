//! Two programs talking: the pipes that connect a submission with an
//! interactor, handed to the runs that use them ([`Handoff`]), either end to
//! end (the kernel connects them; the judge is not in the path) or through
//! a [`Relay`] that keeps the last lines each side sent (a replay of a
//! failed test, to show how the interaction ended).

use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::sync::{Arc, Mutex};

use super::sys;

/// One end of a pipe, given to the run that uses it: the run takes it when
/// it starts its program, and the judge's copy is closed then, so that the
/// other side sees the end of the stream when the program is gone.
#[derive(Debug, Clone)]
pub(crate) struct Handoff(Arc<Mutex<Option<OwnedFd>>>);

impl Handoff {
    fn new(fd: OwnedFd) -> Handoff {
        Handoff(Arc::new(Mutex::new(Some(fd))))
    }

    /// The descriptor, once: `None` when a run has taken it already.
    pub(crate) fn take(&self) -> Option<OwnedFd> {
        self.0.lock().expect("not poisoned").take()
    }
}

/// A pipe: what is written to `write` is read from `read`.
pub(crate) fn wire() -> io::Result<(Handoff, Handoff)> {
    let (read, write) = sys::pipe()?;
    Ok((Handoff::new(read), Handoff::new(write)))
}

/// Who sent a line of an interaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// The program judged.
    Submission,
    /// The package's interactor.
    Interactor,
}

/// The last lines of an interaction, in the order they were sent.
#[derive(Debug, Default)]
struct Tail {
    lines: std::collections::VecDeque<(Side, String)>,
    /// The line each side is still writing.
    partial: [Vec<u8>; 2],
}

/// How many lines a relay keeps, and how long each.
const KEPT_LINES: usize = 24;
const KEPT_LINE_CHARS: usize = 200;

impl Tail {
    fn push(&mut self, side: Side, bytes: &[u8]) {
        let index = side as usize;
        for &b in bytes {
            if b == b'\n' {
                let line = std::mem::take(&mut self.partial[index]);
                self.line(side, &line);
            } else if self.partial[index].len() < KEPT_LINE_CHARS * 4 {
                self.partial[index].push(b);
            }
        }
    }

    fn line(&mut self, side: Side, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        let mut text: String = text.chars().take(KEPT_LINE_CHARS).collect();
        if bytes.len() > text.len() {
            text.push('…');
        }
        if self.lines.len() == KEPT_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back((side, text));
    }
}

/// The judge in the middle: two threads copying each side's output to the
/// other, keeping the tail of what passed. Made by [`relay`].
pub(crate) struct Relay {
    tail: Arc<Mutex<Tail>>,
    threads: Vec<std::thread::JoinHandle<std::time::Instant>>,
}

/// What a relay saw.
#[derive(Debug)]
pub(crate) struct Relayed {
    /// The last lines, oldest first (a last line without its newline too).
    pub(crate) lines: Vec<(Side, String)>,
    /// Which side closed its output first (ended): exact, as the other
    /// side only sees the end once the relay passed it on.
    pub(crate) first_to_end: Side,
}

/// The four ends the programs of a relayed interaction use:
/// `(submission stdin, submission stdout, interactor stdin, interactor stdout)`.
pub(crate) type Ends = (Handoff, Handoff, Handoff, Handoff);

/// Starts a relay between a submission and an interactor.
pub(crate) fn relay() -> io::Result<(Relay, Ends)> {
    let (sub_out_read, sub_out_write) = sys::pipe()?;
    let (int_in_read, int_in_write) = sys::pipe()?;
    let (int_out_read, int_out_write) = sys::pipe()?;
    let (sub_in_read, sub_in_write) = sys::pipe()?;
    let tail = Arc::new(Mutex::new(Tail::default()));
    let mut threads = Vec::new();
    for (from, to, side) in [
        (sub_out_read, int_in_write, Side::Submission),
        (int_out_read, sub_in_write, Side::Interactor),
    ] {
        let tail = Arc::clone(&tail);
        threads.push(std::thread::spawn(move || copy(from, to, side, &tail)));
    }
    let ends = (
        Handoff::new(sub_in_read),
        Handoff::new(sub_out_write),
        Handoff::new(int_in_read),
        Handoff::new(int_out_write),
    );
    Ok((Relay { tail, threads }, ends))
}

/// Copies until the writers of `from` are gone; what cannot be delivered
/// (the reader is gone) is still read and kept, so the writer never blocks.
fn copy(from: OwnedFd, to: OwnedFd, side: Side, tail: &Mutex<Tail>) -> std::time::Instant {
    let mut from = std::fs::File::from(from);
    let mut to = Some(std::fs::File::from(to));
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        tail.lock().expect("not poisoned").push(side, &buf[..n]);
        if let Some(out) = &mut to {
            if out.write_all(&buf[..n]).is_err() {
                to = None;
            }
        }
    }
    // The end, seen before it is passed on (by closing `to`).
    std::time::Instant::now()
}

impl Relay {
    /// Waits for both directions to end (both programs gone).
    pub(crate) fn finish(self) -> Relayed {
        let ended: Vec<std::time::Instant> = self
            .threads
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect();
        let first_to_end = if ended[0] <= ended[1] {
            Side::Submission
        } else {
            Side::Interactor
        };
        let mut tail = self.tail.lock().expect("not poisoned");
        for side in [Side::Submission, Side::Interactor] {
            let rest = std::mem::take(&mut tail.partial[side as usize]);
            if !rest.is_empty() {
                tail.line(side, &rest);
            }
        }
        Relayed {
            lines: tail.lines.iter().cloned().collect(),
            first_to_end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_in_order_and_cuts_long_ones() {
        let mut tail = Tail::default();
        for i in 0..30 {
            tail.push(Side::Submission, format!("s{i}\n").as_bytes());
            tail.push(Side::Interactor, format!("i{i}\n").as_bytes());
        }
        tail.push(Side::Submission, "x".repeat(300).as_bytes());
        tail.push(Side::Submission, b"\n");
        assert_eq!(tail.lines.len(), KEPT_LINES);
        // 61 lines sent, the last 24 kept: from the 38th (i18) on.
        assert_eq!(tail.lines[0], (Side::Interactor, "i18".to_string()));
        let last = &tail.lines[KEPT_LINES - 1];
        assert_eq!(last.0, Side::Submission);
        assert!(last.1.ends_with('…') && last.1.chars().count() == KEPT_LINE_CHARS + 1);
    }
}
