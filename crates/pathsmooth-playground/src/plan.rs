//! `POST /api/plan`: A* once, then one pipeline per method on its path, as `pathsmooth
//! plan` does; paths, metrics (each path's length and its `cost` under the request's
//! `area_costs`), animation samples, the steps that did not take effect.
//!
//! A plan runs in two phases, so that a shell can reserve memory between them: [`PlanJob`]
//! (the request checked, before any work), [`PlanJob::find`] (the A* path, with each
//! method's bound in points: a method whose first step would produce more than
//! [`MAX_PATH_POINTS`](limits::MAX_PATH_POINTS) is refused before anything is computed
//! for it), then [`Found::answer`] (smoothing and encoding). [`plan`] runs both.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::{DVec2, IVec2};
use pathsmooth::area::AreaCosts;
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::world::path_cost;
use pathsmooth::{num, Cancel, Error, GridWorld, World};
use serde::{Deserialize, Serialize};

use crate::areas::grid_area_costs;
use crate::compare::{bounded, ratio, Comparison, Run, Skipped};
use crate::error::{encode, quote, ApiError, PAYLOAD_TOO_LARGE};
use crate::limits;
use crate::methods::{CorridorSolver, CurveParams, MapMethod, OptimiserParams};
use crate::world::{Playground, WorldSource};

/// A plan request answered in one go (both phases, nothing reserved between them).
pub fn plan<H: Default>(
    p: &Playground<H>,
    req: PlanRequest,
    cancel: &Cancel,
) -> Result<Vec<u8>, ApiError> {
    let job = PlanJob::new(req, p.area_costs())?;
    job.check_on_map(p.size_for(job.req.world.as_deref(), job.req.map.as_deref())?)?;
    job.find(p, WorldSource::default(), cancel)?.answer(cancel)
}

/// The points of a plan's answer, see [`Found::points`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerPoints {
    /// The A* path's.
    pub raw: usize,
    /// Every method's kept in the answer together.
    pub kept: usize,
    /// The largest method's bound.
    pub largest: usize,
}

/// The body of `POST /api/plan`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    /// A `.map` file's text (or give `world`).
    pub map: Option<String>,
    /// The name of a world on offer (or give `map`).
    pub world: Option<String>,
    /// Start cell `[column, row]`, as the CLI's `--from`.
    pub start: [f64; 2],
    /// Goal cell `[column, row]`.
    pub goal: [f64; 2],
    /// Method names (default: every method).
    #[serde(default)]
    pub methods: Option<Vec<String>>,
    /// Agent radius in world units (cells).
    #[serde(default)]
    pub radius: f64,
    /// Chaikin passes.
    pub passes: Option<u32>,
    /// Chaikin cut ratio.
    pub ratio: Option<f64>,
    /// Catmull-Rom α.
    pub alpha: Option<f64>,
    /// Catmull-Rom points per segment.
    pub subdivisions: Option<usize>,
    /// The corridor optimiser's iteration: `admm` (default) or `chambolle-pock`.
    pub corridor_solver: Option<String>,
    /// The corridor optimiser's α ∈ (0, 2) (Chambolle–Pock).
    pub corridor_alpha: Option<f64>,
    /// The corridor optimiser's β > 0 (Chambolle–Pock: primal against dual steps).
    pub corridor_beta: Option<f64>,
    /// The corridor's disk spacing, a fraction of the room in (0, 1].
    pub corridor_spacing: Option<f64>,
    /// Solve the corridor in windows.
    pub corridor_windows: Option<bool>,
    /// Area costs `AREA=COST,...` as the CLI's `--area-costs` (`S=4,W=exclude`; `""`: every
    /// area 1, water excluded); absent: the server's `--area-costs`, if any.
    pub area_costs: Option<String>,
}

/// One method's result.
#[derive(Debug, Serialize)]
pub struct PathOut {
    points: Vec<[f64; 2]>,
    valid: bool,
    length: f64,
    /// The path's cost under the area costs (its length without them).
    cost: f64,
    vs_shortest: f64,
    max_turn_deg: f64,
    total_turn_deg: f64,
    min_clearance: f64,
    follow_s: f64,
    micros: f64,
    /// `[t, x, y]`: where an agent with the default limits is at time t (s).
    samples: Vec<[f64; 3]>,
    /// The corridor method's disks `[x, y, radius]` (clearance less the agent radius:
    /// where the path's points may go).
    #[serde(skip_serializing_if = "Option::is_none")]
    corridor: Option<Vec<[f64; 3]>>,
    /// The steps of the method's pipeline that did not take effect (their result failed
    /// validation, or they changed nothing), `[{"step": "relax", "reason": "…"}]`, the
    /// reasons cut to [`REASON_MAX_CHARS`](crate::compare::REASON_MAX_CHARS); empty when
    /// every step took effect. The path is then the skipped step's input.
    skipped: Vec<Skipped>,
}

