//! The channel of triangles a given path runs through, so that a caller's route can be
//! pulled taut (funnel) without changing which side of each obstacle it passes.

use std::collections::HashMap;

use glam::DVec2;

use super::{NavMesh, TriId};
use crate::error::{Error, Result};
use crate::geometry::check_path;

impl NavMesh {
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
    /// use pathsmooth::navmesh::mesh::{NavMesh, Scene};
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
