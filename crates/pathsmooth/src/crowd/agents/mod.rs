//! A crowd: many agents walking their paths on a world that changes (a grid, a navmesh), or
//! across the floors of a layered navmesh (`floors`).

use std::collections::VecDeque;
use std::sync::Arc;

use glam::DVec2;

use super::avoid::{AvoidScratch, Mover, Solver};
use super::moving::{check_velocity, Listed, MovingObstacles, Route};
use super::pace::pace;
use super::{AgentPath, Avoidance, Moved, Repair, Retargeted};
use super::{MovingId, MovingObstacle};
use crate::error::{Error, Result};
use crate::follow::Agent;
use crate::pipeline::{Pipeline, Step};
use crate::world::{Bounds, Obstacle, ObstacleId, ObstacleWorld, World};
use crate::GridWorld;

mod crossing;
mod floors;
// Without the `give-way` feature only the record and its accessor are compiled.
#[cfg_attr(not(feature = "give-way"), allow(dead_code, unused_imports))]
mod give_way;
mod push_out;

pub use crossing::LinkCrossing;
pub use floors::LINK_TRIGGER;

/// The most threads a crowd updates on ([`Crowd::with_threads`]): each thread holds a
/// pipeline of its own, and threads beyond the cores only cost.
pub const MAX_THREADS: usize = 256;

/// The most agent radii one crowd holds ([`Crowd::add_agent_with_radius`]): each radius
/// has a pipeline per thread (its own search scratch), so a game rounds its agents to a
/// few sizes, as it rounds them to a few navmesh bakes in Recast.
pub const MAX_RADII: usize = 16;

/// How many rounds of pushing apart an update makes at most (Detour's crowd makes 4).
const SEPARATION_ROUNDS: usize = 4;

/// How far beyond the sum of their radii two overlapping agents are pushed, as a fraction of
/// the overlap: enough for the rounding of the step not to leave them touching.
const SEPARATION_SLACK: f64 = 1e-3;

/// The crowd's [agent height](Crowd::with_agent_height) unless set: 2 world units,
/// RecastDemo's default agent height in metres, the unit of most engines' navmeshes.
pub const DEFAULT_AGENT_HEIGHT: f64 = 2.0;

/// Moves a crowd's agents on their ways over links `dt` seconds on, and sends those at
/// the ends of their legs on; the number sent on.
type WalkOn<W> = fn(&mut Crowd<W>, f64) -> usize;

/// Gives the agents that walk worlds of their own the crowd's world again after it
/// changed: obstacle `Some(id)` added, or one removed (`None`).
type Resheet<W> = fn(&mut Crowd<W>, Option<ObstacleId>);

/// Adds the world's disc standing for a moving obstacle stopped on the floor at a height.
type StandOnFloor<W> = fn(&mut Crowd<W>, MovingObstacle, f64) -> Result<(ObstacleId, usize)>;

/// One phase of an update for one agent, with its run's pipeline (see `Crowd::each_run`).
type AgentUpdate<'a, W> =
    dyn Fn(&mut CrowdAgent, &mut Pipeline<Arc<W>>, &mut CrowdFrame) + Sync + 'a;

/// An agent's index in its [`Crowd`]: valid until an agent is removed
/// ([`Crowd::remove_agent`] moves the last agent into the removed one's index, as
/// `Vec::swap_remove` does, so that the agents stay one dense array for the update's runs).
pub type AgentIndex = usize;

/// One agent of a [`Crowd`]: its path, its speed and what it is waiting for.
#[derive(Debug, Clone)]
pub struct CrowdAgent {
    agent_path: AgentPath,
    speed: f64,
    /// Its radius: an index into the crowd's radii (and each run's pipelines).
    size: usize,
    radius: f64,
    /// A target asked for and not yet planned (an update plans it, in turn under a plan
    /// budget).
    wanted: Option<DVec2>,
    /// In the crowd's queue of targets to plan.
    queued: bool,
    /// Its target is planned in this update.
    plan_now: bool,
    /// Its target was tried under the plan budget and takes a plan: it waits for one
    /// ([`Crowd::serve_queue`]).
    needs_plan: bool,
    /// Set when the world changed under the agent path: the next update repairs it.
    repair: bool,
    /// The last error an update met for this agent: a refused target, a failed move.
    error: Option<Error>,
    /// Its velocity over the last update (world units per second).
    velocity: DVec2,
    /// With avoidance: the velocity this update's avoidance chose (`None`: walk the path).
    avoiding: Option<DVec2>,
    /// With avoidance: where it stands and the velocity its path asks for this update
    /// ([`aim`]), taken in the update's first pass while its path is in cache, so that
    /// the avoidance reads them here and not in every path's memory again (with 10,000
    /// agents, each path's memory is a cache miss a pass).
    aim: (DVec2, DVec2),
    /// How long (seconds) it has walked at less than half its pace while walking.
    slowed: f64,
    /// The speed it walks this update: its speed, or with a speed profile
    /// ([`Crowd::with_speed_profile`]) what its limits allow here ([`pace`]).
    pace: f64,
    /// The speed it walked the last update at: its pace along its path, or the speed of
    /// the velocity avoidance chose (its velocity's length but for a step round a bend,
    /// whose chord is shorter than the way walked).
    gait: f64,
    /// Giving way to another agent head-on in a passage too narrow for both
    /// ([`CrowdAgent::giving_way`]); boxed, as it is rare and the agents are walked often.
    giving_way: Option<Box<give_way::GivingWay>>,
    /// On its way over an off-mesh link ([`CrowdAgent::crossing`]); boxed, as it is rare.
    crossing: Option<Box<LinkCrossing>>,
    /// Where it goes on to from the end of its path when the path is one leg of its way (an
    /// off-mesh link after it, or a path over or under itself that no sheet held whole:
    /// see [`Crowd::add_agent_on_surface`]); boxed, as only agents across floors have one.
    /// A speed profile does not brake for the leg's end.
    onward: Option<Box<floors::Onward>>,
    /// The floor's height where it stands ([`World::floor_height`]; 0 on a flat world); on
    /// its way over a link, its height there.
    height: f64,
    /// Where it was last located on its world's floor ([`World::floor_height_near`]'s
    /// hint): its own, as every agent on a mesh of one floor walks the crowd's one world.
    floor_hint: u32,
}

impl CrowdAgent {
    /// Puts the agent at `q`, pushed out of an obstacle that landed on it (see
    /// [`Crowd::add_obstacle`]).
    fn push_to(&mut self, q: DVec2) {
        self.agent_path.push_to(q);
    }

    /// The agent's [`AgentPath`]: its position, target and path.
    pub fn agent_path(&self) -> &AgentPath {
        &self.agent_path
    }

    /// Its walking speed, world units per second.
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Its radius in effect (world units; as [`Pipeline::radius`] of the radius asked
    /// for): its path keeps this far off the walls, and avoidance this far off others.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Its velocity over the last update: the distance it moved over the time step
    /// (world units per second; zero before any update, and while it stands).
    pub fn velocity(&self) -> DVec2 {
        self.velocity
    }

    /// True when a target asked for waits to be planned (see
    /// [`Crowd::with_plan_budget`]); the agent walks its old path meanwhile.
    pub fn waiting(&self) -> bool {
        self.wanted.is_some()
    }

    /// True when the agent stands at its target (and no new one is pending).
    pub fn arrived(&self) -> bool {
        self.wanted.is_none()
            && self.giving_way.is_none()
            && self.crossing.is_none()
            && self.agent_path.position() == self.agent_path.target()
    }

    /// Its way over an off-mesh link while it crosses one, else `None` (only on a
    /// layered navmesh with off-mesh links: [`Crowd::add_agent_on_surface`]).
    /// Meanwhile its [agent path](Self::agent_path) is already the path from where it
    /// lands, which it walks once there; where it is on the way is
    /// [`LinkCrossing::point`] (and [`Crowd::agent_point`]), its
    /// [velocity](Self::velocity) the way's.
    pub fn crossing(&self) -> Option<&LinkCrossing> {
        self.crossing.as_deref()
    }

    /// The height of the floor its path starts on: where it stands, or on its way over a
    /// link, where it lands.
    fn floor(&self) -> f64 {
        self.crossing.as_ref().map_or(self.height, |c| c.way()[2].1)
    }

    /// Sets the height of the floor its path starts on (see [`floor`](Self::floor)); on its
    /// way over a link, the way then ends at its path's start, on that floor.
    fn set_floor(&mut self, height: f64) {
        match self.crossing.as_mut() {
            Some(c) => c.land_at((self.agent_path.position(), height)),
            None => self.height = height,
        }
    }

    /// Where the agent is in plan view: its [agent path](Self::agent_path)'s position, or
    /// on its way over an off-mesh link ([`crossing`](Self::crossing)) its point there.
    pub fn position(&self) -> DVec2 {
        match &self.crossing {
            Some(c) => c.point().0,
            None => self.agent_path.position(),
        }
    }

    /// The height of the floor where the agent stands, on a world whose plan view lies on
    /// floors in 3D ([`World::floor_height`]: a [`SurfaceWorld`](crate::SurfaceWorld)); 0
    /// on a flat world; on its way over an off-mesh link, its height there. Kept after
    /// every move; agents whose heights differ by the crowd's
    /// [agent height](Crowd::with_agent_height) or more never meet.
    pub fn height(&self) -> f64 {
        self.height
    }

    /// The last error an update met for this agent, or `None`: why the target asked for
    /// with [`Crowd::set_target`] was refused (the agent path kept its old one), or why a
    /// move failed (the agent stood still). Cleared when a new target is planned.
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }
}

