//! Property tests of classic and adaptive Chaikin: point counts, endpoints, convex hull,
//! collinearity, no non-finite output, outlier removal, and agreement with geo's
//! `ChaikinSmoothing` where the two define the same curve.

use geo::{ChaikinSmoothing, Coord, LineString};
use glam::{DVec2, DVec3, Vec2};
use pathsmooth::curve::{
    chaikin, chaikin_adaptive, chaikin_in_place, chaikin_output_len, AdaptiveChaikin,
    AdaptiveParams, ChaikinParams,
};
use pathsmooth::geometry::{cross, turn_angle};
use proptest::prelude::*;

/// A 2D path of 2..24 points; roughly one point in four repeats its predecessor.
fn path2(range: f64) -> impl Strategy<Value = Vec<DVec2>> {
    prop::collection::vec(
        (
            (-range..range),
            (-range..range),
            any::<bool>(),
            any::<bool>(),
        ),
        2..24,
    )
    .prop_map(|raw| {
        let mut out: Vec<DVec2> = Vec::with_capacity(raw.len());
        for (x, y, dup_a, dup_b) in raw {
            match out.last() {
                Some(&last) if dup_a && dup_b => out.push(last),
                _ => out.push(DVec2::new(x, y)),
            }
        }
        out
    })
}

fn params() -> impl Strategy<Value = ChaikinParams> {
    (0.01f64..=0.5, 0u32..6, any::<bool>()).prop_map(|(ratio, passes, closed)| ChaikinParams {
        ratio,
        passes,
        closed,
    })
}

