//! The corridor step along a route on any world ([`CorridorSmoother::smooth_along`]), its
//! parameters ([`CorridorParams`]) and its result ([`CorridorPath`]).

use glam::DVec2;

use super::disks::DiskCorridor;
use super::graph::MARGIN;
use super::operators::energy;
use super::optimize::{Method, Report, Solver, SolverParams, Stop};
use super::problem::{Problem, ProblemParams};
use crate::curve::chaikin::AdaptiveParams;
use crate::error::{num, Error, Result};
use crate::map_safe::{check_adaptive, MapSafe};
use crate::navmesh::funnel::Funnel;
use crate::navmesh::portals::{portals_into, Portal};
use crate::navmesh::{ChannelScratch, TriId};
use crate::shortcut::Shortcutter;
use crate::world::{check_in_bounds, check_path_and_radius, first_problem, path_is_clear, World};

/// What the corridor smoother produced: the path, and the corridor, safe radii and solver
/// report behind it.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{CorridorParams, CorridorSmoother};
/// use pathsmooth::{GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&["........"; 4])?)?;
/// let route = [DVec2::new(0.5, 0.5), DVec2::new(7.5, 3.5)];
/// let out = CorridorSmoother::new().smooth_along(&world, &route, 0.0, &CorridorParams::default())?;
/// assert_eq!(out.safe_radii.len(), out.corridor.len());
/// assert_eq!((out.safe_radii[0], out.report.iterations), (0.0, 20));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CorridorPath {
    /// The corridor (clearance disks − r, start first, goal last, directions as asked).
    pub corridor: DiskCorridor,
    /// The radii the solver used, one per corridor disk (the safe radii of
    /// [`CorridorSmoother`]'s tube argument; 0 at the start and the goal).
    pub safe_radii: Vec<f64>,
    /// The optimised path, start to goal; valid on the world for the radius. One point per
    /// corridor disk, more where [`CorridorParams::refine`] cut corners.
    pub path: Vec<DVec2>,
    /// What the solver did.
    pub report: Report,
    /// Waypoints the check-and-repair step moved back to their centres (normally 0).
    pub repaired: usize,
}

impl CorridorPath {
    /// An empty result, for [`CorridorSmoother::smooth_along_into`] to fill.
    pub(crate) fn empty() -> Self {
        CorridorPath {
            corridor: DiskCorridor {
                centers: Vec::new(),
                radii: Vec::new(),
                start_dir: None,
                goal_dir: None,
            },
            safe_radii: Vec::new(),
            path: Vec::new(),
            report: Report {
                iterations: 0,
                energy: 0.0,
                gap: None,
                converged: true,
            },
            repaired: 0,
        }
    }
}

impl CorridorParams {
    /// Checks the parameters: the solver's ([`SolverParams::validate`]), the problem's
    /// ([`ProblemParams::validate`]), the refinement's, and `spacing` in (0, 1]
    /// ([`Error::BadParameter`] naming the first that is not). Facing directions are
    /// checked against the corridor.
    ///
    /// ```
    /// use pathsmooth::corridor::CorridorParams;
    /// assert!(CorridorParams { spacing: 0.0, ..Default::default() }.validate().is_err());
    /// assert!(CorridorParams::default().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.solver.validate()?;
        self.problem.validate()?;
        if let Some(refine) = &self.refine {
            check_adaptive(refine)?;
        }
        if !(self.spacing > 0.0 && self.spacing <= 1.0) {
            return Err(Error::param(
                "spacing",
                self.spacing,
                "a fraction of the room in (0, 1]",
            ));
        }
        Ok(())
    }
}

/// The corridor smoother's parameters.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::CorridorParams;
/// let o = CorridorParams { start_dir: Some(DVec2::X), ..Default::default() };
/// assert!(o.goal_dir.is_none());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CorridorParams {
    /// The optimiser's parameters. The default solves by ADMM ([`Method::ADMM`]), not the
    /// solver's default Chambolle–Pock (the corridors along real routes are long, and ADMM
    /// needs fewer iterations there), for a fixed 20 iterations, the chapter's own stopping
    /// rule, not to the solver's certified gap: the validity of a corridor path does not
    /// depend on convergence, and a fixed count costs every agent that calls it again the
    /// same. The result's energy is then not the optimum; [`Stop::Tolerance`] asks for a
    /// certified gap.
    pub solver: SolverParams,
    /// Weights and dummy-waypoint distance of the problem.
    pub problem: ProblemParams,
    /// The agent's facing direction at the start (non-zero), if any.
    pub start_dir: Option<DVec2>,
    /// The desired facing direction at the goal (non-zero), if any.
    pub goal_dir: Option<DVec2>,
    /// [`CorridorSmoother::smooth_along`] only: the optimised path's corners that still turn
    /// more than `angle_limit` are cut by adaptive Chaikin, each as deeply as the walls
    /// allow ([`MapSafe::chaikin_adaptive`]; `outlier_limit` must be `None`). One waypoint
    /// per disk is a coarse polyline where the disks are large, and where the route passes
    /// close to a corner few waypoints share the turn; the cuts make the result a smooth
    /// curve there. Cuts keep every segment's direction, so the first and last segments
    /// (and the facing directions) are unchanged. Default [`CORRIDOR_REFINE`]: π/18 rad (10°), ratio
    /// ¼, at most 8 passes; `None` returns the optimiser's waypoints as they are.
    pub refine: Option<AdaptiveParams>,
    /// [`CorridorSmoother::smooth_along`] only: how far apart the disks are, as a fraction of
    /// the room the agent has at each (its clearance − radius), in (0, 1], and never
    /// closer than twice the distance the taut route keeps off the corners. Default ½. A
    /// larger spacing gives fewer disks, so fewer waypoints share each turn round a
    /// corner.
    pub spacing: f64,
    /// [`CorridorSmoother::smooth_along`] only: solve the corridor in windows cut at the
    /// middle of every straight run of the taut route with more than 3 samples inside, each
    /// cut pinned on the route with the waypoints beside it as pinned neighbours (so the
    /// windows join along the route's direction). Not the same optimum: the chapter's
    /// length term spreads waypoints evenly along the whole path and the pinned cuts stop
    /// them sliding past, so the whole problem's energy ends above its optimum. Default
    /// false: one solve of the whole chain.
    pub windows: bool,
}

