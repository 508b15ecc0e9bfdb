//! `judge serve`'s HTTP layer (axum): routes and the limits and headers of
//! every request ([`app`]), what every handler shares ([`state`]), who is
//! asking ([`auth`]; for the pages, as extractors: [`visitor`]), the
//! pages' frame and their one error type ([`frame`]), the one reader of
//! submissions ([`submission`]), the pages' handlers ([`pages`]; the jury's
//! desk and the teams' notices: [`desk`]; printing: [`printing`]; the jury's controls:
//! [`controls`]; rejudgings with a preview: [`rejudgings`]), the Contest API
//! ([`api`]), the contest's archive ([`archive`]) and the streams ([`feed`]); [`connections`] holds the
//! connections, with deadlines, and [`start`] is what the server starts. It
//! turns requests into calls to `crate::server::live::LiveContest` and its
//! answers into responses through `crate::render`.

pub(crate) mod api;
pub(crate) mod app;
pub(crate) mod archive;
pub(crate) mod auth;
pub(crate) mod connections;
pub(crate) mod controls;
pub(crate) mod desk;
pub(crate) mod feed;
pub(crate) mod frame;
pub(crate) mod pages;
pub(crate) mod printing;
pub(crate) mod rejudgings;
pub(crate) mod start;
pub(crate) mod state;
pub(crate) mod submission;
#[cfg(test)]
mod tests;
pub(crate) mod visitor;

pub(crate) use start::Web;
