//! Giving way: two agents head-on in a passage too narrow for both, where ORCA has no way
//! round (each holds the other back, and the keep-right turn finds no room), stand for
//! good. After [`GIVE_WAY_AFTER`] seconds one of them walks back to a spot off the other's
//! path, waits there until the other has walked past its own way, and walks on.

use glam::DVec2;

use super::{AgentIndex, Crowd, CrowdAgent};
use crate::geometry::closest_on_segment;
use crate::world::{ObstacleWorld, World};

/// How long (seconds) an agent must have been slowed, head-on with another, before it
/// gives way: as long as the keep-right turn takes to reach its largest (π/2 at 0.5 rad/s
/// slowed), which sets two agents round each other where there is room.
const GIVE_WAY_AFTER: f64 = 3.0;

/// Below this fraction of its pace an agent slowed that long stands: it is held, not
/// edging round.
const STANDS: f64 = 0.1;

/// How near (in the sum of their radii, centre to centre) the other must be.
const HEAD_ON_REACH: f64 = 1.5;

/// The longest (seconds) an agent waits at its spot before it walks on regardless (the
/// other may stand on its way for good: at its goal, or stuck); avoidance then takes over.
const MAX_WAIT: f64 = 10.0;

/// How far off the other's path (in the sum of their radii) a spot must lie, and how far
/// off its way the other must be before the agent walks on.
const CLEAR: f64 = 1.25;

/// The spots tried: at these distances from the agent (in the sum of the radii) ...
const RINGS: [f64; 7] = [1.5, 2.5, 3.5, 5.0, 7.0, 10.0, 14.0];
/// ... in this many directions each, the one straight away from the other first.
const DIRECTIONS: usize = 16;
/// The most spots planned to (each a plan) before the agent gives up giving way.
const MAX_PLANS: usize = 8;

/// An agent giving way ([`CrowdAgent::giving_way`]).
#[derive(Debug, Clone)]
pub(super) struct GivingWay {
    /// The agent it gives way to (kept right by [`Crowd::remove_agent`]).
    pub(super) to: AgentIndex,
    /// Its target, walked on to once the other has passed.
    target: DVec2,
    /// Its path when it gave way: the way the other walks along the other way.
    way: Vec<DVec2>,
    /// Seconds since it gave way.
    waited: f64,
}

#[cfg(feature = "give-way")]
impl<W: ObstacleWorld + Send + Sync> Crowd<W> {
    /// After an update with avoidance: agents that waited at their spots long enough walk
    /// on, and agents that stood head-on long enough give way. Only agents on the crowd's
    /// own world give way (not those walking a sheet or a leg of their own across floors).
    /// Cost: a pass over the agents, a sort of those held (or giving way) and a look at
    /// their neighbours, plus up to [`MAX_PLANS`] plans for each that gives way. What does
    /// not plan is in functions of the agents alone, compiled once for every world.
    #[inline(never)]
    pub(super) fn give_way(&mut self, dt: f64) {
        for (i, target) in walk_on_after_giving_way(&mut self.agents, dt) {
            // A target set again (which ends the giving way): planned by the next update,
            // as `set_target`'s; `i` is an agent's index, which it accepts.
            let _ = self.set_target(i, target);
        }
        let widest = self.radii.iter().fold(0.0f64, |w, &r| w.max(r));
        let ours = |i: usize| self.walks_crowd_world(i);
        let pairs = head_on_pairs(&self.agents, &ours, widest, self.agent_height);
        for (i, j) in pairs {
            if self.agents[i].giving_way.is_some() || self.give_way_to(i, j) {
                continue;
            }
            // No spot for `i` (it stands in a dead end): the other gives way if it may, and
            // if none stands behind it, into whom it would back (in a jam the agents' own
            // jostling parts them sooner: docs/crowd.md, "Giving way").
            let j_may = may_give_way(&self.agents[j], self.walks_crowd_world(j));
            if j_may && nobody_behind(&self.agents, j, i) {
                self.give_way_to(j, i);
            }
        }
    }

    /// True when agent `i` walks the crowd's own world (not a sheet or a leg of its own
    /// across floors).
    fn walks_crowd_world(&self, i: AgentIndex) -> bool {
        self.worlds[i].is_none() && self.agents[i].onward.is_none()
    }