/// The default [`CorridorParams::refine`]: corners turning more than π/18 rad (10°) are cut, for up
/// to 8 passes.
pub const CORRIDOR_REFINE: AdaptiveParams = AdaptiveParams {
    angle_limit: std::f64::consts::PI / 18.0,
    outlier_limit: None,
    ratio: 0.25,
    max_passes: 8,
};

impl Default for CorridorParams {
    fn default() -> Self {
        CorridorParams {
            solver: SolverParams {
                stop: Stop::Iterations(CORRIDOR_ITERATIONS),
                method: Method::ADMM,
                ..SolverParams::default()
            },
            problem: ProblemParams::default(),
            start_dir: None,
            goal_dir: None,
            refine: Some(CORRIDOR_REFINE),
            spacing: 0.5,
            windows: false,
        }
    }
}

/// The iterations the corridor smoother runs by default ([`CorridorParams::solver`]).
pub(crate) const CORRIDOR_ITERATIONS: usize = 20;

/// Langerak's convex optimiser (Game AI Pro 3, ch. 20) smoothing a path inside a corridor of
/// disks, with a guaranteed valid result: the corridor runs along a caller's route on any
/// [`World`] ([`smooth_along`](Self::smooth_along)) or along a grid's corridor map
/// (Geraerts & Overmars 2007; [`smooth_on_grid`](Self::smooth_on_grid),
/// [`smooth_on_medial_axis`](Self::smooth_on_medial_axis)). The path is valid on the world
/// for the agent radius by construction, with a final check-and-repair step as a second
/// line of defence. The smoother keeps the optimiser's buffers and scratch
/// space, so repeated calls reuse their memory.
///
/// # Why the chapter's constraint is not enough, and what is used instead
///
/// The chapter confines each waypoint vₖ to its clearance disk Dₖ; it says nothing about
/// the segment vₖvₖ₊₁. Two points of two overlapping disks can be joined by a segment that
/// leaves D_k ∪ D_{k+1} (the union is not convex: take points near the far rims on either
/// side of the lens) and clips the wall that made the disks small there.
///
/// The fix is a *tube* argument around the segment between the **centres**. Let Sₖ =
/// [cₖ, cₖ₊₁] keep clearance ≥ mₖ from the blocked region (computed exactly with
/// [`World::segment_clearance`]). If |vₖ − cₖ| ≤ ρₖ and |vₖ₊₁ − cₖ₊₁| ≤ ρₖ₊₁, the
/// point q = (1−t)vₖ + t vₖ₊₁ is within (1−t)ρₖ + tρₖ₊₁ ≤ max(ρₖ, ρₖ₊₁) of the point
/// (1−t)cₖ + t cₖ₊₁ of Sₖ; clearance is 1-Lipschitz, so
///
/// clearance(q) ≥ mₖ − max(ρₖ, ρₖ₊₁).
///
/// The solver therefore gets **safe radii**, the simple bound ρₖ = min(mₖ₋₁, mₖ) − r − m
/// (clamped at 0; 0 at the pinned start and goal), with the margin m = max(10⁻⁶, 10³ × the
/// world's [tolerance](World::tolerance)). Then every segment of *any* path whose waypoints
/// lie in their safe disks keeps clearance ≥ r + m > 0: it neither enters nor touches the
/// blocked region (so it cannot pass a pinch vertex, and no waypoint sits on one), and it
/// keeps the agent radius. The solver's projection puts every iterate in its disks (up to
/// rounding ~1e-13 ≪ m), so validity does not depend on convergence or on the iteration
/// count. The corridor map's centre chains keep clearance ≥ r + m on every segment, so the
/// simple bound is ≥ 0, and since consecutive corridor centres are close on the medial axis
/// and every corridor step keeps clearance ≥ r + κ × its larger disk (κ = ½,
/// [`CorridorMap::corridor`](crate::corridor::CorridorMap::corridor)), the safe disks keep
/// most of the chapter's maximal clearance disks.
///
/// **Check and repair.** The result is still checked: a segment whose two waypoints lie
/// in their safe disks (give or take m/2 of rounding, one of the two radii positive, so
/// the centre segment's room was not clamped) keeps clearance ≥ r + m/2 by the argument
/// above and needs no test; any other segment is tested exactly with
/// [`World::segment_is_clear`], and every bend on pinch vertices with
/// [`World::bend_is_clear`]. A waypoint of an offending segment or bend is moved back to
/// its disk centre, and the check repeats.
/// Moving any set of waypoints to their centres keeps them in their safe disks, and the
/// centre chain itself is valid, so the repair terminates with a valid path
/// ([`CorridorPath::repaired`] counts the waypoints it moved).
///
/// # Parameters
///
/// - `radius` r ≥ 0: the agent radius; the corridor keeps clearance r (+ the margin m).
/// - [`CorridorParams`]: the solver's parameters ([`SolverParams`]: α, β, stopping rule…), the
///   problem's (bathtub weights, dummy distance) and the optional facing directions.
///
/// # Cost
///
/// The route's samples (one clearance query each) or the corridor map's query; the safe
/// radii: one exact clearance per centre and per corridor segment; the solve (O(n) per
/// iteration for n disks); and the check of the result (O(1) per segment the safe disks
/// clear, an exact test for the rest). [`CorridorSmoother`] keeps the solver's buffers
/// between queries.
///
/// # Sources
///
/// - R. Geraerts, M. Overmars, "The corridor map method: a general framework for real-time
///   high-quality path planning", Computer Animation and Virtual Worlds 18, 2007.
/// - M. Langerak, "Optimization for Smooth Paths", Game AI Pro 3, ch. 20 (2017).
///
/// # Example
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{CorridorParams, CorridorSmoother};
/// use pathsmooth::{validate, GridMap, GridWorld, World};
/// let world = GridWorld::new(GridMap::from_rows(&[
///     "............",
///     "............",
///     "....@@@@....",
///     "....@@@@....",
///     "............",
/// ])?)?;
/// let mut smoother = CorridorSmoother::new();
/// let params = CorridorParams { goal_dir: Some(DVec2::Y), ..Default::default() };
/// let (s, g) = (DVec2::new(0.5, 4.5), DVec2::new(11.5, 3.5));
/// // A planner's route, then the smoothed path along it, for an agent of radius 0.25.
/// let route = world.find_path(s, g, 0.25)?;
/// let out = smoother.smooth_along(&world, &route, 0.25, &params)?;
/// assert_eq!((out.path[0], *out.path.last().unwrap()), (s, g));
/// assert!(validate(&world, &out.path, 0.25)?.is_valid());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct CorridorSmoother {
    solver: Solver,
    /// The refinement's scratch (map-aware adaptive Chaikin), lent to each call's world.
    refiner: MapSafe,
    /// The other buffers of [`smooth_along_into`](Self::smooth_along_into).
    along: Along,
}

