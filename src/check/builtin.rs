//! The built-in comparators (`tokens`, `lines`, `exact`, `float`): both files
//! are streamed, so memory does not grow with the output.

use std::io::{self, Read};
use std::path::Path;

use super::kattis;
use super::CheckResult;
use crate::problem::{CheckerSpec, DefaultFlags};
use crate::sandbox::Captured;
use crate::verdict::Verdict;

/// Compares `output` with the answer file using a built-in checker.
/// Panics if given a custom checker (those are programs: see `check::external`).
pub fn compare(spec: &CheckerSpec, output: &Captured, answer: &Path) -> io::Result<CheckResult> {
    compare_with_args(spec, &[], output, answer)
}

/// [`compare`] with the test's checker arguments (the flags of the ICPC
/// default output validator).
pub(super) fn compare_with_args(
    spec: &CheckerSpec,
    args: &[String],
    output: &Captured,
    answer: &Path,
) -> io::Result<CheckResult> {
    // The common case, a small output in memory: read the answer and compare
    // slices, with no streaming buffers.
    if let Captured::Memory(out) = output {
        // Read up to one byte past SMALL (no stat: a run's worth of system
        // calls is what the judge costs per test).
        let mut expected = Vec::with_capacity(out.len().min(SMALL as usize) + 1);
        Read::take(std::fs::File::open(answer)?, SMALL + 1).read_to_end(&mut expected)?;
        if expected.len() as u64 <= SMALL {
            if *out == expected {
                return Ok(CheckResult::accepted());
            }
            return compare_readers(spec, args, || Ok(&out[..]), || Ok(&expected[..]));
        }
    }
    compare_readers(
        spec,
        args,
        || output.reader(),
        || std::fs::File::open(answer),
    )
}

/// Answers up to this size are read whole.
const SMALL: u64 = 1 << 20;

fn compare_readers<O: Read, A: Read>(
    spec: &CheckerSpec,
    args: &[String],
    open_output: impl Fn() -> io::Result<O>,
    open_answer: impl Fn() -> io::Result<A>,
) -> io::Result<CheckResult> {
    match spec {
        CheckerSpec::Tokens { case_sensitive } => {
            // Fast paths for the common case, an accepted output: the same
            // bytes, else the same tokens; the detailed comparison below
            // runs only to explain a difference.
            if bytes_equal(open_output()?, open_answer()?)?
                || tokens_equal(open_output()?, open_answer()?, *case_sensitive)?
            {
                return Ok(CheckResult::accepted());
            }
            let eq = |a: &[u8], b: &[u8]| {
                if *case_sensitive {
                    a == b
                } else {
                    a.eq_ignore_ascii_case(b)
                }
            };
            compare_tokens(open_output()?, open_answer()?, eq)
        }
        CheckerSpec::Float { abs, rel } => {
            if bytes_equal(open_output()?, open_answer()?)? {
                return Ok(CheckResult::accepted());
            }
            let (abs, rel) = (*abs, *rel);
            compare_tokens(open_output()?, open_answer()?, |got, expected| {
                float_token_eq(got, expected, abs, rel)
            })
        }
        CheckerSpec::Lines => compare_lines(open_output()?, open_answer()?),
        CheckerSpec::Exact => {
            let Some(line) = first_difference_line(open_output()?, open_answer()?)? else {
                return Ok(CheckResult::accepted());
            };
            let by_tokens = compare_tokens(open_output()?, open_answer()?, |a, b| a == b)?;
            if by_tokens.verdict == Verdict::AC {
                Ok(CheckResult {
                    score: None,
                    verdict: Verdict::PE,
                    message: format!("only whitespace differs, first on line {line}"),
                    position: Some((line, line)),
                    diff: None,
                })
            } else {
                Ok(by_tokens)
            }
        }
        CheckerSpec::KattisDefault => match DefaultFlags::parse(args) {
            Ok(flags) => kattis::compare(&flags, open_output()?, open_answer()?),
            Err(why) => Ok(CheckResult {
                verdict: Verdict::IE,
                message: format!("the output validator flags are wrong: {why}"),
                position: None,
                diff: None,
                score: None,
            }),
        },
        CheckerSpec::Custom(_) | CheckerSpec::Kattis(_) => {
            panic!("checker programs run through check::external")
        }
    }
}

