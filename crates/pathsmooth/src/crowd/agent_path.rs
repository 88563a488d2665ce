//! One agent's path, kept up to date as it walks (see the [module docs](super)).

use glam::DVec2;

use crate::area::not_costlier;
use crate::error::{Error, Result};
use crate::geometry::closest_on_segment;
use crate::metrics::length;
use crate::pipeline::Pipeline;
use crate::world::{bends, check_in_bounds, check_path_and_radius, path_is_clear, Bounds, World};

/// How many segments at the front of the path [`AgentPath::move_position`] looks at to
/// find where the agent now is.
const PROJECT_SEGMENTS: usize = 32;

/// The most points [`AgentPath::move_position`] and [`AgentPath::move_target`] may
/// string-pull past in one call (the larger values given to
/// [`AgentPath::set_pull`] are taken as this).
pub const MAX_PULL: usize = 32;

/// The points string-pulled past by default: Detour's `optimizePathVisibility` is called
/// every few frames with a look-ahead of about 30 agent radii; a smooth path has a point
/// every fraction of a radius around its corners, so a few points per frame keep up.
const DEFAULT_PULL: usize = 8;

/// How far ahead along the path, in multiples of how far the agent was pushed off it,
/// [`AgentPath::move_position`] plans the way back to it.
const REJOIN_AHEAD: f64 = 4.0;

/// How close (relative to the larger of 1 and the point's magnitude) a new position must
/// be to the path to count as on it, so that [`AgentPath::move_position`] tries no
/// pull: far above the rounding of a point interpolated on a segment (10⁻¹⁶), far below
/// any push that a pull could use.
const ON_PATH: f64 = 1e-12;

/// How far (relative, as [`ON_PATH`]) a piece of a measured segment may lie from it, and
/// twice the margin of clearance above the radius that lets a move along it skip the
/// segment test: well above [`ON_PATH`] and rounding, well below the world's tolerance.
const WALK_MARGIN: f64 = 1e-10;

/// How much longer than the stretch it replaces a repair's plan must be to count as a
/// detour that may double back ([`AgentPath::repair`] then tries a wider plan).
const DETOUR: f64 = 2.0;

/// The most points of the path's end [`AgentPath::move_target`] tries to join the new
/// target to.
const RETARGET_POINTS: usize = 64;

/// How many times a splice is retried one point further on when the bend where it joins
/// the old path is not clear (a grid's pinch at radius 0), before a full re-plan.
const SPLICE_TRIES: usize = 4;

/// What [`AgentPath::move_position`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Moved {
    /// The new position joins the rest of the path directly: the points passed were
    /// dropped, nothing else changed.
    Kept,
    /// As [`Kept`](Self::Kept), and the new position also sees past the next `skipped`
    /// points (no costlier under the area costs): they were dropped too.
    Pulled {
        /// Points string-pulled past.
        skipped: usize,
    },
    /// The new position sees none of the next points (a corner lies between), but a
    /// straight segment back to the path ahead is clear: the point where it joins was put
    /// in, and the points before it dropped; nothing was planned.
    Rejoined,
    /// The new position could not join the path ahead (the agent was pushed off it): the
    /// way from it to the next point of the path was planned and spliced in (or, when that
    /// failed, the whole path from it to the target).
    Replanned,
    /// The agent path is [stuck](AgentPath::stuck): the position was recorded, nothing
    /// else was done (call [`repair`](AgentPath::repair)).
    Stuck,
}

/// What [`AgentPath::move_target`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Retargeted {
    /// The new target is seen (with room for the agent, no costlier) from the position or
    /// one of the last points of the path: the path now ends there with one straight leg
    /// to the target, `dropped` points of the old end removed.
    Adjusted {
        /// Points of the old path removed (the old target included).
        dropped: usize,
    },
    /// The new target is seen from no such point: the whole path was planned again from
    /// the position.
    Replanned,
    /// The agent path is [stuck](AgentPath::stuck): the target was recorded, nothing else
    /// was done (call [`repair`](AgentPath::repair)).
    Stuck,
}

/// What [`AgentPath::repair`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Repair {
    /// The path is valid on the world: nothing changed.
    Valid,
    /// The stretch from the last valid point before the first problem to the first valid
    /// point after the last one was planned again and spliced in; the rest is unchanged.
    Repaired {
        /// Segments of the old path replaced.
        replaced: usize,
    },
    /// The path was planned again from the position to the target (the stretch's ends
    /// lacked room for the planner, or the splice did not join).
    Replanned,
}

/// One agent's path: its position, its target and a smooth path between them,
/// valid for the radius of the [`Pipeline`] it is updated with, kept up to date with the
/// least work as the agent walks, the target moves and the world changes.
///
/// Modelled on Detour's path corridor (Mikko Mononen, Recast & Detour, `dtPathCorridor`
/// in `DetourCrowd/Source/DetourPathCorridor.cpp`): [`move_position`](Self::move_position)
/// is its `movePosition` and `optimizePathVisibility`, [`move_target`](Self::move_target)
/// its `moveTargetPosition`, [`next_corners`](Self::next_corners) its `findCorners`,
/// [`is_valid`](Self::is_valid) its `isValid` and [`repair`](Self::repair) its
/// `trimInvalidPath` followed by the crowd's re-plan of the invalid part. Where Detour holds
/// polygons and string-pulls them on demand, this agent path holds the smooth path itself
/// (made by the pipeline's steps), so what it hands the follower is ready to follow.
///
/// **Contract.** Every operation takes the pipeline (world, radius, steps, scratch) the
/// agent path is meant for; give the same world and radius each time. While the agent path is
/// not [stuck](Self::stuck), [`path`](Self::path) starts at [`position`](Self::position),
/// ends at [`target`](Self::target) and is valid for the pipeline's radius on its world
/// (each segment and bend clear for the radius, as [`validate`](crate::validate()) checks)
/// — provided the world has not changed since the last operation; after a change, call
/// [`repair`](Self::repair) before the next move (it mends what the change broke, and
/// forgets the clearance the agent path measured on the old world). An operation that fails
/// returns the error and leaves the agent path as it was (except `repair`, see there).
///
/// **Stuck.** When [`repair`](Self::repair) (or [`replan`](Self::replan)) finds that the
/// path is invalid and cannot make a valid one (the target was walled off, the agent stands
/// in a wall), the agent path is stuck: [`stuck`](Self::stuck) gives the reason, and
/// [`path`](Self::path), [`next_corners`](Self::next_corners) and
/// [`steering_point`](Self::steering_point) give only the position (stand still), so no
/// invalid path is handed out. The old path is kept inside, the moves only record the new
/// position and target, and the next successful `repair` (say, once the door opens) clears
/// the state.
///
/// **Cost and memory.** The agent path owns its path and one spare buffer of about its
/// length; everything else is the pipeline's, so one pipeline per thread serves any number
/// of agent paths, and an agent path's update depends on nothing but the agent path and the
/// pipeline (deterministic, whatever thread runs it). Steady-state moves allocate nothing
/// (dropping the points passed moves the rest of the path down: O(points)); the costs of
/// each operation are on it. Only `f64` points (`DVec2`), world units.
#[derive(Debug, Clone)]
pub struct AgentPath {
    /// From the position to the target; at least one point.
    path: Vec<DVec2>,
    /// The re-planned piece of the path, kept for its memory.
    work: Vec<DVec2>,
    /// Why the agent path is stuck (see the type's docs).
    stuck: Option<Error>,
    /// Points string-pulled past at most per move.
    pull: usize,
    /// The clearance of the segment the agent walks on, once measured: what lets a move
    /// along it skip the segment test (see [`AgentPath::move_position`]).
    walking: Option<Walking>,
}

