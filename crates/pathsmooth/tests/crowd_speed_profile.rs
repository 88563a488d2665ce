//! Crowds whose agents keep motion limits ([`Crowd::with_speed_profile`]): they speed up
//! by at most their acceleration, take bends no faster than the follower's rounding rule
//! allows, stop at turns sharper than their stop angle and brake to stand at their goals.
//! Every frame is judged by checks written here: speeds measured along the agent's own
//! path from where it stood (arc length, not the chord, so a step round a corner is
//! measured as walked), each corner's cap recomputed with trigonometry from its geometry,
//! and on Moving AI maps the limits over every agent and frame, with avoidance the
//! overlaps and wall hits of `crowd_avoidance`.

use std::f64::consts::PI;

use crate::crowd_avoidance::{
    assert_clean, map_rows, random_pairs, run_crowd, wall_distance, HZ, RADIUS, SPEED,
};
use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd};
use pathsmooth::follow::Agent;
use pathsmooth::{GridMap, GridWorld, Preset};

/// A room 10 × 10 with a block filling all but its top row and right two columns: the way
/// from the top-left to the bottom-right turns once, by 84°, in the cell beside the block.
fn bend() -> GridWorld {
    let mut rows = vec![".".repeat(10)];
    rows.extend((1..10).map(|_| format!("{}..", "#".repeat(8))));
    GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap()
}

const START: DVec2 = DVec2::new(0.5, 0.5);
const CORNER: DVec2 = DVec2::new(8.5, 0.5);
const GOAL: DVec2 = DVec2::new(9.5, 9.5);

/// One agent of radius 0 (its path touches the corner) walks the bend with `limits` at
/// [`HZ`]: its distance along START–CORNER–GOAL after every frame, until it arrives.
fn walk_the_bend(limits: Option<Agent>) -> Vec<f64> {
    let mut crowd = Crowd::new(bend(), 0.0, Preset::Shortest.steps())
        .unwrap()
        .with_speed_profile(limits)
        .unwrap();
    let a = crowd.add_agent(START, GOAL, SPEED).unwrap();
    assert_eq!(crowd.agents()[a].agent_path().path(), [START, CORNER, GOAL]);
    let first_leg = START.distance(CORNER);
    let along = |p: DVec2| {
        let on_first = (p - START).perp_dot(CORNER - START).abs() < 1e-9;
        if on_first && p.distance(START) <= first_leg {
            p.distance(START)
        } else {
            assert!(
                (p - CORNER).perp_dot(GOAL - CORNER).abs() < 1e-9,
                "{p} off the path"
            );
            first_leg + p.distance(CORNER)
        }
    };
    let mut s = vec![0.0];
    while !crowd.agents()[a].arrived() {
        assert!(s.len() < 60 * 60, "not there in a minute");
        crowd.update(1.0 / HZ).unwrap();
        s.push(along(crowd.agents()[a].agent_path().position()));
    }
    s
}

/// Speeds over each frame, from distances along the path.
fn speeds(s: &[f64]) -> Vec<f64> {
    s.windows(2).map(|w| (w[1] - w[0]) * HZ).collect()
}

/// The limits of these tests: an agent that rounds the corner slower than it walks.
fn limits() -> Agent {
    Agent {
        max_accel: 2.0,
        max_brake: 3.0,
        max_lateral_accel: 0.5,
        ..Agent::default()
    }
}

#[test]
fn an_agent_takes_a_bend_at_the_cap_of_its_rounding_arc() {
    let ag = limits();
    // The turn at the corner, and the arc the follower rounds it on (the module's rule,
    // in trigonometry): tangent to both legs, within `max_corner_cut` of the corner, on at
    // most half of the outgoing leg (the agent is on the incoming one); the cap is the
    // slower of the lateral acceleration's √(a·r) and the turn rate's ω·r.
    let (u, w) = ((CORNER - START).normalize(), (GOAL - CORNER).normalize());
    let theta = u.angle_to(w).abs();
    let half = theta / 2.0;
    let r_cut = ag.max_corner_cut / (1.0 / half.cos() - 1.0);
    let r_fit = 0.5 * CORNER.distance(GOAL) / half.tan();
    let r_need = SPEED * SPEED / ag.max_lateral_accel;
    let r = r_cut.min(r_fit).min(r_need);
    let cap = (ag.max_lateral_accel * r).sqrt().min(ag.max_turn_rate * r);
    assert!(
        cap < 0.5 * SPEED,
        "{cap}: the test wants a bend that slows the agent"
    );

    let s = walk_the_bend(Some(ag));
    let v = speeds(&s);
    let corner_at = START.distance(CORNER);
    let crossing = s
        .windows(2)
        .position(|w| w[0] < corner_at && w[1] >= corner_at)
        .unwrap();
    let tol = 1e-9;
    // Over the crossing step it brakes to the cap at the corner and walks on at it.
    assert!(
        v[crossing] >= cap - tol && v[crossing] <= cap + ag.max_brake / HZ + tol,
        "crossing at {} m/s, cap {cap}",
        v[crossing]
    );
    // Its top speed on the legs, never faster, and never slower than the cap between
    // its start and its stop.
    assert!(v.iter().all(|&x| x <= SPEED + tol));
    assert!(v.iter().any(|&x| x >= SPEED - tol));
    let (rising, stopping) = (
        v.iter().position(|&x| x >= cap).unwrap(),
        v.iter().rposition(|&x| x >= cap).unwrap(),
    );
    assert!(
        v[rising..=stopping].iter().all(|&x| x >= cap - tol),
        "{cap}: {v:?}"
    );
    // Without limits it walks the corner at full speed.
    let free = speeds(&walk_the_bend(None));
    assert!(
        free.iter().all(|&x| (x - SPEED).abs() < 1e-6 || x < SPEED),
        "{free:?}"
    );
    assert!(free[crossing.min(free.len() - 1)..]
        .iter()
        .take(3)
        .any(|&x| x > 0.99 * SPEED));
}

