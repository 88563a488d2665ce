//! What one request may ask for, in bytes, points and seconds. A request past a limit gets
//! a 4xx (or 503 for time and memory taken by other requests) with one clear message; it
//! never stops the server or slows other clients for long.

use std::time::Duration;

/// Largest request body read, bytes (a 1024×1024 map is about 1 MiB of text).
pub const MAX_BODY_BYTES: usize = 8 << 20;

/// Largest width and height a map sent to the API may declare in its header.
pub const MAX_MAP_SIDE: usize = 1024;

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
    *TIMEOUT.get_or_init(|| {
        std::env::var("PATHSMOOTH_SERVE_TIMEOUT_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(WORK_TIMEOUT, Duration::from_millis)
    })
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

/// Largest Chaikin pass count accepted (each pass roughly doubles the points).
pub const MAX_PASSES: u32 = 10;

/// Largest Catmull-Rom subdivision count accepted.
pub const MAX_SUBDIVISIONS: usize = 64;

/// Most points of one path in an answer (each method's, and what its speed profile
/// holds, about 300 bytes a point). The pipeline refuses a step that could write more
/// before it runs; a method over it is an error naming this cap. The A* path every method
/// starts from is not capped (at most one point per free cell of a map of at most
/// [`MAX_MAP_SIDE`]² cells).
pub const MAX_PATH_POINTS: usize = 1 << 18;

/// Most points of all the paths in one answer together, besides the A* path.
pub const MAX_ANSWER_POINTS: usize = 1 << 20;

/// Bytes of memory the requests being served may hold together, unless `pathsmooth serve
/// --memory-budget` says otherwise: each request reserves its estimate (`budget`) before
/// it reads a body, builds a world or plans, and keeps it until its answer is sent.
pub const MEMORY_BUDGET: usize = 1 << 30;

/// Most characters of an error message sent (a message quoting the input is cut).
pub const MAX_MESSAGE_CHARS: usize = 300;

/// Most characters of a name from the request quoted in an error message.
pub const MAX_QUOTE_CHARS: usize = 40;

/// Most polygons of a layered navmesh sent to `POST /api/layered` (the bundled bakes have
/// a few hundred).
pub const MAX_LAYERED_POLYGONS: usize = 1 << 16;

/// Most animation samples returned per path (the rate drops for long traversals).
pub const MAX_SAMPLES: usize = 1500;

/// Animation samples per second of traversal time, when under [`MAX_SAMPLES`].
pub const SAMPLE_RATE: f64 = 30.0;

/// Most scenarios returned from one `.scen` file.
pub const MAX_SCENARIOS: usize = 20_000;

/// Most agents of one `POST /api/crowd`.
pub const MAX_CROWD_AGENTS: usize = 100;

/// Most simulated seconds of one `POST /api/crowd` (at 60 frames a second).
pub const MAX_CROWD_SECONDS: f64 = 30.0;

/// Frames a second sent by `POST /api/crowd` (of the 60 simulated): with
/// [`MAX_CROWD_AGENTS`] and [`MAX_CROWD_SECONDS`], at most 601 frames of 100 positions,
/// 0.9 MB of JSON measured.
pub const CROWD_FPS: f64 = 20.0;

/// `POST /api/crowd` sends every agent's path every this many frames sent (one a second),
/// and at every frame where a door opened or closed.
pub const CROWD_PATHS_EVERY: usize = 20;

/// Most path points `POST /api/crowd` sends, all frames together (1.5 MB of JSON measured
/// at 94 000); the paths of later frames are left out (and the answer says so).
pub const MAX_CROWD_PATH_POINTS: usize = 100_000;

/// Uploaded maps kept ready (distance field built) for the next request on the same text.
pub const CACHED_MAPS: usize = 4;

/// The `width` and `height` a `.map` header declares, read from the header lines only,
/// so that a map too large is refused before its grid is parsed or allocated. `None`
/// when the header does not have them (the library's parser then says what is wrong).
pub fn declared_size(text: &str) -> Option<(usize, usize)> {
    let (mut width, mut height) = (None, None);
    for line in text.lines().take(4) {
        let mut words = line.split_whitespace();
        let key = words.next();
        let value = words.next().and_then(|v| v.parse::<usize>().ok());
        match key {
            Some("width") => width = value,
            Some("height") => height = value,
            _ => {}
        }
    }
    Some((width?, height?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_size_reads_the_header_only() {
        let text = "type octile\nheight 10000\nwidth 20000\nmap\n..";
        assert_eq!(declared_size(text), Some((20000, 10000)));
        assert_eq!(declared_size("type octile\nheight x\nwidth 2\nmap\n"), None);
        assert_eq!(declared_size(""), None);
    }
}
