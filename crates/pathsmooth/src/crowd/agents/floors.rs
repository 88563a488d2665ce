//! A crowd on a layered navmesh: each agent walks the one-floor sheet round its own path.

use std::sync::Arc;

use glam::{DVec2, DVec3};

use super::push_out::{compass_way, COMPASS};
use super::{check_speed, no_agent, AgentIndex, Crowd, CrowdAgent, LinkCrossing};
use crate::crowd::{AgentPath, MovingId, MovingObstacle};
use crate::error::{Error, Result};
use crate::navmesh::{PointFlags, PolyId, SurfaceMesh, SurfacePoint};
use crate::pipeline::Pipeline;
use crate::world::{Bounds, Obstacle, ObstacleId, ObstacleWorld, World};
use crate::SurfaceWorld;

/// Agents on a layered navmesh ([`SurfaceWorld`]: floors over one another, a bridge over a
/// corridor, two storeys).
///
/// A point in plan view may lie over several floors, so an agent here is placed and sent in
/// 3D, and walks in plan view on a world of its own: the **sheet** round its path
/// ([`SurfaceWorld::sheet`]: the part of the surface one floor deep about its path, a flat
/// navmesh whose cut edges are walls), on which its moves, its repairs and the walls its
/// avoidance keeps off are all answered. What is valid on a sheet is valid on the surface,
/// so an agent never leaves its floor but by the surface itself (stairs, ramps), and its
/// [height](super::CrowdAgent::height) is that of the floor of its sheet where it stands.
/// Agents whose heights differ by the crowd's [agent height](Crowd::with_agent_height) or
/// more, one under the other, never meet; the others avoid each other as on a flat world.
/// This is Detour's crowd on a layered mesh: each agent carries its polygon (here, its
/// sheet), and neighbours are skipped by height.
///
/// On a mesh with one floor ([`SurfaceMesh::is_one_floor`](crate::navmesh::SurfaceMesh::is_one_floor))
/// every agent walks the crowd's own world, the whole plan view, and the 2D calls
/// ([`add_agent`](Crowd::add_agent), [`set_target`](Crowd::set_target)) work as on a flat
/// navmesh. On a mesh with several floors the crowd's world has no sheet: agents come in
/// through [`add_agent_on_surface`](Self::add_agent_on_surface), and a 2D target
/// ([`set_target`](Crowd::set_target)) is planned on the agent's own sheet (the floor of its
/// path there), where [`set_target_on_surface`](Self::set_target_on_surface) plans across
/// the whole surface.
///
/// A path that passes over or under itself (a ramp that climbs over its own foot, as on
/// Godot's navmesh demo level) fits on no one sheet: the agent walks it in legs, each to
/// the farthest corner of the path that a sheet holds the way to, and the update sends it
/// on once it is within its diameter of a leg's end (a new plan from where it stands,
/// counted in [`CrowdFrame::replans`](super::CrowdFrame::replans)).
///
/// **Off-mesh links** (jumps, ladders, Detour's off-mesh connections): an agent's way is
/// routed over them where they help; its path walks the first leg, to the first link's
/// entry, and within [`LINK_TRIGGER`] radii of it the update plans the rest from where the
/// link lands (that plan is its path at once) and sends the agent on its way over the
/// link ([`CrowdAgent::crossing`]): to the entry, then over the link to the landing, at its
/// speed, as Detour's crowd animates an off-mesh connection. On the way it neither follows
/// its path nor steps aside, and the others on its floor avoid it as a moving obstacle. A
/// link holds one agent at a time: the others wait at the entry until it has landed, the
/// first in index order taking it next.
///
/// **Temporary obstacles** (doors, crates) lie on one floor: [`add_obstacle`](Crowd::add_obstacle)
/// puts one on the one floor under its shape (refused where floors overlap under it),
/// [`add_obstacle_on_floor`](Self::add_obstacle_on_floor) on the floor under a 3D point
/// (see [`SurfaceWorld::add_obstacle`]). When one is added or removed, every agent whose
/// sheet reaches it is planned again on the changed mesh, from where it stands (an agent
/// it landed on moved onto the nearest floor outside it) on a new sheet; one whose way or
/// target it blocks is stuck with the reason until the next change, standing. A moving
/// obstacle added with [`add_moving_obstacle_on_floor`](Self::add_moving_obstacle_on_floor)
/// drives on one floor and is avoided by the agents on it only, and one that stops stands
/// as an obstacle on that floor; one added in plan view
/// ([`add_moving_obstacle`](Crowd::add_moving_obstacle)) is avoided by agents on every
/// floor and stands on the one floor under it (refused over several floors).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::crowd::{Avoidance, Crowd};
/// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
/// use pathsmooth::{Preset, SurfaceWorld};
/// // A floor at height 0 and a bridge at height 3 right over it (y up), each 10 × 2.
/// let v = [
///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(10.0, 0.0, 0.0), DVec3::new(10.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0),
///     DVec3::new(0.0, 3.0, 0.0), DVec3::new(10.0, 3.0, 0.0), DVec3::new(10.0, 3.0, 2.0), DVec3::new(0.0, 3.0, 2.0),
/// ];
/// let mesh = SurfaceMesh::new(Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?)?;
/// let mut crowd = Crowd::new(SurfaceWorld::new(mesh), 0.4, Preset::Smooth.steps())?
///     .with_avoidance(Some(Avoidance::default()))?;
/// // Head-on along the same line, one on the floor and one on the bridge: they never meet.
/// let a = crowd.add_agent_on_surface(DVec3::new(0.5, 0.0, 1.0), DVec3::new(9.5, 0.0, 1.0), 2.0)?;
/// let b = crowd.add_agent_on_surface(DVec3::new(9.5, 3.0, 1.0), DVec3::new(0.5, 3.0, 1.0), 2.0)?;
/// for _ in 0..300 {
///     crowd.update(1.0 / 60.0)?;
///     // Straight through each other's plan-view position: neither steps aside.
///     assert!(crowd.agents().iter().all(|a| a.agent_path().position().y == 1.0));
/// }
/// assert_eq!(crowd.agent_point(a)?, DVec3::new(9.5, 0.0, 1.0));
/// assert_eq!(crowd.agent_point(b)?, DVec3::new(0.5, 3.0, 1.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
impl Crowd<SurfaceWorld> {
    /// Adds an agent at `position` on the surface (3D, in the surface's axes) walking to
    /// `target` at `speed`: both are located on the surface as
    /// [`SurfaceQuery::find_path`](crate::navmesh::SurfaceQuery::find_path) locates its
    /// ends (the nearest polygon within the query's half-extents, a point off it moved
    /// onto it), the path found on the surface, the sheet round it cut, and the agent's
    /// path planned and smoothed on that sheet.
    ///
    /// Errors: [`Error::BadParameter`] for a speed not finite and > 0; the layered search's
    /// ([`Error::NonFinite`], [`Error::OutsideMesh`], an unreachable target);
    /// [`AgentPath::new`]'s on the sheet; [`Error::InvalidResult`] for a
    /// path over or under itself of which no sheet holds even the way to its first corner.
    /// Cost: a search on the surface, a sheet cut with its wall index (O(t log t) for its
    /// t triangles), and a plan on the sheet; for a path over itself, that again for each
    /// corner tried.
    pub fn add_agent_on_surface(
        &mut self,
        position: DVec3,
        target: DVec3,
        speed: f64,
    ) -> Result<AgentIndex> {
        self.add_on_surface(position, target, speed, 0)
    }

