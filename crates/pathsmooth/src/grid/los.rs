//! Exact line of sight on a grid map, following the validity rule of [`crate::world`] to
//! the letter.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "Line of sight".)

use glam::{DVec2, IVec2};
use robust::{orient2d, Coord};

use crate::grid::distance::DistanceField;
use crate::grid::map::GridMap;

/// Why a segment (or a path) is not collision-free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collision {
    /// The segment enters the interior of the blocked region. `cell` is the first blocked
    /// cell met along the segment (for a seam, one of the two cells beside it; for a point
    /// outside the map, the outside cell containing it).
    Interior {
        /// A blocked (or outside) cell the segment enters.
        cell: IVec2,
    },
    /// The segment passes straight through a pinch vertex, or the path bends on one from
    /// one free quadrant into the other.
    Pinch {
        /// The grid vertex (x, y) of the pinch.
        vertex: IVec2,
    },
    /// A coordinate is NaN or infinite.
    NonFinite,
}

/// True when the closed segment `a`–`b` is collision-free (the rule of [`crate::world`]):
/// it does not enter the interior of the blocked region and does not pass through a pinch vertex.
/// Endpoints may lie on walls and corners (touching is allowed). Non-finite points are
/// never free.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::grid::{segment_is_free, GridMap};
/// // A diagonal pinch: `@` at top-left and bottom-right of vertex (1, 1).
/// let map = GridMap::from_rows(&["@.", ".@"])?;
/// assert!(!segment_is_free(&map, DVec2::new(1.5, 0.5), DVec2::new(0.5, 1.5)));
/// // Ending on the pinch vertex only touches the two corners.
/// assert!(segment_is_free(&map, DVec2::new(1.5, 0.5), DVec2::new(1.0, 1.0)));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn segment_is_free(map: &GridMap, a: DVec2, b: DVec2) -> bool {
    segment_collision(map, a, b).is_none()
}

/// The first collision along the segment `a`–`b` (walking from `a`), or `None` when the
/// segment is collision-free. See the module docs for the rule and the method.
///
/// ```
/// use glam::{DVec2, IVec2};
/// use pathsmooth::grid::{segment_collision, Collision, GridMap};
/// // A two-cell-thick wall: the seam y = 1 between its rows is inside the wall.
/// let map = GridMap::from_rows(&["...", "@@@", "@@@", "..."])?;
/// assert!(matches!(
///     segment_collision(&map, DVec2::new(0.0, 2.0), DVec2::new(3.0, 2.0)),
///     Some(Collision::Interior { .. })
/// ));
/// // Its outer surface y = 1 is fine.
/// assert_eq!(segment_collision(&map, DVec2::new(0.0, 1.0), DVec2::new(3.0, 1.0)), None);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn segment_collision(map: &GridMap, a: DVec2, b: DVec2) -> Option<Collision> {
    if !a.is_finite() || !b.is_finite() {
        return Some(Collision::NonFinite);
    }
    // The map rectangle is convex: a segment with both endpoints in it stays in it, and a
    // segment with an endpoint strictly outside starts (or ends) in the open exterior.
    for p in [a, b] {
        if !in_closed_rect(map, p) {
            return Some(Collision::Interior {
                cell: outside_cell(p),
            });
        }
    }
    if a == b {
        return point_collision(map, a);
    }
    if a.y == b.y {
        return axis_segment_collision(map, a.x, b.x, a.y, false);
    }
    if a.x == b.x {
        return axis_segment_collision(map, a.y, b.y, a.x, true);
    }
    traverse(map, a, b)
}

/// True when the point `p` is not in the interior of the blocked region (it may touch a
/// wall). Non-finite points are never free.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::grid::{point_is_free, GridMap};
/// let map = GridMap::from_rows(&[".@"])?;
/// assert!(point_is_free(&map, DVec2::new(1.0, 0.5))); // on the wall's surface
/// assert!(!point_is_free(&map, DVec2::new(1.5, 0.5))); // inside it
/// assert!(!point_is_free(&map, DVec2::new(-0.1, 0.5))); // outside the map
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn point_is_free(map: &GridMap, p: DVec2) -> bool {
    if !p.is_finite() {
        return false;
    }
    if !in_closed_rect(map, p) {
        return false;
    }
    point_collision(map, p).is_none()
}