/// A segment `a`–`b` with clearance at least `clearance` on the world as it was measured,
/// with that cap: below `cap`, `clearance` is the segment's own.
#[derive(Debug, Clone, Copy)]
struct Walking {
    a: DVec2,
    b: DVec2,
    clearance: f64,
    cap: f64,
}

/// How far above the agent's radius a leg's clearance is measured at most: an agent more
/// than that off its path is not taken back to it by the clearance bound (it pulls,
/// rejoins or plans instead).
const LEG_CAP: f64 = 1.0;

/// Two agent paths are equal when their paths, states and pull are (the spare buffer is
/// scratch, not compared).
impl PartialEq for AgentPath {
    fn eq(&self, other: &Self) -> bool {
        (&self.path, &self.stuck, self.pull) == (&other.path, &other.stuck, other.pull)
    }
}

impl AgentPath {
    /// An agent path from `position` to `target`: the pipeline plans the path
    /// ([`Pipeline::plan_into`]: the world's search, then the pipeline's steps).
    ///
    /// Errors: those of [`Pipeline::plan`] (a position or target that is not a finite point
    /// of the world, inside a wall or without room for the agent, an unreachable target).
    ///
    /// Cost: one [`Pipeline::plan`].
    pub fn new<W: World>(
        pipeline: &mut Pipeline<W>,
        position: DVec2,
        target: DVec2,
    ) -> Result<Self> {
        let mut agent_path = AgentPath {
            path: Vec::new(),
            work: Vec::new(),
            stuck: None,
            pull: DEFAULT_PULL,
            walking: None,
        };
        pipeline.plan_into(position, target, &mut agent_path.path)?;
        Ok(agent_path)
    }

    /// How many points a move may string-pull past (at most [`MAX_PULL`]; larger values
    /// are taken as it). 0 turns string-pulling off, so a smooth path keeps its curves
    /// where the agent could cut them; the default is 8. Cost per move: at most
    /// `pull + 1` segment tests.
    pub fn set_pull(&mut self, pull: usize) {
        self.pull = pull.min(MAX_PULL);
    }

    /// [`set_pull`](Self::set_pull), by value.
    pub fn with_pull(mut self, pull: usize) -> Self {
        self.set_pull(pull);
        self
    }

    /// The path from the position to the target, valid for the pipeline's radius (see the
    /// type's contract); only the position while [stuck](Self::stuck).
    pub fn path(&self) -> &[DVec2] {
        match self.stuck {
            None => &self.path,
            Some(_) => &self.path[..1],
        }
    }

    /// Makes the agent path [stuck](Self::stuck) with `reason`, its position and target
    /// kept: for a crowd whose agent's world was taken from under it.
    pub(crate) fn stick(&mut self, reason: Error) {
        self.stuck = Some(reason);
    }

    /// The agent's position: the first point of the path.
    pub fn position(&self) -> DVec2 {
        self.path[0]
    }

    /// The target: the last point of the path.
    pub fn target(&self) -> DVec2 {
        self.path[self.path.len() - 1]
    }

    /// Why the agent path is stuck (the error of the failed [`repair`](Self::repair) or
    /// [`replan`](Self::replan)), or `None`. See the type's docs.
    pub fn stuck(&self) -> Option<&Error> {
        self.stuck.as_ref()
    }

    /// True when the agent path is [stuck](Self::stuck).
    pub fn is_stuck(&self) -> bool {
        self.stuck.is_some()
    }

    /// The length of [`path`](Self::path) (0 while stuck). Cost: O(points).
    pub fn length(&self) -> f64 {
        crate::metrics::length(self.path())
    }

    /// The next `k` points of the path after the position (fewer near the target; none
    /// while stuck): Detour's `findCorners`, for a follower that steers corner to corner.
    /// Cost: O(1).
    pub fn next_corners(&self, k: usize) -> &[DVec2] {
        let path = self.path();
        &path[1..path.len().min(k.saturating_add(1))]
    }

    /// The point at arc length `lookahead` (world units) along the path from the position:
    /// the target when the path is shorter, the position for `lookahead` ≤ 0 or NaN (and
    /// while stuck). A follower that steers towards it a fixed distance ahead follows the
    /// path's curves. Cost: O(points walked).
    pub fn steering_point(&self, lookahead: f64) -> DVec2 {
        let path = self.path();
        let mut left = if lookahead > 0.0 { lookahead } else { 0.0 };
        for s in path.windows(2) {
            let d = s[0].distance(s[1]);
            if d >= left {
                return if d > 0.0 {
                    s[0].lerp(s[1], left / d)
                } else {
                    s[0]
                };
            }
            left -= d;
        }
        path[path.len() - 1]
    }

    /// True when the agent path is not stuck and its path is valid for the pipeline's radius
    /// on the pipeline's world (every segment and bend clear): what to ask after the world
    /// changed. Cost: one segment test per segment, one bend test per point (on a grid,
    /// O(path length × (r + 1)) cells).
    pub fn is_valid<W: World>(&self, pipeline: &Pipeline<W>) -> bool {
        self.stuck.is_none() && path_is_clear(pipeline.world(), &self.path, pipeline.radius())
    }

