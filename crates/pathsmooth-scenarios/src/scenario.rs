//! The crowd benchmark's scenario (issue 30): agents with random goals, re-targeted every
//! few seconds, and doors that close and open, simulated frame by frame.

use glam::{DVec2, IVec2};
use pathsmooth::crowd::{Avoidance, Crowd, CrowdFrame, MovingId, MovingObstacle};
use pathsmooth::follow::Agent;
use pathsmooth::world::{Bounds, Obstacle, ObstacleId, World};
use pathsmooth::{Error, GridWorld, Preset, Result, Step};

use crate::watch::{grown, Watch};

/// The most agents a [`CrowdScenario`] places (a hundred times the largest benchmark);
/// more is refused before anything is allocated.
pub const MAX_SCENARIO_AGENTS: usize = 1_000_000;

/// What a [`CrowdSimulation`] simulates. [`Default`] gives the benchmark's scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdScenario {
    /// Agents (≥ 1), placed at random reachable cells' centres.
    pub agents: usize,
    /// Their radius, world units.
    pub radius: f64,
    /// Their walking speed, world units per second (default 1.5).
    pub speed: f64,
    /// Each agent gets a new random goal when it arrives, and otherwise after a time drawn
    /// uniformly from [½, 1½] × this many seconds (default 5); the first from [0, 1½] ×,
    /// so that the agents' new goals are spread over frames from the start.
    pub retarget_seconds: f64,
    /// New goals lie within this distance (world units, on each axis) of the agent
    /// (default 48); infinity: anywhere on the map.
    pub goal_range: f64,
    /// Doors: square obstacles of side `door_size` (rounded up to whole cells) across the
    /// first paths, each closed for `door_seconds` and then open for as long, in turn
    /// (default 4).
    pub doors: usize,
    /// How long a door stays closed, and open, seconds (default 3).
    pub door_seconds: f64,
    /// A door's side, world units (default 3).
    pub door_size: f64,
    /// Frames per simulated second (default 60).
    pub hz: f64,
    /// The smoothing steps of every plan (default [`Preset::Smooth`]).
    pub steps: Vec<Step>,
    /// The most plans for new goals per frame ([`Crowd::with_plan_budget`]: goals an
    /// agent's path sees are taken at once, outside it); `None` (the default): all in the
    /// frame after they are given.
    pub plan_budget: Option<usize>,
    /// Threads for the agents' updates (default 1; more needs the `rayon` feature). The
    /// simulation is the same for any number.
    pub threads: usize,
    /// The seed of every random choice (placements, goals, times).
    pub seed: u64,
    /// Whether and how the agents avoid one another ([`Crowd::with_avoidance`]); `None`
    /// (the default): they walk through one another.
    pub avoidance: Option<Avoidance>,
    /// The agents' motion limits ([`Crowd::with_speed_profile`]); `None` (the default):
    /// each walks at its speed, starting and stopping at once.
    pub speed_profile: Option<Agent>,
}

impl Default for CrowdScenario {
    fn default() -> Self {
        CrowdScenario {
            agents: 1000,
            radius: 0.3,
            speed: 1.5,
            retarget_seconds: 5.0,
            goal_range: 48.0,
            doors: 4,
            door_seconds: 3.0,
            door_size: 3.0,
            hz: 60.0,
            steps: Preset::Smooth.steps(),
            plan_budget: None,
            threads: 1,
            seed: 1,
            avoidance: None,
            speed_profile: None,
        }
    }
}

/// What one simulated frame did (`+=` sums frames).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimFrame {
    /// What the crowd's update did (plans, repairs, stuck agents, …).
    pub crowd: CrowdFrame,
    /// New goals given this frame.
    pub retargets: usize,
    /// Doors closed this frame.
    pub doors_closed: usize,
    /// Doors opened this frame.
    pub doors_opened: usize,
    /// Agent paths the doors closed this frame blocked (repaired in the same frame).
    pub blocked: usize,
    /// Doors due to close that wait, as an agent stands in them or has its target there.
    pub doors_waiting: usize,
}

impl std::ops::AddAssign for SimFrame {
    fn add_assign(&mut self, o: SimFrame) {
        self.crowd += o.crowd;
        self.retargets += o.retargets;
        self.doors_closed += o.doors_closed;
        self.doors_opened += o.doors_opened;
        self.blocked += o.blocked;
        self.doors_waiting += o.doors_waiting;
    }
}

