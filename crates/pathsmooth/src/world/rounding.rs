//! Returning a path in the caller's precision without losing its clearance.
//!
//! The steps compute in `f64`. Rounding their path to `f32` moves each coordinate by up to
//! half a unit in the last place (at 500 world units, 3·10⁻⁵), which takes a path built
//! exactly at the radius (a funnel's tangent to a corner) a little inside it. Inflating the
//! radius before planning would cover that, but it refuses what holds exactly: a start at
//! clearance exactly r, a passage exactly 2r wide (whose centre line is exactly
//! representable in `f32` anyway). So the rounding itself is made careful: each point goes
//! to its nearest `P`, and a point whose segments that takes into the radius moves to a
//! neighbouring value of `P` (a few units in the last place away) that keeps them clear.
//!
//! The same settling serves `f64` output: a funnel's tangent points, computed with square
//! roots, can land a few hundred `f64` units in the last place inside the radius (5·10⁻¹²
//! at 500 units), which an exact check refuses.

use glam::DVec2;

use super::{bends, Bounds, World};
use crate::geometry::{closest_on_segment, Point2};

/// The moves [`settle`] tries for a point, in units in the last place of `P` at the point:
/// the eight directions at 1, 2, 4, … 256 units (a path computed in `f64` can be off by a
/// few hundred `f64` units, far less than one `f32` unit).
const SCALES: [f64; 9] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// The eight directions of the steps.
const DIRECTIONS: [(f64, f64); 8] = [
    (1.0, 0.0),
    (1.0, 1.0),
    (0.0, 1.0),
    (-1.0, 1.0),
    (-1.0, 0.0),
    (-1.0, -1.0),
    (0.0, -1.0),
    (1.0, -1.0),
];

/// The binary fractions (2⁻ᵇ for these b) a point is also rounded to.
const DYADIC_BITS: [i32; 12] = [44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 1];

/// The shifts along a segment's normal [`nudge`] tries, as multiples of its shortfall.
const SHIFTS: [f64; 5] = [1.0, 1.001, 1.01, 1.1, 2.0];

/// Most candidates one nudge tries.
const CANDIDATES: usize =
    SCALES.len() * DIRECTIONS.len() + 2 * SHIFTS.len() + 3 * DYADIC_BITS.len();

/// Moves the points of `out` (a path rounded from `exact`, or computed in place: `None`)
/// whose segments or bends do not keep clearance `radius` as an output must (clearance ≥
/// radius as the world computes it, not radius minus an error allowance), or keep it only
/// within [`comfort`], to the nearest position that does (see [`Move`]: a few units in the
/// last place of `P`, a binary fraction, or off the wall by the shortfall). The first and
/// last points (the caller's own) stay.
///
/// Returns whether any point moved and whether every segment of `out` then holds (a
/// point that found no position that holds is left where it was).
///
/// Cost: one clearance test per segment; for each that fails, up to 108 candidate points
/// with three segment and bend tests each.
pub(crate) fn settle<P: Point2, W: World + ?Sized>(
    world: &W,
    exact: Option<&[DVec2]>,
    radius: f64,
    out: &mut [P],
) -> Settled {
    settle_on(&Asked(world), exact, radius, out)
}

/// A world behind a reference of any kind, itself sized, so that settling takes every
/// world as one `&dyn World`: one copy of [`settle_on`] and [`nudge`] in a build, not one
/// per world (four in the WebAssembly module, 18 KB). Forwards what settling asks of a
/// world; the rest is the trait's defaults, which settling never asks.
struct Asked<'a, W: ?Sized>(&'a W);

impl<W: World + ?Sized> World for Asked<'_, W> {
    type Query = ();

    fn bounds(&self) -> Bounds {
        self.0.bounds()
    }
    fn clearance(&self, p: DVec2) -> f64 {
        self.0.clearance(p)
    }
    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        self.0.segment_is_clear(a, b, radius)
    }
    fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        self.0.segment_clearance(a, b, cap)
    }
    fn bend_is_clear(&self, prev: DVec2, v: DVec2, next: DVec2, radius: f64) -> bool {
        self.0.bend_is_clear(prev, v, next, radius)
    }
    fn first_contact(&self, a: DVec2, b: DVec2, radius: f64) -> Option<DVec2> {
        self.0.first_contact(a, b, radius)
    }
    fn tolerance(&self) -> f64 {
        self.0.tolerance()
    }
}