    /// [`add_agent_on_surface`](Self::add_agent_on_surface) for an agent of its own
    /// `radius`, as [`add_agent_with_radius`](Crowd::add_agent_with_radius).
    ///
    /// Errors: those two's.
    pub fn add_agent_on_surface_with_radius(
        &mut self,
        position: DVec3,
        target: DVec3,
        speed: f64,
        radius: f64,
    ) -> Result<AgentIndex> {
        self.add_with_radius(radius, |crowd, size| {
            crowd.add_on_surface(position, target, speed, size)
        })
    }

    /// Sends agent `agent` to `target` (3D) across the whole surface, planned now (not
    /// queued under the [plan budget](Crowd::with_plan_budget)): from the polygon it stands
    /// on, the path on the surface, a new sheet round it, and the agent's path on that
    /// sheet, which becomes the world it walks on. A target waiting to be planned is
    /// dropped.
    ///
    /// Errors: [`no agent`](Error::BadParameter) for an index out of range; those of
    /// [`add_agent_on_surface`](Self::add_agent_on_surface)'s plan; the agent unchanged.
    /// Cost: that plan's.
    pub fn set_target_on_surface(&mut self, agent: AgentIndex, target: DVec3) -> Result<()> {
        let a = self.agents.get(agent).ok_or(no_agent(agent))?;
        let here = a.agent_path.position();
        let world = self.worlds[agent].as_ref().unwrap_or(&self.world);
        let polygon = world.polygon_at(here).ok_or(Error::OutsideMesh {
            what: "agent",
            x: here.x,
            y: here.y,
        })?;
        let start = self.world.mesh().surface().up().join(here, a.floor());
        self.replan(agent, (polygon, start), target)
    }

