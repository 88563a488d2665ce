//! Paths to mesh elements: the channel of triangles a given path runs through (so that a
//! caller's route can be pulled taut without changing which side of each obstacle it
//! passes), the polygon a path enters at each of its points, and every polygon it crosses.

use std::collections::{HashMap, HashSet};

use glam::DVec2;

use crate::error::{num, Error, Result};
use crate::geometry::{check_path, cross, Point2};
use crate::navmesh::mesh::{NavMesh, PolyId, TriId};

impl NavMesh {
    /// For each point of `path`, the id of the polygon the path enters there, as Detour's
    /// `findStraightPath` reports with each corner: the polygon holding the start of the
    /// segment that leaves the point (at a corner shared by several polygons, the one the
    /// segment heads into; along a shared edge, either). The last point (and a point
    /// followed only by copies of itself) gets the polygon holding it. Polygons a segment
    /// crosses between two points are not listed: [`polygons_crossed`](Self::polygons_crossed)
    /// lists them all.
    ///
    /// Takes `Vec2` or `DVec2` points (converted to `f64` exactly).
    ///
    /// Errors: [`Error::InvalidInputPath`] naming the first point outside the mesh (or
    /// not finite). Cost: one point location per point plus a look at the triangles
    /// around it.
    ///
    /// ```
    /// use glam::{DVec2, Vec2};
    /// use pathsmooth::navmesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 4, 5], vec![1, 2, 3, 4]], &[10, 20])?;
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(1.0, 1.0), DVec2::new(1.5, 0.5)];
    /// assert_eq!(mesh.polygons_along(&path)?, vec![10, 20, 20]);
    /// assert_eq!(mesh.polygons_along(&[Vec2::new(0.5, 0.5), Vec2::new(1.5, 0.5)])?, vec![10, 20]);
    /// assert!(mesh.polygons_along(&[DVec2::new(3.0, 0.5)]).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygons_along<P: Point2>(&self, path: &[P]) -> Result<Vec<PolyId>> {
        let path: Vec<DVec2> = path.iter().map(|p| p.to_dvec2()).collect();
        let mut out = Vec::with_capacity(path.len());
        for (i, &p) in path.iter().enumerate() {
            let t = locate_point(self, p, i)?;
            // The direction the path leaves in: towards the next point that differs.
            let d = path[i + 1..]
                .iter()
                .map(|&q| q - p)
                .find(|d| *d != DVec2::ZERO);
            let t = d.and_then(|d| entered(self, t, p, d)).unwrap_or(t);
            out.push(self.polygon_of(t));
        }
        Ok(out)
    }

    /// Every polygon `path` passes through, in order, each run of the same polygon listed
    /// once (a path that leaves a polygon and comes back lists it again). A polygon the
    /// path only touches at a point (a corner it passes through, or the point where it
    /// turns) is not listed; a segment running along an edge shared by two polygons lists
    /// one of them. A one-point path lists the polygon holding it; an empty one, nothing.
    ///
    /// Each segment is walked across the triangles as
    /// [`line_of_sight`](Self::line_of_sight) walks it, from the triangle it heads into at
    /// its start (as in [`polygons_along`](Self::polygons_along)). Takes `Vec2` or `DVec2`
    /// points (converted to `f64` exactly).
    ///
    /// Errors: [`Error::InvalidInputPath`] naming the first point outside the mesh (or not
    /// finite), or the first segment that leaves the mesh. Cost: one point location per
    /// point plus O(triangles crossed).
    ///
    /// ```
    /// use glam::{DVec2, Vec2};
    /// use pathsmooth::navmesh::NavMesh;
    /// // Three unit squares in a row, ids 10, 20, 30.
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (3.0, 1.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let polys = [vec![0, 1, 6, 7], vec![1, 2, 5, 6], vec![2, 3, 4, 5]];
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &polys, &[10, 20, 30])?;
    /// let path = [Vec2::new(0.5, 0.5), Vec2::new(2.5, 0.5)];
    /// assert_eq!(mesh.polygons_crossed(&path)?, vec![10, 20, 30]);
    /// assert_eq!(mesh.polygons_along(&path)?, vec![10, 30]);
    /// let err = mesh.polygons_crossed(&[DVec2::new(0.5, 0.5), DVec2::new(4.0, 0.5)]).unwrap_err();
    /// assert!(err.to_string().contains("point 1 (4, 0.5)"));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygons_crossed<P: Point2>(&self, path: &[P]) -> Result<Vec<PolyId>> {
        let path: Vec<DVec2> = path.iter().map(|p| p.to_dvec2()).collect();
        let mut located = Vec::with_capacity(path.len());
        for (i, &p) in path.iter().enumerate() {
            located.push(locate_point(self, p, i)?);
        }
        let Some(&first) = located.first() else {
            return Ok(Vec::new());
        };
        let mut out: Vec<PolyId> = Vec::new();
        let push = |out: &mut Vec<PolyId>, id: PolyId| {
            if out.last() != Some(&id) {
                out.push(id);
            }
        };
        let mut t = first;
        let mut walked = Vec::new();
        for (k, w) in path.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            if a == b {
                continue;
            }
            let leaves = || Error::InvalidInputPath {
                reason: format!(
                    "segment {k} ({}, {}) → ({}, {}) leaves the navmesh",
                    num(a.x),
                    num(a.y),
                    num(b.x),
                    num(b.y)
                ),
            };
            t = entered(self, t, a, b - a).ok_or_else(leaves)?;
            push(&mut out, self.polygon_of(t));
            walked.clear();
            t = self
                .walk(t, a, b, &mut |u| walked.push(u), false)
                .ok_or_else(leaves)?;
            for &u in &walked {
                push(&mut out, self.polygon_of(u));
            }
        }
        if out.is_empty() {
            // One point, or copies of it.
            out.push(self.polygon_of(first));
        }
        Ok(out)
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
        let mut out = Vec::new();
        self.channel_along_into(path, &mut ChannelScratch::default(), &mut out)?;
        Ok(out)
    }

    /// [`channel_along`](Self::channel_along) into `out` (cleared first) with `scratch`'s
    /// memory: once both have grown, no allocation.
    pub(crate) fn channel_along_into(
        &self,
        path: &[DVec2],
        scratch: &mut ChannelScratch,
        out: &mut Vec<TriId>,
    ) -> Result<()> {
        out.clear();
        check_path(path, 2, "a channel along a path")?;
        let mut t = self.locate_or_err(path[0], "start")?;
        let walked = &mut scratch.walked;
        walked.clear();
        walked.push(t);
        for (k, w) in path.windows(2).enumerate() {
            t = self
                .walk(t, w[0], w[1], &mut |u| walked.push(u), true)
                .ok_or_else(|| Error::InvalidInputPath {
                    reason: format!("segment {k} leaves the navmesh"),
                })?;
        }
        without_loops(walked, &mut scratch.at, out);
        Ok(())
    }
}

