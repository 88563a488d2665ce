//! Speed profiles and playback: closed-form times, curvature limits, the agent's limits at
//! every sample, and followers reaching the goal (random paths and A* paths on real maps).

mod common;

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use glam::{DVec2, Vec2, Vec3};
use pathsmooth::follow::{speed_profile, Agent, Follower, Sample, SpeedProfile};
use pathsmooth::grid::astar::astar;
use pathsmooth::shortcut;
use pathsmooth::Error;
use proptest::prelude::*;

/// Closed-form time of a straight run of length `len` from rest to rest: the trapezoid
/// (accelerate, cruise, brake), or the triangle when the run is too short for top speed.
fn straight_time(len: f64, ag: &Agent) -> f64 {
    let (v, a, b) = (ag.max_speed, ag.max_accel, ag.max_brake);
    let peak2 = 2.0 * len * a * b / (a + b);
    if peak2 <= v * v {
        let peak = peak2.sqrt();
        peak / a + peak / b
    } else {
        v / a + v / b + (len - v * v / (2.0 * a) - v * v / (2.0 * b)) / v
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

// ---- straight paths ----------------------------------------------------------------------

#[test]
fn straight_path_is_the_trapezoid() {
    let ag = Agent::default();
    for len in [4.0, 5.2, 20.0, 137.5] {
        let p = speed_profile(&[DVec2::new(1.0, 1.0), DVec2::new(1.0 + len, 1.0)], &ag).unwrap();
        assert!(
            close(p.total_time(), straight_time(len, &ag), 1e-12),
            "{len}"
        );
    }
    // The phases of the 20 m run: 1.25 s accelerating to 5 m/s over 3.125 m, cruise, 5/6 s
    // braking over 25/12 m.
    let p = speed_profile(&[DVec2::ZERO, DVec2::new(20.0, 0.0)], &ag).unwrap();
    let at = p.sample(1.25);
    assert!(close(at.speed, 5.0, 1e-12) && close(at.position.x, 3.125, 1e-12));
    let half = p.sample(0.625);
    assert!(close(half.speed, 2.5, 1e-12) && close(half.position.x, 0.78125, 1e-12));
    let t_brake = p.total_time() - 5.0 / 6.0;
    assert!(close(
        p.sample(t_brake).position.x,
        20.0 - 25.0 / 12.0,
        1e-12
    ));
    assert!(close(p.sample(p.total_time() - 0.5).speed, 3.0, 1e-12));
}

#[test]
fn short_straight_path_is_the_triangle() {
    let ag = Agent::default();
    // 2 m: peak v² = 2·2·4·6/10 = 9.6 < 25.
    let p = speed_profile(&[DVec2::ZERO, DVec2::new(0.0, -2.0)], &ag).unwrap();
    let peak = 9.6f64.sqrt();
    assert!(close(p.total_time(), peak / 4.0 + peak / 6.0, 1e-12));
    let top = p.sample(peak / 4.0);
    assert!(close(top.speed, peak, 1e-12) && close(top.position.y, -1.2, 1e-12));
    assert!(close(top.heading, -FRAC_PI_2, 1e-12));
}

#[test]
fn collinear_points_and_duplicates_change_nothing() {
    let ag = Agent::default();
    let plain = speed_profile(&[DVec2::ZERO, DVec2::new(30.0, 40.0)], &ag).unwrap();
    let mut fine: Vec<DVec2> = (0..=500)
        .map(|i| DVec2::new(30.0, 40.0) * (i as f64 / 500.0))
        .collect();
    fine.insert(100, fine[100]);
    fine.insert(0, fine[0]);
    let split = speed_profile(&fine, &ag).unwrap();
    assert!(close(split.total_time(), plain.total_time(), 1e-9));
    assert!(close(split.total_time(), straight_time(50.0, &ag), 1e-9));
}

#[test]
fn any_point_type_is_accepted() {
    let ag = Agent::default();
    let d = speed_profile(
        &[DVec2::ZERO, DVec2::new(3.0, 0.0), DVec2::new(3.0, 3.0)],
        &ag,
    )
    .unwrap();
    let f = speed_profile(&[Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(3.0, 3.0)], &ag).unwrap();
    // 3D paths are profiled on their xy projection.
    let z = [
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(3.0, 0.0, 5.0),
        Vec3::new(3.0, 3.0, 2.0),
    ];
    let g = speed_profile(&z, &ag).unwrap();
    assert!(close(f.total_time(), d.total_time(), 1e-6));
    assert!(close(g.total_time(), d.total_time(), 1e-6));
}

// ---- curves and corners --------------------------------------------------------------------

/// Speeds at the vertices of a finely sampled circle of radius `r` (2000 points a turn,
/// at least 30 m long), away from the ends.
fn circle_speeds(r: f64, ag: &Agent) -> Vec<f64> {
    let turns = (30.0 / (TAU * r)).max(1.5);
    let n = (2000.0 * turns) as usize;
    let path: Vec<DVec2> = (0..=n)
        .map(|i| DVec2::from_angle(turns * TAU * i as f64 / n as f64) * r + DVec2::new(7.0, -3.0))
        .collect();
    let p = speed_profile(&path, ag).unwrap();
    let len = p.length();
    // Past the distance needed to reach top speed and to brake from it.
    let margin = ag.max_speed.powi(2) / (2.0 * ag.max_accel.min(ag.max_brake)) + 1.0;
    assert!(len > 3.0 * margin, "circle too short for the test");
    p.vertices()
        .filter(|v| v.s > margin && v.s < len - margin)
        .map(|v| v.speed)
        .collect()
}

#[test]
fn circle_speed_is_limited_by_lateral_acceleration() {
    let ag = Agent::default();
    // R = 2: √(a_lat·R) = √8 ≈ 2.83 < 5 (and the turn-rate bound π·2 is higher).
    for (r, expected) in [(2.0, 8f64.sqrt()), (3.0, 12f64.sqrt()), (15.0, 5.0)] {
        let v = circle_speeds(r, &ag);
        assert!(!v.is_empty());
        for s in v {
            assert!(
                close(s, expected.min(ag.max_speed), 1e-5),
                "R = {r}: {s} vs {expected}"
            );
        }
    }
}

#[test]
fn tight_circle_speed_is_limited_by_turn_rate() {
    // R = 0.3 m: √(4·0.3) ≈ 1.10 but turning at π rad/s allows only π·0.3 ≈ 0.94 m/s.
    let ag = Agent::default();
    for s in circle_speeds(0.3, &ag) {
        assert!(close(s, PI * 0.3, 1e-5), "{s}");
    }
}

#[test]
fn corner_above_the_stop_angle_costs_rotation_plus_stopping() {
    let ag = Agent {
        stop_angle: 80f64.to_radians(),
        ..Agent::default()
    };
    for (l1, l2) in [(10.0, 10.0), (1.0, 30.0), (0.5, 0.5), (40.0, 3.0)] {
        let path = [DVec2::ZERO, DVec2::new(l1, 0.0), DVec2::new(l1, l2)];
        let p = speed_profile(&path, &ag).unwrap();
        let expected =
            straight_time(l1, &ag) + FRAC_PI_2 / ag.max_turn_rate + straight_time(l2, &ag);
        assert!(close(p.total_time(), expected, 1e-12), "{l1} {l2}");
        let corner = p.vertex(1).unwrap();
        assert_eq!(corner.speed, 0.0);
        assert!(close(corner.t, straight_time(l1, &ag), 1e-12));
        // Mid-rotation: at the corner, at rest, facing 45°.
        let mid = p.sample(corner.t + corner.dwell / 2.0);
        assert_eq!((mid.position, mid.speed), (path[1], 0.0));
        assert!(close(mid.heading, PI / 4.0, 1e-12));
    }
    // A 150° hairpin stops the default agent too: 150° at 180°/s is 5/6 s.
    let ag = Agent::default();
    let hairpin = [
        DVec2::ZERO,
        DVec2::new(10.0, 0.0),
        DVec2::new(10.0, 0.0) + DVec2::from_angle(150f64.to_radians()) * 10.0,
    ];
    let p = speed_profile(&hairpin, &ag).unwrap();
    assert!(close(
        p.total_time(),
        2.0 * straight_time(10.0, &ag) + 5.0 / 6.0,
        1e-12
    ));
}

#[test]
fn rounded_corner_costs_less_than_stopping_and_more_than_a_straight() {
    let ag = Agent::default();
    let path = [DVec2::ZERO, DVec2::new(10.0, 0.0), DVec2::new(10.0, 10.0)];
    let rounded = speed_profile(&path, &ag).unwrap().total_time();
    let stop = Agent {
        stop_angle: 1.0,
        ..ag
    };
    let stopped = speed_profile(&path, &stop).unwrap().total_time();
    let straight = straight_time(20.0, &ag);
    assert!(
        straight < rounded && rounded < stopped,
        "{straight} {rounded} {stopped}"
    );
    // The corner is cut by at most 0.25 m: r = 0.25/(√2 − 1), speed min(√(4r), πr).
    let r = 0.25 / (2f64.sqrt() - 1.0);
    let v = speed_profile(&path, &ag).unwrap().vertex(1).unwrap().speed;
    assert!(close(v, (4.0 * r).sqrt().min(PI * r), 1e-12), "{v}");
}

// ---- limits at every sample (property) -----------------------------------------------------

fn arb_agent() -> impl Strategy<Value = Agent> {
    (
        (0.5..10.0f64, 0.5..10.0f64, 0.5..10.0f64),
        (0.5..10.0f64, 0.5..8.0f64, 0.2..=PI, 0.05..2.0f64),
    )
        .prop_map(|((v, a, b), (lat, w, stop, cut))| Agent {
            max_speed: v,
            max_accel: a,
            max_brake: b,
            max_lateral_accel: lat,
            max_turn_rate: w,
            stop_angle: stop,
            max_corner_cut: cut,
        })
}

/// Random polylines with repeated points now and then.
fn arb_path() -> impl Strategy<Value = Vec<DVec2>> {
    prop::collection::vec((-30.0..30.0f64, -30.0..30.0f64, 0..6u8), 2..25).prop_map(|pts| {
        let mut out: Vec<DVec2> = Vec::new();
        for (x, y, dup) in pts {
            let p = DVec2::new(x, y);
            out.push(p);
            if dup == 0 {
                out.push(p);
            }
        }
        out
    })
}

/// Checks the agent's limits between consecutive samples `dt` apart.
fn check_limits(samples: &[Sample], ag: &Agent) -> Result<(), TestCaseError> {
    let tol = 1e-6;
    for w in samples.windows(2) {
        let (p, q) = (&w[0], &w[1]);
        let dt = q.t - p.t;
        prop_assert!(q.position.is_finite() && q.heading.is_finite() && q.speed.is_finite());
        prop_assert!(
            q.speed >= 0.0 && q.speed <= ag.max_speed * (1.0 + 1e-12),
            "{q:?}"
        );
        if dt <= 1e-9 {
            continue;
        }
        let accel = (q.speed - p.speed) / dt;
        prop_assert!(
            accel <= ag.max_accel * (1.0 + tol) + tol,
            "accel {accel} at {q:?}"
        );
        prop_assert!(
            -accel <= ag.max_brake * (1.0 + tol) + tol,
            "brake {accel} at {q:?}"
        );
        let moved = q.position.distance(p.position);
        prop_assert!(
            moved <= ag.max_speed * dt * (1.0 + tol) + 1e-9,
            "moved {moved} in {dt}"
        );
        let turned = (q.heading - p.heading + PI).rem_euclid(TAU) - PI;
        let rate = turned.abs() / dt;
        prop_assert!(
            rate <= ag.max_turn_rate * (1.0 + tol) + tol,
            "turn rate {rate} at {q:?}"
        );
        let lateral = p.speed.min(q.speed) * rate;
        prop_assert!(
            lateral <= ag.max_lateral_accel * (1.0 + tol) + tol,
            "lateral {lateral} at {q:?}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_sample_exceeds_any_limit(path in arb_path(), ag in arb_agent()) {
        let p = speed_profile(&path, &ag).unwrap();
        prop_assert!(p.total_time().is_finite() && p.total_time() > 0.0);
        // Dense sampling, at most ~40,000 samples.
        let rate = (40_000.0 / p.total_time()).min(1000.0);
        let samples = p.samples(rate).unwrap();
        check_limits(&samples, &ag)?;
        let (first, last) = (samples[0], *samples.last().unwrap());
        prop_assert_eq!((first.position, first.speed), (path[0], 0.0));
        prop_assert_eq!((last.position, last.speed), (*path.last().unwrap(), 0.0));
        prop_assert_eq!(last.t, p.total_time());
        // Vertex timings are ordered and every vertex is reached.
        let mut prev = 0.0;
        for (i, v) in p.vertices().enumerate() {
            prop_assert!(v.t >= prev && v.s.is_finite() && v.speed <= ag.max_speed, "{i} {v:?}");
            prop_assert!(p.sample(v.t + v.dwell).position.distance(path[i]) < 1e-9);
            prev = v.t;
        }
    }

    #[test]
    fn no_profile_is_faster_than_a_straight_run_of_its_length(
        path in arb_path(), ag in arb_agent()
    ) {
        let p = speed_profile(&path, &ag).unwrap();
        prop_assert!(p.total_time() >= straight_time(p.length(), &ag) * (1.0 - 1e-9));
    }

    #[test]
    fn follower_reaches_the_goal_of_random_paths(path in arb_path(), ag in arb_agent()) {
        let mut f = Follower::new(ag).unwrap();
        f.set_path(&path).unwrap();
        let planned = f.profile().total_time();
        let dt = 1.0 / 30.0;
        let max_steps = ((3.0 * planned + 20.0) / dt) as usize;
        let mut prev = f.state();
        let mut steps = 0;
        while !prev.finished {
            prop_assert!(steps < max_steps, "not there after {steps} steps ({planned} s planned): {prev:?}");
            let st = f.step(dt).unwrap();
            prop_assert!(st.position.is_finite() && st.speed <= ag.max_speed * (1.0 + 1e-12));
            let turned = ((st.heading - prev.heading + PI).rem_euclid(TAU) - PI).abs();
            prop_assert!(turned <= ag.max_turn_rate * dt * (1.0 + 1e-9), "{turned}");
            let lateral = st.speed * turned / dt;
            prop_assert!(lateral <= ag.max_lateral_accel * (1.0 + 1e-9), "{lateral}");
            prev = st;
            steps += 1;
        }
        prop_assert_eq!(prev.position, *path.last().unwrap());
        prop_assert_eq!(prev.speed, 0.0);
    }
}

// ---- errors ------------------------------------------------------------------------------

#[test]
fn bad_input_is_a_clear_error() {
    let ag = Agent::default();
    assert_eq!(
        speed_profile::<DVec2>(&[], &ag).unwrap_err(),
        Error::EmptyPath
    );
    let nan = [DVec2::ZERO, DVec2::new(1.0, f64::NAN)];
    assert_eq!(
        speed_profile(&nan, &ag).unwrap_err(),
        Error::NonFinite { index: 1 }
    );
    let bad = Agent {
        max_lateral_accel: -2.0,
        ..ag
    };
    assert!(matches!(
        speed_profile(&[DVec2::ZERO, DVec2::X], &bad),
        Err(Error::BadParameter {
            name: "max_lateral_accel",
            ..
        })
    ));
    let p = speed_profile(&[DVec2::ZERO, DVec2::X * 1e6], &ag).unwrap();
    for rate in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            p.samples(rate),
            Err(Error::BadParameter { name: "rate", .. })
        ));
    }
    assert!(matches!(p.samples(1e6), Err(Error::OutputTooLarge { .. })));
    let mut f = Follower::new(ag).unwrap();
    f.set_path(&[DVec2::ZERO, DVec2::X]).unwrap();
    for dt in [0.0, -0.1, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            f.step(dt),
            Err(Error::BadParameter { name: "dt", .. })
        ));
    }
    assert_eq!(f.set_path(&nan).unwrap_err(), Error::NonFinite { index: 1 });
    // A failed compute leaves an empty, zero-time profile, never stale data.
    let mut q = SpeedProfile::new();
    q.compute(&[DVec2::ZERO, DVec2::X], &ag).unwrap();
    assert!(q.compute(&nan, &ag).is_err());
    assert_eq!((q.total_time(), q.vertex_count()), (0.0, 0));
}

