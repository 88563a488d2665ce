//! `geometry::segment_distance` against an exact oracle: on integer coordinates (scaled
//! by a power of two, so every coordinate and difference is exact in f64) the oracle
//! decides touching with integer orientations and computes each endpoint-to-segment
//! squared distance as an exact fraction. Points (a segment whose ends coincide),
//! collinear overlaps and shared ends are drawn often, as the wall queries meet them.

use glam::DVec2;
use pathsmooth::geometry::segment_distance;
use proptest::prelude::*;

type P = (i64, i64);

fn orient(a: P, b: P, c: P) -> i64 {
    ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).signum()
}

/// `r` on the closed segment `p`–`q`, exactly.
fn on(p: P, q: P, r: P) -> bool {
    orient(p, q, r) == 0
        && r.0 >= p.0.min(q.0)
        && r.0 <= p.0.max(q.0)
        && r.1 >= p.1.min(q.1)
        && r.1 <= p.1.max(q.1)
}

fn touch(a: P, b: P, c: P, d: P) -> bool {
    let proper = orient(a, b, c) * orient(a, b, d) < 0 && orient(c, d, a) * orient(c, d, b) < 0;
    proper || on(a, b, c) || on(a, b, d) || on(c, d, a) || on(c, d, b)
}

/// The squared distance from `p` to the segment `a`–`b`, as `num / den`, exactly.
fn to_segment(p: P, a: P, b: P) -> (i128, i128) {
    let (abx, aby) = ((b.0 - a.0) as i128, (b.1 - a.1) as i128);
    let (apx, apy) = ((p.0 - a.0) as i128, (p.1 - a.1) as i128);
    let len2 = abx * abx + aby * aby;
    let t = apx * abx + apy * aby;
    let square = |x: i128, y: i128| (x * x + y * y, 1);
    if len2 == 0 || t <= 0 {
        square(apx, apy)
    } else if t >= len2 {
        square((p.0 - b.0) as i128, (p.1 - b.1) as i128)
    } else {
        let cross = abx * apy - aby * apx;
        (cross * cross, len2)
    }
}

fn oracle(a: P, b: P, c: P, d: P) -> f64 {
    if touch(a, b, c, d) {
        return 0.0;
    }
    [
        to_segment(a, c, d),
        to_segment(b, c, d),
        to_segment(c, a, b),
        to_segment(d, a, b),
    ]
    .into_iter()
    .map(|(num, den)| (num as f64 / den as f64).sqrt())
    .fold(f64::INFINITY, f64::min)
}

/// A point of a small lattice (so that shared ends, collinear runs and points on
/// segments are common), or the first end again (a segment that is a point).
fn ends() -> impl Strategy<Value = (P, P)> {
    let p = (-6i64..=6, -6i64..=6);
    (p.clone(), p, any::<bool>()).prop_map(|(a, b, point)| (a, if point { a } else { b }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn segment_distance_is_the_exact_distance((a, b) in ends(), (c, d) in ends(), shift in -40i32..40) {
        let scale = 2f64.powi(shift);
        let v = |p: P| DVec2::new(p.0 as f64, p.1 as f64) * scale;
        let got = segment_distance(v(a), v(b), v(c), v(d));
        let want = oracle(a, b, c, d) * scale;
        if want == 0.0 {
            prop_assert_eq!(got, 0.0, "{:?} {:?} {:?} {:?} touch", a, b, c, d);
        } else {
            prop_assert!((got - want).abs() <= 1e-12 * want, "{:?} {:?} {:?} {:?}: {} ≠ {}", a, b, c, d, got, want);
        }
        // The same four terms in another order: the same least, bit for bit. (Reversing a
        // segment measures from its other end: equal within rounding, not to the bit.)
        prop_assert_eq!(got, segment_distance(v(c), v(d), v(a), v(b)));
        let reversed = segment_distance(v(b), v(a), v(d), v(c));
        prop_assert!((got - reversed).abs() <= 1e-12 * want);
    }
}
