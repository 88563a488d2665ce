//! The crowd in the C ABI: [`PsCrowd`], the library's
//! [`Crowd`](pathsmooth::crowd::Crowd) on a grid or a navmesh (a surface world) — agents
//! walking their smooth paths, optionally avoiding one another (ORCA),
//! temporary obstacles and moving obstacles. The names follow the Python binding's `Crowd`.
//!
//! On a surface world (any engine's navmesh file) the agents walk its plan view (the two
//! axes across its up axis: x and z for y up), each on its floor, which
//! [`ps_crowd_positions3`] gives in 3D. On one floor they come in with 2D or 3D points;
//! across floors over one another with 3D points (`ps_crowd_add_agent_on_surface`).
//!
//! A crowd owns a copy of the world it is made on: obstacles added through the crowd change
//! the crowd's world only (the [`PsWorld`] handle stays immutable, and may be destroyed
//! while the crowd lives). Use a crowd from one thread at a time; with
//! [`PsCrowdSettings::threads`] > 1 its updates run on a pool of its own.
//!
//! Agents are numbered 0 to count − 1 ([`ps_crowd_agent_count`]). Removing agent `i`
//! moves the last agent into index `i` (as `Vec::swap_remove`): [`ps_crowd_remove_agent`]
//! says which index moved.

use std::ffi::c_char;

use pathsmooth::crowd::{Avoidance, Crowd, CrowdAgent, CrowdFrame, MovingId, MovingObstacle};
use pathsmooth::follow::Agent;
use pathsmooth::glam::{DVec2, DVec3, IVec2};
use pathsmooth::world::{Obstacle, ObstacleId};
use pathsmooth::{GridWorld, Step, SurfaceWorld};

use crate::{
    check_ptr, destroy, emit, handle, input, input_pairs, preset_steps, start_list, start_out,
    start_with, steps_of, world_ref, write_out, write_text, Fail, PsPoint2d, PsPoint3d, PsStatus,
    PsStep, PsWorld, Res, Tagged, WorldKind,
};

/// A crowd: agents walking their paths on its own copy of a grid, navmesh or surface
/// world (across floors over one another, agents placed in 3D). Opaque; made by `ps_crowd_new_*`, freed by [`ps_crowd_destroy`]. Use it
/// from one thread at a time.
pub struct PsCrowd {
    _opaque: [u8; 0],
}

pub(crate) const CROWD_TAG: u64 = u64::from_le_bytes(*b"PSCROWD\0");

/// No agent: what [`ps_crowd_remove_agent`] writes when no agent moved, and
/// [`ps_crowd_add_agent`] on failure.
pub const PS_NO_AGENT: usize = u64::MAX as usize;

/// No off-mesh link: [`PsAgentState::crossing_link`] of an agent on no link.
pub const PS_NO_LINK: u32 = u32::MAX;

/// No obstacle: what the obstacle calls write into their id output on failure.
pub const PS_NO_OBSTACLE: u64 = u64::MAX;

/// How a crowd runs ([`ps_crowd_new_preset`]); [`ps_crowd_settings_default`] fills in the
/// defaults, which NULL settings stand for.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PsCrowdSettings {
    /// Threads an update runs on (default 1, the calling thread; 1 to 256). Results do not
    /// depend on it.
    pub threads: usize,
    /// The most plans for new targets per update, first asked first served (the others
    /// wait and walk their old paths; a target the agent's position or path end sees
    /// takes no plan and never waits); 0 (the default): no limit.
    pub plan_budget: usize,
    /// 1: the agents avoid one another, the walls and the moving obstacles (ORCA, with the
    /// four settings below); 0 (the default): they walk through one another.
    pub avoidance: u32,
    /// How far ahead (seconds, > 0) collisions with neighbours are avoided (default 2).
    pub time_horizon: f64,
    /// The most neighbours each agent avoids, nearest first (≥ 1, default 10).
    pub max_neighbours: usize,
    /// How far ahead (seconds, > 0) an avoiding agent keeps off the walls (default 1).
    pub wall_time_horizon: f64,
    /// How far (world units, between centres) neighbours are looked for; 0 (the default):
    /// far enough to meet anyone within the time horizon at the top speed.
    pub neighbour_distance: f64,
    /// 1: the agents keep motion limits (the library's `Crowd::with_speed_profile`, with
    /// the three limits below and `follow::Agent`'s defaults for the others): they start
    /// from rest, slow before bends, stop at turns sharper than 120° and brake to stand at
    /// their goals; 0 (the default): each walks at its speed from its first update on.
    pub speed_profile: u32,
    /// The most an agent speeds up, world units/s² (> 0, default 4).
    pub max_accel: f64,
    /// The most an agent brakes, world units/s² (> 0, default 6).
    pub max_brake: f64,
    /// The most sideways acceleration in a bend, world units/s² (> 0, default 4).
    pub max_lateral_accel: f64,
}

impl Default for PsCrowdSettings {
    fn default() -> Self {
        let (a, limits) = (Avoidance::default(), Agent::default());
        PsCrowdSettings {
            threads: 1,
            plan_budget: 0,
            avoidance: 0,
            time_horizon: a.time_horizon,
            max_neighbours: a.max_neighbours,
            wall_time_horizon: a.wall_time_horizon,
            neighbour_distance: a.neighbour_distance.unwrap_or(0.0),
            speed_profile: 0,
            max_accel: limits.max_accel,
            max_brake: limits.max_brake,
            max_lateral_accel: limits.max_lateral_accel,
        }
    }
}

/// What one [`ps_crowd_update`] did, summed over the agents (the library's `CrowdFrame`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PsCrowdFrame {
    /// Moves that kept or string-pulled the agent's path.
    pub moved: usize,
    /// Plans made: re-plans after a push off the path, new targets out of sight of the
    /// path, repairs after a world change.
    pub replans: usize,
    /// New targets taken with a local adjustment of the path's end.
    pub adjusted: usize,
    /// New targets refused (unreachable, in a wall): see [`ps_crowd_agent_error`].
    pub refused: usize,
    /// Moves that failed, the agent left standing: see [`ps_crowd_agent_error`].
    pub failed: usize,
    /// Agents' paths the world changed under that were repaired.
    pub repaired: usize,
    /// Agents stuck after the update (see [`ps_crowd_agent_stuck`]).
    pub stuck: usize,
    /// Agents whose new target waits for a later update (the plan budget was spent).
    pub waiting: usize,
}

impl From<CrowdFrame> for PsCrowdFrame {
    fn from(f: CrowdFrame) -> Self {
        PsCrowdFrame {
            moved: f.moved,
            replans: f.replans,
            adjusted: f.adjusted,
            refused: f.refused,
            failed: f.failed,
            repaired: f.repaired,
            stuck: f.stuck,
            waiting: f.waiting,
        }
    }
}

