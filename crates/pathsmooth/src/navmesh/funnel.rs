//! The funnel algorithm: the shortest path through a corridor of portals.
//!
//! Given the [`Portal`]s a path must cross in order (see [`portals`](super::portals)), a
//! start before the first and a goal after the last, the "simple stupid funnel algorithm"
//! (Mikko Mononen, *Simple Stupid Funnel Algorithm*, Digesting Duck blog, 2010) keeps a
//! funnel — an apex and the left and right rays through the tightest portal ends seen so far
//! — and walks the portals: a portal end that narrows the funnel replaces that side; one that
//! crosses the other side makes the other side's end a corner of the path, which becomes the
//! new apex, and the scan restarts just after it. The corners are portal ends, so the result
//! is the taut string through the corridor: for a corridor of convex polygons (triangles of a
//! [`NavMesh`](super::mesh::NavMesh)) holding `start` in the first and `goal` in the last,
//! it is the Euclidean shortest path inside the corridor.
//!
//! **Agent radius** `r > 0`. First every portal is shortened by `r` at both ends, so the
//! funnel runs through points at least `r` from the corridor's corners along each portal,
//! and gives the sequence of corners the path wraps and on which side. Then the corners are
//! rounded: each wrapped corner `c` becomes a circle of radius `r`; consecutive circles (and
//! the start and goal, as circles of radius 0) are joined by their common tangent with each
//! circle on its side, and the arc between a circle's two tangent points is written as a
//! polyline *circumscribed* about the circle (vertices at `r / cos(δ/2)`, at most
//! [`MAX_ARC_STEP`] apart in angle), so every output segment lies on a tangent line.
//!
//! Guarantees with a radius: every output point keeps distance ≥ `r` from every corner the
//! path wraps (segments lie on tangent lines of their circles); [`Error::CorridorTooNarrow`]
//! names the first portal narrower than `2r`, and — for triangle strips, where consecutive
//! portals share an end `c` and the third side of the triangle is a wall — the first
//! triangle where `c` is closer than `2r` to that wall (no path can keep clearance `r` there).
//! On corridors that pass these checks the tests find clearance ≥ `r` from every corridor
//! wall; it is not proven for every corridor shape (a wall that never appears as a wrapped
//! corner can in principle come closer), so map-aware callers should still validate. The
//! start and goal must themselves keep clearance `r`; a wrapped corner closer than `r` to
//! either is reported as too narrow too.
//!
//! Cost: O(n) for n portals on typical corridors (the restart re-scans only portals after the
//! new apex; Mononen notes the same), one pass more for the radius checks; no allocation
//! beyond the output with [`funnel_into`]. About 5–10 ns per portal with radius 0 (see
//! `benches/navmesh.rs`).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::navmesh::funnel::funnel;
//! use pathsmooth::navmesh::portals::Portal;
//! // A corridor bending around the corner (1, 1): travel +x, then +y.
//! let portals = [
//!     Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, 0.0)),
//!     Portal::new(DVec2::new(1.0, 1.0), DVec2::new(2.0, 1.0)),
//! ];
//! let path = funnel(&portals, DVec2::new(0.0, 0.5), DVec2::new(1.5, 3.0), 0.0)?;
//! assert_eq!(path, vec![DVec2::new(0.0, 0.5), DVec2::new(1.0, 1.0), DVec2::new(1.5, 3.0)]);
//! // With a radius the corner is rounded and kept at distance 0.25.
//! let round = funnel(&portals, DVec2::new(0.0, 0.5), DVec2::new(1.5, 3.0), 0.25)?;
//! assert!(round.iter().all(|p| p.distance(DVec2::new(1.0, 1.0)) >= 0.25 - 1e-12));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use std::f64::consts::{PI, TAU};

use glam::DVec2;

use crate::error::{Error, Result};
use crate::geometry::cross;
use crate::navmesh::portals::Portal;

/// Largest angle, in radians, between consecutive vertices of a rounded corner (π/8).
pub const MAX_ARC_STEP: f64 = PI / 8.0;

