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

impl<W: ObstacleWorld + Send + Sync> Crowd<W> {
    /// After an update with avoidance: agents that waited at their spots long enough walk
    /// on, and agents that stood head-on long enough give way. Only agents on the crowd's
    /// own world give way (not those walking a sheet or a leg of their own across floors).
    /// Cost: a pass over the agents, and for the few slowed for [`GIVE_WAY_AFTER`] a pass
    /// over those, plus up to [`MAX_PLANS`] plans for each that gives way.
    pub(super) fn give_way(&mut self, dt: f64) {
        self.walk_on_after_giving_way(dt);
        // Who may meet head-on: the agents held long enough (`true`), and those giving
        // way, which back into the ones behind them; by x, to find each one's
        // neighbours by a sweep (a jam of thousands is not a square of them).
        let mut held: Vec<(f64, AgentIndex, bool)> = (0..self.agents.len())
            .filter_map(|i| {
                let x = self.agents[i].aim.0.x;
                let may = self.may_give_way(i);
                (may || self.agents[i].giving_way.is_some()).then_some((x, i, may))
            })
            .collect();
        if !held.iter().any(|&(_, _, may)| may) {
            return;
        }
        held.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let widest = self.radii.iter().fold(0.0f64, |w, &r| w.max(r));
        let reach = HEAD_ON_REACH * 2.0 * widest;
        for k in 0..held.len() {
            let (x, i, may) = held[k];
            if !may || self.agents[i].giving_way.is_some() {
                continue; // or gave way this update, to one before it
            }
            let from = held.partition_point(|h| h.0 < x - reach);
            let to = held.partition_point(|h| h.0 <= x + reach);
            if let Some(j) = self.head_on(i, &held[from..to]) {
                self.give_way_to(i, j);
            }
        }
    }

    /// True when agent `i` has been held long enough to give way and may: standing while
    /// it walks on the crowd's world to its own target, not waiting for a plan, not giving
    /// way already.
    fn may_give_way(&self, i: AgentIndex) -> bool {
        let a = &self.agents[i];
        a.slowed >= GIVE_WAY_AFTER
            && a.velocity.length() < STANDS * a.pace
            && a.giving_way.is_none()
            && a.wanted.is_none()
            && !a.agent_path.is_stuck()
            && self.worlds[i].is_none()
            && self.onward[i].is_none()
    }

    /// The agent among `near` (x, index, held) that agent `i` gives way to: the nearest
    /// within reach, on its floor, that it walks towards and that walks towards it, unless
    /// that one is held too and comes later in the crowd: then that one gives way.
    fn head_on(&self, i: AgentIndex, near: &[(f64, AgentIndex, bool)]) -> Option<AgentIndex> {
        let me = &self.agents[i];
        let (p, want) = me.aim;
        let mut best: Option<(f64, AgentIndex)> = None;
        for &(_, j, held) in near {
            let other = &self.agents[j];
            let d = other.aim.0 - p;
            let reach = HEAD_ON_REACH * (me.radius + other.radius);
            let close = j != i && d.length_squared() < reach * reach;
            if !close || (other.height - me.height).abs() >= self.agent_height {
                continue;
            }
            let towards = d.dot(want) > 0.0 && d.dot(other.aim.1) < 0.0;
            // Two held head-on: the later one gives way.
            let the_other_gives = held && other.giving_way.is_none() && j > i;
            if towards && !the_other_gives && best.is_none_or(|(b, _)| d.length() < b) {
                best = Some((d.length(), j));
            }
        }
        best.map(|(_, j)| j)
    }

    /// Sends agent `i` to the nearest spot off agent `j`'s path that it can walk to without
    /// passing `j`, to wait there. Nothing when it finds none (a dead end: no room to give
    /// way; the two stand, as before).
    fn give_way_to(&mut self, i: AgentIndex, j: AgentIndex) {
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
        let spots = RINGS.iter().flat_map(|&ring| {
            (0..DIRECTIONS).map(move |k| {
                // 0, +1, −1, +2, −2, … sixteenths of a turn from straight away.
                let step = (k as i32 + 1) / 2 * if k % 2 == 1 { 1 } else { -1 };
                let turn = std::f64::consts::TAU * f64::from(step) / DIRECTIONS as f64;
                at + DVec2::from_angle(turn).rotate(away) * ring * pair
            })
        });
        let off_the_way = |p: DVec2| {
            distance_to_path(p, &other_path) >= CLEAR * pair && world.has_clearance(p, radius)
        };
        let a = &mut self.agents[i];
        let way = a.agent_path.path().to_vec();
        let target = a.agent_path.target();
        for spot in spots.filter(|&p| off_the_way(p)).take(MAX_PLANS) {
            let saved = a.agent_path.clone();
            let planned = a.agent_path.plan_target(pipeline, spot).is_ok();
            // The way there must not pass the other (a spot beyond it).
            if planned && distance_to_path(other_at, a.agent_path.path()) >= pair {
                a.giving_way = Some(Box::new(GivingWay {
                    to: j,
                    target,
                    way,
                    waited: 0.0,
                }));
                a.slowed = 0.0;
                return;
            }
            a.agent_path = saved;
        }
    }

    /// Agents giving way whose other has walked off their way (or is gone), or that waited
    /// [`MAX_WAIT`], walk on to their targets: planned in the next update, as a target set.
    fn walk_on_after_giving_way(&mut self, dt: f64) {
        for i in 0..self.agents.len() {
            let a = &self.agents[i];
            let Some(g) = a.giving_way.as_deref() else {
                continue;
            };
            let passed = self.agents.get(g.to).is_none_or(|other| {
                let pair = a.radius + other.radius;
                distance_to_path(other.agent_path.position(), &g.way) >= CLEAR * pair
            });
            let (target, waited) = (g.target, g.waited + dt);
            if passed || waited >= MAX_WAIT {
                // A target set again (which ends the giving way): planned by the next
                // update, as `set_target`'s; `i` is an agent's index, which it accepts.
                let _ = self.set_target(i, target);
            } else if let Some(g) = self.agents[i].giving_way.as_mut() {
                g.waited = waited;
            }
        }
    }

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

impl CrowdAgent {
    /// The agent it gives way to, or `None`. An agent head-on with another in a passage
    /// too narrow for both gives way (with avoidance on): it walks to a spot off the
    /// other's path (its path and [`AgentPath::target`](crate::crowd::AgentPath::target)
    /// lead there meanwhile), waits until the other has walked off its way (at most 10 s),
    /// and walks on to its target. It has not [arrived](Self::arrived) while it gives way.
    pub fn giving_way(&self) -> Option<AgentIndex> {
        self.giving_way.as_ref().map(|g| g.to)
    }
}

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
