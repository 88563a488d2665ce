//! The grid distance field: `DistanceField::new` plus a sweep of `cell_clearance` over every
//! cell (what radius inflation and the corridor map do), on generated square maps of
//! 512², 1024², 2048² and 4096² cells of three kinds:
//!
//! - `open`: every cell free (only the map border is a wall);
//! - `random`: about 20 % of the cells blocked, independently (a fixed hash of the cell);
//! - `rooms`: 32 × 32 rooms separated by one-cell walls with a 4-cell doorway in every wall.
//!
//! The maps are generated in the bench (no files). Throughput is in cells, so linear cost
//! shows as a constant rate across sizes.
//!
//! Then segment tests on Moving AI maps (`segment_clearance/MAP/...`): 10,000 seeded
//! segments up to 8 cells long between free points, asked as the crowd, the validator and
//! the smoothers ask them: clear of radius 0.3 (`clear_of_0.3`), the clearance capped at
//! 1.3 (`capped_1.3`, the crowd's legs) and uncapped (`uncapped`).
//!
//! `cargo bench -p pathsmooth --bench distance -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use glam::DVec2;
use pathsmooth::grid::DistanceField;
use pathsmooth::grid::GridMap;

mod support;

use support::generated::{KINDS, SIDES};

/// Builds the field and sums the clearance of every cell centre.
fn build_and_sweep(map: &GridMap) -> f64 {
    let field = DistanceField::new(map);
    let mut sum = 0.0;
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            sum += field.cell_clearance(x, y);
        }
    }
    sum
}

fn bench(c: &mut Criterion) {
    for (kind, make) in KINDS {
        let mut group = c.benchmark_group(format!("distance_field/{kind}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        for side in SIDES {
            let map = make(side);
            group.throughput(Throughput::Elements((side * side) as u64));
            group.bench_function(BenchmarkId::from_parameter(side), |b| {
                b.iter(|| black_box(build_and_sweep(black_box(&map))))
            });
        }
        group.finish();
    }
}

/// `n` seeded segments up to 8 cells long between free points of `map`.
fn segments(map: &GridMap, n: usize) -> Vec<(DVec2, DVec2)> {
    let mut rng = support::rng::Rng::new(7);
    let free = |p: DVec2| map.is_passable(p.x.floor() as i64, p.y.floor() as i64);
    let size = DVec2::new(map.width() as f64, map.height() as f64);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let a = DVec2::new(rng.unit(), rng.unit()) * size;
        let b = a + DVec2::new(rng.range(-8.0, 8.0), rng.range(-8.0, 8.0));
        if free(a) && free(b) {
            out.push((a, b));
        }
    }
    out
}

fn bench_segments(c: &mut Criterion) {
    for name in ["random/random512-10-0", "mazes/maze512-4-0"] {
        let (map, _) = support::load(name);
        let field = DistanceField::new(&map);
        let segs = segments(&map, 10_000);
        let mut group = c.benchmark_group(format!("segment_clearance/{name}"));
        group.sample_size(20);
        group.bench_function("clear_of_0.3", |b| {
            b.iter(|| {
                segs.iter()
                    .filter(|(p, q)| field.segment_clear_of(*p, *q, 0.3))
                    .count()
            })
        });
        group.bench_function("capped_1.3", |b| {
            b.iter(|| {
                let sum: f64 = segs
                    .iter()
                    .map(|(p, q)| field.segment_clearance_capped(*p, *q, 1.3))
                    .sum();
                black_box(sum)
            })
        });
        group.bench_function("uncapped", |b| {
            b.iter(|| {
                let sum: f64 = segs
                    .iter()
                    .map(|(p, q)| field.segment_clearance(*p, *q))
                    .sum();
                black_box(sum)
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench, bench_segments);
criterion_main!(benches);