const CHUNK: usize = 1 << 20;

/// Whitespace bytes, as `u8::is_ascii_whitespace` (space, \t, \n, \x0c, \r).
static WHITESPACE: [bool; 256] = {
    let mut table = [false; 256];
    table[b' ' as usize] = true;
    table[b'\t' as usize] = true;
    table[b'\n' as usize] = true;
    table[0x0c] = true;
    table[b'\r' as usize] = true;
    table
};

/// One side of [`tokens_equal`]: a buffer cut at a token boundary, so the
/// hot loop compares whole tokens inside plain slices. `buf[pos..end]` is
/// being compared; `buf[end..valid]` is the start of a token that continues
/// in the next read and is carried over to it.
struct TokenSlices<R> {
    reader: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    valid: usize,
    eof: bool,
}

impl<R: Read> TokenSlices<R> {
    fn new(reader: R, chunk: usize) -> Self {
        TokenSlices {
            reader,
            buf: vec![0u8; chunk],
            pos: 0,
            end: 0,
            valid: 0,
            eof: false,
        }
    }

    /// Moves on to the next part of the stream; false when it is used up.
    fn refill(&mut self) -> io::Result<bool> {
        self.buf.copy_within(self.end..self.valid, 0);
        self.valid -= self.end;
        self.pos = 0;
        if !self.eof {
            let n = fill(&mut self.reader, &mut self.buf[self.valid..])?;
            self.eof = self.valid + n < self.buf.len();
            self.valid += n;
        }
        self.end = if self.eof {
            self.valid
        } else {
            // Cut after the last whitespace; a buffer with none holds part of
            // a token longer than the buffer, compared in pieces.
            self.buf[..self.valid]
                .iter()
                .rposition(|&c| WHITESPACE[c as usize])
                .map_or(self.valid, |i| i + 1)
        };
        Ok(self.end > 0)
    }

    /// Skips whitespace; false at the end of the stream.
    fn skip_whitespace(&mut self) -> io::Result<bool> {
        loop {
            match self.buf[self.pos..self.end]
                .iter()
                .position(|&c| !WHITESPACE[c as usize])
            {
                Some(i) => {
                    self.pos += i;
                    return Ok(true);
                }
                None => {
                    self.pos = self.end;
                    if !self.refill()? {
                        return Ok(false);
                    }
                }
            }
        }
    }

    /// The byte at the read position (None at the end of the stream).
    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.end && !self.refill()? {
            return Ok(None);
        }
        Ok(Some(self.buf[self.pos]))
    }
}

/// ASCII lower case of every byte, for case-insensitive token comparison.
static LOWER: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = (i as u8).to_ascii_lowercase();
        i += 1;
    }
    table
};

/// Whether two streams hold the same whitespace-separated tokens, in one
/// pass without copying tokens, in memory bounded by two buffers (the fast
/// path of the tokens checker).
pub(super) fn tokens_equal(a: impl Read, b: impl Read, case_sensitive: bool) -> io::Result<bool> {
    if case_sensitive {
        tokens_equal_by(a, b, CHUNK, true, |x, y| x == y)
    } else {
        tokens_equal_by(a, b, CHUNK, false, |x, y| {
            LOWER[x as usize] == LOWER[y as usize]
        })
    }
}