/// True when grid vertex (x, y) is a pinch: exactly two of its four cells are blocked and
/// they are diagonally opposite (cells outside the map count as blocked).
///
/// ```
/// use pathsmooth::grid::{is_pinch, GridMap};
/// let map = GridMap::from_rows(&["@.", ".@"])?;
/// assert!(is_pinch(&map, 1, 1));
/// assert!(!is_pinch(&map, 0, 0)); // three outside cells and one blocked
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn is_pinch(map: &GridMap, x: i64, y: i64) -> bool {
    let tl = map.is_blocked(x - 1, y - 1);
    let tr = map.is_blocked(x, y - 1);
    let bl = map.is_blocked(x - 1, y);
    let br = map.is_blocked(x, y);
    (tl && br && !tr && !bl) || (tr && bl && !tl && !br)
}

/// The pinch vertex a path bends through at `v`, arriving from `prev` and leaving to
/// `next`, or `None`. A bend collides only when `v` is exactly a pinch vertex and the
/// incoming and outgoing segments lie in different free quadrants of it (a path may touch a
/// pinch vertex and turn back into the quadrant it came from).
///
/// ```
/// use glam::{DVec2, IVec2};
/// use pathsmooth::grid::{bend_pinch, GridMap};
/// let map = GridMap::from_rows(&["@.", ".@"])?;
/// let v = DVec2::new(1.0, 1.0);
/// let (ne, sw) = (DVec2::new(1.5, 0.5), DVec2::new(0.5, 1.5));
/// assert_eq!(bend_pinch(&map, ne, v, sw), Some(IVec2::new(1, 1)));
/// assert_eq!(bend_pinch(&map, ne, v, DVec2::new(2.0, 0.0)), None);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn bend_pinch(map: &GridMap, prev: DVec2, v: DVec2, next: DVec2) -> Option<IVec2> {
    if !v.is_finite() || v.fract() != DVec2::ZERO || !in_closed_rect(map, v) {
        return None;
    }
    let (x, y) = (v.x as i64, v.y as i64);
    if !is_pinch(map, x, y) {
        return None;
    }
    // Each direction that does not enter the blocked quadrants lies in exactly one of the
    // two closed free quadrants (they share only the vertex). Comparing coordinates with
    // the vertex is exact.
    let top_left_blocked = map.is_blocked(x - 1, y - 1);
    let quadrant = |p: DVec2| -> bool {
        if top_left_blocked {
            // Free quadrants: top-right and bottom-left. True = top-right.
            p.x > v.x || p.y < v.y
        } else {
            // Free quadrants: top-left and bottom-right. True = top-left.
            p.x < v.x || p.y < v.y
        }
    };
    (quadrant(prev) != quadrant(next)).then(|| IVec2::new(x as i32, y as i32))
}

/// The first collision of a polyline: a segment that collides (see [`segment_collision`])
/// or a bend through a pinch vertex ([`bend_pinch`]). Duplicate consecutive points are
/// skipped when looking for bends. Returns the collision and the index of the segment
/// (for a bend, of the point) where it happens.
///
/// ```
/// use glam::{DVec2, IVec2};
/// use pathsmooth::grid::{path_collision, Collision, GridMap};
/// let map = GridMap::from_rows(&["...", ".@.", "..."])?;
/// let path = [DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5), DVec2::new(0.5, 2.5)];
/// assert_eq!(path_collision(&map, &path), Some((1, Collision::Interior { cell: IVec2::new(1, 1) })));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn path_collision(map: &GridMap, path: &[DVec2]) -> Option<(usize, Collision)> {
    if path.len() == 1 {
        return point_collision_checked(map, path[0]).map(|c| (0, c));
    }
    for (i, w) in path.windows(2).enumerate() {
        if let Some(c) = segment_collision(map, w[0], w[1]) {
            return Some((i, c));
        }
    }
    bends(path).find_map(|(prev, i, next)| {
        bend_pinch(map, path[prev], path[i], path[next])
            .map(|vertex| (i, Collision::Pinch { vertex }))
    })
}

/// True when the polyline is collision-free: every segment is free and no bend crosses a
/// pinch vertex. A single point must not be inside a wall.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::grid::{path_is_free, GridMap};
/// let map = GridMap::from_rows(&["@.", ".@"])?;
/// let v = DVec2::new(1.0, 1.0);
/// // Both segments only touch the pinch vertex, but together they squeeze through it.
/// assert!(!path_is_free(&map, &[DVec2::new(1.5, 0.5), v, DVec2::new(0.5, 1.5)]));
/// assert!(path_is_free(&map, &[DVec2::new(1.5, 0.5), v, DVec2::new(1.5, 0.2)]));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn path_is_free(map: &GridMap, path: &[DVec2]) -> bool {
    path_collision(map, path).is_none()
}