/// A door of the scenario: its square, its obstacle while closed, and when it changes.
#[derive(Debug, Clone)]
struct Door {
    min: DVec2,
    max: DVec2,
    closed: Option<ObstacleId>,
    next: f64,
}

/// The crowd benchmark (issue 30): a [`Crowd`] on a grid world driven by a
/// [`CrowdScenario`]. Agents walk to random goals in reach of where they stand; every few
/// seconds (and on arrival) each gets a new one; doors across the agents' first paths close
/// and open, and the agent paths a closing door blocks are repaired in the same frame. A door
/// waits to close while an agent stands in it or has its target in it (a door does not
/// close on anyone; the crowd would leave that agent stuck, see [`Crowd::add_obstacle`]).
///
/// [`frame`](Self::frame) is the work of one frame, what a game would pay;
/// [`check`](Self::check) then checks every agent's path with the library's validator
/// (see there), the benchmark's proof that every path is valid after every frame. Every
/// random choice comes from the scenario's seed, so a run is the same on every machine and
/// for any number of threads.
///
/// ```
/// use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation};
/// use pathsmooth::{GridMap, GridWorld};
/// let rows = vec!["................"; 12];
/// let world = GridWorld::new(GridMap::from_rows(&rows)?)?;
/// let scenario = CrowdScenario { agents: 20, doors: 1, goal_range: 8.0, ..Default::default() };
/// let mut sim = CrowdSimulation::new(world, scenario)?;
/// for _ in 0..120 {
///     sim.frame()?;
///     assert_eq!(sim.check(), 0); // every path valid after every frame
/// }
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug)]
pub struct CrowdSimulation {
    crowd: Crowd,
    scenario: CrowdScenario,
    reachable: Reachable,
    rng: Rng,
    /// When each agent gets its next goal, seconds.
    retarget_at: Vec<f64>,
    /// Until when each agent keeps the goal it was sent to ([`send_to`](CrowdSimulation::send_to)),
    /// arrived or not, seconds (0: it was never sent).
    held_until: Vec<f64>,
    doors: Vec<Door>,
    time: f64,
    frames: u64,
    watch: Watch,
    /// The doors closed since the last check.
    closed: Vec<(DVec2, DVec2)>,
    /// The agents seen at a goal so far.
    reached: Vec<bool>,
}

impl CrowdSimulation {
    /// Places the scenario's agents and doors on `world` and plans every agent's first
    /// path (on the scenario's threads; not a frame).
    ///
    /// Errors: [`Error::BadParameter`] for a scenario value out of range (no agents or more
    /// than [`MAX_SCENARIO_AGENTS`], more doors than agents, a speed, time, range, size or
    /// rate that is not a number > 0, threads as [`Crowd::with_threads`] takes them); [`Crowd::new`]'s; [`Error::NoRoom`] when no cell
    /// centre of the map has room for the radius.
    pub fn new(world: GridWorld, scenario: CrowdScenario) -> Result<Self> {
        check_scenario(&scenario)?;
        let mut crowd = Crowd::new(world, scenario.radius, scenario.steps.clone())?
            .with_threads(scenario.threads)?
            .with_avoidance(scenario.avoidance)?
            .with_speed_profile(scenario.speed_profile)?;
        let reachable = Reachable::new(crowd.world(), crowd.radius())?;
        let mut rng = Rng::new(scenario.seed);
        let mut retarget_at = Vec::with_capacity(scenario.agents);
        // Agents that avoid one another start in cells of their own (while the map has
        // twice as many as agents): two at one point would begin overlapped. Without
        // avoidance the draws are the benchmark's, repeats and all.
        let distinct = scenario.avoidance.is_some() && 2 * scenario.agents <= reachable.cells.len();
        let mut taken = std::collections::HashSet::new();
        for i in 0..scenario.agents {
            let cell = loop {
                let c = reachable.any(&mut rng);
                if !distinct || taken.insert(c) {
                    break c;
                }
            };
            let start = crowd.world().cell_center(cell);
            crowd.add_agent(start, start, scenario.speed)?;
            let goal = reachable.goal_near(&crowd, start, scenario.goal_range, &mut rng);
            crowd.set_target(i, goal)?;
            retarget_at.push(rng.range(0.0, 1.5 * scenario.retarget_seconds));
        }
        crowd.update(0.0)?;
        // The first plans are the setup's, all at once; the budget holds from the first frame.
        let crowd = crowd.with_plan_budget(scenario.plan_budget)?;
        let doors = place_doors(&crowd, &scenario, &mut rng);
        Ok(CrowdSimulation {
            crowd,
            reachable,
            rng,
            held_until: vec![0.0; retarget_at.len()],
            retarget_at,
            doors,
            time: 0.0,
            frames: 0,
            watch: Watch::default(),
            closed: Vec::new(),
            reached: vec![false; scenario.agents],
            scenario,
        })
    }

