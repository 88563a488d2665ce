//! What area costs cost: grid A* and the `Smooth` pipeline on 512×512 Moving AI maps with
//! painted swamp (cost 4) and water (excluded), with the costs and with every area at 1
//! (the same world, the default filter: the steps then test nothing).
//!
//! `cargo bench -p pathsmooth --bench area_costs`. Measured figures: `docs/area-costs.md`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::DVec2;
use pathsmooth::area::AreaCosts;
use pathsmooth::grid::GridMap;
use pathsmooth::{GridWorld, Pipeline, Preset, World};

mod support;

use support::areas::{in_water, painted};

const MAPS: [&str; 2] = ["rooms/8room_000", "random/random512-10-0"];

fn bench_area_costs(c: &mut Criterion) {
    for (seed, name) in MAPS.iter().enumerate() {
        let (map, scen) = support::load(name);
        let rows = painted(&map, 28 + seed as u64);
        let painted_map = GridMap::from_rows(&rows).expect("painted map");
        let costs: AreaCosts = "S=4".parse().expect("costs");
        let uniform = GridWorld::new(painted_map.clone()).expect("world");
        let costly = GridWorld::new(painted_map)
            .expect("world")
            .with_area_costs(costs)
            .expect("costs");
        // The longest scenarios whose ends are not in water.
        let ends: Vec<(DVec2, DVec2)> = scen
            .iter()
            .rev()
            .map(|s| (s.start_point(), s.goal_point()))
            .filter(|&(a, b)| !in_water(&rows, a) && !in_water(&rows, b))
            .take(4)
            .collect();
        let mut group = c.benchmark_group(format!("area_costs/{name}"));
        group.sample_size(10);
        for (label, world) in [("uniform", &uniform), ("costs", &costly)] {
            group.bench_function(BenchmarkId::new("astar", label), |b| {
                b.iter(|| {
                    for &(s, g) in &ends {
                        black_box(world.find_path(s, g, 0.3).ok());
                    }
                })
            });
            let planned: Vec<Vec<DVec2>> = ends
                .iter()
                .filter_map(|&(s, g)| world.find_path(s, g, 0.3).ok())
                .collect();
            let mut pipeline = Pipeline::preset(world, 0.3, Preset::Smooth).expect("pipeline");
            let mut out = Vec::new();
            group.bench_function(BenchmarkId::new("smooth", label), |b| {
                b.iter(|| {
                    for p in &planned {
                        pipeline.smooth_into(p, &mut out).expect("smooth");
                        black_box(&out);
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_area_costs);
criterion_main!(benches);
