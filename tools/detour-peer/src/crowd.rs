//! pathsmooth's crowd side by side with Detour's (`dtCrowd`, issue 40 item 6): the same map,
//! agents, starts, targets, radius and speed, one independent check of both.
//!
//! **The scenario** ([`Scene::new`]): a window of a Moving AI map. pathsmooth's side is a
//! [`Crowd<SurfaceWorld>`] on the navmesh of the window ([`NavMesh::from_grid`]: the free
//! cells' outline, not eroded, the world keeps the agents `radius` from its walls; its
//! surface of one floor, the library's navmesh world). Detour's side is what a game hands
//! `dtCrowd`: a navmesh that C++ Recast bakes from the same free cells (a floor
//! quad per run of free cells, [`grid_level`]) with `walkableRadius` the agents' radius, so
//! eroded by it ([`bake_settings`]: RecastDemo's settings but the cell size, 0.1), tiled
//! ([`recast::build_tiled`]). Agents: starts drawn uniformly in the window (fixed-seed
//! SplitMix64), each with pathsmooth's exact clearance ≥ `radius`, on Detour's eroded mesh
//! (its nearest point within 1e-3), and at least `2 × radius` from every earlier start; each
//! target drawn within `goal_range` on each axis of its start with the same tests, with a
//! complete Detour corridor of at most 256 polygons (`dtCrowd`'s corridor size) and a
//! pathsmooth plan ([`World::find_path`]) to it.
//!
//! **Both crowds start with their paths planned, untimed**: pathsmooth's
//! [`Crowd::add_agent`] plans; for Detour ([`DetourCrowd::new`]) the full corridor from
//! `findPath` is written into each agent after `requestMoveTarget`, and its target state set
//! to valid, which is what `dtCrowd::updateMoveRequest` does when its path queue delivers
//! (its queue plans 100 search iterations a frame in all, so 1000 agents would wait for
//! their paths for many seconds).
//!
//! **The check** ([`Check`]) reads only the agents' plan positions after each frame:
//! overlapping pairs (closer than 0.99 × 2r, buckets of side 2r), wall hits (closer than
//! 0.99 r to a boundary edge of pathsmooth's mesh of the window, or off it: the map's real
//! walls), arrivals (within [`ARRIVAL`] × r of its target at least once).

use crate::recast::{self, Level, Settings};
use crate::{corpus::Rng, DetourMesh, MAX_PATH};
use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd};
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::NavMesh;
use pathsmooth::world::World;
use pathsmooth::{Preset, SurfaceWorld};
use recastnavigation_sys::*;
use std::collections::HashMap;
use std::path::Path;
use std::ptr;
use std::time::Instant;

/// The agents' radius and speed, the frame rate: those of pathsmooth's crowd benchmark
/// (`CrowdScenario::default()`: 0.3, 1.5 units a second, 60 Hz).
pub const RADIUS: f64 = 0.3;
pub const SPEED: f64 = 1.5;
pub const HZ: f64 = 60.0;
/// Targets lie within this many units of the start on each axis.
pub const GOAL_RANGE: f64 = 16.0;
/// The seed of the agents' draws.
pub const SEED: u64 = 0x4000_0040_c0de_0006;
/// An agent has arrived once it comes within `ARRIVAL × radius` of its target.
pub const ARRIVAL: f64 = 0.5;
/// Recast's cell size (and height) for Detour's navmesh: a tenth of a map cell.
pub const CELL_SIZE: f32 = 0.1;
/// Recast tile side, cells.
pub const TILE_SIZE: i32 = 256;
/// RecastDemo's `CrowdTool` agent acceleration (world units / s²).
pub const MAX_ACCELERATION: f32 = 8.0;
/// `dtCrowd`'s corridor capacity (`m_maxPathResult`).
pub const MAX_CORRIDOR: usize = 256;

/// A window `[x0, x0 + w) × [y0, y0 + h)` of the map's cells.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub x0: usize,
    pub y0: usize,
    pub w: usize,
    pub h: usize,
}

/// The window of `map` as a map of its own (cell (x, y) of the result is cell
/// (x0 + x, y0 + y) of `map`).
pub fn crop(map: &GridMap, win: Window) -> GridMap {
    GridMap::from_fn(win.w, win.h, |x, y| {
        map.is_passable((win.x0 + x) as i64, (win.y0 + y) as i64)
    })
}