    /// The scenario simulated.
    pub fn scenario(&self) -> &CrowdScenario {
        &self.scenario
    }

    /// The crowd.
    pub fn crowd(&self) -> &Crowd {
        &self.crowd
    }

    /// Simulated seconds so far.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Frames so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The doors' squares (min, max) and whether each is closed now.
    pub fn doors(&self) -> impl Iterator<Item = (DVec2, DVec2, bool)> + '_ {
        self.doors
            .iter()
            .map(|d| (d.min, d.max, d.closed.is_some()))
    }

    /// Adds a moving obstacle to the crowd ([`Crowd::add_moving_obstacle`]): a vehicle
    /// the caller drives ([`set_moving_obstacle_velocity`](Self::set_moving_obstacle_velocity));
    /// the scenario neither moves it otherwise nor counts its contacts. While it stands
    /// (velocity zero) it is an obstacle of the world, and [`check`](Self::check) looks at
    /// the paths near it as near a door that closed.
    ///
    /// Errors: [`Crowd::add_moving_obstacle`]'s, the simulation unchanged.
    pub fn add_moving_obstacle(&mut self, obstacle: MovingObstacle) -> Result<MovingId> {
        let id = self.crowd.add_moving_obstacle(obstacle)?;
        if obstacle.velocity == DVec2::ZERO {
            self.closed.push(disc_box(obstacle));
        }
        Ok(id)
    }

    /// Sets a moving obstacle's velocity ([`Crowd::set_moving_obstacle_velocity`]; zero
    /// stops it, and it stands in the world as an obstacle).
    ///
    /// Errors: [`Crowd::set_moving_obstacle_velocity`]'s.
    pub fn set_moving_obstacle_velocity(&mut self, id: MovingId, velocity: DVec2) -> Result<()> {
        self.crowd.set_moving_obstacle_velocity(id, velocity)?;
        if velocity == DVec2::ZERO
            && let Some((_, o)) = self.crowd.moving_obstacles().find(|&(i, _)| i == id)
        {
            self.closed.push(disc_box(o));
        }
        Ok(())
    }

    /// One frame, 1 / `hz` seconds: the doors due to change do, new goals are given, and
    /// the crowd is updated ([`Crowd::update`]).
    ///
    /// Errors: those of the world's obstacles ([`GridWorld::add_obstacle`]); none is
    /// expected from the scenario's own doors.
    pub fn frame(&mut self) -> Result<SimFrame> {
        let dt = 1.0 / self.scenario.hz;
        self.frames += 1;
        // From the count, so that the clock does not drift from frames / hz.
        self.time = self.frames as f64 / self.scenario.hz;
        let mut frame = SimFrame::default();
        self.move_doors(&mut frame)?;
        for i in 0..self.crowd.agents().len() {
            let a = &self.crowd.agents()[i];
            self.reached[i] |= a.arrived();
            let held = self.time < self.held_until[i];
            if held || (self.time < self.retarget_at[i] && !a.arrived()) {
                continue;
            }
            let here = a.agent_path().position();
            let goal = self.reachable.goal_near(
                &self.crowd,
                here,
                self.scenario.goal_range,
                &mut self.rng,
            );
            self.crowd.set_target(i, goal)?;
            self.retarget_at[i] =
                self.time + self.rng.range(0.5, 1.5) * self.scenario.retarget_seconds;
            frame.retargets += 1;
        }
        frame.crowd = self.crowd.update(dt)?;
        Ok(frame)
    }

    /// Sends every agent to a goal of its own round `goal` (a reachable cell centre within
    /// `spread` of it on each axis, drawn as new goals are, one no other agent sent has
    /// when 16 draws find one; else the centre of `goal`'s cell), which it keeps for `hold` seconds, arrived or not (infinity: until it is sent
    /// elsewhere); then it gets random goals again. What a player's click does to the crowd
    /// (the playground's live crowd).
    /// Returns how many agents were sent (all of them).
    ///
    /// Errors (nobody sent): [`Error::NonFinite`] for a `goal` that is not finite,
    /// [`Error::BadParameter`] for a `spread` that is not a finite number ≥ 0 or a `hold`
    /// that is not a number ≥ 0;
    /// [`Error::OutsideMap`] for a `goal` off the map; [`Error::Blocked`] for one in a wall,
    /// in a closed door or without room for the agents; [`Error::Unreachable`] for one in a
    /// part of the map the agents' part does not join. Cost: O(agents) goal draws and
    /// target changes ([`Crowd::set_target`]; the plans come in the next frames).
    pub fn send_to(&mut self, goal: DVec2, spread: f64, hold: f64) -> Result<usize> {
        if !(spread.is_finite() && spread >= 0.0) {
            return Err(param("spread", spread, "a finite number ≥ 0"));
        }
        if hold.is_nan() || hold < 0.0 {
            return Err(param("hold", hold, "a number ≥ 0 (infinity: for good)"));
        }
        if !goal.is_finite() {
            return Err(Error::NonFinite { index: 0 });
        }
        let world = self.crowd.world();
        let q = world.to_grid(goal);
        let (width, height) = (world.map().width(), world.map().height());
        let cell = IVec2::new(q.x.floor() as i32, q.y.floor() as i32);
        if !(q.x >= 0.0 && q.y >= 0.0 && q.x < width as f64 && q.y < height as f64) {
            return Err(Error::OutsideMap {
                what: "goal",
                x: q.x,
                y: q.y,
                width,
                height,
            });
        }
        let centre = world.cell_center(cell);
        if !world.segment_is_clear(centre, centre, self.crowd.radius()) {
            return Err(Error::Blocked {
                what: "goal",
                x: q.x,
                y: q.y,
            });
        }
        if !self.reachable.holds(cell) {
            let from = world.to_grid(self.crowd.agents()[0].agent_path().position());
            return Err(Error::Unreachable {
                sx: from.x,
                sy: from.y,
                gx: q.x,
                gy: q.y,
            });
        }
        let until = self.time + hold;
        // Goals of their own where there is room: two agents sent to one spot cannot both
        // stand on it.
        let mut taken = std::collections::HashSet::new();
        for i in 0..self.crowd.agents().len() {
            let mut draw = || {
                self.reachable
                    .goal_near(&self.crowd, centre, spread, &mut self.rng)
            };
            let mut target = draw();
            for _ in 1..16 {
                if !taken.contains(&(target.x.to_bits(), target.y.to_bits())) {
                    break;
                }
                target = draw();
            }
            taken.insert((target.x.to_bits(), target.y.to_bits()));
            self.crowd.set_target(i, target)?;
            self.held_until[i] = until;
            self.retarget_at[i] = until;
        }
        Ok(self.crowd.agents().len())
    }

    /// How many agents' paths are not valid now: each path is checked with the library's
    /// validator (exact clearance of every segment and bend, not the agent path's own
    /// tests) where it differs from the path last checked, and where a door closed since
    /// comes within the radius. The benchmark calls it after every frame and does not
    /// time it. Cost: O(points of all paths) plus the validator on what changed.
    pub fn check(&mut self) -> usize {
        let crowd = &self.crowd;
        let paths = crowd.agents().iter().map(|a| a.agent_path().path());
        let invalid = self
            .watch
            .check(crowd.world(), crowd.radius(), paths, &self.closed);
        self.closed.clear();
        invalid
    }

    /// How many agents have been seen at a goal (at the start of a frame) so far.
    pub fn arrived(&self) -> usize {
        self.reached.iter().filter(|&&r| r).count()
    }

    /// The contacts now: agent pairs closer than the sum of their radii by more than 1 %,
    /// and agents closer than their radius to a wall (or a closed door) by more than 1 %
    /// (the world's exact clearance). Not timed by the benchmark. Cost: O(n log n) for the
    /// pairs (a sweep along x) and one clearance query per agent.
    pub fn contacts(&self) -> (usize, usize) {
        let r = self.crowd.radius();
        let mut at: Vec<DVec2> = self
            .crowd
            .agents()
            .iter()
            .map(|a| a.agent_path().position())
            .collect();
        at.sort_by(|a, b| a.x.total_cmp(&b.x));
        let near = 0.99 * 2.0 * r;
        let mut overlaps = 0;
        for (i, p) in at.iter().enumerate() {
            overlaps += at[i + 1..]
                .iter()
                .take_while(|q| q.x - p.x < near)
                .filter(|q| q.distance(*p) < near)
                .count();
        }
        let world = self.crowd.world();
        let wall_hits = at
            .iter()
            .filter(|&&p| world.clearance(p) < 0.99 * r)
            .count();
        (overlaps, wall_hits)
    }

    /// Closes and opens the doors whose time has come.
    fn move_doors(&mut self, frame: &mut SimFrame) -> Result<()> {
        let reach = self.crowd.radius() + self.scenario.speed / self.scenario.hz;
        for d in &mut self.doors {
            if self.time < d.next {
                continue;
            }
            match d.closed.take() {
                Some(id) => {
                    self.crowd.remove_obstacle(id)?;
                    frame.doors_opened += 1;
                }
                None => {
                    let around = grown(Bounds::new(d.min, d.max), reach);
                    let inside = |p: DVec2| around.contains(p);
                    let busy = self.crowd.agents().iter().any(|a| {
                        let c = a.agent_path();
                        inside(c.position()) || inside(c.target())
                    });
                    if busy {
                        frame.doors_waiting += 1;
                        continue; // try again next frame
                    }
                    let (id, blocked) = self.crowd.add_obstacle(Obstacle::Box {
                        min: d.min,
                        max: d.max,
                    })?;
                    d.closed = Some(id);
                    self.closed.push((d.min, d.max));
                    frame.doors_closed += 1;
                    frame.blocked += blocked;
                }
            }
            d.next = self.time + self.scenario.door_seconds;
        }
        Ok(())
    }
}

