//! A* on real 512×512 Moving AI maps, and the library's pipelines on its paths, so the cost
//! of smoothing can be read as a fraction of the search. The library's A* (a jump point
//! search at radius 0) runs beside the `pathfinding` crate's A* over every cell with the
//! same moves and integer costs (`astar` against `astar_every_cell`).
//!
//! `cargo bench -p pathsmooth --bench grid`. Before the criterion groups run, a summary line per map
//! prints each pipeline's time (input check, steps, validation after each step and of the
//! result) as a percentage of A* on the same scenarios; each radius gets the world's own
//! plan for it (A* with room for the agent), as in the CLI, so no re-planning is timed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::{DVec2, IVec2};
use pathsmooth::grid::{astar, GridPath, GridSearch};
use pathsmooth::grid::{GridMap, Scenario};
use pathsmooth::{
    validate_into, GridWorld, Pipeline, Preset, Shortcutter, Step, ValidationReport, World,
};

mod support;

const MAPS: [&str; 3] = [
    "rooms/8room_000",
    "random/random512-10-0",
    "mazes/maze512-4-0",
];
/// Scenarios per map: the longest ones in the file (scenario files are sorted by length).
const LONGEST: usize = 4;

fn load(name: &str) -> (GridMap, Vec<Scenario>) {
    let (map, scen) = support::load(name);
    let n = scen.len();
    (map, scen[n - LONGEST..].to_vec())
}

/// The peer: `pathfinding`'s A* over every cell, with the library's moves (8-connected, a
/// diagonal step needs both side cells free) and its integer costs (1 = 2³², √2 rounded).
fn astar_every_cell(map: &GridMap, start: IVec2, goal: IVec2) -> Option<(Vec<IVec2>, u64)> {
    const ORTHOGONAL: u64 = 1 << 32;
    const DIAGONAL: u64 = 6_074_001_000;
    let free = |c: IVec2| map.passable_cell(c);
    pathfinding::prelude::astar(
        &start,
        |&c| {
            let mut next = Vec::with_capacity(8);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let n = c + IVec2::new(dx, dy);
                    if (dx, dy) == (0, 0) || !free(n) {
                        continue;
                    }
                    if dx != 0 && dy != 0 {
                        if free(c + IVec2::new(dx, 0)) && free(c + IVec2::new(0, dy)) {
                            next.push((n, DIAGONAL));
                        }
                    } else {
                        next.push((n, ORTHOGONAL));
                    }
                }
            }
            next
        },
        |&c| {
            let d = (c - goal).abs();
            let (lo, hi) = (d.x.min(d.y) as u64, d.x.max(d.y) as u64);
            (hi - lo) * ORTHOGONAL + lo * DIAGONAL
        },
        |&c| c == goal,
    )
}

/// Mean time of `f` over enough repetitions to take ~`budget`.
fn time(budget: Duration, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut n = 0u32;
    while n < 3 || start.elapsed() < budget {
        f();
        n += 1;
    }
    start.elapsed() / n
}

/// The pipelines measured: name and steps.
fn pipelines() -> Vec<(&'static str, Vec<Step>)> {
    vec![
        ("shortcut", Preset::Shortest.steps()),
        ("shortcut-chaikin", Preset::Smooth.steps()),
        (
            "shortcut-catmull-rom",
            vec![Step::Shortcut, Step::catmull_rom()],
        ),
    ]
}

/// The world's own plans (A* with room for the radius, in world units), the input the
/// pipeline gets in the CLI: smoothing is measured without re-planning.
fn planned(world: &GridWorld, scen: &[Scenario], radius: f64) -> Vec<Vec<DVec2>> {
    scen.iter()
        .filter_map(|s| {
            world
                .find_path(s.start_point(), s.goal_point(), radius)
                .ok()
        })
        .collect()
}

fn summary(name: &str, world: &GridWorld, scen: &[Scenario]) {
    let map = world.map();
    let paths: Vec<GridPath> = scen
        .iter()
        .map(|s| astar(map, s.start, s.goal).unwrap())
        .collect();
    let budget = Duration::from_millis(300);
    // One search's memory for every path, as a game keeps one per thread.
    let (mut search, mut found) = (GridSearch::new(), GridPath::default());
    let t_astar = time(budget, || {
        for s in scen {
            search.astar(map, s.start, s.goal, &mut found).unwrap();
            black_box(&found);
        }
    });
    let pct = |t: Duration| 100.0 * t.as_secs_f64() / t_astar.as_secs_f64();
    let mut line = format!("{name}: {} paths; A* {t_astar:.2?} per batch", paths.len());
    let mut out: Vec<DVec2> = Vec::new();
    for (method, steps) in pipelines() {
        for radius in [0.0, 0.4] {
            let inputs = planned(world, scen, radius);
            let mut pipeline = Pipeline::new(world, radius)
                .unwrap()
                .with_steps(steps.clone());
            let t = time(budget, || {
                for p in &inputs {
                    pipeline.smooth_into(p, &mut out).unwrap();
                }
            });
            line += &format!("; {method} r={radius} {:.1}%", pct(t));
        }
    }
    println!("{line} of A*");
}

fn bench_grid(c: &mut Criterion) {
    for name in MAPS {
        let (map, scen) = load(name);
        let world = GridWorld::new(map).unwrap();
        summary(name, &world, &scen);
        let map = world.map();
        let paths: Vec<GridPath> = scen
            .iter()
            .map(|s| astar(map, s.start, s.goal).unwrap())
            .collect();
        let mut shortcutter = Shortcutter::new();
        let mut out = Vec::new();
        let mut report = ValidationReport::default();

        let mut g = c.benchmark_group(format!("grid/{name}"));
        g.sample_size(10);
        let (mut search, mut found) = (GridSearch::new(), GridPath::default());
        g.bench_function(BenchmarkId::new("astar", LONGEST), |b| {
            b.iter(|| {
                for s in &scen {
                    search.astar(map, s.start, s.goal, &mut found).unwrap();
                    black_box(&found);
                }
            })
        });
        g.bench_function(BenchmarkId::new("astar_every_cell", LONGEST), |b| {
            b.iter(|| {
                for s in &scen {
                    black_box(astar_every_cell(map, s.start, s.goal).unwrap());
                }
            })
        });
        for radius in [0.0, 0.4] {
            g.bench_function(BenchmarkId::new("shortcut", radius), |b| {
                b.iter(|| {
                    for p in &paths {
                        shortcutter
                            .shortcut_into(&world, &p.points, radius, &mut out)
                            .unwrap();
                    }
                })
            });
        }
        g.bench_function("validate_astar_paths", |b| {
            b.iter(|| {
                for p in &paths {
                    validate_into(&world, &p.points, 0.0, &mut report).unwrap();
                }
            })
        });
        for (method, steps) in pipelines() {
            for radius in [0.0, 0.4] {
                let inputs = planned(&world, &scen, radius);
                let mut pipeline = Pipeline::new(&world, radius)
                    .unwrap()
                    .with_steps(steps.clone());
                g.bench_function(
                    BenchmarkId::new(format!("pipeline_{method}"), radius),
                    |b| {
                        b.iter(|| {
                            for p in &inputs {
                                pipeline.smooth_into(p, &mut out).unwrap();
                            }
                        })
                    },
                );
            }
        }
        g.finish();
    }
}

criterion_group!(benches, bench_grid);
criterion_main!(benches);
