//! Speed profiles and playback: closed-form times, curvature limits, the agent's limits at
//! every sample, and followers reaching the goal (random paths and A* paths on real maps).

use crate::common;

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};
use pathsmooth::follow::{
    speed_profile, Agent, FollowState, Follower, Sample, SpeedProfile, Steering,
};
use pathsmooth::geometry::angle_between;
use pathsmooth::grid::astar;
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
    assert!(close(f.total_time(), d.total_time(), 1e-6));
    // A 3D path in a horizontal plane is the 2D path.
    let flat = [
        Vec3::new(0.0, 0.0, 7.0),
        Vec3::new(3.0, 0.0, 7.0),
        Vec3::new(3.0, 3.0, 7.0),
    ];
    let g = speed_profile(&flat, &ag).unwrap();
    assert!(close(g.total_time(), d.total_time(), 1e-6));
    assert_eq!(g.sample(g.total_time()).position, DVec3::new(3.0, 3.0, 7.0));
    // Any other 3D path is profiled in 3D, in f32 as in f64.
    let z = [
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(3.0, 0.0, 5.0),
        Vec3::new(3.0, 3.0, 2.0),
    ];
    let zd: Vec<DVec3> = z.iter().map(|p| p.as_dvec3()).collect();
    let (h, hd) = (
        speed_profile(&z, &ag).unwrap(),
        speed_profile(&zd, &ag).unwrap(),
    );
    assert_eq!(h.length(), 5.0 + 18f64.sqrt());
    assert_eq!(h.total_time(), hd.total_time());
    assert!(h.total_time() > d.total_time());
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
        assert_eq!((mid.position_2d(), mid.speed), (path[1], 0.0));
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

// ---- 3D paths -------------------------------------------------------------------------------

/// `turns` turns of a helix of radius `r` and pitch `pitch` around the z axis, `per_turn`
/// points a turn.
fn helix(r: f64, pitch: f64, turns: f64, per_turn: usize) -> Vec<DVec3> {
    let n = (per_turn as f64 * turns).round() as usize;
    (0..=n)
        .map(|i| {
            let a = turns * TAU * i as f64 / n as f64;
            DVec3::new(r * a.cos(), r * a.sin(), pitch * a / TAU) + DVec3::new(2.0, -1.0, 5.0)
        })
        .collect()
}

#[test]
fn helix_length_and_cornering_speed_are_3d() {
    let ag = Agent::default();
    let (r, pitch, turns) = (2.0, 3.0, 3.0);
    let path = helix(r, pitch, turns, 4000);
    let p = speed_profile(&path, &ag).unwrap();
    // Length: sqrt((2πR)² + p²) a turn (the polyline is shorter by ~κ²c²/24 ≈ 1e-7).
    let per_turn = ((TAU * r).powi(2) + pitch * pitch).sqrt();
    let polyline: f64 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
    assert!(
        close(p.length(), polyline, 1e-12),
        "{} {polyline}",
        p.length()
    );
    assert!(
        ((p.length() - turns * per_turn) / (turns * per_turn)).abs() < 1e-6,
        "{} vs {}",
        p.length(),
        turns * per_turn
    );
    // Cornering speed: √(a_lat/κ) with the helix's curvature κ = R/(R² + (p/2π)²), not the
    // √(a_lat·R) of its ground projection (2.91 m/s against 2.83 m/s here).
    let b = pitch / TAU;
    let kappa = r / (r * r + b * b);
    let expected = (ag.max_lateral_accel / kappa)
        .sqrt()
        .min(ag.max_turn_rate / kappa)
        .min(ag.max_speed);
    assert!(expected < ag.max_speed && expected > (ag.max_lateral_accel * r).sqrt() * 1.02);
    let margin = ag.max_speed.powi(2) / (2.0 * ag.max_accel.min(ag.max_brake)) + 1.0;
    let middle: Vec<f64> = p
        .vertices()
        .filter(|v| v.s > margin && v.s < p.length() - margin)
        .map(|v| v.speed)
        .collect();
    assert!(middle.len() > 5000);
    for v in middle {
        assert!(close(v, expected, 1e-5), "{v} vs {expected}");
    }
    // Every sample stays on the helix, faces along it and respects the 3D curvature limit.
    for s in p.samples(50.0).unwrap() {
        let radial = (s.position - DVec3::new(2.0, -1.0, 5.0))
            .truncate()
            .length();
        assert!((radial - r).abs() < 1e-5, "{s:?}");
        assert!((s.direction.length() - 1.0).abs() < 1e-12);
        assert!(s.speed <= expected * (1.0 + 1e-5), "{s:?}");
    }
}

