//! The file-system view of a sandbox, built by its init before it moves into
//! it: a tmpfs root holding read-only binds of the shown host directories
//! (an allow-list: [`super::View::show`]), a minimal /dev of its own (a few
//! device nodes, a private /dev/shm and the namespace's /dev/mqueue), the
//! CPU topology of /sys, a fresh /proc, the run's own build or the
//! compilation's work directory, and a private /tmp.

use std::io;
use std::path::Path;

use super::{
    sys, KeeperConfig, BUILD_MOUNT, DEVICES, FILES_MOUNT, HEADERS_MOUNT, RUN_ID, TMP_INODES,
    WORK_MOUNT,
};

/// Builds the view in `config.root_dir`, joins the slot's cgroup and moves
/// the calling process (and every process of its mount namespace whose root
/// is the host's: the supervisor) into the new root.
pub(super) fn build(config: &KeeperConfig) -> io::Result<()> {
    use sys::mnt::*;
    let root = &config.root_dir;
    let Some(view) = &config.view else {
        return join_cgroup(config);
    };
    sys::mount(None, Path::new("/"), None, REC | PRIVATE, None)?;
    sys::mount(
        Some(Path::new("tmpfs")),
        root,
        Some("tmpfs"),
        NOSUID | NODEV,
        Some("size=1m,mode=755"),
    )?;
    for host in &view.show {
        let Ok(meta) = std::fs::symlink_metadata(host) else {
            continue; // not on this machine (lib32, /opt...)
        };
        let inner = inside(root, host);
        if inner.exists() {
            continue; // inside a directory already shown
        }
        if meta.file_type().is_symlink() {
            // Merged /usr: /bin -> usr/bin, kept as the same link.
            if let Some(parent) = inner.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::os::unix::fs::symlink(std::fs::read_link(host)?, &inner)?;
        } else if meta.is_dir() {
            std::fs::create_dir_all(&inner)?;
            sys::mount(Some(host), &inner, None, BIND | REC, None)?;
            sys::make_tree_readonly(&inner)?;
        }
    }
    let tmp_options = format!("size={},nr_inodes={TMP_INODES},mode=1777", view.tmp_size);
    devices(root, &tmp_options)?;
    let cpu = Path::new("/sys/devices/system/cpu");
    if cpu.is_dir() {
        let inner = inside(root, cpu);
        std::fs::create_dir_all(&inner)?;
        sys::mount(Some(cpu), &inner, None, BIND | REC, None)?;
        sys::make_tree_readonly(&inner)?;
    }
    let proc_dir = root.join("proc");
    std::fs::create_dir(&proc_dir)?;
    sys::mount(
        Some(Path::new("proc")),
        &proc_dir,
        Some("proc"),
        NOSUID | NODEV | NOEXEC,
        None,
    )?;
    std::fs::create_dir(root.join("tmp"))?;
    for (host, mount) in [
        (&view.build, BUILD_MOUNT),
        (&view.headers, HEADERS_MOUNT),
        (&view.files, FILES_MOUNT),
    ] {
        if let Some(host) = host {
            let target = inside(root, Path::new(mount));
            std::fs::create_dir_all(&target)?;
            sys::mount(Some(host), &target, None, BIND | REC, None)?;
            sys::make_tree_readonly(&target)?;
        }
    }
    if let Some(size) = view.work {
        let target = inside(root, Path::new(WORK_MOUNT));
        std::fs::create_dir_all(&target)?;
        // Owned by the identity compilations run as (inside the user
        // namespace, where there is one).
        let options = format!("size={size},nr_inodes=65536,mode=755,uid={RUN_ID},gid={RUN_ID}");
        sys::mount(
            Some(Path::new("tmpfs")),
            &target,
            Some("tmpfs"),
            NOSUID | NODEV,
            Some(&options),
        )?;
    }
    // Only what lies inside a shown directory is there to hide (a home
    // directory holding a shown toolchain is not itself shown).
    let mut covers = Vec::new();
    for hidden in &view.hide {
        let target = inside(root, hidden);
        if view.show.iter().any(|shown| hidden.starts_with(shown)) && target.is_dir() {
            sys::mount(
                Some(Path::new("tmpfs")),
                &target,
                Some("tmpfs"),
                NOSUID | NODEV,
                Some("size=16k,mode=755"),
            )?;
            covers.push(target);
        }
    }
    // A package program's own folders.
    for (index, host) in view.package.iter().enumerate() {
        let target = inside(root, Path::new(&super::package_mount(index)));
        std::fs::create_dir_all(&target)?;
        sys::mount(Some(host), &target, None, BIND | REC, None)?;
        sys::make_tree_readonly(&target)?;
    }
    // Nothing can be left in a cover for the next run.
    for cover in covers {
        sys::mount(None, &cover, None, REMOUNT | RDONLY | NOSUID | NODEV, None)?;
    }
    join_cgroup(config)?;
    sys::mount(None, root, None, REMOUNT | RDONLY | NOSUID | NODEV, None)?;
    sys::pivot_into(root)?;
    let _ = sys::set_hostname("judge");
    // The private /tmp (and working directory of runs): mounted once, and
    // mounted afresh after a run that left something in it.
    mount_tmpfs(Path::new("/tmp"), &tmp_options)
}