/// [`settle`] on any world.
fn settle_on<P: Point2>(
    world: &dyn World,
    exact: Option<&[DVec2]>,
    radius: f64,
    out: &mut [P],
) -> Settled {
    let n = out.len();
    let mut settled = Settled {
        moved: false,
        holds: true,
    };
    for i in 0..n.saturating_sub(1) {
        let bends = bend_holds(world, out, i, radius) && bend_holds(world, out, i + 1, radius);
        // At radius 0 a path may touch a wall (any-angle paths touch corners).
        let comfortable = if radius == 0.0 {
            0.0
        } else {
            radius + comfort(out, i)
        };
        let clearance = segment_clearance(world, out, i, comfortable);
        if bends && clearance >= comfortable {
            continue;
        }
        // Holding, but only by the rounding of the clearance's computation: away from the
        // walls by that much where a nearby point allows (not in a passage exactly 2r
        // wide, where the centre line is exact).
        let level = if bends && clearance >= radius {
            comfortable
        } else {
            radius
        };
        // The later point if it is not the goal, else the earlier if it is not the start,
        // else both together (a segment tangent to a corner's circle between them).
        let movable = |j: &usize| *j != 0 && *j != n - 1;
        let fixed = [i + 1, i]
            .into_iter()
            .filter(movable)
            .any(|j| nudge(world, exact, out, &[j], (i, level), radius))
            || ([i, i + 1].iter().all(movable)
                && nudge(world, exact, out, &[i, i + 1], (i, level), radius));
        settled.moved |= fixed;
        settled.holds &= fixed || level > radius;
    }
    settled
}

/// At radius 0, turns each segment of `out` that passes a wall's corner on the wrong side
/// by no more than the world's [tolerance](World::tolerance) at that corner (and at every
/// other such corner along it): the exact search decides its turns in floating point, and
/// where a mesh's corners are collinear only up to rounding (a polygon whose vertices lie
/// on one line in the source's reals, written rotated) it can go straight past a corner
/// that sticks out by 10⁻¹⁶, which the exact check then refuses. A segment is changed only
/// when every piece between the corners is clear; the path's length changes by the square
/// of the corners' offsets. Returns whether any point was inserted.
///
/// Cost: one clear test a segment; for each that fails, the walls near it (the world's
/// [`walls_near`](World::walls_near) round its midpoint) and a clear test a piece; a
/// copy of the path when one fails.
pub(crate) fn turn_at_grazed_corners<P: Point2>(world: &dyn World, out: &mut Vec<P>) -> bool {
    let mut path: Vec<DVec2> = out.iter().map(|p| p.to_dvec2()).collect();
    if !turn_at_corners(world, &mut path) {
        return false;
    }
    out.clear();
    out.extend(path.into_iter().map(P::from_dvec2));
    true
}

/// [`turn_at_grazed_corners`] in `f64`; one function for every world and point type (the
/// WebAssembly build holds a copy of a generic function per pipeline it makes).
fn turn_at_corners(world: &dyn World, path: &mut Vec<DVec2>) -> bool {
    let tol = world.tolerance();
    let (mut walls, mut corners) = (Vec::new(), Vec::<(f64, DVec2)>::new());
    let mut changed = false;
    let mut i = 0;
    while i + 1 < path.len() {
        let (a, b) = (path[i], path[i + 1]);
        i += 1;
        if world.segment_is_clear(a, b, 0.0) {
            continue;
        }
        walls.clear();
        world.walls_near(a.lerp(b, 0.5), 0.5 * a.distance(b) + tol, &mut walls);
        corners.clear();
        // In order along the segment, each once (a corner ends two walls). Kept sorted by
        // insertion rather than sorted after: there are one or two, and a sort of their
        // own (with a splice) made the WebAssembly build 5.8 KB larger.
        for &c in walls.iter().flatten() {
            let (on, t) = closest_on_segment(c, a, b);
            if c != a && c != b && c.distance(on) <= tol && !corners.iter().any(|x| x.1 == c) {
                let k = corners.partition_point(|x| x.0 < t);
                corners.insert(k, (t, c));
            }
        }
        let turns = || corners.iter().map(|&(_, c)| c);
        let mut from = a;
        let pieces_clear = turns().chain([b]).all(|to| {
            let ok = world.segment_is_clear(from, to, 0.0);
            from = to;
            ok
        });
        if corners.is_empty() || !pieces_clear {
            continue;
        }
        for c in turns() {
            path.insert(i, c);
            i += 1;
        }
        changed = true;
    }
    changed
}

