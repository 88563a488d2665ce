//! Fillet smoothing and exact curves: closed forms, bad input, and property tests
//! (curvature ≤ 1/ρ where no corner is reported, never longer, ends and end directions
//! kept, G1 everywhere and G2 with clothoids; valid on worlds).

use std::f64::consts::{FRAC_PI_2, PI};

use glam::DVec2;
use pathsmooth::curve::{ExactCurve, Piece};
use pathsmooth::{
    fillet, fillet_geometry, is_valid, metrics, CornerLimit, Error, FilletParams, GridMap,
    GridWorld, Transition,
};
use proptest::prelude::*;

fn d(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

#[test]
fn a_right_angle_with_legs_l_and_radius_r_has_length_2l_minus_2r_plus_quarter_circle() {
    for (l, r) in [(4.0, 1.0), (10.0, 3.0), (2.0, 2.0), (1.0, 0.25)] {
        let path = [d(0.0, 0.0), d(l, 0.0), d(l, -l)];
        let out = fillet_geometry(&path, &FilletParams::new(r)).unwrap();
        let expected = 2.0 * l - 2.0 * r + FRAC_PI_2 * r;
        assert!((out.curve.length() - expected).abs() < 1e-12, "{l} {r}");
        assert!(out.corners.is_empty());
        assert_eq!(out.curve.max_curvature(), 1.0 / r);
        assert!(
            (out.curve.curvature_at(l) + 1.0 / r).abs() < 1e-12,
            "a right turn"
        );
        assert!(out.curve.max_tangent_jump() < 1e-9);
    }
}

#[test]
fn short_legs_shrink_the_radius_and_report_the_corner() {
    // Legs of 1: a quarter circle of radius 1 at most (tangent distance R·tan 45° = R).
    let path = [d(0.0, 0.0), d(1.0, 0.0), d(1.0, 1.0)];
    let out = fillet_geometry(&path, &FilletParams::new(3.0)).unwrap();
    assert_eq!(out.corners.len(), 1);
    let c = out.corners[0];
    assert_eq!((c.index, c.limit), (1, CornerLimit::Legs));
    assert!((c.radius - 1.0).abs() < 1e-12, "{}", c.radius);
    let e = fillet_geometry(&path, &FilletParams::new(3.0).strict()).unwrap_err();
    assert!(
        matches!(e, Error::CornerBelowTurnRadius { index: 1, .. }),
        "{e}"
    );
}

#[test]
fn a_shared_leg_is_split_between_its_corners() {
    // A zig-zag whose middle leg (2) is shared by two 90° corners: each gets R = 1.
    let path = [d(0.0, 0.0), d(5.0, 0.0), d(5.0, 2.0), d(10.0, 2.0)];
    let out = fillet_geometry(&path, &FilletParams::new(1.5)).unwrap();
    assert_eq!(out.corners.len(), 2);
    for c in &out.corners {
        assert!((c.radius - 1.0).abs() < 1e-8, "{c:?}");
    }
    assert!(out.curve.max_tangent_jump() < 1e-9);
    // Radius 1 fits exactly: nothing reported, the arcs meet at the leg's midpoint.
    let out = fillet_geometry(&path, &FilletParams::new(0.9)).unwrap();
    assert!(out.corners.is_empty());
}

#[test]
fn duplicates_collinear_points_and_u_turns() {
    let path = [
        d(0.0, 0.0),
        d(0.0, 0.0),
        d(2.0, 0.0),
        d(4.0, 0.0),
        d(4.0, 0.0),
        d(4.0, 4.0),
    ];
    let out = fillet_geometry(&path, &FilletParams::new(1.0)).unwrap();
    assert_eq!(out.turns, 1);
    assert!(out.corners.is_empty());
    let expected = 8.0 - 2.0 + FRAC_PI_2;
    assert!((out.curve.length() - expected).abs() < 1e-12);

    // A reversal: kept sharp, reported.
    let back = [d(0.0, 0.0), d(4.0, 0.0), d(1.0, 0.0)];
    let out = fillet_geometry(&back, &FilletParams::new(1.0)).unwrap();
    assert_eq!(out.corners.len(), 1);
    assert_eq!(out.corners[0].limit, CornerLimit::UTurn);
    assert_eq!(out.corners[0].radius, 0.0);
    assert_eq!(out.curve.length(), 7.0);
    let e = fillet_geometry(&back, &FilletParams::new(1.0).strict()).unwrap_err();
    assert!(e.to_string().contains("U-turn"), "{e}");

    // One point, two equal points, a straight line.
    for p in [vec![d(1.0, 1.0)], vec![d(1.0, 1.0), d(1.0, 1.0)]] {
        let out = fillet_geometry(&p, &FilletParams::new(1.0)).unwrap();
        assert_eq!((out.curve.start(), out.curve.length()), (d(1.0, 1.0), 0.0));
    }
    let line = [d(0.0, 0.0), d(1.0, 1.0), d(3.0, 3.0)];
    let out = fillet_geometry(&line, &FilletParams::new(1.0)).unwrap();
    assert_eq!((out.turns, out.curve.pieces().len()), (0, 1));
}

#[test]
fn bad_parameters_and_input_are_errors() {
    let path = [d(0.0, 0.0), d(1.0, 0.0), d(1.0, 1.0)];
    for rho in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = fillet_geometry(&path, &FilletParams::new(rho)).unwrap_err();
        assert!(
            matches!(
                e,
                Error::BadParameter {
                    name: "turn_radius",
                    ..
                }
            ),
            "{e}"
        );
    }
    let p = FilletParams {
        chord_error: 0.0,
        ..FilletParams::new(1.0)
    };
    assert!(fillet_geometry(&path, &p).is_err());
    let p = FilletParams {
        transition: Transition::Clothoid { share: 1.5 },
        ..FilletParams::new(1.0)
    };
    assert!(fillet_geometry(&path, &p).is_err());
    assert_eq!(
        fillet_geometry::<DVec2>(&[], &FilletParams::new(1.0)),
        Err(Error::EmptyPath)
    );
    let nan = [d(0.0, 0.0), d(f64::NAN, 0.0)];
    assert_eq!(
        fillet_geometry(&nan, &FilletParams::new(1.0)),
        Err(Error::NonFinite { index: 1 })
    );
}

