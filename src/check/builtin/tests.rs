//! Every checker mode on the cases that separate them.

use super::*;

fn check(spec: &CheckerSpec, output: &str, answer: &str) -> CheckResult {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ans");
    std::fs::write(&path, answer).unwrap();
    compare(spec, &Captured::Memory(output.as_bytes().to_vec()), &path).unwrap()
}

const TOKENS: CheckerSpec = CheckerSpec::Tokens {
    case_sensitive: true,
};

#[test]
fn tokens_ignore_whitespace_but_not_case() {
    assert_eq!(check(&TOKENS, "Yes\n", "Yes\n").verdict, Verdict::AC);
    assert_eq!(
        check(&TOKENS, "  Yes \r\n\n\n", "Yes\n").verdict,
        Verdict::AC
    );
    assert_eq!(check(&TOKENS, "1 2\n3", "1\n2 3\n").verdict, Verdict::AC);
    let r = check(&TOKENS, "yes\n", "Yes\n");
    assert_eq!(r.verdict, Verdict::WA);
    assert_eq!(r.message, "line 1: expected `Yes`, got `yes`");
    let insensitive = CheckerSpec::Tokens {
        case_sensitive: false,
    };
    assert_eq!(check(&insensitive, "yes\n", "Yes\n").verdict, Verdict::AC);
}

#[test]
fn tokens_report_line_numbers_and_length_mismatch() {
    let r = check(&TOKENS, "No\nNo\nYes\n", "No\nNo\nNo\n");
    assert_eq!(r.message, "line 3: expected `No`, got `Yes`");
    assert_eq!(r.position, Some((3, 3)));
    let r = check(&TOKENS, "No\n", "No\nYes\n");
    assert_eq!(r.message, "output ended early: answer line 2 expects `Yes`");
    let r = check(&TOKENS, "", "Yes\n");
    assert_eq!(r.message, "output is empty: answer line 1 expects `Yes`");
    let r = check(&TOKENS, "No\nYes\n", "No\n");
    assert_eq!(
        r.message,
        "extra output on line 2: `Yes` after the answer ended"
    );
    let r = check(&TOKENS, "a\n\nb c\n", "a b x\n");
    assert_eq!(r.message, "line 3 (answer line 1): expected `x`, got `c`");
}

#[test]
fn tokens_stream_across_chunk_boundaries() {
    let big: String = (0..200_000).map(|i| format!("{i} ")).collect();
    assert_eq!(
        check(&TOKENS, &big.replace(' ', "\n"), &big).verdict,
        Verdict::AC
    );
    let mut wrong = big.clone();
    wrong.push('7');
    assert_eq!(check(&TOKENS, &wrong, &big).verdict, Verdict::WA);
}

#[test]
fn long_tokens_are_shortened_in_messages() {
    let long = "x".repeat(100);
    let r = check(&TOKENS, &long, "y");
    assert_eq!(
        r.message,
        format!("line 1: expected `y`, got `{}…`", "x".repeat(40))
    );
}

#[test]
fn lines_ignore_trailing_space_and_blank_lines_only() {
    assert_eq!(
        check(&CheckerSpec::Lines, "a b  \r\nc\n\n\n", "a b\nc\n").verdict,
        Verdict::AC
    );
    assert_eq!(
        check(&CheckerSpec::Lines, "a b\nc", "a b\nc\n\n").verdict,
        Verdict::AC
    );
    let r = check(&CheckerSpec::Lines, "a  b\nc\n", "a b\nc\n");
    assert_eq!(
        (r.verdict, r.message.as_str()),
        (Verdict::WA, "line 1: expected `a b`, got `a  b`")
    );
    let r = check(&CheckerSpec::Lines, "a b c\n", "a b\nc\n");
    assert_eq!(r.verdict, Verdict::WA);
    let r = check(&CheckerSpec::Lines, "a\n", "a\n\nb\n");
    assert_eq!(r.message, "output ended early: answer line 3 is `b`");
    let r = check(&CheckerSpec::Lines, "a\n\nzzz\n", "a\n");
    assert_eq!(r.message, "extra output on line 3: `zzz`");
}

#[test]
fn exact_gives_pe_when_only_whitespace_differs() {
    assert_eq!(
        check(&CheckerSpec::Exact, "1 2\n", "1 2\n").verdict,
        Verdict::AC
    );
    let r = check(&CheckerSpec::Exact, "1 2", "1 2\n");
    assert_eq!(
        (r.verdict, r.message.as_str()),
        (Verdict::PE, "only whitespace differs, first on line 1")
    );
    let r = check(&CheckerSpec::Exact, "a\nb  \n", "a\nb\n");
    assert_eq!(
        (r.verdict, r.message.as_str()),
        (Verdict::PE, "only whitespace differs, first on line 2")
    );
    assert_eq!(
        check(&CheckerSpec::Exact, "1 3\n", "1 2\n").verdict,
        Verdict::WA
    );
}

