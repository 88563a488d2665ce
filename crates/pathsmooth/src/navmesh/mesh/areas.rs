//! The area of each triangle (from its polygon), and the mesh with the triangles of
//! excluded areas taken out.
//!
//! A navmesh built from polygons can give each polygon an area id
//! ([`NavMesh::from_polygons_with_areas`], [`NavMesh::with_areas`]), as Recast's
//! `dtPoly::getArea` or Unity's areas do; every triangle takes its polygon's. A mesh
//! whose areas were never set (scenes, grid maps, polygons without areas) is one area,
//! [`DEFAULT_AREA`]. An [`AreaCosts`] filter then prices or excludes areas
//! ([`crate::area`]); the navmesh world takes excluded triangles out
//! of the free region with [`NavMesh::without_excluded`].

use glam::DVec2;

use super::{NavMesh, PolygonTable, TriId, NO_TRI};
use crate::area::{AreaCosts, AreaId};
use crate::error::{Error, Result};

/// The area of every triangle of a mesh whose areas were not set: 63, Recast's
/// `RC_WALKABLE_AREA` (the area Recast gives every walkable polygon it bakes), so that
/// an area filter written for Recast data means the same on meshes without areas.
pub const DEFAULT_AREA: AreaId = 63;

/// Area ids of a navmesh's triangles.
impl NavMesh {
    /// [`from_polygons`](Self::from_polygons), then [`with_areas`](Self::with_areas):
    /// convex polygons with an area id each (`areas[i]` for `polygons[i]`).
    ///
    /// Errors: those of `from_polygons`, and [`Error::InvalidPolygon`] when `areas` does
    /// not have one id per polygon. Cost: as `from_polygons`, plus O(triangles).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_areas(&v, &[vec![0, 1, 4, 5], vec![1, 2, 3, 4]], &[1, 7])?;
    /// let t = mesh.locate(DVec2::new(1.5, 0.5)).unwrap();
    /// assert_eq!(mesh.area_of(t), 7);
    /// assert!(NavMesh::from_polygons_with_areas(&v, &[vec![0, 1, 4, 5]], &[1, 2]).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_polygons_with_areas(
        vertices: &[DVec2],
        polygons: &[Vec<u32>],
        areas: &[AreaId],
    ) -> Result<Self> {
        if areas.len() != polygons.len() {
            return Err(count_mismatch(polygons.len(), areas.len()));
        }
        Self::from_polygons(vertices, polygons)?.with_areas(areas)
    }

    /// The mesh with polygon `i` (`0..num_polygons()`, see
    /// [`polygon`](Self::polygon)) in area `areas[i]`, every triangle taking its
    /// polygon's area. On a mesh built from a scene or a grid map each triangle is its own
    /// polygon, so `areas` then has one id per triangle.
    ///
    /// Errors: [`Error::InvalidPolygon`] when `areas.len() != num_polygons()`. Cost:
    /// O(triangles), one byte a triangle.
    pub fn with_areas(mut self, areas: &[AreaId]) -> Result<Self> {
        if areas.len() != self.num_polygons() {
            return Err(count_mismatch(self.num_polygons(), areas.len()));
        }
        self.areas = (0..self.num_triangles())
            .map(|t| areas[self.polygon_index_of(t)])
            .collect();
        Ok(self)
    }

    /// The area of triangle `t`: its polygon's, or [`DEFAULT_AREA`] when the mesh's areas
    /// were not set. Panics if `t` is out of range. O(1).
    ///
    /// ```
    /// use pathsmooth::navmesh::{DEFAULT_AREA, NavMesh, Scene};
    /// let s = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
    /// assert_eq!(NavMesh::from_scene(&s)?.area_of(0), DEFAULT_AREA);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn area_of(&self, t: TriId) -> AreaId {
        if self.areas.is_empty() {
            assert!(t < self.triangles.len(), "triangle {t} out of range");
            DEFAULT_AREA
        } else {
            self.areas[t]
        }
    }

    /// True when the mesh's areas were set ([`with_areas`](Self::with_areas)).
    pub fn has_areas(&self) -> bool {
        !self.areas.is_empty()
    }

    /// Sets each triangle's area (one id per triangle; for the builders that know them,
    /// the layered mesh's plan view and its sheets).
    pub(crate) fn set_triangle_areas(&mut self, areas: Vec<AreaId>) {
        debug_assert_eq!(areas.len(), self.num_triangles());
        self.areas = areas;
    }

    /// The mesh without the triangles whose area `costs` excludes: `Ok(None)` when it
    /// excludes none (the mesh stands as it is), else the mesh of the kept triangles, with
    /// a wall wherever a kept triangle bordered an excluded one.
    ///
    /// The kept triangles keep their corners (vertices no kept triangle or polygon uses
    /// are dropped), order, areas and polygons: polygon ids are those of this mesh (on a
    /// mesh of scenes or grids, where a triangle is its own polygon, its index here).
    /// Corner flags, the location buckets and bounds are those of the smaller mesh.
    ///
    /// Errors: [`Error::NoFreeSpace`] when every triangle is excluded. Cost: O(triangles
    /// + vertices), plus building the locator of the kept mesh.
    pub fn without_excluded(&self, costs: &AreaCosts) -> Result<Option<NavMesh>> {
        let keep: Vec<bool> = (0..self.num_triangles())
            .map(|t| !costs.is_excluded(self.area_of(t)))
            .collect();
        if keep.iter().all(|&k| k) {
            return Ok(None);
        }
        self.keep_triangles(&keep).map(Some)
    }

    /// The mesh of the triangles `t` with `keep[t]` (one flag per triangle), with a wall
    /// wherever a kept triangle bordered a dropped one; as
    /// [`without_excluded`](Self::without_excluded) builds it (and with its costs).
    ///
    /// Polygons must be kept whole (each of their triangles kept or dropped together).
    ///
    /// Errors: [`Error::NoFreeSpace`] when no triangle is kept.
    pub(crate) fn keep_triangles(&self, keep: &[bool]) -> Result<NavMesh> {
        let n = self.num_triangles();
        debug_assert_eq!(keep.len(), n);
        // Old triangle → new index (NO_TRI when dropped).
        let mut new_tri = vec![NO_TRI; n];
        let mut kept = 0u32;
        for t in (0..n).filter(|&t| keep[t]) {
            new_tri[t] = kept;
            kept += 1;
        }
        if kept == 0 {
            return Err(Error::NoFreeSpace);
        }
        let from_polygons = !self.polygons.rings.is_empty();
        // Polygons: a polygon's triangles share its area, so it is kept whole or dropped.
        let mut new_poly = vec![NO_TRI; self.num_polygons()];
        let mut kept_polys = Vec::new();
        for t in (0..n).filter(|&t| keep[t]) {
            let p = self.polygon_index_of(t);
            if new_poly[p] == NO_TRI {
                new_poly[p] = kept_polys.len() as u32;
                kept_polys.push(p);
            }
        }
        // Vertices used by kept triangles and kept polygon rings, in their old order.
        let mut used = vec![false; self.vertices.len()];
        for t in (0..n).filter(|&t| keep[t]) {
            for v in self.triangles[t] {
                used[v as usize] = true;
            }
        }
        if from_polygons {
            for &p in &kept_polys {
                for &v in &self.polygons.rings[p] {
                    used[v as usize] = true;
                }
            }
        }
        let mut new_vertex = vec![u32::MAX; self.vertices.len()];
        let mut vertices = Vec::new();
        for (v, &u) in used.iter().enumerate() {
            if u {
                new_vertex[v] = vertices.len() as u32;
                vertices.push(self.vertices[v]);
            }
        }
        let mut triangles = Vec::with_capacity(kept as usize);
        let mut neighbors = Vec::with_capacity(kept as usize);
        for t in (0..n).filter(|&t| keep[t]) {
            triangles.push(self.triangles[t].map(|v| new_vertex[v as usize]));
            neighbors.push(self.neighbors[t].map(|u| {
                if u == NO_TRI {
                    NO_TRI
                } else {
                    new_tri[u as usize]
                }
            }));
        }
        let mut mesh = NavMesh::from_parts(vertices, triangles, neighbors);
        let kept_tris = || (0..n).filter(|&t| keep[t]);
        mesh.polygons = PolygonTable {
            tri_poly: kept_tris()
                .map(|t| new_poly[self.polygon_index_of(t)])
                .collect(),
            ids: kept_polys.iter().map(|&p| self.polygon_id(p)).collect(),
            rings: kept_polys
                .iter()
                .map(|&p| {
                    self.polygon(p)
                        .iter()
                        .map(|&v| new_vertex[v as usize])
                        .collect()
                })
                .collect(),
        };
        if self.has_areas() {
            mesh.areas = kept_tris().map(|t| self.areas[t]).collect();
        }
        Ok(mesh)
    }
}