/// The free cells as a Recast level: one floor quad at height 0 per run of free cells in
/// a row (plan (x, y) is Detour's (x, z)), wound so that Recast sees it face up.
pub fn grid_level(map: &GridMap) -> Level {
    let (mut verts, mut tris) = (Vec::new(), Vec::new());
    for y in 0..map.height() {
        let mut x = 0;
        while x < map.width() {
            if !map.is_passable(x as i64, y as i64) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < map.width() && map.is_passable(x as i64, y as i64) {
                x += 1;
            }
            let base = (verts.len() / 3) as i32;
            let (a, b, z0, z1) = (x0 as f32, x as f32, y as f32, (y + 1) as f32);
            verts.extend_from_slice(&[a, 0.0, z0, a, 0.0, z1, b, 0.0, z1, b, 0.0, z0]);
            tris.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    Level { verts, tris }
}

/// RecastDemo's settings (`Sample::resetCommonSettings`) but the cell size and height
/// ([`CELL_SIZE`]) and the agent radius (`radius`).
pub fn bake_settings(radius: f64) -> Settings {
    Settings {
        cell_size: CELL_SIZE,
        cell_height: CELL_SIZE,
        agent_radius: radius as f32,
        ..Settings::default()
    }
}

/// The boundary edges of a navmesh (edges of one triangle only) in buckets of side 1.
pub struct Walls {
    edges: Vec<[DVec2; 2]>,
    buckets: HashMap<(i32, i32), Vec<u32>>,
}

impl Walls {
    pub fn of(mesh: &NavMesh) -> Walls {
        let mut count: HashMap<(u32, u32), u32> = HashMap::new();
        for t in mesh.triangle_indices() {
            for i in 0..3 {
                let (a, b) = (t[i], t[(i + 1) % 3]);
                *count.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
        let v = mesh.vertices();
        let mut edges: Vec<[DVec2; 2]> = count
            .into_iter()
            .filter(|&(_, c)| c == 1)
            .map(|((a, b), _)| [v[a as usize], v[b as usize]])
            .collect();
        edges.sort_by(|p, q| {
            (p[0].x, p[0].y, p[1].x, p[1].y)
                .partial_cmp(&(q[0].x, q[0].y, q[1].x, q[1].y))
                .unwrap()
        });
        let mut buckets: HashMap<(i32, i32), Vec<u32>> = HashMap::new();
        for (i, e) in edges.iter().enumerate() {
            let lo = e[0].min(e[1]).floor();
            let hi = e[0].max(e[1]).floor();
            for by in lo.y as i32..=hi.y as i32 {
                for bx in lo.x as i32..=hi.x as i32 {
                    buckets.entry((bx, by)).or_default().push(i as u32);
                }
            }
        }
        Walls { edges, buckets }
    }

    /// The boundary edges.
    pub fn edges(&self) -> &[[DVec2; 2]] {
        &self.edges
    }

    /// The distance from `p` to the nearest boundary edge within `reach` (else `reach`).
    pub fn distance(&self, p: DVec2, reach: f64) -> f64 {
        let (lo, hi) = ((p - reach).floor(), (p + reach).floor());
        let mut best = reach;
        for by in lo.y as i32..=hi.y as i32 {
            for bx in lo.x as i32..=hi.x as i32 {
                for &i in self.buckets.get(&(bx, by)).map_or(&[][..], Vec::as_slice) {
                    let [a, b] = self.edges[i as usize];
                    best = best.min(segment_distance(p, a, b));
                }
            }
        }
        best
    }
}

/// Distance from `p` to the segment `ab`.
pub fn segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let d = b - a;
    let len2 = d.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + d * t)
}

/// Pairs of `points` closer than `near` (each pair once), found in buckets of side `near`;
/// and the smallest distance between two points (infinity for fewer than two within
/// `near`).
pub fn overlaps(points: &[DVec2], near: f64) -> (usize, f64) {
    let key = |p: DVec2| ((p.x / near).floor() as i64, (p.y / near).floor() as i64);
    let mut buckets: HashMap<(i64, i64), Vec<u32>> = HashMap::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        buckets.entry(key(p)).or_default().push(i as u32);
    }
    let (mut count, mut closest) = (0, f64::INFINITY);
    for (i, &p) in points.iter().enumerate() {
        let (kx, ky) = key(p);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(b) = buckets.get(&(kx + dx, ky + dy)) else {
                    continue;
                };
                for &j in b {
                    if (j as usize) <= i {
                        continue;
                    }
                    let d = p.distance(points[j as usize]);
                    if d < near {
                        count += 1;
                        closest = closest.min(d);
                    }
                }
            }
        }
    }
    (count, closest)
}

