//! A problem's test set as data: which tests there are, in order, and where
//! each comes from ([`mod@plan`]); the engine makes them ([`crate::engine`]).
//! The main types are [`TestSet`] and [`TestCase`].

mod filter;
mod plan;
mod set;

pub(crate) use filter::TestFilter;
pub(crate) use plan::{count, plan, Planned, PlannedTest};
pub(crate) use set::{TestCase, TestSet};