#[test]
fn clothoid_curvature_is_linear_in_arc_length() {
    let p = Piece::clothoid(d(1.0, -2.0), 0.7, 0.35, -1.5, 2.5).unwrap();
    let (k0, k1) = (p.curvature_at(0.0), p.curvature_at(p.length()));
    for i in 0..=100 {
        let s = p.length() * i as f64 / 100.0;
        let linear = k0 + (k1 - k0) * s / p.length();
        assert!((p.curvature_at(s) - linear).abs() < 1e-9);
        // The heading's derivative is the curvature (central differences).
        if i > 0 && i < 100 {
            let h = 1e-4;
            let dk = (p.heading_at(s + h) - p.heading_at(s - h)) / (2.0 * h);
            assert!((dk - p.curvature_at(s)).abs() < 1e-9, "{s}");
        }
    }
}

#[test]
fn g2_fillets_are_curvature_continuous() {
    let path = [d(0.0, 0.0), d(10.0, 0.0), d(12.0, 8.0), d(2.0, 12.0)];
    for share in [0.25, 0.5, 1.0] {
        let p = FilletParams {
            transition: Transition::Clothoid { share },
            ..FilletParams::new(1.5)
        };
        let out = fillet_geometry(&path, &p).unwrap();
        assert!(out.corners.is_empty(), "{share}");
        assert!(out.curve.max_tangent_jump() < 1e-9, "{share}");
        assert!(out.curve.max_curvature_jump() < 1e-9, "{share}");
        assert!((out.curve.max_curvature() - 1.0 / 1.5).abs() < 1e-12);
        assert!(out.curve.length() < metrics::length(&path));
        let kinds = out.curve.pieces().iter();
        assert!(
            kinds
                .filter(|p| matches!(p, Piece::Clothoid { .. }))
                .count()
                == 4
        );
    }
}

#[test]
fn exact_curves_reject_bad_input() {
    assert!(ExactCurve::from_polyline(&[]).is_err());
    assert!(Piece::arc(d(0.0, 0.0), -1.0, 0.0, 1.0).is_err());
    let c = ExactCurve::new(vec![Piece::arc(d(0.0, 0.0), 1.0, 0.0, PI).unwrap()]).unwrap();
    assert!(c.to_polyline(f64::NAN).is_err());
    assert!(c.sample_spacing(0.0).is_err());
    assert!(c.point_at(f64::NAN).is_finite());
}

#[cfg(feature = "serde")]
#[test]
fn curves_round_trip_through_json() {
    let path = [d(0.0, 0.0), d(10.0, 0.0), d(12.0, 8.0)];
    let out = fillet_geometry(&path, &FilletParams::new(2.0).g2()).unwrap();
    let json = serde_json::to_string(&out.curve).unwrap();
    assert!(json.starts_with("{\"pieces\":[{\"line\""), "{json}");
    let back: ExactCurve = serde_json::from_str(&json).unwrap();
    assert_eq!(back, out.curve);
    let broken = json.replacen("10.0", "11.0", 1);
    assert!(serde_json::from_str::<ExactCurve>(&broken).is_err());
}

