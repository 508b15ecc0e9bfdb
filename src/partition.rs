//! `--partition slice:K/N`: a deterministic split of the work across N
//! machines of a CI matrix, as cargo-nextest's slice partitions: item i (in a
//! stable order) goes to part (i mod N) + 1. The main type is [`Partition`].

use std::fmt;
use std::str::FromStr;

/// Part K of N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Partition {
    /// This part, from 1.
    pub(crate) part: usize,
    /// Number of parts.
    pub(crate) of: usize,
}

impl Partition {
    /// Whether item `index` (from 0, in a stable order) belongs to this part.
    pub(crate) fn includes(self, index: usize) -> bool {
        index % self.of == self.part - 1
    }
}

impl FromStr for Partition {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad =
            || format!("invalid partition `{s}`: write slice:K/N with 1 <= K <= N, e.g. slice:1/3");
        let rest = s.strip_prefix("slice:").ok_or_else(bad)?;
        let (k, n) = rest.split_once('/').ok_or_else(bad)?;
        let (part, of): (usize, usize) =
            (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if part == 0 || of == 0 || part > of {
            return Err(bad());
        }
        Ok(Partition { part, of })
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "slice:{}/{}", self.part, self.of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_everything_once() {
        for of in 1..=5 {
            for index in 0..23 {
                let owners = (1..=of)
                    .filter(|&part| Partition { part, of }.includes(index))
                    .count();
                assert_eq!(owners, 1);
            }
        }
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!("slice:2/3".parse(), Ok(Partition { part: 2, of: 3 }));
        assert_eq!(Partition { part: 2, of: 3 }.to_string(), "slice:2/3");
        for bad in ["2/3", "slice:0/3", "slice:4/3", "slice:a/b", "hash:1/2"] {
            assert!(bad.parse::<Partition>().is_err(), "{bad}");
        }
    }
}
