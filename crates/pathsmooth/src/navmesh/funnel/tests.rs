//! Unit tests of the funnels, against the reference funnels.

use super::circle::{chain_funnel_round, grazed, tangent, Rounder};
use super::reference::{string_pull, string_pull_round};
use super::*;

#[test]
fn goal_before_any_turn_is_a_straight_line() {
    let p = funnel(&[], DVec2::ZERO, DVec2::ONE, 0.0).unwrap();
    assert_eq!(p, vec![DVec2::ZERO, DVec2::ONE]);
    let same = funnel(&[], DVec2::ONE, DVec2::ONE, 0.0).unwrap();
    assert_eq!(same, vec![DVec2::ONE]);
}

/// A winding triangle strip like the benches'.
fn winding(n: usize) -> Vec<Portal> {
    let bank = |k: usize, side: f64| {
        let x = k as f64 * 0.7;
        DVec2::new(x, 4.0 * (x * 0.15).sin() + side)
    };
    (0..n)
        .map(|i| match i % 2 {
            0 => Portal::new(bank(i / 2, 1.0), bank(i / 2, -1.0)),
            _ => Portal::new(bank(i / 2 + 1, 1.0), bank(i / 2, -1.0)),
        })
        .collect()
}

/// The cases both funnel comparisons run: winding strips of `n` portals from a start just
/// before the strip to a goal just past its end, on the centre line and off it.
fn winding_cases() -> impl Iterator<Item = (usize, Vec<Portal>, DVec2, DVec2)> {
    [0, 1, 2, 7, 40, 333].into_iter().flat_map(|n| {
        let ps = winding(n);
        let start = DVec2::new(-0.3, 0.0);
        [
            DVec2::new(n as f64 * 0.35 + 0.3, 0.0),
            DVec2::new(n as f64 * 0.35, 3.0),
        ]
        .map(move |goal| (n, ps.clone(), start, goal))
    })
}

#[test]
fn chain_funnel_matches_mononens_funnel() {
    for (n, ps, start, goal) in winding_cases() {
        let mut ssf = vec![start];
        string_pull(&ps, start, goal, &mut |p| push_distinct(&mut ssf, p));
        push_distinct(&mut ssf, goal);
        let chains = funnel(&ps, start, goal, 0.0).unwrap();
        assert_eq!(chains, ssf, "n = {n}, goal = {goal}");
    }
}

proptest::proptest! {
    /// Arbitrary portals (crossed, reversed, degenerate) never panic or produce NaN.
    #[test]
    fn garbage_portals_never_panic(
        raw in proptest::collection::vec((-5.0f64..5.0, -5.0f64..5.0, -5.0f64..5.0, -5.0f64..5.0), 0..30),
        r in proptest::sample::select(vec![0.0, 0.05, 0.5]),
    ) {
        let ps: Vec<Portal> = raw
            .iter()
            .map(|&(a, b, c, d)| Portal::new(DVec2::new(a, b), DVec2::new(c, d)))
            .collect();
        if let Ok(path) = funnel(&ps, DVec2::new(-6.0, 0.0), DVec2::new(6.0, 0.0), r) {
            proptest::prop_assert!(path.iter().all(|p| p.is_finite()));
            proptest::prop_assert!(path.len() <= 2 * ps.len() + 3 || r > 0.0);
        }
    }
}

#[test]
fn circle_chain_funnel_matches_the_circle_funnel() {
    for (n, ps, start, goal) in winding_cases() {
        for r in [0.05, 0.3, 0.9] {
            let [a, b] = round_both(&ps, start, goal, r);
            match (&a, &b) {
                (Ok(a), Ok(b)) => {
                    let len = |v: &[DVec2]| v.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>();
                    assert!(
                        (len(a) - len(b)).abs() < 1e-9,
                        "n {n} r {r} goal {goal}: {} vs {}",
                        len(a),
                        len(b)
                    );
                }
                (Err(_), Err(_)) => {}
                _ => panic!("n {n} r {r} goal {goal}: {a:?} vs {b:?}"),
            }
        }
    }
}

#[test]
fn tangent_between_opposite_circles_touches_both() {
    let (a, b, _) = tangent(DVec2::ZERO, 1.0, DVec2::new(4.0, 0.0), -1.0).unwrap();
    assert!((a.length() - 1.0).abs() < 1e-12);
    assert!((b.distance(DVec2::new(4.0, 0.0)) - 1.0).abs() < 1e-12);
    // The segment is perpendicular to both radii.
    assert!((b - a).dot(a).abs() < 1e-12);
    assert!(tangent(DVec2::ZERO, 1.0, DVec2::new(1.5, 0.0), -1.0).is_none());
}