    /// Sends agent `i` to the nearest spot off agent `j`'s path that it can walk to without
    /// passing `j`, to wait there; false when it finds none (it stands in a dead end).
    #[inline(never)]
    fn give_way_to(&mut self, i: AgentIndex, j: AgentIndex) -> bool {
        let other = &self.agents[j];
        let (other_at, other_path, other_radius) = (
            other.agent_path.position(),
            other.agent_path.path().to_vec(),
            other.radius,
        );
        let a = &self.agents[i];
        let (at, radius, size) = (a.agent_path.position(), a.radius, a.size);
        let pair = radius + other_radius;
        let away = (at - other_at).normalize_or(DVec2::X);
        let pipeline = &mut self.pipelines[0][size];
        pipeline.use_world(&self.world);
        let world = &self.world;
        let spots = RINGS
            .iter()
            .flat_map(|&ring| directions(away).map(move |d| at + d * ring * pair));
        let off_the_way = |p: DVec2| {
            distance_to_path(p, &other_path) >= CLEAR * pair && world.has_clearance(p, radius)
        };
        let a = &mut self.agents[i];
        // Its path as it was: the way it gives, and what a spot found wanting restores (a
        // plan that fails leaves the path as it was by itself).
        let saved = a.agent_path.clone();
        for spot in spots.filter(|&p| off_the_way(p)).take(MAX_PLANS) {
            if a.agent_path.plan_target(pipeline, spot).is_err() {
                continue;
            }
            // The way there must not pass the other (a spot beyond it).
            if distance_to_path(other_at, a.agent_path.path()) >= pair {
                a.giving_way = Some(Box::new(GivingWay {
                    to: j,
                    target: saved.target(),
                    way: saved.path().to_vec(),
                    waited: 0.0,
                }));
                a.slowed = 0.0;
                return true;
            }
            a.agent_path.clone_from(&saved);
        }
        false
    }
}

impl<W: ObstacleWorld + Send + Sync> Crowd<W> {
    /// Keeps the agents giving way pointed right after `Crowd::remove_agent` removed
    /// `removed` and moved agent `moved` into its index.
    pub(super) fn renumber_giving_way(&mut self, removed: AgentIndex, moved: Option<AgentIndex>) {
        for a in &mut self.agents {
            if let Some(g) = a.giving_way.as_mut() {
                if g.to == removed {
                    g.to = AgentIndex::MAX; // gone: walks on in the next update
                } else if Some(g.to) == moved {
                    g.to = removed;
                }
            }
        }
    }
}

#[cfg(feature = "give-way")]
/// Counts `dt` more waiting for every agent giving way, ends the waits whose other has
/// walked off the agent's way (or is gone) or that lasted [`MAX_WAIT`], and returns those
/// agents with the targets they walk on to.
fn walk_on_after_giving_way(agents: &mut [CrowdAgent], dt: f64) -> Vec<(AgentIndex, DVec2)> {
    let mut done = Vec::new();
    for i in 0..agents.len() {
        let a = &agents[i];
        let Some(g) = a.giving_way.as_deref() else {
            continue;
        };
        let passed = agents.get(g.to).is_none_or(|other| {
            let pair = a.radius + other.radius;
            distance_to_path(other.agent_path.position(), &g.way) >= CLEAR * pair
        });
        let (target, waited) = (g.target, g.waited + dt);
        if passed || waited >= MAX_WAIT {
            done.push((i, target));
        } else if let Some(g) = agents[i].giving_way.as_mut() {
            g.waited = waited;
        }
    }
    done
}

#[cfg(feature = "give-way")]
/// True when no agent but `i` stands within the second ring of spots round agent `j` (2.5
/// times the sum of their radii): `j` can back off without walking into a crowd. O(agents).
fn nobody_behind(agents: &[CrowdAgent], j: AgentIndex, i: AgentIndex) -> bool {
    let (at, radius) = (agents[j].aim.0, agents[j].radius);
    agents.iter().enumerate().all(|(k, other)| {
        let reach = RINGS[1] * (radius + other.radius);
        k == i || k == j || other.aim.0.distance_squared(at) >= reach * reach
    })
}

#[cfg(feature = "give-way")]
/// True when agent `a` has been held long enough to give way and may: standing while it
/// walks to its own target (on the crowd's world: `ours`), not waiting for a plan, not
/// giving way already.
fn may_give_way(a: &CrowdAgent, ours: bool) -> bool {
    ours && a.slowed >= GIVE_WAY_AFTER
        && a.velocity.length() < STANDS * a.pace
        && a.giving_way.is_none()
        && a.wanted.is_none()
        && !a.agent_path.is_stuck()
}

