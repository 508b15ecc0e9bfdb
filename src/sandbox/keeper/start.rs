//! The keeper's entry point: its settings read, then the supervisor (or
//! a spawner) started.

use std::os::fd::{AsRawFd, OwnedFd};

use super::{send, spawner, supervisor, KeeperConfig, Ready, MAX_MESSAGE, SOCKET_FD};
use crate::sandbox::sys;

/// Entry point of `judge __sandbox-keeper`; returns the exit code.
pub fn keeper_main() -> i32 {
    // Runs must start with SIGPIPE at its default (a program writing to a
    // closed pipe dies by SIGPIPE); the keeper itself never writes to pipes.
    sys::default_signals();
    // Started through a descriptor, the keeper is named after its number:
    // it takes the name of its executable's file back (a spawner's runs
    // have it until they exec, which tells a run killed before it exec'd).
    if let Some(name) = std::env::args_os()
        .next()
        .and_then(|arg0| Some(std::path::Path::new(&arg0).file_name()?.to_owned()))
    {
        sys::set_own_name(&name.to_string_lossy());
    }
    let socket = sys::own_fd(SOCKET_FD);
    let mut buf = vec![0u8; MAX_MESSAGE];
    let config = match sys::recv_with_fds(socket.as_raw_fd(), &mut buf, false) {
        Ok(Some((n, _))) => serde_json::from_slice::<KeeperConfig>(&buf[..n]),
        _ => return 1,
    };
    let config = match config {
        Ok(c) => c,
        Err(e) => return fail(&socket, format!("bad keeper config: {e}")),
    };
    if config.spawner {
        return spawner::main(&socket, &config);
    }
    supervisor::main(socket, config)
}

/// Reports a setup failure; the exit code.
pub(super) fn fail(socket: &OwnedFd, error: String) -> i32 {
    let _ = send(socket, &Ready { error: Some(error) });
    1
}
