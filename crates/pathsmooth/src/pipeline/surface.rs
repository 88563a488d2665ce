//! The pipeline on a layered navmesh: find a path on the surface, smooth it on its sheet,
//! return it in 3D.

use std::borrow::Cow;

use glam::{DVec2, DVec3};

use super::{Pipeline, PipelineReport, Preset, Step};
use crate::area::AreaCosts;
use crate::cancel::Cancel;
use crate::error::{Error, Result};
use crate::navmesh::layered::{lift_on_sheet, PointFlags, SurfaceMesh, SurfacePoint, SurfaceQuery};
use crate::world::NavMeshWorld;

/// Plans smooth paths on a layered navmesh ([`SurfaceMesh`]): the [`Pipeline`] for
/// surfaces whose floors overlap in plan view.
///
/// A run ([`plan`](Self::plan)) takes 3D start and goal points, locates each on its floor
/// ([`SurfaceQuery::locate`]), finds the path's channel over the surface's topology, cuts
/// the [sheet](crate::navmesh::Sheet) around it (the one-floor-deep piece of the surface
/// there, a flat navmesh), and runs a [`Pipeline`] with this planner's steps on the sheet's
/// [`NavMeshWorld`]: the navmesh search (exact at radius 0, the funnel with the radius),
/// the steps, the final check at the radius. The result is lifted back to 3D by walking the
/// sheet from the start's triangle, so every point has its floor's height and its polygon
/// ([`SurfacePoint`]) and no point lands on another floor.
///
/// Everything valid on the sheet is valid on the surface (see [`Sheet`](crate::navmesh::Sheet)),
/// so the path keeps the radius from every wall of its own floor — and only its own: the
/// bridge overhead is not a wall. A flat surface gives the same path as a [`Pipeline`] on
/// its own navmesh, up to the sheet's reach ([`set_margin`](Self::set_margin)).
///
/// When the channel passes over or under itself, no flat sheet holds it: the path is
/// returned as found (exact at radius 0, the funnel with a radius), every step in the
/// report's `skipped` with that reason, once a walk over the surface
/// ([`SurfaceQuery::clearance`]) has found it keeps the radius from the walls of its floor
/// (within the mesh's tolerance); else it is [`Error::InvalidResult`].
///
/// Cost: the query, O(t log n) for the sheet's t triangles of the mesh's n (a flat
/// navmesh and its wall index are built per run), and the pipeline's steps on it.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
/// use pathsmooth::{Preset, SurfacePlanner};
/// // A 10 × 10 floor with a 2 × 6 block of wall in it, and a bridge over the block at
/// // height 3 (y up) reached by nothing: the bridge is no wall and no floor for the path.
/// let v = [
///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(10.0, 0.0, 0.0), DVec3::new(10.0, 0.0, 10.0), DVec3::new(0.0, 0.0, 10.0),
///     DVec3::new(4.0, 0.0, 2.0), DVec3::new(6.0, 0.0, 2.0), DVec3::new(6.0, 0.0, 8.0), DVec3::new(4.0, 0.0, 8.0),
///     DVec3::new(2.0, 3.0, 4.0), DVec3::new(8.0, 3.0, 4.0), DVec3::new(8.0, 3.0, 6.0), DVec3::new(2.0, 3.0, 6.0),
/// ];
/// let polygons = [
///     vec![0u32, 1, 5, 4], vec![1, 2, 6, 5], vec![2, 3, 7, 6], vec![3, 0, 4, 7], // round the block
///     vec![8, 9, 10, 11], // the bridge
/// ];
/// let mesh = SurfaceMesh::new(Surface::from_polygons(&v, &polygons, UpAxis::Y, 0.0)?)?;
/// let mut planner = SurfacePlanner::preset(0.5, Preset::Smooth)?;
/// let path = planner.plan(&mesh, DVec3::new(1.0, 0.0, 5.0), DVec3::new(9.0, 0.0, 5.0))?;
/// assert!(path.iter().all(|p| p.position.y == 0.0 && p.polygon < 4));
/// assert!(planner.report().validation.min_clearance >= 0.5);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SurfacePlanner {
    radius: f64,
    steps: Vec<Step>,
    margin: Option<f64>,
    query: SurfaceQuery,
    cancel: Option<Cancel>,
    report: PipelineReport,
    plan: Vec<DVec2>,
    path: Vec<SurfacePoint>,
    leg: Vec<SurfacePoint>,
}

