//! The workers, and who gets one: two lanes, so that cheap requests are never stuck behind
//! expensive ones, each with a bounded wait.
//!
//! A request says what its work will cost before it starts ([`Lane::for_work`], from an
//! estimate of its size: cells × methods for a plan, the text's bytes for a navmesh). Up
//! to [`CHEAP_WORK`] it is *cheap* and may take any worker (one per core); else it is
//! *heavy* and may take all but one, so that one worker is always left for cheap requests
//! (a demo plan takes milliseconds, a heavy request up to its deadline). On one core there
//! is one worker, and both lanes share it.
//!
//! A request first waits for its own client's earlier requests (a client holds at most
//! [`MAX_CLIENT_WORKERS`] workers: see [`clients`](super::clients)), then in its lane, first
//! come first served. At most [`MAX_WAITING_CHEAP`] and [`MAX_WAITING_HEAVY`] requests wait
//! in the lanes; one more is refused at once with a 503 and `Retry-After` instead of
//! holding its connection until its deadline. Since a client has at most one request in a
//! lane, a lane's queue is shared among clients, never taken by one of them.
//!
//! The worker is held until the request's work ends (see [`Work`](super::work::Work)): the
//! memory it reserves meanwhile is reserved by at most as many requests as there are
//! workers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::clients::Client;
use super::error::ApiError;
use super::limits::{CHEAP_WORK, MAX_CLIENT_WORKERS, MAX_WAITING_CHEAP, MAX_WAITING_HEAVY};

/// Which lane a request waits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Estimated work up to [`CHEAP_WORK`]: any worker.
    Cheap,
    /// More: all workers but one.
    Heavy,
}

impl Lane {
    /// The lane of a request whose work is estimated at `work` units: about one per cell
    /// of a map a search or a parse goes through, for each method run on it; four per
    /// byte of a navmesh's text (see each handler's estimate).
    pub fn for_work(work: u64) -> Lane {
        if work <= CHEAP_WORK {
            Lane::Cheap
        } else {
            Lane::Heavy
        }
    }

    fn waiting_limit(self) -> usize {
        match self {
            Lane::Cheap => MAX_WAITING_CHEAP,
            Lane::Heavy => MAX_WAITING_HEAVY,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Lane::Cheap => "cheap",
            Lane::Heavy => "heavy",
        }
    }
}

/// The workers and the two lanes' queues.
#[derive(Debug)]
pub struct Lanes {
    /// One permit per worker.
    workers: Arc<Semaphore>,
    /// The workers heavy requests may hold together: all but one (one of one).
    heavy: Arc<Semaphore>,
    /// Requests waiting in each lane (cheap, heavy).
    waiting: [AtomicUsize; 2],
}

/// A worker held for a request (with its client's permit and, for a heavy request, a
/// heavy one): given back when dropped.
#[derive(Debug)]
pub struct Slot {
    _client: OwnedSemaphorePermit,
    _heavy: Option<OwnedSemaphorePermit>,
    _worker: OwnedSemaphorePermit,
}

/// Takes a request off its lane's count when it stops waiting, however it stops.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

fn stopping() -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
}

impl Lanes {
    /// `workers` workers (at least one), all but one of them for heavy requests.
    pub fn new(workers: usize) -> Self {
        let workers = workers.max(1);
        Lanes {
            workers: Arc::new(Semaphore::new(workers)),
            heavy: Arc::new(Semaphore::new((workers - 1).max(1))),
            waiting: Default::default(),
        }
    }

    /// A worker for `client`'s request in `lane`, once its client's earlier requests and
    /// the requests ahead of it in its lane have theirs (see the module docs). Errors:
    /// a 503 with `Retry-After` when the lane's queue is full, and the 503 of work out of
    /// time when no worker is free by `deadline`.
    pub async fn enter(
        &self,
        client: &Client,
        lane: Lane,
        deadline: Instant,
    ) -> Result<Slot, ApiError> {
        let own = tokio::time::timeout_at(deadline, client.workers().acquire_owned())
            .await
            .map_err(|_| ApiError::out_of_time())?
            .map_err(|_| stopping())?;
        let queue = &self.waiting[lane as usize];
        if queue.fetch_add(1, Ordering::Relaxed) >= lane.waiting_limit() {
            queue.fetch_sub(1, Ordering::Relaxed);
            return Err(ApiError::busy(format_args!(
                "{} requests wait for a worker for {} work, the most that may",
                lane.waiting_limit(),
                lane.name()
            )));
        }
        let _waiting = Waiting(queue);
        let take = async {
            let heavy = match lane {
                Lane::Cheap => None,
                Lane::Heavy => Some(self.heavy.clone().acquire_owned().await?),
            };
            let worker = self.workers.clone().acquire_owned().await?;
            Ok::<_, tokio::sync::AcquireError>((heavy, worker))
        };
        let (heavy, worker) = tokio::time::timeout_at(deadline, take)
            .await
            .map_err(|_| ApiError::out_of_time())?
            .map_err(|_| stopping())?;
        Ok(Slot {
            _client: own,
            _heavy: heavy,
            _worker: worker,
        })
    }