/// The independent check: overlaps, wall hits and arrivals from the agents' positions.
pub struct Check<'a> {
    pub mesh: &'a NavMesh,
    pub walls: &'a Walls,
    pub radius: f64,
    pub targets: Vec<DVec2>,
    /// Agents seen within [`ARRIVAL`] × radius of their targets so far.
    pub reached: Vec<bool>,
    /// Sums over the frames checked.
    pub overlaps: usize,
    pub wall_hits: usize,
    /// Smallest distance between two agents over `2 r` (among pairs closer than 2 r), and
    /// smallest distance to a wall over `r` (among agents within r of one).
    pub closest_pair: f64,
    pub closest_wall: f64,
}

impl<'a> Check<'a> {
    pub fn new(mesh: &'a NavMesh, walls: &'a Walls, radius: f64, targets: Vec<DVec2>) -> Self {
        let n = targets.len();
        Check {
            mesh,
            walls,
            radius,
            targets,
            reached: vec![false; n],
            overlaps: 0,
            wall_hits: 0,
            closest_pair: f64::INFINITY,
            closest_wall: f64::INFINITY,
        }
    }

    /// Counts one frame's positions; returns its (overlapping pairs, wall hits).
    pub fn frame(&mut self, at: &[DVec2]) -> (usize, usize) {
        let r = self.radius;
        let (pairs, _) = overlaps(at, 0.99 * 2.0 * r);
        let (_, closest) = overlaps(at, 2.0 * r);
        self.closest_pair = self.closest_pair.min(closest / (2.0 * r));
        let mut hits = 0;
        for (i, &p) in at.iter().enumerate() {
            let d = if self.mesh.locate(p).is_none() {
                0.0
            } else {
                self.walls.distance(p, r)
            };
            self.closest_wall = self.closest_wall.min(d / r);
            hits += usize::from(d < 0.99 * r);
            self.reached[i] |= p.distance(self.targets[i]) <= ARRIVAL * r;
        }
        self.overlaps += pairs;
        self.wall_hits += hits;
        (pairs, hits)
    }

    pub fn arrived(&self) -> usize {
        self.reached.iter().filter(|&&r| r).count()
    }
}

/// One agent of the scene: plan start and target, Detour's polygons there.
#[derive(Clone, Copy, Debug)]
pub struct SceneAgent {
    pub start: DVec2,
    pub target: DVec2,
    pub target_ref: dtPolyRef,
    /// Detour's nearest point to the target on its polygon.
    pub target_on_mesh: [f32; 3],
}

/// A window of a map on both sides, and the agents drawn on it.
pub struct Scene {
    pub window: Window,
    pub grid: GridMap,
    pub mesh: NavMesh,
    pub world: SurfaceWorld,
    pub walls: Walls,
    pub detour: DetourMesh,
    pub detour_polygons: usize,
    pub detour_tiles: (i32, i32),
    /// Recast's `walkableRadius`, cells.
    pub walkable_radius_cells: i32,
    pub radius: f64,
    pub agents: Vec<SceneAgent>,
    /// Rejected draws: starts, targets.
    pub rejected: (usize, usize),
}

/// Detour point of a plan point (height 0).
pub fn to_detour(p: DVec2) -> [f32; 3] {
    [p.x as f32, 0.0, p.y as f32]
}

/// Plan point of a Detour point.
pub fn from_detour(p: &[f32; 3]) -> DVec2 {
    DVec2::new(f64::from(p[0]), f64::from(p[2]))
}

impl Scene {
    /// Loads `map`, crops `window`, builds both navmeshes, draws `agents` agents (see the
    /// module docs).
    pub fn new(map: &Path, window: Window, agents: usize) -> Result<Scene, String> {
        let full = GridMap::load(map).map_err(|e| e.to_string())?;
        Scene::from_grid(crop(&full, window), window, agents, SEED)
    }

