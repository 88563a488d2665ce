//! `POST /api/crowd`: a crowd on one of the worlds on offer, simulated (on the server or in
//! the page's worker) and answered as frames for the page to animate (issue 40, item 7).
//!
//! The simulation is `pathsmooth crowd`'s ([`CrowdSimulation`] of `pathsmooth-scenarios`:
//! agents with random goals, re-targeted every few seconds, doors across their first paths
//! that close and open), at 60 frames a second, with the same contact counts summed over
//! every frame. Besides, when asked, a *truck*: a disc of radius [`TRUCK_RADIUS`] driven
//! back and forth at [`TRUCK_SPEED`] along the longest straight free run of the map (a row
//! or a column of cell centres where the disc keeps off the walls and the doors, at least
//! [`TRUCK_MIN_RUN`] cells long; when there is none there is no truck and the answer says
//! why). Agents that avoid step out of its way (the library's moving obstacles); agents that
//! do not avoid do not see it, and `truck_hits` counts the agent-frames it runs over.
//!
//! The request, its limits ([`limits::MAX_CROWD_AGENTS`], [`limits::MAX_CROWD_SECONDS`])
//! and the answer's bounds are in the README's "Playground" section; the simulation stops at
//! its next frame when the request is cancelled.

use std::sync::Arc;

use glam::{DVec2, IVec2};
use pathsmooth::crowd::{Avoidance, MovingId, MovingObstacle};
use pathsmooth::{num, Cancel, GridWorld, World};
use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation};
use serde::{Deserialize, Serialize};

use crate::error::{encode, ApiError};
use crate::limits;
use crate::world::Playground;

/// A crowd request answered: checked, then run on the world it names.
pub fn crowd<H>(
    p: &Playground<H>,
    req: &CrowdRequest,
    cancel: &Cancel,
) -> Result<Vec<u8>, ApiError> {
    run(req, world_of(p, req)?, cancel)
}

/// The world on offer `req` names, once `req` is checked: where a crowd (played or live)
/// runs. Errors: [`CrowdRequest::check`]'s, and the 404 of an unknown world.
pub fn world_of<'a, H>(
    p: &'a Playground<H>,
    req: &CrowdRequest,
) -> Result<&'a Arc<GridWorld>, ApiError> {
    req.check()?;
    Ok(&p.named(&req.world)?.world)
}

/// The agents' radius, cells (`pathsmooth crowd`'s default).
pub const AGENT_RADIUS: f64 = 0.3;

/// The truck's radius, cells.
pub const TRUCK_RADIUS: f64 = 1.0;

/// The truck's speed, cells per second (the agents walk at 1.5).
pub const TRUCK_SPEED: f64 = 1.2;

/// The shortest run of cells the truck drives along.
pub const TRUCK_MIN_RUN: usize = 10;

/// How far the truck's line keeps from the walls and doors beyond its radius, cells (more
/// than it overshoots an end of its line in one frame).
const TRUCK_MARGIN: f64 = 0.1;

/// Doors when doors are asked for (at most one per agent): `pathsmooth crowd`'s default.
pub const DOORS: usize = 4;

/// The body of `POST /api/crowd`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrowdRequest {
    /// The name of a world on offer (`GET /api/worlds`).
    pub world: String,
    /// Agents, 1 to [`limits::MAX_CROWD_AGENTS`] (default 20).
    #[serde(default = "default_agents")]
    pub agents: usize,
    /// Simulated seconds, > 0 and at most [`limits::MAX_CROWD_SECONDS`] (default 10).
    #[serde(default = "default_seconds")]
    pub seconds: f64,
    /// The seed of every random choice (default 1).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// The agents avoid one another (and the truck).
    #[serde(default)]
    pub avoid: bool,
    /// [`DOORS`] doors close and open across the agents' first paths.
    #[serde(default)]
    pub doors: bool,
    /// A truck drives back and forth.
    #[serde(default)]
    pub truck: bool,
}

fn default_agents() -> usize {
    20
}

fn default_seconds() -> f64 {
    10.0
}

