//! `pathsmooth demo`: every method on the embedded examples, with pictures and a metrics
//! table. Runs on a fresh machine in seconds with no arguments.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use glam::{DVec2, IVec2};
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::grid::GridMap;
use pathsmooth::metrics::PathMetrics;
use pathsmooth::{GridWorld, World};

use crate::compare::Comparison;
use crate::files::write_bytes;
use crate::methods::{smooth_curve, CurveMethod, CurveParams, MapMethod, OptimiserParams};
use crate::picture::{png, svg, Layer, Scene, Track, PALETTE};
use crate::report::{metrics_header, skip_notes, with_metrics_row};
use crate::table::Table;

/// The generator of `assets/demo.map`, with the test that keeps the file in step.
#[cfg(test)]
mod map;

/// Arguments of `pathsmooth demo`.
#[derive(Debug, Args)]
#[command(after_help = crate::report::SKIPPED_HELP)]
pub struct DemoArgs {
    /// Folder for the pictures (created if missing).
    #[arg(long, default_value = ".")]
    pub out_dir: PathBuf,
}

/// The 15-point patrol path of the "Terrator" dev blog (start (25, 50), then offsets from
/// the centre (50, 50)).
pub const TERRATOR: [[f64; 2]; 15] = [
    [25.0, 50.0],
    [33.0, 50.0],
    [35.0, 50.0],
    [44.0, 50.5],
    [48.0, 48.5],
    [51.5, 50.5],
    [55.0, 47.5],
    [52.5, 44.5],
    [47.0, 47.0],
    [45.5, 49.5],
    [47.5, 52.0],
    [51.5, 52.5],
    [55.0, 52.0],
    [59.0, 52.5],
    [200.0, 49.5],
];

/// Runs `pathsmooth demo`.
pub fn run(a: &DemoArgs) -> Result<()> {
    std::fs::create_dir_all(&a.out_dir)
        .with_context(|| format!("{}: cannot create folder", a.out_dir.display()))?;
    curves_demo(a)?;
    map_demo(a)
}

/// The embedded default map, made by the project: `assets/demo.map`, written by the
/// generator in `src/cmd/demo/map.rs` (rooms, a corridor, diagonal walls, an open park;
/// 80×80).
pub const DEMO_MAP: &str = include_str!("../../assets/demo.map");

/// The demo's start cell: the top-left room of the building in the north-west.
pub const DEMO_FROM: IVec2 = IVec2::new(5, 5);
/// The demo's goal cell: the south-west corner of the park.
pub const DEMO_TO: IVec2 = IVec2::new(5, 74);

