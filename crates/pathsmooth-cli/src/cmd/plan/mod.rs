//! `pathsmooth plan`: plan on a Moving AI map (A*, then smoothers) or on a navmesh, flat
//! or layered (`navmesh`: the library's one pipeline on a `SurfaceWorld`, 2D ends or 3D),
//! with metrics, pictures and the chosen path as a file.

mod navmesh;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use glam::{DVec2, IVec2};
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::GroundPlane;
use pathsmooth::navmesh::UpAxis;
use pathsmooth::world::path_cost;
use pathsmooth::World;

use crate::areas::{route_margin, with_grid_area_costs};
use crate::compare::Skipped;
use crate::files::{write_bytes, write_path_file};
use crate::methods::{MapMethod, SmoothArgs};
use crate::picture::{png, svg, Layer, Scene, PALETTE};
use crate::report::{
    error_row, follow_time_shown, insert_cost, metrics_header_with_cost, skip_notes,
    with_metrics_row, FOLLOW_TIME_MAX_POINTS, SKIPPED_HELP,
};
use crate::surface::{is_surface_file, parse_coords, Coords, Reading};
use crate::table::Table;

/// Arguments of `pathsmooth plan`.
#[derive(Debug, Args)]
#[command(after_help = SKIPPED_HELP)]
pub struct PlanArgs {
    /// Moving AI `.map` file.
    #[arg(
        long,
        required_unless_present_any = ["navmesh", "level"],
        conflicts_with_all = ["navmesh", "level"]
    )]
    pub map: Option<String>,
    /// Plan on a navmesh: a scene JSON `{"boundary": [[x,y],…], "holes": [[[x,y],…],…]}`,
    /// a polyanya `.mesh` file, an OBJ file of convex faces, or a `.map` file (its navmesh
    /// is drawn in the pictures). A layered navmesh (floors over floors) with 3D points
    /// `--from X,Y,Z`: the navmesh JSON of `docs/navmesh-json.md` (`*.navmesh.json`, as
    /// `pathsmooth bake` writes it) or an OBJ file of convex faces read in 3D.
    #[arg(long, conflicts_with = "level")]
    pub navmesh: Option<String>,
    /// Plan on level geometry: an OBJ file of triangles (y up) baked into a Recast navmesh
    /// with the --agent-* options (as `pathsmooth bake`), then planned on in 3D. The bake
    /// keeps --agent-radius from the walls, so --radius is usually left at 0.
    #[arg(long)]
    pub level: Option<String>,
    #[cfg(feature = "bake")]
    #[command(flatten)]
    pub agent: crate::cmd::bake::AgentArgs,
    /// On a layered navmesh: which world axis is up, y (Recast, Unity, Godot; the default)
    /// or z (Unreal, robotics). The navmesh JSON names its own; an --up that differs is an
    /// error.
    #[arg(long)]
    pub up: Option<UpAxis>,
    #[command(flatten)]
    pub surface: crate::surface::SurfaceArgs,
    /// On a navmesh: plan with one of the library's presets instead of --method.
    #[arg(long, value_enum, conflicts_with = "method")]
    pub preset: Option<PresetArg>,
    /// The ground plane of an OBJ navmesh: xz (y up, as Recast writes) or xy (z up).
    #[arg(long, default_value = "xz")]
    pub ground_plane: GroundPlane,
    /// On a navmesh: print (to stderr) each method's polygons: the polygon of each point
    /// of the path (the one the path reaches it through), its flags in brackets (start,
    /// end, a link's ends). A polygon's number is the surface's (a layered file's `--output` too):
    /// its position in the file (a scene's polygons are its triangles) unless the reader
    /// dropped or merged polygons (slivers, repeats: the load report says so).
    #[arg(long)]
    pub polygons: bool,
    /// Start as `X,Y`: a cell (column,row; whole numbers) on a map, a point in a scene;
    /// `X,Y,Z` (world axes) on a layered navmesh, located on the floor nearest to it, or
    /// `X,Y` there in plan view (the two axes across --up), on the one floor under it (an
    /// error over several floors: say which with X,Y,Z).
    #[arg(long, value_parser = parse_coords, allow_hyphen_values = true)]
    pub from: Coords,
    /// Goal as `X,Y` (or `X,Y,Z`).
    #[arg(long, value_parser = parse_coords, allow_hyphen_values = true)]
    pub to: Coords,
    /// Methods to run, comma-separated (default: all; on a scene, funnel and relax).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub method: Vec<MapMethod>,
    #[command(flatten)]
    pub smooth: SmoothArgs,
    /// Write the path of the (single) chosen method to this file (JSON or CSV by extension).
    /// On a layered navmesh each point has its polygon and flags: CSV `x,y,z,polygon,flags`,
    /// JSON `{"up", "points": [{"position": [x, y, z], "polygon", "flags": […]}, …]}`.
    #[arg(long)]
    pub output: Option<String>,
    /// Draw the map (or navmesh, when it has one floor) and every method's path into this
    /// PNG file.
    #[arg(long)]
    pub png: Option<String>,
    /// Draw the map (or navmesh, when it has one floor) and every method's path into this
    /// SVG file.
    #[arg(long)]
    pub svg: Option<String>,
}