#[test]
fn ground_steering_on_a_helix_counts_only_the_yaw() {
    // With Steering::Ground the helix turns 2π of yaw per turn of 3D length L: the corner
    // radius is L/2π and the speed √(a_lat·L/2π), between the flat circle and the 3D helix.
    let ag = Agent {
        steering: Steering::Ground,
        ..Agent::default()
    };
    let (r, pitch) = (2.0, 3.0);
    let p = speed_profile(&helix(r, pitch, 3.0, 4000), &ag).unwrap();
    let per_turn = ((TAU * r).powi(2) + pitch * pitch).sqrt();
    let expected = (ag.max_lateral_accel * per_turn / TAU).sqrt();
    let margin = 5.0;
    for v in p
        .vertices()
        .filter(|v| v.s > margin && v.s < p.length() - margin)
    {
        assert!(close(v.speed, expected, 1e-5), "{} vs {expected}", v.speed);
    }
}

#[test]
fn vertical_climb_is_the_trapezoid() {
    for steering in [Steering::Full3d, Steering::Ground] {
        let ag = Agent {
            steering,
            ..Agent::default()
        };
        for height in [2.0, 4.0, 20.0, 137.5] {
            let up = [
                DVec3::new(1.0, 2.0, -3.0),
                DVec3::new(1.0, 2.0, height - 3.0),
            ];
            let p = speed_profile(&up, &ag).unwrap();
            assert_eq!(p.length(), height);
            assert!(p.total_time() > 0.0);
            assert!(
                close(p.total_time(), straight_time(height, &ag), 1e-12),
                "{height}"
            );
            let s = p.sample(0.5); // accelerating at 4 m/s²: 0.5 m up, at 2 m/s
            assert!(close(s.position.z, -2.5, 1e-12) && close(s.speed, 2.0, 1e-12));
            assert_eq!(
                (s.position.truncate(), s.direction),
                (DVec2::new(1.0, 2.0), DVec3::Z)
            );
            assert_eq!(s.heading, 0.0); // no yaw to take: +x
                                        // And back down: the same time, facing −z.
            let down = [up[1], up[0]];
            let q = speed_profile(&down, &ag).unwrap();
            assert!(close(q.total_time(), p.total_time(), 1e-12));
            assert_eq!(q.sample(1.0).direction, DVec3::NEG_Z);
        }
        // A follower climbs the shaft too, and stands on the top at the end.
        let mut f = Follower::new(ag).unwrap();
        f.set_path(&[DVec3::ZERO, DVec3::new(0.0, 0.0, 12.0)])
            .unwrap();
        let dt = 1.0 / 60.0;
        let mut steps = 0;
        while !f.step(dt).unwrap().finished {
            steps += 1;
            assert_eq!(f.state().position.truncate(), DVec2::ZERO);
            assert!(steps < 10_000);
        }
        assert_eq!(f.state().position, DVec3::new(0.0, 0.0, 12.0));
        let took = steps as f64 * dt;
        assert!(took > 0.8 * straight_time(12.0, &ag) && took < 1.1 * straight_time(12.0, &ag));
    }
}

