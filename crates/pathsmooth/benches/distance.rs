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
//! `cargo bench -p pathsmooth --bench distance -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
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

criterion_group!(benches, bench);
criterion_main!(benches);