/// The library's presets, as `--preset` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PresetArg {
    /// The shortest path, line-of-sight shortcuts.
    Shortest,
    /// Shortcuts, then map-aware Chaikin.
    Smooth,
    /// Langerak's corridor optimiser.
    Corridor,
}

impl PresetArg {
    /// The name used on the command line, and the library's preset.
    pub fn preset(self) -> (&'static str, pathsmooth::Preset) {
        match self {
            PresetArg::Shortest => ("shortest", pathsmooth::Preset::Shortest),
            PresetArg::Smooth => ("smooth", pathsmooth::Preset::Smooth),
            PresetArg::Corridor => ("corridor", pathsmooth::Preset::Corridor),
        }
    }
}

/// The 2D point of `--from` or `--to` (`what`): 3D points go to a layered navmesh.
fn xy(c: Coords, what: &str) -> Result<DVec2> {
    match c {
        Coords::D2(p) => Ok(p),
        Coords::D3(p) => bail!(
            "--{what} {},{},{}: 3D points need a layered navmesh (--navmesh with the \
             navmesh JSON or an OBJ file, or --level)",
            p.x,
            p.y,
            p.z
        ),
    }
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
    let three_d = matches!(a.from, Coords::D3(_)) || matches!(a.to, Coords::D3(_));
    let on_map = a
        .map
        .as_deref()
        .or(a.navmesh.as_deref().filter(|f| f.ends_with(".map")));
    let layered = a.level.is_some()
        || ((three_d || a.up.is_some()) && a.map.is_none())
        || a.navmesh.as_deref().is_some_and(is_surface_file);
    if on_map.is_none() {
        if a.smooth.area_costs.is_some() && !layered {
            bail!(
                "--area-costs needs areas: a grid map (--map or a .map file, whose terrain \
                 letters name its areas) or a navmesh JSON or level (Recast's area ids); \
                 this mesh's polygons have none"
            );
        }
        if a.smooth.keep_route.is_some() {
            bail!("--keep-route needs a grid map (--map, or --navmesh with a .map file)");
        }
    }
    // One way of printing for every world: a navmesh's runs come back as a map's do.
    let (planned, runs) = match on_map {
        _ if layered => navmesh::plan(a, Reading::Layered)?,
        Some(file) => plan_on_map(a, file)?,
        None => navmesh::plan(a, Reading::Flat)?,
    };
    // The table goes to stderr when the path itself goes to stdout.
    if a.output.as_deref() == Some("-") {
        eprint!("{}", planned.table);
    } else {
        print!("{}", planned.table);
    }
    for n in &planned.outcomes.notes {
        eprintln!("{n}");
    }
    if let (Some(f), Some(png)) = (&a.png, &planned.png) {
        write_bytes(f, png)?;
    }
    if let (Some(f), Some(svg)) = (&a.svg, &planned.svg) {
        write_bytes(f, svg.as_bytes())?;
    }
    if let Some(first) = &planned.outcomes.first_error {
        bail!(
            "{} of {runs} methods failed (see the table); {first}",
            planned.outcomes.errors,
        );
    }
    Ok(())
}

/// Plans on a grid map (cells as ends) with each method; returns what was planned and how
/// many methods ran.
fn plan_on_map(a: &PlanArgs, file: &str) -> Result<(Planned, usize)> {
    if a.preset.is_some() {
        bail!("--preset plans on a navmesh; on a map use --method");
    }
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
    Ok((smooth_on_map(a, file, &methods)?, methods.len()))
}

/// What a plan produced: the metrics table (failed methods included), the pictures asked
/// for (drawing a large map costs memory and time, so only then), and what went wrong.
struct Planned {
    table: String,
    png: Option<Vec<u8>>,
    svg: Option<String>,
    outcomes: Outcomes,
}

impl Planned {
    /// The table rendered with the skipped steps' notes under it, and the pictures of
    /// `scene` that `a` asks for (none without a scene).
    fn new(a: &PlanArgs, table: &Table, scene: Option<&Scene>, outcomes: Outcomes) -> Result<Self> {
        Ok(Planned {
            table: Self::render(table, &outcomes),
            png: a.png.as_ref().and(scene).map(png::render).transpose()?,
            svg: a.svg.as_ref().and(scene).map(svg::render),
            outcomes,
        })
    }