/// Line of sight for an agent of radius `radius`: with `radius == 0` exactly
/// [`segment_is_free`]; with `radius > 0`, true when every point of the segment has
/// clearance ≥ `radius` ([`DistanceField::segment_clear_of`]). A negative or NaN radius
/// is never clear.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::grid::{DistanceField, segment_is_clear, GridMap};
/// let map = GridMap::from_rows(&["....", "....", "@@@@"])?;
/// let field = DistanceField::new(&map);
/// let (a, b) = (DVec2::new(0.5, 1.5), DVec2::new(3.5, 1.5));
/// assert!(segment_is_clear(&map, &field, a, b, 0.5)); // exactly 0.5 from the wall
/// assert!(!segment_is_clear(&map, &field, a, b, 0.6));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn segment_is_clear(
    map: &GridMap,
    field: &DistanceField,
    a: DVec2,
    b: DVec2,
    radius: f64,
) -> bool {
    if radius == 0.0 {
        segment_is_free(map, a, b)
    } else if radius > 0.0 {
        // Clearance ≥ r > 0 implies not touching the blocked region at all; the exact
        // cell walk is much cheaper and rejects most candidates.
        segment_is_free(map, a, b) && field.segment_clear_of(a, b, radius)
    } else {
        false
    }
}

/// [`segment_is_clear`] for every segment of a polyline; with `radius == 0` this is
/// [`path_is_free`] (bends on pinch vertices included).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::grid::{DistanceField, path_is_clear, GridMap};
/// let map = GridMap::from_rows(&["...", "...", "..."])?;
/// let field = DistanceField::new(&map);
/// let path = [DVec2::new(1.5, 1.5), DVec2::new(1.5, 0.5)];
/// assert!(path_is_clear(&map, &field, &path, 0.5));
/// assert!(!path_is_clear(&map, &field, &path, 0.75));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn path_is_clear(map: &GridMap, field: &DistanceField, path: &[DVec2], radius: f64) -> bool {
    if radius == 0.0 {
        return path_is_free(map, path);
    }
    if path.len() == 1 {
        return segment_is_clear(map, field, path[0], path[0], radius);
    }
    path.windows(2)
        .all(|w| segment_is_clear(map, field, w[0], w[1], radius))
}

/// True when the closed segment `a`–`b` meets the open square of `cell` (so, if the cell
/// is blocked, the segment collides). Exact; see [`segment_enters_open_box`].
#[cfg(test)]
pub(crate) fn segment_enters_cell(a: DVec2, b: DVec2, cell: IVec2) -> bool {
    let lo = cell.as_dvec2();
    segment_enters_open_box(a, b, lo, lo + DVec2::ONE)
}

/// True when the closed segment `a`–`b` meets the open box `(lo, hi)`. Exact: by the
/// separating axis theorem the segment misses the open box only if the x or y extents do
/// not overlap, or all four corners lie weakly on one side of the segment's line (exact
/// orientation signs, Shewchuk's predicate). Only two corners need asking: the orientation
/// of corner `c` is `n · (c − a)` for the line's normal `n = (a.y − b.y, b.x − a.x)`, whose
/// highest and lowest corners follow from the signs of `n`'s components, and those signs
/// are exact (a rounded difference of two floats has the sign of the true one).
pub(crate) fn segment_enters_open_box(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2) -> bool {
    if a.x.max(b.x) <= lo.x || a.x.min(b.x) >= hi.x || a.y.max(b.y) <= lo.y || a.y.min(b.y) >= hi.y
    {
        return false;
    }
    if a == b {
        return true;
    }
    let (nx_positive, ny_positive) = (a.y > b.y, b.x > a.x);
    let highest = Coord {
        x: if nx_positive { hi.x } else { lo.x },
        y: if ny_positive { hi.y } else { lo.y },
    };
    let lowest = Coord {
        x: if nx_positive { lo.x } else { hi.x },
        y: if ny_positive { lo.y } else { hi.y },
    };
    let (pa, pb) = (Coord { x: a.x, y: a.y }, Coord { x: b.x, y: b.y });
    orient2d(pa, pb, highest) > 0.0 && orient2d(pa, pb, lowest) < 0.0
}

