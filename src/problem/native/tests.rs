//! Spec errors, table-driven: each broken spec and the exact messages it gives.

use std::path::Path;
use std::time::Duration;

use super::*;
use crate::config::{Config, BUILTIN_CONFIG};

fn fixture() -> (tempfile::TempDir, Config) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("problems").join("demo");
    std::fs::create_dir_all(&dir).unwrap();
    for f in [
        "ref.rs", "gen.rs", "val.rs", "chk.cpp", "brute.rs", "ok.cpp",
    ] {
        std::fs::write(dir.join(f), "").unwrap();
    }
    let config = Config::parse(BUILTIN_CONFIG, None, root.path().to_path_buf()).unwrap();
    (root, config)
}

const HEAD: &str = "id = \"demo\"\ntitle = \"Demo\"\n";
const GROUP: &str = "[[tests]]\ngroup = \"samples\"\nload = [\"sample-*\"]\n";

fn errors(body: &str) -> Vec<String> {
    let (root, config) = fixture();
    let dir = root.path().join("problems").join("demo");
    match parse(body, &dir, &config) {
        Ok(p) => panic!("spec accepted: {p:?}"),
        Err(e) => e.problems,
    }
}

#[test]
fn minimal_spec_gets_defaults() {
    let (root, config) = fixture();
    let dir = root.path().join("problems").join("demo");
    let p = parse(&format!("{HEAD}{GROUP}"), &dir, &config).unwrap();
    assert_eq!(
        p.checker,
        CheckerSpec::Tokens {
            case_sensitive: true
        }
    );
    assert_eq!(p.limits.time, config.limits.time);
    assert_eq!(p.testdata_dir, root.path().join("testdata").join("demo"));
    assert_eq!(
        p.groups[0].source,
        GroupSource::Load(vec!["sample-*".into()])
    );
}

#[test]
fn full_spec_parses() {
    let (root, config) = fixture();
    let dir = root.path().join("problems").join("demo");
    let text = format!(
        "{HEAD}time_limit = \"1500ms\"\nmemory_limit = \"64MiB\"\n\
         [checker]\ntype = \"float\"\nabs_tolerance = 1e-9\n\
         [reference]\nsource = \"ref.rs\"\n[generator]\nsource = \"gen.rs\"\n\
         [validator]\nsource = \"val.rs\"\n\
         [brute]\nsource = \"brute.rs\"\ncovers = \"n <= 5\"\nvalidator_args = [\"--max-n\", \"5\"]\ngenerate = [\"small\", \"{{seed}}\"]\ncount = 50\n\
         {GROUP}[[tests]]\ngroup = \"random\"\ngenerate = [\"random\", \"{{seed}}\"]\ncount = 3\n\
         [[solutions]]\nsource = \"ok.cpp\"\nexpect = [\"AC\"]\n"
    );
    let p = parse(&text, &dir, &config).unwrap();
    assert_eq!(p.limits.time, Duration::from_millis(1500));
    assert_eq!(p.limits.memory, 64 << 20);
    assert_eq!(
        p.checker,
        CheckerSpec::Float {
            abs: 1e-9,
            rel: 1e-6
        }
    );
    assert_eq!(
        p.groups[1].source,
        GroupSource::Generate {
            args: vec!["random".into(), "{seed}".into()],
            seeds: vec![1, 2, 3]
        }
    );
    assert_eq!(p.brute.unwrap().count, 50);
    assert_eq!(p.solutions[0].expect, vec![Verdict::AC]);
    assert!(p.solutions[0].program.path.ends_with(Path::new("ok.cpp")));
}

