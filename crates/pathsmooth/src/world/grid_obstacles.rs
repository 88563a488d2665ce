//! Temporary obstacles on a grid world (issue 30; the shapes, their checks and the list are
//! [`super::obstacles`]): each obstacle blocks the cells its shape overlaps; every query
//! (clearance, segments, search, the navmesh) sees them; removing one gives back the world
//! it was, exactly.
//!
//! Cost: adding or removing an obstacle copies the map's cells (O(width × height) bytes)
//! and patches the exact distance field only near the obstacle: within the largest
//! clearance of the map without obstacles, each centre and vertex becomes the least of its
//! distance to the bare map's walls (kept from the first change) and to each obstacle cell,
//! which is exactly what a rebuild gives ([`DistanceField`](crate::grid::distance::DistanceField)
//! is the distance to a union of squares). The navmesh is rebuilt on next use. That suits
//! doors and crates, changed a few times a second, not obstacles that move every frame.

use std::collections::HashSet;

use glam::{DVec2, IVec2};

use super::obstacles::{any_segment, check_shape, convex_ccw, shape_bounds};
use super::{Bounds, GridWorld, Obstacle, ObstacleId, ObstacleWorld};
use crate::error::{Error, Result};

impl GridWorld {
    /// Adds a temporary obstacle: the cells its shape overlaps become walls for every
    /// query until [`remove_obstacle`](Self::remove_obstacle). A shape wholly outside the
    /// map blocks nothing (and is kept, so that removing it is no error).
    ///
    /// Errors: [`Error::BadObstacle`] for a NaN or infinite coordinate, a disk of radius
    /// ≤ 0, an empty box, a polygon of fewer than 3 vertices or not convex or of zero area,
    /// a cell outside the map; [`Error::NoFreeSpace`] when it would block every free cell.
    /// The world is unchanged on error. Cost: a copy of the map's cells (O(width × height)
    /// bytes) and a patch of the exact distance field within the largest clearance of the
    /// map around the obstacle, equal to a rebuild; the first change also keeps the field
    /// without obstacles (a rebuild). The navmesh is built again on next use.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::world::Obstacle;
    /// use pathsmooth::{GridMap, GridWorld, World};
    /// let mut world = GridWorld::new(GridMap::from_rows(&["......"; 3])?)?;
    /// let (a, b) = (DVec2::new(0.5, 1.5), DVec2::new(5.5, 1.5));
    /// let door = world.add_obstacle(Obstacle::Box { min: DVec2::new(2.0, 0.0), max: DVec2::new(3.0, 3.0) })?;
    /// assert!(!world.segment_is_clear(a, b, 0.0));
    /// assert!(world.find_path(a, b, 0.0).is_err()); // the door closes the way
    /// world.remove_obstacle(door)?;
    /// assert!(world.segment_is_clear(a, b, 0.0));
    /// assert!(world.remove_obstacle(door).is_err()); // twice
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<ObstacleId> {
        let cells = self.obstacle_cells(&obstacle)?;
        let mut map = self.map().clone();
        map.block(cells.iter().copied());
        let (lo, hi) = cell_box(&cells);
        let id = self.obstacles.next_id();
        let bare_now = self.obstacles.list.is_empty();
        self.obstacles.list.insert(id, (obstacle, cells));
        if let Err(e) = self.patch(map, lo, hi, bare_now) {
            self.obstacles.list.remove(&id);
            return Err(e);
        }
        self.obstacles.next += 1;
        Ok(id)
    }

