//! Reference funnels for the tests: Mononen's restart-and-rescan funnel over points and
//! its circle form. The production funnels (`point`, `circle`) must agree with them.

use glam::DVec2;

use super::circle::{keeps_clear, portal_of, tangent, Circle};
use super::too_narrow;
use crate::error::Result;
use crate::geometry::cross;
use crate::navmesh::portals::Portal;

/// Mononen's simple stupid funnel for a point agent; `emit` receives each corner of the
/// path (not the start or goal).
///
/// Orientation: `left` is counter-clockwise, so a portal end `q` narrows the right ray when
/// `cross(right − apex, q − apex) ≥ 0` and the left ray when `cross(left − apex, q − apex) ≤ 0`.
pub(super) fn string_pull(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    emit: &mut impl FnMut(DVec2),
) {
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

/// The funnel of [`string_pull`] over circles instead of points (the modified funnel of
/// Demyen & Buro, "Efficient triangulation-based pathfinding", AAAI 2006): the funnel's
/// sides are the tangents from the apex circle to the side circles, compared by their
/// directions. `emit` receives each wrapped corner circle.
pub(super) fn string_pull_round(
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
