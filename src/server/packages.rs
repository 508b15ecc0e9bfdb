//! The fingerprint of what a live contest judges with: each problem
//! package's content hash, its test data's wherever it lives, its limits,
//! the time limit the server settled, and the
//! definitions of the contest's languages. The server records it in the
//! database; a judging host computes its own from its copy of the contest
//! and refuses to start when they differ, naming what differs. The main type
//! is [`Fingerprint`].

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::Language;
use crate::error::{Error, Result};
use crate::problem::Problem;

/// The `meta` key the fingerprint is stored under (its hash under
/// `fingerprint`, which every claim of a host compares).
pub(crate) const META_KEY: &str = "packages";

/// What a contest judges with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Fingerprint {
    /// The version of `judge` (hosts run the server's).
    pub(crate) judge: String,
    /// Each problem by id.
    pub(crate) problems: BTreeMap<String, ProblemPrint>,
    /// Each language's definition hash, by id.
    pub(crate) languages: BTreeMap<String, String>,
}

/// One problem's package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ProblemPrint {
    /// The content hash of its folder.
    pub(crate) hash: String,
    /// The content hash of its test data where that lives outside the
    /// package (`testdata/ID` of a contest folder; empty when inside).
    #[serde(default)]
    pub(crate) data: String,
    /// Its limits other than the time limit, as a sentence (memory,
    /// output, its programs' and its checker's limits: from judge.toml's
    /// defaults where the package is silent).
    #[serde(default)]
    pub(crate) limits: String,
    /// The time limit the server judges with (settled from the package's
    /// accepted solutions where it says so: hosts take the server's).
    pub(crate) time_limit_ms: u64,
}

impl Fingerprint {
    /// The hash every claim of a host compares.
    pub(crate) fn id(&self) -> String {
        let text = serde_json::to_string(self).expect("fingerprints serialise");
        blake3::hash(text.as_bytes()).to_hex()[..32].to_string()
    }

    /// What differs between the server's (`self`) and a host's, each in
    /// a sentence; empty when nothing does. Time limits are not compared
    /// (the host takes the server's).
    pub(crate) fn differences(&self, host: &Fingerprint) -> Vec<String> {
        let mut out = Vec::new();
        if self.judge != host.judge {
            out.push(format!(
                "the server runs judge {}, this host judge {}",
                self.judge, host.judge
            ));
        }
        for (id, theirs) in &self.problems {
            match host.problems.get(id) {
                None => out.push(format!("problem `{id}`: not in this host's contest.toml")),
                Some(mine) if mine.hash != theirs.hash => out.push(format!(
                    "problem `{id}`: this host's package differs from the server's \
                     (content hash {} here, {} there)",
                    &mine.hash[..12],
                    &theirs.hash[..12]
                )),
                Some(mine) if mine.data != theirs.data => out.push(format!(
                    "problem `{id}`: this host's test data differs from the server's \
                     (content hash {} here, {} there)",
                    short(&mine.data),
                    short(&theirs.data)
                )),
                Some(mine) if mine.limits != theirs.limits => out.push(format!(
                    "problem `{id}`: this host's limits differ from the server's ({} here; {} \
                     there)",
                    mine.limits, theirs.limits
                )),
                Some(_) => {}
            }
        }
        for id in host.problems.keys() {
            if !self.problems.contains_key(id) {
                out.push(format!("problem `{id}`: not in the server's contest"));
            }
        }
        for (id, theirs) in &self.languages {
            match host.languages.get(id) {
                None => out.push(format!(
                    "language `{id}`: not in this host's judge.toml, or not installed here"
                )),
                Some(mine) if mine != theirs => out.push(format!(
                    "language `{id}`: this host's judge.toml defines it otherwise than the server's"
                )),
                Some(_) => {}
            }
        }
        out
    }
}

/// A hash as shown, or `none` (no test data outside the package).
fn short(hash: &str) -> &str {
    if hash.is_empty() {
        "none"
    } else {
        &hash[..hash.len().min(12)]
    }
}

/// The fingerprint of `problem` with `time_limit_ms`: its package, its
/// test data wherever it lives, its limits.
pub(crate) fn problem_print(problem: &Problem, time_limit_ms: u64) -> Result<ProblemPrint> {
    let data = if problem.testdata_dir.starts_with(&problem.dir) || !problem.testdata_dir.is_dir() {
        String::new()
    } else {
        package_hash(&problem.testdata_dir)?
    };
    let (l, p, c) = (
        &problem.limits,
        &problem.program_limits,
        &problem.checker_limits,
    );
    let limits = format!(
        "memory {} B, output {} B; package programs {} ms, {} B, {} B; checker {} ms, {} B, {} B",
        l.memory,
        l.output,
        p.time.as_millis(),
        p.memory,
        p.output,
        c.time.as_millis(),
        c.memory,
        c.output
    );
    Ok(ProblemPrint {
        hash: package_hash(&problem.dir)?,
        data,
        limits,
        time_limit_ms,
    })
}