/// What [`settle`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settled {
    /// Some point moved (a path that was validated must be validated again).
    pub moved: bool,
    /// Every segment holds now.
    pub holds: bool,
}

/// How far a clearance computed in `f64` near segment `i` can be off: 4 units in the last
/// place of its largest coordinate (a clearance goes through a point on the segment in
/// world coordinates, rounded to one unit there; an exact check found computed clearances
/// of r whose true value was 10⁻¹⁵ below it, at coordinates near 400).
fn comfort<P: Point2>(path: &[P], i: usize) -> f64 {
    let (a, b) = (path[i].to_dvec2(), path[i + 1].to_dvec2());
    4.0 * f64::EPSILON * a.abs().max(b.abs()).max_element().max(1.0)
}

/// A move [`nudge`] tries, the same for every point it moves: `Steps` units in the last
/// place (of `P`, at the point) from its rounded position; a `Shift` by a vector (a
/// segment's normal times its shortfall); or a `Snap` of its exact x, y or both to a
/// multiple of 2⁻ᵇ.
#[derive(Clone, Copy)]
enum Move {
    Steps(DVec2),
    Shift(DVec2),
    Snap { bits: i32, x: bool, y: bool },
}

impl Move {
    /// Where the move takes a point rounded to `base` whose exact position is `aim`.
    fn place<P: Point2>(self, base: DVec2, aim: DVec2) -> DVec2 {
        match self {
            Move::Steps(d) => {
                let unit = DVec2::new(
                    unit_in_last_place::<P>(base.x),
                    unit_in_last_place::<P>(base.y),
                );
                base + unit * d
            }
            Move::Shift(d) => base + d,
            Move::Snap { bits, x, y } => {
                let scale = 2f64.powi(bits);
                let snapped = (aim * scale).round() / scale;
                DVec2::new(
                    if x { snapped.x } else { base.x },
                    if y { snapped.y } else { base.y },
                )
            }
        }
    }
}