#[test]
fn on_a_grid_the_arc_keeps_clear_of_the_wall_corner() {
    // The path turns around the wall block's corner (3, 3), which is inside the turn.
    let rows = [
        "........", "........", "........", "...@@@@@", "...@@@@@", "...@@@@@", "...@@@@@",
        "...@@@@@",
    ];
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let path = [d(7.5, 2.5), d(2.5, 2.5), d(2.5, 7.5)];
    for (rho, walls) in [(0.5, false), (1.0, true), (3.0, true)] {
        let out = fillet(&world, &path, 0.3, &FilletParams::new(rho)).unwrap();
        let poly = out.curve.to_polyline(rho * 1e-3).unwrap();
        assert!(is_valid(&world, &poly, 0.3), "{rho}");
        assert_eq!(
            out.corners.len(),
            walls as usize,
            "{rho}: {:?}",
            out.corners
        );
        if walls {
            let c = out.corners[0];
            assert_eq!(c.limit, CornerLimit::Walls);
            // The arc's centre (2.5 + R, 2.5 + R) is √2(R − ½) from the wall corner, so
            // the arc keeps 0.3 from it while R − √2(R − ½) ≥ 0.3 + the chord error:
            // R ≤ (√2/2 − 0.3 − e)/(√2 − 1). The chords sit inside the arc, up to e
            // closer to the wall corner, which costs at most e/(√2 − 1) of radius.
            let e = rho * 1e-3;
            let best = (0.5f64.sqrt() - 0.3 - e) / (2f64.sqrt() - 1.0);
            let worst = best - e / (2f64.sqrt() - 1.0) - 1e-3;
            assert!(c.radius <= best && c.radius > worst, "{c:?} {best}");
        }
    }
    // An input through the wall is refused.
    let bad = [d(7.5, 1.5), d(1.5, 7.5)];
    assert!(matches!(
        fillet(&world, &bad, 0.3, &FilletParams::new(1.0)),
        Err(Error::InvalidInputPath { .. })
    ));
}