    /// The agent walked to `p` (normally near its path): the agent path's position becomes
    /// `p`, and its path is mended with the least work (Detour's `movePosition` and
    /// `optimizePathVisibility`):
    ///
    /// 1. `p` is projected onto the first 32 segments (up to the first it lies on); the
    ///    points before the closest projection are dropped (the agent passed them);
    /// 2. the farthest of the next `pull` + 1 points that `p` sees — its segment and the
    ///    bend there clear for the radius, and on a world with area costs, no costlier than
    ///    the way along the path — becomes the path's second point ([`Moved::Kept`] when
    ///    it is the next one, [`Moved::Pulled`] when points were skipped); nothing else of
    ///    the path changes. When `p` lies on the path (within 10⁻¹² of it, relative to
    ///    its magnitude: a follower that walks to
    ///    [`steering_point`](Self::steering_point)), only the next point is tried (its
    ///    segment and bend), with no pull: the tail from `p` is the pipeline's smoothed
    ///    path already. The segment test is exact (a point an ulp off a segment that
    ///    grazes a corner can enter the wall at radius 0), but made once per segment: the
    ///    segment's clearance is measured then, and while it exceeds the radius by a
    ///    margin (10⁻¹⁰, relative) that a piece of it from a point that close cannot lose,
    ///    the next moves along it skip the test. Off the path but nearer to its segment
    ///    than that clearance exceeds the radius by (an agent that stepped aside for
    ///    another), the next point is taken the same way, with no test and no pull: the
    ///    segment from `p` keeps within that distance of the path's own;
    /// 3. when `p` sees none of them (it was pushed off the path), and a straight segment
    ///    back to the path is clear (to the point 4 times `p`'s distance from the path
    ///    further along, else to `p`'s projection), that point is put in
    ///    ([`Moved::Rejoined`]; not on a world with area costs); else the way from `p` to the
    ///    first point of the path at least 4 times the push (`p`'s distance from the path)
    ///    further along is planned with the pipeline ([`Pipeline::plan_into`], smoothed by
    ///    its steps) and spliced in, or when that fails, the whole path from `p` to the
    ///    target ([`Moved::Replanned`]).
    ///
    /// While [stuck](Self::stuck), only the position is recorded ([`Moved::Stuck`]).
    ///
    /// Errors (the agent path unchanged): [`Error::NonFinite`], [`Error::CoordinateOutOfRange`]
    /// and [`Error::OutsideWorld`] for a bad `p`; [`Error::Blocked`] (`"position"`) for a
    /// `p` inside a wall, [`Error::TooClose`] for one without room for the agent (not
    /// asked of a `p` on the path: a point of a clear segment has room); in case 3, the
    /// planning's errors.
    ///
    /// Cost: in cases 1–2, at most 32 projections and `pull` + 1 segment and bend tests
    /// near the agent; on the path, one bend test, plus a segment test and a clearance
    /// measure ([`World::segment_clearance`]) for the first move along each segment only;
    /// plus O(points) to move the path down. Case 3 adds one or two plans. Allocates
    /// nothing in cases 1–2.
    pub fn move_position<W: World>(
        &mut self,
        pipeline: &mut Pipeline<W>,
        p: DVec2,
    ) -> Result<Moved> {
        check_coordinates(pipeline, p)?;
        if self.stuck.is_some() || self.path.len() == 1 {
            room(pipeline.world(), p, pipeline.radius(), "position")?;
        }
        if self.stuck.is_some() {
            if self.path.len() == 1 {
                self.path.insert(0, p);
            } else {
                self.path[0] = p;
            }
            return Ok(Moved::Stuck);
        }
        if p == self.path[0] {
            return Ok(Moved::Kept);
        }
        let world = pipeline.world();
        let radius = pipeline.radius();
        let path = &self.path;
        let last = path.len() - 1;
        if last == 0 {
            // At the target: walk back to it in a straight line, or plan.
            if world.segment_is_clear(p, path[0], radius) {
                let t = path[0];
                self.path.clear();
                self.path.extend([p, t]);
                return Ok(Moved::Kept);
            }
            return self.splice_plan(pipeline, p, 0);
        }
        // 1. Where along the path the agent is: the closest projection onto the first
        // segments (the earliest of equals, and the first that `p` lies on).
        let on_path = ON_PATH * ON_PATH * (1.0 + p.length_squared());
        let (mut i, mut best, mut q) = (0, f64::INFINITY, path[0]);
        for k in 0..last.min(PROJECT_SEGMENTS) {
            let (on, _) = closest_on_segment(p, path[k], path[k + 1]);
            let d = on.distance_squared(p);
            if d < best {
                (i, best, q) = (k, d, on);
            }
            if d <= on_path {
                break;
            }
        }
        // 2. The farthest of the next points that `p` sees, no costlier than the way along
        // the path (`along[m]`: from `p` by its projection to point i + 1 + m).
        let first = i + 1;
        let far = (first + self.pull).min(last);
        let costs = world.has_area_costs();
        let mut along = [0.0; MAX_PULL + 1];
        if costs {
            along[0] = world.segment_cost(p, q) + world.segment_cost(q, path[first]);
            for m in 1..=far - first {
                let j = first + m;
                along[m] = along[m - 1] + world.segment_cost(path[j - 1], path[j]);
            }
        }
        let sees = |j: usize| {
            path[j] == p
                || (world.segment_is_clear(p, path[j], radius)
                    && (j == last || world.bend_is_clear(p, path[j], path[j + 1], radius))
                    && (!costs || not_costlier(world.segment_cost(p, path[j]), along[j - first])))
        };
        // On the path (a follower steering along it), the tail from `p` is the pipeline's
        // smoothed path already: no pull to try. The piece from `p` is tested all the same,
        // as `p` may lie an ulp off the segment, on a wall's side at radius 0.
        let on_path = best <= on_path;
        let next_is_clear = if on_path {
            walks_clear(world, radius, path, &mut self.walking, p, i, first)
        } else {
            // Off the path, `p` must have room. When `near_enough` holds it has: the
            // segment's clearance exceeds the radius by more than `p` is off it (an avoiding
            // agent's step, most frames: no test of its own).
            let near = !costs && near_enough(world, radius, path, &mut self.walking, p, i);
            if !near {
                room(world, p, radius, "position")?;
            }
            near
        };
        let found = if next_is_clear {
            Some(first)
        } else {
            (first..=far).rev().find(|&j| sees(j))
        };
        let Some(j) = found else {
            // 3. Pushed off the path: back to it in a straight line where one is clear;
            // else plan from `p` to the first point at least `REJOIN_AHEAD` times the push
            // along the path, so that the plan can rejoin it ahead rather than go back to
            // the point passed (round an obstacle, say).
            let ahead = REJOIN_AHEAD * best.sqrt();
            let mut k = first;
            let mut along = q.distance(path[first]);
            while along < ahead && k < last {
                along += path[k].distance(path[k + 1]);
                k += 1;
            }
            if !costs && let Some(moved) = self.rejoin(world, radius, p, q, i) {
                return Ok(moved);
            }
            return self.splice_plan(pipeline, p, k);
        };
        // The new path: `p`, then the old one from point j (which `p` may equal).
        self.path.drain(1..j);
        self.path[0] = p;
        if self.path.len() > 1 && self.path[1] == p {
            self.path.remove(0);
        }
        Ok(match j - first {
            0 => Moved::Kept,
            skipped => Moved::Pulled { skipped },
        })
    }

    /// Joins `p`, off the path by `|p − q|` (`q` its projection on segment `i`) and seeing
    /// none of the next points, back to the path by a straight segment: to the point
    /// [`REJOIN_AHEAD`] times that distance (or the radius, if more) further along, or to
    /// `q` itself, whichever is
    /// first found clear with the bend where it joins. The path's pieces from there are
    /// its own, so the path stays valid; `None` when neither is clear (then the caller
    /// plans). Cost: at most four segment tests and two bend tests: an agent that ORCA
    /// pushed aside near a corner would otherwise plan and smooth a new way every frame
    /// (most of a dense crowd's frame on a navmesh, where Detour's corridor just moves).
    fn rejoin<W: World + ?Sized>(
        &mut self,
        world: &W,
        radius: f64,
        p: DVec2,
        q: DVec2,
        i: usize,
    ) -> Option<Moved> {
        let path = &self.path;
        let last = path.len() - 1;
        // The point `ahead` further along from `q`, on segment k.
        let (mut k, mut c) = (i, q);
        // At least a few radii ahead: a point a hair ahead, after a hair's push, makes a
        // waypoint beside the agent, which a neighbour standing there can keep it from for
        // good (it did on den312d's navmesh).
        let mut left = (REJOIN_AHEAD * p.distance(q)).max(REJOIN_AHEAD * radius);
        loop {
            let d = c.distance(path[k + 1]);
            if d > left {
                c += (path[k + 1] - c) * (left / d);
                break;
            }
            left -= d;
            c = path[k + 1];
            if k + 1 == last {
                break;
            }
            k += 1;
        }
        let joins = |k: usize, c: DVec2| {
            // Where c is the segment's end, the bend is the path's next one. Else the
            // piece from c is tested too: c, interpolated, may lie an ulp off the segment,
            // on a wall's side of a corner it grazes at radius 0.
            let (end, next) = match c == path[k + 1] {
                true => (k + 1, path.get(k + 2)),
                false => (k, Some(&path[k + 1])),
            };
            (c != p
                && world.segment_is_clear(p, c, radius)
                && next.is_none_or(|&n| world.bend_is_clear(p, c, n, radius))
                && (end != k || world.segment_is_clear(c, path[k + 1], radius)))
            .then_some(end)
        };
        let (end, c) = [(k, c), (i, q)]
            .into_iter()
            .find_map(|(k, c)| joins(k, c).map(|end| (end, c)))?;
        // The new path: p, then c (a point of the path, or put in), then the old one after c.
        if end >= 1 && c == self.path[end] {
            self.path.drain(1..end);
        } else {
            self.path.drain(1..=end);
            self.path.insert(1, c);
        }
        self.path[0] = p;
        Some(Moved::Rejoined)
    }

    /// Puts the agent at `q` (pushed out of an obstacle that landed on it), keeping the
    /// rest of its path and its target: the next [`repair`](Self::repair) plans the way
    /// from `q` back onto the path (or to the target, when it stood there).
    pub(crate) fn push_to(&mut self, q: DVec2) {
        if self.path.len() == 1 {
            self.path.insert(0, q);
        } else {
            self.path[0] = q;
        }
        self.walking = None;
    }

