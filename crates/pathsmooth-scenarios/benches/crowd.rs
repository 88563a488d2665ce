//! The crowd benchmark (issue 30): one 60 Hz frame of `CrowdSimulation` on the
//! 512×512 Moving AI map random512-10-0 — agents walking their paths to random goals
//! within 48 cells, a new goal every 2.5–7.5 s (and on arrival), four doors closing and
//! opening every 3 s, the Smooth preset at radius 0.3 — for 1,000 and 10,000 agents on
//! one thread and 10,000 on two; and 1,000 agents with goals anywhere on the map (long
//! re-plans). The frame is all of it: doors, new goals, moves, re-plans and repairs. The
//! check of every path after the frame is `pathsmooth crowd`'s, not timed here.
//!
//! Also what a door costs the world: a 3×3 box added and removed, beside a rebuild of the
//! distance field.
//!
//! `cargo bench -p pathsmooth-scenarios --bench crowd`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::DVec2;
use pathsmooth::grid::DistanceField;
use pathsmooth::world::Obstacle;
use pathsmooth::GridWorld;
use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation};

// The Moving AI maps, as the library's tests and benches find and load them.
#[allow(dead_code)]
#[path = "../../pathsmooth/tests/common/maps.rs"]
mod support;

fn bench_crowd(c: &mut Criterion) {
    let name = "random/random512-10-0";
    let (map, _) = support::load(name);
    let mut group = c.benchmark_group("crowd/frame");
    group.sample_size(20);
    let runs = [
        ("goals within 48", 1_000, 1, 48.0),
        ("goals within 48", 10_000, 1, 48.0),
        ("goals within 48", 10_000, 2, 48.0),
        ("goals anywhere", 1_000, 1, f64::INFINITY),
    ];
    for (what, agents, threads, goal_range) in runs {
        let scenario = CrowdScenario {
            agents,
            threads,
            goal_range,
            ..CrowdScenario::default()
        };
        let world = GridWorld::new(map.clone()).expect("world");
        let mut sim = CrowdSimulation::new(world, scenario).expect("simulation");
        group.bench_function(
            BenchmarkId::new(
                format!("{what}, {agents} agents"),
                format!("{threads} thread(s)"),
            ),
            |b| b.iter(|| black_box(sim.frame().expect("frame"))),
        );
    }
    group.finish();
}

/// What a door costs the world: adding and removing a 3×3 box obstacle on random512-10-0
/// (the distance field patched near it), beside a rebuild of the whole distance field
/// (what each change cost before the patch).
fn bench_obstacle(c: &mut Criterion) {
    let name = "random/random512-10-0";
    let (map, _) = support::load(name);
    let mut world = GridWorld::new(map.clone()).expect("world");
    let door = Obstacle::Box {
        min: DVec2::new(250.0, 250.0),
        max: DVec2::new(253.0, 253.0),
    };
    // The first change keeps the field without obstacles: not what a door costs after.
    let id = world.add_obstacle(door.clone()).expect("door");
    world.remove_obstacle(id).expect("door");
    let mut group = c.benchmark_group("crowd/obstacle");
    group.bench_function("add and remove a 3x3 door (patch)", |b| {
        b.iter(|| {
            let id = world.add_obstacle(black_box(door.clone())).expect("door");
            world.remove_obstacle(id).expect("door");
        })
    });
    group.bench_function("rebuild the distance field", |b| {
        b.iter(|| black_box(DistanceField::new(black_box(&map))))
    });
    group.finish();
}

criterion_group!(benches, bench_crowd, bench_obstacle);
criterion_main!(benches);
