//! One crowd frame: `crowd::update_batch` moving every agent's corridor a 60 Hz step along
//! its path (and giving arrived agents a new goal), on a 512×512 Moving AI map, for 1,000
//! agents on one thread and on the machine's threads (issue 30, item 4's measure of the
//! per-frame cost; the full simulation with doors is not here yet).
//!
//! `cargo bench -p pathsmooth --features rayon --bench crowd` (set `PATHSMOOTH_SHARED`
//! unless `shared/` sits beside the checkout).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::DVec2;
use pathsmooth::crowd::{update_batch, AgentMove, PathCorridor};
use pathsmooth::{GridWorld, Pipeline, Preset};

mod support;

/// Agent speed, world units (cells) per second, and the frame time.
const SPEED: f64 = 1.5;
const DT: f64 = 1.0 / 60.0;

fn bench_crowd(c: &mut Criterion) {
    let name = "random/random512-10-0";
    let Ok((map, scen)) = support::try_load(name) else {
        eprintln!("crowd: {name} not found, skipped (set PATHSMOOTH_SHARED)");
        return;
    };
    let world = GridWorld::new(map).expect("world");
    let radius = 0.3;
    let steps = Preset::Smooth.steps();
    let mut pipeline = Pipeline::new(&world, radius)
        .expect("pipeline")
        .with_steps(steps.clone());
    // 1,000 agents from the scenario file's ends (cycled), their next goals the file's
    // other ends.
    let ends: Vec<(DVec2, DVec2)> = scen
        .iter()
        .map(|s| (s.start_point(), s.goal_point()))
        .collect();
    let agents: Vec<(PathCorridor, usize)> = ends
        .iter()
        .enumerate()
        .filter_map(|(i, &(a, b))| PathCorridor::new(&mut pipeline, a, b).ok().map(|c| (c, i)))
        .take(1000)
        .collect();
    let mut group = c.benchmark_group("crowd/frame");
    group.sample_size(20);
    for threads in [
        1,
        std::thread::available_parallelism().map_or(2, |n| n.get()),
    ] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let (mut corridors, mut next): (Vec<PathCorridor>, Vec<usize>) =
            agents.iter().cloned().unzip();
        group.bench_function(
            BenchmarkId::new(format!("{} agents", corridors.len()), threads),
            |b| {
                b.iter(|| {
                    let moves: Vec<AgentMove> = corridors
                        .iter()
                        .zip(next.iter_mut())
                        .map(|(c, k)| {
                            let arrived = c.position() == c.target();
                            if arrived {
                                *k = (*k + 7) % ends.len();
                            }
                            AgentMove {
                                position: c.steering_point(SPEED * DT),
                                target: arrived.then(|| ends[*k].1),
                            }
                        })
                        .collect();
                    let done = pool
                        .install(|| update_batch(&world, radius, &steps, &mut corridors, &moves))
                        .expect("batch");
                    black_box(done);
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_crowd);
criterion_main!(benches);
