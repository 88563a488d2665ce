//! Local avoidance between a crowd's agents: optimal reciprocal collision avoidance (ORCA;
//! van den Berg, Guy, Lin and Manocha, "Reciprocal n-Body Collision Avoidance", 2011, as
//! in their RVO2 library), solved by the `dodgy_2d` crate, with the neighbours found in a
//! grid of buckets rebuilt every frame.

use std::borrow::Cow;

use dodgy_2d::{Agent, AvoidanceOptions, Obstacle, Vec2};
use glam::DVec2;

use crate::error::{Error, Result};

/// How a [`Crowd`](super::Crowd)'s agents avoid one another
/// ([`Crowd::with_avoidance`](super::Crowd::with_avoidance)).
///
/// Each frame every agent takes the velocity nearest the one its path asks for (towards
/// its [`steering_point`](super::AgentPath::steering_point), at its speed) that keeps it
/// from touching any of its nearest neighbours for `time_horizon` seconds, assuming they
/// take their half of the avoidance (ORCA: van den Berg et al., "Reciprocal n-Body
/// Collision Avoidance", 2011; solved by the `dodgy_2d` crate, a port of RVO2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Avoidance {
    /// How far ahead (seconds) collisions with neighbours are avoided (default 2): longer
    /// turns earlier and more smoothly, but makes agents shy of crowds.
    pub time_horizon: f64,
    /// The most neighbours each agent avoids, the nearest first (default 10).
    pub max_neighbours: usize,
    /// How far ahead (seconds) an agent that is avoiding keeps off the walls near it
    /// ([`World::walls_near`](crate::World::walls_near), RVO2's obstacles; default 1):
    /// so that it steps aside into free space, not into a wall's reach.
    pub wall_time_horizon: f64,
    /// How far (world units, between centres) a neighbour is looked for; `None` (the
    /// default): far enough to meet anyone within the time horizon at both agents' top
    /// speed, `2 × (speed × time_horizon + radius)`, for the fastest agent.
    pub neighbour_distance: Option<f64>,
}

impl Default for Avoidance {
    fn default() -> Self {
        Avoidance {
            time_horizon: 2.0,
            max_neighbours: 10,
            wall_time_horizon: 1.0,
            neighbour_distance: None,
        }
    }
}

impl Avoidance {
    /// Checks the settings. Errors: [`Error::BadParameter`] for a time horizon or
    /// neighbour distance that is not finite and > 0, or no neighbour.
    pub(crate) fn check(&self) -> Result<()> {
        if !(self.time_horizon.is_finite() && self.time_horizon > 0.0) {
            return Err(Error::param(
                "time_horizon",
                self.time_horizon,
                "a finite time > 0",
            ));
        }
        if !(self.wall_time_horizon.is_finite() && self.wall_time_horizon > 0.0) {
            return Err(Error::param(
                "wall_time_horizon",
                self.wall_time_horizon,
                "a finite time > 0",
            ));
        }
        if self.max_neighbours == 0 {
            return Err(Error::param("max_neighbours", 0.0, "at least 1"));
        }
        if let Some(d) = self
            .neighbour_distance
            .filter(|d| !(d.is_finite() && *d > 0.0))
        {
            return Err(Error::param(
                "neighbour_distance",
                d,
                "a finite distance > 0",
            ));
        }
        Ok(())
    }
}

/// Below this fraction of its pace an agent counts as slowed by its neighbours.
const SLOWED: f64 = 0.5;

/// How fast (radians per second slowed) a slowed agent turns its preferred velocity to
/// the right, and how far at most.
const KEEP_RIGHT_RATE: f64 = 0.5;
const KEEP_RIGHT_MAX: f64 = std::f64::consts::FRAC_PI_2;

/// How far to its right (in the sum of their radii) the neighbour ahead of a slowed agent
/// must already be for it to pass on the left ([`Frame::side_to_pass`]).
const ALREADY_ASIDE: f64 = 0.25;

/// How far (a fraction of its speed) an agent's preferred velocity may differ from the
/// one it walks at for it to count as walking steadily
/// ([`Frame::on_a_clear_course`]).
const STEADY: f64 = 0.1;

/// How near (in the sum of the radii) an agent on a clear course may come to another
/// over the horizon: well outside what ORCA sees ([`MARGIN`]).
const CLEAR_COURSE: f64 = 1.25;

/// How large ORCA sees every agent among agents, in its radii: a little larger than it
/// is, so that ORCA's f32 answers, which may end a hair inside a neighbour's reach, keep
/// the real agents apart.
const MARGIN: f64 = 1.05;

/// How large ORCA sees an agent against walls, in its radii: larger than it is by a hair,
/// not by [`MARGIN`]. Paths are planned at the radius and hug corners at exactly that
/// distance; an agent seen 5 % larger there is inside the wall's reach on its own path,
/// and ORCA pushes it out at 5 % of its radius per step while the path draws it back: it
/// stalls (two agents entering a corridor three cells wide did, on a Moving AI map's
/// navmesh). A hair smaller is no better: ORCA's answers then end inside the radius, the
/// world's exact check of the step refuses them, and the agent walks its path instead,
/// blind to its neighbours (overlaps in the random512 benchmark). 0.1 % is far above f32's
/// rounding and far below a push that stalls.
const WALL_MARGIN: f64 = 1.001;

/// One agent as avoidance sees it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Mover {
    pub(crate) position: DVec2,
    pub(crate) velocity: DVec2,
    pub(crate) preferred: DVec2,
    pub(crate) speed: f64,
    /// The speed it asks for this update (its speed, or less under a speed profile).
    pub(crate) pace: f64,
    pub(crate) radius: f64,
    /// A stuck agent stands: the others avoid it, it takes no share, and it moves aside
    /// for moving obstacles only. (An agent at its goal does not stand: it asks for no
    /// velocity but takes its share, so it steps aside for passers and walks back.)
    pub(crate) standing: bool,
    /// How long (seconds) it has walked slower than [`SLOWED`] of its pace.
    pub(crate) slowed: f64,
    /// A moving obstacle (standing too): among the neighbours of every mover in reach,
    /// whatever the neighbour limit.
    pub(crate) obstacle: bool,
    /// The height of its floor: movers whose floors differ by the frame's agent height or
    /// more never meet (NaN: met on every floor, as a moving obstacle in plan view).
    pub(crate) floor: f64,
}

