//! A language's command lines (judge.toml's `compile` and `run`) with their
//! placeholders filled in.

use std::ffi::OsString;
use std::path::Path;

/// The paths a command template's placeholders stand for.
pub(super) struct Paths<'a> {
    /// `{src}`: the source, in the build directory.
    pub(super) src: &'a Path,
    /// `{exe}`: the executable to make or run.
    pub(super) exe: &'a Path,
    /// `{dir}`: the build directory.
    pub(super) dir: &'a Path,
    /// `{toolchain}`: the directory the `toolchain` command printed.
    pub(super) toolchain: Option<&'a Path>,
    /// `{files}` (a word of its own): every source of a program that is a
    /// directory, `{src}` first; empty means `{src}` alone.
    pub(super) files: &'a [std::path::PathBuf],
}

/// Fills a command template's placeholders.
pub(super) fn fill(template: &[String], paths: &Paths<'_>, memory: Option<u64>) -> Vec<OsString> {
    let memory_mib = memory.map_or(1024, |m| m.div_ceil(1 << 20)).to_string();
    let toolchain = paths.toolchain.unwrap_or(Path::new(""));
    // `{name}`: the source's file name without its extension (a Java class).
    let name = paths
        .src
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    template
        .iter()
        .flat_map(|word| -> Vec<OsString> {
            match word.as_str() {
                "{files}" if !paths.files.is_empty() => paths
                    .files
                    .iter()
                    .map(|f| f.as_os_str().to_owned())
                    .collect(),
                "{src}" | "{files}" => vec![paths.src.as_os_str().to_owned()],
                "{exe}" => vec![paths.exe.as_os_str().to_owned()],
                "{dir}" => vec![paths.dir.as_os_str().to_owned()],
                _ => vec![word
                    .replace("{src}", &paths.src.to_string_lossy())
                    .replace("{exe}", &paths.exe.to_string_lossy())
                    .replace("{dir}", &paths.dir.to_string_lossy())
                    .replace("{name}", &name)
                    .replace("{toolchain}", &toolchain.to_string_lossy())
                    .replace("{memory_mib}", &memory_mib)
                    .into()],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_placeholders() {
        let t: Vec<String> = ["java", "-Xmx{memory_mib}m", "-cp", "{dir}", "{name}"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let paths = Paths {
            src: Path::new("/b/Main.java"),
            exe: Path::new("/b/prog"),
            dir: Path::new("/b"),
            toolchain: None,
            files: &[],
        };
        let argv = fill(&t, &paths, Some(64 << 20));
        assert_eq!(
            argv,
            ["java", "-Xmx64m", "-cp", "/b", "Main"].map(OsString::from)
        );
        // `{files}`: every source of a directory program, else `{src}`.
        let t: Vec<String> = ["g++", "-o", "{exe}", "{files}"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let argv = fill(&t, &paths, None);
        assert_eq!(argv[3], OsString::from("/b/Main.java"));
        let files = ["/b/a.cpp".into(), "/b/b.cpp".into()];
        let argv = fill(
            &t,
            &Paths {
                files: &files,
                ..paths
            },
            None,
        );
        assert_eq!(argv.len(), 5);
        assert_eq!(argv[4], OsString::from("/b/b.cpp"));
    }
}