/// The answer of `POST /api/plan`.
#[derive(Debug, Serialize)]
pub struct PlanResponse {
    /// World positions of the start and goal cells' centres.
    start: [f64; 2],
    goal: [f64; 2],
    radius: f64,
    /// The raw A* path every method starts from.
    astar: Vec<[f64; 2]>,
    astar_length: f64,
    /// The A* path's cost under the area costs (its length without them).
    astar_cost: f64,
    /// The area costs applied (the request's or the server's, cut to
    /// [`MAX_MESSAGE_CHARS`](limits::MAX_MESSAGE_CHARS)), `null` for none.
    area_costs: Option<String>,
    /// The shortest of the returned paths' lengths and the A* length.
    shortest: f64,
    paths: BTreeMap<String, PathOut>,
    errors: BTreeMap<String, String>,
}

/// Cell `p` (`[column, row]`), or a 400 when it is not two whole numbers. Whether it is on
/// the map is [`on_map`]'s question.
fn cell(p: [f64; 2], what: &str) -> Result<IVec2, ApiError> {
    if !p.iter().all(|v| v.fract() == 0.0) {
        return Err(ApiError::bad_request(format!(
            "{what} [{}, {}] is not a cell: give whole numbers [column, row]",
            num(p[0]),
            num(p[1])
        )));
    }
    // Saturating: a cell beyond the i32 range is off every map, which `on_map` says.
    Ok(IVec2::new(p[0] as i32, p[1] as i32))
}

/// A 400 unless cell `p` (whole numbers) is on a map of `width` × `height` cells.
fn on_map(p: [f64; 2], what: &str, (width, height): (usize, usize)) -> Result<(), ApiError> {
    let inside = p[0] >= 0.0 && p[1] >= 0.0 && p[0] < width as f64 && p[1] < height as f64;
    if inside {
        return Ok(());
    }
    Err(ApiError::bad_request(format!(
        "{what} [{}, {}] is outside the {width}×{height} map: columns run from 0 to {}, rows from 0 to {}",
        num(p[0]),
        num(p[1]),
        width.saturating_sub(1),
        height.saturating_sub(1)
    )))
}

fn parse_methods(names: Option<&[String]>) -> Result<Vec<MapMethod>, ApiError> {
    let Some(names) = names else {
        return Ok(MapMethod::ALL.to_vec());
    };
    let mut out = Vec::new();
    for n in names {
        let m = one_of("method", n, &MapMethod::ALL, |m| m.name().to_owned())?;
        if !out.contains(&m) {
            out.push(m);
        }
    }
    Ok(out)
}

/// The candidate called `name`, else a 400 naming the `what` and every known name.
fn one_of<T: Copy>(
    what: &str,
    name: &str,
    candidates: &[T],
    name_of: impl Fn(&T) -> String,
) -> Result<T, ApiError> {
    candidates
        .iter()
        .find(|c| name_of(c) == name)
        .copied()
        .ok_or_else(|| {
            let known: Vec<String> = candidates.iter().map(name_of).collect();
            ApiError::bad_request(format!(
                "unknown {what} {} (known: {})",
                quote(name),
                known.join(", ")
            ))
        })
}

/// `value` when it is within the playground's `limit` for `name`, else a 400.
fn at_most<T: PartialOrd + std::fmt::Display>(
    name: &str,
    value: T,
    limit: T,
) -> Result<T, ApiError> {
    if value > limit {
        return Err(ApiError::bad_request(format!(
            "{name} {value} is more than the playground's limit of {limit}"
        )));
    }
    Ok(value)
}

fn curve_params(r: &PlanRequest) -> Result<CurveParams, ApiError> {
    let mut c = CurveParams::default();
    if let Some(p) = r.passes {
        c.passes = at_most("passes", p, limits::MAX_PASSES)?;
    }
    if let Some(s) = r.subdivisions {
        c.subdivisions = at_most("subdivisions", s, limits::MAX_SUBDIVISIONS)?;
    }
    c.alpha = r.alpha.unwrap_or(c.alpha);
    c.ratio = r.ratio.unwrap_or(c.ratio);
    Ok(c)
}