    /// Adds a temporary obstacle on the floor under `at` (a 3D point inside its shape in
    /// plan view: [`SurfaceWorld::add_obstacle_on_floor`]) and plans again the agents
    /// whose sheets reach it (see the type's docs). Returns the obstacle and how many
    /// agent paths it blocks in plan view (as [`add_obstacle`](Crowd::add_obstacle)
    /// counts them). Remove it with [`remove_obstacle`](Crowd::remove_obstacle).
    ///
    /// Errors: [`SurfaceWorld::add_obstacle_on_floor`]'s, the crowd unchanged. Cost: the
    /// world's change, and a plan on the surface for each agent whose sheet reaches it.
    pub fn add_obstacle_on_floor(
        &mut self,
        obstacle: Obstacle,
        at: DVec3,
    ) -> Result<(ObstacleId, usize)> {
        self.add_obstacle_by(obstacle, |w, o| w.add_obstacle_on_floor(o, at))
    }

    /// [`add_moving_obstacle`](Crowd::add_moving_obstacle) on one floor: a disc that
    /// drives on the floor at height `floor` (along the surface's up axis, as
    /// [`CrowdAgent::height`](super::CrowdAgent::height)), met only by agents whose floors
    /// lie less than the crowd's [agent height](Crowd::with_agent_height) from it (a truck
    /// in the street under a bridge, which the agents on the bridge do not step aside
    /// for). While it stands it is an obstacle on the floor within the surface's climb of
    /// `floor` under its centre ([`add_obstacle_on_floor`](Self::add_obstacle_on_floor)).
    /// The game drives it, height too: [`set_moving_obstacle_floor`](Self::set_moving_obstacle_floor)
    /// as it climbs a ramp.
    ///
    /// Errors: [`Error::BadParameter`] for a `floor` that is not finite; otherwise as
    /// [`add_moving_obstacle`](Crowd::add_moving_obstacle) (a standing one's
    /// [`add_obstacle_on_floor`](Self::add_obstacle_on_floor) errors); the crowd unchanged.
    pub fn add_moving_obstacle_on_floor(
        &mut self,
        obstacle: MovingObstacle,
        floor: f64,
    ) -> Result<MovingId> {
        check_floor(floor)?;
        self.stand_on_floor = Some(Self::stand_on_floor);
        self.add_moving(obstacle, floor)
    }

    /// Sets the height of the floor a moving obstacle drives on (see
    /// [`add_moving_obstacle_on_floor`](Self::add_moving_obstacle_on_floor)); one added in
    /// plan view is then on that floor. A standing one stays where it stands until it
    /// moves again.
    ///
    /// Errors: [`Error::BadParameter`] for a `floor` that is not finite,
    /// [`Error::BadObstacle`] for an unknown handle; the crowd unchanged.
    pub fn set_moving_obstacle_floor(&mut self, id: MovingId, floor: f64) -> Result<()> {
        check_floor(floor)?;
        let k = self.moving.index(id)?;
        self.stand_on_floor = Some(Self::stand_on_floor);
        self.moving.list[k].floor = floor;
        Ok(())
    }