/// Part 2: every map method on one scenario of the embedded map.
fn map_demo(a: &DemoArgs) -> Result<()> {
    let world = GridWorld::new(GridMap::parse(DEMO_MAP, "demo.map (embedded)")?)?;
    let (start, goal) = (world.cell_center(DEMO_FROM), world.cell_center(DEMO_TO));
    let raw = world.find_path(start, goal, 0.0)?;
    let astar_length = pathsmooth::metrics::length(&raw);
    let title = format!(
        "demo.map: ({},{}) to ({},{})",
        DEMO_FROM.x, DEMO_FROM.y, DEMO_TO.x, DEMO_TO.y
    );
    let mut scene = Scene::for_map(title, &world);
    scene.layers.push(Layer::raw("A* (raw)", raw.clone()));
    scene.mark_ends(&raw);
    let mut nav = scene.clone();
    nav.title = "demo.map navmesh: channel, funnel and portal relaxation".into();
    let mesh = world.navmesh()?;
    nav.add_navmesh(mesh, &mesh.find_channel(start, goal)?);
    let mut corridor_scene = scene.clone();
    corridor_scene.title = "demo.map corridor of clearance disks and the optimised path".into();
    let mut table = Table::new(metrics_header());
    let mut skips = Vec::new();
    let mut corridor_plan = None;
    let (curve, optimiser) = (CurveParams::default(), OptimiserParams::default());
    let mut comparison = Comparison::new(&world, 0.0, &MapMethod::ALL, &curve, &optimiser)?;
    for (i, run) in comparison.smooth(&raw).into_iter().enumerate() {
        let (m, pipeline, skipped) = (run.method, run.pipeline, run.skipped());
        let validation = &pipeline.report().validation;
        let (path, row) = with_metrics_row(m.name(), run.path, validation, &skipped, astar_length)
            .with_context(|| m.name())?;
        table.row(row);
        skips.extend(skip_notes(m.name(), &skipped));
        if let Some(plan) = pipeline.last_corridor() {
            corridor_plan = Some(plan.clone());
        }
        let layer = Layer::path(m.name(), path, PALETTE[i % PALETTE.len()]);
        match m {
            MapMethod::Astar => {}
            // Navmesh methods get their own picture, over the triangles they plan on.
            MapMethod::Funnel | MapMethod::Relax => nav.layers.push(layer),
            MapMethod::Corridor => corridor_scene.layers.push(layer),
            _ => scene.layers.push(layer),
        }
    }
    if let Some(plan) = corridor_plan {
        corridor_scene.disks = plan
            .corridor
            .centers
            .iter()
            .copied()
            .zip(plan.corridor.radii.iter().copied())
            .collect();
    }
    let corridor_file = a.out_dir.join("demo-corridor.png");
    write_bytes(
        &corridor_file.to_string_lossy(),
        &png::render(&corridor_scene)?,
    )?;
    let nav_file = a.out_dir.join("demo-navmesh.png");
    write_bytes(&nav_file.to_string_lossy(), &png::render(&nav)?)?;
    // One agent per method, the navmesh ones included (nav's first layer is the raw path).
    let mut everything = scene.clone();
    everything.layers.extend(nav.layers.iter().skip(1).cloned());
    everything
        .layers
        .extend(corridor_scene.layers.iter().skip(1).cloned());
    let follow_file = a.out_dir.join("demo-follow.svg");
    write_bytes(
        &follow_file.to_string_lossy(),
        svg::render(&animated(&everything)?).as_bytes(),
    )?;
    let png_file = a.out_dir.join("demo.png");
    let svg_file = a.out_dir.join("demo.svg");
    write_bytes(&png_file.to_string_lossy(), &png::render(&scene)?)?;
    write_bytes(&svg_file.to_string_lossy(), svg::render(&scene).as_bytes())?;
    println!(
        "Embedded map demo.map ({}×{}), A* length {:.4} (pictures: {}, {}, {}, {}; agents: {})",
        world.map().width(),
        world.map().height(),
        astar_length,
        png_file.display(),
        svg_file.display(),
        nav_file.display(),
        corridor_file.display(),
        follow_file.display()
    );
    print!("{}", table.render());
    for line in skips {
        println!("{line}");
    }
    Ok(())
}

/// Part 1: the corner cutters and splines on the Terrator path.
fn curves_demo(a: &DemoArgs) -> Result<()> {
    let path: Vec<DVec2> = TERRATOR.iter().map(|&[x, y]| DVec2::new(x, y)).collect();
    // Zoom on the wiggly part; the last point is far off to the right.
    let mut scene = Scene::for_points("Terrator path (dev blog #02)", &path[..path.len() - 1]);
    scene
        .layers
        .push(Layer::raw("input (15 points)", path.clone()));
    let mut table = Table::new([
        "method",
        "points",
        "length",
        "max turn°",
        "total turn°",
        "max curvature",
    ]);
    add_metrics_row(&mut table, "input", &path)?;
    let params = CurveParams::default();
    for (i, method) in CurveMethod::ALL.into_iter().enumerate() {
        let out = smooth_curve(method, &params, &path)?;
        add_metrics_row(&mut table, method.name(), &out)?;
        scene
            .layers
            .push(Layer::path(method.name(), out, PALETTE[i]));
    }
    let file = a.out_dir.join("demo-curves.svg");
    write_bytes(&file.to_string_lossy(), svg::render(&scene).as_bytes())?;
    println!("Curves on the Terrator path (picture: {})", file.display());
    println!("{}", table.render());
    Ok(())
}

/// The scene with one agent per path (raw A* included) running at its speed profile's
/// pace for an agent with default limits, sampled at 20 Hz.
fn animated<'a>(scene: &Scene<'a>) -> Result<Scene<'a>> {
    let mut out = scene.clone();
    out.title = format!("{} - agents at their computed speeds", scene.title);
    for layer in &scene.layers {
        let profile = speed_profile(&layer.points, &Agent::default())?;
        let samples = profile.samples(20.0)?;
        out.tracks.push(Track {
            color: layer.color,
            samples: samples.iter().map(|s| (s.t, s.position_2d())).collect(),
        });
    }
    Ok(out)
}

fn add_metrics_row(t: &mut Table, name: &str, path: &[DVec2]) -> Result<()> {
    let m = PathMetrics::of(path)?;
    t.row([
        name.to_string(),
        m.points.to_string(),
        format!("{:.3}", m.length),
        format!("{:.1}", m.max_turn_deg),
        format!("{:.1}", m.total_turn_deg),
        format!("{:.3}", m.max_curvature),
    ]);
    Ok(())
}
