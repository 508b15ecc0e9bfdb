//! Tests of the shrinking candidates and loop.

use super::*;

fn texts(input: &str) -> Vec<String> {
    candidates(input).into_iter().map(|c| c.text).collect()
}

fn has(input: &str, candidate: &str) -> bool {
    texts(input).iter().any(|t| t == candidate)
}

#[test]
fn parse_and_render_round_trip() {
    for text in ["", "1\n", "2\n1 2\n", "a b\n\nc", "3 4"] {
        assert_eq!(Tokens::parse(text).render(), text, "{text:?}");
    }
    // Whitespace is normalised.
    assert_eq!(Tokens::parse("1  2\t3\n").render(), "1 2 3\n");
}

#[test]
fn runs_go_from_halves_to_single_items() {
    assert_eq!(runs(1), [(0, 1)]);
    assert_eq!(
        runs(5),
        [
            (0, 3),
            (3, 2),
            (0, 2),
            (2, 2),
            (4, 1),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1)
        ]
    );
}

#[test]
fn numbers_go_to_the_minimum_then_bisect_from_above() {
    assert_eq!(lower_targets(13), [0, 1, 7, 10, 12]);
    assert_eq!(lower_targets(2), [0, 1]);
    assert_eq!(lower_targets(1), [0]);
    assert!(lower_targets(0).is_empty());
    let order: Vec<String> = candidates("13\n").into_iter().map(|c| c.change).collect();
    assert_eq!(
        order,
        [
            "drop line 1",
            "lower 13 to 0 on line 1",
            "lower 13 to 1 on line 1",
            "lower 13 to 7 on line 1",
            "lower 13 to 10 on line 1",
            "lower 13 to 12 on line 1",
        ]
    );
    assert!(has("-6\n", "-3\n") && has("-6\n", "0\n") && !has("-6\n", "-7\n"));
}

#[test]
fn dropping_a_case_lowers_the_case_count() {
    let input = "3\n1\n5\n2\n1 2\n1\n7\n";
    assert!(has(input, "2\n2\n1 2\n1\n7\n"), "{:#?}", texts(input));
    assert!(has(input, "2\n1\n5\n1\n7\n"));
    assert!(has(input, "1\n1\n7\n"));
    let first = &candidates(input)[0];
    assert_eq!(
        (first.text.as_str(), first.change.as_str()),
        ("1\n1\n7\n", "drop cases 1..2 of 3")
    );
}

#[test]
fn dropping_a_token_lowers_its_count() {
    // Counted by the previous line.
    assert!(has("3\n4 5 6\n", "2\n4 6\n"));
    assert!(has("3\n4 5 6\n", "1\n6\n"));
    // Counted by the head of its own line (never dropping the head with a fix).
    assert!(has("3 4 5 6\n", "2 4 6\n"));
    assert!(has("3 4 5 6\n", "1 4\n"));
    // Plain deletion is tried too, after the fixed one.
    let all = texts("3\n4 5 6\n");
    let fixed = all.iter().position(|t| t == "2\n4 6\n").unwrap();
    let plain = all.iter().position(|t| t == "3\n4 6\n").unwrap();
    assert!(fixed < plain);
}

#[test]
fn dropping_lines_lowers_a_count_of_lines_to_the_end() {
    assert!(has("3\n1 1\n2 2\n3 3\n", "2\n1 1\n3 3\n"));
    // Lines without a count are dropped as they are.
    assert!(has("1 1\n2 2\n", "2 2\n"));
    assert!(has("2\n1\n", "2\n"));
}

#[test]
fn every_candidate_is_smaller_and_distinct() {
    for input in [
        "3\n1\n5\n2\n1 2\n1\n7\n",
        "2 45 45\n3 3 6 9\n",
        "10 20\n",
        "hello world\n",
        "-5 x 7\n\n8",
    ] {
        let all = candidates(input);
        let distinct: BTreeSet<&str> = all.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(distinct.len(), all.len(), "{input:?}");
        for c in &all {
            assert!(measure(&c.text) < measure(input), "{input:?} -> {c:?}");
        }
        assert_eq!(all, candidates(input), "deterministic");
    }
    assert!(candidates("").is_empty());
    assert!(candidates("0\n").iter().all(|c| c.text.is_empty()));
}

/// A toy problem: `n` then `n` numbers, each in [1, 99]; a "solution" that
/// fails when two numbers are equal and some number is at least 5.
fn toy_valid(text: &str) -> bool {
    let t = Tokens::parse(text);
    if t.lines.len() != 2 || t.lines[0].len() != 1 || !t.final_newline {
        return false;
    }
    let n = t.integer(0, 0).unwrap_or(-1);
    let values: Vec<Option<i128>> = (0..t.lines[1].len()).map(|i| t.integer(1, i)).collect();
    n >= 1
        && values.len() as i128 == n
        && values
            .iter()
            .all(|v| v.is_some_and(|v| (1..=99).contains(&v)))
}

fn toy_fails(text: &str) -> bool {
    if !toy_valid(text) {
        return false;
    }
    let values: Vec<i128> = Tokens::parse(text).lines[1]
        .iter()
        .map(|v| integer(v).unwrap())
        .collect();
    let duplicate = (0..values.len()).any(|i| values[..i].contains(&values[i]));
    duplicate && values.iter().any(|&v| v >= 5)
}

fn run<T>(f: impl Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

fn shrink_toy(original: &str, batch: usize) -> Shrunk {
    run(minimise(original, batch, 100_000, |batch: Vec<String>| {
        std::future::ready(Ok::<_, ()>(batch.iter().map(|t| toy_fails(t)).collect()))
    }))
    .unwrap()
}

#[test]
fn minimise_reaches_a_minimal_valid_failing_input() {
    let original = "7\n12 40 3 12 9 77 3\n";
    assert!(toy_fails(original));
    let shrunk = shrink_toy(original, 1);
    assert!(shrunk.complete);
    assert_eq!(shrunk.text, "2\n5 5\n", "{shrunk:#?}");
    assert!(toy_fails(&shrunk.text));
    // Minimal: no candidate of it still fails.
    assert!(candidates(&shrunk.text).iter().all(|c| !toy_fails(&c.text)));
}

#[test]
fn the_batch_size_does_not_change_the_result() {
    let original = "9\n60 2 33 60 8 8 91 2 14\n";
    let one = shrink_toy(original, 1);
    for batch in [2, 3, 8, 64] {
        let other = shrink_toy(original, batch);
        assert_eq!(one.text, other.text, "batch {batch}");
        assert_eq!(one.steps, other.steps, "batch {batch}");
    }
}

#[test]
fn max_tries_stops_early_and_says_so() {
    let original = "9\n60 2 33 60 8 8 91 2 14\n";
    let shrunk = run(minimise(original, 2, 5, |batch: Vec<String>| {
        std::future::ready(Ok::<_, ()>(batch.iter().map(|t| toy_fails(t)).collect()))
    }))
    .unwrap();
    assert!(!shrunk.complete);
    assert_eq!(shrunk.tried, 5);
    assert!(toy_fails(&shrunk.text));
}

#[test]
fn an_evaluation_error_stops_the_loop() {
    let got = run(minimise("3\n1 2 3\n", 2, 100, |_| {
        std::future::ready(Err::<Vec<bool>, _>("validator crashed"))
    }));
    assert_eq!(got, Err("validator crashed"));
}
