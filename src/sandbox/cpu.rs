//! One job, one CPU: with `-j 1` the judging (the judge's thread, its
//! keepers and spawners, the submissions) keeps to one CPU that no other
//! judge on the machine has claimed ([`HomeCpu`]); what the judge starts for
//! itself gets the CPUs it had before ([`leave_pin`]). See README, "One job,
//! one CPU".

use crate::sandbox::SetupError;
use std::fs::File;
use std::io;
use std::path::Path;

use super::sys;

/// Whether a judging that runs one program at a time keeps to one CPU
/// (`cpu` in judge.toml, `--cpu`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum CpuChoice {
    /// With one job and more than one CPU: a CPU that no other judge on the
    /// machine has claimed, if there is one.
    #[default]
    Auto,
    /// Never: the scheduler places every process.
    Off,
    /// This CPU (with one job), whether or not another judge uses it.
    Cpu(usize),
}

impl std::str::FromStr for CpuChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<CpuChoice, String> {
        match s {
            "auto" => Ok(CpuChoice::Auto),
            "off" => Ok(CpuChoice::Off),
            _ => s.parse().map(CpuChoice::Cpu).map_err(|_| {
                format!("`{s}` is not a CPU: use `auto`, `off` or a CPU number such as 0")
            }),
        }
    }
}

/// Where lock files of claimed CPUs live: machine-wide, so that judges of
/// different users and workspaces see each other's claims.
pub(crate) const CPU_CLAIMS_DIR: &str = "/tmp";

/// The one CPU of a judging that runs one program at a time: the judge's
/// thread, the spawners or keepers of submissions and the submissions all
/// run on it, so that each hand-over between them (a program's exit, the
/// judge's wake-up, the next program's start) stays on one CPU instead of
/// waking another (on a virtual machine, an idle virtual CPU is woken
/// through the host; see docs/performance.md). Everything else the judge
/// starts (compilers, checkers, generators, the check of a large output)
/// gets the CPUs the judge had. Held for the sandbox's life; the claim is a
/// lock on `judge-cpu-N.lock` in [`CPU_CLAIMS_DIR`].
#[derive(Debug)]
pub(crate) struct HomeCpu {
    pub(crate) cpu: usize,
    pub(crate) _claim: Option<File>,
    pub(crate) _pin: sys::ThreadPin,
}

impl HomeCpu {
    /// The home CPU for `choice` and `parallel_runs`: `None` when the
    /// judging runs more than one program at a time, has one CPU, or (with
    /// `auto`) finds every CPU claimed; an error for a CPU the judge may not
    /// use.
    pub(crate) fn choose(
        choice: CpuChoice,
        parallel_runs: usize,
    ) -> Result<Option<HomeCpu>, SetupError> {
        if choice == CpuChoice::Off || parallel_runs != 1 {
            return Ok(None);
        }
        let Ok(allowed) = sys::CpuSet::of_this_thread().map(|set| set.cpus()) else {
            return Ok(None);
        };
        let (cpu, claim) = match choice {
            CpuChoice::Cpu(cpu) if !allowed.contains(&cpu) => {
                return Err(SetupError::Cpu { cpu, allowed })
            }
            CpuChoice::Cpu(cpu) => (cpu, claim_cpu(cpu)),
            _ if allowed.len() < 2 => return Ok(None),
            _ => match allowed
                .iter()
                .rev()
                .find_map(|&cpu| claim_cpu(cpu).map(|claim| (cpu, Some(claim))))
            {
                Some(found) => found,
                None => return Ok(None),
            },
        };
        match sys::pin_this_thread(cpu) {
            Ok(pin) => Ok(Some(HomeCpu {
                cpu,
                _claim: claim,
                _pin: pin,
            })),
            Err(_) => Ok(None),
        }
    }
}

