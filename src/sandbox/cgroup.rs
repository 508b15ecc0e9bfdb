//! Control groups for runs: memory limit and peak, process limit, and CPU
//! accounting of every process of a run. A slot is one cgroup (per controller
//! on v1) that a keeper reuses run after run: [`SlotDirs`] on the judge's side,
//! [`Counters`] on the keeper's, reset between runs.
//!
//! Cgroups are created only below the judge's own cgroup (read from
//! /proc/self/cgroup), under `judge-<pid>/slot-<n>`, and removed when the
//! judge ends. Stale `judge-<pid>` directories of judges that died are
//! removed at start. Both cgroup v1 (memory, pids and cpuacct controllers)
//! and v2 (the unified hierarchy with memory, pids and cpu enabled) are
//! supported.

use crate::sandbox::CgroupError;
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

/// Where the judge may create cgroups.
#[derive(Debug, Clone)]
pub(crate) struct Hierarchy {
    /// The version.
    pub(crate) version: Version,
    /// v1: the judge's own directories in the memory, pids and cpuacct
    /// hierarchies; v2: one entry, the judge's own directory.
    bases: Vec<PathBuf>,
}

const V1_CONTROLLERS: [&str; 3] = ["memory", "pids", "cpuacct"];

impl Hierarchy {
    /// Finds a writable hierarchy with the needed controllers, or says why not.
    pub(crate) fn detect() -> Result<Hierarchy, Vec<CgroupError>> {
        let read = |path: &'static str| {
            fs::read_to_string(path).map_err(|error| vec![CgroupError::Proc { path, error }])
        };
        let own = read("/proc/self/cgroup")?;
        let mounts = read("/proc/self/mountinfo")?;
        let v1 = detect_v1(&own, &mounts);
        let v2 = detect_v2(&own, &mounts);
        let mut reasons = Vec::new();
        for candidate in [v1, v2] {
            match candidate {
                Ok(h) => match h.check_writable() {
                    Ok(()) => return Ok(h),
                    Err(e) => reasons.push(e),
                },
                Err(e) => reasons.push(e),
            }
        }
        Err(reasons)
    }

    fn check_writable(&self) -> Result<(), CgroupError> {
        for base in &self.bases {
            let probe = base.join(format!("judge-probe-{}", std::process::id()));
            fs::create_dir(&probe).map_err(|error| CgroupError::NotWritable {
                base: base.clone(),
                error,
            })?;
            let _ = fs::remove_dir(&probe);
        }
        if self.version == Version::V2 {
            let controllers = fs::read_to_string(self.bases[0].join("cgroup.subtree_control"))
                .unwrap_or_default();
            for c in ["memory", "pids", "cpu"] {
                if !controllers.split_whitespace().any(|x| x == c) {
                    return Err(CgroupError::V2Delegated {
                        base: self.bases[0].clone(),
                        controller: c,
                    });
                }
            }
        }
        Ok(())
    }

    /// The judge's own parent cgroup directories, created now; stale ones of
    /// dead judges are removed.
    pub(crate) fn judge_dirs(&self) -> io::Result<Vec<PathBuf>> {
        let name = format!("judge-{}", std::process::id());
        let mut dirs = Vec::new();
        for base in &self.bases {
            remove_stale(base);
            let dir = base.join(&name);
            fs::create_dir_all(&dir)?;
            if self.version == Version::V2 {
                // Children of this cgroup get the controllers too.
                let _ = fs::write(dir.join("cgroup.subtree_control"), "+memory +pids +cpu");
            }
            dirs.push(dir);
        }
        Ok(dirs)
    }
}

fn remove_stale(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("judge-")
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let dir = entry.path();
        if let Ok(slots) = fs::read_dir(&dir) {
            for slot in slots.flatten() {
                if slot.path().is_dir() {
                    let _ = fs::remove_dir(slot.path());
                }
            }
        }
        let _ = fs::remove_dir(&dir);
    }
}

/// Parses "ID:CONTROLLERS:PATH" lines: the path of `controller` (v1) or of the
/// unified hierarchy (`controller` empty).
fn own_path<'a>(own: &'a str, controller: &str) -> Option<&'a str> {
    own.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, ctrls, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = if controller.is_empty() {
            ctrls.is_empty()
        } else {
            ctrls.split(',').any(|c| c == controller)
        };
        hit.then_some(path)
    })
}

