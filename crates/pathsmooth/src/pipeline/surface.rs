//! The pipeline on a layered navmesh with 3D ends: find the path on the surface, smooth
//! it on its sheet, return it in 3D.

use std::borrow::Cow;
use std::sync::Arc;

use glam::DVec3;

use super::{Pipeline, PipelineReport};
use crate::area::AreaCosts;
use crate::error::{Error, Result};
use crate::navmesh::layered::lift_on_sheet;
use crate::navmesh::{PointFlags, SurfaceMesh, SurfacePoint, SurfaceQuery};
use crate::world::SurfaceWorld;

impl Pipeline<SurfaceWorld> {
    /// A smooth path from `start` to `goal` (3D points) on the world's layered navmesh,
    /// each point in 3D with its polygon; the first flagged start, the last end.
    ///
    /// The run locates each end on its floor ([`SurfaceQuery::locate`]), finds the path's
    /// channel over the surface's topology, cuts the [sheet](crate::navmesh::Sheet) around
    /// it (the one-floor-deep piece of the surface there, a flat navmesh) and makes it the
    /// world's ([`SurfaceWorld`]), and runs the pipeline on it as [`plan`](Self::plan)
    /// does: the navmesh search (exact at radius 0, the funnel with the radius), the steps,
    /// the final check at the radius. The result is lifted back to 3D by walking the sheet
    /// from the start's triangle, so every point has its floor's height and its polygon
    /// ([`SurfacePoint`]) and no point lands on another floor; last, a walk over the
    /// surface checks the radius from every wall of each point's own floor
    /// ([`SurfaceQuery::clearance`]), which a sheet may leave out where its floor overlaps
    /// another (the foot of a ramp over its floor). The bridge overhead is not a wall. A
    /// flat surface gives the same path as a pipeline on its own navmesh, up to the
    /// sheet's reach ([`SurfaceWorld::set_margin`]).
    ///
    /// On a surface with off-mesh links, each walking leg is smoothed on its own sheet and
    /// the links' ends are kept (flagged [`PointFlags::LINK_START`] and
    /// [`PointFlags::LINK_END`]). When a channel passes over or under itself, no flat sheet
    /// holds it: the path is returned as found (exact at radius 0, the funnel with a
    /// radius), every step in the report's `skipped` with that reason, once the walk over
    /// the surface has found it keeps the radius from the walls of its floor (within the
    /// mesh's tolerance); else it is [`Error::InvalidResult`].
    ///
    /// An end over a polygon within the climb of its floor keeps its plan-view position
    /// exactly; one off the surface is moved onto it, and [`report`](Self::report)'s
    /// `snapped` says how far. The report's `validation.length` is the path's length in 3D
    /// along the surface (`plan_length` the plan view's), its turns and clearance are in
    /// plan view, all of the path returned.
    ///
    /// Errors: those of [`SurfaceQuery::find_path`] (no floor near an end, unreachable,
    /// too close, too narrow), of [`plan`](Self::plan) on the sheet, and
    /// [`Error::InvalidResult`] when the path cannot be held on one sheet (see above).
    ///
    /// Cost: the query, O(t log n) for each sheet's t triangles of the mesh's n (a flat
    /// navmesh and its wall index are built per leg), and the pipeline's steps on it.
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
    /// use pathsmooth::{Error, Pipeline, Preset, SurfaceWorld};
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
    /// let mut pipeline = Pipeline::preset(SurfaceWorld::new(mesh), 0.5, Preset::Smooth)?;
    /// let path = pipeline.plan_surface(DVec3::new(1.0, 0.0, 5.0), DVec3::new(9.0, 0.0, 5.0))?;
    /// assert!(path.iter().all(|p| p.position.y == 0.0 && p.polygon < 4));
    /// assert!(pipeline.report().validation.min_clearance >= 0.5);
    /// // The same plan with 2D ends (x, z), returned in plan view: each end lies over one floor.
    /// let flat = pipeline.plan(DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0))?;
    /// assert_eq!((flat[0], flat[flat.len() - 1]), (DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0)));
    /// // Under the bridge, a 2D point lies over two floors: which one is for a 3D point to say.
    /// let e = pipeline.plan(DVec2::new(3.0, 5.0), DVec2::new(9.0, 5.0)).unwrap_err();
    /// assert_eq!(e, Error::OverSeveralFloors { what: "start", x: 3.0, y: 5.0, floors: 2 });
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn plan_surface(&mut self, start: DVec3, goal: DVec3) -> Result<&[SurfacePoint]> {
        self.report.reset();
        // The mesh is shared: a handle to it leaves the pipeline free to change.
        let mesh = Arc::clone(self.world.shared_mesh());
        let mut path = std::mem::take(&mut self.query.path);
        path.clear();
        let result = self
            .run_surface(&mesh, start, goal, &mut path)
            .and_then(|()| self.hold_on_surface(&mesh, &path));
        match result {
            Ok(()) => self.measure(&mesh, &path),
            Err(_) => path.clear(),
        }
        self.query.path = path;
        result.map(|()| self.query.path.as_slice())
    }

