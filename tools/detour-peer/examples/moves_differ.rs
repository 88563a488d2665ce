//! The moves of the `moves` bench where pathsmooth and Detour end at different points:
//! each with its start, target, both results and their distances to the target, and the
//! polygons pathsmooth visited (corners in plan view, neighbours).
//!
//! `cargo run --release --example moves_differ -- [FILTER]` (the corpus files whose name
//! contains FILTER; all by default).

use detour_peer::corpus::{from_detour, manifest, to_detour, Case, PAIRS};

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    for e in manifest(&filter) {
        let Ok(mut case) = Case::new(&e, PAIRS, detour_peer::MAX_NODES) else {
            continue;
        };
        let up = case.mesh.surface().up();
        let mut visited = [0; 16];
        for p in case.pairs.clone() {
            // The bench's move.
            let target = p.stride_target(up);
            let Ok(ours) = case.query.locate(&case.mesh, p.start) else {
                continue;
            };
            let theirs = case.detour.nearest_raw(&to_detour(up, p.start));
            let (q, at) = case
                .query
                .move_along_surface(&case.mesh, ours, target)
                .unwrap();
            let there = to_detour(up, target);
            let (r, reached) =
                case.detour
                    .move_along_raw(theirs.0, &theirs.1, &there, &mut visited);
            let (a, b, t) = (
                up.plan(at),
                up.plan(from_detour(up, &reached)),
                up.plan(target),
            );
            if a.distance(b) <= 1e-3 {
                continue;
            }
            println!(
                "{}: from {} on {} to {t}: pathsmooth {a} on {q} ({:.6} away), Detour {b} on ref {r} ({:.6} away)",
                e.file,
                p.start,
                ours.0,
                a.distance(t),
                b.distance(t)
            );
            let s = case.mesh.surface();
            for &v in case.query.visited() {
                let ring: Vec<_> = s
                    .polygon(v)
                    .iter()
                    .map(|&i| up.plan(s.vertices()[i as usize]))
                    .collect();
                let around: Vec<_> = s.neighbors(v).collect();
                println!("  visited {v}: corners {ring:?}, across each edge {around:?}");
            }
        }
    }
}
