//! Shrinking a failing input: pure candidate generation over the input text
//! and the fixpoint loop that keeps the first candidate still failing. The
//! main items are [`candidates`] and [`minimise`]; what "still failing" means
//! (valid per the validator, same verdict) is the caller's business, so this
//! module runs no process and is tested on its own.
//!
//! An input is seen as lines of whitespace-separated tokens. Candidates, in
//! the order they are tried (largest cuts first, as delta debugging does):
//!
//! 1. drop test cases: when the first line is a lone integer `T` and the other
//!    lines split into `T` blocks of equal length, drop halves, quarters, ...
//!    and single cases, lowering `T` to match;
//! 2. drop runs of lines (halves down to single lines), also lowering an
//!    earlier integer that counts the lines to the end of the input;
//! 3. drop runs of tokens inside a line, also lowering the count that
//!    precedes them: the line's first token when it equals the number of
//!    tokens after it, or a token of the previous line equal to the number of
//!    tokens on this one;
//! 4. lower each integer: to 0, to 1, then bisecting towards it from above
//!    (`v - v/2`, `v - v/4`, ..., `v - 1`);
//! 5. lower every occurrence of a repeated integer together, the same way
//!    (equal values often matter together: equal piles, a pair of indices).
//!
//! Every candidate is strictly smaller than its input (fewer tokens, or as
//! many with a smaller sum of magnitudes), so the loop ends. Candidates are
//! rebuilt with single spaces and `\n` line ends (the final newline kept or
//! not as in the input); an input that is not UTF-8 has no candidates.

use std::collections::BTreeSet;
use std::future::Future;

/// A smaller variant of an input, with what was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Candidate {
    /// The whole candidate input.
    pub(crate) text: String,
    /// What changed, for people (`drop line 3`, `lower 13 to 7 on line 2`).
    pub(crate) change: String,
}

/// The result of [`minimise`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Shrunk {
    /// The smallest failing input found.
    pub(crate) text: String,
    /// The changes kept, in order.
    pub(crate) steps: Vec<String>,
    /// How many candidates were evaluated.
    pub(crate) tried: usize,
    /// Whether the fixpoint was reached (false when `max_tries` ran out).
    pub(crate) complete: bool,
}

/// An input as lines of tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tokens {
    lines: Vec<Vec<String>>,
    final_newline: bool,
}

impl Tokens {
    fn parse(text: &str) -> Tokens {
        let final_newline = text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        let lines = if text.is_empty() {
            Vec::new()
        } else {
            body.split('\n')
                .map(|l| l.split_whitespace().map(str::to_string).collect())
                .collect()
        };
        Tokens {
            lines,
            final_newline,
        }
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&line.join(" "));
        }
        if self.final_newline && !self.lines.is_empty() {
            out.push('\n');
        }
        out
    }

    fn integer(&self, line: usize, index: usize) -> Option<i128> {
        integer(self.lines.get(line)?.get(index)?)
    }

    /// Returns a copy with the integer at (line, index) lowered by `by`, if it
    /// is an integer at least `by`.
    fn decremented(&self, (line, index): (usize, usize), by: usize) -> Option<Tokens> {
        let value = self.integer(line, index)?;
        let by = by as i128;
        if value < by {
            return None;
        }
        let mut out = self.clone();
        out.lines[line][index] = (value - by).to_string();
        Some(out)
    }
}

/// A size that every candidate decreases: (tokens, sum of integer magnitudes, bytes).
fn measure(text: &str) -> (usize, u128, usize) {
    let mut tokens = 0;
    let mut magnitude: u128 = 0;
    for token in text.split_whitespace() {
        tokens += 1;
        if let Some(v) = integer(token) {
            magnitude = magnitude.saturating_add(v.unsigned_abs());
        }
    }
    (tokens, magnitude, text.len())
}

/// A plain decimal integer (optional `-`, digits), if it fits.
fn integer(token: &str) -> Option<i128> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits.is_empty() || digits.len() > 36 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