    pub fn from_grid(
        grid: GridMap,
        window: Window,
        agents: usize,
        seed: u64,
    ) -> Result<Scene, String> {
        let mut scene = Scene::empty(grid, window)?;
        scene.draw(agents, seed)?;
        Ok(scene)
    }

    /// Both navmeshes of `grid` and the agents `starts[i] → targets[i]` as given, each
    /// checked as a drawn one is (start and target usable on both sides, a complete
    /// Detour corridor and a pathsmooth plan between them); the first that is not is the
    /// error.
    pub fn with_agents(
        grid: GridMap,
        starts: &[DVec2],
        targets: &[DVec2],
    ) -> Result<Scene, String> {
        let window = Window {
            x0: 0,
            y0: 0,
            w: grid.width(),
            h: grid.height(),
        };
        let mut scene = Scene::empty(grid, window)?;
        let mut path = vec![0 as dtPolyRef; MAX_PATH];
        for (i, (&s, &t)) in starts.iter().zip(targets).enumerate() {
            let sd = scene
                .usable(s)
                .ok_or(format!("agent {i}: start {s} is not usable"))?;
            let (tref, tpos) = scene
                .usable(t)
                .ok_or(format!("agent {i}: target {t} is not usable"))?;
            if scene.detour_corridor(sd, (tref, tpos), &mut path).is_none() {
                return Err(format!("agent {i}: no complete Detour corridor to {t}"));
            }
            scene
                .world
                .find_path(s, t, scene.radius)
                .map_err(|e| format!("agent {i}: {e}"))?;
            scene.agents.push(SceneAgent {
                start: s,
                target: t,
                target_ref: tref,
                target_on_mesh: tpos,
            });
        }
        Ok(scene)
    }

    /// Both navmeshes of `grid`, no agents.
    fn empty(grid: GridMap, window: Window) -> Result<Scene, String> {
        let radius = RADIUS;
        let mesh = NavMesh::from_grid(&grid).map_err(|e| e.to_string())?;
        let world = SurfaceWorld::from_navmesh(&mesh).map_err(|e| e.to_string())?;
        let walls = Walls::of(&mesh);
        let settings = bake_settings(radius);
        let walkable_radius_cells = (settings.agent_radius / settings.cell_size).ceil() as i32;
        let (nav, tiles) = recast::build_tiled(&grid_level(&grid), &settings, TILE_SIZE, &[])?;
        let (_, detour_polygons, _) = recast::counts(&nav);
        let detour = DetourMesh::from_navmesh(nav, 4096, 0.0)?;
        Ok(Scene {
            window,
            grid,
            mesh,
            world,
            walls,
            detour,
            detour_polygons,
            detour_tiles: tiles,
            walkable_radius_cells,
            radius,
            agents: Vec::new(),
            rejected: (0, 0),
        })
    }

    /// Detour's polygon under plan point `p` and the nearest point on it, when that point
    /// is within 1e-3 of `p` (so `p` is on Detour's eroded mesh).
    pub fn on_detour(&self, p: DVec2) -> Option<(dtPolyRef, [f32; 3])> {
        let (r, q) = self.detour.nearest_raw(&to_detour(p));
        (r != 0 && from_detour(&q).distance(p) < 1e-3).then_some((r, q))
    }

    /// A usable point: pathsmooth's clearance ≥ radius and on Detour's mesh.
    fn usable(&self, p: DVec2) -> Option<(dtPolyRef, [f32; 3])> {
        if self.world.clearance(p) < self.radius {
            return None;
        }
        self.on_detour(p)
    }

    /// Detour's complete corridor from `(sref, spos)` to `(tref, tpos)` into `path`:
    /// its length, `None` when partial, failed or longer than [`MAX_CORRIDOR`].
    pub fn detour_corridor(
        &self,
        (sref, spos): (dtPolyRef, [f32; 3]),
        (tref, tpos): (dtPolyRef, [f32; 3]),
        path: &mut [dtPolyRef],
    ) -> Option<usize> {
        let mut n = 0i32;
        let st = unsafe {
            dtNavMeshQuery_findPath(
                self.detour.query,
                sref,
                tref,
                spos.as_ptr(),
                tpos.as_ptr(),
                &self.detour.filter,
                path.as_mut_ptr(),
                &mut n,
                path.len() as i32,
            )
        };
        let n = n as usize;
        let complete = st & DT_SUCCESS != 0
            && st & DT_PARTIAL_RESULT == 0
            && n > 0
            && path[n - 1] == tref
            && n <= MAX_CORRIDOR;
        complete.then_some(n)
    }

