//! The metrics columns that `plan`, `demo` and `bench` print for a path on a map.

use glam::DVec2;
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::Result;
use pathsmooth::ValidationReport;

/// Column titles of [`metrics_row`].
pub fn metrics_header() -> [&'static str; 9] {
    [
        "method",
        "valid",
        "points",
        "length",
        "vs A*",
        "max turn°",
        "total turn°",
        "clearance",
        "follow s",
    ]
}

/// One row from a path's validation report (by the library's validator, for the
/// pipeline's radius): validity, size, length, length relative to the A* path, turning,
/// minimum clearance, and the time an agent with default limits needs to follow the path
/// (the column that tells which smoother to pick).
pub fn metrics_row(
    name: &str,
    path: &[DVec2],
    astar_length: f64,
    r: &ValidationReport,
) -> Result<Vec<String>> {
    Ok(vec![
        name.to_string(),
        if r.is_valid() {
            "yes".into()
        } else {
            "NO".into()
        },
        path.len().to_string(),
        format!("{:.3}", r.length),
        format!("{:.4}", ratio(r.length, astar_length)),
        format!("{:.1}", r.max_turn.to_degrees()),
        format!("{:.1}", r.total_turn.to_degrees()),
        format!("{:.3}", r.min_clearance),
        if follow_time_shown(path) {
            format!("{:.2}", follow_time(path)?)
        } else {
            "—".into()
        },
    ])
}

/// The longest path whose follow time the table computes. The speed profile keeps about
/// 300 bytes a point (positions, headings and speeds at each knot), so this bounds it to
/// about 300 MiB; longer paths (many Chaikin passes near the output cap) show "—".
pub const FOLLOW_TIME_MAX_POINTS: usize = 1 << 20;

/// Does the table show `path`'s follow time (at most [`FOLLOW_TIME_MAX_POINTS`] points)?
pub fn follow_time_shown(path: &[DVec2]) -> bool {
    path.len() <= FOLLOW_TIME_MAX_POINTS
}

/// A row for a method that failed: its name and the error, the other columns empty.
pub fn error_row(name: &str, e: &pathsmooth::Error) -> Vec<String> {
    let mut row = vec![String::new(); metrics_header().len()];
    row[0] = name.to_string();
    row[1] = format!("error: {e}");
    row
}

/// Seconds an agent with [`Agent::default`] limits needs to follow `path`.
pub fn follow_time(path: &[DVec2]) -> Result<f64> {
    Ok(speed_profile(path, &Agent::default())?.total_time())
}

/// `a / b`, or 1 when `b` is 0 (start == goal).
pub fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        1.0
    }
}

/// A method's result with its [`metrics_row`] (`r`: the path's validation): the path and
/// the row, or the method's error.
pub fn with_metrics_row(
    name: &str,
    path: Result<Vec<DVec2>>,
    r: &ValidationReport,
    astar_length: f64,
) -> Result<(Vec<DVec2>, Vec<String>)> {
    let path = path?;
    let row = metrics_row(name, &path, astar_length, r)?;
    Ok((path, row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follow_time_is_left_out_only_above_the_cap() {
        let report = ValidationReport::default();
        let line = |n: usize| {
            let path: Vec<DVec2> = (0..n).map(|i| DVec2::new(i as f64, 0.0)).collect();
            metrics_row("m", &path, 1.0, &report).unwrap()[8].clone()
        };
        // A straight run of n − 1 metres takes a finite, positive time.
        assert!(line(FOLLOW_TIME_MAX_POINTS).parse::<f64>().unwrap() > 0.0);
        assert_eq!(line(FOLLOW_TIME_MAX_POINTS + 1), "—");
    }
}
