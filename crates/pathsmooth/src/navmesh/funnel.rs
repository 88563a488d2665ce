//! The funnel algorithm: the shortest path through a channel of portals.
//!
//! Given the [`Portal`]s a path must cross in order (see [`portals`](super::portals)), a
//! start before the first and a goal after the last, the "simple stupid funnel algorithm"
//! (Mikko Mononen, *Simple Stupid Funnel Algorithm*, Digesting Duck blog, 2010) keeps a
//! funnel — an apex and the left and right rays through the tightest portal ends seen so far
//! — and walks the portals: a portal end that narrows the funnel replaces that side; one that
//! crosses the other side makes the other side's end a corner of the path, which becomes the
//! new apex, and the scan restarts just after it. The corners are portal ends, so the result
//! is the taut string through the channel: for a channel of convex polygons (triangles of a
//! [`NavMesh`](super::mesh::NavMesh)) holding `start` in the first and `goal` in the last,
//! it is the Euclidean shortest path inside the channel.
//!
//! For a point agent (`r = 0`) pathsmooth runs the same funnel with its two sides kept as
//! whole concave chains (as in Lee & Preparata's shortest paths in simple polygons, 1984)
//! instead of single rays: a crossing pops the other chain from the apex rather than
//! re-scanning portals, so the cost is O(n) in the worst case as well, and the chains live in
//! the output buffer. Mononen's tie rules are kept; the unit tests check it against his
//! restart-and-rescan version.
//!
//! **Agent radius** `r > 0`. Every portal end becomes a circle of radius `r` that the path
//! must keep on its side (left ends on its left, right ends on its right) — equivalently,
//! each portal is shortened by `r` at both ends and the corners are offset by `r`. The same
//! two-chain funnel then runs over circles instead of points (the modified funnel of Demyen
//! & Buro, *Efficient Triangulation-Based Pathfinding*, AAAI 2006): the funnel's sides are the
//! tangents from the apex circle to the side circles, compared by direction; the goal, a
//! circle of radius 0, is instead tested by whether the tangent segment to it keeps the side
//! circle clear (the side only matters when the segment passes the circle; a goal reached
//! before it needs only the distance). Seen from a nearby apex the two circles of one
//! portal can cross; the corner is then the one whose tangent segment does not cut into
//! the other. Each wrapped corner is then rounded: consecutive circles (and the start and
//! goal) are joined by their common tangent, and the arc between a circle's two tangent
//! points is written as a polyline *circumscribed* about the circle (vertices at
//! `r / cos(δ/2)`, at most [`MAX_ARC_STEP`] apart in angle), so every output segment lies on
//! a tangent line and never cuts into a circle.
//!
//! **Tolerance.** Following the library's tolerance contract (see
//! [`World::tolerance`](crate::World::tolerance)), the circles are built a hair outside `r`
//! (64 units in the last place of the largest coordinate), so clearances measured on the
//! rounded output are still at least `r`; circles that touch within rounding (a passage
//! exactly `2r` wide) still have their common tangent through the contact point.
//!
//! Guarantees with a radius: every output segment keeps distance ≥ `r` from every corner it
//! wraps; [`Error::ChannelTooNarrow`] names the first portal narrower than `2r` and any
//! portal whose circle overlaps the apex circle across the path or holds the start or goal.
//! Portals do not say which other edges of a triangle are walls, so the room *inside* each
//! triangle is not checked here: [`NavMeshQuery`](super::NavMeshQuery) only picks channels
//! whose triangles have room (Demyen & Buro's widths against real walls), and map-aware
//! callers ([`NavMeshWorld::plan`](crate::NavMeshWorld), the pipeline's funnel step) check
//! the result against the world. The start and goal must themselves keep clearance `r`.
//! With `r = 0` the point funnel runs and the path is exact.
//!
//! Cost: O(n) for n portals, for any radius: each portal end enters and leaves a chain at
//! most once (with a radius, each test computes two tangents, and the output adds the arc
//! points). No allocation once `out` has grown (`4(n + 2)` points for `r = 0`; with a
//! radius the chains live in a per-thread scratch buffer that is reused).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::navmesh::funnel::funnel;
//! use pathsmooth::navmesh::portals::Portal;
//! // A channel bending around the corner (1, 1): travel +x, then +y.
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
use crate::geometry::{check_magnitude, closest_on_segment, cross};
use crate::navmesh::portals::{check_orientation, Portal};

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
/// [`Error::BadParameter`] for a negative or non-finite radius or a coordinate beyond
/// [`max_coordinate`](crate::geometry::max_coordinate) (name `"coordinate"`; within it
/// differences and tangent lengths cannot overflow),
/// [`Error::ChannelTooNarrow`] naming the portal where the radius does not fit.
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
/// assert!(matches!(err, Error::ChannelTooNarrow { index: 0, .. }));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn funnel_into(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    radius: f64,
    out: &mut Vec<DVec2>,
) -> Result<()> {
    // The tolerance contract: build the circles a hair outside r, so that clearances
    // measured on the rounded output are still at least r.
    let build = build_radius(portals, start, goal, radius);
    funnel_round_into(portals, start, goal, radius, build, out)
}

