//! Measurement for /work/compact_report.md (not part of the repo).
//! cargo run --release -p pathsmooth --example measure_compact
use std::time::Instant;

use pathsmooth::corridor::graph::CorridorMap;
use pathsmooth::corridor::plan::{CorridorParams, CorridorPlanner};
use pathsmooth::grid::astar::astar_points;
use pathsmooth::grid::{load_scenarios, GridMap};

const MAPS: [&str; 7] = [
    "dao/arena",
    "dao/den312d",
    "bg512/AR0011SR",
    "mazes/maze512-4-0",
    "rooms/8room_000",
    "random/random512-10-0",
    "cities/Berlin_0_256",
];
const SCEN: usize = 20;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let dir = "/work/shared/data/movingai";
    println!("map | free | vertices | edges | build ms (median of 5) | corridor() µs (mean over {SCEN}) | plan/A* length ratio median, max | plans failed");
    for name in MAPS {
        let map = GridMap::load(format!("{dir}/{name}.map")).unwrap();
        let scen = load_scenarios(format!("{dir}/{name}.map.scen")).unwrap();
        let mut times = Vec::new();
        let mut cmap = None;
        for _ in 0..5 {
            let t = Instant::now();
            let c = CorridorMap::build(&map);
            times.push(t.elapsed().as_secs_f64() * 1e3);
            cmap = Some(c);
        }
        let cmap = cmap.unwrap();
        let step = scen.len().div_ceil(SCEN).max(1);
        let picks: Vec<_> = scen.iter().step_by(step).take(SCEN).cloned().collect();
        // corridor() time
        let t = Instant::now();
        let mut n = 0;
        for s in &picks {
            let _ = std::hint::black_box(cmap.corridor(s.start_point(), s.goal_point(), 0.0));
            n += 1;
        }
        let q_us = t.elapsed().as_secs_f64() * 1e6 / n as f64;
        let mut planner = CorridorPlanner::new();
        let params = CorridorParams::default();
        let mut ratios = Vec::new();
        let mut failed = 0;
        for s in &picks {
            let (a, b) = (s.start_point(), s.goal_point());
            let grid = astar_points(&map, a, b).unwrap();
            match planner.plan(&cmap, a, b, 0.0, &params) {
                Ok(p) => {
                    let l: f64 = p.path.windows(2).map(|w| w[0].distance(w[1])).sum();
                    ratios.push(if grid.length > 0.0 {
                        l / grid.length
                    } else {
                        1.0
                    });
                }
                Err(_) => failed += 1,
            }
        }
        let max = ratios.iter().cloned().fold(0.0, f64::max);
        println!(
            "{name} | {} | {} | {} | {:.1} | {:.0} | {:.4}, {:.4} | {}",
            map.passable_count(),
            cmap.vertex_count(),
            cmap.edge_count(),
            median(times),
            q_us,
            median(ratios),
            max,
            failed
        );
    }
}
