//! `judge listen`: receiving problems from Competitive Companion (the
//! browser extension that parses a problem page and posts it to local
//! tools) and keeping each as a samples folder that `judge run` judges at
//! once.
//!
//! - [`server`]: the HTTP endpoint (axum on tokio), bound to 127.0.0.1, and
//!   what it refuses: requests from web pages (their `Origin`), under
//!   another name (`Host`: DNS rebinding), not JSON, too large, too slow,
//!   malformed;
//! - [`store`]: a received problem written as a folder of DIR: its name
//!   made safe, never over an existing folder.

mod guard;
mod server;
mod store;

pub(crate) use server::{serve, Event, ListenSettings, COMPANION_PORTS};