/// One agent's state ([`ps_crowd_agent_state`]). Flags are 0 or 1.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PsAgentState {
    /// Where it stands (on its way over an off-mesh link, where it is on the way, in plan
    /// view).
    pub position: PsPoint2d,
    /// Where its path goes (the last target planned; a target asked for and still waiting
    /// is not it yet).
    pub target: PsPoint2d,
    /// Its velocity over the last update (world units per second).
    pub velocity: PsPoint2d,
    /// Its walking speed (world units per second).
    pub speed: f64,
    /// Its radius in effect (world units): the crowd's, or its own
    /// ([`ps_crowd_add_agent_with_radius`]).
    pub radius: f64,
    /// The points of its path, position to target ([`ps_crowd_agent_path`]).
    pub path_len: usize,
    /// It stands at its target, with no new target pending.
    pub arrived: u32,
    /// A new target waits to be planned (the plan budget was spent).
    pub waiting: u32,
    /// It is stuck (its path only its position): [`ps_crowd_agent_stuck`] says why.
    pub stuck: u32,
    /// An update met an error for it (a refused target, a failed move):
    /// [`ps_crowd_agent_error`] says which.
    pub has_error: u32,
    /// The agent it gives way to, or [`PS_NO_AGENT`]: head-on in a passage too narrow for
    /// both (with avoidance), it walks to a spot off the other's path (`target` is that
    /// spot meanwhile), waits until the other has passed, and walks on to its target.
    pub giving_way: usize,
    /// The off-mesh link it is on its way over (its index among the surface's links), or
    /// [`PS_NO_LINK`]: on a crowd made on a surface world, an agent takes a link over time,
    /// to its entry and over it to where it lands, at its speed; its path (`target`,
    /// `path_len`) is already the one from the landing.
    pub crossing_link: u32,
    /// The part of that way behind it, from 0 towards 1; 0 on no link.
    pub crossing_progress: f64,
}

impl From<&CrowdAgent> for PsAgentState {
    fn from(a: &CrowdAgent) -> Self {
        let path = a.agent_path();
        PsAgentState {
            position: point(a.position()),
            target: point(path.target()),
            velocity: point(a.velocity()),
            speed: a.speed(),
            radius: a.radius(),
            path_len: path.path().len(),
            arrived: a.arrived().into(),
            waiting: a.waiting().into(),
            stuck: path.stuck().is_some().into(),
            has_error: a.error().is_some().into(),
            giving_way: a.giving_way().unwrap_or(PS_NO_AGENT),
            crossing_link: a.crossing().map_or(PS_NO_LINK, |c| c.link()),
            crossing_progress: a.crossing().map_or(0.0, |c| c.progress()),
        }
    }
}

/// A moving obstacle as [`ps_crowd_moving_obstacles`] gives it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PsMovingObstacle {
    /// Its id, from [`ps_crowd_add_moving_obstacle`].
    pub id: u64,
    /// Its centre, world units.
    pub center: PsPoint2d,
    /// Its radius, world units.
    pub radius: f64,
    /// Its velocity, world units per second (zero while it stands).
    pub velocity: PsPoint2d,
}

/// A crowd on any kind of world: a grid, or a navmesh (a surface, of one floor or of
/// floors over one another).
enum AnyCrowd {
    Grid(Crowd<GridWorld>),
    Surface(Crowd<SurfaceWorld>),
}

const _: () = {
    const fn sendable<T: Send>() {}
    sendable::<AnyCrowd>();
};

/// `$body` with `$c` bound to the crowd, whichever its world.
macro_rules! on_crowd {
    ($crowd:expr, $c:ident => $body:expr) => {
        match $crowd {
            AnyCrowd::Grid($c) => $body,
            AnyCrowd::Surface($c) => $body,
        }
    };
}

/// A crowd's handle: the crowd, tagged.
type CrowdBox = Tagged<AnyCrowd>;

impl AnyCrowd {
    fn agents(&self) -> &[CrowdAgent] {
        on_crowd!(self, c => c.agents())
    }

    /// Agent `agent`, or `PS_INVALID_ARGUMENT` naming the count.
    fn agent(&self, agent: usize) -> Res<&CrowdAgent> {
        let agents = self.agents();
        agents.get(agent).ok_or_else(|| {
            Fail::new(
                PsStatus::PsInvalidArgument,
                format!(
                    "`agent` = {agent} is out of range: the crowd has {} agents",
                    agents.len()
                ),
            )
        })
    }
}

fn crowd_mut<'a>(crowd: *mut PsCrowd) -> Res<&'a mut AnyCrowd> {
    // SAFETY: the caller's contract (a handle or NULL); a crowd is used by one thread at a
    // time, so the reference is unique.
    unsafe { handle(crowd.cast::<CrowdBox>(), CROWD_TAG, "crowd").map(|h| &mut (*h).value) }
}

/// The crowd, once `agent` is checked to be one of its agents (as `crowd_mut`).
fn agent_crowd<'a>(crowd: *mut PsCrowd, agent: usize) -> Res<&'a mut AnyCrowd> {
    let c = crowd_mut(crowd)?;
    c.agent(agent)?;
    Ok(c)
}

fn crowd_ref<'a>(crowd: *const PsCrowd) -> Res<&'a AnyCrowd> {
    // SAFETY: the caller's contract (a handle or NULL), as `crowd_mut`.
    unsafe { handle(crowd.cast::<CrowdBox>(), CROWD_TAG, "crowd").map(|h| &(*h).value) }
}

/// The point `p`, or `PS_INVALID_ARGUMENT` naming `name` when it is not finite.
fn finite(p: PsPoint2d, name: &str) -> Res<DVec2> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(DVec2::new(p.x, p.y))
    } else {
        Err(Fail::new(
            PsStatus::PsInvalidArgument,
            format!("`{name}` ({}, {}) is not finite", p.x, p.y),
        ))
    }
}

fn point(v: DVec2) -> PsPoint2d {
    PsPoint2d { x: v.x, y: v.y }
}

/// An output that holds the value standing for failure from the start of the call, so
/// that every failure leaves that, and the result once it succeeds: [`Out::start`] (the
/// caller must give it) or [`Out::optional`] (the caller may leave it NULL: not wanted)
/// checks it and writes the failure; [`Out::set`] writes the result.
struct Out<T>(*mut T);

impl<T: Copy> Out<T> {
    /// Checks `out` (non-NULL and aligned; `name` for the message) and writes `failed`
    /// into it.
    fn start(out: *mut T, name: &str, failed: T) -> Res<Self> {
        start_with(out, name, failed)?;
        Ok(Out(out))
    }

    /// [`Out::start`] for an output that may be NULL: then nothing is checked or written.
    fn optional(out: *mut T, name: &str, failed: T) -> Res<Self> {
        if !out.is_null() {
            start_with(out, name, failed)?;
        }
        Ok(Out(out))
    }

    /// Writes `value` into the output (nothing when it is NULL).
    fn set(&self, value: T) {
        if !self.0.is_null() {
            // SAFETY: checked by `start` or `optional`, the only ways to make one.
            unsafe { self.0.write(value) };
        }
    }
}

/// The settings at `settings` (NULL: the defaults).
///
/// # Safety
///
/// `settings` NULL or readable.
unsafe fn settings_at(settings: *const PsCrowdSettings) -> Res<PsCrowdSettings> {
    if settings.is_null() {
        return Ok(PsCrowdSettings::default());
    }
    check_ptr(settings, "settings")?;
    // SAFETY: checked non-NULL and aligned; the caller gives a readable struct.
    Ok(unsafe { settings.read() })
}

