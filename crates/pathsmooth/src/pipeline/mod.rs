//! The pipeline: a world, an agent radius and a list of steps, from a planner's path (or
//! a start and a goal) to a smooth path that is valid on the world.

mod any;
mod relaxed;
mod repair;
mod stage;
mod step;
mod surface;

pub use any::AnyPipeline;
pub use step::{Preset, Step, StepNameError};

use stage::{Context, Stage};

use std::borrow::Cow;

use glam::DVec2;

use crate::area::PIPELINE_COST_TOLERANCE;
use crate::cancel::Cancel;
use crate::corridor::CorridorPath;
use crate::curve::exact::ExactCurve;
use crate::error::{num, Error, Result};
use crate::fillet::Corner;
use crate::geometry::Point2;
use crate::validate::{validate, ValidationReport};
use crate::world::{
    agent_radius, check_input, check_path_and_radius, check_world, clearance_error, path_cost,
    path_is_clear, settle, turn_at_grazed_corners, World,
};

/// How much one step may raise the path's cost, relative (the steps' local tests allow
/// 10⁻¹² per change; this bounds a step's sum of them, well within the run's
/// [`PIPELINE_COST_TOLERANCE`]).
const STEP_COST_TOLERANCE: f64 = 1e-10;

/// What the last run of a [`Pipeline`] did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PipelineReport {
    /// Input segments that were not valid for the radius and were re-planned on the world
    /// before smoothing (0 for a valid input).
    pub repaired_segments: usize,
    /// Steps that did not take effect, with the reason: a step whose result failed
    /// validation (the pipeline kept its input instead), and a step that changed nothing
    /// (the reason begins "changed nothing"). Every shell shows these.
    pub skipped: Vec<(&'static str, Cow<'static, str>)>,
    /// The validation of the returned path.
    pub validation: ValidationReport,
    /// The corners a fillet step could not give its minimum turning radius (radius below
    /// ρ, or kept sharp), with the reason; indices are in that step's input.
    pub corners: Vec<Corner>,
    /// The cost of the steps' input (the planner's or the repaired path) under the world's
    /// area costs ([`World::segment_cost`]): its length on a world without them.
    pub input_cost: f64,
    /// The cost of the returned path, computed as `input_cost`; never above it by more
    /// than [`PIPELINE_COST_TOLERANCE`](crate::area::PIPELINE_COST_TOLERANCE) (relative).
    pub cost: f64,
    /// The returned path's length in plan view. The one length a report gives is
    /// `validation.length`: the path's own length in its own space — in the plane for a
    /// 2D plan (where this is the same number), in 3D along the surface for
    /// [`plan_surface`](Pipeline::plan_surface) (where this is its plan-view length beside
    /// it).
    pub plan_length: f64,
    /// The ends [`plan_surface`](Pipeline::plan_surface) moved onto the surface
    /// because they were off it (`"start"` or `"goal"`, and how far it moved in plan
    /// view); a point over a polygon within the climb of its floor is on it and is never
    /// moved. Empty for a 2D world, which refuses ends off it.
    pub snapped: Vec<(&'static str, f64)>,
}

impl PipelineReport {
    /// Empties the report, keeping its lists' memory (a pipeline's steady-state runs
    /// allocate nothing).
    fn reset(&mut self) {
        self.repaired_segments = 0;
        self.skipped.clear();
        self.validation.clear();
        self.corners.clear();
        self.input_cost = 0.0;
        self.cost = 0.0;
        self.plan_length = 0.0;
        self.snapped.clear();
    }
}

/// The test that a path in `f64` still holds once rounded to the caller's point type.
type RoundsClear<W> = fn(&W, &[DVec2], f64) -> bool;

