//! "Keep the route": a world cut down to the cells a path passes through.
//!
//! A planner may have chosen its cells for cover or safety, not only for cost; a smoother
//! that skips nodes throws that choice away. The answer of the source article on navmesh
//! smoothing (seed 004, *Grandpa, tell us another story about pathfinding*) is to move
//! the path only *within the polygons that were found* (its portal relaxation).
//! [`GridWorld::route_world`] and [`SurfaceWorld::route_world`] do that for any step: they
//! return the world whose free space is the cells or polygons the path touches (with a
//! margin of more if asked), so every step run on it keeps to the route.

use glam::{DVec2, IVec2};

use super::{check_input, GridWorld, SurfaceWorld};
use crate::error::{Error, Result};
use crate::geometry::Point2;
use crate::grid::map::GridMap;
use crate::navmesh::mesh::{NavMesh, TriId};
use crate::navmesh::SurfaceMesh;

impl GridWorld {
    /// The world restricted to the route of `path`: a cell stays free when it is free here
    /// and lies within `margin` cells (king's moves) of a cell whose closed square the path
    /// touches; every other cell is a wall. The path itself is as valid on the result as
    /// it is here (for radii below half a cell with `margin` 0; widen `margin` for larger
    /// agents), so any [`Pipeline`](crate::Pipeline) run on the result smooths the path
    /// without leaving the planner's cells. The result keeps the cell size, the area
    /// costs, and world coordinates (it covers only the route's bounding box, plus the
    /// margin and one cell).
    ///
    /// Cost: O(cells the path touches + the route's bounding box), plus building the
    /// smaller world (its distance field over the bounding box).
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks)
    /// for `path` (at least one point, finite, inside the world), [`crate::Error::NoFreeSpace`]
    /// when the path touches no free cell.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{GridMap, GridWorld, Pipeline, Preset, World};
    /// let world = GridWorld::new(GridMap::from_rows(&["......", "......", "......"])?)?;
    /// // The planner kept to the top row (cover, say), then went down at the end.
    /// let planned = [DVec2::new(0.5, 0.5), DVec2::new(4.5, 0.5), DVec2::new(5.5, 2.5)];
    /// let route = world.route_world(&planned, 0)?;
    /// let mut pipeline = Pipeline::preset(&route, 0.0, Preset::Smooth)?;
    /// let smooth = pipeline.smooth(&planned)?;
    /// assert!(smooth.iter().all(|p| route.clearance(*p) >= 0.0));
    /// // The first row's cells and those the last leg crosses: not the bottom left.
    /// assert!(!route.map().is_passable(0, 2));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn route_world<P: Point2>(&self, path: &[P], margin: usize) -> Result<GridWorld> {
        let mut points = Vec::new();
        check_input(self, path, 1, "route_world", 0.0, &mut points)?;
        let touched = self.touched_cells(&points);
        let m = margin.min(i32::MAX as usize / 4) as i32;
        let (w, h) = (self.map().width() as i32, self.map().height() as i32);
        let lo = touched.iter().fold(IVec2::MAX, |a, &c| a.min(c)) - (m + 1);
        let hi = touched.iter().fold(IVec2::MIN, |a, &c| a.max(c)) + (m + 1);
        let (lo, hi) = (lo.max(IVec2::ZERO), hi.min(IVec2::new(w - 1, h - 1)));
        let size = (hi - lo + 1).as_uvec2();
        let (sw, sh) = (size.x as usize, size.y as usize);
        let mut on_route = vec![false; sw * sh];
        for c in &touched {
            let q = *c - lo;
            on_route[q.y as usize * sw + q.x as usize] = true;
        }
        dilate(&mut on_route, sw, sh, margin);
        let (map, terrain) = (self.map(), self.terrain());
        let at = |x: usize, y: usize| (x + lo.x as usize, y + lo.y as usize);
        let mut passable = Vec::with_capacity(sw * sh);
        let mut areas = Vec::with_capacity(sw * sh);
        for y in 0..sh {
            for x in 0..sw {
                let (gx, gy) = at(x, y);
                let keep = on_route[y * sw + x];
                passable.push(keep && map.is_passable(gx as i64, gy as i64));
                // Off the route even water is a wall, whatever its cost.
                areas.push(if keep {
                    terrain.area(gx, gy)
                } else {
                    crate::grid::map::WALL
                });
            }
        }
        let sub = GridMap::from_parts(sw, sh, passable, areas);
        let origin = self.to_world(lo.as_dvec2());
        GridWorld::with_frame(sub, self.cell_size(), origin)?
            .with_area_costs(self.area_costs().clone())
    }

    /// The cells (of the map) whose closed squares the polyline `points` (world units)
    /// touches, each once, in no particular order. Column by column: within the strip
    /// x ∈ [k, k + 1] a segment spans y ∈ [y₀, y₁], which meets the closed squares of rows
    /// ⌈y₀⌉ − 1 to ⌊y₁⌋.
    fn touched_cells(&self, points: &[DVec2]) -> Vec<IVec2> {
        let map = self.map();
        let (w, h) = (map.width() as i64, map.height() as i64);
        let mut seen = std::collections::HashSet::new();
        let mut mark = |x: i64, y: i64| {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                seen.insert(IVec2::new(x as i32, y as i32));
            }
        };
        // A one-point path is the segment from the point to itself.
        let ends = (0..points.len().saturating_sub(1).max(1))
            .map(|i| (points[i], points[(i + 1).min(points.len() - 1)]));
        for (a, b) in ends {
            let (a, b) = (self.to_grid(a), self.to_grid(b));
            let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
            for k in (x0.ceil() as i64 - 1)..=(x1.floor() as i64) {
                // The part of the segment within the strip [k, k + 1].
                let (s, e) = (x0.max(k as f64), x1.min(k as f64 + 1.0));
                let y_at = |x: f64| {
                    if a.x == b.x {
                        None
                    } else {
                        Some(a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
                    }
                };
                let (ylo, yhi) = match (y_at(s), y_at(e)) {
                    (Some(p), Some(q)) => (p.min(q), p.max(q)),
                    _ => (a.y.min(b.y), a.y.max(b.y)),
                };
                for y in (ylo.ceil() as i64 - 1)..=(yhi.floor() as i64) {
                    mark(k, y);
                }
            }
        }
        seen.into_iter().collect()
    }
}