/// The library's crowd on `world` with `settings` (which it checks).
fn build<W>(world: W, radius: f64, steps: Vec<Step>, s: &PsCrowdSettings) -> Res<Crowd<W>>
where
    W: pathsmooth::world::ObstacleWorld + Send + Sync,
{
    let avoidance = switch("avoidance", s.avoidance)?.then(|| Avoidance {
        time_horizon: s.time_horizon,
        max_neighbours: s.max_neighbours,
        wall_time_horizon: s.wall_time_horizon,
        // NaN is not 0: the library refuses it.
        neighbour_distance: (s.neighbour_distance != 0.0).then_some(s.neighbour_distance),
    });
    let speed_profile = switch("speed_profile", s.speed_profile)?.then(|| Agent {
        max_accel: s.max_accel,
        max_brake: s.max_brake,
        max_lateral_accel: s.max_lateral_accel,
        ..Agent::default()
    });
    let budget = (s.plan_budget != 0).then_some(s.plan_budget);
    Ok(Crowd::new(world, radius, steps)?
        .with_threads(s.threads)?
        .with_plan_budget(budget)?
        .with_avoidance(avoidance)?
        .with_speed_profile(speed_profile)?)
}

/// A setting that is 0 (off) or 1 (on), named `name` in the error for any other value.
fn switch(name: &str, value: u32) -> Res<bool> {
    match value {
        0 | 1 => Ok(value == 1),
        other => Err(Fail::new(
            PsStatus::PsInvalidArgument,
            format!("`settings.{name}` = {other} is not 0 (off) or 1 (on)"),
        )),
    }
}

/// The body of the two constructors: `*out` set to NULL first (so that every failure
/// leaves NULL), then the `steps` read, the settings checked and the crowd made on its
/// copy of `world`.
///
/// # Safety
///
/// `settings` NULL or readable.
unsafe fn new_crowd(
    world: *const PsWorld,
    steps: impl FnOnce() -> Res<Vec<Step>>,
    radius: f64,
    settings: *const PsCrowdSettings,
    out: *mut *mut PsCrowd,
) -> Res<()> {
    start_out(out, "out_crowd")?;
    let steps = steps()?;
    // SAFETY: the caller's contract.
    let s = unsafe { settings_at(settings)? };
    let crowd = match &**world_ref(world)? {
        // The crowd adds obstacles to its world: it gets a world of its own, equal to this
        // one (the map as the area costs see it is the same map under the same costs).
        WorldKind::Grid(w) => {
            let copy = GridWorld::with_frame(w.map().clone(), w.cell_size(), w.origin())?
                .with_area_costs(w.area_costs().clone())?;
            AnyCrowd::Grid(build(copy, radius, steps, &s)?)
        }
        // On one floor the agents walk its whole plan view; across floors over one
        // another each walks the sheet round its own path (`Crowd<SurfaceWorld>`).
        WorldKind::Surface(world) => AnyCrowd::Surface(build(world.clone(), radius, steps, &s)?),
    };
    emit(out, CROWD_TAG, crowd);
    Ok(())
}

/// Fills `*out_settings` with the defaults: 1 thread, no plan budget, no avoidance, and
/// the library's avoidance settings (time horizon 2 s, 10 neighbours, wall time horizon
/// 1 s, neighbour distance 0: automatic) for a caller that turns it on.
///
/// # Safety
///
/// `out_settings` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_settings_default(out_settings: *mut PsCrowdSettings) -> PsStatus {
    crate::guard_named("ps_crowd_settings_default", || {
        write_out(out_settings, "out_settings", || {
            Ok(PsCrowdSettings::default())
        })
    })
}

/// Makes a crowd without agents on its own copy of `world` (a grid, or a navmesh: a
/// surface world, whose agents stand on its floors, see [`ps_crowd_positions3`]; with
/// one floor they come in with 2D points or 3D, across floors over one another with 3D
/// points, [`ps_crowd_add_agent_on_surface`], each walking the one-floor sheet round its
/// own path), for agents of `radius` (world units, ≥ 0) whose paths a
/// preset's steps smooth (`PS_PRESET_*`), run as `settings` say (NULL: the defaults,
/// [`ps_crowd_settings_default`]).
///
/// Errors (messages start with `ps_crowd_new_preset:`): `PS_NULL_POINTER`,
/// `PS_WRONG_HANDLE` (`world`), `PS_INVALID_ARGUMENT` (an unknown preset, a bad radius,
/// bad settings: 0 or more than 256 threads, an avoidance flag not 0 or 1, a time horizon
/// or neighbour distance not finite and > 0, no neighbours), `PS_NO_PATH` (no room
/// anywhere for the radius). On failure `*out_crowd` is NULL.
///
/// # Safety
///
/// `world` NULL or a live world handle; `settings` NULL or readable; `out_crowd`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_new_preset(
    world: *const PsWorld,
    preset: u32,
    radius: f64,
    settings: *const PsCrowdSettings,
    out_crowd: *mut *mut PsCrowd,
) -> PsStatus {
    let steps = || preset_steps(preset);
    // SAFETY: the caller's contract.
    crate::guard_named("ps_crowd_new_preset", || unsafe {
        new_crowd(world, steps, radius, settings, out_crowd)
    })
}

/// [`ps_crowd_new_preset`] with `step_count` steps, in order (`steps` may be NULL when
/// `step_count` is 0). Errors as [`ps_crowd_new_preset`] (named `ps_crowd_new_steps`),
/// and `PS_INVALID_ARGUMENT` for an unknown step kind or a bad step value.
///
/// # Safety
///
/// `steps` valid for `step_count` items; otherwise as [`ps_crowd_new_preset`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_new_steps(
    world: *const PsWorld,
    steps: *const PsStep,
    step_count: usize,
    radius: f64,
    settings: *const PsCrowdSettings,
    out_crowd: *mut *mut PsCrowd,
) -> PsStatus {
    // SAFETY: the caller's length (NULL with 0 steps).
    let steps = || steps_of(unsafe { input(steps, step_count, 1, "steps")? });
    // SAFETY: the caller's contract.
    crate::guard_named("ps_crowd_new_steps", || unsafe {
        new_crowd(world, steps, radius, settings, out_crowd)
    })
}

/// Destroys a crowd (its agents, its world, its threads). NULL is a no-op; a double
/// destroy is undefined behaviour (see [`crate::ps_world_destroy`]).
///
/// # Safety
///
/// `crowd` NULL or a crowd handle not yet destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_destroy(crowd: *mut PsCrowd) -> PsStatus {
    // SAFETY: the caller's contract.
    crate::guard_named("ps_crowd_destroy", || unsafe {
        destroy(crowd.cast::<CrowdBox>(), CROWD_TAG, "crowd")
    })
}