/// The content hash of a problem package: every file under `dir` (links
/// followed) by its path, executable bit and content, in name order;
/// `.git` and the judge's own `.judge*` folders left out.
pub(crate) fn package_hash(dir: &Path) -> Result<String> {
    let mut hasher = blake3::Hasher::new();
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !(name == ".git" || name.starts_with(".judge"))
        });
    for entry in walk {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(dir).to_path_buf();
            Error::io(path, std::io::Error::other(e.to_string()))
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let name = relative.to_string_lossy();
        let meta = entry
            .metadata()
            .map_err(|e| Error::io(entry.path(), std::io::Error::other(e.to_string())))?;
        use std::os::unix::fs::PermissionsExt;
        let executable = meta.permissions().mode() & 0o111 != 0;
        let content =
            crate::cache::Key::of_file(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
        hasher.update(&(name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update(&[u8::from(executable)]);
        hasher.update(content.as_str().as_bytes());
    }
    Ok(hasher.finalize().to_hex()[..32].to_string())
}

/// The hash of a language's definition: what decides how a submission is
/// built and run (not where this machine keeps the toolchain).
pub(crate) fn language_hash(language: &Language) -> String {
    let parts = serde_json::json!({
        "id": language.id,
        "extensions": language.extensions,
        "compile": language.compile,
        "run": language.run,
        "source_name": language.source_name,
        "address_space_limit": language.address_space_limit,
        "env": language.env,
        "time_factor": language.time_factor.to_bits(),
        "precompiled_header": language.precompiled_header,
    });
    blake3::hash(parts.to_string().as_bytes()).to_hex()[..32].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_changes_the_hash_and_the_cache_folders_do_not() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("data/secret")).unwrap();
        std::fs::write(dir.path().join("data/secret/1.in"), "1 2\n").unwrap();
        let first = package_hash(dir.path()).unwrap();
        std::fs::create_dir_all(dir.path().join(".judge-cache")).unwrap();
        std::fs::write(dir.path().join(".judge-cache/x"), "y").unwrap();
        assert_eq!(package_hash(dir.path()).unwrap(), first);
        std::fs::write(dir.path().join("data/secret/1.in"), "1 3\n").unwrap();
        assert_ne!(package_hash(dir.path()).unwrap(), first);
        std::fs::write(dir.path().join("data/secret/1.in"), "1 2\n").unwrap();
        std::fs::rename(
            dir.path().join("data/secret/1.in"),
            dir.path().join("data/secret/2.in"),
        )
        .unwrap();
        assert_ne!(package_hash(dir.path()).unwrap(), first);
    }

    #[test]
    fn differences_name_the_problem_and_the_language() {
        let print = |hash: &str, lang: &str| Fingerprint {
            judge: "1".into(),
            problems: [(
                "a".to_string(),
                ProblemPrint {
                    hash: hash.repeat(32),
                    data: String::new(),
                    limits: "memory 1 B".into(),
                    time_limit_ms: 1000,
                },
            )]
            .into(),
            languages: [("c".to_string(), lang.to_string())].into(),
        };
        let server = print("0", "x");
        assert!(server.differences(&server.clone()).is_empty());
        let host = print("1", "y");
        assert_eq!(
            server.differences(&host),
            [
                "problem `a`: this host's package differs from the server's (content hash \
                 111111111111 here, 000000000000 there)",
                "language `c`: this host's judge.toml defines it otherwise than the server's"
            ]
        );
        // Test data outside the package, and the limits, are compared too.
        let mut host = server.clone();
        let a = host.problems.get_mut("a").unwrap();
        a.data = "f".repeat(32);
        a.limits = "memory 2 B".into();
        assert_eq!(
            server.differences(&host),
            [
                "problem `a`: this host's test data differs from the server's (content hash \
              ffffffffffff here, none there)"
            ]
        );
        host.problems.get_mut("a").unwrap().data = String::new();
        assert_eq!(
            server.differences(&host),
            [
                "problem `a`: this host's limits differ from the server's (memory 2 B here; \
              memory 1 B there)"
            ]
        );
    }
}