/// Convex hull by Andrew's monotone chain, counter-clockwise, without collinear points.
fn hull(points: &[DVec2]) -> Vec<DVec2> {
    let mut pts = points.to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut h: Vec<DVec2> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while h.len() >= start + 2
                && cross(h[h.len() - 1] - h[h.len() - 2], p - h[h.len() - 2]) <= 0.0
            {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    h
}

/// Distance from `p` to the convex polygon `h` (0 inside); handles 1- and 2-point hulls.
fn outside_distance(h: &[DVec2], p: DVec2) -> f64 {
    let seg = |a: DVec2, b: DVec2| {
        let ab = b - a;
        let t = if ab == DVec2::ZERO {
            0.0
        } else {
            ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        };
        p.distance(a + ab * t)
    };
    match h.len() {
        1 => p.distance(h[0]),
        2 => seg(h[0], h[1]),
        n => {
            let inside = (0..n).all(|i| {
                let (a, b) = (h[i], h[(i + 1) % n]);
                cross(b - a, p - a) >= 0.0
            });
            if inside {
                0.0
            } else {
                (0..n)
                    .map(|i| seg(h[i], h[(i + 1) % n]))
                    .fold(f64::INFINITY, f64::min)
            }
        }
    }
}

fn geo_line(points: &[DVec2]) -> LineString<f64> {
    points.iter().map(|p| Coord { x: p.x, y: p.y }).collect()
}

fn from_geo(line: &LineString<f64>) -> Vec<DVec2> {
    line.0.iter().map(|c| DVec2::new(c.x, c.y)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn counts_and_endpoints(path in path2(1e3), params in params()) {
        let out = chaikin(&path, &params).unwrap();
        let n = path.len();
        let expected = match (params.closed, n) {
            (false, 2) => 2,
            (false, _) => (n - 2) * (1 << params.passes) + 2,
            (true, _) => n * (1 << params.passes),
        };
        prop_assert_eq!(out.len(), expected);
        prop_assert_eq!(chaikin_output_len(n, params.passes, params.closed).unwrap(), expected);
        if !params.closed {
            prop_assert_eq!(out[0], path[0]);
            prop_assert_eq!(out[out.len() - 1], path[n - 1]);
        }
    }

    #[test]
    fn output_lies_in_the_convex_hull(path in path2(1e3), params in params()) {
        let h = hull(&path);
        let out = chaikin(&path, &params).unwrap();
        for p in &out {
            let d = outside_distance(&h, *p);
            prop_assert!(d <= 1e-9, "{p} is {d} outside the hull {h:?}");
        }
    }

    #[test]
    fn collinear_input_stays_collinear(
        origin in (-1e3f64..1e3, -1e3f64..1e3),
        angle in 0.0f64..std::f64::consts::TAU,
        ts in prop::collection::vec(-100.0f64..100.0, 2..20),
        params in params(),
    ) {
        let o = DVec2::new(origin.0, origin.1);
        let d = DVec2::from_angle(angle);
        let path: Vec<DVec2> = ts.iter().map(|&t| o + d * t).collect();
        for p in chaikin(&path, &params).unwrap() {
            prop_assert!(cross(d, p - o).abs() <= 1e-9, "{p} is off the line");
        }
        let adaptive = chaikin_adaptive(&path, &AdaptiveParams::default()).unwrap();
        for p in adaptive {
            prop_assert!(cross(d, p - o).abs() <= 1e-9, "{p} is off the line");
        }
    }

    #[test]
    fn adaptive_leaves_straight_paths_untouched(
        origin in (-1e3f64..1e3, -1e3f64..1e3, -1e3f64..1e3),
        dir in (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0),
        steps in prop::collection::vec(0.01f64..10.0, 1..20),
        outliers in any::<bool>(),
    ) {
        let d = DVec3::new(dir.0, dir.1, dir.2);
        prop_assume!(d.length() > 0.1);
        let o = DVec3::new(origin.0, origin.1, origin.2);
        let mut t = 0.0;
        let mut path = vec![o];
        for s in steps {
            t += s;
            path.push(o + d * t);
        }
        let params = AdaptiveParams {
            outlier_limit: outliers.then(|| 90f64.to_radians()),
            ..AdaptiveParams::default()
        };
        prop_assert_eq!(chaikin_adaptive(&path, &params).unwrap(), path);
    }

    #[test]
    fn finite_input_gives_finite_output(
        path in path2(1e30),
        params in params(),
        limits in (0.05f64..3.0, prop::option::of(0.0f64..1.0), 1u32..6),
    ) {
        let f32_path: Vec<Vec2> = path.iter().map(|p| p.as_vec2()).collect();
        let out = chaikin(&f32_path, &params).unwrap();
        prop_assert!(out.iter().all(|p| p.is_finite()));
        let out = chaikin(&path, &params).unwrap();
        prop_assert!(out.iter().all(|p| p.is_finite()));
        let (angle_limit, outlier_frac, max_passes) = limits;
        let adaptive = AdaptiveParams {
            angle_limit,
            outlier_limit: outlier_frac
                .map(|f| angle_limit + f * (std::f64::consts::PI - angle_limit))
                .filter(|&o| o > angle_limit),
            ratio: params.ratio,
            max_passes,
        };
        let out = chaikin_adaptive(&path, &adaptive).unwrap();
        prop_assert!(out.iter().all(|p| p.is_finite()));
        prop_assert!(out.windows(2).all(|w| w[0] != w[1]), "consecutive duplicates");
        prop_assert_eq!(out[0], path[0]);
        prop_assert_eq!(*out.last().unwrap(), *path.last().unwrap());
        let out = chaikin_adaptive(&f32_path, &adaptive).unwrap();
        prop_assert!(out.iter().all(|p| p.is_finite()));
    }

    #[test]
    fn adaptive_output_lies_in_the_hull(path in path2(1e3), outliers in any::<bool>()) {
        let params = AdaptiveParams {
            outlier_limit: outliers.then(|| 100f64.to_radians()),
            max_passes: 6,
            ..AdaptiveParams::default()
        };
        let h = hull(&path);
        for p in chaikin_adaptive(&path, &params).unwrap() {
            prop_assert!(outside_distance(&h, p) <= 1e-9);
        }
    }

    #[test]
    fn converged_means_no_corner_above_the_limit(path in path2(1e3), limit_deg in 10.0f64..90.0) {
        let params = AdaptiveParams {
            angle_limit: limit_deg.to_radians(),
            max_passes: 8,
            ..AdaptiveParams::default()
        };
        let mut refiner = AdaptiveChaikin::new(&params).unwrap();
        let mut out = Vec::new();
        let report = refiner.refine_into(&path, &mut out).unwrap();
        if report.converged {
            for w in out.windows(3) {
                prop_assert!(turn_angle(w[0], w[1], w[2]).unwrap() <= params.angle_limit);
            }
        }
    }

    #[test]
    fn outlier_removal_removes_a_spike(
        noise in prop::collection::vec(-0.2f64..0.2, 6..40),
        at in 0.0f64..1.0,
        height in prop_oneof![20.0f64..100.0, -100.0f64..-20.0],
        lean in -0.5f64..0.5,
    ) {
        // A recorded track along x with small noise in y and one glitch far off the line.
        let mut track: Vec<DVec2> = noise.iter().enumerate().map(|(i, &y)| DVec2::new(i as f64, y)).collect();
        let k = 1 + ((track.len() - 2) as f64 * at) as usize;
        track[k] = DVec2::new(k as f64 + lean, height);
        let params = AdaptiveParams { outlier_limit: Some(90f64.to_radians()), ..AdaptiveParams::default() };
        let mut refiner = AdaptiveChaikin::new(&params).unwrap();
        let mut out = Vec::new();
        let report = refiner.refine_into(&track, &mut out).unwrap();
        prop_assert!(report.removed >= 1);
        for p in &out {
            prop_assert!(p.y.abs() <= 0.2, "spike survived as {p}");
        }
        prop_assert_eq!((out[0], *out.last().unwrap()), (track[0], *track.last().unwrap()));
        // Without outlier rejection the spike is only cut, and stays far off the line.
        let plain = chaikin_adaptive(&track, &AdaptiveParams::default()).unwrap();
        prop_assert!(plain.iter().any(|p| p.y.abs() > 5.0));
    }

    #[test]
    fn closed_loops_match_geo_exactly(path in path2(1e3), passes in 1usize..5) {
        // geo treats a line whose first point equals its last as closed and cuts the closing
        // edge; its output repeats the first point at the end. Ours does not repeat it.
        prop_assume!(path[0] != path[path.len() - 1]);
        let mut closed = path.clone();
        closed.push(path[0]);
        let theirs = from_geo(&geo_line(&closed).chaikin_smoothing(passes));
        let params = ChaikinParams { passes: passes as u32, closed: true, ..ChaikinParams::default() };
        let ours = chaikin(&path, &params).unwrap();
        prop_assert_eq!(&theirs[..theirs.len() - 1], &ours[..]);
    }

    #[test]
    fn one_open_pass_is_geo_without_its_end_cuts(path in path2(1e3)) {
        // geo also emits Q_0 and R_{n−2}, which lie on the first and last segments; ours
        // leaves them out (the Terrator count). Everything else is the same, bit for bit.
        prop_assume!(path.len() >= 3 && path[0] != path[path.len() - 1]);
        let theirs = from_geo(&geo_line(&path).chaikin_smoothing(1));
        let ours = chaikin(&path, &ChaikinParams { passes: 1, ..ChaikinParams::default() }).unwrap();
        prop_assert_eq!(theirs.len(), ours.len() + 2);
        prop_assert_eq!(theirs[0], ours[0]);
        prop_assert_eq!(&theirs[2..theirs.len() - 2], &ours[1..ours.len() - 1]);
        prop_assert_eq!(theirs[theirs.len() - 1], ours[ours.len() - 1]);
    }

    #[test]
    fn in_place_matches_allocating(path in path2(1e3), params in params(), slack in 0usize..4) {
        let total = chaikin_output_len(path.len(), params.passes, params.closed).unwrap();
        let mut buf = vec![DVec2::splat(f64::MAX); total + slack];
        buf[..path.len()].copy_from_slice(&path);
        let len = chaikin_in_place(&mut buf, path.len(), &params).unwrap();
        prop_assert_eq!(&buf[..len], &chaikin(&path, &params).unwrap()[..]);
    }
}