/// The rounded funnel for an agent of `radius` with its circles built at radius `r`
/// (`funnel_into` passes a hair more than `radius`; a planner that meets a passage exactly
/// `2·radius` wide — where every tangent touches circles on both sides and the order of the
/// corners is decided by rounding — retries a hair less, within the world's tolerance).
/// Errors name `radius`.
pub(crate) fn funnel_round_into(
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
    chain_funnel_round(portals, start, goal, r, &mut |c| round.corner(c, portals))
        .and_then(|()| round.finish(goal, portals))
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

/// The radius the rounded funnel builds with: `r` plus 64 units in the last place of the
/// largest magnitude involved (about 1.4·10⁻¹⁴ of it), which covers the rounding of the
/// tangent points and of any later distance computation, and stays far below the
/// validator's tolerance of 10⁻⁹ of the same magnitude.
pub(crate) fn build_radius(portals: &[Portal], start: DVec2, goal: DVec2, r: f64) -> f64 {
    let m = portals
        .iter()
        .flat_map(|p| [p.left, p.right])
        .chain([start, goal])
        .fold(r.max(1.0), |m, p| m.max(p.abs().max_element()));
    r + 64.0 * f64::EPSILON * m
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
    check_magnitude(&[start, goal])?;
    portals
        .iter()
        .try_for_each(|p| check_magnitude(&[p.left, p.right]))?;
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

/// The point funnel in guaranteed linear time: the funnel is kept as its two chains (the
/// left and right concave chains from the apex, as in Lee & Preparata's shortest paths in
/// simple polygons, 1984), so a portal end that crosses the other side pops that side's
/// chain from the apex instead of re-scanning portals as [`string_pull`] does. Every point
/// is pushed and popped at most once per chain, so the cost is O(n). Same orientation and
/// tie rules as [`string_pull`].
///
/// `out` is used as storage: the path grows at its front and the two chains live in the
/// same buffer after it, so steady-state calls allocate nothing.
fn chain_funnel(portals: &[Portal], start: DVec2, goal: DVec2, out: &mut Vec<DVec2>) {
    // Each chain receives at most n + 1 points; the path at most every point once plus the
    // start (2n + 3, reached only by channels that are not simple), so the regions never
    // overlap whatever the portals.
    let cap = portals.len() + 2;
    out.clear();
    out.resize(4 * cap, DVec2::ZERO);
    let mut f = Chains {
        buf: out,
        m: 0,
        lh: 2 * cap,
        lt: 2 * cap,
        rh: 3 * cap,
        rt: 3 * cap,
    };
    f.emit(start);
    for p in portals {
        f.push(p.right, Side::Right);
        f.push(p.left, Side::Left);
    }
    f.push(goal, Side::Right);
    f.push(goal, Side::Left);
    // The goal ends the left chain; its points are the remaining corners.
    for k in f.lh..f.lt {
        let p = f.buf[k];
        f.emit(p);
    }
    let m = f.m;
    out.truncate(m);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

/// The path `buf[..m]` (its last point is the apex) and the two chains `buf[lh..lt]`,
/// `buf[rh..rt]`, each listed from the apex outward.
struct Chains<'a> {
    buf: &'a mut [DVec2],
    m: usize,
    lh: usize,
    lt: usize,
    rh: usize,
    rt: usize,
}

impl Chains<'_> {
    #[inline]
    fn apex(&self) -> DVec2 {
        self.buf[self.m - 1]
    }

    #[inline]
    fn emit(&mut self, p: DVec2) {
        if self.m == 0 || self.buf[self.m - 1] != p {
            self.buf[self.m] = p;
            self.m += 1;
        }
    }

    /// Adds portal end `p` to one side. `s` is +1 for the right side and −1 for the left:
    /// multiplying cross products by it mirrors the right-side rules onto the left.
    #[inline]
    fn push(&mut self, p: DVec2, side: Side) {
        let (s, (h, mut t), (mut oh, ot)) = match side {
            Side::Right => (1.0, (self.rh, self.rt), (self.lh, self.lt)),
            Side::Left => (-1.0, (self.lh, self.lt), (self.rh, self.rt)),
        };
        let apex = self.apex();
        if p == apex {
            // A fan around the apex: this side is back on the apex.
            t = h;
        } else if t == h || self.buf[t - 1] != p {
            // Pop ends of this chain that p makes redundant (p on the inner side of, or on,
            // the chain's last edge).
            let was_empty = t == h;
            while t > h {
                let prev = if t - 1 > h { self.buf[t - 2] } else { apex };
                if s * cross(self.buf[t - 1] - prev, p - prev) >= 0.0 {
                    t -= 1;
                } else {
                    break;
                }
            }
            if t == h {
                // This side is back to the apex: p crosses the other side's first ray
                // for as long as it lies beyond it (or on it, when popping emptied this
                // side — Mononen's tie rule; a side already on the apex only crosses
                // strictly, as his funnel then tightens without a test); each such point
                // is a corner.
                while oh < ot {
                    let a = self.apex();
                    let q = self.buf[oh];
                    let turn = s * cross(q - a, p - a);
                    if turn > 0.0 || (turn == 0.0 && !was_empty) {
                        self.emit(q);
                        oh += 1;
                    } else {
                        break;
                    }
                }
            }
            self.buf[t] = p;
            t += 1;
        }
        match side {
            Side::Right => (self.rh, self.rt, self.lh) = (h, t, oh),
            Side::Left => (self.lh, self.lt, self.rh) = (h, t, oh),
        }
    }
}

/// Mononen's simple stupid funnel for a point agent; `emit` receives each corner of the
/// path (not the start or goal).
///
/// Orientation: `left` is counter-clockwise, so a portal end `q` narrows the right ray when
/// `cross(right − apex, q − apex) ≥ 0` and the left ray when `cross(left − apex, q − apex) ≤ 0`.
#[cfg(test)]
fn string_pull(portals: &[Portal], start: DVec2, goal: DVec2, emit: &mut impl FnMut(DVec2)) {
    let n = portals.len();
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_i, mut right_i) = (0usize, 0usize);
    // Index 0 is the start, 1..=n the portals, n + 1 the goal (a portal of zero width).
    let mut i = 1;
    while i <= n + 1 {
        let p = if i <= n {
            portals[i - 1]
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
                    emit(left);
                }
                apex = left;
                (right, right_i) = (apex, left_i);
                i = left_i + 1;
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
                    emit(right);
                }
                apex = right;
                (left, left_i) = (apex, right_i);
                i = right_i + 1;
                continue;
            }
        }
        i += 1;
    }
}