/// What one [`Crowd::update`] did, summed over the agents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CrowdFrame {
    /// Moves that kept or string-pulled the agent path.
    pub moved: usize,
    /// Plans made: moves that re-planned (pushed off the path), new targets out of sight
    /// of the path, repairs after a world change (local or whole).
    pub replans: usize,
    /// New targets taken with a local adjustment of the path's end.
    pub adjusted: usize,
    /// New targets refused (unreachable, in a wall): see [`CrowdAgent::error`].
    pub refused: usize,
    /// Moves that failed, the agent left standing: see [`CrowdAgent::error`].
    pub failed: usize,
    /// Agent paths the world changed under that were repaired.
    pub repaired: usize,
    /// Agents stuck after the update (see [`AgentPath::stuck`]).
    pub stuck: usize,
    /// Agents whose new target waits for the next updates (the plan budget was spent).
    pub waiting: usize,
}

impl std::ops::AddAssign for CrowdFrame {
    fn add_assign(&mut self, o: CrowdFrame) {
        self.moved += o.moved;
        self.replans += o.replans;
        self.adjusted += o.adjusted;
        self.refused += o.refused;
        self.failed += o.failed;
        self.repaired += o.repaired;
        self.stuck += o.stuck;
        self.waiting += o.waiting;
    }
}

/// Many agents, each with an [`AgentPath`], walking on one world whose temporary
/// obstacles come and go (a [`GridWorld`] by default, or a navmesh,
/// [`SurfaceWorld`](crate::SurfaceWorld): any [`ObstacleWorld`]): Detour's `dtCrowd` over
/// smooth paths. On a navmesh with one floor
/// ([`SurfaceMesh::is_one_floor`](crate::navmesh::SurfaceMesh::is_one_floor)) the agents
/// walk its whole plan view and come in with 2D points or 3D; each stands on the floor
/// ([`CrowdAgent::height`], [`agent_points`](Crowd::agent_points)). Across floors over one
/// another a `Crowd<SurfaceWorld>` places and sends its agents in 3D, each walking the
/// sheet round its own path ([`add_agent_on_surface`](Crowd::add_agent_on_surface)).
/// Agents walk through one another unless the crowd has [avoidance](Self::with_avoidance)
/// (ORCA between the agents).
///
/// Each [`update`](Self::update) moves every agent `speed × dt` along its path (to its
/// agent path's [`steering_point`](AgentPath::steering_point), then
/// [`move_position`](AgentPath::move_position)), after planning the targets asked for
/// with [`set_target`](Self::set_target) and repairing the agent paths a new obstacle
/// blocks. [`add_obstacle`](Self::add_obstacle) finds those agent paths itself; a removed
/// obstacle only frees space, so no agent path becomes invalid, and the stuck ones try
/// again. After every update, every agent's path is valid for its own radius on the
/// world it walks (the crowd's, or its own sheet across floors), or the agent is stuck
/// (its path only its position) with the reason.
///
/// The work of an update is split over `threads` contiguous runs of agents, each with its
/// own [`Pipeline`] (search and step scratch kept from frame to frame, as Detour's crowd
/// keeps its `dtNavMeshQuery`); an agent's update reads nothing but its own state and the
/// world, so the results are the same, bit for bit, for any number of threads.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::crowd::Crowd;
/// use pathsmooth::world::Obstacle;
/// use pathsmooth::{GridMap, GridWorld, Preset};
/// let world = GridWorld::new(GridMap::from_rows(&["........", "..@@@@..", "........"])?)?;
/// let mut crowd = Crowd::new(world, 0.0, Preset::Smooth.steps())?;
/// let a = crowd.add_agent(DVec2::new(0.5, 0.5), DVec2::new(7.5, 0.5), 2.0)?;
/// // A crate falls on the top row: the agent's path goes round it, by the bottom row.
/// crowd.add_obstacle(Obstacle::Box { min: DVec2::new(3.0, 0.0), max: DVec2::new(4.0, 1.0) })?;
/// let frame = crowd.update(0.1)?;
/// assert_eq!(frame.repaired, 1);
/// assert!(crowd.agents()[a].agent_path().path().iter().any(|p| p.y > 2.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug)]
pub struct Crowd<W: ObstacleWorld = GridWorld> {
    world: Arc<W>,
    /// The agents' radii, the crowd's own first; an agent's `size` indexes them.
    radii: Vec<f64>,
    steps: Vec<Step>,
    /// One set per run of agents, a pipeline per radius in each; none while the world is
    /// being changed.
    pipelines: Vec<Vec<Pipeline<Arc<W>>>>,
    #[cfg(feature = "rayon")]
    pool: Option<rayon::ThreadPool>,
    agents: Vec<CrowdAgent>,
    /// Per agent, the world it walks on when not the crowd's (`None`): on a layered navmesh
    /// the sheet round its path (see [`Crowd::add_agent_on_surface`]). Beside the agents, so
    /// that [`CrowdAgent`] does not name the world's type.
    worlds: Vec<Option<Arc<W>>>,
    /// What sends the agents at the ends of their legs on to their onward targets (set by
    /// the crowd across floors, which alone makes legs; a function of its own, so that
    /// crowds on other worlds compile none of it).
    walk_on: Option<WalkOn<W>>,
    /// What plans the agents walking sheets of their own again on the crowd's world when
    /// it changes (set with `walk_on`).
    resheet: Option<Resheet<W>>,
    /// Stands a moving obstacle on its floor (set by `add_moving_obstacle_on_floor`).
    stand_on_floor: Option<StandOnFloor<W>>,
    /// Agents whose floors' heights differ by this much or more never meet.
    agent_height: f64,
    /// The agents with a target to plan, first asked first served.
    queue: VecDeque<AgentIndex>,
    /// The most plans for new targets per update (`None`: no limit).
    plan_budget: Option<usize>,
    /// The world changed since the last update: stuck agents try again.
    changed: bool,
    /// Local avoidance between the agents (`None`: they walk through one another).
    avoidance: Option<Avoidance>,
    /// The agents' motion limits (`None`: each walks at its speed, starting and stopping
    /// at once).
    speed_profile: Option<Agent>,
    avoid: AvoidScratch,
    /// The pairs of agents the last update found overlapping ([`Crowd::separate`]).
    overlaps: Vec<(u32, u32)>,
    moving: MovingObstacles,
}

