//! Validation of a path on any [`World`], with the metrics users compare smoothers by.
//!
//! A path is **valid** on a world for an agent radius `r` when every segment is clear for
//! `r` and every bend is clear (the [world contract](crate::world)): on a grid, no segment
//! enters a wall (blocked cells are closed squares, outside the map is blocked, the seam
//! inside a thick wall counts as inside), none passes through or bends on a pinch vertex,
//! and with `r > 0` every point keeps clearance ≥ `r`. Clearance is accepted down to
//! `r − tolerance` ([`World::tolerance`]), so paths built to sit exactly at the radius
//! validate after rounding.
//!
//! The [`ValidationReport`] lists every offending segment and bend (not just the first),
//! where the first problem is, the minimum clearance, the length and the maximum and total
//! turning angle (from [`crate::metrics`], so duplicate points are skipped, never NaN).
//! [`validate`] returns a new report, [`validate_into`] reuses one, [`is_valid`] answers
//! yes or no.
//!
//! Cost: one segment test and one capped clearance query per segment, one bend test per
//! vertex: on a grid, O(Σ segment length × (r + 1)) in cells.
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::{validate, GridMap, GridWorld};
//! let world = GridWorld::new(GridMap::from_rows(&["...", ".@.", "..."])?)?;
//! let around = [DVec2::new(0.5, 0.5), DVec2::new(0.5, 2.5), DVec2::new(2.5, 2.5)];
//! let report = validate(&world, &around, 0.0)?;
//! assert!(report.is_valid());
//! assert_eq!(report.min_clearance, 0.5);
//! assert_eq!(report.length, 4.0);
//! let through = [DVec2::new(0.5, 0.5), DVec2::new(2.5, 2.5)];
//! assert_eq!(validate(&world, &through, 0.0)?.blocked_segments, vec![0]);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use glam::DVec2;

use crate::error::{num, Result};
use crate::geometry::Point2;
use crate::metrics::{length, max_and_total_turn};
use crate::world::{bends, check_path_and_radius, World};

/// What [`validate`] found. Segment `i` joins points `i` and `i + 1`; a one-point path is
/// checked as the degenerate segment 0.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ValidationReport {
    /// Segments that are not clear even for a point agent: they enter the blocked region
    /// (or, on a grid, pass through a pinch).
    pub blocked_segments: Vec<usize>,
    /// Points where the path bends through a gap of zero width (a grid's pinch vertex).
    pub blocked_bends: Vec<usize>,
    /// Segments that stay in free space but come closer than the radius (less the
    /// tolerance) to the blocked region.
    pub clearance_violations: Vec<usize>,
    /// A point near the first problem, when there is one.
    pub first_problem_at: Option<DVec2>,
    /// Smallest clearance over the whole path (0 when it touches or enters a wall).
    pub min_clearance: f64,
    /// The agent radius checked.
    pub radius: f64,
    /// Euclidean length of the polyline.
    pub length: f64,
    /// Largest turning angle at a vertex, radians in [0, π].
    pub max_turn: f64,
    /// Sum of the turning angles, radians.
    pub total_turn: f64,
}