    fn draw(&mut self, agents: usize, seed: u64) -> Result<(), String> {
        let mut rng = Rng::new(seed);
        let (w, h) = (self.grid.width() as f64, self.grid.height() as f64);
        let gap = 2.0 * self.radius;
        let key = |p: DVec2| ((p.x / gap).floor() as i64, (p.y / gap).floor() as i64);
        let mut starts: HashMap<(i64, i64), Vec<DVec2>> = HashMap::new();
        let mut path = vec![0 as dtPolyRef; MAX_PATH];
        let mut attempts = 0usize;
        while self.agents.len() < agents {
            attempts += 1;
            if attempts > 1000 * agents + 10_000 {
                return Err(format!(
                    "placed {} of {agents} agents: no room",
                    self.agents.len()
                ));
            }
            let s = DVec2::new(rng.unit() * w, rng.unit() * h);
            let Some(sd) = self.usable(s) else {
                self.rejected.0 += 1;
                continue;
            };
            let (kx, ky) = key(s);
            let crowded = (-1..=1).any(|dy| {
                (-1..=1).any(|dx| {
                    starts
                        .get(&(kx + dx, ky + dy))
                        .is_some_and(|v| v.iter().any(|q| q.distance(s) < gap))
                })
            });
            if crowded {
                self.rejected.0 += 1;
                continue;
            }
            let mut found = None;
            for _ in 0..64 {
                let t = s + DVec2::new(
                    (2.0 * rng.unit() - 1.0) * GOAL_RANGE,
                    (2.0 * rng.unit() - 1.0) * GOAL_RANGE,
                );
                let inside = t.x > 0.0 && t.y > 0.0 && t.x < w && t.y < h;
                let Some(td) = inside.then(|| self.usable(t)).flatten() else {
                    self.rejected.1 += 1;
                    continue;
                };
                if self.detour_corridor(sd, td, &mut path).is_none()
                    || self.world.find_path(s, t, self.radius).is_err()
                {
                    self.rejected.1 += 1;
                    continue;
                }
                found = Some((t, td));
                break;
            }
            let Some((t, (tref, tpos))) = found else {
                self.rejected.0 += 1;
                continue;
            };
            starts.entry(key(s)).or_default().push(s);
            self.agents.push(SceneAgent {
                start: s,
                target: t,
                target_ref: tref,
                target_on_mesh: tpos,
            });
        }
        Ok(())
    }

    pub fn targets(&self) -> Vec<DVec2> {
        self.agents.iter().map(|a| a.target).collect()
    }
}

/// A crowd to be stepped and read.
pub trait Engine {
    fn name(&self) -> &'static str;
    /// One frame of `dt` seconds (the part that is timed).
    fn update(&mut self, dt: f64);
    /// The agents' plan positions, in the scene's order.
    fn positions(&self, out: &mut Vec<DVec2>);
}

/// pathsmooth's crowd: [`Crowd<SurfaceWorld>`], avoidance on (`Avoidance::default()`),
/// paths smoothed by `Preset::Smooth`, one thread.
pub struct PathsmoothCrowd {
    pub crowd: Crowd<SurfaceWorld>,
    /// Sum of the frames' `CrowdFrame`s.
    pub frames: pathsmooth::crowd::CrowdFrame,
}

impl PathsmoothCrowd {
    pub fn new(scene: &Scene) -> Result<PathsmoothCrowd, String> {
        PathsmoothCrowd::with_avoidance(scene, Avoidance::default())
    }

    /// The crowd with avoidance settings `avoidance` (a dense crowd's, say).
    pub fn with_avoidance(scene: &Scene, avoidance: Avoidance) -> Result<PathsmoothCrowd, String> {
        let e = |e: pathsmooth::Error| e.to_string();
        let mut crowd = Crowd::new(scene.world.clone(), scene.radius, Preset::Smooth.steps())
            .map_err(e)?
            .with_threads(1)
            .map_err(e)?
            .with_avoidance(Some(avoidance))
            .map_err(e)?;
        for a in &scene.agents {
            crowd.add_agent(a.start, a.target, SPEED).map_err(e)?;
        }
        Ok(PathsmoothCrowd {
            crowd,
            frames: Default::default(),
        })
    }
}

