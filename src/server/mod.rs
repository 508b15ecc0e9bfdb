//! `judge serve`'s lower layers: a live contest as data ([`model`]), its
//! storage and judging queue ([`store`]), its rules ([`live`]), its
//! scoreboard's tally ([`board`]), the judging of its queue by the engine
//! ([`worker`]), what it judges with, for the judging hosts to compare
//! ([`packages`]), passwords ([`auth`]), a submission's zip ([`files`]) and the
//! database made to match contest.toml at start ([`setup`]), the clock at
//! work ([`clock`]), print jobs and the printer ([`printing`]), rejudgings
//! judged before they count ([`rejudging`]), the whole contest for its
//! archive ([`record`]), and a server or judging host started from a contest
//! folder ([`startup`]); who may see what is
//! written once, in [`visibility`] (the viewer, events, tokens) and
//! [`door`] (every read, for a viewer). Nothing here
//! knows HTTP or HTML: the web layer (`crate::web`) and the renderers
//! (`crate::render`) sit above it.

pub(crate) mod archive;
pub(crate) mod auth;
pub(crate) mod board;
pub(crate) mod clock;
pub(crate) mod controls;
pub(crate) mod desk;
pub(crate) mod door;
pub(crate) mod files;
pub(crate) mod live;
pub(crate) mod model;
pub(crate) mod packages;
pub(crate) mod printing;
pub(crate) mod problems;
pub(crate) mod record;
pub(crate) mod rejudging;
pub(crate) mod setup;
pub(crate) mod startup;
pub(crate) mod store;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod visibility;
pub(crate) mod worker;
