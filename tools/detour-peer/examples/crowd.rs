//! pathsmooth's crowd side by side with Detour's `dtCrowd` (issue 40 item 6): the same
//! window of a Moving AI map, agents, starts, targets, radius and speed
//! (`detour_peer::crowd`), one frame-by-frame check of both; prints a table.
//!
//! `nice -n 10 cargo run --release --example crowd -- [--map FILE] [--window X0,Y0,W,H]
//! [--agents N,N,..] [--seconds S] [--only pathsmooth|detour]`; defaults: `data/movingai/random/random512-10-0.map`,
//! window 192,192,128,128, agents 100,1000,10000, 20 s.

use detour_peer::crowd::{
    run, DetourCrowd, PathsmoothCrowd, RunResult, Scene, Window, ARRIVAL, GOAL_RANGE, HZ,
    MAX_ACCELERATION, RADIUS, SPEED,
};
use std::path::PathBuf;
use std::time::Instant;

const USAGE: &str =
    "usage: crowd [--map FILE] [--window X0,Y0,W,H] [--agents N,N,..] [--seconds S] [--only pathsmooth|detour]";

fn main() {
    let mut map = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/movingai/random/random512-10-0.map"
    ));
    let mut window = Window {
        x0: 192,
        y0: 192,
        w: 128,
        h: 128,
    };
    let mut counts = vec![100usize, 1000, 10_000];
    let mut seconds = 20.0f64;
    let mut only = String::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    let list = |s: &str| -> Vec<usize> {
        s.split(',')
            .map(|x| x.trim().parse().expect("a number"))
            .collect()
    };
    while let Some(a) = it.next() {
        let mut value = || {
            it.next().cloned().unwrap_or_else(|| {
                eprintln!("{USAGE}");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--map" => map = PathBuf::from(value()),
            "--window" => {
                let v = list(&value());
                assert_eq!(v.len(), 4, "--window X0,Y0,W,H");
                window = Window {
                    x0: v[0],
                    y0: v[1],
                    w: v[2],
                    h: v[3],
                };
            }
            "--agents" => counts = list(&value()),
            "--seconds" => seconds = value().parse().expect("--seconds S"),
            "--only" => only = value(),
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2)
            }
        }
    }
    let frames = (seconds * HZ).round() as usize;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "map {} window x {}..{}, y {}..{}; radius {RADIUS}, speed {SPEED}, {HZ} Hz, {frames} frames; targets within {GOAL_RANGE} of the start on each axis; arrived: within {ARRIVAL} r; Detour acceleration {MAX_ACCELERATION}; load average before: {}",
        map.display(),
        window.x0,
        window.x0 + window.w,
        window.y0,
        window.y0 + window.h,
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    let mut rows: Vec<RunResult> = Vec::new();
    for &n in &counts {
        let t0 = Instant::now();
        let scene = Scene::new(&map, window, n).unwrap_or_else(|e| {
            eprintln!("{n} agents: {e}");
            std::process::exit(1)
        });
        println!(
            "{n} agents: scene in {:.1} s: pathsmooth mesh {} triangles, {} boundary edges; Detour (Recast, cell 0.1, walkableRadius {} cells) {} polygons in {}x{} tiles; draws rejected: starts {}, targets {}",
            t0.elapsed().as_secs_f64(),
            scene.mesh.num_triangles(),
            scene.walls.edges().len(),
            scene.walkable_radius_cells,
            scene.detour_polygons,
            scene.detour_tiles.0,
            scene.detour_tiles.1,
            scene.rejected.0,
            scene.rejected.1
        );
        if only != "detour" {
            let mut ps = PathsmoothCrowd::new(&scene).expect("pathsmooth's crowd");
            let r = run(&mut ps, &scene, frames);
            println!("  pathsmooth: {:?}", ps.frames);
            print_row(&r);
            rows.push(r);
        }
        if only == "pathsmooth" {
            continue;
        }
        let mut dt = DetourCrowd::new(&scene).expect("Detour's crowd");
        let planned = dt.planned;
        let r = run(&mut dt, &scene, frames);
        let (states, partial) = dt.states();
        println!(
            "  Detour: corridors written at the start {planned}/{n}; target states at the end (none, failed, valid, requesting, queue, path, velocity) {states:?}, partial {partial}"
        );
        print_row(&r);
        rows.push(r);
    }
    println!();
    println!("| engine | agents | seconds | frame mean ms | p99 ms | overlaps (pair-frames) | wall hits (agent-frames) | arrived | closest pair / 2r | closest wall / r |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in &rows {
        println!(
            "| {} | {} | {} | {:.3} | {:.3} | {} | {} | {}/{} | {} | {} |",
            r.engine,
            r.agents,
            r.seconds,
            r.mean_ms,
            r.p99_ms,
            r.overlaps,
            r.wall_hits,
            r.arrived,
            r.agents,
            fmt_ratio(r.closest_pair),
            fmt_ratio(r.closest_wall.min(1.0)),
        );
    }
    println!();
    for pair in rows.chunks(2) {
        if let [p, d] = pair
            && p.engine != d.engine
        {
            println!(
                "{} agents: pathsmooth / Detour frame time: mean {:.2}, p99 {:.2}",
                p.agents,
                p.mean_ms / d.mean_ms,
                p.p99_ms / d.p99_ms
            );
        }
    }
}

fn fmt_ratio(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.3}")
    } else {
        "-".into()
    }
}

fn print_row(r: &RunResult) {
    println!(
        "  {} {} agents, {} s: mean {:.3} ms, p99 {:.3} ms, max {:.3} ms; overlaps {}, wall hits {}, arrived {}/{}; closest pair / 2r {}, closest wall / r {}",
        r.engine,
        r.agents,
        r.seconds,
        r.mean_ms,
        r.p99_ms,
        r.max_ms,
        r.overlaps,
        r.wall_hits,
        r.arrived,
        r.agents,
        fmt_ratio(r.closest_pair),
        fmt_ratio(r.closest_wall.min(1.0))
    );
}