/// Mount points of cgroup file systems: (fstype, super options, mount point, root).
fn cgroup_mounts(mounts: &str) -> Vec<(String, String, PathBuf, String)> {
    mounts
        .lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let fields: Vec<&str> = left.split(' ').collect();
            let rfields: Vec<&str> = right.split(' ').collect();
            let fstype = *rfields.first()?;
            if fstype != "cgroup" && fstype != "cgroup2" {
                return None;
            }
            Some((
                fstype.to_string(),
                rfields.get(2).copied().unwrap_or("").to_string(),
                PathBuf::from(unescape(fields.get(4)?)),
                fields.get(3)?.to_string(),
            ))
        })
        .collect()
}

fn unescape(s: &str) -> String {
    s.replace("\\040", " ")
}

/// The directory of cgroup `path` (as in /proc/self/cgroup) in a hierarchy mounted at `mount` with `root`.
fn join_cgroup(mount: &Path, root: &str, path: &str) -> PathBuf {
    let rel = path
        .strip_prefix(root)
        .unwrap_or(path)
        .trim_start_matches('/');
    if rel.is_empty() {
        mount.to_path_buf()
    } else {
        mount.join(rel)
    }
}

fn detect_v1(own: &str, mounts: &str) -> Result<Hierarchy, CgroupError> {
    let all = cgroup_mounts(mounts);
    let mut bases = Vec::new();
    for controller in V1_CONTROLLERS {
        let (_, _, mount, root) = all
            .iter()
            .find(|(t, opts, _, _)| t == "cgroup" && opts.split(',').any(|o| o == controller))
            .ok_or(CgroupError::V1NotMounted(controller))?;
        let path = own_path(own, controller).ok_or(CgroupError::V1NoLine(controller))?;
        bases.push(join_cgroup(mount, root, path));
    }
    Ok(Hierarchy {
        version: Version::V1,
        bases,
    })
}

fn detect_v2(own: &str, mounts: &str) -> Result<Hierarchy, CgroupError> {
    let all = cgroup_mounts(mounts);
    let (_, _, mount, root) = all
        .iter()
        .find(|(t, _, _, _)| t == "cgroup2")
        .ok_or(CgroupError::V2NotMounted)?;
    let path = own_path(own, "").ok_or(CgroupError::V2NoLine)?;
    let base = join_cgroup(mount, root, path);
    let available = fs::read_to_string(base.join("cgroup.controllers")).unwrap_or_default();
    for c in ["memory", "pids", "cpu"] {
        if !available.split_whitespace().any(|x| x == c) {
            return Err(CgroupError::V2Controller {
                base,
                controller: c,
            });
        }
    }
    // A process may not live in a cgroup whose children have controllers
    // (no internal processes), so create the judge's cgroups beside it: the
    // judge stays where it is and its runs go below judge-<pid>.
    Ok(Hierarchy {
        version: Version::V2,
        bases: vec![base],
    })
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

    /// Removes the slot's directories (they must be empty of processes).
    /// Processes just killed take a fraction of a millisecond to leave: the
    /// waits between tries start short and double, up to about half a second
    /// in all.
    pub(crate) fn remove(&self) {
        let mut waited = std::time::Duration::ZERO;
        let mut pause = std::time::Duration::from_micros(100);
        for dir in &self.dirs {
            while fs::remove_dir(dir).is_err() && dir.exists() && waited < REMOVE_PATIENCE {
                std::thread::sleep(pause);
                waited += pause;
                pause = (pause * 2).min(std::time::Duration::from_millis(10));
            }
        }
    }
}