fn default_seed() -> u64 {
    1
}

/// One frame of the answer. Coordinates are the map's cells (cell (x, y) covers
/// [x, x+1) × [y, y+1)), rounded to 1/1000.
#[derive(Serialize)]
pub(crate) struct FrameOut {
    /// Seconds since the start.
    t: f64,
    /// Every agent's position, flat: `[x0, y0, x1, y1, …]`.
    at: Vec<f64>,
    /// Each door closed (true) or open.
    doors: Vec<bool>,
    /// The truck's centre.
    #[serde(skip_serializing_if = "Option::is_none")]
    truck: Option<[f64; 2]>,
}

/// Every agent's path at one frame.
#[derive(Serialize)]
pub(crate) struct PathsOut {
    /// The frame's index in `frames`.
    frame: usize,
    /// Agent `i`'s path (from where it stands to its goal) at index `i`.
    paths: Vec<Vec<[f64; 2]>>,
}

#[derive(Serialize)]
struct DoorOut {
    min: [f64; 2],
    max: [f64; 2],
}

#[derive(Serialize)]
struct TruckOut {
    radius: f64,
    speed: f64,
    /// The ends of its line.
    from: [f64; 2],
    to: [f64; 2],
}

/// The contacts, as `pathsmooth crowd` counts them, summed over every simulated frame.
#[derive(Serialize, Default, Clone, Copy)]
pub(crate) struct Contacts {
    /// Agent pairs closer than the sum of their radii by more than 1 %.
    overlaps: usize,
    /// Agents closer than their radius to a wall or a closed door by more than 1 %.
    wall_hits: usize,
    /// Agents that reached at least one goal.
    arrived: usize,
    agents: usize,
    /// Agent-frames whose path failed the library's validator.
    invalid: usize,
    /// Agents closer than the sum of their radius and the truck's by more than 1 %.
    truck_hits: usize,
}

#[derive(Serialize)]
struct CrowdResponse {
    world: String,
    width: usize,
    height: usize,
    radius: f64,
    speed: f64,
    /// Frames a second in `frames` (the simulation runs at 60).
    fps: f64,
    /// Simulated seconds.
    seconds: f64,
    seed: u64,
    avoid: bool,
    frames: Vec<FrameOut>,
    doors: Vec<DoorOut>,
    truck: Option<TruckOut>,
    /// Why there is no truck, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    truck_note: Option<String>,
    /// Every agent's path every [`limits::CROWD_PATHS_EVERY`] frames and at every frame
    /// where a door opened or closed, until [`limits::MAX_CROWD_PATH_POINTS`] points are
    /// sent.
    paths: Vec<PathsOut>,
    /// The first frame whose paths were left out for that cap (none from there on), if
    /// any.
    paths_cut_at: Option<usize>,
    contacts: Contacts,
    /// `pathsmooth crowd`'s contacts line: `overlaps K wall_hits W arrived A/N`.
    line: String,
}

/// `v` rounded to 1/1000.
fn r3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn cells(world: &GridWorld, p: DVec2) -> [f64; 2] {
    let q = world.to_grid(p);
    [r3(q.x), r3(q.y)]
}

impl CrowdRequest {
    /// Refuses values out of range (400s naming the limit).
    pub fn check(&self) -> Result<(), ApiError> {
        if self.agents == 0 || self.agents > limits::MAX_CROWD_AGENTS {
            return Err(ApiError::bad_request(format!(
                "agents {}: the playground runs 1 to {} agents",
                self.agents,
                limits::MAX_CROWD_AGENTS
            )));
        }
        if !(self.seconds.is_finite() && self.seconds > 0.0) {
            return Err(ApiError::bad_request(format!(
                "seconds {}: expected a number > 0",
                num(self.seconds)
            )));
        }
        if self.seconds > limits::MAX_CROWD_SECONDS {
            return Err(ApiError::bad_request(format!(
                "seconds {} is more than the playground's limit of {}",
                num(self.seconds),
                num(limits::MAX_CROWD_SECONDS)
            )));
        }
        Ok(())
    }

