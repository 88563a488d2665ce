//! The corridor map on real 512×512 Moving AI maps: the one-off build, and a query (A* over
//! the corridor graph, then the corridor, then the optimiser) beside grid A* on the same
//! scenarios.
//!
//! `cargo bench -p pathsmooth --bench corridor_map`. Before the criterion groups run, one line per
//! scenario prints the graph size, the corridor's disks, the solver's iterations and the
//! path lengths (corridor path vs grid A*).

mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use pathsmooth::corridor::{CorridorMap, CorridorParams, CorridorSmoother};
use pathsmooth::grid::astar_points;
use pathsmooth::grid::{GridMap, Scenario};
use pathsmooth::GridWorld;

const BUILD_MAPS: [&str; 4] = [
    "bg512/AR0011SR",
    "mazes/maze512-4-0",
    "rooms/8room_000",
    "random/random512-10-0",
];
const QUERY_MAPS: [&str; 2] = ["bg512/AR0011SR", "rooms/8room_000"];
/// Scenarios per map for the queries: spread over the file (short to long).
const QUERIES: usize = 3;

fn load(name: &str) -> (GridMap, Vec<Scenario>) {
    let (map, mut scen) = support::load(name);
    // By optimal length: the median, the 90th percentile and the longest problem.
    scen.sort_by(|a, b| a.optimal_length.total_cmp(&b.optimal_length));
    let n = scen.len();
    let picks = [n / 2, 9 * n / 10, n - 1];
    (
        map,
        picks
            .iter()
            .take(QUERIES)
            .map(|&i| scen[i].clone())
            .collect(),
    )
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("corridor_map_build");
    group.sample_size(10);
    for name in BUILD_MAPS {
        let (map, _) = load(name);
        let cmap = CorridorMap::build(&map);
        println!(
            "{name}: {} free cells → {} skeleton cells → {} vertices, {} edges",
            map.passable_count(),
            cmap.skeleton_len(),
            cmap.vertex_count(),
            cmap.edge_count()
        );
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| black_box(CorridorMap::build(black_box(&map))))
        });
    }
    group.finish();
}

fn query(c: &mut Criterion) {
    let mut group = c.benchmark_group("corridor_map_query");
    group.sample_size(10);
    let options = CorridorParams::default();
    for name in QUERY_MAPS {
        let (map, scen) = load(name);
        let world = GridWorld::new(map.clone()).unwrap();
        let cmap = CorridorMap::build(&map);
        let mut smoother = CorridorSmoother::new();
        for (k, s) in scen.iter().enumerate() {
            let (a, b) = (s.start_point(), s.goal_point());
            let grid = astar_points(&map, a, b).unwrap();
            let plan = smoother
                .smooth_on_medial_axis(&world, &cmap, a, b, 0.0, &options)
                .unwrap();
            let length: f64 = plan.path.windows(2).map(|w| w[0].distance(w[1])).sum();
            println!(
                "{name} #{k}: A* {:.1} ({} cells) | corridor {} disks, {} iterations, path {:.1} ({:+.1} %)",
                grid.length,
                grid.cells.len(),
                plan.corridor.len(),
                plan.report.iterations,
                length,
                100.0 * (length / grid.length - 1.0)
            );
            let id = |what: &str| BenchmarkId::new(what, format!("{name}#{k}"));
            group.bench_function(id("grid_astar"), |bch| {
                bch.iter(|| black_box(astar_points(&map, a, b).unwrap()))
            });
            group.bench_function(id("corridor_only"), |bch| {
                bch.iter(|| black_box(cmap.corridor(a, b, 0.0).unwrap()))
            });
            group.bench_function(id("corridor_and_optimise"), |bch| {
                bch.iter(|| {
                    black_box(
                        smoother
                            .smooth_on_medial_axis(&world, &cmap, a, b, 0.0, &options)
                            .unwrap(),
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, build, query);
criterion_main!(benches);
