//! The judge's side of a keeper: starting it and running a job through it.
//! The main type is [`Keeper`]; the idle keepers a sandbox shares are in
//! [`super::shared`].

use crate::sandbox::StartError;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::time::Duration;

use tokio::io::unix::AsyncFd;

use super::cgroup::SlotDirs;
use super::keeper::{Job, JobResult, KeeperConfig, Ready, KILL, SOCKET_FD};
use super::sys;

/// A running keeper with its slot.
#[derive(Debug)]
pub(crate) struct Keeper {
    process: std::process::Child,
    /// The socket, until it is registered with the runtime on first use.
    unregistered: Option<OwnedFd>,
    socket: Option<AsyncFd<OwnedFd>>,
    /// Reused for every answer.
    buffer: Vec<u8>,
    /// The slot's cgroup directories, when cgroups are used (removed with
    /// the keeper).
    pub(crate) slot: Option<SlotDirs>,
    /// The host directory the keeper shows at `/judge/build`, and which
    /// build it holds now (see [`Staging::hold`]).
    pub(crate) staging: Option<Staging>,
    /// A package program's keeper: its build and files.
    pub(crate) package: Option<PackageStaging>,
}

/// What a package program's keeper shows of the host besides its package:
/// a directory (mode 0700, so no other user of the machine reads what is
/// staged in it) holding the build it runs, shown at `/judge/build`, and the
/// files its job names, shown at `/judge/files`.
#[derive(Debug)]
pub(crate) struct PackageStaging {
    root: PathBuf,
    /// The build.
    pub(crate) build: Staging,
    /// The files of the current job.
    pub(crate) files: Staging,
}

impl PackageStaging {
    /// Makes `root` with its two directories.
    pub(crate) fn create(root: PathBuf) -> std::io::Result<PackageStaging> {
        std::fs::create_dir_all(&root)?;
        set_mode(&root, 0o700)?;
        Ok(PackageStaging {
            build: Staging::create(root.join("build"))?,
            files: Staging::create(root.join("files"))?,
            root,
        })
    }
}

impl Drop for PackageStaging {
    fn drop(&mut self) {
        let _ = super::empty_dir(&self.root);
        let _ = std::fs::remove_dir(&self.root);
    }
}

/// A keeper's copy of the build it runs: hard links (or copies, across file
/// systems) of one build directory's files, so that a run sees its own
/// program and nothing else of the build cache.
#[derive(Debug)]
pub(crate) struct Staging {
    dir: PathBuf,
    holds: Option<PathBuf>,
}

impl Staging {
    /// An empty staging directory at `dir` (created).
    pub(crate) fn create(dir: PathBuf) -> std::io::Result<Staging> {
        std::fs::create_dir_all(&dir)?;
        set_mode(&dir, 0o755)?;
        Ok(Staging { dir, holds: None })
    }

    /// Makes the directory hold the files of `build` (a build directory of
    /// the cache) and nothing else; nothing to do when it already does.
    pub(crate) fn hold(&mut self, build: &std::path::Path) -> std::io::Result<()> {
        if self.holds.as_deref() == Some(build) {
            return Ok(());
        }
        self.holds = None;
        super::empty_dir(&self.dir)?;
        let (from, to) = (
            super::untrusted::Dir::open(build)?,
            super::untrusted::Dir::open(&self.dir)?,
        );
        super::untrusted::link_tree(&from, &to, 0)?;
        self.holds = Some(build.to_path_buf());
        Ok(())
    }
}

impl Staging {
    /// Makes the directory hold `files` (and nothing else) as `0-NAME`,
    /// `1-NAME`, ...: hard links where the run may read the file as it is
    /// (`readable`), copies readable by everyone otherwise. Returns where each
    /// appears below `inner` (the directory's place in the sandbox).
    pub(crate) fn hold_files(
        &mut self,
        files: &[PathBuf],
        inner: &str,
        readable: impl Fn(&std::fs::Metadata) -> bool,
    ) -> std::io::Result<Vec<(PathBuf, String)>> {
        if self.holds.take().is_some() {
            super::empty_dir(&self.dir)?;
        }
        let mut shown = Vec::with_capacity(files.len());
        for (i, file) in files.iter().enumerate() {
            let name = file
                .file_name()
                .and_then(|n| n.to_str())
                .filter(|n| n.len() <= 64)
                .unwrap_or("file");
            let name = format!("{i}-{name}");
            let target = self.dir.join(&name);
            let meta = std::fs::metadata(file)?;
            if !meta.is_file() {
                return Err(std::io::Error::other(format!(
                    "{} is not a regular file",
                    file.display()
                )));
            }
            // Marked before the first file lands: emptied next time whatever happens.
            self.holds = Some(PathBuf::new());
            if !(readable(&meta) && std::fs::hard_link(file, &target).is_ok()) {
                let mut from = super::untrusted::open_regular(file)?;
                let mut to = std::fs::File::create(&target)?;
                std::io::copy(&mut from, &mut to)?;
                set_mode(&target, 0o644)?;
            }
            shown.push((file.clone(), format!("{inner}/{name}")));
        }
        Ok(shown)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = super::empty_dir(&self.dir);
        let _ = std::fs::remove_dir(&self.dir);
    }
}

