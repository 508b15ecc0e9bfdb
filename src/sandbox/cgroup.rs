//! Control groups for runs: memory limit and peak, process limit, and CPU
//! accounting of every process of a run. A slot is one cgroup (per controller
//! on v1) that a keeper reuses run after run: [`SlotDirs`] on the judge's side,
//! [`Counters`] on the keeper's, reset between runs. Where the judge's
//! cgroups go is [`place`]'s ([`JudgeCgroups`]).
//!
//! A run's peak memory must be its own. Cgroup v1 and Linux 6.12+ reset the
//! peak with a write; before 6.12, v2's `memory.peak` cannot be reset, so
//! there each run gets a fresh cgroup, `slot-<n>-run` beside its slot, made
//! before the run and removed after it ([`Counters::reset`]): the run's
//! first process moves into it before it execs (see `sys::SpawnPlan::join`),
//! and every process it starts is born there.

mod place;
mod systemd;

pub(crate) use place::JudgeCgroups;

use std::path::{Path, PathBuf};
use std::{fs, io};

/// Which cgroup version a slot uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Version {
    /// Separate memory, pids and cpuacct hierarchies.
    V1,
    /// The unified hierarchy.
    V2,
}

/// The directories of one slot's cgroup (a directory per v1 controller, or
/// one on v2): created and removed by the judge. Its keeper opens the control
/// files ([`Counters`]) and joins it; the judge never writes them.
#[derive(Debug)]
pub(crate) struct SlotDirs {
    /// The version.
    pub(crate) version: Version,
    /// v1: memory, pids, cpuacct directories; v2: one directory.
    pub(crate) dirs: Vec<PathBuf>,
}

impl SlotDirs {
    /// Creates slot `index` below the judge's directories.
    pub(crate) fn create(
        version: Version,
        judge_dirs: &[PathBuf],
        index: usize,
    ) -> io::Result<SlotDirs> {
        let mut dirs = Vec::new();
        for base in judge_dirs {
            let dir = base.join(format!("slot-{index}"));
            match fs::create_dir(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            dirs.push(dir);
        }
        Ok(SlotDirs { version, dirs })
    }

    /// Removes the slot's directories, and on v2 its run's (they must be
    /// empty of processes).
    pub(crate) fn remove(&self) {
        let runs = (self.version == Version::V2).then(|| run_dir(&self.dirs[0]));
        for dir in runs.iter().chain(&self.dirs) {
            let _ = remove_when_empty(|| fs::remove_dir(dir));
        }
    }
}

/// The fresh cgroup of a v2 slot's run: `slot-<n>-run` beside it.
fn run_dir(slot: &Path) -> PathBuf {
    let mut name = slot.file_name().unwrap_or_default().to_os_string();
    name.push("-run");
    slot.with_file_name(name)
}

/// Removes a cgroup (`remove` does, once) when its processes have left:
/// processes just killed take a fraction of a millisecond to leave, so the
/// waits between tries start short and double, up to about half a second in
/// all. `Err` when it is still there then; `Ok` when it was not there.
fn remove_when_empty(remove: impl Fn() -> io::Result<()>) -> io::Result<()> {
    let mut waited = std::time::Duration::ZERO;
    let mut pause = std::time::Duration::from_micros(100);
    loop {
        match remove() {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) if waited >= REMOVE_PATIENCE => return Err(e),
            Err(_) => {}
        }
        std::thread::sleep(pause);
        waited += pause;
        pause = (pause * 2).min(std::time::Duration::from_millis(10));
    }
}

/// The control files of a slot, kept open by its keeper (which lives outside
/// the slot: only the runs and the small process that starts them are in
/// it). Between runs the limits are set and the counters reset; after a run
/// its usage is read: two writes and four reads. On v2 before Linux 6.12
/// each run gets a cgroup of its own instead ([`PeakReset::FreshCgroup`]).
#[derive(Debug)]
pub(crate) struct Counters {
    version: Version,
    files: Files,
    /// How a run's peak is made its own.
    peak_reset: PeakReset,
    /// Limits last written, so unchanged ones are not written again.
    memory_set: Option<Option<u64>>,
    pids_set: Option<u64>,
    /// The OOM-kill counter after the last run.
    oom_seen: u64,
    /// The refused-fork counter after the last run.
    pids_seen: u64,
    /// v2: CPU usage at `reset` (cpu.stat cannot be reset).
    cpu_base: u64,
    /// Memory charged to the slot when the run started (the starter's own
    /// pages, page cache read by earlier runs): not the run's.
    memory_base: u64,
    /// Kernel memory charged to the slot at the last reset (see
    /// [`Counters::settle`]).
    kernel_base: Option<u64>,
    /// Kernel memory of the last run still charged when `settle` stopped
    /// waiting (a grace period longer than its wait, on a loaded machine):
    /// the next run's memory limit is raised by it, so the run still gets
    /// its whole limit.
    leftover: u64,
}

