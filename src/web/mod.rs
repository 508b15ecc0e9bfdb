//! `judge serve`'s HTTP layer (axum): routes and the limits and headers of
//! every request ([`app`]), what every handler shares ([`state`]), who is
//! asking ([`auth`]), the pages' handlers ([`pages`]; the jury's desk and
//! the teams' notices: [`desk`]; the jury's controls: [`controls`]), the Contest API
//! ([`api`]) and the streams ([`feed`]); [`connections`] holds the
//! connections, with deadlines. It
//! turns requests into calls to `crate::server::live::LiveContest` and its
//! answers into responses through `crate::render`.

pub(crate) mod api;
pub(crate) mod app;
pub(crate) mod auth;
pub(crate) mod connections;
pub(crate) mod controls;
pub(crate) mod desk;
#[cfg(test)]
mod desk_tests;
pub(crate) mod feed;
pub(crate) mod pages;
pub(crate) mod state;
#[cfg(test)]
mod tests;

pub(crate) use app::router;
pub(crate) use connections::{serve, Streams};
pub(crate) use feed::keep_time;
pub(crate) use state::{App, Failures};
