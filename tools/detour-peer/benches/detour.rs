//! pathsmooth's layered query at radius 0 against Detour, in one criterion group
//! (`layered_query`), on the two multi-level bakes dungeon and nav_test: per mesh,
//! `detour/<mesh>` and `pathsmooth/<mesh>` run the same 200 reproducible pairs of polygon
//! centroids, drawn within one connected component so that every query reaches its goal
//! (`Bake::connected_pairs`: fixed-seed LCG, pairs across components skipped).
//!
//! Each side's whole query is timed: Detour = `findNearestPoly` ×2 + `findPath` +
//! `findStraightPath` (`DetourMesh::query_raw`); pathsmooth = `SurfaceQuery::find_path`
//! (both ends located within the same half-extents, the search, the funnel, the lift to
//! 3D). Caller-owned buffers and a reused query object on each side, so neither allocates
//! in the loop. Criterion reports the time of the batch of 200; throughput elements =
//! pairs, so its elem/s is queries per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use detour_peer::{dvec3, Bake, DetourMesh, PathsmoothMesh, MAX_PATH};
use recastnavigation_sys::dtPolyRef;
use std::hint::black_box;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/pathsmooth/tests/data/navmesh/"
);

fn layered_query(c: &mut Criterion) {
    let mut group = c.benchmark_group("layered_query");
    for name in ["dungeon", "nav_test"] {
        let file = format!("{DATA}{name}.navmesh.json");
        let bake = Bake::load(&file).unwrap();
        let detour = DetourMesh::from_bake(&bake).unwrap();
        let ours = PathsmoothMesh::load(&file).unwrap();
        let centroids = bake.centroids();
        let pairs = bake.connected_pairs();
        group.throughput(Throughput::Elements(pairs.len() as u64));

        let mut corridor = Box::new([0 as dtPolyRef; MAX_PATH]);
        let mut straight = Box::new([0.0f32; 3 * MAX_PATH]);
        group.bench_function(format!("detour/{name}"), |b| {
            b.iter(|| {
                for &(s, g) in &pairs {
                    black_box(detour.query_raw(
                        &centroids[s],
                        &centroids[g],
                        &mut corridor,
                        &mut straight,
                    ));
                }
            })
        });

        let ends: Vec<_> = pairs
            .iter()
            .map(|&(s, g)| (dvec3(&centroids[s]), dvec3(&centroids[g])))
            .collect();
        let mut query = ours.new_query();
        group.bench_function(format!("pathsmooth/{name}"), |b| {
            b.iter(|| {
                for &(s, g) in &ends {
                    let path = query.find_path(&ours.mesh, s, g, 0.0).map(|p| p.len());
                    black_box(path.unwrap());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, layered_query);
criterion_main!(benches);