    /// Simulated frames: round(seconds × 60), at least one.
    pub fn sim_frames(&self) -> u64 {
        (self.seconds * CrowdScenario::default().hz)
            .round()
            .max(1.0) as u64
    }

    /// The estimated work (the units of the server's lanes, `Lane::for_work`): a few passes over the map's cells (its
    /// world, the reachable cells, the truck's line) and each agent's frames.
    pub fn work(&self, cells: usize) -> u64 {
        (cells as u64)
            .saturating_mul(4)
            .saturating_add((self.agents as u64).saturating_mul(self.sim_frames() * 8))
    }

    /// Frames sent: one every [`frame_step`] simulated frames, and the first.
    pub fn frames_sent(&self) -> usize {
        self.sim_frames() as usize / frame_step() + 1
    }
}

/// Simulated frames per frame sent (60 / [`limits::CROWD_FPS`]).
pub fn frame_step() -> usize {
    (CrowdScenario::default().hz / limits::CROWD_FPS)
        .round()
        .max(1.0) as usize
}

/// The truck's line: the longest row or column run of cell centres, at least
/// [`TRUCK_MIN_RUN`] long, where the truck's disc (and [`TRUCK_MARGIN`]) keeps off the walls
/// and every door's square, whose segment the world finds clear for the disc; its ends
/// (world units). `None` when there is none.
fn truck_line(world: &GridWorld, doors: &[(DVec2, DVec2)]) -> Option<(DVec2, DVec2)> {
    let (width, height) = (world.map().width() as i32, world.map().height() as i32);
    let reach = (TRUCK_RADIUS + TRUCK_MARGIN) * world.cell_size();
    let fits = |c: IVec2| {
        let p = world.cell_center(c);
        world.map().is_passable(c.x as i64, c.y as i64)
            && world.clearance(p) >= reach
            && doors.iter().all(|&(lo, hi)| {
                let gap = (lo - p).max(p - hi).max(DVec2::ZERO);
                gap.length() >= reach
            })
    };
    // Every run (first cell, last cell, cells) of both directions.
    let mut runs = Vec::new();
    let mut scan = |lines: i32, along: i32, cell: &dyn Fn(i32, i32) -> IVec2| {
        for l in 0..lines {
            let mut first = None;
            for k in 0..=along {
                let ok = k < along && fits(cell(l, k));
                match (ok, first) {
                    (true, None) => first = Some(k),
                    (false, Some(f)) => {
                        if (k - f) as usize >= TRUCK_MIN_RUN {
                            runs.push((cell(l, f), cell(l, k - 1), (k - f) as usize));
                        }
                        first = None;
                    }
                    _ => {}
                }
            }
        }
    };
    scan(height, width, &|y, x| IVec2::new(x, y));
    scan(width, height, &|x, y| IVec2::new(x, y));
    runs.sort_by_key(|run| std::cmp::Reverse(run.2));
    runs.into_iter()
        .map(|(a, b, _)| (world.cell_center(a), world.cell_center(b)))
        .find(|&(a, b)| world.segment_is_clear(a, b, reach))
}

/// The truck on its line: where it starts (the first point from the line's start, by half
/// cells, clear of every agent), its handle and its direction.
struct Truck {
    id: MovingId,
    from: DVec2,
    to: DVec2,
    velocity: DVec2,
}

impl Truck {
    /// Puts a truck on `line` in `sim`, or says why not.
    fn place(sim: &mut CrowdSimulation, line: (DVec2, DVec2)) -> Result<Truck, String> {
        let (from, to) = line;
        let world = sim.crowd().world();
        let radius = TRUCK_RADIUS * world.cell_size();
        let room = radius + sim.crowd().radius() + TRUCK_MARGIN * world.cell_size();
        let length = from.distance(to);
        let dir = (to - from) / length;
        let step = 0.5 * world.cell_size();
        let steps = (length / step).floor() as usize;
        let start = (0..=steps)
            .map(|k| from + dir * (k as f64 * step))
            .find(|&p| {
                sim.crowd()
                    .agents()
                    .iter()
                    .all(|a| a.agent_path().position().distance(p) >= room)
            });
        let Some(center) = start else {
            return Err("no room for the truck on its line: agents stand all along it".into());
        };
        let velocity = dir * TRUCK_SPEED * world.cell_size();
        let id = sim
            .add_moving_obstacle(MovingObstacle {
                center,
                radius,
                velocity,
            })
            .map_err(|e| e.to_string())?;
        Ok(Truck {
            id,
            from,
            to,
            velocity,
        })
    }

