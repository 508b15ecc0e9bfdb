//! How `judge serve` holds its connections: HTTP/1 served by hyper with a
//! deadline on each request's head (a client that opens connections and
//! sends its headers a byte at a time, or never, is cut off instead of
//! holding a descriptor for ever). The bodies' deadline is in [`super::app`]
//! (a body read in time, or 408). The main function is [`serve`].

use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

/// How long a request's line and headers may take to arrive, counted from
/// the end of the previous request on a kept-alive connection.
const HEAD_TIMEOUT: Duration = Duration::from_secs(20);

/// Serves `router` on `listener`, for ever.
pub(crate) async fn serve(listener: tokio::net::TcpListener, router: Router) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of descriptors, most likely: the others' connections
                // end in time (their deadlines), so wait instead of spinning.
                eprintln!("judge serve: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT);
            // A connection that fails (reset, timed out) ends only itself.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}