/// Where an agent with the default limits is over time, at most
/// [`limits::MAX_SAMPLES`] samples, and its total time.
fn follow(path: &[DVec2]) -> pathsmooth::Result<(f64, Vec<[f64; 3]>)> {
    let profile = speed_profile(path, &Agent::default())?;
    let total = profile.total_time();
    let rate = if total > 0.0 {
        limits::SAMPLE_RATE.min((limits::MAX_SAMPLES - 2) as f64 / total)
    } else {
        limits::SAMPLE_RATE
    };
    let samples = profile
        .samples(rate)?
        .iter()
        .map(|s| [s.t, s.position.x, s.position.y])
        .collect();
    Ok((total, samples))
}

/// A plan request checked: what to run, from where to where. Building it reports the
/// request's parameter errors (400) before any work is reserved or done.
pub struct PlanJob {
    req: PlanRequest,
    /// The area costs to plan under, and their text (`None`: the world's own).
    costs: Option<(AreaCosts, String)>,
    methods: Vec<MapMethod>,
    curve: CurveParams,
    optimiser: OptimiserParams,
    from: IVec2,
    to: IVec2,
}

impl PlanJob {
    /// The request checked; `default_costs`: the area costs of a request that gives none.
    pub fn new(req: PlanRequest, default_costs: Option<&str>) -> Result<Self, ApiError> {
        let methods = parse_methods(req.methods.as_deref())?;
        // An empty spec is the default filter: the shared world as it is.
        let costs = match req.area_costs.as_deref().or(default_costs) {
            Some(spec) if !spec.trim().is_empty() => Some((
                grid_area_costs(spec).map_err(ApiError::bad_request)?,
                // Echoed in the answer: cut as messages are (a spec may repeat entries).
                bounded(spec, limits::MAX_MESSAGE_CHARS),
            )),
            _ => None,
        };
        let curve = curve_params(&req)?;
        let defaults = OptimiserParams::default();
        let corridor_solver = match req.corridor_solver.as_deref() {
            None => defaults.corridor_solver,
            Some(name) => one_of("corridor_solver", name, &CorridorSolver::ALL, |s| {
                s.name().to_owned()
            })?,
        };
        let optimiser = OptimiserParams {
            corridor_solver,
            corridor_alpha: req.corridor_alpha.unwrap_or(defaults.corridor_alpha),
            corridor_beta: req.corridor_beta.unwrap_or(defaults.corridor_beta),
            corridor_spacing: req.corridor_spacing.unwrap_or(defaults.corridor_spacing),
            corridor_windows: req.corridor_windows.unwrap_or(defaults.corridor_windows),
        };
        let (from, to) = (cell(req.start, "start")?, cell(req.goal, "goal")?);
        Ok(PlanJob {
            req,
            costs,
            methods,
            curve,
            optimiser,
            from,
            to,
        })
    }

    /// A 400 unless both ends are cells of the map, `size` (`None` when a map's text does
    /// not say: its parser then refuses it).
    pub fn check_on_map(&self, size: Option<(usize, usize)>) -> Result<(), ApiError> {
        if let Some(size) = size {
            on_map(self.req.start, "start", size)?;
            on_map(self.req.goal, "goal", size)?;
        }
        Ok(())
    }

    /// The estimated work (the units of the server's lanes, `Lane::for_work`) on a map of `cells`: the A* search and
    /// each method, about a pass over the cells each (the path a search finds crosses at
    /// most every cell), and the world's build when the map comes as text or the request
    /// has area costs of its own.
    pub fn work(&self, cells: usize) -> u64 {
        let builds = usize::from(self.req.map.is_some()) + usize::from(self.costs.is_some());
        (cells as u64).saturating_mul((1 + self.methods.len() + builds) as u64)
    }

