//! The funnel algorithm: the shortest path through a channel of portals.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`Funnel`].)

mod circle;
mod point;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use std::f64::consts::PI;

use glam::DVec2;

use circle::{chain_funnel_round, CircleChains, Rounder};
use point::chain_funnel;

use crate::error::{Error, Result};
use crate::geometry::{check_within, max_map_coordinate, radius_in_effect, tolerance_at};
use crate::navmesh::portals::{check_orientation, check_portal_range, Portal};

/// Largest angle, in radians, between consecutive vertices of a rounded corner (π/8).
pub const MAX_ARC_STEP: f64 = PI / 8.0;

/// The funnel path, with a fresh [`Funnel`] (allocating form of [`Funnel::funnel_into`]).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{funnel, Portal};
/// let straight = [Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0))];
/// let p = funnel(&straight, DVec2::ZERO, DVec2::new(2.0, 0.0), 0.0)?;
/// assert_eq!(p, vec![DVec2::ZERO, DVec2::new(2.0, 0.0)]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn funnel(portals: &[Portal], start: DVec2, goal: DVec2, radius: f64) -> Result<Vec<DVec2>> {
    let mut out = Vec::new();
    Funnel::new().funnel_into(portals, start, goal, radius, &mut out)?;
    Ok(out)
}

/// The funnel algorithm: the shortest path through a channel of portals.
///
/// Given the [`Portal`]s a path must cross in order (see [`portals`](fn@crate::navmesh::portals)), a
/// start before the first and a goal after the last, the "simple stupid funnel algorithm"
/// (Mikko Mononen, *Simple Stupid Funnel Algorithm*, Digesting Duck blog, 2010) keeps a
/// funnel — an apex and the left and right rays through the tightest portal ends seen so far
/// — and walks the portals: a portal end that narrows the funnel replaces that side; one that
/// crosses the other side makes the other side's end a corner of the path, which becomes the
/// new apex, and the scan restarts just after it. The corners are portal ends, so the result
/// is the taut string through the channel: for a channel of convex polygons (triangles of a
/// [`NavMesh`](super::mesh::NavMesh)) holding `start` in the first and `goal` in the last,
/// it is the Euclidean shortest path inside the channel.
///
/// For a point agent (`r = 0`) pathsmooth runs the same funnel with its two sides kept as
/// whole concave chains (as in Lee & Preparata's shortest paths in simple polygons, 1984)
/// instead of single rays: a crossing pops the other chain from the apex rather than
/// re-scanning portals, so the cost is O(n) in the worst case as well, and the chains live in
/// the output buffer. Mononen's tie rules are kept; the unit tests check it against his
/// restart-and-rescan version.
///
/// **Agent radius** `r > 0`. Every portal end becomes a circle of radius `r` that the path
/// must keep on its side (left ends on its left, right ends on its right) — equivalently,
/// each portal is shortened by `r` at both ends and the corners are offset by `r`. The same
/// two-chain funnel then runs over circles instead of points (the modified funnel of Demyen
/// & Buro, *Efficient Triangulation-Based Pathfinding*, AAAI 2006): the funnel's sides are the
/// tangents from the apex circle to the side circles, compared by direction; the goal, a
/// circle of radius 0, is instead tested by whether the tangent segment to it keeps the side
/// circle clear (the side only matters when the segment passes the circle; a goal reached
/// before it needs only the distance). Seen from a nearby apex the two circles of one
/// portal can cross; the corner is then the one whose tangent segment does not cut into
/// the other. Each wrapped corner is then rounded: consecutive circles (and the start and
/// goal) are joined by their common tangent, and the arc between a circle's two tangent
/// points is written as a polyline *circumscribed* about the circle (vertices at
/// `r / cos(δ/2)`, at most [`MAX_ARC_STEP`] apart in angle), so every output segment lies on
/// a tangent line and never cuts into a circle.
///
/// **Tolerance.** Following the library's tolerance contract (see
/// [`World::tolerance`](crate::World::tolerance)), the circles are built a hair outside `r`
/// (64 units in the last place of the largest coordinate), so clearances measured on the
/// rounded output are still at least `r`; circles that touch within rounding (a passage
/// exactly `2r` wide) still have their common tangent through the contact point.
///
/// The goal is the one end tested by distance, and a goal short of a portal end may pass
/// close to an end the chains let go for that one (ends in a line on one side, as on a
/// grid's walls): the last leg is then checked against the portal ends after the last
/// corner, and any it cuts becomes a corner.
///
/// Guarantees with a radius: every output segment keeps distance ≥ `r` from every portal
/// end (the corners it may wrap); [`Error::ChannelTooNarrow`] names the first portal
/// narrower than `2r` and any portal whose circle overlaps the apex circle across the path
/// or holds the start or goal.
/// Portals do not say which other edges of a triangle are walls, so the room *inside* each
/// triangle is not checked here: [`NavMeshQuery`](super::NavMeshQuery) only picks channels
/// whose triangles have room (Demyen & Buro's widths against real walls), and map-aware
/// callers (the navmesh world's path finder, the pipeline's funnel step) check
/// the result against the world. The start and goal must themselves keep clearance `r`.
/// With `r = 0` the point funnel runs and the path is exact.
///
/// Cost: O(n) for n portals, for any radius: each portal end enters and leaves a chain at
/// most once (with a radius, each test computes two tangents, and the output adds the arc
/// points). No allocation once `out` has grown (`4(n + 2)` points for `r = 0`) and, with a
/// radius, once the [`Funnel`]'s chains have ([`funnel`] uses a fresh one).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::funnel;
/// use pathsmooth::navmesh::Portal;
/// // A channel bending around the corner (1, 1): travel +x, then +y.
/// let portals = [
///     Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, 0.0)),
///     Portal::new(DVec2::new(1.0, 1.0), DVec2::new(2.0, 1.0)),
/// ];
/// let path = funnel(&portals, DVec2::new(0.0, 0.5), DVec2::new(1.5, 3.0), 0.0)?;
/// assert_eq!(path, vec![DVec2::new(0.0, 0.5), DVec2::new(1.0, 1.0), DVec2::new(1.5, 3.0)]);
/// // With a radius the corner is rounded and kept at distance 0.25.
/// let round = funnel(&portals, DVec2::new(0.0, 0.5), DVec2::new(1.5, 3.0), 0.25)?;
/// assert!(round.iter().all(|p| p.distance(DVec2::new(1.0, 1.0)) >= 0.25 - 1e-12));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// The funnel with its scratch: the circle chains of the rounded funnel live here, so a
/// funnel reused across calls allocates nothing once they have grown (the point funnel
/// works inside `out`). [`NavMeshQuery`](super::NavMeshQuery) owns one.
#[derive(Debug, Default, Clone)]
pub struct Funnel {
    chains: CircleChains,
}