/// `exact`: `same` is byte equality, so tokens may be compared eight bytes
/// at a time.
fn tokens_equal_by(
    a: impl Read,
    b: impl Read,
    chunk: usize,
    exact: bool,
    same: impl Fn(u8, u8) -> bool + Copy,
) -> io::Result<bool> {
    let (mut a, mut b) = (TokenSlices::new(a, chunk), TokenSlices::new(b, chunk));
    loop {
        // The hot loop: every token pair that lies whole inside both slices.
        match whole_tokens(&a.buf[a.pos..a.end], &b.buf[b.pos..b.end], exact, same) {
            Some((i, j)) => {
                a.pos += i;
                b.pos += j;
            }
            None => return Ok(false),
        }
        // The rest, one token at a time: a slice ran out (refill), or a
        // token reaches the end of its slice (the stream's end, or a token
        // longer than the buffer).
        let (more_a, more_b) = (a.skip_whitespace()?, b.skip_whitespace()?);
        if more_a != more_b {
            return Ok(false);
        }
        if !more_a {
            return Ok(true);
        }
        loop {
            let (sa, sb) = (&a.buf[a.pos..a.end], &b.buf[b.pos..b.end]);
            let k = sa
                .iter()
                .zip(sb)
                .position(|(&x, &y)| !same(x, y) || WHITESPACE[x as usize])
                .unwrap_or(sa.len().min(sb.len()));
            a.pos += k;
            b.pos += k;
            let (x, y) = (a.peek()?, b.peek()?);
            let ends = |c: Option<u8>| c.is_none_or(|c| WHITESPACE[c as usize]);
            match (ends(x), ends(y)) {
                (true, true) => break,
                (false, false) if same(x.unwrap_or(0), y.unwrap_or(0)) => {}
                _ => return Ok(false),
            }
        }
    }
}

/// Compares the token pairs that lie whole inside `a` and `b` (each followed
/// by whitespace in its slice). Returns how far it got on each side, at the
/// start of a token or the end of a slice, or None at a difference.
fn whole_tokens(
    a: &[u8],
    b: &[u8],
    exact: bool,
    same: impl Fn(u8, u8) -> bool,
) -> Option<(usize, usize)> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let (mut i, mut j) = (0, 0);
    loop {
        while i < a.len() && WHITESPACE[a[i] as usize] {
            i += 1;
        }
        while j < b.len() && WHITESPACE[b[j] as usize] {
            j += 1;
        }
        if i == a.len() || j == b.len() {
            return Some((i, j));
        }
        let (start_a, start_b) = (i, j);
        loop {
            if exact {
                // Eight bytes at a time while they are equal and none is at
                // most b' ' (whitespace, or a control byte), then on to the
                // first byte that differs or is: the lowest flagged byte of
                // these bit tricks is exact.
                while let (Some(x), Some(y)) = (a.get(i..i + 8), b.get(j..j + 8)) {
                    let x = u64::from_le_bytes(x.try_into().expect("eight bytes"));
                    let y = u64::from_le_bytes(y.try_into().expect("eight bytes"));
                    let low = x.wrapping_sub(ONES * 0x21) & !x & HIGH;
                    let stop = (x ^ y) | low;
                    let k = (stop.trailing_zeros() / 8) as usize;
                    i += k;
                    j += k;
                    if stop != 0 {
                        break;
                    }
                }
            }
            let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) else {
                // The token reaches a slice's end: leave it to the caller.
                return Some((start_a, start_b));
            };
            match (WHITESPACE[x as usize], WHITESPACE[y as usize]) {
                (true, true) => break,
                (false, false) if same(x, y) => {
                    i += 1;
                    j += 1;
                }
                _ => return None,
            }
        }
    }
}