impl Engine for PathsmoothCrowd {
    fn name(&self) -> &'static str {
        "pathsmooth"
    }

    fn update(&mut self, dt: f64) {
        self.frames += self.crowd.update(dt).expect("a valid dt");
    }

    fn positions(&self, out: &mut Vec<DVec2>) {
        out.clear();
        out.extend(
            self.crowd
                .agents()
                .iter()
                .map(|a| a.agent_path().position()),
        );
    }
}

/// Detour's crowd on the scene's Detour navmesh (which it borrows).
pub struct DetourCrowd<'a> {
    crowd: *mut dtCrowd,
    n: usize,
    _mesh: &'a DetourMesh,
    /// Agents whose corridor was written at the start (the others were left to Detour's
    /// own path requests).
    pub planned: usize,
}

/// The agent parameters: RecastDemo's `CrowdTool` defaults (acceleration 8, collision
/// query range 12 r, path optimisation range 30 r, all five update flags, avoidance
/// type 3 "high", separation weight 2) with the scene's radius and speed, height 2.
pub fn agent_params(radius: f64, speed: f64) -> dtCrowdAgentParams {
    let r = radius as f32;
    let mut p: dtCrowdAgentParams = unsafe { std::mem::zeroed() };
    p.radius = r;
    p.height = 2.0;
    p.maxAcceleration = MAX_ACCELERATION;
    p.maxSpeed = speed as f32;
    p.collisionQueryRange = 12.0 * r;
    p.pathOptimizationRange = 30.0 * r;
    p.updateFlags = (UpdateFlags_DT_CROWD_ANTICIPATE_TURNS
        | UpdateFlags_DT_CROWD_OBSTACLE_AVOIDANCE
        | UpdateFlags_DT_CROWD_SEPARATION
        | UpdateFlags_DT_CROWD_OPTIMIZE_VIS
        | UpdateFlags_DT_CROWD_OPTIMIZE_TOPO) as u8;
    p.obstacleAvoidanceType = 3;
    p.separationWeight = 2.0;
    p.queryFilterType = 0;
    p.userData = ptr::null_mut();
    p
}

