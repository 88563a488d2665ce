//! The circle funnel for an agent of radius r > 0: the two-chain funnel over portal-end
//! circles (Demyen & Buro, *Efficient Triangulation-Based Pathfinding*, AAAI 2006), and the
//! rounding of the wrapped corners into circumscribed polylines.

use std::cell::Cell;
use std::f64::consts::{PI, TAU};

use glam::DVec2;

use super::{push_distinct, too_narrow, Side, MAX_ARC_STEP};
use crate::error::Result;
use crate::geometry::{closest_on_segment, cross};
use crate::navmesh::portals::Portal;

/// A portal end seen by an agent of radius r: a circle of signed radius `rho` (+r for a left
/// end, which the path keeps on its left; −r for a right end; 0 for the start and goal),
/// with its index (0 start, 1..=n portals, n + 1 goal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Circle {
    pub(super) c: DVec2,
    pub(super) rho: f64,
    pub(super) index: usize,
}

impl Circle {
    pub(super) fn same(&self, o: &Circle) -> bool {
        self.c == o.c && self.rho == o.rho
    }
}

/// Reusable chain storage for [`chain_funnel_round`], owned by a [`Funnel`](super::Funnel)
/// so that steady-state calls allocate nothing.
#[derive(Debug, Default, Clone)]
pub(super) struct CircleChains {
    left: Vec<Circle>,
    right: Vec<Circle>,
}

/// The circle funnel of [`string_pull_round`] with the two sides kept as whole chains, as
/// [`chain_funnel`] does for points: O(n), no re-scans. `emit` receives each wrapped corner.
/// Returns whether the goal stopped short of a portal end it was tested against, so that
/// the last leg may cut an end the chains let go (see [`cut_on_last_leg`]).
pub(super) fn chain_funnel_round(
    chains: &mut CircleChains,
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    r: f64,
    emit: &mut impl FnMut(Circle) -> Result<()>,
) -> Result<bool> {
    let CircleChains { left, right } = chains;
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
        goal_short: Cell::new(false),
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
    Ok(f.goal_short.get())
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
    /// Whether the goal stopped short of a portal end it was tested against.
    goal_short: Cell<bool>,
}