    /// How far beyond its channel's bounding box a plan's sheet reaches (see
    /// [`SurfaceWorld::set_margin`]). Errors: [`Error::BadParameter`] unless finite and
    /// ≥ 0.
    pub fn set_margin(&mut self, margin: f64) -> Result<()> {
        self.world.set_margin(margin)
    }

    /// Sets the area-cost filter of the layered search
    /// ([`SurfaceQuery::set_area_costs`]): each leg's path is found in the cheapest
    /// channel, and the steps smooth it on a sheet with the same costs, so no step raises
    /// the leg's cost or enters an excluded area.
    pub fn set_area_costs(&mut self, costs: AreaCosts) {
        self.query.surface.set_area_costs(costs);
    }

    /// The layered search that locates the ends and finds the channel: its last path,
    /// legs and moves.
    pub fn surface_query(&self) -> &SurfaceQuery {
        &self.query.surface
    }

    /// The layered search, to set its half-extents
    /// ([`SurfaceQuery::set_half_extents`]) or climb ([`SurfaceQuery::set_climb`]).
    pub fn surface_query_mut(&mut self) -> &mut SurfaceQuery {
        &mut self.query.surface
    }

    /// Finds the path and smooths it leg by leg into `path`, leaving the report of the
    /// legs (merged over links).
    fn run_surface(
        &mut self,
        mesh: &SurfaceMesh,
        start: DVec3,
        goal: DVec3,
        path: &mut Vec<SurfacePoint>,
    ) -> Result<()> {
        self.query.surface.set_cancel(self.cancel.clone());
        self.world.lend_costs(&mut self.query.surface);
        if self.world.plans_on_whole() {
            // One floor, no links: the whole plan mesh is the sheet, and its own search
            // finds what the layered search would (see `SurfaceWorld::plan_on_whole`).
            // Where it finds the ends unreachable the layered plan runs, for its error,
            // which names the surface's pieces (its leg's run makes the report anew).
            self.query.surface.locate_ends(mesh, start, goal)?;
            match self.run_leg(mesh, path) {
                Err(e) if SurfaceWorld::layered_says_more(&e) => path.clear(),
                result => return result,
            }
        }
        self.query
            .surface
            .find_path(mesh, start, goal, self.radius)?;
        let legs = self.query.surface.legs().to_vec();
        if legs.len() == 1 {
            return self.run_leg(mesh, path);
        }
        // A route over links: each leg smoothed on its own, the links' ends kept.
        let mut report = PipelineReport::default();
        for (i, leg) in legs.iter().enumerate() {
            self.query
                .surface
                .find_leg(mesh, leg.start, leg.goal, self.radius)?;
            let from = path.len();
            self.run_leg(mesh, path)?;
            let n = path.len();
            for (k, p) in path[from..].iter_mut().enumerate() {
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
    fn hold_on_surface(&mut self, mesh: &SurfaceMesh, path: &[SurfacePoint]) -> Result<()> {
        if self.radius == 0.0 {
            return Ok(());
        }
        let accept = self.radius - mesh.plan_mesh().tolerance();
        let clearance = self
            .query
            .surface
            .clearance_of(mesh, path, self.radius + 1.0)?;
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
    fn measure(&mut self, mesh: &SurfaceMesh, path: &[SurfacePoint]) {
        let up = mesh.surface().up();
        let mut plan = std::mem::take(&mut self.query.plan);
        plan.clear();
        plan.extend(path.iter().map(|p| up.plan(p.position)));
        let (max_turn, total_turn) = crate::metrics::max_and_total_turn(&plan);
        let v = &mut self.report.validation;
        // `+ 0.0`: a float sum starts at −0.0, so a one-point path's would print as `-0`.
        v.length = path
            .windows(2)
            .map(|w| w[0].position.distance(w[1].position))
            .sum::<f64>()
            + 0.0;
        (v.max_turn, v.total_turn) = (max_turn, total_turn);
        self.report.plan_length = crate::metrics::length(&plan);
        self.query.plan = plan;
        let [s, g] = self.query.surface.moved();
        self.report.snapped.clear();
        for (what, d) in [("start", s), ("goal", g)] {
            if d > 0.0 {
                self.report.snapped.push((what, d));
            }
        }
    }

    /// Smooths the layered search's last path (one leg, no link) on its sheet, appending
    /// it to `path`.
    fn run_leg(&mut self, mesh: &SurfaceMesh, path: &mut Vec<SurfacePoint>) -> Result<()> {
        let [(s, s_tri), (g, g_tri)] = self
            .query
            .surface
            .ends()
            .ok_or_else(|| Error::param("path", f64::NAN, "a path found"))?;
        match self.world.cut_sheet(&mut self.query.surface, self.radius) {
            Ok(()) => {}
            Err(Error::InvalidResult { reason, .. }) => {
                // No sheet holds a path over or under itself: the path as found (or a
                // fallback of it) if it keeps the radius from the walls of its floor by
                // the walking check.
                let clearance = self
                    .query
                    .surface
                    .hold_radius(mesh, self.radius)
                    .map_err(|e| match e {
                        Error::InvalidResult { step, reason: why } => Error::InvalidResult {
                            step,
                            reason: format!("{reason}, and {why}"),
                        },
                        e => e,
                    })?;
                path.extend_from_slice(self.query.surface.path());
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
        }
        let Some(first) = self
            .world
            .sheet()
            .and_then(|sheet| sheet.sheet_triangle(s_tri))
        else {
            return Err(Error::InvalidResult {
                step: "surface sheet",
                reason: "the sheet lost the start of its own channel".into(),
            });
        };
        // The pipeline's own run, on the world as it now is (its sheet): no second cut.
        let mut plan = std::mem::take(&mut self.query.plan);
        if let Err(e) = self.plan_run(s, g, &mut plan, false) {
            self.query.plan = plan;
            return Err(e);
        }
        let mut leg = std::mem::take(&mut self.query.leg);
        let lifted = match self.world.sheet() {
            Some(sheet) => lift_on_sheet(mesh, sheet, first, &plan, &mut leg),
            None => Err(Error::param("sheet", f64::NAN, "a sheet cut")),
        };
        let from = path.len();
        path.extend_from_slice(&leg);
        self.query.leg = leg;
        self.query.plan = plan;
        lifted?;
        // The walk ends on the goal's floor: in the goal's polygon or one touching it
        // (sharing a corner: vertices are per floor), the goal on their common boundary.
        let surface = mesh.surface();
        let goal_polygon = mesh.polygon_of(g_tri);
        let on_goal_floor = path[from..].last().is_some_and(|p| {
            let ring = surface.polygon(p.polygon);
            surface
                .polygon(goal_polygon)
                .iter()
                .any(|v| ring.contains(v))
        });
        if !on_goal_floor {
            path.clear();
            return Err(Error::InvalidResult {
                step: "surface plan",
                reason: "the smoothed path ends on another floor than the goal".into(),
            });
        }
        Ok(())
    }
}