impl Default for CorridorSmoother {
    fn default() -> Self {
        CorridorSmoother {
            solver: Solver::default(),
            refiner: MapSafe::new(),
            along: Along::default(),
        }
    }
}

/// The buffers of a [`CorridorSmoother::smooth_along_into`] run, kept between runs: the
/// taut route's channel, portals and funnel (or the shortcutter), the route kept off the
/// walls, the samples, the problem and a window of it, the joined windows, and the
/// scratch of the repair, the reversal sweep and the refinement.
#[derive(Debug, Clone)]
struct Along {
    channel: ChannelScratch,
    triangles: Vec<TriId>,
    portals: Vec<Portal>,
    funnel: Funnel,
    shortcutter: Shortcutter,
    route: Vec<DVec2>,
    samples: Samples,
    problem: Problem,
    window: Problem,
    cuts: Vec<usize>,
    joined: Vec<DVec2>,
    bad: Vec<usize>,
    kept: Vec<DVec2>,
    refined: Vec<DVec2>,
}

impl Default for Along {
    fn default() -> Self {
        Along {
            channel: ChannelScratch::default(),
            triangles: Vec::new(),
            portals: Vec::new(),
            funnel: Funnel::new(),
            shortcutter: Shortcutter::new(),
            route: Vec::new(),
            samples: Samples::default(),
            problem: Problem::empty(),
            window: Problem::empty(),
            cuts: Vec::new(),
            joined: Vec::new(),
            bad: Vec::new(),
            kept: Vec::new(),
            refined: Vec::new(),
        }
    }
}

impl CorridorSmoother {
    /// A smoother with empty buffers.
    ///
    /// ```
    /// let _smoother = pathsmooth::corridor::CorridorSmoother::new();
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The optimiser in `corridor`, a corridor of `world` in its units whose centre chain is
    /// clear for `radius` (with the corridor map's margin): the disks' safe radii, one solve
    /// with `params`' solver and problem and facing directions, the check and repair.
    pub(super) fn smooth_in_disks<W: World + ?Sized>(
        &mut self,
        world: &W,
        mut corridor: DiskCorridor,
        radius: f64,
        params: &CorridorParams,
    ) -> Result<CorridorPath> {
        corridor.start_dir = params.start_dir;
        corridor.goal_dir = params.goal_dir;
        let mut problem = Problem::from_corridor(&corridor, &params.problem)?;
        let mut safe = Vec::with_capacity(corridor.len());
        safe_radii_into(world, &corridor.centers, radius, &mut safe);
        let lead = corridor.start_dir.is_some() as usize;
        problem.radii[lead..lead + safe.len()].copy_from_slice(&safe);
        let report = self.solver.solve(&problem, &params.solver)?;
        let mut path = problem.waypoints(self.solver.path()).to_vec();
        let bad = &mut self.along.bad;
        let repaired = repair(world, &corridor.centers, &safe, radius, &mut path, bad)?;
        Ok(CorridorPath {
            corridor,
            safe_radii: safe,
            path,
            report,
            repaired,
        })
    }