impl<W: ObstacleWorld + Send + Sync> Crowd<W> {
    /// A crowd without agents on `world`, for agents of `radius` (world units), their paths
    /// smoothed by `steps` (as a [`Pipeline`]'s), updated on the calling thread.
    ///
    /// Errors: [`Pipeline::new`]'s (a bad radius, no room anywhere for it).
    pub fn new(world: W, radius: f64, steps: Vec<Step>) -> Result<Self> {
        let world = Arc::new(world);
        let pipeline = Pipeline::new(Arc::clone(&world), radius)?.with_steps(steps.clone());
        Ok(Crowd {
            radii: vec![pipeline.radius()],
            world,
            steps,
            pipelines: vec![vec![pipeline]],
            #[cfg(feature = "rayon")]
            pool: None,
            agents: Vec::new(),
            worlds: Vec::new(),
            walk_on: None,
            resheet: None,
            stand_on_floor: None,
            agent_height: DEFAULT_AGENT_HEIGHT,
            queue: VecDeque::new(),
            plan_budget: None,
            changed: false,
            avoidance: None,
            speed_profile: None,
            avoid: AvoidScratch::default(),
            overlaps: Vec::new(),
            moving: MovingObstacles::default(),
        })
    }

    /// Updates on `threads` threads (a rayon pool of that many, owned by the crowd); 1
    /// runs on the calling thread. Results do not depend on it.
    ///
    /// Errors: [`Error::BadParameter`] for 0 threads, more than [`MAX_THREADS`], or more
    /// than 1 without the `rayon` feature; the pool's failure to start, as
    /// [`Error::BadParameter`]. Checked before any thread starts.
    pub fn with_threads(mut self, threads: usize) -> Result<Self> {
        if threads == 0 || threads > MAX_THREADS {
            return Err(Error::param(
                "threads",
                threads as f64,
                "1 to 256 (MAX_THREADS)",
            ));
        }
        if threads > 1 && !cfg!(feature = "rayon") {
            return Err(Error::param(
                "threads",
                threads as f64,
                "1 (more than 1 needs the `rayon` feature)",
            ));
        }
        #[cfg(feature = "rayon")]
        {
            self.pool = if threads > 1 {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|_| Error::param("threads", threads as f64, "a pool that starts"))?;
                Some(pool)
            } else {
                None
            };
        }
        self.pipelines.truncate(1);
        while self.pipelines.len() < threads {
            self.pipelines.push(self.pipeline_set());
        }
        Ok(self)
    }

    /// The world, obstacles included.
    pub fn world(&self) -> &W {
        &self.world
    }

    /// The agents' radius in effect (as [`Pipeline::radius`]) for agents added with
    /// [`add_agent`](Self::add_agent).
    pub fn radius(&self) -> f64 {
        self.radii[0]
    }

    /// Every radius in use (the crowd's own first), each once.
    pub fn radii(&self) -> &[f64] {
        &self.radii
    }

    /// The agents, by [`AgentIndex`].
    pub fn agents(&self) -> &[CrowdAgent] {
        &self.agents
    }

    /// Adds an agent at `position` walking to `target` at `speed` (world units per second),
    /// its agent path planned now.
    ///
    /// Errors: [`Error::BadParameter`] for a speed that is not finite and > 0;
    /// [`AgentPath::new`]'s (a bad or blocked end, an unreachable target). Cost: one
    /// plan.
    pub fn add_agent(&mut self, position: DVec2, target: DVec2, speed: f64) -> Result<AgentIndex> {
        self.add_sized(position, target, speed, 0)
    }

    /// Adds an agent of its own `radius` (world units) at `position` walking to `target` at
    /// `speed`: its path keeps `radius` off the walls (planned by a pipeline of that radius;
    /// one per radius and thread, made when a radius is first used), and with avoidance it
    /// keeps the sum of the two radii off each other agent. Radii are the same when their
    /// values are equal: round them to a few sizes.
    ///
    /// Errors: [`add_agent`](Self::add_agent)'s; [`Pipeline::new`]'s for the radius (not
    /// finite and ≥ 0, or no room anywhere for it); [`Error::BadParameter`] for a radius
    /// beyond the first [`MAX_RADII`]. The crowd unchanged on error. Cost: one plan; a new
    /// radius, a pipeline per thread.
    pub fn add_agent_with_radius(
        &mut self,
        position: DVec2,
        target: DVec2,
        speed: f64,
        radius: f64,
    ) -> Result<AgentIndex> {
        self.add_with_radius(radius, |crowd, size| {
            crowd.add_sized(position, target, speed, size)
        })
    }

    /// Runs `add` with the index of `radius` among the crowd's radii (made when new), and
    /// takes a radius made for the agent away again when `add` fails.
    fn add_with_radius(
        &mut self,
        radius: f64,
        add: impl FnOnce(&mut Self, usize) -> Result<AgentIndex>,
    ) -> Result<AgentIndex> {
        let size = self.size_of(radius)?;
        let added = add(self, size);
        if added.is_err() && size == self.radii.len() - 1 && size > 0 {
            // A radius made for this agent alone goes with it.
            let used = self.agents.iter().any(|a| a.size == size);
            if !used {
                self.radii.pop();
                for set in &mut self.pipelines {
                    set.pop();
                }
            }
        }
        added
    }

    /// The index of `radius` among the crowd's radii, made when new.
    fn size_of(&mut self, radius: f64) -> Result<usize> {
        let probe = Pipeline::new(Arc::clone(&self.world), radius)?;
        let radius = probe.radius();
        if let Some(size) = self.radii.iter().position(|&r| r == radius) {
            return Ok(size);
        }
        if self.radii.len() == MAX_RADII {
            return Err(Error::param(
                "radius",
                radius,
                "one of the crowd's radii (it holds MAX_RADII = 16 already)",
            ));
        }
        let steps = || self.steps.iter().cloned();
        let mut made = vec![probe.with_steps(steps())];
        for _ in 1..self.pipelines.len() {
            let pipeline = Pipeline::without_room_check(Arc::clone(&self.world), radius)?;
            made.push(pipeline.with_steps(steps()));
        }
        self.radii.push(radius);
        for (set, pipeline) in self.pipelines.iter_mut().zip(made) {
            set.push(pipeline);
        }
        Ok(self.radii.len() - 1)
    }

    /// Adds an agent of radius `size` (an index into the radii).
    fn add_sized(
        &mut self,
        position: DVec2,
        target: DVec2,
        speed: f64,
        size: usize,
    ) -> Result<AgentIndex> {
        check_speed(speed)?;
        let pipeline = &mut self.pipelines[0][size];
        pipeline.use_world(&self.world);
        let agent_path = AgentPath::new(pipeline, position, target)?;
        let height = self.world.floor_height(agent_path.position());
        self.push_agent(agent_path, None, speed, size, height);
        Ok(self.agents.len() - 1)
    }

    /// Appends an agent with its path planned on `world` (`None`: the crowd's), standing
    /// at `height` (`None`: 0).
    fn push_agent(
        &mut self,
        agent_path: AgentPath,
        world: Option<Arc<W>>,
        speed: f64,
        size: usize,
        height: Option<f64>,
    ) {
        self.agents.push(CrowdAgent {
            agent_path,
            speed,
            size,
            radius: self.radii[size],
            wanted: None,
            queued: false,
            plan_now: false,
            needs_plan: false,
            repair: false,
            error: None,
            velocity: DVec2::ZERO,
            avoiding: None,
            aim: (DVec2::ZERO, DVec2::ZERO),
            slowed: 0.0,
            pace: speed,
            gait: 0.0,
            giving_way: None,
            crossing: None,
            onward: None,
            height: height.unwrap_or(0.0),
            floor_hint: 0,
        });
        self.worlds.push(world);
    }

    /// Removes agent `agent`. The last agent takes its index (as `Vec::swap_remove`): the
    /// returned index is where that agent was, `None` when the removed agent was the last.
    ///
    /// Errors: [`Error::BadParameter`] for an index out of range. Cost: the agent's slot,
    /// and a pass over the queue of targets waiting to be planned.
    pub fn remove_agent(&mut self, agent: AgentIndex) -> Result<Option<AgentIndex>> {
        if agent >= self.agents.len() {
            return Err(no_agent(agent));
        }
        let last = self.agents.len() - 1;
        self.agents.swap_remove(agent);
        self.worlds.swap_remove(agent);
        self.queue.retain(|&i| i != agent);
        let moved = (agent != last).then_some(last);
        self.renumber_giving_way(agent, moved);
        for i in &mut self.queue {
            if Some(*i) == moved {
                *i = agent;
            }
        }
        Ok(moved)
    }

    /// Asks agent `agent` to walk to `target` instead: the next [`update`](Self::update)
    /// plans it (in parallel with the other agents' work). A target that the update refuses
    /// leaves the old one, with [`CrowdAgent::error`] saying why.
    ///
    /// Errors: [`Error::BadParameter`] for an index out of range.
    pub fn set_target(&mut self, agent: AgentIndex, target: DVec2) -> Result<()> {
        let a = self.agents.get_mut(agent).ok_or(no_agent(agent))?;
        a.wanted = Some(target);
        a.needs_plan = false;
        a.giving_way = None;
        a.onward = None;
        if !a.queued {
            a.queued = true;
            self.queue.push_back(agent);
        }
        Ok(())
    }

    /// Makes at most `plans` plans for new targets per [`update`](Self::update), first
    /// asked first served, as Detour's crowd serves its path queue; the others wait
    /// ([`CrowdAgent::waiting`], [`CrowdFrame::waiting`]) and walk their old paths, which
    /// stay valid, meanwhile. A new target that the agent's position or the end of its
    /// path sees ([`AgentPath::adjust_target`]: a few segment tests, no plan) is taken in
    /// the next update and costs nothing of the budget; only those that take a plan
    /// ([`AgentPath::plan_target`]) queue for it. `None` (the default) plans every target
    /// in the update after it was asked. A budget spreads a burst of plans over frames, so
    /// that one frame does not pay for all of them; repairs after a change of the world,
    /// and the local re-plans of agents pushed off their paths, are never deferred. The
    /// order of service does not depend on the threads.
    ///
    /// Errors: [`Error::BadParameter`] for `Some(0)` (no target would ever be planned).
    pub fn with_plan_budget(mut self, plans: Option<usize>) -> Result<Self> {
        if plans == Some(0) {
            return Err(Error::param(
                "plan_budget",
                0.0,
                "at least 1 plan per update",
            ));
        }
        self.plan_budget = plans;
        Ok(self)
    }

    /// Makes the agents avoid one another ([`Avoidance`]: ORCA, as RVO2 and Detour's crowd
    /// do), or walk through one another (`None`, the default). With avoidance each update
    /// first repairs and plans as without, then gives every agent the velocity nearest the
    /// one its path asks for that keeps it off its nearest neighbours and off the walls
    /// near it ([`World::walls_near`]), then moves it by that velocity: an agent that
    /// avoids leaves its path, and [`AgentPath::move_position`] takes it back to the path
    /// (re-planning locally only when it must). A step the world's exact check refuses
    /// (into a wall's reach: ORCA works in f32) is not taken: the agent walks along its path
    /// instead at the avoiding speed, so agents never leave valid space.
    ///
    /// Errors: [`Error::BadParameter`] for bad settings ([`Avoidance`]'s fields).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::crowd::{Avoidance, Crowd};
    /// use pathsmooth::{GridMap, GridWorld, Preset};
    /// let world = GridWorld::new(GridMap::from_rows(&["..........", "..........", ".........."])?)?;
    /// let mut crowd = Crowd::new(world, 0.3, Preset::Smooth.steps())?.with_avoidance(Some(Avoidance::default()))?;
    /// // Two agents head-on along the middle row.
    /// crowd.add_agent(DVec2::new(0.5, 1.5), DVec2::new(9.5, 1.5), 1.5)?;
    /// crowd.add_agent(DVec2::new(9.5, 1.5), DVec2::new(0.5, 1.5), 1.5)?;
    /// let mut closest = f64::INFINITY;
    /// for _ in 0..600 {
    ///     crowd.update(1.0 / 60.0)?;
    ///     let [a, b] = [0, 1].map(|i| crowd.agents()[i].agent_path().position());
    ///     closest = closest.min(a.distance(b));
    /// }
    /// assert!(closest >= 0.6 * 0.99, "{closest}");
    /// assert!(crowd.agents().iter().all(|a| a.arrived()));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn with_avoidance(mut self, avoidance: Option<Avoidance>) -> Result<Self> {
        if let Some(a) = &avoidance {
            a.check()?;
        }
        self.avoidance = avoidance;
        Ok(self)
    }

    /// The avoidance settings (`None`: none).
    pub fn avoidance(&self) -> Option<&Avoidance> {
        self.avoidance.as_ref()
    }

    /// Gives the agents motion limits (`None`, the default: each walks at its speed from
    /// the first update to its goal, and stands there at once): each update, an agent
    /// walks no faster than it walked plus `max_accel × dt`, slows before each bend ahead
    /// to the speed at which the follower takes it, stops at turns sharper than
    /// `stop_angle`, and brakes at `max_brake` to stand at its goal (not at the end of a
    /// leg that goes on over a link or to another floor). These are the rules of the
    /// follower's speed profile ([`follow::SpeedProfile`](crate::follow::SpeedProfile),
    /// with the same [`Agent`] fields), applied to the path within braking distance of the
    /// agent, which keeps changing: the agent turns at the vertices of its path, and does
    /// not rotate in place. Each agent's top speed is the lower of its own speed and
    /// `max_speed`. With avoidance, the pace is the speed the agent asks for; to keep
    /// apart from the others it may walk faster, up to its own speed, at once.
    ///
    /// Errors: [`Agent::validate`]'s, for a limit that is not finite and > 0 or an angle
    /// out of range. Cost: per agent an update, a walk over the path within braking
    /// distance, v²/(2·max_brake) (a few segments).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::crowd::Crowd;
    /// use pathsmooth::follow::Agent;
    /// use pathsmooth::{GridMap, GridWorld};
    /// let world = GridWorld::new(GridMap::from_rows(&["..........."])?)?;
    /// let limits = Agent { max_accel: 1.0, max_brake: 1.0, ..Agent::default() };
    /// let mut crowd = Crowd::new(world, 0.2, vec![])?.with_speed_profile(Some(limits))?;
    /// let a = crowd.add_agent(DVec2::new(0.5, 0.5), DVec2::new(10.5, 0.5), 2.0)?;
    /// crowd.update(0.5)?;
    /// assert_eq!(crowd.agents()[a].velocity().x, 0.5); // 1 m/s² for 0.5 s
    /// let mut seconds = 0.5;
    /// while !crowd.agents()[a].arrived() {
    ///     crowd.update(0.1)?;
    ///     seconds += 0.1;
    /// }
    /// // 10 m: 2 s to reach 2 m/s, 3 s at it, 2 s to stop; the last step at 0.05 m/s.
    /// assert!((6.85..6.95).contains(&seconds), "{seconds}");
    /// assert!(crowd.agents()[a].velocity().length() < 0.1);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn with_speed_profile(mut self, limits: Option<Agent>) -> Result<Self> {
        if let Some(l) = &limits {
            l.validate()?;
        }
        self.speed_profile = limits;
        Ok(self)
    }

    /// The agents' motion limits (see [`with_speed_profile`](Self::with_speed_profile)).
    pub fn speed_profile(&self) -> Option<&Agent> {
        self.speed_profile.as_ref()
    }

    /// Sets how tall the agents are (world units): two agents whose floors' heights
    /// ([`CrowdAgent::height`]) differ by `height` or more are on different floors, one
    /// under the other, and never meet (avoidance and separation skip them), as Detour's
    /// crowd skips a neighbour whose height differs by the agents' mean height. Only a
    /// world over floors in 3D ([`World::floor_height`]: a layered navmesh) has heights;
    /// on a flat one every agent stands at 0 and meets every other. Default
    /// [`DEFAULT_AGENT_HEIGHT`].
    ///
    /// Errors: [`Error::BadParameter`] unless finite and > 0.
    pub fn with_agent_height(mut self, height: f64) -> Result<Self> {
        if !(height.is_finite() && height > 0.0) {
            return Err(Error::param("agent_height", height, "a finite height > 0"));
        }
        self.agent_height = height;
        Ok(self)
    }

    /// The agents' height (see [`with_agent_height`](Self::with_agent_height)).
    pub fn agent_height(&self) -> f64 {
        self.agent_height
    }

    /// Adds a temporary obstacle to the world ([`ObstacleWorld::add_obstacle`]) and marks
    /// the agent paths it blocks ([`ObstacleWorld::obstacle_blocks`]) for repair by the next
    /// update. Returns the obstacle and how many agent paths it blocks.
    ///
    /// **An obstacle that lands on an agent pushes it out** (a door that closes on it, a
    /// crate dropped on it, a truck that stops on it): the agent is moved at once to the
    /// nearest point with room for it that it could slide to without crossing a wall (the
    /// way measured on the world before the obstacle; the nearest of 17 ways: straight
    /// from the obstacle's centre and 16 round the compass), keeps its target, and the
    /// next update plans its way on from there (counted among the blocked). Only an agent
    /// with no such point (one that stood without room already, or walled in) stays where
    /// it is, stuck with [`Error::Blocked`] until the obstacle goes. An agent whose target
    /// the obstacle covers is pushed out too, and stuck (its target blocked) until then.
    /// Pushing, not keeping the door open until the agent has left: the door's owner
    /// decides when it closes, and no agent is left inside a wall.
    ///
    /// On a layered navmesh the obstacle lies on the one floor under it, and the agents
    /// whose sheets hold that floor there plan again
    /// ([`Crowd::add_obstacle_on_floor`](Crowd::<crate::SurfaceWorld>::add_obstacle_on_floor)).
    ///
    /// Errors: the world's ([`GridWorld::add_obstacle`],
    /// [`SurfaceWorld::add_obstacle`](crate::SurfaceWorld::add_obstacle)), the crowd
    /// unchanged. Cost: the world's change (on a grid, a copy of the map's cells and a
    /// patch of the distance field near the obstacle; on a navmesh, a local
    /// re-triangulation and a rebuild of the mesh), a pass over every agent path's points (a
    /// box test each, the exact tests only near the obstacle), one pipeline per thread
    /// made again (their buffers grow again on first use), and for each agent within two
    /// radii of the obstacle's box a few hundred segment tests as long as the box (its ways
    /// out): a large obstacle over many agents is costly (`docs/crowd.md`).
    pub fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<(ObstacleId, usize)> {
        self.add_obstacle_by(obstacle, W::add_obstacle)
    }

    /// [`add_obstacle`](Self::add_obstacle) of `obstacle`, which `add` adds to the world.
    fn add_obstacle_by(
        &mut self,
        obstacle: Obstacle,
        add: impl FnOnce(&mut W, Obstacle) -> Result<ObstacleId>,
    ) -> Result<(ObstacleId, usize)> {
        // The world's segment test goes to the pushing as a `dyn` function: built once,
        // not per world type.
        let world = &*self.world;
        let bounds = world.obstacle_bounds(&obstacle)?;
        let exits = match bounds {
            Some(bounds) => push_out::exits(&self.agents, bounds, world.tolerance(), &|a, b, r| {
                world.segment_is_clear(a, b, r)
            }),
            None => Vec::new(),
        };
        let id = self.change_world(Changed::from(bounds), |w| add(w, obstacle))?;
        if let Some(resheet) = self.resheet {
            resheet(self, Some(id));
        }
        let world = &*self.world;
        let pushed = push_out::push(&mut self.agents, &exits, &|a, b, r| {
            world.segment_is_clear(a, b, r)
        });
        let mut blocked = 0;
        for (i, a) in self.agents.iter_mut().enumerate() {
            // (`pushed` is in index order.) The id is the world's own, so the lookup
            // cannot fail.
            if pushed.binary_search(&i).is_ok()
                || self
                    .world
                    .obstacle_blocks(id, a.agent_path.path(), a.radius)
                    .unwrap_or(true)
            {
                a.repair = true;
                blocked += 1;
            }
        }
        Ok((id, blocked))
    }

    /// Removes a temporary obstacle ([`ObstacleWorld::remove_obstacle`]). No agent path
    /// becomes invalid (the world only gains space); stuck agents try again at the next
    /// update.
    ///
    /// Errors: the world's, the crowd unchanged. Cost: the world's
    /// change (as [`add_obstacle`](Self::add_obstacle)'s) and one pipeline per thread made
    /// again.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<()> {
        // A world that does not say which obstacle `id` is may change anywhere (an id it
        // does not have, it refuses).
        let changed = match self.world.obstacle(id) {
            Some(o) => Changed::from(self.world.obstacle_bounds(o)?),
            None => Changed::Anywhere,
        };
        self.change_world(changed, |w| w.remove_obstacle(id))?;
        if let Some(resheet) = self.resheet {
            resheet(self, None);
        }
        Ok(())
    }

    /// Adds a moving obstacle: a disc that the crowd moves by its velocity every update
    /// (after the agents). Agents that avoid ([`with_avoidance`](Self::with_avoidance))
    /// keep clear of it by their velocity, as of a neighbour that takes no share of the
    /// avoiding (ORCA against its disc and velocity; always among an agent's neighbours
    /// when within reach, whatever the neighbour limit); their paths are not planned
    /// round it while it moves. While its velocity is zero it stands in the world as a
    /// disc obstacle ([`add_obstacle`](Self::add_obstacle)): the paths through it are
    /// repaired and agents plan round it, as for a door that closed. Agents that do not
    /// avoid see it only then.
    ///
    /// Errors: [`Error::BadObstacle`] for a centre or velocity not finite or beyond
    /// [`MAX_MOVING`](super::MAX_MOVING), a radius not finite and > 0; a standing one's
    /// [`add_obstacle`](Self::add_obstacle) errors; the crowd unchanged. Cost: with
    /// avoidance, its neighbours' solves; the avoidance's reach grows with the fastest and
    /// widest of agents and obstacles. Standing: a world change.
    pub fn add_moving_obstacle(&mut self, obstacle: MovingObstacle) -> Result<MovingId> {
        self.add_moving(obstacle, f64::NAN)
    }

    /// [`add_moving_obstacle`](Self::add_moving_obstacle) on the floor at height `floor`
    /// (NaN: every floor).
    fn add_moving(&mut self, obstacle: MovingObstacle, floor: f64) -> Result<MovingId> {
        let id = self.moving.add(obstacle, floor)?;
        if obstacle.velocity == DVec2::ZERO
            && let Err(e) = self.stand(id)
        {
            self.moving.list.pop();
            return Err(e);
        }
        Ok(id)
    }

    /// Sets a moving obstacle's velocity: zero stops it (it then stands in the world as
    /// an obstacle, see [`add_moving_obstacle`](Self::add_moving_obstacle)), anything else
    /// sets it going again (the world's obstacle removed).
    ///
    /// Errors: [`Error::BadObstacle`] for an unknown handle, a velocity not finite or
    /// beyond [`MAX_MOVING`](super::MAX_MOVING); the world change's; the crowd unchanged.
    pub fn set_moving_obstacle_velocity(&mut self, id: MovingId, velocity: DVec2) -> Result<()> {
        check_velocity(velocity)?;
        let k = self.moving.index(id)?;
        match (self.moving.list[k].standing, velocity == DVec2::ZERO) {
            (None, true) => self.stand(id)?,
            (Some(standing), false) => {
                self.remove_obstacle(standing)?;
                self.moving.list[k].standing = None;
            }
            _ => {}
        }
        self.moving.list[k].obstacle.velocity = velocity;
        self.moving.list[k].route = None;
        Ok(())
    }

    /// Sends a moving obstacle along `route` at `speed` (world units per second): the crowd
    /// drives it from where it is to each point in turn, its velocity (what avoiding agents
    /// see) towards the next point, and after the last point on to the first again when
    /// `looped`, else it stops there and stands as
    /// [`set_moving_obstacle_velocity`](Self::set_moving_obstacle_velocity) with zero
    /// would make it (where the world refuses the disc, over several floors in plan view,
    /// it rests as a moving obstacle, avoided but not planned round). A bus on its round, a
    /// forklift between shelves. A standing one sets off; a new velocity from the game
    /// ([`set_moving_obstacle_velocity`](Self::set_moving_obstacle_velocity)) ends the
    /// route.
    ///
    /// Errors: [`Error::BadObstacle`] for an unknown handle, no point, a point not finite
    /// or beyond [`MAX_MOVING`](super::MAX_MOVING), a speed not finite and > 0; the world
    /// change's; the crowd unchanged. Cost: a few operations per update and point passed.
    pub fn drive_moving_obstacle(
        &mut self,
        id: MovingId,
        route: &[DVec2],
        speed: f64,
        looped: bool,
    ) -> Result<()> {
        let route = Route::new(route, speed, looped)?;
        let k = self.moving.index(id)?;
        if let Some(standing) = self.moving.list[k].standing {
            self.remove_obstacle(standing)?;
            self.moving.list[k].standing = None;
        }
        let m = &mut self.moving.list[k];
        m.obstacle.velocity = route.start_velocity(m.obstacle.center);
        m.route = Some(route);
        Ok(())
    }

    /// Moves the moving obstacles on (see `MovingObstacles::advance`), and stands those
    /// whose route ended.
    fn advance_moving(&mut self, dt: f64) {
        self.moving.advance(dt);
        let ended = std::mem::take(&mut self.moving.ended);
        for &id in &ended {
            // Where the world refuses the disc it rests as a moving obstacle (documented).
            let _ = self.stand(id);
        }
        self.moving.ended = ended;
    }

    /// Removes a moving obstacle (and the world's obstacle for it while it stood).
    ///
    /// Errors: [`Error::BadObstacle`] for an unknown handle; the world change's.
    pub fn remove_moving_obstacle(&mut self, id: MovingId) -> Result<()> {
        let k = self.moving.index(id)?;
        if let Some(standing) = self.moving.list[k].standing {
            self.remove_obstacle(standing)?;
        }
        self.moving.list.remove(k);
        Ok(())
    }

    /// The moving obstacles, in the order they were added, with their handles.
    pub fn moving_obstacles(&self) -> impl Iterator<Item = (MovingId, MovingObstacle)> + '_ {
        self.moving.list.iter().map(|m| (m.id, m.obstacle))
    }

    /// Puts the world's disc obstacle where moving obstacle `id` stands.
    fn stand(&mut self, id: MovingId) -> Result<()> {
        let k = self.moving.index(id)?;
        let (o, floor) = (self.moving.list[k].obstacle, self.moving.list[k].floor);
        let disk = Obstacle::Disk {
            center: o.center,
            radius: o.radius,
        };
        let (standing, _) = match self.stand_on_floor {
            Some(stand_on_floor) if !floor.is_nan() => stand_on_floor(self, o, floor)?,
            _ => self.add_obstacle(disk)?,
        };
        self.moving.list[k].standing = Some(standing);
        Ok(())
    }

    /// Moves every agent `dt` seconds on (see the type's docs): first each agent path the
    /// world changed under is repaired (and, after any change, each stuck one tried
    /// again), then each pending target is planned, then the agent walks `speed × dt` along
    /// its path (with a [speed profile](Self::with_speed_profile), what its limits allow
    /// there). A stuck agent stands still; one on its way over an off-mesh link moves along
    /// that way ([`CrowdAgent::crossing`]). With avoidance, agents held head-on in a
    /// passage too narrow for both give way ([`CrowdAgent::giving_way`]).
    ///
    /// Errors: [`Error::BadParameter`] for a `dt` that is not finite and ≥ 0; agents' own
    /// failures are not errors of the update (they are counted in the frame and kept on
    /// the agent). Cost: per agent on the usual frame (a walk along its path), a few
    /// projections and a bend test, with a segment test and a clearance measure when it
    /// enters a new segment ([`AgentPath::move_position`]); plus the plans counted in
    /// [`CrowdFrame::replans`].
    pub fn update(&mut self, dt: f64) -> Result<CrowdFrame> {
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(Error::param("dt", dt, "a finite time step ≥ 0"));
        }
        let retry = std::mem::take(&mut self.changed);
        let served = self.serve_queue();
        let profile = self.speed_profile;
        let Some(settings) = self.avoidance else {
            let mut frame = served;
            frame += self.each_run(&|a, pipeline, frame| {
                prepare_agent(a, pipeline, retry, frame);
                set_pace(a, profile.as_ref(), dt);
                walk_agent(a, pipeline, dt, frame);
                count_agent(a, frame);
            });
            frame.replans += self.walk_on_legs(dt);
            self.advance_moving(dt);
            return Ok(frame);
        };
        let mut frame = served;
        frame += self.each_run(&|a, pipeline, frame| {
            prepare_agent(a, pipeline, retry, frame);
            set_pace(a, profile.as_ref(), dt);
            a.aim = aim(a, dt);
        });
        self.choose_velocities(&settings, dt);
        frame += self.each_run(&|a, pipeline, frame| walk_agent(a, pipeline, dt, frame));
        // Before the push apart: an agent that lands off a link may land on another.
        frame.replans += self.walk_on_legs(dt);
        self.separate(&mut frame);
        #[cfg(feature = "give-way")]
        self.give_way(dt);
        for a in &self.agents {
            count_agent(a, &mut frame);
        }
        self.advance_moving(dt);
        Ok(frame)
    }

    /// Moves the agents on their ways over off-mesh links `dt` seconds on and sends the
    /// agents at the ends of their legs on (see `CrowdAgent::onward`; only the crowd across floors
    /// makes legs and takes links, and its `walk_on` does it). The number sent on.
    fn walk_on_legs(&mut self, dt: f64) -> usize {
        self.walk_on.map_or(0, |walk_on| walk_on(self, dt))
    }

    /// Runs `update` on every agent, over the crowd's runs of agents (one pipeline each, in
    /// parallel when the crowd has threads), and sums their frames.
    ///
    /// `update` is a `dyn` function, so this is built once per world type and not once per
    /// caller too (three; the WebAssembly build's size): one indirect call an agent.
    fn each_run(&mut self, update: &AgentUpdate<W>) -> CrowdFrame {
        let runs = self.pipelines.len();
        let per_run = self.agents.len().div_ceil(runs).max(1);
        let crowd_world = &self.world;
        type Run<'a, W> = (
            (&'a mut [CrowdAgent], &'a [Option<Arc<W>>]),
            &'a mut Vec<Pipeline<Arc<W>>>,
        );
        let run = |((agents, worlds), pipelines): Run<'_, W>| {
            let mut frame = CrowdFrame::default();
            for (a, world) in agents.iter_mut().zip(worlds) {
                let pipeline = &mut pipelines[a.size];
                pipeline.use_world(world.as_ref().unwrap_or(crowd_world));
                update(a, pipeline, &mut frame);
            }
            frame
        };
        #[cfg(feature = "rayon")]
        if let Some(pool) = &self.pool {
            use rayon::prelude::*;
            let (agents, pipelines) = (&mut self.agents, &mut self.pipelines);
            let worlds = &self.worlds;
            return pool.install(|| {
                agents
                    .par_chunks_mut(per_run)
                    .zip(worlds.par_chunks(per_run))
                    .zip(pipelines.par_iter_mut())
                    .map(run)
                    .reduce(CrowdFrame::default, |mut a, b| {
                        a += b;
                        a
                    })
            });
        }
        let mut frame = CrowdFrame::default();
        let agents = self
            .agents
            .chunks_mut(per_run)
            .zip(self.worlds.chunks(per_run));
        for pair in agents.zip(&mut self.pipelines) {
            frame += run(pair);
        }
        frame
    }

    /// Gives each agent the velocity avoidance chooses for it this update
    /// (its `avoiding`), from every agent's position, last velocity and the
    /// velocity its path asks for.
    fn choose_velocities(&mut self, settings: &Avoidance, dt: f64) {
        self.avoid.movers.clear();
        self.avoid.movers.extend(self.agents.iter().map(|a| {
            let (position, preferred) = a.aim;
            Mover {
                position,
                velocity: a.velocity,
                preferred,
                speed: a.speed,
                pace: a.pace,
                radius: a.radius,
                // On its way over a link it stands aside for nobody.
                standing: a.agent_path.is_stuck() || a.crossing.is_some(),
                slowed: a.slowed,
                obstacle: false,
                floor: a.height,
            }
        }));
        // Moving obstacles as neighbours that stand aside for nobody (a standing one is
        // in the world, among the walls).
        let moving = self.moving.list.iter().filter(|m| m.standing.is_none());
        self.avoid.movers.extend(moving.map(
            |&Listed {
                 obstacle: o, floor, ..
             }| Mover {
                position: o.center,
                velocity: o.velocity,
                preferred: o.velocity,
                speed: o.velocity.length(),
                pace: o.velocity.length(),
                radius: o.radius,
                standing: true,
                slowed: 0.0,
                obstacle: true,
                // NaN, in plan view: met on every floor.
                floor,
            },
        ));
        let (world, worlds) = (&self.world, &self.worlds);
        // Each agent's walls are those of the world it walks on (moving obstacles, after
        // the agents, list none).
        let walls_near = |i: usize, p: DVec2, reach: f64, out: &mut Vec<[DVec2; 2]>| {
            let world = worlds.get(i).and_then(Option::as_ref).unwrap_or(world);
            world.walls_near(p, reach, out);
        };
        let runs = self.pipelines.len();
        let (frame, solvers) = self.avoid.frame(settings, self.agent_height, dt, runs);
        // Each mover's velocity depends on the frame only: runs in parallel give the
        // same velocities as one.
        let solve = |(run, solver): (usize, &mut Solver)| {
            frame.solve_run(run, runs, solver, &walls_near);
        };
        #[cfg(feature = "rayon")]
        if let Some(pool) = &self.pool {
            use rayon::prelude::*;
            pool.install(|| solvers.par_iter_mut().enumerate().for_each(solve));
        } else {
            solvers.iter_mut().enumerate().for_each(solve);
        }
        #[cfg(not(feature = "rayon"))]
        solvers.iter_mut().enumerate().for_each(solve);
        // Moving obstacles come after the agents, and choose nothing.
        for (a, &v) in self.agents.iter_mut().zip(self.avoid.chosen()) {
            a.avoiding = v;
        }
    }

    /// Pushes apart the agents that end an update closer than the sum of their radii, as
    /// Detour's crowd resolves its collisions (up to [`SEPARATION_ROUNDS`] rounds): each
    /// of a pair steps half the overlap away from the other, or one takes it all when the
    /// other cannot move (stuck, or a wall in the way); a step goes through
    /// [`AgentPath::move_position`], so no agent leaves valid space. Only pairs with an
    /// agent that avoided this frame are looked for: ORCA keeps agents apart unless its
    /// linear program has no answer (walls on one side, a neighbour on the other), which
    /// happened on a Godot level of the test corpus (two agents 2.5 % too close).
    /// Sequential, in index order, so the result does not depend on the threads.
    fn separate(&mut self, frame: &mut CrowdFrame) {
        let mut pairs = std::mem::take(&mut self.overlaps);
        for _ in 0..SEPARATION_ROUNDS {
            let agents = &self.agents;
            self.avoid.overlapping(
                agents.len(),
                |i| (agents[i].position(), agents[i].height),
                |i| agents[i].radius,
                &mut pairs,
            );
            if pairs.is_empty() {
                break;
            }
            for &(i, j) in &pairs {
                self.push_apart(i as usize, j as usize, frame);
            }
        }
        self.overlaps = pairs;
    }

    /// Moves agents `i` and `j` apart until they stand the sum of their radii apart (and a
    /// thousandth more), half each, or all by one when the other cannot move.
    fn push_apart(&mut self, i: usize, j: usize, frame: &mut CrowdFrame) {
        let (pi, pj) = (self.agents[i].position(), self.agents[j].position());
        let sum = self.agents[i].radius + self.agents[j].radius;
        let d = pi.distance(pj);
        if d >= sum {
            return; // an earlier push parted them
        }
        // Two agents at one point part along x, the later one to +x, the same on every run.
        let away = if d > 0.0 { (pi - pj) / d } else { -DVec2::X };
        let half = away * 0.5 * (sum - d) * (1.0 + SEPARATION_SLACK);
        let pipelines = &mut self.pipelines[0];
        let (agents, worlds, world) = (&mut self.agents, &self.worlds, &self.world);
        let mut step = |k: usize, by: DVec2| {
            let pipeline = &mut pipelines[agents[k].size];
            pipeline.use_world(worlds[k].as_ref().unwrap_or(world));
            step_aside(&mut agents[k], pipeline, by, frame)
        };
        // One that cannot move (stuck, or walled) leaves the other to go all the way.
        match (step(i, half), step(j, -half)) {
            (true, false) => _ = step(i, half),
            (false, true) => _ = step(j, -half),
            _ => {}
        }
    }

    /// Marks the agents whose targets this update plans. Without a budget, all. Under
    /// one, first (in the queue's order, on the calling thread) every target not yet
    /// tried is adjusted locally where it can be ([`AgentPath::adjust_target`]; those
    /// adjusted or refused leave the queue, counted in the returned frame), then the
    /// first `plan_budget` of those that take a plan are marked. Each target is tried
    /// once: one that waits keeps its place for a plan.
    fn serve_queue(&mut self) -> CrowdFrame {
        let mut frame = CrowdFrame::default();
        let Some(budget) = self.plan_budget else {
            for i in self.queue.drain(..) {
                let a = &mut self.agents[i];
                a.queued = false;
                a.plan_now = true;
            }
            return frame;
        };
        let mut granted = 0;
        self.queue.retain(|&i| {
            let a = &mut self.agents[i];
            if !a.needs_plan {
                let pipeline = &mut self.pipelines[0][a.size];
                pipeline.use_world(self.worlds[i].as_ref().unwrap_or(&self.world));
                a.needs_plan = try_target(a, pipeline, &mut frame);
                if !a.needs_plan {
                    a.queued = false;
                    return false;
                }
            }
            if granted == budget {
                return true;
            }
            granted += 1;
            (a.queued, a.plan_now) = (false, true);
            false
        });
        frame
    }

    /// A run's pipelines: one on the crowd's world and steps for each of its radii. Each
    /// radius was checked when first used; since then obstacles may have left no room for
    /// it anywhere, which makes its agents stuck (with the reason), not the crowd wrong.
    fn pipeline_set(&self) -> Vec<Pipeline<Arc<W>>> {
        let pipeline = |&radius: &f64| {
            Pipeline::without_room_check(Arc::clone(&self.world), radius)
                .expect("the world and radius were checked when the radius was first used")
                .with_steps(self.steps.iter().cloned())
        };
        self.radii.iter().map(pipeline).collect()
    }

    /// Runs `change` on the world, which no pipeline may hold meanwhile, and makes the
    /// pipelines again, with the searches' scratch of the old ones (a search's memory is
    /// not tied to a world: each search starts afresh in it; a grid's is 28 bytes a cell,
    /// which the first plan after every door would otherwise allocate and fill again). What
    /// the agent paths measured away from where the world `changed` holds.
    fn change_world<T>(
        &mut self,
        changed: Changed,
        change: impl FnOnce(&mut W) -> Result<T>,
    ) -> Result<T> {
        let runs = self.pipelines.len();
        let queries: Vec<Vec<W::Query>> = (self.pipelines.drain(..))
            .map(|set| {
                set.into_iter()
                    .map(|mut p| std::mem::take(p.query_mut()))
                    .collect()
            })
            .collect();
        let result = match Arc::get_mut(&mut self.world) {
            Some(world) => change(world),
            None => unreachable!("only the crowd's pipelines share its world"),
        };
        self.pipelines = (0..runs).map(|_| self.pipeline_set()).collect();
        for (set, queries) in self.pipelines.iter_mut().zip(queries) {
            for (pipeline, query) in set.iter_mut().zip(queries) {
                *pipeline.query_mut() = query;
            }
        }
        if result.is_ok() {
            self.changed = true;
            for a in &mut self.agents {
                match changed {
                    Changed::Nowhere => {}
                    Changed::Inside(b) => a.agent_path.forget_world_inside(b),
                    Changed::Anywhere => a.agent_path.forget_world(),
                }
            }
        }
        result
    }
}

