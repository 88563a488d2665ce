//! Temporary obstacles, what every world shares (issue 30): doors that close, crates that
//! fall, agents that block a passage. The shapes and their checks, the handles, the
//! [`ObstacleWorld`] trait and the list of obstacles a world keeps. A grid world blocks the
//! cells a shape overlaps ([`super::grid_obstacles`]); a navmesh world cuts the shape out
//! of its triangles ([`super::mesh_obstacles`]). This module imports neither world, so
//! both worlds can keep their obstacles in its list without an import circle.

use glam::{DVec2, IVec2};

use super::{Bounds, World};
use crate::error::{num, Error, Result};
use crate::navmesh::mesh::PolyId;

/// A temporary obstacle's shape, in world units (or cells, for [`Obstacle::Cells`]). On a
/// [`GridWorld`](crate::GridWorld) it blocks every cell whose closed square meets the
/// shape's inside; on a [`SurfaceWorld`](crate::SurfaceWorld) it is cut out of the free
/// region (a disk as its circumscribed 16-gon; cells are refused there).
#[derive(Debug, Clone, PartialEq)]
pub enum Obstacle {
    /// A disk (radius > 0).
    Disk {
        /// Centre.
        center: DVec2,
        /// Radius (> 0).
        radius: f64,
    },
    /// An axis-aligned box, `min` < `max` componentwise.
    Box {
        /// The corner with the smallest coordinates.
        min: DVec2,
        /// The corner with the largest coordinates.
        max: DVec2,
    },
    /// A convex polygon of at least 3 vertices with a positive area (either winding).
    Polygon(Vec<DVec2>),
    /// Cells (column, row) of the map.
    Cells(Vec<IVec2>),
}

/// A temporary obstacle's handle, from
/// [`GridWorld::add_obstacle`](crate::GridWorld::add_obstacle) or
/// [`SurfaceWorld::add_obstacle`](crate::SurfaceWorld::add_obstacle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObstacleId(u64);

impl ObstacleId {
    /// The handle's number (unique for the world's lifetime).
    pub fn get(self) -> u64 {
        self.0
    }

    /// The handle with number `n` ([`get`](Self::get)'s inverse), for callers that pass
    /// handles as numbers (the bindings). A number the world never gave out, or gave out
    /// for an obstacle removed since, is refused by the world's methods with
    /// [`Error::BadObstacle`].
    pub fn from_raw(n: u64) -> Self {
        ObstacleId(n)
    }
}

/// A world whose temporary obstacles come and go: [`GridWorld`](crate::GridWorld) (an
/// obstacle blocks the cells it overlaps) and [`SurfaceWorld`](crate::SurfaceWorld) (it is
/// cut out of its polygons). What a
/// [`Crowd`](crate::crowd::Crowd) needs of its world. The methods are the worlds' own, with
/// their costs and errors.
pub trait ObstacleWorld: World {
    /// Adds a temporary obstacle, seen by every query until it is removed.
    fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<ObstacleId>;
    /// Removes an obstacle: the world is again what it was without it, exactly.
    fn remove_obstacle(&mut self, id: ObstacleId) -> Result<()>;
    /// The shape of obstacle `id` as it was added; `None` for an id the world does not
    /// have (never given out, or removed since). A crowd reads it to know where removing
    /// the obstacle changes the world; the default, `None`, makes it assume anywhere.
    fn obstacle(&self, id: ObstacleId) -> Option<&Obstacle> {
        let _ = id;
        None
    }
    /// True when obstacle `id` takes away what `path` needs for an agent of `radius`.
    fn obstacle_blocks(&self, id: ObstacleId, path: &[DVec2], radius: f64) -> Result<bool>;
    /// A box holding all that `obstacle` would block if it were added now (`None`: it
    /// would block nothing), without adding it: what a crowd looks at for the agents an
    /// obstacle may land on. Errors: [`Error::BadObstacle`] for a bad shape (the checks
    /// every world makes; [`add_obstacle`](Self::add_obstacle) makes its own as well).
    fn obstacle_bounds(&self, obstacle: &Obstacle) -> Result<Option<Bounds>>;
}

/// The obstacles of a world, in the order they were added, with what each blocks: the
/// cells on a grid, the counter-clockwise polygon cut out on a navmesh.
#[derive(Debug, Clone)]
pub(crate) struct Obstacles<T = Vec<IVec2>> {
    pub(super) next: u64,
    pub(super) list: ById<T>,
}