/// A portal end seen by an agent of radius r: a circle of signed radius `rho` (+r for a left
/// end, which the path keeps on its left; −r for a right end; 0 for the start and goal),
/// with its index (0 start, 1..=n portals, n + 1 goal).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Circle {
    c: DVec2,
    rho: f64,
    index: usize,
}

impl Circle {
    fn same(&self, o: &Circle) -> bool {
        self.c == o.c && self.rho == o.rho
    }
}

/// The funnel of [`string_pull`] over circles instead of points (the modified funnel of
/// Demyen & Buro, "Efficient triangulation-based pathfinding", AAAI 2006): the funnel's
/// sides are the tangents from the apex circle to the side circles, compared by their
/// directions. `emit` receives each wrapped corner circle.
#[cfg(test)]
fn string_pull_round(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    r: f64,
    emit: &mut impl FnMut(Circle) -> Result<()>,
) -> Result<()> {
    let n = portals.len();
    // Direction of the tangent from circle a to circle b; None when they are the same.
    let dir = |a: &Circle, b: &Circle| -> Result<Option<DVec2>> {
        if a.same(b) {
            return Ok(None);
        }
        match tangent(a.c, a.rho, b.c, b.rho) {
            Some((_, _, v)) => Ok(Some(v)),
            None => Err(too_narrow(portals, portal_of(a.index.max(b.index), n), r)),
        }
    };
    let at = |c: DVec2, rho: f64, index: usize| Circle { c, rho, index };
    let mut apex = at(start, 0.0, 0);
    let (mut left, mut right) = (apex, apex);
    // Directions of the funnel's sides (None while a side is on the apex), kept up to date
    // so each portal costs two tangents.
    let (mut vl, mut vr): (Option<DVec2>, Option<DVec2>) = (None, None);
    let mut i = 1;
    while i <= n + 1 {
        let (ql, qr) = if i <= n {
            (
                at(portals[i - 1].left, r, i),
                at(portals[i - 1].right, -r, i),
            )
        } else {
            (at(goal, 0.0, i), at(goal, 0.0, i))
        };
        // The right side first, then the left; when one would cross the other, the other
        // side's end is a corner and the new apex.
        let corner = if offer_round(&apex, qr, 1.0, (&mut right, &mut vr), (&left, vl), r, &dir)? {
            Some((left, vl))
        } else if offer_round(&apex, ql, -1.0, (&mut left, &mut vl), (&right, vr), r, &dir)? {
            Some((right, vr))
        } else {
            None
        };
        match corner {
            Some((c, v)) => {
                if v.is_some() {
                    emit(c)?;
                }
                apex = c;
                (left, right, vl, vr) = (apex, apex, None, None);
                i = apex.index + 1;
            }
            None => i += 1,
        }
    }
    Ok(())
}

