//! Where pathsmooth's layered query spends its time, on the benchmark's pairs: the two
//! locates (`SurfaceQuery::locate`, `Surface::find_nearest`), the rest
//! (`find_path_between`: search, funnel, lift) and the whole `find_path`; Detour's whole
//! query and its two `findNearestPoly` beside it. Best of 200 rounds of the batch, per query;
//! then the median round of the two whole queries (on a loaded machine the best round is
//! the one least disturbed, the median what a caller sees).
//!
//! `cargo run --release --example parts [-- ROUNDS [only]]`; with `only`, just the whole
//! `find_path` loop, for `perf record` (build with `CARGO_PROFILE_RELEASE_DEBUG=true` for
//! symbols).

use detour_peer::{dvec3, Bake, DetourMesh, PathsmoothMesh, MAX_PATH};
use recastnavigation_sys::dtPolyRef;
use std::hint::black_box;
use std::time::Instant;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/pathsmooth/tests/data/navmesh/"
);

/// The best and the median round, µs per query.
fn rounds_of(rounds: usize, n: usize, mut f: impl FnMut()) -> (f64, f64) {
    let mut all = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let t = Instant::now();
        f();
        all.push(t.elapsed().as_secs_f64());
    }
    all.sort_by(f64::total_cmp);
    let per = |t: f64| t / n as f64 * 1e6;
    (per(all[0]), per(all[all.len() / 2]))
}

fn best(rounds: usize, n: usize, f: impl FnMut()) -> f64 {
    rounds_of(rounds, n, f).0
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(200, |a| a.parse().expect("ROUNDS"));
    let only = std::env::args().nth(2).as_deref() == Some("only");
    for name in ["dungeon", "nav_test"] {
        let file = format!("{DATA}{name}.navmesh.json");
        let bake = Bake::load(&file).unwrap();
        let detour = DetourMesh::from_bake(&bake).unwrap();
        let ours = PathsmoothMesh::load(&file).unwrap();
        let centroids = bake.centroids();
        let pairs = bake.connected_pairs();
        let n = pairs.len();
        let ends: Vec<_> = pairs
            .iter()
            .map(|&(s, g)| (dvec3(&centroids[s]), dvec3(&centroids[g])))
            .collect();
        let mut q = ours.new_query();
        let located: Vec<_> = ends
            .iter()
            .map(|&(s, g)| {
                (
                    q.locate(&ours.mesh, s).unwrap(),
                    q.locate(&ours.mesh, g).unwrap(),
                )
            })
            .collect();
        if only {
            let t = best(rounds, n, || {
                for &(s, g) in &ends {
                    black_box(q.find_path(&ours.mesh, s, g, 0.0).unwrap().len());
                }
            });
            println!("{name}: pathsmooth find_path {t:.3} µs/query (best of {rounds})");
            continue;
        }
        let mut corridor = Box::new([0 as dtPolyRef; MAX_PATH]);
        let mut straight = Box::new([0.0f32; 3 * MAX_PATH]);
        let (t_detour, m_detour) = rounds_of(rounds, n, || {
            for &(s, g) in &pairs {
                black_box(detour.query_raw(
                    &centroids[s],
                    &centroids[g],
                    &mut corridor,
                    &mut straight,
                ));
            }
        });
        let t_detour_locate = best(rounds, n, || {
            for &(s, g) in &pairs {
                black_box(detour.nearest_raw(&centroids[s]));
                black_box(detour.nearest_raw(&centroids[g]));
            }
        });
        let t_locate = best(rounds, n, || {
            for &(s, g) in &ends {
                black_box(q.locate(&ours.mesh, s).unwrap());
                black_box(q.locate(&ours.mesh, g).unwrap());
            }
        });
        let t_between = best(rounds, n, || {
            for &(s, g) in &located {
                black_box(q.find_path_between(&ours.mesh, s, g, 0.0).unwrap().len());
            }
        });
        let (t_whole, m_whole) = rounds_of(rounds, n, || {
            for &(s, g) in &ends {
                black_box(q.find_path(&ours.mesh, s, g, 0.0).unwrap().len());
            }
        });
        let path_points: usize = ends
            .iter()
            .map(|&(s, g)| q.find_path(&ours.mesh, s, g, 0.0).unwrap().len())
            .sum();
        println!(
            "{name}: {} polygons, {} triangles, {:.2} points per path",
            ours.mesh.surface().num_polygons(),
            ours.mesh.plan_mesh().num_triangles(),
            path_points as f64 / n as f64
        );
        println!(
            "{name}: µs/query (best of {rounds}): Detour {t_detour:.3} = findNearestPoly ×2 \
             {t_detour_locate:.3} + the rest {:.3}; pathsmooth find_path {t_whole:.3} \
             = locate ×2 {t_locate:.3} + find_path_between {t_between:.3}; ratio {:.2}",
            t_detour - t_detour_locate,
            t_whole / t_detour
        );
        println!(
            "{name}: median round, µs/query: Detour {m_detour:.3}, pathsmooth find_path \
             {m_whole:.3}; ratio {:.2}",
            m_whole / m_detour
        );
    }
}
