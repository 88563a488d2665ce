//! Portal relaxation: slide each path node along the portal it crosses.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`RelaxParams`].)

use glam::DVec2;

use crate::error::{Error, Result};
use crate::geometry::{check_within, cross, max_map_coordinate};
use crate::navmesh::portals::{check_portal_range, Portal};

/// Portal relaxation: slide each path node along the portal it crosses.
///
/// The method of the navmesh blog post "Grandpa, tell us another story about pathfinding":
/// the path has one node on each portal of its channel, between
/// the start and the goal. Sweeping from the start, each node is moved along its portal to
/// the point that makes the path through it shortest given its two neighbours — where the
/// segment from the previous node to the next one crosses the portal ("the line to the node
/// after next"; when both neighbours are on the same side of the portal, the crossing of the
/// segment to the mirror image of the next node, which is the same minimiser) — clamped to
/// stay `margin` away from the portal's ends ("shift it a bit back from the very corner").
/// Sweeps repeat until no node moves more than `tolerance` or `max_passes` sweeps are done.
///
/// Guarantees:
/// - **Never leaves the channel.** Each node stays on its portal, and consecutive nodes lie on
///   two portals of one convex polygon (a navmesh triangle), so each segment stays inside that
///   polygon; the start must be in the first polygon and the goal in the last.
/// - **Never makes the path longer.** A move changes only the two segments at the node, and
///   it is kept only if their summed length does not grow (the clamped minimiser of the convex
///   function `|a − x| + |x − b|` on the allowed interval never increases it while the node
///   is inside that interval; the check also guards round-off and the first move of a node
///   that starts outside the margins).
///
/// **With an agent radius** `r` (the pipeline's `Step::Relax`): the free functions here know
/// only the portals, not the walls, so they give no clearance guarantee beyond `margin`
/// from the portal ends. The pipeline's relax step makes the result keep `r`: it relaxes
/// through the channel with room for the agent (every portal at least `2r` wide, as the
/// funnel at `r` uses), with margin `r + margin` from the portal ends (the article's corner
/// margin on top of the radius; at `r = 0` exactly today's `margin`); then each stretch
/// that still comes within `r` of a wall on the world — a segment between two nodes that
/// cuts the circle of radius `r` round the corner both of their portals end at, or a node
/// near a wall edge that meets its portal's end at an acute angle — is replaced, between
/// the nearest nodes that keep `r`, by the funnel at `r` through those portals (or, where
/// that is not clear on the world either, by the world's own path at `r` between the two
/// nodes). The step's result is then valid at `r` and the pipeline does not skip it. On
/// every Moving AI map at `r = 0.3` (every 10th scenario, `tests/relax_radius.rs`) no relax
/// step is skipped and the median length is 0.04 % above the funnel's at `r` (A*'s: 7.6 %).
///
/// Parameters ([`RelaxParams`]): `margin` (distance kept from portal ends, clamped to half
/// the portal width; larger values stay farther from walls but leave the path longer),
/// `tolerance` (stop when the largest move of a sweep is below it) and `max_passes`.
/// Cost: O(n) per sweep for n portals, no allocation with [`relax_in_place`] and
/// [`relax_into`]. Unlike the funnel the result is not the shortest path, but it bends over
/// several nodes near corners rather than on a corner, and it keeps the margin.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::Portal;
/// use pathsmooth::navmesh::{relax, RelaxParams};
/// let portals = [
///     Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0)),
///     Portal::new(DVec2::new(2.0, 1.0), DVec2::new(2.0, -1.0)),
/// ];
/// let path = relax(&portals, DVec2::new(0.0, 0.9), DVec2::new(3.0, -0.9), &RelaxParams::default())?;
/// assert_eq!(path.len(), 4);
/// // The nodes end on the straight line from start to goal.
/// assert!((path[1].y - 0.3).abs() < 1e-6 && (path[2].y + 0.3).abs() < 1e-6);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// Parameters of [`relax`] (see above).
///
/// ```
/// let o = pathsmooth::navmesh::RelaxParams::default();
/// assert_eq!((o.margin, o.tolerance, o.max_passes), (0.01, 1e-6, 64));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RelaxParams {
    /// Distance kept from each portal end (the article's 0.01), in world units.
    pub margin: f64,
    /// Stop when no node moves farther than this in a sweep.
    pub tolerance: f64,
    /// Most sweeps to run.
    pub max_passes: usize,
}