/// How a run's peak memory is made its own.
#[derive(Debug)]
enum PeakReset {
    /// By writing to the peak file (v1, and v2 from Linux 6.12).
    Write,
    /// By a fresh cgroup per run (v2 before Linux 6.12, whose `memory.peak`
    /// only grows): the directory it is made in (open: the supervisor does
    /// not see it by path once in the sandbox's root), its name, and the
    /// `cgroup.procs` the run's first process writes itself into.
    FreshCgroup {
        parent: fs::File,
        name: String,
        join: Option<fs::File>,
    },
}

#[derive(Debug)]
struct Files {
    memory_limit: fs::File,
    memsw_limit: Option<fs::File>,
    peak: fs::File,
    current: fs::File,
    pids: fs::File,
    cpu: fs::File,
    oom: fs::File,
    /// `pids.events` (its `max` counter: forks refused at the limit), where
    /// the kernel has it.
    pids_events: Option<fs::File>,
    /// Kernel memory charged: v1 `memory.kmem.usage_in_bytes`, v2 the
    /// `kernel` line of `memory.stat`, where the kernel has them.
    kernel: Option<fs::File>,
}

impl Files {
    /// Opens the control files of one cgroup (`dirs`: per controller on
    /// v1). The peak is opened for reading and writing where it can be
    /// reset, else for reading.
    fn open(version: Version, dirs: &[PathBuf], peak_writable: bool) -> io::Result<Files> {
        let open = |controller: usize, name: &str, write: bool| {
            let path = match version {
                Version::V1 => dirs[controller].join(name),
                Version::V2 => dirs[0].join(name),
            };
            fs::OpenOptions::new().read(true).write(write).open(path)
        };
        Files::open_with(version, &open, peak_writable)
    }

    /// The same, of the v2 cgroup open at `dir` (a directory descriptor:
    /// the supervisor no longer sees /sys/fs/cgroup by path).
    fn open_in(dir: &fs::File) -> io::Result<Files> {
        let open = |_: usize, name: &str, write: bool| super::sys::open_in(dir, name, write, false);
        Files::open_with(Version::V2, &open, false)
    }

    fn open_with(
        version: Version,
        open: &dyn Fn(usize, &str, bool) -> io::Result<fs::File>,
        peak_writable: bool,
    ) -> io::Result<Files> {
        let optional =
            |controller: usize, name: &str, write: bool| match open(controller, name, write) {
                Ok(f) => Ok(Some(f)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            };
        Ok(match version {
            Version::V1 => Files {
                memory_limit: open(0, "memory.limit_in_bytes", true)?,
                memsw_limit: optional(0, "memory.memsw.limit_in_bytes", true)?,
                peak: open(0, "memory.max_usage_in_bytes", peak_writable)?,
                current: open(0, "memory.usage_in_bytes", false)?,
                pids: open(1, "pids.max", true)?,
                cpu: open(2, "cpuacct.usage", true)?,
                oom: open(0, "memory.oom_control", false)?,
                pids_events: optional(1, "pids.events", false)?,
                kernel: optional(0, "memory.kmem.usage_in_bytes", false)?,
            },
            Version::V2 => Files {
                memory_limit: open(0, "memory.max", true)?,
                memsw_limit: optional(0, "memory.swap.max", true)?,
                peak: open(0, "memory.peak", peak_writable)?,
                current: open(0, "memory.current", false)?,
                pids: open(0, "pids.max", true)?,
                cpu: open(0, "cpu.stat", false)?,
                oom: open(0, "memory.events", false)?,
                pids_events: optional(0, "pids.events", false)?,
                kernel: optional(0, "memory.stat", false)?,
            },
        })
    }
}

/// What a run used, read from its cgroup.
#[derive(Debug, Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Usage {
    /// CPU time of every process of the run, ns.
    pub(crate) cpu_ns: u64,
    /// Peak memory (v1 `memory.max_usage_in_bytes`, v2 `memory.peak`) above
    /// what the slot held when the run started, bytes.
    pub(crate) peak_bytes: u64,
    /// Whether the OOM killer acted in this run (evidence of MLE).
    pub(crate) oom_killed: bool,
    /// Whether a fork or clone was refused at the process limit in this run.
    pub(crate) pids_limited: bool,
}