    /// The world's disc for moving obstacle `o` stopped on the floor at height `floor`.
    fn stand_on_floor(&mut self, o: MovingObstacle, floor: f64) -> Result<(ObstacleId, usize)> {
        let up = self.world.mesh().surface().up();
        let disk = Obstacle::Disk {
            center: o.center,
            radius: o.radius,
        };
        self.add_obstacle_on_floor(disk, up.join(o.center, floor))
    }

    /// Plans agent `agent` from `start` (its polygon and point) to `target` and makes the
    /// plan its path and world, a target waiting to be planned dropped; the agent
    /// unchanged on error.
    fn replan(&mut self, agent: AgentIndex, start: (PolyId, DVec3), target: DVec3) -> Result<()> {
        let size = self.agents[agent].size;
        let planned = self.plan_on_surface(Some(start.0), start.1, target, size)?;
        self.install(agent, planned);
        Ok(())
    }

    /// Sends agent `agent` over off-mesh link `link` to `landing` (its polygon and point),
    /// planned on from there to `target`: the plan is its path at once, and it is on its
    /// way over the link ([`CrowdAgent::crossing`]) until it lands. The agent unchanged
    /// on error.
    fn take_link(
        &mut self,
        agent: AgentIndex,
        link: u32,
        landing: (PolyId, DVec3),
        target: DVec3,
    ) -> Result<()> {
        let a = &self.agents[agent];
        let from = (a.agent_path.position(), a.height);
        let end = a.agent_path.target();
        let world = self.worlds[agent].as_ref().unwrap_or(&self.world);
        let entry = (end, world.floor_height(end).unwrap_or(a.height));
        self.replan(agent, landing, target)?;
        let a = &mut self.agents[agent];
        let landed = (a.agent_path.position(), a.height);
        a.crossing = LinkCrossing::new(link, [from, entry, landed], a.speed).map(Box::new);
        if a.crossing.is_some() {
            a.height = from.1; // it starts where it stood
        }
        Ok(())
    }

    /// Makes `planned` agent `agent`'s path and world, a target waiting to be planned
    /// dropped.
    fn install(&mut self, agent: AgentIndex, planned: Planned) {
        let height = self.height_of(&planned);
        let a = &mut self.agents[agent];
        let floor = height.unwrap_or(a.floor());
        a.agent_path = planned.agent_path;
        (a.wanted, a.queued, a.plan_now, a.needs_plan) = (None, false, false, false);
        (a.repair, a.error) = (false, None);
        a.set_floor(floor);
        self.worlds[agent] = planned.world;
        self.agents[agent].onward = planned.onward.map(Box::new);
        self.queue.retain(|&i| i != agent);
        self.set_hooks();
    }

    /// Sets what sends agents on at the ends of their legs, and what gives them sheets
    /// again when the world changes.
    fn set_hooks(&mut self) {
        self.walk_on = Some(Self::walk_on);
        self.resheet = Some(Self::resheet);
    }

