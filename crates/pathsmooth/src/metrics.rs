//! Path metrics from geometry alone (no map): length, turning and curvature.
//!
//! **What it measures.**
//! - [`length`]: sum of segment lengths.
//! - [`turn_angles`]: per vertex, the angle between the incoming and outgoing directions
//!   ([`turn_angle`], Kahan's formula), in radians, 0 = straight on, π = reversal.
//! - [`curvatures`]: per vertex, the discrete curvature `θ / ((|a−b| + |b−c|)/2)`: the
//!   turn angle spread over half of each adjacent segment (the standard estimate of discrete
//!   differential geometry, the integral of curvature over the vertex's share of the
//!   path). For points sampled evenly on a circle of radius R it tends to 1/R; unlike the
//!   Menger curvature (1/circumradius of three points) it does not vanish at a spike that
//!   doubles back on itself, which is exactly what a smoother's user wants flagged.
//! - [`PathMetrics`]: all of it in one struct, which the CLI prints.
//!
//! **Duplicates.** Consecutive equal points carry no direction, so they are skipped: the
//! turn at a vertex is measured between the nearest distinct neighbours, it is reported at
//! the first of a run of equal points, and the repeats (and both end points) get 0. No
//! value is ever NaN.
//!
//! **Cost.** O(n), in `f64` whatever the point type; [`PathMetrics::of`] allocates nothing.
//!
//! **Source.** Curvature as turning per unit length: e.g. Crane, "Discrete Differential
//! Geometry: An Applied Introduction" (2018), ch. on curves (turning-angle curvature).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::metrics::PathMetrics;
//! let path = [DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(2.0, 2.0)];
//! let m = PathMetrics::of(&path).unwrap();
//! assert_eq!((m.points, m.length), (3, 4.0));
//! assert!((m.max_turn.to_degrees() - 90.0).abs() < 1e-12);
//! assert!((m.max_curvature - std::f64::consts::FRAC_PI_2 / 2.0).abs() < 1e-12);
//! ```

use glam::DVec3;
#[cfg(feature = "serde")]
use serde::Serialize;

use crate::error::Result;
use crate::geometry::{check_magnitude, turn_angle, Point};

/// Length of a polyline (+0 for fewer than two points), accumulated in `f64`.
///
/// ```
/// use glam::Vec3;
/// assert_eq!(pathsmooth::metrics::length(&[Vec3::ZERO, Vec3::Z, Vec3::Z]), 1.0);
/// // A single point (a plan from a point to itself) has length +0, never −0.
/// assert!(pathsmooth::metrics::length(&[Vec3::ONE]).is_sign_positive());
/// ```
pub fn length<P: Point>(path: &[P]) -> f64 {
    // `+ 0.0`: a float sum starts at −0.0, so an empty one is −0.0 and prints as `-0`.
    path.windows(2)
        .map(|w| segment_length(w[0], w[1]))
        .sum::<f64>()
        + 0.0
}

/// Length of the segment `a`–`b`, computed in `f64` whatever the point type (the one
/// definition [`length`], resampling and path variations share).
///
/// ```
/// use glam::Vec2;
/// assert_eq!(pathsmooth::metrics::segment_length(Vec2::ZERO, Vec2::new(3.0, 4.0)), 5.0);
/// ```
#[inline]
pub fn segment_length<P: Point>(a: P, b: P) -> f64 {
    a.to_dvec3().distance(b.to_dvec3())
}

/// One turn: at input index `index`, angle `angle` (radians) between segments of lengths
/// `before` and `after` (both > 0).
struct Turn {
    index: usize,
    angle: f64,
    before: f64,
    after: f64,
}

/// Calls `f` for every vertex that has distinct neighbours on both sides, skipping runs of
/// equal points (see the module docs).
fn for_each_turn<P: Point>(path: &[P], mut f: impl FnMut(Turn)) {
    let pts = path.iter().map(|p| p.to_dvec3());
    // (index, point) of the previous two distinct points.
    let mut prev: Option<(usize, DVec3)> = None;
    let mut cur: Option<(usize, DVec3)> = None;
    for (i, p) in pts.enumerate() {
        match cur {
            Some((_, c)) if c == p => continue,
            _ => {}
        }
        if let (Some((_, a)), Some((j, b))) = (prev, cur)
            && let Some(angle) = turn_angle(a, b, p)
        {
            f(Turn {
                index: j,
                angle,
                before: a.distance(b),
                after: b.distance(p),
            });
        }
        prev = cur;
        cur = Some((i, p));
    }
}