#[test]
fn vertical_legs_keep_the_heading_and_stop_when_they_reverse() {
    // Along +y, up 5 m, along −x: the heading stays +y (90°) on the way up.
    let path = [
        DVec3::ZERO,
        DVec3::new(0.0, 10.0, 0.0),
        DVec3::new(0.0, 10.0, 5.0),
        DVec3::new(-10.0, 10.0, 5.0),
    ];
    let mut onto_shaft = Vec::new();
    for steering in [Steering::Full3d, Steering::Ground] {
        let ag = Agent {
            steering,
            ..Agent::default()
        };
        let p = speed_profile(&path, &ag).unwrap();
        let (v1, v2) = (p.vertex(1).unwrap(), p.vertex(2).unwrap());
        let s = p.sample(0.5 * (v1.t + v2.t));
        assert_eq!(s.direction, DVec3::Z);
        assert!(close(s.heading, FRAC_PI_2, 1e-12), "{s:?}");
        // Two 90° turns, rounded, and no stop.
        assert!(v1.speed > 0.0 && v2.speed > 0.0 && v1.dwell == 0.0 && v2.dwell == 0.0);
        onto_shaft.push(v1.speed);
    }
    // On the ground the turn onto the shaft is no turn at all: only braking for the next
    // corner slows the agent there.
    assert!(onto_shaft[1] > 2.0 * onto_shaft[0], "{onto_shaft:?}");
    // Up and straight back down is a reversal in either steering: the agent stops.
    let bounce = [
        DVec3::ZERO,
        DVec3::new(0.0, 0.0, 5.0),
        DVec3::new(0.0, 0.0, 1.0),
    ];
    for steering in [Steering::Full3d, Steering::Ground] {
        let ag = Agent {
            steering,
            ..Agent::default()
        };
        let p = speed_profile(&bounce, &ag).unwrap();
        assert_eq!(p.vertex(1).unwrap().speed, 0.0);
        assert!(close(
            p.total_time(),
            straight_time(5.0, &ag) + straight_time(4.0, &ag) + p.vertex(1).unwrap().dwell,
            1e-12
        ));
    }
}

#[test]
fn ground_follower_drives_off_the_foot_of_a_shaft() {
    // Down a vertical shaft, then off along the ground: the yaw stays put on the way down
    // (no chasing rounding noise) and the agent never stalls.
    let path = [
        DVec3::new(0.0, -1.8476012594815876, 23.373211596571256),
        DVec3::new(0.0, -1.8476012594815876, 0.0),
        DVec3::new(11.48789035418312, 0.0, 0.0),
    ];
    let ag = Agent {
        max_speed: 2.23,
        max_accel: 0.5,
        max_brake: 0.5,
        max_lateral_accel: 0.5,
        max_turn_rate: 0.5,
        stop_angle: 0.2,
        max_corner_cut: 0.05,
        steering: Steering::Ground,
    };
    let mut f = Follower::new(ag).unwrap();
    f.set_path(&path).unwrap();
    let start_yaw = f.state().heading;
    let dt = 1.0 / 30.0;
    let planned = f.profile().total_time();
    let mut steps = 0;
    while !f.step(dt).unwrap().finished {
        let st = f.state();
        if st.position.z > 1.0 {
            assert_eq!(st.heading, start_yaw, "{st:?}");
        }
        steps += 1;
        assert!((steps as f64) * dt < 1.5 * planned, "{st:?}");
    }
    assert_eq!(f.state().position, path[2]);
}

/// Take off 10 m straight up, climb 25 m along a 3-4-5 slope, cruise 16.91 m and descend
/// 4.38 m onto a roof: 56.29 m of flight over 36.91 m of ground.
fn flight() -> Vec<DVec3> {
    vec![
        DVec3::ZERO,
        DVec3::new(0.0, 0.0, 10.0),
        DVec3::new(20.0, 0.0, 25.0),
        DVec3::new(20.0, 16.91, 25.0),
        DVec3::new(20.0, 16.91, 20.62),
    ]
}

