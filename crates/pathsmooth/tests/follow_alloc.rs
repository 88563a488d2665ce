//! Steady-state following allocates nothing: a counting global allocator watches
//! `Follower::step`, a recompute into a warm `SpeedProfile` and `samples_into` a warm buffer.
//! (Allocations are counted per thread, so no other test's allocations are counted.)

use crate::common;

use common::counting_alloc::allocations_during;
use glam::{DVec2, DVec3};
use pathsmooth::follow::{Agent, Follower, SpeedProfile, Steering};
use pathsmooth::Point;

fn zigzag(n: usize) -> Vec<DVec2> {
    (0..n)
        .map(|i| DVec2::new(i as f64, if i % 2 == 0 { 0.0 } else { 1.5 }))
        .collect()
}

#[test]
fn steady_state_following_does_not_allocate() {
    assert_steady_state_allocates_nothing(&zigzag(200), Agent::default(), "");
}

/// Follows `path` with `agent` for 2000 steps at 60 Hz, then sets a shorter path, recomputes
/// a warm profile and resamples into a warm buffer, asserting that none of these allocates.
/// `case` is added to the failure messages.
fn assert_steady_state_allocates_nothing<P: Point>(path: &[P], agent: Agent, case: &str) {
    let mut follower = Follower::new(agent).unwrap();
    follower.set_path(path).unwrap();
    let (steps, _) = allocations_during(|| {
        for _ in 0..2000 {
            follower.step(1.0 / 60.0).unwrap();
        }
    });
    assert!(follower.state().time > 30.0);
    assert_eq!(steps, 0, "Follower::step allocated{case}");

    // Setting a path no longer than the last one reuses the follower's buffers.
    let (again, _) = allocations_during(|| follower.set_path(&path[..150]).unwrap());
    assert_eq!(again, 0, "Follower::set_path allocated{case}");

    let mut profile = SpeedProfile::new();
    profile.compute(path, &agent).unwrap();
    let (recompute, _) = allocations_during(|| profile.compute(path, &agent).unwrap());
    assert_eq!(recompute, 0, "SpeedProfile::compute allocated{case}");

    let mut out = Vec::new();
    profile.samples_into(30.0, &mut out).unwrap();
    let (resample, _) = allocations_during(|| profile.samples_into(30.0, &mut out).unwrap());
    assert_eq!(resample, 0, "samples_into allocated{case}");
}

/// A climbing spiral with a vertical shaft in the middle.
fn spiral(n: usize) -> Vec<DVec3> {
    let mut path: Vec<DVec3> = (0..n)
        .map(|i| {
            let a = i as f64 * 0.3;
            DVec3::new(4.0 * a.cos(), 4.0 * a.sin(), 0.2 * i as f64)
        })
        .collect();
    let mid = path[n / 2];
    path.insert(n / 2 + 1, mid + DVec3::Z * 5.0);
    for p in &mut path[n / 2 + 2..] {
        *p += DVec3::Z * 5.0;
    }
    path
}

#[test]
fn steady_state_3d_following_does_not_allocate() {
    let path = spiral(200);
    for steering in [Steering::Full3d, Steering::Ground] {
        let agent = Agent {
            steering,
            ..Agent::default()
        };
        assert_steady_state_allocates_nothing(&path, agent, &format!(" ({steering:?})"));
    }
}