impl SurfaceWorld {
    /// The world restricted to the route of `path` on a navmesh of one floor: the
    /// polygons whose triangles the path crosses or touches (a corner at a mesh vertex
    /// keeps every polygon around it), plus `margin` rings of neighbouring polygons
    /// (across open edges); every other part of the mesh is a wall. The result keeps the
    /// coordinates, the area costs, and each kept polygon as it is here (its corners,
    /// area, flags, [reference](crate::navmesh::Surface::polygon_ref) and detail mesh), in
    /// this mesh's order; the obstacles in place are cut into it (their pieces keep their
    /// polygons' references), not kept as obstacles, and the off-mesh links are left out.
    /// At radius 0 the path is valid on it; with a radius, the route's new walls may come
    /// closer to the path than the radius, so give a margin of 1 or more, or let the
    /// pipeline re-plan the stretches that do (within the route).
    ///
    /// Cost: O(triangles the path crosses + the route's triangles × margin), plus building
    /// the route's surface and world.
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks)
    /// for `path`; [`Error::NoFreeSpace`] when the path touches no triangle (it lies
    /// outside the mesh); [`Error::Unsupported`] on a surface with floors over one another.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// use pathsmooth::{SurfaceWorld, World};
    /// // Three unit squares in a row and one above the middle, references 10 to 13.
    /// let v = [(0., 0.), (1., 0.), (2., 0.), (3., 0.), (3., 1.), (2., 1.), (1., 1.), (0., 1.), (1., 2.), (2., 2.)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let squares = [vec![0, 1, 6, 7], vec![1, 2, 5, 6], vec![2, 3, 4, 5], vec![6, 5, 9, 8]];
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &squares, &[10, 11, 12, 13])?;
    /// let world = SurfaceWorld::from_navmesh(&mesh)?;
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(1.5, 0.5)];
    /// let route = world.route_world(&path, 0)?;
    /// assert!(route.segment_is_clear(path[0], path[1], 0.0));
    /// assert!(!route.segment_is_clear(path[0], DVec2::new(2.5, 0.5), 0.0)); // the third square
    /// assert!(!route.segment_is_clear(path[1], DVec2::new(1.5, 1.5), 0.0)); // the one above
    /// // The route's polygons are the first two squares, with their references.
    /// let kept = route.mesh().surface();
    /// assert_eq!((kept.num_polygons(), kept.polygon_ref(0), kept.polygon_ref(1)), (2, 10, 11));
    /// // One ring more: every square.
    /// let wide = world.route_world(&path, 1)?;
    /// assert!(wide.segment_is_clear(path[0], DVec2::new(2.5, 0.5), 0.0));
    /// assert!(wide.segment_is_clear(path[1], DVec2::new(1.5, 1.5), 0.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn route_world<P: Point2>(&self, path: &[P], margin: usize) -> Result<SurfaceWorld> {
        let Some((sheet, flat)) = self.one_floor_sheet() else {
            return Err(Error::Unsupported {
                what: "route_world",
                needs: "a navmesh of one floor (no floors over one another)",
            });
        };
        let surface = self.mesh.surface();
        // The whole plan mesh is the sheet: its triangle t is the surface's triangle
        // `sheet.surface_triangle(t)`, of the polygon `polygon_of` that. The route walks
        // the sheet's own mesh (the flat world's drops the triangles of excluded areas,
        // and numbers the others anew), keeping out of excluded areas.
        let polygon_of = |t: TriId| self.mesh.polygon_of(sheet.surface_triangle(t)) as usize;
        let costs = flat.area_costs();
        let free = |t: TriId| !costs.is_excluded(sheet.mesh().area_of(t));
        let mut points = Vec::new();
        check_input(flat, path, 1, "route_world", 0.0, &mut points)?;
        let keep = route_polygons(
            sheet.mesh(),
            &points,
            margin,
            surface.num_polygons(),
            polygon_of,
            free,
        )?;
        let route = SurfaceWorld::new(SurfaceMesh::new(surface.keep_polygons(&keep)?)?);
        match self.area_costs() {
            Some(costs) => route.with_area_costs(costs.clone()),
            None => Ok(route),
        }
    }
}

