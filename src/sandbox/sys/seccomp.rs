//! The seccomp filter of runs and compilations.

use std::io;

use super::check;

/// Puts the calling process (single-threaded) and everything it starts from
/// now on under a seccomp filter that makes the kernel's keyrings, io_uring,
/// userfaultfd, perf events and bpf unavailable (ENOSYS), and every system
/// call of another ABI (32-bit, x32). The keyring of a uid outlives its
/// processes (a run could leave a key for the next one); the rest is kernel
/// attack surface no contest program needs. Filters are inherited by
/// children and kept across exec: a keeper's init installs it once (attaching
/// one costs about 100 us here, for the JIT), and every run starts under it.
pub(crate) fn restrict_syscalls() -> io::Result<()> {
    let filter = seccomp_filter();
    let program = libc::sock_fprog {
        len: filter.len() as libc::c_ushort,
        filter: filter.as_ptr() as *mut libc::sock_filter,
    };
    // Without SPEC_ALLOW the kernel may also force speculation mitigations
    // on the filtered processes (an IBPB at every switch to them), which
    // costs every run time and protects nothing they hold.
    const SECCOMP_FILTER_FLAG_SPEC_ALLOW: libc::c_ulong = 1 << 2;
    // SAFETY: a valid filter program that outlives the call (the kernel
    // copies it).
    let rc = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            SECCOMP_FILTER_FLAG_SPEC_ALLOW,
            &program as *const libc::sock_fprog,
        )
    };
    check(rc as libc::c_int).map(|_| ())
}

/// The seccomp filter of [`restrict_syscalls`], as classic BPF over `struct
/// seccomp_data` (nr at offset 0, arch at offset 4).
fn seccomp_filter() -> Vec<libc::sock_filter> {
    #[cfg(target_arch = "x86_64")]
    const ARCH: u32 = 0xc000_003e; // AUDIT_ARCH_X86_64
    #[cfg(target_arch = "aarch64")]
    const ARCH: u32 = 0xc000_00b7; // AUDIT_ARCH_AARCH64
    const X32_BIT: u32 = 0x4000_0000;
    let denied = [
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_keyctl,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_userfaultfd,
        libc::SYS_perf_event_open,
        libc::SYS_bpf,
    ];
    let op = |code: u32, jt: u8, jf: u8, k: u32| libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    let load = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let jge = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    let errno = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    // Every jump to "deny" skips to the last instruction.
    let n = denied.len() as u8;
    let mut filter = vec![
        op(load, 0, 0, 4),
        // Another ABI: deny (its numbers are not these).
        op(jeq, 0, n + 3, ARCH),
        op(load, 0, 0, 0),
        op(jge, n + 1, 0, X32_BIT),
    ];
    for (i, nr) in denied.iter().enumerate() {
        filter.push(op(jeq, n - i as u8, 0, *nr as u32));
    }
    filter.push(op(ret, 0, 0, libc::SECCOMP_RET_ALLOW));
    filter.push(op(ret, 0, 0, errno));
    filter
}
