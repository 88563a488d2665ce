//! Paths from the source articles, shared by the unit tests, the integration tests and the
//! benches (the Chaikin unit tests include this file by path).

use glam::DVec2;

/// The 15-point path of the Terrator article ("Dev Blog #02 – Smoothing a path for
/// Terrator"): a zig-zag with a hook and one long last segment.
pub fn terrator() -> Vec<DVec2> {
    [
        (25.0, 50.0),
        (33.0, 50.0),
        (35.0, 50.0),
        (44.0, 50.5),
        (48.0, 48.5),
        (51.5, 50.5),
        (55.0, 47.5),
        (52.5, 44.5),
        (47.0, 47.0),
        (45.5, 49.5),
        (47.5, 52.0),
        (51.5, 52.5),
        (55.0, 52.0),
        (59.0, 52.5),
        (200.0, 49.5),
    ]
    .iter()
    .map(|&(x, y)| DVec2::new(x, y))
    .collect()
}
