//! The web layer as the server starts it ([`Web`], the server's
//! `crate::server::startup::Http`): the handlers' shared state made for a
//! live contest, the router served on the server's listener, and the event
//! feed rendered for the file the server writes once the contest is final.

use std::sync::Arc;

use super::app::router;
use super::connections::{serve, Streams};
use super::feed::full_feed;
use super::state::{App, Failures};
use crate::error::Result;
use crate::server::live::LiveContest;

/// The web layer: pages, the Contest API and the streams.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Web;

impl crate::server::startup::Http for Web {
    async fn serve(
        self,
        live: Arc<LiveContest>,
        listener: tokio::net::TcpListener,
        descriptors: u64,
    ) {
        let app = App {
            live,
            failures: Arc::new(Failures::default()),
            streams: Arc::new(Streams::for_descriptors(descriptors)),
            rendered: Arc::default(),
        };
        serve(listener, router(app), descriptors).await;
    }

    async fn feed(live: &LiveContest) -> Result<String> {
        full_feed(live).await
    }
}
