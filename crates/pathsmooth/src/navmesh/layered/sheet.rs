//! The sheet of a channel: the part of a layered surface around it that is one floor deep,
//! as a flat navmesh.

use std::collections::BinaryHeap;

use glam::DVec2;
use rustc_hash::FxHashMap;

use super::{Nearest, SurfaceMesh};
use crate::cancel::{Cancel, Checkpoint};
use crate::error::{Error, Result};
use crate::geometry::orientation;
use crate::navmesh::mesh::{NavMesh, TriId, NO_TRI};

/// A flat piece of a layered surface around a path's channel (see the
/// [module docs](super)): a [`NavMesh`] whose triangles are triangles of the surface mesh
/// that do not overlap in plan view, joined where the surface joins them.
///
/// **Built** by a walk outward from the channel, nearest triangles first (Dijkstra over the
/// distances between triangle centroids, every channel triangle a source), keeping a
/// triangle when its plan-view box meets the region (the channel's bounding box grown by a
/// margin) and its interior overlaps no triangle kept before. So near the path the sheet is
/// the path's own floor, and a floor above or below is cut off where it would overlap.
///
/// **Why it is sound.** The sheet is a subset of the surface and its edges towards a
/// triangle left out are walls, so free space on the sheet is free on the surface, and a
/// distance to the sheet's walls is never more than the distance to the surface's walls on
/// that floor: whatever a step finds valid on the sheet is valid on the surface. It may be
/// stricter than the surface where another floor took the place first (a path can then be
/// smoothed less, never wrongly).
///
/// Cost: O(t log t) for the t triangles walked, and a flat navmesh of the ones kept.
#[derive(Debug, Clone)]
pub struct Sheet {
    mesh: NavMesh,
    /// Sheet triangle → plan-mesh triangle.
    surface_triangle: Vec<u32>,
    /// Plan-mesh triangle → sheet triangle, for the triangles kept.
    sheet_triangle: FxHashMap<u32, u32>,
}

impl Sheet {
    /// The flat navmesh; each triangle keeps its surface polygon's area
    /// ([`NavMesh::area_of`]).
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The flat navmesh, owned (to build a [`NavMeshWorld`](crate::NavMeshWorld)).
    pub fn into_mesh(self) -> NavMesh {
        self.mesh
    }

    /// The triangle of the surface's plan mesh that sheet triangle `t` is. Panics if `t`
    /// is out of range.
    pub fn surface_triangle(&self, t: TriId) -> TriId {
        self.surface_triangle[t] as TriId
    }

    /// The sheet triangle that plan-mesh triangle `t` is, if the sheet kept it.
    pub fn sheet_triangle(&self, t: TriId) -> Option<TriId> {
        self.sheet_triangle.get(&(t as u32)).map(|&s| s as TriId)
    }
}

/// The sheet builder's scratch (kept by the query, so repeated builds reuse it).
#[derive(Debug, Clone, Default)]
pub(crate) struct SheetScratch {
    /// Plan-mesh triangle → best distance found (sparse).
    best: FxHashMap<u32, f64>,
    open: BinaryHeap<Nearest>,
    kept: Vec<u32>,
    /// Buckets of the kept triangles' plan-view boxes: cell → triangles.
    cells: FxHashMap<(i64, i64), Vec<u32>>,
}

