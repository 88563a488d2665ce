//! Temporary obstacles on a layered navmesh (issue 40): each is cut out of the polygons of
//! one floor, exactly, and the world walks the cut mesh.
//!
//! A plan-view shape names a place on every floor under it, so an obstacle lies on one
//! floor: the one under its shape ([`SurfaceWorld::add_obstacle`], refused where floors
//! overlap under it), or the one under a 3D point
//! ([`SurfaceWorld::add_obstacle_on_floor`]: a crate on the ground floor under a bridge).
//! Its shape is cut out of that floor's polygons (a disk as its circumscribed 16-gon,
//! `mesh_obstacles.rs`) and the surface built again
//! round the hole ([`Surface::cut_convex`]); the layered search, the sheets the plans cut
//! and every plan-view answer then see the cut mesh.

use std::sync::Arc;

use glam::{DVec2, DVec3};

use super::mesh_obstacles::{obstacle_ring, ring_blocks, segment_convex_distance};
use super::obstacles::{check_shape, shape_bounds, Placed};
use super::{Bounds, Obstacle, ObstacleId, ObstacleWorld, SurfaceWorld};
use crate::error::{num, Error, Result};
use crate::geometry::{convex_clip, convex_overlap};
use crate::navmesh::mesh::PolyId;
use crate::navmesh::{Surface, SurfaceMesh};