/// The interior bends of a path as (previous distinct point, vertex, next distinct point)
/// index triples, skipping duplicate consecutive points.
pub(crate) fn bends<P: PartialEq>(path: &[P]) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let mut prev: Option<usize> = None;
    (0..path.len()).filter_map(move |i| {
        if i + 1 >= path.len() || path[i + 1] == path[i] {
            return None;
        }
        // `i` is the last of a run of equal points; the previous distinct point ends the
        // run before it.
        let result = prev.map(|p| (p, i, i + 1));
        prev = Some(i);
        result
    })
}

fn in_closed_rect(map: &GridMap, p: DVec2) -> bool {
    p.x >= 0.0 && p.y >= 0.0 && p.x <= map.width() as f64 && p.y <= map.height() as f64
}

fn outside_cell(p: DVec2) -> IVec2 {
    let f = p
        .floor()
        .clamp(DVec2::splat(i32::MIN as f64), DVec2::splat(i32::MAX as f64));
    IVec2::new(f.x as i32, f.y as i32)
}

fn point_collision_checked(map: &GridMap, p: DVec2) -> Option<Collision> {
    if !p.is_finite() {
        return Some(Collision::NonFinite);
    }
    if !in_closed_rect(map, p) {
        return Some(Collision::Interior {
            cell: outside_cell(p),
        });
    }
    point_collision(map, p)
}

/// A point of the closed map rectangle is in the blocked interior exactly when every cell
/// whose closed square contains it is blocked (one cell, two across an edge, four around a
/// vertex).
fn point_collision(map: &GridMap, p: DVec2) -> Option<Collision> {
    let fx = p.x.floor();
    let fy = p.y.floor();
    let xs = if fx == p.x {
        [fx as i64 - 1, fx as i64]
    } else {
        [fx as i64; 2]
    };
    let ys = if fy == p.y {
        [fy as i64 - 1, fy as i64]
    } else {
        [fy as i64; 2]
    };
    let all_blocked = xs.iter().all(|&x| ys.iter().all(|&y| map.is_blocked(x, y)));
    all_blocked.then(|| Collision::Interior {
        cell: IVec2::new(fx as i32, fy as i32),
    })
}

impl Collision {
    /// Axis runs are computed in (along, across) coordinates; map back to (x, y).
    fn swap_if(self, swap: bool) -> Self {
        let s = |v: IVec2| if swap { IVec2::new(v.y, v.x) } else { v };
        match self {
            Collision::Interior { cell } => Collision::Interior { cell: s(cell) },
            Collision::Pinch { vertex } => Collision::Pinch { vertex: s(vertex) },
            Collision::NonFinite => Collision::NonFinite,
        }
    }
}

/// [`axis_run`] on the map for a horizontal segment (`vertical` false: along is x, across
/// is y) or a vertical one (`vertical` true: along is y, across is x), the collision
/// reported back in map (x, y) coordinates.
fn axis_segment_collision(
    map: &GridMap,
    from: f64,
    to: f64,
    across: f64,
    vertical: bool,
) -> Option<Collision> {
    let to_xy = |along: i64, across: i64| {
        if vertical {
            (across, along)
        } else {
            (along, across)
        }
    };
    axis_run(
        from,
        to,
        across,
        |along, across| {
            let (x, y) = to_xy(along, across);
            map.is_blocked(x, y)
        },
        |along, across| {
            let (x, y) = to_xy(along, across);
            is_pinch(map, x, y)
        },
    )
    .map(|c| c.swap_if(vertical))
}

/// An axis-parallel segment from `from` to `to` (along-axis coordinates) on the line
/// `across` = const. `blocked(along, across)` and `pinch(along, across)` see the map in
/// these coordinates. Collisions are reported in (along, across) coordinates.
fn axis_run(
    from: f64,
    to: f64,
    across: f64,
    blocked: impl Fn(i64, i64) -> bool,
    pinch: impl Fn(i64, i64) -> bool,
) -> Option<Collision> {
    let (lo, hi) = if from <= to { (from, to) } else { (to, from) };
    // Unit stretches [k, k+1] that overlap [lo, hi] with positive length.
    let (k0, k1) = (lo.floor() as i64, hi.ceil() as i64);
    let on_line = across.fract() == 0.0;
    let row = across.floor() as i64;
    let forward = from <= to;
    for s in 0..(k1 - k0) {
        let k = if forward { k0 + s } else { k1 - 1 - s };
        // On a grid line the stretch lies between rows `row - 1` and `row`: it is inside
        // the blocked region only when both are blocked (a seam). Off a line it lies inside
        // row `row`.
        let inside = if on_line {
            blocked(k, row - 1) && blocked(k, row)
        } else {
            blocked(k, row)
        };
        if inside {
            return Some(Collision::Interior {
                cell: IVec2::new(k as i32, row as i32),
            });
        }
        // The vertex at the far end of this stretch, if strictly inside the segment.
        let v = if forward { k + 1 } else { k };
        if on_line && (v as f64) > lo && (v as f64) < hi && pinch(v, row) {
            return Some(Collision::Pinch {
                vertex: IVec2::new(v as i32, row as i32),
            });
        }
    }
    None
}