/// Turn angle (radians) at every vertex, into `out` (resized to `path.len()`); see the
/// module docs for ends and duplicates.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::metrics::turn_angles_into;
/// let mut out = Vec::new();
/// turn_angles_into(&[DVec2::ZERO, DVec2::X, DVec2::X, DVec2::ONE], &mut out);
/// assert_eq!(out.len(), 4);
/// assert!((out[1] - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
/// assert_eq!((out[0], out[2], out[3]), (0.0, 0.0, 0.0));
/// ```
pub fn turn_angles_into<P: Point>(path: &[P], out: &mut Vec<f64>) {
    out.clear();
    out.resize(path.len(), 0.0);
    for_each_turn(path, |t| out[t.index] = t.angle);
}

/// Allocating form of [`turn_angles_into`].
///
/// ```
/// use glam::Vec2;
/// let a = pathsmooth::metrics::turn_angles(&[Vec2::ZERO, Vec2::X, Vec2::ZERO]);
/// assert!((a[1] - std::f64::consts::PI).abs() < 1e-6);
/// ```
pub fn turn_angles<P: Point>(path: &[P]) -> Vec<f64> {
    let mut out = Vec::new();
    turn_angles_into(path, &mut out);
    out
}

/// The largest and the total turn angle of a path, in radians (both 0 without a turn):
/// the maximum and the sum of [`turn_angles`], without allocating. The validator reports
/// these.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::metrics::max_and_total_turn;
/// let zig = [DVec2::ZERO, DVec2::X, DVec2::X, DVec2::ONE, DVec2::new(2.0, 1.0)];
/// let (max, total) = max_and_total_turn(&zig);
/// assert!((max - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
/// assert!((total - std::f64::consts::PI).abs() < 1e-12);
/// ```
pub fn max_and_total_turn<P: Point>(path: &[P]) -> (f64, f64) {
    let (mut max, mut total) = (0.0f64, 0.0f64);
    for_each_turn(path, |t| {
        max = max.max(t.angle);
        total += t.angle;
    });
    (max, total)
}

/// Curvature estimate at every vertex (1/length units), into `out` (resized to
/// `path.len()`): the turn angle divided by the mean length of the two adjacent segments.
/// Ends and repeats get 0.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::metrics::curvatures_into;
/// // A regular 1000-gon of radius 5: curvature ≈ 1/5.
/// let ring: Vec<DVec2> = (0..1000)
///     .map(|k| DVec2::from_angle(k as f64 * std::f64::consts::TAU / 1000.0) * 5.0)
///     .collect();
/// let mut out = Vec::new();
/// curvatures_into(&ring, &mut out);
/// assert!((out[500] - 0.2).abs() < 1e-6);
/// ```
pub fn curvatures_into<P: Point>(path: &[P], out: &mut Vec<f64>) {
    out.clear();
    out.resize(path.len(), 0.0);
    for_each_turn(path, |t| out[t.index] = curvature(&t));
}

/// Allocating form of [`curvatures_into`].
///
/// ```
/// use glam::DVec2;
/// let k = pathsmooth::metrics::curvatures(&[DVec2::ZERO, DVec2::X, DVec2::ONE]);
/// assert!((k[1] - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
/// ```
pub fn curvatures<P: Point>(path: &[P]) -> Vec<f64> {
    let mut out = Vec::new();
    curvatures_into(path, &mut out);
    out
}

fn curvature(t: &Turn) -> f64 {
    t.angle / (0.5 * (t.before + t.after))
}

/// Summary metrics of a path, as the CLI prints them.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::metrics::PathMetrics;
/// let m = PathMetrics::of(&[DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0)]).unwrap();
/// assert_eq!((m.max_turn, m.total_turn, m.max_curvature, m.mean_curvature), (0.0, 0.0, 0.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct PathMetrics {
    /// Number of points.
    pub points: usize,
    /// Total length.
    pub length: f64,
    /// Largest turn angle at any vertex, in radians, in [0, π] (the `Display` form prints
    /// degrees).
    pub max_turn: f64,
    /// Sum of the absolute turn angles (total absolute turning), in radians.
    pub total_turn: f64,
    /// Largest per-vertex curvature estimate (see [`curvatures`]), 1/length units.
    pub max_curvature: f64,
    /// Total turning (radians) divided by length: the arc-length mean of the curvature
    /// (0 for a path of zero length).
    pub mean_curvature: f64,
}