    /// Removes an obstacle: the world is again exactly what it was without it (the same
    /// cells, the same distance field).
    ///
    /// Errors: [`Error::BadObstacle`] for an id this world does not have (never added, or
    /// removed already). Cost: as [`add_obstacle`](Self::add_obstacle)'s.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<()> {
        let (obstacle, cells) = self.obstacles.take(id)?;
        // A cell opens when the bare map has it open and no other obstacle covers it.
        let bare = self.bare_map();
        let mut map = self.map().clone();
        let still: HashSet<IVec2> = self.obstacles.cells().collect();
        map.open(
            cells
                .iter()
                .copied()
                .filter(|c| bare.is_passable(c.x as i64, c.y as i64) && !still.contains(c)),
        );
        let (lo, hi) = cell_box(&cells);
        // Opening cells cannot take away the last free one.
        self.patch(map, lo, hi, false)
            .inspect_err(|_| self.obstacles.put_back(id, (obstacle, cells)))
    }

    /// The obstacles in place, in the order they were added.
    pub fn obstacles(&self) -> impl Iterator<Item = (ObstacleId, &Obstacle)> + '_ {
        self.obstacles.iter()
    }

    /// True when the obstacle `id` takes away what `path` needs for an agent of `radius`:
    /// a segment comes closer than `radius` to one of its cells (at radius 0: enters one).
    /// What finds the corridors a closing door affects. Cost: O(segments) for the segments
    /// outside the obstacle's bounding box grown by the radius, O(its cells) for the others;
    /// allocates nothing.
    ///
    /// Errors: [`Error::BadObstacle`] for an unknown id.
    pub fn obstacle_blocks(&self, id: ObstacleId, path: &[DVec2], radius: f64) -> Result<bool> {
        let (_, cells) = self.obstacles.get(id)?;
        let r = radius / self.cell_size();
        // The cells' bounding box grown by the radius: a segment that misses it is far
        // from every cell, so most of a long path costs four comparisons a segment.
        let squares = cells
            .iter()
            .flat_map(|c| [c.as_dvec2(), c.as_dvec2() + 1.0]);
        let Some(reach) = Bounds::around(squares).map(|b| b.grown(r)) else {
            return Ok(false); // wholly outside the map: it blocks nothing
        };
        Ok(any_segment(path, |a, b| {
            let (a, b) = (self.to_grid(a), self.to_grid(b));
            reach.meets_box_of(a, b)
                && cells
                    .iter()
                    .any(|c| segment_meets_square(a, b, c.as_dvec2(), r))
        }))
    }

    /// The cells `obstacle` blocks, after checking it.
    fn obstacle_cells(&self, obstacle: &Obstacle) -> Result<Vec<IVec2>> {
        check_shape(obstacle)?;
        let bad = |reason: String| Err(Error::BadObstacle { reason });
        let (w, h) = (self.map().width() as i32, self.map().height() as i32);
        // The cells of the shape's bounding box (clamped to the map), tested one by one.
        let in_box = |lo: DVec2, hi: DVec2, meets: &dyn Fn(DVec2) -> bool| {
            let (lo, hi) = (self.to_grid(lo).floor(), self.to_grid(hi).floor());
            let (x0, y0) = ((lo.x as i64).max(0), (lo.y as i64).max(0));
            let (x1, y1) = (
                (hi.x as i64).min(w as i64 - 1),
                (hi.y as i64).min(h as i64 - 1),
            );
            let mut cells = Vec::new();
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if meets(DVec2::new(x as f64, y as f64)) {
                        cells.push(IVec2::new(x as i32, y as i32));
                    }
                }
            }
            cells
        };
        let s = self.cell_size();
        match obstacle {
            Obstacle::Disk { center, radius } => {
                let c = self.to_grid(*center);
                let r = radius / s;
                Ok(in_box(*center - *radius, *center + *radius, &|lo| {
                    let nearest = c.clamp(lo, lo + DVec2::ONE);
                    nearest.distance_squared(c) < r * r
                }))
            }
            Obstacle::Box { min, max } => {
                let (a, b) = (self.to_grid(*min), self.to_grid(*max));
                Ok(in_box(*min, *max, &|lo| {
                    lo.x < b.x && lo.x + 1.0 > a.x && lo.y < b.y && lo.y + 1.0 > a.y
                }))
            }
            Obstacle::Polygon(points) => {
                let g: Vec<DVec2> = points.iter().map(|&p| self.to_grid(p)).collect();
                let Some(ring) = convex_ccw(&g) else {
                    return bad("a polygon obstacle must be convex, with a positive area".into());
                };
                let (lo, hi) = points.iter().fold((points[0], points[0]), |(lo, hi), &p| {
                    (lo.min(p), hi.max(p))
                });
                Ok(in_box(lo, hi, &|cell| polygon_meets_square(&ring, cell)))
            }
            Obstacle::Cells(cells) => {
                if let Some(c) = cells
                    .iter()
                    .find(|c| !(0..w).contains(&c.x) || !(0..h).contains(&c.y))
                {
                    return bad(format!(
                        "cell ({}, {}) is outside the {w} × {h} map",
                        c.x, c.y
                    ));
                }
                Ok(cells.clone())
            }
        }
    }
}