/// The funnel path (allocating form of [`funnel_into`]).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{funnel::funnel, portals::Portal};
/// let straight = [Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0))];
/// let p = funnel(&straight, DVec2::ZERO, DVec2::new(2.0, 0.0), 0.0)?;
/// assert_eq!(p, vec![DVec2::ZERO, DVec2::new(2.0, 0.0)]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn funnel(portals: &[Portal], start: DVec2, goal: DVec2, radius: f64) -> Result<Vec<DVec2>> {
    let mut out = Vec::new();
    funnel_into(portals, start, goal, radius, &mut out)?;
    Ok(out)
}

/// Writes the funnel path from `start` through `portals` to `goal` into `out` (cleared
/// first), for an agent of `radius` (0 for a point). See the [module docs](self).
///
/// Errors: [`Error::NonFinite`] (index 0 is `start`, `1..=n` the portals, `n + 1` the goal),
/// [`Error::BadParameter`] for a negative or non-finite radius,
/// [`Error::CorridorTooNarrow`] naming the portal where the radius does not fit.
/// Consecutive duplicate points never appear in the output.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{funnel::funnel_into, portals::Portal};
/// use pathsmooth::Error;
/// let gap = [Portal::new(DVec2::new(1.0, 0.5), DVec2::new(1.0, -0.5))];
/// let mut out = Vec::new();
/// funnel_into(&gap, DVec2::new(0.0, 3.0), DVec2::new(2.0, 3.0), 0.0, &mut out)?;
/// assert_eq!(out[1], DVec2::new(1.0, 0.5)); // bends on the gap's left end
/// let err = funnel_into(&gap, DVec2::ZERO, DVec2::X * 2.0, 0.75, &mut out).unwrap_err();
/// assert!(matches!(err, Error::CorridorTooNarrow { index: 0, .. }));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn funnel_into(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    radius: f64,
    out: &mut Vec<DVec2>,
) -> Result<()> {
    out.clear();
    check_input(portals, start, goal, radius)?;
    if radius == 0.0 {
        let mut push = |p: DVec2, _: usize, _: Side| {
            push_distinct(out, p);
            Ok(())
        };
        push(start, 0, Side::Left)?;
        string_pull(portals, start, goal, |p| *p, &mut push)?;
        return push(goal, portals.len() + 1, Side::Left);
    }
    check_width(portals, radius)?;
    let mut round = Rounder::new(start, radius, out);
    let shrink = |p: &Portal| shrink_portal(p, radius);
    string_pull(portals, start, goal, shrink, &mut |_, k, side| {
        let Some(p) = k.checked_sub(1).and_then(|i| portals.get(i)) else {
            return Ok(()); // start or goal: not a corner
        };
        let corner = match side {
            Side::Left => p.left,
            Side::Right => p.right,
        };
        round.corner(corner, side, k - 1, portals)
    })?;
    round.finish(goal, portals)
}

/// Which side of the path a wrapped corner is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

fn check_input(portals: &[Portal], start: DVec2, goal: DVec2, radius: f64) -> Result<()> {
    if !start.is_finite() {
        return Err(Error::NonFinite { index: 0 });
    }
    if let Some(i) = portals
        .iter()
        .position(|p| !(p.left.is_finite() && p.right.is_finite()))
    {
        return Err(Error::NonFinite { index: i + 1 });
    }
    if !goal.is_finite() {
        return Err(Error::NonFinite {
            index: portals.len() + 1,
        });
    }
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(Error::param("radius", radius, "a finite number ≥ 0"));
    }
    Ok(())
}

fn too_narrow(portals: &[Portal], index: usize, radius: f64) -> Error {
    let p = &portals[index];
    let m = p.midpoint();
    Error::CorridorTooNarrow {
        index,
        x: m.x,
        y: m.y,
        width: p.width(),
        radius,
    }
}

/// Rejects portals narrower than `2r`, and triangle-strip triangles whose shared corner is
/// closer than `2r` to the opposite (wall) side.
fn check_width(portals: &[Portal], radius: f64) -> Result<()> {
    let need = 2.0 * radius;
    for (i, p) in portals.iter().enumerate() {
        if p.width() < need {
            return Err(too_narrow(portals, i, radius));
        }
    }
    for (i, w) in portals.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let apex_and_wall = if a.left == b.left && a.right != b.right {
            Some((a.left, a.right, b.right))
        } else if a.right == b.right && a.left != b.left {
            Some((a.right, a.left, b.left))
        } else {
            None
        };
        if let Some((c, u, v)) = apex_and_wall {
            let (q, _) = crate::geometry::closest_on_segment(c, u, v);
            if c.distance(q) < need {
                return Err(too_narrow(portals, i + 1, radius));
            }
        }
    }
    Ok(())
}