    /// Langerak's optimisation in a corridor along a caller's `route` (a path valid on
    /// `world` for `radius`, typically a planner's path): the route is first pulled taut in
    /// the channel it runs through on the world's navmesh
    /// ([`NavMesh::channel_along`](crate::navmesh::mesh::NavMesh::channel_along) and the
    /// funnel) for a radius larger by a quarter of the smallest room its interior vertices
    /// have, so it is close to the shortest path yet its corners keep off the walls and can
    /// be rounded; on a world without a navmesh it is shortcut
    /// ([`shortcut`](crate::shortcut)) for a radius larger by half that room instead (where
    /// no such sight line exists the route's own segments stay); then it is sampled (every
    /// vertex, and in between at [`CorridorParams::spacing`] times the room the agent has
    /// there, at least 1/4096 of the route's length and twice the distance the route was
    /// kept off the walls, at most [`ProblemParams::max_spacing`] or 1/8 of the length),
    /// each sample becomes a disk centre with its safe radius (the tube argument of
    /// [`CorridorSmoother`], so the result is valid on `world` whatever the solver does),
    /// and the path is optimised inside. The route is a feasible path of the problem, and
    /// the corridor hugs it, so the result stays close to the route's length; where the
    /// world leaves room, the corners are rounded. Works on any [`World`], in its units.
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) (a bad radius, a non-finite
    /// or out-of-range point, a route with fewer than 2 points, a point outside the world;
    /// a radius below the world's tolerance is taken as 0), bad parameters or facing
    /// directions, and [`Error::InvalidInputPath`] when the route is not valid.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{CorridorParams, CorridorSmoother};
    /// use pathsmooth::{is_valid, GridMap, GridWorld};
    /// let world = GridWorld::new(GridMap::from_rows(&["........", "........", "..@@@@..", "........"])?)?;
    /// let route = [DVec2::new(0.5, 3.5), DVec2::new(2.0, 2.0), DVec2::new(6.0, 2.0), DVec2::new(7.5, 3.5)];
    /// let out = CorridorSmoother::new().smooth_along(&world, &route, 0.0, &CorridorParams::default())?;
    /// assert!(is_valid(&world, &out.path, 0.0));
    /// assert_eq!((out.path[0], *out.path.last().unwrap()), (route[0], route[3]));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn smooth_along<W: World + ?Sized>(
        &mut self,
        world: &W,
        route: &[DVec2],
        radius: f64,
        params: &CorridorParams,
    ) -> Result<CorridorPath> {
        let mut out = CorridorPath::empty();
        self.smooth_along_into(world, route, radius, params, &mut out)?;
        Ok(out)
    }

    /// [`smooth_along`](Self::smooth_along) into `out`, reusing its memory and this
    /// smoother's: once both have grown, a call allocates nothing (with
    /// [`CorridorParams::windows`] off and a world whose queries do not). Errors as
    /// `smooth_along`; `out` is then unspecified.
    pub fn smooth_along_into<W: World + ?Sized>(
        &mut self,
        world: &W,
        route: &[DVec2],
        radius: f64,
        params: &CorridorParams,
        out: &mut CorridorPath,
    ) -> Result<()> {
        let radius = check_path_and_radius(world, route, 2, "corridor along a route", radius)?;
        check_in_bounds(world, route)?;
        params.validate()?;
        if !path_is_clear(world, route, radius) {
            return Err(Error::InvalidInputPath {
                reason: "the route of a corridor must be valid for the radius".into(),
            });
        }
        let a = &mut self.along;
        // Keep the route off the walls where the input allows: shortcuts with half the
        // smallest room the input's own vertices have, so no corner of the route grazes a
        // wall and every corner has room to be rounded.
        let room = route[1..route.len() - 1]
            .iter()
            .map(|&p| world.clearance(p) - radius)
            .fold(f64::INFINITY, f64::min);
        let margin = if room.is_finite() {
            0.5 * room.max(0.0)
        } else {
            0.0
        };
        // Pulled taut in its own channel where the world has a navmesh (the route of the
        // shortest path, kept a quarter of that room off the corners: measured on the
        // Moving AI maps, a quarter keeps the length within 1.5 % of the funnel's with
        // the turns as round as before; a half loses 3 %), else shortcut with half the room.
        let (route, keep_off) = if a.taut_route(world, route, radius, radius + 0.5 * margin) {
            (&a.route[..], 0.5 * margin)
        } else if margin > 0.0 {
            a.shortcutter
                .shortcut_into(world, route, radius + margin, &mut a.route)?;
            (&a.route[..], margin)
        } else {
            (route, 0.0)
        };
        // The room about each centre, queried once while sampling and shared by the corridor
        // and its safe radii.
        let samples = &mut a.samples;
        sample_route(
            world,
            route,
            radius,
            params.spacing,
            SPACING_FLOOR * keep_off,
            params.problem.max_spacing,
            samples,
        )?;
        let corridor = &mut out.corridor;
        corridor.centers.clone_from(&samples.centers);
        corridor.radii.clear();
        corridor
            .radii
            .extend(samples.room.iter().map(|&c| c.max(0.0)));
        (corridor.start_dir, corridor.goal_dir) = (params.start_dir, params.goal_dir);
        let (centers, safe) = (&samples.centers, &mut out.safe_radii);
        safe_radii_from_room(world, centers, &samples.room, radius, safe);
        // `assign_disks` takes the safe radii as they are (0 at the pinned ends already).
        let problem = &mut a.problem;
        problem.assign_disks(
            centers,
            safe,
            params.start_dir,
            params.goal_dir,
            &params.problem,
        )?;
        let lead = params.start_dir.is_some() as usize;
        a.cuts.clear();
        if params.windows {
            window_cuts(&samples.vertex_at, lead, &mut a.cuts);
        }
        let windows = (&mut a.window, &mut a.joined);
        let path = &mut out.path;
        out.report = solve_in_windows(
            &mut self.solver,
            problem,
            &a.cuts,
            &params.solver,
            windows,
            path,
        )?;
        out.repaired = repair(world, centers, safe, radius, path, &mut a.bad)?;
        drop_reversals(world, radius, path, &mut a.kept);
        if let Some(refine) = params.refine {
            // `repair` and `drop_reversals` leave the path clear (the strict test).
            self.refiner.chaikin_adaptive_of_clear_into(
                world,
                path,
                radius,
                &refine,
                &mut a.refined,
            )?;
            std::mem::swap(path, &mut a.refined);
        }
        Ok(())
    }
}

impl Along {
    /// The route pulled taut for an agent of radius `clearance` in the channel it runs
    /// through on the world's navmesh
    /// ([`NavMesh::channel_along`](crate::navmesh::mesh::NavMesh::channel_along) and the
    /// funnel), into `self.route`: the shortest path that passes every obstacle on the
    /// route's side, at `clearance` from the corners. False when the world has no navmesh,
    /// the funnel finds no room, or the result is not valid for `radius`.
    fn taut_route<W: World + ?Sized>(
        &mut self,
        world: &W,
        route: &[DVec2],
        radius: f64,
        clearance: f64,
    ) -> bool {
        let Ok(mesh) = world.navmesh() else {
            return false;
        };
        let (start, goal) = (route[0], route[route.len() - 1]);
        mesh.channel_along_into(route, &mut self.channel, &mut self.triangles)
            .and_then(|()| portals_into(mesh, &self.triangles, &mut self.portals))
            .and_then(|()| {
                let portals = &self.portals;
                self.funnel
                    .funnel_into(portals, start, goal, clearance, &mut self.route)
            })
            .is_ok()
            && path_is_clear(world, &self.route, radius)
    }
}

