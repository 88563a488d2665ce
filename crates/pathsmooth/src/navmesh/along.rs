//! Paths to mesh elements: the channel of triangles a given path runs through (so that a
//! caller's route can be pulled taut without changing which side of each obstacle it
//! passes), and the polygon a path enters at each of its points.

use std::collections::{HashMap, HashSet};

use glam::DVec2;

use crate::error::{Error, Result};
use crate::geometry::{check_path, cross};
use crate::navmesh::mesh::{NavMesh, PolyId, TriId};

impl NavMesh {
    /// For each point of `path`, the id of the polygon the path enters there, as Detour's
    /// `findStraightPath` reports with each corner: the polygon holding the start of the
    /// segment that leaves the point (at a corner shared by several polygons, the one the
    /// segment heads into; along a shared edge, either). The last point (and a point
    /// followed only by copies of itself) gets the polygon holding it.
    ///
    /// Errors: [`Error::InvalidInputPath`] naming the first point outside the mesh (or
    /// not finite). Cost: one point location per point plus a look at the triangles
    /// around it.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 4, 5], vec![1, 2, 3, 4]], &[10, 20])?;
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(1.0, 1.0), DVec2::new(1.5, 0.5)];
    /// assert_eq!(mesh.polygons_along(&path)?, vec![10, 20, 20]);
    /// assert!(mesh.polygons_along(&[DVec2::new(3.0, 0.5)]).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygons_along(&self, path: &[DVec2]) -> Result<Vec<PolyId>> {
        polygons_along(self, path)
    }

    /// The channel `path` runs through: triangle ids, the first holding `path[0]`, the last
    /// holding its last point, consecutive ones sharing an edge, no triangle twice.
    ///
    /// Each segment is walked as [`line_of_sight`](Self::line_of_sight) walks it; where a
    /// segment passes exactly through a vertex (a diagonal grid step does), the triangles
    /// around that vertex are added in order. Where the path comes back to a triangle it
    /// already passed, the loop in between is cut out: the funnel through the result is
    /// then the shortest path that passes every obstacle on the side the path did,
    /// except that detours round an obstacle and back are dropped.
    ///
    /// Cost: O(triangles crossed) plus one point location.
    ///
    /// Errors: a path of fewer than 2 points or with a non-finite point, a first point
    /// outside the mesh ([`Error::OutsideMesh`]), and [`Error::InvalidInputPath`] when a
    /// segment leaves the free region.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::{NavMesh, Scene};
    /// // A 10×10 room with a pillar; the route passes above it.
    /// let mesh = NavMesh::from_scene(&Scene {
    ///     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
    ///     holes: vec![vec![[4.0, 2.0], [6.0, 2.0], [6.0, 8.0], [4.0, 8.0]]],
    /// })?;
    /// let route = [DVec2::new(1.0, 5.0), DVec2::new(5.0, 9.0), DVec2::new(9.0, 5.0)];
    /// let channel = mesh.channel_along(&route)?;
    /// assert!(mesh.triangle_contains(channel[0], route[0]));
    /// assert!(mesh.triangle_contains(*channel.last().unwrap(), route[2]));
    /// assert!(channel.windows(2).all(|w| mesh.shared_edge(w[0], w[1]).is_some()));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn channel_along(&self, path: &[DVec2]) -> Result<Vec<TriId>> {
        check_path(path, 2, "a channel along a path")?;
        let mut t = self.locate_or_err(path[0], "start")?;
        let mut walked = vec![t];
        for (k, w) in path.windows(2).enumerate() {
            t = self.walk(t, w[0], w[1], Some(&mut walked)).ok_or_else(|| {
                Error::InvalidInputPath {
                    reason: format!("segment {k} leaves the navmesh"),
                }
            })?;
        }
        Ok(without_loops(&walked))
    }
}

/// The walk with every loop cut out: when a triangle comes round again, everything after
/// its first visit is dropped. O(len) expected, with a table of positions in the output
/// (a hash map: a channel is short next to the mesh).
fn without_loops(walked: &[TriId]) -> Vec<TriId> {
    let mut at: HashMap<TriId, usize> = HashMap::with_capacity(walked.len());
    let mut out: Vec<TriId> = Vec::with_capacity(walked.len());
    for &t in walked {
        if let Some(&first) = at.get(&t) {
            for dropped in out.drain(first + 1..) {
                at.remove(&dropped);
            }
            continue;
        }
        at.insert(t, out.len());
        out.push(t);
    }
    out
}