/// Writes the agents' radius in effect into `*out_radius`.
///
/// # Safety
///
/// `crowd` a live crowd handle; `out_radius` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_radius(crowd: *const PsCrowd, out_radius: *mut f64) -> PsStatus {
    crate::guard_named("ps_crowd_radius", || {
        write_out(out_radius, "out_radius", || {
            Ok(on_crowd!(crowd_ref(crowd)?, c => c.radius()))
        })
    })
}

/// Writes the number of agents into `*out_count`.
///
/// # Safety
///
/// `crowd` a live crowd handle; `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_agent_count(
    crowd: *const PsCrowd,
    out_count: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_agent_count", || {
        write_out(out_count, "out_count", || {
            Ok(crowd_ref(crowd)?.agents().len())
        })
    })
}

/// Adds an agent at `position` walking to `target` at `speed` (world units per second,
/// finite and > 0), its path planned now; its index (the agent count before the call)
/// goes into `*out_agent`.
///
/// Errors (messages start with `ps_crowd_add_agent:`): the pointer and handle errors,
/// `PS_INVALID_ARGUMENT` (NaN or infinite points, a bad speed), `PS_OUTSIDE_WORLD` (an end
/// outside the world or in a wall), `PS_NO_PATH` (an unreachable target, an end too close
/// to a wall). On failure `*out_agent` is [`PS_NO_AGENT`] and the crowd unchanged.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now; `out_agent` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_agent(
    crowd: *mut PsCrowd,
    position: PsPoint2d,
    target: PsPoint2d,
    speed: f64,
    out_agent: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_agent", || {
        // SAFETY: the caller's promises, passed on.
        unsafe { add_agent(crowd, [position, target], speed, None, out_agent) }
    })
}

/// The ends of a new agent as the calls that add one take them: 2D points on any crowd,
/// 3D ones (`ps_crowd_add_agent_on_surface`) on a crowd across floors.
trait AgentEnds {
    /// Adds an agent from these ends at `speed`, of the crowd's radius (`None`) or its own,
    /// its path planned now; its index.
    fn add_to(self, crowd: &mut AnyCrowd, speed: f64, radius: Option<f64>) -> Res<usize>;
}

impl AgentEnds for [PsPoint2d; 2] {
    fn add_to(self, c: &mut AnyCrowd, speed: f64, radius: Option<f64>) -> Res<usize> {
        let [position, target] = self;
        let (p, t) = (finite(position, "position")?, finite(target, "target")?);
        Ok(match radius {
            None => on_crowd!(c, c => c.add_agent(p, t, speed))?,
            Some(r) => on_crowd!(c, c => c.add_agent_with_radius(p, t, speed, r))?,
        })
    }
}

impl AgentEnds for [PsPoint3d; 2] {
    fn add_to(self, c: &mut AnyCrowd, speed: f64, radius: Option<f64>) -> Res<usize> {
        let c = layered(c)?;
        let [position, target] = self;
        let (p, t) = (finite3(position, "position")?, finite3(target, "target")?);
        Ok(match radius {
            None => c.add_agent_on_surface(p, t, speed)?,
            Some(r) => c.add_agent_on_surface_with_radius(p, t, speed, r)?,
        })
    }
}

/// The body of the calls that add an agent ([`ps_crowd_add_agent`],
/// [`ps_crowd_add_agent_on_surface`] and their `_with_radius` forms): an agent from `ends`
/// of the crowd's radius (`None`) or its own, its index into `*out_agent` ([`PS_NO_AGENT`]
/// on failure).
///
/// # Safety
///
/// As [`ps_crowd_add_agent`].
unsafe fn add_agent(
    crowd: *mut PsCrowd,
    ends: impl AgentEnds,
    speed: f64,
    radius: Option<f64>,
    out_agent: *mut usize,
) -> Res<()> {
    let out_agent = Out::start(out_agent, "out_agent", PS_NO_AGENT)?;
    out_agent.set(ends.add_to(crowd_mut(crowd)?, speed, radius)?);
    Ok(())
}

/// [`ps_crowd_add_agent`] for an agent of its own `radius` (world units): its path keeps
/// that far off the walls (planned by a pipeline of that radius, one per radius and thread,
/// made when the radius is first used; equal values share one), and with avoidance a pair
/// keeps the sum of its radii apart. At most 16 radii per crowd: round them to a few sizes.
///
/// Errors (messages start with `ps_crowd_add_agent_with_radius:`): as
/// [`ps_crowd_add_agent`]'s; `PS_INVALID_ARGUMENT` also for a radius that is not finite and
/// ≥ 0, or a 17th radius; `PS_NO_PATH` for a radius with no room anywhere on the world. On
/// failure `*out_agent` is [`PS_NO_AGENT`] and the crowd unchanged.
///
/// # Safety
///
/// As [`ps_crowd_add_agent`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_agent_with_radius(
    crowd: *mut PsCrowd,
    position: PsPoint2d,
    target: PsPoint2d,
    speed: f64,
    radius: f64,
    out_agent: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_agent_with_radius", || {
        // SAFETY: the caller's promises, passed on.
        unsafe { add_agent(crowd, [position, target], speed, Some(radius), out_agent) }
    })
}

/// On a crowd made on a surface world (of one floor or floors over one another): adds an
/// agent at `position`
/// walking to `target` (3D, in the surface's axes) at `speed`, its path planned now: both
/// are located on the surface (the nearest polygon within the search's half-extents, a
/// point off it moved onto it), the way routed over off-mesh links where they help (the
/// agent takes a link over time when it reaches its entry, one agent on a link at a
/// time: [`PsAgentState::crossing_link`]), the
/// one-floor sheet round it cut, and the agent's path planned on it, the world the agent
/// walks from then on; agents whose floors are 2 or more apart never meet. Its index goes
/// into `*out_agent`.
///
/// Errors (messages start with `ps_crowd_add_agent_on_surface:`): the pointer and handle
/// errors, `PS_INVALID_ARGUMENT` (NaN or infinite points, a bad speed), `PS_OUTSIDE_WORLD`
/// (an end over no polygon), `PS_NO_PATH` (an unreachable target, an end too close to a
/// wall), `PS_INVALID_RESULT` (a path that passes over or under itself, which no sheet
/// holds), `PS_UNSUPPORTED` (a crowd on a grid: its agents come in with
/// [`ps_crowd_add_agent`]). On failure `*out_agent` is
/// [`PS_NO_AGENT`] and the crowd unchanged.
///
/// # Safety
///
/// As [`ps_crowd_add_agent`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_agent_on_surface(
    crowd: *mut PsCrowd,
    position: PsPoint3d,
    target: PsPoint3d,
    speed: f64,
    out_agent: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_agent_on_surface", || {
        // SAFETY: the caller's promises, passed on.
        unsafe { add_agent(crowd, [position, target], speed, None, out_agent) }
    })
}

/// [`ps_crowd_add_agent_on_surface`] for an agent of its own `radius`, as
/// [`ps_crowd_add_agent_with_radius`].
///
/// Errors (messages start with `ps_crowd_add_agent_on_surface_with_radius:`): those two's.
///
/// # Safety
///
/// As [`ps_crowd_add_agent`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_agent_on_surface_with_radius(
    crowd: *mut PsCrowd,
    position: PsPoint3d,
    target: PsPoint3d,
    speed: f64,
    radius: f64,
    out_agent: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_agent_on_surface_with_radius", || {
        // SAFETY: the caller's promises, passed on.
        unsafe { add_agent(crowd, [position, target], speed, Some(radius), out_agent) }
    })
}