#[test]
fn flight_path_is_timed_on_its_3d_length() {
    let path = flight();
    let ground: Vec<DVec2> = path.iter().map(|p| p.truncate()).collect();
    for steering in [Steering::Full3d, Steering::Ground] {
        let ag = Agent {
            steering,
            ..Agent::default()
        };
        let p = speed_profile(&path, &ag).unwrap();
        assert!(close(p.length(), 56.29, 1e-12), "{}", p.length());
        let g = speed_profile(&ground, &ag).unwrap();
        assert!(close(g.length(), 36.91, 1e-12), "{}", g.length());
        assert!(p.total_time() >= straight_time(56.29, &ag));
        assert!(p.total_time() > g.total_time());
        let s: Vec<f64> = p.vertices().map(|v| v.s).collect();
        let expected = [0.0, 10.0, 35.0, 51.91, 56.29];
        for (a, b) in s.iter().zip(expected) {
            assert!(close(*a, b, 1e-12), "{s:?}");
        }
        let end = p.sample(p.total_time());
        assert_eq!(end.position, *path.last().unwrap());
        assert!(close(p.position_at(35.0).z, 25.0, 1e-12));
    }
}

// ---- limits at every sample (property) -----------------------------------------------------

fn arb_agent() -> impl Strategy<Value = Agent> {
    (
        (0.5..10.0f64, 0.5..10.0f64, 0.5..10.0f64),
        (0.5..10.0f64, 0.5..8.0f64, 0.2..=PI, 0.05..2.0f64),
        prop_oneof![Just(Steering::Full3d), Just(Steering::Ground)],
    )
        .prop_map(|((v, a, b), (lat, w, stop, cut), steering)| Agent {
            max_speed: v,
            max_accel: a,
            max_brake: b,
            max_lateral_accel: lat,
            max_turn_rate: w,
            stop_angle: stop,
            max_corner_cut: cut,
            steering,
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

/// Random 3D polylines with repeated points and vertical legs now and then.
fn arb_path_3d() -> impl Strategy<Value = Vec<DVec3>> {
    let point = (-30.0..30.0f64, -30.0..30.0f64, -30.0..30.0f64);
    prop::collection::vec((point, -30.0..30.0f64, 0..8u8), 2..25).prop_map(|pts| {
        let mut out: Vec<DVec3> = Vec::new();
        for ((x, y, z), z2, kind) in pts {
            let p = DVec3::new(x, y, z);
            out.push(p);
            match kind {
                0 => out.push(p),                     // a duplicate
                1 => out.push(DVec3::new(x, y, z2)),  // a vertical leg
                2 => out.push(DVec3::new(x, y, 0.0)), // a leg down to the ground
                _ => {}
            }
        }
        out
    })
}

/// The angle by which the agent's heading turns from sample `p` to sample `q`: between the
/// 3D directions, or between the yaws with [`Steering::Ground`].
fn turned(p_dir: DVec3, p_yaw: f64, q_dir: DVec3, q_yaw: f64, steering: Steering) -> f64 {
    match steering {
        Steering::Full3d => angle_between(p_dir, q_dir).unwrap_or(0.0),
        Steering::Ground => ((q_yaw - p_yaw + PI).rem_euclid(TAU) - PI).abs(),
    }
}

/// Steps the follower `f` (its path set) at 30 Hz until it finishes, calling
/// `check(previous, state, dt)` on every step, and fails when it is not there after three
/// times the planned time plus 20 s. Returns the final state.
fn run_to_the_end(
    f: &mut Follower,
    mut check: impl FnMut(&FollowState, &FollowState, f64) -> Result<(), TestCaseError>,
) -> Result<FollowState, TestCaseError> {
    let planned = f.profile().total_time();
    let dt = 1.0 / 30.0;
    let max_steps = ((3.0 * planned + 20.0) / dt) as usize;
    let mut prev = f.state();
    let mut steps = 0;
    while !prev.finished {
        prop_assert!(
            steps < max_steps,
            "not there after {steps} steps ({planned} s planned): {prev:?}"
        );
        let st = f.step(dt).unwrap();
        check(&prev, &st, dt)?;
        prev = st;
        steps += 1;
    }
    Ok(prev)
}

/// Checks the agent's limits between consecutive samples `dt` apart.
fn check_limits(samples: &[Sample], ag: &Agent) -> Result<(), TestCaseError> {
    let tol = 1e-6;
    for w in samples.windows(2) {
        let (p, q) = (&w[0], &w[1]);
        let dt = q.t - p.t;
        prop_assert!(q.position.is_finite() && q.heading.is_finite() && q.speed.is_finite());
        prop_assert!((q.direction.length() - 1.0).abs() < 1e-9, "{q:?}");
        // The heading is the yaw of the direction wherever the direction has one.
        let flat = q.direction.truncate();
        if flat.length() > 1e-6 {
            let yaw = (flat.to_angle() - q.heading + PI).rem_euclid(TAU) - PI;
            prop_assert!(yaw.abs() < 1e-6, "{q:?}");
        }
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
        let turned = turned(p.direction, p.heading, q.direction, q.heading, ag.steering);
        let rate = turned / dt;
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
        prop_assert_eq!((first.position_2d(), first.speed), (path[0], 0.0));
        prop_assert_eq!((last.position_2d(), last.speed), (*path.last().unwrap(), 0.0));
        prop_assert_eq!(last.t, p.total_time());
        // Vertex timings are ordered and every vertex is reached.
        let mut prev = 0.0;
        for (i, v) in p.vertices().enumerate() {
            prop_assert!(v.t >= prev && v.s.is_finite() && v.speed <= ag.max_speed, "{i} {v:?}");
            prop_assert!(p.sample(v.t + v.dwell).position_2d().distance(path[i]) < 1e-9);
            prev = v.t;
        }
    }

    #[test]
    fn no_sample_exceeds_any_limit_in_3d(path in arb_path_3d(), ag in arb_agent()) {
        let p = speed_profile(&path, &ag).unwrap();
        prop_assert!(p.total_time().is_finite() && p.total_time() > 0.0);
        let polyline: f64 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
        prop_assert!((p.length() - polyline).abs() <= 1e-9 * polyline);
        let rate = (40_000.0 / p.total_time()).min(1000.0);
        let samples = p.samples(rate).unwrap();
        check_limits(&samples, &ag)?;
        let (first, last) = (samples[0], *samples.last().unwrap());
        prop_assert_eq!((first.position, first.speed), (path[0], 0.0));
        prop_assert_eq!((last.position, last.speed), (*path.last().unwrap(), 0.0));
        let mut prev = 0.0;
        for (i, v) in p.vertices().enumerate() {
            prop_assert!(v.t >= prev && v.s.is_finite() && v.speed <= ag.max_speed, "{i} {v:?}");
            prop_assert!(p.sample(v.t + v.dwell).position.distance(path[i]) < 1e-9);
            prop_assert!(p.position_at(v.s).distance(path[i]) < 1e-9);
            prev = v.t;
        }
        prop_assert!(p.total_time() >= straight_time(p.length(), &ag) * (1.0 - 1e-9));
    }

    #[test]
    fn full3d_profiles_do_not_depend_on_the_orientation(
        path in arb_path(),
        ag in arb_agent(),
        (axis, angle, lift) in ((-1.0..1.0f64, -1.0..1.0f64, 0.1..1.0f64), 0.0..TAU, -50.0..50.0f64),
    ) {
        // The 2D path turned into an arbitrary plane: the same profile (Full3d); a
        // horizontal plane at any height: the same profile in either steering.
        let flat = speed_profile(&path, &ag).unwrap();
        let rot = DQuat::from_axis_angle(DVec3::new(axis.0, axis.1, axis.2).normalize(), angle);
        let tilted: Vec<DVec3> = path.iter().map(|p| rot * p.extend(0.0)).collect();
        let lifted: Vec<DVec3> = path.iter().map(|p| p.extend(lift)).collect();
        let full = Agent { steering: Steering::Full3d, ..ag };
        let t = speed_profile(&tilted, &full).unwrap();
        prop_assert!((t.length() - flat.length()).abs() <= 1e-9 * flat.length());
        prop_assert!((t.total_time() - flat.total_time()).abs() <= 1e-6 * flat.total_time(),
            "{} vs {}", t.total_time(), flat.total_time());
        let l = speed_profile(&lifted, &ag).unwrap();
        prop_assert!((l.total_time() - flat.total_time()).abs() <= 1e-9 * flat.total_time());
    }

    #[test]
    fn follower_reaches_the_goal_of_random_3d_paths(path in arb_path_3d(), ag in arb_agent()) {
        let mut f = Follower::new(ag).unwrap();
        f.set_path(&path).unwrap();
        let end = run_to_the_end(&mut f, |prev, st, dt| {
            prop_assert!(st.position.is_finite() && st.speed <= ag.max_speed * (1.0 + 1e-12));
            prop_assert!((st.direction.length() - 1.0).abs() < 1e-9);
            let turned = turned(prev.direction, prev.heading, st.direction, st.heading, ag.steering);
            prop_assert!(turned <= ag.max_turn_rate * dt * (1.0 + 1e-9) + 1e-12, "{turned}");
            let lateral = st.speed * turned / dt;
            prop_assert!(lateral <= ag.max_lateral_accel * (1.0 + 1e-9) + 1e-9, "{lateral}");
            Ok(())
        })?;
        prop_assert_eq!(end.position, *path.last().unwrap());
        prop_assert_eq!(end.speed, 0.0);
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
        let end = run_to_the_end(&mut f, |prev, st, dt| {
            prop_assert!(st.position.is_finite() && st.speed <= ag.max_speed * (1.0 + 1e-12));
            let turned = ((st.heading - prev.heading + PI).rem_euclid(TAU) - PI).abs();
            prop_assert!(turned <= ag.max_turn_rate * dt * (1.0 + 1e-9), "{turned}");
            let lateral = st.speed * turned / dt;
            prop_assert!(lateral <= ag.max_lateral_accel * (1.0 + 1e-9), "{lateral}");
            Ok(())
        })?;
        prop_assert_eq!(end.position_2d(), *path.last().unwrap());
        prop_assert_eq!(end.speed, 0.0);
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
        Err(Error::CoordinateOutOfRange { index: Some(1), .. })
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
    for (name, map, scen) in common::real_maps(&common::MAPS) {
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
                assert_eq!(f.state().position_2d(), *path.last().unwrap(), "{name}");
                followed += 1;
            }
        }
    }
    assert_eq!(followed, 2 * 4 * common::MAPS.len());
}

/// Found by the `curves` fuzz target: a subnormal top speed made the traversal time
/// infinite, and a subnormal acceleration made the profile's phases NaN (a panic in
/// `clamp`). Limits so close to 0 are refused up front.
#[test]
fn subnormal_limits_are_refused() {
    let path = [
        DVec3::ZERO,
        DVec3::new(0.0, 29.5, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
    ];
    for agent in [
        Agent {
            max_speed: 1.03811335531e-312,
            ..Agent::default()
        },
        Agent {
            max_accel: 3.92e-321,
            ..Agent::default()
        },
    ] {
        let err = speed_profile(&path, &agent).unwrap_err();
        assert!(matches!(err, Error::BadParameter { .. }), "{err}");
    }
}
