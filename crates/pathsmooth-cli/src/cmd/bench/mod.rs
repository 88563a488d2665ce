//! `pathsmooth bench`: every selected scenario of a `.scen` file through A* and each
//! method; a summary table per method and, on request, one CSV row per path. On a navmesh,
//! flat or layered (`navmesh`): its queries through the surface query and the planner.

mod navmesh;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use glam::DVec2;
use indicatif::{ProgressBar, ProgressStyle};
use pathsmooth::grid::{check_scenario, load_scenarios, GridMap};
use pathsmooth::navmesh::GroundPlane;
use pathsmooth::navmesh::UpAxis;
use pathsmooth::world::path_cost;
use pathsmooth::{GridWorld, Pipeline, PipelineReport, Step, World};

use crate::areas::{route_margin, with_grid_area_costs};
use crate::compare::{Run, Skipped};
use crate::files::write_bytes;
use crate::methods::{check_navmesh_methods, MapMethod, SmoothArgs};
use crate::report::{follow_time, ratio};
use crate::table::Table;

/// What the `skipped` column and the notes under the table mean (the help text).
const SKIPPED_HELP: &str = "\
Skipped: how many of the method's paths had a step of its pipeline that did not take
effect (its result failed the pipeline's validation, or it changed nothing; the pipeline
kept the step's input). A note under the table gives the most common reason, with how many
paths had it and the query of its first example (reasons that differ only in their
numbers count as one; the reason is cut to 200 characters). The CSV's `skipped` column
names those steps, separated by `;`.";

/// Arguments of `pathsmooth bench`.
#[derive(Debug, Args)]
#[command(after_help = SKIPPED_HELP)]
pub struct BenchArgs {
    /// Moving AI `.map` file.
    #[arg(long, required_unless_present = "navmesh", conflicts_with = "navmesh")]
    pub map: Option<String>,
    /// Its `.scen` file (with `--navmesh`: optional; the queries are its cells' centres when
    /// every end is a whole number, else its points, as polyanya's mesh scenarios give them).
    #[arg(long, required_unless_present = "navmesh")]
    pub scen: Option<String>,
    /// Benchmark on a navmesh instead of a map: a scene JSON, a polyanya `.mesh` or an OBJ
    /// file, or a layered navmesh (the navmesh JSON of `docs/navmesh-json.md`, an engine's
    /// file, or an OBJ file with --up). Queries come from `--scen` (flat files only) or,
    /// without it, `--queries` random pairs of points on the polygons of its largest
    /// connected piece (a fixed seed), timed through the bare query (`find_path`) and the
    /// planner with each method's steps (funnel and relax by default).
    #[arg(long)]
    pub navmesh: Option<String>,
    /// A layered navmesh's up axis: y (the default) or z; with an OBJ file, reads it in 3D.
    /// The navmesh JSON names its own; an --up that differs is an error.
    #[arg(long)]
    pub up: Option<UpAxis>,
    #[command(flatten)]
    pub surface: crate::surface::SurfaceArgs,
    /// The ground plane of an OBJ navmesh: xz (y up, as Recast writes) or xy (z up).
    #[arg(long, default_value = "xz")]
    pub ground_plane: GroundPlane,
    /// With `--navmesh` and no `--scen`: how many queries.
    #[arg(long, default_value_t = 100)]
    pub queries: usize,
    /// Run every K-th scenario.
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// Methods to run, comma-separated (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub methods: Vec<MapMethod>,
    #[command(flatten)]
    pub smooth: SmoothArgs,
    /// Write one row per scenario and method to this CSV file.
    #[arg(long)]
    pub csv: Option<String>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The first columns of both tables: the method and its counts.
const COUNT_COLUMNS: [&str; 5] = ["method", "paths", "valid %", "errors", "skipped"];

/// Prints the table, each row's first error and most common reason for a skipped step
/// (`names`: the rows' names, a tally each), and writes the per-path CSV if asked. Every
/// bench (grid, navmesh, layered navmesh) ends here.
fn report(
    table: &Table,
    names: &[&str],
    tallies: &[Tally],
    csv_file: Option<&str>,
    csv: &str,
) -> Result<()> {
    print!("{}", table.render());
    for (name, t) in names.iter().zip(tallies) {
        if let Some(e) = &t.first_error {
            println!("{name}: first error: {e}");
        }
    }
    for (name, t) in names.iter().zip(tallies) {
        if let Some(note) = t.skip_note(name) {
            println!("{note}");
        }
    }
    if let Some(f) = csv_file {
        write_bytes(f, csv.as_bytes())?;
    }
    Ok(())
}

/// Running totals for one method.
#[derive(Default)]
struct Tally {
    paths: usize,
    valid: usize,
    errors: usize,
    /// Paths on which a step did not take effect (each path counted once).
    skipped: usize,
    /// The reasons steps did not take effect, by step and [`reason_kind`].
    reasons: HashMap<(&'static str, String), Reason>,
    first_error: Option<String>,
    rel_length_sum: f64,
    rel_length_max: f64,
    /// Each path's cost over its A* path's cost (under the area costs).
    rel_costs: Vec<f64>,
    max_turn_sum: f64,
    max_turn_max: f64,
    follow_rel_sum: f64,
    /// Largest curvature of any path (a fillet path's exact curve; otherwise the
    /// polyline's estimate, `metrics::curvatures`).
    curvature_max: f64,
    /// Corners a fillet step left below the turning radius, summed over paths.
    corners_below: usize,
    /// Length over the shortest path (the funnel's on the world's navmesh), over the
    /// paths whose scenario has one.
    shortest_rel_sum: f64,
    shortest_rel_max: f64,
    shortest_paths: usize,
    /// Mean turn per vertex of each path, summed over paths.
    mean_turn_sum: f64,
    /// Smallest clearance of any path.
    min_clearance: Option<f64>,
    time: Duration,
}

/// How often one kind of reason made a step not take effect, and its first example.
struct Reason {
    count: usize,
    /// Order of first sight (ties go to the reason seen first).
    first_seen: usize,
    /// The query of the first example, as `scenario 4`.
    query: String,
    example: Skipped,
}

/// The kind of a reason: the reason without its digits, so that "segment 15 comes closer
/// than the radius 0.3 to a wall near (35.27, 30.89)" and the same words about segment 2
/// count as one reason.
fn reason_kind(reason: &str) -> String {
    reason.chars().filter(|c| !c.is_ascii_digit()).collect()
}

impl Tally {
    /// Counts a method's run on one query: its time, then its path and the steps that did
    /// not take effect (returned) or its error (the first one kept, after `what` names the
    /// query).
    fn record<W: World>(
        &mut self,
        run: Run<'_, '_, W>,
        what: impl FnOnce() -> String,
    ) -> Option<(Vec<DVec2>, Vec<Skipped>)> {
        self.record_path(run.time, run.path, run.pipeline.report(), what)
    }

    /// [`record`](Self::record) of any pipeline's run, whatever its path's points (a
    /// layered navmesh's are in 3D): `time`, the path or its error, and the pipeline's
    /// `report` after the run.
    fn record_path<T>(
        &mut self,
        time: Duration,
        path: pathsmooth::Result<T>,
        report: &PipelineReport,
        what: impl FnOnce() -> String,
    ) -> Option<(T, Vec<Skipped>)> {
        self.time += time;
        let skipped = Skipped::of(report);
        match path {
            Ok(path) => {
                self.paths += 1;
                self.valid += report.validation.is_valid() as usize;
                self.skipped += !skipped.is_empty() as usize;
                if !skipped.is_empty() {
                    let query = what();
                    for s in &skipped {
                        self.count_reason(s, &query);
                    }
                }
                Some((path, skipped))
            }
            Err(e) => {
                self.errors += 1;
                self.first_error
                    .get_or_insert_with(|| format!("{}: {e}", what()));
                None
            }
        }
    }

    /// Counts `s` under its step and [`reason_kind`] (`query`: where it was first seen).
    fn count_reason(&mut self, s: &Skipped, query: &str) {
        let seen = self.reasons.len();
        let reason = self
            .reasons
            .entry((s.step, reason_kind(&s.reason)))
            .or_insert_with(|| Reason {
                count: 0,
                first_seen: seen,
                query: query.to_string(),
                example: s.clone(),
            });
        reason.count += 1;
    }

    /// The line under the table for method `name` when some of its paths had a step that
    /// did not take effect: on how many, and the most common reason with an example.
    fn skip_note(&self, name: &str) -> Option<String> {
        let top = self
            .reasons
            .values()
            .max_by_key(|r| (r.count, std::cmp::Reverse(r.first_seen)))?;
        Some(format!(
            "note: {name}: a step skipped on {} of {} paths; most common reason ({} of them, first on {}): {}",
            self.skipped, self.paths, top.count, top.query, top.example
        ))
    }

    /// The [`COUNT_COLUMNS`] cells of method `name`.
    fn counts(&self, name: &str) -> [String; 5] {
        let n = self.paths.max(1) as f64;
        [
            name.to_string(),
            self.paths.to_string(),
            format!("{:.1}", 100.0 * self.valid as f64 / n),
            self.errors.to_string(),
            self.skipped.to_string(),
        ]
    }
}

/// Runs `pathsmooth bench`.
pub fn run(a: &BenchArgs) -> Result<()> {
    if a.every == 0 {
        bail!("--every must be at least 1");
    }
    if let Some(file) = &a.navmesh {
        if a.smooth.area_costs.is_some() {
            bail!("--area-costs is not supported for navmeshes yet (only with --map, whose terrain letters name its areas)");
        }
        if a.smooth.keep_route.is_some() {
            bail!("--keep-route needs a grid map (--map)");
        }
        return bench_navmesh(a, file);
    }
    let (Some(map_file), Some(scen_file)) = (&a.map, &a.scen) else {
        bail!("bench needs --map and --scen, or --navmesh");
    };
    let methods = if a.methods.is_empty() {
        MapMethod::ALL.to_vec()
    } else {
        a.methods.clone()
    };
    let map = GridMap::load(map_file)?;
    let scenarios: Vec<_> = load_scenarios(scen_file)?
        .into_iter()
        .step_by(a.every)
        .collect();
    for s in &scenarios {
        check_scenario(&map, s)?;
    }
    let (world, absent) =
        with_grid_area_costs(a.smooth.frame.world(map)?, a.smooth.area_costs.as_deref())
            .context("--area-costs")?;
    let costs = a.smooth.area_costs.is_some();
    if !absent.is_empty() {
        eprintln!(
            "note: --area-costs: the map has no cells of area {}",
            absent.join(", ")
        );
    }
    let mut comparison = a.smooth.comparison(&world, &methods)?;
    let mut tallies: Vec<Tally> = methods.iter().map(|_| Tally::default()).collect();
    // The reference for "how much longer than the shortest": the exact shortest path on
    // the world's navmesh for the radius (Polyanya and the funnel).
    let mut shortest_pipeline = Pipeline::new(&world, a.smooth.radius)?.then(Step::Funnel);
    let mut astar_time = Duration::ZERO;
    let mut skipped = 0;
    let mut first_skip: Option<String> = None;
    let mut csv = String::from("scenario,method,valid,points,length,astar_length,rel_length,cost,astar_cost,rel_cost,max_turn_deg,total_turn_deg,min_clearance,follow_s,micros,skipped\n");

    let bar = if a.quiet || std::env::var_os("CI").is_some() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(scenarios.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} scenarios {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    for (k, s) in scenarios.iter().enumerate() {
        bar.inc(1);
        let t0 = Instant::now();
        let (start, goal) = (world.cell_center(s.start), world.cell_center(s.goal));
        let raw = match world.find_path(start, goal, a.smooth.radius) {
            Ok(q) => q,
            // With a radius, some scenarios have no path wide enough; with area costs, some
            // start or end in an excluded area or have no route left: count, don't fail.
            Err(e) if a.smooth.radius > 0.0 || costs => {
                skipped += 1;
                first_skip.get_or_insert_with(|| format!("scenario {k}: {e}"));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        astar_time += t0.elapsed();
        let astar_length = pathsmooth::metrics::length(&raw);
        let astar_cost = path_cost(&world, &raw);
        let astar_follow = follow_time(&raw)?;
        let shortest = shortest_pipeline
            .smooth(&raw)
            .ok()
            .map(|p| pathsmooth::metrics::length(&p));
        // Keep the route: this scenario's methods smooth on the world cut down to its A*
        // path's cells (pipelines built for it; their time is still the smoothing alone).
        let route = a
            .smooth
            .keep_route
            .map(|margin| world.route_world(&raw, route_margin(&world, margin)))
            .transpose()
            .with_context(|| format!("--keep-route, scenario {k}"))?;
        let mut on_route = route
            .as_ref()
            .map(|r| a.smooth.comparison(r, &methods))
            .transpose()?;
        let mut one = |run: Run<'_, '_, GridWorld>, tally: &mut Tally| -> Result<()> {
            let (m, pipeline, elapsed) = (run.method, run.pipeline, run.time);
            let Some((path, skipped)) = tally.record(run, || format!("scenario {k}")) else {
                return Ok(());
            };
            let r = &pipeline.report().validation;
            let rel = ratio(r.length, astar_length);
            tally.rel_length_sum += rel;
            tally.rel_length_max = tally.rel_length_max.max(rel);
            // On the whole world: the same cells as on the route's, when kept.
            let cost = path_cost(&world, &path);
            let rel_cost = ratio(cost, astar_cost);
            tally.rel_costs.push(rel_cost);
            tally.max_turn_sum += r.max_turn.to_degrees();
            tally.max_turn_max = tally.max_turn_max.max(r.max_turn.to_degrees());
            let curvature = match pipeline.last_curve() {
                Some(c) => c.max_curvature(),
                None => pathsmooth::metrics::curvatures(&path)
                    .into_iter()
                    .fold(0.0, f64::max),
            };
            tally.curvature_max = tally.curvature_max.max(curvature);
            tally.corners_below += pipeline.report().corners.len();
            if let Some(shortest) = shortest {
                let rel = ratio(r.length, shortest);
                tally.shortest_rel_sum += rel;
                tally.shortest_rel_max = tally.shortest_rel_max.max(rel);
                tally.shortest_paths += 1;
            }
            tally.mean_turn_sum +=
                r.total_turn.to_degrees() / path.len().saturating_sub(2).max(1) as f64;
            tally.min_clearance = Some(
                tally
                    .min_clearance
                    .map_or(r.min_clearance, |c| c.min(r.min_clearance)),
            );
            let follow = follow_time(&path)?;
            tally.follow_rel_sum += ratio(follow, astar_follow);
            let _ = writeln!(
                csv,
                "{k},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                m.name(),
                r.is_valid(),
                path.len(),
                r.length,
                astar_length,
                rel,
                cost,
                astar_cost,
                rel_cost,
                r.max_turn.to_degrees(),
                r.total_turn.to_degrees(),
                r.min_clearance,
                follow,
                elapsed.as_secs_f64() * 1e6,
                skipped_steps(&skipped)
            );
            Ok(())
        };
        let runs = match &mut on_route {
            Some(c) => c
                .smooth(&raw)
                .into_iter()
                .zip(&mut tallies)
                .try_for_each(|(run, t)| one(run, t)),
            None => comparison
                .smooth(&raw)
                .into_iter()
                .zip(&mut tallies)
                .try_for_each(|(run, t)| one(run, t)),
        };
        runs?;
    }
    bar.finish_and_clear();

    let runs = scenarios.len() - skipped;
    println!(
        "{}: {} scenarios (every {}), radius {}; A* {:.1} µs per path",
        map_file,
        runs,
        a.every,
        a.smooth.radius,
        micros(astar_time, runs)
    );
    if skipped > 0 {
        let why = match (a.smooth.radius > 0.0, costs) {
            (true, true) => format!(
                "no path for radius {} under the area costs",
                a.smooth.radius
            ),
            (true, false) => format!("no path for radius {}", a.smooth.radius),
            _ => "no path under the area costs".to_string(),
        };
        println!(
            "{skipped} scenarios skipped: {why} (first: {})",
            first_skip.as_deref().unwrap_or("-")
        );
    }
    let cost_columns: &[&str] = if costs {
        &["med cost/A*", "max cost/A*"]
    } else {
        &[]
    };
    let mut table = Table::new(
        COUNT_COLUMNS
            .into_iter()
            .chain(["mean len/A*", "max len/A*"])
            .chain(cost_columns.iter().copied())
            .chain([
                "len/shortest",
                "max len/shortest",
                "mean turn°",
                "mean max turn°",
                "max turn°",
                "min clearance",
                "follow/A*",
                "max curvature",
                "corners < ρ",
                "µs/path",
            ]),
    );
    for (m, t) in methods.iter().zip(&mut tallies) {
        let n = t.paths.max(1) as f64;
        let cost_cells = if costs {
            let (median, max) = median_and_max(&mut t.rel_costs);
            vec![median, max]
        } else {
            vec![]
        };
        table.row(
            t.counts(m.name())
                .into_iter()
                .chain([
                    format!("{:.4}", t.rel_length_sum / n),
                    format!("{:.4}", t.rel_length_max),
                ])
                .chain(cost_cells)
                .chain([
                    match t.shortest_paths {
                        0 => "-".to_string(),
                        k => format!("{:.4}", t.shortest_rel_sum / k as f64),
                    },
                    match t.shortest_paths {
                        0 => "-".to_string(),
                        _ => format!("{:.4}", t.shortest_rel_max),
                    },
                    format!("{:.2}", t.mean_turn_sum / n),
                    format!("{:.1}", t.max_turn_sum / n),
                    format!("{:.1}", t.max_turn_max),
                    t.min_clearance
                        .map_or("-".to_string(), |c| format!("{c:.3}")),
                    format!("{:.4}", t.follow_rel_sum / n),
                    format!("{:.3}", t.curvature_max),
                    t.corners_below.to_string(),
                    format!("{:.1}", micros(t.time, t.paths + t.errors)),
                ]),
        );
    }
    let names: Vec<&str> = methods.iter().map(|m| m.name()).collect();
    report(&table, &names, &tallies, a.csv.as_deref(), &csv)
}

/// The median and the largest of `values` (sorted in place), to four decimals; `-` for
/// both when there are none.
fn median_and_max(values: &mut [f64]) -> (String, String) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return ("-".into(), "-".into());
    }
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    (format!("{median:.4}"), format!("{:.4}", values[n - 1]))
}

/// `bench --navmesh`: the navmesh methods (funnel and relax unless `--methods` names
/// others) on every query of a navmesh file, flat or layered (`navmesh`).
fn bench_navmesh(a: &BenchArgs, file: &str) -> Result<()> {
    let methods = if a.methods.is_empty() {
        vec![MapMethod::Funnel, MapMethod::Relax]
    } else {
        a.methods.clone()
    };
    check_navmesh_methods(&methods, "a navmesh", "")?;
    navmesh::run(a, file, &methods)
}

/// The CSV's `skipped` cell: the names of the steps that did not take effect, `;` between
/// them (empty when none).
fn skipped_steps(skipped: &[Skipped]) -> String {
    let names: Vec<&str> = skipped.iter().map(|s| s.step).collect();
    names.join(";")
}

fn micros(d: Duration, n: usize) -> f64 {
    d.as_secs_f64() * 1e6 / n.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_that_differ_in_their_numbers_are_one_kind() {
        let a = "segment 15 comes closer than the radius 0.3 to a wall near (35.27, 30.89)";
        let b = "segment 2 comes closer than the radius 0.3 to a wall near (3.25, 14.8)";
        assert_eq!(reason_kind(a), reason_kind(b));
        assert_ne!(reason_kind(a), reason_kind("the step changed nothing"));
    }

    #[test]
    fn the_most_common_reason_wins_and_ties_go_to_the_first_seen() {
        let mut t = Tally::default();
        let add = |t: &mut Tally, step: &'static str, reason: &str, query: &str| {
            let s = Skipped {
                step,
                reason: reason.into(),
            };
            t.count_reason(&s, query);
        };
        add(&mut t, "relax", "too close at 1", "scenario 0");
        add(&mut t, "corridor", "no room", "scenario 1");
        t.paths = 2;
        t.skipped = 2;
        let note = t.skip_note("m").unwrap();
        assert!(note.contains("first on scenario 0"), "{note}");
        add(&mut t, "corridor", "no room", "scenario 2");
        let note = t.skip_note("m").unwrap();
        assert!(
            note.ends_with("(2 of them, first on scenario 1): step \"corridor\" skipped: no room"),
            "{note}"
        );
        assert!(Tally::default().skip_note("m").is_none());
    }

    #[test]
    fn the_help_names_the_bound_on_reasons() {
        let bound = format!("cut to {} characters", crate::compare::REASON_MAX_CHARS);
        assert!(SKIPPED_HELP.contains(&bound), "{SKIPPED_HELP}");
    }
}
