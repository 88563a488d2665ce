//! An exact clearance check of a path on a grid map, independent of the library: it reads
//! only the map's cells and decides "every point of the path is at least `r` from the
//! blocked region" in rational arithmetic, so no tolerance can let a path through that runs
//! a rounding error inside the radius. Cell units, as the map (cell (x, y) is the closed
//! square [x, x+1] × [y, y+1]; everything outside the map is blocked, as in DESIGN.md).
//!
//! "At least `r`" is decided for the real-number clearance, less a stated `slack` that the
//! caller chooses (0 for the exact question): the exact clearance must be ≥ r − slack.
//! [`coordinate_slack`] is the one the sweeps use: a few units in the last place of the
//! path's coordinates, the rounding of a coordinate itself (10⁻¹³ at 500), far below any
//! tolerance (the library's input tolerance is 10⁻⁹ of the world's size).

use glam::DVec2;
use num_bigint::BigInt;
use num_rational::BigRational;
use pathsmooth::grid::GridMap;

/// Half-width of the band around `r` that the f64 filter leaves to exact arithmetic.
const FILTER: f64 = 1e-9;

/// The first place `path` comes closer than `r − slack` to the blocked region, exactly:
/// `Some((segment index, what))`, or `None` when the whole path keeps clearance ≥ r −
/// slack. A one-point path is checked as a point.
pub fn first_violation(
    map: &GridMap,
    path: &[DVec2],
    r: f64,
    slack: impl Fn(DVec2, DVec2) -> f64,
) -> Option<(usize, String)> {
    if path.len() == 1 {
        let s = slack(path[0], path[0]);
        return segment_violation(map, path[0], path[0], r, s).map(|w| (0, w));
    }
    path.windows(2).enumerate().find_map(|(i, p)| {
        let s = slack(p[0], p[1]);
        segment_violation(map, p[0], p[1], r, s).map(|w| (i, w))
    })
}

/// No slack: the exact question.
pub fn exactly(_: DVec2, _: DVec2) -> f64 {
    0.0
}

/// Eight units in the last place of the segment's largest coordinate: how far rounding
/// one coordinate moves a point, a few times over.
pub fn coordinate_slack(a: DVec2, b: DVec2) -> f64 {
    8.0 * f64::EPSILON * a.abs().max(b.abs()).max_element().max(1.0)
}

fn segment_violation(map: &GridMap, a: DVec2, b: DVec2, r: f64, slack: f64) -> Option<String> {
    if !a.is_finite() || !b.is_finite() {
        return Some(format!("non-finite point {a} or {b}"));
    }
    // The map's outside: a convex region's complement, so the segment's nearest point to
    // it is an endpoint.
    let (w, h) = (map.width() as f64, map.height() as f64);
    for p in [a, b] {
        // (coordinate, the edge's value, +1 for a lower edge and −1 for an upper one): the
        // signed distance inside the map is sign · (coordinate − edge).
        for (v, edge, sign, what) in [
            (p.x, 0.0, 1.0, "x = 0"),
            (p.x, w, -1.0, "x = width"),
            (p.y, 0.0, 1.0, "y = 0"),
            (p.y, h, -1.0, "y = height"),
        ] {
            let exact = || q(sign) * (q(v) - q(edge)) >= least(r, slack);
            if below(sign * (v - edge), r, exact) {
                return Some(format!("{p} is closer than {r} to the map edge {what}"));
            }
        }
    }
    // Every blocked cell whose square could come within r of the segment.
    let lo = (a.min(b) - DVec2::splat(r + 1.0)).floor();
    let hi = (a.max(b) + DVec2::splat(r + 1.0)).floor();
    for y in lo.y as i64..=hi.y as i64 {
        for x in lo.x as i64..=hi.x as i64 {
            let inside =
                (0..map.width() as i64).contains(&x) && (0..map.height() as i64).contains(&y);
            if !inside || !map.is_blocked(x, y) {
                continue;
            }
            let d = float_distance(a, b, x, y);
            if below(d, r, || exact_clear(a, b, x, y, r, slack)) {
                return Some(format!(
                    "{a} → {b} comes closer than {r} to blocked cell ({x}, {y}) (f64 distance {d})"
                ));
            }
        }
    }
    None
}

/// Whether a distance `d` computed in f64 is below `r`: decided by `d` where it is far from
/// `r`, else by `exact_at_least` (true when the exact distance is ≥ r).
fn below(d: f64, r: f64, exact_at_least: impl FnOnce() -> bool) -> bool {
    if d > r + FILTER {
        false
    } else if d < r - FILTER {
        true
    } else {
        !exact_at_least()
    }
}

/// `r − slack`, exactly.
fn least(r: f64, slack: f64) -> Q {
    q(r) - q(slack)
}

