//! Starting a live contest from its folder: what a server or a judging
//! host is given ([`ServeOptions`], [`HostOptions`]), the folder read and
//! its problems made ready ([`contest`]), the server run with the HTTP
//! layer it is handed ([`serve`], [`Http`]) and a judging host run
//! ([`host`]). The commands only translate their arguments into these.

mod contest;
mod host;
mod serve;

pub(crate) use host::{judgehost, HostOptions};
pub(crate) use serve::{serve, Http, ServeOptions};
