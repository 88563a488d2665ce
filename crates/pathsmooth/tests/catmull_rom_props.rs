//! Property tests for the Catmull-Rom spline: it interpolates its knots (every
//! parameterisation and end policy), keeps the end points, has the documented size,
//! agrees with point evaluation, and never turns finite input (duplicates and
//! near-duplicates included) into a non-finite output.

use glam::{DVec2, DVec3, Vec2, Vec3};
use pathsmooth::curve::{catmull_rom, CatmullRom, CatmullRomParams, Ends};
use pathsmooth::geometry::{max_coordinate, Point};
use proptest::prelude::*;

/// Paths with repeated points and near-duplicates: each step is a fresh point, an exact
/// copy of the previous one, or the previous one nudged by a tiny amount.
fn path_strategy(scale: f64, max_len: usize) -> impl Strategy<Value = Vec<[f64; 3]>> {
    prop::collection::vec(
        (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, 0u8..5, -30i32..0),
        2..max_len,
    )
    .prop_map(move |steps| {
        let mut out: Vec<[f64; 3]> = Vec::with_capacity(steps.len());
        for (x, y, z, kind, exp) in steps {
            let p = [x * scale, y * scale, z * scale];
            let next = match (out.last(), kind) {
                (Some(&prev), 1) => prev,
                (Some(&prev), 2) => {
                    let eps = 10f64.powi(exp) * scale;
                    [prev[0] + eps * x, prev[1] + eps * y, prev[2] + eps * z]
                        .map(|c| c.clamp(-scale, scale))
                }
                _ => p,
            };
            out.push(next);
        }
        out
    })
}

fn to_points<P: Point>(raw: &[[f64; 3]]) -> Vec<P> {
    raw.iter()
        .map(|c| P::from_coords(&c[..P::DIM]).unwrap())
        .collect()
}

fn ends_strategy() -> impl Strategy<Value = Ends> {
    prop_oneof![
        Just(Ends::Doubled),
        Just(Ends::Reflected),
        Just(Ends::Closed)
    ]
}

