//! The memory budget: the bytes that the requests being served may hold together.
//!
//! A request reserves its estimate *before* it spends it: the body's bytes before reading
//! it, a world's before parsing a map, the search's before A*, the paths' and the answer's
//! (from the points the methods can produce) before smoothing. The reservation lasts
//! until the answer has been handed to the connection ([`held_json`]), so the memory of an
//! answer being sent is counted too. A request that needs more than the whole budget is a
//! 413 at once; one that cannot get its share before its deadline (other requests hold
//! it) is a 503. So many large requests at once queue or are refused; they never take the
//! process past what the budget allows.
//!
//! The estimates are peaks per cell and per point measured on 1024 × 1024 maps, about
//! doubled; the budget is not an allocator and cannot see what the process really holds
//! (nor the worlds given with `--map`, loaded once at start), only what the requests said
//! they would.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::error::ApiError;

/// Bytes a request body takes per byte sent: the bytes read, then the strings decoded from
/// the JSON (a map's text) and what is parsed from them.
pub const BODY_COPIES: usize = 3;

/// Bytes a grid world built from a map's text takes per cell while it lives (the map, its
/// distance field, its navmesh once a navmesh method asked for it), the parsing included:
/// measured 19 for a 1024 × 1024 map and 45 more for the navmesh of random noise (30 %
/// walls), doubled.
pub const WORLD_BYTES_PER_CELL: usize = 128;

/// Bytes the A* search takes per cell of the map (open list, costs and parents of the
/// cells it reaches), while it runs: measured about 40 for a search through every free
/// cell of a maze, doubled and more.
pub const SEARCH_BYTES_PER_CELL: usize = 96;

/// Bytes per point of the A* path kept for the whole request (the path, its copy in the
/// answer, the answer's text).
pub const RAW_BYTES_PER_POINT: usize = 96;

/// Bytes per point of one method's path while the method runs: the pipeline's buffers,
/// the map-safe smoothers' scratch, the validation and the speed profile; measured about
/// 160 for Catmull-Rom at 258 000 points, doubled and more.
pub const WORK_BYTES_PER_POINT: usize = 384;

/// Bytes per point of a path kept in the answer: the points (16) and their JSON text
/// (about 21 measured, up to 40 for full-precision coordinates).
pub const ANSWER_BYTES_PER_POINT: usize = 64;

/// Bytes per agent per frame of a crowd's answer (`POST /api/crowd`): its position (16)
/// and its JSON text (two numbers of up to 10 characters), doubled.
pub const CROWD_BYTES_PER_AGENT_FRAME: usize = 64;

/// The playground's memory budget (see the module docs). Reserving costs one semaphore
/// acquisition; the budget is counted in KiB.
pub struct Budget {
    permits: Arc<Semaphore>,
    total_kib: u32,
}

/// Memory reserved from a [`Budget`], given back when dropped (the default reserves
/// nothing).
#[derive(Debug, Default)]
#[must_use = "the memory is given back when the reservation is dropped"]
pub struct Reservation {
    _permit: Option<OwnedSemaphorePermit>,
}

impl Reservation {
    /// A reservation of nothing (for what needs no memory of its own).
    pub fn none() -> Self {
        Reservation { _permit: None }
    }
}

fn kib(bytes: usize) -> u32 {
    u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX)
}

fn mib(bytes: usize) -> String {
    let m = bytes as f64 / (1 << 20) as f64;
    if m < 10.0 {
        format!("{m:.1} MiB")
    } else {
        format!("{m:.0} MiB")
    }
}

impl Budget {
    /// A budget of `bytes` (rounded up to a KiB, at most 4 TiB).
    pub fn new(bytes: usize) -> Self {
        let total_kib = kib(bytes).max(1);
        Budget {
            permits: Arc::new(Semaphore::new(total_kib as usize)),
            total_kib,
        }
    }

    /// The whole budget, bytes.
    pub fn total(&self) -> usize {
        self.total_kib as usize * 1024
    }

    /// The bytes not reserved now.
    pub fn available(&self) -> usize {
        self.permits.available_permits() * 1024
    }

    /// Reserves `bytes` for `what` (a few words: "the map's world"), waiting until
    /// `deadline` for other requests to give memory back; the wait is fair (first come,
    /// first served). Errors: 413 when `bytes` is more than the whole budget (it could
    /// never be served), 503 when the memory is not free by `deadline`.
    pub async fn reserve(
        &self,
        bytes: usize,
        what: &str,
        deadline: Instant,
    ) -> Result<Reservation, ApiError> {
        let n = kib(bytes);
        if n == 0 {
            return Ok(Reservation::none());
        }
        if n > self.total_kib {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "{what} would need about {}, more than the playground's memory budget of {}",
                    mib(bytes),
                    mib(self.total())
                ),
            ));
        }
        let permits = self.permits.clone().acquire_many_owned(n);
        match tokio::time::timeout_at(deadline, permits).await {
            Ok(Ok(permit)) => Ok(Reservation {
                _permit: Some(permit),
            }),
            Ok(Err(_)) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is stopping",
            )),
            Err(_) => Err(ApiError::busy(format_args!(
                "{what} needs about {} of memory that other requests hold",
                mib(bytes)
            ))),
        }
    }
}

/// A JSON response whose body holds `holds` until its last piece has been handed to the
/// connection (or the connection is dropped): the answer's memory stays reserved while it
/// is sent. The body goes out in pieces of [`PIECE`] bytes, so the connection's buffer
/// never holds much more than one piece beyond what the reservation covers.
pub fn held_json(status: StatusCode, body: Vec<u8>, holds: Vec<Reservation>) -> Response {
    let body = Held {
        rest: Bytes::from(body),
        _holds: holds,
    };
    (
        status,
        [(CONTENT_TYPE, "application/json")],
        Body::new(body),
    )
        .into_response()
}

/// Size of the pieces [`held_json`] sends.
pub const PIECE: usize = 64 << 10;

/// A response body that keeps reservations until it is sent.
struct Held {
    rest: Bytes,
    _holds: Vec<Reservation>,
}

impl hyper::body::Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if self.rest.is_empty() {
            return Poll::Ready(None);
        }
        let n = self.rest.len().min(PIECE);
        Poll::Ready(Some(Ok(Frame::data(self.rest.split_to(n)))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.rest.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::block_on;
    use std::time::Duration;

    #[test]
    fn reservations_wait_for_each_other_and_give_back() {
        block_on(reservations());
    }

    async fn reservations() {
        let budget = Budget::new(10 << 10);
        let soon = || Instant::now() + Duration::from_millis(20);
        let a = budget.reserve(6 << 10, "a", soon()).await.unwrap();
        assert_eq!(budget.available(), 4 << 10);
        let e = budget.reserve(6 << 10, "b", soon()).await.unwrap_err();
        assert_eq!(e.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(e.message().contains("b needs about"), "{}", e.message());
        drop(a);
        let _b = budget.reserve(6 << 10, "b", soon()).await.unwrap();
        let e = budget.reserve(11 << 10, "c", soon()).await.unwrap_err();
        assert_eq!(e.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert!(e.message().contains("memory budget"), "{}", e.message());
    }
}