    fn center(&self, sim: &CrowdSimulation) -> DVec2 {
        sim.crowd()
            .moving_obstacles()
            .find(|&(id, _)| id == self.id)
            .map_or(self.from, |(_, o)| o.center)
    }

    /// Turns the truck round at the ends of its line.
    fn drive(&mut self, sim: &mut CrowdSimulation) -> Result<(), ApiError> {
        let c = self.center(sim);
        let length = self.from.distance(self.to);
        let along = (c - self.from).dot((self.to - self.from) / length);
        let forward = self.velocity.dot(self.to - self.from) > 0.0;
        if (forward && along >= length) || (!forward && along <= 0.0) {
            self.velocity = -self.velocity;
            sim.set_moving_obstacle_velocity(self.id, self.velocity)
                .map_err(ApiError::planning)?;
        }
        Ok(())
    }

    /// Agents closer to the truck than the sum of the radii by more than 1 %.
    fn hits(&self, sim: &CrowdSimulation) -> usize {
        let c = self.center(sim);
        let near = 0.99 * (TRUCK_RADIUS * sim.crowd().world().cell_size() + sim.crowd().radius());
        sim.crowd()
            .agents()
            .iter()
            .filter(|a| a.agent_path().position().distance(c) < near)
            .count()
    }
}

/// A crowd of the playground being simulated: the scenario's simulation, its truck, and
/// the contacts counted over its frames so far. [`run`] simulates one to its end; a
/// [`LiveCrowd`](crate::live::LiveCrowd) a few frames at a time.
pub(crate) struct Running {
    sim: CrowdSimulation,
    truck: Option<Truck>,
    /// Why there is no truck, when one was asked for.
    truck_note: Option<String>,
    /// The contacts summed over the frames so far (`arrived` and `agents` are the
    /// simulation's own).
    contacts: Contacts,
}

impl Running {
    /// Places the crowd of `req` (checked) on a copy of `named`, with its doors and truck.
    pub(crate) fn start(
        req: &CrowdRequest,
        named: &GridWorld,
        cancel: &Cancel,
    ) -> Result<Self, ApiError> {
        let world = GridWorld::with_frame(named.map().clone(), named.cell_size(), named.origin())
            .map_err(ApiError::planning)?;
        let scenario = CrowdScenario {
            agents: req.agents,
            radius: AGENT_RADIUS * world.cell_size(),
            doors: if req.doors { DOORS.min(req.agents) } else { 0 },
            threads: 1,
            seed: req.seed,
            avoidance: req.avoid.then(Avoidance::default),
            ..CrowdScenario::default()
        };
        let mut sim = CrowdSimulation::new(world, scenario).map_err(ApiError::planning)?;
        cancel.check().map_err(ApiError::planning)?;
        let doors: Vec<(DVec2, DVec2)> = sim.doors().map(|(lo, hi, _)| (lo, hi)).collect();
        let (mut truck, mut truck_note) = (None, None);
        if req.truck {
            match truck_line(sim.crowd().world(), &doors) {
                None => {
                    truck_note = Some(format!(
                        "no truck: no row or column of this map has a straight free run of {TRUCK_MIN_RUN} cells with room for a disc of radius {TRUCK_RADIUS} clear of the doors"
                    ))
                }
                Some(line) => match Truck::place(&mut sim, line) {
                    Ok(t) => truck = Some(t),
                    Err(why) => truck_note = Some(format!("no truck: {why}")),
                },
            }
        }
        Ok(Running {
            sim,
            truck,
            truck_note,
            contacts: Contacts::default(),
        })
    }

