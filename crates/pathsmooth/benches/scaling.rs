//! How cost grows with map size: per-world setup (the grid world with its exact distance
//! field, the navmesh) and per-query time of every method, on generated square maps of
//! 512² to 4096² cells (open, random obstacles, rooms; `support/generated.rs`), for a query
//! from near one corner to near the opposite one, at agent radius 0 and 0.3.
//!
//! Not a criterion bench: a 4096² query takes seconds, so each item is timed once (the
//! world setup, A*) or as the best of three (the pipelines on the A* path), and a table is
//! printed. Per-world setup should grow with the number of cells, per-query smoothing with
//! the length of the path (here, with the side).
//!
//! `cargo bench -p pathsmooth --bench scaling` (add `-- 2048` to stop at that side, and
//! `open`, `random` or `rooms` to run only those kinds).

use std::time::Instant;

use glam::{DVec2, IVec2};
use pathsmooth::{GridWorld, Pipeline, Preset, Step, World};

mod support;

use support::generated::{KINDS, SIDES};

/// Seconds `f` takes, once.
fn once<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed().as_secs_f64())
}

/// The free cell nearest to `c` along its diagonal (maps are square).
fn free_near(world: &GridWorld, c: IVec2, step: i32) -> IVec2 {
    (0..world.map().width() as i32)
        .map(|k| c + IVec2::splat(k * step))
        .find(|c| {
            world.map().passable_cell(*c)
                && world.field().cell_clearance(c.x as i64, c.y as i64) >= 1.0
        })
        .unwrap_or(c)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let max_side: usize = args
        .iter()
        .filter_map(|a| a.parse().ok())
        .next()
        .unwrap_or(4096);
    // Words (not flags, not numbers) pick map kinds; none means all.
    let picked: Vec<&String> = args
        .iter()
        .filter(|a| !a.starts_with('-') && a.parse::<usize>().is_err())
        .collect();
    let methods: [(&str, Vec<Step>); 4] = [
        ("shortcut", Preset::Shortest.steps()),
        ("shortcut-chaikin", Preset::Smooth.steps()),
        ("corridor", Preset::Corridor.steps()),
        ("funnel", vec![Step::Funnel]),
    ];
    print!("| map | cells | world ms | navmesh ms | r | A* ms |");
    for (m, _) in &methods {
        print!(" {m} ms |");
    }
    println!();
    println!("|{}", "---|".repeat(6 + methods.len()));
    for (kind, make) in KINDS
        .into_iter()
        .filter(|(k, _)| picked.is_empty() || picked.iter().any(|p| p == k))
    {
        for side in SIDES.into_iter().filter(|&s| s <= max_side) {
            let map = make(side);
            let (world, t_world) = once(|| GridWorld::new(map).unwrap());
            let (mesh, t_mesh) = once(|| world.navmesh().map(|m| m.num_triangles()));
            let start = free_near(&world, IVec2::splat(1), 1);
            let goal = free_near(&world, IVec2::splat(side as i32 - 2), -1);
            let (s, g) = (world.cell_center(start), world.cell_center(goal));
            for radius in [0.0, 0.3] {
                let (raw, t_astar) = once(|| world.find_path(s, g, radius));
                let Ok(raw) = raw else {
                    println!("| {kind} {side}² | no path at r = {radius} |");
                    continue;
                };
                print!(
                    "| {kind} {side}² | {} | {:.0} | {} | {radius} | {:.0} |",
                    side * side,
                    t_world * 1e3,
                    if mesh.is_ok() {
                        format!("{:.0}", t_mesh * 1e3)
                    } else {
                        "—".into()
                    },
                    t_astar * 1e3
                );
                for (_, steps) in &methods {
                    let mut pipeline = Pipeline::new(&world, radius)
                        .unwrap()
                        .with_steps(steps.clone());
                    let mut out: Vec<DVec2> = Vec::new();
                    let best = (0..3)
                        .map(|_| once(|| pipeline.smooth_into(&raw, &mut out)))
                        .map(|(r, t)| r.map(|_| t))
                        .collect::<Result<Vec<f64>, _>>();
                    match best {
                        Ok(t) => print!(
                            " {:.1} |",
                            t.into_iter().fold(f64::INFINITY, f64::min) * 1e3
                        ),
                        Err(e) => print!(" error: {e} |"),
                    }
                }
                println!();
            }
        }
    }
}
