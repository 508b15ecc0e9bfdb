//! How `judge serve` holds its connections: HTTP/1 served by hyper with a
//! deadline on each request's head (a client that opens connections and
//! sends its headers a byte at a time, or never, is cut off instead of
//! holding a descriptor for ever). The bodies' deadline is in [`super::app`]
//! (a body read in time, or 408). Connections are capped below the
//! descriptors the process may open, and streams (which stay open: live
//! updates, event feeds) far below, in total and per client address
//! ([`Streams`]): a client that opens thousands gets 503 for the streams
//! over the cap, and pages, logins, the API and the judging (which needs
//! descriptors for its compilers and runs) go on. The main function is
//! [`serve`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

/// How long a request's line and headers may take to arrive, counted from
/// the end of the previous request on a kept-alive connection.
const HEAD_TIMEOUT: Duration = Duration::from_secs(20);

/// The header in which the connection layer (here)
/// puts the client's address; whatever a client sends under this name is
/// replaced.
pub(crate) const PEER: &str = "judge-peer";

/// The client's address, as the connection layer saw it.
pub(crate) fn peer(headers: &axum::http::HeaderMap) -> String {
    headers
        .get(PEER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("unknown")
        .to_string()
}

/// Descriptors kept for the judging (compilers, runs, their pipes) and
/// the database, whatever the clients do.
const RESERVED_FOR_JUDGING: u64 = 768;

/// How many connections may be open at once with `descriptors`.
fn connection_cap(descriptors: u64) -> usize {
    descriptors
        .saturating_sub(RESERVED_FOR_JUDGING)
        .clamp(64, 60_000) as usize
}

/// Serves `router` on `listener`, for ever, with at most as many
/// connections at once as `descriptors` allow beside the judging's, and
/// one address at most a quarter of them; one over is closed at once.
pub(crate) async fn serve(listener: tokio::net::TcpListener, router: Router, descriptors: u64) {
    let cap = connection_cap(descriptors);
    // Connections are counted as streams are: in total and per address.
    let open = Arc::new(Streams::new(cap, (cap / 4).max(16)));
    loop {
        let (stream, address) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of descriptors, most likely: the others' connections
                // end in time (their deadlines), so wait instead of spinning.
                eprintln!("judge serve: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let Some(held) = open.take(&address.ip().to_string()) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        // Handlers learn the client's address from a header only this
        // layer writes.
        let peer = axum::http::HeaderValue::from_str(&address.ip().to_string())
            .expect("an address is a valid header value");
        let service = TowerToHyperService::new(tower::ServiceExt::map_request(
            router.clone(),
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.headers_mut().insert(PEER, peer.clone());
                request.map(axum::body::Body::new)
            },
        ));
        tokio::spawn(async move {
            let _held = held;
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

/// The streams open, in total and per client address, with their caps.
#[derive(Debug)]
pub(crate) struct Streams {
    total_cap: usize,
    per_address_cap: usize,
    open: Mutex<(usize, HashMap<String, usize>)>,
}

/// A stream's place, given back when the stream ends.
#[derive(Debug)]
pub(crate) struct StreamSlot {
    streams: Arc<Streams>,
    peer: String,
}

impl Streams {
    /// Caps for a process that may open `descriptors`: streams take at
    /// most a quarter of what is left beside the judging (at most 4000),
    /// one address at most a quarter of that (a contest hall behind one
    /// address still has a page open per team).
    pub(crate) fn for_descriptors(descriptors: u64) -> Streams {
        let total = (connection_cap(descriptors) / 4).clamp(16, 4000);
        Streams::new(total, (total / 4).max(8))
    }

    /// Caps as given.
    pub(crate) fn new(total_cap: usize, per_address_cap: usize) -> Streams {
        Streams {
            total_cap,
            per_address_cap,
            open: Mutex::new((0, HashMap::new())),
        }
    }

    /// A place for a stream of `peer`, unless a cap is reached.
    pub(crate) fn take(self: &Arc<Self>, peer: &str) -> Option<StreamSlot> {
        let mut open = self.open.lock().expect("not poisoned");
        let (total, by_peer) = &mut *open;
        let mine = by_peer.get(peer).copied().unwrap_or(0);
        if *total >= self.total_cap || mine >= self.per_address_cap {
            return None;
        }
        *total += 1;
        by_peer.insert(peer.to_string(), mine + 1);
        Some(StreamSlot {
            streams: Arc::clone(self),
            peer: peer.to_string(),
        })
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.streams.open.lock().expect("not poisoned");
        let (total, by_peer) = &mut *open;
        *total -= 1;
        if let Some(n) = by_peer.get_mut(&self.peer) {
            *n -= 1;
            if *n == 0 {
                by_peer.remove(&self.peer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_capped_per_address_and_in_total_and_given_back() {
        let streams = Arc::new(Streams::new(5, 3));
        let a: Vec<_> = (0..3).map(|_| streams.take("10.0.0.1").unwrap()).collect();
        assert!(streams.take("10.0.0.1").is_none(), "per address");
        let b: Vec<_> = (0..2).map(|_| streams.take("10.0.0.2").unwrap()).collect();
        assert!(streams.take("10.0.0.3").is_none(), "in total");
        drop(a);
        assert!(streams.take("10.0.0.3").is_some());
        drop(b);
        assert_eq!(streams.open.lock().unwrap().0, 0);
        // A process with 1024 descriptors still keeps room for the judging.
        let small = Streams::for_descriptors(1024);
        assert!(small.total_cap <= 64 && small.per_address_cap <= small.total_cap);
    }
}