/// Offers the portal end `q` to one side of [`string_pull_round`]'s funnel. Written for the
/// right side; the left side is its mirror image (`s` = −1 flips every turn). `side`/`v` are
/// this side's end and direction (None while on the apex), `other`/`vo` the other side's.
/// Returns true when this side would cross the other: the other side's end is then a corner.
#[cfg(test)]
fn offer_round(
    apex: &Circle,
    q: Circle,
    s: f64,
    (side, v): (&mut Circle, &mut Option<DVec2>),
    (other, vo): (&Circle, Option<DVec2>),
    r: f64,
    dir: &impl Fn(&Circle, &Circle) -> Result<Option<DVec2>>,
) -> Result<bool> {
    // A portal end on the apex itself (a fan around the apex corner) only moves a side
    // still on the apex forward, as in the point funnel.
    match dir(apex, &q)? {
        None if v.is_none() => *side = q,
        Some(vq) if v.is_none_or(|v| s * cross(v, vq) >= 0.0) => {
            let inside = v.is_none()
                || match vo {
                    Some(_) if q.rho == 0.0 => keeps_clear(apex, &q, other, r),
                    Some(vo) => s * cross(vo, vq) < 0.0,
                    None => false,
                };
            if !inside {
                return Ok(true);
            }
            (*side, *v) = (q, Some(vq));
        }
        _ => {}
    }
    Ok(false)
}

/// Reusable chain storage for [`chain_funnel_round`] (one per thread, so steady-state
/// calls allocate nothing).
#[derive(Default)]
struct CircleChains {
    left: Vec<Circle>,
    right: Vec<Circle>,
}

thread_local! {
    static CIRCLE_CHAINS: std::cell::RefCell<CircleChains> = std::cell::RefCell::default();
}