impl<'a> DetourCrowd<'a> {
    /// `dtCrowd::init(agents, radius, nav)`, RecastDemo's four avoidance settings (low,
    /// medium, good, high: `CrowdToolState::init`), the scene's agents added with
    /// [`agent_params`] and their paths planned (see the module docs).
    pub fn new(scene: &'a Scene) -> Result<DetourCrowd<'a>, String> {
        let n = scene.agents.len();
        let crowd = unsafe { dtAllocCrowd() };
        let mut me = DetourCrowd {
            crowd,
            n,
            _mesh: &scene.detour,
            planned: 0,
        };
        unsafe {
            if !dtCrowd_init(
                crowd,
                n.max(1) as i32,
                scene.radius as f32,
                scene.detour.nav,
            ) {
                return Err("dtCrowd::init failed".into());
            }
            let mut ap = *dtCrowd_getObstacleAvoidanceParams(crowd, 0);
            for (i, (divs, rings, depth)) in [(5, 2, 1), (5, 2, 2), (7, 2, 3), (7, 3, 3)]
                .into_iter()
                .enumerate()
            {
                ap.velBias = 0.5;
                ap.adaptiveDivs = divs;
                ap.adaptiveRings = rings;
                ap.adaptiveDepth = depth;
                dtCrowd_setObstacleAvoidanceParams(crowd, i as i32, &ap);
            }
            let params = agent_params(scene.radius, SPEED);
            let mut path = vec![0 as dtPolyRef; MAX_PATH];
            for (i, a) in scene.agents.iter().enumerate() {
                let idx = dtCrowd_addAgent(crowd, to_detour(a.start).as_ptr(), &params);
                if idx != i as i32 {
                    return Err(format!("dtCrowd::addAgent {i}: {idx}"));
                }
                if !dtCrowd_requestMoveTarget(crowd, idx, a.target_ref, a.target_on_mesh.as_ptr()) {
                    return Err(format!("requestMoveTarget {i}"));
                }
                let ag = dtCrowd_getEditableAgent(crowd, idx);
                let sref = *(*ag).corridor.m_path;
                let spos = (*ag).npos;
                if let Some(np) =
                    scene.detour_corridor((sref, spos), (a.target_ref, a.target_on_mesh), &mut path)
                {
                    dtPathCorridor_setCorridor(
                        &mut (*ag).corridor,
                        a.target_on_mesh.as_ptr(),
                        path.as_ptr(),
                        np as i32,
                    );
                    (*ag).targetState = MoveRequestState_DT_CROWDAGENT_TARGET_VALID as u8;
                    (*ag).targetReplanTime = 0.0;
                    (*ag).partial = false;
                    me.planned += 1;
                }
            }
        }
        Ok(me)
    }

    /// Agents by target state (none, failed, valid, requesting, waiting for the queue,
    /// waiting for a path, velocity) and how many have a partial path.
    pub fn states(&self) -> ([usize; 7], usize) {
        let mut s = [0; 7];
        let mut partial = 0;
        for i in 0..self.n {
            let ag = unsafe { &*dtCrowd_getAgent(self.crowd, i as i32) };
            s[usize::from(ag.targetState).min(6)] += 1;
            partial += usize::from(ag.partial);
        }
        (s, partial)
    }
}

impl Engine for DetourCrowd<'_> {
    fn name(&self) -> &'static str {
        "Detour"
    }

    fn update(&mut self, dt: f64) {
        unsafe { dtCrowd_update(self.crowd, dt as f32, ptr::null_mut()) }
    }

    fn positions(&self, out: &mut Vec<DVec2>) {
        out.clear();
        for i in 0..self.n {
            let ag = unsafe { &*dtCrowd_getAgent(self.crowd, i as i32) };
            out.push(from_detour(&ag.npos));
        }
    }
}

impl Drop for DetourCrowd<'_> {
    fn drop(&mut self) {
        unsafe { dtFreeCrowd(self.crowd) }
    }
}

/// One run's figures.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub engine: &'static str,
    pub agents: usize,
    pub frames: usize,
    pub seconds: f64,
    pub mean_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub overlaps: usize,
    pub wall_hits: usize,
    pub arrived: usize,
    pub closest_pair: f64,
    pub closest_wall: f64,
}

/// Runs `engine` for `frames` frames of 1 / [`HZ`] s, timing each `update` alone and
/// checking the positions after it.
pub fn run(engine: &mut dyn Engine, scene: &Scene, frames: usize) -> RunResult {
    run_until(engine, scene, frames, |_, _, _| false)
}

/// [`run`], calling `after(time, positions, check)` after each frame's check and stopping
/// early once it returns true (the result counts the frames run).
pub fn run_until(
    engine: &mut dyn Engine,
    scene: &Scene,
    frames: usize,
    mut after: impl FnMut(f64, &[DVec2], &Check) -> bool,
) -> RunResult {
    let dt = 1.0 / HZ;
    let mut check = Check::new(&scene.mesh, &scene.walls, scene.radius, scene.targets());
    let mut at = Vec::with_capacity(scene.agents.len());
    let mut times = Vec::with_capacity(frames);
    for f in 1..=frames {
        let t0 = Instant::now();
        engine.update(dt);
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        engine.positions(&mut at);
        check.frame(&at);
        if after(f as f64 * dt, &at, &check) {
            break;
        }
    }
    let run = times.len();
    let mean = times.iter().sum::<f64>() / run.max(1) as f64;
    times.sort_by(f64::total_cmp);
    let p99 = times
        .get((run * 99).div_ceil(100).saturating_sub(1))
        .copied()
        .unwrap_or(f64::NAN);
    RunResult {
        engine: engine.name(),
        agents: scene.agents.len(),
        frames: run,
        seconds: run as f64 * dt,
        mean_ms: mean,
        p99_ms: p99,
        max_ms: times.last().copied().unwrap_or(f64::NAN),
        overlaps: check.overlaps,
        wall_hits: check.wall_hits,
        arrived: check.arrived(),
        closest_pair: check.closest_pair,
        closest_wall: check.closest_wall,
    }
}