/// Where a change of the world may have changed its answers.
#[derive(Debug, Clone, Copy)]
enum Changed {
    /// Nowhere: an obstacle that blocks nothing.
    Nowhere,
    /// Inside the box of what an obstacle blocks.
    Inside(Bounds),
    /// Anywhere.
    Anywhere,
}

impl From<Option<Bounds>> for Changed {
    /// What an obstacle blocks ([`ObstacleWorld::obstacle_bounds`]) is where adding or
    /// removing it changes the world.
    fn from(blocks: Option<Bounds>) -> Self {
        blocks.map_or(Changed::Nowhere, Changed::Inside)
    }
}

/// The error for an agent index out of range.
fn no_agent(agent: AgentIndex) -> Error {
    Error::param("agent", agent as f64, "the index of an agent of the crowd")
}

/// Refuses a speed that is not finite and > 0.
fn check_speed(speed: f64) -> Result<()> {
    if speed.is_finite() && speed > 0.0 {
        Ok(())
    } else {
        Err(Error::param("speed", speed, "a finite speed > 0"))
    }
}

/// An agent's repair and new target (see [`Crowd::update`]).
fn prepare_agent<W: World>(
    a: &mut CrowdAgent,
    pipeline: &mut Pipeline<Arc<W>>,
    retry: bool,
    frame: &mut CrowdFrame,
) {
    let c = &mut a.agent_path;
    if std::mem::take(&mut a.repair) || (retry && c.is_stuck()) {
        // A failed repair leaves the agent path stuck with the reason: counted below.
        if c.repair(pipeline).is_ok_and(|r| r != Repair::Valid) {
            frame.repaired += 1;
            frame.replans += 1;
        }
    }
    if let Some(t) = a.wanted.take_if(|_| std::mem::take(&mut a.plan_now)) {
        a.error = None;
        // `move_target`, without trying again what the plan budget's queue tried.
        let adjusted = match std::mem::take(&mut a.needs_plan) {
            true => Ok(None),
            false => c.adjust_target(pipeline, t),
        };
        let retargeted = adjusted.and_then(|adjusted| match adjusted {
            Some(r) => Ok(r),
            None => c.plan_target(pipeline, t),
        });
        match retargeted {
            Ok(Retargeted::Adjusted { .. }) => frame.adjusted += 1,
            Ok(Retargeted::Replanned) => frame.replans += 1,
            Ok(Retargeted::Stuck) => {
                // Recorded on a stuck agent path: plan it from where the agent stands.
                if c.repair(pipeline).is_ok() {
                    frame.replans += 1;
                }
            }
            Err(e) => {
                a.error = Some(e);
                frame.refused += 1;
            }
        }
    }
}