/// The walk with every loop cut out: when a triangle comes round again, everything after
/// its first visit is dropped. O(len) expected, with a table of positions in the output
/// (a hash map: a channel is short next to the mesh).
fn without_loops(walked: &[TriId], at: &mut HashMap<TriId, usize>, out: &mut Vec<TriId>) {
    at.clear();
    out.clear();
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
}

/// The memory of [`NavMesh::channel_along_into`]: the triangles walked, and where each
/// first appears in the channel.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChannelScratch {
    walked: Vec<TriId>,
    at: HashMap<TriId, usize>,
}

/// The triangle holding point `i` of a path, `p`, or an error naming the point.
fn locate_point(mesh: &NavMesh, p: DVec2, i: usize) -> Result<TriId> {
    mesh.locate(p).ok_or_else(|| Error::InvalidInputPath {
        reason: format!(
            "point {i} ({}, {}) is outside the navmesh",
            num(p.x),
            num(p.y)
        ),
    })
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
        let cut = |walked: &[TriId]| {
            let (mut at, mut out) = (HashMap::new(), vec![9]);
            without_loops(walked, &mut at, &mut out);
            out
        };
        assert_eq!(cut(&[0, 1, 2, 1, 3]), vec![0, 1, 3]);
        assert_eq!(cut(&[0, 1, 2, 3, 0, 2]), vec![0, 2]);
        assert_eq!(cut(&[5]), vec![5]);
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
