//! The smoothing methods the CLI offers, with their command-line parameters, and one place
//! that turns a method name plus parameters into a library call.

use clap::{Args, ValueEnum};
use glam::{DVec2, IVec2};
use pathsmooth::corridor::graph::CorridorMap;
use pathsmooth::corridor::plan::{CorridorPlan, CorridorPlanner, PlanOptions};
use pathsmooth::curve::catmull_rom::{catmull_rom, CatmullRomParams, Ends};
use pathsmooth::curve::chaikin::{chaikin, chaikin_adaptive, AdaptiveParams, ChaikinParams};
use pathsmooth::grid::astar::{astar, GridPath};
use pathsmooth::grid::distance::DistanceField;
use pathsmooth::grid::GridMap;
use pathsmooth::map_safe::MapSafe;
use pathsmooth::navmesh::funnel::funnel;
use pathsmooth::navmesh::mesh::{NavMesh, TriId};
use pathsmooth::navmesh::portals::{portals, Portal};
use pathsmooth::navmesh::relax::{relax, RelaxOptions};
use pathsmooth::shortcut::Shortcutter;
use pathsmooth::validate::Validator;
use pathsmooth::{Point, Result};

/// Methods that need no map: corner cutters and splines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CurveMethod {
    /// Classic multi-pass Chaikin corner cutting.
    Chaikin,
    /// Chaikin that cuts only corners sharper than --angle-limit.
    AdaptiveChaikin,
    /// Catmull-Rom spline through every point (--alpha 0 uniform, 0.5 centripetal, 1 chordal).
    CatmullRom,
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
        }
    }
}

/// Parameters of the curve methods (each method reads the ones it uses).
#[derive(Debug, Clone, Args)]
pub struct CurveParams {
    /// Chaikin passes (each roughly doubles the point count).
    #[arg(long, default_value_t = 4, allow_negative_numbers = true)]
    pub passes: u32,
    /// Chaikin cut ratio in (0, 0.5].
    #[arg(long, default_value_t = 0.25, allow_negative_numbers = true)]
    pub ratio: f64,
    /// Adaptive Chaikin: corners turning less than this many degrees are kept.
    #[arg(long, default_value_t = 30.0, allow_negative_numbers = true)]
    pub angle_limit: f64,
    /// Adaptive Chaikin: vertices turning more than this many degrees are dropped as
    /// spikes of noisy data (off unless given).
    #[arg(long, allow_negative_numbers = true)]
    pub outlier_limit: Option<f64>,
    /// Catmull-Rom: output points per segment.
    #[arg(
        long,
        default_value_t = 5,
        allow_negative_numbers = true,
        value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..)
    )]
    pub subdivisions: usize,
    /// Catmull-Rom knot parameterisation α in [0, 1].
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    pub alpha: f64,
    /// Catmull-Rom ends: doubled end points (the article's choice) or reflected phantom points.
    #[arg(long, value_enum, default_value_t = EndPolicy::Doubled)]
    pub ends: EndPolicy,
    /// Treat the path as a closed loop.
    #[arg(long)]
    pub closed: bool,
}

impl Default for CurveParams {
    fn default() -> Self {
        CurveParams {
            passes: 4,
            ratio: 0.25,
            angle_limit: 30.0,
            outlier_limit: None,
            subdivisions: 5,
            alpha: 0.5,
            ends: EndPolicy::Doubled,
            closed: false,
        }
    }
}

/// Catmull-Rom end policy on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EndPolicy {
    /// p(−1) = p(0), p(n) = p(n−1).
    Doubled,
    /// p(−1) = 2p(0) − p(1), p(n) = 2p(n−1) − p(n−2).
    Reflected,
}

/// Runs a curve method on a path of any dimension.
pub fn smooth_curve<P: Point>(method: CurveMethod, p: &CurveParams, path: &[P]) -> Result<Vec<P>> {
    match method {
        CurveMethod::Chaikin => chaikin(
            path,
            ChaikinParams {
                ratio: p.ratio,
                passes: p.passes,
                closed: p.closed,
            },
        ),
        CurveMethod::AdaptiveChaikin => chaikin_adaptive(
            path,
            AdaptiveParams {
                angle_limit: p.angle_limit.to_radians(),
                outlier_limit: p.outlier_limit.map(f64::to_radians),
                ratio: p.ratio,
                max_passes: p.passes,
            },
        ),
        CurveMethod::CatmullRom => {
            let ends = match (p.closed, p.ends) {
                (true, _) => Ends::Closed,
                (false, EndPolicy::Doubled) => Ends::Doubled,
                (false, EndPolicy::Reflected) => Ends::Reflected,
            };
            let params = CatmullRomParams::uniform(p.subdivisions)
                .with_alpha(p.alpha)
                .with_ends(ends);
            catmull_rom(path, &params)
        }
    }
}