/// Tries agent `a`'s wanted target under a plan budget (see [`Crowd::serve_queue`]): taken
/// with a local adjustment, or refused, both counted in `frame` (the target no longer
/// wanted); true when it takes a plan (the agent path unchanged).
fn try_target<W: World>(
    a: &mut CrowdAgent,
    pipeline: &Pipeline<Arc<W>>,
    frame: &mut CrowdFrame,
) -> bool {
    let Some(t) = a.wanted else {
        return false;
    };
    a.error = None;
    match a.agent_path.adjust_target(pipeline, t) {
        Ok(None) => return true,
        Ok(Some(_)) => frame.adjusted += 1,
        Err(e) => {
            a.error = Some(e);
            frame.refused += 1;
        }
    }
    a.wanted = None;
    false
}

/// Sets agent `a`'s pace for the next `dt`: its speed, or what `profile` allows.
fn set_pace(a: &mut CrowdAgent, profile: Option<&Agent>, dt: f64) {
    a.pace = match profile {
        None => a.speed,
        Some(limits) => {
            let path = a.agent_path.path();
            pace(path, (a.gait, a.speed), dt, limits, a.onward.is_none())
        }
    };
}

/// Where agent `a` stands, and the velocity its path asks of it over `dt`, for avoidance
/// (on its way over a link, where it is and the way's velocity).
fn aim(a: &CrowdAgent, dt: f64) -> (DVec2, DVec2) {
    if a.crossing.is_some() {
        return (a.position(), a.velocity);
    }
    let c = &a.agent_path;
    // An agent at its goal wants to stand, but takes its share of the avoiding: agents at
    // their goals that stood for nobody walled off the goals beyond them (the bottleneck's
    // lattice of arrived agents, 0.4 apart).
    let preferred = if c.is_stuck() || a.arrived() || dt <= 0.0 {
        DVec2::ZERO
    } else {
        (c.steering_point(a.pace * dt) - c.position()) / dt
    };
    (c.position(), preferred)
}