    /// The simulation.
    pub(crate) fn sim(&self) -> &CrowdSimulation {
        &self.sim
    }

    /// The simulation, to give the agents goals.
    pub(crate) fn sim_mut(&mut self) -> &mut CrowdSimulation {
        &mut self.sim
    }

    /// One simulated frame, its contacts counted, the truck turned at its line's ends.
    pub(crate) fn advance(&mut self) -> Result<(), ApiError> {
        let sim = &mut self.sim;
        sim.frame().map_err(ApiError::planning)?;
        let contacts = &mut self.contacts;
        contacts.invalid += sim.check();
        let (overlaps, wall_hits) = sim.contacts();
        contacts.overlaps += overlaps;
        contacts.wall_hits += wall_hits;
        if let Some(t) = &mut self.truck {
            contacts.truck_hits += t.hits(sim);
            t.drive(sim)?;
        }
        Ok(())
    }

    /// The frame to send now.
    pub(crate) fn frame_out(&self) -> FrameOut {
        let sim = &self.sim;
        let world = sim.crowd().world();
        FrameOut {
            t: r3(sim.time()),
            at: sim
                .crowd()
                .agents()
                .iter()
                .flat_map(|a| cells(world, a.agent_path().position()))
                .collect(),
            doors: sim.doors().map(|(_, _, closed)| closed).collect(),
            truck: self.truck.as_ref().map(|t| cells(world, t.center(sim))),
        }
    }

    /// How many points the agents' paths hold together now.
    pub(crate) fn path_points(&self) -> usize {
        let agents = self.sim.crowd().agents();
        agents.iter().map(|a| a.agent_path().path().len()).sum()
    }

    /// Every agent's path now, in cells (see [`path_points`](Self::path_points) for their
    /// size before they are built).
    pub(crate) fn paths(&self) -> Vec<Vec<[f64; 2]>> {
        let world = self.sim.crowd().world();
        let agents = self.sim.crowd().agents();
        agents
            .iter()
            .map(|a| {
                a.agent_path()
                    .path()
                    .iter()
                    .map(|&p| cells(world, p))
                    .collect()
            })
            .collect()
    }

    /// Every agent's path now, in cells, unless they hold more than
    /// [`limits::MAX_CROWD_PATH_POINTS`] points together.
    pub(crate) fn paths_within_cap(&self) -> Option<Vec<Vec<[f64; 2]>>> {
        (self.path_points() <= limits::MAX_CROWD_PATH_POINTS).then(|| self.paths())
    }

    /// The contacts so far and `pathsmooth crowd`'s line of them.
    pub(crate) fn contacts(&self) -> (Contacts, String) {
        let c = Contacts {
            arrived: self.sim.arrived(),
            agents: self.sim.crowd().agents().len(),
            ..self.contacts
        };
        let line = format!(
            "overlaps {} wall_hits {} arrived {}/{}",
            c.overlaps, c.wall_hits, c.arrived, c.agents
        );
        (c, line)
    }

    /// The answer's head: the world, the crowd's settings, its doors and truck; the frames
    /// and paths are the caller's.
    fn response(
        &self,
        req: &CrowdRequest,
        frames: Vec<FrameOut>,
        paths: Vec<PathsOut>,
        paths_cut_at: Option<usize>,
    ) -> CrowdResponse {
        let sim = &self.sim;
        let world = sim.crowd().world();
        let map = world.map();
        let (contacts, line) = self.contacts();
        CrowdResponse {
            world: req.world.clone(),
            width: map.width(),
            height: map.height(),
            radius: AGENT_RADIUS,
            speed: sim.scenario().speed / world.cell_size(),
            fps: sim.scenario().hz / frame_step() as f64,
            seconds: sim.time(),
            seed: req.seed,
            avoid: req.avoid,
            frames,
            doors: sim
                .doors()
                .map(|(lo, hi, _)| DoorOut {
                    min: cells(world, lo),
                    max: cells(world, hi),
                })
                .collect(),
            truck: self.truck.as_ref().map(|t| TruckOut {
                radius: TRUCK_RADIUS,
                speed: TRUCK_SPEED,
                from: cells(world, t.from),
                to: cells(world, t.to),
            }),
            truck_note: self.truck_note.clone(),
            paths,
            paths_cut_at,
            contacts,
            line,
        }
    }