/// True when movers on floors at heights `a` and `b` meet: their floors are less than
/// `height` apart (either NaN: they meet).
fn same_floor(a: f64, b: f64, height: f64) -> bool {
    (a - b).is_nan() || (a - b).abs() < height
}

/// The avoidance's scratch, kept by the crowd from frame to frame: the movers, the
/// buckets, one solver's scratch per run of movers, and the velocities chosen.
#[derive(Debug, Clone, Default)]
pub(crate) struct AvoidScratch {
    pub(crate) movers: Vec<Mover>,
    buckets: Buckets,
    solvers: Vec<Solver>,
    chosen: Vec<Option<DVec2>>,
    /// The side of the last frame's buckets.
    cell: f64,
    /// The last frame's agent height (movers whose floors differ by it never meet).
    height: f64,
}

/// `walls_near(mover, p, reach, out)`: the walls near mover `mover` at `p` within `reach`,
/// into `out` (a `dyn` function: the solve is built once, not once per world type, for the
/// WebAssembly build's size; one indirect call a solve).
pub(crate) type WallsNear<'a> = &'a (dyn Fn(usize, DVec2, f64, &mut Vec<[DVec2; 2]>) + Sync);

/// A neighbour found: (not a moving obstacle, distance between centres, mover), so that
/// the order of the tuples puts moving obstacles first, then the nearest, then the lower
/// index.
type Near = (bool, f64, u32);

/// A neighbour's place in the order of [`Near`]'s tuples, as one integer (the bits of a
/// distance, which is never negative nor NaN, keep its order): compared without the
/// float comparisons' branches.
fn rank(&(later, d, j): &Near) -> u128 {
    (u128::from(later) << 96) | (u128::from(d.to_bits()) << 32) | u128::from(j)
}

/// What one run's solves reuse: a mover's neighbours, as found and as ORCA takes them, and
/// the walls near it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Solver {
    near: Vec<Near>,
    /// The bounds of the 3 × 3 buckets round the last mover, and of the
    /// `(2 × span + 1)²` buckets of the whole reach.
    inner: Columns,
    outer: Columns,
    /// The movers this frame's searches read, and the area of the buckets they read.
    seen: (u64, f64),
    /// The run's answers: (mover, velocity), in the order they were solved.
    chosen: Vec<(u32, Option<DVec2>)>,
    neighbours: Vec<Cow<'static, Agent>>,
    walls: Vec<[DVec2; 2]>,
    obstacles: Vec<Cow<'static, Obstacle>>,
}

/// One update's movers and buckets, read by every run's solves (in parallel when the
/// crowd has threads: nothing here is written).
pub(crate) struct Frame<'a> {
    movers: &'a [Mover],
    buckets: &'a Buckets,
    settings: &'a Avoidance,
    /// Movers whose floors differ by this much never meet.
    height: f64,
    dt: f64,
    reach: f64,
    /// The buckets' side: the reach divided by `span`.
    cell: f64,
    /// How many buckets out from a mover's own the reach needs on each side.
    span: i64,
    /// Whether any mover is a moving obstacle (they must all be found within the reach,
    /// however many nearer agents there are).
    obstacles: bool,
}

/// How far a squared distance may stand above another by rounding alone, relatively
/// (many times the few units in the last place of a square and a square root).
const LOOSE: f64 = 1.0 + 1e-12;

/// The most buckets out from a mover's own that the reach is cut into
/// ([`bucket_span`]): a denser crowd gains little from more, and the fallback search
/// over `(2 × span + 1)²` buckets reads more columns.
const MAX_SPAN: i64 = 4;

/// How many buckets of side `reach / span` the reach is cut into where the movers stand
/// `density` to a unit of area round one another, keeping `max` neighbours each: the
/// buckets' side is the radius of a disc holding about twice `max` movers, so that most
/// searches find their nearest within the 3 × 3 buckets round their own; 1 (the reach
/// itself) for a sparse crowd.
fn bucket_span(density: f64, reach: f64, max: usize) -> i64 {
    let side = (2.0 * max as f64 / (std::f64::consts::PI * density)).sqrt();
    match reach / side {
        q if q.is_finite() => q.ceil().clamp(1.0, MAX_SPAN as f64) as i64,
        _ => 1,
    }
}

/// The bucket of coordinate `x` for buckets of side `cell` (monotone in `x`).
fn bucket(x: f64, cell: f64) -> i64 {
    (x / cell).floor().clamp(-1e9, 1e9) as i64
}

/// The key of bucket `(bx, by)`: ordered by `bx`, then `by`.
fn key(bx: i64, by: i64) -> u64 {
    (((bx + (1 << 31)) as u64) << 32) | (by + (1 << 31)) as u64
}

/// The movers bucketed in squares: sorted by bucket key, so that one column of buckets is
/// one run of the list, found by two binary searches.
#[derive(Debug, Clone, Default)]
struct Buckets {
    /// (bucket key, mover), sorted.
    sorted: Vec<(u64, u32)>,
    /// What the neighbour search reads of each mover, in the order of `sorted`: at hand
    /// where the search reads it, not one cache miss a candidate away in the movers' list.
    seen: Vec<Seen>,
}

/// A mover as the neighbour search reads it.
#[derive(Debug, Clone, Copy)]
struct Seen {
    position: DVec2,
    floor: f64,
    obstacle: bool,
}

