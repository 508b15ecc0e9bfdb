//! The interrupt watchdog: after SIGINT or SIGTERM, the process ends within
//! a grace period even if the thread that would end the judging is stuck
//! (in a system call on something a hostile folder placed, say).

use std::os::fd::{AsRawFd, IntoRawFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// The pipe the signal action writes to (-1 until armed).
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The signal action: one byte down the pipe.
fn wake() {
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: a one-byte write from a static buffer to our own pipe.
        let _ = unsafe { libc::write(fd, b"!".as_ptr().cast(), 1) };
    }
}

/// Arms the watchdog once per process: on the first SIGINT or SIGTERM it
/// waits `grace`, and if the process is still there, exits it with `code`
/// at once (keepers see their socket close and kill what they run).
pub(crate) fn arm(grace: Duration, code: i32) {
    static ARMED: std::sync::Once = std::sync::Once::new();
    ARMED.call_once(|| {
        let Ok((read, write)) = super::pipe() else {
            return;
        };
        WAKE.store(write.into_raw_fd(), Ordering::SeqCst);
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: the action only loads an atomic and calls write(2),
            // both async-signal-safe, on a descriptor that stays open.
            let registered = unsafe { signal_hook_registry::register(signal, wake) };
            if registered.is_err() {
                return;
            }
        }
        let _ = std::thread::Builder::new()
            .name("judge-interrupt-watchdog".into())
            .spawn(move || {
                let mut byte = [0u8; 1];
                // SAFETY: a read into a local buffer from our own pipe.
                let n = unsafe { libc::read(read.as_raw_fd(), byte.as_mut_ptr().cast(), 1) };
                if n == 1 {
                    std::thread::sleep(grace);
                    // SAFETY: ends the process without running anything else
                    // (another thread may hold a lock exit would need).
                    unsafe { libc::_exit(code) };
                }
            });
    });
}