impl PathMetrics {
    /// Measures `path`. An empty path measures all zeros; a NaN or infinite coordinate is
    /// [`Error::NonFinite`](crate::Error::NonFinite), one beyond
    /// [`max_coordinate`](crate::geometry::max_coordinate)
    /// [`Error::CoordinateOutOfRange`](crate::Error::CoordinateOutOfRange). Every field is
    /// finite.
    ///
    /// ```
    /// use glam::Vec3;
    /// use pathsmooth::metrics::PathMetrics;
    /// let m = PathMetrics::of(&[Vec3::ZERO, Vec3::X, Vec3::X, Vec3::ZERO]).unwrap();
    /// assert_eq!(m.points, 4);
    /// assert!((m.max_turn - std::f64::consts::PI).abs() < 1e-9); // a reversal, across the repeat
    /// assert!(PathMetrics::of(&[Vec3::NAN]).is_err());
    /// ```
    pub fn of<P: Point>(path: &[P]) -> Result<Self> {
        if path.is_empty() {
            return Ok(Self::default());
        }
        check_magnitude(path)?;
        let length = length(path);
        let (mut max_turn, mut total_turn, mut max_curvature) = (0.0f64, 0.0f64, 0.0f64);
        for_each_turn(path, |t| {
            max_turn = max_turn.max(t.angle);
            total_turn += t.angle;
            max_curvature = max_curvature.max(curvature(&t));
        });
        let mean_curvature = if length > 0.0 && length.is_finite() {
            total_turn / length
        } else {
            0.0
        };
        Ok(Self {
            points: path.len(),
            length,
            max_turn,
            total_turn,
            max_curvature,
            mean_curvature,
        })
    }
}

impl std::fmt::Display for PathMetrics {
    /// One line, e.g. `points 3, length 4.000, max turn 90.0°, total turn 90.0°, max
    /// curvature 0.7854, mean curvature 0.3927`.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::metrics::PathMetrics;
    /// let m = PathMetrics::of(&[DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(2.0, 2.0)]).unwrap();
    /// assert_eq!(
    ///     m.to_string(),
    ///     "points 3, length 4.000, max turn 90.0°, total turn 90.0°, max curvature 0.7854, mean curvature 0.3927"
    /// );
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "points {}, length {:.3}, max turn {:.1}°, total turn {:.1}°, max curvature {:.4}, mean curvature {:.4}",
            self.points,
            self.length,
            self.max_turn.to_degrees(),
            self.total_turn.to_degrees(),
            self.max_curvature,
            self.mean_curvature
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    #[test]
    fn duplicates_are_skipped_not_nan() {
        let a = DVec2::ZERO;
        let b = DVec2::new(1.0, 0.0);
        let c = DVec2::new(1.0, 1.0);
        let p = [a, a, b, b, b, c, c];
        let angles = turn_angles(&p);
        assert_eq!(angles.len(), 7);
        assert!((angles[2] - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert_eq!(angles.iter().filter(|x| **x != 0.0).count(), 1);
        let m = PathMetrics::of(&p).unwrap();
        assert_eq!(m.length, 2.0);
        assert!((m.total_turn.to_degrees() - 90.0).abs() < 1e-12);
        assert!((m.mean_curvature - std::f64::consts::FRAC_PI_4).abs() < 1e-12);
        let all_same = PathMetrics::of(&[c; 5]).unwrap();
        assert_eq!(
            all_same,
            PathMetrics {
                points: 5,
                ..Default::default()
            }
        );
    }

    #[test]
    fn zig_zag_totals() {
        // Four 90° turns alternating left and right: total 360°, max 90°.
        let p: Vec<DVec2> = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2)]
            .iter()
            .map(|&(x, y)| DVec2::new(x as f64, y as f64))
            .collect();
        let m = PathMetrics::of(&p).unwrap();
        assert!((m.total_turn.to_degrees() - 360.0).abs() < 1e-9);
        assert!((m.max_turn.to_degrees() - 90.0).abs() < 1e-12);
        assert_eq!(m.length, 5.0);
    }
}