/// An agent's walk over `dt`: along its path, or by the velocity avoidance chose for it
/// when that keeps it off the walls (else along its path at that velocity's speed).
fn walk_agent<W: World>(
    a: &mut CrowdAgent,
    pipeline: &mut Pipeline<Arc<W>>,
    dt: f64,
    frame: &mut CrowdFrame,
) {
    let avoiding = a.avoiding.take();
    if a.crossing.is_some() {
        return; // on its way over a link: moved by the crowd's `walk_on`
    }
    let c = &mut a.agent_path;
    let from = c.position();
    if !c.is_stuck() && dt > 0.0 {
        let moved = match avoiding {
            None => c.move_position(pipeline, c.steering_point(a.pace * dt)),
            Some(v) => {
                let p = from + v * dt;
                match step_is_clear(pipeline, from, p).then(|| c.move_position(pipeline, p)) {
                    Some(Ok(m)) => Ok(m),
                    // Into a wall's reach (ORCA's f32 answer, or a world that lists no
                    // walls), or no room there: along the path instead, at the avoiding
                    // speed.
                    _ => c.move_position(pipeline, c.steering_point(v.length() * dt)),
                }
            }
        };
        a.gait = match avoiding {
            None => a.pace,
            Some(v) => v.length(),
        };
        match moved {
            Ok(Moved::Replanned) => frame.replans += 1,
            Ok(_) => frame.moved += 1,
            // The steering point lies on a valid path, so this is not expected; the
            // agent path is unchanged (the agent stands still) and the error is kept.
            Err(e) => {
                a.error = Some(e);
                a.gait = 0.0;
                frame.failed += 1;
            }
        }
    } else if c.is_stuck() {
        a.gait = 0.0;
    }
    a.velocity = if dt > 0.0 {
        (c.position() - from) / dt
    } else {
        DVec2::ZERO
    };
    let walking = !c.is_stuck() && c.position() != c.target();
    a.slowed = if walking && a.velocity.length() < 0.5 * a.pace {
        a.slowed + dt
    } else {
        0.0
    };
    keep_height(a, pipeline);
}