/// Joins the slot's cgroup, once: every run is started from here and so born
/// in it. Moving a task per run would take cgroup v1's global threadgroup
/// lock (an RCU sync) on every run. Init must never be the OOM killer's
/// choice.
pub(super) fn join_cgroup(config: &KeeperConfig) -> io::Result<()> {
    if let Some((_, dirs)) = &config.cgroup {
        for dir in dirs {
            let procs = dir.join("cgroup.procs");
            std::fs::write(&procs, "0").map_err(|e| {
                io::Error::new(e.kind(), format!("joining {}: {e}", procs.display()))
            })?;
        }
        // Best effort: needs CAP_SYS_RESOURCE. Runs raise their own score to
        // the maximum anyway, so the OOM killer always picks them first.
        let _ = std::fs::write("/proc/self/oom_score_adj", "-1000");
    }
    Ok(())
}

/// Mounts a tmpfs with `options` at `target` (nosuid, nodev).
pub(super) fn mount_tmpfs(target: &Path, options: &str) -> io::Result<()> {
    use sys::mnt::*;
    sys::mount(
        Some(Path::new("tmpfs")),
        target,
        Some("tmpfs"),
        NOSUID | NODEV,
        Some(options),
    )
}

/// The view's own /dev: the harmless device nodes (bound from the host's,
/// as creating them needs privileges a user namespace lacks), the usual
/// links to /proc/self/fd, a private /dev/shm and the ipc namespace's
/// /dev/mqueue; read-only above those. No host /dev/shm, /dev/pts or
/// sockets: nothing of the host's IPC endpoints.
fn devices(root: &Path, tmp_options: &str) -> io::Result<()> {
    use sys::mnt::*;
    let dev = root.join("dev");
    std::fs::create_dir(&dev)?;
    sys::mount(
        Some(Path::new("tmpfs")),
        &dev,
        Some("tmpfs"),
        NOSUID | NOEXEC,
        Some("size=64k,mode=755"),
    )?;
    for name in DEVICES {
        let host = Path::new("/dev").join(name);
        if !host.exists() {
            continue;
        }
        let inner = dev.join(name);
        std::fs::File::create(&inner)?;
        sys::mount(Some(&host), &inner, None, BIND, None)?;
    }
    for (link, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        std::os::unix::fs::symlink(target, dev.join(link))?;
    }
    std::fs::create_dir(dev.join("shm"))?;
    mount_tmpfs(&dev.join("shm"), tmp_options)?;
    std::fs::create_dir(dev.join("mqueue"))?;
    sys::mount(
        Some(Path::new("mqueue")),
        &dev.join("mqueue"),
        Some("mqueue"),
        NOSUID | NODEV | NOEXEC,
        None,
    )?;
    sys::mount(None, &dev, None, REMOUNT | RDONLY | NOSUID | NOEXEC, None)
}

/// Where the host path `path` (absolute) appears below the new root `root`.
fn inside(root: &Path, path: &Path) -> std::path::PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}