impl SheetScratch {
    /// The sheet of `channel` (triangles of `mesh`'s plan mesh) reaching `margin` beyond
    /// its bounding box. Errors: [`Error::InvalidResult`] when two channel triangles
    /// overlap in plan view; [`Error::Cancelled`] when `cancel` is (read every
    /// [`CHECK_EVERY`](crate::cancel::CHECK_EVERY) triangles walked and overlap tests:
    /// one triangle can meet thousands of kept ones, as in a fan round one vertex).
    pub(crate) fn build(
        &mut self,
        mesh: &SurfaceMesh,
        channel: &[TriId],
        margin: f64,
        cancel: Option<&Cancel>,
    ) -> Result<Sheet> {
        let mut checkpoint = Checkpoint::new(cancel);
        let plan = mesh.plan_mesh();
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        let mut size = 0.0f64;
        for &t in channel {
            let (a, b) = tri_box(plan, t);
            (lo, hi) = (lo.min(a), hi.max(b));
            size = size.max((b - a).max_element());
        }
        let (lo, hi) = (lo - margin, hi + margin);
        // Cells about as large as the channel's largest triangle.
        let cell = if size > 0.0 { size } else { 1.0 };
        self.best.clear();
        self.open.clear();
        self.kept.clear();
        self.cells.values_mut().for_each(Vec::clear);
        for &t in channel {
            let t = t as u32;
            if self.best.insert(t, 0.0).is_none() {
                self.open.push(Nearest { d: 0.0, item: t });
            }
        }
        let in_channel = self.best.len();
        while let Some(Nearest { d, item: t }) = self.open.pop() {
            if self.best.get(&t).is_some_and(|&b| b < d) {
                continue;
            }
            let is_channel = d == 0.0;
            // Read in the overlap tests too: one triangle may meet thousands of kept ones.
            let overlaps = self.overlaps_kept(plan, t as TriId, cell, &mut checkpoint);
            if checkpoint.stop() {
                return Err(Error::Cancelled);
            }
            if overlaps {
                if is_channel {
                    return Err(Error::InvalidResult {
                        step: "surface sheet",
                        reason: "the path passes over or under itself (its channel overlaps \
                                 in plan view), which no flat sheet can hold"
                            .into(),
                    });
                }
                continue;
            }
            self.keep(plan, t, cell);
            let c = plan.centroid(t as TriId);
            for n in plan.neighbors(t as TriId).into_iter().flatten() {
                let (a, b) = tri_box(plan, n);
                if a.cmpgt(hi).any() || b.cmplt(lo).any() {
                    continue;
                }
                let dn = d + c.distance(plan.centroid(n)).max(f64::MIN_POSITIVE);
                let n = n as u32;
                if self.best.get(&n).is_none_or(|&b| dn < b) {
                    self.best.insert(n, dn);
                    self.open.push(Nearest { d: dn, item: n });
                }
            }
        }
        debug_assert!(self.kept.len() >= in_channel);
        Ok(self.flat(plan))
    }

    /// True when triangle `t`'s interior overlaps a kept triangle's (or `checkpoint` says
    /// stop: the answer is then meaningless).
    fn overlaps_kept(
        &self,
        plan: &NavMesh,
        t: TriId,
        cell: f64,
        checkpoint: &mut Checkpoint<'_>,
    ) -> bool {
        let (a, b) = tri_box(plan, t);
        let tri = plan.triangle(t);
        let (c0, c1) = (cell_of(a, cell), cell_of(b, cell));
        for x in c0.0..=c1.0 {
            for y in c0.1..=c1.1 {
                let Some(list) = self.cells.get(&(x, y)) else {
                    continue;
                };
                if list.iter().any(|&u| {
                    checkpoint.stop() || interiors_overlap(tri, plan.triangle(u as TriId))
                }) {
                    return true;
                }
            }
        }
        false
    }

    fn keep(&mut self, plan: &NavMesh, t: u32, cell: f64) {
        self.kept.push(t);
        let (a, b) = tri_box(plan, t as TriId);
        let (c0, c1) = (cell_of(a, cell), cell_of(b, cell));
        for x in c0.0..=c1.0 {
            for y in c0.1..=c1.1 {
                self.cells.entry((x, y)).or_default().push(t);
            }
        }
    }

    /// The kept triangles as a flat navmesh (vertices renumbered, adjacency kept where
    /// both sides are kept).
    fn flat(&self, plan: &NavMesh) -> Sheet {
        let mut kept = self.kept.clone();
        kept.sort_unstable();
        let sheet_triangle: FxHashMap<u32, u32> = kept
            .iter()
            .enumerate()
            .map(|(i, &t)| (t, i as u32))
            .collect();
        let mut vertex: FxHashMap<u32, u32> = FxHashMap::default();
        let mut vertices = Vec::new();
        let mut triangles = Vec::with_capacity(kept.len());
        let mut neighbors = Vec::with_capacity(kept.len());
        for &t in &kept {
            let tri = plan.triangle_indices()[t as usize];
            triangles.push(tri.map(|v| {
                *vertex.entry(v).or_insert_with(|| {
                    vertices.push(plan.vertices()[v as usize]);
                    (vertices.len() - 1) as u32
                })
            }));
            neighbors.push(std::array::from_fn(|i| {
                plan.across(t as TriId, i)
                    .and_then(|n| sheet_triangle.get(&(n as u32)).copied())
                    .unwrap_or(NO_TRI)
            }));
        }
        let mut mesh = NavMesh::from_parts(vertices, triangles, neighbors);
        mesh.set_triangle_areas(kept.iter().map(|&t| plan.area_of(t as TriId)).collect());
        Sheet {
            mesh,
            surface_triangle: kept,
            sheet_triangle,
        }
    }
}