/// The circle funnel of [`string_pull_round`] with the two sides kept as whole chains, as
/// [`chain_funnel`] does for points: O(n), no re-scans. `emit` receives each wrapped corner.
fn chain_funnel_round(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    r: f64,
    emit: &mut impl FnMut(Circle) -> Result<()>,
) -> Result<()> {
    CIRCLE_CHAINS.with(|cell| {
        let mut guard = cell.borrow_mut();
        let CircleChains { left, right } = &mut *guard;
        left.clear();
        right.clear();
        let n = portals.len();
        let mut f = RoundChains {
            portals,
            r,
            apex: Circle {
                c: start,
                rho: 0.0,
                index: 0,
            },
            left,
            right,
            lh: 0,
            rh: 0,
        };
        for (i, p) in portals.iter().enumerate() {
            let at = |c: DVec2, rho: f64| Circle {
                c,
                rho,
                index: i + 1,
            };
            f.push(at(p.right, -r), Side::Right, emit)?;
            f.push(at(p.left, r), Side::Left, emit)?;
        }
        let g = Circle {
            c: goal,
            rho: 0.0,
            index: n + 1,
        };
        f.push(g, Side::Right, emit)?;
        f.push(g, Side::Left, emit)?;
        // The goal ends the left chain; the circles before it are the last corners.
        for k in f.lh..f.left.len() {
            let c = f.left[k];
            if !c.same(&g) {
                emit(c)?;
            }
        }
        Ok(())
    })
}

/// The apex circle and the two chains (`left[lh..]`, `right[rh..]`, from the apex outward).
struct RoundChains<'a> {
    portals: &'a [Portal],
    r: f64,
    apex: Circle,
    left: &'a mut Vec<Circle>,
    right: &'a mut Vec<Circle>,
    lh: usize,
    rh: usize,
}

impl RoundChains<'_> {
    /// True when the path from `from` to `q` must wrap circle `c`: `q` lies beyond the
    /// tangent from `from` to `c`, on `c`'s side (`s` = +1 for a right-side `c`, −1 for a
    /// left one); a tie counts when `tie`. The goal is tested by [`keeps_clear`].
    fn wraps(&self, from: &Circle, c: &Circle, q: &Circle, s: f64, tie: bool) -> Result<bool> {
        if q.same(from) {
            return Ok(false);
        }
        if q.rho == 0.0 {
            return Ok(!keeps_clear(from, q, c, self.r));
        }
        let dir = |b: &Circle| match tangent(from.c, from.rho, b.c, b.rho) {
            Some((_, _, v)) => Ok(v),
            None => Err(too_narrow(
                self.portals,
                portal_of(from.index.max(b.index), self.portals.len()),
                self.r,
            )),
        };
        let turn = s * cross(dir(c)?, dir(q)?);
        Ok(turn < 0.0 || (turn == 0.0 && tie))
    }

    fn push(
        &mut self,
        q: Circle,
        side: Side,
        emit: &mut impl FnMut(Circle) -> Result<()>,
    ) -> Result<()> {
        let s = match side {
            Side::Right => 1.0,
            Side::Left => -1.0,
        };
        let (h, len) = match side {
            Side::Right => (self.rh, self.right.len()),
            Side::Left => (self.lh, self.left.len()),
        };
        let chain_at = |me: &Self, k: usize| match side {
            Side::Right => me.right[k],
            Side::Left => me.left[k],
        };
        if q.same(&self.apex) {
            // A fan around the apex: this side is back on it.
            self.truncate(side, h);
            return Ok(());
        }
        if len > h && chain_at(self, len - 1).same(&q) {
            return Ok(());
        }
        let was_empty = len == h;
        // Pop the chain's ends that q no longer needs to wrap (ties pop, as for points).
        let mut t = len;
        while t > h {
            let last = chain_at(self, t - 1);
            let prev = if t - 1 > h {
                chain_at(self, t - 2)
            } else {
                self.apex
            };
            if self.wraps(&prev, &last, &q, s, false)? {
                break;
            }
            t -= 1;
        }
        self.truncate(side, t);
        if t == h {
            // This side is back on the apex: while the path to q would have to wrap the
            // other side's first circle, that circle is a corner and the new apex (ties
            // cross unless this side was already on the apex, as for points).
            loop {
                let front = match side {
                    Side::Right if self.lh < self.left.len() => self.left[self.lh],
                    Side::Left if self.rh < self.right.len() => self.right[self.rh],
                    _ => break,
                };
                if !self.wraps(&self.apex, &front, &q, -s, !was_empty)? {
                    break;
                }
                // Seen from a nearby apex, the circles of one portal can cross: then the
                // corner is whichever of the two the apex can reach without cutting into
                // the other (bending on `front` would graze through `q`).
                if q.rho != 0.0
                    && cuts(&self.apex, &front, &q, self.r)
                    && !cuts(&self.apex, &q, &front, self.r)
                {
                    emit(q)?;
                    self.apex = q;
                    return Ok(());
                }
                emit(front)?;
                self.apex = front;
                match side {
                    Side::Right => self.lh += 1,
                    Side::Left => self.rh += 1,
                }
            }
        }
        match side {
            Side::Right => self.right.push(q),
            Side::Left => self.left.push(q),
        }
        Ok(())
    }

    fn truncate(&mut self, side: Side, len: usize) {
        match side {
            Side::Right => self.right.truncate(len),
            Side::Left => self.left.truncate(len),
        }
    }
}