    /// Forgets what the agent path measured on the world (the clearance of the segment the
    /// agent walks on): for a world that changed.
    pub(crate) fn forget_world(&mut self) {
        self.walking = None;
    }

    /// [`forget_world`](Self::forget_world) for a world that changed inside `changed` only
    /// (an obstacle added or removed there). The measure is kept when the box lies farther
    /// from the measured segment than the clearance measured: that clearance, capped as it
    /// was, is then what it would be now (walls added there are farther than the nearest
    /// wall already was, and the nearest wall was not one of those removed), so the agent's
    /// moves are what they would be had it measured again. What spares a crowd's every
    /// agent a segment measure in the frame after a door moves.
    pub(crate) fn forget_world_inside(&mut self, changed: Bounds) {
        let keep = self.walking.is_some_and(|w| {
            let margin = WALK_MARGIN * (1.0 + w.a.abs().max(w.b.abs()).max_element());
            let clear = w.clearance * (1.0 + 1e-9) + margin;
            // Most changes are far from most agents: the segment's box tells, cheaply (its
            // distance can stand a unit in the last place above the segment's, as rounded).
            changed.box_distance(w.a, w.b) > clear * (1.0 + 1e-12)
                || changed.segment_distance(w.a, w.b) > clear
        });
        if !keep {
            self.walking = None;
        }
    }

    /// Plans from `from` to `to` with the pipeline and makes the plan the whole path (the
    /// old path becomes the spare buffer). The agent path is unchanged on error.
    fn take_plan<W: World>(
        &mut self,
        pipeline: &mut Pipeline<W>,
        from: DVec2,
        to: DVec2,
    ) -> Result<()> {
        pipeline.plan_into(from, to, &mut self.work)?;
        std::mem::swap(&mut self.path, &mut self.work);
        Ok(())
    }

    /// Plans from `p` to point `k` of the path and splices the plan in place of the points
    /// before `k + 1`; when the bend where it joins is not clear, one point further, a few
    /// times; then (and when a plan fails) from `p` to the target. The agent path is left as
    /// it was on error.
    fn splice_plan<W: World>(
        &mut self,
        pipeline: &mut Pipeline<W>,
        p: DVec2,
        k: usize,
    ) -> Result<Moved> {
        let last = self.path.len() - 1;
        for k in (k..=last).take(SPLICE_TRIES) {
            if pipeline.plan_into(p, self.path[k], &mut self.work).is_err() {
                break;
            }
            if joins(pipeline, &self.work, &self.path, k) {
                self.path.splice(..=k, self.work.iter().copied());
                let seam = self.work.len() - 1;
                pull_seam(pipeline, &mut self.path, seam, self.pull);
                return Ok(Moved::Replanned);
            }
        }
        self.take_plan(pipeline, p, self.path[last])?;
        Ok(Moved::Replanned)
    }

