//! Why an unprivileged user may not create user namespaces (which the
//! sandbox needs without root), read from the kernel's settings, with the
//! fix for each: Debian's `kernel.unprivileged_userns_clone`, Ubuntu's
//! AppArmor restriction (23.10 and later, so GitHub's 24.04 runners), and
//! the generic `user.max_user_namespaces`.

/// Why user namespaces are denied to this user, and the fix; `None` when no
/// setting says they are.
pub(crate) fn denial() -> Option<String> {
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|t| t.trim().to_string())
    };
    denial_from(
        read("/proc/sys/kernel/unprivileged_userns_clone").as_deref(),
        read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref(),
        read("/proc/sys/user/max_user_namespaces").as_deref(),
        &std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "/usr/local/bin/judge".into()),
    )
}

fn denial_from(
    debian: Option<&str>,
    apparmor: Option<&str>,
    max: Option<&str>,
    exe: &str,
) -> Option<String> {
    let start = "unprivileged user namespaces, which the sandbox needs without root, are denied";
    if debian == Some("0") {
        return Some(format!(
            "{start} (kernel.unprivileged_userns_clone = 0): run the judge with sudo, or allow \
             them with `sudo sysctl kernel.unprivileged_userns_clone=1`"
        ));
    }
    if apparmor == Some("1") {
        return Some(format!(
            "{start} by AppArmor (kernel.apparmor_restrict_unprivileged_userns = 1): run the judge \
             with sudo, or give it a profile that allows them: /etc/apparmor.d/judge holding \
             `abi <abi/4.0>, include <tunables/global> profile judge {exe} flags=(unconfined) \
             {{ userns, }}`, then `sudo apparmor_parser -r /etc/apparmor.d/judge`"
        ));
    }
    if max == Some("0") {
        return Some(format!(
            "{start} (user.max_user_namespaces = 0): run the judge with sudo, or allow them with \
             `sudo sysctl user.max_user_namespaces=15000`"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_names_its_fix() {
        let debian = denial_from(Some("0"), None, Some("100"), "/j").unwrap();
        assert!(
            debian.contains("sysctl kernel.unprivileged_userns_clone=1"),
            "{debian}"
        );
        let ubuntu = denial_from(Some("1"), Some("1"), Some("100"), "/j").unwrap();
        assert!(
            ubuntu.contains("profile judge /j flags=(unconfined) { userns, }"),
            "{ubuntu}"
        );
        let max = denial_from(None, None, Some("0"), "/j").unwrap();
        assert!(max.contains("user.max_user_namespaces"), "{max}");
        assert_eq!(denial_from(Some("1"), Some("0"), Some("100"), "/j"), None);
    }
}
