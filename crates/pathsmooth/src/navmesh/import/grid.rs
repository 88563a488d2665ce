//! Navmeshes of grid maps: the outline of the free region traced along cell edges, tiled.

use glam::DVec2;

use super::grid_build;
use crate::error::{Error, Result};
use crate::grid::GridMap;
use crate::navmesh::mesh::NavMesh;

/// Navmeshes from grid maps.
impl NavMesh {
    /// Builds a navmesh of a grid map's free region by tracing the outlines of its blocked
    /// regions along cell edges (see the module docs for merging and pinches).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::GridMap;
    /// use pathsmooth::navmesh::NavMesh;
    /// let map = GridMap::from_rows(&["....", ".@@.", "...."])?;
    /// let mesh = NavMesh::from_grid(&map)?;
    /// assert!(mesh.locate(DVec2::new(0.5, 0.5)).is_some());
    /// assert!(mesh.locate(DVec2::new(1.5, 1.5)).is_none()); // blocked cell
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_grid(map: &GridMap) -> Result<Self> {
        Self::from_grid_frame(map, 1.0, DVec2::ZERO)
    }

    /// [`from_grid`](Self::from_grid) in world units: cell (x, y) covers
    /// `origin + cell_size · [x, x+1] × [y, y+1]` (see [`GridWorld`](crate::GridWorld)).
    /// `cell_size` must be positive and finite and `origin` finite (the grid world checks
    /// both).
    pub(crate) fn from_grid_frame(map: &GridMap, cell_size: f64, origin: DVec2) -> Result<Self> {
        if map.passable_count() == 0 {
            return Err(Error::InvalidPolygon {
                message: "the map has no passable cell".into(),
            });
        }
        let built = grid_build::build(map, cell_size, origin)?;
        Ok(Self::from_parts(
            built.vertices,
            built.triangles,
            built.neighbors,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_mesh_merges_runs_and_splits_at_pinches() {
        // A single blocked cell in a 3×3 map: the map border's 4 corners and the cell's 4
        // (merged runs add no vertex), a square ring of 8 triangles.
        let map = GridMap::from_rows(&["...", ".@.", "..."]).unwrap();
        let mesh = NavMesh::from_grid(&map).unwrap();
        assert_eq!((mesh.vertices().len(), mesh.num_triangles()), (8, 8));
        // Two diagonal blocked cells: the pinch vertex (2, 2) joins the two free quadrants
        // only at a point, so no sight line passes through it.
        let map = GridMap::from_rows(&["....", ".@..", "..@.", "...."]).unwrap();
        let mesh = NavMesh::from_grid(&map).unwrap();
        assert!(mesh.vertices().contains(&DVec2::new(2.0, 2.0)));
        assert!(!mesh.line_of_sight(DVec2::new(1.5, 2.5), DVec2::new(2.5, 1.5)));
        assert!(mesh.line_of_sight(DVec2::new(0.5, 2.5), DVec2::new(0.5, 0.5)));
    }
}