    /// The target moved to `t` (Detour's `moveTargetPosition`), adjusted locally where it
    /// can be:
    ///
    /// 1. when the position sees `t` (the segment clear for the radius, and on a world with
    ///    area costs no costlier than the old way), the path becomes that one segment;
    /// 2. else when one of the points of the path's end sees `t` without turning back
    ///    there (by more than 90°, the path's direction taken over a chord at least half
    ///    as long as the new leg) — the points within 4 times the target's move of the old
    ///    target along the path (at least the last leg, at most 64 points), so that a path
    ///    can leave early for a target that moved back along it — the path is cut at the
    ///    earliest such point and ends with one straight leg to `t`
    ///    ([`Retargeted::Adjusted`] in both cases);
    /// 3. else the whole path is planned again from the position ([`Retargeted::Replanned`]):
    ///    a full re-plan happens exactly when neither the position nor that end of the path
    ///    sees the new target (it moved round a wall, or far). Planning only the end
    ///    again would be cheaper, but a target that moved behind a wall next to the
    ///    path's end then makes the path loop back through the door it came in by.
    ///
    /// While [stuck](Self::stuck), only the target is recorded ([`Retargeted::Stuck`]).
    ///
    /// Errors (the agent path unchanged): [`Error::NonFinite`], [`Error::CoordinateOutOfRange`]
    /// and [`Error::OutsideWorld`] for a bad `t`; [`Error::Blocked`] (`"target"`) for a `t`
    /// inside a wall, [`Error::TooClose`] for one without room for the agent; the re-plan's
    /// errors ([`Error::Unreachable`], …).
    ///
    /// Cost: at most 65 segment and bend tests, from the position and the path's end; in
    /// case 3, one [`Pipeline::plan`]. Allocates nothing in cases 1–2 (on a world with area
    /// costs, the spare buffer holds the costs of the end).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::crowd::{AgentPath, Retargeted};
    /// use pathsmooth::{GridMap, GridWorld, Pipeline, Preset};
    /// let world = GridWorld::new(GridMap::from_rows(&["........", "@@@@@@..", "........"])?)?;
    /// let mut pipeline = Pipeline::preset(&world, 0.0, Preset::Shortest)?;
    /// let mut c = AgentPath::new(&mut pipeline, DVec2::new(0.5, 0.5), DVec2::new(0.5, 2.5))?;
    /// // The target walks along the bottom row: the last corner still sees it.
    /// let r = c.move_target(&mut pipeline, DVec2::new(2.5, 2.5))?;
    /// assert!(matches!(r, Retargeted::Adjusted { .. }));
    /// // It jumps to the top row: the position sees it.
    /// let r = c.move_target(&mut pipeline, DVec2::new(3.5, 0.5))?;
    /// assert!(matches!(r, Retargeted::Adjusted { .. }));
    /// assert_eq!(c.path(), [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5)]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn move_target<W: World>(
        &mut self,
        pipeline: &mut Pipeline<W>,
        t: DVec2,
    ) -> Result<Retargeted> {
        match self.adjust_target(pipeline, t)? {
            Some(adjusted) => Ok(adjusted),
            None => self.plan_target(pipeline, t),
        }
    }

    /// Cases 1 and 2 of [`move_target`](Self::move_target) alone: the path adjusted
    /// locally to end at `t` ([`Retargeted::Adjusted`]), or `None` when that takes a plan
    /// ([`plan_target`](Self::plan_target)): neither the position nor the path's end sees
    /// `t`, or the agent path is [stuck](Self::stuck). The agent path is unchanged unless
    /// adjusted. A crowd under a [plan budget](super::Crowd::with_plan_budget) takes
    /// these at once and queues only the plans.
    ///
    /// Errors: [`move_target`](Self::move_target)'s for a bad `t` (no plan is made).
    /// Cost: at most 65 segment and bend tests; allocates nothing.
    pub fn adjust_target<W: World>(
        &mut self,
        pipeline: &Pipeline<W>,
        t: DVec2,
    ) -> Result<Option<Retargeted>> {
        check_point(pipeline, t, "target")?;
        let last = self.path.len() - 1;
        if self.stuck.is_some() {
            return Ok(None);
        }
        if t == self.path[last] {
            return Ok(Some(Retargeted::Adjusted { dropped: 0 }));
        }
        let world = pipeline.world();
        let radius = pipeline.radius();
        let path = &self.path;
        let costs = world.has_area_costs();
        // The window: the points within `REJOIN_AHEAD` times the target's move of the old
        // target along the path (at least the last leg, at most `RETARGET_POINTS` points).
        let reach = REJOIN_AHEAD * t.distance(path[last]);
        let mut lo = last.saturating_sub(1);
        let mut along = path[lo].distance(path[last]);
        while lo > 0 && along < reach && last - lo < RETARGET_POINTS {
            along += path[lo - 1].distance(path[lo]);
            lo -= 1;
        }
        // `rest[j - lo]`: the old way from point j to the old target and on to `t`.
        let rest = &mut self.work;
        rest.clear();
        let mut whole = 0.0;
        if costs {
            // (cost, 0) pairs: the spare buffer holds the costs, as x.
            rest.resize(last - lo + 1, DVec2::ZERO);
            rest[last - lo].x = world.segment_cost(path[last], t);
            for j in (lo..last).rev() {
                rest[j - lo].x = rest[j + 1 - lo].x + world.segment_cost(path[j], path[j + 1]);
            }
            whole = rest[0].x + crate::world::path_cost(world, &path[..=lo]);
        }
        let rest = &*rest;
        let sees = |j: usize, old: f64| {
            path[j] == t
                || (world.segment_is_clear(path[j], t, radius)
                    && bends_clear(world, path, j, t, radius)
                    && (!costs || not_costlier(world.segment_cost(path[j], t), old)))
        };
        // The path reaches point j from t's side, or across: it does not turn back there
        // by more than 90° (the direction it arrives from measured over a chord at least
        // half as long as the new leg, so that the small segments of a curve count as
        // the curve).
        let forward = |j: usize| {
            let leg = t - path[j];
            let chord = 0.5 * leg.length();
            let from = (0..j)
                .rev()
                .find(|&i| path[i].distance(path[j]) >= chord)
                .unwrap_or(0);
            (path[j] - path[from]).dot(leg) >= 0.0
        };
        let found = if sees(0, whole) {
            Some(0)
        } else {
            (lo.max(1)..last)
                .find(|&j| forward(j) && sees(j, if costs { rest[j - lo].x } else { 0.0 }))
        };
        if let Some(j) = found {
            let dropped = last - j;
            self.path.truncate(j + 1);
            if self.path[j] != t {
                self.path.push(t);
            }
            return Ok(Some(Retargeted::Adjusted { dropped }));
        }
        Ok(None)
    }

    /// Case 3 of [`move_target`](Self::move_target) alone: the whole path planned again
    /// from the position to `t` ([`Retargeted::Replanned`]); while
    /// [stuck](Self::stuck), only the target recorded ([`Retargeted::Stuck`]).
    ///
    /// Errors: [`move_target`](Self::move_target)'s, the agent path unchanged. Cost: one
    /// [`Pipeline::plan`].
    pub fn plan_target<W: World>(
        &mut self,
        pipeline: &mut Pipeline<W>,
        t: DVec2,
    ) -> Result<Retargeted> {
        check_point(pipeline, t, "target")?;
        if self.stuck.is_some() {
            let last = self.path.len() - 1;
            if last == 0 {
                self.path.push(t);
            } else {
                self.path[last] = t;
            }
            return Ok(Retargeted::Stuck);
        }
        self.take_plan(pipeline, self.path[0], t)?;
        Ok(Retargeted::Replanned)
    }

    /// Looks for a shorter way over the next `horizon` world units of the path (Detour's
    /// `optimizePathTopology`): the moves keep the route the path took round the
    /// obstacles, and once the agent was pushed, or the target moved, another route can
    /// be shorter. This plans with the pipeline from the position to the first point at
    /// least `horizon` along the path (the target when nearer) and splices the plan in
    /// when it is shorter (on a world with area costs, cheaper) than the stretch it
    /// replaces and joins the path there. Returns whether it did. Call it now and then
    /// (Detour's crowd does every half second per agent, and staggers the agents).
    ///
    /// Errors: the planning's (the agent path unchanged). A stuck agent path, or a `horizon`
    /// that is not positive, does nothing.
    ///
    /// Cost: one [`Pipeline::plan`] over about `horizon`, plus O(points) for the
    /// stretch's cost.
    pub fn optimize_topology<W: World>(
        &mut self,
        pipeline: &mut Pipeline<W>,
        horizon: f64,
    ) -> Result<bool> {
        let last = self.path.len() - 1;
        let positive = horizon > 0.0; // false for NaN
        if self.stuck.is_some() || last == 0 || !positive {
            return Ok(false);
        }
        self.shorten_from(pipeline, 0, horizon)
    }

    /// Plans from point `s` of the path to the point `horizon` further along it and splices
    /// the plan in when it is cheaper and joins the path at both ends: true when it did.
    /// The agent path is unchanged otherwise (and on error).
    fn shorten_from<W: World>(
        &mut self,
        pipeline: &mut Pipeline<W>,
        s: usize,
        horizon: f64,
    ) -> Result<bool> {
        let last = self.path.len() - 1;
        if s >= last {
            return Ok(false);
        }
        let mut k = s + 1;
        let mut along = self.path[s].distance(self.path[k]);
        while along < horizon && k < last {
            along += self.path[k].distance(self.path[k + 1]);
            k += 1;
        }
        pipeline.plan_into(self.path[s], self.path[k], &mut self.work)?;
        let world = pipeline.world();
        let new = crate::world::path_cost(world, &self.work);
        let old = crate::world::path_cost(world, &self.path[s..=k]);
        let shorter = new < old * (1.0 - 1e-9); // false for NaN
        let front = s == 0 || joins_front(pipeline, &self.path, s, &self.work);
        if !shorter || !front || !joins(pipeline, &self.work, &self.path, k) {
            return Ok(false);
        }
        self.path.splice(s..=k, self.work.iter().copied());
        let seam = s + self.work.len() - 1;
        pull_seam(pipeline, &mut self.path, seam, self.pull);
        Ok(true)
    }

    /// Plans the whole path again from the position to the target with the pipeline (a
    /// fresh [`Pipeline::plan`], for a caller that wants one now and then, or after a
    /// large change of the world), and clears the [stuck](Self::stuck) state.
    ///
    /// Errors: the planning's; the agent path is then unchanged if its path is still valid,
    /// else stuck with that error.
    ///
    /// Cost: one [`Pipeline::plan`] (and a validity check of the path when it fails).
    pub fn replan<W: World>(&mut self, pipeline: &mut Pipeline<W>) -> Result<()> {
        let (position, target) = (self.position(), self.target());
        match pipeline.plan_into(position, target, &mut self.work) {
            Ok(()) => {
                std::mem::swap(&mut self.path, &mut self.work);
                self.stuck = None;
                Ok(())
            }
            Err(e) => {
                if !path_is_clear(pipeline.world(), &self.path, pipeline.radius()) {
                    self.stuck = Some(e.clone());
                }
                Err(e)
            }
        }
    }

    /// Makes the path valid again after the world changed (Detour's `trimInvalidPath` and
    /// the crowd's re-plan, done locally): every segment and bend is tested; when all are
    /// clear nothing changes ([`Repair::Valid`]); otherwise only the stretch from the last
    /// valid point before the first problem to the first valid point after the last one is
    /// planned again with the pipeline ([`Pipeline::plan_into`], which smooths it with the
    /// pipeline's steps) and spliced in ([`Repair::Repaired`]). The whole path is planned
    /// again ([`Repair::Replanned`]) only when the stretch cannot be (its ends lack room
    /// for the planner, or the bends where it joins the path are not clear). A stretch's
    /// plan more than twice as long as the stretch is a detour that can come back to the
    /// old path from its far side and double back along it: a plan from the stretch's
    /// start to twice the detour's length further on is then tried too, and kept when it
    /// is shorter (cheaper) and joins. A stuck agent path is repaired the same way, and is no
    /// longer stuck once that succeeds.
    ///
    /// Errors: [`Error::Blocked`] or [`Error::TooClose`] for a position or target that is
    /// now inside a wall or without room for the agent, and the planning's errors
    /// ([`Error::Unreachable`] when the target was walled off). On error the agent path is
    /// [stuck](Self::stuck) with that error if its path is invalid, and unchanged if it is
    /// still valid (it is then not stuck).
    ///
    /// Cost: one segment test per segment and one bend test per point, plus one plan of
    /// the stretch (two after a detour; two also when the stretch's plan fails and the
    /// whole path is planned). A valid path costs only the tests and allocates nothing.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::crowd::{AgentPath, Repair};
    /// use pathsmooth::{GridMap, GridWorld, Pipeline, Preset};
    /// let open = GridWorld::new(GridMap::from_rows(&["........", "........", "........"])?)?;
    /// // A crate falls in the middle of the room.
    /// let closed = GridWorld::new(GridMap::from_rows(&["........", "...@@...", "........"])?)?;
    /// let (mut before, mut after) = (
    ///     Pipeline::preset(&open, 0.0, Preset::Shortest)?,
    ///     Pipeline::preset(&closed, 0.0, Preset::Shortest)?,
    /// );
    /// let mut agent_path = AgentPath::new(&mut before, DVec2::new(0.5, 1.5), DVec2::new(7.5, 1.5))?;
    /// assert_eq!(agent_path.repair(&mut before)?, Repair::Valid);
    /// assert!(!agent_path.is_valid(&after));
    /// assert_ne!(agent_path.repair(&mut after)?, Repair::Valid);
    /// assert!(agent_path.is_valid(&after));
    /// assert_eq!(agent_path.target(), DVec2::new(7.5, 1.5));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn repair<W: World>(&mut self, pipeline: &mut Pipeline<W>) -> Result<Repair> {
        self.forget_world();
        let result = self.repair_inner(pipeline);
        match &result {
            Ok(_) => self.stuck = None,
            Err(e) => {
                if !path_is_clear(pipeline.world(), &self.path, pipeline.radius()) {
                    self.stuck = Some(e.clone());
                }
            }
        }
        result
    }

    fn repair_inner<W: World>(&mut self, pipeline: &mut Pipeline<W>) -> Result<Repair> {
        let world = pipeline.world();
        let radius = pipeline.radius();
        let path = &self.path;
        let last = path.len() - 1;
        room(world, path[0], radius, "position")?;
        // The stretch [s, e] of points to re-plan between: from the start of the first bad
        // segment (or the point before a bad bend) to the end of the last one.
        let mut stretch: Option<(usize, usize)> = None;
        let mut widen = |s: usize, e: usize| {
            stretch = Some(stretch.map_or((s, e), |(a, b)| (a.min(s), b.max(e))));
        };
        for i in 0..last {
            if !world.segment_is_clear(path[i], path[i + 1], radius) {
                widen(i, i + 1);
            }
        }
        for (prev, i, next) in bends(path) {
            if !world.bend_is_clear(path[prev], path[i], path[next], radius) {
                widen(prev, next);
            }
        }
        let Some((s, e)) = stretch else {
            return Ok(Repair::Valid);
        };
        room(world, path[last], radius, "target")?;
        if s > 0 || e < last {
            // Re-plan the stretch; when its splice does not join, one point wider on the
            // side that failed, a few times.
            let (mut s, mut e) = (s, e);
            for _ in 0..SPLICE_TRIES {
                if pipeline
                    .plan_into(self.path[s], self.path[e], &mut self.work)
                    .is_err()
                {
                    break;
                }
                let front = s == 0 || joins_front(pipeline, &self.path, s, &self.work);
                let back = joins(pipeline, &self.work, &self.path, e);
                if front && back {
                    let before = length(&self.path[s..=e]);
                    let detour = length(&self.work);
                    self.path.splice(s..=e, self.work.iter().copied());
                    let seam = s + self.work.len() - 1;
                    pull_seam(pipeline, &mut self.path, seam, self.pull);
                    // A detour round the obstacle can come back to the old path from its
                    // far side and then double back along it: re-plan from the stretch's
                    // start to as far past the seam again, and keep that when shorter.
                    // (The path is valid either way; a failed plan changes nothing.)
                    if detour > DETOUR * before {
                        let _ = self.shorten_from(pipeline, s, 2.0 * detour);
                    }
                    return Ok(Repair::Repaired { replaced: e - s });
                }
                if !front {
                    s -= 1;
                }
                if !back && e < last {
                    e += 1;
                }
            }
        }
        self.take_plan(pipeline, self.path[0], self.path[last])?;
        Ok(Repair::Replanned)
    }
}