/// Solves `problem` in the windows between consecutive `cuts` (problem indices; see
/// [`Problem::assign_window`]) and writes the joined path without dummies into `out`; returns the
/// report (iterations summed over the windows, the largest gap, converged when every
/// window did, the whole problem's energy at the joined path). Without cuts, the whole
/// problem in one solve. `(window, joined)` is scratch.
fn solve_in_windows(
    solver: &mut Solver,
    problem: &Problem,
    cuts: &[usize],
    params: &SolverParams,
    (window, joined): (&mut Problem, &mut Vec<DVec2>),
    out: &mut Vec<DVec2>,
) -> Result<Report> {
    out.clear();
    if cuts.is_empty() {
        let report = solver.solve(problem, params)?;
        out.extend_from_slice(problem.waypoints(solver.path()));
        return Ok(report);
    }
    joined.clone_from(&problem.centers);
    let mut report = Report {
        iterations: 0,
        energy: 0.0,
        gap: None,
        converged: true,
    };
    let last = problem.len() - 1;
    let mut from = 0;
    for &to in cuts.iter().chain([&last]) {
        problem.assign_window(from, to, window);
        let r = solver.solve(window, params)?;
        report.iterations += r.iterations;
        report.converged &= r.converged;
        report.gap = match (report.gap, r.gap) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        // The waypoints beyond the cuts came along as dummies.
        let v = solver.path();
        let inner = &v[(from > 0) as usize..v.len() - (to < last) as usize];
        joined[from..=to].copy_from_slice(inner);
        from = to;
    }
    report.energy = energy(problem, joined, params.length);
    out.extend_from_slice(problem.waypoints(joined));
    Ok(report)
}

/// Consecutive disks of [`CorridorSmoother::smooth_along`] are at least this many times the
/// distance its taut route keeps off the walls apart (¼ of the room the route's vertices
/// have, 0.125 cells for a grid A* route at radius 0; ½ where the route is shortcut
/// instead), so the spacing of ½ the room does not crowd tiny disks round every corner
/// the route passes.
pub(crate) const SPACING_FLOOR: f64 = 2.0;

/// A straight run of the route needs more than this many samples inside for
/// [`CorridorParams::windows`] to cut the corridor there.
pub(crate) const WINDOW_RUN: usize = 3;

/// Where [`CorridorParams::windows`] cuts: the middle sample of every route segment with
/// more than [`WINDOW_RUN`] samples inside (`vertex_at`: the sample index of each route
/// vertex), as a problem index (`lead` dummies first). Its neighbours lie on the same
/// segment, so the windows join along the route's direction.
fn window_cuts(vertex_at: &[usize], lead: usize, out: &mut Vec<usize>) {
    out.extend(
        vertex_at
            .windows(2)
            .filter(|w| w[1] > w[0] + WINDOW_RUN)
            .map(|w| (w[0] + w[1]) / 2 + lead),
    );
}

/// The safe radii of a chain of corridor centres for an agent of radius `radius`, written
/// into `out` (0 at the first and last centre, which the problem pins): the simple bound
/// of [`CorridorSmoother`], ρₖ = min(mₖ₋₁, mₖ) − radius − margin (at least 0), with mₖ the exact
/// clearance of centre segment k ([`World::segment_clearance`], one query per segment).
///
/// The clearance along a segment is at most its ends' clearance, so between centres a
/// fraction of their room apart (as [`CorridorSmoother::smooth_along`] samples them, and as
/// the corridor map's neighbouring cells are) mₖ is close to the smaller end's clearance
/// and the safe disks keep nearly all of the room.
pub(crate) fn safe_radii_into<W: World + ?Sized>(
    world: &W,
    centers: &[DVec2],
    radius: f64,
    out: &mut Vec<f64>,
) {
    let room: Vec<f64> = centers
        .iter()
        .map(|&c| world.clearance(c) - radius)
        .collect();
    safe_radii_from_room(world, centers, &room, radius, out);
}

/// [`safe_radii_into`] with the room about each centre (its clearance − `radius`) given:
/// a segment's clearance is at most its ends', so the query may stop there.
fn safe_radii_from_room<W: World + ?Sized>(
    world: &W,
    centers: &[DVec2],
    room: &[f64],
    radius: f64,
    out: &mut Vec<f64>,
) {
    let margin = margin_of(world);
    let n = centers.len();
    let segment_room = |k: usize| {
        let cap = room[k].min(room[k + 1]) + radius;
        world.segment_clearance(centers[k], centers[k + 1], cap) - radius - margin
    };
    out.clear();
    let mut before = f64::INFINITY;
    for k in 0..n {
        let after = if k + 1 < n {
            segment_room(k)
        } else {
            f64::INFINITY
        };
        let pinned = k == 0 || k + 1 == n;
        out.push(if pinned {
            0.0
        } else {
            before.min(after).max(0.0)
        });
        before = after;
    }
}

/// Removes waypoints where the path turns back by more than 90° (tiny back-and-forth
/// steps an unconverged solve or a repaired waypoint can leave between small disks),
/// when the segment joining their neighbours is clear: the path stays valid, gets
/// shorter, and loses the reversal. Each sweep walks the path once, keeping what it does
/// not drop: O(n) segment tests per sweep, a few sweeps.
fn drop_reversals<W: World + ?Sized>(
    world: &W,
    radius: f64,
    path: &mut Vec<DVec2>,
    kept: &mut Vec<DVec2>,
) {
    loop {
        let n = path.len();
        if n < 3 {
            return;
        }
        kept.clear();
        kept.push(path[0]);
        for k in 1..n - 1 {
            let (a, v, b) = (kept[kept.len() - 1], path[k], path[k + 1]);
            let back = (v - a).dot(b - v) < 0.0 || v == a || v == b;
            // Without v, the path bends at a (after the point before it, if any) and at b
            // (before the point after it, if any).
            let drop = back
                && world.segment_is_clear(a, b, radius)
                && (kept.len() < 2 || world.bend_is_clear(kept[kept.len() - 2], a, b, radius))
                && (k + 2 >= n || world.bend_is_clear(a, b, path[k + 2], radius));
            if !drop {
                kept.push(v);
            }
        }
        kept.push(path[n - 1]);
        if kept.len() == n {
            return;
        }
        std::mem::swap(path, kept);
    }
}

