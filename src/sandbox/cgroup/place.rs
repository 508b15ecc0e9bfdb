//! Where the judge's cgroups go: a hierarchy with the controllers runs need
//! and a place in it the judge may use. The main type is [`JudgeCgroups`],
//! the judge's own `judge-<pid>` directories (one per v1 controller, one on
//! v2), removed when it is dropped.
//!
//! On cgroup v1 they are made below the judge's cgroup of each controller.
//! On cgroup v2 a cgroup with processes may not pass controllers on to
//! children (the "no internal processes" rule), so, wherever the judge
//! starts:
//! - in the root cgroup (exempt from that rule): `judge-<pid>` below it;
//! - alone in a cgroup it may write (a `systemd-run --scope`, a delegated
//!   scope, a container's own cgroup): it moves into a leaf of its own,
//!   `judge-<pid>/judge`, and enables the controllers for the subtree; when
//!   it ends it moves back and leaves the cgroup as it found it;
//! - anywhere else (a service beside other processes, a login session): it
//!   asks systemd for a transient scope with `Delegate=yes` (as root, of the
//!   system's manager; otherwise of the user's own), which then holds only
//!   the judge, and does as above there.
//!
//! Nothing outside the judge's own subtree is changed. What a killed judge
//! left (`judge-<pid>` of a dead pid) is removed by the next judge.

use crate::sandbox::CgroupError;
use std::path::{Path, PathBuf};
use std::{fs, io};

use super::{systemd, Version};

/// The controllers a slot needs on v2 (CPU time comes from `cpu.stat`,
/// which every v2 cgroup has; the cpu controller is used where it is there).
const V2_NEEDED: [&str; 2] = ["memory", "pids"];

const V1_CONTROLLERS: [&str; 3] = ["memory", "pids", "cpuacct"];

/// The judge's own cgroup directories: the parents of its slots.
#[derive(Debug)]
pub(crate) struct JudgeCgroups {
    /// The version.
    pub(crate) version: Version,
    /// v1: `judge-<pid>` in the memory, pids and cpuacct hierarchies; v2:
    /// one `judge-<pid>`.
    pub(crate) dirs: Vec<PathBuf>,
    /// v2: the judge moved into `dirs[0]/judge`: undone when dropped.
    moved_from: Option<Moved>,
    /// How the place was had, for messages (e.g. "a systemd scope").
    pub(crate) how: String,
}

/// What the judge changed to have a cgroup of its own on v2, undone when
/// it ends.
#[derive(Debug)]
struct Moved {
    /// The cgroup it came from, and goes back to.
    home: PathBuf,
    /// Where it enabled controllers for children (`home`, or the top of the
    /// hierarchy it sees), and which.
    enabled_at: PathBuf,
    enabled: Vec<&'static str>,
    /// In a container's cgroup namespace whose root held processes: the
    /// leaf they were moved into (`init`), from the root.
    gathered: Option<PathBuf>,
}

impl JudgeCgroups {
    /// Finds a hierarchy and makes the judge's directories in it, or says
    /// why not: on a host with cgroup v2 only, only v2's reasons.
    pub(crate) fn create(uid: u32) -> Result<JudgeCgroups, Vec<CgroupError>> {
        let read = |path: &'static str| {
            fs::read_to_string(path).map_err(|error| vec![CgroupError::Proc { path, error }])
        };
        let own = read("/proc/self/cgroup")?;
        let mounts = read("/proc/self/mountinfo")?;
        let has_v1 = cgroup_mounts(&mounts)
            .iter()
            .any(|(t, opts, _, _)| t == "cgroup" && opts.split(',').any(|o| o == "memory"));
        let has_v2 = cgroup_mounts(&mounts).iter().any(|(t, ..)| t == "cgroup2");
        let mut reasons = Vec::new();
        if has_v1 || !has_v2 {
            match v1(&own, &mounts) {
                Ok(dirs) => return Ok(dirs),
                Err(e) => reasons.push(e),
            }
        }
        if has_v2 {
            match v2(&own, &mounts, uid) {
                Ok(dirs) => return Ok(dirs),
                Err(e) => reasons.push(e),
            }
        }
        Err(reasons)
    }
}

