//! The connected pieces of a surface: which polygons an agent can walk between.

use super::Surface;
use crate::navmesh::mesh::{label_pieces, PolyId};

impl Surface {
    /// The connected piece of every polygon, by the surface's adjacency (shared edges):
    /// `pieces()[p]` is the piece of polygon `p`, numbered 0, 1, … in the order of each
    /// piece's lowest polygon id. Two polygons are joined by a walk on the surface exactly
    /// when their pieces are equal, so a query between pieces has no path (Recast bakes
    /// often fall into several: erosion cuts narrow links, and a T-junction edge links
    /// nothing). Cost: O(polygons + edges), one allocation beside the result.
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// // Two squares sharing an edge, and a third apart.
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0),
    ///     DVec3::new(0.0, 1.0, 0.0), DVec3::new(1.0, 1.0, 0.0), DVec3::new(2.0, 1.0, 0.0),
    ///     DVec3::new(5.0, 0.0, 0.0), DVec3::new(6.0, 0.0, 0.0), DVec3::new(5.0, 1.0, 0.0),
    /// ];
    /// let polys = [vec![0u32, 1, 4, 3], vec![1, 2, 5, 4], vec![6, 7, 8]];
    /// let s = Surface::from_polygons(&v, &polys, UpAxis::Z, 0.0)?;
    /// assert_eq!(s.pieces(), vec![0, 0, 1]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn pieces(&self) -> Vec<u32> {
        label_pieces(self.num_polygons(), |p| {
            (self.neighbors(p as PolyId).flatten()).map(|q| q as usize)
        })
    }
}
