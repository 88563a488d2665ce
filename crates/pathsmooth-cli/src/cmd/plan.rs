//! `pathsmooth plan`: A* on a Moving AI map, then one or more smoothers, with metrics,
//! pictures and the chosen path as a file.

use anyhow::{bail, Context, Result};
use clap::Args;
use glam::IVec2;
use pathsmooth::grid::GridMap;

use crate::files::{write_bytes, write_path_file};
use crate::methods::{CurveParams, MapMethod, Planner};
use crate::picture::{png, svg, Layer, Scene, PALETTE};
use crate::report::{metrics_header, metrics_row};
use crate::table::Table;

/// Arguments of `pathsmooth plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Moving AI `.map` file.
    #[arg(long)]
    pub map: String,
    /// Start cell as `X,Y` (column, row; the path starts at the cell's centre).
    #[arg(long, value_parser = parse_cell)]
    pub from: IVec2,
    /// Goal cell as `X,Y`.
    #[arg(long, value_parser = parse_cell)]
    pub to: IVec2,
    /// Methods to run, comma-separated (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub method: Vec<MapMethod>,
    /// Agent radius in cells (A* then avoids cells closer than this to a wall).
    #[arg(long, default_value_t = 0.0)]
    pub radius: f64,
    #[command(flatten)]
    pub curve: CurveParams,
    /// Write the path of the (single) chosen method to this file (JSON or CSV by extension).
    #[arg(long)]
    pub output: Option<String>,
    /// Draw the map and every method's path into this PNG file.
    #[arg(long)]
    pub png: Option<String>,
    /// Draw the map and every method's path into this SVG file.
    #[arg(long)]
    pub svg: Option<String>,
}

/// Parses `X,Y` into a cell.
pub fn parse_cell(s: &str) -> Result<IVec2, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y, found `{s}`"))?;
    let num = |t: &str| {
        t.trim().parse::<i32>().map_err(|_| {
            format!(
                "`{}` is not a whole number (cells are column,row)",
                t.trim()
            )
        })
    };
    Ok(IVec2::new(num(x)?, num(y)?))
}

/// Runs `pathsmooth plan`.
pub fn run(a: &PlanArgs) -> Result<()> {
    let methods = if a.method.is_empty() {
        MapMethod::ALL.to_vec()
    } else {
        a.method.clone()
    };
    if a.output.is_some() && methods.len() != 1 {
        bail!(
            "--output needs exactly one --method (got {})",
            methods.len()
        );
    }
    let map = GridMap::load(&a.map)?;
    let mut planner = Planner::new(&map, a.radius, a.curve.clone())?;
    let query = planner.astar(a.from, a.to)?;

    let mut scene = Scene::for_map(
        format!(
            "{} from {},{} to {},{}",
            a.map, a.from.x, a.from.y, a.to.x, a.to.y
        ),
        &map,
    );
    scene
        .layers
        .push(Layer::raw("A* (raw)", query.astar.points.clone()));
    scene.mark_ends(&query.astar.points);
    let mut table = Table::new(metrics_header());
    for (i, &m) in methods.iter().enumerate() {
        let path = planner.run(m, &query).with_context(|| m.name())?;
        table.row(metrics_row(
            m.name(),
            &path,
            query.astar.length,
            planner.validator(),
            a.radius,
        )?);
        if let Some(out) = &a.output {
            write_path_file(out, None, &path)?;
        }
        if m != MapMethod::Astar {
            scene
                .layers
                .push(Layer::path(m.name(), path, PALETTE[i % PALETTE.len()]));
        }
    }
    // The table goes to stderr when the path itself goes to stdout.
    if a.output.as_deref() == Some("-") {
        eprint!("{}", table.render());
    } else {
        print!("{}", table.render());
    }
    if let Some(f) = &a.png {
        write_bytes(f, &png::render(&scene)?)?;
    }
    if let Some(f) = &a.svg {
        write_bytes(f, svg::render(&scene).as_bytes())?;
    }
    Ok(())
}