impl Funnel {
    /// A funnel with empty scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes the funnel path from `start` through `portals` to `goal` into `out` (cleared
    /// first), for an agent of `radius` (0 for a point); see [`Funnel`]. Allocates nothing
    /// once `out` and the funnel's chains have grown. A radius below the library's
    /// tolerance at these coordinates (10⁻⁹ of the largest, and at least 10⁻⁹) is a point
    /// agent, as on every [world](crate::world#tolerance).
    ///
    /// Errors: [`Error::NonFinite`] (index 0 is `start`, `1..=n` the portals, `n + 1` the
    /// goal), [`Error::BadParameter`] for a negative or non-finite radius,
    /// [`Error::CoordinateOutOfRange`] for a coordinate beyond [`max_map_coordinate`] (as
    /// every map-aware input; within it differences and tangent lengths cannot overflow),
    /// [`Error::ChannelTooNarrow`] naming the portal where the radius does not fit.
    /// Consecutive duplicate points never appear in the output.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::{Funnel, Portal};
    /// use pathsmooth::Error;
    /// let gap = [Portal::new(DVec2::new(1.0, 0.5), DVec2::new(1.0, -0.5))];
    /// let (mut funnel, mut out) = (Funnel::new(), Vec::new());
    /// funnel.funnel_into(&gap, DVec2::new(0.0, 3.0), DVec2::new(2.0, 3.0), 0.0, &mut out)?;
    /// assert_eq!(out[1], DVec2::new(1.0, 0.5)); // bends on the gap's left end
    /// let err = funnel.funnel_into(&gap, DVec2::ZERO, DVec2::X * 2.0, 0.75, &mut out);
    /// let err = err.unwrap_err();
    /// assert!(matches!(err, Error::ChannelTooNarrow { index: 0, .. }));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn funnel_into(
        &mut self,
        portals: &[Portal],
        start: DVec2,
        goal: DVec2,
        radius: f64,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        // A radius below the tolerance at these coordinates is a point agent, as on every
        // world (the world contract); then the tolerance contract: build the circles a
        // hair outside r, so that clearances measured on the rounded output are still at
        // least r.
        let magnitude = magnitude(portals, start, goal);
        let radius = radius_in_effect(radius, tolerance_at(magnitude));
        let build = build_radius(magnitude, radius);
        self.round_into(portals, start, goal, radius, build, out)
    }

    /// The rounded funnel for an agent of `radius` with its circles built at radius `r`
    /// (`funnel_into` passes a hair more than `radius`; a planner that meets a passage exactly
    /// `2·radius` wide — where every tangent touches circles on both sides and the order of the
    /// corners is decided by rounding — retries with circles of `radius` itself).
    /// Errors name `radius`.
    pub(crate) fn round_into(
        &mut self,
        portals: &[Portal],
        start: DVec2,
        goal: DVec2,
        radius: f64,
        r: f64,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        out.clear();
        check_input(portals, start, goal, radius)?;
        if radius == 0.0 {
            chain_funnel(portals, start, goal, out);
            return Ok(());
        }
        check_width(portals, r.min(radius))?;
        let mut round = Rounder::new(start, r, out);
        chain_funnel_round(&mut self.chains, portals, start, goal, r, &mut |c| {
            round.corner(c, portals)
        })
        .and_then(|goal_short| round.finish(goal, portals, goal_short))
        .map_err(|e| match e {
            Error::ChannelTooNarrow {
                index, x, y, width, ..
            } => Error::ChannelTooNarrow {
                index,
                x,
                y,
                width,
                radius,
            },
            e => e,
        })
    }
}