/// The input checks of a new position or target `p` (what is `"position"` or `"target"`):
/// a finite point of the world's bounds, with room for the agent.
fn check_point<W: World>(pipeline: &Pipeline<W>, p: DVec2, what: &'static str) -> Result<()> {
    check_coordinates(pipeline, p)?;
    room(pipeline.world(), p, pipeline.radius(), what)
}

/// The coordinate checks of [`check_point`]: a finite point of the world's bounds.
fn check_coordinates<W: World>(pipeline: &Pipeline<W>, p: DVec2) -> Result<()> {
    let world = pipeline.world();
    check_path_and_radius(world, &[p], 1, "an agent path", pipeline.radius())?;
    check_in_bounds(world, &[p])
}

/// `Ok` when `p` has room for the agent; else [`Error::Blocked`] (inside a wall, or a
/// point agent on one) or [`Error::TooClose`].
fn room<W: World + ?Sized>(world: &W, p: DVec2, radius: f64, what: &'static str) -> Result<()> {
    if world.segment_is_clear(p, p, radius) {
        return Ok(());
    }
    let clearance = world.clearance(p);
    if clearance > 0.0 && radius > 0.0 {
        Err(Error::TooClose {
            what,
            x: p.x,
            y: p.y,
            clearance,
            radius,
        })
    } else {
        Err(Error::Blocked {
            what,
            x: p.x,
            y: p.y,
        })
    }
}

/// True when the bends that ending the path at point `j` with a leg to `t` makes are clear:
/// the one at `j` (from the previous distinct point).
fn bends_clear<W: World + ?Sized>(
    world: &W,
    path: &[DVec2],
    j: usize,
    t: DVec2,
    radius: f64,
) -> bool {
    let prev = (0..j).rev().find(|&m| path[m] != path[j]);
    prev.is_none_or(|m| world.bend_is_clear(path[m], path[j], t, radius))
}

/// After a splice whose plan ends at point `m` of `path`, drops the points from `m` on
/// that the plan's point before `m` sees past (at most `pull` of them, the farthest first;
/// the segment and both bends clear, no costlier), as [`AgentPath::move_position`]
/// string-pulls from the position: a plan that rejoins the path a little too far on does
/// not make the path turn back. Cost: at most `pull` segment and bend tests.
fn pull_seam<W: World>(pipeline: &Pipeline<W>, path: &mut Vec<DVec2>, m: usize, pull: usize) {
    let (world, radius) = (pipeline.world(), pipeline.radius());
    let last = path.len() - 1;
    if m == 0 || m >= last {
        return;
    }
    let a = path[m - 1];
    let prev = (0..m - 1).rev().find(|&i| path[i] != a);
    let costs = world.has_area_costs();
    let far = (m + pull).min(last);
    // `along[j - m]`: the way from `a` along the path to point j.
    let mut along = [0.0; MAX_PULL + 1];
    if costs {
        along[0] = world.segment_cost(a, path[m]);
        for j in m + 1..=far {
            along[j - m] = along[j - m - 1] + world.segment_cost(path[j - 1], path[j]);
        }
    }
    let path_ref = &*path;
    let sees = |j: usize| {
        let b = path_ref[j];
        b != a
            && world.segment_is_clear(a, b, radius)
            && (j == last || world.bend_is_clear(a, b, path_ref[j + 1], radius))
            && prev.is_none_or(|i| world.bend_is_clear(path_ref[i], a, b, radius))
            && (!costs || not_costlier(world.segment_cost(a, b), along[j - m]))
    };
    if let Some(j) = (m + 1..=far).rev().find(|&j| sees(j)) {
        path.drain(m..j);
    }
}

