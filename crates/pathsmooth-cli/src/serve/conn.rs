//! Who gets a connection, and for how long: slow clients cannot starve fast ones.
//!
//! At most [`MAX_CONNECTIONS`] connections are served at once. A connection is *at work*
//! from the moment its request has arrived in full (headers and body) until its answer
//! is ready; otherwise it is *waiting* (for the rest of a request, for the next request on
//! a kept-alive connection, or for the client to take its answer). When every place is
//! taken, a newcomer takes the place of the waiting connection with the lowest data rate
//! (bytes read and written over its age) among those older than [`SHED_GRACE`]; that
//! connection is closed. Clients that trickle their headers or bodies a byte at a time
//! have the lowest rates, so they go first however many reconnect, and a normal request
//! is served at once. Connections at work are never shed: their time is bounded by the
//! work's own limit, and when all are at work, newcomers wait for one to end.
//!
//! Besides: hyper's [`HEADER_TIMEOUT`] for a request's headers, and
//! [`WRITE_STALL_TIMEOUT`] for a client that stops taking its answer. Every request
//! carries its connection's [`Peer`] address, by which the handlers count clients.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::Router;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Sleep;

use super::limits::{HEADER_TIMEOUT, MAX_CONNECTIONS, SHED_GRACE, WRITE_STALL_TIMEOUT};

/// The address of the client a request came from (a request extension: see the module
/// docs).
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub IpAddr);

/// One connection's state, shared by its task, its I/O and the table.
#[derive(Debug)]
struct Conn {
    opened: Instant,
    /// Bytes read and written so far.
    bytes: AtomicU64,
    /// Requests at work (read in full, answer not yet ready).
    at_work: AtomicUsize,
    /// Chosen to make room: its task closes it.
    shed: AtomicBool,
    wake: Notify,
}

impl Conn {
    /// Bytes per second since the connection opened.
    fn rate(&self, now: Instant) -> f64 {
        let age = now.duration_since(self.opened).as_secs_f64().max(1e-3);
        self.bytes.load(Ordering::Relaxed) as f64 / age
    }

    fn sheddable(&self, now: Instant) -> bool {
        self.at_work.load(Ordering::Relaxed) == 0
            && !self.shed.load(Ordering::Relaxed)
            && now.duration_since(self.opened) >= SHED_GRACE
    }
}

/// The connections being served.
#[derive(Debug, Default)]
struct Table {
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
    /// Signalled when a connection ends.
    freed: Notify,
}

impl Table {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        // The map stays consistent whatever panicked while holding it.
        self.conns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until the table has room for one more connection, shedding the slowest
    /// waiting connection when it is full (see the module docs).
    async fn make_room(&self) {
        loop {
            let freed = self.freed.notified();
            {
                let conns = self.lock();
                if conns.len() < MAX_CONNECTIONS {
                    return;
                }
                let now = Instant::now();
                let slowest = conns
                    .values()
                    .filter(|c| c.sheddable(now))
                    .min_by(|a, b| a.rate(now).total_cmp(&b.rate(now)));
                if let Some(c) = slowest {
                    c.shed.store(true, Ordering::Relaxed);
                    c.wake.notify_one();
                }
            }
            // Until a connection ends, or another one may have become sheddable.
            let _ = tokio::time::timeout(SHED_GRACE / 4, freed).await;
        }
    }
}

/// Serves `app` on `listener` until the process is stopped, with the connection policy of
/// the module docs.
pub async fn serve(listener: TcpListener, app: Router) {
    let table = Arc::new(Table::default());
    let mut next_id = 0u64;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok((stream, addr)) => (stream, Peer(addr.ip())),
            // Out of file descriptors and the like: pause rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        table.make_room().await;
        let conn = Arc::new(Conn {
            opened: Instant::now(),
            bytes: AtomicU64::new(0),
            at_work: AtomicUsize::new(0),
            shed: AtomicBool::new(false),
            wake: Notify::new(),
        });
        next_id += 1;
        let id = next_id;
        table.lock().insert(id, conn.clone());
        let (table, app) = (table.clone(), app.clone());
        tokio::spawn(async move {
            serve_one(stream, peer, conn, app).await;
            table.lock().remove(&id);
            table.freed.notify_one();
        });
    }
}

/// Serves one connection until it ends or is shed.
async fn serve_one(stream: TcpStream, peer: Peer, conn: Arc<Conn>, app: Router) {
    let io = TokioIo::new(Tracked {
        stream,
        conn: conn.clone(),
        stall: None,
    });
    let service = Tracking {
        app: TowerToHyperService::new(app),
        conn: conn.clone(),
        peer,
    };
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    let mut shed = std::pin::pin!(conn.wake.notified());
    // Whichever comes first: the connection ends (a client that goes away mid-request is
    // that connection's business only), or it is shed (dropping it closes the socket and
    // drops the request being read, if any).
    std::future::poll_fn(|cx| {
        if shed.as_mut().poll(cx).is_ready() {
            return Poll::Ready(());
        }
        connection.as_mut().poll(cx).map(|_| ())
    })
    .await;
}