/// The portal shortened by `r` at both ends (the caller has checked its width ≥ 2r).
#[inline]
fn shrink_portal(p: &Portal, r: f64) -> Portal {
    let d = p.left - p.right;
    let len = d.length();
    if len == 0.0 {
        return *p;
    }
    let step = d * (r / len);
    Portal {
        left: p.left - step,
        right: p.right + step,
    }
}

#[inline]
fn push_distinct(out: &mut Vec<DVec2>, p: DVec2) {
    if out.last() != Some(&p) {
        out.push(p);
    }
}

/// Mononen's simple stupid funnel. `portal` maps each input portal to the one the funnel
/// uses (identity or shortened); `emit(point, k, side)` receives each path corner with the
/// 1-based portal index `k` whose `side` end it is. Start and goal are not emitted.
///
/// Orientation: `left` is counter-clockwise, so a portal end `q` narrows the right ray when
/// `cross(right − apex, q − apex) ≥ 0` and the left ray when `cross(left − apex, q − apex) ≤ 0`.
#[inline]
fn string_pull(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    portal: impl Fn(&Portal) -> Portal,
    emit: &mut impl FnMut(DVec2, usize, Side) -> Result<()>,
) -> Result<()> {
    let n = portals.len();
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_i, mut right_i) = (0usize, 0usize);
    // Index 0 is the start, 1..=n the portals, n + 1 the goal (a portal of zero width).
    let mut i = 1;
    while i <= n + 1 {
        let p = if i <= n {
            portal(&portals[i - 1])
        } else {
            Portal::new(goal, goal)
        };
        // Right side.
        if cross(right - apex, p.right - apex) >= 0.0 {
            if apex == right || cross(left - apex, p.right - apex) < 0.0 {
                right = p.right;
                right_i = i;
            } else {
                // The right ray crossed the left one: the left end is a corner.
                if left != apex {
                    emit(left, left_i, Side::Left)?;
                }
                apex = left;
                let k = left_i;
                (left, right, right_i) = (apex, apex, k);
                i = k + 1;
                continue;
            }
        }
        // Left side.
        if cross(left - apex, p.left - apex) <= 0.0 {
            if apex == left || cross(right - apex, p.left - apex) > 0.0 {
                left = p.left;
                left_i = i;
            } else {
                if right != apex {
                    emit(right, right_i, Side::Right)?;
                }
                apex = right;
                let k = right_i;
                (left, right, left_i) = (apex, apex, k);
                i = k + 1;
                continue;
            }
        }
        i += 1;
    }
    Ok(())
}

/// Turns the corner sequence of the shortened-portal funnel into tangent segments and
/// circumscribed arcs of radius `r` (see the module docs).
struct Rounder<'a> {
    out: &'a mut Vec<DVec2>,
    r: f64,
    /// The previous circle: centre, signed radius (+r: centre left of the path, −r: right,
    /// 0: the start point) and its portal index.
    prev: (DVec2, f64, usize),
    /// Where the path arrived on the previous circle.
    arrived: DVec2,
}

impl<'a> Rounder<'a> {
    fn new(start: DVec2, r: f64, out: &'a mut Vec<DVec2>) -> Self {
        out.push(start);
        Rounder {
            out,
            r,
            prev: (start, 0.0, 0),
            arrived: start,
        }
    }

    fn corner(&mut self, c: DVec2, side: Side, index: usize, portals: &[Portal]) -> Result<()> {
        let rho = match side {
            Side::Left => self.r,
            Side::Right => -self.r,
        };
        if c == self.prev.0 && rho == self.prev.1 {
            return Ok(()); // the same corner seen through another portal
        }
        self.step_to(c, rho, index, portals)?;
        self.prev = (c, rho, index);
        Ok(())
    }

    fn finish(mut self, goal: DVec2, portals: &[Portal]) -> Result<()> {
        self.step_to(goal, 0.0, self.prev.2, portals)?;
        push_distinct(self.out, goal);
        Ok(())
    }

