//! `pathsmooth demo`: every method on the embedded examples, for an agent of a radius, with
//! pictures (one panel per method, its metrics in its heading, the band the agent sweeps,
//! a scale bar) and a metrics table. Runs on a fresh machine in seconds with no arguments.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use glam::DVec2;
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::grid::GridMap;
use pathsmooth::metrics::PathMetrics;
use pathsmooth::{GridWorld, World};

use crate::compare::Comparison;
use crate::compare::Skipped;
use crate::demo_map::{DEMO_FROM, DEMO_MAP, DEMO_TO};
use crate::files::write_bytes;
use crate::methods::{smooth_curve, CurveMethod, CurveParams, MapMethod, OptimiserParams};
use crate::picture::{
    png, svg, Key, Layer, Rgb, Scene, Sheet, Track, ALERT, CHANNEL, GOAL, PALETTE, START,
};
use crate::report::{error_row, metrics_header, skip_notes, with_metrics_row};
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

/// The demo agent's radius, in cells of the embedded map (its world units): every method
/// keeps this far from the walls, and the pictures draw the band it sweeps.
pub const DEMO_RADIUS: f64 = 0.4;

/// Pixels per cell in each method's panel of `demo.png` (nine panels, three a row).
const PANEL_SCALE: f64 = 6.0;
/// Pixels per cell in the navmesh panels (two, side by side).
const NAVMESH_SCALE: f64 = 7.0;

/// One map method's outcome on the demo scenario.
struct Outcome {
    method: MapMethod,
    color: Rgb,
    /// The path, or none when the method failed.
    path: Option<Vec<DVec2>>,
    /// The panel's heading: the method (and what its pipeline skipped, or its error),
    /// then its metrics, the numbers of the printed table.
    heading: Vec<String>,
    /// The follow time as printed ("—" when not computed).
    follow: String,
    /// A step was skipped or the method failed.
    alert: bool,
}