/// Reads as much as possible into `buf` (short only at end of input).
fn fill(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Whether two streams hold the same bytes (the fast path of every checker).
pub(super) fn bytes_equal(mut a: impl Read, mut b: impl Read) -> io::Result<bool> {
    let mut x = vec![0u8; CHUNK];
    let mut y = vec![0u8; CHUNK];
    loop {
        let n = fill(&mut a, &mut x)?;
        let m = fill(&mut b, &mut y)?;
        if n != m || x[..n] != y[..m] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

/// The 1-based line of the first differing byte, or `None` when equal.
fn first_difference_line(mut a: impl Read, mut b: impl Read) -> io::Result<Option<usize>> {
    let mut x = vec![0u8; CHUNK];
    let mut y = vec![0u8; CHUNK];
    let mut line = 1;
    loop {
        let n = fill(&mut a, &mut x)?;
        let m = fill(&mut b, &mut y)?;
        let common = n.min(m);
        let same = x[..common]
            .iter()
            .zip(&y[..common])
            .position(|(p, q)| p != q)
            .unwrap_or(common);
        line += x[..same].iter().filter(|&&c| c == b'\n').count();
        if same < common || n != m {
            return Ok(Some(line));
        }
        if n == 0 {
            return Ok(None);
        }
    }
}

/// A streaming reader of whitespace-separated tokens that tracks line numbers.
pub(super) struct Tokens<R> {
    reader: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    line: usize,
}

impl<R: Read> Tokens<R> {
    /// Tokens of `reader`.
    pub(super) fn new(reader: R) -> Self {
        Tokens {
            reader,
            buf: vec![0u8; CHUNK],
            pos: 0,
            len: 0,
            line: 1,
        }
    }

    fn refill(&mut self) -> io::Result<bool> {
        self.len = fill(&mut self.reader, &mut self.buf)?;
        self.pos = 0;
        Ok(self.len > 0)
    }

    /// Reads the next token into `out`; returns its line, or `None` at the end.
    pub(super) fn next_into(&mut self, out: &mut Vec<u8>) -> io::Result<Option<usize>> {
        out.clear();
        // Skip whitespace.
        loop {
            if self.pos == self.len && !self.refill()? {
                return Ok(None);
            }
            let rest = &self.buf[self.pos..self.len];
            match rest.iter().position(|c| !c.is_ascii_whitespace()) {
                Some(i) => {
                    self.line += rest[..i].iter().filter(|&&c| c == b'\n').count();
                    self.pos += i;
                    break;
                }
                None => {
                    self.line += rest.iter().filter(|&&c| c == b'\n').count();
                    self.pos = self.len;
                }
            }
        }
        let line = self.line;
        loop {
            let rest = &self.buf[self.pos..self.len];
            match rest.iter().position(|c| c.is_ascii_whitespace()) {
                Some(i) => {
                    out.extend_from_slice(&rest[..i]);
                    self.pos += i;
                    return Ok(Some(line));
                }
                None => {
                    out.extend_from_slice(rest);
                    self.pos = self.len;
                    if !self.refill()? {
                        return Ok(Some(line));
                    }
                }
            }
        }
    }
}

/// Shows a token in a message, shortened.
pub(super) fn show_token(token: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(token);
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("`{cut}…`")
    } else {
        format!("`{text}`")
    }
}

fn compare_tokens(
    output: impl Read,
    answer: impl Read,
    eq: impl Fn(&[u8], &[u8]) -> bool,
) -> io::Result<CheckResult> {
    let mut got = Tokens::new(output);
    let mut expected = Tokens::new(answer);
    let (mut g, mut e) = (Vec::new(), Vec::new());
    let mut index = 0usize;
    loop {
        index += 1;
        let gl = got.next_into(&mut g)?;
        let el = expected.next_into(&mut e)?;
        match (gl, el) {
            (None, None) => return Ok(CheckResult::accepted()),
            (None, Some(el)) => {
                let shown = if got.line > 1 || index > 1 {
                    format!(
                        "output ended early: answer line {el} expects {}",
                        show_token(&e)
                    )
                } else {
                    format!(
                        "output is empty: answer line {el} expects {}",
                        show_token(&e)
                    )
                };
                return Ok(CheckResult::wrong(shown, got.line, el));
            }
            (Some(gl), None) => {
                return Ok(CheckResult::wrong(
                    format!(
                        "extra output on line {gl}: {} after the answer ended",
                        show_token(&g)
                    ),
                    gl,
                    expected.line,
                ))
            }
            (Some(gl), Some(el)) => {
                if !eq(&g, &e) {
                    let at = if gl == el {
                        format!("line {gl}")
                    } else {
                        format!("line {gl} (answer line {el})")
                    };
                    return Ok(CheckResult::wrong(
                        format!("{at}: expected {}, got {}", show_token(&e), show_token(&g)),
                        gl,
                        el,
                    ));
                }
            }
        }
    }
}

/// Whether an answer token is a number (then the output token is compared with tolerance).
fn looks_numeric(token: &[u8]) -> bool {
    let t = token
        .strip_prefix(b"-")
        .or_else(|| token.strip_prefix(b"+"))
        .unwrap_or(token);
    !t.is_empty()
        && t[0].is_ascii_digit() | (t[0] == b'.')
        && t.iter()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'-' | b'+'))
}