impl SurfaceWorld {
    /// Adds a temporary obstacle on the one floor under its plan-view shape: the shape is
    /// cut out of that floor's polygons exactly (a disk as its circumscribed 16-gon) and the
    /// surface is built again round the hole ([`mesh`](Self::mesh) is the cut mesh), for
    /// every query until [`remove_obstacle`](Self::remove_obstacle). The pieces of a cut
    /// polygon keep its area, flags, [reference](crate::navmesh::Surface::polygon_ref) and
    /// floor heights (its detail mesh clipped to them); links are kept. A shape over no
    /// polygon cuts nothing (and is kept, so that removing it is no error).
    ///
    /// Where floors overlap under the shape (a crate under a bridge), which floor it is on
    /// is not guessed: the obstacle is refused, and
    /// [`add_obstacle_on_floor`](Self::add_obstacle_on_floor) names the floor.
    ///
    /// Errors: [`Error::BadObstacle`] for a bad shape (as the flat world's: NaN or
    /// infinite coordinates, a disk of radius ≤ 0, an empty box, a polygon not convex or
    /// of zero area, [`Obstacle::Cells`]) or one over several floors;
    /// [`Error::NoFreeSpace`] when no polygon would be left. The world is unchanged on
    /// error.
    ///
    /// Cost: O(polygons) to find those under the shape, the cut, and the rebuild of the
    /// surface and its mesh (O(n log n), as loading it; on a mesh with one floor also its
    /// whole plan view's world). Suits doors and crates changed now and then, not every
    /// frame.
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
    /// use pathsmooth::world::Obstacle;
    /// use pathsmooth::{Pipeline, Preset, SurfaceWorld};
    /// // A corridor 6 × 3 (y up), and a door across it at x 2..3.
    /// let v = [DVec3::ZERO, DVec3::new(6.0, 0.0, 0.0), DVec3::new(6.0, 0.0, 3.0), DVec3::new(0.0, 0.0, 3.0)];
    /// let mesh = SurfaceMesh::new(Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Y, 0.0)?)?;
    /// let mut world = SurfaceWorld::new(mesh);
    /// let door = world.add_obstacle(Obstacle::Box { min: DVec2::new(2.0, -1.0), max: DVec2::new(3.0, 4.0) })?;
    /// let (a, b) = (DVec2::new(0.5, 1.5), DVec2::new(5.5, 1.5));
    /// assert!(Pipeline::preset(world.clone(), 0.0, Preset::Smooth)?.plan(a, b).is_err());
    /// world.remove_obstacle(door)?;
    /// assert!(Pipeline::preset(world, 0.0, Preset::Smooth)?.plan(a, b).is_ok());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<ObstacleId> {
        let ring = obstacle_ring(&obstacle)?;
        let floor = one_floor_under(self.terrain.surface(), &ring)?;
        self.place(obstacle, Placed { ring, floor })
    }

    /// Adds a temporary obstacle on the floor under `at` (a 3D point in the surface's
    /// axes, inside the shape in plan view, within the surface's
    /// [climb](crate::navmesh::Surface::climb) of that floor): the shape is cut out of the
    /// polygons of that floor that it overlaps — those reached from the one under `at`
    /// across shared edges without leaving the shape, and any other it overlaps whose
    /// floor lies within the climb of theirs there (pieces a bake left unjoined at one
    /// height) — and of no other floor. Otherwise as [`add_obstacle`](Self::add_obstacle).
    ///
    /// Errors: [`add_obstacle`](Self::add_obstacle)'s shape errors;
    /// [`Error::NonFinite`] for a NaN or infinite `at`; [`Error::OutsideMesh`] when no
    /// floor lies within the climb under or over `at`; [`Error::BadObstacle`] when
    /// `at` lies outside the shape in plan view; [`Error::NoFreeSpace`].
    pub fn add_obstacle_on_floor(&mut self, obstacle: Obstacle, at: DVec3) -> Result<ObstacleId> {
        let ring = obstacle_ring(&obstacle)?;
        let surface = self.terrain.surface();
        let plan = surface.up().plan(at);
        let start = surface.locate(at, surface.climb()).map_err(|e| match e {
            Error::NonFinite { .. } => e,
            _ => Error::OutsideMesh {
                what: "obstacle's floor point",
                x: plan.x,
                y: plan.y,
            },
        })?;
        if segment_convex_distance(&ring, plan, plan) > 0.0 {
            return Err(Error::BadObstacle {
                reason: format!(
                    "the point naming its floor, ({}, {}) in plan view, lies outside it",
                    num(plan.x),
                    num(plan.y)
                ),
            });
        }
        let floor = floor_reached(surface, start, &ring, at);
        self.place(obstacle, Placed { ring, floor })
    }

    /// The layered navmesh as given, without the obstacles ([`mesh`](Self::mesh) is the
    /// one walked on).
    pub fn terrain(&self) -> &SurfaceMesh {
        &self.terrain
    }

    /// True when obstacle `id`'s polygon comes closer than `radius` to a segment of
    /// `path` in plan view (at radius 0: a segment enters it), by more
    /// than the surface's weld tolerance: the cut rounds and welds the corners where the
    /// polygon's sides cross the surface's polygons, so the world's own paths may run that
    /// far inside a side. In plan
    /// view: a path on another floor over or under the obstacle counts too (a repair
    /// that then finds nothing to do). Errors: [`Error::BadObstacle`] for an unknown id.
    pub fn obstacle_blocks(&self, id: ObstacleId, path: &[DVec2], radius: f64) -> Result<bool> {
        let (_, placed) = self.obstacles.get(id)?;
        let slack = self.mesh().surface().straight_tolerance();
        Ok(ring_blocks(&placed.ring, path, radius, slack))
    }

    /// True when this world's sheet may hold a place within `radius` of obstacle `id` of
    /// `world` (a later state of this world, whose obstacle it is) on the obstacle's
    /// floor: a triangle of the sheet, of a polygon of that floor, whose box meets the
    /// obstacle's box grown by `radius`. An agent walking this sheet must then plan again
    /// on `world`. False without a sheet or for an id `world` does not have. Cost:
    /// O(triangles of the sheet).
    pub(crate) fn sheet_holds_floor_of(
        &self,
        world: &SurfaceWorld,
        id: ObstacleId,
        radius: f64,
    ) -> bool {
        let (Some(sheet), Ok((_, placed))) = (self.sheet(), world.obstacles.get(id)) else {
            return false;
        };
        let reach = ring_bounds(&placed.ring).grown(radius);
        let mesh = sheet.mesh();
        (0..mesh.num_triangles()).any(|t| {
            let [a, b, c] = mesh.triangle(t);
            if !reach.meets_inside(a.min(b).min(c), a.max(b).max(c)) {
                return false;
            }
            let polygon = self.mesh.polygon_of(sheet.surface_triangle(t));
            (placed.floor)
                .binary_search(&of_terrain(&self.origin, polygon))
                .is_ok()
        })
    }

    /// Cuts `placed` out of the mesh walked on and keeps it; the world unchanged on error.
    fn place(&mut self, obstacle: Obstacle, placed: Placed) -> Result<ObstacleId> {
        if let Some((surface, origin)) = self.cut(&self.mesh, &self.origin, &placed)? {
            self.install_mesh(Arc::new(SurfaceMesh::new(surface)?), origin);
        }
        Ok(self.obstacles.insert(obstacle, placed))
    }

    /// Cuts every obstacle out of the terrain again, in the order they were added, and
    /// walks the result; the world unchanged on error.
    pub(super) fn recut(&mut self) -> Result<()> {
        let mut mesh = Arc::clone(&self.terrain);
        let mut origin = Vec::new();
        for (_, placed) in self.obstacles.list.values() {
            if let Some((surface, next)) = self.cut(&mesh, &origin, placed)? {
                mesh = Arc::new(SurfaceMesh::new(surface)?);
                origin = next;
            }
        }
        self.install_mesh(mesh, origin);
        Ok(())
    }

    /// `mesh` (whose polygons come from the terrain's `origin`, empty: they are the
    /// terrain's) with `placed` cut out of the pieces of its floor, and the new polygons'
    /// terrain polygons; `None` when it cuts nothing.
    fn cut(
        &self,
        mesh: &SurfaceMesh,
        origin: &[PolyId],
        placed: &Placed,
    ) -> Result<Option<(Surface, Vec<PolyId>)>> {
        let of_terrain = |p: PolyId| of_terrain(origin, p);
        let chosen: Vec<PolyId> = (0..mesh.surface().num_polygons() as PolyId)
            .filter(|&p| placed.floor.binary_search(&of_terrain(p)).is_ok())
            .collect();
        let cut = mesh.surface().cut_convex(&chosen, &placed.ring)?;
        Ok(cut.map(|(surface, pieces)| {
            let origin = pieces.into_iter().map(of_terrain).collect();
            (surface, origin)
        }))
    }
}

