//! The caller's polygons of a navmesh built from polygons, and the polygon of each
//! triangle.

use super::{NavMesh, PolyId, TriId};

/// Marks a face (or vertex) that belongs to no polygon.
pub(crate) const NO_POLYGON: u32 = u32::MAX;

/// The polygons of a navmesh built from polygons: each triangle's polygon, the polygons'
/// ids and their vertex rings. Empty for meshes made from scenes and grids, where each
/// triangle is its own polygon with its index as id.
#[derive(Debug, Clone, Default)]
pub(crate) struct PolygonTable {
    /// Triangle id → polygon index.
    pub tri_poly: Vec<u32>,
    /// Polygon index → the caller's id.
    pub ids: Vec<PolyId>,
    /// Polygon index → its vertices (mesh vertex indices), counter-clockwise (y-up).
    pub rings: Vec<Vec<u32>>,
}

/// The polygons of a navmesh, and the polygon of each triangle.
impl NavMesh {
    /// Number of polygons: the caller's polygons for a mesh built from polygons, else the
    /// number of triangles (each triangle is its own polygon).
    ///
    /// ```
    /// use pathsmooth::navmesh::{NavMesh, Scene};
    /// let s = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], holes: vec![] };
    /// assert_eq!(NavMesh::from_scene(&s)?.num_polygons(), 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn num_polygons(&self) -> usize {
        if self.polygons.rings.is_empty() {
            self.triangles.len()
        } else {
            self.polygons.rings.len()
        }
    }

    /// The vertices of polygon `i` (`0..num_polygons()`), as indices into
    /// [`vertices`](Self::vertices), counter-clockwise (y-up). Panics if `i` is out of
    /// range. O(1).
    ///
    /// ```
    /// use pathsmooth::navmesh::{NavMesh, Scene};
    /// let s = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
    /// assert_eq!(NavMesh::from_scene(&s)?.polygon(0).len(), 3);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon(&self, i: usize) -> &[u32] {
        if self.polygons.rings.is_empty() {
            &self.triangles[i]
        } else {
            &self.polygons.rings[i]
        }
    }

    /// The id of polygon `i` (`0..num_polygons()`): the caller's id, or `i`. Panics if `i`
    /// is out of range. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// assert_eq!(NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 2]], &[9])?.polygon_id(0), 9);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon_id(&self, i: usize) -> PolyId {
        if self.polygons.rings.is_empty() {
            assert!(i < self.triangles.len(), "polygon {i} out of range");
            i as PolyId
        } else {
            self.polygons.ids[i]
        }
    }

    /// The index (`0..num_polygons()`) of the polygon triangle `t` belongs to. Panics if
    /// `t` is out of range. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 2, 3]], &[5])?;
    /// assert_eq!(mesh.polygon_index_of(1), 0);
    /// assert_eq!(mesh.polygon(0), &[0, 1, 2, 3]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon_index_of(&self, t: TriId) -> usize {
        if self.polygons.rings.is_empty() {
            assert!(t < self.triangles.len(), "triangle {t} out of range");
            t
        } else {
            self.polygons.tri_poly[t] as usize
        }
    }

    /// The id of the polygon triangle `t` belongs to (see [`PolyId`]). Panics if `t` is out
    /// of range. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 2, 3]], &[5])?;
    /// assert!((0..mesh.num_triangles()).all(|t| mesh.polygon_of(t) == 5));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon_of(&self, t: TriId) -> PolyId {
        self.polygon_id(self.polygon_index_of(t))
    }

    /// Sets the polygon table (for the importers that build a mesh from polygons).
    pub(crate) fn set_polygons(&mut self, polygons: PolygonTable) {
        self.polygons = polygons;
    }
}
