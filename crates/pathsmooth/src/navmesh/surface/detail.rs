//! The detail mesh of a surface: per polygon, a small triangle mesh that carries the true
//! height of the floor inside the polygon (stairs, ramps and bumps that a polygon's
//! corners, sampled once per voxel span, do not show) — Recast's `rcPolyMeshDetail`.

use glam::{DVec2, DVec3};

use super::Surface;
use crate::error::{num, Error, Result};
use crate::geometry::{closest_on_segment, cross, max_map_coordinate};
use crate::navmesh::mesh::PolyId;

/// A surface's detail mesh, as Recast's `rcPolyMeshDetail` holds it: one sub-mesh per
/// polygon (by polygon id), each a list of vertices and triangles over them.
///
/// The data as given; [`Surface::with_detail`] checks it against the surface's polygons
/// before attaching it, and [`Surface::detail`] gives it back unchanged.
///
/// Source: M. Mononen, Recast (recastnavigation), `rcPolyMeshDetail` and
/// `rcBuildPolyMeshDetail`.
///
/// ```
/// use glam::{DVec2, DVec3};
/// use pathsmooth::navmesh::{Detail, Surface, UpAxis};
/// // A flat square (y up) whose detail mesh raises its middle: a bump of height 1.
/// let v = [DVec3::new(0.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0)];
/// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Y, 0.0)?;
/// let mut dv = v.to_vec();
/// dv.push(DVec3::new(1.0, 1.0, 1.0));
/// let detail = Detail {
///     meshes: vec![[0, 5, 0, 4]],
///     vertices: dv,
///     triangles: vec![[0, 1, 4, 1], [1, 2, 4, 1], [2, 3, 4, 1], [3, 0, 4, 1]],
/// };
/// let s = s.with_detail(detail)?;
/// assert_eq!(s.floor_height(0, DVec2::new(1.0, 1.0)), 1.0);
/// assert_eq!(s.floor_height(0, DVec2::new(1.5, 1.0)), 0.5);
/// assert_eq!(s.height_at(0, DVec2::new(1.0, 1.0)), 0.0);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Detail {
    /// Per polygon `p` (as many as the surface has polygons):
    /// `[first vertex, vertex count, first triangle, triangle count]` of its sub-mesh in
    /// [`vertices`](Self::vertices) and [`triangles`](Self::triangles).
    pub meshes: Vec<[u32; 4]>,
    /// The detail vertices, world axes. Recast starts each sub-mesh with the polygon's
    /// corners (heights re-sampled), then samples on its edges and inside it.
    pub vertices: Vec<DVec3>,
    /// `[a, b, c, edge flags]`: `a`, `b`, `c` index the sub-mesh's vertices (add its first
    /// vertex for an index into [`vertices`](Self::vertices)); the flags are Recast's two
    /// bits per edge (ab, bc, ca), non-zero for an edge on the polygon's outline (kept,
    /// not interpreted).
    pub triangles: Vec<[u32; 4]>,
}

impl Detail {
    /// The vertices and triangles of polygon `p`'s sub-mesh. Only for a detail mesh that
    /// [`Surface::with_detail`] accepted (the ranges are in bounds).
    fn sub_mesh(&self, p: PolyId) -> (&[DVec3], &[[u32; 4]]) {
        let [vb, vn, tb, tn] = self.meshes[p as usize].map(|x| x as usize);
        (&self.vertices[vb..vb + vn], &self.triangles[tb..tb + tn])
    }
}

/// How far (plan view) a detail vertex may lie outside its polygon, relative to the
/// polygon's largest plan-view coordinate (at least 1): eight `f32` epsilons, as Recast
/// stores its detail vertices in `f32` (the bakes' worst is about half of this).
const OUTSIDE_SLACK: f64 = 8.0 * f32::EPSILON as f64;

