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
            let run = |two_chains: bool| -> Result<Vec<DVec2>> {
                let (mut out, mut chains) = (Vec::new(), CircleChains::default());
                check_width(&ps, r)?;
                let mut round = Rounder::new(start, r, &mut out);
                if two_chains {
                    chain_funnel_round(&mut chains, &ps, start, goal, r, &mut |c| {
                        round.corner(c, &ps)
                    })?;
                } else {
                    string_pull_round(&ps, start, goal, r, &mut |c| round.corner(c, &ps))?;
                }
                round.finish(goal, &ps)?;
                Ok(out)
            };
            let (a, b) = (run(true), run(false));
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