fn set_mode(path: &std::path::Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// The hidden subcommand that starts a keeper.
pub const KEEPER_COMMAND: &str = "__sandbox-keeper";

impl Keeper {
    /// Starts a keeper and waits until its sandbox is ready, at most `wait`
    /// (judge.toml's `keeper_start`). Blocking (a few ms; seconds under
    /// emulation). It runs on `cpus`, else on this thread's. It gets no environment
    /// and its settings come on its socket, not on its command line (which
    /// every process can read).
    pub(crate) fn start(
        config: &KeeperConfig,
        slot: Option<SlotDirs>,
        staging: Option<Staging>,
        package: Option<PackageStaging>,
        cpus: Option<sys::CpuSet>,
        wait: Duration,
    ) -> Result<Keeper, StartError> {
        let (ours, theirs) = sys::seqpacket_pair().map_err(StartError::Socket)?;
        let json = serde_json::to_vec(config).expect("serialisable");
        // From the running executable, not its path: a new binary renamed
        // over it (an upgrade) is never started by this one.
        let mut command = sys::own_executable_command(&[KEEPER_COMMAND.as_ref()], |command| {
            command
                .current_dir("/")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null());
            sys::pass_fd(command, theirs.as_raw_fd(), SOCKET_FD);
            if let Some(cpus) = cpus {
                sys::use_cpus_on_exec(command, cpus);
            }
        })
        .map_err(StartError::Executable)?;
        let mut process = command.spawn().map_err(StartError::Spawn)?;
        drop(theirs);
        let ready = sys::send_with_fds(ours.as_raw_fd(), &json, &[])
            .map_err(StartError::Configure)
            .and_then(|()| wait_ready(&ours, &mut process, wait));
        match ready {
            Ok(()) => Ok(Keeper {
                process,
                unregistered: Some(ours),
                socket: None,
                buffer: vec![0u8; 64 << 10],
                slot,
                staging,
                package,
            }),
            Err(e) => {
                // Not left running, nor as a zombie.
                let _ = process.kill();
                let _ = process.wait();
                if let Some(slot) = &slot {
                    slot.remove();
                }
                Err(e)
            }
        }
    }

    /// Where the keeper's file system appears from the host (through the
    /// supervisor's root): to copy a compilation's files in and out.
    pub(crate) fn root(&self) -> PathBuf {
        PathBuf::from(format!("/proc/{}/root", self.process.id()))
    }

    /// The socket, registered with the current tokio runtime.
    fn socket(&mut self) -> std::io::Result<&AsyncFd<OwnedFd>> {
        if let Some(fd) = self.unregistered.take() {
            self.socket = Some(sys::async_fd(fd)?);
        }
        Ok(self.socket.as_ref().expect("registered above"))
    }

    /// Runs one job with `stdio` (stdin, stdout, stderr, then the
    /// descriptors of its named files, then the directory kept files go to
    /// when the job keeps any); `on_kill` resolves when the caller wants the
    /// job stopped (output limit).
    pub(crate) async fn run(
        &mut self,
        job: &Job,
        stdio: Vec<OwnedFd>,
        kill: impl std::future::Future<Output = ()>,
    ) -> std::io::Result<JobResult> {
        let data = serde_json::to_vec(job).map_err(std::io::Error::other)?;
        let raw: Vec<_> = stdio.iter().map(|f| f.as_raw_fd()).collect();
        self.socket()?;
        let (Some(socket), buf) = (&self.socket, &mut self.buffer) else {
            unreachable!("registered above")
        };
        sys::send_with_fds(socket.as_raw_fd(), &data, &raw)?;
        drop(stdio);
        let mut guard = KillOnDrop {
            socket: Some(socket),
        };
        tokio::pin!(kill);
        let mut killed = false;
        loop {
            tokio::select! {
                readable = socket.readable() => {
                    let mut ready = readable?;
                    match ready.try_io(|fd| sys::recv_with_fds(fd.as_raw_fd(), &mut buf[..], true)) {
                        Ok(Ok(Some((n, _)))) => {
                            guard.socket = None;
                            return serde_json::from_slice(&buf[..n]).map_err(std::io::Error::other);
                        }
                        Ok(Ok(None)) => return Err(std::io::Error::other("the sandbox keeper exited")),
                        Ok(Err(e)) => return Err(e),
                        Err(_would_block) => continue,
                    }
                }
                _ = &mut kill, if !killed => {
                    killed = true;
                    kill_job(socket);
                }
            }
        }
    }
}

