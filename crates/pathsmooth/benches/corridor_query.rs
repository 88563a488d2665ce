//! The corridor step (`CorridorSmoother::smooth_along`: taut route, disks, optimiser, cuts)
//! on the 512×512 Moving AI maps, beside the grid A* whose route it smooths, on the same
//! queries and in one group, so the ratio the issue asks for (corridor ÷ A*) is read off
//! one run.
//!
//! `cargo bench -p pathsmooth --bench corridor_query`. Per map, three scenarios: the median, the 90th
//! percentile and the longest by optimal length. Before the group runs, one line per
//! scenario prints, for each variant, the disks, the solver's iterations (summed over the
//! windows), and the path length. Functions, per scenario:
//!
//! - `grid_astar`: `World::find_path` on a `GridWorld` at radius 0 (the route the corridor step follows);
//! - `corridor`: the corridor step on that route with the default options (one ADMM solve
//!   of the whole chain);
//! - `corridor_chambolle_pock`: the same solved by the chapter's Chambolle–Pock iteration
//!   (the same fixed `CORRIDOR_ITERATIONS`, so this is its cost per iteration: to reach
//!   ADMM's quality it needs several times the iterations, `docs/corridor.md`);
//! - `corridor_windows`: the same with `windows: true` (the chain solved in windows);
//! - `corridor_spacing_1`: the same with `spacing: 1.0` (disks a whole room apart).

mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use pathsmooth::corridor::{CorridorParams, CorridorSmoother, Method};
use pathsmooth::grid::Scenario;
use pathsmooth::metrics::length;
use pathsmooth::{GridWorld, World};

const MAPS: [&str; 4] = [
    "bg512/AR0011SR",
    "mazes/maze512-4-0",
    "rooms/8room_000",
    "random/random512-10-0",
];

/// The median, the 90th percentile and the longest scenario by optimal length.
fn picks(mut scen: Vec<Scenario>) -> Vec<Scenario> {
    scen.sort_by(|a, b| a.optimal_length.total_cmp(&b.optimal_length));
    let n = scen.len();
    [n / 2, 9 * n / 10, n - 1]
        .iter()
        .map(|&i| scen[i].clone())
        .collect()
}

fn query(c: &mut Criterion) {
    let mut group = c.benchmark_group("corridor_query");
    group.sample_size(10);
    let whole = CorridorParams::default();
    let mut chambolle_pock = whole.clone();
    chambolle_pock.solver.method = Method::ChambollePock;
    let variants = [
        ("corridor", whole.clone()),
        ("corridor_chambolle_pock", chambolle_pock),
        (
            "corridor_windows",
            CorridorParams {
                windows: true,
                ..whole.clone()
            },
        ),
        (
            "corridor_spacing_1",
            CorridorParams {
                spacing: 1.0,
                ..whole
            },
        ),
    ];
    for name in MAPS {
        let (map, scen) = support::load(name);
        let world = GridWorld::new(map).unwrap();
        // The navmesh the taut route is pulled in is built once per world, not per query.
        world.navmesh().unwrap();
        let mut smoother = CorridorSmoother::new();
        for (k, s) in picks(scen).iter().enumerate() {
            let (a, b) = (s.start_point(), s.goal_point());
            let route = world.find_path(a, b, 0.0).unwrap();
            let mut line = format!("{name} #{k}: A* {:.1}", length(&route));
            for (what, options) in &variants {
                let plan = smoother.smooth_along(&world, &route, 0.0, options).unwrap();
                line += &format!(
                    " | {what}: {} disks, {} iterations, path {:.1}",
                    plan.corridor.len(),
                    plan.report.iterations,
                    length(&plan.path)
                );
            }
            println!("{line}");
            let id = |what: &str| BenchmarkId::new(what, format!("{name}#{k}"));
            group.bench_function(id("grid_astar"), |bch| {
                bch.iter(|| black_box(world.find_path(a, b, 0.0).unwrap()))
            });
            for (what, options) in &variants {
                group.bench_function(id(what), |bch| {
                    bch.iter(|| {
                        black_box(smoother.smooth_along(&world, &route, 0.0, options).unwrap())
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, query);
criterion_main!(benches);