    /// Workers free now.
    #[cfg(test)]
    fn free(&self) -> usize {
        self.workers.available_permits()
    }
}

// One permit per client is what makes a lane's queue hold one request per client.
const _: () = assert!(MAX_CLIENT_WORKERS == 1);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::block_on;
    use crate::serve::clients::Clients;
    use std::time::Duration;

    #[test]
    fn one_worker_is_kept_for_cheap_requests() {
        block_on(async {
            let lanes = Lanes::new(2);
            let clients = Clients::default();
            let soon = || Instant::now() + Duration::from_millis(30);
            let (a, b, c) = (
                clients.admit("10.0.0.1".parse().unwrap()).unwrap(),
                clients.admit("10.0.0.2".parse().unwrap()).unwrap(),
                clients.admit("10.0.0.3".parse().unwrap()).unwrap(),
            );
            let heavy = lanes.enter(&a, Lane::Heavy, soon()).await.unwrap();
            // A second heavy request waits (out of time here); a cheap one gets the
            // worker kept for it.
            let e = lanes.enter(&b, Lane::Heavy, soon()).await.unwrap_err();
            assert!(e.message().contains("did not finish"), "{}", e.message());
            let cheap = lanes.enter(&c, Lane::Cheap, soon()).await.unwrap();
            assert_eq!(lanes.free(), 0);
            drop((heavy, cheap));
            assert_eq!(lanes.free(), 2);
            // A client's second request waits for its first.
            let first = lanes.enter(&c, Lane::Cheap, soon()).await.unwrap();
            let e = lanes.enter(&c, Lane::Cheap, soon()).await.unwrap_err();
            assert!(e.message().contains("did not finish"), "{}", e.message());
            drop(first);
        });
    }

    #[test]
    fn a_full_lane_sheds_at_once_with_retry_after() {
        block_on(async {
            let lanes = Lanes::new(1);
            let clients = Clients::default();
            let deadline = Instant::now() + Duration::from_secs(30);
            let first = clients.admit("10.0.0.1".parse().unwrap()).unwrap();
            let _busy = lanes.enter(&first, Lane::Heavy, deadline).await.unwrap();
            let waiters: Vec<Client> = (0..MAX_WAITING_HEAVY)
                .map(|i| {
                    clients
                        .admit(format!("10.0.1.{i}").parse().unwrap())
                        .unwrap()
                })
                .collect();
            let mut waiting: Vec<_> = waiters
                .iter()
                .map(|c| Box::pin(lanes.enter(c, Lane::Heavy, deadline)))
                .collect();
            // Let each of them queue up.
            for w in &mut waiting {
                assert!(futures_poll_once(w.as_mut()).await.is_pending());
            }
            let last = clients.admit("10.0.2.1".parse().unwrap()).unwrap();
            let clock = std::time::Instant::now();
            let e = lanes.enter(&last, Lane::Heavy, deadline).await.unwrap_err();
            assert!(clock.elapsed() < Duration::from_secs(1), "shed at once");
            assert_eq!(e.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(e.retry_after(), Some(2));
            assert!(e
                .message()
                .contains("4 requests wait for a worker for heavy work"));
            // A cheap request still queues in its own lane.
            let cheap = clients.admit("10.0.3.1".parse().unwrap()).unwrap();
            let mut c = Box::pin(lanes.enter(&cheap, Lane::Cheap, deadline));
            assert!(futures_poll_once(c.as_mut()).await.is_pending());
            drop(waiting);
            assert_eq!(lanes.waiting[1].load(Ordering::Relaxed), 0);
        });
    }

    /// Polls a future once.
    async fn futures_poll_once<F: std::future::Future + Unpin>(
        mut f: F,
    ) -> std::task::Poll<F::Output> {
        std::future::poll_fn(|cx| std::task::Poll::Ready(std::pin::Pin::new(&mut f).poll(cx))).await
    }
}