impl Keeper {
    /// Has a spawner (a keeper started with `spawner`) start `job` with
    /// `stdio` as a child of this process, and reads the child's report (see
    /// [`sys::SpawnReport`]) up to the pid: a child it names must be reaped
    /// by the caller. With `Started`, the report pipe is returned too: it
    /// holds the errno if the exec fails (see [`late_exec_error`]); the
    /// caller does not wait for the exec. With `gate`, the child waits on it
    /// before exec'ing, and this spawner is busy until then (see
    /// [`sys::SpawnPlan::wait_for_gate`]).
    pub(crate) async fn spawn(
        &mut self,
        job: &Job,
        stdio: &[OwnedFd; 3],
        gate: Option<&OwnedFd>,
    ) -> std::io::Result<(sys::SpawnReport, Option<tokio::net::unix::pipe::Receiver>)> {
        let data = serde_json::to_vec(job).map_err(std::io::Error::other)?;
        let (report, report_write) = sys::output_pipe()?;
        let mut raw = vec![
            stdio[0].as_raw_fd(),
            stdio[1].as_raw_fd(),
            stdio[2].as_raw_fd(),
            report_write.as_raw_fd(),
        ];
        raw.extend(gate.map(|g| g.as_raw_fd()));
        let socket = self.socket()?;
        match sys::send_with_fds(socket.as_raw_fd(), &data, &raw) {
            Ok(()) => {}
            // Killed meanwhile (at the rlimit-only level a run can): nothing started.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::BrokenPipe
                        | std::io::ErrorKind::ConnectionReset
                        | std::io::ErrorKind::ConnectionRefused
                        | std::io::ErrorKind::NotConnected
                ) =>
            {
                return Ok((sys::SpawnReport::Nothing, None))
            }
            Err(e) => return Err(e),
        }
        drop(report_write);
        let mut pending = PendingSpawn {
            pipe: Some(tokio::net::unix::pipe::Receiver::from_owned_fd_unchecked(
                report,
            )?),
            bytes: Vec::with_capacity(8),
        };
        let mut chunk = [0u8; 16];
        loop {
            let pipe = pending.pipe.as_mut().expect("taken only when dropped");
            let n = tokio::io::AsyncReadExt::read(pipe, &mut chunk).await?;
            pending.bytes.extend_from_slice(&chunk[..n]);
            let report = sys::SpawnReport::parse(&pending.bytes);
            match report {
                sys::SpawnReport::Started(_) | sys::SpawnReport::ExecFailed(..) => {}
                _ if n > 0 => continue, // a failure to start: its errno follows
                _ => {}
            }
            let pipe = pending.pipe.take();
            return Ok(match report {
                sys::SpawnReport::Started(_) => (report, pipe),
                _ => (report, None),
            });
        }
    }
}

/// After a child reported by [`Keeper::spawn`] has exited: the error of its
/// exec, if that is what failed (the child wrote the errno before exiting;
/// an exec that succeeded closed the pipe without a word).
pub(super) fn late_exec_error(report: &tokio::net::unix::pipe::Receiver) -> Option<std::io::Error> {
    let mut errno = [0u8; 4];
    match report.try_read(&mut errno) {
        Ok(4) => Some(std::io::Error::from_raw_os_error(i32::from_ne_bytes(errno))),
        _ => None,
    }
}

/// A spawn whose report was not read up to the pid because its future was
/// dropped (`--fail-fast`, Ctrl-C): the report is read here, and the child
/// it names killed and reaped, so that nothing outlives an abandoned run.
struct PendingSpawn {
    pipe: Option<tokio::net::unix::pipe::Receiver>,
    bytes: Vec<u8>,
}

impl Drop for PendingSpawn {
    fn drop(&mut self) {
        let Some(fd) = self.pipe.take().and_then(|p| p.into_nonblocking_fd().ok()) else {
            return;
        };
        let mut file = std::fs::File::from(fd);
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let mut chunk = [0u8; 16];
        while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
            match sys::poll_readable(&[file.as_raw_fd()], Some(left)) {
                Ok(ready) if ready[0] => {}
                _ => break,
            }
            match std::io::Read::read(&mut file, &mut chunk) {
                Ok(0) => break,
                Ok(n) => self.bytes.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(_) => break,
            }
        }
        if let sys::SpawnReport::Started(pid) | sys::SpawnReport::ExecFailed(pid, _) =
            sys::SpawnReport::parse(&self.bytes)
        {
            // The child may not lead its group yet: kill it by pid too (it
            // is ours and unreaped, so the pid is still its own).
            sys::kill(pid as i32, sys::signals::SIGKILL);
            sys::kill_group(pid);
            std::thread::spawn(move || {
                let _ = sys::reap(pid);
            });
        }
    }
}