    /// After obstacle `added` was added to the crowd's world (or one removed: `None`):
    /// each agent whose sheet holds the obstacle's floor under it (and, after either,
    /// each agent a change left without a sheet) is planned again on the changed mesh,
    /// from where it stands (pushed out of an obstacle that landed on it, see
    /// `plan_out_of`) to its target, on a new sheet. One that cannot be (its target or its
    /// way blocked) is left stuck with the reason on the crowd's world (where nothing is
    /// clear without a sheet, so it stands), its target kept to be tried at the next
    /// change. The others keep their sheets: what an obstacle takes from a sheet without
    /// its floor under it (another floor's, or none) changes nothing there, and what one
    /// gives back only makes a sheet conservative until its agent's next plan.
    fn resheet(&mut self, added: Option<ObstacleId>) {
        let up = self.world.mesh().surface().up();
        let changed = added.and_then(|id| {
            let bounds = self
                .world
                .obstacle(id)
                .and_then(|o| self.world.obstacle_bounds(o).ok());
            bounds.flatten()
        });
        for i in 0..self.agents.len() {
            let a = &self.agents[i];
            let stranded = self.worlds[i].is_none() && a.agent_path.is_stuck();
            let reaches = match (added, &self.worlds[i]) {
                (Some(id), Some(w)) => w.sheet_holds_floor_of(&self.world, id, a.radius),
                _ => false,
            };
            let target = match (a.onward.as_deref(), &self.worlds[i]) {
                (Some(onward), _) if reaches || stranded => onward.target,
                (None, Some(w)) if reaches => {
                    let t = a.agent_path.target();
                    up.join(t, w.floor_height(t).unwrap_or(a.floor()))
                }
                _ => continue,
            };
            let start = up.join(a.agent_path.position(), a.floor());
            let (stand, planned) = self.plan_out_of(start, target, a.size, a.radius, changed);
            match planned {
                Ok(planned) => self.install(i, planned),
                Err(e) => {
                    let a = &mut self.agents[i];
                    // Out of the obstacle, even where it cannot go on.
                    let (plan, height) = up.split(stand);
                    if plan != a.agent_path.position() {
                        a.push_to(plan);
                        a.set_floor(height);
                    }
                    a.agent_path.stick(e.clone());
                    a.error = Some(e);
                    a.onward = Some(Box::new(Onward {
                        target,
                        link: None,
                        tried: false,
                    }));
                    self.worlds[i] = None;
                }
            }
        }
    }

    /// The floor's height at a plan's start, on the world it walks (its own sheet's, or
    /// the crowd's).
    fn height_of(&self, planned: &Planned) -> Option<f64> {
        let world = planned.world.as_deref().unwrap_or(&self.world);
        world.floor_height(planned.agent_path.position())
    }

    /// Agent `agent`'s position on the surface: its plan-view position at its floor's
    /// [height](super::CrowdAgent::height), in the surface's axes.
    ///
    /// Errors: [`Error::BadParameter`] for an index out of range.
    pub fn agent_point(&self, agent: AgentIndex) -> Result<DVec3> {
        let a = self.agents.get(agent).ok_or(no_agent(agent))?;
        Ok(self.point_of(a))
    }