/// The router as a hyper service that marks its connection at work while a request that
/// has arrived in full is being answered, and gives each request its [`Peer`].
#[derive(Clone)]
struct Tracking {
    app: TowerToHyperService<Router>,
    conn: Arc<Conn>,
    peer: Peer,
}

impl Service<hyper::Request<Incoming>> for Tracking {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        let mark = Arc::new(AtWork {
            conn: self.conn.clone(),
            started: AtomicBool::new(false),
        });
        let (mut parts, body) = request.into_parts();
        parts.extensions.insert(self.peer);
        if hyper::body::Body::is_end_stream(&body) {
            mark.start();
        }
        let body = Body::new(Arrival {
            body,
            mark: mark.clone(),
        });
        let answer = self.app.call(Request::from_parts(parts, body));
        Box::pin(async move {
            let response = answer.await;
            drop(mark);
            response
        })
    }
}

/// Marks a connection at work from [`start`](AtWork::start) until dropped.
struct AtWork {
    conn: Arc<Conn>,
    started: AtomicBool,
}

impl AtWork {
    fn start(&self) {
        if !self.started.swap(true, Ordering::Relaxed) {
            self.conn.at_work.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Drop for AtWork {
    fn drop(&mut self) {
        if *self.started.get_mut() {
            self.conn.at_work.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// A request body that marks its connection at work once it has arrived in full.
struct Arrival {
    body: Incoming,
    mark: Arc<AtWork>,
}

impl hyper::body::Body for Arrival {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) || self.body.is_end_stream() {
            self.mark.start();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A TCP stream that counts its connection's bytes and gives up on a write that makes
/// no progress for [`WRITE_STALL_TIMEOUT`].
struct Tracked {
    stream: TcpStream,
    conn: Arc<Conn>,
    /// Running while a write waits for the client.
    stall: Option<Pin<Box<Sleep>>>,
}

impl Tracked {
    /// The result of a write attempt, with the stall timer run or reset.
    fn written(
        &mut self,
        cx: &mut Context<'_>,
        r: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match r {
            Poll::Ready(Ok(n)) => {
                self.stall = None;
                self.conn.bytes.fetch_add(n as u64, Ordering::Relaxed);
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let stall = self
                    .stall
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_STALL_TIMEOUT)));
                match stall.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client stopped taking its answer",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.stream).poll_read(cx, buf);
        let n = buf.filled().len() - before;
        self.conn.bytes.fetch_add(n as u64, Ordering::Relaxed);
        r
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write(cx, data);
        self.written(cx, r)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write_vectored(cx, data);
        self.written(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(age: Duration, bytes: u64, at_work: usize) -> Arc<Conn> {
        Arc::new(Conn {
            opened: Instant::now() - age,
            bytes: AtomicU64::new(bytes),
            at_work: AtomicUsize::new(at_work),
            shed: AtomicBool::new(false),
            wake: Notify::new(),
        })
    }

    #[test]
    fn the_slowest_waiting_connection_past_its_grace_is_shed() {
        let table = Table::default();
        let old = Duration::from_secs(5);
        // A full table: fast and slow, young and old, at work and waiting.
        let slow_at_work = conn(old, 1, 1);
        let young_and_idle = conn(Duration::ZERO, 0, 0);
        let trickler = conn(old, 5, 0);
        {
            let mut conns = table.lock();
            conns.insert(0, slow_at_work.clone());
            conns.insert(1, young_and_idle.clone());
            conns.insert(2, trickler.clone());
            for i in 3..MAX_CONNECTIONS as u64 {
                conns.insert(i, conn(old, 10_000, 0));
            }
        }
        // make_room marks its choice and waits for it to end: end it from the table.
        crate::serve::block_on(async {
            let wait = table.make_room();
            let mut wait = std::pin::pin!(wait);
            let polled = futures_poll_once(wait.as_mut()).await;
            assert!(polled.is_pending());
            assert!(trickler.shed.load(Ordering::Relaxed));
            assert!(!slow_at_work.shed.load(Ordering::Relaxed));
            assert!(!young_and_idle.shed.load(Ordering::Relaxed));
            table.lock().remove(&2);
            table.freed.notify_one();
            wait.await;
        });
    }

    /// Polls a future once.
    async fn futures_poll_once<F: Future + Unpin>(mut f: F) -> Poll<F::Output> {
        std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut f).poll(cx))).await
    }
}