#[test]
fn overflowing_lengths_are_an_error_not_infinity() {
    // Coordinates near 1e300 made the length (and time) infinite, reported as a result.
    let ag = Agent::default();
    let huge = [
        DVec2::ZERO,
        DVec2::new(1e300, 0.0),
        DVec2::new(1e300, 1e300),
    ];
    assert!(matches!(
        speed_profile(&huge, &ag),
        Err(Error::BadParameter {
            name: "coordinate",
            ..
        })
    ));
    let huge3 = [
        Vec3::ZERO,
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(3e38, 0.0, 0.0),
    ];
    assert!(
        speed_profile(&huge3, &ag).is_ok(),
        "f32 coordinates are small in f64"
    );
    // At the bound, lengths are finite.
    let far = pathsmooth::geometry::max_coordinate::<f64>();
    let p = speed_profile(&[DVec2::new(-far, -far), DVec2::new(far, far)], &ag).unwrap();
    assert!(p.length().is_finite() && p.total_time().is_finite());
}

// ---- real maps -------------------------------------------------------------------------

#[test]
fn follower_reaches_the_goal_of_real_map_paths() {
    let ag = Agent::default();
    let mut f = Follower::new(ag).unwrap();
    let dt = 1.0 / 30.0;
    let mut followed = 0;
    for name in common::MAPS {
        let (map, scen) = common::load(name);
        let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
        for s in common::sample(&scen, 4) {
            let raw = astar(&map, s.start, s.goal).unwrap().points;
            let short = shortcut(&world, &raw, 0.0).unwrap();
            for path in [raw, short] {
                f.set_path(&path).unwrap();
                let planned = f.profile().total_time();
                // Raw grid paths: the agent never beats a straight run of the path's length.
                assert!(planned >= straight_time(f.profile().length(), &ag) * (1.0 - 1e-9));
                let max_steps = ((3.0 * planned + 20.0) / dt) as usize;
                let mut steps = 0;
                while !f.step(dt).unwrap().finished {
                    steps += 1;
                    assert!(steps < max_steps, "{name} {s:?}: stuck at {:?}", f.state());
                }
                assert_eq!(f.state().position, *path.last().unwrap(), "{name}");
                followed += 1;
            }
        }
    }
    assert_eq!(followed, 2 * 4 * common::MAPS.len());
}