/// A world, an agent radius and a list of [`Step`]s: turns a planner's path into a smooth
/// path that is valid on the world for the radius, or plans one from a start and a goal.
/// It never returns an invalid path: every run ends with [`validate`](crate::validate()), and a path that
/// fails it is an error saying where and why.
///
/// **Input.** Paths are `Vec2` or `DVec2` in world units. A point outside the world's
/// bounds is [`Error::OutsideWorld`] (a path in other units, most often). A path that is
/// not valid for the radius — a grid A* path through cells next to a wall, for an agent
/// wider than half a cell — is repaired first: each stretch between valid points is
/// re-planned on the world with room for the agent (grid A* that respects the radius; the
/// navmesh's search), and only a world that cannot plan refuses it
/// ([`Error::InvalidInputPath`] naming the segment).
///
/// **Steps** run in order; each is map-aware, so a valid path stays valid. The steps that
/// re-route (funnel, relaxation, corridor) are validated after they run, and one whose
/// result fails validation is skipped and reported in [`report`](Self::report) rather than
/// returned; the others test every segment they make, and the result is validated once at
/// the end.
///
/// **Area costs.** On a world with area costs ([`World::has_area_costs`]) no step may
/// raise the path's cost ([`World::segment_cost`] summed): the steps test each change they
/// make, a step whose whole path still costs more than its input is skipped (the reason
/// gives both costs), and the run ends with [`Error::InvalidResult`] should the result cost
/// more than the steps' input by over
/// [`PIPELINE_COST_TOLERANCE`](crate::area::PIPELINE_COST_TOLERANCE). Both costs are in the
/// [report](PipelineReport::cost). Excluded areas are walls, so validity keeps paths out.
///
/// **Output** keeps clearance ≥ the radius itself (not the radius less a tolerance), in
/// the caller's point type: the final check runs on the path as returned, after the points
/// that rounding to `f32` (or the `f64` rounding of a tangent point) took into the radius
/// have been settled back out (a few units in the last place, or onto the exact centre
/// line of a passage exactly 2r wide). A `Vec2` run that still falls short retries with a
/// rounding margin, then keeps only the steps whose paths hold once rounded (the others in
/// `skipped`). Checked exactly on every Moving AI map in `tests/precision_maps.rs`.
///
/// **Memory.** The pipeline owns every scratch buffer: each step's own (its stage: the
/// shortcutter's, the map-safe smoother's, the navmesh steps' query and portals, the
/// corridor solver's, the fillet's curve) and the world's path-finding scratch
/// ([`World::Query`]), so once warmed up, `smooth_into` and `plan_into` on `DVec2` allocate
/// nothing, whatever the steps (`tests/pipeline_alloc.rs` counts each step on a grid and a
/// navmesh; the corridor step with [`CorridorParams::windows`](crate::corridor::CorridorParams::windows)
/// off, its default). Expensive per-world data (a grid's distance field, navmesh, corridor map)
/// lives in the world and is built once.
///
/// Cost: per run, an input check (one clearance test per segment), the steps' costs, and
/// one validation of the result (plus one per re-routing step).
///
/// ```
/// use glam::{DVec2, Vec2};
/// use pathsmooth::{GridWorld, Pipeline, Preset};
/// // A game's own occupancy grid: 0.5 m cells, a block of wall in the middle.
/// let rows = ["............", "............", "............", "....####....",
///             "....####....", "............", "............", "............"];
/// let world = GridWorld::from_fn(12, 8, 0.5, DVec2::ZERO, |x, y| rows[y].as_bytes()[x] == b'.')?;
/// // The game's A* path (cell centres, in metres) hugs the wall; the agent is 0.4 m wide.
/// let cells = [(1, 4), (2, 3), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2), (9, 3), (10, 3)];
/// let path: Vec<Vec2> = cells.iter().map(|&(x, y)| Vec2::new(x as f32, y as f32) * 0.5 + 0.25).collect();
/// let mut pipeline = Pipeline::preset(world, 0.4, Preset::Smooth)?;
/// let smooth = pipeline.smooth(&path)?;
/// assert!(pipeline.report().repaired_segments > 0); // re-planned with room for the agent
/// assert!(pipeline.report().validation.min_clearance >= 0.4);
/// assert_eq!((smooth[0], smooth[smooth.len() - 1]), (path[0], path[9]));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug)]
pub struct Pipeline<W: World> {
    world: W,
    radius: f64,
    steps: Vec<Step>,
    /// One per step, in the same order: the step's scratch (see `stage`).
    stages: Vec<Stage>,
    report: PipelineReport,
    /// The world's path-finding scratch: plans, the input's repair, and the steps that
    /// ask the world for a path. Boxed: a navmesh's is a kilobyte.
    query: Box<W::Query>,
    /// The path between steps, the step's output, and a re-planned piece of the input.
    a: Vec<DVec2>,
    b: Vec<DVec2>,
    piece: Vec<DVec2>,
    /// The steps' input, kept for a second attempt.
    input: Vec<DVec2>,
    /// Whether this is a second or third attempt (the steps start again from `input`).
    retrying: bool,
    /// In a third attempt, the test that a step's path still holds once rounded to the
    /// caller's point type (a step whose path does not is skipped, with its reason).
    rounds_clear: Option<RoundsClear<W>>,
    /// Checked between steps and handed to the steps with long loops (see `set_cancel`).
    cancel: Option<Cancel>,
    /// The most points a step may write (see `set_max_points`).
    max_points: Option<usize>,
}