impl RelaxParams {
    /// Checks the parameters: `margin` and `tolerance` finite and ≥ 0
    /// ([`Error::BadParameter`] naming the one that is not).
    ///
    /// ```
    /// use pathsmooth::navmesh::RelaxParams;
    /// assert!(RelaxParams { margin: f64::NAN, ..Default::default() }.validate().is_err());
    /// assert!(RelaxParams::default().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [("margin", self.margin), ("tolerance", self.tolerance)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::param(name, v, "a finite number ≥ 0"));
            }
        }
        Ok(())
    }
}

impl Default for RelaxParams {
    fn default() -> Self {
        RelaxParams {
            margin: 0.01,
            tolerance: 1e-6,
            max_passes: 64,
        }
    }
}

/// Relaxes starting from the portal midpoints and returns `start`, one point per portal and
/// `goal` (allocating form of [`relax_into`]).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{Portal, relax, RelaxParams};
/// // A gap whose upper end is at y = 1: the margin keeps the node 0.1 below it.
/// let gap = [Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0))];
/// let params = RelaxParams { margin: 0.1, ..RelaxParams::default() };
/// let path = relax(&gap, DVec2::new(0.0, 3.0), DVec2::new(2.0, 3.0), &params)?;
/// assert!((path[1] - DVec2::new(1.0, 0.9)).length() < 1e-12);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn relax(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    params: &RelaxParams,
) -> Result<Vec<DVec2>> {
    let mut out = Vec::with_capacity(portals.len() + 2);
    relax_into(portals, start, goal, params, &mut out)?;
    Ok(out)
}

/// Writes `start`, the relaxed point of each portal, and `goal` into `out` (cleared first),
/// starting from the portal midpoints; returns the number of sweeps run.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{Portal, relax_into, RelaxParams};
/// let wide = [Portal::new(DVec2::new(1.0, 5.0), DVec2::new(1.0, -5.0))];
/// let mut out = Vec::new();
/// let sweeps = relax_into(&wide, DVec2::new(0.0, 2.0), DVec2::new(2.0, 2.0), &RelaxParams::default(), &mut out)?;
/// assert_eq!(out[1], DVec2::new(1.0, 2.0));
/// assert!(sweeps >= 1);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn relax_into(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    params: &RelaxParams,
    out: &mut Vec<DVec2>,
) -> Result<usize> {
    out.clear();
    out.push(start);
    out.extend(portals.iter().map(Portal::midpoint));
    out.push(goal);
    relax_in_place(portals, out, params)
}

/// Relaxes an existing path in place: `path[0]` is the start, `path[k]` (k = 1..=n) must lie
/// on portal `k − 1` and `path[n + 1]` is the goal; returns the number of sweeps run.
///
/// Errors: [`Error::TooFewPoints`] when `path.len() != portals.len() + 2` (`needed` is the
/// required length), [`Error::NonFinite`] for a bad point (indices as in `path`; portal
/// `k − 1` reports index `k`), [`Error::CoordinateOutOfRange`] for a coordinate beyond
/// [`max_map_coordinate`] (numbered the same way),
/// [`Error::BadParameter`] for negative or non-finite options.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{Portal, relax_in_place, RelaxParams};
/// let p = [Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0))];
/// let mut path = vec![DVec2::ZERO, DVec2::new(1.0, 0.9), DVec2::new(2.0, 0.0)];
/// relax_in_place(&p, &mut path, &RelaxParams::default())?;
/// assert_eq!(path[1], DVec2::new(1.0, 0.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn relax_in_place(
    portals: &[Portal],
    path: &mut [DVec2],
    params: &RelaxParams,
) -> Result<usize> {
    check(portals, path, params)?;
    let mut sweeps = 0;
    while sweeps < params.max_passes {
        sweeps += 1;
        let mut biggest: f64 = 0.0;
        for (k, portal) in portals.iter().enumerate() {
            let (a, cur, b) = (path[k], path[k + 1], path[k + 2]);
            let x = best_point(portal, a, b, params.margin);
            let before = a.distance(cur) + cur.distance(b);
            let after = a.distance(x) + x.distance(b);
            if after <= before {
                biggest = biggest.max(x.distance(cur));
                path[k + 1] = x;
            }
        }
        if biggest <= params.tolerance {
            break;
        }
    }
    Ok(sweeps)
}