#[test]
fn float_uses_absolute_or_relative_tolerance() {
    let f = CheckerSpec::Float {
        abs: 1e-6,
        rel: 1e-6,
    };
    assert_eq!(
        check(&f, "0.3333333\n", "0.333333333\n").verdict,
        Verdict::AC
    );
    assert_eq!(check(&f, "1000000.5\n", "1000000.0\n").verdict, Verdict::AC);
    assert_eq!(check(&f, "1000002\n", "1000000\n").verdict, Verdict::WA);
    assert_eq!(check(&f, "0.334\n", "0.333\n").verdict, Verdict::WA);
    assert_eq!(
        check(&f, "Case 1: 2.0000001\n", "Case 1: 2\n").verdict,
        Verdict::AC
    );
    assert_eq!(check(&f, "case 1: 2\n", "Case 1: 2\n").verdict, Verdict::WA);
    assert_eq!(check(&f, "nan\n", "1.0\n").verdict, Verdict::WA);
    assert_eq!(check(&f, "inf\n", "1e308\n").verdict, Verdict::WA);
    assert_eq!(check(&f, "1e-7\n", "-1e-7\n").verdict, Verdict::AC);
}

#[test]
fn outputs_in_files_are_compared_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let ans = dir.path().join("ans");
    std::fs::write(&out, "No\n").unwrap();
    std::fs::write(&ans, "Yes\n").unwrap();
    let captured = Captured::File { path: out, len: 3 };
    assert_eq!(
        compare(&TOKENS, &captured, &ans).unwrap().verdict,
        Verdict::WA
    );
}

#[test]
fn fast_token_comparison_agrees_with_the_detailed_one() {
    let cases = [
        ("1 2\n3", "1\n2 3\n", true),
        ("12 3", "1 23", false),
        ("123", "12", false),
        ("12", "123", false),
        ("", "  \n", true),
        ("a", "", false),
        ("Yes\r\n", "Yes\n", true),
        ("yes", "Yes", false),
    ];
    for (a, b, equal) in cases {
        assert_eq!(
            tokens_equal(a.as_bytes(), b.as_bytes(), true).unwrap(),
            equal,
            "{a:?} vs {b:?}"
        );
        let detailed = check(&TOKENS, a, b).verdict == Verdict::AC;
        assert_eq!(detailed, equal, "{a:?} vs {b:?}");
    }
    assert!(tokens_equal("yes".as_bytes(), "YES".as_bytes(), false).unwrap());
}

#[test]
fn fast_token_comparison_across_buffer_boundaries() {
    // Tokens that straddle the 1 MiB buffers, with different whitespace on each side.
    let tokens: Vec<String> = (0..300_000u64).map(|i| format!("{}", i * 7919)).collect();
    let a = tokens.join(" ");
    let b = tokens.join("\t\r\n ");
    assert!(tokens_equal(a.as_bytes(), b.as_bytes(), true).unwrap());
    let mut c = b.clone();
    c.push('1');
    assert!(!tokens_equal(a.as_bytes(), c.as_bytes(), true).unwrap());
}

/// A reader that returns at most `step` bytes per read, as pipes do.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn fast_token_comparison_agrees_with_splitting_on_random_streams() {
    // A small deterministic generator (xorshift64*): no crate's output.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    };
    let alphabet = b"ab1\x01";
    let spaces = [" ", "\n", "\t", "\r\n", "  ", "\x0c"];
    for case in 0..3000 {
        let tokens: Vec<Vec<u8>> = (0..next(12))
            .map(|_| {
                // Now and then a token longer than the smallest buffers.
                let len = if next(8) == 0 {
                    1 + next(40)
                } else {
                    1 + next(4)
                };
                (0..len).map(|_| alphabet[next(4) as usize]).collect()
            })
            .collect();
        let join = |tokens: &[Vec<u8>], next: &mut dyn FnMut(u64) -> u64| {
            let mut out = Vec::new();
            for t in tokens {
                for _ in 0..next(3) {
                    out.extend_from_slice(spaces[next(6) as usize].as_bytes());
                }
                out.extend_from_slice(t);
                out.extend_from_slice(spaces[next(6) as usize].as_bytes());
            }
            out
        };
        let a = join(&tokens, &mut next);
        let mut other = tokens.clone();
        match next(4) {
            0 if !other.is_empty() => {
                let i = next(other.len() as u64) as usize;
                let j = next(other[i].len() as u64) as usize;
                other[i][j] = b'B';
            }
            1 if !other.is_empty() => {
                other.pop();
            }
            2 => other.push(b"a".to_vec()),
            _ => {}
        }
        let b = join(&other, &mut next);
        let split = |s: &[u8]| -> Vec<Vec<u8>> {
            s.split(|c| c.is_ascii_whitespace())
                .filter(|t| !t.is_empty())
                .map(<[u8]>::to_vec)
                .collect()
        };
        let expected = split(&a) == split(&b);
        for chunk in [1, 2, 3, 7, 64, 4096] {
            let step = 1 + case % 5;
            for exact in [true, false] {
                let got = tokens_equal_by(
                    Trickle { data: &a, step },
                    Trickle {
                        data: &b,
                        step: step + 1,
                    },
                    chunk,
                    exact,
                    |x, y| x == y,
                )
                .unwrap();
                assert_eq!(got, expected, "chunk {chunk}: {a:?} vs {b:?}");
            }
        }
    }
}