/// On a crowd made on a surface world: sends agent `agent` to
/// `target` (3D) across the whole surface, planned now (not under the plan budget): from
/// the polygon it stands on, the path on the surface, a new sheet round it, and the agent's
/// path on that sheet. ([`ps_crowd_set_target`] on such a crowd plans a 2D target on the
/// floor of the agent's own path, at the next update.)
///
/// Errors (messages start with `ps_crowd_set_target_on_surface:`): the handle errors,
/// `PS_INVALID_ARGUMENT` (an index out of range, a NaN or infinite target), then as
/// [`ps_crowd_add_agent_on_surface`]'s plan; the agent unchanged.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_set_target_on_surface(
    crowd: *mut PsCrowd,
    agent: usize,
    target: PsPoint3d,
) -> PsStatus {
    crate::guard_named("ps_crowd_set_target_on_surface", || {
        let c = layered(agent_crowd(crowd, agent)?)?;
        let t = finite3(target, "target")?;
        Ok(c.set_target_on_surface(agent, t)?)
    })
}

/// The crowd on a surface, or `PS_UNSUPPORTED` for a crowd on a grid.
fn layered(crowd: &mut AnyCrowd) -> Res<&mut Crowd<SurfaceWorld>> {
    match crowd {
        AnyCrowd::Surface(c) => Ok(c),
        AnyCrowd::Grid(_) => Err(Fail::new(
            PsStatus::PsUnsupported,
            "only a crowd made on a surface world has floors: a grid's agents come in with \
             2D points, and its obstacles lie on its one plane",
        )),
    }
}

/// `p` in 3D, or `PS_INVALID_ARGUMENT` naming it when a coordinate is not finite.
fn finite3(p: PsPoint3d, name: &str) -> Res<DVec3> {
    let v = DVec3::new(p.x, p.y, p.z);
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Fail::new(
            PsStatus::PsInvalidArgument,
            format!("`{name}` ({}, {}, {}) is not finite", p.x, p.y, p.z),
        ))
    }
}

/// Removes agent `agent`. The last agent takes its index (as `Vec::swap_remove`):
/// `*out_moved` (when `out_moved` is not NULL) gets the index that agent had — the caller's
/// records of index `*out_moved` now belong to index `agent` — or [`PS_NO_AGENT`] when the
/// removed agent was the last.
///
/// Errors (messages start with `ps_crowd_remove_agent:`): the handle errors,
/// `PS_INVALID_ARGUMENT` for an index out of range (the crowd unchanged).
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now; `out_moved` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_remove_agent(
    crowd: *mut PsCrowd,
    agent: usize,
    out_moved: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_remove_agent", || {
        let out_moved = Out::optional(out_moved, "out_moved", PS_NO_AGENT)?;
        let c = agent_crowd(crowd, agent)?;
        let moved = on_crowd!(c, c => c.remove_agent(agent))?;
        out_moved.set(moved.unwrap_or(PS_NO_AGENT));
        Ok(())
    })
}

/// Asks agent `agent` to walk to `target` instead: the next [`ps_crowd_update`] plans it
/// (or a later one, under a plan budget). A target the update refuses (in a wall,
/// unreachable) leaves the old one, and [`ps_crowd_agent_error`] says why.
///
/// Errors (messages start with `ps_crowd_set_target:`): the handle errors,
/// `PS_INVALID_ARGUMENT` for an index out of range or a NaN or infinite target.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_set_target(
    crowd: *mut PsCrowd,
    agent: usize,
    target: PsPoint2d,
) -> PsStatus {
    crate::guard_named("ps_crowd_set_target", || {
        let c = agent_crowd(crowd, agent)?;
        let t = finite(target, "target")?;
        Ok(on_crowd!(c, c => c.set_target(agent, t))?)
    })
}

/// Moves every agent `dt` seconds on (finite, ≥ 0): the paths a new obstacle blocks are
/// repaired, the targets asked for planned, and every agent walks `speed × dt` along its
/// path (avoiding, with avoidance); the moving obstacles then move. What it did goes into
/// `*out_frame` (NULL: not wanted). Agents' own failures are not errors of the update:
/// they are counted in the frame and kept on the agent.
///
/// Errors (messages start with `ps_crowd_update:`): the handle errors,
/// `PS_INVALID_ARGUMENT` for a bad `dt`. On failure `*out_frame` is all zero.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now; `out_frame` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_update(
    crowd: *mut PsCrowd,
    dt: f64,
    out_frame: *mut PsCrowdFrame,
) -> PsStatus {
    crate::guard_named("ps_crowd_update", || {
        let out_frame = Out::optional(out_frame, "out_frame", PsCrowdFrame::default())?;
        let c = crowd_mut(crowd)?;
        let frame = on_crowd!(c, c => c.update(dt))?;
        out_frame.set(frame.into());
        Ok(())
    })
}

/// Writes `points` (x then y each) into `out_xy`, which holds `capacity` points, as
/// [`write_list`] writes.
fn write_points<I, const N: usize>(
    points: I,
    out: *mut f64,
    capacity: usize,
    out_len: *mut usize,
) -> Res<()>
where
    I: ExactSizeIterator<Item = [f64; N]>,
{
    // `[f64; N]` is aligned as `f64`, which the caller checked `out` for.
    let out = out.cast::<[f64; N]>();
    write_list(points.len(), points, out, capacity, out_len, "points")
}

/// Writes the `n` `items` into `out`, which holds `capacity` of them, and their number into
/// `*out_len`; too many: `PS_BUFFER_TOO_SMALL` (the message naming the items as `what`),
/// the number in `*out_len`, nothing written. `out_len` and `out` must have been checked.
fn write_list<T>(
    n: usize,
    items: impl Iterator<Item = T>,
    out: *mut T,
    capacity: usize,
    out_len: *mut usize,
    what: &str,
) -> Res<()> {
    // SAFETY: checked by the caller.
    unsafe { *out_len = n };
    if n > capacity {
        return Err(Fail::new(
            PsStatus::PsBufferTooSmall,
            format!("the buffer holds {capacity} {what} but {n} are needed"),
        ));
    }
    for (k, item) in items.take(n).enumerate() {
        // SAFETY: `out` checked non-NULL and aligned (n > 0 here), with room for
        // `capacity` ≥ n items.
        unsafe { out.add(k).write(item) };
    }
    Ok(())
}

/// The body of `ps_crowd_positions` and `ps_crowd_velocities`.
fn per_agent(
    crowd: *const PsCrowd,
    of: fn(&CrowdAgent) -> DVec2,
    out_xy: *mut f64,
    capacity: usize,
    out_len: *mut usize,
) -> Res<()> {
    start_list(out_xy, capacity, "out_xy", out_len)?;
    let agents = crowd_ref(crowd)?.agents();
    write_points(
        agents.iter().map(|a| of(a).to_array()),
        out_xy,
        capacity,
        out_len,
    )
}

