//! The documented exit codes of `judge`: 0 when every submission is accepted,
//! 1 when some is not, 2 when the judge could not judge (with an error naming
//! what is wrong), 3 when a test was judged IE.

use crate::support::{problem, submission, Workspace};

#[test]
fn all_accepted_exits_0() {
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "run",
        "acwing-891",
        &submission("acwing-891/ac.c"),
        &submission("acwing-891/ac.py"),
        "--tests",
        "sample-*",
        "edge-*",
    ]);
    judged.expect_code(0);
    assert!(judged.stderr.is_empty(), "{judged:#?}");
}

#[test]
fn some_not_accepted_exits_1() {
    let workspace = Workspace::new();
    workspace
        .judge([
            "run",
            "acwing-891",
            &submission("acwing-891/ac.c"),
            &submission("acwing-891/wa-or.cpp"),
            "--tests",
            "sample-*",
            "edge-*",
        ])
        .expect_code(1);
}

#[test]
fn crashing_checker_exits_3() {
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "run",
        &problem("checker-crash"),
        &submission("checker-demo/ac-halves.py"),
        "--format",
        "json",
    ]);
    judged.expect_code(3);
    assert_eq!(judged.report()["verdict"], "IE", "{judged:#?}");
}

/// Command lines the judge cannot judge, and what the error must say.
const COULD_NOT_JUDGE: &[(&[&str], &[&str])] = &[
    (
        &[
            "run",
            "no-such-problem",
            "tests/fixtures/submissions/acwing-891/ac.c",
        ],
        &[
            "unknown problem `no-such-problem`",
            "known problems: acwing-891",
        ],
    ),
    (
        &[
            "run",
            "tests/fixtures/problems/no-such-dir",
            "tests/fixtures/submissions/acwing-891/ac.c",
        ],
        &[
            "unknown problem `tests/fixtures/problems/no-such-dir`",
            "no-such-dir: no such directory",
        ],
    ),
    (
        &[
            "run",
            "acwing-891",
            "tests/fixtures/submissions/acwing-891/missing.c",
        ],
        &[
            "cannot read tests/fixtures/submissions/acwing-891/missing.c",
            "no such file",
        ],
    ),
    (
        &[
            "run",
            "acwing-891",
            "tests/fixtures/submissions/acwing-891/ac.c",
            "--lang",
            "cobol",
        ],
        &["unknown language `cobol`", "c (.c)"],
    ),
    (
        &["run", "acwing-891", "problems/acwing-891/statement.md"],
        &[
            "cannot tell the language of problems/acwing-891/statement.md",
            "unknown extension `.md`",
        ],
    ),
    (
        &[
            "run",
            "tests/fixtures/problems/broken-spec",
            "tests/fixtures/submissions/acwing-891/ac.c",
        ],
        &[
            "tests/fixtures/problems/broken-spec/problem.toml",
            "line 5",
            "unknown field `time_limt`",
        ],
    ),
    (
        &[
            "run",
            "tests/fixtures/problems/broken-checker",
            "tests/fixtures/submissions/acwing-891/ac.c",
        ],
        &[
            "tests/fixtures/problems/broken-checker/problem.toml",
            "checker.type: unknown checker `regex`",
            "tests[0]: needs `load` (fixed tests) or `generate` (generator arguments)",
        ],
    ),
    (
        &[
            "run",
            "acwing-891",
            "tests/fixtures/submissions/acwing-891/ac.c",
            "--tests",
            "no-such-test",
        ],
        &["no test of problem acwing-891 matches the --tests patterns"],
    ),
];

#[test]
fn could_not_judge_exits_2_and_says_why() {
    let workspace = Workspace::new();
    for (args, messages) in COULD_NOT_JUDGE {
        let judged = workspace.judge(*args);
        assert_eq!(judged.code, Some(2), "judge {args:?}: {judged:#?}");
        assert!(
            judged.stderr.starts_with("error: "),
            "judge {args:?}: {judged:#?}"
        );
        for message in *messages {
            assert!(
                judged.stderr.contains(message),
                "judge {args:?}: stderr lacks {message:?}: {judged:#?}"
            );
        }
        assert!(judged.stdout.is_empty(), "judge {args:?}: {judged:#?}");
    }
}

/// `--tests` patterns that match no test are a usage error, said before
/// anything is built.
#[test]
fn tests_patterns_matching_no_test_exit_2() {
    let workspace = Workspace::new();
    let judged = workspace.judge([
        "run",
        "acwing-891",
        &submission("acwing-891/ac.c"),
        "--tests",
        "no-such-test-*",
    ]);
    judged.expect_code(2);
    assert!(
        judged
            .stderr
            .contains("no test of problem acwing-891 matches the --tests patterns"),
        "{judged:#?}"
    );
}