impl SurfaceWorld {
    /// Removes an obstacle: the world is again exactly what it would be had it
    /// never been added (with no obstacle left, the mesh given, bit for bit).
    ///
    /// Errors: [`Error::BadObstacle`] for an id this world does not have (never
    /// added, or removed already); the world is unchanged on error. Cost: the
    /// remaining obstacles are cut out of the mesh as given again, each as
    /// [`add_obstacle`](Self::add_obstacle) does.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<()> {
        let entry = self.obstacles.take(id)?;
        // Put back if the others cannot be cut again: the world unchanged.
        self.recut()
            .inspect_err(|_| self.obstacles.put_back(id, entry))
    }

    /// The obstacles in place, in the order they were added.
    pub fn obstacles(&self) -> impl Iterator<Item = (ObstacleId, &Obstacle)> + '_ {
        self.obstacles.iter()
    }
}

impl ObstacleWorld for SurfaceWorld {
    fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<ObstacleId> {
        SurfaceWorld::add_obstacle(self, obstacle)
    }
    fn remove_obstacle(&mut self, id: ObstacleId) -> Result<()> {
        SurfaceWorld::remove_obstacle(self, id)
    }
    fn obstacle(&self, id: ObstacleId) -> Option<&Obstacle> {
        self.obstacles.shape(id)
    }
    fn obstacle_blocks(&self, id: ObstacleId, path: &[DVec2], radius: f64) -> Result<bool> {
        SurfaceWorld::obstacle_blocks(self, id, path, radius)
    }
    fn obstacle_bounds(&self, obstacle: &Obstacle) -> Result<Option<Bounds>> {
        check_shape(obstacle)?;
        Ok(shape_bounds(obstacle))
    }
}

/// The polygons of `surface` that the convex `ring` overlaps in plan view, in id order,
/// each with its plan-view corners.
fn polygons_under(surface: &Surface, ring: &[DVec2]) -> Vec<(PolyId, Vec<DVec2>)> {
    let b = ring_bounds(ring);
    (0..surface.num_polygons() as PolyId)
        .filter(|&p| {
            let (lo, hi) = surface.plan_bounds(p);
            b.meets_inside(lo, hi)
        })
        .map(|p| (p, surface.plan_polygon(p).collect::<Vec<_>>()))
        .filter(|(_, corners)| convex_overlap(ring, corners))
        .collect()
}

/// The polygons of `surface` that `ring` overlaps in plan view, sorted; refused when two
/// of them overlap each other (floors over one another under the shape).
fn one_floor_under(surface: &Surface, ring: &[DVec2]) -> Result<Vec<PolyId>> {
    let under = polygons_under(surface, ring);
    let b = ring_bounds(ring);
    // Neighbours on one floor meet along their sides; a floor over another overlaps it
    // by more than the rounding of the vertices they share, more than the climb above or
    // below it (pieces a bake duplicated at one height are one floor).
    let slack = 4.0
        * surface
            .weld_tolerance()
            .max(crate::geometry::tolerance_at(b.max_magnitude()));
    let climb = surface.climb();
    let floors_apart = |(p, a): &(PolyId, Vec<DVec2>), (q, b): &(PolyId, Vec<DVec2>)| {
        overlap_depth(a, b) > slack
            && inside_both(a, b).is_some_and(|c| {
                (surface.floor_height(*p, c) - surface.floor_height(*q, c)).abs() > climb
            })
    };
    for (i, a) in under.iter().enumerate() {
        if under[i + 1..].iter().any(|b| floors_apart(a, b)) {
            let centre = 0.5 * (b.min + b.max);
            return Err(Error::BadObstacle {
                reason: format!(
                    "it lies over more than one floor about ({}, {}): add it with \
                     add_obstacle_on_floor to say which",
                    num(centre.x),
                    num(centre.y)
                ),
            });
        }
    }
    Ok(under.into_iter().map(|(p, _)| p).collect())
}

