//! `judge listen`: receives problems from Competitive Companion on
//! 127.0.0.1 and keeps each as a samples folder of `--dir`, a line per
//! problem (or refused request), until Ctrl-C or `--count` problems.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::Path;

use super::{print, writable_dir};
use crate::cli::args::ListenArgs;
use crate::error::{exit_code, Error, Result};
use crate::listen::{serve, Event, ListenSettings, COMPANION_PORTS};
use crate::render::listen::{listening, refused, saved};

pub(super) fn listen(args: ListenArgs) -> Result<i32> {
    writable_dir(&args.dir)?;
    let dir = crate::config::absolute(&args.dir);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Sandbox {
            program: "judge listen".into(),
            source: e,
        })?;
    runtime.block_on(async {
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, args.port));
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|source| Error::Listen {
                address: address.to_string(),
                hint: match source.kind() {
                    std::io::ErrorKind::AddrInUse => format!(
                        ": another program has it (CPH in VS Code listens on 27121, CP Editor \
                         on 10045); stop it, or give --port another of Competitive Companion's \
                         ports ({})",
                        other_ports(args.port)
                    ),
                    _ => String::new(),
                },
                source,
            })?;
        let bound = listener.local_addr().map_err(|e| Error::io(&dir, e))?;
        print(&listening(
            &bound.to_string(),
            &shown(&dir),
            COMPANION_PORTS.contains(&bound.port()),
        ));
        let (events, mut received) = tokio::sync::mpsc::unbounded_channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let settings = ListenSettings {
            dir: dir.clone(),
            port: bound.port(),
        };
        let server = tokio::spawn(serve(listener, settings, events, async {
            let _ = stopped.await;
        }));
        let mut problems = 0u64;
        let interrupted = tokio::signal::ctrl_c();
        tokio::pin!(interrupted);
        while args.count.is_none_or(|n| problems < n) {
            tokio::select! {
                event = received.recv() => match event {
                    Some(Event::Saved { task, saved: kept }) => {
                        problems += 1;
                        print(&saved(&task, &shown(&kept.folder), kept.unchanged));
                    }
                    Some(Event::Refused { status, why }) => eprint!("{}", refused(status, &why)),
                    None => break,
                },
                _ = &mut interrupted => break,
            }
        }
        let _ = stop.send(());
        match server.await {
            Ok(result) => result.map_err(|e| Error::Listen {
                address: bound.to_string(),
                hint: String::new(),
                source: e,
            })?,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
        Ok(exit_code::OK)
    })
}

/// Competitive Companion's ports but `port`.
fn other_ports(port: u16) -> String {
    COMPANION_PORTS
        .iter()
        .filter(|&&p| p != port)
        .map(u16::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A path as the user would type it: `./name` below the current directory.
fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    match path.strip_prefix(&cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
        Ok(rel) => format!("./{}", rel.display()),
        Err(_) => path.display().to_string(),
    }
}