fn tri_box(plan: &NavMesh, t: TriId) -> (DVec2, DVec2) {
    let [a, b, c] = plan.triangle(t);
    (a.min(b).min(c), a.max(b).max(c))
}

fn cell_of(p: DVec2, cell: f64) -> (i64, i64) {
    ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64)
}

/// True when the interiors of counter-clockwise triangles `p` and `q` meet. Two convex
/// polygons with disjoint interiors are separated by a line through an edge of one of them
/// (the separating axis theorem), so the interiors meet unless, for some edge, the other
/// triangle lies wholly on its closed outer side. Exact (orientation predicates only), so
/// triangles that only touch along an edge or at a corner never count as overlapping.
fn interiors_overlap(p: [DVec2; 3], q: [DVec2; 3]) -> bool {
    let separates = |t: [DVec2; 3], u: [DVec2; 3]| {
        (0..3).any(|i| {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            u.iter().all(|&v| orientation(a, b, v) <= 0)
        })
    };
    !separates(p, q) && !separates(q, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::layered::SurfaceQuery;
    use crate::navmesh::surface::{Surface, UpAxis};
    use glam::DVec3;

    #[test]
    fn a_cancelled_token_stops_the_build() {
        // A fan of 64 triangles round the origin: the path across it goes round the
        // centre through half of them, each overlapping-tested against the others kept.
        let n = 64u32;
        let mut v = vec![DVec3::ZERO];
        v.extend((0..n).map(|k| {
            let t = std::f64::consts::TAU * f64::from(k) / f64::from(n);
            DVec3::new(10.0 * t.cos(), 0.0, 10.0 * t.sin())
        }));
        let tris: Vec<[u32; 3]> = (0..n).map(|k| [0, 1 + (k + 1) % n, 1 + k]).collect();
        let surface = Surface::from_polygons(&v, &tris, UpAxis::Y, 0.0).unwrap();
        let mesh = SurfaceMesh::new(surface).unwrap();
        let mut query = SurfaceQuery::new();
        query.search_triangles();
        let (a, b) = (DVec3::new(9.0, 0.0, 0.1), DVec3::new(-9.0, 0.0, 0.1));
        query.find_path(&mesh, a, b, 0.0).unwrap();
        let cancel = Cancel::new();
        query.set_cancel(Some(cancel.clone()));
        assert!(query.sheet(&mesh, 1.0).unwrap().mesh().num_triangles() > n as usize / 2);
        cancel.cancel();
        assert_eq!(query.sheet(&mesh, 1.0).unwrap_err(), Error::Cancelled);
    }

    #[test]
    fn touching_triangles_do_not_overlap() {
        let a = [DVec2::ZERO, DVec2::X, DVec2::Y];
        let b = [DVec2::X, DVec2::new(1.0, 1.0), DVec2::Y];
        assert!(!interiors_overlap(a, b));
        let corner = [
            DVec2::new(1.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 1.0),
        ];
        assert!(!interiors_overlap(a, corner));
        let shifted = [
            DVec2::new(0.5, 0.0),
            DVec2::new(1.5, 0.0),
            DVec2::new(0.5, 1.0),
        ];
        assert!(interiors_overlap(a, shifted));
        assert!(interiors_overlap(a, a));
        // One inside the other.
        let small = [
            DVec2::new(0.1, 0.1),
            DVec2::new(0.2, 0.1),
            DVec2::new(0.1, 0.2),
        ];
        assert!(interiors_overlap(a, small));
    }
}
