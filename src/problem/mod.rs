//! Problems: the format-independent model ([`Problem`] and its parts) that
//! the rest of the judge works with, and one loader per on-disk package
//! format ([`format::Format`]): judge's own `problem.toml` ([`native`]),
//! ICPC/Kattis ([`kattis`]) and Polygon ([`polygon`]) packages, and plain
//! folders of samples ([`samples`]).
//! A loader validates everything it reads: a [`Problem`] is always sound.

pub(crate) mod companion;
mod constants;
mod format;
mod kattis;
mod model;
mod native;
mod package;
mod polygon;
mod samples;

pub(crate) use constants::Constants;
pub(crate) use format::Format;
pub use model::CheckerSpec;
pub(crate) use model::ProgramSpec;
pub(crate) use model::{
    BruteSpec, DefaultFlags, FileIo, GroupSource, InteractorProtocol, InteractorSpec, Problem,
    ProblemLimits, ProgramLimits, Role, SolutionSpec, StressSpec, TestGroup, TestSource, TestSpec,
    TimeRule, ValidatorSpec, MAX_TESTS, SEED, SIZE, TIME_LIMIT_TO_TLE,
};
pub(crate) use package::{EntryKind, PackageRoot, MAX_DEPTH};
pub(crate) use samples::COMPANION_FILE;