/// The most disks [`CorridorSmoother::smooth_along`] samples along a route.
const MAX_ROUTE_SAMPLES: usize = 1 << 16;

/// The samples of a route: disk centres, the room the agent has at each (clearance −
/// radius), and the sample index of each route vertex.
#[derive(Debug, Clone, Default)]
struct Samples {
    centers: Vec<DVec2>,
    room: Vec<f64>,
    vertex_at: Vec<usize>,
}

/// Samples `route` for [`CorridorSmoother::smooth_along`]: every vertex (consecutive
/// duplicates once), and in between points at `spacing` times the room the agent has at
/// the last sample (clearance − radius), clamped between the larger of 1/4096 of the
/// route's length and `floor`, and `max_spacing` (default 1/8 of the length). A sample
/// is kept only when the piece from the last kept point is clear, and samples before a
/// segment's end give way until the last piece is (rounding can put a point of a segment
/// that grazes a wall a hair inside it), so the chain of samples is valid. One clearance
/// query per sample. Into `s` (its lists cleared first).
fn sample_route<W: World + ?Sized>(
    world: &W,
    route: &[DVec2],
    radius: f64,
    spacing: f64,
    floor: f64,
    max_spacing: Option<f64>,
    s: &mut Samples,
) -> Result<()> {
    let total = crate::metrics::length(route);
    if !total.is_finite() {
        return Err(Error::param("route length", total, "a finite length"));
    }
    let hi = match max_spacing {
        Some(s) if s > 0.0 && s.is_finite() => s,
        Some(s) => return Err(Error::param("max_spacing", s, "a finite spacing > 0")),
        None => (total / 8.0).max(f64::MIN_POSITIVE),
    };
    let lo = (total / 4096.0).max(floor).min(hi).max(f64::MIN_POSITIVE);
    let margin = margin_of(world);
    let room_at = |p: DVec2| world.clearance(p) - radius;
    s.centers.clear();
    s.room.clear();
    s.vertex_at.clear();
    s.centers.push(route[0]);
    s.room.push(room_at(route[0]));
    s.vertex_at.push(0);
    for w in route.windows(2) {
        let (a, b) = (w[0], w[1]);
        let d = a.distance(b);
        if d == 0.0 {
            continue;
        }
        let first = s.centers.len();
        let mut t = 0.0;
        // The last kept sample (at first `a`, the previous segment's end) and its room.
        let (mut here, mut room) = (a, s.room[first - 1]);
        loop {
            let step = (spacing * room).clamp(lo, hi);
            t += step;
            if t >= d - 0.5 * lo {
                break;
            }
            // A rounded point of a segment that grazes a wall can lie a hair inside it:
            // keep only samples whose pieces are clear, so the centre chain is valid. A
            // piece from `here` shorter than its room is clear (clearance is 1-Lipschitz),
            // so a piece `hi` shortened needs no test.
            let next = a + (b - a) * (t / d);
            let lipschitz = step < room - margin;
            if !lipschitz && !world.segment_is_clear(here, next, radius) {
                continue;
            }
            (here, room) = (next, room_at(next));
            s.centers.push(here);
            s.room.push(room);
            if s.centers.len() >= MAX_ROUTE_SAMPLES {
                return Err(Error::OutputTooLarge {
                    requested: s.centers.len() as u128 + 1,
                    cap: MAX_ROUTE_SAMPLES,
                });
            }
        }
        // The last piece too; samples of this segment give way until it is clear (the
        // segment's start, a route vertex, always is).
        while s.centers.len() > first && !world.segment_is_clear(here, b, radius) {
            s.centers.pop();
            s.room.pop();
            here = s.centers[s.centers.len() - 1];
        }
        s.centers.push(b);
        s.room.push(room_at(b));
        s.vertex_at.push(s.centers.len() - 1);
    }
    if s.centers.len() == 1 {
        let goal = route[route.len() - 1];
        s.centers.push(goal);
        s.room.push(room_at(goal));
        s.vertex_at.push(1);
    }
    Ok(())
}

/// The margin the corridor keeps above the agent radius on `world`: [`MARGIN`] in a world
/// of unit scale, growing with the world's coordinates as its tolerance does.
fn margin_of<W: World + ?Sized>(world: &W) -> f64 {
    MARGIN.max(1e3 * world.tolerance())
}

/// Whether the tube argument of [`CorridorSmoother`] proves segment `k` of `path` clear: both
/// ends within their safe disks (`safe`, from [`safe_radii_from_room`] with this
/// world's margin m) give way to rounding by m/2, and one of them is positive, so the
/// centre segment's room (≥ both) was not clamped. Then every point of the segment has
/// clearance ≥ r + m/2. O(1).
fn tube_clears(margin: f64, centers: &[DVec2], safe: &[f64], path: &[DVec2], k: usize) -> bool {
    let within = |i: usize| path[i].distance(centers[i]) <= safe[i] + 0.5 * margin;
    (safe[k] > 0.0 || safe[k + 1] > 0.0) && within(k) && within(k + 1)
}

