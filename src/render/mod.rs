//! Renderers of a live contest (`judge serve`): the ICPC Contest API's JSON
//! ([`ccs`]) and the web pages ([`web`]), pure functions from the data of
//! `crate::server::model` to bytes. (The renderers of judged submissions,
//! scoreboards and reports still live in `crate::report`.)

pub(crate) mod ccs;
pub(crate) mod web;
