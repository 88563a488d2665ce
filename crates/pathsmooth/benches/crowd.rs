//! The crowd benchmark (issue 30): one 60 Hz frame of `crowd::CrowdSimulation` on the
//! 512×512 Moving AI map random512-10-0 — agents walking their corridors to random goals
//! within 48 cells, a new goal every 2.5–7.5 s (and on arrival), four doors closing and
//! opening every 3 s, the Smooth preset at radius 0.3 — for 1,000 and 10,000 agents on
//! one thread and 10,000 on two; and 1,000 agents with goals anywhere on the map (long
//! re-plans). The frame is all of it: doors, new goals, moves, re-plans and repairs. The
//! check of every path after the frame is `pathsmooth crowd`'s, not timed here.
//!
//! `cargo bench -p pathsmooth --features rayon --bench crowd` (set `PATHSMOOTH_SHARED`
//! unless `shared/` sits beside the checkout).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use pathsmooth::crowd::{CrowdScenario, CrowdSimulation};
use pathsmooth::GridWorld;

mod support;

fn bench_crowd(c: &mut Criterion) {
    let name = "random/random512-10-0";
    let Ok((map, _)) = support::try_load(name) else {
        eprintln!("crowd: {name} not found, skipped (set PATHSMOOTH_SHARED)");
        return;
    };
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

criterion_group!(benches, bench_crowd);
criterion_main!(benches);