/// Moves the points `js` (one, or two neighbours) by the same [`Move`], the one nearest to
/// their exact positions (`exact`, or where they are) that gives segment `target`
/// clearance ≥ `level` and keeps what held around them holding for `radius`; false (and
/// the points unchanged) when none does. Snaps may move a point as far as the world's
/// tolerance (the funnel's last resort in a passage exactly 2r wide runs that far off the
/// centre line); steps, at most [`SCALES`]' largest.
fn nudge<P: Point2>(
    world: &dyn World,
    exact: Option<&[DVec2]>,
    out: &mut [P],
    js: &[usize],
    (target, level): (usize, f64),
    radius: f64,
) -> bool {
    let n = out.len();
    let (first, last) = (js[0], js[js.len() - 1]);
    let farthest_step = Move::Steps(DVec2::splat(SCALES[SCALES.len() - 1]));
    // Per moved point, before anything moves: its rounded position, its exact one, and how
    // far the largest step takes it (the reach of the steps there).
    let mut points = [(out[first], DVec2::ZERO, 0.0); 2];
    for (point, &j) in points.iter_mut().zip(js) {
        let base = out[j].to_dvec2();
        let aim = exact.map_or(base, |e| e[j]);
        let reach = base.distance(farthest_step.place::<P>(base, aim));
        *point = (out[j], aim, reach);
    }
    let points = &points[..js.len()];
    // (how far the moved points go from their exact positions, the move); an array, so
    // that settling allocates nothing.
    let mut candidates = [(f64::INFINITY, farthest_step); CANDIDATES];
    let mut count = 0;
    let steps = SCALES
        .iter()
        .flat_map(|&s| DIRECTIONS.map(|(dx, dy)| Move::Steps(DVec2::new(dx, dy) * s)));
    let snaps = DYADIC_BITS.iter().flat_map(|&bits| {
        [(true, true), (true, false), (false, true)].map(|(x, y)| Move::Snap { bits, x, y })
    });
    // A segment short of the level by s moves off its wall by s (a little more, for the
    // chords of an arc, whose ends are further from the corner than their middle), either
    // way along its normal: the repair for a path built a hair inside the radius (the
    // funnel's last resort in a passage exactly 2r wide).
    let (a, b) = (out[target].to_dvec2(), out[target + 1].to_dvec2());
    let short = (level - segment_clearance(world, out, target, level)).max(0.0);
    let normal = (b - a).perp().normalize_or_zero();
    let shifts = SHIFTS
        .iter()
        .flat_map(|&k| [normal, -normal].map(|n| Move::Shift(n * short * k)));
    let tolerance = world.tolerance();
    for m in steps.chain(shifts).chain(snaps) {
        let (mut moved, mut within, mut far) = (false, true, 0.0f64);
        for &(rounded, aim, step_reach) in points {
            let base = rounded.to_dvec2();
            let c = P::from_dvec2(m.place::<P>(base, aim)).to_dvec2();
            let reach = match m {
                Move::Steps(_) => step_reach,
                Move::Shift(_) | Move::Snap { .. } => tolerance,
            };
            moved |= c != base;
            within &= c.distance(aim) <= reach;
            far = far.max(c.distance(aim));
        }
        if moved && within && count < CANDIDATES {
            candidates[count] = (far, m);
            count += 1;
        }
    }
    let candidates = &mut candidates[..count];
    // Nearest first, ties in the order tried (an insertion sort, stable: a few candidates,
    // and no sort instantiated for each world, 2.6 KB of the WebAssembly build).
    for i in 1..candidates.len() {
        let mut j = i;
        while j > 0 && candidates[j - 1].0.total_cmp(&candidates[j].0).is_gt() {
            candidates.swap(j - 1, j);
            j -= 1;
        }
    }
    // What moving the points changes: their segments and the bends at them and either
    // side. The move must make segment `target` hold and keep holding what held; a
    // segment on the far side may still fail, for the next step of `settle` (on a run of
    // points all off a passage's centre line, each is set right in turn).
    let segments = first.saturating_sub(1)..=last.min(n - 2);
    let bends = first.saturating_sub(1)..=(last + 1).min(n - 1);
    let mut held = [true; 7];
    for (h, k) in held.iter_mut().zip(segments.clone()) {
        *h = segment_holds(world, out, k, radius);
    }
    for (h, k) in held[3..].iter_mut().zip(bends.clone()) {
        *h = bend_holds(world, out, k, radius);
    }
    for &mut (_, m) in candidates {
        for (&(rounded, aim, _), &j) in points.iter().zip(js) {
            out[j] = P::from_dvec2(m.place::<P>(rounded.to_dvec2(), aim));
        }
        let keeps = segments.clone().zip(&held).all(|(k, &h)| {
            if k == target {
                segment_clearance(world, out, k, level) >= level
            } else {
                !h || segment_holds(world, out, k, radius)
            }
        }) && bends
            .clone()
            .zip(&held[3..])
            .all(|(k, &h)| !h || bend_holds(world, out, k, radius));
        if keeps {
            return true;
        }
    }
    for (&(rounded, _, _), &j) in points.iter().zip(js) {
        out[j] = rounded;
    }
    false
}

/// True when the segment from point `i` to point `i + 1` keeps clearance `radius` as an
/// output must: clear, and clearance ≥ radius as the world computes it.
fn segment_holds<P: Point2, W: World + ?Sized>(
    world: &W,
    path: &[P],
    i: usize,
    radius: f64,
) -> bool {
    segment_clearance(world, path, i, radius) >= radius
}

