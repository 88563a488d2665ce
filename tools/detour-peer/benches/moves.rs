//! pathsmooth's `SurfaceQuery::move_along_surface` against Detour's
//! `dtNavMeshQuery::moveAlongSurface` on every navmesh file of the corpus, on the same
//! moves: from the start of each of the file's 200 random pairs (`detour_peer::corpus`),
//! located once on each side (`locate`, `findNearestPoly`), towards its goal by at most
//! `STRIDE` world units in plan view (a stride, through a few polygons and into walls), the
//! height of the floor reached taken on both sides (Detour: `getPolyHeight` after the move,
//! as `dtPathCorridor::movePosition` does). One
//! criterion group per file, `moves/<file>`, holding `detour` and `pathsmooth`, each
//! iteration the batch of the file's moves; caller buffers and reused query objects on
//! both sides.
//!
//! Before timing, each file prints how often the two sides end at the same point (within
//! 10⁻³ in plan view: Detour's points are `f32`) and, where they differ, which ends nearer
//! the target (pathsmooth's search counts the edges between polygons as well as the walls).
//!
//! `CORPUS_FILTER=TEXT` narrows it to the files whose name contains TEXT.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use detour_peer::corpus::{from_detour, manifest, to_detour, Case, PAIRS};
use glam::{DVec2, DVec3};
use pathsmooth::navmesh::PolyId;
use recastnavigation_sys::dtPolyRef;
use std::hint::black_box;
use std::time::Duration;

/// One move, located on both sides.
struct Move {
    ours: (PolyId, DVec3),
    target: DVec3,
    theirs: (dtPolyRef, [f32; 3]),
    their_target: [f32; 3],
}

fn moves(c: &mut Criterion) {
    let filter = std::env::var("CORPUS_FILTER").unwrap_or_default();
    for e in manifest(&filter) {
        let mut case = match Case::new(&e, PAIRS, detour_peer::MAX_NODES) {
            Ok(case) => case,
            Err(err) => {
                eprintln!("{}: not compared: {err}", e.file);
                continue;
            }
        };
        let up = case.mesh.surface().up();
        let list: Vec<Move> = case
            .pairs
            .iter()
            .filter_map(|p| {
                let target = p.stride_target(up);
                let ours = case.query.locate(&case.mesh, p.start).ok()?;
                let theirs = case.detour.nearest_raw(&to_detour(up, p.start));
                (theirs.0 != 0).then(|| Move {
                    ours,
                    target,
                    theirs,
                    their_target: to_detour(up, target),
                })
            })
            .collect();
        let mut visited = [0; 16];
        let (mut same, mut ours_nearer, mut theirs_nearer) = (0, 0, 0);
        for m in &list {
            let (_, at) = case
                .query
                .move_along_surface(&case.mesh, m.ours, m.target)
                .expect("a located start");
            let (_, there) =
                case.detour
                    .move_along_raw(m.theirs.0, &m.theirs.1, &m.their_target, &mut visited);
            let (a, b) = (up.plan(at), up.plan(from_detour(up, &there)));
            let t: DVec2 = up.plan(m.target);
            if a.distance(b) <= 1e-3 {
                same += 1;
            } else if a.distance(t) < b.distance(t) {
                ours_nearer += 1;
            } else {
                theirs_nearer += 1;
            }
        }
        eprintln!(
            "{}: {} moves: {same} end at the same point, {ours_nearer} nearer the target by pathsmooth, {theirs_nearer} by Detour",
            e.file,
            list.len()
        );
        let n = list.len();
        let mut group = c.benchmark_group(format!("moves/{}", e.file));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function("detour", |b| {
            b.iter(|| {
                for m in &list {
                    black_box(case.detour.move_along_raw(
                        m.theirs.0,
                        &m.theirs.1,
                        &m.their_target,
                        &mut visited,
                    ));
                }
            })
        });
        group.bench_function("pathsmooth", |b| {
            b.iter(|| {
                for m in &list {
                    let _ = black_box(case.query.move_along_surface(&case.mesh, m.ours, m.target));
                }
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = moves
}
criterion_main!(benches);