/// Keeps agent `a`'s [height](CrowdAgent::height) that of the floor where it stands now.
fn keep_height<W: World>(a: &mut CrowdAgent, pipeline: &Pipeline<Arc<W>>) {
    let at = a.agent_path.position();
    if let Some(h) = pipeline.world().floor_height_near(at, &mut a.floor_hint) {
        a.height = h;
    }
}

/// True when the step `from`–`to` keeps the pipeline's radius off the walls. Every point of
/// the step lies within its length of `from`, so a clearance at `from` that much above the
/// radius clears it (one lookup on a grid, a look round `from` on a navmesh); else the
/// exact segment test.
fn step_is_clear<W: World>(pipeline: &Pipeline<Arc<W>>, from: DVec2, to: DVec2) -> bool {
    let (world, radius) = (pipeline.world(), pipeline.radius());
    world.has_clearance(from, radius + from.distance(to))
        || world.segment_is_clear(from, to, radius)
}

/// Moves agent `a` by `by` when it may: not stuck, and the step clear of the walls for its
/// radius (as [`walk_agent`] tests a step of avoidance). True when it moved.
fn step_aside<W: World>(
    a: &mut CrowdAgent,
    pipeline: &mut Pipeline<Arc<W>>,
    by: DVec2,
    frame: &mut CrowdFrame,
) -> bool {
    let c = &mut a.agent_path;
    if c.is_stuck() || a.crossing.is_some() {
        return false;
    }
    let to = c.position() + by;
    let moved =
        match step_is_clear(pipeline, c.position(), to).then(|| c.move_position(pipeline, to)) {
            Some(Ok(Moved::Replanned)) => {
                frame.replans += 1;
                true
            }
            Some(Ok(_)) => true,
            _ => false,
        };
    keep_height(a, pipeline);
    moved
}

/// An agent's state after its update, counted in `frame`.
fn count_agent(a: &CrowdAgent, frame: &mut CrowdFrame) {
    frame.stuck += usize::from(a.agent_path.is_stuck());
    frame.waiting += usize::from(a.wanted.is_some());
}