    /// Finds the A* path (the server runs it on a blocking worker); `source` is where the
    /// world of the request's map comes from.
    pub fn find<H>(
        self,
        p: &Playground<H>,
        source: WorldSource<H>,
        cancel: &Cancel,
    ) -> Result<Found, ApiError> {
        let mut world = p.world_for(self.req.world.as_deref(), self.req.map.as_deref(), source)?;
        if let Some((costs, _)) = &self.costs {
            // A world of its own for these costs (the shared one keeps the default).
            let own = GridWorld::with_frame(world.map().clone(), world.cell_size(), world.origin())
                .and_then(|w| w.with_area_costs(costs.clone()))
                .map_err(ApiError::planning)?;
            world = Arc::new(own);
        }
        let (start, goal) = (world.cell_center(self.from), world.cell_center(self.to));
        let mut raw = Vec::new();
        world
            .find_path_cancellable_into(
                start,
                goal,
                self.req.radius,
                cancel,
                &mut Default::default(),
                &mut raw,
            )
            .map_err(ApiError::planning)?;
        let limits = self.methods.iter().map(|&m| self.limit(m, &raw)).collect();
        Ok(Found {
            job: self,
            world,
            start,
            goal,
            raw,
            limits,
        })
    }

    /// The most points method `m` can return from the A* path `raw`, or why it is refused
    /// before it runs: its first step (or, for `astar`, the path itself) would make more
    /// than [`limits::MAX_PATH_POINTS`]. Later steps are bounded as if they ran on `raw`
    /// (a shortcut only drops points), and re-routing steps by `raw`'s length: estimates
    /// for the memory to reserve, which the pipeline's own cap makes true.
    fn limit(&self, m: MapMethod, raw: &[DVec2]) -> Result<usize, String> {
        let n = raw.len() as u128;
        let steps = m.steps(&self.curve, &self.optimiser);
        let cap = limits::MAX_PATH_POINTS;
        let first = steps.first().map_or(Some(n), |s| s.max_output_len(raw));
        if let Some(requested) = first
            && requested > cap as u128
        {
            return Err(if steps.is_empty() {
                format!(
                    "the A* path has {n} points, more than the playground's cap of {cap} points a path"
                )
            } else {
                let e = Error::OutputTooLarge { requested, cap };
                format!("{e} (the playground's cap on the points of a path; ask for fewer passes or subdivisions, or a shorter route)")
            });
        }
        let most = steps
            .iter()
            .map(|s| s.max_output_len(raw).unwrap_or(n))
            .fold(n, u128::max);
        Ok(most.min(cap as u128) as usize)
    }
}

/// The A* path of a plan request, with the limits of its methods.
pub struct Found {
    job: PlanJob,
    world: Arc<GridWorld>,
    start: DVec2,
    goal: DVec2,
    raw: Vec<DVec2>,
    /// Per method (in the job's order): its bound in points, or why it is refused.
    limits: Vec<Result<usize, String>>,
}

impl Found {
    /// The points the answer holds at most, for the memory to reserve before
    /// [`answer`](Self::answer): the A* path's, every method's kept in the answer (at most
    /// [`limits::MAX_ANSWER_POINTS`]), and the largest method's (its working set: methods
    /// run one after the other).
    pub fn points(&self) -> AnswerPoints {
        let bounds = self.limits.iter().filter_map(|l| l.as_ref().ok());
        AnswerPoints {
            raw: self.raw.len(),
            kept: bounds.clone().sum::<usize>().min(limits::MAX_ANSWER_POINTS),
            largest: bounds.max().copied().unwrap_or(0),
        }
    }