/// The box (min, max) of a moving obstacle's disc.
fn disc_box(o: MovingObstacle) -> (DVec2, DVec2) {
    (o.center - o.radius, o.center + o.radius)
}

/// [`Error::BadParameter`] for `name` = `value`, with the range it should be in.
fn param(name: &'static str, value: f64, expected: &'static str) -> Error {
    Error::BadParameter {
        name,
        value,
        expected,
    }
}

/// Refuses scenario values out of range.
fn check_scenario(s: &CrowdScenario) -> Result<()> {
    let positive = |name: &'static str, v: f64| {
        if v > 0.0 && !v.is_nan() {
            Ok(())
        } else {
            Err(param(name, v, "a number > 0"))
        }
    };
    let finite = |name: &'static str, v: f64| {
        if v.is_finite() {
            positive(name, v)
        } else {
            Err(param(name, v, "a finite number > 0"))
        }
    };
    if s.agents == 0 || s.agents > MAX_SCENARIO_AGENTS {
        return Err(param(
            "agents",
            s.agents as f64,
            "1 to 1000000 (MAX_SCENARIO_AGENTS)",
        ));
    }
    // Each door sits on one agent's first path.
    if s.doors > s.agents {
        return Err(param("doors", s.doors as f64, "at most one per agent"));
    }
    finite("speed", s.speed)?;
    finite("retarget_seconds", s.retarget_seconds)?;
    positive("goal_range", s.goal_range)?;
    finite("door_seconds", s.door_seconds)?;
    finite("door_size", s.door_size)?;
    finite("hz", s.hz)
}