/// The polygons of [`SurfaceWorld::route_world`] for the path `points` on `mesh`, one flag
/// per polygon of `polygons`: `polygon_of` is the polygon of each triangle of the mesh,
/// and only the triangles that are `free` join the route.
fn route_polygons(
    mesh: &NavMesh,
    points: &[DVec2],
    margin: usize,
    polygons: usize,
    polygon_of: impl Fn(TriId) -> usize,
    free: impl Fn(TriId) -> bool,
) -> Result<Vec<bool>> {
    let n = mesh.num_triangles();
    let mut touched = vec![false; n];
    let mut crossed: Vec<TriId> = Vec::new();
    for (i, &p) in points.iter().enumerate() {
        let Some(t) = mesh.locate(p) else { continue };
        // Every triangle around `p` (it may lie on an edge or a vertex).
        mark_around(mesh, t, p, &mut touched);
        if let Some(&q) = points.get(i + 1) {
            crossed.clear();
            crossed.push(t);
            mesh.walk(t, p, q, &mut |u| crossed.push(u), true);
            for &c in &crossed {
                touched[c] = true;
            }
        }
    }
    // Whole polygons (a polygon's triangles share its area: free alike), then `margin`
    // rings of free neighbours.
    let mut kept = vec![false; polygons];
    let mut whole = |touched: &mut Vec<bool>| {
        for t in (0..n).filter(|&t| touched[t] && free(t)) {
            kept[polygon_of(t)] = true;
        }
        for (t, k) in touched.iter_mut().enumerate() {
            *k = kept[polygon_of(t)];
        }
    };
    whole(&mut touched);
    for _ in 0..margin.min(n) {
        let ring: Vec<TriId> = (0..n)
            .filter(|&t| touched[t])
            .flat_map(|t| mesh.neighbors(t).into_iter().flatten())
            .filter(|&u| free(u))
            .collect();
        if ring.iter().all(|&u| touched[u]) {
            break;
        }
        for u in ring {
            touched[u] = true;
        }
        whole(&mut touched);
    }
    if !kept.iter().any(|&k| k) {
        return Err(Error::NoFreeSpace);
    }
    Ok(kept)
}

