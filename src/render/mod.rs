//! Every renderer, pure functions from results to bytes: what `judge run`
//! prints as it goes ([`stream`], with [`human`] lines), JSON ([`json`]),
//! JUnit ([`junit`]), scoreboards ([`scoreboard`]), the outputs of `verify`,
//! `stress`, `list`, `gen` and `listen`, and a live contest's Contest API
//! ([`ccs`]), its archive ([`package`]) and web pages ([`web`]). The results they render are data
//! below (`crate::report`, `crate::contest`, `crate::server::model`); the
//! commands only choose a renderer and print what it returns.

pub(crate) mod ccs;
mod format;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod list;
pub(crate) mod listen;
pub(crate) mod package;
pub(crate) mod scoreboard;
pub(crate) mod stream;
pub(crate) mod stress;
pub(crate) mod verify;
pub(crate) mod web;

pub(crate) use format::Format;
