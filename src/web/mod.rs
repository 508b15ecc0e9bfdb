//! `judge serve`'s HTTP layer (axum): routes and the limits and headers of
//! every request ([`app`]), who is asking ([`auth`]), the pages' handlers
//! ([`pages`]), the Contest API ([`api`]) and the streams ([`feed`]). It
//! ([`connections`] holds the connections, with deadlines) and
//! turns requests into calls to `crate::server::live::LiveContest` and its
//! answers into responses through `crate::render`.

pub(crate) mod api;
pub(crate) mod app;
pub(crate) mod auth;
pub(crate) mod connections;
pub(crate) mod feed;
pub(crate) mod pages;

pub(crate) use app::{router, App};
pub(crate) use auth::Failures;
pub(crate) use connections::serve;
pub(crate) use feed::keep_time;