impl Drop for JudgeCgroups {
    fn drop(&mut self) {
        // The slots are gone with their keepers; what is left is the
        // judge's own leaf (v2, moved) and the directories.
        for dir in &self.dirs {
            for child in children(dir) {
                if !child.ends_with("judge") {
                    remove_tree(&child);
                }
            }
        }
        if let Some(moved) = &self.moved_from {
            let dir = &self.dirs[0];
            let off = |list: &[&str]| list.iter().map(|c| format!("-{c}")).collect::<Vec<_>>();
            let all: Vec<&str> = V2_NEEDED.iter().copied().chain(["cpu"]).collect();
            let me = std::process::id().to_string();
            // Best effort: what is left is removed by the next judge.
            let _ = write_controllers(dir, &off(&all).join(" "));
            if moved.home == moved.enabled_at {
                if write_controllers(&moved.home, &off(&moved.enabled).join(" ")).is_ok() {
                    let _ = fs::write(moved.home.join("cgroup.procs"), &me);
                }
                let _ = fs::remove_dir(dir.join("judge"));
            } else {
                let _ = fs::write(moved.home.join("cgroup.procs"), &me);
                let _ = fs::remove_dir(dir.join("judge"));
                let _ = fs::remove_dir(dir);
                // Refused while another judge's cgroups use them: then
                // they stay, and so do the gathered processes.
                let undone =
                    write_controllers(&moved.enabled_at, &off(&moved.enabled).join(" ")).is_ok();
                if let Some(init) = moved.gathered.as_ref().filter(|_| undone) {
                    if move_all(init, &moved.enabled_at).is_ok() {
                        let _ = fs::remove_dir(init);
                    }
                }
            }
        }
        for dir in &self.dirs {
            let _ = fs::remove_dir(dir);
        }
    }
}

fn v1(own: &str, mounts: &str) -> Result<JudgeCgroups, CgroupError> {
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
    let name = judge_name();
    let mut dirs = Vec::new();
    for base in &bases {
        remove_stale(base);
        let dir = base.join(&name);
        fs::create_dir_all(&dir).map_err(|error| CgroupError::NotWritable {
            base: base.clone(),
            error,
        })?;
        dirs.push(dir);
    }
    Ok(JudgeCgroups {
        version: Version::V1,
        dirs,
        moved_from: None,
        how: "below the judge's own cgroups".into(),
    })
}

fn v2(own: &str, mounts: &str, uid: u32) -> Result<JudgeCgroups, CgroupError> {
    let all = cgroup_mounts(mounts);
    let (_, _, mount, root) = all
        .iter()
        .find(|(t, _, _, _)| t == "cgroup2")
        .ok_or(CgroupError::V2NotMounted)?;
    let path = own_path(own, "").ok_or(CgroupError::V2NoLine)?;
    let here = join_cgroup(mount, root, path);
    if mount_options_of(mounts, mount)
        .split(',')
        .any(|o| o == "ro")
    {
        return Err(CgroupError::V2ReadOnly {
            mount: mount.clone(),
        });
    }
    if path.starts_with("/..") {
        return Err(CgroupError::V2OutsideNamespace {
            path: path.to_string(),
        });
    }
    // The root cgroup has no cgroup.type: processes may live there beside
    // children with controllers.
    if !here.join("cgroup.type").exists() {
        return in_the_root(&here);
    }
    let first = match alone_in(&here) {
        Ok(cgroups) => return Ok(cgroups),
        Err(e) => e,
    };
    // The top of the hierarchy this process sees is not the real root: a
    // container's cgroup namespace. Its cgroups are the container's to
    // arrange; a systemd outside it is never asked (it would move the
    // judge out of its container).
    if mount.join("cgroup.type").exists() {
        let mut cgroups = beside(mount, &here, true).map_err(|e| CgroupError::V2Place {
            base: here.clone(),
            reason: first.to_string(),
            systemd: format!(
                "in the container's cgroup namespace, beside its processes: {e} (a systemd \
                 outside the container is not asked)"
            ),
            fix: fix(uid),
        })?;
        cgroups.how = "at the top of the container's cgroup namespace".into();
        return Ok(cgroups);
    }
    // A host without systemd (OpenRC, runit, a minimal VM, WSL2): root
    // makes the judge's cgroup at the top of the hierarchy. Not in a
    // container that sees the host's hierarchy (`--cgroupns=host`): that top
    // is the host's.
    if uid == 0 && !systemd::booted() && !in_a_container() {
        let mut cgroups = beside(mount, &here, false).map_err(|e| CgroupError::V2Place {
            base: here.clone(),
            reason: first.to_string(),
            systemd: format!("no systemd runs here; at the top of the hierarchy: {e}"),
            fix: fix(uid),
        })?;
        cgroups.how = "at the top of the hierarchy (no systemd)".into();
        return Ok(cgroups);
    }
    // Not usable as it is: ask systemd for a scope of our own.
    let unit = systemd::move_into_scope(uid).map_err(|e| CgroupError::V2Place {
        base: here.clone(),
        reason: first.to_string(),
        systemd: e.to_string(),
        fix: fix(uid),
    })?;
    let own = fs::read_to_string("/proc/self/cgroup").map_err(|error| CgroupError::Proc {
        path: "/proc/self/cgroup",
        error,
    })?;
    let path = own_path(&own, "").ok_or(CgroupError::V2NoLine)?;
    if path.starts_with("/..") {
        // A systemd outside this cgroup namespace took the judge out of
        // it: it goes back.
        let _ = fs::write(here.join("cgroup.procs"), std::process::id().to_string());
        return Err(CgroupError::V2OutsideNamespace {
            path: path.to_string(),
        });
    }
    let scope = join_cgroup(mount, root, path);
    let mut cgroups = alone_in(&scope).map_err(|e| CgroupError::V2Place {
        base: scope.clone(),
        reason: e.to_string(),
        systemd: format!("systemd gave {unit}, but it cannot be used"),
        fix: fix(uid),
    })?;
    cgroups.how = format!("in the systemd scope {unit} (delegated)");
    Ok(cgroups)
}

