//! The sandbox's fixed layout: where the run's build and a compilation's
//! files appear, what the view shows of the system, and host paths in a
//! command line rewritten to where they appear inside.

use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use crate::sandbox::program::c_string;

/// Where a run's own build directory appears inside the sandbox.
pub(crate) const BUILD_MOUNT: &str = "/judge/build";

/// Where a compilation's precompiled headers appear inside the sandbox (at a
/// fixed place: the host's may be under /tmp, which the sandbox makes anew).
pub(crate) const HEADERS_MOUNT: &str = "/judge/headers";

/// Where a compilation's work directory appears inside the sandbox.
pub(crate) const WORK_MOUNT: &str = "/judge/work";

/// Where the files a package program's job names appear inside the sandbox.
pub(crate) const FILES_MOUNT: &str = "/judge/files";

/// Where a package program sees its package's folder number `index` (its
/// directory is the first: `/judge/package`; its test data folder, when
/// that is elsewhere, `/judge/package-1`). A fixed place, not the folder's
/// own path, which may lie where the sandbox shows something else (the
/// host's /tmp).
pub(crate) fn package_mount(index: usize) -> String {
    match index {
        0 => "/judge/package".into(),
        n => format!("/judge/package-{n}"),
    }
}

/// The top-level host directories every sandbox shows (read-only, where
/// they exist): the system's programs, libraries and configuration. Home
/// directories, the workspace, /var, /srv, /mnt, /run, /media, the host's
/// /tmp, /dev and /sys are not there at all (a minimal /dev and the CPU
/// topology of /sys are made for each sandbox).
pub(crate) const SYSTEM_DIRS: &[&str] = &[
    "bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "opt",
];

/// Why `dir` (canonical) cannot be hidden from runs, if it cannot: it is
/// `/`, holds a directory every sandbox shows (`/usr`, `/etc`, ...), or is
/// one of the directories programs are found in (`/usr/bin`, `/usr/lib`,
/// ...): covering it would leave runs without a system.
pub(crate) fn cannot_hide(dir: &std::path::Path) -> Option<String> {
    let system = std::path::Path::new("/");
    if dir == system {
        return Some("it is the root directory".into());
    }
    if let Some(held) = SYSTEM_DIRS
        .iter()
        .map(|d| system.join(d))
        .find(|d| d.starts_with(dir))
    {
        return Some(format!(
            "it holds {}, which every run needs",
            held.display()
        ));
    }
    const PROGRAMS: &[&str] = &[
        "/usr/bin",
        "/usr/sbin",
        "/usr/lib",
        "/usr/lib32",
        "/usr/lib64",
        "/usr/libx32",
        "/usr/libexec",
        "/usr/include",
        "/usr/share",
        "/usr/local",
        "/usr/local/bin",
        "/usr/local/lib",
    ];
    PROGRAMS
        .iter()
        .find(|p| std::path::Path::new(p) == dir)
        .map(|p| format!("it is {p}, where programs and their files live"))
}

/// The device nodes a sandbox has in its /dev.
pub(crate) const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// The uid and gid runs and compilations use (nobody).
pub(crate) const RUN_ID: u32 = 65534;

/// Size of a run's private /tmp and /dev/shm, bytes each (their pages count
/// as the run's memory).
pub(crate) const TMP_SIZE: u64 = 64 << 20;

/// Files and directories each of them can hold.
pub(crate) const TMP_INODES: u64 = 16384;

/// A job's arguments or environment entries as C strings for exec.
pub(super) fn c_strings(items: &[Vec<u8>]) -> io::Result<Vec<std::ffi::CString>> {
    items.iter().map(|a| c_string(a)).collect()
}

/// Rewrites host paths in an argument to where they appear inside the
/// sandbox: every occurrence that ends the word or is followed by `/` or
/// `:` (a class path's separator).
pub(crate) fn translate<S: AsRef<str>>(arg: &[u8], mounts: &[(PathBuf, S)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(arg.len());
    let mut rest = arg;
    'scan: while !rest.is_empty() {
        for (host, inner) in mounts {
            let host = host.as_os_str().as_bytes();
            if let Some(pos) = find(rest, host) {
                let after = &rest[pos + host.len()..];
                if after.is_empty() || after[0] == b'/' || after[0] == b':' {
                    out.extend_from_slice(&rest[..pos]);
                    out.extend_from_slice(inner.as_ref().as_bytes());
                    rest = after;
                    continue 'scan;
                }
            }
        }
        break;
    }
    out.extend_from_slice(rest);
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > haystack.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    use crate::sandbox::keeper::next_message;
    use crate::sandbox::sys;
    use std::time::Duration;

    #[test]
    fn translates_host_paths() {
        let mounts = [(PathBuf::from("/w/.judge-cache/builds/ab/cd"), BUILD_MOUNT)];
        assert_eq!(
            translate(b"/w/.judge-cache/builds/ab/cd/prog", &mounts),
            b"/judge/build/prog"
        );
        assert_eq!(translate(b"-Xmx64m", &mounts), b"-Xmx64m");
        assert_eq!(
            translate(b"/w/.judge-cache/builds/ab/cdX/y", &mounts),
            b"/w/.judge-cache/builds/ab/cdX/y"
        );
        assert_eq!(
            translate(b"/w/.judge-cache/builds/ab/cd", &mounts),
            b"/judge/build"
        );
        assert_eq!(
            translate(b"-cp=/w/.judge-cache/builds/ab/cd", &mounts),
            b"-cp=/judge/build"
        );
        assert_eq!(
            translate(
                b"/w/.judge-cache/builds/ab/cd:/usr/share/java/k.jar",
                &mounts
            ),
            b"/judge/build:/usr/share/java/k.jar"
        );
        assert_eq!(
            translate(
                b"/usr/k.jar:/w/.judge-cache/builds/ab/cd:/w/.judge-cache/builds/ab/cd/x",
                &mounts
            ),
            b"/usr/k.jar:/judge/build:/judge/build/x"
        );
    }

    /// The next job is found whether it comes during the spin or after it
    /// (when the keeper sleeps), with its descriptors, and the judge going
    /// away ends the wait either way.
    #[test]
    fn next_message_finds_a_job_sent_during_or_after_the_spin() {
        let (judge, keeper) = sys::seqpacket_pair().unwrap();
        let (read, _write) = sys::pipe().unwrap();
        let mut buf = [0u8; 64];
        for (spin, delay) in [
            (Duration::from_millis(500), Duration::from_millis(20)),
            (Duration::from_millis(5), Duration::from_millis(50)),
            (Duration::ZERO, Duration::from_millis(20)),
        ] {
            let received = std::thread::scope(|s| {
                s.spawn(|| {
                    std::thread::sleep(delay);
                    sys::send_with_fds(judge.as_raw_fd(), b"job", &[read.as_raw_fd()]).unwrap();
                });
                next_message(&keeper, &mut buf, spin)
            });
            let (n, fds) = received.unwrap().expect("a message");
            assert_eq!((&buf[..n], fds.len()), (&b"job"[..], 1), "spin {spin:?}");
        }
        drop(judge);
        for spin in [Duration::from_millis(5), Duration::ZERO] {
            assert!(next_message(&keeper, &mut buf, spin).unwrap().is_none());
        }
    }
}