/// The polygons of the floor under `at` (on polygon `start`) that `ring` overlaps in plan
/// view, sorted: those reached from `start` across shared edges without leaving the ring,
/// and any other the ring overlaps whose floor lies within the climb of theirs (or of
/// `at`'s) where they overlap: pieces that a bake left unjoined at one height (tile
/// seams, duplicated polygons) are the same floor to a crate.
fn floor_reached(surface: &Surface, start: PolyId, ring: &[DVec2], at: DVec3) -> Vec<PolyId> {
    let under = polygons_under(surface, ring);
    let index = |p: PolyId| under.binary_search_by_key(&p, |(q, _)| *q).ok();
    let mut joined = vec![false; under.len()];
    if let Some(k) = index(start) {
        joined[k] = true;
    }
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        for q in surface.neighbors(p).flatten() {
            if let Some(k) = index(q).filter(|&k| !joined[k]) {
                joined[k] = true;
                stack.push(q);
            }
        }
    }
    let (climb, at_height) = (surface.climb(), surface.up().split(at).1);
    let reached: Vec<PolyId> = (under.iter().zip(&joined))
        .filter_map(|((p, _), &j)| j.then_some(*p))
        .collect();
    // An unjoined polygon is on the floor when, at a point inside it and the ring, its
    // floor lies within the climb of a reached polygon's there (of `at`'s, with none).
    let level_with_reached = |p: PolyId, corners: &[DVec2]| {
        let Some(c) = inside_both(corners, ring) else {
            return false;
        };
        let h = surface.floor_height(p, c);
        let mut there = (reached.iter())
            .filter(|&&q| surface.contains_plan(q, c))
            .map(|&q| surface.floor_height(q, c))
            .peekable();
        match there.peek() {
            None => (h - at_height).abs() <= climb,
            Some(_) => there.any(|g| (g - h).abs() <= climb),
        }
    };
    (under.iter().zip(&joined))
        .filter(|&((p, corners), &j)| j || level_with_reached(*p, corners))
        .map(|((p, _), _)| *p)
        .collect()
}

/// A point inside both convex polygons (the centroid of the corners of their overlap),
/// `None` when they do not overlap.
fn inside_both(a: &[DVec2], b: &[DVec2]) -> Option<DVec2> {
    let part = convex_clip(a, b);
    (part.len() >= 3).then(|| part.iter().copied().sum::<DVec2>() / part.len() as f64)
}

/// How deep the convex polygons `a` and `b` overlap in plan view: the least overlap of
/// their spans along their sides' unit normals (≤ 0 when apart or touching).
fn overlap_depth(a: &[DVec2], b: &[DVec2]) -> f64 {
    let normals = |p: &[DVec2]| {
        let n = p.len();
        (0..n)
            .map(|i| (p[(i + 1) % n] - p[i]).perp().normalize_or_zero())
            .collect::<Vec<_>>()
    };
    let span = |p: &[DVec2], axis: DVec2| {
        p.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), q| {
                let d = q.dot(axis);
                (lo.min(d), hi.max(d))
            })
    };
    normals(a)
        .into_iter()
        .chain(normals(b))
        .filter(|axis| *axis != DVec2::ZERO)
        .map(|axis| {
            let ((a0, a1), (b0, b1)) = (span(a, axis), span(b, axis));
            a1.min(b1) - a0.max(b0)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The polygon of the terrain that polygon `p` of a mesh cut from it is (a piece of), by
/// the mesh's `origin` (empty: the mesh is the terrain).
fn of_terrain(origin: &[PolyId], p: PolyId) -> PolyId {
    origin.get(p as usize).copied().unwrap_or(p)
}

/// The plan-view box of a shape's polygon (never empty).
fn ring_bounds(ring: &[DVec2]) -> Bounds {
    Bounds::around(ring.iter().copied()).expect("a shape's polygon has corners")
}