/// Random polylines with duplicates, collinear stretches and sharp turns.
fn arb_path() -> impl Strategy<Value = Vec<DVec2>> {
    proptest::collection::vec((-20i32..=20, -20i32..=20), 2..10).prop_map(|v| {
        v.into_iter()
            .map(|(x, y)| DVec2::new(x as f64 * 0.5, y as f64 * 0.5))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fillets_keep_their_promises(
        path in arb_path(),
        rho in 0.1f64..5.0,
        grow in 1.0f64..4.0,
        g2 in any::<bool>(),
    ) {
        let params = FilletParams::new(rho).up_to(rho * grow);
        let params = if g2 { params.g2() } else { params };
        let out = fillet_geometry(&path, &params).unwrap();
        let c = &out.curve;
        // Ends and end directions kept.
        prop_assert_eq!(c.start(), path[0]);
        prop_assert_eq!(c.end(), path[path.len() - 1]);
        let first = path.iter().find(|&&p| p != path[0]);
        if let Some(&q) = first {
            prop_assert!((c.tangent_at(0.0) - (q - path[0]).normalize()).length() < 1e-9);
        }
        let last = path.iter().rev().find(|&&p| p != path[path.len() - 1]);
        if let Some(&q) = last {
            let dir = (path[path.len() - 1] - q).normalize();
            prop_assert!((c.tangent_at(c.length()) - dir).length() < 1e-9);
        }
        // Never longer.
        prop_assert!(c.length() <= metrics::length(&path) + 1e-9);
        // Curvature ≤ 1/ρ on every piece except at reported corners, which are the only
        // places the tangent may jump (corners kept sharp).
        let sharp = out.corners.iter().filter(|k| k.radius == 0.0).count();
        if out.corners.is_empty() {
            prop_assert!(c.max_curvature() <= 1.0 / rho * (1.0 + 1e-12));
        }
        if sharp == 0 {
            prop_assert!(c.max_tangent_jump() < 1e-9, "{}", c.max_tangent_jump());
            if g2 {
                // Curvature may jump only at arcs limited below ρ... never: G2 holds.
                prop_assert!(c.max_curvature_jump() < 1e-9);
            }
        }
        for k in &out.corners {
            prop_assert!(k.radius < rho && k.radius >= 0.0);
        }
        let poly = c.to_polyline(params.chord_error).unwrap();
        prop_assert!(poly.iter().all(|p| p.is_finite()));
    }

    #[test]
    fn reported_radii_bound_the_curvature(path in arb_path(), rho in 0.1f64..5.0) {
        let out = fillet_geometry(&path, &FilletParams::new(rho)).unwrap();
        let smallest = out
            .corners
            .iter()
            .map(|k| k.radius)
            .filter(|&r| r > 0.0)
            .fold(rho, f64::min);
        prop_assert!(out.curve.max_curvature() <= 1.0 / smallest * (1.0 + 1e-12));
    }
}

#[test]
fn max_radius_grows_the_arcs_where_the_legs_allow() {
    // Legs of 10 and 3 around a right angle: radius up to 3 fits, asked for up to 5.
    let path = [d(0.0, 0.0), d(10.0, 0.0), d(10.0, 3.0)];
    let out = fillet_geometry(&path, &FilletParams::new(1.0).up_to(5.0)).unwrap();
    assert!(out.corners.is_empty(), "3 ≥ ρ: not reported");
    assert!((out.curve.max_curvature() - 1.0 / 3.0).abs() < 1e-12);
    let expected = 13.0 - 2.0 * 3.0 + FRAC_PI_2 * 3.0;
    assert!((out.curve.length() - expected).abs() < 1e-12);
    assert!(fillet_geometry(&path, &FilletParams::new(1.0).up_to(f64::NAN)).is_err());
}

/// A 16×16 room with a few random wall blocks, and two free cells to plan between.
fn arb_blocks() -> impl Strategy<Value = (GridWorld, DVec2, DVec2)> {
    (
        proptest::collection::vec((0usize..14, 0usize..14, 1usize..6, 1usize..6), 3..12),
        (0usize..16, 0usize..16),
        (0usize..16, 0usize..16),
    )
        .prop_filter_map("start and goal free", |(blocks, s, g)| {
            let inside = |x: usize, y: usize| {
                blocks
                    .iter()
                    .any(|&(bx, by, w, h)| x >= bx && x < bx + w && y >= by && y < by + h)
            };
            if inside(s.0, s.1) || inside(g.0, g.1) {
                return None;
            }
            let world = GridWorld::new(GridMap::from_fn(16, 16, |x, y| !inside(x, y))).ok()?;
            let c = |(x, y): (usize, usize)| DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
            Some((world, c(s), c(g)))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fillets_on_a_grid_stay_valid(
        (world, start, goal) in arb_blocks(),
        radius in prop_oneof![Just(0.0), Just(0.3), 0.0f64..0.45],
        rho in 0.3f64..4.0,
        g2 in any::<bool>(),
    ) {
        let Ok(mut pipeline) = pathsmooth::Pipeline::new(&world, radius) else {
            return Ok(());
        };
        let params = if g2 { FilletParams::new(rho).g2() } else { FilletParams::new(rho) };
        pipeline = pipeline.then(pathsmooth::Step::Shortcut).then(pathsmooth::Step::Fillet(params));
        let path = match pipeline.plan(start, goal) {
            Ok(p) => p,
            Err(Error::Unreachable { .. } | Error::TooNarrow { .. } | Error::TooClose { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        };
        prop_assert!(is_valid(&world, &path, radius));
        prop_assert_eq!((path[0], path[path.len() - 1]), (start, goal));
        let curve = pipeline.last_curve().unwrap();
        if pipeline.report().corners.is_empty() {
            prop_assert!(curve.max_curvature() <= 1.0 / rho * (1.0 + 1e-12));
            prop_assert!(curve.max_tangent_jump() < 1e-9);
        }
    }
}

#[test]
fn legs_too_short_to_have_a_direction_never_make_nan() {
    let tiny = f64::from_bits(1); // the smallest subnormal
    let paths = [
        vec![d(0.0, 0.0), d(tiny, 0.0), d(1.0, 1.0)],
        vec![d(0.0, 0.0), d(1.0, 1.0), d(1.0, 1.0 + tiny)],
        vec![d(0.0, 0.0), d(0.0, tiny)],
        vec![d(1.0, 0.0), d(0.0, 0.0), d(tiny, tiny), d(0.0, 1.0)],
        vec![d(0.0, 0.0), d(1.0, 0.0), d(1.0, 1e-10)],
    ];
    for p in paths {
        let out = fillet_geometry(&p, &FilletParams::new(1.0).g2()).unwrap();
        let c = &out.curve;
        assert_eq!((c.start(), c.end()), (p[0], p[p.len() - 1]), "{p:?}");
        assert!(c.to_polyline(1e-3).unwrap().iter().all(|q| q.is_finite()));
        assert!(c.length().is_finite() && c.max_curvature().is_finite());
    }
}
