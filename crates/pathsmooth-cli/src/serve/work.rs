//! A request's work: its deadline, the worker it holds, and the cancellation token that
//! stops it when nobody waits for it any more.
//!
//! A handler starts its [`Work`] once its request is read and checked, with its client's
//! ticket and the lane its estimated cost puts it in ([`lanes`](super::lanes)): that waits
//! for a worker (or is refused, 503), and the worker is held until the work ends. The
//! token is cancelled when the deadline passes (the token carries it, so the library sees
//! it without the async side) and when the `Work` is dropped: when the handler returns (the
//! 503 of a request out of time included), and when hyper drops the handler because the
//! client closed the connection. The blocking code hands the token to the library
//! (the pipeline, the searches, the navmesh builds and the sheet check it in their long
//! loops), so a cancelled request gives its worker back within milliseconds instead of
//! running to its end in the background; the worker counts as taken until it has.

use std::sync::Arc;

use axum::http::StatusCode;
use pathsmooth::Cancel;
use tokio::time::Instant;

use super::clients::Client;
use super::error::ApiError;
use super::lanes::{Lane, Slot};
use super::limits;
use super::playground::Playground;

/// A request's deadline, cancellation token and worker; dropping it cancels the token.
#[derive(Debug)]
pub struct Work {
    cancel: Cancel,
    deadline: Instant,
    /// Shared with the blocking code running for the request: the worker is free when
    /// both are done.
    slot: Arc<Slot>,
}

impl Work {
    /// Work for `client`'s request in `lane`, which must end within
    /// [`limits::work_timeout`] from now, the wait for a worker included. Errors: those of
    /// [`Lanes::enter`](super::lanes::Lanes::enter) (the lane's queue is full; no worker in
    /// time).
    pub async fn start(p: &Playground, client: &Client, lane: Lane) -> Result<Self, ApiError> {
        let deadline = Instant::now() + limits::work_timeout();
        let slot = p.lanes().enter(client, lane, deadline).await?;
        Ok(Work {
            cancel: Cancel::new().with_deadline(deadline.into_std()),
            deadline,
            slot: Arc::new(slot),
        })
    }

    /// When the work must be done (waits for memory included).
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Runs `work` on a blocking thread (never on the async executor) with the request's
    /// worker and token. Past the deadline this returns the 503 at once; the work, which
    /// sees its token cancelled, stops at its next check and then frees the worker.
    pub async fn blocking<T: Send + 'static>(
        &self,
        p: &Arc<Playground>,
        work: impl FnOnce(&Playground, &Cancel) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (p, cancel, slot) = (p.clone(), self.cancel.clone(), self.slot.clone());
        let task = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            work(&p, &cancel)
        });
        match tokio::time::timeout_at(self.deadline, task).await {
            Err(_) => Err(ApiError::out_of_time()),
            Ok(Err(join)) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal error (please report it): {join}"),
            )),
            Ok(Ok(result)) => result,
        }
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}