/// Exact cell walk for a segment that is parallel to neither axis. Both endpoints lie in
/// the closed map rectangle, so every cell visited is inside the map.
fn traverse(map: &GridMap, a: DVec2, b: DVec2) -> Option<Collision> {
    let d = b - a;
    let (sx, sy) = (d.x.signum() as i64, d.y.signum() as i64);
    // The cell holding the start of the open segment (a + εd) and its end (b − εd).
    let first = |v: f64, s: i64| {
        if s > 0 {
            v.floor() as i64
        } else {
            v.ceil() as i64 - 1
        }
    };
    let last = |v: f64, s: i64| {
        if s > 0 {
            v.ceil() as i64 - 1
        } else {
            v.floor() as i64
        }
    };
    let (mut cx, mut cy) = (first(a.x, sx), first(a.y, sy));
    let (ex, ey) = (last(b.x, sx), last(b.y, sy));
    let pa = Coord { x: a.x, y: a.y };
    let pb = Coord { x: b.x, y: b.y };
    // Exact arithmetic visits exactly |ex − cx| + |ey − cy| + 1 cells or fewer (corners
    // count once); the bound only guards against a broken invariant.
    let max_steps = (ex - cx).abs() + (ey - cy).abs() + 1;
    for _ in 0..=max_steps {
        if map.is_blocked(cx, cy) {
            return Some(Collision::Interior {
                cell: IVec2::new(cx as i32, cy as i32),
            });
        }
        if cx == ex && cy == ey {
            return None;
        }
        // The corner of the current cell the segment heads for. The segment crosses the
        // vertical line through it first when t_x < t_y, which (multiplying by d.x·d.y)
        // is orient(a, b, corner)·sign(d.x)·sign(d.y) > 0; zero means exactly through it.
        let corner = (cx + (sx > 0) as i64, cy + (sy > 0) as i64);
        let o = orient2d(
            pa,
            pb,
            Coord {
                x: corner.0 as f64,
                y: corner.1 as f64,
            },
        ) * (sx * sy) as f64;
        if o > 0.0 {
            cx += sx;
        } else if o < 0.0 {
            cy += sy;
        } else {
            // Through the corner, strictly inside the segment (the end cell is not yet
            // reached, so b lies beyond it).
            if is_pinch(map, corner.0, corner.1) {
                return Some(Collision::Pinch {
                    vertex: IVec2::new(corner.0 as i32, corner.1 as i32),
                });
            }
            cx += sx;
            cy += sy;
        }
    }
    debug_assert!(false, "grid traversal overran its end cell");
    Some(Collision::Interior {
        cell: IVec2::new(cx as i32, cy as i32),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// Asking two corners answers as asking all four does: over random segments and boxes
    /// on a half-cell lattice (segments along box sides, through corners, of zero length)
    /// and off it.
    #[test]
    fn two_corners_answer_as_four_do() {
        let four = |a: DVec2, b: DVec2, lo: DVec2, hi: DVec2| {
            let overlap = a.x.max(b.x) > lo.x
                && a.x.min(b.x) < hi.x
                && a.y.max(b.y) > lo.y
                && a.y.min(b.y) < hi.y;
            let c = |q: DVec2| Coord { x: q.x, y: q.y };
            let o: Vec<f64> = [lo, p(hi.x, lo.y), p(lo.x, hi.y), hi]
                .iter()
                .map(|&q| orient2d(c(a), c(b), c(q)))
                .collect();
            overlap && (a == b || (o.iter().any(|&v| v > 0.0) && o.iter().any(|&v| v < 0.0)))
        };
        let mut next = crate::test_fixtures::uniform(0x9e37_79b9_7f4a_7c15u64);
        for trial in 0..20_000 {
            let lattice = trial % 2 == 0;
            let mut q = || {
                let v = next() * 6.0;
                if lattice {
                    (v * 2.0).floor() / 2.0
                } else {
                    v
                }
            };
            let (a, b) = (p(q(), q()), p(q(), q()));
            let (c, d) = (p(q(), q()), p(q(), q()));
            let (lo, hi) = (c.min(d), c.max(d) + DVec2::splat(0.5));
            assert_eq!(
                segment_enters_open_box(a, b, lo, hi),
                four(a, b, lo, hi),
                "{a} {b} {lo} {hi}"
            );
        }
    }

    #[test]
    fn seam_and_surface() {
        let map = GridMap::from_rows(&["....", "@@@@", "@@@@", "...."]).unwrap();
        assert!(segment_is_free(&map, p(0.0, 1.0), p(4.0, 1.0)));
        assert!(!segment_is_free(&map, p(0.0, 2.0), p(4.0, 2.0)));
        assert!(!segment_is_free(&map, p(4.0, 2.0), p(0.0, 2.0)));
        assert!(segment_is_free(&map, p(0.0, 3.0), p(4.0, 3.0)));
    }

    #[test]
    fn border_from_inside_is_touching() {
        let map = GridMap::from_rows(&["...", "..."]).unwrap();
        assert!(segment_is_free(&map, p(0.0, 0.0), p(3.0, 0.0)));
        assert!(segment_is_free(&map, p(3.0, 0.0), p(3.0, 2.0)));
        assert!(segment_is_free(&map, p(0.0, 0.0), p(3.0, 2.0)));
        assert!(!segment_is_free(&map, p(0.0, 0.0), p(3.1, 2.0)));
        let walled = GridMap::from_rows(&["@..", "..."]).unwrap();
        // Along the border beside a blocked border cell: outside + blocked = seam.
        assert!(!segment_is_free(&walled, p(0.0, 0.0), p(3.0, 0.0)));
        assert!(!segment_is_free(&walled, p(0.0, 0.0), p(0.0, 2.0)));
    }

    #[test]
    fn pinch_on_axis_and_diagonal() {
        let map = GridMap::from_rows(&["...", ".@.", "..@", "..."]).unwrap();
        // Vertex (2, 2) is a pinch: cells (1,1) and (2,2) blocked.
        assert!(is_pinch(&map, 2, 2));
        assert!(!segment_is_free(&map, p(0.0, 2.0), p(3.0, 2.0)));
        assert!(!segment_is_free(&map, p(2.0, 0.0), p(2.0, 4.0)));
        assert!(!segment_is_free(&map, p(3.0, 1.0), p(1.0, 3.0)));
        assert!(segment_is_free(&map, p(3.0, 1.0), p(2.0, 2.0)));
        assert!(segment_is_free(&map, p(2.0, 0.0), p(2.0, 2.0)));
    }

    #[test]
    fn bends_skip_duplicates() {
        let path = [p(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0), p(2.0, 0.0)];
        let v: Vec<_> = bends(&path).collect();
        assert_eq!(v, vec![(0, 2, 3)]);
    }

    proptest::proptest! {
        /// Against dense sampling on the quarter lattice, where any stretch of a segment
        /// inside an open unit square is longer than 0.01.
        #[test]
        fn segment_enters_cell_matches_sampling(
            ax in -4i32..16, ay in -4i32..16, bx in -4i32..16, by in -4i32..16,
            cx in 0i32..3, cy in 0i32..3,
        ) {
            let (a, b) = (p(ax as f64 / 4.0, ay as f64 / 4.0), p(bx as f64 / 4.0, by as f64 / 4.0));
            let cell = IVec2::new(cx, cy);
            let inside = |q: DVec2| q.x > cx as f64 && q.x < (cx + 1) as f64 && q.y > cy as f64 && q.y < (cy + 1) as f64;
            // a + (b − a)·t, not glam's lerp (a·(1 − t) + b·t), which can put a sample of a
            // segment lying on a cell edge a rounding error inside the cell.
            let brute = (0..=4001).any(|k| inside(a + (b - a) * (k as f64 / 4001.0)));
            proptest::prop_assert_eq!(segment_enters_cell(a, b, cell), brute);
        }
    }

    #[test]
    fn non_finite_is_never_free() {
        let map = GridMap::from_rows(&["..."]).unwrap();
        assert_eq!(
            segment_collision(&map, p(f64::NAN, 0.0), p(1.0, 0.5)),
            Some(Collision::NonFinite)
        );
    }
}
