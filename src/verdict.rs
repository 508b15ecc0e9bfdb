//! Verdicts: the outcome of judging one test or one submission. The main type
//! is [`Verdict`]. A verdict is data; "could not judge" is an
//! [`crate::error::Error`] instead.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The verdict of a test or a submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Verdict {
    /// Accepted.
    AC,
    /// Wrong answer.
    WA,
    /// Presentation error: only whitespace differs (with the `exact` checker,
    /// or when a custom checker says so).
    PE,
    /// Time limit exceeded (CPU time, or wall time for a sleeper).
    TLE,
    /// Memory limit exceeded.
    MLE,
    /// Output limit exceeded.
    OLE,
    /// Runtime error: non-zero exit or death by a signal.
    RE,
    /// Compile error.
    CE,
    /// Internal error: the judge could not decide (e.g. the checker failed).
    IE,
}

impl Verdict {
    /// Every verdict, in display order.
    pub const ALL: [Verdict; 9] = [
        Verdict::AC,
        Verdict::WA,
        Verdict::PE,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::RE,
        Verdict::CE,
        Verdict::IE,
    ];

    /// The short code (`AC`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::PE => "PE",
            Verdict::TLE => "TLE",
            Verdict::MLE => "MLE",
            Verdict::OLE => "OLE",
            Verdict::RE => "RE",
            Verdict::CE => "CE",
            Verdict::IE => "IE",
        }
    }

    /// A few words for humans.
    pub fn description(self) -> &'static str {
        match self {
            Verdict::AC => "accepted",
            Verdict::WA => "wrong answer",
            Verdict::PE => "presentation error",
            Verdict::TLE => "time limit exceeded",
            Verdict::MLE => "memory limit exceeded",
            Verdict::OLE => "output limit exceeded",
            Verdict::RE => "runtime error",
            Verdict::CE => "compile error",
            Verdict::IE => "internal error",
        }
    }

    /// Whether this is AC.
    pub fn is_accepted(self) -> bool {
        self == Verdict::AC
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Verdict {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let known: Vec<&str> = Verdict::ALL.iter().map(|v| v.as_str()).collect();
                format!("unknown verdict `{s}` (known: {})", known.join(" "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for v in Verdict::ALL {
            assert_eq!(v.as_str().parse::<Verdict>(), Ok(v));
        }
        assert_eq!("tle".parse::<Verdict>(), Ok(Verdict::TLE));
        assert!("OK"
            .parse::<Verdict>()
            .unwrap_err()
            .starts_with("unknown verdict `OK`"));
    }
}
