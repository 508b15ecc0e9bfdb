//! The proof that the whole hostile suite and verdict table passed in the
//! cgroup-v2 VM is tied to the tree it passed on: `tests/vm/fingerprint.sh`
//! must change whenever what decides those results changes (so that
//! tests/vm/ci.sh runs them again), and only then.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::repo;

/// The fingerprint of the tree at `root` (None when the script fails), and
/// what the script said on stderr.
fn fingerprint(root: &Path) -> (Option<String>, String) {
    let output = Command::new("bash")
        .arg(repo().join("tests/vm/fingerprint.sh"))
        .arg(root)
        .output()
        .expect("run bash");
    let stdout = String::from_utf8_lossy(&output.stdout).trim().to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success().then_some(stdout), stderr)
}

/// The files the fingerprint covers in this repository.
fn covered() -> Vec<PathBuf> {
    let output = Command::new("bash")
        .arg(repo().join("tests/vm/fingerprint.sh"))
        .arg("--files")
        .arg(repo())
        .output()
        .expect("run bash");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .expect("UTF-8 paths")
        .lines()
        .map(PathBuf::from)
        .collect()
}

#[test]
fn the_fingerprint_follows_the_sandbox_and_nothing_else() {
    let files = covered();
    for wanted in [
        "src/sandbox/mod.rs",
        "judge.toml",
        "tests/cli/hostile.rs",
        "tests/cli/verdicts.rs",
        "tests/vm/guest.sh",
    ] {
        assert!(
            files.contains(&PathBuf::from(wanted)),
            "{wanted} not in {files:?}"
        );
    }
    // A copy of the covered files: the same fingerprint (content and
    // paths decide it, not where the tree is).
    let copy = tempfile::tempdir().unwrap();
    let root = copy.path();
    for file in &files {
        let to = root.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo().join(file), &to).unwrap();
    }
    let (original, stderr) = fingerprint(root);
    let original = original.unwrap_or_else(|| panic!("fingerprint failed: {stderr}"));
    assert_eq!(original.len(), 64, "{original}");
    assert!(
        original.chars().all(|c| c.is_ascii_hexdigit()),
        "{original}"
    );
    assert_eq!(fingerprint(repo()).0.as_ref(), Some(&original));

    let changed = |what: &str, change: &dyn Fn(), undo: &dyn Fn()| {
        change();
        let (now, stderr) = fingerprint(root);
        assert_ne!(now.as_ref(), Some(&original), "{what}: {stderr}");
        assert!(now.is_some(), "{what}: the script failed: {stderr}");
        undo();
        assert_eq!(
            fingerprint(root).0.as_ref(),
            Some(&original),
            "{what}, undone"
        );
    };
    let sandbox_file = root.join("src/sandbox/mod.rs");
    let text = std::fs::read(&sandbox_file).unwrap();
    changed(
        "a byte more in src/sandbox/mod.rs",
        &|| {
            let mut more = text.clone();
            more.push(b'\n');
            std::fs::write(&sandbox_file, more).unwrap();
        },
        &|| std::fs::write(&sandbox_file, &text).unwrap(),
    );
    let new_file = root.join("src/sandbox/cgroup/new_part.rs");
    changed(
        "a new file in src/sandbox",
        &|| std::fs::write(&new_file, "").unwrap(),
        &|| std::fs::remove_file(&new_file).unwrap(),
    );
    let renamed = root.join("src/sandbox/renamed.rs");
    changed(
        "a file of src/sandbox renamed",
        &|| std::fs::rename(&sandbox_file, &renamed).unwrap(),
        &|| std::fs::rename(&renamed, &sandbox_file).unwrap(),
    );
    let fixture = root.join("tests/fixtures/hostile/fork-bomb.c");
    let fixture_text = std::fs::read(&fixture).unwrap();
    changed(
        "a hostile fixture changed",
        &|| std::fs::write(&fixture, b"int main(void) { return 0; }\n").unwrap(),
        &|| std::fs::write(&fixture, &fixture_text).unwrap(),
    );
    // What the host's own tests cover alone does not count.
    std::fs::create_dir_all(root.join("src/render")).unwrap();
    std::fs::write(root.join("src/render/new.rs"), "// a renderer\n").unwrap();
    std::fs::write(root.join("README.md"), "changed\n").unwrap();
    assert_eq!(fingerprint(root).0.as_ref(), Some(&original));
    // A covered path that is gone is an error naming it, not a fingerprint.
    std::fs::remove_file(root.join("judge.toml")).unwrap();
    let (gone, stderr) = fingerprint(root);
    assert_eq!(gone, None, "{stderr}");
    assert!(stderr.contains("judge.toml is missing"), "{stderr}");
}