    /// Every agent's [`agent_point`](Self::agent_point), by index. O(agents), allocates
    /// nothing.
    pub fn agent_points(&self) -> impl ExactSizeIterator<Item = DVec3> + '_ {
        self.agents.iter().map(|a| self.point_of(a))
    }

    /// Agent `a`'s position on the surface (on its way over a link, where it is on it).
    fn point_of(&self, a: &CrowdAgent) -> DVec3 {
        let up = self.world.mesh().surface().up();
        up.join(a.position(), a.height)
    }

    /// Adds an agent of radius `size` (an index into the radii) on the surface.
    fn add_on_surface(
        &mut self,
        position: DVec3,
        target: DVec3,
        speed: f64,
        size: usize,
    ) -> Result<AgentIndex> {
        check_speed(speed)?;
        let planned = self.plan_on_surface(None, position, target, size)?;
        let height = self.height_of(&planned);
        self.push_agent(planned.agent_path, planned.world, speed, size, height);
        let last = self.agents.len() - 1;
        self.agents[last].onward = planned.onward.map(Box::new);
        self.set_hooks();
        Ok(last)
    }

    /// The agent path of an agent of `radius` (index `size`) standing at `start` to
    /// `target` on the crowd's mesh, and where it stands for it. From `start` itself when
    /// the layered search finds it on the floor. Off the mesh (an obstacle within
    /// `changed` cut out where the agent stood), pushed out as on a flat world
    /// ([`add_obstacle`](Crowd::add_obstacle)): along the way straight from the nearest
    /// point of the floor and 16 ways round the compass, each walked from `start` in
    /// steps of a quarter of the radius, onto the floor where the obstacle ends and on
    /// along it ([`SurfaceQuery::move_along_surface`](crate::navmesh::SurfaceQuery::move_along_surface):
    /// no wall crossed) to the first point with room for the agent; from the nearest of
    /// those (the point it stands at, also when the plan fails); with room on no way,
    /// [`Error::Blocked`] at `start`.
    fn plan_out_of(
        &mut self,
        start: DVec3,
        target: DVec3,
        size: usize,
        radius: f64,
        changed: Option<Bounds>,
    ) -> (DVec3, Result<Planned>) {
        let mesh = Arc::clone(self.world.shared_mesh());
        let up = mesh.surface().up();
        let (polygon, at) = match self.surface_query(size).locate(&mesh, start) {
            Ok(found) => found,
            Err(e) => return (start, Err(e)),
        };
        let (from, height) = up.split(start);
        if from == up.plan(at) {
            return (start, self.plan_on_surface(Some(polygon), at, target, size));
        }
        // Past the obstacle's box (or four radii), a way still off the floor leaves it.
        let across = changed.map_or(4.0 * radius, |b| {
            (b.min - from).abs().max((b.max - from).abs()).length()
        });
        let step = 0.25 * radius;
        let straight = (up.plan(at) - from).normalize_or_zero();
        let ways = std::iter::once(straight).chain((0..COMPASS).map(compass_way));
        // The nearest way out with room (the first way on a tie), as on a flat world.
        let mut nearest: Option<(f64, PolyId, DVec3)> = None;
        for way in ways {
            let mut on_floor: Option<(PolyId, DVec3)> = None;
            for j in 1..=((across + 4.0 * radius) / step).ceil() as usize {
                let t = step * j as f64;
                let aim = up.join(from + way * t, height);
                let query = self.surface_query(size);
                let reached = match on_floor {
                    None if t > across + step => break,
                    None => query.locate(&mesh, aim),
                    Some(last) => query.move_along_surface(&mesh, last, aim),
                };
                let (p, on) = match reached {
                    Ok((p, on)) if up.plan(on) == up.plan(aim) => (p, on),
                    // Still in the obstacle: on out.
                    _ if on_floor.is_none() => continue,
                    // A wall that way.
                    _ => break,
                };
                on_floor = Some((p, on));
                let point = SurfacePoint {
                    position: on,
                    polygon: p,
                    flags: PointFlags::START | PointFlags::END,
                };
                let room = query.clearance_of(&mesh, &[point, point], radius + 1.0);
                if room.is_ok_and(|c| c >= radius) {
                    if nearest.is_none_or(|(best, _, _)| t < best) {
                        nearest = Some((t, p, on));
                    }
                    break;
                }
            }
        }
        match nearest {
            Some((_, polygon, on)) => (on, self.plan_on_surface(Some(polygon), on, target, size)),
            // No way out with room: it stands in the obstacle, walled in.
            None => (
                start,
                Err(Error::Blocked {
                    what: "agent",
                    x: from.x,
                    y: from.y,
                }),
            ),
        }
    }

    /// The layered search of the crowd's first pipeline for agents of radius `size`.
    fn surface_query(&mut self, size: usize) -> &mut crate::navmesh::SurfaceQuery {
        &mut self.pipelines[0][size].query_mut().surface
    }

    /// The agent path from `start` (on polygon `from` when known, else located) to
    /// `target` for an agent of radius `size` (see [`Planned`]).
    fn plan_on_surface(
        &mut self,
        from: Option<PolyId>,
        start: DVec3,
        target: DVec3,
        size: usize,
    ) -> Result<Planned> {
        let mesh = Arc::clone(self.world.shared_mesh());
        let pipeline = &mut self.pipelines[0][size];
        let radius = pipeline.radius();
        let query = &mut pipeline.query_mut().surface;
        let start = match from {
            Some(polygon) => (polygon, start),
            None => query.locate(&mesh, start)?,
        };
        let goal = query.locate(&mesh, target).map_err(|e| match e {
            Error::NonFinite { .. } => Error::NonFinite { index: 1 },
            e => e,
        })?;
        // The route, over off-mesh links where they help: this plan walks its first leg,
        // to the first link's entry (or the goal), and the agent crosses the link there.
        query.find_path_between(&mesh, start, goal, radius)?;
        let (end, link) = match query.legs() {
            [first, next, ..] => {
                let link = first.link.ok_or(Error::param("link", f64::NAN, "a link"))?;
                (first.goal, Some((link, next.start)))
            }
            _ => (goal, None),
        };
        let base = &self.world;
        match leg_on_sheet(pipeline, &mesh, base, start, end) {
            Ok((world, agent_path)) => Ok(Planned {
                world,
                agent_path,
                onward: link.map(|link| Onward {
                    target: goal.1,
                    link: Some(link),
                    tried: false,
                }),
            }),
            Err(Error::InvalidResult { step, reason }) if step == "surface sheet" => {
                // No sheet holds a path over or under itself (a ramp that climbs over its
                // own foot): this leg goes to the farthest corner of the path that a sheet
                // holds the way to (a corner the search or the sheet will not end at, too
                // near a wall by the layered clearance, which is conservative near a floor
                // over the path, is passed over), and the agent walks on from there
                // (`walk_on`), routed again.
                let corners: Vec<(PolyId, DVec3)> = (pipeline.query_mut().surface.path())
                    .iter()
                    .map(|p| (p.polygon, p.position))
                    .collect();
                let inner = corners
                    .get(1..corners.len().saturating_sub(1))
                    .unwrap_or(&[]);
                let held = (inner.iter().rev())
                    .find_map(|&corner| leg_on_sheet(pipeline, &mesh, base, start, corner).ok());
                let (world, agent_path) = held.ok_or(Error::InvalidResult { step, reason })?;
                Ok(Planned {
                    world,
                    agent_path,
                    onward: Some(Onward {
                        target: goal.1,
                        link: None,
                        tried: false,
                    }),
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Moves the agents on their ways over links `dt` seconds on ([`cross`]), then sends
    /// every agent that has come within [`LINK_TRIGGER`] radii of the end of a leg on
    /// (`CrowdAgent::onward`): over the off-mesh link there (`take_link`), when no agent is on
    /// it (the others wait at its entry, the first in index order taking it next), planned
    /// again from where the link lands; or, after a leg that ended short of a path over
    /// itself, planned again from where it stands. Agents whose legs end at one point would otherwise queue for
    /// that point. A way on short of a path over itself that fails is tried once more from
    /// the leg's end (within a tenth of the radius); one that cannot go on then keeps the
    /// error and stays. The number sent on.
    fn walk_on(&mut self, dt: f64) -> usize {
        for a in &mut self.agents {
            cross(a, dt);
        }
        // A link holds one agent at a time: those on their way over one hold it.
        let mut crossed: Vec<u32> = (self.agents.iter())
            .filter_map(|a| a.crossing.as_ref().map(|c| c.link()))
            .collect();
        let mut sent = 0;
        for i in 0..self.agents.len() {
            if self.agents[i].crossing.is_some() {
                continue;
            }
            let (c, r) = (&self.agents[i].agent_path, self.agents[i].radius);
            let near = c.position().distance(c.target()) <= LINK_TRIGGER * r;
            // At the end, or as near as the avoidance lets it come (a tenth of its radius).
            let at_end = c.position().distance(c.target()) <= 0.1 * r;
            let ready = |o: &Onward| near && !c.is_stuck() && (!o.tried || at_end);
            let Some(onward) = self.agents[i].onward.as_deref().copied().filter(ready) else {
                continue;
            };
            let went = match onward.link {
                Some((link, _)) if crossed.contains(&link) => continue,
                Some((link, landing)) => {
                    crossed.push(link);
                    self.take_link(i, link, landing, onward.target)
                }
                None => self.set_target_on_surface(i, onward.target),
            };
            match went {
                Ok(()) => sent += 1,
                // The way on, planned from short of the leg's end, may start too near a
                // wall of the sheet cut round it (a floor over this one close by): tried
                // once more from the end itself (within a tenth of the radius of it).
                Err(_) if onward.link.is_none() && !onward.tried && !at_end => {
                    self.agents[i].onward = Some(Box::new(Onward {
                        tried: true,
                        ..onward
                    }));
                }
                Err(e) => {
                    self.agents[i].onward = None;
                    self.agents[i].error = Some(e);
                }
            }
        }
        sent
    }
}

/// Moves agent `a` `dt` seconds on along its way over a link, if it is on one; at the
/// end it lands, on its path from the landing (walked from the next update).
fn cross(a: &mut CrowdAgent, dt: f64) {
    let Some(crossing) = a.crossing.as_mut() else {
        return;
    };
    let (start, [.., (landing, floor)]) = (a.agent_path.position(), crossing.way());
    if landing != start {
        // Its path starts elsewhere now (an obstacle pushed it, or its repair moved it):
        // the way ends there, on the same floor.
        crossing.land_at((start, floor));
    }
    let from = crossing.point().0;
    let landed = crossing.advance(dt);
    let (to, height) = crossing.point();
    a.velocity = if dt > 0.0 {
        (to - from) / dt
    } else {
        DVec2::ZERO
    };
    a.height = height;
    (a.gait, a.slowed) = (0.0, 0.0);
    if landed {
        a.crossing = None;
    }
}

/// How near the end of a leg (in agent radii) an agent goes on: Detour's crowd triggers
/// an off-mesh connection within 2.25 radii of its start (`DT_CROWDAGENT_STATE_OFFMESH`).
pub const LINK_TRIGGER: f64 = 2.25;

/// Where an agent goes on to from the end of its path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Onward {
    /// The target of its way.
    pub(crate) target: DVec3,
    /// The off-mesh link its path ends at, and where the link lands (polygon and point);
    /// `None` when the path ended short of a path over itself.
    pub(crate) link: Option<(u32, (PolyId, DVec3))>,
    /// The way on was tried once from short of the leg's end, and failed.
    pub(crate) tried: bool,
}

/// An agent's plan on the surface: its path, the world it walks on (its own sheet's, or
/// `None` for the crowd's own on a mesh with one floor), and where it walks on to from the
/// path's end when no sheet held the whole way.
struct Planned {
    world: Option<Arc<SurfaceWorld>>,
    agent_path: AgentPath,
    onward: Option<Onward>,
}

/// The agent path from `start` to `end` (polygon and point, both located) on the sheet round
/// the path on the surface's polygons between them (no off-mesh link), planned by
/// `pipeline`, whose world it becomes; with that world (`None` when it is `base`'s own whole
/// plan view, on a mesh with one floor).
fn leg_on_sheet(
    pipeline: &mut Pipeline<Arc<SurfaceWorld>>,
    mesh: &SurfaceMesh,
    base: &SurfaceWorld,
    start: (PolyId, DVec3),
    end: (PolyId, DVec3),
) -> Result<(Option<Arc<SurfaceWorld>>, AgentPath)> {
    let radius = pipeline.radius();
    let query = &mut pipeline.query_mut().surface;
    query.find_leg(mesh, start, end, radius)?;
    let mut world = base.clone();
    world.cut_sheet(query, radius)?;
    let [(s, _), (g, _)] = query
        .ends()
        .ok_or(Error::param("path", f64::NAN, "a path found"))?;
    let world = Arc::new(world);
    pipeline.use_world(&world);
    let agent_path = AgentPath::new(pipeline, s, g)?;
    Ok((
        world.one_floor_sheet().is_none().then_some(world),
        agent_path,
    ))
}

/// A floor's height as a moving obstacle takes it: finite.
fn check_floor(floor: f64) -> Result<()> {
    if floor.is_finite() {
        Ok(())
    } else {
        Err(Error::param("floor", floor, "a finite height"))
    }
}