#[test]
fn an_agent_stops_at_a_turn_sharper_than_its_stop_angle() {
    // The bend turns by about 84°: with a stop angle of 60° the agent's step ends at the
    // corner, at the speed of the last step of a stop, and it sets off again from there.
    let ag = Agent {
        stop_angle: PI / 3.0,
        ..limits()
    };
    let s = walk_the_bend(Some(ag));
    let corner_at = START.distance(CORNER);
    let at = s.iter().position(|&x| (x - corner_at).abs() < 1e-9);
    let at = at.expect("a frame ends at the corner");
    let v = speeds(&s);
    let tol = 1e-9;
    assert!(v[at - 1] <= 0.5 * ag.max_brake / HZ + tol, "{}", v[at - 1]);
    // The step from there: a step's speed is its mean, so at most the last one's plus a·dt.
    assert!(v[at] <= v[at - 1] + ag.max_accel / HZ + tol, "{}", v[at]);
    // Under the default stop angle (120°) it rounds the corner instead: no step ends there.
    let rounding = walk_the_bend(Some(limits()));
    assert!(rounding.iter().all(|&x| (x - corner_at).abs() > 1e-6));
}

#[test]
fn an_agent_accelerates_and_brakes_within_its_limits_and_stands_at_its_goal() {
    let ag = limits();
    let v = speeds(&walk_the_bend(Some(ag)));
    let tol = 1e-9;
    assert!(v[0] <= ag.max_accel / HZ + tol);
    assert!(v.windows(2).all(|w| w[1] - w[0] <= ag.max_accel / HZ + tol));
    // The last step ends at the goal from a standstill's speed: at most ½·b·dt.
    assert!(*v.last().unwrap() <= 0.5 * ag.max_brake / HZ + tol, "{v:?}");
    // Braking, it loses at most b·dt a step (the steps of a stop, exactly that).
    let last = v.len() - 1;
    let stop = (v[last - 10..last - 1]).windows(2);
    assert!(
        stop.clone()
            .all(|w| (w[0] - w[1] - ag.max_brake / HZ).abs() < 1e-9),
        "{v:?}"
    );
}

/// Per agent of `crowd`, bound for `goals`, run at [`HZ`] for at most `seconds`: the frame
/// it first stood at its goal and the speed of the step that took it there (`None`: not
/// there), and the fastest step any agent took (chords: never longer than the way walked).
fn arrivals<W: pathsmooth::world::ObstacleWorld + Send + Sync>(
    mut crowd: Crowd<W>,
    goals: &[DVec2],
    seconds: f64,
) -> (Vec<Option<(usize, f64)>>, f64) {
    let mut at = vec![None; goals.len()];
    let mut fastest = 0.0f64;
    let mut before: Vec<DVec2> = crowd
        .agents()
        .iter()
        .map(|a| a.agent_path().position())
        .collect();
    for f in 1..=(seconds * HZ).round() as usize {
        crowd.update(1.0 / HZ).unwrap();
        for (i, a) in crowd.agents().iter().enumerate() {
            let p = a.agent_path().position();
            let v = p.distance(before[i]) * HZ;
            fastest = fastest.max(v);
            if p == goals[i] && at[i].is_none() {
                at[i] = Some((f, v));
            }
            before[i] = p;
        }
        if at.iter().all(Option::is_some) {
            break;
        }
    }
    (at, fastest)
}

#[test]
fn agents_on_moving_ai_maps_keep_their_limits_and_still_avoid_each_other() {
    // Forty agents between random open cells (fixed seeds) of an arena and a cave, with
    // the limits of these tests: on their own, none faster than its speed, each standing
    // at its goal after a last step of a stop (≤ ½·b·dt), none sooner than it would have
    // without limits; with avoidance, no overlap, no wall hit, all there, no stall.
    let ag = limits();
    for (rel, seed, by) in [("dao/arena.map", 70, 90.0), ("dao/den312d.map", 71, 120.0)] {
        let rows = map_rows(rel);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let (starts, goals) = random_pairs(&rows, seed, RADIUS);
        let crowd = |profile: Option<Agent>, avoid: bool| {
            let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
            let mut crowd = Crowd::new(world, RADIUS, Preset::Smooth.steps())
                .unwrap()
                .with_speed_profile(profile)
                .unwrap()
                .with_avoidance(avoid.then(Avoidance::default))
                .unwrap();
            for (&s, &g) in starts.iter().zip(&goals) {
                crowd.add_agent(s, g, SPEED).unwrap();
            }
            crowd
        };
        let (limited, fastest) = arrivals(crowd(Some(ag), false), &goals, by);
        let (free, _) = arrivals(crowd(None, false), &goals, by);
        assert!(fastest <= SPEED + 1e-9, "{rel}: {fastest}");
        for (i, (l, f)) in limited.iter().zip(&free).enumerate() {
            let ((l_at, l_v), (f_at, _)) = (l.unwrap(), f.unwrap());
            assert!(
                l_v <= 0.5 * ag.max_brake / HZ + 1e-9,
                "{rel} agent {i}: {l_v}"
            );
            assert!(l_at > f_at, "{rel} agent {i}: {l_at} ≤ {f_at}");
        }
        let o = run_crowd(
            crowd(Some(ag), true),
            &|p| wall_distance(&rows, p),
            &goals,
            by,
        );
        assert_clean(&format!("{rel} with limits"), &o, goals.len(), by);
    }
}