/// Checks every property for one point type.
fn check_all<P: Point>(
    raw: &[[f64; 3]],
    alpha: f64,
    ends: Ends,
    s: usize,
) -> Result<(), TestCaseError> {
    let path: Vec<P> = to_points(raw);
    let n = path.len();
    let params = CatmullRomParams::uniform(s)
        .with_alpha(alpha)
        .with_ends(ends);
    let out = catmull_rom(&path, &params).unwrap();
    // Size: (n−1)·s + 1 open, n·s closed.
    let expected = if ends == Ends::Closed {
        n * s
    } else {
        (n - 1) * s + 1
    };
    prop_assert_eq!(out.len(), expected);
    // Interpolation: output k·s is input k, bit for bit; end points kept.
    for (k, p) in path.iter().enumerate() {
        prop_assert_eq!(out[k * s], *p);
    }
    prop_assert_eq!(out[0], path[0]);
    if ends != Ends::Closed {
        prop_assert_eq!(*out.last().unwrap(), path[n - 1]);
    }
    // Finite everywhere.
    prop_assert!(out.iter().all(|p| p.is_finite()), "non-finite output");
    // Agrees with evaluation at the global parameter, and tangents are finite.
    let curve = CatmullRom::new(&path, alpha, ends).unwrap();
    let scale = path
        .iter()
        .map(|p| p.to_dvec3().abs().max_element())
        .fold(1.0, f64::max);
    let tol = if std::mem::size_of::<P::Scalar>() == 4 {
        1e-4
    } else {
        1e-11
    } * scale;
    for (idx, q) in out.iter().enumerate() {
        let u = (idx / s) as f64 + (idx % s) as f64 / s as f64;
        let e = curve.point_at(u).unwrap();
        prop_assert!(
            (e.to_dvec3() - q.to_dvec3()).length() <= tol,
            "u = {}: {:?} vs {:?}",
            u,
            e,
            q
        );
        prop_assert!(curve.tangent_at(u).unwrap().is_finite());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn uniform_and_centripetal_interpolate_and_stay_finite(
        raw in path_strategy(1000.0, 16),
        alpha in prop_oneof![Just(0.0), Just(0.5), Just(1.0), 0.0..=1.0f64],
        ends in ends_strategy(),
        s in 1usize..9,
    ) {
        check_all::<DVec2>(&raw, alpha, ends, s)?;
        check_all::<Vec2>(&raw, alpha, ends, s)?;
        check_all::<DVec3>(&raw, alpha, ends, s)?;
        check_all::<Vec3>(&raw, alpha, ends, s)?;
    }

    /// At the edge of the accepted range (f32 coordinates near max_coordinate) nothing
    /// overflows.
    #[test]
    fn huge_coordinates_stay_finite(
        raw in path_strategy(max_coordinate::<f32>() * 0.999, 10),
        alpha in prop_oneof![Just(0.0), Just(0.5), Just(1.0)],
        ends in ends_strategy(),
    ) {
        let path: Vec<Vec3> = to_points(&raw);
        let out = catmull_rom(&path, &CatmullRomParams::uniform(6).with_alpha(alpha).with_ends(ends)).unwrap();
        prop_assert!(out.iter().all(|p| p.is_finite()));
        let path: Vec<DVec2> = raw.iter().map(|c| DVec2::new(c[0], c[1]) * 1e134).collect();
        let out = catmull_rom(&path, &CatmullRomParams::uniform(6).with_alpha(alpha).with_ends(ends)).unwrap();
        prop_assert!(out.iter().all(|p| p.is_finite()));
    }

    /// Collinear input stays on its line for every α (the curve is an affine combination
    /// of the controls).
    #[test]
    fn collinear_input_stays_collinear(
        ts in prop::collection::vec(-100.0..100.0f64, 2..12),
        alpha in 0.0..=1.0f64,
        ends in ends_strategy(),
    ) {
        let dir = DVec2::new(3.0, -4.0) / 5.0;
        let path: Vec<DVec2> = ts.iter().map(|t| DVec2::new(1.0, 2.0) + dir * *t).collect();
        let out = catmull_rom(&path, &CatmullRomParams::uniform(5).with_alpha(alpha).with_ends(ends)).unwrap();
        for q in out {
            let off = (q - DVec2::new(1.0, 2.0)).perp_dot(dir);
            prop_assert!(off.abs() < 1e-9, "off the line by {}", off);
        }
    }
}

/// True when two non-adjacent chords of the sampled polyline cross properly (with a margin,
/// so rounding on nearly straight stretches does not count).
fn self_intersects(pts: &[DVec2]) -> bool {
    let scale = pts
        .iter()
        .map(|p| p.abs().max_element())
        .fold(1.0, f64::max);
    let eps = 1e-9 * scale * scale;
    let orient = |a: DVec2, b: DVec2, c: DVec2| (b - a).perp_dot(c - a);
    let n = pts.len();
    (0..n - 1).any(|i| {
        (i + 2..n - 1).any(|j| {
            let (a, b, c, d) = (pts[i], pts[i + 1], pts[j], pts[j + 1]);
            let (o1, o2) = (orient(a, b, c), orient(a, b, d));
            let (o3, o4) = (orient(c, d, a), orient(c, d, b));
            o1 * o2 < 0.0
                && o3 * o4 < 0.0
                && o1.abs().min(o2.abs()) > eps
                && o3.abs().min(o4.abs()) > eps
        })
    })
}

fn sampled_segment(p: [DVec2; 4], alpha: f64) -> Vec<DVec2> {
    let seg = pathsmooth::curve::Segment::from_controls(p, alpha);
    (0..=200).map(|k| seg.point(k as f64 / 200.0)).collect()
}

/// Yuksel et al. 2011: the uniform spline can loop inside a segment, the centripetal one
/// cannot. These controls (found by a random search) make the uniform segment loop.
#[test]
fn uniform_loops_where_centripetal_does_not() {
    let p = [(-0.8, 1.6), (2.1, 2.4), (2.2, 2.5), (-2.5, 4.8)].map(|(x, y)| DVec2::new(x, y));
    assert!(self_intersects(&sampled_segment(p, 0.0)));
    assert!(!self_intersects(&sampled_segment(p, 0.5)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Centripetal segments never self-intersect (Yuksel, Schaefer, Keyser 2011), also with
    /// repeated controls.
    #[test]
    fn centripetal_segments_do_not_self_intersect(
        raw in prop::collection::vec((-5.0..5.0f64, -5.0..5.0f64, 0u8..6), 4),
    ) {
        let mut p = [DVec2::ZERO; 4];
        for (k, &(x, y, kind)) in raw.iter().enumerate() {
            p[k] = if k > 0 && kind == 0 { p[k - 1] } else { DVec2::new(x, y) };
        }
        prop_assert!(!self_intersects(&sampled_segment(p, 0.5)), "{:?}", p);
    }
}