/// The clearance of segment `i` as the world computes it, up to `cap` (0 when it touches
/// a wall, so that a radius of 0 needs a clear segment too).
fn segment_clearance<P: Point2, W: World + ?Sized>(
    world: &W,
    path: &[P],
    i: usize,
    cap: f64,
) -> f64 {
    let (a, b) = (path[i].to_dvec2(), path[i + 1].to_dvec2());
    if world.first_contact(a, b, 0.0).is_some() {
        return -1.0;
    }
    if cap == 0.0 {
        0.0
    } else {
        world.segment_clearance(a, b, cap)
    }
}

/// True when the bend at point `i` (from the points either side; `bends` skips repeated
/// points) is clear, or there is none.
fn bend_holds<P: Point2, W: World + ?Sized>(world: &W, path: &[P], i: usize, radius: f64) -> bool {
    let from = i.saturating_sub(1);
    let around = &path[from..(i + 2).min(path.len())];
    let at = |k: usize| around[k].to_dvec2();
    bends(around).all(|(p, v, q)| world.bend_is_clear(at(p), at(v), at(q), radius))
}

/// The epsilon of `P`'s scalar, as `f64`.
fn epsilon<P: Point2>() -> f64 {
    crate::geometry::Scalar::to_f64(<P::Scalar as num_traits::Float>::epsilon())
}

/// The spacing of `P`'s values at `v` (a value of `P`): `P`'s epsilon at the power of two
/// at or below `|v|`. 0 for `v = 0`, whose neighbours are too close to matter for clearance.
fn unit_in_last_place<P: Point2>(v: f64) -> f64 {
    if v == 0.0 {
        return 0.0;
    }
    epsilon::<P>() * 2f64.powi(v.abs().log2().floor() as i32)
}

#[cfg(test)]
mod tests {
    use glam::DVec2;

    use super::turn_at_grazed_corners;
    use crate::navmesh::NavMesh;
    use crate::world::NavMeshWorld;
    use crate::World;

    /// A rectangle whose top wall dips at (1, 1 − 2⁻⁵³): one line in the reals, a corner
    /// sticking into the free space by 1.1·10⁻¹⁶ in `f64`.
    fn dipped() -> NavMeshWorld {
        let dip = DVec2::new(1.0, 1.0 - f64::EPSILON / 2.0);
        let v = [
            DVec2::ZERO,
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 1.0),
            dip,
            DVec2::new(0.0, 1.0),
        ];
        NavMeshWorld::new(NavMesh::from_polygons(&v, &[vec![0u32, 1, 2, 3, 4]]).unwrap())
    }

    #[test]
    fn a_segment_past_a_corner_that_sticks_out_by_a_rounding_error_turns_there() {
        let world = dipped();
        let (a, b) = (DVec2::new(0.0, 1.0), DVec2::new(2.0, 1.0));
        assert!(
            !world.segment_is_clear(a, b, 0.0),
            "the straight wall line is outside"
        );
        let mut path = vec![DVec2::new(0.5, 0.5), a, b, DVec2::new(1.5, 0.5)];
        assert!(turn_at_grazed_corners(&world, &mut path));
        let dip = DVec2::new(1.0, 1.0 - f64::EPSILON / 2.0);
        assert_eq!(
            path,
            [DVec2::new(0.5, 0.5), a, dip, b, DVec2::new(1.5, 0.5)]
        );
        assert!(path
            .windows(2)
            .all(|w| world.segment_is_clear(w[0], w[1], 0.0)));
        // Nothing left to turn.
        assert!(!turn_at_grazed_corners(&world, &mut path));
    }

    #[test]
    fn a_segment_through_a_wall_is_left_as_it_is() {
        // Across the top wall and back: no corner within the tolerance makes it clear.
        let world = dipped();
        let mut path = vec![
            DVec2::new(0.5, 0.5),
            DVec2::new(1.0, 3.0),
            DVec2::new(1.5, 0.5),
        ];
        let before = path.clone();
        assert!(!turn_at_grazed_corners(&world, &mut path));
        assert_eq!(path, before);
    }
}