/// True when the tangent segment from circle `from` to circle `to` comes closer than `r`
/// (less a rounding margin) to the centre of circle `other`.
fn cuts(from: &Circle, to: &Circle, other: &Circle, r: f64) -> bool {
    match tangent(from.c, from.rho, to.c, to.rho) {
        Some((t1, t2, _)) => {
            let (q, _) = closest_on_segment(other.c, t1, t2);
            other.c.distance(q) < r * (1.0 - 1e-9)
        }
        None => false,
    }
}

/// For the goal: true when the tangent segment from the apex circle to `goal` keeps the
/// side circle `side` on its own side and at least `r` away. Comparing directions, as for
/// portal ends, would be too strict here: the segment may end (at the goal) before it
/// reaches the side circle's tangent point.
fn keeps_clear(apex: &Circle, goal: &Circle, side: &Circle, r: f64) -> bool {
    let Some((t1, t2, v)) = tangent(apex.c, apex.rho, goal.c, goal.rho) else {
        return false;
    };
    let (q, t) = closest_on_segment(side.c, t1, t2);
    // The side matters only when the segment passes the circle: when its nearest point is
    // an end (the goal comes before the circle, or the circle lies behind the apex), the
    // distance alone decides — a goal just beyond a corner, in a dead end near the border,
    // must not send the path round the far end of the last portal.
    let passes = t > 0.0 && t < 1.0;
    (!passes || cross(v, side.c - t1) * side.rho >= 0.0) && side.c.distance(q) >= r
}

/// The 0-based portal for a funnel index (0 start, 1..=n portals, n + 1 goal), clamped to
/// the nearest portal; 0 when there are none.
fn portal_of(index: usize, n: usize) -> usize {
    index.clamp(1, n.max(1)) - 1
}

/// Turns the wrapped corner circles into tangent segments and circumscribed arcs of radius
/// `r` (see the module docs).
struct Rounder<'a> {
    out: &'a mut Vec<DVec2>,
    r: f64,
    /// The previous circle (the start point at first).
    prev: Circle,
    /// Where the path arrived on the previous circle.
    arrived: DVec2,
}

impl<'a> Rounder<'a> {
    fn new(start: DVec2, r: f64, out: &'a mut Vec<DVec2>) -> Self {
        out.push(start);
        let prev = Circle {
            c: start,
            rho: 0.0,
            index: 0,
        };
        Rounder {
            out,
            r,
            prev,
            arrived: start,
        }
    }

    fn corner(&mut self, next: Circle, portals: &[Portal]) -> Result<()> {
        if next.same(&self.prev) {
            return Ok(()); // the same corner seen through another portal
        }
        self.step_to(next, portals)
    }

    fn finish(mut self, goal: DVec2, portals: &[Portal]) -> Result<()> {
        let index = portals.len() + 1;
        self.step_to(
            Circle {
                c: goal,
                rho: 0.0,
                index,
            },
            portals,
        )?;
        push_distinct(self.out, goal);
        Ok(())
    }