/// Writes every agent's position, by index (x then y each, `capacity` points of room in
/// `out_xy`; NULL only with capacity 0), and the number of agents into `*out_len`. A
/// buffer for fewer points than agents: `PS_BUFFER_TOO_SMALL`, the agent count in
/// `*out_len`, nothing written.
///
/// Errors (messages start with `ps_crowd_positions:`): `PS_NULL_POINTER`,
/// `PS_MISALIGNED`, `PS_WRONG_HANDLE`, `PS_BUFFER_TOO_SMALL`.
///
/// # Safety
///
/// `crowd` a live crowd handle; `out_xy` writable for `capacity · 2` doubles; `out_len`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_positions(
    crowd: *const PsCrowd,
    out_xy: *mut f64,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_positions", || {
        per_agent(crowd, CrowdAgent::position, out_xy, capacity, out_len)
    })
}

/// On a crowd made on a surface world (a navmesh world too): writes every agent's position
/// in 3D, by index (x, y, z each, in the surface's axes, `capacity` points of room in
/// `out_xyz`; NULL only with capacity 0), each on its floor (its height from the surface's detail mesh when it has
/// one), and the number of agents into `*out_len`. A buffer for fewer points
/// than agents: `PS_BUFFER_TOO_SMALL`, the agent count in `*out_len`, nothing written.
/// Cost: O(agents) (the crowd keeps each agent's height); allocates nothing.
///
/// Errors (messages start with `ps_crowd_positions3:`): `PS_NULL_POINTER`,
/// `PS_MISALIGNED`, `PS_WRONG_HANDLE`, `PS_BUFFER_TOO_SMALL`, `PS_UNSUPPORTED` (a crowd
/// made on a grid world, which has no floor).
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now; `out_xyz` writable for
/// `capacity · 3` doubles; `out_len` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_positions3(
    crowd: *mut PsCrowd,
    out_xyz: *mut f64,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_positions3", || {
        start_list(out_xyz, capacity, "out_xyz", out_len)?;
        let AnyCrowd::Surface(c) = crowd_mut(crowd)? else {
            return Err(Fail::new(
                PsStatus::PsUnsupported,
                "only a crowd made on a surface world has a floor",
            ));
        };
        let at = c.agent_points().map(|p| p.to_array());
        write_points(at, out_xyz, capacity, out_len)
    })
}

/// Writes every agent's velocity over the last update (world units per second; zero
/// before the first update and while it stands), by index, as [`ps_crowd_positions`]
/// writes the positions.
///
/// # Safety
///
/// As [`ps_crowd_positions`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_velocities(
    crowd: *const PsCrowd,
    out_xy: *mut f64,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_velocities", || {
        per_agent(crowd, CrowdAgent::velocity, out_xy, capacity, out_len)
    })
}

/// Fills `*out_state` with agent `agent`'s state: position, target, velocity, speed, path
/// length, and whether it arrived, waits for a target to be planned, is stuck, or has an
/// error.
///
/// Errors (messages start with `ps_crowd_agent_state:`): the pointer and handle errors,
/// `PS_INVALID_ARGUMENT` for an index out of range.
///
/// # Safety
///
/// `crowd` a live crowd handle; `out_state` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_agent_state(
    crowd: *const PsCrowd,
    agent: usize,
    out_state: *mut PsAgentState,
) -> PsStatus {
    crate::guard_named("ps_crowd_agent_state", || {
        write_out(out_state, "out_state", || {
            Ok(crowd_ref(crowd)?.agent(agent)?.into())
        })
    })
}

/// Writes agent `agent`'s path, from its position to its target (only its position while
/// stuck), into `out_points` (x then y each), as [`ps_crowd_positions`] writes (the
/// needed number of points in `*out_len` on `PS_BUFFER_TOO_SMALL`).
///
/// Errors (messages start with `ps_crowd_agent_path:`): as [`ps_crowd_positions`], and
/// `PS_INVALID_ARGUMENT` for an index out of range.
///
/// # Safety
///
/// As [`ps_crowd_positions`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_agent_path(
    crowd: *const PsCrowd,
    agent: usize,
    out_points: *mut f64,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_agent_path", || {
        start_list(out_points, capacity, "out_points", out_len)?;
        let path = crowd_ref(crowd)?.agent(agent)?.agent_path().path();
        write_points(
            path.iter().map(|p| p.to_array()),
            out_points,
            capacity,
            out_len,
        )
    })
}

/// The body of the two text getters: `text` of agent `agent` (empty for `None`).
fn agent_text(
    crowd: *const PsCrowd,
    agent: usize,
    text: fn(&CrowdAgent) -> Option<String>,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> Res<()> {
    start_list(buf, capacity, "buf", out_len)?;
    let a = crowd_ref(crowd)?.agent(agent)?;
    write_text(&text(a).unwrap_or_default(), buf, capacity, out_len);
    Ok(())
}

/// Writes the last error an update met for agent `agent` (why a target was refused, or a
/// move failed; the library's message), UTF-8, NUL-terminated and cut at `capacity − 1`
/// bytes, into `buf`, and its full length in bytes into `*out_len`: 0 (an empty string)
/// when there is none. `buf` may be NULL with capacity 0, to ask for the length.
///
/// Errors (messages start with `ps_crowd_agent_error:`): the pointer and handle errors,
/// `PS_INVALID_ARGUMENT` for an index out of range.
///
/// # Safety
///
/// `crowd` a live crowd handle; `buf` NULL or writable for `capacity` bytes; `out_len`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_agent_error(
    crowd: *const PsCrowd,
    agent: usize,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_agent_error", || {
        let text = |a: &CrowdAgent| a.error().map(ToString::to_string);
        agent_text(crowd, agent, text, buf, capacity, out_len)
    })
}

/// Writes why agent `agent` is stuck (the library's message; empty when it is not), as
/// [`ps_crowd_agent_error`] writes.
///
/// # Safety
///
/// As [`ps_crowd_agent_error`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_agent_stuck(
    crowd: *const PsCrowd,
    agent: usize,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_agent_stuck", || {
        let text = |a: &CrowdAgent| a.agent_path().stuck().map(ToString::to_string);
        agent_text(crowd, agent, text, buf, capacity, out_len)
    })
}

/// The body of the obstacle adders: checks the outputs (the id set to
/// [`PS_NO_OBSTACLE`], the count to 0, until it succeeds), then adds what `obstacle` makes,
/// on the floor under `floor` when given (a crowd on a surface only).
fn add_obstacle(
    crowd: *mut PsCrowd,
    out_id: *mut u64,
    out_blocked: *mut usize,
    floor: Option<PsPoint3d>,
    obstacle: impl FnOnce() -> Res<Obstacle>,
) -> Res<()> {
    let out_id = Out::start(out_id, "out_id", PS_NO_OBSTACLE)?;
    let out_blocked = Out::optional(out_blocked, "out_blocked", 0)?;
    let c = crowd_mut(crowd)?;
    let obstacle = obstacle()?;
    let (id, blocked) = match (floor, c) {
        (None, c) => on_crowd!(c, c => c.add_obstacle(obstacle))?,
        (Some(at), AnyCrowd::Surface(c)) => {
            c.add_obstacle_on_floor(obstacle, finite3(at, "floor")?)?
        }
        (Some(_), _) => {
            return Err(Fail::new(
                PsStatus::PsUnsupported,
                "only a crowd made on a surface has floors to put an obstacle on",
            ))
        }
    };
    out_id.set(id.get());
    out_blocked.set(blocked);
    Ok(())
}

