//! The API's one error, [`ApiError`]: a status and one message, sent as
//! `{"error": message}` by [`json`], the JSON response every handler answers with. The
//! budget, the workers, the guard and the handlers all return it, so it lives here, below
//! them all, and none of them imports another for it.

use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::limits;
use crate::compare::bounded;

/// An API error: a status and one message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    pub(super) message: String,
    /// Seconds to wait before trying again, sent as `Retry-After` (a 503 for a busy
    /// server, not for work that ran out of time: that would run out again).
    retry_after: Option<u64>,
}

impl ApiError {
    /// An error with `status` and `message`, cut to [`limits::MAX_MESSAGE_CHARS`]
    /// characters (a message that quotes the input cannot grow with it).
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: bounded(&message.into(), limits::MAX_MESSAGE_CHARS),
            retry_after: None,
        }
    }

    /// A 503 for a server too busy to take the request now: `message` and "try again in
    /// N s", sent with `Retry-After: N` ([`limits::RETRY_AFTER`]).
    pub(super) fn busy(message: impl std::fmt::Display) -> Self {
        let secs = limits::RETRY_AFTER.as_secs();
        ApiError {
            retry_after: Some(secs),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server is busy: {message}; try again in {secs} s"),
            )
        }
    }

    /// The 503 of work past its deadline.
    pub(super) fn out_of_time() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the request did not finish within {} s",
                limits::work_timeout().as_secs_f64()
            ),
        )
    }

    /// The status sent.
    #[cfg(test)]
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The message sent.
    #[cfg(test)]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `Retry-After` sent, seconds.
    #[cfg(test)]
    pub fn retry_after(&self) -> Option<u64> {
        self.retry_after
    }
}

impl From<pathsmooth_playground::ApiError> for ApiError {
    /// The playground's error with its status; work cancelled (its deadline passed: the
    /// only canceller whose answer is still read) is the 503 of [`ApiError::out_of_time`].
    fn from(e: pathsmooth_playground::ApiError) -> Self {
        if e.is_cancelled() {
            return Self::out_of_time();
        }
        let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Self::new(status, e.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = json(self.status, &serde_json::json!({ "error": self.message }));
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(RETRY_AFTER, secs.into());
        }
        response
    }
}

/// An answer's JSON bytes as a `200 OK` JSON response.
pub(super) fn json_bytes(body: Vec<u8>) -> Response {
    (StatusCode::OK, [(CONTENT_TYPE, "application/json")], body).into_response()
}

/// `value` as a JSON response with `status`: every answer and every error.
pub(super) fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (status, [(CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(CONTENT_TYPE, "application/json")],
            serde_json::json!({ "error": format!("cannot encode the response: {e}") }).to_string(),
        )
            .into_response(),
    }
}