impl<T> Default for Obstacles<T> {
    fn default() -> Self {
        Obstacles {
            next: 0,
            list: ById(Vec::new()),
        }
    }
}

/// The obstacles in place and what each blocks, sorted by id: a vector and not a map, as
/// a world holds few (doors, crates) and each is found by a binary search. (A `BTreeMap`
/// here was 9 KB of the npm package's `.wasm` for each kind of world: docs/wasm.md.)
/// Ids only grow, so an obstacle added goes at the end; one put back after it was taken
/// goes where its id sorts. Cost: O(log n) to find, O(n) to remove.
#[derive(Debug, Clone)]
pub(super) struct ById<T>(Vec<(ObstacleId, (Obstacle, T))>);

impl<T> ById<T> {
    /// Keeps `entry` under `id`, in id order.
    pub(super) fn insert(&mut self, id: ObstacleId, entry: (Obstacle, T)) {
        let at = self.0.partition_point(|(other, _)| *other < id);
        self.0.insert(at, (id, entry));
    }

    /// Where `id` is kept, if it is.
    fn index_of(&self, id: &ObstacleId) -> Option<usize> {
        self.0.binary_search_by_key(id, |(other, _)| *other).ok()
    }

    /// What is kept under `id`.
    pub(super) fn get(&self, id: &ObstacleId) -> Option<&(Obstacle, T)> {
        self.index_of(id).map(|at| &self.0[at].1)
    }

    /// Takes out what is kept under `id`.
    pub(super) fn remove(&mut self, id: &ObstacleId) -> Option<(Obstacle, T)> {
        self.index_of(id).map(|at| self.0.remove(at).1)
    }

    /// True when nothing is kept.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each entry with its id, in id order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&ObstacleId, &(Obstacle, T))> + '_ {
        self.0.iter().map(|(id, entry)| (id, entry))
    }

    /// Each entry, in id order.
    pub(super) fn values(&self) -> impl Iterator<Item = &(Obstacle, T)> + '_ {
        self.0.iter().map(|(_, entry)| entry)
    }
}

impl<T> Obstacles<T> {
    /// The id the next obstacle added will get.
    pub(super) fn next_id(&self) -> ObstacleId {
        ObstacleId(self.next)
    }

    /// Keeps `obstacle` under [`next_id`](Self::next_id), and moves on to another id.
    pub(super) fn insert(&mut self, obstacle: Obstacle, blocks: T) -> ObstacleId {
        let id = ObstacleId(self.next);
        self.list.insert(id, (obstacle, blocks));
        self.next += 1;
        id
    }

    /// What obstacle `id` blocks, or [`Error::BadObstacle`] for an id this world does not
    /// have.
    pub(super) fn get(&self, id: ObstacleId) -> Result<&(Obstacle, T)> {
        self.list.get(&id).ok_or_else(|| unknown(id))
    }

    /// Takes obstacle `id` out of the list, or [`Error::BadObstacle`] for an id this world
    /// does not have.
    pub(super) fn take(&mut self, id: ObstacleId) -> Result<(Obstacle, T)> {
        self.list.remove(&id).ok_or_else(|| unknown(id))
    }

    /// Puts back what [`take`](Self::take) took (its place in the order is its id's).
    pub(super) fn put_back(&mut self, id: ObstacleId, entry: (Obstacle, T)) {
        self.list.insert(id, entry);
    }

    /// The shape of obstacle `id` as it was added ([`ObstacleWorld::obstacle`]).
    pub(super) fn shape(&self, id: ObstacleId) -> Option<&Obstacle> {
        self.list.get(&id).map(|(o, _)| o)
    }

    /// The obstacles in place, in the order they were added.
    pub(super) fn iter(&self) -> impl Iterator<Item = (ObstacleId, &Obstacle)> + '_ {
        self.list.iter().map(|(&id, (o, _))| (id, o))
    }
}

/// Where an obstacle on a layered navmesh lies (`surface_obstacles`): the polygon cut
/// out, and the polygons of the terrain (the mesh as given) of its floor that it
/// overlaps, sorted.
#[derive(Debug, Clone)]
pub(crate) struct Placed {
    pub(super) ring: Vec<DVec2>,
    pub(super) floor: Vec<PolyId>,
}

