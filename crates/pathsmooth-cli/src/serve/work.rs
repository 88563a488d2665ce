//! A request's work: its deadline, the blocking workers it runs on, and the cancellation
//! token that stops it when nobody waits for it any more.
//!
//! The handler holds a [`Work`] while the request is served. Its token is cancelled when
//! the deadline passes (the token carries it, so the library sees it without the async
//! side) and when the `Work` is dropped: when the handler returns (the 503 of a request
//! out of time included), and when hyper drops the handler because the client closed the
//! connection. The blocking code checks the token between methods and hands it to the
//! library (the pipeline checks it between steps and inside its long loops), so a
//! cancelled request gives its worker back within milliseconds instead of running to its
//! end in the background.

use std::sync::Arc;

use axum::http::StatusCode;
use pathsmooth::Cancel;
use tokio::time::Instant;

use super::error::ApiError;
use super::limits;
use super::playground::Playground;

/// A request's deadline and cancellation token; dropping it cancels the token.
#[derive(Debug)]
pub struct Work {
    cancel: Cancel,
    deadline: Instant,
}

impl Work {
    /// Work that must end within [`limits::work_timeout`] from now.
    pub fn start() -> Self {
        let deadline = Instant::now() + limits::work_timeout();
        Work {
            cancel: Cancel::new().with_deadline(deadline.into_std()),
            deadline,
        }
    }

    /// When the work must be done (waits for workers and memory included).
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Runs `work` on a blocking worker (never on the async executor) once one of the
    /// playground's workers (one per core) is free, within the deadline, handing it the
    /// request's token. Past the deadline this returns the 503 at once; the work, which
    /// sees its token cancelled, stops at its next check and frees its worker.
    pub async fn blocking<T: Send + 'static>(
        &self,
        p: &Arc<Playground>,
        work: impl FnOnce(&Playground, &Cancel) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = tokio::time::timeout_at(self.deadline, p.workers().acquire_owned())
            .await
            .map_err(|_| ApiError::out_of_time())?
            .map_err(|_| {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
            })?;
        let (p, cancel) = (p.clone(), self.cancel.clone());
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
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