fn kill_job(socket: &AsyncFd<OwnedFd>) {
    let _ = sys::send_with_fds(socket.as_raw_fd(), KILL, &[]);
}

/// Stops the job if its future is dropped before the keeper answered (the
/// judge was interrupted, or `--fail-fast` abandoned the test).
struct KillOnDrop<'a> {
    socket: Option<&'a AsyncFd<OwnedFd>>,
}

impl Drop for KillOnDrop<'_> {
    fn drop(&mut self) {
        if let Some(socket) = self.socket {
            kill_job(socket);
        }
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        // Closing the socket makes the keeper kill everything and exit; the
        // kill covers a keeper that is stuck.
        let _ = self.process.kill();
        let _ = self.process.wait();
        if let Some(slot) = &self.slot {
            slot.remove();
        }
    }
}

/// A fresh empty directory for a keeper to build its root in.
pub(super) fn root_dir(runtime: &std::path::Path, index: usize) -> std::io::Result<PathBuf> {
    let dir = runtime.join(format!("root-{index}"));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Waits for a new keeper's (`process`'s) first message on `ours`, at most
/// `wait`: ready, or why not. A keeper that exits (or closes its socket)
/// first is seen at once, by a pidfd, even while a process it started
/// still holds the socket's other end: never taken for one that is slow.
fn wait_ready(
    ours: &OwnedFd,
    process: &mut std::process::Child,
    wait: Duration,
) -> Result<(), StartError> {
    let exit = i32::try_from(process.id())
        .ok()
        .and_then(|pid| sys::pidfd_open(pid).ok());
    let mut fds = vec![ours.as_raw_fd()];
    fds.extend(exit.as_ref().map(AsRawFd::as_raw_fd));
    let deadline = std::time::Instant::now() + wait;
    let ready = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let ready = sys::poll_readable(&fds, Some(left)).map_err(StartError::Wait)?;
        // (A signal ends a poll early: it is polled again.)
        if ready.contains(&true) || left.is_zero() {
            break ready;
        }
    };
    let mut buf = vec![0u8; 64 << 10];
    let message = if ready[0] {
        sys::recv_with_fds(ours.as_raw_fd(), &mut buf, true).map_err(StartError::Read)?
    } else {
        None
    };
    let Some((n, _)) = message else {
        if !ready.contains(&true) {
            return Err(StartError::NoAnswer(wait));
        }
        return Err(StartError::Exited(match process.try_wait() {
            Ok(Some(status)) => status.to_string(),
            _ => "it closed its socket".into(),
        }));
    };
    let ready: Ready = serde_json::from_slice(&buf[..n]).map_err(StartError::BadAnswer)?;
    if let Some(error) = ready.error {
        return Err(StartError::Refused(error));
    }
    sys::set_nonblocking(ours.as_raw_fd(), true).map_err(StartError::Nonblocking)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A keeper that exits before it is ready is seen at once, with how it
    /// ended, although another process (here: this test) still holds its
    /// socket's other end; one that closes its socket, likewise. Neither is
    /// waited for as if it were slow (the old wait ended only at `wait`, as
    /// "no answer").
    #[test]
    fn a_keeper_that_exits_before_it_is_ready_is_seen_at_once() {
        let wait = Duration::from_secs(120);
        let (ours, theirs) = sys::seqpacket_pair().unwrap();
        let mut process = std::process::Command::new("sh")
            .args(["-c", "exit 3"])
            .spawn()
            .unwrap();
        let error = wait_ready(&ours, &mut process, wait).unwrap_err();
        assert!(
            matches!(&error, StartError::Exited(how) if how.contains('3')),
            "{error}"
        );
        drop(theirs);
        let (ours, theirs) = sys::seqpacket_pair().unwrap();
        drop(theirs);
        let mut process = std::process::Command::new("sleep")
            .arg("600")
            .spawn()
            .unwrap();
        let error = wait_ready(&ours, &mut process, wait).unwrap_err();
        let _ = process.kill();
        let _ = process.wait();
        assert!(
            matches!(&error, StartError::Exited(how) if how.contains("closed its socket")),
            "{error}"
        );
    }
}