/// The control files of a slot, kept open by its keeper (which lives outside
/// the slot: only the runs and the small process that starts them are in
/// it). Between runs the limits are set and the counters reset; after a run
/// its usage is read: two writes and four reads.
#[derive(Debug)]
pub(crate) struct Counters {
    version: Version,
    files: Files,
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
    /// Opens the control files of the slot in `dirs`.
    pub(crate) fn open(version: Version, dirs: &[PathBuf]) -> io::Result<Counters> {
        let file = |controller: usize, name: &str| match version {
            Version::V1 => dirs[controller].join(name),
            Version::V2 => dirs[0].join(name),
        };
        let rw = |p: PathBuf| fs::OpenOptions::new().read(true).write(true).open(p);
        let files = match version {
            Version::V1 => Files {
                memory_limit: rw(file(0, "memory.limit_in_bytes"))?,
                memsw_limit: rw(file(0, "memory.memsw.limit_in_bytes")).ok(),
                peak: rw(file(0, "memory.max_usage_in_bytes"))?,
                current: fs::File::open(file(0, "memory.usage_in_bytes"))?,
                pids: rw(file(1, "pids.max"))?,
                cpu: rw(file(2, "cpuacct.usage"))?,
                oom: fs::File::open(file(0, "memory.oom_control"))?,
                pids_events: fs::File::open(file(1, "pids.events")).ok(),
                kernel: fs::File::open(file(0, "memory.kmem.usage_in_bytes")).ok(),
            },
            Version::V2 => Files {
                memory_limit: rw(file(0, "memory.max"))?,
                memsw_limit: rw(file(0, "memory.swap.max")).ok(),
                peak: rw(file(0, "memory.peak"))?,
                current: fs::File::open(file(0, "memory.current"))?,
                pids: rw(file(0, "pids.max"))?,
                cpu: fs::File::open(file(0, "cpu.stat"))?,
                oom: fs::File::open(file(0, "memory.events"))?,
                pids_events: fs::File::open(file(0, "pids.events")).ok(),
                kernel: fs::File::open(file(0, "memory.stat")).ok(),
            },
        };
        let oom_seen = keyed(&read_at(&files.oom)?, "oom_kill").unwrap_or(0);
        let pids_seen = pids_refused(&files)?;
        Ok(Counters {
            version,
            files,
            memory_set: None,
            pids_set: None,
            oom_seen,
            pids_seen,
            cpu_base: 0,
            memory_base: 0,
            kernel_base: None,
        })
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
    /// wait. At once when nothing is left.
    pub(crate) fn settle(&self) {
        const SLACK: u64 = 1 << 20;
        let Some(base) = self.kernel_base else { return };
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(100);
        while self.kernel_bytes().is_some_and(|k| k > base + SLACK)
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Sets the limits of the next run (written only when they change).
    pub(crate) fn set_limits(&mut self, memory: Option<u64>, pids: u64) -> io::Result<()> {
        let files = &self.files;
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
                (swap, _) => write_at(&files.memory_limit, &limit).inspect(|()| {
                    if let Some(swap) = swap {
                        let _ = write_at(swap, "0");
                    }
                }),
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
    /// clean, before the next job comes: off the way of its start).
    pub(crate) fn reset(&mut self) -> io::Result<()> {
        let files = &self.files;
        match self.version {
            Version::V1 => {
                write_at(&files.peak, "0")?;
                write_at(&files.cpu, "0")?;
            }
            Version::V2 => {
                // memory.peak is reset by writing to it (Linux 6.12+).
                let _ = write_at(&files.peak, "0");
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

    const OWN: &str =
        "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/abc\n2:cpuacct:/\n1:cpu:/\n0::/\n";
    const MOUNTS: &str = "\
30 25 0:26 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
31 25 0:27 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
32 25 0:28 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
33 25 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";

    #[test]
    fn finds_v1_paths_below_our_own_cgroup() {
        let h = detect_v1(OWN, MOUNTS).unwrap();
        assert_eq!(
            h.bases,
            [
                PathBuf::from("/sys/fs/cgroup/memory/process_api/abc"),
                PathBuf::from("/sys/fs/cgroup/pids"),
                PathBuf::from("/sys/fs/cgroup/cpuacct"),
            ]
        );
    }

    #[test]
    fn v1_needs_every_controller() {
        let err = detect_v1(OWN, &MOUNTS.replace("rw,pids", "rw,net_cls")).unwrap_err();
        assert_eq!(err.to_string(), "cgroup v1: no `pids` hierarchy mounted");
    }

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