#[test]
fn broken_specs_give_exact_messages() {
    let cases: &[(&str, &[&str])] = &[
        (
            "id = \"other\"\ntitle = \"T\"\n[[tests]]\ngroup = \"g\"\nload = [\"*\"]\n",
            &["id: `other` does not match the directory name `demo`"],
        ),
        (
            "id = \"demo\"\ntitle = \"\"\n",
            &["title: must not be empty", "tests: the problem has no test groups ([[tests]])"],
        ),
        (
            &format!("{HEAD}[checker]\ntype = \"fuzzy\"\n{GROUP}"),
            &["checker.type: unknown checker `fuzzy` (known: tokens, lines, exact, float, custom)"],
        ),
        (
            &format!("{HEAD}[checker]\ntype = \"custom\"\n{GROUP}"),
            &["checker.source: required for checker type `custom`"],
        ),
        (
            &format!("{HEAD}[checker]\ntype = \"tokens\"\nabs_tolerance = 0.1\n{GROUP}"),
            &["checker.abs_tolerance: not used by checker type `tokens`"],
        ),
        (
            &format!("{HEAD}[checker]\ntype = \"float\"\nrel_tolerance = -1.0\n{GROUP}"),
            &["checker.rel_tolerance: must be a finite number >= 0, got -1"],
        ),
        (
            &format!("{HEAD}[reference]\nsource = \"missing.rs\"\n{GROUP}"),
            &["reference.source: file `{DIR}/missing.rs` not found"],
        ),
        (
            &format!("{HEAD}[[tests]]\ngroup = \"random\"\ngenerate = [\"random\"]\ncount = 3\n"),
            &[
                "tests[0].generate: the problem has no [generator]",
                "tests[0].generate: must contain `{seed}` when there are several seeds (or every test would be the same)",
            ],
        ),
        (
            &format!("{HEAD}[[tests]]\ngroup = \"g\"\nload = [\"a\"]\ngenerate = [\"b\"]\n"),
            &["tests[0]: has both `load` and `generate`; a group does one"],
        ),
        (
            &format!("{HEAD}{GROUP}{GROUP}"),
            &["tests[1].group: `samples` is used by an earlier group"],
        ),
        (
            &format!("{HEAD}[[tests]]\ngroup = \"bad name\"\nload = [\"x\"]\nseeds = [1]\n"),
            &[
                "tests[0].group: `bad name` must be letters, digits, `-`, `_` or `.`",
                "tests[0]: `seeds` and `count` only apply to `generate` groups",
            ],
        ),
        (
            &format!("{HEAD}[generator]\nsource = \"gen.rs\"\n[[tests]]\ngroup = \"g\"\ngenerate = [\"{{seed}}\"]\nseeds = [1, 1]\n"),
            &["tests[0].seeds: seeds repeat"],
        ),
        (
            &format!("{HEAD}[brute]\nsource = \"brute.rs\"\ncovers = \"all\"\ngenerate = [\"small\"]\n{GROUP}"),
            &["brute.generate: must contain `{seed}`", "brute.generate: needs a [generator]"],
        ),
        (
            &format!("{HEAD}[stress]\ngenerate = [\"small\", \"{{size}}\"]\n{GROUP}"),
            &[
                "stress.generate: needs a [generator]",
                "stress.generate: must contain `{seed}` (every iteration needs its own input)",
            ],
        ),
    ];
    let (root, _) = fixture();
    let dir = root.path().join("problems").join("demo");
    for (text, expected) in cases {
        let got = errors(text);
        let expected: Vec<String> = expected
            .iter()
            .map(|e| e.replace("{DIR}", &dir.display().to_string()))
            .collect();
        // Paths differ per temp dir: compare with the fixture's dir name normalised.
        let got: Vec<String> = got
            .iter()
            .map(|g| {
                let mut s = g.clone();
                if let Some(start) = s.find("file `/") {
                    let end = s.rfind("/demo/").map(|i| i + "/demo".len()).unwrap();
                    s.replace_range(start + "file `".len()..end, &dir.display().to_string());
                }
                s
            })
            .collect();
        assert_eq!(got, expected, "for spec:\n{text}");
    }
}

#[test]
fn stress_arguments_default_to_the_brute_forces_with_a_size() {
    let (root, config) = fixture();
    let dir = root.path().join("problems").join("demo");
    let parse = |extra: &str| {
        parse(
            &format!("{HEAD}[generator]\nsource = \"gen.rs\"\n{extra}{GROUP}"),
            &dir,
            &config,
        )
        .unwrap()
        .stress
        .unwrap()
    };
    let from_brute = parse(
        "[brute]\nsource = \"brute.rs\"\ncovers = \"all\"\ngenerate = [\"tiny\", \"{seed}\"]\n",
    );
    assert_eq!(from_brute.generate, ["tiny", "{seed}", "{size}"]);
    assert!(!from_brute.explicit);
    assert_eq!(from_brute.args(7, 3), ["tiny", "7", "3"]);
    assert_eq!(parse("").generate, ["small", "{seed}", "{size}"]);
    let explicit = parse("[stress]\ngenerate = [\"random\", \"{seed}\", \"--n={size}\"]\n");
    assert!(explicit.explicit && explicit.grows());
    assert_eq!(explicit.args(1, 12), ["random", "1", "--n=12"]);
    let without_generator = super::parse(&format!("{HEAD}{GROUP}"), &dir, &config).unwrap();
    assert_eq!(without_generator.stress, None);
}

#[test]
fn syntax_and_unknown_keys_name_the_line() {
    let got = errors(&format!("{HEAD}time_limt = \"1s\"\n{GROUP}"));
    assert_eq!(got.len(), 1);
    assert!(got[0].contains("line 3"), "{}", got[0]);
    assert!(got[0].contains("unknown field `time_limt`"), "{}", got[0]);
    let got = errors(&format!("{HEAD}time_limit = \"soon\"\n{GROUP}"));
    assert!(got[0].contains("invalid duration `soon`"), "{}", got[0]);
    let got = errors(&format!(
        "{HEAD}{GROUP}[[solutions]]\nsource = \"ok.cpp\"\nexpect = \"OK\"\n"
    ));
    assert!(
        got[0].contains("unknown verdict `OK` (known: AC WA PE TLE MLE OLE RE CE IE)"),
        "{}",
        got[0]
    );
}