/// The problem with polygon `p`'s detail sub-mesh, as an error.
fn bad(p: usize, message: String) -> Error {
    Error::InvalidPolygon {
        message: format!("detail mesh of polygon {p}: {message}"),
    }
}

impl Surface {
    /// The surface with `detail` attached as its detail mesh (replacing any), so that
    /// [`floor_height`](Self::floor_height) reads heights from it. Links attached before
    /// ([`with_links`](Self::with_links)) are resolved again, their ends snapped to the
    /// detail heights.
    ///
    /// Checks, each error an [`Error::InvalidPolygon`] naming the polygon, its triangle
    /// (by its position in the sub-mesh and in [`Detail::triangles`]) or vertex: one
    /// sub-mesh per polygon; every range in bounds; at least 3 vertices and 1 triangle
    /// per sub-mesh; every vertex used finite and within
    /// [`max_map_coordinate`]; every triangle's
    /// indices within its sub-mesh, its corners inside the polygon in plan view (within
    /// eight `f32` epsilons of the polygon's largest coordinate: Recast stores them in
    /// `f32`); and the triangles' plan-view areas adding up to the polygon's (to 10⁻⁴ of
    /// it, plus what that rounding can move along its outline: a missing or doubled
    /// triangle). A triangle with no plan-view area at that rounding (a sliver: no height
    /// is defined on it) is ignored and counted in the
    /// [`LoadReport`](super::LoadReport)'s `detail_slivers`. Heights are not checked against the polygon's plane:
    /// the detail mesh is there because they differ. Never a panic. An error from link
    /// re-resolution is [`with_links`](Self::with_links)'s.
    ///
    /// Cost: O(polygons + detail vertices + detail triangles × polygon size).
    ///
    /// Source: M. Mononen, Recast (recastnavigation), `rcPolyMeshDetail`.
    pub fn with_detail(mut self, detail: Detail) -> Result<Surface> {
        self.report.detail_slivers = check(&self, &detail)?;
        self.detail = Some(detail);
        if !self.links.is_empty() {
            let given: Vec<_> = self.links.iter().map(|l| l.given).collect();
            return self.with_links(&given);
        }
        Ok(self)
    }

    /// The surface without its detail mesh ([`floor_height`](Self::floor_height) falls
    /// back on the polygons' planes); links are resolved again as in
    /// [`with_detail`](Self::with_detail).
    pub fn without_detail(mut self) -> Result<Surface> {
        self.detail = None;
        if !self.links.is_empty() {
            let given: Vec<_> = self.links.iter().map(|l| l.given).collect();
            return self.with_links(&given);
        }
        Ok(self)
    }

    /// The detail mesh, if one is attached ([`with_detail`](Self::with_detail)). O(1).
    pub fn detail(&self) -> Option<&Detail> {
        self.detail.as_ref()
    }

    /// The height of the floor of polygon `p` at plan-view point `plan`: with a detail
    /// mesh, the height of the detail triangle of `p` containing `plan` in plan view,
    /// interpolated linearly (barycentric; exactly the vertex's height at a detail
    /// vertex); for a point outside every triangle of `p` (on the polygon's edge but off
    /// by rounding, or outside the polygon), the height at the nearest plan-view point of
    /// the nearest triangle. Without a detail mesh, the polygon's plane
    /// ([`height_at`](Self::height_at)) when the polygon is planar (to rounding), else the
    /// same interpolation over the fan of its own triangles from its first corner
    /// ([`polygon`](Self::polygon)): exact at its corners and linear along its edges, so
    /// two neighbours agree along the edge they share. Finite for a finite `plan` within
    /// the coordinate limits; panics if `p` is out of range.
    ///
    /// Cost: O(detail triangles of `p`) (Recast makes a few to a few dozen), O(1) for a
    /// planar polygon without a detail mesh, O(its corners) for a bent one.
    ///
    /// Source: Detour's `dtNavMeshQuery::getPolyHeight` (M. Mononen, recastnavigation),
    /// which does the same over the detail triangles of a polygon (and over the polygon's
    /// fan when a tile has no detail mesh).
    pub fn floor_height(&self, p: PolyId, plan: DVec2) -> f64 {
        let at = |v: DVec3| self.up.split(v);
        match &self.detail {
            Some(detail) => {
                let (verts, tris) = detail.sub_mesh(p);
                let at = |i: u32| at(verts[i as usize]);
                height_over(plan, tris.iter().map(|t| [at(t[0]), at(t[1]), at(t[2])]))
            }
            None if self.bent[p as usize] => {
                let ring = self.polygon(p);
                let at = |i: usize| at(self.vertices[ring[i] as usize]);
                height_over(plan, (1..ring.len() - 1).map(|i| [at(0), at(i), at(i + 1)]))
            }
            None => self.height_at(p, plan),
        }
    }
}

