//! What users see, byte for byte: the output and exit code of every command
//! on fixed inputs, as snapshots (`tests/cli/snapshots/`). Only what varies
//! from run to run is normalised: times, sizes, the isolation level, paths
//! of temporary directories. A change to any report, message or exit code
//! shows here; accept a deliberate one with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test`).

use crate::support::{problem, submission, Workspace};

/// Replaces what varies between runs (durations, sizes, speeds, the
/// isolation level, the workspace's path) with placeholders.
fn normalise(text: &str, workspace: &Workspace) -> String {
    let mut text = text
        .replace(&workspace.path().display().to_string(), "<ws>")
        .replace(&crate::support::repo().display().to_string(), "<repo>");
    let rules: &[(&str, &str)] = &[
        // "12 ms", "1.25 s", "0.2 s", with the padding before them (its
        // width depends on the digits: 9.9 MiB, 10.0 MiB)
        (r" +\d+(\.\d+)? (ms|s)\b", " <time>"),
        (r"\b\d+(\.\d+)? (ms|s)\b", "<time>"),
        // verify's slowest test as a share of the limit, after its time
        (r"<time> +\d+%", "<time> <share>"),
        (
            r#""slowest":\{"test":"[^"]*""#,
            r#""slowest":{"test":"<test>""#,
        ),
        (r" +\d+(\.\d+)? (KiB|MiB|GiB)\b", " <size>"),
        (r"\b\d+(\.\d+)? (KiB|MiB|GiB)\b", "<size>"),
        (r"[\d.]+ iterations/s", "<n> iterations/s"),
        // How many iterations ran before the first failing one was known
        // depends on how many ran at once.
        (r"after \d+ iterations", "after <n> iterations"),
        (r#""iterations":( ?)\d+"#, r#""iterations":${1}0"#),
        (
            r#""(time_ms|wall_ms|cpu_ms|limit_percent|memory_kib|limit_ms|max_time_ms|max_memory_kib|elapsed_ms|iterations_per_second)":( ?)[\d.]+"#,
            r#""$1":${2}0"#,
        ),
        (
            r#""isolation":( ?)"[a-z0-9-]+""#,
            r#""isolation":${1}"<level>""#,
        ),
        (r#"time="[0-9.]+""#, r#"time="0""#),
        (r#"timestamp="[^"]*""#, r#"timestamp="<t>""#),
    ];
    for (pattern, with) in rules {
        text = regex_replace(&text, pattern, with);
    }
    text
}

fn regex_replace(text: &str, pattern: &str, with: &str) -> String {
    regex::Regex::new(pattern)
        .expect("valid pattern")
        .replace_all(text, with)
        .into_owned()
}

/// Runs `judge ARGS` in a fresh workspace and renders code, stdout and stderr.
fn shot(args: &[&str]) -> String {
    let workspace = Workspace::new();
    let judged = workspace.judge(args);
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        judged.code.unwrap_or(-1),
        normalise(&judged.stdout, &workspace),
        normalise(&judged.stderr, &workspace)
    )
}

#[test]
fn run_human() {
    insta::assert_snapshot!(shot(&[
        "--isolation",
        "none",
        "run",
        "acwing-891",
        &submission("acwing-891/ac.c"),
        &submission("acwing-891/wa-sum-parity.c"),
        &submission("acwing-891/re-exit3.c"),
        &submission("acwing-891/ce-syntax.cpp"),
        "--tests",
        "sample-*",
        "edge-*",
    ]));
}

#[test]
fn run_json_and_junit() {
    for format in ["json", "junit"] {
        insta::assert_snapshot!(
            format!("run_{format}"),
            shot(&[
                "--isolation",
                "none",
                "run",
                "acwing-891",
                &submission("acwing-891/ac.c"),
                &submission("acwing-891/wa-sum-parity.c"),
                &submission("acwing-891/ce-syntax.cpp"),
                "--tests",
                "sample-*",
                "edge-*",
                "--format",
                format,
            ])
        );
    }
}

#[test]
fn run_input_and_fail_fast() {
    insta::assert_snapshot!(shot(&[
        "--isolation",
        "none",
        "run",
        "acwing-891",
        &submission("acwing-891/wa-sum-parity.c"),
        "--input",
        "testdata/acwing-891/sample-1.in",
    ]));
    insta::assert_snapshot!(shot(&[
        "--isolation",
        "none",
        "-j",
        "1",
        "run",
        "acwing-891",
        &submission("acwing-891/wa-sum-parity.c"),
        "--fail-fast",
        "--all-diffs",
    ]));
}

#[test]
fn verify_human_and_json() {
    for format in ["human", "json"] {
        insta::assert_snapshot!(
            format!("verify_{format}"),
            shot(&[
                "--isolation",
                "none",
                "verify",
                &problem("mini-nim"),
                "--format",
                format,
            ])
        );
    }
}

#[test]
fn stress_human_and_json() {
    for format in ["human", "json"] {
        insta::assert_snapshot!(
            format!("stress_{format}"),
            shot(&[
                "--isolation",
                "none",
                "stress",
                "luogu-p2197",
                "problems/luogu-p2197/solutions/wa-no-reset.c",
                "--format",
                format,
            ])
        );
    }
}

#[test]
fn gen_list_and_errors() {
    let workspace = Workspace::new();
    let out = workspace.path().join("gen");
    let judged = workspace.judge(["gen", "acwing-891", "--out", out.to_str().unwrap()]);
    insta::assert_snapshot!(
        "gen",
        format!(
            "exit {}\n{}{}",
            judged.code.unwrap_or(-1),
            normalise(&judged.stdout, &workspace),
            normalise(&judged.stderr, &workspace)
        )
    );
    insta::assert_snapshot!("list_human", shot(&["list"]));
    insta::assert_snapshot!("list_json", shot(&["list", "--format", "json"]));
    insta::assert_snapshot!(
        "broken_spec",
        shot(&[
            "run",
            &problem("broken-spec"),
            &submission("acwing-891/ac.c")
        ])
    );
    insta::assert_snapshot!(
        "unknown_problem",
        shot(&["run", "no-such-problem", &submission("acwing-891/ac.c")])
    );
    insta::assert_snapshot!(
        "unknown_language",
        shot(&[
            "run",
            "acwing-891",
            "tests/fixtures/contest-icpc/dave/hdu-1846.zig"
        ])
    );
}

#[test]
fn batch_outputs() {
    let workspace = Workspace::new();
    let out = workspace.path().join("out");
    let judged = workspace.judge([
        "--isolation",
        "none",
        "batch",
        "tests/fixtures/contest-icpc",
        "--out",
        out.to_str().unwrap(),
    ]);
    insta::assert_snapshot!(
        "batch_stdout",
        format!(
            "exit {}\n{}",
            judged.code.unwrap_or(-1),
            normalise(&judged.stdout, &workspace)
        )
    );
    for name in ["results.json", "scoreboard.txt", "junit.xml"] {
        let text = std::fs::read_to_string(out.join(name)).unwrap();
        insta::assert_snapshot!(format!("batch_{name}"), normalise(&text, &workspace));
    }
}