/// True when `p`, on segment `i` of the path (within [`ON_PATH`]), joins point
/// `first` = `i` + 1 with the segment and the bend there clear. The segment's test is
/// skipped when the segment `p` lies on was measured (by an earlier move along it) with
/// clearance above the radius by a margin that the piece from `p` cannot lose; else it
/// is measured now, once for all the moves along it.
fn walks_clear<W: World + ?Sized>(
    world: &W,
    radius: f64,
    path: &[DVec2],
    walking: &mut Option<Walking>,
    p: DVec2,
    i: usize,
    first: usize,
) -> bool {
    let b = path[first];
    let margin = WALK_MARGIN * (1.0 + p.abs().max_element());
    let known = walking.filter(|w| {
        let (on, _) = closest_on_segment(p, w.a, w.b);
        w.b == b && on.distance(p) <= margin && w.clearance >= radius + 2.0 * margin
    });
    let bend = first == path.len() - 1 || world.bend_is_clear(p, b, path[first + 1], radius);
    if known.is_some() {
        return bend;
    }
    if !(bend && world.segment_is_clear(p, b, radius)) {
        return false;
    }
    // `p` is within ON_PATH of segment i, so the segment's clearance bounds the piece's.
    let clearance = world.segment_clearance(path[i], b, radius + LEG_CAP);
    *walking = Some(Walking {
        a: path[i],
        b,
        clearance,
        cap: radius + LEG_CAP,
    });
    true
}

/// True when `p`, off segment `i` of the path (not on it: an agent that stepped aside),
/// is closer to it than the segment's clearance exceeds the radius by, and the bend at
/// point `i` + 1 is clear: then `p` sees that point, with no segment test, and has room
/// for the agent (its clearance is the segment's less `|p − q|` at least). Every point of
/// the segment from `p` to `b = path[i + 1]` lies within `|p − q|` of the matching point of
/// the piece `q`–`b` of segment `i` (`q` being `p`'s projection): (1 − t)·p + t·b and
/// (1 − t)·q + t·b are (1 − t)·|p − q| apart. The segment's clearance is measured once,
/// as [`walks_clear`] does, and shared with it. No pull is tried from there: the tail from
/// `p` is the smoothed path bent by less than the clearance to spare, and an agent that
/// steps aside for others takes this way many frames in a row (the string-pulling tests
/// of every point in reach cost most of a crowd's frame when it avoided). Within the
/// radius of `b` the pull is tried as before: near a corner the way past it may open (an
/// agent standing on the corner of a random arena's path held another there for good
/// when it was not).
fn near_enough<W: World + ?Sized>(
    world: &W,
    radius: f64,
    path: &[DVec2],
    walking: &mut Option<Walking>,
    p: DVec2,
    i: usize,
) -> bool {
    let (a, b) = (path[i], path[i + 1]);
    let margin = WALK_MARGIN * (1.0 + p.abs().max_element());
    let off = closest_on_segment(p, a, b).0.distance(p);
    // The clearance the segment needs, measured no further: a smaller cap walks fewer of
    // the world's walls (a navmesh lists those within it), and an agent that stepped
    // aside is off its path's first segment, which starts where it stood, each frame anew.
    let need = radius + off + margin;
    if !(p.distance(b) > radius && need <= radius + LEG_CAP) {
        return false;
    }
    let clearance = match *walking {
        Some(w) if w.a == a && w.b == b && (w.clearance >= need || w.clearance < w.cap) => {
            w.clearance
        }
        _ => {
            let clearance = world.segment_clearance(a, b, need);
            *walking = Some(Walking {
                a,
                b,
                clearance,
                cap: need,
            });
            clearance
        }
    };
    clearance >= need && (i + 1 == path.len() - 1 || world.bend_is_clear(p, b, path[i + 2], radius))
}

/// True when `piece` (a plan ending at `path[k]`) joins the path at point `k`: the bend
/// there, from the piece's last distinct point to the path's next one, is clear.
fn joins<W: World>(pipeline: &Pipeline<W>, piece: &[DVec2], path: &[DVec2], k: usize) -> bool {
    let v = path[k];
    let before = piece.iter().rev().find(|&&q| q != v);
    let after = path[k + 1..].iter().find(|&&q| q != v);
    match (before, after) {
        (Some(&a), Some(&b)) => pipeline.world().bend_is_clear(a, v, b, pipeline.radius()),
        _ => true,
    }
}

