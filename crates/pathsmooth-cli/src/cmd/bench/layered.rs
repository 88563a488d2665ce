//! `bench --navmesh` on a layered navmesh: random queries between points on the polygons
//! of its largest connected piece (a fixed seed, so runs repeat), each timed through
//! `SurfaceQuery::find_path` at the radius and through the one `Pipeline` on a `SurfaceWorld`
//! (`plan_surface`) with each method's steps.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{bail, Result};
use glam::DVec3;
use pathsmooth::navmesh::{SurfaceMesh, SurfaceQuery};
use pathsmooth::{Pipeline, SurfaceWorld};

use super::{micros, report, skipped_steps, BenchArgs, Tally, COUNT_COLUMNS};
use crate::layered::{largest_piece, random_point, read_surface, Rng};
use crate::methods::MapMethod;
use crate::table::Table;

/// The seed of the random queries.
const SEED: u64 = 27;

/// The row of the bare query (no steps, no check).
const QUERY_ROW: &str = "find_path";

/// Runs `bench --navmesh` on a layered navmesh (see the module docs).
pub(super) fn run(a: &BenchArgs, file: &str, methods: &[MapMethod]) -> Result<()> {
    if a.scen.is_some() {
        bail!(
            "--scen: a layered navmesh's queries are random 3D points (drop --scen, set --queries)"
        );
    }
    let mesh = std::sync::Arc::new(SurfaceMesh::new(read_surface(file, a.up, &a.surface)?)?);
    let surface = mesh.surface();
    let piece = largest_piece(&surface.pieces());
    if piece.is_empty() {
        bail!("{file}: the navmesh has no polygons");
    }
    let mut rng = Rng::new(SEED);
    let mut pick = || {
        let p = piece[((rng.unit() * piece.len() as f64) as usize).min(piece.len() - 1)];
        random_point(surface, p, &mut rng)
    };
    let queries: Vec<(DVec3, DVec3)> = (0..a.queries).map(|_| (pick(), pick())).collect();

    let names: Vec<&str> = std::iter::once(QUERY_ROW)
        .chain(methods.iter().map(|m| m.name()))
        .collect();
    let mut tallies: Vec<Tally> = names.iter().map(|_| Tally::default()).collect();
    let mut planners = methods
        .iter()
        .map(|m| {
            let world = SurfaceWorld::new(std::sync::Arc::clone(&mesh));
            Ok(Pipeline::new(world, a.smooth.radius)?
                .with_steps(m.steps(&a.smooth.curve, &a.smooth.optimiser)))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut query = SurfaceQuery::new();
    a.surface.apply(&mut query)?;
    for planner in &mut planners {
        a.surface.apply(planner.surface_query_mut())?;
    }
    let mut csv = String::from("query,method,valid,points,length,min_clearance,micros,skipped\n");
    for (k, &(start, goal)) in queries.iter().enumerate() {
        let what = || {
            format!(
                "query {k} ({}, {}, {}) → ({}, {}, {})",
                start.x, start.y, start.z, goal.x, goal.y, goal.z
            )
        };
        // The bare query: the shortest path (the funnel with the radius), unchecked.
        let t0 = Instant::now();
        let found = query
            .find_path(&mesh, start, goal, a.smooth.radius)
            .map(|p| p.iter().map(|q| q.position).collect::<Vec<_>>());
        let elapsed = t0.elapsed();
        let t = &mut tallies[0];
        t.time += elapsed;
        match found {
            Ok(points) => {
                let length = pathsmooth::metrics::length(&points);
                t.paths += 1;
                t.rel_length_sum += length;
                let _ = writeln!(
                    csv,
                    "{k},{QUERY_ROW},,{},{length},,{},",
                    points.len(),
                    elapsed.as_secs_f64() * 1e6
                );
            }
            Err(e) => {
                t.errors += 1;
                t.first_error
                    .get_or_insert_with(|| format!("{}: {e}", what()));
            }
        }
        for ((m, planner), t) in methods.iter().zip(&mut planners).zip(&mut tallies[1..]) {
            let t0 = Instant::now();
            let planned = planner
                .plan_surface(start, goal)
                .map(|p| p.iter().map(|q| q.position).collect::<Vec<_>>());
            let elapsed = t0.elapsed();
            let report = planner.report();
            let Some((points, skipped)) = t.record_path(elapsed, planned, report, what) else {
                continue;
            };
            let valid = report.validation.is_valid();
            let length = pathsmooth::metrics::length(&points);
            t.rel_length_sum += length;
            let _ = writeln!(
                csv,
                "{k},{},{valid},{},{length},{},{},{}",
                m.name(),
                points.len(),
                report.validation.min_clearance,
                elapsed.as_secs_f64() * 1e6,
                skipped_steps(&skipped)
            );
        }
    }
    println!(
        "{file}: {} polygons ({} in its largest piece), {} up; {} queries (random points on \
         that piece, seed {SEED}), radius {}",
        surface.num_polygons(),
        piece.len(),
        surface.up(),
        queries.len(),
        a.smooth.radius
    );
    let mut table = Table::new(COUNT_COLUMNS.into_iter().chain(["mean length", "µs/query"]));
    for (name, t) in names.iter().zip(&tallies) {
        let n = t.paths.max(1) as f64;
        let mut counts = t.counts(name);
        if *name == QUERY_ROW {
            // The bare query is not checked against the walls.
            counts[2] = "-".into();
        }
        table.row(counts.into_iter().chain([
            format!("{:.4}", t.rel_length_sum / n),
            format!("{:.1}", micros(t.time, t.paths + t.errors)),
        ]));
    }
    report(&table, &names, &tallies, a.csv.as_deref(), &csv)
}