    /// The answer of a crowd just started: its first frame and paths
    /// ([`LiveCrowd`](crate::live::LiveCrowd)'s first answer).
    pub(crate) fn first_answer(&self, req: &CrowdRequest) -> Result<Vec<u8>, ApiError> {
        let (paths, cut) = match self.paths_within_cap() {
            Some(paths) => (vec![PathsOut { frame: 0, paths }], None),
            None => (Vec::new(), Some(0)),
        };
        encode(&self.response(req, vec![self.frame_out()], paths, cut))
    }
}

/// Runs the crowd of `req` on `named` (a world on offer) and encodes the answer (the
/// server runs it on a blocking worker); stops with [`ApiError::cancelled`] at the first
/// frame after `cancel` is.
pub fn run(req: &CrowdRequest, named: &GridWorld, cancel: &Cancel) -> Result<Vec<u8>, ApiError> {
    let mut crowd = Running::start(req, named, cancel)?;
    let mut paths = Vec::new();
    let mut path_points = 0;
    let mut paths_cut_at = None;
    // Every CROWD_PATHS_EVERY frames, and at a frame where a door opened or closed (the
    // paths it blocked are repaired in the frame it closes).
    let mut last_doors: Vec<bool> = Vec::new();
    let mut keep_paths = |crowd: &Running, frame: usize| {
        let doors: Vec<bool> = crowd.sim.doors().map(|(_, _, closed)| closed).collect();
        let changed = doors != last_doors;
        last_doors = doors;
        if paths_cut_at.is_some() || !(changed || frame.is_multiple_of(limits::CROWD_PATHS_EVERY)) {
            return;
        }
        let points = crowd.path_points();
        if path_points + points > limits::MAX_CROWD_PATH_POINTS {
            paths_cut_at = Some(frame);
            return;
        }
        path_points += points;
        paths.push(PathsOut {
            frame,
            paths: crowd.paths(),
        });
    };

    let step = frame_step();
    let sim_frames = req.sim_frames();
    let mut frames = Vec::with_capacity(sim_frames as usize / step + 1);
    frames.push(crowd.frame_out());
    keep_paths(&crowd, 0);
    for k in 1..=sim_frames {
        cancel.check().map_err(ApiError::planning)?;
        crowd.advance()?;
        if (k as usize).is_multiple_of(step) {
            keep_paths(&crowd, frames.len());
            frames.push(crowd.frame_out());
        }
    }
    encode(&crowd.response(req, frames, paths, paths_cut_at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathsmooth::GridMap;

    fn world(rows: &[&str]) -> GridWorld {
        GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap()
    }

    #[test]
    fn the_truck_drives_the_longest_free_run_off_walls_and_doors_or_not_at_all() {
        let hall = world(&["..............................."; 7]);
        let (a, b) = truck_line(&hall, &[]).unwrap();
        assert_eq!(a.y, b.y, "a row: {a} {b}");
        assert!(b.x - a.x >= 20.0, "{a} {b}");
        assert!(hall.segment_is_clear(a, b, TRUCK_RADIUS + TRUCK_MARGIN));
        // A door across the hall: the line keeps off it, on one side.
        let door = (DVec2::new(14.0, 0.0), DVec2::new(17.0, 7.0));
        let (a, b) = truck_line(&hall, &[door]).unwrap();
        assert!(b.x < 14.0 - 1.0 || a.x > 17.0 + 1.0, "{a} {b}");
        // Corridors two cells wide: no room for the truck's disc.
        assert_eq!(truck_line(&world(&[".............."; 2]), &[]), None);
        // Room, but no run of ten cells.
        assert_eq!(truck_line(&world(&["........."; 9]), &[]), None);
    }
}