fn check(portals: &[Portal], path: &[DVec2], params: &RelaxParams) -> Result<()> {
    let needed = portals.len() + 2;
    if path.len() != needed {
        return Err(Error::TooFewPoints {
            method: "portal relaxation (one point per portal plus start and goal)",
            needed,
            got: path.len(),
        });
    }
    if let Some(index) = path.iter().position(|p| !p.is_finite()) {
        return Err(Error::NonFinite { index });
    }
    if let Some(i) = portals
        .iter()
        .position(|p| !(p.left.is_finite() && p.right.is_finite()))
    {
        return Err(Error::NonFinite { index: i + 1 });
    }
    // The portals first: `relax_into` starts its nodes at their midpoints.
    check_portal_range(portals)?;
    check_within(path, max_map_coordinate::<f64>())?;
    params.validate()
}

/// The point of `portal`, at least `margin` from its ends (or its midpoint if it is
/// narrower than `2·margin`), minimising `|a − x| + |x − b|`.
fn best_point(portal: &Portal, a: DVec2, b: DVec2, margin: f64) -> DVec2 {
    let (r, e) = (portal.right, portal.left - portal.right);
    let len2 = e.length_squared();
    if len2 == 0.0 {
        return r;
    }
    let t_min = (margin / len2.sqrt()).min(0.5);
    // Mirror b across the portal line when both neighbours are on one side: the shortest
    // route via the line then crosses it where the segment to the mirror image does.
    let (sa, sb) = (cross(e, a - r), cross(e, b - r));
    let b = if sa * sb > 0.0 {
        b - e.perp() * (2.0 * sb / len2)
    } else {
        b
    };
    let d = b - a;
    let den = cross(d, e);
    let t = if den != 0.0 {
        cross(d, a - r) / den
    } else {
        // Neighbours on the portal line itself (or the segment parallel to it): any point
        // between them is optimal; take a's projection.
        (a - r).dot(e) / len2
    };
    r + e * t.clamp(t_min, 1.0 - t_min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_point_crosses_where_the_segment_does() {
        let p = Portal::new(DVec2::new(0.0, 2.0), DVec2::new(0.0, -2.0));
        let x = best_point(&p, DVec2::new(-1.0, 0.0), DVec2::new(1.0, 1.0), 0.0);
        assert!((x - DVec2::new(0.0, 0.5)).length() < 1e-12);
        // Same side: mirror image.
        let y = best_point(&p, DVec2::new(-1.0, 0.0), DVec2::new(-1.0, 1.0), 0.0);
        assert!((y - DVec2::new(0.0, 0.5)).length() < 1e-12);
        // Clamped by the margin.
        let z = best_point(&p, DVec2::new(-1.0, 5.0), DVec2::new(1.0, 5.0), 0.25);
        assert!((z - DVec2::new(0.0, 1.75)).length() < 1e-12);
    }

    #[test]
    fn wrong_length_is_an_error() {
        let p = [Portal::new(DVec2::Y, -DVec2::Y)];
        let mut path = [DVec2::ZERO, DVec2::X];
        assert!(matches!(
            relax_in_place(&p, &mut path, &RelaxParams::default()),
            Err(Error::TooFewPoints {
                needed: 3,
                got: 2,
                ..
            })
        ));
    }
}