/// Whether this process runs in a container: the marker files Docker and
/// Podman leave, or a `container` variable given to its first process.
fn in_a_container() -> bool {
    Path::new("/.dockerenv").exists()
        || Path::new("/run/.containerenv").exists()
        || fs::read("/proc/1/environ").is_ok_and(|env| {
            env.split(|&b| b == 0)
                .any(|entry| entry.starts_with(b"container="))
        })
}

/// How to give the judge a cgroup it can use.
fn fix(uid: u32) -> String {
    if uid == 0 {
        "start the judge in a cgroup of its own: `systemd-run --scope -p Delegate=yes judge ...`, \
         or as the only process of its cgroup (a container's main process)"
            .into()
    } else {
        "start it as `systemd-run --user --scope -p Delegate=yes judge ...` (this needs the \
         user's systemd manager: `loginctl enable-linger $USER` starts one without a login), \
         or run it with sudo"
            .into()
    }
}

/// The judge in the root cgroup: `judge-<pid>` below it, with the
/// controllers the root passes on.
fn in_the_root(root: &Path) -> Result<JudgeCgroups, CgroupError> {
    let enabled = read_list(&root.join("cgroup.subtree_control"));
    let missing: Vec<&str> = V2_NEEDED
        .iter()
        .copied()
        .filter(|c| !enabled.iter().any(|e| e == c))
        .collect();
    if !missing.is_empty() {
        return Err(CgroupError::V2RootControllers {
            base: root.to_path_buf(),
            missing: missing.join(" "),
        });
    }
    remove_stale(root);
    let dir = root.join(judge_name());
    fs::create_dir_all(&dir).map_err(|error| CgroupError::NotWritable {
        base: root.to_path_buf(),
        error,
    })?;
    let cgroups = JudgeCgroups {
        version: Version::V2,
        dirs: vec![dir.clone()],
        moved_from: None,
        how: "below the root cgroup".into(),
    };
    enable_for_children(&dir, &wanted(root))?;
    Ok(cgroups)
}

/// The judge alone in `home`, which it may write: it moves into
/// `home/judge-<pid>/judge` and enables the controllers below `home`.
fn alone_in(home: &Path) -> Result<JudgeCgroups, CgroupError> {
    let available = read_list(&home.join("cgroup.controllers"));
    if let Some(missing) = V2_NEEDED
        .iter()
        .find(|c| !available.iter().any(|a| a == *c))
    {
        return Err(CgroupError::V2Controller {
            base: home.to_path_buf(),
            controller: missing,
        });
    }
    let me = std::process::id();
    let procs = fs::read_to_string(home.join("cgroup.procs")).map_err(|error| {
        CgroupError::NotWritable {
            base: home.to_path_buf(),
            error,
        }
    })?;
    let others = procs
        .split_whitespace()
        .filter(|p| p.parse() != Ok(me))
        .count();
    if others > 0 {
        return Err(CgroupError::V2Shared {
            base: home.to_path_buf(),
            others,
        });
    }
    remove_stale(home);
    let dir = home.join(judge_name());
    let leaf = dir.join("judge");
    fs::create_dir_all(&leaf).map_err(|error| CgroupError::NotWritable {
        base: home.to_path_buf(),
        error,
    })?;
    // From here on, dropping `cgroups` undoes what was done.
    let mut cgroups = JudgeCgroups {
        version: Version::V2,
        dirs: vec![dir.clone()],
        moved_from: Some(Moved {
            home: home.to_path_buf(),
            enabled_at: home.to_path_buf(),
            enabled: Vec::new(),
            gathered: None,
        }),
        how: "in the judge's own cgroup".into(),
    };
    fs::write(leaf.join("cgroup.procs"), me.to_string()).map_err(|error| CgroupError::Write {
        file: leaf.join("cgroup.procs"),
        error,
    })?;
    let want = wanted(home);
    let enabled = read_list(&home.join("cgroup.subtree_control"));
    let missing: Vec<&'static str> = want
        .iter()
        .copied()
        .filter(|c| !enabled.iter().any(|e| e == c))
        .collect();
    enable_for_children(home, &missing)?;
    if let Some(moved) = &mut cgroups.moved_from {
        moved.enabled = missing;
    }
    enable_for_children(&dir, &want)?;
    Ok(cgroups)
}