/// The check of the path and the repair by moving waypoints back to their centres (whose
/// chain is valid); returns how many were moved. A segment the tube argument clears
/// ([`tube_clears`]; every segment of a solve, whose iterates stay in their disks) is
/// not tested again; the others are tested exactly, and every bend is.
fn repair<W: World + ?Sized>(
    world: &W,
    centers: &[DVec2],
    safe: &[f64],
    radius: f64,
    path: &mut [DVec2],
    bad: &mut Vec<usize>,
) -> Result<usize> {
    let margin = margin_of(world);
    let mut moved = 0;
    loop {
        bad.clear();
        for k in 0..path.len() - 1 {
            if !tube_clears(margin, centers, safe, path, k)
                && !world.segment_is_clear(path[k], path[k + 1], radius)
            {
                bad.extend([k, k + 1]);
            }
        }
        for k in 1..path.len() - 1 {
            if !world.bend_is_clear(path[k - 1], path[k], path[k + 1], radius) {
                bad.push(k);
            }
        }
        // Nothing wrong (the usual case): every segment and bend was just found clear.
        if bad.is_empty() {
            return Ok(moved);
        }
        bad.retain(|&k| path[k] != centers[k]);
        if bad.is_empty() {
            break;
        }
        for &k in bad.iter() {
            if path[k] != centers[k] {
                path[k] = centers[k];
                moved += 1;
            }
        }
    }
    // Only centres remain at the offending places; the corridor guarantees its centre
    // chain, so anything still wrong (a segment, or a bend on a pinch) means the corridor
    // was not from this world.
    match first_problem(world, path, radius) {
        Some((k, at)) => Err(Error::InvalidInputPath {
            reason: format!(
                "the corridor's centres are not clear for radius {} at point {k} (near ({}, {}))",
                num(radius),
                num(at.x),
                num(at.y)
            ),
        }),
        None => Ok(moved),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corridor::graph::CorridorMap;
    use crate::grid::GridMap;
    use crate::validate::is_valid;

    /// A random point in the disk (c, r), from a xorshift state.
    fn in_disk(state: &mut u64, c: DVec2, r: f64) -> DVec2 {
        let mut next = || {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            (*state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (a, s) = (next() * std::f64::consts::TAU, next().sqrt());
        c + DVec2::new(a.cos(), a.sin()) * (r * s)
    }

    /// The chapter's constraint (each waypoint in its clearance disk) lets a segment clip
    /// the corner of an L-shaped corridor; with the safe radii every sampled path is valid,
    /// and every segment the repair's tube argument clears is clear, with its ends
    /// anywhere in their safe disks grown by half the margin (on the rims included).
    #[test]
    fn waypoints_in_clearance_disks_can_clip_a_corner_but_not_in_safe_disks() {
        let map = GridMap::from_rows(&[
            "..........",
            "..........",
            "..@@@@@@@@",
            "..@@@@@@@@",
            "..@@@@@@@@",
            "..@@@@@@@@",
        ])
        .unwrap();
        let cmap = CorridorMap::build(&map);
        let world = crate::GridWorld::new(map.clone()).unwrap();
        for radius in [0.0, 0.2] {
            let c = cmap
                .corridor(DVec2::new(9.5, 1.0), DVec2::new(1.0, 5.5), radius)
                .unwrap();
            let mut safe = Vec::new();
            safe_radii_into(&world.cells(), &c.centers, radius, &mut safe);
            let mut state = 0x2545_F491_4F6C_DD1D_u64;
            let margin = margin_of(&world.cells());
            let grown: Vec<f64> = safe.iter().map(|&r| r + 0.5 * margin).collect();
            let (mut clipped, mut certified) = (0, 0);
            for _ in 0..2000 {
                let sample = |radii: &[f64], state: &mut u64| -> Vec<DVec2> {
                    let n = c.len();
                    (0..n)
                        .map(|k| {
                            let r = if k == 0 || k + 1 == n { 0.0 } else { radii[k] };
                            in_disk(state, c.centers[k], r)
                        })
                        .collect()
                };
                let chapter = sample(&c.radii, &mut state);
                clipped += !is_valid(&world, &chapter, radius) as usize;
                let ours = sample(&safe, &mut state);
                assert!(is_valid(&world, &ours, radius), "r = {radius}: {ours:?}");
                let mut loose = sample(&grown, &mut state);
                for k in (1..loose.len() - 1).step_by(2) {
                    let out = (loose[k] - c.centers[k]).normalize_or(DVec2::X);
                    loose[k] = c.centers[k] + out * grown[k];
                }
                for k in 0..loose.len() - 1 {
                    if tube_clears(margin, &c.centers, &safe, &loose, k) {
                        certified += 1;
                        let s = [loose[k], loose[k + 1]];
                        assert!(is_valid(&world.cells(), &s, radius), "r = {radius}: {s:?}");
                    }
                }
            }
            assert!(certified > 0);
            assert!(clipped > 0, "r = {radius}: no clipping path sampled");
        }
    }

    #[test]
    fn the_disk_spacing_is_a_fraction_of_the_room_and_fewer_disks_stay_valid() {
        let map = GridMap::from_rows(&[
            "................",
            "................",
            "......@@@@......",
            "......@@@@......",
            "................",
        ])
        .unwrap();
        let world = crate::GridWorld::new(map).unwrap();
        let route = world
            .find_path(DVec2::new(0.5, 3.5), DVec2::new(15.5, 2.5), 0.0)
            .unwrap();
        let mut smoother = CorridorSmoother::new();
        let mut disks = Vec::new();
        for spacing in [0.25, 0.5, 1.0] {
            let o = CorridorParams {
                spacing,
                ..Default::default()
            };
            let out = smoother.smooth_along(&world, &route, 0.0, &o).unwrap();
            assert!(is_valid(&world, &out.path, 0.0), "spacing {spacing}");
            disks.push(out.corridor.len());
        }
        assert!(disks[0] > disks[1] && disks[1] > disks[2], "{disks:?}");
        for spacing in [0.0, -1.0, 1.5, f64::NAN] {
            let o = CorridorParams {
                spacing,
                ..Default::default()
            };
            let e = smoother.smooth_along(&world, &route, 0.0, &o).unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::BadParameter {
                        name: "spacing",
                        ..
                    }
                ),
                "{spacing}: {e:?}"
            );
        }
    }

    #[test]
    fn the_repair_puts_offending_waypoints_back_on_their_centres() {
        let map = GridMap::from_rows(&["......", "......", "..@@..", "......"]).unwrap();
        let centers = [
            DVec2::new(0.5, 2.5),
            DVec2::new(1.5, 1.5),
            DVec2::new(4.5, 1.5),
            DVec2::new(5.5, 2.5),
        ];
        // A path through the wall between waypoints 1 and 2.
        let mut path = centers;
        path[1] = DVec2::new(1.5, 2.9);
        path[2] = DVec2::new(4.5, 2.9);
        let world = crate::GridWorld::new(map).unwrap();
        assert!(!is_valid(&world, &path, 0.0));
        // No safe disks: every segment is tested exactly.
        let moved = repair(
            &world.cells(),
            &centers,
            &[0.0; 4],
            0.0,
            &mut path,
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(moved, 2);
        assert_eq!(path, centers);
        assert!(is_valid(&world, &path, 0.0));
    }

    /// A centre chain that bends on a pinch (two walls meeting at a corner) is refused,
    /// not returned: each segment only touches the corner, but the bend crosses the gap.
    #[test]
    fn the_repair_refuses_centres_that_bend_on_a_pinch() {
        let world = crate::GridWorld::new(GridMap::from_rows(&[".@", "@."]).unwrap()).unwrap();
        let centers = [
            DVec2::new(0.5, 0.5),
            DVec2::new(1.0, 1.0),
            DVec2::new(1.5, 1.5),
        ];
        let cells = world.cells();
        assert!(centers
            .windows(2)
            .all(|s| cells.segment_is_clear(s[0], s[1], 0.0)));
        assert!(!cells.bend_is_clear(centers[0], centers[1], centers[2], 0.0));
        let mut path = centers;
        let err = repair(&cells, &centers, &[0.0; 3], 0.0, &mut path, &mut Vec::new()).unwrap_err();
        assert!(matches!(err, Error::InvalidInputPath { .. }), "{err}");
    }

    /// The single sweep of `drop_reversals` drops what removing one waypoint at a time
    /// (the form it replaced, quadratic in the path's length) drops, and leaves a valid
    /// path: random walks of short steps, full of reversals, about a wall with a pinch.
    #[test]
    fn dropping_reversals_in_one_sweep_matches_one_at_a_time() {
        fn one_at_a_time(world: &crate::GridWorld, radius: f64, path: &mut Vec<DVec2>) {
            loop {
                let before = path.len();
                let mut k = 1;
                while k + 1 < path.len() {
                    let (a, v, b) = (path[k - 1], path[k], path[k + 1]);
                    let back = (v - a).dot(b - v) < 0.0 || v == a || v == b;
                    let keep_bend = |i: usize, p: &[DVec2]| {
                        i == 0 || world.bend_is_clear(p[i - 1], p[i], p[i + 1], radius)
                    };
                    if back && world.segment_is_clear(a, b, radius) {
                        path.remove(k);
                        if keep_bend(k - 1, path) && (k + 1 >= path.len() || keep_bend(k, path)) {
                            continue;
                        }
                        path.insert(k, v);
                    }
                    k += 1;
                }
                if path.len() == before {
                    return;
                }
            }
        }
        let world = crate::GridWorld::new(
            GridMap::from_rows(&["......", "..@...", "...@..", "......", "......"]).unwrap(),
        )
        .unwrap();
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for radius in [0.0, 0.1] {
            for _ in 0..300 {
                let mut walk = vec![DVec2::new(0.5, 0.5)];
                for attempt in 0.. {
                    if walk.len() == 60 {
                        break;
                    }
                    let here = walk[walk.len() - 1];
                    // Tries the pinch vertex (3, 2) itself now and then (valid at radius 0).
                    let next = if attempt % 17 == 16 {
                        DVec2::new(3.0, 2.0)
                    } else {
                        in_disk(&mut state, here, 0.8)
                    };
                    let mut trial = walk.clone();
                    trial.push(next);
                    if is_valid(&world, &trial, radius) {
                        walk = trial;
                    }
                }
                let mut expected = walk.clone();
                one_at_a_time(&world, radius, &mut expected);
                let mut swept = walk.clone();
                drop_reversals(&world, radius, &mut swept, &mut Vec::new());
                assert_eq!(swept, expected);
                assert!(swept.len() < walk.len());
                assert!(is_valid(&world, &swept, radius));
            }
        }
    }

    #[test]
    fn the_default_runs_the_fixed_iteration_count() {
        assert_eq!(
            CorridorParams::default().solver.stop,
            Stop::Iterations(CORRIDOR_ITERATIONS)
        );
    }

    #[test]
    fn a_window_needs_a_run_of_more_than_three_samples() {
        assert_eq!(WINDOW_RUN, 3);
    }

    #[test]
    fn safe_radii_are_the_segments_room_less_the_radius_and_margin() -> crate::Result<()> {
        use crate::{GridMap, GridWorld};
        let world = GridWorld::new(GridMap::from_rows(&["..........."; 5])?)?;
        let x = [0.5, 3.5, 5.5, 7.5, 10.5];
        let centres: Vec<DVec2> = x.iter().map(|&x| DVec2::new(x, 2.5)).collect();
        let mut safe = Vec::new();
        safe_radii_into(&world, &centres, 0.2, &mut safe);
        assert_eq!((safe[0], safe[4]), (0.0, 0.0));
        // In the middle the full clearance 2.5 (to the top and bottom borders), less r and
        // the margin (10⁻⁶ or 10³ tolerances, here 1.1·10⁻⁵); next to the pinned ends, the
        // clearance of the segment to the end (0.5 at the end cell's centre).
        assert!((safe[2] - (2.5 - 0.2 - 1.1e-5)).abs() < 1e-12);
        assert!((safe[1] - (0.5 - 0.2 - 1.1e-5)).abs() < 1e-12);
        Ok(())
    }
}
