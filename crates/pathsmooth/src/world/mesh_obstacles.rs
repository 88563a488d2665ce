//! The geometry of a navmesh's temporary obstacles (the navmesh world's, whose cut is in
//! `surface_obstacles.rs`): each shape as the convex polygon cut out, and whether a path
//! comes too close to it.
//!
//! **Disks** are cut as the regular 16-gon circumscribed about the disk (its edges touch
//! the circle, its corners lie `1/cos(π/16) − 1` ≈ 2 % of the radius outside it, plus a few
//! units in the last place so that rounding cannot bring an edge inside the circle): the
//! cut always contains the disk, so a clearance next to it is never more than the distance
//! to the true disk (it can be up to 2 % of the radius less).

use glam::DVec2;

use super::obstacles::{any_segment, check_shape, convex_ccw, disk_reach, DISK_SIDES};
use super::{Bounds, Obstacle};
use crate::error::{Error, Result};
use crate::geometry::{cross, orientation, segment_distance};

/// True when a segment of `path` comes closer than `radius` to the convex
/// counter-clockwise polygon `ring` (at radius 0: enters its inside), by more than
/// `slack`: what an obstacle cut out as `ring` takes from an agent of `radius` on `path`.
/// The slack is how far the cut's corners may lie from the ring's sides: the surface's
/// straight tolerance, as its cut rounds and welds the corners where the sides cross its
/// polygons (a path along a side there runs a rounding inside it); with no slack, exact.
pub(super) fn ring_blocks(ring: &[DVec2], path: &[DVec2], radius: f64, slack: f64) -> bool {
    let r = if radius > 0.0 { radius } else { 0.0 };
    let Some(reach) = Bounds::around(ring.iter().copied()).map(|b| b.grown(r)) else {
        return false;
    };
    any_segment(path, |a, b| {
        reach.meets_box_of(a, b)
            && if r > 0.0 {
                segment_convex_distance(ring, a, b) < r - slack
            } else if slack > 0.0 {
                segment_enters_deeper(ring, a, b, slack)
            } else {
                segment_enters_convex(ring, a, b)
            }
    })
}

/// True when the segment `a`–`b` has points deeper than `depth` inside the convex
/// counter-clockwise polygon `ring`: its part strictly inside every side moved inwards by
/// `depth` is not empty (Cyrus–Beck, in `f64`: the depth asked is far above rounding).
fn segment_enters_deeper(ring: &[DVec2], a: DVec2, b: DVec2, depth: f64) -> bool {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let n = ring.len();
    for i in 0..n {
        let (p, q) = (ring[i], ring[(i + 1) % n]);
        let len = (q - p).length();
        // Signed distances inside the moved side, at a and at b.
        let (f0, f1) = (
            cross(q - p, a - p) / len - depth,
            cross(q - p, b - p) / len - depth,
        );
        if f0 <= 0.0 && f1 <= 0.0 {
            return false;
        }
        if f0 != f1 {
            let t = f0 / (f0 - f1);
            if f1 > f0 {
                lo = lo.max(t);
            } else {
                hi = hi.min(t);
            }
        }
    }
    lo < hi
}

/// The counter-clockwise convex polygon cut out for `obstacle`, after checking it.
pub(crate) fn obstacle_ring(obstacle: &Obstacle) -> Result<Vec<DVec2>> {
    check_shape(obstacle)?;
    Ok(match obstacle {
        Obstacle::Disk { center, radius } => disk_polygon(*center, *radius),
        Obstacle::Box { min, max } => {
            vec![
                *min,
                DVec2::new(max.x, min.y),
                *max,
                DVec2::new(min.x, max.y),
            ]
        }
        Obstacle::Polygon(points) => {
            convex_ccw(points).expect("check_shape found the polygon convex")
        }
        Obstacle::Cells(_) => {
            return Err(Error::BadObstacle {
                reason: "a navmesh world has no cells: give the obstacle as a disk, a box or \
                         a polygon"
                    .into(),
            })
        }
    })
}

/// The regular [`DISK_SIDES`]-gon circumscribed about the disk, grown by a few units in the
/// last place of its coordinates so that it contains the disk despite rounding.
fn disk_polygon(center: DVec2, radius: f64) -> Vec<DVec2> {
    let half = std::f64::consts::PI / DISK_SIDES as f64;
    let r = disk_reach(center, radius);
    (0..DISK_SIDES)
        .map(|k| {
            let a = 2.0 * half * k as f64;
            center + r * DVec2::new(a.cos(), a.sin())
        })
        .collect()
}

/// True when the segment `a`–`b` (a point when `a == b`) meets the open inside of the
/// convex counter-clockwise polygon `ring`, decided exactly (Shewchuk's orientation
/// predicate): it does unless a line separates them, and for a segment and a convex
/// polygon one of the polygon's edges or the segment's own line does (the separating axis
/// theorem). Cost: O(corners) orientation tests.
pub(crate) fn segment_enters_convex(ring: &[DVec2], a: DVec2, b: DVec2) -> bool {
    let n = ring.len();
    let edge_separates = (0..n).any(|i| {
        let (p, q) = (ring[i], ring[(i + 1) % n]);
        orientation(p, q, a) <= 0 && orientation(p, q, b) <= 0
    });
    if edge_separates {
        return false;
    }
    // The segment's line separates them when every corner is on one (closed) side of it.
    a == b || {
        let mut sides = ring.iter().map(|&v| orientation(a, b, v));
        !(sides.clone().all(|s| s >= 0) || sides.all(|s| s <= 0))
    }
}

/// The distance from the segment `a`–`b` to the closed convex counter-clockwise polygon
/// `ring` (0 when they meet).
pub(crate) fn segment_convex_distance(ring: &[DVec2], a: DVec2, b: DVec2) -> f64 {
    let n = ring.len();
    let inside = (0..n).all(|i| cross(ring[(i + 1) % n] - ring[i], a - ring[i]) >= 0.0);
    if inside {
        return 0.0;
    }
    (0..n)
        .map(|i| segment_distance(a, b, ring[i], ring[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
}