/// Methods that plan on a grid map: A* and the post-processors run on its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MapMethod {
    /// The raw A* path through cell centres.
    Astar,
    /// Line-of-sight shortcuts of the A* path.
    Shortcut,
    /// Map-aware Chaikin on the A* path (each corner cut as deeply as the walls allow).
    Chaikin,
    /// Map-safe Catmull-Rom on the A* path.
    CatmullRom,
    /// Shortcuts, then map-aware Chaikin.
    ShortcutChaikin,
    /// Shortcuts, then map-safe Catmull-Rom.
    ShortcutCatmullRom,
    /// Navmesh of the map (constrained Delaunay), A* over its triangles, then the funnel:
    /// the shortest path through that corridor.
    Funnel,
    /// The same corridor, with nodes slid along its portal edges (portal relaxation).
    Relax,
    /// Corridor map of clearance disks, then the Chambolle–Pock path optimiser (Langerak,
    /// Game AI Pro 3 ch. 20), made valid on the map.
    Corridor,
}

impl MapMethod {
    /// Every map method, in display order.
    pub const ALL: [MapMethod; 9] = [
        MapMethod::Astar,
        MapMethod::Shortcut,
        MapMethod::Chaikin,
        MapMethod::CatmullRom,
        MapMethod::ShortcutChaikin,
        MapMethod::ShortcutCatmullRom,
        MapMethod::Funnel,
        MapMethod::Relax,
        MapMethod::Corridor,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            MapMethod::Astar => "astar",
            MapMethod::Shortcut => "shortcut",
            MapMethod::Chaikin => "chaikin",
            MapMethod::CatmullRom => "catmull-rom",
            MapMethod::ShortcutChaikin => "shortcut-chaikin",
            MapMethod::ShortcutCatmullRom => "shortcut-catmull-rom",
            MapMethod::Funnel => "funnel",
            MapMethod::Relax => "relax",
            MapMethod::Corridor => "corridor",
        }
    }
}

/// Everything a map needs once (distance field, validator, scratch buffers), reused for
/// every query on that map.
pub struct Planner<'m> {
    map: &'m GridMap,
    /// The map with cells closer than the radius to a wall blocked, when radius > 0.
    inflated: Option<GridMap>,
    validator: Validator<'m>,
    shortcutter: Shortcutter<'m>,
    map_safe: MapSafe<'m>,
    /// The navmesh of the map, built on first use by a navmesh method.
    mesh: Option<NavMesh>,
    /// The corridor map of the map, built on first use by the corridor method.
    corridor_map: Option<CorridorMap>,
    corridor_planner: CorridorPlanner,
    /// The last corridor plan, for pictures.
    last_corridor: Option<CorridorPlan>,
    radius: f64,
    curve: CurveParams,
}

/// One query's raw A* path.
pub struct Query {
    /// A* result on the (inflated) map.
    pub astar: GridPath,
}

impl<'m> Planner<'m> {
    /// Prepares `map` for an agent of `radius` (≥ 0) with the given curve parameters.
    pub fn new(map: &'m GridMap, radius: f64, curve: CurveParams) -> Result<Self> {
        if !(radius >= 0.0 && radius.is_finite()) {
            return Err(pathsmooth::Error::BadParameter {
                name: "radius",
                value: radius,
                expected: "a finite number ≥ 0",
            });
        }
        let field = DistanceField::new(map);
        // A* knows nothing of radii: plan on the map with too-close cells blocked.
        let inflated = (radius > 0.0).then(|| {
            GridMap::from_fn(map.width(), map.height(), |x, y| {
                field.cell_clearance(x as i64, y as i64) >= radius
            })
        });
        Ok(Planner {
            map,
            inflated,
            validator: Validator::with_field(map, field.clone()),
            shortcutter: Shortcutter::with_field(map, field.clone()),
            map_safe: MapSafe::with_validator(Validator::with_field(map, field)),
            mesh: None,
            corridor_map: None,
            corridor_planner: CorridorPlanner::new(),
            last_corridor: None,
            radius,
            curve,
        })
    }

