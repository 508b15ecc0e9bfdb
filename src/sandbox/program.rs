//! Finding the program a command names, and the environment runs get: the
//! system's `PATH` first (no per-user shims), a fixed minimal environment.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

/// The PATH of runs in the minimal environment.
pub(crate) const SYSTEM_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Finds a bare program name (`python3`) in the system PATH first, so that runs
/// do not go through per-user shims (a pyenv shim costs 100+ ms of CPU per run,
/// charged to the submission); falls back to the judge's own PATH.
pub(crate) fn resolve_program(program: &OsString) -> OsString {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static RESOLVED: Mutex<Option<HashMap<OsString, OsString>>> = Mutex::new(None);
    if Path::new(program).components().count() != 1 {
        return program.clone();
    }
    let mut map = RESOLVED.lock().expect("not poisoned");
    let map = map.get_or_insert_with(HashMap::new);
    if let Some(found) = map.get(program) {
        return found.clone();
    }
    let user_path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(SYSTEM_PATH).chain(std::env::split_paths(&user_path));
    let found = search_path(program, dirs);
    map.insert(program.clone(), found.clone());
    found
}

/// The first executable `program` in `dirs` (a bare name only; a path or a
/// name found nowhere is returned unchanged, for exec to report).
fn search_path(program: &OsString, dirs: impl Iterator<Item = PathBuf>) -> OsString {
    if Path::new(program).components().count() != 1 {
        return program.clone();
    }
    dirs.map(|dir| dir.join(program))
        .find(|candidate| is_executable_file(candidate))
        .map_or_else(|| program.clone(), PathBuf::into_os_string)
}

/// Whether `path` is a regular file with an execute bit.
pub(crate) fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `program` looked up in the user's PATH (as it is when it has a slash).
pub(crate) fn find_in_user_path(program: &OsString) -> OsString {
    let user_path = std::env::var_os("PATH").unwrap_or_default();
    search_path(program, std::env::split_paths(&user_path))
}

/// The environment of runs in [`Environment::Minimal`](super::Environment::Minimal), with `home` as HOME
/// and TMPDIR, and `extra` (which may override those).
pub(crate) fn minimal_env(home: &Path, extra: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), SYSTEM_PATH.into()),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("LANG".into(), "C.UTF-8".into()),
    ];
    for (key, value) in extra {
        env.retain(|(k, _)| k != key.as_str());
        env.push((key.into(), value.into()));
    }
    env
}

/// `KEY=VALUE`, as exec takes an environment entry.
pub(crate) fn env_entry(key: &std::ffi::OsStr, value: &std::ffi::OsStr) -> Vec<u8> {
    [key.as_encoded_bytes(), b"=", value.as_encoded_bytes()].concat()
}

/// A C string for exec, or an error naming the NUL byte.
pub(crate) fn c_string(bytes: &[u8]) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a NUL byte in `{}`", String::from_utf8_lossy(bytes)),
        )
    })
}