/// Claims `cpu` for this judge: its lock file, locked; `None` if another
/// judge holds it (or the file cannot be had).
pub(crate) fn claim_cpu(cpu: usize) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = Path::new(CPU_CLAIMS_DIR).join(format!("judge-cpu-{cpu}.lock"));
    let open = || {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
    };
    let file = match open() {
        Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .or_else(|_| open()),
        other => other,
    }
    .ok()?;
    sys::try_lock_exclusive(&file).then_some(file)
}

/// Gives a thread that inherited the judging's CPU pin (a blocking-pool
/// thread made by the pinned thread) the CPUs of `from`, the pinned thread's
/// [`cpus_to_leave_pin`].
pub(crate) fn leave_pin(from: Option<CpusBeforePin>) {
    if let Some(CpusBeforePin(cpus)) = from {
        sys::use_cpus(cpus);
    }
}

/// The CPUs this thread had before it was pinned to the judging's CPU, for
/// work handed to another thread ([`leave_pin`]); `None` if not pinned.
pub(crate) fn cpus_to_leave_pin() -> Option<CpusBeforePin> {
    sys::cpus_before_pin().map(CpusBeforePin)
}

/// A set of CPUs (see [`cpus_to_leave_pin`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CpusBeforePin(sys::CpuSet);

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU claimed by one judge cannot be claimed by another until the
    /// first lets it go (a lock file per CPU; a number no machine here has,
    /// so that judges running meanwhile do not interfere).
    #[test]
    fn a_claimed_cpu_is_not_claimed_twice() {
        let first = claim_cpu(4093).expect("a free CPU can be claimed");
        assert!(claim_cpu(4093).is_none(), "claimed twice");
        drop(first);
        assert!(claim_cpu(4093).is_some(), "not released");
    }

    /// One job keeps the thread on one CPU (explicit, or one it claimed)
    /// until the sandbox's pin is dropped; more jobs, `off` or a CPU the
    /// judge may not use do not pin; the last is an error naming it.
    #[test]
    fn one_job_keeps_the_thread_on_one_cpu() {
        std::thread::spawn(|| {
            let allowed = sys::CpuSet::of_this_thread().unwrap().cpus();
            let on = || sys::CpuSet::of_this_thread().unwrap().cpus();
            assert!(HomeCpu::choose(CpuChoice::Off, 1).unwrap().is_none());
            assert!(HomeCpu::choose(CpuChoice::Auto, 2).unwrap().is_none());
            let err = HomeCpu::choose(CpuChoice::Cpu(4095), 1).unwrap_err();
            assert!(err.to_string().contains("cpu 4095"), "{err}");
            let cpu = *allowed.last().unwrap();
            let home = HomeCpu::choose(CpuChoice::Cpu(cpu), 1).unwrap().unwrap();
            assert_eq!((home.cpu, on()), (cpu, vec![cpu]));
            drop(home);
            assert_eq!(on(), allowed, "the thread's CPUs came back");
            if let Some(home) = HomeCpu::choose(CpuChoice::Auto, 1).unwrap() {
                assert!(allowed.len() > 1 && allowed.contains(&home.cpu));
                assert_eq!(on(), vec![home.cpu]);
            }
        })
        .join()
        .unwrap();
    }

    /// A thread made by a pinned thread (the blocking thread that checks a
    /// large output) leaves the pin for the CPUs the pinned thread had.
    #[test]
    fn a_thread_handed_work_leaves_the_pin() {
        std::thread::spawn(|| {
            let on = || sys::CpuSet::of_this_thread().unwrap().cpus();
            let allowed = on();
            assert!(cpus_to_leave_pin().is_none(), "not pinned yet");
            let _pin = sys::pin_this_thread(allowed[0]).unwrap();
            let cpus = cpus_to_leave_pin();
            assert!(cpus.is_some());
            let (inherited, left) = std::thread::spawn(move || {
                let inherited = on();
                leave_pin(cpus);
                (inherited, on())
            })
            .join()
            .unwrap();
            assert_eq!((inherited, left), (vec![allowed[0]], allowed.clone()));
            assert_eq!(on(), vec![allowed[0]], "the pinned thread stays pinned");
        })
        .join()
        .unwrap();
    }
}
