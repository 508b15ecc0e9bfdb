//! The input of a failed test as reports show it: where it is, and how it
//! begins (a few lines, a bounded number of bytes), read once the test has
//! failed.

use std::io::Read;
use std::path::Path;

use crate::report::ShownInput;

/// What a report shows of the input file `path`; `None` if it cannot be read.
pub(super) fn shown_input(path: &Path) -> Option<ShownInput> {
    let file = std::fs::File::open(path).ok()?;
    let bytes = file.metadata().ok()?.len();
    let (mut lines, mut head, mut head_done) = (0u64, Vec::new(), false);
    let mut buf = vec![0u8; 64 << 10];
    let mut reader = file;
    loop {
        let n = reader.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        for &b in &buf[..n] {
            if !head_done {
                head.push(b);
                head_done = head.len() >= ShownInput::MAX_BYTES
                    || (b == b'\n' && lines + 1 >= ShownInput::MAX_LINES as u64);
            }
            lines += u64::from(b == b'\n');
        }
    }
    if bytes > 0 && !head.is_empty() && head.last() != Some(&b'\n') && head.len() as u64 == bytes {
        lines += 1; // a last line without its newline
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let path = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    Some(ShownInput {
        path: path.display().to_string(),
        bytes,
        lines,
        head,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_the_first_lines_and_counts_them_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.in");
        let text: String = (1..=100).map(|i| format!("{i}\n")).collect();
        std::fs::write(&path, &text).unwrap();
        let shown = shown_input(&path).unwrap();
        assert_eq!((shown.lines, shown.bytes), (100, text.len() as u64));
        assert_eq!(shown.head, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
        assert!(!shown.whole());
        let small = dir.path().join("small.in");
        std::fs::write(&small, "1 2").unwrap();
        let shown = shown_input(&small).unwrap();
        assert_eq!((shown.lines, shown.head.as_str()), (1, "1 2"));
        assert!(shown.whole());
        let long = dir.path().join("long.in");
        std::fs::write(&long, "x".repeat(5000)).unwrap();
        assert_eq!(
            shown_input(&long).unwrap().head.len(),
            ShownInput::MAX_BYTES
        );
    }
}