/// A box obstacle from its corners, checked finite (the library checks the rest).
fn box_obstacle(min: PsPoint2d, max: PsPoint2d) -> Res<Obstacle> {
    Ok(Obstacle::Box {
        min: finite(min, "min")?,
        max: finite(max, "max")?,
    })
}

/// A disc obstacle, its centre checked finite (the library checks the radius).
fn disk_obstacle(center: PsPoint2d, radius: f64) -> Res<Obstacle> {
    Ok(Obstacle::Disk {
        center: finite(center, "center")?,
        radius,
    })
}

/// A polygon obstacle of the `n` vertices at `vertices_xy` (x then y each; the library
/// checks that they make a convex polygon).
///
/// # Safety
///
/// `vertices_xy` readable for `n · 2` doubles.
unsafe fn polygon_obstacle(vertices_xy: *const f64, n: usize) -> Res<Obstacle> {
    // SAFETY: the caller's length.
    let ring = unsafe { input_pairs(vertices_xy, n, "vertices_xy", DVec2::new)? };
    Ok(Obstacle::Polygon(ring))
}

/// Adds an axis-aligned box obstacle (`min` < `max` componentwise) to the crowd's world:
/// its id into `*out_id`, and (when `out_blocked` is not NULL) how many agents' paths it
/// blocks into `*out_blocked` (the next update repairs them). An agent it lands on is
/// pushed out at once to the nearest point with room that it could slide to without
/// crossing a wall (the library's `Crowd::add_obstacle`); one with no such point is stuck
/// at the next update, until the obstacle goes.
///
/// Errors (messages start with `ps_crowd_add_box:`): the pointer and handle errors,
/// `PS_INVALID_ARGUMENT` (NaN or infinite corners, an empty box, an obstacle the world
/// refuses), the crowd unchanged. On failure `*out_id` is [`PS_NO_OBSTACLE`].
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now; `out_id` writable;
/// `out_blocked` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_box(
    crowd: *mut PsCrowd,
    min: PsPoint2d,
    max: PsPoint2d,
    out_id: *mut u64,
    out_blocked: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_box", || {
        add_obstacle(crowd, out_id, out_blocked, None, || box_obstacle(min, max))
    })
}

/// Adds a disc obstacle (`radius` finite and > 0), as [`ps_crowd_add_box`] adds a box.
///
/// # Safety
///
/// As [`ps_crowd_add_box`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_disk(
    crowd: *mut PsCrowd,
    center: PsPoint2d,
    radius: f64,
    out_id: *mut u64,
    out_blocked: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_disk", || {
        add_obstacle(crowd, out_id, out_blocked, None, || {
            disk_obstacle(center, radius)
        })
    })
}

/// Adds a box obstacle, as [`ps_crowd_add_box`], on the floor under `floor` (a 3D point
/// inside the box in plan view, within the surface's climb of that floor) of a crowd made
/// on a surface: a door on the ground floor under a bridge (the library's
/// `Crowd::add_obstacle_on_floor`). [`ps_crowd_add_box`] on such a crowd takes the one
/// floor under the box, and refuses a box over floors more than the climb apart.
///
/// Errors (messages start with `ps_crowd_add_box_on_floor:`): as [`ps_crowd_add_box`]'s;
/// `PS_INVALID_ARGUMENT` also for a NaN or infinite `floor` or one outside the box in plan
/// view; `PS_OUTSIDE_WORLD` when no floor lies within the climb of `floor`;
/// `PS_UNSUPPORTED` for a crowd not made on a surface.
///
/// # Safety
///
/// As [`ps_crowd_add_box`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_box_on_floor(
    crowd: *mut PsCrowd,
    min: PsPoint2d,
    max: PsPoint2d,
    floor: PsPoint3d,
    out_id: *mut u64,
    out_blocked: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_box_on_floor", || {
        add_obstacle(crowd, out_id, out_blocked, Some(floor), || {
            box_obstacle(min, max)
        })
    })
}

/// Adds a disc obstacle on the floor under `floor`, as [`ps_crowd_add_box_on_floor`] adds
/// a box: a crate dropped on one floor of a crowd made on a surface.
///
/// # Safety
///
/// As [`ps_crowd_add_box`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_disk_on_floor(
    crowd: *mut PsCrowd,
    center: PsPoint2d,
    radius: f64,
    floor: PsPoint3d,
    out_id: *mut u64,
    out_blocked: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_disk_on_floor", || {
        add_obstacle(crowd, out_id, out_blocked, Some(floor), || {
            disk_obstacle(center, radius)
        })
    })
}

/// Adds a convex polygon obstacle of `n` vertices (`vertices_xy`, x then y each; at least
/// 3, positive area, either winding), as [`ps_crowd_add_box`] adds a box.
///
/// # Safety
///
/// `vertices_xy` readable for `n · 2` doubles; otherwise as [`ps_crowd_add_box`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_polygon(
    crowd: *mut PsCrowd,
    vertices_xy: *const f64,
    n: usize,
    out_id: *mut u64,
    out_blocked: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_polygon", || {
        add_obstacle(crowd, out_id, out_blocked, None, || {
            // SAFETY: the caller's length.
            unsafe { polygon_obstacle(vertices_xy, n) }
        })
    })
}

/// Adds a convex polygon obstacle (as [`ps_crowd_add_polygon`]) on the floor under
/// `floor`, as [`ps_crowd_add_box_on_floor`] adds a box.
///
/// # Safety
///
/// As [`ps_crowd_add_polygon`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_polygon_on_floor(
    crowd: *mut PsCrowd,
    vertices_xy: *const f64,
    n: usize,
    floor: PsPoint3d,
    out_id: *mut u64,
    out_blocked: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_polygon_on_floor", || {
        add_obstacle(crowd, out_id, out_blocked, Some(floor), || {
            // SAFETY: the caller's length.
            unsafe { polygon_obstacle(vertices_xy, n) }
        })
    })
}

/// Blocks `n` cells of a grid crowd's map (`cells_xy`: column then row each), as
/// [`ps_crowd_add_box`] adds a box; a navmesh crowd refuses it (`PS_INVALID_ARGUMENT`).
///
/// # Safety
///
/// `cells_xy` readable for `n · 2` integers; otherwise as [`ps_crowd_add_box`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_cells(
    crowd: *mut PsCrowd,
    cells_xy: *const i32,
    n: usize,
    out_id: *mut u64,
    out_blocked: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_cells", || {
        add_obstacle(crowd, out_id, out_blocked, None, || {
            // SAFETY: the caller's length.
            let cells = unsafe { input_pairs(cells_xy, n, "cells_xy", IVec2::new)? };
            Ok(Obstacle::Cells(cells))
        })
    })
}

