//! Problems: the format-independent model ([`Problem`] and its parts) that
//! the rest of the judge works with, and one loader per on-disk package
//! format ([`format::Format`]); today judge's own `problem.toml` ([`native`]).
//! A loader validates everything it reads: a [`Problem`] is always sound.

mod format;
mod kattis;
mod model;
mod native;
mod package;
mod polygon;

pub(crate) use format::Format;
pub use model::CheckerSpec;
pub(crate) use model::ProgramSpec;
pub(crate) use model::{
    BruteSpec, DefaultFlags, GroupSource, InteractorProtocol, InteractorSpec, Problem,
    ProblemLimits, ProgramLimits, Role, SolutionSpec, StressSpec, TestGroup, TestSource, TestSpec,
    TimeRule, ValidatorSpec, MAX_TESTS, SEED, SIZE,
};
pub(crate) use package::{EntryKind, PackageRoot, MAX_DEPTH};
