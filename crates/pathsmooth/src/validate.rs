//! Validation of a path on a grid map, with the metrics users compare smoothers by.
//!
//! A path is **valid** on a map for an agent radius `r` when (DESIGN.md):
//! - no segment enters the interior of the blocked region (blocked cells as closed squares
//!   plus everything outside the map; the seam inside a thick wall counts as inside),
//! - no segment passes through a pinch vertex and no bend squeezes through one
//!   ([`los`](crate::grid::los) has the exact test),
//! - with `r > 0`, every point keeps clearance ≥ `r` ([`DistanceField`]).
//!
//! The [`ValidationReport`] lists every offending segment (not just the first), the
//! minimum clearance, the length and the maximum and total turning angle (from
//! [`crate::metrics`], the same definitions the CLI prints, so duplicate points are
//! skipped, never NaN). [`Validator`] keeps the distance field of one map for repeated use;
//! [`validate`] and [`is_valid`] are one-shot forms.
//!
//! Cost: O(Σ segment length × (clearance + 1)) for the clearance, O(Σ segment length) for
//! the collision tests; building a [`Validator`] is O(width × height).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::grid::GridMap;
//! use pathsmooth::validate::validate;
//! let map = GridMap::from_rows(&["...", ".@.", "..."])?;
//! let around = [DVec2::new(0.5, 0.5), DVec2::new(0.5, 2.5), DVec2::new(2.5, 2.5)];
//! let report = validate(&map, &around, 0.0)?;
//! assert!(report.is_valid());
//! assert_eq!(report.min_clearance, 0.5);
//! assert_eq!(report.length, 4.0);
//! let through = [DVec2::new(0.5, 0.5), DVec2::new(2.5, 2.5)];
//! assert_eq!(validate(&map, &through, 0.0)?.penetrating_segments, vec![0]);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use glam::{DVec2, IVec2};

use crate::error::{Error, Result};
use crate::geometry::check_path;
use crate::grid::distance::DistanceField;
use crate::grid::los::{bend_pinch, segment_collision, Collision};
use crate::grid::map::GridMap;
use crate::metrics::{length, max_and_total_turn};

/// A squeeze through a pinch vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PinchCrossing {
    /// The pinch vertex (x, y).
    pub vertex: IVec2,
    /// For a straight crossing, the segment index; for a bend, the index of the path point
    /// sitting on the vertex.
    pub index: usize,
    /// True when the path bends on the vertex, false when a segment passes straight through.
    pub bend: bool,
}

/// What [`validate`] found. Segment `i` joins points `i` and `i + 1`; a one-point path is
/// checked as the degenerate segment 0.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ValidationReport {
    /// Segments that enter the interior of the blocked region.
    pub penetrating_segments: Vec<usize>,
    /// Segments through, and bends on, pinch vertices.
    pub pinch_crossings: Vec<PinchCrossing>,
    /// Segments whose clearance is below the radius (only when the radius is > 0).
    pub clearance_violations: Vec<usize>,
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
    /// use pathsmooth::{grid::GridMap, validate::validate};
    /// let map = GridMap::from_rows(&["..", ".."])?;
    /// let r = validate(&map, &[DVec2::new(0.5, 0.5), DVec2::new(1.5, 1.5)], 0.5)?;
    /// assert!(r.is_valid());
    /// assert!(!validate(&map, &[DVec2::new(0.5, 0.5), DVec2::new(1.5, 1.5)], 0.6)?.is_valid());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn is_valid(&self) -> bool {
        self.penetrating_segments.is_empty()
            && self.pinch_crossings.is_empty()
            && self.clearance_violations.is_empty()
    }

    /// A one-line description of the first problem, or `None` for a valid path.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{grid::GridMap, validate::validate};
    /// let map = GridMap::from_rows(&[".@."])?;
    /// let r = validate(&map, &[DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)], 0.0)?;
    /// assert_eq!(r.problem().unwrap(), "segment 0 enters a wall");
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn problem(&self) -> Option<String> {
        if let Some(i) = self.penetrating_segments.first() {
            return Some(format!("segment {i} enters a wall"));
        }
        if let Some(p) = self.pinch_crossings.first() {
            let what = if p.bend { "point" } else { "segment" };
            return Some(format!(
                "{what} {} squeezes through the pinch at ({}, {})",
                p.index, p.vertex.x, p.vertex.y
            ));
        }
        self.clearance_violations.first().map(|i| {
            format!(
                "segment {i} comes closer than the radius {} to a wall (path minimum {})",
                self.radius, self.min_clearance
            )
        })
    }

    fn clear(&mut self) {
        self.penetrating_segments.clear();
        self.pinch_crossings.clear();
        self.clearance_violations.clear();
        self.min_clearance = f64::INFINITY;
        self.radius = 0.0;
        self.length = 0.0;
        self.max_turn = 0.0;
        self.total_turn = 0.0;
    }
}

