//! What one request may ask for, in bytes, points and seconds. A request past a limit gets
//! a 4xx (or 503 for time and memory taken by other requests) with one clear message; it
//! never stops the server or slows other clients for long.

use std::time::Duration;

// The playground's own limits (cells, points, characters), the same in the static build.
pub use pathsmooth_playground::limits::*;

/// Largest request body read, bytes (a 1024×1024 map is about 1 MiB of text).
pub const MAX_BODY_BYTES: usize = 8 << 20;

/// Most connections served at once. When all are taken, a newcomer takes the place of
/// the slowest connection that has not sent a whole request (see `conn`).
pub const MAX_CONNECTIONS: usize = 256;

/// Time allowed to send a request's headers, and to start the next request on a kept-alive
/// connection.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a connection is safe from being shed for a newcomer: a fast client sends its
/// request well within it, and it keeps a flood of reconnecting clients from turning the
/// table over faster than this.
pub const SHED_GRACE: Duration = Duration::from_millis(250);

/// Time a response may wait for the client to take more of it (a client that stops
/// reading keeps its memory reserved until then).
pub const WRITE_STALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Time allowed to receive a request body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(20);

/// Time allowed for one request's work (parsing, planning, smoothing every method),
/// including waiting for a free worker.
pub const WORK_TIMEOUT: Duration = Duration::from_secs(20);

/// [`WORK_TIMEOUT`], or the milliseconds in the environment variable
/// `PATHSMOOTH_SERVE_TIMEOUT_MS` (read once; for tests of the time limit).
pub fn work_timeout() -> Duration {
    static TIMEOUT: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *TIMEOUT.get_or_init(|| millis_from_env("PATHSMOOTH_SERVE_TIMEOUT_MS", WORK_TIMEOUT))
}

/// The milliseconds in the environment variable `var`, or `default` when it is unset or
/// not a whole number: a limit that a test sets shorter.
pub fn millis_from_env(var: &str, default: Duration) -> Duration {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(default, Duration::from_millis)
}

/// Requests one client (one IP address) may have in the server at once, from their
/// headers to their answer: being read, waiting for a worker or at work. One more is
/// refused at once, before its body is read, with a 503 and `Retry-After`. (Behind a
/// proxy every visitor is the proxy's address: one client.)
pub const MAX_CLIENT_REQUESTS: usize = 8;

/// Workers one client may hold at once: its other requests wait for its own to end, so
/// one client cannot take every core however many requests it sends.
pub const MAX_CLIENT_WORKERS: usize = 1;

/// Estimated work (see `lanes::Lane::for_work`: a cell of a map searched or parsed, for
/// each method; four for a byte of navmesh text) up to which a request is cheap: a plan
/// on the demo map with every method is 64 000, a 1024 × 1024 map's plan with one method
/// 2 million.
pub const CHEAP_WORK: u64 = 1 << 18;

/// Cheap requests that may wait for a worker (each client's first only: its others wait
/// behind it); one more is refused with a 503 and `Retry-After`.
pub const MAX_WAITING_CHEAP: usize = 32;

/// Heavy requests that may wait for a worker, as [`MAX_WAITING_CHEAP`]: heavy work takes up
/// to [`WORK_TIMEOUT`] a request, so a longer queue only holds connections for 503s.
pub const MAX_WAITING_HEAVY: usize = 4;

/// What a request refused because the server is busy is told to wait (`Retry-After`).
pub const RETRY_AFTER: Duration = Duration::from_secs(2);

/// Bytes of memory the requests being served may hold together, unless `pathsmooth serve
/// --memory-budget` says otherwise: each request reserves its estimate (`budget`) before
/// it reads a body, builds a world or plans, and keeps it until its answer is sent.
pub const MEMORY_BUDGET: usize = 1 << 30;