/// Where the buckets within `span` of the last bucket asked for (on each axis) stand in
/// [`Buckets::sorted`]: for each of the `2 × span + 1` columns, the first entry at or after
/// its lowest bucket and the first after its highest. A solver keeps them from one solve
/// to the next. A run solves its movers in bucket order, and every bound is the first
/// entry with a key at or above the mover's bucket key shifted by a fixed offset, which
/// keeps the keys' order: so the bounds only move forward, and each walks the list once a
/// run, instead of two binary searches a column a mover (with one mover or fewer a bucket,
/// as in a crowd spread over a map, those searches were a sixth of a 10,000-agent frame).
#[derive(Debug, Clone, Default)]
struct Columns {
    key: Option<u64>,
    bounds: Vec<usize>,
}

impl Columns {
    /// The ranges of the buckets' list that the bounds name, column by column.
    fn ranges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.bounds.chunks_exact(2).map(|b| (b[0], b[1]))
    }

    /// The ranges these bounds (of `span`, round a mover's bucket) name less those that
    /// `inner` (of span 1, round the same bucket) names: in the middle three columns the
    /// stretches below and above the inner ones.
    fn ranges_beside<'a>(
        &'a self,
        inner: &'a Columns,
        span: i64,
    ) -> impl Iterator<Item = (usize, usize)> + 'a {
        let span = span as usize;
        self.bounds
            .chunks_exact(2)
            .enumerate()
            .flat_map(
                move |(c, b)| match (c + 1).checked_sub(span).filter(|&m| m < 3) {
                    Some(m) => [(b[0], inner.bounds[2 * m]), (inner.bounds[2 * m + 1], b[1])],
                    None => [(b[0], b[1]), (b[1], b[1])],
                },
            )
    }
}

impl Buckets {
    /// Buckets `n` movers, mover `i` seen as `seen(i)`, in squares of side `cell`, reusing
    /// the memory.
    fn build(&mut self, n: usize, seen: impl Fn(usize) -> Seen, cell: f64) {
        self.sorted.clear();
        self.sorted.extend((0..n).map(|i| {
            let p = seen(i).position;
            (key(bucket(p.x, cell), bucket(p.y, cell)), i as u32)
        }));
        self.sorted.sort_unstable();
        self.seen.clear();
        self.seen
            .extend(self.sorted.iter().map(|&(_, i)| seen(i as usize)));
    }

    /// The range of `sorted` that holds the buckets `ys.0..=ys.1` of column `x`.
    fn column(&self, x: i64, ys: (i64, i64)) -> (usize, usize) {
        let lo = self.sorted.partition_point(|&(k, _)| k < key(x, ys.0));
        let hi = self.sorted.partition_point(|&(k, _)| k <= key(x, ys.1));
        (lo, hi)
    }

    /// Sets `columns` to the bounds of the buckets of side `cell` within `span` of point
    /// `p`'s on each axis, from those of the last call with this span (see [`Columns`];
    /// any order of calls is answered right, bucket order fastest).
    fn around(&self, cell: f64, p: DVec2, span: i64, columns: &mut Columns) {
        let (bx, by) = (bucket(p.x, cell), bucket(p.y, cell));
        let now = key(bx, by);
        // Bound 2c: the first key at or above column c's lowest bucket; 2c + 1: above its
        // highest (keys are integers, so the first at or above the bucket after it).
        let first = |b: usize| {
            let (column, top) = ((b / 2) as i64, (b % 2) as i64);
            key(bx - span + column, by - span + top * (2 * span + 1))
        };
        let sorted = &self.sorted;
        let width = 2 * (2 * span as usize + 1);
        match columns.key {
            Some(last) if last <= now && columns.bounds.len() == width => {
                for (b, bound) in columns.bounds.iter_mut().enumerate() {
                    let t = first(b);
                    while sorted.get(*bound).is_some_and(|&(k, _)| k < t) {
                        *bound += 1;
                    }
                }
            }
            _ => {
                columns.bounds.clear();
                let search = |b| sorted.partition_point(|&(k, _)| k < first(b));
                columns.bounds.extend((0..width).map(search));
            }
        }
        columns.key = Some(now);
    }

    /// The movers in the buckets `xs.0..=xs.1` × `ys.0..=ys.1`, column by column, as seen.
    fn within(&self, xs: (i64, i64), ys: (i64, i64)) -> impl Iterator<Item = (usize, &Seen)> + '_ {
        (xs.0..=xs.1).flat_map(move |x| self.range(self.column(x, ys)))
    }

    /// The movers of `sorted[lo..hi]`, as seen.
    fn range(&self, (lo, hi): (usize, usize)) -> impl Iterator<Item = (usize, &Seen)> + '_ {
        let movers = self.sorted[lo..hi].iter().map(|&(_, j)| j as usize);
        movers.zip(&self.seen[lo..hi])
    }
}