impl<W: World> Pipeline<W> {
    /// A pipeline with no steps yet (add them with [`then`](Self::then)).
    ///
    /// A radius below the world's [tolerance](World::tolerance) is taken as 0 (a point
    /// agent; see [the world contract](crate::world#tolerance)); [`radius`](Self::radius)
    /// gives the radius in effect.
    ///
    /// Errors: [`Error::CoordinateOutOfRange`] for a world beyond
    /// [`max_map_coordinate`](crate::geometry::max_map_coordinate), [`Error::BadParameter`]
    /// for a world too small for its tolerance (`world size`) or a negative or non-finite
    /// radius, [`Error::NoRoom`] when the world knows that no free space has room for it.
    ///
    /// ```
    /// use pathsmooth::{Error, GridMap, GridWorld, Pipeline};
    /// let world = GridWorld::new(GridMap::from_rows(&["....", "...."])?)?;
    /// let e = Pipeline::new(&world, 0.75).unwrap_err();
    /// assert_eq!(e, Error::NoRoom { radius: 0.75, max_clearance: 0.5 });
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn new(world: W, radius: f64) -> Result<Self> {
        let pipeline = Self::without_room_check(world, radius)?;
        let radius = pipeline.radius;
        if radius > 0.0
            && let Some(max_clearance) = pipeline.world.max_clearance()
            && max_clearance < radius
        {
            return Err(Error::NoRoom {
                radius,
                max_clearance,
            });
        }
        Ok(pipeline)
    }

    /// As [`new`](Self::new) without its [`Error::NoRoom`] check: for a crowd whose
    /// world's temporary obstacles may leave no room for a radius for a while (its agents
    /// are then stuck with the reason until the obstacles go, as behind a closed door).
    pub(crate) fn without_room_check(world: W, radius: f64) -> Result<Self> {
        check_world::<W, f64>(&world)?;
        let radius = agent_radius(&world, radius)?;
        Ok(Pipeline {
            world,
            radius,
            steps: Vec::new(),
            stages: Vec::new(),
            report: PipelineReport::default(),
            query: Box::default(),
            a: Vec::new(),
            b: Vec::new(),
            piece: Vec::new(),
            input: Vec::new(),
            retrying: false,
            rounds_clear: None,
            cancel: None,
            max_points: None,
        })
    }

    /// A pipeline with a preset's steps (see [`Preset`]).
    pub fn preset(world: W, radius: f64, preset: Preset) -> Result<Self> {
        Ok(Self::new(world, radius)?.with_steps(preset.steps()))
    }