    /// Leaves the previous circle along the tangent to `next`: writes the arc on the
    /// previous circle, its departure point and the arrival point on `next`.
    fn step_to(&mut self, next: Circle, portals: &[Portal]) -> Result<()> {
        let prev = self.prev;
        if prev.c == next.c && prev.rho == 0.0 && next.rho == 0.0 {
            return Ok(()); // start == goal
        }
        let Some((depart, arrive, _)) = tangent(prev.c, prev.rho, next.c, next.rho) else {
            let index = if next.rho == 0.0 {
                prev.index
            } else {
                next.index
            };
            return Err(too_narrow(portals, portal_of(index, portals.len()), self.r));
        };
        if prev.rho != 0.0 {
            if let Some(cross) = grazed(prev.c, prev.rho, self.arrived, depart) {
                // The path turns the other way past this corner by a hair: the chord from
                // arrival to departure would dip inside the circle, so both give way to
                // the point where the two tangent lines cross, outside it.
                self.out.pop();
                push_distinct(self.out, cross);
            } else {
                self.arc(prev.c, prev.rho, self.arrived, depart);
                push_distinct(self.out, depart);
            }
        }
        push_distinct(self.out, arrive);
        self.arrived = arrive;
        self.prev = next;
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

/// Where the tangents at `from` and `to` on circle (c, ρ) cross, when the path leaves the
/// circle turning against it (the sweep from `from` to `to` goes the wrong way round, by
/// less than a right angle): a corner taken for wrapped that the path only grazes, as
/// between two nearly collinear corners. The crossing lies on both tangent lines, so the
/// path through it keeps off the circle; `None` for a corner the path wraps.
fn grazed(c: DVec2, rho: f64, from: DVec2, to: DVec2) -> Option<DVec2> {
    let (a0, a1) = ((from - c).to_angle(), (to - c).to_angle());
    let back = (rho.signum() * (a0 - a1)).rem_euclid(TAU);
    if !(back > 0.0 && back < PI / 2.0) {
        return None;
    }
    let mid = a0 - rho.signum() * 0.5 * back;
    Some(c + DVec2::from_angle(mid) * (rho.abs() / (0.5 * back).cos()))
}

/// The common tangent from circle (c1, ρ1) to circle (c2, ρ2), each with its signed radius:
/// the path point on circle i is `ci + ρi·rp(v)` where `v` is the travel direction and `rp`
/// turns a vector clockwise by 90°. `None` when no such tangent exists (the circles overlap
/// across the path, or a point lies inside a circle).
fn tangent(c1: DVec2, rho1: f64, c2: DVec2, rho2: f64) -> Option<(DVec2, DVec2, DVec2)> {
    let d = c2 - c1;
    // `hypot` where the squares could underflow (distances below 1e-154) or overflow;
    // the plain square root, several times faster, everywhere else.
    let len2 = d.length_squared();
    let len = if (1e-280..1e280).contains(&len2) {
        len2.sqrt()
    } else {
        d.x.hypot(d.y)
    };
    let s = (rho1 - rho2) / len;
    // Circles that touch within rounding (a passage exactly 2r wide, or the hair the
    // radius is built outside r) still have their common tangent, through the contact.
    if !(len > 0.0 && s.abs() <= 1.0 + 1e-9) {
        return None;
    }
    let s = s.clamp(-1.0, 1.0);
    let u = d / len;
    // v = u rotated by θ with sin θ = s (counter-clockwise positive).
    let co = (1.0 - s * s).sqrt();
    let v = DVec2::new(u.x * co - u.y * s, u.x * s + u.y * co);
    let rp = DVec2::new(v.y, -v.x);
    Some((c1 + rp * rho1, c2 + rp * rho2, v))
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

    /// A winding triangle strip like the benches'.
    fn winding(n: usize) -> Vec<Portal> {
        let bank = |k: usize, side: f64| {
            let x = k as f64 * 0.7;
            DVec2::new(x, 4.0 * (x * 0.15).sin() + side)
        };
        (0..n)
            .map(|i| match i % 2 {
                0 => Portal::new(bank(i / 2, 1.0), bank(i / 2, -1.0)),
                _ => Portal::new(bank(i / 2 + 1, 1.0), bank(i / 2, -1.0)),
            })
            .collect()
    }

    #[test]
    fn chain_funnel_matches_mononens_funnel() {
        for n in [0, 1, 2, 7, 40, 333] {
            let ps = winding(n);
            let start = DVec2::new(-0.3, 0.0);
            for goal in [
                DVec2::new(n as f64 * 0.35 + 0.3, 0.0),
                DVec2::new(n as f64 * 0.35, 3.0),
            ] {
                let mut ssf = vec![start];
                string_pull(&ps, start, goal, &mut |p| push_distinct(&mut ssf, p));
                push_distinct(&mut ssf, goal);
                let chains = funnel(&ps, start, goal, 0.0).unwrap();
                assert_eq!(chains, ssf, "n = {n}, goal = {goal}");
            }
        }
    }

    proptest::proptest! {
        /// Arbitrary portals (crossed, reversed, degenerate) never panic or produce NaN.
        #[test]
        fn garbage_portals_never_panic(
            raw in proptest::collection::vec((-5.0f64..5.0, -5.0f64..5.0, -5.0f64..5.0, -5.0f64..5.0), 0..30),
            r in proptest::sample::select(vec![0.0, 0.05, 0.5]),
        ) {
            let ps: Vec<Portal> = raw
                .iter()
                .map(|&(a, b, c, d)| Portal::new(DVec2::new(a, b), DVec2::new(c, d)))
                .collect();
            if let Ok(path) = funnel(&ps, DVec2::new(-6.0, 0.0), DVec2::new(6.0, 0.0), r) {
                proptest::prop_assert!(path.iter().all(|p| p.is_finite()));
                proptest::prop_assert!(path.len() <= 2 * ps.len() + 3 || r > 0.0);
            }
        }
    }

    #[test]
    fn circle_chain_funnel_matches_the_circle_funnel() {
        for n in [0, 1, 2, 7, 40, 333] {
            let ps = winding(n);
            let start = DVec2::new(-0.3, 0.0);
            for goal in [
                DVec2::new(n as f64 * 0.35 + 0.3, 0.0),
                DVec2::new(n as f64 * 0.35, 3.0),
            ] {
                for r in [0.05, 0.3, 0.9] {
                    let run = |chains: bool| -> Result<Vec<DVec2>> {
                        let mut out = Vec::new();
                        check_width(&ps, r)?;
                        let mut round = Rounder::new(start, r, &mut out);
                        if chains {
                            chain_funnel_round(&ps, start, goal, r, &mut |c| round.corner(c, &ps))?;
                        } else {
                            string_pull_round(&ps, start, goal, r, &mut |c| round.corner(c, &ps))?;
                        }
                        round.finish(goal, &ps)?;
                        Ok(out)
                    };
                    let (a, b) = (run(true), run(false));
                    match (&a, &b) {
                        (Ok(a), Ok(b)) => {
                            let len = |v: &[DVec2]| {
                                v.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>()
                            };
                            assert!(
                                (len(a) - len(b)).abs() < 1e-9,
                                "n {n} r {r} goal {goal}: {} vs {}",
                                len(a),
                                len(b)
                            );
                        }
                        (Err(_), Err(_)) => {}
                        _ => panic!("n {n} r {r} goal {goal}: {a:?} vs {b:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn tangent_between_opposite_circles_touches_both() {
        let (a, b, _) = tangent(DVec2::ZERO, 1.0, DVec2::new(4.0, 0.0), -1.0).unwrap();
        assert!((a.length() - 1.0).abs() < 1e-12);
        assert!((b.distance(DVec2::new(4.0, 0.0)) - 1.0).abs() < 1e-12);
        // The segment is perpendicular to both radii.
        assert!((b - a).dot(a).abs() < 1e-12);
        assert!(tangent(DVec2::ZERO, 1.0, DVec2::new(1.5, 0.0), -1.0).is_none());
    }

    #[test]
    fn a_grazed_corner_is_passed_where_its_tangents_cross() {
        let (c, rho) = (DVec2::new(3.0, 4.0), 0.5);
        let on = |a: f64| c + DVec2::from_angle(a) * rho;
        // Counter-clockwise wrap (ρ > 0) that departs 0.012 rad clockwise of the arrival.
        let (from, to) = (on(1.0), on(0.988));
        let x = grazed(c, rho, from, to).unwrap();
        assert!(x.distance(c) >= rho);
        // On both tangent lines: perpendicular to the radius at each end.
        assert!((x - from).dot(from - c).abs() < 1e-12);
        assert!((x - to).dot(to - c).abs() < 1e-12);
        // A corner the path wraps, either way round, is left to the arc.
        assert_eq!(grazed(c, rho, to, from), None);
        assert_eq!(grazed(c, -rho, from, to), None);
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