/// Marks every triangle whose closed triangle holds `p`, walking from `t` (which does)
/// across the edges around `p`.
fn mark_around(mesh: &NavMesh, t: TriId, p: DVec2, touched: &mut [bool]) {
    let mut stack = vec![t];
    let mut seen = vec![t];
    while let Some(u) = stack.pop() {
        touched[u] = true;
        for w in mesh.neighbors(u).into_iter().flatten() {
            if !seen.contains(&w) && mesh.triangle_contains(w, p) {
                seen.push(w);
                stack.push(w);
            }
        }
    }
}

/// Grows the marked cells of a `w` × `h` mask by `margin` king's moves (a Chebyshev
/// dilation), as two passes of a sliding window (rows, then columns): O(w × h) whatever
/// the margin.
fn dilate(mask: &mut [bool], w: usize, h: usize, margin: usize) {
    if margin == 0 {
        return;
    }
    // Each cell marked when a marked cell lies within `margin` along the line.
    let line = |len: usize, at: &dyn Fn(usize) -> usize, mask: &mut [bool]| {
        let marked: Vec<bool> = (0..len).map(|i| mask[at(i)]).collect();
        let mut last = None::<usize>;
        let mut next = vec![usize::MAX; len];
        for i in (0..len).rev() {
            if marked[i] {
                last = Some(i);
            }
            next[i] = last.unwrap_or(usize::MAX);
        }
        let mut prev = None::<usize>;
        for i in 0..len {
            if marked[i] {
                prev = Some(i);
            }
            let near_before = prev.is_some_and(|p| i - p <= margin);
            let near_after = next[i] != usize::MAX && next[i] - i <= margin;
            mask[at(i)] = near_before || near_after;
        }
    };
    for y in 0..h {
        line(w, &|x| y * w + x, mask);
    }
    for x in 0..w {
        line(h, &|y| y * w + x, mask);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::World;

    #[test]
    fn the_route_is_the_touched_cells_and_keeps_the_path_valid() {
        let world = GridWorld::new(GridMap::from_rows(&["....", "....", "...."]).unwrap()).unwrap();
        let path = [DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)];
        let route = world.route_world(&path, 0).unwrap();
        let free: Vec<bool> = (0..3)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .map(|(x, y)| route.map().is_passable(x, y))
            .collect();
        // The route world's map starts at the world's corner (the box reaches the edge).
        assert_eq!(route.origin(), DVec2::ZERO);
        assert!(free[0] && free[1] && free[2] && !free[3] && !free[4]);
        assert!(crate::is_valid(&route, &path, 0.0));
        // A diagonal through a lattice vertex keeps all four cells around it: no pinch.
        let diag = [DVec2::new(0.5, 0.5), DVec2::new(1.5, 1.5)];
        let route = world.route_world(&diag, 0).unwrap();
        assert!(crate::is_valid(&route, &diag, 0.0));
        assert!(route.segment_is_clear(diag[0], diag[1], 0.0));
        let wide = world.route_world(&diag, 1).unwrap();
        assert_eq!(wide.map().passable_count(), 9); // x 0–2, y 0–2
    }

    #[test]
    fn dilation_is_the_brute_force_one() {
        let (w, h) = (13, 9);
        let mut lcg = crate::test_fixtures::lcg(7);
        for margin in 0..5 {
            let mask: Vec<bool> = (0..w * h).map(|_| lcg() >> 61 == 0).collect();
            let mut fast = mask.clone();
            dilate(&mut fast, w, h, margin);
            for y in 0..h {
                for x in 0..w {
                    let near = (0..h).any(|v| {
                        (0..w)
                            .any(|u| mask[v * w + u] && u.abs_diff(x).max(v.abs_diff(y)) <= margin)
                    });
                    assert_eq!(fast[y * w + x], near, "({x}, {y}) margin {margin}");
                }
            }
        }
    }
}
