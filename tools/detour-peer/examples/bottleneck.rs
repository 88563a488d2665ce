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

use detour_peer::crowd::{Check, DetourCrowd, Engine, PathsmoothCrowd, Scene, HZ};
use glam::DVec2;
use pathsmooth::crowd::Avoidance;
use pathsmooth::grid::GridMap;
use std::time::Instant;

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

/// What one engine did.
struct Outcome {
    frames: usize,
    all_arrived_at: Option<f64>,
    through: usize,
    longest_wait: f64,
    mean_ms: f64,
    p99_ms: f64,
}

fn run<'s>(engine: &mut dyn Engine, scene: &'s Scene, seconds: f64) -> (Outcome, Check<'s>) {
    let n = scene.agents.len();
    let dt = 1.0 / HZ;
    let mut check = Check::new(&scene.mesh, &scene.walls, scene.radius, scene.targets());
    let (mut at, mut times) = (Vec::with_capacity(n), Vec::new());
    let mut through = vec![false; n];
    let (mut passed, mut last_pass, mut longest_wait) = (0, 0.0f64, 0.0f64);
    let mut all_arrived_at = None;
    let frames = (seconds * HZ) as usize;
    let mut f = 0;
    while f < frames {
        f += 1;
        let t0 = Instant::now();
        engine.update(dt);
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        engine.positions(&mut at);
        check.frame(&at);
        let now = f as f64 * dt;
        for (p, t) in at.iter().zip(&mut through) {
            if !*t && p.x > 31.0 {
                *t = true;
                passed += 1;
                longest_wait = longest_wait.max(now - last_pass);
                last_pass = now;
            }
        }
        if check.arrived() == n {
            all_arrived_at = Some(now);
            break;
        }
    }
    let mean_ms = times.iter().sum::<f64>() / times.len().max(1) as f64;
    times.sort_by(f64::total_cmp);
    let p99_ms = times[(times.len() * 99).div_ceil(100).saturating_sub(1)];
    let outcome = Outcome {
        frames: f,
        all_arrived_at,
        through: passed,
        longest_wait,
        mean_ms,
        p99_ms,
    };
    (outcome, check)
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
        let (o, check) = run(engine.as_mut(), &scene, seconds);
        let all = o
            .all_arrived_at
            .map_or(format!("not by {:.0}", o.frames as f64 / HZ), |t| {
                format!("{t:.1}")
            });
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
            engine.name(),
            check.arrived(),
            scene.agents.len(),
            o.through,
            o.longest_wait,
            check.overlaps,
            check.wall_hits,
            closest(check.closest_pair),
            closest(check.closest_wall),
            o.mean_ms,
            o.p99_ms,
        );
    }
    Ok(())
}
