//! The smoothing methods the CLI offers, with their command-line parameters, and one place
//! that turns a method name plus parameters into a library call. The grid methods and
//! their parameters are the playground's ([`pathsmooth_playground::methods`]), shared with
//! `serve` and the static playground; the curve methods and the map's frame are the CLI's.

use clap::{Args, ValueEnum};
use glam::DVec2;
use pathsmooth::curve::{catmull_rom, chaikin, chaikin_adaptive, AdaptiveParams, ChaikinParams};
use pathsmooth::{fillet_geometry, GridMap, GridWorld, Point, Result, World};

use crate::compare::Comparison;
pub use pathsmooth_playground::methods::{CurveParams, MapMethod, OptimiserParams};

/// Methods that need no map: corner cutters and splines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CurveMethod {
    /// Classic multi-pass Chaikin corner cutting.
    Chaikin,
    /// Chaikin that cuts only corners sharper than --angle-limit.
    AdaptiveChaikin,
    /// Catmull-Rom spline through every point (--alpha 0 uniform, 0.5 centripetal, 1 chordal).
    CatmullRom,
    /// Fillets: each corner an arc of radius --turn-radius where the legs allow (--g2:
    /// clothoid transitions); 2D only, geometry only (no walls). Not in the default lists.
    Fillet,
}

impl CurveMethod {
    /// Every curve method, in display order.
    pub const ALL: [CurveMethod; 3] = [
        CurveMethod::Chaikin,
        CurveMethod::AdaptiveChaikin,
        CurveMethod::CatmullRom,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            CurveMethod::Chaikin => "chaikin",
            CurveMethod::AdaptiveChaikin => "adaptive-chaikin",
            CurveMethod::CatmullRom => "catmull-rom",
            CurveMethod::Fillet => "fillet",
        }
    }
}

/// Fillets a 2D path (geometry only), sampled within the parameters' chord error.
fn fillet_path<P: Point>(p: &CurveParams, path: &[P]) -> Result<Vec<P>> {
    if P::DIM != 2 {
        return Err(pathsmooth::Error::Unsupported {
            what: "fillet smoothing",
            needs: "a 2D path",
        });
    }
    let flat: Vec<DVec2> = pathsmooth::geometry::to_dvec2(path);
    let params = p.fillet_params();
    let out = fillet_geometry(&flat, &params)?;
    let poly = out.curve.to_polyline(params.chord_error)?;
    Ok(poly
        .iter()
        .filter_map(|q| P::from_coords(&[q.x, q.y]))
        .collect())
}

/// Runs a curve method on a path of any dimension.
pub fn smooth_curve<P: Point>(method: CurveMethod, p: &CurveParams, path: &[P]) -> Result<Vec<P>> {
    match method {
        CurveMethod::Chaikin => chaikin(
            path,
            &ChaikinParams {
                ratio: p.ratio,
                passes: p.passes,
                closed: p.closed,
            },
        ),
        CurveMethod::AdaptiveChaikin => chaikin_adaptive(
            path,
            &AdaptiveParams {
                angle_limit: p.angle_limit.to_radians(),
                outlier_limit: p.outlier_limit.map(f64::to_radians),
                ratio: p.ratio,
                max_passes: p.passes,
            },
        ),
        CurveMethod::CatmullRom => catmull_rom(path, &p.catmull_rom_params(true)),
        CurveMethod::Fillet => fillet_path(p, path),
    }
}

/// Checks that every method runs on a navmesh (funnel and relax: the others smooth a grid
/// path); the error names the first that does not and what to use `on` (e.g. "a navmesh
/// scene") instead, plus `or` (e.g. " (or --preset)").
pub fn check_navmesh_methods(methods: &[MapMethod], on: &str, or: &str) -> anyhow::Result<()> {
    match methods
        .iter()
        .find(|m| !matches!(m, MapMethod::Funnel | MapMethod::Relax))
    {
        Some(m) => anyhow::bail!(
            "method {} needs a grid map; on {on} use funnel or relax{or}",
            m.name()
        ),
        None => Ok(()),
    }
}

/// How every method smooths, the arguments `plan` and `bench` share: the agent's radius,
/// area costs, keeping the route, the map's frame and the curve and optimiser parameters.
#[derive(Debug, Clone, Args)]
pub struct SmoothArgs {
    /// Agent radius in world units (A* on a map then avoids cells closer than this to a
    /// wall).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub radius: f64,
    /// On a map: area costs, e.g. `S=4,W=exclude`. AREA is a terrain letter of the map
    /// (`.` ground, also `G`; `S` swamp; `W` water), COST a positive number (a metre there
    /// costs COST) or `exclude` (kept out, as a wall); unnamed areas cost 1, water is
    /// excluded unless given a cost. A* minimises the cost, smoothing never raises it: the
    /// table adds each path's cost over the A* path's (`bench`: median and max; scenarios
    /// whose start or goal is excluded, or with no route left, are counted and skipped).
    /// On a layered navmesh (`plan`): Recast area ids (`1=8,2=exclude`), each method's cost
    /// noted.
    #[arg(long, value_name = "AREA=COST,...")]
    pub area_costs: Option<String>,
    /// On a map: keep the route: each method smooths within the cells the A* path touches,
    /// plus MARGIN cells around them (default 0), so no method leaves the planner's cells.
    #[arg(long, value_name = "MARGIN", num_args = 0..=1, default_missing_value = "0")]
    pub keep_route: Option<usize>,
    #[command(flatten)]
    pub frame: FrameArgs,
    #[command(flatten)]
    pub curve: CurveParams,
    #[command(flatten)]
    pub optimiser: OptimiserParams,
}

impl SmoothArgs {
    /// A pipeline for each of `methods` on `world`, with these arguments' radius, curve and
    /// optimiser parameters.
    pub fn comparison<'w, W: World>(
        &self,
        world: &'w W,
        methods: &[MapMethod],
    ) -> Result<Comparison<'w, W>> {
        Comparison::new(world, self.radius, methods, &self.curve, &self.optimiser)
    }
}

/// Where a grid map sits in world units: `--cell-size` and `--origin` (Moving AI files
/// are in cells: size 1, origin 0).
#[derive(Debug, Clone, Args)]
pub struct FrameArgs {
    /// World units per cell; paths, radii, lengths and clearances are in world units.
    #[arg(long, default_value_t = 1.0, allow_hyphen_values = true)]
    pub cell_size: f64,
    /// World position `X,Y` of the corner of cell (0, 0).
    #[arg(long, value_parser = parse_xy, default_value = "0,0", allow_hyphen_values = true)]
    pub origin: DVec2,
}

impl FrameArgs {
    /// The map placed in world units.
    pub fn world(&self, map: GridMap) -> Result<GridWorld> {
        GridWorld::with_frame(map, self.cell_size, self.origin)
    }
}

/// Parses `X,Y`.
pub fn parse_xy(s: &str) -> std::result::Result<DVec2, String> {
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