/// The judge's cgroup at `top` (the top of the hierarchy it sees), beside
/// `home` (where it is, with other processes): it moves alone into
/// `top/judge-<pid>/judge` and enables the controllers at `top`. With
/// `gather` (a container's cgroup namespace), the processes in `top` itself
/// are first moved into a leaf, `top/init`, as docker:dind does (a cgroup
/// with processes cannot enable controllers for children); if `top` holds
/// none (dind did that already), it is used as it is.
fn beside(top: &Path, home: &Path, gather: bool) -> Result<JudgeCgroups, CgroupError> {
    let available = read_list(&top.join("cgroup.controllers"));
    if let Some(missing) = V2_NEEDED
        .iter()
        .find(|c| !available.iter().any(|a| a == *c))
    {
        return Err(CgroupError::V2Controller {
            base: top.to_path_buf(),
            controller: missing,
        });
    }
    let mut home = home.to_path_buf();
    let mut gathered = None;
    if gather && !read_list(&top.join("cgroup.procs")).is_empty() {
        let init = top.join("init");
        fs::create_dir_all(&init).map_err(|error| CgroupError::NotWritable {
            base: top.to_path_buf(),
            error,
        })?;
        move_all(top, &init)?;
        if home == top {
            home = init.clone();
        }
        gathered = Some(init);
    }
    remove_stale(top);
    let want = wanted(top);
    let enabled = read_list(&top.join("cgroup.subtree_control"));
    let missing: Vec<&'static str> = want
        .iter()
        .copied()
        .filter(|c| !enabled.iter().any(|e| e == c))
        .collect();
    let dir = top.join(judge_name());
    let leaf = dir.join("judge");
    fs::create_dir_all(&leaf).map_err(|error| CgroupError::NotWritable {
        base: top.to_path_buf(),
        error,
    })?;
    let mut cgroups = JudgeCgroups {
        version: Version::V2,
        dirs: vec![dir.clone()],
        moved_from: Some(Moved {
            home,
            enabled_at: top.to_path_buf(),
            enabled: Vec::new(),
            gathered,
        }),
        how: String::new(),
    };
    let me = std::process::id();
    fs::write(leaf.join("cgroup.procs"), me.to_string()).map_err(|error| CgroupError::Write {
        file: leaf.join("cgroup.procs"),
        error,
    })?;
    enable_for_children(top, &missing)?;
    if let Some(moved) = &mut cgroups.moved_from {
        moved.enabled = missing;
    }
    enable_for_children(&dir, &want)?;
    Ok(cgroups)
}

/// Moves every process of cgroup `from` into `to`, again while some are
/// left (a process may fork meanwhile); one that exited is skipped.
fn move_all(from: &Path, to: &Path) -> Result<(), CgroupError> {
    let target = to.join("cgroup.procs");
    for _ in 0..20 {
        let procs = read_list(&from.join("cgroup.procs"));
        if procs.is_empty() {
            return Ok(());
        }
        for pid in procs {
            match fs::write(&target, &pid) {
                Ok(()) => {}
                Err(e) if e.raw_os_error() == Some(libc::ESRCH) => {}
                Err(error) => {
                    return Err(CgroupError::Write {
                        file: target.clone(),
                        error,
                    })
                }
            }
        }
    }
    Err(CgroupError::Write {
        file: target,
        error: io::Error::other(format!("processes kept appearing in {}", from.display())),
    })
}

/// The mount options of the cgroup file system mounted at `mount`.
fn mount_options_of(mounts: &str, mount: &Path) -> String {
    mounts
        .lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let fields: Vec<&str> = left.split(' ').collect();
            let fstype = right.split(' ').next()?;
            (fstype == "cgroup2" && Path::new(&unescape(fields.get(4)?)) == mount)
                .then(|| fields.get(5).copied().unwrap_or("").to_string())
        })
        .next_back()
        .unwrap_or_default()
}

