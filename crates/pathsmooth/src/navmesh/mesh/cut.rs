//! Cutting a convex polygon out of a navmesh exactly (temporary obstacles on a
//! [`NavMeshWorld`](crate::NavMeshWorld), issue 30).
//!
//! The triangles whose inside the polygon overlaps (the *patch*) are triangulated again
//! with spade's constrained Delaunay triangulation, with the patch's outline and the
//! polygon's edges as constraints (split where they cross); the new triangles inside the
//! patch and outside the polygon replace the patch. The patch's outline keeps its
//! vertices, so the new triangles meet the untouched ones edge to edge; if the polygon
//! would put a vertex on an edge the patch shares with an untouched triangle (a polygon
//! touching it without overlapping it), that triangle joins the patch and the cut is made
//! again.

use std::collections::HashMap;

use glam::DVec2;
use spade::handles::FixedVertexHandle;
use spade::{Point2, Triangulation};

use super::{kept_faces, Cdt, NavMesh, TriId, NO_TRI};
use crate::error::{Error, Result};
use crate::geometry::cross;

impl NavMesh {
    /// The mesh with the open convex polygon `ring` (counter-clockwise) taken out of its
    /// triangles: `Ok(None)` when the polygon overlaps no triangle. The untouched triangles
    /// keep their corners, order (first) and areas; each new triangle takes the area of the
    /// triangle it lies in. The cut mesh has no polygon table (each triangle is its own
    /// polygon). Vertices no triangle uses any more are dropped.
    ///
    /// Errors: [`Error::NoFreeSpace`] when nothing is left; [`Error::BadObstacle`] when
    /// the triangulation refuses a vertex of the polygon (a coordinate beyond
    /// [`MAX_COORDINATE`](super::MAX_COORDINATE)). Cost: O(triangles) to find the patch,
    /// the triangulation of the patch, and O(triangles + vertices) to build the mesh.
    pub(crate) fn cut_convex(&self, ring: &[DVec2]) -> Result<Option<NavMesh>> {
        let n = self.num_triangles();
        let (lo, hi) = ring
            .iter()
            .fold((ring[0], ring[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        let mut patch: Vec<bool> = (0..n)
            .map(|t| {
                let tri = self.triangle(t);
                let (tl, th) = (
                    tri[0].min(tri[1]).min(tri[2]),
                    tri[0].max(tri[1]).max(tri[2]),
                );
                tl.x < hi.x
                    && th.x > lo.x
                    && tl.y < hi.y
                    && th.y > lo.y
                    && crate::geometry::convex_overlap(ring, &tri)
            })
            .collect();
        if !patch.iter().any(|&p| p) {
            return Ok(None);
        }
        loop {
            match self.retriangulate(&patch, ring)? {
                Patched::Grow(more) => {
                    for t in more {
                        patch[t] = true;
                    }
                }
                Patched::Done(cdt, owner, originals) => {
                    return self
                        .rebuild_with(&patch, &cdt, &owner, &originals)
                        .map(Some)
                }
            }
        }
    }

    /// The CDT of the patch and the polygon, with each face's patch triangle (when it lies
    /// in the patch and outside the polygon) and each CDT vertex's mesh vertex (for the
    /// patch's own vertices); or the untouched triangles whose shared edge the polygon
    /// would split.
    fn retriangulate(&self, patch: &[bool], ring: &[DVec2]) -> Result<Patched> {
        let refused = |e: spade::InsertionError| Error::BadObstacle {
            reason: format!("the navmesh's triangulation refused the obstacle: {e:?}"),
        };
        let mut cdt = Cdt::new();
        // CDT vertex index → mesh vertex (u32::MAX for the polygon's and split vertices).
        let mut originals: Vec<u32> = Vec::new();
        let mut handle: HashMap<u32, FixedVertexHandle> = HashMap::new();
        let insert = |cdt: &mut Cdt, originals: &mut Vec<u32>, p: DVec2, v: u32| {
            let h = cdt.insert(Point2::new(p.x, p.y)).map_err(refused)?;
            if h.index() == originals.len() {
                originals.push(v);
            }
            Ok::<_, Error>(h)
        };
        let patch_tris = || (0..self.num_triangles()).filter(|&t| patch[t]);
        for t in patch_tris() {
            for v in self.triangles[t] {
                if let std::collections::hash_map::Entry::Vacant(e) = handle.entry(v) {
                    e.insert(insert(
                        &mut cdt,
                        &mut originals,
                        self.vertices[v as usize],
                        v,
                    )?);
                }
            }
        }
        // The patch's outline, and the edges shared with untouched triangles to check.
        let mut shared = Vec::new();
        for t in patch_tris() {
            let tri = self.triangles[t];
            for i in 0..3 {
                let across = self.neighbors[t][i];
                if across != NO_TRI && patch[across as usize] {
                    continue;
                }
                let (a, b) = (handle[&tri[i]], handle[&tri[(i + 1) % 3]]);
                cdt.add_constraint_and_split(a, b, |p| p);
                if across != NO_TRI {
                    shared.push((a, b, across as TriId));
                }
            }
        }
        let hs: Vec<FixedVertexHandle> = ring
            .iter()
            .map(|&p| insert(&mut cdt, &mut originals, p, u32::MAX))
            .collect::<Result<_>>()?;
        for i in 0..hs.len() {
            cdt.add_constraint_and_split(hs[i], hs[(i + 1) % hs.len()], |p| p);
        }
        let split: Vec<TriId> = shared
            .iter()
            .filter(|&&(a, b, _)| cdt.get_edge_from_neighbors(a, b).is_none())
            .map(|&(_, _, t)| t)
            .collect();
        if !split.is_empty() {
            return Ok(Patched::Grow(split));
        }
        originals.resize(cdt.num_vertices(), u32::MAX);
        // Each face's patch triangle, when it is in the patch and outside the polygon.
        let mut owner = vec![NO_TRI; cdt.num_all_faces()];
        let m = ring.len();
        for face in cdt.inner_faces() {
            let [a, b, c] = face.positions().map(|p| DVec2::new(p.x, p.y));
            let g = (a + b + c) / 3.0;
            let inside = (0..m).all(|i| cross(ring[(i + 1) % m] - ring[i], g - ring[i]) > 0.0);
            if inside {
                continue;
            }
            let located = self.locate(g).filter(|&t| patch[t]);
            let found = located.or_else(|| patch_tris().find(|&t| self.triangle_contains(t, g)));
            if let Some(t) = found {
                owner[face.index()] = t as u32;
            }
        }
        Ok(Patched::Done(cdt, owner, originals))
    }

    /// The untouched triangles, then the CDT's kept faces, with adjacency across the
    /// patch's outline.
    fn rebuild_with(
        &self,
        patch: &[bool],
        cdt: &Cdt,
        owner: &[u32],
        originals: &[u32],
    ) -> Result<NavMesh> {
        let n = self.num_triangles();
        let kept = kept_faces(cdt, |face, _| owner[face] != NO_TRI);
        // Vertices: the mesh's, then the CDT's new ones.
        let mut vertices = self.vertices.clone();
        let cdt_vertex: Vec<u32> = cdt
            .vertices()
            .map(|v| {
                let i = v.fix().index();
                if originals[i] != u32::MAX {
                    originals[i]
                } else {
                    let p = v.position();
                    vertices.push(DVec2::new(p.x, p.y));
                    (vertices.len() - 1) as u32
                }
            })
            .collect();
        let mut new_tri = vec![NO_TRI; n];
        let mut triangles = Vec::new();
        let mut neighbors = Vec::new();
        let mut areas = Vec::new();
        for t in (0..n).filter(|&t| !patch[t]) {
            new_tri[t] = triangles.len() as u32;
            triangles.push(self.triangles[t]);
            areas.push(self.area_of(t));
        }
        let base = triangles.len() as u32;
        for t in (0..n).filter(|&t| !patch[t]) {
            neighbors.push(self.neighbors[t].map(|u| {
                if u == NO_TRI || patch[u as usize] {
                    NO_TRI
                } else {
                    new_tri[u as usize]
                }
            }));
        }
        // New triangles' open edges (on the patch's outline or the polygon's), by corners.
        let mut open: HashMap<(u32, u32), (u32, usize)> = HashMap::new();
        let faces = cdt.inner_faces().filter(|f| owner[f.index()] != NO_TRI);
        for ((face, tri), across) in faces.zip(&kept.triangles).zip(&kept.neighbors) {
            let k = triangles.len() as u32;
            let tri = tri.map(|v| cdt_vertex[v as usize]);
            for i in 0..3 {
                if across[i] == NO_TRI {
                    let (a, b) = (tri[i], tri[(i + 1) % 3]);
                    open.insert((a.min(b), a.max(b)), (k, i));
                }
            }
            triangles.push(tri);
            neighbors.push(across.map(|u| if u == NO_TRI { NO_TRI } else { base + u }));
            areas.push(self.area_of(owner[face.index()] as TriId));
        }
        if triangles.is_empty() {
            return Err(Error::NoFreeSpace);
        }
        for t in (0..n).filter(|&t| !patch[t]) {
            let tri = self.triangles[t];
            for i in 0..3 {
                let u = self.neighbors[t][i];
                if u == NO_TRI || !patch[u as usize] {
                    continue;
                }
                let (a, b) = (tri[i], tri[(i + 1) % 3]);
                if let Some(&(k, j)) = open.get(&(a.min(b), a.max(b))) {
                    neighbors[new_tri[t] as usize][i] = k;
                    neighbors[k as usize][j] = new_tri[t];
                }
            }
        }
        // Drop the vertices no triangle uses, keeping the others' order.
        let mut renumber = vec![u32::MAX; vertices.len()];
        for tri in &triangles {
            for &v in tri {
                renumber[v as usize] = 0;
            }
        }
        let mut used = Vec::new();
        for (v, r) in renumber.iter_mut().enumerate() {
            if *r == 0 {
                *r = used.len() as u32;
                used.push(vertices[v]);
            }
        }
        for tri in &mut triangles {
            *tri = tri.map(|v| renumber[v as usize]);
        }
        let mut mesh = NavMesh::from_parts(used, triangles, neighbors);
        if self.has_areas() {
            mesh.areas = areas;
        }
        Ok(mesh)
    }
}

/// What [`NavMesh::retriangulate`] found.
enum Patched {
    /// Untouched triangles the polygon touches: the patch must take them in.
    Grow(Vec<TriId>),
    /// The CDT, each face's patch triangle ([`NO_TRI`] for faces dropped), each CDT
    /// vertex's mesh vertex (`u32::MAX` for new ones).
    Done(Cdt, Vec<u32>, Vec<u32>),
}
