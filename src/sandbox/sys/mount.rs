//! Namespaces and mounts: unshare, mount, read-only trees, pivot_root.

use std::ffi::CString;
use std::io;
use std::path::Path;

use super::{check, cstr};

/// Namespace flags for [`unshare`].
pub(crate) mod ns {
    /// User namespace.
    pub(crate) const USER: i32 = libc::CLONE_NEWUSER;
    /// Mount namespace.
    pub(crate) const MOUNT: i32 = libc::CLONE_NEWNS;
    /// PID namespace (for children).
    pub(crate) const PID: i32 = libc::CLONE_NEWPID;
    /// Network namespace.
    pub(crate) const NET: i32 = libc::CLONE_NEWNET;
    /// IPC namespace.
    pub(crate) const IPC: i32 = libc::CLONE_NEWIPC;
    /// UTS namespace.
    pub(crate) const UTS: i32 = libc::CLONE_NEWUTS;
}

/// unshare(2).
pub(crate) fn unshare(flags: i32) -> io::Result<()> {
    // SAFETY: unshare takes flags only.
    check(unsafe { libc::unshare(flags) }).map(|_| ())
}

/// Mount flags used by the keeper.
pub(crate) mod mnt {
    /// Bind mount.
    pub(crate) const BIND: u64 = libc::MS_BIND;
    /// Recursive.
    pub(crate) const REC: u64 = libc::MS_REC;
    /// Private propagation.
    pub(crate) const PRIVATE: u64 = libc::MS_PRIVATE;
    /// Remount.
    pub(crate) const REMOUNT: u64 = libc::MS_REMOUNT;
    /// Read-only.
    pub(crate) const RDONLY: u64 = libc::MS_RDONLY;
    /// No set-uid.
    pub(crate) const NOSUID: u64 = libc::MS_NOSUID;
    /// No devices.
    pub(crate) const NODEV: u64 = libc::MS_NODEV;
    /// No exec.
    pub(crate) const NOEXEC: u64 = libc::MS_NOEXEC;
}

/// mount(2); `source`/`fstype`/`data` may be absent.
pub(crate) fn mount(
    source: Option<&Path>,
    target: &Path,
    fstype: Option<&str>,
    flags: u64,
    data: Option<&str>,
) -> io::Result<()> {
    let source = source.map(cstr).transpose()?;
    let target = cstr(target)?;
    let fstype = fstype.map(|f| CString::new(f).expect("no NUL"));
    let data = data.map(|d| CString::new(d).expect("no NUL"));
    let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    // SAFETY: every pointer is null or a valid NUL-terminated string alive for the call.
    check(unsafe {
        libc::mount(
            ptr(&source),
            target.as_ptr(),
            ptr(&fstype),
            flags as libc::c_ulong,
            ptr(&data) as *const libc::c_void,
        )
    })
    .map(|_| ())
}

/// umount2(2) with MNT_DETACH.
pub(crate) fn umount_detach(target: &Path) -> io::Result<()> {
    let target = cstr(target)?;
    // SAFETY: valid C string.
    check(unsafe { libc::umount2(target.as_ptr(), libc::MNT_DETACH) }).map(|_| ())
}

/// Makes the mount at `target` and every mount below it read-only and
/// nosuid (mount_setattr(2) with AT_RECURSIVE, Linux 5.12+).
pub(crate) fn make_tree_readonly(target: &Path) -> io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const MOUNT_ATTR_RDONLY: u64 = 0x1;
    const MOUNT_ATTR_NOSUID: u64 = 0x2;
    const AT_RECURSIVE: libc::c_int = 0x8000;
    let target = cstr(target)?;
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: valid C string and a properly sized mount_attr struct.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            target.as_ptr(),
            AT_RECURSIVE,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    check(rc as libc::c_int).map(|_| ())
}

/// Makes `new_root` the root of the calling process's mount namespace
/// (the `pivot_root(".", ".")` idiom) and detaches the old root.
pub(crate) fn pivot_into(new_root: &Path) -> io::Result<()> {
    std::env::set_current_dir(new_root)?;
    let dot = CString::new(".").expect("no NUL");
    // SAFETY: valid C strings.
    check(
        unsafe { libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()) } as libc::c_int,
    )?;
    umount_detach(Path::new("."))?;
    std::env::set_current_dir("/")
}

/// Sets the hostname (in a private UTS namespace).
pub(crate) fn set_hostname(name: &str) -> io::Result<()> {
    // SAFETY: pointer and length of a valid buffer.
    check(unsafe { libc::sethostname(name.as_ptr() as *const libc::c_char, name.len()) })
        .map(|_| ())
}