/// The largest magnitude of a coordinate of `start`, `goal` and the portal ends (NaN ones
/// passed over; 0 when every one is NaN).
fn magnitude(portals: &[Portal], start: DVec2, goal: DVec2) -> f64 {
    portals
        .iter()
        .flat_map(|p| [p.left, p.right])
        .chain([start, goal])
        .fold(0.0, |m: f64, p| m.max(p.abs().max_element()))
}

/// The radius the rounded funnel builds with: `r` plus 64 units in the last place of the
/// largest magnitude involved (`magnitude`, the [`magnitude`] of the funnel's points, or
/// `r` or 1 when larger; about 1.4·10⁻¹⁴ of it), which covers the rounding of the tangent
/// points and of any later distance computation, and stays far below the validator's
/// tolerance of 10⁻⁹ of the same magnitude.
pub(crate) fn build_radius(magnitude: f64, r: f64) -> f64 {
    r + 64.0 * f64::EPSILON * magnitude.max(r.max(1.0))
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
    // The map-aware limit, numbered as above: start 0, portal k as k + 1, goal n + 1.
    let limit = max_map_coordinate::<f64>();
    check_within(&[start], limit)?;
    check_portal_range(portals)?;
    check_within(&[goal], limit).map_err(|e| match e {
        Error::CoordinateOutOfRange { value, limit, .. } => Error::CoordinateOutOfRange {
            index: Some(portals.len() + 1),
            value,
            limit,
        },
        e => e,
    })?;
    check_orientation(portals, start)
}

fn too_narrow(portals: &[Portal], index: usize, radius: f64) -> Error {
    // Every caller passes a portal index; without portals (unreachable: a tangent between
    // two distinct points always exists) say what is wrong rather than index out of bounds.
    let Some(p) = portals.get(index) else {
        return Error::param("radius", radius, "an agent radius the channel can fit");
    };
    let m = p.midpoint();
    Error::ChannelTooNarrow {
        index,
        x: m.x,
        y: m.y,
        width: p.width(),
        radius,
    }
}

/// Rejects portals narrower than `2r`. Portals alone do not say which other edges are
/// walls (the third edge of a strip triangle is usually an open edge to another free
/// triangle), so the room inside each triangle is the search's business:
/// [`NavMeshQuery`](super::NavMeshQuery) only picks channels whose triangles are wide enough
/// (Demyen & Buro's widths against real walls).
fn check_width(portals: &[Portal], radius: f64) -> Result<()> {
    let need = 2.0 * radius;
    match portals.iter().position(|p| p.width() < need) {
        Some(i) => Err(too_narrow(portals, i, radius)),
        None => Ok(()),
    }
}

#[inline]
fn push_distinct(out: &mut Vec<DVec2>, p: DVec2) {
    if out.last() != Some(&p) {
        out.push(p);
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}
