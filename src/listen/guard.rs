//! The connections `judge listen` accepts, guarded: at most
//! [`MAX_CONNECTIONS`] at once (more wait in the kernel's backlog), and
//! each closed [`CONNECTION_DEADLINE`] after it was accepted, whatever it
//! is doing: a client that sends its request slowly (or never) cannot hold
//! the listener. One that has not been answered yet gets a `408 Request
//! Timeout` first. The main type is [`GuardedListener`].

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections served at once.
pub(crate) const MAX_CONNECTIONS: usize = 32;

/// How long a connection may live.
pub(crate) const CONNECTION_DEADLINE: Duration = Duration::from_secs(15);

const TIMED_OUT: &[u8] = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 35\r\n\r\njudge listen: the request was slow\n";

/// A TCP listener whose connections are guarded (see the module).
pub(crate) struct GuardedListener {
    inner: TcpListener,
    slots: Arc<Semaphore>,
    deadline: Duration,
}

impl GuardedListener {
    /// Guards `inner`'s connections, each closed `deadline` after it came.
    pub(crate) fn new(inner: TcpListener, deadline: Duration) -> GuardedListener {
        GuardedListener {
            inner,
            slots: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            deadline,
        }
    }
}

impl axum::serve::Listener for GuardedListener {
    type Io = GuardedStream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let slot = Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .expect("never closed");
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    let stream = GuardedStream {
                        inner: stream,
                        deadline: Box::pin(tokio::time::sleep(self.deadline)),
                        answered: false,
                        _slot: slot,
                    };
                    return (stream, addr);
                }
                // Out of descriptors, a connection reset before it was
                // taken: wait a little, and go on.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// A connection with a deadline; its slot is freed when it is dropped.
pub(crate) struct GuardedStream {
    inner: TcpStream,
    deadline: Pin<Box<tokio::time::Sleep>>,
    /// Whether anything was written back (a response began).
    answered: bool,
    _slot: OwnedSemaphorePermit,
}

impl GuardedStream {
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        if self.deadline.as_mut().poll(cx).is_pending() {
            return false;
        }
        if !self.answered {
            self.answered = true;
            let _ = self.inner.try_write(TIMED_OUT);
        }
        true
    }
}

fn timed_out() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "the connection's time is up")
}

impl AsyncRead for GuardedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.expired(cx) {
            return Poll::Ready(Err(timed_out()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        if self.expired(cx) {
            return Poll::Ready(Err(timed_out()));
        }
        self.answered = true;
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