    /// The validator (with the map's distance field).
    pub fn validator(&self) -> &Validator<'m> {
        &self.validator
    }

    /// Runs A* between two cells (on the inflated map when radius > 0).
    pub fn astar(&self, start: IVec2, goal: IVec2) -> Result<Query> {
        let grid = self.inflated.as_ref().unwrap_or(self.map);
        let (s, g) = (GridMap::cell_center(start), GridMap::cell_center(goal));
        // Report start/goal problems against the real map first: clearer messages.
        self.map.check_free_point(s, "start")?;
        self.map.check_free_point(g, "goal")?;
        if self.radius > 0.0 {
            for (p, what) in [(s, "start"), (g, "goal")] {
                if !grid.passable_cell(GridMap::cell_at(p).unwrap_or_default()) {
                    return Err(pathsmooth::Error::Blocked {
                        what,
                        x: p.x,
                        y: p.y,
                    });
                }
            }
        }
        Ok(Query {
            astar: astar(grid, start, goal)?,
        })
    }

    /// Runs one method on a query's A* path.
    pub fn run(&mut self, method: MapMethod, q: &Query) -> Result<Vec<DVec2>> {
        let raw = &q.astar.points;
        let curve = self.curve.clone();
        let cut = |m: CurveMethod| move |p: &[DVec2]| smooth_curve(m, &curve, p);
        match method {
            MapMethod::Astar => Ok(raw.clone()),
            MapMethod::Shortcut => self.shortcut(raw),
            MapMethod::Chaikin => self.map_chaikin(raw),
            MapMethod::CatmullRom => {
                self.map_safe
                    .smooth(raw, self.radius, cut(CurveMethod::CatmullRom))
            }
            MapMethod::ShortcutChaikin => {
                let s = self.shortcut(raw)?;
                self.map_chaikin(&s)
            }
            MapMethod::ShortcutCatmullRom => {
                let s = self.shortcut(raw)?;
                self.map_safe
                    .smooth(&s, self.radius, cut(CurveMethod::CatmullRom))
            }
            MapMethod::Funnel => {
                let (start, goal, portals) = self.portals(raw)?;
                funnel(&portals, start, goal, self.radius)
            }
            MapMethod::Relax => {
                let (start, goal, portals) = self.portals(raw)?;
                // Keep nodes at least the agent radius from the portal ends.
                let opts = RelaxOptions {
                    margin: self.radius.max(RelaxOptions::default().margin),
                    ..RelaxOptions::default()
                };
                relax(&portals, start, goal, &opts)
            }
            MapMethod::Corridor => {
                let (start, goal) = ends(raw)?;
                let cmap = match self.corridor_map.take() {
                    Some(m) => m,
                    None => CorridorMap::build(self.map),
                };
                let cmap = self.corridor_map.insert(cmap);
                let plan = self.corridor_planner.plan(
                    cmap,
                    start,
                    goal,
                    self.radius,
                    &PlanOptions::default(),
                )?;
                let path = plan.path.clone();
                self.last_corridor = Some(plan);
                Ok(path)
            }
        }
    }

    /// The corridor plan of the last `corridor` run (disks and path), if any.
    pub fn last_corridor(&self) -> Option<&CorridorPlan> {
        self.last_corridor.as_ref()
    }

    /// The navmesh of the map (built on first use).
    pub fn mesh(&mut self) -> Result<&NavMesh> {
        let mesh = match self.mesh.take() {
            Some(m) => m,
            None => NavMesh::from_grid(self.map)?,
        };
        Ok(self.mesh.insert(mesh))
    }

    /// The navmesh corridor (triangle ids) between the ends of a raw path.
    pub fn corridor(&mut self, raw: &[DVec2]) -> Result<Vec<TriId>> {
        let (start, goal) = ends(raw)?;
        self.mesh()?.find_corridor(start, goal)
    }

    fn portals(&mut self, raw: &[DVec2]) -> Result<(DVec2, DVec2, Vec<Portal>)> {
        let (start, goal) = ends(raw)?;
        let corridor = self.corridor(raw)?;
        Ok((start, goal, portals(self.mesh()?, &corridor)?))
    }

    /// Map-aware Chaikin: every corner cut as deeply as the map allows (at most --ratio).
    /// Shortcut paths go in as they are: an internal clearance margin for the shortcut
    /// step did not pay off (see the evidence in `pathsmooth::map_safe`'s docs).
    fn map_chaikin(&mut self, path: &[DVec2]) -> Result<Vec<DVec2>> {
        let params = ChaikinParams {
            ratio: self.curve.ratio,
            passes: self.curve.passes,
            closed: false,
        };
        self.map_safe.chaikin(path, self.radius, params)
    }

    fn shortcut(&mut self, raw: &[DVec2]) -> Result<Vec<DVec2>> {
        let mut out = Vec::new();
        self.shortcutter.shortcut_into(raw, self.radius, &mut out)?;
        Ok(out)
    }
}

/// First and last point of a path.
fn ends(path: &[DVec2]) -> Result<(DVec2, DVec2)> {
    match (path.first(), path.last()) {
        (Some(&s), Some(&g)) => Ok((s, g)),
        _ => Err(pathsmooth::Error::EmptyPath),
    }
}