    /// Adds a step at the end.
    ///
    /// ```
    /// use pathsmooth::{GridMap, GridWorld, Pipeline, Step};
    /// let world = GridWorld::new(GridMap::from_rows(&["...."])?)?;
    /// let p = Pipeline::new(world, 0.0)?.then(Step::Shortcut).then(Step::chaikin());
    /// assert_eq!(p.steps().len(), 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn then(mut self, step: Step) -> Self {
        let mut stage = Stage::for_step(&step);
        if let Stage::Shortcut(s) = &mut stage {
            s.set_cancel(self.cancel.clone());
        }
        self.stages.push(stage);
        self.steps.push(step);
        self
    }

    /// Replaces the steps.
    pub fn with_steps(mut self, steps: impl IntoIterator<Item = Step>) -> Self {
        self.steps.clear();
        self.stages.clear();
        steps.into_iter().fold(self, Self::then)
    }

    /// Lets runs stop early: once `cancel` is cancelled (or its deadline passes), a run
    /// ends with [`Error::Cancelled`] at its next check: before each step, inside the grid
    /// search of [`plan`](Self::plan) (every 1024 cells) and inside the line-of-sight
    /// shortcuts (every 1024 tests), the loops that take seconds on long paths. The other
    /// steps run to their end once started (their work is bounded by the points they make,
    /// see [`set_max_points`](Self::set_max_points)). `None`, the default, runs every step
    /// to its end.
    ///
    /// Cost: one atomic load per check, plus a clock read when the token has a deadline.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{Cancel, Error, GridMap, GridWorld, Pipeline, Preset};
    /// let world = GridWorld::new(GridMap::from_rows(&["......", "..@@..", "......"])?)?;
    /// let mut pipeline = Pipeline::preset(&world, 0.0, Preset::Smooth)?;
    /// let cancel = Cancel::new();
    /// pipeline.set_cancel(Some(cancel.clone()));
    /// let (a, b) = (DVec2::new(0.5, 1.5), DVec2::new(5.5, 1.5));
    /// assert!(pipeline.plan(a, b).is_ok());
    /// cancel.cancel(); // from another thread, typically
    /// assert_eq!(pipeline.plan(a, b), Err(Error::Cancelled));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn set_cancel(&mut self, cancel: Option<Cancel>) {
        for stage in &mut self.stages {
            if let Stage::Shortcut(s) = stage {
                s.set_cancel(cancel.clone());
            }
        }
        self.cancel = cancel;
    }

    /// Caps the points any step may write at `max_points` (`None`, the default: only the
    /// library's own output budgets apply). A step whose output could be longer, as known
    /// from its input's length and its parameters (Chaikin's passes, Catmull-Rom's
    /// subdivisions, resampling's spacing), is refused before it runs, so nothing is
    /// allocated for it; a step whose length is known only once it ran (shortcuts, the
    /// navmesh and corridor steps, fillets) is refused after. Either way the run ends with
    /// [`Error::OutputTooLarge`] naming the cap. For a server that must answer within a
    /// memory budget; the caller's own input is not capped.
    ///
    /// Cost: per step, O(1) for the bound (O(n) for resampling, the input's length).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{curve::ChaikinParams, Error, GridMap, GridWorld, Pipeline, Step};
    /// let world = GridWorld::new(GridMap::from_rows(&["........"; 8])?)?;
    /// let steps = [Step::Chaikin(ChaikinParams { passes: 8, ..Default::default() })];
    /// let mut pipeline = Pipeline::new(&world, 0.0)?.with_steps(steps);
    /// pipeline.set_max_points(Some(1000));
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(7.5, 0.5), DVec2::new(7.5, 7.5)];
    /// // 3 points, 8 passes: up to 3 · 2⁸ = 768 points, within the cap.
    /// assert!(pipeline.smooth(&path).is_ok());
    /// let path = [path[0], path[1], DVec2::new(7.5, 3.5), path[2], DVec2::new(0.5, 7.5)];
    /// let e = pipeline.smooth(&path).unwrap_err();
    /// assert_eq!(e, Error::OutputTooLarge { requested: 5 << 8, cap: 1000 });
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn set_max_points(&mut self, max_points: Option<usize>) {
        self.max_points = max_points;
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The agent radius in effect, world units: the radius given, or 0 when it was below
    /// the world's tolerance.
    ///
    /// ```
    /// use pathsmooth::{GridMap, GridWorld, Pipeline};
    /// let world = GridWorld::new(GridMap::from_rows(&["...."])?)?;
    /// assert_eq!(Pipeline::new(&world, 1e-300)?.radius(), 0.0);
    /// assert_eq!(Pipeline::new(&world, 0.25)?.radius(), 0.25);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The world.
    pub fn world(&self) -> &W {
        &self.world
    }

    /// What the last run did (repairs, skipped steps, the final validation).
    pub fn report(&self) -> &PipelineReport {
        &self.report
    }

    /// The corridor step's result (disks, safe radii, solver report) of the last run, in
    /// world units, if it had a corridor step.
    pub fn last_corridor(&self) -> Option<&CorridorPath> {
        self.stages.iter().rev().find_map(Stage::last_corridor)
    }

    /// The exact curve (lines, arcs, clothoids) made by the last run's fillet step, if it
    /// had one: the path that step returned, before it was sampled and before any later
    /// step.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{GridMap, GridWorld, Pipeline, Step};
    /// // An L-shaped corridor, 4 cells wide: right along the top, then down.
    /// let mut rows = vec!["........."; 4];
    /// rows.extend(["@@@@@...."; 5]);
    /// let world = GridWorld::new(GridMap::from_rows(&rows)?)?;
    /// let mut pipeline = Pipeline::new(&world, 0.3)?.then(Step::Shortcut).then(Step::fillet(1.0));
    /// let path = pipeline.smooth(&[DVec2::new(0.5, 1.5), DVec2::new(6.5, 1.5), DVec2::new(6.5, 8.5)])?;
    /// let curve = pipeline.last_curve().unwrap(); // one quarter circle of radius 1
    /// assert_eq!(curve.max_curvature(), 1.0);
    /// assert!(pipeline.report().corners.is_empty());
    /// assert_eq!((path[0], path[path.len() - 1]), (curve.start(), curve.end()));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn last_curve(&self) -> Option<&ExactCurve> {
        self.stages.iter().rev().find_map(Stage::last_curve)
    }

    /// Validates any path on the pipeline's world for its radius.
    pub fn validate<P: Point2>(&self, path: &[P]) -> Result<ValidationReport> {
        validate(&self.world, path, self.radius)
    }

    /// Smooths `path` (world units) into a path valid on the world; see the type's docs.
    ///
    /// Errors: the input checks' ([`Error::EmptyPath`], [`Error::NonFinite`],
    /// [`Error::CoordinateOutOfRange`], [`Error::OutsideWorld`]; see
    /// [the world contract](crate::world#coordinates-and-input-checks)),
    /// [`Error::InvalidInputPath`] (an invalid input on a world that cannot re-plan), the
    /// re-planning's errors ([`Error::TooClose`], [`Error::Unreachable`]…), a step's own
    /// errors (bad parameters, [`Error::Unsupported`] for a step the world cannot run),
    /// and [`Error::InvalidResult`] should the final path fail validation.
    pub fn smooth<P: Point2>(&mut self, path: &[P]) -> Result<Vec<P>> {
        let mut out = Vec::new();
        self.smooth_into(path, &mut out)?;
        Ok(out)
    }

    /// [`smooth`](Self::smooth) into `out` (cleared first; left empty on error).
    pub fn smooth_into<P: Point2>(&mut self, path: &[P], out: &mut Vec<P>) -> Result<()> {
        out.clear();
        self.report.reset();
        let mut a = std::mem::take(&mut self.a);
        let result = check_input(&self.world, path, 1, "pipeline", self.radius, &mut a)
            .and_then(|_| self.repair_input(&mut a))
            .and_then(|()| {
                // The steps work in place; a second attempt starts again from their input.
                let mut input = std::mem::take(&mut self.input);
                input.clear();
                if rounding_margin::<P, _>(&self.world) > 0.0 {
                    input.extend_from_slice(&a);
                }
                let r = self.attempts(
                    out,
                    |p, a, aim| {
                        if p.retrying {
                            a.clear();
                            a.extend_from_slice(&input);
                        }
                        p.run_steps(a, aim)
                    },
                    &mut a,
                );
                self.input = input;
                r
            });
        self.a = a;
        result
    }

    /// Plans from `start` to `goal` on the world for the radius, then runs the steps. A
    /// start equal to the goal gives the one-point path `[start]` (every step keeps it).
    /// The path is found by [`World::find_path_for_run_into`] (the world's own search; a
    /// [`SurfaceWorld`](crate::SurfaceWorld) first locates each end on the one floor under
    /// it and cuts the sheet its steps run on: 3D ends go to
    /// [`plan_surface`](Self::plan_surface)).
    ///
    /// Errors: [`Error::NonFinite`] and [`Error::CoordinateOutOfRange`] for the start
    /// (point 0) or the goal (point 1), those of the world's search (outside, blocked,
    /// [`Error::TooClose`], [`Error::Unreachable`], [`Error::Unsupported`] for a world
    /// without a path finder, [`Error::OverSeveralFloors`] on a layered navmesh) and of
    /// [`smooth`](Self::smooth).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{GridMap, GridWorld, Pipeline, Preset};
    /// let world = GridWorld::new(GridMap::from_rows(&["......", "..@@..", "......"])?)?;
    /// let mut pipeline = Pipeline::preset(&world, 0.0, Preset::Shortest)?;
    /// let path = pipeline.plan(DVec2::new(0.5, 1.5), DVec2::new(5.5, 1.5))?;
    /// // Over the wall, touching its corners: start, one waypoint, goal.
    /// assert_eq!(path.len(), 3);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn plan<P: Point2>(&mut self, start: P, goal: P) -> Result<Vec<P>> {
        let mut out = Vec::new();
        self.plan_into(start, goal, &mut out)?;
        Ok(out)
    }

    /// [`plan`](Self::plan) into `out` (cleared first; left empty on error).
    pub fn plan_into<P: Point2>(&mut self, start: P, goal: P, out: &mut Vec<P>) -> Result<()> {
        self.plan_run(start, goal, out, true)
    }

    /// The run behind [`plan_into`](Self::plan_into): the path found by the world's path
    /// finder for a run ([`World::find_path_for_run_into`], which may change the world's
    /// answers to follow the path: a layered navmesh cuts its sheet) when `fresh`, else by
    /// [`World::find_path_into`] on the world as it is (a leg of a 3D plan, on the sheet
    /// the plan cut), then the steps.
    fn plan_run<P: Point2>(
        &mut self,
        start: P,
        goal: P,
        out: &mut Vec<P>,
        fresh: bool,
    ) -> Result<()> {
        out.clear();
        self.report.reset();
        check_path_and_radius(&self.world, &[start, goal], 2, "pipeline", self.radius)?;
        let mut a = std::mem::take(&mut self.a);
        let (start, goal) = (start.to_dvec2(), goal.to_dvec2());
        let result = self.attempts(
            out,
            |p, a, aim| {
                let cancel = p.cancel.as_ref();
                match (fresh, cancel) {
                    (true, _) => {
                        p.world
                            .find_path_for_run_into(start, goal, aim, cancel, &mut p.query, a)
                    }
                    (false, Some(c)) => {
                        p.world
                            .find_path_cancellable_into(start, goal, aim, c, &mut p.query, a)
                    }
                    (false, None) => p.world.find_path_into(start, goal, aim, &mut p.query, a),
                }
                .and_then(|()| p.run_steps(a, aim))
            },
            &mut a,
        );
        self.a = a;
        result
    }

    /// Runs `attempt` (which leaves its path in `a`, aiming at the radius it is given) and
    /// returns its path in the caller's point type, valid for the radius as returned.
    ///
    /// Converting to a type coarser than `f64` moves each point by up to half a unit in the
    /// last place, which can take a path built exactly at the radius inside it; `finish`
    /// settles such points (`world::settle`), which nearly always suffices. When it does
    /// not, a second attempt aims at the radius plus twice the type's rounding at the
    /// world's largest coordinate, which the conversion cannot undo; where that wider
    /// radius does not fit (a start exactly at clearance r, a passage exactly 2r wide), a
    /// third runs at the radius and skips, with the reason in the report, each step whose
    /// path does not hold once rounded. For `f64` output there is one attempt.
    fn attempts<P: Point2>(
        &mut self,
        out: &mut Vec<P>,
        mut attempt: impl FnMut(&mut Self, &mut Vec<DVec2>, f64) -> Result<()>,
        a: &mut Vec<DVec2>,
    ) -> Result<()> {
        let first = attempt(self, a, self.radius).and_then(|()| self.finish(a, out));
        let margin = rounding_margin::<P, _>(&self.world);
        if margin == 0.0 || !matches!(first, Err(Error::InvalidResult { .. })) {
            return first;
        }
        let repaired = self.report.repaired_segments;
        self.retrying = true;
        let mut again = |p: &mut Self, aim: f64| {
            p.report.reset();
            p.report.repaired_segments = repaired;
            attempt(p, a, aim).and_then(|()| p.finish(a, out))
        };
        let second = again(self, self.radius + margin);
        let result = if second.is_ok() {
            second
        } else {
            // The wider radius may not fit where the radius itself does (a start exactly
            // at clearance r, a passage exactly 2r wide): at the radius again, keeping
            // only the steps whose paths hold once rounded.
            self.rounds_clear = Some(rounds_clear::<P, W>);
            let third = again(self, self.radius);
            self.rounds_clear = None;
            // If that fails too, the first failure says most.
            third.or(first)
        };
        self.retrying = false;
        result
    }

    /// Re-plans the stretches of `path` that are not valid for the radius (see the type's
    /// docs), in place.
    fn repair_input(&mut self, path: &mut Vec<DVec2>) -> Result<()> {
        if path_is_clear(&self.world, path, self.radius) {
            return Ok(());
        }
        let mut b = std::mem::take(&mut self.b);
        let (query, piece) = (&mut self.query, &mut self.piece);
        let repaired = repair::replan_invalid(&self.world, path, self.radius, query, piece, &mut b);
        if let Ok(n) = repaired {
            std::mem::swap(path, &mut b);
            self.report.repaired_segments = n;
        }
        self.b = b;
        repaired.map(|_| ())
    }

    /// Runs every step on `path` (valid on entry), in place, aiming at radius `aim`.
    // Kept out of line: the WebAssembly build is 27 KB smaller so (the compiler's choice
    // of what to inline into the layered leg and the plan changed with small edits
    // elsewhere, and cost that much); it costs one call a plan.
    #[inline(never)]
    fn run_steps(&mut self, path: &mut Vec<DVec2>, aim: f64) -> Result<()> {
        self.stages.iter_mut().for_each(Stage::forget);
        let mut b = std::mem::take(&mut self.b);
        self.report.input_cost = path_cost(&self.world, path);
        // With area costs the path's cost is followed step by step; without, it is its
        // length, computed once at the end.
        let costs = self.world.has_area_costs();
        let mut cost = self.report.input_cost;
        let mut result = Ok(());
        for k in 0..self.steps.len() {
            let step = &self.steps[k];
            let mut cx = Context {
                world: &self.world,
                radius: aim,
                query: &mut self.query,
                corners: &mut self.report.corners,
            };
            if let Err(e) = before_step(self.cancel.as_ref(), self.max_points, step, path)
                .and_then(|()| self.stages[k].run(step, &mut cx, path, &mut b))
                .and_then(|()| after_step(self.max_points, &b))
            {
                result = Err(e);
                break;
            }
            if b == *path {
                self.report
                    .skipped
                    .push((step.name(), Cow::Borrowed(step.unchanged_reason())));
                continue;
            }
            if self
                .rounds_clear
                .is_some_and(|rounds_clear| !rounds_clear(&self.world, &b, aim))
            {
                self.report.skipped.push((
                    step.name(),
                    Cow::Borrowed("its path does not hold once rounded to the caller's point type"),
                ));
                continue;
            }
            let reason = if step.keeps_validity() {
                None
            } else {
                match validate(&self.world, &b, aim) {
                    Ok(r) if holds(&r, aim) => None,
                    // Valid but off the radius by the rounding of its computation: settled
                    // in place, or skipped if that fails.
                    Ok(r) if r.is_valid() && settle(&self.world, None, aim, &mut b).holds => None,
                    Ok(r) => Some(shortfall(&r, aim)),
                    Err(e) => Some(e.to_string()),
                }
            };
            // With area costs, a step whose path costs more than its input is skipped: the
            // planner chose its route for a reason (the steps' own tests keep this from
            // happening where they can).
            let new_cost = if costs {
                path_cost(&self.world, &b)
            } else {
                0.0
            };
            let reason = reason.or_else(|| {
                let limit = cost * (1.0 + STEP_COST_TOLERANCE);
                let costlier = costs && (new_cost > limit || new_cost.is_nan());
                costlier.then(|| {
                    format!(
                        "its path would cost {} under the area costs, more than its input's {}",
                        num(new_cost),
                        num(cost)
                    )
                })
            });
            match reason {
                None => {
                    std::mem::swap(path, &mut b);
                    cost = new_cost;
                }
                Some(reason) => self.report.skipped.push((step.name(), reason.into())),
            }
        }
        self.b = b;
        if !costs {
            cost = path_cost(&self.world, path);
        }
        if result.is_ok() {
            result = self.check_cost(cost);
        }
        result
    }

    /// The final check on cost: the steps' path costs at most its input plus
    /// [`PIPELINE_COST_TOLERANCE`] of it (each step was checked; this bounds their sum).
    fn check_cost(&mut self, cost: f64) -> Result<()> {
        let input = self.report.input_cost;
        self.report.cost = cost;
        if cost <= input * (1.0 + PIPELINE_COST_TOLERANCE) || !self.world.has_area_costs() {
            return Ok(());
        }
        Err(Error::InvalidResult {
            step: self.steps.last().map_or("input", Step::name),
            reason: format!(
                "its cost {} is above its input's {} under the area costs",
                num(cost),
                num(input)
            ),
        })
    }

    /// Converts the result to the caller's point type and validates it as returned.
    // Out of line: copied into every plan and smoothing entry of every pipeline type, it
    // made the WebAssembly build 6.4 KB larger; it costs one call a plan.
    #[inline(never)]
    fn finish<P: Point2>(&mut self, path: &[DVec2], out: &mut Vec<P>) -> Result<()> {
        out.extend(path.iter().map(|&p| P::from_dvec2(p)));
        let mut validation = validate(&self.world, out, self.radius)?;
        // Within the error of computing a clearance of the radius, or rounded into it:
        // settle the points there (see `settle`).
        let near = self.radius > 0.0
            && validation.min_clearance < self.radius + clearance_error(&self.world);
        // (At radius 0 also a path that passes a corner sticking out by a rounding error:
        // turned there.)
        if (near || !holds(&validation, self.radius))
            && (settle(&self.world, Some(path), self.radius, out).moved
                | (self.radius == 0.0 && turn_at_grazed_corners(&self.world, out)))
        {
            validation = validate(&self.world, out, self.radius)?;
        }
        if !holds(&validation, self.radius) {
            let step = self.steps.last().map_or("input", Step::name);
            let reason = shortfall(&validation, self.radius);
            out.clear();
            return Err(Error::InvalidResult { step, reason });
        }
        self.report.plan_length = validation.length;
        self.report.validation = validation;
        Ok(())
    }
}

