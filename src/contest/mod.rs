//! Contests: the submissions of a contest directory, their scoring (ICPC or
//! IOI) and the standings. The main types are [`Results`] (what `judge
//! batch` writes to `results.json` and `judge merge` reads back) and
//! [`Standing`], and the scoring that makes them. Judging itself is in
//! [`run`].
//!
//! A contest directory holds one folder per contestant; a submission is
//! named after the problem id, `alice/hdu-1527.cpp`, and further attempts
//! number themselves, `alice/hdu-1527.2.cpp` (the unnumbered file is attempt
//! 1). An optional `contest.toml` sets the title, the scoring and the problems,
//! and for a live contest (`judge serve`) the clock ([`clock`]), the teams,
//! the jury and the languages. A contest package (the Contest API's archive
//! of a contest, [`package`]) is judged again the same way.

pub(crate) mod awards;
pub(crate) mod clock;
pub(crate) mod run;

mod ids;
pub(crate) mod package;
pub(crate) mod printing;
mod results;
pub(crate) mod roster;
mod spec;
mod standings;
#[cfg(test)]
mod tests;

pub(crate) use results::{Cell, ContestInfo, ContestProblem, Entry, Results, Standing};
pub(crate) use spec::{
    parse_submission_name, ContestSpec, Credential, Scoring, ServerLimits, CONTEST_FILE,
};
pub(crate) use standings::{sort_entries, standings, Attempt};