/// tests/vm/full-proved is what run.sh writes: a fingerprint line that
/// tests/vm/ci.sh can compare (without it, ci.sh runs the whole of `full` on
/// every push).
#[test]
fn the_committed_proof_has_a_fingerprint() {
    let proof = repo().join("tests/vm/full-proved");
    let text = std::fs::read_to_string(&proof).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (`sudo bash tests/vm/run.sh 6.1 full` writes it; commit it)",
            proof.display()
        )
    });
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("fingerprint "))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    let value = lines[0].trim_start_matches("fingerprint ");
    assert!(
        value.len() == 64 && value.chars().all(|c| c.is_ascii_hexdigit()),
        "{text}"
    );
    assert!(text.contains("\npassed "), "{text}");
}

/// Runs the real `tests/vm/ci.sh` in a copy of the tree whose VM scripts are
/// stubs: `run.sh` "panics" the guest of `panic_on` (a console with an oops,
/// no status) its first `panics` boots, else passes. Returns the exit status
/// and the log.
fn ci_with_stub_vm(panic_on: &str, panics: u32, proved: bool) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let vm = root.join("vm");
    std::fs::create_dir_all(root.join("tests/vm")).unwrap();
    std::fs::create_dir_all(&vm).unwrap();
    std::fs::copy(repo().join("tests/vm/ci.sh"), root.join("tests/vm/ci.sh")).unwrap();
    for kernel in ["vmlinuz-6.1.0-1-amd64", "vmlinuz-6.12.1+deb12-amd64"] {
        std::fs::write(vm.join(kernel), "").unwrap();
    }
    let write =
        |name: &str, text: &str| std::fs::write(root.join("tests/vm").join(name), text).unwrap();
    write("build.sh", "true\n");
    write("fingerprint.sh", "echo this-tree\n");
    let proof = if proved { "this-tree" } else { "another-tree" };
    write("full-proved", &format!("fingerprint {proof}\n"));
    write(
        "run.sh",
        r#"out="$JUDGE_VM_DIR/out-$1-${2//,/+}"; rm -rf "$out"; mkdir -p "$out"
count="$JUDGE_VM_DIR/boots-$1"; n=$(cat "$count" 2>/dev/null || echo 0); echo $((n + 1)) >"$count"
if [ "$1" = "$PANIC_ON" ] && [ "$n" -lt "$PANICS" ]; then
  printf '[ 97.9] BUG: unable to handle page fault\n[ 98.0] RIP: 0010:__alloc_pages_noprof+0xe2/0x310\n[ 98.1] Kernel panic - not syncing: Fatal exception in interrupt\n' >"$out/console.log"
  exit 1
fi
echo "$1 | a placement | cgroup-v2 | ok" >"$out/placements.txt"; echo 0 >"$out/status"
"#,
    );
    let output = Command::new("bash")
        .arg(root.join("tests/vm/ci.sh"))
        .env("JUDGE_VM_DIR", &vm)
        .env("PANIC_ON", panic_on)
        .env("PANICS", panics.to_string())
        .output()
        .expect("run bash");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), log)
}

#[test]
fn a_guest_whose_kernel_panicked_is_booted_once_more_and_named() {
    // Once: booted again, CI passes, and the end of the log names the panic.
    let (ok, log) = ci_with_stub_vm("6.12", 1, true);
    assert!(ok, "{log}");
    assert!(
        log.contains("BUG: unable to handle page fault"),
        "the oops's first line: {log}"
    );
    let tail: String = log.lines().rev().take(4).collect::<Vec<_>>().join("\n");
    assert!(
        tail.contains("panicked and was booted again: 6.12 containers"),
        "named at the end: {log}"
    );
    assert!(log.contains("6.12 | a placement | cgroup-v2 | ok"), "{log}");
    // Twice: CI fails, with the oops at the end.
    let (ok, log) = ci_with_stub_vm("6.12", 2, true);
    assert!(!ok, "{log}");
    assert!(
        log.contains("vm: FAILED: 6.12 containers (exit 1)"),
        "{log}"
    );
    let end = &log[log.find("vm: FAILED").unwrap()..];
    assert!(
        end.contains("Kernel panic"),
        "the oops after the failure: {log}"
    );
    // No panic: nothing said of one.
    let (ok, log) = ci_with_stub_vm("none", 0, true);
    assert!(ok && !log.contains("panicked"), "{log}");
    // `full` (the sandbox changed) is not booted again: it would not fit CI.
    let (ok, log) = ci_with_stub_vm("6.1", 1, false);
    assert!(!ok, "{log}");
    assert!(log.contains("vm: FAILED: 6.1 full (exit 1)"), "{log}");
    assert!(!log.contains("booting it again"), "{log}");
}