/// One door per `agents / doors` agents, centred half-way along that agent's first path,
/// its square on cell borders (so that it blocks exactly the cells inside it).
fn place_doors(crowd: &Crowd, scenario: &CrowdScenario, rng: &mut Rng) -> Vec<Door> {
    let (agents, world) = (crowd.agents(), crowd.world());
    let cells = (scenario.door_size / world.cell_size()).ceil().max(1.0);
    (0..scenario.doors)
        .map(|k| {
            let path = agents[k * agents.len() / scenario.doors]
                .agent_path()
                .path();
            let centre = world.to_grid(path[path.len() / 2]);
            let corner = (centre - cells / 2.0).round();
            Door {
                min: world.to_world(corner),
                max: world.to_world(corner + cells),
                closed: None,
                next: rng.range(0.0, scenario.door_seconds),
            }
        })
        .collect()
}

/// The cells whose centres an agent can reach from the others: the largest set of cell
/// centres with room for the radius joined by clear segments to their 4 neighbours' (so a
/// plan between any two exists: the grid's search may take the same steps).
#[derive(Debug, Clone)]
struct Reachable {
    cells: Vec<IVec2>,
    /// Per cell (row-major): in `cells`.
    member: Vec<bool>,
    width: i32,
    height: i32,
}

impl Reachable {
    /// The largest such set on `world` for `radius`. Cost: O(cells) segment tests.
    fn new(world: &GridWorld, radius: f64) -> Result<Self> {
        let (width, height) = (world.map().width() as i32, world.map().height() as i32);
        let index = |c: IVec2| (c.y * width + c.x) as usize;
        let room = |c: IVec2| {
            let p = world.cell_center(c);
            world.map().is_passable(c.x as i64, c.y as i64) && world.segment_is_clear(p, p, radius)
        };
        let mut label = vec![u32::MAX; (width * height) as usize];
        let mut best: Vec<IVec2> = Vec::new();
        let mut stack = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let seed = IVec2::new(x, y);
                if label[index(seed)] != u32::MAX || !room(seed) {
                    continue;
                }
                label[index(seed)] = 0;
                stack.push(seed);
                let mut component = Vec::new();
                while let Some(c) = stack.pop() {
                    component.push(c);
                    for d in [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y] {
                        let n = c + d;
                        if n.x < 0 || n.y < 0 || n.x >= width || n.y >= height {
                            continue;
                        }
                        if label[index(n)] == u32::MAX
                            && room(n)
                            && world.segment_is_clear(
                                world.cell_center(c),
                                world.cell_center(n),
                                radius,
                            )
                        {
                            label[index(n)] = 0;
                            stack.push(n);
                        }
                    }
                }
                if component.len() > best.len() {
                    best = component;
                }
            }
        }
        if best.is_empty() {
            return Err(Error::NoRoom {
                radius,
                max_clearance: world.max_clearance().unwrap_or(0.0),
            });
        }
        let mut member = vec![false; (width * height) as usize];
        for &c in &best {
            member[index(c)] = true;
        }
        Ok(Reachable {
            cells: best,
            member,
            width,
            height,
        })
    }

    /// Whether `cell` is one of the reachable cells.
    fn holds(&self, cell: IVec2) -> bool {
        let inside = cell.x >= 0 && cell.y >= 0 && cell.x < self.width && cell.y < self.height;
        inside && self.member[(cell.y * self.width + cell.x) as usize]
    }

    /// A uniformly random reachable cell.
    fn any(&self, rng: &mut Rng) -> IVec2 {
        self.cells[rng.below(self.cells.len())]
    }

    /// A random reachable cell centre within `range` (on each axis) of `p` that has room
    /// now (no door closed on it); `p` itself when 64 draws find none.
    fn goal_near(&self, crowd: &Crowd, p: DVec2, range: f64, rng: &mut Rng) -> DVec2 {
        let world = crowd.world();
        let room = |q: DVec2| world.segment_is_clear(q, q, crowd.radius());
        for _ in 0..64 {
            let cell = if range.is_finite() {
                let q = world
                    .to_grid(p + DVec2::new(rng.range(-range, range), rng.range(-range, range)));
                IVec2::new(q.x.floor() as i32, q.y.floor() as i32)
            } else {
                self.any(rng)
            };
            if self.holds(cell) {
                let q = world.cell_center(cell);
                if room(q) {
                    return q;
                }
            }
        }
        p
    }
}

/// The scenario's random numbers: xorshift64* (Vigna, "An experimental exploration of
/// Marsaglia's xorshift generators, scrambled", 2016), the same on every platform.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // Spread the seed so that nearby seeds start far apart (and never at 0).
        Rng((seed ^ 0x9E37_79B9_7F4A_7C15).max(1))
    }

    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }

    /// Uniform in 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