impl RoundChains<'_> {
    /// True when the path from `from` to `q` must wrap circle `c`: `q` lies beyond the
    /// tangent from `from` to `c`, on `c`'s side (`s` = +1 for a right-side `c`, −1 for a
    /// left one); a tie counts when `tie`. The goal is tested by [`leg_test`].
    fn wraps(&self, from: &Circle, c: &Circle, q: &Circle, s: f64, tie: bool) -> Result<bool> {
        if q.same(from) {
            return Ok(false);
        }
        if q.rho == 0.0 {
            let Some(leg) = tangent(from.c, from.rho, q.c, q.rho) else {
                return Ok(true);
            };
            let (clear, short) = leg_test(leg, c, self.r);
            if short {
                self.goal_short.set(true);
            }
            return Ok(!clear);
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
                // The goal, pushed on the other side first, is not a corner: the path's
                // last leg is the rounder's (see `Rounder::finish`).
                if front.same(&q) {
                    break;
                }
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
pub(super) fn cuts(from: &Circle, to: &Circle, other: &Circle, r: f64) -> bool {
    match tangent(from.c, from.rho, to.c, to.rho) {
        Some((t1, t2, _)) => {
            let (q, _) = closest_on_segment(other.c, t1, t2);
            other.c.distance(q) < r * (1.0 - 1e-9)
        }
        None => false,
    }
}

/// [`leg_test`] for the tangent segment from the apex circle to `goal`: whether it keeps
/// clear of `side` (the reference funnel's goal test).
#[cfg(test)]
pub(super) fn keeps_clear(apex: &Circle, goal: &Circle, side: &Circle, r: f64) -> bool {
    tangent(apex.c, apex.rho, goal.c, goal.rho).is_some_and(|leg| leg_test(leg, side, r).0)
}

/// For the goal, of the leg to it (the tangent segment `(t1, t2)` of direction `v` from
/// the apex circle) and the side circle `side`: whether the leg keeps `side` on its own
/// side and at least `r` away, and whether it stops short of `side` (its nearest point to
/// `side` is the goal). Comparing directions, as for portal ends, would be too strict
/// here: the segment may end (at the goal) before it reaches the side circle's tangent
/// point.
fn leg_test((t1, t2, v): (DVec2, DVec2, DVec2), side: &Circle, r: f64) -> (bool, bool) {
    let (q, t) = closest_on_segment(side.c, t1, t2);
    // The side matters only when the segment passes the circle: when its nearest point is
    // an end (the goal comes before the circle, or the circle lies behind the apex), the
    // distance alone decides — a goal just beyond a corner, in a dead end near the border,
    // must not send the path round the far end of the last portal.
    let passes = t > 0.0 && t < 1.0;
    let clear = (!passes || cross(v, side.c - t1) * side.rho >= 0.0) && side.c.distance(q) >= r;
    (clear, t >= 1.0)
}

/// The portal end after corner `from` that the last leg, from `from` to `goal`, cuts (comes
/// closer to than `r`, less a rounding margin, or passes on the wrong side of), if any:
/// the corner to take before the goal.
///
/// Why the chains can miss one: a chain lets a portal end go once a later end on its side
/// binds the path more (its tangent turns further in), since any path on to an end
/// beyond both clears the first. The goal is tested by its distance instead
/// ([`leg_test`]): the path may end before the later end's tangent point, and a goal
/// short of that end but beyond the dropped one can cut the dropped one. Portal ends in a
/// line on one side (Polyanya's `bad-collinear` meshes, a grid's walls) are the common
/// case. Of the ends the leg cuts, those on the side of the first one, the one whose
/// tangent from `from` turns furthest in is the corner: the path round it clears the
/// others, which bind it less. Cost: O(k) for the k portals after `from`, once per funnel
/// and once more for each corner it finds.
fn cut_on_last_leg(from: &Circle, goal: &Circle, portals: &[Portal], r: f64) -> Option<Circle> {
    let leg = tangent(from.c, from.rho, goal.c, goal.rho)?;
    let (t1, _, v) = leg;
    let margin = r * (1.0 - 1e-9);
    let direction = |c: &Circle| tangent(from.c, from.rho, c.c, c.rho).map(|(_, _, v)| v);
    // The corner so far and its tangent's direction from `from`.
    let mut corner: Option<(Circle, Option<DVec2>)> = None;
    for (i, p) in portals.iter().enumerate().skip(from.index) {
        for (c, rho) in [(p.left, r), (p.right, -r)] {
            // An end on its side of the leg's line, `margin` or more from it, is clear of
            // the leg: one cross product decides for most ends.
            if cross(v, c - t1) * rho.signum() >= margin {
                continue;
            }
            let end = Circle {
                c,
                rho,
                index: i + 1,
            };
            if end.same(from) || leg_test(leg, &end, margin).0 {
                continue;
            }
            let turn = direction(&end);
            corner = match corner {
                None => Some((end, turn)),
                // Left ends (ρ > 0) bind more the further clockwise their tangent turns.
                Some((best, Some(w)))
                    if best.rho == rho
                        && turn.is_some_and(|v| rho.signum() * cross(w, v) < 0.0) =>
                {
                    Some((end, turn))
                }
                keep => keep,
            };
        }
    }
    corner.map(|(end, _)| end)
}

/// The 0-based portal for a funnel index (0 start, 1..=n portals, n + 1 goal), clamped to
/// the nearest portal; 0 when there are none.
pub(super) fn portal_of(index: usize, n: usize) -> usize {
    index.clamp(1, n.max(1)) - 1
}

/// Turns the wrapped corner circles into tangent segments and circumscribed arcs of radius
/// `r` (see the module docs).
pub(super) struct Rounder<'a> {
    out: &'a mut Vec<DVec2>,
    r: f64,
    /// The previous circle (the start point at first).
    prev: Circle,
    /// Where the path arrived on the previous circle.
    arrived: DVec2,
}

impl<'a> Rounder<'a> {
    pub(super) fn new(start: DVec2, r: f64, out: &'a mut Vec<DVec2>) -> Self {
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

    pub(super) fn corner(&mut self, next: Circle, portals: &[Portal]) -> Result<()> {
        if next.same(&self.prev) {
            return Ok(()); // the same corner seen through another portal
        }
        self.step_to(next, portals)
    }

    /// Ends the path at `goal`: from the last corner, when `check_last_leg`, by way of any
    /// portal end the chains let go that the last leg would cut ([`cut_on_last_leg`]),
    /// then to the goal.
    pub(super) fn finish(
        mut self,
        goal: DVec2,
        portals: &[Portal],
        check_last_leg: bool,
    ) -> Result<()> {
        let goal = Circle {
            c: goal,
            rho: 0.0,
            index: portals.len() + 1,
        };
        if check_last_leg {
            while let Some(corner) = cut_on_last_leg(&self.prev, &goal, portals, self.r) {
                self.step_to(corner, portals)?;
            }
        }
        self.step_to(goal, portals)?;
        push_distinct(self.out, goal.c);
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
pub(super) fn grazed(c: DVec2, rho: f64, from: DVec2, to: DVec2) -> Option<DVec2> {
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
pub(super) fn tangent(c1: DVec2, rho1: f64, c2: DVec2, rho2: f64) -> Option<(DVec2, DVec2, DVec2)> {
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
