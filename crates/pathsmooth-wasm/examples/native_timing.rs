//! The native half of `bench/plan.mjs`: the same plans as the WebAssembly half, timed the
//! same way, so that the two can be put side by side in one run.
//!
//! Reads from stdin, per workload, a line `KIND FILE PRESET ROUNDS PAIRS` (KIND `surface`,
//! `query`: the layered query alone, or `grid`) then PAIRS lines of ends (`sx sy sz gx gy gz` on a surface, `sx sy gx gy` on
//! a grid); prints one line per workload: `KIND PAIRS MEAN_MICROSECONDS`. A failed plan
//! (two islands) is timed like the others, as in the WebAssembly half.

use std::io::Read;
use std::sync::Arc;
use std::time::Instant;

use glam::{DVec2, DVec3};
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{read_surface, SurfaceMesh, SurfaceOptions, SurfaceQuery};
use pathsmooth::{GridWorld, Pipeline, Preset, SurfaceWorld};

/// Plans every pair `rounds` times; the mean time of one plan in microseconds.
fn time(rounds: usize, pairs: usize, mut plan: impl FnMut(usize)) -> f64 {
    for i in 0..pairs {
        plan(i); // warm-up: the scratch grows to its size
    }
    let t = Instant::now();
    for _ in 0..rounds {
        for i in 0..pairs {
            plan(i);
        }
    }
    t.elapsed().as_secs_f64() * 1e6 / (rounds * pairs) as f64
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let mut lines = input.lines();
    while let Some(header) = lines.next() {
        let mut words = header.split_whitespace();
        let (kind, file, preset, rounds, n) = (
            words.next().ok_or("kind")?,
            words.next().ok_or("file")?,
            words.next().ok_or("preset")?,
            words.next().ok_or("rounds")?.parse::<usize>()?,
            words.next().ok_or("pairs")?.parse::<usize>()?,
        );
        let preset = Preset::named(preset)?;
        let pairs: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                let line = lines.next().ok_or("missing pair")?;
                line.split_whitespace()
                    .map(|w| w.parse::<f64>().map_err(|e| e.to_string()))
                    .collect::<Result<Vec<f64>, String>>()
            })
            .collect::<Result<_, _>>()?;
        let mean = match kind {
            "surface" => {
                let bytes = std::fs::read(file)?;
                let surface = read_surface(&bytes, file, &SurfaceOptions::default())?;
                let world = SurfaceWorld::new(Arc::new(SurfaceMesh::new(surface)?));
                let mut p = Pipeline::preset(world, 0.0, preset)?;
                time(rounds, pairs.len(), |i| {
                    let q = &pairs[i];
                    let _ =
                        p.plan_surface(DVec3::new(q[0], q[1], q[2]), DVec3::new(q[3], q[4], q[5]));
                })
            }
            // The layered query alone (no sheet, no steps): what the pipeline's plan starts with.
            "query" => {
                let bytes = std::fs::read(file)?;
                let surface = read_surface(&bytes, file, &SurfaceOptions::default())?;
                let mesh = SurfaceMesh::new(surface)?;
                let mut query = SurfaceQuery::new();
                time(rounds, pairs.len(), |i| {
                    let q = &pairs[i];
                    let _ = query.find_path(
                        &mesh,
                        DVec3::new(q[0], q[1], q[2]),
                        DVec3::new(q[3], q[4], q[5]),
                        0.0,
                    );
                })
            }
            "grid" => {
                let map = GridMap::load(file)?;
                let world = GridWorld::with_frame(map, 1.0, DVec2::ZERO)?;
                let mut p = Pipeline::preset(world, 0.4, preset)?;
                time(rounds, pairs.len(), |i| {
                    let q = &pairs[i];
                    let _ = p.plan(DVec2::new(q[0], q[1]), DVec2::new(q[2], q[3]));
                })
            }
            other => return Err(format!("unknown workload kind {other}").into()),
        };
        println!("{kind} {} {mean:.3}", pairs.len());
    }
    Ok(())
}
