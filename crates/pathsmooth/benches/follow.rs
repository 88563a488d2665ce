//! Speed profiles of 10,000-point paths (target: under 1 ms), 2D and 3D, and follower
//! steps.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{DVec2, DVec3};
use pathsmooth::follow::{speed_profile, Agent, Follower, SpeedProfile, Steering};

/// A smooth, winding curve sampled every ~0.1 m (what a smoother produces).
fn curve(n: usize) -> Vec<DVec2> {
    (0..n)
        .map(|i| {
            let t = i as f64;
            DVec2::new(0.1 * t, 3.0 * (0.01 * t).sin() + 0.5 * (0.13 * t).sin())
        })
        .collect()
}

/// The winding curve climbing and dipping in z (a flight path), sampled every ~0.1 m.
fn flight(n: usize) -> Vec<DVec3> {
    curve(n)
        .into_iter()
        .enumerate()
        .map(|(i, p)| p.extend(2.0 * (0.004 * i as f64).sin() + 0.02 * i as f64))
        .collect()
}

/// A raw 8-connected grid path: runs of straight and diagonal steps with 45°, 90° and
/// 135° turns (what A* produces).
fn grid(n: usize) -> Vec<DVec2> {
    let dirs = [
        DVec2::new(1.0, 0.0),
        DVec2::new(1.0, 1.0),
        DVec2::new(0.0, 1.0),
        DVec2::new(1.0, -1.0),
        DVec2::new(-1.0, 1.0),
    ];
    let mut p = DVec2::splat(0.5);
    let mut state = 12345u64;
    let mut dir = dirs[0];
    (0..n)
        .map(|i| {
            if i % 7 == 0 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                dir = dirs[(state >> 33) as usize % dirs.len()];
            }
            let here = p;
            p += dir;
            here
        })
        .collect()
}

fn profile(c: &mut Criterion) {
    let agent = Agent::default();
    let mut group = c.benchmark_group("speed_profile_10k");
    for (name, path) in [("curve", curve(10_000)), ("grid", grid(10_000))] {
        group.bench_function(format!("{name}/allocating"), |b| {
            b.iter(|| {
                speed_profile(black_box(&path), &agent)
                    .unwrap()
                    .total_time()
            })
        });
        let mut reused = SpeedProfile::new();
        group.bench_function(format!("{name}/reused"), |b| {
            b.iter(|| {
                reused.compute(black_box(&path), &agent).unwrap();
                reused.total_time()
            })
        });
    }
    let flight = flight(10_000);
    for (name, steering) in [("full3d", Steering::Full3d), ("ground", Steering::Ground)] {
        let agent = Agent { steering, ..agent };
        let mut reused = SpeedProfile::new();
        group.bench_function(format!("flight_3d/{name}/reused"), |b| {
            b.iter(|| {
                reused.compute(black_box(&flight), &agent).unwrap();
                reused.total_time()
            })
        });
    }
    group.finish();
}

fn follower(c: &mut Criterion) {
    let path = curve(10_000);
    let mut f = Follower::new(Agent::default()).unwrap();
    f.set_path(&path).unwrap();
    c.bench_function("follower_step_60hz", |b| {
        b.iter(|| {
            if f.state().finished {
                f.set_path(&path).unwrap();
            }
            f.step(black_box(1.0 / 60.0)).unwrap()
        })
    });
}

fn follower_3d(c: &mut Criterion) {
    let path = flight(10_000);
    let mut f = Follower::new(Agent::default()).unwrap();
    f.set_path(&path).unwrap();
    c.bench_function("follower_step_60hz_3d", |b| {
        b.iter(|| {
            if f.state().finished {
                f.set_path(&path).unwrap();
            }
            f.step(black_box(1.0 / 60.0)).unwrap()
        })
    });
}

criterion_group!(benches, profile, follower, follower_3d);
criterion_main!(benches);