/// Removes obstacle `id` (from a `ps_crowd_add_*` call). No agent's path becomes invalid;
/// stuck agents try again at the next update.
///
/// Errors (messages start with `ps_crowd_remove_obstacle:`): the handle errors,
/// `PS_INVALID_ARGUMENT` for an id the crowd never gave out or removed already.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_remove_obstacle(crowd: *mut PsCrowd, id: u64) -> PsStatus {
    crate::guard_named("ps_crowd_remove_obstacle", || {
        let c = crowd_mut(crowd)?;
        Ok(on_crowd!(c, c => c.remove_obstacle(ObstacleId::from_raw(id)))?)
    })
}

/// Adds a moving obstacle: a disc of `radius` (> 0) at `center` that each update moves by
/// `velocity × dt` (world units per second). Avoiding agents keep clear of it; while its
/// velocity is zero it stands in the world as a disc obstacle (paths are repaired round
/// it). Its id goes into `*out_id`.
///
/// Errors (messages start with `ps_crowd_add_moving_obstacle:`): the pointer and handle
/// errors, `PS_INVALID_ARGUMENT` (NaN or infinite centre or velocity, beyond 10¹², a
/// radius not finite and > 0), the crowd unchanged. On failure `*out_id` is
/// [`PS_NO_OBSTACLE`].
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now; `out_id` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_add_moving_obstacle(
    crowd: *mut PsCrowd,
    center: PsPoint2d,
    radius: f64,
    velocity: PsPoint2d,
    out_id: *mut u64,
) -> PsStatus {
    crate::guard_named("ps_crowd_add_moving_obstacle", || {
        let out_id = Out::start(out_id, "out_id", PS_NO_OBSTACLE)?;
        let c = crowd_mut(crowd)?;
        let o = MovingObstacle {
            center: finite(center, "center")?,
            radius,
            velocity: finite(velocity, "velocity")?,
        };
        out_id.set(on_crowd!(c, c => c.add_moving_obstacle(o))?.get());
        Ok(())
    })
}

/// Sets moving obstacle `id`'s velocity: zero stops it (it then stands in the world as an
/// obstacle), anything else sets it going again.
///
/// Errors (messages start with `ps_crowd_set_moving_obstacle_velocity:`): the handle
/// errors, `PS_INVALID_ARGUMENT` (an unknown id, a NaN, infinite or too large velocity),
/// the crowd unchanged.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_set_moving_obstacle_velocity(
    crowd: *mut PsCrowd,
    id: u64,
    velocity: PsPoint2d,
) -> PsStatus {
    crate::guard_named("ps_crowd_set_moving_obstacle_velocity", || {
        let c = crowd_mut(crowd)?;
        let v = finite(velocity, "velocity")?;
        Ok(on_crowd!(c, c => c.set_moving_obstacle_velocity(MovingId::from_raw(id), v))?)
    })
}

/// Sends moving obstacle `id` along the route `route_xy` (`n` points, x then y each, world
/// units) at `speed` (world units per second): the crowd drives it to each point in turn,
/// its velocity towards the next, and after the last on to the first again when `looped`
/// is non-zero; else it stops at the last point and stands there as an obstacle. A new
/// velocity ([`ps_crowd_set_moving_obstacle_velocity`]) ends the route.
///
/// Errors (messages start with `ps_crowd_drive_moving_obstacle:`): the handle errors,
/// `PS_NULL_POINTER` (`route_xy` NULL with `n` > 0), `PS_INVALID_ARGUMENT` (an unknown
/// id, no point, a NaN, infinite or too large point, a speed not finite and > 0); the
/// crowd unchanged.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now; `route_xy` readable for
/// `n · 2` numbers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_drive_moving_obstacle(
    crowd: *mut PsCrowd,
    id: u64,
    route_xy: *const f64,
    n: usize,
    speed: f64,
    looped: u32,
) -> PsStatus {
    crate::guard_named("ps_crowd_drive_moving_obstacle", || {
        let c = crowd_mut(crowd)?;
        // SAFETY: the caller's length.
        let route = unsafe { input_pairs(route_xy, n, "route_xy", DVec2::new)? };
        let id = MovingId::from_raw(id);
        Ok(on_crowd!(c, c => c.drive_moving_obstacle(id, &route, speed, looped != 0))?)
    })
}

/// On a crowd made on a surface world: puts moving obstacle `id` on
/// the floor at height `floor` (along the surface's up axis, as the agents' heights):
/// from then on only the agents on that floor avoid it, and stopped it stands on that
/// floor. (Added in plan view, a moving obstacle is avoided on every floor; one to stop
/// on a floor under another is added moving, given its floor, then stopped.)
///
/// Errors (messages start with `ps_crowd_set_moving_obstacle_floor:`): the handle
/// errors, `PS_INVALID_ARGUMENT` (an unknown id, a NaN or infinite floor),
/// `PS_UNSUPPORTED` (a crowd on a grid); the crowd
/// unchanged.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_set_moving_obstacle_floor(
    crowd: *mut PsCrowd,
    id: u64,
    floor: f64,
) -> PsStatus {
    crate::guard_named("ps_crowd_set_moving_obstacle_floor", || {
        let c = layered(crowd_mut(crowd)?)?;
        Ok(c.set_moving_obstacle_floor(MovingId::from_raw(id), floor)?)
    })
}

/// Removes moving obstacle `id` (and its standing obstacle while it stood).
///
/// Errors (messages start with `ps_crowd_remove_moving_obstacle:`): the handle errors,
/// `PS_INVALID_ARGUMENT` for an unknown id.
///
/// # Safety
///
/// `crowd` a live crowd handle used by no other thread now.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_remove_moving_obstacle(crowd: *mut PsCrowd, id: u64) -> PsStatus {
    crate::guard_named("ps_crowd_remove_moving_obstacle", || {
        let c = crowd_mut(crowd)?;
        Ok(on_crowd!(c, c => c.remove_moving_obstacle(MovingId::from_raw(id)))?)
    })
}

/// Writes the moving obstacles, in the order they were added (id, centre, radius,
/// velocity each), into `out` (room for `capacity`; NULL only with capacity 0), and their
/// number into `*out_len`; too many: `PS_BUFFER_TOO_SMALL`, the number in `*out_len`,
/// nothing written.
///
/// # Safety
///
/// `crowd` a live crowd handle; `out` writable for `capacity` items; `out_len` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_crowd_moving_obstacles(
    crowd: *const PsCrowd,
    out: *mut PsMovingObstacle,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    crate::guard_named("ps_crowd_moving_obstacles", || {
        start_list(out, capacity, "out", out_len)?;
        on_crowd!(crowd_ref(crowd)?, c => {
            let rows = c.moving_obstacles().map(|(id, o)| PsMovingObstacle {
                id: id.get(),
                center: point(o.center),
                radius: o.radius,
                velocity: point(o.velocity),
            });
            let n = c.moving_obstacles().count();
            write_list(n, rows, out, capacity, out_len, "moving obstacles")
        })
    })
}