/// Validates paths on one map, keeping its [`DistanceField`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{grid::GridMap, validate::{ValidationReport, Validator}};
/// let map = GridMap::from_rows(&["....", "....", "...."])?;
/// let validator = Validator::new(&map);
/// let mut report = ValidationReport::default();
/// validator.validate_into(&[DVec2::new(1.5, 1.5), DVec2::new(2.5, 1.5)], 1.0, &mut report)?;
/// assert!(report.is_valid() && report.min_clearance == 1.5);
/// validator.validate_into(&[DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5)], 1.0, &mut report)?;
/// assert_eq!(report.clearance_violations, vec![0]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Validator<'m> {
    map: &'m GridMap,
    field: DistanceField,
}

impl<'m> Validator<'m> {
    /// Builds the distance field of `map` (O(width × height)).
    pub fn new(map: &'m GridMap) -> Self {
        Validator {
            map,
            field: DistanceField::new(map),
        }
    }

    /// Uses an existing field; it must have been built from `map`.
    pub fn with_field(map: &'m GridMap, field: DistanceField) -> Self {
        Validator { map, field }
    }

    /// The map.
    pub fn map(&self) -> &'m GridMap {
        self.map
    }

    /// The distance field.
    pub fn field(&self) -> &DistanceField {
        &self.field
    }

    /// Validates `path` for an agent of radius `radius` (≥ 0).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{grid::GridMap, validate::Validator};
    /// let map = GridMap::from_rows(&["...", ".@.", "..."])?;
    /// let v = Validator::new(&map);
    /// let corner = [DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)]; // touches (1, 1)
    /// let r = v.validate(&corner, 0.0)?;
    /// assert!(r.is_valid() && r.min_clearance == 0.0);
    /// assert!(!v.is_valid(&corner, 0.1));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn validate(&self, path: &[DVec2], radius: f64) -> Result<ValidationReport> {
        let mut report = ValidationReport::default();
        self.validate_into(path, radius, &mut report)?;
        Ok(report)
    }

    /// [`validate`](Self::validate) into a reused report (no allocation once its lists have
    /// grown). Errors: empty path, non-finite point, negative or NaN radius.
    pub fn validate_into(
        &self,
        path: &[DVec2],
        radius: f64,
        report: &mut ValidationReport,
    ) -> Result<()> {
        check_path(path, 1, "validate")?;
        check_radius(radius)?;
        report.clear();
        report.radius = radius;
        let single = [path[0], path[0]];
        let segments = if path.len() == 1 { &single[..] } else { path };
        for (i, s) in segments.windows(2).enumerate() {
            match segment_collision(self.map, s[0], s[1]) {
                Some(Collision::Interior { .. }) | Some(Collision::NonFinite) => {
                    report.penetrating_segments.push(i)
                }
                Some(Collision::Pinch { vertex }) => report.pinch_crossings.push(PinchCrossing {
                    vertex,
                    index: i,
                    bend: false,
                }),
                None => {}
            }
            // Values below the cap are exact: the cap keeps both the running minimum and
            // the radius test exact while skipping squares that cannot matter.
            let cap = report.min_clearance.max(radius);
            let c = self.field.segment_clearance_capped(s[0], s[1], cap);
            if c < radius {
                report.clearance_violations.push(i);
            }
            report.min_clearance = report.min_clearance.min(c);
        }
        for (prev, i, next) in crate::grid::los::bends(path) {
            if let Some(vertex) = bend_pinch(self.map, path[prev], path[i], path[next]) {
                report.pinch_crossings.push(PinchCrossing {
                    vertex,
                    index: i,
                    bend: true,
                });
            }
        }
        // One definition of length and turning for the library (`+ 0.0`: an empty sum
        // is −0.0, and a one-point path should report 0).
        report.length = length(path) + 0.0;
        (report.max_turn, report.total_turn) = max_and_total_turn(path);
        Ok(())
    }

    /// True when `path` is valid for `radius`; any error (bad path or radius) is `false`.
    pub fn is_valid(&self, path: &[DVec2], radius: f64) -> bool {
        self.validate(path, radius).is_ok_and(|r| r.is_valid())
    }
}