    /// Leaves the previous circle along the tangent to circle (c, rho): writes the arc
    /// on the previous circle, its departure point and the arrival point on the new one.
    fn step_to(&mut self, c: DVec2, rho: f64, index: usize, portals: &[Portal]) -> Result<()> {
        let (c0, rho0, i0) = self.prev;
        let Some((depart, arrive)) = tangent(c0, rho0, c, rho) else {
            return Err(too_narrow(
                portals,
                if rho == 0.0 { i0 } else { index },
                self.r,
            ));
        };
        if rho0 != 0.0 {
            self.arc(c0, rho0, self.arrived, depart);
            push_distinct(self.out, depart);
        }
        push_distinct(self.out, arrive);
        self.arrived = arrive;
        Ok(())
    }

    /// The circumscribed polyline around circle (c, |rho|) from `from` to `to`,
    /// counter-clockwise for rho > 0, clockwise for rho < 0 (endpoints not written).
    fn arc(&mut self, c: DVec2, rho: f64, from: DVec2, to: DVec2) {
        let a0 = (from - c).to_angle();
        let a1 = (to - c).to_angle();
        let sign = rho.signum();
        let sweep = (sign * (a1 - a0)).rem_euclid(TAU);
        // A wrapped corner turns the path by less than π; a sweep near 2π is round-off
        // of a tangent that only grazes the circle.
        if !(1e-12..=PI).contains(&sweep) {
            return;
        }
        let k = (sweep / MAX_ARC_STEP).ceil().max(1.0);
        let delta = sweep / k;
        let reach = rho.abs() / (delta * 0.5).cos();
        for j in 0..k as usize {
            let a = a0 + sign * (j as f64 + 0.5) * delta;
            push_distinct(self.out, c + DVec2::from_angle(a) * reach);
        }
    }
}

/// The common tangent from circle (c1, ρ1) to circle (c2, ρ2), each with its signed radius:
/// the path point on circle i is `ci + ρi·rp(v)` where `v` is the travel direction and `rp`
/// turns a vector clockwise by 90°. `None` when no such tangent exists (the circles overlap
/// across the path, or a point lies inside a circle).
fn tangent(c1: DVec2, rho1: f64, c2: DVec2, rho2: f64) -> Option<(DVec2, DVec2)> {
    let d = c2 - c1;
    let len = d.length();
    let s = (rho1 - rho2) / len;
    if !(len > 0.0 && s.abs() <= 1.0) {
        return None;
    }
    let u = d / len;
    // v = u rotated by θ with sin θ = s (counter-clockwise positive).
    let co = (1.0 - s * s).sqrt();
    let v = DVec2::new(u.x * co - u.y * s, u.x * s + u.y * co);
    let rp = DVec2::new(v.y, -v.x);
    Some((c1 + rp * rho1, c2 + rp * rho2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goal_before_any_turn_is_a_straight_line() {
        let p = funnel(&[], DVec2::ZERO, DVec2::ONE, 0.0).unwrap();
        assert_eq!(p, vec![DVec2::ZERO, DVec2::ONE]);
        let same = funnel(&[], DVec2::ONE, DVec2::ONE, 0.0).unwrap();
        assert_eq!(same, vec![DVec2::ONE]);
    }

    #[test]
    fn tangent_between_opposite_circles_touches_both() {
        let (a, b) = tangent(DVec2::ZERO, 1.0, DVec2::new(4.0, 0.0), -1.0).unwrap();
        assert!((a.length() - 1.0).abs() < 1e-12);
        assert!((b.distance(DVec2::new(4.0, 0.0)) - 1.0).abs() < 1e-12);
        // The segment is perpendicular to both radii.
        assert!((b - a).dot(a).abs() < 1e-12);
        assert!(tangent(DVec2::ZERO, 1.0, DVec2::new(1.5, 0.0), -1.0).is_none());
    }

    #[test]
    fn bad_radius_and_nan_are_errors() {
        let p = [Portal::new(DVec2::Y, -DVec2::Y)];
        assert!(matches!(
            funnel(&p, DVec2::ZERO, DVec2::X, -1.0),
            Err(Error::BadParameter { .. })
        ));
        assert_eq!(
            funnel(&p, DVec2::ZERO, DVec2::NAN, 0.0),
            Err(Error::NonFinite { index: 2 })
        );
    }
}