#[cfg(feature = "give-way")]
/// The pairs (agent that gives way, agent it gives way to) among `agents` this update:
/// each agent held long enough ([`may_give_way`], `ours(i)` when
/// agent `i` walks the crowd's world) with the agent it meets head-on ([`head_on`]);
/// `widest` the largest radius.
///
/// The candidates are the agents held and those giving way (which back into the ones
/// behind them), in columns of x as wide as the reach, so that each one's neighbours are
/// in its column and the two beside it: a jam of thousands is not a square of them. Keys
/// and indices are `u32` pairs, whose sort the overlap search compiles already (the npm
/// package counts bytes).
fn head_on_pairs(
    agents: &[CrowdAgent],
    ours: &dyn Fn(usize) -> bool,
    widest: f64,
    agent_height: f64,
) -> Vec<(AgentIndex, AgentIndex)> {
    let may = |i: usize| may_give_way(&agents[i], ours(i));
    let candidates = (0..agents.len()).filter(|&i| may(i) || agents[i].giving_way.is_some());
    let mut held: Vec<(u32, u32)> = candidates.map(|i| (0, i as u32)).collect();
    if !held.iter().any(|&(_, i)| may(i as usize)) {
        return Vec::new();
    }
    let reach = HEAD_ON_REACH * 2.0 * widest;
    let x = |i: u32| agents[i as usize].aim.0.x;
    let left = held
        .iter()
        .map(|&(_, i)| x(i))
        .fold(f64::INFINITY, f64::min);
    for h in &mut held {
        // Saturating: a column number beyond u32 is one column (farther than any reach).
        h.0 = ((x(h.1) - left) / reach) as u32;
    }
    held.sort_unstable();
    let mut pairs = Vec::new();
    let mut gave = Vec::new();
    for &(column, i) in &held {
        let i = i as usize;
        if !may(i) || gave.contains(&i) {
            continue;
        }
        let from = held.partition_point(|h| h.0 < column.saturating_sub(1));
        let to = held.partition_point(|h| h.0 <= column.saturating_add(1));
        let near = held[from..to].iter().map(|&(_, j)| j as usize);
        if let Some(j) = head_on(
            agents,
            i,
            near,
            &|j| may(j) && !gave.contains(&j),
            agent_height,
        ) {
            pairs.push((i, j));
            gave.push(i);
        }
    }
    pairs
}

#[cfg(feature = "give-way")]
/// The agent among `near` that agent `i` gives way to: the nearest within reach (1.5
/// times the sum of their radii), on its floor, that it walks towards and that walks
/// towards it, unless that one is held too (`held(j)`) and comes later in the crowd: then
/// that one gives way.
fn head_on(
    agents: &[CrowdAgent],
    i: AgentIndex,
    near: impl Iterator<Item = AgentIndex>,
    held: &dyn Fn(AgentIndex) -> bool,
    agent_height: f64,
) -> Option<AgentIndex> {
    let me = &agents[i];
    let (p, want) = me.aim;
    let mut best: Option<(f64, AgentIndex)> = None;
    for j in near {
        let other = &agents[j];
        let d = other.aim.0 - p;
        let reach = HEAD_ON_REACH * (me.radius + other.radius);
        let close = j != i && d.length_squared() < reach * reach;
        if !close || (other.height - me.height).abs() >= agent_height {
            continue;
        }
        let towards = d.dot(want) > 0.0 && d.dot(other.aim.1) < 0.0;
        // Two held head-on: the later one gives way.
        let the_other_gives = j > i && held(j);
        if towards && !the_other_gives && best.is_none_or(|(b, _)| d.length() < b) {
            best = Some((d.length(), j));
        }
    }
    best.map(|(_, j)| j)
}

impl CrowdAgent {
    /// The agent it gives way to, or `None`. An agent head-on with another in a passage
    /// too narrow for both gives way (with avoidance on): it walks to a spot off the
    /// other's path (its path and [`AgentPath::target`](crate::crowd::AgentPath::target)
    /// lead there meanwhile), waits until the other has walked off its way (at most 10 s),
    /// and walks on to its target. Of two held head-on the later in the crowd gives way;
    /// when it finds no spot (it stands in a dead end), the other does, if nobody stands
    /// close behind it. It has not [arrived](Self::arrived) while it gives way.
    pub fn giving_way(&self) -> Option<AgentIndex> {
        self.giving_way.as_ref().map(|g| g.to)
    }
}

#[cfg(feature = "give-way")]
/// The [`DIRECTIONS`] unit directions round `away`, nearest it first: `away`, then a
/// sixteenth of a turn to either side, two, … (rotations by a constant, not `sin` and
/// `cos`, which the npm package would otherwise compile for this alone).
fn directions(away: DVec2) -> impl Iterator<Item = DVec2> {
    // cos and sin of a sixteenth of a turn (π/8).
    const TURN: DVec2 = DVec2::new(0.923_879_532_511_286_7, 0.382_683_432_365_089_8);
    const BACK: DVec2 = DVec2::new(TURN.x, -TURN.y);
    let (mut left, mut right) = (away, away);
    std::iter::once(away).chain((1..DIRECTIONS).map(move |k| {
        if k % 2 == 1 {
            left = TURN.rotate(left);
            left
        } else {
            right = BACK.rotate(right);
            right
        }
    }))
}

#[cfg(feature = "give-way")]
/// The distance from `p` to the polyline `path` (to its point when it has one).
fn distance_to_path(p: DVec2, path: &[DVec2]) -> f64 {
    match path {
        [] => f64::INFINITY,
        [only] => p.distance(*only),
        _ => path
            .windows(2)
            .map(|s| p.distance(closest_on_segment(p, s[0], s[1]).0))
            .fold(f64::INFINITY, f64::min),
    }
}