fn float_token_eq(got: &[u8], expected: &[u8], abs: f64, rel: f64) -> bool {
    if got == expected {
        return true;
    }
    if !looks_numeric(expected) {
        return false;
    }
    let parse = |t: &[u8]| std::str::from_utf8(t).ok()?.parse::<f64>().ok();
    match (parse(got), parse(expected)) {
        (Some(g), Some(e)) if g.is_finite() && e.is_finite() => {
            let diff = (g - e).abs();
            diff <= abs || diff <= rel * e.abs()
        }
        _ => false,
    }
}

fn compare_lines(output: impl Read, answer: impl Read) -> io::Result<CheckResult> {
    use std::io::BufRead;
    let mut got = io::BufReader::with_capacity(CHUNK, output);
    let mut expected = io::BufReader::with_capacity(CHUNK, answer);
    let (mut g, mut e) = (Vec::new(), Vec::new());
    let mut line = 0usize;
    let trim = |v: &[u8]| -> usize {
        v.iter()
            .rposition(|c| !c.is_ascii_whitespace())
            .map_or(0, |i| i + 1)
    };
    loop {
        line += 1;
        g.clear();
        e.clear();
        let gn = got.read_until(b'\n', &mut g)?;
        let en = expected.read_until(b'\n', &mut e)?;
        let (gt, et) = (&g[..trim(&g)], &e[..trim(&e)]);
        match (gn, en) {
            (0, 0) => return Ok(CheckResult::accepted()),
            (0, _) | (_, 0) => {
                // One side ended: the rest of the other must be blank lines.
                let (rest, first, side_ended_is_output) = if gn == 0 {
                    (&mut expected as &mut dyn BufRead, et.to_vec(), true)
                } else {
                    (&mut got as &mut dyn BufRead, gt.to_vec(), false)
                };
                let mut extra_line = line;
                let mut content = first;
                let mut buf = Vec::new();
                while content.is_empty() {
                    buf.clear();
                    if rest.read_until(b'\n', &mut buf)? == 0 {
                        return Ok(CheckResult::accepted());
                    }
                    extra_line += 1;
                    content = buf[..trim(&buf)].to_vec();
                }
                let message = if side_ended_is_output {
                    format!(
                        "output ended early: answer line {extra_line} is {}",
                        show_token(&content)
                    )
                } else {
                    format!(
                        "extra output on line {extra_line}: {}",
                        show_token(&content)
                    )
                };
                return Ok(CheckResult::wrong(message, extra_line, extra_line));
            }
            _ if gt != et => {
                return Ok(CheckResult::wrong(
                    format!(
                        "line {line}: expected {}, got {}",
                        show_token(et),
                        show_token(gt)
                    ),
                    line,
                    line,
                ))
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
