//! `judge new ID`: scaffolds an empty problem package whose programs are
//! stubs that fail `judge verify` until they are written. The main function
//! is [`new_package`].

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::error::{Error, Result};

const SPEC: &str = r#"# Problem package; the format is documented in docs/problem-format.md.
id = "{ID}"
title = "TODO: title"
source = "TODO: where the original problem lives"
time_limit = "1s"
memory_limit = "64MiB"

[checker]
type = "tokens"

[reference]
source = "reference.rs"

[generator]
source = "gen.rs"

[validator]
source = "validator.rs"

[brute]
source = "brute.rs"
covers = "TODO: the bounds the brute force covers"
validator_args = []
generate = ["small", "{seed}"]
count = 200

[[tests]]
group = "samples"
load = ["sample-*"]

[[tests]]
group = "random"
generate = ["random", "{seed}"]
seeds = [1, 2, 3]

# [[solutions]]
# source = "solutions/accepted.cpp"
# expect = "AC"
"#;

const STATEMENT: &str = "# TODO: title\n\nTODO: the game, in our own words.\n\n## Input\n\nTODO\n\n## Output\n\nTODO\n\n## Samples\n\nTODO\n";

fn stub(what: &str) -> String {
    format!(
        "// TODO: write the {what}. Until then this stub fails `judge verify`.\nfn main() {{\n    eprintln!(\"the {what} is not written yet\");\n    std::process::exit(1);\n}}\n"
    )
}

/// Creates `problems/ID/` and `testdata/ID/` with stubs; returns the package dir.
pub(crate) fn new_package(config: &Config, id: &str) -> Result<PathBuf> {
    let valid = !id.is_empty()
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !valid {
        return Err(Error::Usage(format!(
            "problem id `{id}` must be letters, digits, `-`, `_` or `.`"
        )));
    }
    let dir = config.problems_dir.join(id);
    let tests = config.testdata_dir.join(id);
    for existing in [&dir, &tests] {
        if existing.exists() {
            return Err(Error::Usage(format!(
                "{} already exists; not overwriting it",
                existing.display()
            )));
        }
    }
    let files: [(PathBuf, String); 8] = [
        (dir.join("problem.toml"), SPEC.replace("{ID}", id)),
        (dir.join("statement.md"), STATEMENT.into()),
        (dir.join("reference.rs"), stub("reference solution")),
        (dir.join("gen.rs"), stub("generator")),
        (dir.join("validator.rs"), stub("validator")),
        (dir.join("brute.rs"), stub("brute force")),
        (tests.join("sample-1.in"), String::new()),
        (tests.join("sample-1.ans"), String::new()),
    ];
    for (path, content) in files {
        write_new(&path, &content)?;
    }
    std::fs::create_dir_all(dir.join("solutions"))
        .map_err(|e| Error::io(dir.join("solutions"), e))?;
    Ok(dir)
}

fn write_new(path: &Path, content: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    std::fs::write(path, content).map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;

    #[test]
    fn scaffold_is_a_valid_spec_and_refuses_to_overwrite() {
        let root = tempfile::tempdir().unwrap();
        let config = Config::parse(
            crate::config::BUILTIN_CONFIG,
            None,
            root.path().to_path_buf(),
        )
        .unwrap();
        let dir = new_package(&config, "hdu-1847").unwrap();
        let problem = Problem::load(&dir, &config).unwrap();
        assert_eq!(problem.id, "hdu-1847");
        assert!(root.path().join("testdata/hdu-1847/sample-1.in").is_file());
        let again = new_package(&config, "hdu-1847").unwrap_err().to_string();
        assert!(again.contains("already exists"), "{again}");
        assert!(new_package(&config, "../x").is_err());
    }
}