impl<X: World> Pipeline<std::sync::Arc<X>> {
    /// Makes `world` the pipeline's, keeping its radius, steps and scratch: a crowd whose
    /// agents each walk a world of their own (the sheets of a layered navmesh) runs one
    /// pipeline a thread over all of them. The searches' scratch is not tied to a mesh
    /// (each query starts afresh), so nothing is made again. O(1): nothing at all when it
    /// is the pipeline's world already.
    pub(crate) fn use_world(&mut self, world: &std::sync::Arc<X>) {
        if !std::sync::Arc::ptr_eq(&self.world, world) {
            self.world = std::sync::Arc::clone(world);
        }
    }
}

impl<W: World> Pipeline<W> {
    /// The world's path-finding scratch, for a caller planning on the world's own
    /// search before the pipeline does (a crowd on a layered navmesh plans in 3D first).
    pub(crate) fn query_mut(&mut self) -> &mut W::Query {
        &mut self.query
    }
}

/// Whether `step` may run on `input`: not when the run is cancelled, nor when its output
/// could exceed the cap on points.
fn before_step(
    cancel: Option<&Cancel>,
    max_points: Option<usize>,
    step: &Step,
    input: &[DVec2],
) -> Result<()> {
    if let Some(cancel) = cancel {
        cancel.check()?;
    }
    if let (Some(cap), Some(requested)) = (max_points, step.max_output_len(input))
        && requested > cap as u128
    {
        return Err(Error::OutputTooLarge { requested, cap });
    }
    Ok(())
}