/// The controllers the judge's subtree gets: memory and pids, and cpu where
/// `parent` offers it.
fn wanted(parent: &Path) -> Vec<&'static str> {
    let available = read_list(&parent.join("cgroup.controllers"));
    let cpu = available.iter().any(|a| a == "cpu");
    V2_NEEDED
        .iter()
        .copied()
        .chain(cpu.then_some("cpu"))
        .collect()
}

/// Enables `controllers` for the children of `dir`: an error if the kernel
/// refuses (never ignored: slots without them would measure nothing).
fn enable_for_children(dir: &Path, controllers: &[&str]) -> Result<(), CgroupError> {
    if controllers.is_empty() {
        return Ok(());
    }
    let on: Vec<String> = controllers.iter().map(|c| format!("+{c}")).collect();
    write_controllers(dir, &on.join(" ")).map_err(|error| CgroupError::Write {
        file: dir.join("cgroup.subtree_control"),
        error,
    })
}

fn write_controllers(dir: &Path, change: &str) -> io::Result<()> {
    if change.is_empty() {
        return Ok(());
    }
    fs::write(dir.join("cgroup.subtree_control"), change)
}

fn read_list(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn judge_name() -> String {
    format!("judge-{}", std::process::id())
}

/// The subdirectories of `dir`.
fn children(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// Removes the cgroup `dir` and every cgroup below it (which must hold no
/// process), deepest first.
pub(crate) fn remove_tree(dir: &Path) {
    for child in children(dir) {
        remove_tree(&child);
    }
    let _ = fs::remove_dir(dir);
}

/// Removes the `judge-<pid>` directories of judges that are gone.
fn remove_stale(base: &Path) {
    for dir in children(base) {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(pid) = name
            .strip_prefix("judge-")
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            remove_tree(&dir);
        }
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
        let all = cgroup_mounts(MOUNTS);
        let paths: Vec<PathBuf> = V1_CONTROLLERS
            .iter()
            .map(|c| {
                let (_, _, mount, root) = all
                    .iter()
                    .find(|(t, o, _, _)| t == "cgroup" && o.split(',').any(|x| x == *c))
                    .unwrap();
                join_cgroup(mount, root, own_path(OWN, c).unwrap())
            })
            .collect();
        assert_eq!(
            paths,
            [
                PathBuf::from("/sys/fs/cgroup/memory/process_api/abc"),
                PathBuf::from("/sys/fs/cgroup/pids"),
                PathBuf::from("/sys/fs/cgroup/cpuacct"),
            ]
        );
    }

    #[test]
    fn v1_needs_every_controller() {
        let err = v1(OWN, &MOUNTS.replace("rw,pids", "rw,net_cls")).unwrap_err();
        assert_eq!(err.to_string(), "cgroup v1: no `pids` hierarchy mounted");
    }

    #[test]
    fn a_read_only_cgroup_file_system_is_seen() {
        let mounts = "\
40 30 0:30 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw
41 30 0:31 / /other rw,relatime - cgroup2 cgroup2 rw
";
        assert_eq!(
            mount_options_of(mounts, Path::new("/sys/fs/cgroup")),
            "ro,nosuid,nodev,noexec,relatime"
        );
        assert_eq!(mount_options_of(mounts, Path::new("/other")), "rw,relatime");
        let err = v2("0::/\n", mounts, 0).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cgroup v2 at /sys/fs/cgroup is mounted read-only"),
            "{err}"
        );
    }

    #[test]
    fn a_cgroup_outside_the_namespace_is_refused() {
        let mounts = "40 30 0:30 / /nonexistent-cgroup rw - cgroup2 cgroup2 rw\n";
        let err = v2("0::/../judge-9145.scope\n", mounts, 0).unwrap_err();
        assert!(
            err.to_string()
                .contains("outside its container's cgroup namespace"),
            "{err}"
        );
    }

    #[test]
    fn a_v2_path_inside_a_namespace_root() {
        let mounts = "40 30 0:30 /system.slice/x.service /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
        let (_, _, mount, root) = cgroup_mounts(mounts).remove(0);
        assert_eq!(
            join_cgroup(&mount, &root, "/system.slice/x.service/inner"),
            PathBuf::from("/sys/fs/cgroup/inner")
        );
        assert_eq!(
            own_path("1:memory:/a\n0::/system.slice/x.service\n", ""),
            Some("/system.slice/x.service")
        );
    }
}