impl Surface {
    /// [`floor_height`](Self::floor_height) at corner `i` of polygon `p`
    /// ([`polygon`](Self::polygon)), in O(1) without a detail mesh: a bent polygon's own
    /// fan passes through its corners, so there it is the corner's own height.
    pub(crate) fn corner_floor_height(&self, p: PolyId, i: usize) -> f64 {
        let corner = self.vertices[self.polygon(p)[i] as usize];
        let (plan, h) = self.up.split(corner);
        if self.detail.is_none() && self.bent[p as usize] {
            h
        } else {
            self.floor_height(p, plan)
        }
    }
}

/// The height at plan-view point `plan` of a floor made of `triangles` (plan-view
/// corner, height): interpolated in the triangle containing `plan`, else at the nearest
/// plan-view point of the nearest triangle edge. Triangles with no plan-view area never
/// contain a point (their weights are not finite) but their edges count.
fn height_over(plan: DVec2, triangles: impl Iterator<Item = [(DVec2, f64); 3]> + Clone) -> f64 {
    // The triangle holding the point first, as Detour's getPolyHeight looks: the edges'
    // distances are only for a point that no triangle holds (rounding at an edge).
    for [(a, ha), (b, hb), (c, hc)] in triangles.clone() {
        let area2 = cross(b - a, c - a);
        // Barycentric weights by the sub-triangles opposite `b` and `c`: at a corner its
        // weight is exactly 1 and the others exactly 0 (`area2 / area2`, a zero cross
        // product), so a corner gets its own height.
        let (wb, wc) = (
            cross(plan - a, c - a) / area2,
            cross(b - a, plan - a) / area2,
        );
        let wa = 1.0 - wb - wc;
        if wa >= 0.0 && wb >= 0.0 && wc >= 0.0 {
            return wa * ha + wb * hb + wc * hc;
        }
    }
    let mut nearest = (f64::INFINITY, 0.0);
    for [(a, ha), (b, hb), (c, hc)] in triangles {
        for ((u, hu), (v, hv)) in [((a, ha), (b, hb)), ((b, hb), (c, hc)), ((c, hc), (a, ha))] {
            let (q, s) = closest_on_segment(plan, u, v);
            let d = q.distance_squared(plan);
            if d < nearest.0 {
                // This blend is exact at either end (an end's own height).
                nearest = (d, hu * (1.0 - s) + hv * s);
            }
        }
    }
    nearest.1
}

