//! `pathsmooth plan`: plan on a Moving AI map (A*, then smoothers) or on a navmesh scene
//! (corridor, then funnel or portal relaxation), with metrics, pictures and the chosen path
//! as a file.

use anyhow::{bail, Result};
use clap::Args;
use glam::{DVec2, IVec2};
use pathsmooth::grid::GridMap;
use pathsmooth::metrics::PathMetrics;
use pathsmooth::navmesh::funnel::funnel;
use pathsmooth::navmesh::mesh::NavMesh;
use pathsmooth::navmesh::portals::portals;
use pathsmooth::navmesh::relax::{relax, RelaxOptions};

use crate::files::{read_text, write_bytes, write_path_file};
use crate::methods::{CurveParams, MapMethod, Planner};
use crate::picture::{png, svg, Layer, Scene, PALETTE};
use crate::report::{follow_time, metrics_header, run_and_measure};
use crate::table::Table;

/// Arguments of `pathsmooth plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Moving AI `.map` file.
    #[arg(long, required_unless_present = "navmesh", conflicts_with = "navmesh")]
    pub map: Option<String>,
    /// Plan on a navmesh: a scene JSON `{"boundary": [[x,y],…], "holes": [[[x,y],…],…]}`,
    /// or a `.map` file (its navmesh is drawn in the pictures).
    #[arg(long)]
    pub navmesh: Option<String>,
    /// Start as `X,Y`: a cell (column,row; whole numbers) on a map, a point in a scene.
    #[arg(long, value_parser = parse_xy, allow_hyphen_values = true)]
    pub from: DVec2,
    /// Goal as `X,Y`.
    #[arg(long, value_parser = parse_xy, allow_hyphen_values = true)]
    pub to: DVec2,
    /// Methods to run, comma-separated (default: all; on a scene, funnel and relax).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub method: Vec<MapMethod>,
    /// Agent radius (A* on a map then avoids cells closer than this to a wall).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub radius: f64,
    #[command(flatten)]
    pub curve: CurveParams,
    /// Write the path of the (single) chosen method to this file (JSON or CSV by extension).
    #[arg(long)]
    pub output: Option<String>,
    /// Draw the map (or scene) and every method's path into this PNG file.
    #[arg(long)]
    pub png: Option<String>,
    /// Draw the map (or scene) and every method's path into this SVG file.
    #[arg(long)]
    pub svg: Option<String>,
}

