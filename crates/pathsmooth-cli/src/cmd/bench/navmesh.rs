//! `bench --navmesh`: every navmesh file, flat or layered, planned on through the
//! library's one navmesh world. The queries: a flat file's `--scen`, else random pairs of
//! points on the polygons of its largest connected piece (a fixed seed, so runs repeat);
//! each timed through `SurfaceQuery::find_path` at the radius and through the one
//! `Pipeline` on a `SurfaceWorld` with each method's steps: with 3D ends on a layered
//! file (`plan_surface`), with 2D ones on a flat file (`plan`), as their users plan.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Result};
use glam::{DVec2, DVec3};
use pathsmooth::grid::parse_point_scenarios;
use pathsmooth::navmesh::{SurfaceMesh, SurfaceQuery, UpAxis};
use pathsmooth::{Pipeline, SurfaceWorld};

use super::{micros, report, skipped_steps, BenchArgs, Tally, COUNT_COLUMNS};
use crate::files::read_text;
use crate::methods::MapMethod;
use crate::surface::{
    is_surface_file, largest_piece, random_point, read_flat_surface, read_surface, Reading, Rng,
};
use crate::table::Table;

/// The seed of the random queries.
const SEED: u64 = 27;

/// The row of the bare query (no steps, no check).
const QUERY_ROW: &str = "find_path";

/// Runs `bench --navmesh` (see the module docs).
pub(super) fn run(a: &BenchArgs, file: &str, methods: &[MapMethod]) -> Result<()> {
    let reading = if a.up.is_some() || is_surface_file(file) {
        Reading::Layered
    } else {
        Reading::Flat
    };
    if reading == Reading::Layered && a.scen.is_some() {
        bail!(
            "--scen: a layered navmesh's queries are random 3D points (drop --scen, set --queries)"
        );
    }
    let surface = match reading {
        Reading::Layered => read_surface(file, a.up, &a.surface)?,
        Reading::Flat => read_flat_surface(file, a.ground_plane)?.0,
    };
    let mesh = Arc::new(SurfaceMesh::new(surface)?);
    let surface = mesh.surface();
    let up = surface.up();
    let piece = largest_piece(&surface.pieces());
    if piece.is_empty() {
        bail!("{file}: the navmesh has no polygons");
    }
    let (queries, drawn) = match &a.scen {
        Some(scen) => {
            let queries = scenario_queries(scen, a.every)?;
            let drawn = format!("{} queries of {scen}", queries.len());
            (queries, drawn)
        }
        None => {
            let mut rng = Rng::new(SEED);
            let mut pick = || {
                let p = piece[((rng.unit() * piece.len() as f64) as usize).min(piece.len() - 1)];
                random_point(surface, p, &mut rng)
            };
            let queries: Vec<(DVec3, DVec3)> = (0..a.queries).map(|_| (pick(), pick())).collect();
            let drawn = format!(
                "{} queries (random points on that piece, seed {SEED})",
                queries.len()
            );
            (queries, drawn)
        }
    };

    let names: Vec<&str> = std::iter::once(QUERY_ROW)
        .chain(methods.iter().map(|m| m.name()))
        .collect();
    let mut tallies: Vec<Tally> = names.iter().map(|_| Tally::default()).collect();
    // One world, cloned for each method's pipeline: the clones share its meshes (and on a
    // mesh of one floor, its whole plan mesh and wall index, which making a world builds).
    let world = SurfaceWorld::new(Arc::clone(&mesh));
    let mut planners = methods
        .iter()
        .map(|m| {
            Ok(Pipeline::new(world.clone(), a.smooth.radius)?
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
            let planned = match reading {
                Reading::Layered => {
                    let path = planner.plan_surface(start, goal);
                    path.map(|p| p.iter().map(|q| q.position).collect::<Vec<_>>())
                }
                Reading::Flat => {
                    let path = planner.plan(up.plan(start), up.plan(goal));
                    path.map(|p| p.iter().map(|&q| up.join(q, 0.0)).collect::<Vec<_>>())
                }
            };
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
    let frame = reading.frame(up);
    println!(
        "{file}: {} polygons ({} in its largest piece), {frame}; {drawn}, radius {}",
        surface.num_polygons(),
        piece.len(),
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

/// Every `every`-th query of the scenario file `scen` on a flat navmesh, its ends at
/// height 0: Moving AI cells in the mesh's units (cell (x, y)'s centre is (x + 0.5,
/// y + 0.5)) when every end is a whole number; else polyanya's mesh scenarios, whose ends
/// are points.
fn scenario_queries(scen: &str, every: usize) -> Result<Vec<(DVec3, DVec3)>> {
    let points = parse_point_scenarios(&read_text(scen)?, scen)?;
    let cells = points.iter().all(|s| {
        [s.start, s.goal]
            .iter()
            .all(|p| p.fract() == DVec2::ZERO && p.min_element() >= 0.0)
    });
    let shift = if cells { 0.5 } else { 0.0 };
    let lift = |p: DVec2| UpAxis::Z.join(p + shift, 0.0);
    Ok(points
        .iter()
        .step_by(every)
        .map(|s| (lift(s.start), lift(s.goal)))
        .collect())
}
