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

/// The interpreter a script's `#!` line names (`/usr/bin/env NAME` looked up
/// as runs look it up), canonical; `None` for a file that is not a script or
/// an interpreter that does not exist (exec reports that).
pub(crate) fn script_interpreter(script: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let mut file = std::fs::File::open(script).ok()?;
    let n = file.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let mut interpreter = PathBuf::from(words.next()?);
    if interpreter.file_name().is_some_and(|n| n == "env") {
        let name = words.find(|w| !w.starts_with('-'))?;
        interpreter = PathBuf::from(resolve_program(&OsString::from(name)));
    }
    std::fs::canonicalize(interpreter).ok()
}

/// Why a script at `real` (canonical, in a shown directory) cannot start in
/// a sandbox that shows `shown` (canonical): its `#!` interpreter is outside
/// them (a venv, pyenv or `pip install --user` under a home directory).
pub(crate) fn hidden_interpreter(real: &Path, shown: &[PathBuf]) -> Option<String> {
    let interpreter = script_interpreter(real)?;
    if shown.iter().any(|d| interpreter.starts_with(d)) {
        return None;
    }
    Some(format!(
        "{} is a script whose `#!` interpreter is {}, outside the directories the sandbox \
         shows ({}), so it cannot start there (no sandboxed program sees a home directory); \
         install it with an interpreter the sandbox sees: for Python, a virtualenv made by \
         the system's python3 under /opt (`/usr/bin/python3 -m venv /opt/NAME`, \
         `/opt/NAME/bin/pip install PACKAGE`, then link its program into /usr/local/bin)",
        real.display(),
        interpreter.display(),
        shown
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    ))
}

#[cfg(test)]
mod interpreter_tests {
    use super::*;

    #[test]
    fn a_script_whose_interpreter_is_hidden_is_named_with_the_fix() {
        let shown = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let python = home.path().join("python3");
        std::fs::write(&python, "").unwrap();
        let shown_dir = std::fs::canonicalize(shown.path()).unwrap();
        let script = shown_dir.join("pyctd");
        std::fs::write(&script, format!("#!{} -I\nimport x\n", python.display())).unwrap();
        let why = hidden_interpreter(&script, std::slice::from_ref(&shown_dir)).unwrap();
        let python = std::fs::canonicalize(&python).unwrap();
        assert!(why.contains(&python.display().to_string()), "{why}");
        assert!(why.contains("/usr/bin/python3 -m venv /opt/NAME"), "{why}");
        // Shown as well: it starts.
        let both = [
            shown_dir.clone(),
            std::fs::canonicalize(home.path()).unwrap(),
        ];
        assert_eq!(hidden_interpreter(&script, &both), None);
        // Not a script, or a system interpreter through env: nothing to say.
        std::fs::write(&script, "\x7fELF").unwrap();
        assert_eq!(
            hidden_interpreter(&script, std::slice::from_ref(&shown_dir)),
            None
        );
        std::fs::write(&script, "#!/usr/bin/env sh\n").unwrap();
        let system: Vec<PathBuf> = ["/usr", "/bin"]
            .iter()
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .collect();
        assert_eq!(hidden_interpreter(&script, &system), None);
    }
}