/// Parses `X,Y`.
pub fn parse_xy(s: &str) -> Result<DVec2, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y, found `{s}`"))?;
    let num = |t: &str| {
        let t = t.trim();
        t.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{t}` is not a finite number"))
    };
    Ok(DVec2::new(num(x)?, num(y)?))
}

/// A map cell from `X,Y` given as whole numbers.
fn cell(p: DVec2, what: &str) -> Result<IVec2> {
    if p.fract() != DVec2::ZERO || p.abs().max_element() > i32::MAX as f64 {
        bail!(
            "--{what} {},{}: on a map, give a cell as whole numbers column,row",
            p.x,
            p.y
        );
    }
    Ok(p.as_ivec2())
}

/// Runs `pathsmooth plan`.
pub fn run(a: &PlanArgs) -> Result<()> {
    let on_map = a
        .map
        .as_deref()
        .or(a.navmesh.as_deref().filter(|f| f.ends_with(".map")));
    let default = if on_map.is_some() {
        MapMethod::ALL.to_vec()
    } else {
        vec![MapMethod::Funnel, MapMethod::Relax]
    };
    let methods = if a.method.is_empty() {
        default
    } else {
        a.method.clone()
    };
    if a.output.is_some() && methods.len() != 1 {
        bail!(
            "--output needs exactly one --method (got {})",
            methods.len()
        );
    }
    let (table, scene_png, scene_svg) = match on_map {
        Some(file) => plan_on_map(a, file, &methods)?,
        None => plan_on_scene(a, a.navmesh.as_deref().unwrap_or_default(), &methods)?,
    };
    // The table goes to stderr when the path itself goes to stdout.
    if a.output.as_deref() == Some("-") {
        eprint!("{table}");
    } else {
        print!("{table}");
    }
    if let Some(f) = &a.png {
        write_bytes(f, &scene_png)?;
    }
    if let Some(f) = &a.svg {
        write_bytes(f, scene_svg.as_bytes())?;
    }
    Ok(())
}

/// Planning on a grid map; returns the table and the rendered pictures.
fn plan_on_map(
    a: &PlanArgs,
    file: &str,
    methods: &[MapMethod],
) -> Result<(String, Vec<u8>, String)> {
    let map = GridMap::load(file)?;
    let (from, to) = (cell(a.from, "from")?, cell(a.to, "to")?);
    let mut planner = Planner::new(&map, a.radius, a.curve.clone())?;
    let query = planner.astar(from, to)?;

    let title = format!("{file} from {},{} to {},{}", from.x, from.y, to.x, to.y);
    let mut scene = Scene::for_map(title, &map);
    if a.navmesh.is_some() {
        let corridor = planner.corridor(&query.astar.points)?;
        scene.add_navmesh(planner.mesh()?, &corridor);
    }
    scene
        .layers
        .push(Layer::raw("A* (raw)", query.astar.points.clone()));
    scene.mark_ends(&query.astar.points);
    let mut table = Table::new(metrics_header());
    for (i, &m) in methods.iter().enumerate() {
        let (path, row) = run_and_measure(&mut planner, m, &query, a.radius)?;
        table.row(row);
        if let Some(out) = &a.output {
            write_path_file(out, None, &path)?;
        }
        if m != MapMethod::Astar {
            scene
                .layers
                .push(Layer::path(m.name(), path, PALETTE[i % PALETTE.len()]));
        }
    }
    Ok((table.render(), png::render(&scene)?, svg::render(&scene)))
}

/// Planning on a navmesh scene: corridor by A* over triangles, then funnel or relaxation.
fn plan_on_scene(
    a: &PlanArgs,
    file: &str,
    methods: &[MapMethod],
) -> Result<(String, Vec<u8>, String)> {
    if let Some(m) = methods
        .iter()
        .find(|m| !matches!(m, MapMethod::Funnel | MapMethod::Relax))
    {
        bail!(
            "method {} needs a grid map; on a navmesh scene use funnel or relax",
            m.name()
        );
    }
    let text = read_text(file)?;
    let mesh = NavMesh::from_scene_json(&text, file)?;
    let corridor = mesh.find_corridor(a.from, a.to)?;
    let portals = portals(&mesh, &corridor)?;
    let mut scene = Scene::for_points(
        format!("{file}: navmesh corridor of {} triangles", corridor.len()),
        mesh.vertices(),
    );
    scene.add_navmesh(&mesh, &corridor);
    // The scene parsed above, so its holes are there to draw.
    if let Ok(parsed) = serde_json::from_str::<pathsmooth::navmesh::mesh::Scene>(&text) {
        scene.obstacles = parsed
            .holes
            .iter()
            .map(|h| h.iter().map(|&[x, y]| DVec2::new(x, y)).collect())
            .collect();
    }
    let mut table = Table::new([
        "method",
        "points",
        "length",
        "max turn°",
        "total turn°",
        "follow s",
    ]);
    for (i, &m) in methods.iter().enumerate() {
        let path = match m {
            MapMethod::Funnel => funnel(&portals, a.from, a.to, a.radius)?,
            _ => {
                let opts = RelaxOptions {
                    margin: a.radius.max(RelaxOptions::default().margin),
                    ..RelaxOptions::default()
                };
                relax(&portals, a.from, a.to, &opts)?
            }
        };
        let pm = PathMetrics::of(&path)?;
        table.row([
            m.name().to_string(),
            pm.points.to_string(),
            format!("{:.3}", pm.length),
            format!("{:.1}", pm.max_turn_deg),
            format!("{:.1}", pm.total_turn_deg),
            format!("{:.2}", follow_time(&path)?),
        ]);
        if let Some(out) = &a.output {
            write_path_file(out, None, &path)?;
        }
        scene.layers.push(Layer::path(
            m.name(),
            path,
            PALETTE[(i + 6) % PALETTE.len()],
        ));
    }
    scene.mark_ends(&[a.from, a.to]);
    Ok((table.render(), png::render(&scene)?, svg::render(&scene)))
}
