//! The judge's side of the keepers: starting them, keeping a pool (one keeper
//! per concurrent run, reused run after run), and running a request through
//! one. The main type is [`Keeper`].

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::time::Duration;

use tokio::io::unix::AsyncFd;

use super::cgroup::Slot;
use super::keeper::{Job, JobResult, KeeperConfig, Ready, KILL, SOCKET_FD};
use super::sys;

/// A running keeper with its slot.
#[derive(Debug)]
pub struct Keeper {
    process: std::process::Child,
    /// The socket, until it is registered with the runtime on first use.
    unregistered: Option<OwnedFd>,
    socket: Option<AsyncFd<OwnedFd>>,
    /// Reused for every answer.
    buffer: Vec<u8>,
    /// The slot's cgroup, when cgroups are used.
    pub slot: Option<Slot>,
}

/// The hidden subcommand that starts a keeper.
pub const KEEPER_COMMAND: &str = "__sandbox-keeper";

impl Keeper {
    /// Starts a keeper and waits until its sandbox is ready. Blocking (a few ms).
    pub fn start(config: &KeeperConfig, slot: Option<Slot>) -> Result<Keeper, String> {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find the judge executable: {e}"))?;
        let (ours, theirs) = sys::seqpacket_pair().map_err(|e| format!("socketpair: {e}"))?;
        let json = serde_json::to_string(config).expect("serialisable");
        let mut command = std::process::Command::new(exe);
        command
            .arg(KEEPER_COMMAND)
            .arg(json)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null());
        sys::pass_fd(&mut command, theirs.as_raw_fd(), SOCKET_FD);
        let process = command
            .spawn()
            .map_err(|e| format!("cannot start the sandbox keeper: {e}"))?;
        drop(theirs);
        let ready = sys::poll_readable(&[ours.as_raw_fd()], Some(Duration::from_secs(20)))
            .map_err(|e| format!("waiting for the sandbox keeper: {e}"))?;
        let mut buf = vec![0u8; 64 << 10];
        let message = if ready[0] {
            sys::recv_with_fds(ours.as_raw_fd(), &mut buf, true)
                .map_err(|e| format!("sandbox keeper: {e}"))?
        } else {
            None
        };
        let Some((n, _)) = message else {
            return Err("the sandbox keeper did not start (no answer)".into());
        };
        let ready: Ready = serde_json::from_slice(&buf[..n])
            .map_err(|e| format!("sandbox keeper: bad answer: {e}"))?;
        if let Some(error) = ready.error {
            return Err(error);
        }
        sys::set_nonblocking(ours.as_raw_fd(), true).map_err(|e| e.to_string())?;
        Ok(Keeper {
            process,
            unregistered: Some(ours),
            socket: None,
            buffer: vec![0u8; 64 << 10],
            slot,
        })
    }

    /// The socket, registered with the current tokio runtime.
    fn socket(&mut self) -> std::io::Result<&AsyncFd<OwnedFd>> {
        if let Some(fd) = self.unregistered.take() {
            // SAFETY: `fd` is a socket `start` created and this keeper owns
            // alone; the AsyncFd takes it over and closes it when dropped.
            let registered = unsafe { AsyncFd::register(fd) }.map_err(std::io::Error::from)?;
            self.socket = Some(registered);
        }
        Ok(self.socket.as_ref().expect("registered above"))
    }

    /// Runs one job with `stdio` (stdin, stdout, stderr); `on_kill` resolves
    /// when the caller wants the job stopped (output limit).
    pub async fn run(
        &mut self,
        job: &Job,
        stdio: [OwnedFd; 3],
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
        if let Some(slot) = &mut self.slot {
            slot.remove();
        }
    }
}

/// A fresh empty directory for a keeper to build its root in.
pub fn root_dir(runtime: &std::path::Path, index: usize) -> std::io::Result<PathBuf> {
    let dir = runtime.join(format!("root-{index}"));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