impl SurfacePlanner {
    /// A planner for an agent of `radius` with no steps yet: [`plan`](Self::plan) then
    /// returns the shortest path (exact at radius 0, the funnel with a radius), checked.
    ///
    /// Errors: [`Error::BadParameter`] for a negative or non-finite radius.
    pub fn new(radius: f64) -> Result<Self> {
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(Error::param("radius", radius, "a finite number ≥ 0"));
        }
        Ok(SurfacePlanner {
            radius,
            steps: Vec::new(),
            margin: None,
            query: {
                // The planner cuts a sheet round every path's triangle channel.
                let mut query = SurfaceQuery::new();
                query.search_triangles();
                query
            },
            cancel: None,
            report: PipelineReport::default(),
            plan: Vec::new(),
            path: Vec::new(),
            leg: Vec::new(),
        })
    }

    /// A planner with a preset's steps (see [`Preset`]).
    pub fn preset(radius: f64, preset: Preset) -> Result<Self> {
        Ok(Self::new(radius)?.with_steps(preset.steps()))
    }

    /// Adds a step at the end.
    pub fn then(mut self, step: Step) -> Self {
        self.steps.push(step);
        self
    }

    /// Replaces the steps.
    pub fn with_steps(mut self, steps: impl IntoIterator<Item = Step>) -> Self {
        self.steps = steps.into_iter().collect();
        self
    }

    /// How far beyond its channel's bounding box a run's sheet reaches (plan-view world
    /// units). By default half the found path's larger extent plus twice the radius:
    /// room for shortcuts and curves, which stay near the path.
    /// Errors: [`Error::BadParameter`] unless finite and ≥ 0.
    pub fn set_margin(&mut self, margin: f64) -> Result<()> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(Error::param("margin", margin, "a finite number ≥ 0"));
        }
        self.margin = Some(margin);
        Ok(())
    }

    /// Lets runs stop early (see [`Pipeline::set_cancel`]): the sheet's build
    /// ([`SurfaceQuery::set_cancel`]) and the pipeline on it.
    pub fn set_cancel(&mut self, cancel: Option<Cancel>) {
        self.query.set_cancel(cancel.clone());
        self.cancel = cancel;
    }

    /// Sets the area-cost filter of the planner's query
    /// ([`SurfaceQuery::set_area_costs`]): each leg's path is found in the cheapest channel,
    /// and the steps smooth it on a sheet with the same costs, so no step raises the leg's
    /// cost or enters an excluded area.
    pub fn set_area_costs(&mut self, costs: AreaCosts) {
        self.query.set_area_costs(costs);
    }

    /// The query that locates the ends and finds the channel (its half-extents:
    /// [`SurfaceQuery::set_half_extents`]).
    pub fn query_mut(&mut self) -> &mut SurfaceQuery {
        &mut self.query
    }

    /// The agent radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// What the last run did (as [`Pipeline::report`]).
    pub fn report(&self) -> &PipelineReport {
        &self.report
    }

    /// A smooth path from `start` to `goal` on `mesh` (see the type's docs), each point in
    /// 3D with its polygon; the first flagged start, the last end. An end over a polygon
    /// within the climb of its floor keeps its plan-view position exactly; one off the
    /// surface is moved onto it, and [`report`](Self::report)'s `snapped` says how far.
    /// The report's `validation.length` is the path's length in 3D along the surface
    /// (`plan_length` the plan view's), its turns and clearance are in plan view, all of
    /// the path returned.
    ///
    /// Errors: those of [`SurfaceQuery::find_path`] (no floor near an end, unreachable, too
    /// close, too narrow), of [`Pipeline::plan`] on the sheet, and
    /// [`Error::InvalidResult`] when the path cannot be held on one sheet (see above).
    pub fn plan(
        &mut self,
        mesh: &SurfaceMesh,
        start: DVec3,
        goal: DVec3,
    ) -> Result<&[SurfacePoint]> {
        self.path.clear();
        self.report = PipelineReport::default();
        if let Err(e) = self
            .run(mesh, start, goal)
            .and_then(|()| self.hold_on_surface(mesh))
        {
            self.path.clear();
            return Err(e);
        }
        self.measure(mesh);
        Ok(self.path.as_slice())
    }

    fn run(&mut self, mesh: &SurfaceMesh, start: DVec3, goal: DVec3) -> Result<()> {
        self.query.find_path(mesh, start, goal, self.radius)?;
        let legs = self.query.legs().to_vec();
        if legs.len() == 1 {
            return self.run_leg(mesh);
        }
        // A route over links: each leg smoothed on its own, the links' ends kept.
        let mut report = PipelineReport::default();
        for (i, leg) in legs.iter().enumerate() {
            self.query
                .find_leg(mesh, leg.start, leg.goal, self.radius)?;
            let from = self.path.len();
            self.run_leg(mesh)?;
            let n = self.path.len();
            for (k, p) in self.path[from..].iter_mut().enumerate() {
                if k == 0 && i > 0 {
                    p.flags = (p.flags | PointFlags::LINK_END).without(PointFlags::START);
                }
                if from + k + 1 == n && i + 1 < legs.len() {
                    p.flags = (p.flags | PointFlags::LINK_START).without(PointFlags::END);
                }
            }
            let leg_report = std::mem::take(&mut self.report);
            if i == 0 {
                report = leg_report;
            } else {
                report.repaired_segments += leg_report.repaired_segments;
                report.skipped.extend(leg_report.skipped);
                report.corners.extend(leg_report.corners);
                if leg_report.validation.min_clearance < report.validation.min_clearance {
                    report.validation = leg_report.validation;
                }
            }
        }
        self.report = report;
        Ok(())
    }

    /// The last check of a path with a radius, on the surface itself: a walk from each
    /// point's polygon finds the walls of its floor near every segment
    /// ([`SurfaceQuery::clearance`]), which a sheet may have left out where its floor
    /// overlaps another in plan view (the foot of a ramp over its floor: the sheet keeps
    /// one of the two). Within the mesh's tolerance of the radius, as every check.
    ///
    /// Errors: [`Error::InvalidResult`] saying how near a wall the path comes.
    fn hold_on_surface(&mut self, mesh: &SurfaceMesh) -> Result<()> {
        if self.radius == 0.0 {
            return Ok(());
        }
        let accept = self.radius - mesh.plan_mesh().tolerance();
        let path = std::mem::take(&mut self.path);
        let clearance = self.query.clearance_of(mesh, &path, self.radius + 1.0);
        self.path = path;
        let clearance = clearance?;
        if clearance < accept {
            return Err(Error::InvalidResult {
                step: "surface plan",
                reason: format!(
                    "the path comes {} from a wall of its floor, within the radius {}",
                    crate::error::num(clearance),
                    crate::error::num(self.radius)
                ),
            });
        }
        self.report.validation.min_clearance = self.report.validation.min_clearance.min(clearance);
        Ok(())
    }

    /// The report's figures of the path returned, whichever way it was made (one sheet,
    /// legs over links, or the path as found): its length in 3D along the surface, its
    /// plan-view length beside it, its turns in plan view, and the ends moved onto the
    /// surface.
    fn measure(&mut self, mesh: &SurfaceMesh) {
        let up = mesh.surface().up();
        let plan: Vec<DVec2> = self.path.iter().map(|p| up.plan(p.position)).collect();
        let (max_turn, total_turn) = crate::metrics::max_and_total_turn(&plan);
        let v = &mut self.report.validation;
        v.length = self
            .path
            .windows(2)
            .map(|w| w[0].position.distance(w[1].position))
            .sum();
        (v.max_turn, v.total_turn) = (max_turn, total_turn);
        self.report.plan_length = crate::metrics::length(&plan);
        let [s, g] = self.query.moved();
        self.report.snapped.clear();
        for (what, d) in [("start", s), ("goal", g)] {
            if d > 0.0 {
                self.report.snapped.push((what, d));
            }
        }
    }

    /// Smooths the query's last path (one leg, no link) on its sheet, appending it.
    fn run_leg(&mut self, mesh: &SurfaceMesh) -> Result<()> {
        let [(s, s_tri), (g, g_tri)] = self
            .query
            .ends()
            .ok_or_else(|| Error::param("path", f64::NAN, "a path found"))?;
        let margin = self.margin.unwrap_or_else(|| {
            let found = self.query.plan_path();
            let (lo, hi) = found
                .iter()
                .fold((s, s), |(lo, hi), &p| (lo.min(p), hi.max(p)));
            0.5 * (hi - lo).max_element() + 2.0 * self.radius
        });
        let sheet = match self.query.sheet(mesh, margin) {
            Ok(sheet) => sheet,
            Err(Error::InvalidResult { reason, .. }) => {
                // No sheet holds a path over or under itself: the path as found (or a
                // fallback of it) if it keeps the radius from the walls of its floor by
                // the walking check.
                let clearance = self
                    .query
                    .hold_radius(mesh, self.radius)
                    .map_err(|e| match e {
                        Error::InvalidResult { step, reason: why } => Error::InvalidResult {
                            step,
                            reason: format!("{reason}, and {why}"),
                        },
                        e => e,
                    })?;
                self.path.extend_from_slice(self.query.path());
                let reason: Cow<'static, str> = Cow::Owned(reason);
                self.report.skipped = self
                    .steps
                    .iter()
                    .map(|s| (s.name(), reason.clone()))
                    .collect();
                self.report.validation.min_clearance = clearance;
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let Some(first) = sheet.sheet_triangle(s_tri) else {
            return Err(Error::InvalidResult {
                step: "surface sheet",
                reason: "the sheet lost the start of its own channel".into(),
            });
        };
        // The sheet keeps the surface's areas: the query's filter applies to its steps.
        let world = match self.query.area_costs() {
            Some(costs) => {
                NavMeshWorld::new(sheet.mesh().clone()).with_area_costs(costs.clone())?
            }
            None => NavMeshWorld::new(sheet.mesh().clone()),
        };
        let mut pipeline =
            Pipeline::new(world, self.radius)?.with_steps(self.steps.iter().cloned());
        pipeline.set_cancel(self.cancel.clone());
        let planned = pipeline.plan_into(s, g, &mut self.plan);
        self.report = pipeline.report().clone();
        planned?;
        let from = self.path.len();
        let mut leg = std::mem::take(&mut self.leg);
        let lifted = lift_on_sheet(mesh, &sheet, first, &self.plan, &mut leg);
        self.path.extend_from_slice(&leg);
        self.leg = leg;
        lifted?;
        // The walk ends on the goal's floor: in the goal's polygon or one touching it
        // (sharing a corner: vertices are per floor), the goal on their common boundary.
        let surface = mesh.surface();
        let goal_polygon = mesh.polygon_of(g_tri);
        let on_goal_floor = self.path[from..].last().is_some_and(|p| {
            let ring = surface.polygon(p.polygon);
            surface
                .polygon(goal_polygon)
                .iter()
                .any(|v| ring.contains(v))
        });
        if !on_goal_floor {
            self.path.clear();
            return Err(Error::InvalidResult {
                step: "surface plan",
                reason: "the smoothed path ends on another floor than the goal".into(),
            });
        }
        Ok(())
    }
}