impl ObstacleWorld for GridWorld {
    fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<ObstacleId> {
        GridWorld::add_obstacle(self, obstacle)
    }
    fn remove_obstacle(&mut self, id: ObstacleId) -> Result<()> {
        GridWorld::remove_obstacle(self, id)
    }
    fn obstacle(&self, id: ObstacleId) -> Option<&Obstacle> {
        self.obstacles.shape(id)
    }
    fn obstacle_blocks(&self, id: ObstacleId, path: &[DVec2], radius: f64) -> Result<bool> {
        GridWorld::obstacle_blocks(self, id, path, radius)
    }
    /// The shape's box out to the cell lines round it (a shape blocks whole cells), or
    /// the cells' box; the cells' own checks are [`add_obstacle`](Self::add_obstacle)'s.
    fn obstacle_bounds(&self, obstacle: &Obstacle) -> Result<Option<Bounds>> {
        check_shape(obstacle)?;
        let (lo, hi) = match (obstacle, shape_bounds(obstacle)) {
            (Obstacle::Cells(cells), _) if cells.is_empty() => return Ok(None),
            (Obstacle::Cells(cells), _) => {
                let (lo, hi) = cell_box(cells);
                (lo.as_dvec2(), hi.as_dvec2())
            }
            (_, Some(b)) => (self.to_grid(b.min).floor(), self.to_grid(b.max).floor()),
            (_, None) => return Ok(None),
        };
        Ok(Some(Bounds::new(
            self.to_world(lo),
            self.to_world(hi + 1.0),
        )))
    }
}

/// The smallest box `lo..=hi` holding `cells` (`lo > hi` when there are none).
fn cell_box(cells: &[IVec2]) -> (IVec2, IVec2) {
    cells.iter().fold((IVec2::MAX, IVec2::MIN), |(lo, hi), &c| {
        (lo.min(c), hi.max(c))
    })
}

/// True when the open convex polygon `ring` (counter-clockwise) and the closed unit square
/// at `lo` overlap: no separating axis among the square's and the polygon's edge normals
/// (strict overlap on every axis).
fn polygon_meets_square(ring: &[DVec2], lo: DVec2) -> bool {
    let square = [lo, lo + DVec2::X, lo + DVec2::ONE, lo + DVec2::Y];
    crate::geometry::convex_overlap(ring, &square)
}