impl AvoidScratch {
    /// Buckets the movers for an update with `settings` and time step `dt`, and hands out
    /// the frame to solve them in and a solver for each of `runs` runs
    /// ([`Frame::solve_run`]); [`chosen`](Self::chosen) then gathers their answers.
    pub(crate) fn frame<'a>(
        &'a mut self,
        settings: &'a Avoidance,
        height: f64,
        dt: f64,
        runs: usize,
    ) -> (Frame<'a>, &'a mut [Solver]) {
        let reach = settings.neighbour_distance.unwrap_or_else(|| {
            let fastest = self.movers.iter().fold(0.0f64, |m, a| m.max(a.speed));
            let widest = self.movers.iter().fold(0.0f64, |m, a| m.max(a.radius));
            2.0 * (fastest * settings.time_horizon + widest)
        });
        let span = bucket_span(self.density(), reach, settings.max_neighbours);
        let cell = (reach / span as f64).max(f64::MIN_POSITIVE);
        self.cell = cell;
        self.height = height;
        let seen = |i: usize| {
            let m = &self.movers[i];
            Seen {
                position: m.position,
                floor: m.floor,
                obstacle: m.obstacle,
            }
        };
        self.buckets.build(self.movers.len(), seen, cell);
        self.solvers.resize_with(runs.max(1), Solver::default);
        for solver in &mut self.solvers {
            // The bounds kept from the last frame point into another list.
            solver.inner.key = None;
            solver.outer.key = None;
            solver.seen = (0, 0.0);
        }
        let frame = Frame {
            movers: &self.movers,
            buckets: &self.buckets,
            settings,
            height,
            dt,
            reach,
            cell,
            span,
            obstacles: self.movers.iter().any(|m| m.obstacle),
        };
        (frame, &mut self.solvers)
    }

    /// How many movers stand to a unit of area round one another, for the buckets' side:
    /// as the last frame's searches found them (the movers they read over the area of the
    /// buckets they read: the crowding agents see, where a crowd gathers in a corner of
    /// its map), or on a first frame, over the box round them all.
    fn density(&self) -> f64 {
        let (read, area) = self
            .solvers
            .iter()
            .fold((0, 0.0), |(n, a), s| (n + s.seen.0, a + s.seen.1));
        if area > 0.0 {
            return read as f64 / area;
        }
        let (lo, hi) = self
            .movers
            .iter()
            .fold((DVec2::INFINITY, DVec2::NEG_INFINITY), |(lo, hi), m| {
                (lo.min(m.position), hi.max(m.position))
            });
        let extent = hi - lo;
        self.movers.len() as f64 / (extent.x * extent.y)
    }

    /// The velocities the runs of the last [`frame`](Self::frame) chose, by mover.
    pub(crate) fn chosen(&mut self) -> &[Option<DVec2>] {
        self.chosen.clear();
        self.chosen.resize(self.movers.len(), None);
        for solver in &self.solvers {
            for &(i, v) in &solver.chosen {
                self.chosen[i as usize] = v;
            }
        }
        &self.chosen
    }

    /// The pairs of the first `agents` movers that now stand closer than the sum of their
    /// radii on one floor (their heights less than the last frame's agent height apart),
    /// one of them having taken a velocity of avoidance's choosing this frame
    /// ([`chosen`](Self::chosen)), into `out` (each pair once, the lower index first).
    /// `at(i)` and `radius(i)`: mover `i`'s position and floor height after the walk, and
    /// its radius.
    ///
    /// Candidates come from the frame's buckets, filled with the positions before the walk:
    /// a pair that overlaps now stood less than the sum of their radii and of their moves
    /// apart, so mover `i`'s candidates stood within its radius, the widest radius and
    /// twice the longest move this frame of its position before (a bound measured here,
    /// so it holds whatever moved an agent: its walk, a door, a re-plan). Cost: O(agents)
    /// for that bound, then per mover that avoided the buckets that square meets, mostly
    /// one (the buckets' side is the avoidance's reach, several steps); nothing for the
    /// movers that kept their way.
    pub(crate) fn overlapping(
        &self,
        agents: usize,
        at: impl Fn(usize) -> (DVec2, f64),
        radius: impl Fn(usize) -> f64,
        out: &mut Vec<(u32, u32)>,
    ) {
        out.clear();
        let (mut moved, mut widest) = (0.0f64, 0.0f64);
        for (i, m) in self.movers.iter().take(agents).enumerate() {
            moved = moved.max(at(i).0.distance(m.position));
            widest = widest.max(radius(i));
        }
        let avoided = self.chosen.iter().take(agents).enumerate();
        for (i, _) in avoided.filter(|(_, v)| v.is_some()) {
            let ((p, floor), r) = (at(i), radius(i));
            // The square round the position before, a thousandth wider than the bound, so
            // that rounding in its corners cannot leave a bucket out.
            let (q, half) = (self.movers[i].position, 1.001 * (r + widest + 2.0 * moved));
            let xs = (bucket(q.x - half, self.cell), bucket(q.x + half, self.cell));
            let ys = (bucket(q.y - half, self.cell), bucket(q.y + half, self.cell));
            for (j, before) in self.buckets.within(xs, ys) {
                // The positions before first: they are at hand in the buckets, the
                // agents' positions now are one cache miss each, and most candidates of a
                // bucket stood farther than the bound.
                let near_before = before.position.distance(q) < half;
                if j == i || j >= agents || !near_before {
                    continue;
                }
                let (pj, floor_j) = at(j);
                if pj.distance(p) < r + radius(j) && same_floor(floor, floor_j, self.height) {
                    out.push((i.min(j) as u32, i.max(j) as u32));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// The velocity every mover takes, on the calling thread, given to
    /// `out(mover, velocity)`: see [`Frame::velocity`].
    #[cfg(test)]
    pub(crate) fn velocities(
        &mut self,
        settings: &Avoidance,
        dt: f64,
        walls_near: impl Fn(usize, DVec2, f64, &mut Vec<[DVec2; 2]>) + Sync,
        mut out: impl FnMut(usize, Option<DVec2>),
    ) {
        let (frame, solvers) = self.frame(settings, f64::INFINITY, dt, 1);
        frame.solve_run(0, 1, &mut solvers[0], &walls_near);
        for (i, &v) in self.chosen().iter().enumerate() {
            out(i, v);
        }
    }
}

impl Frame<'_> {
    /// The velocities of run `run`'s share of the movers (of `runs` equal shares) into
    /// `solver`, see [`velocity`](Self::velocity). A run takes its movers in bucket order,
    /// neighbours after one another, so that the buckets and the neighbours each solve
    /// reads are mostly in cache from the solve before (in index order, scattered over the
    /// map, the neighbour search alone took a fifth of a 10,000-agent frame).
    pub(crate) fn solve_run(
        &self,
        run: usize,
        runs: usize,
        solver: &mut Solver,
        walls_near: WallsNear<'_>,
    ) {
        let n = self.buckets.sorted.len();
        let per_run = n.div_ceil(runs.max(1)).max(1);
        let lo = (run * per_run).min(n);
        solver.chosen.clear();
        for &(_, i) in &self.buckets.sorted[lo..(lo + per_run).min(n)] {
            let v = self.velocity(i as usize, solver, walls_near);
            solver.chosen.push((i, v));
        }
    }

    /// The velocity mover `i` takes: ORCA's, against its nearest neighbours and the walls
    /// `walls_near(i, p, reach, out)` lists near it, or `None` for a mover that keeps its
    /// preferred velocity (nobody near, or nobody in its way). Depends on nothing but the
    /// frame (not on the solver's earlier use), so runs in any order give the same answer.
    pub(crate) fn velocity(
        &self,
        i: usize,
        solver: &mut Solver,
        walls_near: WallsNear<'_>,
    ) -> Option<DVec2> {
        let settings = self.settings;
        let dt = self.dt;
        let options = |margin: f64| AvoidanceOptions {
            obstacle_margin: margin as f32,
            time_horizon: settings.time_horizon as f32,
            obstacle_time_horizon: settings.wall_time_horizon as f32,
        };
        let me = self.movers[i];
        if me.obstacle || dt <= 0.0 {
            return None;
        }
        self.nearest(i, solver);
        // A standing agent stands aside for moving obstacles only.
        let truck_near = || {
            solver
                .near
                .iter()
                .any(|&(_, _, j)| self.movers[j as usize].obstacle)
        };
        if solver.near.is_empty()
            || (me.standing && !truck_near())
            || self.on_a_clear_course(i, &solver.near)
        {
            return None;
        }
        // Positions relative to the agent, so f32 keeps their precision far from the
        // origin.
        solver.neighbours.clear();
        solver
            .neighbours
            .extend(solver.near.iter().map(|&(_, _, j)| {
                let other = &self.movers[j as usize];
                // Two agents at one point have no direction to part in: the one later
                // in the crowd is taken a hair to the right of the other (+x), so
                // that they part, the same way on every run.
                let apart = match other.position - me.position {
                    d if d != DVec2::ZERO => d,
                    _ if j as usize > i => DVec2::new(1e-6 * me.radius, 0.0),
                    _ => DVec2::new(-1e-6 * me.radius, 0.0),
                };
                Cow::Owned(Agent {
                    position: to_f32(apart),
                    velocity: to_f32(other.velocity),
                    radius: (other.radius * MARGIN) as f32,
                    // A standing agent does not move aside: the mover takes it all.
                    avoidance_responsibility: if other.standing { 0.0 } else { 1.0 },
                })
            }));
        // The walls it could reach within the wall horizon, as RVO2's obstacle edges.
        solver.walls.clear();
        walls_near(
            i,
            me.position,
            me.speed * settings.wall_time_horizon + 2.0 * me.radius,
            &mut solver.walls,
        );
        // The edges into obstacles kept from earlier solves: their vertex lists are
        // rewritten in place, not allocated anew for every wall of every solve.
        let walls = solver.walls.len();
        if solver.obstacles.len() < walls {
            solver.obstacles.resize_with(walls, || {
                Cow::Owned(Obstacle::Open {
                    vertices: Vec::with_capacity(2),
                })
            });
        }
        for (o, &[a, b]) in solver.obstacles.iter_mut().zip(&solver.walls) {
            if let Obstacle::Open { vertices } = o.to_mut() {
                vertices.clear();
                vertices.extend([to_f32(a - me.position), to_f32(b - me.position)]);
            }
        }
        let options = options(me.radius * WALL_MARGIN);
        let agent = Agent {
            position: Vec2::ZERO,
            velocity: to_f32(me.velocity),
            radius: (me.radius * MARGIN) as f32,
            avoidance_responsibility: 1.0,
        };
        let solve = |asked: DVec2| {
            let v = agent.compute_avoiding_velocity(
                &solver.neighbours,
                &solver.obstacles[..walls],
                to_f32(asked),
                me.speed as f32,
                dt as f32,
                &options,
            );
            DVec2::new(f64::from(v.x), f64::from(v.y))
        };
        let mut v = solve(me.preferred);
        // An agent that has been slowed, and that ORCA would still hold back, asks to
        // pass on the right, turning further the longer it has been slowed: in a
        // symmetric jam (a circle of agents meeting at its centre, a file head-on in a
        // corridor) the velocities ORCA allows cancel out and the agents stop; the
        // same turn for everyone sets them round each other. The turned answer is
        // taken only when it does not lead backwards (not into a wall's slide away
        // from the way).
        if me.slowed > 0.0 && v.length() < SLOWED * me.pace {
            let turn = (KEEP_RIGHT_RATE * me.slowed).min(KEEP_RIGHT_MAX);
            let turn = turn * self.side_to_pass(i, &solver.near);
            let turned = solve(DVec2::from_angle(turn).rotate(me.preferred));
            if turned.dot(me.preferred) > v.dot(me.preferred).min(0.0) {
                v = turned;
            }
        }
        // What f32 rounding alone moved is no avoidance: the path's own step is exact.
        let kept = v.distance(me.preferred) <= 1e-5 * me.speed;
        match (v.is_finite(), kept) {
            (true, true) => None,
            (true, false) => Some(v),
            (false, _) => Some(DVec2::ZERO),
        }
    }

    /// Which way mover `i`, slowed, turns to pass: −1 to the right (clockwise), +1 to the
    /// left. To the right, unless the nearest agent ahead in `near` that comes the other
    /// way is already off to its right by more than [`ALREADY_ASIDE`] of the sum of their
    /// radii: then the two
    /// have begun to pass the other way, and turning right would cross in front of it (in
    /// a corridor, the one at the wall and the other beside it pressed against each other
    /// for as long as both kept right). The rule agrees between two movers heading towards
    /// each other: each sees the other on the same side.
    fn side_to_pass(&self, i: usize, near: &[Near]) -> f64 {
        let me = &self.movers[i];
        // `near` holds the agents nearest first (after any moving obstacles, which do not
        // count here).
        for &(_, _, j) in near {
            let other = &self.movers[j as usize];
            let d = other.position - me.position;
            if !other.obstacle
                && d.dot(me.preferred) > 0.0
                && other.preferred.dot(me.preferred) < 0.0
            {
                let aside = me.preferred.normalize_or_zero().perp_dot(d);
                return if aside < -ALREADY_ASIDE * (me.radius + other.radius) {
                    1.0
                } else {
                    -1.0
                };
            }
        }
        -1.0
    }

    /// True when mover `i` walks steadily (its preferred velocity within [`STEADY`] of the
    /// one it has, not slowed) and, at its preferred velocity, comes no nearer than
    /// [`CLEAR_COURSE`] times the sum of the radii to any of its neighbours in `near`
    /// within the horizon, each at its own velocity. Such a mover keeps its way with no
    /// solve: its neighbours' ORCA lines were drawn for its velocity, which it keeps, and
    /// leave the pair apart over the horizon (Berg, Guy, Lin, Manocha, "Reciprocal n-Body
    /// Collision Avoidance", 2011: a velocity outside the truncated cone keeps a pair
    /// apart for that long). Most agents of a crowd are such most of the time; the solve,
    /// the walls near them and the neighbour list cost most of the avoidance.
    fn on_a_clear_course(&self, i: usize, near: &[Near]) -> bool {
        let horizon = self.settings.time_horizon;
        let me = &self.movers[i];
        if me.slowed > 0.0 || me.preferred.distance(me.velocity) > STEADY * me.speed {
            return false;
        }
        near.iter().all(|&(_, _, j)| {
            let other = &self.movers[j as usize];
            let d = other.position - me.position;
            let w = me.preferred - other.velocity;
            let t = match w.length_squared() {
                ww if ww > 0.0 => (d.dot(w) / ww).clamp(0.0, horizon),
                _ => 0.0,
            };
            (d - w * t).length() >= CLEAR_COURSE * (me.radius + other.radius)
        })
    }

    /// The (at most the settings' limit) movers nearest mover `i` within the reach and on
    /// its floor, moving obstacles first, then nearest first (ties: the lower index), in
    /// `near`. The order is total, so `near` is the first `max` of the full sort, whichever
    /// buckets were searched (the solver's bounds and counts are its scratch).
    fn nearest(&self, i: usize, solver: &mut Solver) {
        let Solver {
            near,
            inner,
            outer,
            seen,
            ..
        } = solver;
        // First the 3 × 3 buckets round the mover's: they hold every mover nearer than a
        // bucket's side, so when the nearest `max` found there are all nearer than that
        // (by a margin for the rounding of the buckets' bounds), nothing outside is nearer
        // and they are the answer. Else the rest of the reach, read on from that answer
        // (the 3 × 3 buckets not read twice). Moving obstacles are kept whatever their
        // distance: with any about, the whole reach at once.
        let p = self.movers[i].position;
        let (cell2, whole) = (self.cell * self.cell, (2 * self.span + 1).pow(2));
        near.clear();
        if self.span > 1 && !self.obstacles {
            self.buckets.around(self.cell, p, 1, inner);
            self.gather(i, inner.ranges(), 9.0 * cell2, near, seen);
            let max = self.settings.max_neighbours;
            let sure = 0.99 * self.cell;
            if near.len() == max && near.last().is_some_and(|&(_, d, _)| d < sure) {
                return;
            }
            self.buckets.around(self.cell, p, self.span, outer);
            let rest = outer.ranges_beside(inner, self.span);
            self.gather(i, rest, (whole - 9) as f64 * cell2, near, seen);
            return;
        }
        self.buckets.around(self.cell, p, self.span, outer);
        self.gather(i, outer.ranges(), whole as f64 * cell2, near, seen);
    }

    /// Adds to `near` the movers of the `ranges` of the buckets' list that are within the
    /// reach of mover `i` and on its floor, keeping the (at most the settings' limit)
    /// nearest in order (see [`nearest`](Self::nearest)); counts them and the buckets'
    /// area in `read`.
    ///
    /// In a dense crowd far more movers are in reach than are kept (the limit is a
    /// handful): each candidate is compared with the worst kept one and only a better one
    /// is inserted, in order, so a frame sorts nothing.
    fn gather(
        &self,
        i: usize,
        ranges: impl Iterator<Item = (usize, usize)>,
        area: f64,
        near: &mut Vec<Near>,
        read: &mut (u64, f64),
    ) {
        let (reach, max) = (self.reach, self.settings.max_neighbours);
        let (p, floor) = (self.movers[i].position, self.movers[i].floor);
        read.1 += area;
        // A first test without a square root, loose enough never to pass over a mover the
        // exact tests keep: a squared distance beyond the reach's square, or (with no
        // moving obstacle about, which would come first whatever its distance) beyond the
        // worst kept one's once the list is full, by more than rounding. Most candidates
        // stop here, on one branch that seldom changes its way (the exact tests' two
        // unpredictable branches waited on the square root).
        let reach2 = reach * reach * LOOSE;
        let limit = |near: &[Near]| match near.last() {
            Some(&(_, d, _)) if near.len() == max && !self.obstacles => reach2.min(d * d * LOOSE),
            _ => reach2,
        };
        let mut beyond = limit(near);
        for (j, seen) in ranges.flat_map(|r| self.buckets.range(r)) {
            read.0 += 1;
            let d2 = (seen.position - p).length_squared();
            if d2 > beyond {
                continue;
            }
            let d = d2.sqrt(); // `DVec2::distance`, to the bit
            if j == i || d > reach || !same_floor(floor, seen.floor, self.height) {
                continue;
            }
            // Moving obstacles first: the limit must not leave a truck out for a crowd.
            let candidate = (!seen.obstacle, d, j as u32);
            let rank = rank(&candidate);
            if near.len() == max {
                match near.last() {
                    Some(worst) if rank < self::rank(worst) => {
                        near.pop();
                    }
                    _ => continue,
                }
            }
            // Into place from the end (a handful kept: a step of insertion sort).
            near.push(candidate);
            let mut at = near.len() - 1;
            while at > 0 && self::rank(&near[at - 1]) > rank {
                near[at] = near[at - 1];
                at -= 1;
            }
            near[at] = candidate;
            beyond = limit(near);
        }
    }
}

fn to_f32(v: DVec2) -> Vec2 {
    Vec2::new(v.x as f32, v.y as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mover(x: f64, vx: f64) -> Mover {
        Mover {
            position: DVec2::new(x, 0.0),
            velocity: DVec2::new(vx, 0.0),
            preferred: DVec2::new(vx, 0.0),
            speed: 1.0,
            pace: 1.0,
            radius: 0.5,
            standing: false,
            slowed: 0.0,
            obstacle: false,
            floor: 0.0,
        }
    }

    /// The overlap search finds exactly the pairs a comparison of every pair finds (closer
    /// than their radii now on one floor, one of them having avoided), over random crowds
    /// in which a few agents were moved much farther than a step (as a door or a push moves
    /// one), farther than the buckets' side, on floors 0, 1.5 and 3 (agents 2 tall: the
    /// middle floor meets both others, those two never meet).
    #[test]
    fn the_overlap_search_finds_every_overlapping_pair_a_full_comparison_finds() {
        let mut next = crate::test_fixtures::uniform(0x2545_f491_4f6c_dd1du64);
        for trial in 0..200 {
            let n = 2 + (next() * 60.0) as usize;
            let side = 2.0 + next() * 10.0;
            let mut s = AvoidScratch::default();
            for _ in 0..n {
                s.movers.push(Mover {
                    position: DVec2::new(next() * side, next() * side),
                    speed: 0.1,
                    radius: 0.2 + 0.4 * next(),
                    ..mover(0.0, 0.0)
                });
            }
            // Buckets as an update makes them; then who avoided, and where all stand now.
            let _ = s.frame(&Avoidance::default(), 2.0, 0.1, 1);
            s.chosen = (0..n)
                .map(|_| (next() < 0.7).then_some(DVec2::ZERO))
                .collect();
            let after: Vec<(DVec2, f64)> = s
                .movers
                .iter()
                .map(|m| {
                    let reach = if next() < 0.05 { 5.0 } else { 0.05 };
                    let floor = [0.0, 1.5, 3.0][(next() * 3.0) as usize % 3];
                    let p = m.position + DVec2::new(next() - 0.5, next() - 0.5) * 2.0 * reach;
                    (p, floor)
                })
                .collect();
            let agents = n - (trial % 3 == 0) as usize; // the last one a moving obstacle
            let radius = |i: usize| s.movers[i].radius;
            let mut found = Vec::new();
            s.overlapping(agents, |i| after[i], radius, &mut found);
            let mut every = Vec::new();
            for i in 0..agents {
                for j in i + 1..agents {
                    let avoided = s.chosen[i].is_some() || s.chosen[j].is_some();
                    let ((p, f), (q, g)) = (after[i], after[j]);
                    let meet = (f - g).abs() < 2.0;
                    if avoided && meet && p.distance(q) < radius(i) + radius(j) {
                        every.push((i as u32, j as u32));
                    }
                }
            }
            assert_eq!(found, every, "trial {trial}");
        }
    }

    /// The neighbour search's buckets within 1 to 4 of a point's, through bounds kept from
    /// call to call, hold exactly the movers whose buckets are that near the point's on
    /// each axis (a count over every mover), asked in bucket order (as a run asks), in
    /// random order, and after the buckets were rebuilt for fewer movers (the frame drops
    /// the old bounds).
    #[test]
    fn the_buckets_round_a_point_hold_what_a_scan_of_every_mover_finds() {
        let mut next = crate::test_fixtures::uniform(0x9e37_79b9_7f4a_7c15u64);
        for trial in 0..100 {
            let span = 1 + trial % 4;
            let mut s = AvoidScratch::default();
            let side = 1.0 + next() * 30.0;
            for _ in 0..2 + (next() * 300.0) as usize {
                let p = DVec2::new(next() * side, next() * side) - DVec2::splat(side / 2.0);
                s.movers.push(Mover {
                    position: p,
                    ..mover(0.0, 1.0)
                });
            }
            if trial % 2 == 1 {
                // A solver that served a larger crowd: its bounds must not outlive it.
                let settings = Avoidance::default();
                let (frame, solvers) = s.frame(&settings, 2.0, 0.1, 1);
                let last = frame.buckets.sorted.len() - 1;
                let p = frame.movers[frame.buckets.sorted[last].1 as usize].position;
                frame
                    .buckets
                    .around(frame.cell, p, span, &mut solvers[0].outer);
                s.movers.truncate(s.movers.len() / 2);
            }
            let settings = Avoidance::default();
            let (frame, solvers) = s.frame(&settings, 2.0, 0.1, 1);
            let Solver { inner, outer, .. } = &mut solvers[0];
            let mut order: Vec<usize> = frame
                .buckets
                .sorted
                .iter()
                .map(|&(_, i)| i as usize)
                .collect();
            if trial % 3 == 0 {
                let mut keyed: Vec<(u64, usize)> =
                    order.iter().map(|&i| ((next() * 1e9) as u64, i)).collect();
                keyed.sort_unstable();
                order = keyed.into_iter().map(|(_, i)| i).collect();
            }
            let cell = frame.cell;
            let at = |p: DVec2| (bucket(p.x, cell), bucket(p.y, cell));
            for i in order {
                let p = frame.movers[i].position;
                let found = |ranges: &mut dyn Iterator<Item = (usize, usize)>| {
                    let mut found: Vec<usize> = ranges
                        .flat_map(|r| frame.buckets.range(r).map(|(j, _)| j))
                        .collect();
                    found.sort_unstable();
                    found
                };
                let (bx, by) = at(p);
                let within = |j: usize, span: i64| {
                    let (x, y) = at(frame.movers[j].position);
                    (x - bx).abs() <= span && (y - by).abs() <= span
                };
                frame.buckets.around(cell, p, span, outer);
                let every: Vec<usize> = (0..frame.movers.len())
                    .filter(|&j| within(j, span))
                    .collect();
                assert_eq!(
                    found(&mut outer.ranges()),
                    every,
                    "trial {trial}, mover {i}"
                );
                // Beyond the 3 × 3 buckets round it: the rest of the reach.
                if span > 1 {
                    frame.buckets.around(cell, p, 1, inner);
                    let rest: Vec<usize> = (0..frame.movers.len())
                        .filter(|&j| within(j, span) && !within(j, 1))
                        .collect();
                    let beside = &mut outer.ranges_beside(inner, span);
                    assert_eq!(found(beside), rest, "trial {trial}, mover {i}");
                }
            }
        }
    }

    /// The neighbours found are the first of a full sort of every mover in reach on the
    /// mover's floor (a moving obstacle first, then by distance and index), over crowds
    /// from sparse (the buckets as wide as the reach) to dense (the reach cut in four),
    /// with 1 to 12 kept, some agents on another floor, and now and then a truck.
    #[test]
    fn the_nearest_neighbours_are_the_first_of_a_full_sort() {
        let mut next = crate::test_fixtures::uniform(0xd1b5_4a32_d192_ed03u64);
        let mut spans = [0usize; 5];
        for trial in 0..80 {
            let mut s = AvoidScratch::default();
            let side = 2.0 + next() * 80.0;
            let n = 2 + (next() * 600.0) as usize;
            for k in 0..n {
                let truck = trial % 5 == 0 && k == n - 1;
                s.movers.push(Mover {
                    position: DVec2::new(next() * side, next() * side),
                    floor: match (truck, next() < 0.2) {
                        (true, _) => f64::NAN,
                        (false, upstairs) => 3.0 * f64::from(u8::from(upstairs)),
                    },
                    obstacle: truck,
                    ..mover(0.0, 1.0)
                });
            }
            let settings = Avoidance {
                max_neighbours: 1 + trial % 12,
                ..Avoidance::default()
            };
            // Twice: the buckets of a first frame, sized by the box round the movers, and
            // of the next, sized by what the first one's searches read.
            for _ in 0..2 {
                let (frame, solvers) = s.frame(&settings, 2.0, 0.1, 1);
                spans[frame.span as usize] += 1;
                let solver = &mut solvers[0];
                for &(_, i) in &frame.buckets.sorted {
                    let i = i as usize;
                    frame.nearest(i, solver);
                    let me = frame.movers[i];
                    let mut every: Vec<Near> = (0..n)
                        .filter(|&j| j != i && same_floor(me.floor, frame.movers[j].floor, 2.0))
                        .map(|j| {
                            let other = &frame.movers[j];
                            (
                                !other.obstacle,
                                other.position.distance(me.position),
                                j as u32,
                            )
                        })
                        .filter(|&(_, d, _)| d <= frame.reach)
                        .collect();
                    every.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
                    every.truncate(settings.max_neighbours);
                    assert_eq!(solver.near, every, "trial {trial}, mover {i}");
                }
            }
        }
        let some = |span: usize| spans[span] > 0;
        assert!((1..=4).all(some), "sparse and dense crowds: {spans:?}");
    }

    /// Two agents walking head-on at each other turn aside; one alone keeps its velocity.
    #[test]
    fn head_on_agents_turn_aside_and_a_lone_one_does_not() {
        let mut s = AvoidScratch {
            movers: vec![mover(0.0, 1.0), mover(2.0, -1.0), mover(100.0, 1.0)],
            ..AvoidScratch::default()
        };
        let mut out = vec![None; 3];
        s.velocities(
            &Avoidance::default(),
            0.1,
            |_, _, _, _| {},
            |i, v| out[i] = v,
        );
        assert_eq!(out[2], None);
        let (a, b) = (out[0].unwrap(), out[1].unwrap());
        assert!(a.y.abs() > 0.05 && b.y.abs() > 0.05, "{out:?}");
        assert!(a.length() <= 1.0 + 1e-6 && b.length() <= 1.0 + 1e-6);
    }

    /// Side by side on parallel courses nobody solves; head-on, or unsteady, or slowed,
    /// the solve is not skipped.
    #[test]
    fn only_steady_agents_on_clear_courses_skip_the_solve() {
        let ahead = |y: f64| Mover {
            position: DVec2::new(0.0, y),
            ..mover(0.0, 1.0)
        };
        let mut movers = vec![ahead(0.0), ahead(1.3), mover(3.0, -1.0)];
        let clear = |movers: &[Mover], near: &[Near], horizon: f64| {
            let settings = Avoidance {
                time_horizon: horizon,
                ..Avoidance::default()
            };
            let frame = Frame {
                movers,
                buckets: &Buckets::default(),
                settings: &settings,
                height: f64::INFINITY,
                dt: 0.1,
                reach: 10.0,
                cell: 10.0,
                span: 1,
                obstacles: false,
            };
            frame.on_a_clear_course(0, near)
        };
        let side = [(true, 1.3, 1)];
        let both = [(true, 1.3, 1), (true, 3.0, 2)];
        assert!(clear(&movers, &side, 2.0));
        assert!(!clear(&movers, &both, 2.0), "head-on within the horizon");
        assert!(
            clear(&movers, &both, 0.5),
            "head-on beyond a shorter horizon"
        );
        movers[0].velocity = DVec2::new(0.8, 0.0);
        assert!(!clear(&movers, &side, 2.0), "unsteady");
        movers[0].velocity = DVec2::new(1.0, 0.0);
        movers[0].slowed = 0.1;
        assert!(!clear(&movers, &side, 2.0), "slowed");
    }

    #[test]
    fn bad_settings_are_refused() {
        for bad in [
            Avoidance {
                time_horizon: 0.0,
                ..Avoidance::default()
            },
            Avoidance {
                time_horizon: f64::NAN,
                ..Avoidance::default()
            },
            Avoidance {
                max_neighbours: 0,
                ..Avoidance::default()
            },
            Avoidance {
                wall_time_horizon: -1.0,
                ..Avoidance::default()
            },
            Avoidance {
                neighbour_distance: Some(-1.0),
                ..Avoidance::default()
            },
        ] {
            assert!(
                matches!(bad.check(), Err(Error::BadParameter { .. })),
                "{bad:?}"
            );
        }
        assert!(Avoidance::default().check().is_ok());
    }
}
