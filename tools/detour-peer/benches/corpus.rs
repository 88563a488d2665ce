//! pathsmooth's whole query against Detour's on every navmesh file of the corpus
//! (`crates/pathsmooth/tests/data/corpus/`, MANIFEST formats godot, unity-obj,
//! polyanya-mesh, recast-json, detour), on the same random points (`detour_peer::corpus`):
//! one criterion group per file, `corpus/<file>`, holding `detour` (`findNearestPoly` ×2 +
//! `findPath` + `findStraightPath`) and `pathsmooth` (`SurfaceQuery::find_path`, radius 0),
//! each iteration the batch of the file's 200 pairs; so each file's ratio comes from one
//! run. Caller buffers and reused query objects on both sides (`tests/no_alloc.rs`).
//!
//! `CORPUS_FILTER=TEXT` narrows it to the files whose name contains TEXT;
//! `DETOUR_NODES=N` sets Detour's node pool (default RecastDemo's 2048).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use detour_peer::corpus::{manifest, Case, PAIRS};
use std::hint::black_box;
use std::time::Duration;

fn corpus(c: &mut Criterion) {
    let filter = std::env::var("CORPUS_FILTER").unwrap_or_default();
    let nodes: i32 = std::env::var("DETOUR_NODES")
        .ok()
        .map_or(detour_peer::MAX_NODES, |n| n.parse().expect("DETOUR_NODES"));
    for e in manifest(&filter) {
        let mut case = match Case::new(&e, PAIRS, nodes) {
            Ok(case) => case,
            Err(err) => {
                eprintln!("{}: not compared: {err}", e.file);
                continue;
            }
        };
        let n = case.pairs.len();
        let mut group = c.benchmark_group(format!("corpus/{}", e.file));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function("detour", |b| {
            b.iter(|| {
                for i in 0..n {
                    black_box(case.detour_query(i));
                }
            })
        });
        group.bench_function("pathsmooth", |b| {
            b.iter(|| {
                for i in 0..n {
                    black_box(case.pathsmooth_query(i));
                }
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    targets = corpus
}
criterion_main!(benches);