#[test]
fn a_grazed_corner_is_passed_where_its_tangents_cross() {
    let (c, rho) = (DVec2::new(3.0, 4.0), 0.5);
    let on = |a: f64| c + DVec2::from_angle(a) * rho;
    // Counter-clockwise wrap (ρ > 0) that departs 0.012 rad clockwise of the arrival.
    let (from, to) = (on(1.0), on(0.988));
    let x = grazed(c, rho, from, to).unwrap();
    assert!(x.distance(c) >= rho);
    // On both tangent lines: perpendicular to the radius at each end.
    assert!((x - from).dot(from - c).abs() < 1e-12);
    assert!((x - to).dot(to - c).abs() < 1e-12);
    // A corner the path wraps, either way round, is left to the arc.
    assert_eq!(grazed(c, rho, to, from), None);
    assert_eq!(grazed(c, -rho, from, to), None);
}

#[test]
fn bad_radius_and_nan_are_errors() {
    let p = [Portal::new(DVec2::Y, -DVec2::Y)];
    assert!(matches!(
        funnel(&p, DVec2::ZERO, DVec2::X, -1.0),
        Err(Error::BadParameter { .. })
    ));
    assert_eq!(
        funnel(&p, DVec2::ZERO, DVec2::NAN, 0.0),
        Err(Error::NonFinite { index: 2 })
    );
}

/// Both circle funnels (chains and Mononen's re-scans) on `ps`, with their rounding.
fn round_both(ps: &[Portal], start: DVec2, goal: DVec2, r: f64) -> [Result<Vec<DVec2>>; 2] {
    [true, false].map(|two_chains| {
        let (mut out, mut chains) = (Vec::new(), CircleChains::default());
        check_width(ps, r)?;
        let mut round = Rounder::new(start, r, &mut out);
        // Mononen's re-scans check the last leg always.
        let check_last_leg = if two_chains {
            chain_funnel_round(&mut chains, ps, start, goal, r, &mut |c| {
                round.corner(c, ps)
            })?
        } else {
            string_pull_round(ps, start, goal, r, &mut |c| round.corner(c, ps))?;
            true
        };
        round.finish(goal, ps, check_last_leg)?;
        Ok(out)
    })
}

#[test]
fn a_goal_short_of_the_last_end_in_a_line_keeps_clear_of_the_ends_before_it() {
    // The channel Polyanya's `xiangzebo__bad-collinear2-rot45.mesh` (tests/data/corpus)
    // gives between these ends, triangulated as its surface world does: the left ends
    // (0.707, 2.121), (0, 1.414), (−0.707, 0.707) lie on one line, so the chains let the
    // middle one go for the last (the tangents to both have one direction); the goal lies
    // short of the last, and its leg cut the middle one at 0.100 of the radius 0.141.
    let s2 = std::f64::consts::FRAC_1_SQRT_2;
    let v = |x: f64, y: f64| DVec2::new(x * s2, y * s2);
    let ps = [
        Portal::new(v(5.0, 9.0), v(3.0, 5.0)),
        Portal::new(v(4.0, 6.0), v(3.0, 5.0)),
        Portal::new(v(2.0, 2.0), v(3.0, 5.0)),
        Portal::new(v(2.0, 2.0), v(2.0, 4.0)),
        Portal::new(v(1.0, 3.0), v(2.0, 4.0)),
        Portal::new(v(1.0, 3.0), v(1.0, 5.0)),
        Portal::new(v(0.0, 2.0), v(1.0, 5.0)),
        Portal::new(v(-1.0, 1.0), v(1.0, 5.0)),
    ];
    let (start, goal) = (
        DVec2::new(3.099625404340534, 5.65966857206073),
        DVec2::new(-0.6506122942200099, 0.8556561798875094),
    );
    let r = 0.1 * std::f64::consts::SQRT_2;
    let length = |p: &[DVec2]| p.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>();
    let mut lengths = Vec::new();
    for path in round_both(&ps, start, goal, r) {
        let path = path.unwrap();
        for w in path.windows(2) {
            for c in ps.iter().flat_map(|p| [p.left, p.right]) {
                let d = crate::geometry::segment_distance(w[0], w[1], c, c);
                assert!(d >= r - 1e-12, "{w:?} is {d} from {c}");
            }
        }
        // It wraps the middle end: a point of its rounding within 1.1·r of it.
        assert!(path.iter().any(|p| p.distance(v(0.0, 2.0)) < 1.1 * r));
        lengths.push(length(&path));
    }
    assert!((lengths[0] - lengths[1]).abs() < 1e-12, "{lengths:?}");
}