/// See [`NavMesh::polygons_along`].
fn polygons_along(mesh: &NavMesh, path: &[DVec2]) -> Result<Vec<PolyId>> {
    let mut out = Vec::with_capacity(path.len());
    for (i, &p) in path.iter().enumerate() {
        let Some(t) = mesh.locate(p) else {
            return Err(Error::InvalidInputPath {
                reason: format!("point {i} ({}, {}) is outside the navmesh", p.x, p.y),
            });
        };
        // The direction the path leaves in: towards the next point that differs.
        let d = path[i + 1..]
            .iter()
            .map(|&q| q - p)
            .find(|d| *d != DVec2::ZERO);
        let t = d.and_then(|d| entered(mesh, t, p, d)).unwrap_or(t);
        out.push(mesh.polygon_of(t));
    }
    Ok(out)
}

/// Among the triangles holding `p` (reached from `t` through shared edges), one whose
/// closed corner, edge side or interior at `p` holds direction `d`; `None` when the path
/// leaves the mesh there.
fn entered(mesh: &NavMesh, t: TriId, p: DVec2, d: DVec2) -> Option<TriId> {
    // The triangles touching a point form a fan round it (or two, on an edge); a short
    // breadth-first walk over the neighbours that still hold `p` visits them all.
    let mut queue = vec![t];
    let mut seen = HashSet::from([t]);
    let mut k = 0;
    while k < queue.len() {
        let u = queue[k];
        k += 1;
        if holds_direction(mesh, u, p, d) {
            return Some(u);
        }
        for n in mesh.neighbors(u).into_iter().flatten() {
            if mesh.triangle_contains(n, p) && seen.insert(n) {
                queue.push(n);
            }
        }
    }
    None
}

/// True when a short step from `p` (which lies in the closed triangle `t`) along `d` stays
/// in `t`: every edge that `p` lies on has `d` on its inner side (or along it).
fn holds_direction(mesh: &NavMesh, t: TriId, p: DVec2, d: DVec2) -> bool {
    let c = mesh.triangle(t);
    (0..3).all(|i| {
        let (a, b) = (c[i], c[(i + 1) % 3]);
        cross(b - a, p - a) != 0.0 || cross(b - a, d) >= 0.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::GridMap;
    use crate::navmesh::funnel::funnel;
    use crate::navmesh::portals::portals;

    #[test]
    fn loops_are_cut_and_neighbours_share_edges() {
        assert_eq!(without_loops(&[0, 1, 2, 1, 3]), vec![0, 1, 3]);
        assert_eq!(without_loops(&[0, 1, 2, 3, 0, 2]), vec![0, 2]);
        assert_eq!(without_loops(&[5]), vec![5]);
    }

    #[test]
    fn a_staircase_through_grid_vertices_keeps_its_side_of_the_pillar() {
        // A pillar in the middle; the route goes below it by diagonal steps through grid
        // vertices. The funnel through its channel must pass below too.
        let map = GridMap::from_rows(&[
            "........", "........", "...@@...", "...@@...", "........", "........",
        ])
        .unwrap();
        let mesh = NavMesh::from_grid(&map).unwrap();
        let route: Vec<DVec2> = [(0.5, 2.5), (1.5, 3.5), (2.5, 4.5), (5.5, 4.5), (7.5, 2.5)]
            .iter()
            .map(|&(x, y)| DVec2::new(x, y))
            .collect();
        let channel = mesh.channel_along(&route).unwrap();
        assert!(channel
            .windows(2)
            .all(|w| mesh.shared_edge(w[0], w[1]).is_some()));
        let taut = funnel(&portals(&mesh, &channel).unwrap(), route[0], route[4], 0.0).unwrap();
        // Below the pillar (y ≥ 4 at x = 4) and touching its lower corners.
        assert!(taut.contains(&DVec2::new(3.0, 4.0)) && taut.contains(&DVec2::new(5.0, 4.0)));
        let above = [
            DVec2::new(0.5, 2.5),
            DVec2::new(4.0, 0.5),
            DVec2::new(7.5, 2.5),
        ];
        let channel = mesh.channel_along(&above).unwrap();
        let taut = funnel(&portals(&mesh, &channel).unwrap(), above[0], above[2], 0.0).unwrap();
        assert!(taut.contains(&DVec2::new(3.0, 2.0)) && taut.contains(&DVec2::new(5.0, 2.0)));
    }

    #[test]
    fn a_route_through_a_wall_is_refused() {
        let map = GridMap::from_rows(&["..@..", "..@.."]).unwrap();
        let mesh = NavMesh::from_grid(&map).unwrap();
        let e = mesh.channel_along(&[DVec2::new(0.5, 0.5), DVec2::new(4.5, 0.5)]);
        assert!(matches!(e, Err(Error::InvalidInputPath { .. })), "{e:?}");
        let e = mesh.channel_along(&[DVec2::new(2.5, 0.5), DVec2::new(4.5, 0.5)]);
        assert!(matches!(e, Err(Error::OutsideMesh { .. })), "{e:?}");
    }
}