fn count_mismatch(polygons: usize, areas: usize) -> Error {
    Error::InvalidPolygon {
        message: format!("{polygons} polygons but {areas} area ids"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three unit squares in a row, areas 1, 2, 1.
    fn row() -> NavMesh {
        let (v, polys) = crate::test_fixtures::three_squares_in_a_row();
        NavMesh::from_polygons_with_ids(&v, &polys, &[10, 20, 30])
            .unwrap()
            .with_areas(&[1, 2, 1])
            .unwrap()
    }

    #[test]
    fn excluding_the_middle_splits_the_row_with_walls() {
        let mesh = row();
        let mut costs = AreaCosts::new();
        assert!(mesh.without_excluded(&costs).unwrap().is_none());
        costs.exclude(2);
        let cut = mesh.without_excluded(&costs).unwrap().unwrap();
        assert_eq!(cut.num_triangles(), 4);
        assert_eq!(cut.num_polygons(), 2);
        assert_eq!(cut.vertices().len(), 8);
        assert!(cut.locate(DVec2::new(1.5, 0.5)).is_none());
        let left = cut.locate(DVec2::new(0.5, 0.5)).unwrap();
        assert_eq!((cut.polygon_of(left), cut.area_of(left)), (10, 1));
        let right = cut.locate(DVec2::new(2.5, 0.5)).unwrap();
        assert_eq!((cut.polygon_of(right), cut.area_of(right)), (30, 1));
        // The edges x = 1 and x = 2 are walls now.
        let walls: usize = (0..4)
            .map(|t| cut.neighbors(t).iter().filter(|n| n.is_none()).count())
            .sum();
        assert_eq!(walls, 8);
        assert!(!cut.line_of_sight(DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)));
        costs.exclude(1);
        assert!(matches!(
            mesh.without_excluded(&costs),
            Err(Error::NoFreeSpace)
        ));
    }

    #[test]
    fn segments_from_a_pinch_an_excluded_area_makes_start_in_either_fan() {
        // Above the wall y = 0: a triangle left of (1, 0), an excluded triangle over it and
        // a square right of it. Without the excluded one the two meet at (1, 0) only: a
        // pinch, whose located triangle lies in one of the two fans.
        let v = [
            [0.0, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [0.0, 1.0],
            [1.0, 1.0],
            [2.0, 1.0],
        ]
        .map(DVec2::from);
        let polys = [vec![0, 1, 3], vec![1, 4, 3], vec![1, 2, 5, 4]];
        let mesh = NavMesh::from_polygons_with_areas(&v, &polys, &[1, 3, 1]).unwrap();
        let mut costs = AreaCosts::new();
        costs.exclude(3);
        let cut = mesh.without_excluded(&costs).unwrap().unwrap();
        let pinch = DVec2::new(1.0, 0.0);
        for end in [DVec2::new(0.2, 0.5), DVec2::new(1.8, 0.5)] {
            let length = 0.8f64.hypot(0.5);
            assert!(cut.line_of_sight(pinch, end), "{pinch} → {end}");
            assert!(cut.line_of_sight(end, pinch), "{end} → {pinch}");
            assert_eq!(cut.segment_cost(&costs, pinch, end), length);
        }
        // Into the excluded triangle, and through the pinch from one fan to the other: no.
        assert!(!cut.line_of_sight(pinch, DVec2::new(0.9, 0.9)));
        assert!(!cut.line_of_sight(DVec2::new(0.2, 0.5), DVec2::new(1.8, 0.5)));
    }

    #[test]
    fn meshes_without_areas_are_the_default_area() {
        let mesh = row();
        let plain = NavMesh::from_polygons(mesh.vertices(), &[vec![0, 1, 6]]).unwrap();
        assert!(!plain.has_areas());
        assert_eq!(plain.area_of(0), DEFAULT_AREA);
        assert!(plain.clone().with_areas(&[1, 2]).is_err());
        let mut costs = AreaCosts::new();
        costs.exclude(DEFAULT_AREA);
        assert!(matches!(
            plain.without_excluded(&costs),
            Err(Error::NoFreeSpace)
        ));
    }
}
