//! The metrics columns that `plan`, `demo` and `bench` print for a path on a map.

use anyhow::{Context, Result};
use glam::DVec2;
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::validate::Validator;

use crate::methods::{MapMethod, Planner, Query};

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

/// One row: validity (by the library's validator, for `radius`), size, length, length
/// relative to the A* path, turning, minimum clearance, and the time an agent with default
/// limits needs to follow the path (the column that tells which smoother to pick).
pub fn metrics_row(
    name: &str,
    path: &[DVec2],
    astar_length: f64,
    v: &Validator,
    radius: f64,
) -> Result<Vec<String>> {
    let r = v.validate(path, radius)?;
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
        format!("{:.2}", follow_time(path)?),
    ])
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

/// Runs `method` on a query and returns its path with its [`metrics_row`].
pub fn run_and_measure(
    planner: &mut Planner,
    method: MapMethod,
    query: &Query,
    radius: f64,
) -> Result<(Vec<DVec2>, Vec<String>)> {
    let path = planner.run(method, query).with_context(|| method.name())?;
    let row = metrics_row(
        method.name(),
        &path,
        query.astar.length,
        planner.validator(),
        radius,
    )?;
    Ok((path, row))
}