impl ValidationReport {
    /// True when nothing collides and the clearance is respected.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{validate, GridMap, GridWorld};
    /// let world = GridWorld::new(GridMap::from_rows(&["..", ".."])?)?;
    /// let diagonal = [DVec2::new(0.5, 0.5), DVec2::new(1.5, 1.5)];
    /// assert!(validate(&world, &diagonal, 0.5)?.is_valid());
    /// assert!(!validate(&world, &diagonal, 0.6)?.is_valid());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn is_valid(&self) -> bool {
        self.blocked_segments.is_empty()
            && self.blocked_bends.is_empty()
            && self.clearance_violations.is_empty()
    }

    /// A one-line description of the first problem, or `None` for a valid path.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{validate, GridMap, GridWorld};
    /// let world = GridWorld::new(GridMap::from_rows(&[".@."])?)?;
    /// let r = validate(&world, &[DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)], 0.0)?;
    /// assert_eq!(r.problem().unwrap(), "segment 0 enters a wall near (1.5, 0.5)");
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn problem(&self) -> Option<String> {
        let at = self
            .first_problem_at
            .map(|p| format!(" near ({}, {})", num(p.x), num(p.y)))
            .unwrap_or_default();
        if let Some(i) = self.blocked_segments.first() {
            return Some(format!("segment {i} enters a wall{at}"));
        }
        if let Some(i) = self.blocked_bends.first() {
            return Some(format!(
                "point {i} bends through a gap between two walls{at}"
            ));
        }
        self.clearance_violations.first().map(|i| {
            format!(
                "segment {i} comes closer than the radius {} to a wall{at} (path minimum {})",
                num(self.radius),
                num(self.min_clearance)
            )
        })
    }

    pub(crate) fn clear(&mut self) {
        self.blocked_segments.clear();
        self.blocked_bends.clear();
        self.clearance_violations.clear();
        self.first_problem_at = None;
        self.min_clearance = f64::INFINITY;
        self.radius = 0.0;
        self.length = 0.0;
        self.max_turn = 0.0;
        self.total_turn = 0.0;
    }
}

/// [`validate`] into a reused report (no allocation once its lists have grown, for `DVec2`
/// paths).
///
/// A radius below the world's tolerance is taken as 0 (and reported as 0).
///
/// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) but the bounds (a point
/// outside the world is reported as a blocked segment):
/// [`Error::EmptyPath`](crate::Error::EmptyPath),
/// [`Error::NonFinite`](crate::Error::NonFinite),
/// [`Error::CoordinateOutOfRange`](crate::Error::CoordinateOutOfRange), and
/// [`Error::BadParameter`](crate::Error::BadParameter) for a negative or NaN radius (or a
/// world too small for its tolerance).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{validate_into, GridMap, GridWorld, ValidationReport};
/// let world = GridWorld::new(GridMap::from_rows(&["....", "....", "...."])?)?;
/// let mut report = ValidationReport::default();
/// validate_into(&world, &[DVec2::new(1.5, 1.5), DVec2::new(2.5, 1.5)], 1.0, &mut report)?;
/// assert!(report.is_valid() && report.min_clearance == 1.5);
/// validate_into(&world, &[DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5)], 1.0, &mut report)?;
/// assert_eq!(report.clearance_violations, vec![0]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn validate_into<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
    report: &mut ValidationReport,
) -> Result<()> {
    let radius = check_path_and_radius(world, path, 1, "validate", radius)?;
    report.clear();
    report.radius = radius;
    let accept = radius - world.tolerance();
    let at = |i: usize| path[i.min(path.len() - 1)].to_dvec2();
    let segments = path.len().max(2) - 1;
    for i in 0..segments {
        let (a, b) = (at(i), at(i + 1));
        let mut problem = None;
        if let Some(p) = world.first_contact(a, b, 0.0) {
            report.blocked_segments.push(i);
            problem = Some(p);
        }
        // Values below the cap are exact: the cap keeps both the running minimum and
        // the radius test exact while skipping space that cannot matter.
        let cap = report.min_clearance.max(radius);
        let c = if problem.is_some() {
            0.0
        } else {
            world.segment_clearance(a, b, cap)
        };
        if problem.is_none() && radius > 0.0 && c < accept {
            report.clearance_violations.push(i);
            problem = Some(world.first_contact(a, b, radius).unwrap_or(a.lerp(b, 0.5)));
        }
        report.min_clearance = report.min_clearance.min(c);
        if report.first_problem_at.is_none() {
            report.first_problem_at = problem;
        }
    }
    for (prev, i, next) in bends(path) {
        if !world.bend_is_clear(at(prev), at(i), at(next), radius) {
            report.blocked_bends.push(i);
            report.first_problem_at.get_or_insert(at(i));
        }
    }
    // One definition of length and turning for the library.
    report.length = length(path);
    (report.max_turn, report.total_turn) = max_and_total_turn(path);
    Ok(())
}

