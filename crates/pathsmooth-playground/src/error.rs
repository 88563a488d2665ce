//! The playground's one error, [`ApiError`]: an HTTP status number and one message. The
//! server sends it as a JSON response with that status; the WebAssembly worker throws it as
//! a JavaScript error carrying the status. No HTTP types here: the shells translate.

use pathsmooth::Error;

use crate::compare::bounded;
use crate::limits;

/// `400 Bad Request`: a malformed request or a bad parameter.
pub const BAD_REQUEST: u16 = 400;
/// `404 Not Found`: no such route, world or example.
pub const NOT_FOUND: u16 = 404;
/// `405 Method Not Allowed`: a known route with the wrong method.
pub const METHOD_NOT_ALLOWED: u16 = 405;
/// `413 Payload Too Large`: an input or an output past one of [`limits`].
pub const PAYLOAD_TOO_LARGE: u16 = 413;
/// `422 Unprocessable Entity`: well formed, but cannot be planned.
pub const UNPROCESSABLE: u16 = 422;
/// `500 Internal Server Error`: a bug (please report it).
pub const INTERNAL: u16 = 500;
/// `503 Service Unavailable`: the work was cancelled (its deadline passed, or nobody waits
/// for it any more).
pub const UNAVAILABLE: u16 = 503;

/// `name` from a request, in backquotes, cut to [`limits::MAX_QUOTE_CHARS`].
pub fn quote(name: &str) -> String {
    format!("`{}`", bounded(name, limits::MAX_QUOTE_CHARS))
}

/// An API error: a status and one message of at most [`limits::MAX_MESSAGE_CHARS`]
/// characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: u16,
    message: String,
    /// The work was stopped by its [`Cancel`](pathsmooth::Cancel): the shell knows why (a
    /// deadline, a client gone, the page's cancel button) and may say it its own way.
    cancelled: bool,
}

impl ApiError {
    /// An error with `status` and `message`, cut to [`limits::MAX_MESSAGE_CHARS`]
    /// characters (a message that quotes the input cannot grow with it).
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: bounded(&message.into(), limits::MAX_MESSAGE_CHARS),
            cancelled: false,
        }
    }

    /// A 400 with `message`.
    pub fn bad_request(message: impl ToString) -> Self {
        Self::new(BAD_REQUEST, message.to_string())
    }

    /// The 503 of work stopped by its cancellation token.
    pub fn cancelled() -> Self {
        ApiError {
            cancelled: true,
            ..Self::new(UNAVAILABLE, "the work was cancelled")
        }
    }

    /// The status: 400, 404, 405, 413, 422, 500 or 503.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the work was stopped by its cancellation token (see [`cancelled`](Self::cancelled)).
    pub fn is_cancelled(&self) -> bool {
        self.cancelled
    }

    /// A planning error: the request was well formed but cannot be planned (start in a
    /// wall, goal unreachable, no room for the radius…) is 422; a bad parameter is 400; an
    /// output past a cap is 413; work cancelled is [`cancelled`](Self::cancelled).
    pub fn planning(e: Error) -> Self {
        let status = match e {
            Error::Cancelled => return Self::cancelled(),
            Error::BadParameter { .. }
            | Error::BadAreaCost { .. }
            | Error::BadAngle { .. }
            | Error::NonFinite { .. }
            | Error::CoordinateOutOfRange { .. }
            | Error::Parse { .. } => BAD_REQUEST,
            Error::OutputTooLarge { .. } => PAYLOAD_TOO_LARGE,
            _ => UNPROCESSABLE,
        };
        Self::new(status, e.to_string())
    }
}

impl std::fmt::Display for ApiError {
    /// `<status>: <message>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

/// `value` as JSON bytes (an answer can be megabytes: the server encodes it on a worker).
pub fn encode<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(value)
        .map_err(|e| ApiError::new(INTERNAL, format!("cannot encode the response: {e}")))
}