/// Part 2: every map method on one scenario of the embedded map, for an agent of
/// [`DEMO_RADIUS`].
fn map_demo(a: &DemoArgs) -> Result<()> {
    let world = GridWorld::new(GridMap::parse(DEMO_MAP, "demo.map (embedded)")?)?;
    let (start, goal) = (world.cell_center(DEMO_FROM), world.cell_center(DEMO_TO));
    // The A* path with room for the agent, which every method starts from.
    let raw = world.find_path(start, goal, DEMO_RADIUS)?;
    let astar_length = pathsmooth::metrics::length(&raw);
    let mut header = metrics_header().to_vec();
    header.push("time ms");
    let mut table = Table::new(header.iter().copied());
    let (mut notes, mut failures) = (Vec::new(), Vec::new());
    let mut outcomes = Vec::new();
    let mut corridor_plan = None;
    let (curve, optimiser) = (CurveParams::default(), OptimiserParams::default());
    let mut comparison = Comparison::new(&world, DEMO_RADIUS, &MapMethod::ALL, &curve, &optimiser)?;
    for (i, run) in comparison.smooth(&raw).into_iter().enumerate() {
        let skips = run.skipped();
        let (m, report) = (run.method, run.pipeline.report());
        let color = PALETTE[i % PALETTE.len()];
        notes.extend(skip_notes(m.name(), &skips));
        let (title, skipped) = panel_title(m.name(), &skips);
        match with_metrics_row(m.name(), run.path, &report.validation, &skips, astar_length) {
            Ok((path, mut row)) => {
                row.push(format!("{:.2}", run.time.as_secs_f64() * 1e3));
                let cell = |name: &str| {
                    let i = header.iter().position(|h| *h == name);
                    i.and_then(|i| row.get(i)).cloned().unwrap_or_default()
                };
                let heading = vec![
                    title,
                    format!("length {}, max turn {}°", cell("length"), cell("max turn°")),
                    format!("clearance {}, valid {}", cell("clearance"), cell("valid")),
                    format!("time {} ms, {} points", cell("time ms"), cell("points")),
                ];
                let follow = cell("follow s");
                let alert = skipped || cell("valid") != "yes";
                table.row(row);
                if let Some(plan) = run.pipeline.last_corridor() {
                    corridor_plan = Some(plan.clone());
                }
                outcomes.push(Outcome {
                    method: m,
                    color,
                    path: Some(path),
                    heading,
                    follow,
                    alert,
                });
            }
            Err(e) => {
                table.row(error_row(m.name(), &e));
                failures.push(format!("{}: {e}", m.name()));
                outcomes.push(Outcome {
                    method: m,
                    color,
                    path: None,
                    heading: vec![format!(
                        "{} — failed: {}",
                        m.name(),
                        short_reason(&e.to_string())
                    )],
                    follow: String::new(),
                    alert: true,
                });
            }
        }
    }

    let panel = |o: &Outcome, scale: f64| {
        let mut p = Scene::for_map(o.method.name(), &world);
        p.scale = scale;
        p.set_heading(&o.heading);
        p.alert = o.alert;
        if let Some(path) = &o.path {
            let mut line = Layer::path(o.method.name(), path.clone(), o.color);
            line.width = 1.5;
            p.layers.push(line.with_band(DEMO_RADIUS));
        }
        p.mark_ends(&[start, goal]);
        p
    };
    let path_key = Key::Line {
        color: PALETTE[0],
        dashed: false,
        band: true,
    };
    let mut legend = vec![
        (
            path_key,
            format!("a method's path, in the band an agent of radius {DEMO_RADIUS} sweeps"),
        ),
        (Key::Dot(START), "start".to_string()),
        (Key::Dot(GOAL), "goal".to_string()),
    ];
    if outcomes.iter().any(|o| o.alert) {
        legend.push((
            Key::Fill(ALERT),
            "red: a step was skipped (its input kept) or the method failed".into(),
        ));
    }
    let scenario = format!(
        "demo.map ({}×{}) from ({},{}) to ({},{}), agent radius {DEMO_RADIUS} cells",
        world.map().width(),
        world.map().height(),
        DEMO_FROM.x,
        DEMO_FROM.y,
        DEMO_TO.x,
        DEMO_TO.y
    );

    // demo.png and demo.svg: one panel per method.
    let sheet = Sheet::new(
        format!("{scenario}: every method, one panel each"),
        outcomes.iter().map(|o| panel(o, PANEL_SCALE)).collect(),
        3,
        legend.clone(),
    );
    let png_file = a.out_dir.join("demo.png");
    let svg_file = a.out_dir.join("demo.svg");
    write_bytes(&png_file.to_string_lossy(), &png::render_sheet(&sheet)?)?;
    write_bytes(
        &svg_file.to_string_lossy(),
        svg::render_sheet(&sheet).as_bytes(),
    )?;

    // demo-navmesh.png: the navmesh methods over the triangles, the channel for the radius
    // filled.
    let mesh = world.navmesh()?;
    let channel = mesh.find_channel_for_radius(start, goal, DEMO_RADIUS)?;
    let navmesh_panels = outcomes
        .iter()
        .filter(|o| matches!(o.method, MapMethod::Funnel | MapMethod::Relax))
        .map(|o| {
            let mut p = panel(o, NAVMESH_SCALE);
            p.add_navmesh(mesh, &channel);
            p
        })
        .collect();
    let mut nav_legend = legend.clone();
    nav_legend.insert(
        1,
        (
            Key::Fill(CHANNEL),
            "the channel of triangles wide enough for the agent".into(),
        ),
    );
    let nav = Sheet::new(
        format!(
            "demo.map, agent radius {DEMO_RADIUS}: funnel and portal relaxation on the navmesh"
        ),
        navmesh_panels,
        2,
        nav_legend,
    );
    let nav_file = a.out_dir.join("demo-navmesh.png");
    write_bytes(&nav_file.to_string_lossy(), &png::render_sheet(&nav)?)?;

    // demo-corridor.png: the corridor method over its clearance disks.
    let mut corridor_scene = Scene::for_map(
        "demo.map corridor of clearance disks and the optimised path",
        &world,
    );
    corridor_scene
        .layers
        .push(Layer::raw("A* (raw)", raw.clone()));
    if let Some(o) = outcomes.iter().find(|o| o.method == MapMethod::Corridor) {
        corridor_scene.set_heading(&o.heading);
        corridor_scene.alert = o.alert;
        if let Some(path) = &o.path {
            corridor_scene
                .layers
                .push(Layer::path("corridor", path.clone(), o.color).with_band(DEMO_RADIUS));
        }
    }
    if let Some(plan) = corridor_plan {
        let disks = plan.corridor.centers.iter().copied();
        corridor_scene.disks = disks.zip(plan.corridor.radii.iter().copied()).collect();
    }
    corridor_scene.mark_ends(&[start, goal]);
    let corridor_file = a.out_dir.join("demo-corridor.png");
    write_bytes(
        &corridor_file.to_string_lossy(),
        &png::render(&corridor_scene)?,
    )?;

    // demo-follow.svg: one agent of the demo's radius per method, each in its panel, moving
    // at its computed speeds.
    let mut follow_panels = Vec::new();
    for o in &outcomes {
        let mut p = panel(o, PANEL_SCALE);
        let mut heading = vec![o.heading[0].clone()];
        if let Some(path) = &o.path {
            heading.push(format!("follows the path in {} s", o.follow));
            p.tracks.push(track(path, o.color)?);
        }
        p.set_heading(heading);
        follow_panels.push(p);
    }
    let follow = Sheet::new(
        format!("{scenario}: agents at their computed speeds"),
        follow_panels,
        3,
        legend,
    );
    let follow_file = a.out_dir.join("demo-follow.svg");
    write_bytes(
        &follow_file.to_string_lossy(),
        svg::render_sheet(&follow).as_bytes(),
    )?;

    println!(
        "Embedded map demo.map ({}×{}), agent radius {DEMO_RADIUS}, A* length {:.4} \
         (pictures: {}, {}, {}, {}; agents: {})",
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
    for n in &notes {
        println!("{n}");
    }
    if let Some(first) = failures.first() {
        bail!(
            "{} of the methods failed; the first: {first}",
            failures.len()
        );
    }
    Ok(())
}

/// A panel's first line: the method, and each step its pipeline skipped with a short
/// reason ("relax — skipped: segment 3 comes closer than the radius 0.4 to a wall");
/// true when something was skipped.
fn panel_title(method: &str, skipped: &[Skipped]) -> (String, bool) {
    if skipped.is_empty() {
        return (method.to_string(), false);
    }
    let parts: Vec<String> = skipped
        .iter()
        .map(|Skipped { step, reason }| {
            let why = short_reason(reason);
            if *step == method {
                format!("skipped: {why}")
            } else {
                format!("step {step} skipped: {why}")
            }
        })
        .collect();
    (format!("{method} — {}", parts.join("; ")), true)
}

/// A reason cut short for a panel: without the validator's "near (x, y)" and "(path
/// minimum …)" details, at most 80 characters.
fn short_reason(why: &str) -> String {
    let mut s = why;
    for cut in [" near (", " (path minimum"] {
        if let Some(i) = s.find(cut) {
            s = &s[..i];
        }
    }
    let mut out: String = s.chars().take(80).collect();
    if s.chars().count() > 80 {
        out.push('…');
    }
    out
}

/// Part 1: the corner cutters and splines on the Terrator path: the whole path fitted to
/// its panel, and a detail of its loops.
fn curves_demo(a: &DemoArgs) -> Result<()> {
    let path: Vec<DVec2> = TERRATOR.iter().map(|&[x, y]| DVec2::new(x, y)).collect();
    let header = [
        "method",
        "points",
        "length",
        "max turn°",
        "total turn°",
        "max curvature",
    ];
    let mut table = Table::new(header);
    let input = metrics_row("input", &path)?;
    let mut layers = vec![Layer::raw(legend_text(&header, &input), path.clone())];
    table.row(input);
    let params = CurveParams::default();
    for (i, method) in CurveMethod::ALL.into_iter().enumerate() {
        let out = smooth_curve(method, &params, &path)?;
        let row = metrics_row(method.name(), &out)?;
        layers.push(Layer::path(legend_text(&header, &row), out, PALETTE[i]));
        table.row(row);
    }
    // The detail: the loops, with every curve's points there (x from 43 to 60; the path
    // comes from x = 25 and leaves for x = 200).
    let near_loops: Vec<DVec2> = layers
        .iter()
        .flat_map(|l| l.points.iter().copied())
        .filter(|p| (43.0..=60.0).contains(&p.x))
        .collect();
    let mut detail = Scene::for_points("detail", &near_loops);
    detail.set_heading(["detail: the loops (the dashed box above)"]);
    detail.layers = layers.clone();
    detail.clip = true;
    let mut whole = Scene::for_points("whole", &path);
    whole.layers = layers;
    whole.boxes.push((detail.min, detail.max));
    whole.fit(0.02, detail.view_px().0);
    whole.set_heading(["the whole path, every curve on the canvas"]);
    let legend = whole
        .layers
        .iter()
        .map(|l| {
            let key = Key::Line {
                color: l.color,
                dashed: l.dashed,
                band: false,
            };
            (key, l.label.clone())
        })
        .collect();
    let sheet = Sheet::new(
        "Terrator path (dev blog #02): corner cutting and splines, no map",
        vec![whole, detail],
        1,
        legend,
    );
    let file = a.out_dir.join("demo-curves.svg");
    write_bytes(
        &file.to_string_lossy(),
        svg::render_sheet(&sheet).as_bytes(),
    )?;
    println!("Curves on the Terrator path (picture: {})", file.display());
    println!("{}", table.render());
    Ok(())
}

/// A curves legend entry: the method and its metrics, as the table prints them.
fn legend_text(header: &[&str], row: &[String]) -> String {
    let cell = |name: &str| {
        let i = header.iter().position(|h| *h == name);
        i.and_then(|i| row.get(i)).map_or("", String::as_str)
    };
    format!(
        "{}: {} points, length {}, max turn {}°",
        cell("method"),
        cell("points"),
        cell("length"),
        cell("max turn°")
    )
}

/// An agent of the demo's radius following `path` at its speed profile's pace for an
/// agent with default limits, sampled at 20 Hz.
fn track(path: &[DVec2], color: Rgb) -> Result<Track> {
    let profile = speed_profile(path, &Agent::default())?;
    let samples = profile.samples(20.0)?;
    Ok(Track {
        color,
        samples: samples.iter().map(|s| (s.t, s.position_2d())).collect(),
        radius: DEMO_RADIUS,
    })
}

fn metrics_row(name: &str, path: &[DVec2]) -> Result<Vec<String>> {
    let m = PathMetrics::of(path)?;
    Ok(vec![
        name.to_string(),
        m.points.to_string(),
        format!("{:.3}", m.length),
        format!("{:.1}", m.max_turn.to_degrees()),
        format!("{:.1}", m.total_turn.to_degrees()),
        format!("{:.3}", m.max_curvature),
    ])
}
