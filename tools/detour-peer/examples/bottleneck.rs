//! The bottleneck of 500 (issue 40, item 3: pathsmooth's test
//! `crowd_avoidance::five_hundred_agents_through_a_bottleneck_without_touching`) run by
//! pathsmooth's crowd and by Detour's `dtCrowd` side by side (item 6): the same hall, agents,
//! starts, targets, radius and speed, judged by the same check (`detour_peer::crowd::Check`).
//!
//! A 60 × 40 hall split at x = 29..31 by a wall with a gap 2 cells wide (y = 19..21); 500
//! agents of radius 0.3 on a lattice one cell apart in the left half, each bound for its
//! mirror image in the right. pathsmooth runs with the test's dense-crowd settings (horizon
//! 1 s, 5 neighbours, walls 0.5 s ahead), one thread; Detour with RecastDemo's `CrowdTool`
//! settings on the navmesh Recast bakes of the same cells, eroded by the radius
//! (`Scene::with_agents`). Each runs until every agent has arrived or `--seconds` of
//! simulated time (default 360, the test's bound).
//!
//! `nice -n 10 cargo run --release --example bottleneck -- [--seconds S] [--only pathsmooth|detour]`

use detour_peer::crowd::{run_until, DetourCrowd, Engine, PathsmoothCrowd, RunResult, Scene, HZ};
use glam::DVec2;
use pathsmooth::crowd::Avoidance;
use pathsmooth::grid::GridMap;

const USAGE: &str = "usage: bottleneck [--seconds S] [--only pathsmooth|detour]";

/// The hall's rows (`.` free, `@` wall), row y is y.
fn hall() -> Vec<String> {
    (0..40)
        .map(|y| {
            let mut row = ".".repeat(60);
            if !(19..21).contains(&y) {
                row.replace_range(29..31, "@@");
            }
            row
        })
        .collect()
}

/// What one engine did: the common figures, and the gap's.
struct Outcome {
    result: RunResult,
    all_arrived_at: Option<f64>,
    through: usize,
    longest_wait: f64,
}

/// Runs `engine` until every agent has arrived or `seconds` have passed, counting the
/// agents that come through the gap (x > 31) and the longest stretch with none.
fn run(engine: &mut dyn Engine, scene: &Scene, seconds: f64) -> Outcome {
    let n = scene.agents.len();
    let mut through = vec![false; n];
    let (mut passed, mut last_pass, mut longest_wait) = (0, 0.0f64, 0.0f64);
    let mut all_arrived_at = None;
    let frames = (seconds * HZ) as usize;
    let result = run_until(engine, scene, frames, |now, at, check| {
        for (p, t) in at.iter().zip(&mut through) {
            if !*t && p.x > 31.0 {
                *t = true;
                passed += 1;
                longest_wait = longest_wait.max(now - last_pass);
                last_pass = now;
            }
        }
        let all = check.arrived() == n;
        if all {
            all_arrived_at = Some(now);
        }
        all
    });
    Outcome {
        result,
        all_arrived_at,
        through: passed,
        longest_wait,
    }
}

fn main() -> Result<(), String> {
    let (mut seconds, mut only) = (360.0f64, String::new());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().ok_or(USAGE)?;
        match a.as_str() {
            "--seconds" => seconds = value.parse().map_err(|_| USAGE)?,
            "--only" => only = value,
            _ => return Err(USAGE.into()),
        }
    }
    let rows = hall();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = GridMap::from_rows(&rows).map_err(|e| e.to_string())?;
    let starts: Vec<DVec2> = (0..25)
        .flat_map(|y| (0..20).map(move |x| DVec2::new(4.5 + x as f64, 7.5 + y as f64)))
        .collect();
    let goals: Vec<DVec2> = starts.iter().map(|s| DVec2::new(60.0 - s.x, s.y)).collect();
    let scene = Scene::with_agents(grid, &starts, &goals)?;
    println!(
        "the hall: {} agents, radius {}, Detour's mesh {} polygons (walkableRadius {} cells), \
         pathsmooth's {} triangles; up to {seconds} s at {HZ} Hz",
        scene.agents.len(),
        scene.radius,
        scene.detour_polygons,
        scene.walkable_radius_cells,
        scene.mesh.num_triangles(),
    );
    println!(
        "| engine | all arrived at (s) | arrived | through the gap | longest wait (s) | \
         overlapping pair-frames | wall-hit agent-frames | closest pair / 2r | closest wall / r | \
         mean ms | p99 ms |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let dense = Avoidance {
        time_horizon: 1.0,
        max_neighbours: 5,
        wall_time_horizon: 0.5,
        neighbour_distance: None,
    };
    let mut engines: Vec<Box<dyn Engine + '_>> = Vec::new();
    if only != "detour" {
        engines.push(Box::new(PathsmoothCrowd::with_avoidance(&scene, dense)?));
    }
    if only != "pathsmooth" {
        engines.push(Box::new(DetourCrowd::new(&scene)?));
    }
    for engine in &mut engines {
        let o = run(engine.as_mut(), &scene, seconds);
        let r = &o.result;
        let all = o
            .all_arrived_at
            .map_or(format!("not by {:.0}", r.seconds), |t| format!("{t:.1}"));
        // The check's closest pair is over the pairs closer than 2r: none is "> 1".
        let closest = |d: f64| {
            if d.is_finite() {
                format!("{d:.3}")
            } else {
                "> 1".into()
            }
        };
        println!(
            "| {} | {all} | {}/{} | {} | {:.1} | {} | {} | {} | {} | {:.3} | {:.3} |",
            r.engine,
            r.arrived,
            r.agents,
            o.through,
            o.longest_wait,
            r.overlaps,
            r.wall_hits,
            closest(r.closest_pair),
            closest(r.closest_wall),
            r.mean_ms,
            r.p99_ms,
        );
    }
    Ok(())
}