/// Whether a step's output `out` is within the cap on points.
fn after_step(max_points: Option<usize>, out: &[DVec2]) -> Result<()> {
    match max_points {
        Some(cap) if out.len() > cap => Err(Error::OutputTooLarge {
            requested: out.len() as u128,
            cap,
        }),
        _ => Ok(()),
    }
}

/// True when a path with this validation keeps clearance `radius` itself: valid (which
/// allows the world's tolerance, for input) and, as an output, no point closer than the
/// radius.
fn holds(validation: &ValidationReport, radius: f64) -> bool {
    validation.is_valid() && validation.min_clearance >= radius
}

/// Why a path with this validation does not hold for `radius`: the validator's problem,
/// or how far inside the radius it comes.
fn shortfall(validation: &ValidationReport, radius: f64) -> String {
    validation.problem().unwrap_or_else(|| {
        format!(
            "it comes within {} of a wall, below the radius {}",
            num(validation.min_clearance),
            num(radius)
        )
    })
}

/// Whether `path` still holds for `radius` once rounded to `P` (and settled where the
/// rounding took it into the radius). Allocates: it runs only in a third attempt.
fn rounds_clear<P: Point2, W: World>(world: &W, path: &[DVec2], radius: f64) -> bool {
    let mut rounded: Vec<P> = path.iter().map(|&p| P::from_dvec2(p)).collect();
    settle(world, Some(path), radius, &mut rounded);
    validate(world, &rounded, radius).is_ok_and(|v| holds(&v, radius))
}

/// How far a point of `world` can move when a path is returned in `P`: 0 for `f64` points
/// (the steps compute in `f64`), else twice the coarser type's unit in the last place at
/// the world's largest coordinate (rounding moves each coordinate by half of one).
fn rounding_margin<P: Point2, W: World + ?Sized>(world: &W) -> f64 {
    let eps = crate::geometry::Scalar::to_f64(<P::Scalar as num_traits::Float>::epsilon());
    if eps <= f64::EPSILON {
        0.0
    } else {
        2.0 * eps * world.bounds().max_magnitude().max(1.0)
    }
}
