//! What one request may ask for, in cells, points and characters: the playground's own
//! limits, the same served or in a Web Worker. A request past one gets a 400 or 413 with
//! one clear message. (The server's limits on bytes, seconds, connections and clients are
//! its own: `pathsmooth serve`'s `limits`.)

/// Largest width and height a map sent to the API may declare in its header.
pub const MAX_MAP_SIDE: usize = 1024;

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