/// True when `piece` (a plan starting at `path[s]`) joins the path at point `s`: the bend
/// there, from the path's previous distinct point to the piece's next one, is clear.
fn joins_front<W: World>(
    pipeline: &Pipeline<W>,
    path: &[DVec2],
    s: usize,
    piece: &[DVec2],
) -> bool {
    let v = path[s];
    let before = path[..s].iter().rev().find(|&&q| q != v);
    let after = piece.iter().find(|&&q| q != v);
    match (before, after) {
        (Some(&a), Some(&b)) => pipeline.world().bend_is_clear(a, v, b, pipeline.radius()),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{is_valid, GridMap, GridWorld, Preset};

    fn world(rows: &[&str]) -> GridWorld {
        GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap()
    }

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// An L: along the top row, then down the right column.
    const L: [&str; 6] = [
        "........", "........", "@@@@@...", "@@@@@...", "@@@@@...", "@@@@@...",
    ];

    #[test]
    fn steering_point_and_corners_follow_the_path_and_never_give_nan() {
        let w = world(&L);
        let mut pipeline = Pipeline::preset(&w, 0.0, Preset::Shortest).unwrap();
        let c = AgentPath::new(&mut pipeline, p(0.5, 0.5), p(6.5, 5.5)).unwrap();
        let path = c.path().to_vec();
        assert_eq!(c.next_corners(1), &path[1..2]);
        assert_eq!(c.next_corners(100), &path[1..]);
        assert_eq!(c.next_corners(0), &[] as &[DVec2]);
        assert_eq!(c.next_corners(usize::MAX), &path[1..]);
        for bad in [f64::NAN, -1.0, 0.0, f64::NEG_INFINITY] {
            assert_eq!(c.steering_point(bad), path[0]);
        }
        assert_eq!(c.steering_point(f64::INFINITY), p(6.5, 5.5));
        assert_eq!(c.steering_point(1e9), p(6.5, 5.5));
        let first = path[0].distance(path[1]);
        let q = c.steering_point(0.5 * first);
        assert!((q - path[0].lerp(path[1], 0.5)).length() < 1e-12);
        // Past the first corner: on the second segment.
        let q = c.steering_point(first + 0.5);
        assert!((q.distance(path[1]) - 0.5).abs() < 1e-9, "{q}");
        assert!((c.length() - crate::metrics::length(&path)).abs() < 1e-12);
    }

    #[test]
    fn walking_to_the_target_and_back_keeps_a_valid_path() {
        let w = world(&L);
        for radius in [0.0, 0.3] {
            let mut pipeline = Pipeline::preset(&w, radius, Preset::Smooth).unwrap();
            let (a, b) = (p(0.5, 0.5), p(6.5, 5.5));
            let mut c = AgentPath::new(&mut pipeline, a, b).unwrap();
            // Arrive: the path is the one point.
            assert_eq!(c.move_position(&mut pipeline, b), Ok(Moved::Kept));
            assert_eq!(c.path(), [b]);
            assert_eq!(c.next_corners(3), &[] as &[DVec2]);
            assert_eq!(c.steering_point(2.0), b);
            // The target moves while the agent stands on it (a one-point path).
            let t = p(6.5, 3.5);
            assert!(matches!(
                c.move_target(&mut pipeline, t),
                Ok(Retargeted::Adjusted { .. })
            ));
            assert_eq!(c.path(), [b, t]);
            // The agent steps off the target, out of its sight: re-planned.
            assert_eq!(
                c.move_target(&mut pipeline, b),
                Ok(Retargeted::Adjusted { dropped: 1 })
            );
            assert_eq!(c.move_position(&mut pipeline, b), Ok(Moved::Kept));
            assert_eq!(c.path(), [b]);
            assert_eq!(c.move_position(&mut pipeline, a), Ok(Moved::Replanned));
            assert_eq!((c.position(), c.target()), (a, b));
            assert!(is_valid(&w, c.path(), radius) && c.is_valid(&pipeline));
            // A target that moved down the last leg: joined from the corner before it.
            let mut c = AgentPath::new(&mut pipeline, a, b).unwrap();
            let r = c.move_target(&mut pipeline, p(6.5, 4.5)).unwrap();
            assert!(matches!(r, Retargeted::Adjusted { .. }), "{r:?}");
            assert!(c.is_valid(&pipeline) && c.target() == p(6.5, 4.5));
            // A target that nothing of the path's end sees (a two-point path: only the
            // position): a full re-plan from the position.
            let mut c = AgentPath::new(&mut pipeline, p(6.5, 5.5), p(7.5, 5.5)).unwrap();
            assert_eq!(
                c.move_target(&mut pipeline, p(0.5, 0.5)),
                Ok(Retargeted::Replanned)
            );
            assert!(c.is_valid(&pipeline) && c.target() == p(0.5, 0.5));
        }
    }

    #[test]
    fn a_repair_round_a_crate_does_not_loop_back_to_the_old_path() {
        // The Python quick start's room: a block of wall in the middle, 0.5 m cells; the
        // agent's path passes above the block, and a crate closes the way above it.
        let rows = [
            "............",
            "............",
            "............",
            "....####....",
            "....####....",
            "............",
            "............",
            "............",
        ];
        let map = GridMap::from_rows(&rows).unwrap();
        let mut w = GridWorld::with_frame(map, 0.5, DVec2::ZERO).unwrap();
        let (a, b) = (p(0.25, 0.25), p(5.75, 3.75));
        let mut c = {
            let mut pipeline = Pipeline::preset(&w, 0.2, Preset::Smooth).unwrap();
            AgentPath::new(&mut pipeline, a, b).unwrap()
        };
        w.add_obstacle(crate::world::Obstacle::Box {
            min: p(2.0, 0.0),
            max: p(2.5, 1.5),
        })
        .unwrap();
        let mut pipeline = Pipeline::preset(&w, 0.2, Preset::Smooth).unwrap();
        assert!(!c.is_valid(&pipeline));
        assert!(c.repair(&mut pipeline).is_ok());
        assert!(is_valid(&w, c.path(), 0.2));
        let fresh = crate::metrics::length(&pipeline.plan(a, b).unwrap().to_vec());
        assert!(
            c.length() <= 1.1 * fresh,
            "{} vs {fresh}: {:?}",
            c.length(),
            c.path()
        );
    }

    #[test]
    fn a_pull_cuts_past_a_corner_the_agent_sees_past() {
        let w = world(&L);
        let mut pipeline = Pipeline::preset(&w, 0.0, Preset::Shortest).unwrap();
        let mut c = AgentPath::new(&mut pipeline, p(0.5, 0.5), p(6.5, 5.5)).unwrap();
        let corners = c.path().len();
        assert!(corners >= 3, "{:?}", c.path());
        // Into the open corner region, from where the target is in sight.
        let q = p(6.0, 1.5);
        let moved = c.move_position(&mut pipeline, q).unwrap();
        assert!(
            matches!(moved, Moved::Pulled { .. } | Moved::Kept),
            "{moved:?}"
        );
        assert_eq!(c.path(), [q, p(6.5, 5.5)]);
        // With pulling off, the corner would be kept.
        let mut c = AgentPath::new(&mut pipeline, p(0.5, 0.5), p(6.5, 5.5))
            .unwrap()
            .with_pull(0);
        let path = c.path().to_vec();
        let q = path[0].lerp(path[1], 0.5) - p(0.0, 0.2); // away from the wall
        assert_eq!(
            c.move_position(&mut pipeline, q),
            Ok(Moved::Kept),
            "{path:?} {q}"
        );
        assert_eq!(c.path()[1..], path[1..]);
        c.set_pull(usize::MAX);
        assert_eq!(c.pull, MAX_PULL);
    }

    #[test]
    fn with_area_costs_a_pull_does_not_cut_through_the_swamp() {
        // A swamp block (cost 8) inside the bend: the planner goes round it, and the
        // agent standing where it could see past the swamp must not cut through it.
        let rows = ["........", "..SSS...", "..SSS...", "..SSS...", "........"];
        let map = GridMap::from_rows(&rows).unwrap();
        let w = GridWorld::new(map)
            .unwrap()
            .with_area_costs("S=8".parse().unwrap())
            .unwrap();
        let mut pipeline = Pipeline::preset(&w, 0.0, Preset::Shortest).unwrap();
        let (a, b) = (p(0.5, 4.5), p(7.5, 0.5));
        let mut c = AgentPath::new(&mut pipeline, a, b).unwrap();
        let cost = crate::world::path_cost(&w, c.path());
        let q = c.steering_point(0.5);
        c.move_position(&mut pipeline, q).unwrap();
        let after = crate::world::path_cost(&w, c.path());
        assert!(after <= cost, "{after} > {cost}: {:?}", c.path());
        // Nothing of the path crosses the swamp's inside.
        for s in c.path().windows(2) {
            assert!(
                w.segment_cost(s[0], s[1]) <= s[0].distance(s[1]) * (1.0 + 1e-9),
                "{s:?}"
            );
        }
        // A target across the swamp is joined round it, never through.
        c.move_target(&mut pipeline, p(1.5, 0.5)).unwrap();
        let direct = c.position().distance(p(1.5, 0.5));
        assert!(
            crate::world::path_cost(&w, c.path())
                <= w.segment_cost(c.position(), p(1.5, 0.5)).max(direct)
        );
    }

    #[test]
    fn optimize_topology_finds_the_shorter_way_round_a_pillar() {
        // A wall with a way round over it and under it. The agent path goes over; the agent
        // is carried down beside the wall, from where it still sees the path's next
        // corner (so the move keeps the route), but under the wall is now shorter.
        let rows = [
            "..........",
            ".....@....",
            ".....@....",
            ".....@....",
            ".....@....",
            ".....@....",
            ".....@....",
            ".....@....",
            "..........",
        ];
        let w = world(&rows);
        let mut pipeline = Pipeline::preset(&w, 0.0, Preset::Shortest).unwrap();
        let target = p(8.5, 5.5);
        let mut c = AgentPath::new(&mut pipeline, p(2.5, 2.5), target).unwrap();
        assert!(c.path().iter().all(|q| q.y <= 5.5), "over: {:?}", c.path());
        let low = p(0.5, 5.0);
        let before_move = c.path().to_vec();
        assert_eq!(
            c.move_position(&mut pipeline, low),
            Ok(Moved::Kept),
            "{before_move:?}"
        );
        assert!(c.is_valid(&pipeline));
        let before = c.length();
        let fresh = crate::metrics::length(&pipeline.plan(low, target).unwrap());
        let changed = c.optimize_topology(&mut pipeline, 100.0).unwrap();
        assert!(c.is_valid(&pipeline));
        assert!(changed && before > fresh + 1e-9, "{before} {fresh}");
        assert!(c.length() <= fresh + 1e-9);
        // Nothing shorter: nothing changes; bad horizons do nothing.
        let path = c.path().to_vec();
        assert_eq!(c.optimize_topology(&mut pipeline, 100.0), Ok(false));
        assert_eq!(c.optimize_topology(&mut pipeline, f64::NAN), Ok(false));
        assert_eq!(c.optimize_topology(&mut pipeline, -1.0), Ok(false));
        assert_eq!(c.path(), path.as_slice());
    }
}