/// Runs `(start, len)` over `n` items: halves, quarters, ..., single items.
fn runs(n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut size = n.div_ceil(2).max(1);
    loop {
        let mut start = 0;
        while start < n {
            let len = size.min(n - start);
            if seen.insert((start, len)) {
                out.push((start, len));
            }
            start += size;
        }
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    out
}

/// Values strictly between 0 and `m` (exclusive of `m`) to try for a
/// magnitude `m`: 0, 1, then `m - m/2`, `m - m/4`, ..., `m - 1`.
fn lower_targets(m: u128) -> Vec<u128> {
    let mut out: Vec<u128> = Vec::new();
    let mut push = |t: u128| {
        if t < m && !out.contains(&t) {
            out.push(t);
        }
    };
    push(0);
    push(1);
    let mut d = m / 2;
    while d > 0 {
        push(m - d);
        d /= 2;
    }
    push(m.saturating_sub(1));
    out
}

/// Every candidate of `text`, in the order they should be tried, without
/// duplicates, each strictly smaller than `text`.
pub(super) fn candidates(text: &str) -> Vec<Candidate> {
    let input = Tokens::parse(text);
    let mut out = Vec::new();
    drop_cases(&input, &mut out);
    drop_lines(&input, &mut out);
    drop_tokens(&input, &mut out);
    lower_numbers(&input, &mut out);
    lower_repeated_numbers(&input, &mut out);
    let limit = measure(text);
    let mut seen = BTreeSet::new();
    out.retain(|c: &Candidate| {
        c.text != text && measure(&c.text) < limit && seen.insert(c.text.clone())
    });
    out
}

fn push(out: &mut Vec<Candidate>, tokens: &Tokens, change: String) {
    out.push(Candidate {
        text: tokens.render(),
        change,
    });
}

/// A lone integer `T` on line 1 and `T` equal blocks of lines after it.
fn case_structure(input: &Tokens) -> Option<(usize, usize)> {
    let first = input.lines.first()?;
    if first.len() != 1 {
        return None;
    }
    let cases = usize::try_from(input.integer(0, 0)?).ok()?;
    let rest = input.lines.len() - 1;
    if cases < 2 || rest == 0 || rest % cases != 0 {
        return None;
    }
    Some((cases, rest / cases))
}

fn drop_cases(input: &Tokens, out: &mut Vec<Candidate>) {
    let Some((cases, per_case)) = case_structure(input) else {
        return;
    };
    for (start, len) in runs(cases) {
        let mut t = input.clone();
        t.lines
            .drain(1 + start * per_case..1 + (start + len) * per_case);
        t.lines[0][0] = (cases - len).to_string();
        let what = if len == 1 {
            format!("drop case {} of {cases}", start + 1)
        } else {
            format!("drop cases {}..{} of {cases}", start + 1, start + len)
        };
        push(out, &t, what);
    }
}

fn drop_lines(input: &Tokens, out: &mut Vec<Candidate>) {
    let n = input.lines.len();
    for (start, len) in runs(n) {
        let mut plain = input.clone();
        plain.lines.drain(start..start + len);
        let what = if len == 1 {
            format!("drop line {}", start + 1)
        } else {
            format!("drop lines {}..{}", start + 1, start + len)
        };
        // Counts of the lines to the end of the input, on earlier lines.
        for line in 0..start {
            let after = (n - 1 - line) as i128;
            for index in 0..input.lines[line].len() {
                if input.integer(line, index) == Some(after) {
                    if let Some(fixed) = plain.decremented((line, index), len) {
                        push(
                            out,
                            &fixed,
                            format!("{what} and lower the count on line {}", line + 1),
                        );
                    }
                }
            }
        }
        push(out, &plain, what);
    }
}

fn drop_tokens(input: &Tokens, out: &mut Vec<Candidate>) {
    for (line, tokens) in input.lines.iter().enumerate() {
        let n = tokens.len();
        if n < 2 {
            continue;
        }
        // Who counts the tokens of this line: its head, or the previous line.
        let head_counts = input.integer(line, 0) == Some(n as i128 - 1);
        let previous: Vec<(usize, usize)> = match line.checked_sub(1) {
            Some(p) => (0..input.lines[p].len())
                .filter(|&i| input.integer(p, i) == Some(n as i128))
                .map(|i| (p, i))
                .collect(),
            None => Vec::new(),
        };
        for (start, len) in runs(n) {
            if len == n {
                continue;
            }
            let mut plain = input.clone();
            plain.lines[line].drain(start..start + len);
            let what = if len == 1 {
                format!("drop token {} of line {}", start + 1, line + 1)
            } else {
                format!(
                    "drop tokens {}..{} of line {}",
                    start + 1,
                    start + len,
                    line + 1
                )
            };
            if head_counts && start > 0 {
                if let Some(fixed) = plain.decremented((line, 0), len) {
                    push(out, &fixed, format!("{what} and lower its count"));
                }
            }
            for &counter in &previous {
                if let Some(fixed) = plain.decremented(counter, len) {
                    push(
                        out,
                        &fixed,
                        format!("{what} and lower the count on line {}", counter.0 + 1),
                    );
                }
            }
            push(out, &plain, what);
        }
    }
}

fn lower_numbers(input: &Tokens, out: &mut Vec<Candidate>) {
    for (line, tokens) in input.lines.iter().enumerate() {
        for index in 0..tokens.len() {
            let Some(value) = input.integer(line, index) else {
                continue;
            };
            for target in lower_targets(value.unsigned_abs()) {
                let target = target as i128 * value.signum();
                let mut t = input.clone();
                t.lines[line][index] = target.to_string();
                push(
                    out,
                    &t,
                    format!("lower {value} to {target} on line {}", line + 1),
                );
            }
        }
    }
}

fn lower_repeated_numbers(input: &Tokens, out: &mut Vec<Candidate>) {
    // Distinct values in order of first appearance, with where they occur.
    let mut repeated: Vec<(i128, Vec<(usize, usize)>)> = Vec::new();
    for (line, tokens) in input.lines.iter().enumerate() {
        for index in 0..tokens.len() {
            if let Some(value) = input.integer(line, index) {
                match repeated.iter_mut().find(|(v, _)| *v == value) {
                    Some((_, places)) => places.push((line, index)),
                    None => repeated.push((value, vec![(line, index)])),
                }
            }
        }
    }
    for (value, places) in repeated.iter().filter(|(_, p)| p.len() >= 2) {
        for target in lower_targets(value.unsigned_abs()) {
            let target = target as i128 * value.signum();
            let mut t = input.clone();
            for &(line, index) in places {
                t.lines[line][index] = target.to_string();
            }
            push(
                out,
                &t,
                format!("lower every {value} to {target} ({} places)", places.len()),
            );
        }
    }
}

/// Shrinks `original` to a fixpoint: repeatedly evaluates the candidates of
/// the current input, `batch` at a time (`still_fails` gets a batch and says,
/// in the same order, which candidates still fail), and moves to the first
/// failing candidate in candidate order, until none fails or `max_tries`
/// candidates were evaluated. Which candidate wins does not depend on
/// `batch`: a batch is looked at only when every earlier one had no failure.
pub(super) async fn minimise<F, Fut, E>(
    original: &str,
    batch: usize,
    max_tries: usize,
    mut still_fails: F,
) -> Result<Shrunk, E>
where
    F: FnMut(Vec<String>) -> Fut,
    Fut: Future<Output = Result<Vec<bool>, E>>,
{
    let batch = batch.max(1);
    let mut current = original.to_string();
    let mut steps = Vec::new();
    let mut tried = 0;
    // Texts known not to fail: a candidate seen again is not run again.
    let mut passed: BTreeSet<[u8; 32]> = BTreeSet::new();
    'rounds: loop {
        let fresh: Vec<Candidate> = candidates(&current)
            .into_iter()
            .filter(|c| !passed.contains(&digest(&c.text)))
            .collect();
        for chunk in fresh.chunks(batch) {
            if tried >= max_tries {
                return Ok(Shrunk {
                    text: current,
                    steps,
                    tried,
                    complete: false,
                });
            }
            let chunk = &chunk[..chunk.len().min(max_tries - tried)];
            tried += chunk.len();
            let verdicts = still_fails(chunk.iter().map(|c| c.text.clone()).collect()).await?;
            assert_eq!(verdicts.len(), chunk.len(), "one answer per candidate");
            for (c, _) in chunk.iter().zip(&verdicts).filter(|(_, &fails)| !fails) {
                passed.insert(digest(&c.text));
            }
            if let Some(i) = verdicts.iter().position(|&fails| fails) {
                current = chunk[i].text.clone();
                steps.push(chunk[i].change.clone());
                continue 'rounds;
            }
        }
        return Ok(Shrunk {
            text: current,
            steps,
            tried,
            complete: true,
        });
    }
}

fn digest(text: &str) -> [u8; 32] {
    *blake3::hash(text.as_bytes()).as_bytes()
}

#[cfg(test)]
mod tests;