/// Validates `path` (`Vec2` or `DVec2` points, world units) on `world` for an agent of
/// radius `radius` (≥ 0): every segment and bend clear (see [`World`]'s contract), with
/// the smallest clearance, the length and the turning of the path.
///
/// A radius below the world's tolerance is taken as 0 (and reported as 0).
///
/// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) but the bounds (a point
/// outside the world is reported as a blocked segment):
/// [`Error::EmptyPath`](crate::Error::EmptyPath),
/// [`Error::NonFinite`](crate::Error::NonFinite),
/// [`Error::CoordinateOutOfRange`](crate::Error::CoordinateOutOfRange), and
/// [`Error::BadParameter`](crate::Error::BadParameter) for a negative or NaN radius (or a
/// world too small for its tolerance).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{is_valid, validate, GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&["...", ".@.", "..."])?)?;
/// let corner = [DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)]; // touches (1, 1)
/// let r = validate(&world, &corner, 0.0)?;
/// assert!(r.is_valid() && r.min_clearance == 0.0);
/// assert!(!is_valid(&world, &corner, 0.1));
/// assert!(validate(&world, &[DVec2::new(0.5, 0.5)], -1.0).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn validate<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
) -> Result<ValidationReport> {
    let mut report = ValidationReport::default();
    validate_into(world, path, radius, &mut report)?;
    Ok(report)
}

/// True when `path` is valid on `world` for `radius`; errors (bad path, bad radius) are
/// `false`.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{is_valid, GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&["@.", ".@"])?)?;
/// assert!(!is_valid(&world, &[DVec2::new(1.5, 0.5), DVec2::new(0.5, 1.5)], 0.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn is_valid<W: World + ?Sized, P: Point2>(world: &W, path: &[P], radius: f64) -> bool {
    validate(world, path, radius).is_ok_and(|r| r.is_valid())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Error, GridMap, GridWorld};

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn world(rows: &[&str]) -> GridWorld {
        GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap()
    }

    #[test]
    fn reports_bend_through_pinch_and_turns() {
        let w = world(&["@.", ".@"]);
        let r = validate(
            &w,
            &[p(1.5, 0.5), p(1.0, 1.0), p(1.0, 1.0), p(0.5, 1.5)],
            0.0,
        )
        .unwrap();
        assert_eq!(r.blocked_bends, vec![2]);
        assert_eq!(r.first_problem_at, Some(p(1.0, 1.0)));
        assert!(r.total_turn.abs() < 1e-12 && !r.is_valid());
        assert_eq!(r.min_clearance, 0.0);
    }

    #[test]
    fn bad_input() {
        let w = world(&["..."]);
        assert_eq!(validate::<_, DVec2>(&w, &[], 0.0), Err(Error::EmptyPath));
        assert!(validate(&w, &[p(0.5, 0.5)], f64::NAN).is_err());
        assert_eq!(
            validate(&w, &[p(0.5, f64::NAN)], 0.0),
            Err(Error::NonFinite { index: 0 })
        );
        assert!(validate(&w, &[p(0.5, 0.5)], 0.0).unwrap().is_valid());
        assert!(!validate(&w, &[p(5.5, 0.5)], 0.0).unwrap().is_valid());
    }

    #[test]
    fn clearance_within_the_tolerance_is_accepted() {
        let w = world(&["....", "....", "...."]);
        let a = [p(1.5, 1.5), p(2.5, 1.5)];
        assert!(validate(&w, &a, 1.5 + 0.5 * w.tolerance())
            .unwrap()
            .is_valid());
        assert!(!validate(&w, &a, 1.5 + 2.0 * w.tolerance())
            .unwrap()
            .is_valid());
    }

    #[test]
    fn f32_paths_are_validated_as_given() {
        let w = world(&["...", ".@.", "..."]);
        let around = [glam::Vec2::new(0.5, 0.5), glam::Vec2::new(0.5, 2.5)];
        assert!(validate(&w, &around, 0.0).unwrap().is_valid());
    }
}
