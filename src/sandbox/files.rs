//! Emptying and removing directories a run or a dead judge left.

use std::io;
use std::path::Path;

use super::sys;

/// Removes what judges that died without cleaning up (`kill -9`) left in
/// `dir`: the directories named `PREFIX<pid>-...` for one of `prefixes`
/// whose process is gone (a judge's temporary directories carry its pid).
/// Links and other users' directories are left alone, as is anything whose
/// process still exists.
pub(crate) fn remove_leftovers_of_dead_judges(dir: &Path, prefixes: &[&str]) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let uid = sys::ids().0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let pid = prefixes.iter().find_map(|prefix| {
            let rest = name.strip_prefix(prefix)?;
            rest.split('-').next()?.parse::<u32>().ok()
        });
        let Some(pid) = pid else { continue };
        if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.is_dir() && meta.uid() == uid {
            let _ = empty_dir(&entry.path());
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

/// Removes everything inside `dir`, going on past what cannot be removed
/// (the first error is returned). A run may have left a directory it made
/// unreadable: it is made accessible first. Used for the keeper's `/tmp` and
/// the judge's reused scratch directories.
pub(crate) fn empty_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut first_error = None;
    for entry in std::fs::read_dir(dir)? {
        let removed = entry.and_then(|entry| {
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700))?;
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            }
        });
        if let Err(e) = removed {
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_dir_removes_what_a_run_locked_up() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().join("locked");
        std::fs::create_dir_all(locked.join("inner")).unwrap();
        std::fs::write(locked.join("inner/file"), "x").unwrap();
        std::fs::write(dir.path().join("stdout"), "x").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        empty_dir(dir.path()).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