impl Counters {
    /// Opens the control files of the slot in `dirs`, and learns how a
    /// run's peak is made its own: a write to the peak file where the kernel
    /// takes it (tried here, on the empty slot), else a fresh cgroup per run.
    pub(crate) fn open(version: Version, dirs: &[PathBuf]) -> io::Result<Counters> {
        let resettable = version == Version::V1
            || fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(dirs[0].join("memory.peak"))
                .and_then(|f| write_at(&f, "0"))
                .is_ok();
        let files = Files::open(version, dirs, resettable)?;
        let peak_reset = match resettable {
            true => PeakReset::Write,
            false => {
                let run = run_dir(&dirs[0]);
                let parent = dirs[0].parent().unwrap_or(Path::new("/"));
                PeakReset::FreshCgroup {
                    parent: fs::File::open(parent)?,
                    name: run
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                    join: None,
                }
            }
        };
        let oom_seen = keyed(&read_at(&files.oom)?, "oom_kill").unwrap_or(0);
        let pids_seen = pids_refused(&files)?;
        Ok(Counters {
            version,
            files,
            peak_reset,
            memory_set: None,
            pids_set: None,
            oom_seen,
            pids_seen,
            cpu_base: 0,
            memory_base: 0,
            kernel_base: None,
            leftover: 0,
        })
    }

    /// The `cgroup.procs` of the next run's own cgroup, which its first
    /// process joins before it execs (`None`: runs are born in the slot).
    pub(crate) fn join_file(&self) -> Option<&fs::File> {
        match &self.peak_reset {
            PeakReset::Write => None,
            PeakReset::FreshCgroup { join, .. } => join.as_ref(),
        }
    }

    /// Kernel memory charged to the slot now, bytes (`None` where the kernel
    /// does not say).
    fn kernel_bytes(&self) -> Option<u64> {
        let text = read_at(self.files.kernel.as_ref()?).ok()?;
        match self.version {
            Version::V1 => text.trim().parse().ok(),
            Version::V2 => keyed(&text, "kernel"),
        }
    }