    /// The table rendered with the skipped steps' notes under it.
    fn render(table: &Table, outcomes: &Outcomes) -> String {
        let mut text = table.render();
        for line in &outcomes.skips {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}

/// The failures and skipped steps of a plan's methods.
#[derive(Default)]
struct Outcomes {
    errors: usize,
    /// The first failure, as `method: error`.
    first_error: Option<String>,
    /// One line per step that did not take effect, printed under the table (with it).
    skips: Vec<String>,
    /// Other notes (follow time, corners, polygons), on stderr.
    notes: Vec<String>,
}

impl Outcomes {
    /// Records a method that ran: the steps of its pipeline that did not take effect (the
    /// path is then that step's input, so the row says `skipped`).
    fn ran(&mut self, method: &str, skipped: &[Skipped]) {
        self.skips.extend(skip_notes(method, skipped));
    }

    /// Records a method that failed, and adds its row to the table (with empty cost
    /// cells when `costs`).
    fn failed(&mut self, method: &str, e: &pathsmooth::Error, table: &mut Table, costs: bool) {
        self.errors += 1;
        self.first_error
            .get_or_insert_with(|| format!("{method}: {e}"));
        let mut row = error_row(method, e);
        if costs {
            insert_cost(&mut row, None, 0.0);
        }
        table.row(row);
    }
}

/// Planning on a grid map; returns the table and the rendered pictures.
fn smooth_on_map(a: &PlanArgs, file: &str, methods: &[MapMethod]) -> Result<Planned> {
    let world = a.smooth.frame.world(GridMap::load(file)?)?;
    let (world, absent) =
        with_grid_area_costs(world, a.smooth.area_costs.as_deref()).context("--area-costs")?;
    let mut outcomes = Outcomes::default();
    let costs = a.smooth.area_costs.is_some();
    if !absent.is_empty() {
        outcomes.notes.push(format!(
            "note: --area-costs: the map has no cells of area {}",
            absent.join(", ")
        ));
    }
    let (from, to) = (
        cell(xy(a.from, "from")?, "from")?,
        cell(xy(a.to, "to")?, "to")?,
    );
    let (start, goal) = (world.cell_center(from), world.cell_center(to));
    // The raw A* path (with room for the radius) every method starts from.
    let raw = world.find_path(start, goal, a.smooth.radius)?;
    let astar_length = pathsmooth::metrics::length(&raw);
    let astar_cost = path_cost(&world, &raw);
    // Keep the route: the methods smooth on the world cut down to the A* path's cells.
    let route = a
        .smooth
        .keep_route
        .map(|margin| world.route_world(&raw, route_margin(&world, margin)))
        .transpose()
        .context("--keep-route")?;
    let smoothing_world = route.as_ref().unwrap_or(&world);

    // The map's file name, not its path: a long path ran past the picture's edge.
    let name = std::path::Path::new(file)
        .file_name()
        .map_or(file.into(), |n| n.to_string_lossy());
    let title = format!("{name} from {},{} to {},{}", from.x, from.y, to.x, to.y);
    let mut scene = Scene::for_map(title, &world);
    if a.navmesh.is_some() {
        let mesh = world.navmesh()?;
        scene.add_navmesh(mesh, &mesh.find_channel(start, goal)?);
    }
    scene.layers.push(Layer::raw("A* (raw)", raw.clone()));
    scene.mark_ends(&raw);
    let mut table = Table::new(metrics_header_with_cost(costs));
    let mut comparison = a.smooth.comparison(smoothing_world, methods)?;
    for (i, run) in comparison.smooth(&raw).into_iter().enumerate() {
        let (m, pipeline, skipped) = (run.method, run.pipeline, run.skipped());
        let validation = &pipeline.report().validation;
        match with_metrics_row(m.name(), run.path, validation, &skipped, astar_length) {
            Ok((path, mut row)) => {
                if costs {
                    // On the whole world: the same cells as on the route's, when kept.
                    insert_cost(&mut row, Some(path_cost(&world, &path)), astar_cost);
                }
                table.row(row);
                outcomes.ran(m.name(), &skipped);
                if !follow_time_shown(&path) {
                    outcomes.notes.push(format!(
                        "note: {}: follow time not computed for a path of more than \
                         {FOLLOW_TIME_MAX_POINTS} points (its speed profile would need \
                         about 300 bytes a point)",
                        m.name()
                    ));
                }
                if let Some(out) = &a.output {
                    write_path_file(out, None, &path)?;
                }
                let color = PALETTE[i % PALETTE.len()];
                if let Some(curve) = pipeline.last_curve() {
                    // A fillet path: its arcs drawn as arcs, its corners below ρ noted.
                    let below = pipeline.report().corners.len();
                    outcomes.notes.push(format!(
                        "note: {}: {below} corners below the turning radius, max curvature {:.4}",
                        m.name(),
                        curve.max_curvature()
                    ));
                    scene
                        .layers
                        .push(Layer::curve(m.name(), curve.clone(), path, color));
                } else if m != MapMethod::Astar {
                    scene.layers.push(Layer::path(m.name(), path, color));
                }
                if let Some(plan) = pipeline.last_corridor() {
                    // The corridor method's disks (the room the agent has about each
                    // centre), under the paths.
                    let disks = plan.corridor.centers.iter().copied();
                    scene
                        .disks
                        .extend(disks.zip(plan.corridor.radii.iter().copied()));
                }
            }
            // One method failing (say, no corridor with room for the radius) does not lose
            // the others' results; the exit status says something failed.
            Err(e) => outcomes.failed(m.name(), &e, &mut table, costs),
        }
    }
    Planned::new(a, &table, Some(&scene), outcomes)
}