    /// Runs one pipeline per method on the A* path, as `pathsmooth plan` does, and encodes
    /// the answer (the server: on a blocking worker). A method that fails or is refused for
    /// a limit is reported in `errors` while the others are kept; when every method is
    /// refused for a limit, the request is a 413 saying so. A cancelled run is
    /// [`ApiError::cancelled`].
    pub fn answer(self, cancel: &Cancel) -> Result<Vec<u8>, ApiError> {
        let Found {
            job,
            world,
            start,
            goal,
            raw,
            limits: method_limits,
        } = self;
        let world = &*world;
        let r = &job.req;
        let astar_length = pathsmooth::metrics::length(&raw);
        let astar_cost = path_cost(world, &raw);
        let mut paths = BTreeMap::new();
        let mut errors = BTreeMap::new();
        // The limit errors, to answer 413 when nothing else came out.
        let mut refused = Vec::new();
        let mut kept = 0usize;
        for (&m, limit) in job.methods.iter().zip(method_limits) {
            let name = m.name().to_string();
            if let Err(why) = limit {
                refused.push(format!("{name}: {why}"));
                errors.insert(name, bounded(&why, limits::MAX_MESSAGE_CHARS));
                continue;
            }
            cancel.check().map_err(ApiError::planning)?;
            // One pipeline at a time, dropped after its method: the working set is one
            // method's, as reserved.
            let mut comparison = Comparison::new(world, r.radius, &[m], &job.curve, &job.optimiser)
                .map_err(ApiError::planning)?;
            comparison.set_cancel(Some(cancel.clone()));
            comparison.set_max_points(Some(limits::MAX_PATH_POINTS));
            let Some(run) = comparison.smooth(&raw).pop() else {
                continue;
            };
            match path_out(world, run, kept) {
                Ok(out) => {
                    kept += out.points.len();
                    paths.insert(name, out);
                }
                Err(Error::Cancelled) => return Err(ApiError::planning(Error::Cancelled)),
                Err(e) => {
                    let why = e.to_string();
                    if matches!(e, Error::OutputTooLarge { .. }) {
                        refused.push(format!("{name}: {why}"));
                    }
                    errors.insert(name, bounded(&why, limits::MAX_MESSAGE_CHARS));
                }
            }
        }
        if paths.is_empty() && !refused.is_empty() && refused.len() == errors.len() {
            return Err(ApiError::new(PAYLOAD_TOO_LARGE, refused.join("; ")));
        }
        let shortest = paths
            .values()
            .map(|o| o.length)
            .fold(astar_length, f64::min);
        for out in paths.values_mut() {
            out.vs_shortest = ratio(out.length, shortest);
        }
        encode(&PlanResponse {
            start: start.to_array(),
            goal: goal.to_array(),
            radius: r.radius,
            astar: raw.iter().map(|q| q.to_array()).collect(),
            astar_length,
            astar_cost,
            area_costs: job.costs.map(|(_, spec)| spec),
            shortest,
            paths,
            errors,
        })
    }
}

/// A method's run as the answer shows it, with its speed profile; `kept` points are in
/// the answer already. Errors: the run's own, [`Error::OutputTooLarge`] for a path past
/// [`limits::MAX_PATH_POINTS`] or one that would take the answer past
/// [`limits::MAX_ANSWER_POINTS`] (checked before the speed profile is computed).
fn path_out(
    world: &GridWorld,
    run: Run<'_, '_, GridWorld>,
    kept: usize,
) -> pathsmooth::Result<PathOut> {
    let skipped = run.skipped();
    let pipeline = run.pipeline;
    let path = run.path?;
    let cap = limits::MAX_PATH_POINTS.min(limits::MAX_ANSWER_POINTS.saturating_sub(kept));
    if path.len() > cap {
        return Err(Error::OutputTooLarge {
            requested: path.len() as u128,
            cap,
        });
    }
    let micros = run.time.as_secs_f64() * 1e6;
    let v = &pipeline.report().validation;
    let (follow_s, samples) = follow(&path)?;
    let corridor = pipeline.last_corridor().map(|plan| {
        let c = &plan.corridor;
        c.centers
            .iter()
            .zip(&c.radii)
            .map(|(p, &r)| [p.x, p.y, r])
            .collect()
    });
    Ok(PathOut {
        points: path.iter().map(|q| q.to_array()).collect(),
        valid: v.is_valid(),
        length: v.length,
        cost: path_cost(world, &path),
        vs_shortest: 1.0,
        max_turn_deg: v.max_turn.to_degrees(),
        total_turn_deg: v.total_turn.to_degrees(),
        min_clearance: v.min_clearance,
        follow_s,
        micros,
        samples,
        corridor,
        skipped,
    })
}

impl PlanJob {
    /// The request.
    pub fn request(&self) -> &PlanRequest {
        &self.req
    }

    /// Whether the request plans under area costs (its own or the default): a world of
    /// its own is built for them.
    pub fn has_costs(&self) -> bool {
        self.costs.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_end_off_the_map_is_refused_with_a_short_number_and_why() {
        let e = on_map([1e300, 5.0], "start", (80, 80)).unwrap_err();
        assert_eq!(e.status(), crate::error::BAD_REQUEST);
        assert_eq!(
            e.message(),
            "start [1e300, 5] is outside the 80×80 map: columns run from 0 to 79, rows from 0 to 79"
        );
        assert!(on_map([79.0, 0.0], "goal", (80, 80)).is_ok());
        assert!(on_map([-1.0, 0.0], "goal", (80, 80)).is_err());
        let e = cell([2.5, -1e-300], "goal").unwrap_err();
        assert_eq!(
            e.message(),
            "goal [2.5, -1e-300] is not a cell: give whole numbers [column, row]"
        );
    }
}