    /// Waits, up to 100 ms, for the kernel memory the last run left charged
    /// to the slot to go: the kernel frees some of a dead process's memory
    /// (its page tables, its task) only after an RCU grace period. After a
    /// fork bomb that is megabytes for about 20 ms, which would otherwise
    /// count against the next run's limit. Measured against what the slot
    /// held at the last reset: the kernel's caches (directory entries, /proc
    /// inodes) grow by a few KiB per run and stay, and are no reason to
    /// wait. At once when nothing is left (and with a fresh cgroup per run,
    /// which starts from nothing). What is still there after the wait is
    /// the last run's, and raises the next run's limit (see `leftover`).
    pub(crate) fn settle(&mut self) {
        const SLACK: u64 = 1 << 20;
        self.leftover = 0;
        let Some(base) = self.kernel_base else { return };
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(100);
        loop {
            let left = self.kernel_bytes().map_or(0, |k| k.saturating_sub(base));
            if left <= SLACK {
                return;
            }
            if std::time::Instant::now() >= deadline {
                self.leftover = left;
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Sets the limits of the next run (written only when they change). With
    /// a fresh cgroup per run, `pids` counts only the run's processes (the
    /// starter is not in it): one less.
    pub(crate) fn set_limits(&mut self, memory: Option<u64>, pids: u64) -> io::Result<()> {
        let pids = match self.peak_reset {
            PeakReset::Write => pids,
            PeakReset::FreshCgroup { .. } => pids.saturating_sub(1).max(1),
        };
        let files = &self.files;
        let memory = memory.map(|m| m.saturating_add(self.leftover));
        if self.memory_set != Some(memory) {
            let limit = match (memory, self.version) {
                (Some(m), _) => m.to_string(),
                (None, Version::V1) => "-1".into(),
                (None, Version::V2) => "max".into(),
            };
            let written = match (&files.memsw_limit, self.version) {
                // v1 requires memory+swap >= memory at every step: lift the
                // memory+swap limit, set the memory limit, then match it.
                (Some(memsw), Version::V1) => write_at(memsw, "-1")
                    .and_then(|()| write_at(&files.memory_limit, &limit))
                    .and_then(|()| write_at(memsw, &limit)),
                // No swap for runs: what the limit allows is real memory.
                (swap, _) => write_at(&files.memory_limit, &limit)
                    .and_then(|()| swap.as_ref().map_or(Ok(()), |s| write_at(s, "0"))),
            };
            // The kernel refuses a limit below what the slot already holds.
            written.map_err(|e| match e.raw_os_error() {
                Some(libc::EBUSY) => io::Error::other(format!(
                    "the memory limit of {limit} bytes is below the {} bytes the sandbox \
                     holds before a run starts",
                    read_at(&files.current)
                        .map(|t| t.trim().to_string())
                        .unwrap_or_default()
                )),
                _ => e,
            })?;
            self.memory_set = Some(memory);
        }
        if self.pids_set != Some(pids) {
            write_at(&files.pids, &pids.to_string())?;
            self.pids_set = Some(pids);
        }
        Ok(())
    }

    /// Resets the counters for the next run (done as soon as the slot is
    /// clean, before the next job comes: off the way of its start). With a
    /// fresh cgroup per run, the last run's is removed and the next one's
    /// made. Every write here is one the measurement relies on: a failure
    /// is an error.
    pub(crate) fn reset(&mut self) -> io::Result<()> {
        if let PeakReset::FreshCgroup { parent, name, join } = &mut self.peak_reset {
            *join = None;
            let named = |e: io::Error, what: &str| {
                io::Error::new(
                    e.kind(),
                    format!("cannot {what} the run's cgroup {name}: {e}"),
                )
            };
            remove_when_empty(|| super::sys::rmdir_in(parent, name))
                .map_err(|e| named(e, "remove"))?;
            super::sys::mkdir_in(parent, name).map_err(|e| named(e, "create"))?;
            let dir =
                super::sys::open_in(parent, name, false, true).map_err(|e| named(e, "open"))?;
            self.files = Files::open_in(&dir).map_err(|e| named(e, "open the files of"))?;
            *join = Some(
                super::sys::open_in(&dir, "cgroup.procs", true, false)
                    .map_err(|e| named(e, "open cgroup.procs of"))?,
            );
            self.memory_set = None;
            self.pids_set = None;
            self.oom_seen = 0;
            self.pids_seen = 0;
            self.cpu_base = 0;
            self.memory_base = 0;
            self.kernel_base = None;
            self.leftover = 0;
            return Ok(());
        }
        let files = &self.files;
        match self.version {
            Version::V1 => {
                write_at(&files.peak, "0")?;
                write_at(&files.cpu, "0")?;
            }
            Version::V2 => {
                // memory.peak is reset by a write to this descriptor (Linux
                // 6.12+; checked when the slot was opened).
                write_at(&files.peak, "0")?;
                self.cpu_base = parse_cpu(Version::V2, &read_at(&files.cpu)?);
            }
        }
        self.memory_base = read_at(&files.current)?.trim().parse().unwrap_or(0);
        self.kernel_base = self.kernel_bytes();
        Ok(())
    }

    /// CPU time of every process in the slot since `reset`, ns.
    pub(crate) fn cpu_ns(&self) -> io::Result<u64> {
        Ok(parse_cpu(self.version, &read_at(&self.files.cpu)?).saturating_sub(self.cpu_base))
    }

    /// What the run since `reset` used.
    pub(crate) fn usage(&mut self) -> io::Result<Usage> {
        let cpu_ns = self.cpu_ns()?;
        let files = &self.files;
        let peak: u64 = read_at(&files.peak)?.trim().parse().unwrap_or(0);
        let oom = keyed(&read_at(&files.oom)?, "oom_kill").unwrap_or(0);
        let oom_killed = oom > self.oom_seen;
        self.oom_seen = oom;
        let refused = pids_refused(files)?;
        let pids_limited = refused > self.pids_seen;
        self.pids_seen = refused;
        Ok(Usage {
            cpu_ns,
            peak_bytes: peak.saturating_sub(self.memory_base),
            oom_killed,
            pids_limited,
        })
    }
}

/// How long [`SlotDirs::remove`] waits, in all, for a slot's processes to leave.
const REMOVE_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// How many forks the pids controller has refused so far (0 where the kernel
/// does not count them).
fn pids_refused(files: &Files) -> io::Result<u64> {
    match &files.pids_events {
        Some(f) => Ok(keyed(&read_at(f)?, "max").unwrap_or(0)),
        None => Ok(0),
    }
}

fn read_at(file: &fs::File) -> io::Result<String> {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 1024];
    let n = file.read_at(&mut buf, 0)?;
    Ok(String::from_utf8_lossy(&buf[..n]).into_owned())
}

fn write_at(file: &fs::File, value: &str) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.write_at(value.as_bytes(), 0).map(|_| ())
}

/// Reads the CPU usage (ns) from the slot's CPU file.
pub(crate) fn parse_cpu(version: Version, text: &str) -> u64 {
    match version {
        Version::V1 => text.trim().parse().unwrap_or(0),
        Version::V2 => keyed(text, "usage_usec").unwrap_or(0) * 1000,
    }
}

/// The value of `key` in "key value" lines.
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_counters() {
        assert_eq!(
            keyed("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n", "oom_kill"),
            Some(3)
        );
        assert_eq!(
            parse_cpu(Version::V2, "usage_usec 1500\nuser_usec 1000\n"),
            1_500_000
        );
        assert_eq!(parse_cpu(Version::V1, "123456\n"), 123_456);
    }
}
