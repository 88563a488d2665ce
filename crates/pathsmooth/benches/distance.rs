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
use pathsmooth::grid::distance::DistanceField;
use pathsmooth::grid::GridMap;

const SIDES: [usize; 4] = [512, 1024, 2048, 4096];

/// A map generator: side length → square map.
type Generator = fn(usize) -> GridMap;

/// splitmix64 of the cell index: a fixed pseudo-random bit pattern.
fn hash(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn open(side: usize) -> GridMap {
    GridMap::from_fn(side, side, |_, _| true)
}

fn random(side: usize) -> GridMap {
    GridMap::from_fn(side, side, |x, y| hash((y * side + x) as u64) % 100 >= 20)
}

fn rooms(side: usize) -> GridMap {
    const ROOM: usize = 33; // 32 free cells and one wall
    GridMap::from_fn(side, side, |x, y| {
        let (wx, wy) = (x % ROOM == ROOM - 1, y % ROOM == ROOM - 1);
        let door = |t: usize| (14..18).contains(&(t % ROOM));
        match (wx, wy) {
            (true, true) => false,
            (true, false) => door(y),
            (false, true) => door(x),
            (false, false) => true,
        }
    })
}

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
    let kinds: [(&str, Generator); 3] = [("open", open), ("random", random), ("rooms", rooms)];
    for (kind, make) in kinds {
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