/// The checks of [`Surface::with_detail`]; the number of triangles with no plan-view area.
fn check(surface: &Surface, detail: &Detail) -> Result<usize> {
    let n = surface.num_polygons();
    if detail.meshes.len() != n {
        return Err(Error::InvalidPolygon {
            message: format!(
                "the detail mesh has {} sub-meshes for {n} polygons: it needs one per polygon",
                detail.meshes.len()
            ),
        });
    }
    let limit = max_map_coordinate::<f64>();
    let up = surface.up;
    let mut slivers = 0;
    for (p, &[vb, vn, tb, tn]) in detail.meshes.iter().enumerate() {
        let (nv, nt) = (detail.vertices.len(), detail.triangles.len());
        if vn < 3 || tn < 1 {
            return Err(bad(
                p,
                format!("{vn} vertices and {tn} triangles: it needs at least 3 and 1"),
            ));
        }
        // In u64: a hostile `first + count` must not wrap.
        if u64::from(vb) + u64::from(vn) > nv as u64 {
            return Err(bad(
                p,
                format!(
                    "vertices {vb} to {} are out of range: there are {nv} detail vertices",
                    u64::from(vb) + u64::from(vn) - 1
                ),
            ));
        }
        if u64::from(tb) + u64::from(tn) > nt as u64 {
            return Err(bad(
                p,
                format!(
                    "triangles {tb} to {} are out of range: there are {nt} detail triangles",
                    u64::from(tb) + u64::from(tn) - 1
                ),
            ));
        }
        let (vb, vn, tb, tn) = (vb as usize, vn as usize, tb as usize, tn as usize);
        let verts = &detail.vertices[vb..vb + vn];
        for (i, v) in verts.iter().enumerate() {
            if !v.is_finite() || v.abs().max_element() > limit {
                return Err(bad(
                    p,
                    format!(
                        "vertex {i} (detail vertex {}) at ({}, {}, {}) is not finite or beyond ±{}",
                        vb + i,
                        num(v.x),
                        num(v.y),
                        num(v.z),
                        num(limit)
                    ),
                ));
            }
        }
        let ring: Vec<DVec2> = surface.plan_polygon(p as PolyId).collect();
        let scale = ring
            .iter()
            .fold(1.0f64, |m, q| m.max(q.abs().max_element()));
        let slack = OUTSIDE_SLACK * scale;
        let mut covered = 0.0;
        for (k, t) in detail.triangles[tb..tb + tn].iter().enumerate() {
            let name = format!("triangle {k} (detail triangle {})", tb + k);
            if let Some(&i) = t[..3].iter().find(|&&i| i as usize >= vn) {
                return Err(bad(
                    p,
                    format!("{name} uses vertex {i}, but the sub-mesh has {vn} vertices"),
                ));
            }
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| up.plan(verts[i as usize]));
            let area2 = cross(b - a, c - a);
            let longest = (b - a).length().max((c - b).length()).max((a - c).length());
            if !area2.is_finite() {
                return Err(bad(p, format!("{name} has no finite area in plan view")));
            }
            // A sliver at rounding level carries no height: it is ignored (and counted).
            if area2.abs() <= slack * longest {
                slivers += 1;
                continue;
            }
            covered += area2.abs() / 2.0;
            for (corner, q) in [a, b, c].into_iter().enumerate() {
                // The polygon is counter-clockwise: inside is left of every edge.
                let outside = (0..ring.len())
                    .map(|i| {
                        let (u, v) = (ring[i], ring[(i + 1) % ring.len()]);
                        -cross(v - u, q - u) / (v - u).length()
                    })
                    .fold(f64::NEG_INFINITY, f64::max);
                if outside > slack {
                    return Err(bad(
                        p,
                        format!(
                            "{name}: its vertex {} at ({}, {}) in plan view is {} outside the polygon",
                            t[corner],
                            num(q.x),
                            num(q.y),
                            num(outside)
                        ),
                    ));
                }
            }
        }
        let area = super::plane::plan_area2(&ring) / 2.0;
        // Relative, and what f32 rounding of the vertices can shift along the outline.
        let perimeter: f64 = (0..ring.len())
            .map(|i| ring[i].distance(ring[(i + 1) % ring.len()]))
            .sum();
        if (covered - area).abs() > 1e-4 * area + slack * perimeter {
            return Err(bad(
                p,
                format!(
                    "its triangles cover {} in plan view, the polygon {}: a triangle is missing or doubled",
                    num(covered),
                    num(area)
                ),
            ));
        }
    }
    Ok(slivers)
}