/// The error for an obstacle id a world does not have.
pub(super) fn unknown(id: ObstacleId) -> Error {
    Error::BadObstacle {
        reason: format!("no obstacle {} (never added, or removed already)", id.0),
    }
}

/// Checks a shape as every world does: finite coordinates, a disk of radius > 0, a box
/// with `min < max` on both axes, a convex polygon of at least 3 vertices and a positive
/// area. [`Obstacle::Cells`] passes (only a grid knows its cells).
pub(super) fn check_shape(obstacle: &Obstacle) -> Result<()> {
    let bad = |reason: String| Err(Error::BadObstacle { reason });
    let finite = |p: DVec2| p.is_finite();
    match obstacle {
        Obstacle::Disk { center, radius } => {
            if !(finite(*center) && radius.is_finite() && *radius > 0.0) {
                return bad(format!(
                    "a disk needs a finite centre and a radius > 0 (radius {})",
                    num(*radius)
                ));
            }
        }
        Obstacle::Box { min, max } => {
            if !(finite(*min) && finite(*max) && min.x < max.x && min.y < max.y) {
                return bad("a box needs finite corners with min < max on both axes".into());
            }
        }
        Obstacle::Polygon(points) => {
            if points.len() < 3 || !points.iter().all(|&p| finite(p)) {
                return bad("a polygon needs at least 3 finite vertices".into());
            }
            if convex_ccw(points).is_none() {
                return bad("a polygon obstacle must be convex, with a positive area".into());
            }
        }
        Obstacle::Cells(_) => {}
    }
    Ok(())
}

/// A box holding a shape (world units), after [`check_shape`], and the 16-gon a navmesh
/// cuts for a disk ([`disk_reach`]); `None` for [`Obstacle::Cells`] (a grid's own).
pub(super) fn shape_bounds(obstacle: &Obstacle) -> Option<Bounds> {
    let (mut lo, mut hi) = match obstacle {
        Obstacle::Disk { center, radius } => {
            let r = disk_reach(*center, *radius);
            (center - r, center + r)
        }
        Obstacle::Box { min, max } => (*min, *max),
        Obstacle::Polygon(points) => (points[0], points[0]),
        Obstacle::Cells(_) => return None,
    };
    if let Obstacle::Polygon(points) = obstacle {
        for &p in points {
            (lo, hi) = (lo.min(p), hi.max(p));
        }
    }
    Some(Bounds { min: lo, max: hi })
}

/// The number of sides of the polygon a navmesh cuts for a disk.
pub(crate) const DISK_SIDES: usize = 16;

/// How far the corners of the 16-gon a navmesh cuts for a disk lie from its centre: the
/// radius of the polygon circumscribed about the disk, grown by a few units in the last
/// place against rounding.
pub(super) fn disk_reach(center: DVec2, radius: f64) -> f64 {
    let half = std::f64::consts::PI / DISK_SIDES as f64;
    let slack = 8.0 * f64::EPSILON * (center.abs().max_element() + radius);
    (radius + slack) / half.cos() * (1.0 + 4.0 * f64::EPSILON)
}

impl Obstacles {
    /// Every cell some obstacle blocks.
    pub(crate) fn cells(&self) -> impl Iterator<Item = IVec2> + '_ {
        self.list
            .values()
            .flat_map(|(_, cells)| cells.iter().copied())
    }
}

/// True when `f` holds for a segment of `path` (a path of one point: its zero-length
/// segment).
pub(super) fn any_segment(path: &[DVec2], mut f: impl FnMut(DVec2, DVec2) -> bool) -> bool {
    match path {
        [p] => f(*p, *p),
        _ => path.windows(2).any(|s| f(s[0], s[1])),
    }
}

/// The polygon counter-clockwise, when it is convex with a positive area.
pub(super) fn convex_ccw(points: &[DVec2]) -> Option<Vec<DVec2>> {
    let n = points.len();
    let area: f64 = (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum();
    // (A NaN area fails too.)
    if area.is_nan() || area == 0.0 {
        return None;
    }
    let ring: Vec<DVec2> = if area > 0.0 {
        points.to_vec()
    } else {
        points.iter().rev().copied().collect()
    };
    let turns_left = (0..n).all(|i| {
        let (a, b, c) = (ring[i], ring[(i + 1) % n], ring[(i + 2) % n]);
        (b - a).perp_dot(c - b) >= 0.0
    });
    turns_left.then_some(ring)
}
