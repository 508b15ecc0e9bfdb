//! Helpers of the sandbox's unit tests: a shell command as a request, its
//! limits, a runtime.

use std::time::Duration;

use super::{Environment, Limits, RunRequest, SandboxPaths, Stdin};

pub(super) fn request(script: &str, limits: Limits) -> RunRequest {
    RunRequest {
        argv: vec!["sh".into(), "-c".into(), script.into()],
        cwd: std::env::temp_dir(),
        stdin: Stdin::Null,
        stdout_spill: None,
        stdout_to: None,
        environment: Environment::Minimal(Vec::new()),
        limits,
        program_dir: None,
        exchange: Default::default(),
    }
}

pub(super) fn limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(1),
        wall_time: Duration::from_secs(2),
        memory: Some(256 << 20),
        address_space: true,
        stdout: 1 << 20,
        stderr: 1 << 10,
        file_size: 1 << 20,
        output_ends_run: true,
    }
}

pub(super) fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

pub(super) fn plain_paths() -> SandboxPaths {
    SandboxPaths {
        hide: Vec::new(),
        staging: std::env::temp_dir(),
    }
}
