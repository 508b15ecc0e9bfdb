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
