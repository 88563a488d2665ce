//! Detour per query on the multi-level bakes: `findNearestPoly` ×2 + `findPath` +
//! `findStraightPath`, 200 reproducible centroid-to-centroid pairs per mesh; criterion
//! reports the time for the batch of 200 (divide by 200 for per query).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use detour_peer::{Bake, DetourMesh, MAX_PATH};
use recastnavigation_sys::dtPolyRef;
use std::hint::black_box;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/pathsmooth/tests/data/navmesh/"
);

fn detour(c: &mut Criterion) {
    let mut group = c.benchmark_group("detour");
    for name in ["dungeon", "nav_test"] {
        let bake = Bake::load(&format!("{DATA}{name}.navmesh.json")).unwrap();
        let mesh = DetourMesh::from_bake(&bake).unwrap();
        let centroids = bake.centroids();
        let pairs = bake.query_pairs();
        let mut corridor = Box::new([0 as dtPolyRef; MAX_PATH]);
        let mut straight = Box::new([0.0f32; 3 * MAX_PATH]);
        group.throughput(Throughput::Elements(pairs.len() as u64));
        group.bench_function(format!("{name}/200 queries"), |b| {
            b.iter(|| {
                for &(a, z) in &pairs {
                    black_box(mesh.query_raw(
                        &centroids[a],
                        &centroids[z],
                        &mut corridor,
                        &mut straight,
                    ));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, detour);
criterion_main!(benches);
