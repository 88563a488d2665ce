//! The metrics columns that `plan`, `demo` and `bench` print for a path on a map.

use glam::DVec2;
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::Result;
use pathsmooth::ValidationReport;

pub use crate::compare::ratio;
use crate::compare::Skipped;

/// What the status column and the notes under the table mean (the help text of `plan` and
/// `demo`).
pub const SKIPPED_HELP: &str = "\
Status: `ok` when every step of the method took effect; `skipped` when a step of its
pipeline did not (its result failed the pipeline's validation, or it changed nothing):
the pipeline kept the step's input, so that row shows the path before the step, not a
success of it. A note under the table names each such step and the library's reason
(cut to 200 characters): `note: relax: step \"relax\" skipped: <reason>`.";

/// Column titles of [`metrics_row`].
pub fn metrics_header() -> [&'static str; 10] {
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
        "status",
    ]
}

/// The columns `plan` inserts after "vs A*" when area costs are given: the path's cost
/// under them ([`path_cost`](pathsmooth::world::path_cost): length × area cost, summed),
/// and that cost over the A* path's.
pub const COST_COLUMNS: [&str; 2] = ["cost", "cost/A*"];

/// Where [`COST_COLUMNS`] go in a [`metrics_row`]: after "vs A*".
const COST_AT: usize = 5;

/// [`metrics_header`], with [`COST_COLUMNS`] when `cost`.
pub fn metrics_header_with_cost(cost: bool) -> Vec<&'static str> {
    let mut header = metrics_header().to_vec();
    if cost {
        header.splice(COST_AT..COST_AT, COST_COLUMNS);
    }
    header
}

/// Inserts the [`COST_COLUMNS`] into a [`metrics_row`] or an [`error_row`]: `cost` and
/// `cost / astar_cost`, or empty cells for `None` (a failed method).
pub fn insert_cost(row: &mut Vec<String>, cost: Option<f64>, astar_cost: f64) {
    let cells = match cost {
        Some(c) => [format!("{c:.3}"), format!("{:.4}", ratio(c, astar_cost))],
        None => [String::new(), String::new()],
    };
    let at = COST_AT.min(row.len());
    row.splice(at..at, cells);
}

/// The status column: `ok` when every step of the method took effect, `skipped` when one
/// did not (the row then shows that step's input; [`skip_notes`] say which and why).
fn status(skipped: &[Skipped]) -> &'static str {
    if skipped.is_empty() {
        "ok"
    } else {
        "skipped"
    }
}

/// One line under the table per step of method `name` that did not take effect:
/// `note: relax: step "relax" skipped: <reason>` (the reason cut to
/// [`REASON_MAX_CHARS`](crate::compare::REASON_MAX_CHARS)).
pub fn skip_notes<'a>(name: &'a str, skipped: &'a [Skipped]) -> impl Iterator<Item = String> + 'a {
    skipped.iter().map(move |s| format!("note: {name}: {s}"))
}

/// One row from a path's validation report (by the library's validator, for the
/// pipeline's radius): validity, size, length, length relative to the A* path, turning,
/// minimum clearance, the time an agent with default limits needs to follow the path
/// (the column that tells which smoother to pick), and the status (`skipped` when a step in
/// `skipped` did not take effect).
pub fn metrics_row(
    name: &str,
    path: &[DVec2],
    astar_length: f64,
    r: &ValidationReport,
    skipped: &[Skipped],
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
        status(skipped).into(),
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

/// A row for a method that failed: its name, the error and the status `error`, the other
/// columns empty.
pub fn error_row(name: &str, e: &pathsmooth::Error) -> Vec<String> {
    let mut row = vec![String::new(); metrics_header().len()];
    row[0] = name.to_string();
    row[1] = format!("error: {e}");
    if let Some(status) = row.last_mut() {
        *status = "error".into();
    }
    row
}

/// Seconds an agent with [`Agent::default`] limits needs to follow `path`.
pub fn follow_time(path: &[DVec2]) -> Result<f64> {
    Ok(speed_profile(path, &Agent::default())?.total_time())
}

/// A method's result with its [`metrics_row`] (`r`: the path's validation; `skipped`: the
/// steps that did not take effect): the path and the row, or the method's error.
pub fn with_metrics_row(
    name: &str,
    path: Result<Vec<DVec2>>,
    r: &ValidationReport,
    skipped: &[Skipped],
    astar_length: f64,
) -> Result<(Vec<DVec2>, Vec<String>)> {
    let path = path?;
    let row = metrics_row(name, &path, astar_length, r, skipped)?;
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
            metrics_row("m", &path, 1.0, &report, &[]).unwrap()[8].clone()
        };
        // A straight run of n − 1 metres takes a finite, positive time.
        assert!(line(FOLLOW_TIME_MAX_POINTS).parse::<f64>().unwrap() > 0.0);
        assert_eq!(line(FOLLOW_TIME_MAX_POINTS + 1), "—");
    }

    #[test]
    fn cost_columns_go_after_vs_astar_in_header_and_rows() {
        let header = metrics_header_with_cost(true);
        assert_eq!(&header[4..7], ["vs A*", "cost", "cost/A*"]);
        assert_eq!(metrics_header_with_cost(false), metrics_header());
        let report = ValidationReport::default();
        let mut row = metrics_row("m", &[DVec2::ZERO, DVec2::X], 1.0, &report, &[]).unwrap();
        insert_cost(&mut row, Some(3.0), 2.0);
        assert_eq!((row[5].as_str(), row[6].as_str()), ("3.000", "1.5000"));
        assert_eq!(row.len(), header.len());
        assert_eq!(row.last().map(String::as_str), Some("ok"));
        let e = pathsmooth::Error::NoFreeSpace;
        let mut failed = error_row("m", &e);
        insert_cost(&mut failed, None, 2.0);
        assert_eq!(failed.len(), header.len());
        assert_eq!(failed.last().map(String::as_str), Some("error"));
    }

    #[test]
    fn the_help_names_the_bound_on_reasons() {
        let bound = format!("cut to {} characters", crate::compare::REASON_MAX_CHARS);
        assert!(SKIPPED_HELP.contains(&bound), "{SKIPPED_HELP}");
    }

    #[test]
    fn a_skipped_step_shows_in_the_status_and_a_note() {
        let report = ValidationReport::default();
        let path = [DVec2::ZERO, DVec2::X];
        let status = |skipped: &[Skipped]| {
            metrics_row("relax", &path, 1.0, &report, skipped).unwrap()[9].clone()
        };
        assert_eq!(status(&[]), "ok");
        let skipped = [Skipped {
            step: "relax",
            reason: "segment 3 comes closer than the radius".into(),
        }];
        assert_eq!(status(&skipped), "skipped");
        let notes: Vec<String> = skip_notes("relax", &skipped).collect();
        assert_eq!(
            notes,
            ["note: relax: step \"relax\" skipped: segment 3 comes closer than the radius"]
        );
    }
}