/// True when the segment `a`–`b` comes closer than `r` to the closed unit square at `lo`
/// (at `r` = 0: enters its open inside).
fn segment_meets_square(a: DVec2, b: DVec2, lo: DVec2, r: f64) -> bool {
    if r == 0.0 {
        return crate::grid::los::segment_enters_open_box(a, b, lo, lo + DVec2::ONE);
    }
    crate::grid::distance::seg_square_dist2(a, b, lo.x, lo.y, f64::INFINITY) < r * r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::distance::DistanceField;
    use crate::{GridMap, World};
    use proptest::prelude::*;

    fn open(w: usize, h: usize) -> GridWorld {
        GridWorld::new(GridMap::from_fn(w, h, |_, _| true)).unwrap()
    }

    #[test]
    fn shapes_block_the_cells_they_overlap() {
        let mut world = open(6, 6);
        let disk = world
            .add_obstacle(Obstacle::Disk {
                center: DVec2::new(2.5, 2.5),
                radius: 0.5,
            })
            .unwrap();
        assert_eq!(world.map().passable_count(), 35); // its own cell only
        world.remove_obstacle(disk).unwrap();
        let tri = Obstacle::Polygon(vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(0.0, 2.0),
        ]);
        let id = world.add_obstacle(tri).unwrap();
        // Cells (0,0), (1,0), (0,1); (1,1) only touches the hypotenuse at its corner.
        assert_eq!(world.map().passable_count(), 33);
        assert!(world.map().is_passable(1, 1));
        world.remove_obstacle(id).unwrap();
        assert_eq!(world.map().passable_count(), 36);
    }

    #[test]
    fn bad_obstacles_are_errors_and_change_nothing() {
        let mut world = open(4, 4);
        // The shapes no world takes, and a cell off the map.
        let mut bad = crate::test_fixtures::bad_shapes();
        bad.push(Obstacle::Cells(vec![IVec2::new(4, 0)]));
        for o in bad {
            assert!(
                matches!(
                    world.add_obstacle(o.clone()),
                    Err(Error::BadObstacle { .. })
                ),
                "{o:?}"
            );
        }
        assert_eq!(world.map().passable_count(), 16);
        let all = Obstacle::Box {
            min: DVec2::splat(-1.0),
            max: DVec2::splat(5.0),
        };
        assert_eq!(world.add_obstacle(all), Err(Error::NoFreeSpace));
        assert_eq!(world.obstacles().count(), 0);
    }

    #[test]
    fn removing_every_obstacle_restores_the_world_exactly() {
        let map = GridMap::from_rows(&["........", "..@.....", "........", "....@..."]).unwrap();
        let original = GridWorld::new(map.clone()).unwrap();
        let mut world = GridWorld::new(map).unwrap();
        let ids: Vec<ObstacleId> = [
            Obstacle::Disk {
                center: DVec2::new(6.0, 1.0),
                radius: 0.7,
            },
            Obstacle::Cells(vec![IVec2::new(0, 3)]),
            Obstacle::Box {
                min: DVec2::new(3.2, 2.2),
                max: DVec2::new(3.8, 2.8),
            },
        ]
        .into_iter()
        .map(|o| world.add_obstacle(o).unwrap())
        .collect();
        let q = DVec2::new(5.3, 2.1);
        assert!(world.clearance(q) < original.clearance(q));
        // The path along row 2 meets the box, not the others.
        let path = [DVec2::new(0.5, 2.5), DVec2::new(7.5, 2.5)];
        let touched: Vec<bool> = ids
            .iter()
            .map(|&id| world.obstacle_blocks(id, &path, 0.0).unwrap())
            .collect();
        assert_eq!(touched, [false, false, true]);
        for id in ids.into_iter().rev() {
            world.remove_obstacle(id).unwrap();
        }
        assert_eq!(world.map(), original.map());
        for y in 0..4 {
            for x in 0..8 {
                let p = DVec2::new(x as f64 + 0.3, y as f64 + 0.6);
                assert_eq!(world.clearance(p), original.clearance(p));
            }
        }
    }

    proptest! {
        /// The patched field is the rebuilt one, bit for bit, after any sequence of
        /// additions and removals (overlapping obstacles, walls under them, map borders),
        /// with the area costs set again now and then (which drops the bare field kept
        /// since the first obstacle, obstacles or not).
        #[test]
        fn a_patched_field_equals_a_rebuilt_one(
            (w, h, walls) in (1usize..14, 1usize..14).prop_flat_map(|(w, h)| {
                (Just(w), Just(h),
                 proptest::collection::vec(proptest::bool::weighted(0.2), w * h))
            }),
            ops in proptest::collection::vec((0u8..5, 0.0f64..1.0, 0.0f64..1.0, 0.1f64..4.0), 1..12),
        ) {
            let map = GridMap::from_fn(w, h, |x, y| !walls[y * w + x] || (x == 0 && y == 0));
            let mut world = GridWorld::new(map).unwrap();
            let mut ids = Vec::new();
            for (kind, fx, fy, size) in ops {
                let c = DVec2::new(fx * w as f64, fy * h as f64);
                if kind == 0 && !ids.is_empty() {
                    let id = ids.remove((fx * ids.len() as f64) as usize % ids.len());
                    world.remove_obstacle(id).unwrap();
                } else if kind == 4 {
                    world.set_area_costs(crate::AreaCosts::default()).unwrap();
                } else {
                    let o = match kind {
                        1 => Obstacle::Disk { center: c, radius: size / 2.0 },
                        2 => Obstacle::Cells(vec![IVec2::new(c.x as i32, c.y as i32)]),
                        _ => Obstacle::Box { min: c, max: c + DVec2::new(size, size / 2.0) },
                    };
                    match world.add_obstacle(o) {
                        Ok(id) => ids.push(id),
                        Err(e) => prop_assert_eq!(e, Error::NoFreeSpace),
                    }
                }
                let rebuilt = DistanceField::new(world.map());
                prop_assert!(world.field() == &rebuilt);
            }
        }
    }
}