/// Validates `path` on `map` for an agent of radius `radius` (≥ 0). Builds a distance field
/// each call; use [`Validator`] to check many paths on one map.
///
/// Errors: [`Error::EmptyPath`], [`Error::NonFinite`], and [`Error::BadParameter`] for a
/// negative or NaN radius.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{grid::GridMap, validate::validate};
/// let map = GridMap::from_rows(&["..."])?;
/// assert!(validate(&map, &[DVec2::new(0.5, 0.5)], -1.0).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn validate(map: &GridMap, path: &[DVec2], radius: f64) -> Result<ValidationReport> {
    Validator::new(map).validate(path, radius)
}

/// True when `path` is valid on `map` for `radius`; errors (bad path, bad radius) are
/// `false`.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{grid::GridMap, validate::is_valid};
/// let map = GridMap::from_rows(&["@.", ".@"])?;
/// assert!(!is_valid(&map, &[DVec2::new(1.5, 0.5), DVec2::new(0.5, 1.5)], 0.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn is_valid(map: &GridMap, path: &[DVec2], radius: f64) -> bool {
    validate(map, path, radius).is_ok_and(|r| r.is_valid())
}

/// A radius must be a non-negative number.
pub(crate) fn check_radius(radius: f64) -> Result<()> {
    if radius >= 0.0 && radius.is_finite() {
        Ok(())
    } else {
        Err(Error::param("radius", radius, "a finite number ≥ 0"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn reports_bend_through_pinch_and_turns() {
        let map = GridMap::from_rows(&["@.", ".@"]).unwrap();
        let r = validate(
            &map,
            &[p(1.5, 0.5), p(1.0, 1.0), p(1.0, 1.0), p(0.5, 1.5)],
            0.0,
        )
        .unwrap();
        assert_eq!(
            r.pinch_crossings,
            vec![PinchCrossing {
                vertex: IVec2::ONE,
                index: 2,
                bend: true
            }]
        );
        assert!(r.total_turn.abs() < 1e-12 && !r.is_valid());
        assert_eq!(r.min_clearance, 0.0);
    }

    #[test]
    fn bad_input() {
        let map = GridMap::from_rows(&["..."]).unwrap();
        assert_eq!(validate(&map, &[], 0.0), Err(Error::EmptyPath));
        assert!(validate(&map, &[p(0.5, 0.5)], f64::NAN).is_err());
        assert_eq!(
            validate(&map, &[p(0.5, f64::NAN)], 0.0),
            Err(Error::NonFinite { index: 0 })
        );
        assert!(validate(&map, &[p(0.5, 0.5)], 0.0).unwrap().is_valid());
        assert!(!validate(&map, &[p(5.5, 0.5)], 0.0).unwrap().is_valid());
    }
}