/// Distance in f64 from the segment a–b to the closed unit square of cell (x, y): zero when
/// they meet, else the least of the endpoints' distances to the square and the corners'
/// distances to the segment (the nearest pair of two disjoint convex sets includes a vertex
/// of one of them).
fn float_distance(a: DVec2, b: DVec2, x: i64, y: i64) -> f64 {
    let lo = DVec2::new(x as f64, y as f64);
    let hi = lo + DVec2::ONE;
    if clip(a, b, lo, hi) {
        return 0.0;
    }
    let to_square = |p: DVec2| (lo - p).max(p - hi).max(DVec2::ZERO).length();
    let to_segment = |c: DVec2| {
        let ab = b - a;
        let t = if ab == DVec2::ZERO {
            0.0
        } else {
            ((c - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        };
        (a + ab * t - c).length()
    };
    let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    corners
        .into_iter()
        .map(to_segment)
        .chain([to_square(a), to_square(b)])
        .fold(f64::INFINITY, f64::min)
}

/// Liang–Barsky in f64, with a little slack: true when the segment may meet the square.
/// Only a filter: a meeting segment has distance 0, which is far below any r tested.
fn clip(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = b - a;
    for (p, dp, l, h) in [(a.x, d.x, lo.x, hi.x), (a.y, d.y, lo.y, hi.y)] {
        if dp == 0.0 {
            if p < l || p > h {
                return false;
            }
        } else {
            let (mut u, mut v) = ((l - p) / dp, (h - p) / dp);
            if u > v {
                std::mem::swap(&mut u, &mut v);
            }
            t0 = t0.max(u);
            t1 = t1.min(v);
        }
    }
    t0 <= t1
}

type Q = BigRational;

fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite")
}

fn q2(p: DVec2) -> (Q, Q) {
    (q(p.x), q(p.y))
}

/// Exactly: the segment a–b keeps distance ≥ r − slack from the closed square of cell
/// (x, y).
fn exact_clear(a: DVec2, b: DVec2, x: i64, y: i64, r: f64, slack: f64) -> bool {
    let (a, b) = (q2(a), q2(b));
    let lo = (Q::from(BigInt::from(x)), Q::from(BigInt::from(y)));
    let one = Q::from(BigInt::from(1));
    let hi = (&lo.0 + &one, &lo.1 + &one);
    if exact_meets(&a, &b, &lo, &hi) {
        return false;
    }
    let r2 = least(r, slack) * least(r, slack);
    let corners = [
        (lo.0.clone(), lo.1.clone()),
        (hi.0.clone(), lo.1.clone()),
        (hi.0.clone(), hi.1.clone()),
        (lo.0.clone(), hi.1.clone()),
    ];
    corners.iter().all(|c| point_segment_d2(c, &a, &b) >= r2)
        && point_square_d2(&a, &lo, &hi) >= r2
        && point_square_d2(&b, &lo, &hi) >= r2
}

/// Exactly: the segment a–b meets the closed square [lo, hi] (Liang–Barsky over rationals).
fn exact_meets(a: &(Q, Q), b: &(Q, Q), lo: &(Q, Q), hi: &(Q, Q)) -> bool {
    let zero = Q::from(BigInt::from(0));
    let (mut t0, mut t1) = (zero.clone(), Q::from(BigInt::from(1)));
    for (p, e, l, h) in [(&a.0, &b.0, &lo.0, &hi.0), (&a.1, &b.1, &lo.1, &hi.1)] {
        let d = e - p;
        if d == zero {
            if p < l || p > h {
                return false;
            }
            continue;
        }
        let (mut u, mut v) = ((l - p) / &d, (h - p) / &d);
        if u > v {
            std::mem::swap(&mut u, &mut v);
        }
        t0 = t0.max(u);
        t1 = t1.min(v);
    }
    t0 <= t1
}

fn point_square_d2(p: &(Q, Q), lo: &(Q, Q), hi: &(Q, Q)) -> Q {
    let zero = Q::from(BigInt::from(0));
    let gap = |v: &Q, l: &Q, h: &Q| (l - v).max(v - h).max(zero.clone());
    let (dx, dy) = (gap(&p.0, &lo.0, &hi.0), gap(&p.1, &lo.1, &hi.1));
    &dx * &dx + &dy * &dy
}

fn point_segment_d2(c: &(Q, Q), a: &(Q, Q), b: &(Q, Q)) -> Q {
    let ab = (&b.0 - &a.0, &b.1 - &a.1);
    let ac = (&c.0 - &a.0, &c.1 - &a.1);
    let len2 = &ab.0 * &ab.0 + &ab.1 * &ab.1;
    let dot = &ac.0 * &ab.0 + &ac.1 * &ab.1;
    let zero = Q::from(BigInt::from(0));
    let d2 = |u: &Q, v: &Q| u * u + v * v;
    if len2 == zero || dot <= zero {
        d2(&ac.0, &ac.1)
    } else if dot >= len2 {
        d2(&(&c.0 - &b.0), &(&c.1 - &b.1))
    } else {
        let cross = &ab.0 * &ac.1 - &ab.1 * &ac.0;
        &cross * &cross / len2
    }
}
