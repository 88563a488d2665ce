//! Cutting a convex plan-view shape out of some polygons of a surface (temporary obstacles
//! on a layered navmesh, issue 40).
//!
//! A convex polygon minus a convex shape is the union of convex pieces, one per edge of
//! the shape: the part outside that edge and inside every edge before it (the pieces
//! meet only along their sides). The surface is then built again from its polygons with
//! the cut ones replaced by their pieces, through the same builder as every file
//! ([`Surface::from_data`]): the pieces' new corners on a cut polygon's sides are welded
//! to its neighbour's and split into untouched neighbours' edges (T-junctions), so the
//! floor stays joined round the hole.

use glam::{DVec2, DVec3};

use super::issue::Issue;
use super::weld::weld;
use super::{Detail, Surface, SurfaceData};
use crate::error::Result;
use crate::geometry::{clip_half_plane, convex_overlap, cross, ClipCorner};
use crate::navmesh::mesh::PolyId;

/// A corner of a piece while it is clipped: plan-view point, floor height, and what is
/// known of it.
#[derive(Debug, Clone, Copy)]
struct Corner {
    plan: DVec2,
    height: f64,
    /// The surface vertex it is, for the polygon's own corners.
    vertex: Option<u32>,
    /// Its height is the floor's: a corner of the polygon, or a point of one of its sides
    /// (interpolated along the side, as the neighbour across it does, so the two weld).
    /// Other corners (inside the polygon) take [`Surface::floor_height`].
    exact: bool,
    /// The side from this corner to the next is part of one of the polygon's sides.
    side: bool,
}

impl Surface {
    /// The surface with the open convex counter-clockwise plan-view polygon `ring` taken
    /// out of those of the polygons `chosen` it overlaps, and for each polygon of the new
    /// surface the polygon of this one it is (or is a piece of); `Ok(None)` when `ring`
    /// overlaps none of them.
    ///
    /// Every polygon keeps its area, flags and [reference](Self::polygon_ref) (a piece
    /// takes its polygon's), the links and the bake's agent are kept, and the detail mesh
    /// is clipped to the pieces (a piece's floor is its polygon's, exactly). New corners
    /// take the floor's height: interpolated along the polygon's side for a corner on it
    /// (as its neighbour's piece interpolates it, so the two weld), the polygon's
    /// [`floor_height`](Self::floor_height) inside it.
    ///
    /// Errors: [`Error::NoFreeSpace`](crate::Error::NoFreeSpace) when no polygon is left;
    /// those of [`Surface::from_data`] on the rebuilt polygons (none expected of a surface
    /// it built). Cost: O(polygons + corners) for the copy, O(|ring|²) a cut polygon, and
    /// the builder's O(n log n).
    pub(crate) fn cut_convex(
        &self,
        chosen: &[PolyId],
        ring: &[DVec2],
    ) -> Result<Option<(Surface, Vec<PolyId>)>> {
        let mut cut = vec![false; self.num_polygons()];
        let mut any = false;
        let mut plan: Vec<DVec2> = Vec::new();
        for &p in chosen {
            plan.clear();
            plan.extend(self.plan_polygon(p));
            if convex_overlap(ring, &plan) {
                cut[p as usize] = true;
                any = true;
            }
        }
        if !any {
            return Ok(None);
        }
        let (mut data, mut detail) = self.empty_copy();
        data.links = self.links.iter().map(|l| l.given).collect();
        // Input polygon → the polygon of `self` it comes from.
        let mut origin: Vec<PolyId> = Vec::new();
        let mut push = |data: &mut SurfaceData, polygon: Vec<u32>, p: PolyId| {
            data.polygons.push(polygon);
            data.areas.push(self.area(p));
            data.flags.push(self.flags(p));
            data.refs.push(self.polygon_ref(p));
            origin.push(p);
        };
        // The cut's new corners are welded to each other and to the cut polygons' own
        // corners within the straight tolerance: a corner one piece computes (a clip line
        // crossing a side, two clip lines meeting at a corner of the shape) is computed
        // again, rounded otherwise, by the next piece and by the polygon across the side;
        // made one vertex, the pieces weld and no side carries a second corner a rounding
        // away from the first (which left no triangulation of positive area). The cut
        // polygons' corners come first, so a new corner on one takes it.
        let cut_polygons = (0..self.num_polygons() as PolyId).filter(|&p| cut[p as usize]);
        let own: Vec<u32> = cut_polygons
            .clone()
            .flat_map(|p| self.polygon(p).iter().copied())
            .collect();
        let mut points: Vec<DVec3> = own.iter().map(|&v| self.vertices[v as usize]).collect();
        let pieces: Vec<Vec<Vec<Corner>>> = cut_polygons
            .map(|p| {
                let pieces = self.outside_pieces(p, ring);
                let new = pieces.iter().flatten().filter(|c| c.vertex.is_none());
                points.extend(new.map(|c| self.corner_point(p, c)));
                pieces
            })
            .collect();
        let welded = weld(&points, self.straight_tolerance(), None).map_err(|i: Issue| i.error)?;
        // Per welded point, the surface vertex it became (`u32::MAX`: none yet).
        let mut vertex = vec![u32::MAX; welded.vertices.len()];
        for (i, &v) in own.iter().enumerate() {
            let k = welded.remap[i] as usize;
            if vertex[k] == u32::MAX {
                vertex[k] = v;
            }
        }
        let (mut pieces, mut next_point) = (pieces.into_iter(), own.len());
        for p in 0..self.num_polygons() as PolyId {
            if !cut[p as usize] {
                push(&mut data, self.polygon(p).to_vec(), p);
                if let (Some(d), Some(old)) = (&mut detail, &self.detail) {
                    d.meshes.push(old.meshes[p as usize]);
                }
                continue;
            }
            for piece in pieces.next().into_iter().flatten() {
                let mut corners: Vec<u32> = piece
                    .iter()
                    .map(|c| {
                        c.vertex.unwrap_or_else(|| {
                            let k = welded.remap[next_point] as usize;
                            next_point += 1;
                            if vertex[k] == u32::MAX {
                                data.vertices.push(welded.vertices[k]);
                                vertex[k] = (data.vertices.len() - 1) as u32;
                            }
                            vertex[k]
                        })
                    })
                    .collect();
                corners.dedup();
                if corners.len() > 1 && corners[0] == corners[corners.len() - 1] {
                    corners.pop();
                }
                if corners.len() < 3 {
                    continue;
                }
                push(&mut data, corners, p);
                if let (Some(d), Some(old)) = (&mut detail, &self.detail) {
                    clip_detail(self, old, p, &piece, d);
                }
            }
        }
        let surface = self.rebuilt(data, detail)?;
        let origin = (0..surface.num_polygons() as PolyId)
            .map(|q| origin[surface.input_polygon(q) as usize])
            .collect();
        Ok(Some((surface, origin)))
    }

    /// The convex pieces of polygon `p` outside `ring` (counter-clockwise, convex), each
    /// of positive plan-view area beyond the surface's tolerance. A bent polygon without
    /// a detail mesh has its floor on the fan of its triangles from its first corner
    /// ([`floor_height`](Self::floor_height)): each of those is cut on its own, so that
    /// every piece is flat on the floor and keeps its heights.
    fn outside_pieces(&self, p: PolyId, ring: &[DVec2]) -> Vec<Vec<Corner>> {
        let polygon: Vec<Corner> = (self.polygon(p).iter())
            .map(|&v| {
                let (plan, height) = self.up.split(self.vertices[v as usize]);
                Corner {
                    plan,
                    height,
                    vertex: Some(v),
                    exact: true,
                    side: true,
                }
            })
            .collect();
        let bases = if self.detail.is_none() && self.bent[p as usize] {
            // (A fan's inner sides carry the floor linearly too: `side` holds.)
            (1..polygon.len() - 1)
                .map(|i| vec![polygon[0], polygon[i], polygon[i + 1]])
                .collect()
        } else {
            vec![polygon]
        };
        let m = ring.len();
        let mut pieces = Vec::new();
        for base in &bases {
            for i in 0..m {
                // Outside edge i, inside edges 0..i.
                let mut piece = clip(base, ring[i], ring[(i + 1) % m], -1.0);
                for j in 0..i {
                    if piece.len() < 3 {
                        break;
                    }
                    piece = clip(&piece, ring[j], ring[(j + 1) % m], 1.0);
                }
                if piece.len() >= 3 && self.has_area(&piece) {
                    pieces.push(piece);
                }
            }
        }
        pieces
    }

    /// A new corner of a piece of polygon `p` in 3D: its height the side's (interpolated)
    /// when it lies on one, else the polygon's floor there.
    fn corner_point(&self, p: PolyId, c: &Corner) -> DVec3 {
        let h = if c.exact {
            c.height
        } else {
            self.floor_height(p, c.plan)
        };
        self.up.join(c.plan, h)
    }

    /// True when the piece's plan-view area is beyond rounding (the builder's test for a
    /// polygon with area, so that no piece is dropped there).
    fn has_area(&self, piece: &[Corner]) -> bool {
        let o = piece[0].plan;
        let area2: f64 = (1..piece.len() - 1)
            .map(|k| cross(piece[k].plan - o, piece[k + 1].plan - o))
            .sum();
        let (lo, hi) = piece
            .iter()
            .fold((o, o), |(lo, hi), c| (lo.min(c.plan), hi.max(c.plan)));
        let size = (hi - lo).length();
        area2 > 4.0 * self.tolerance * size.max(self.tolerance)
    }
}

impl ClipCorner for Corner {
    fn at(&self) -> DVec2 {
        self.plan
    }
    /// A new corner, its height interpolated along the side: exact when the side is one of
    /// the polygon's. Entering the half-plane, the rest of the side follows it; leaving,
    /// the clip line.
    fn cut(&self, next: &Self, t: f64, entering: bool) -> Self {
        Corner {
            plan: self.plan + t * (next.plan - self.plan),
            height: self.height + t * (next.height - self.height),
            vertex: None,
            exact: self.side,
            side: self.side && entering,
        }
    }
    /// What follows a corner on the line whose side leaves runs along the line.
    fn leaving(self) -> Self {
        Corner {
            side: false,
            ..self
        }
    }
}

/// The part of the convex polygon `polygon` on the side `sign` of the line `a`–`b` (1:
/// left, −1: right; points on the line kept, see [`clip_half_plane`]), with corners that
/// fall on one another (where the line passes through a corner) kept once.
fn clip(polygon: &[Corner], a: DVec2, b: DVec2, sign: f64) -> Vec<Corner> {
    let mut out = clip_half_plane(polygon, a, b, sign);
    out.dedup_by(|b, a| a.plan == b.plan);
    if out.len() > 1 && out[0].plan == out[out.len() - 1].plan {
        out.pop();
    }
    out
}

/// Appends to `into` the sub-mesh of `piece` (a piece of polygon `p`): each of `p`'s
/// detail triangles in `old` clipped to the piece and fanned, heights interpolated in the
/// triangle (so exactly the floor's).
fn clip_detail(surface: &Surface, old: &Detail, p: PolyId, piece: &[Corner], into: &mut Detail) {
    let [vb, _, tb, tn] = old.meshes[p as usize].map(|x| x as usize);
    let first_vertex = into.vertices.len() as u32;
    let first_triangle = into.triangles.len() as u32;
    let up = surface.up;
    let n = piece.len();
    for t in &old.triangles[tb..tb + tn] {
        let mut poly: Vec<Corner> = t[..3]
            .iter()
            .map(|&i| {
                let (plan, height) = up.split(old.vertices[vb + i as usize]);
                Corner {
                    plan,
                    height,
                    vertex: None,
                    exact: true,
                    side: true,
                }
            })
            .collect();
        // The detail triangle may wind either way in plan view; the piece is
        // counter-clockwise, so its inside is left of each side.
        for k in 0..n {
            if poly.len() < 3 {
                break;
            }
            poly = clip(&poly, piece[k].plan, piece[(k + 1) % n].plan, 1.0);
        }
        if poly.len() < 3 {
            continue;
        }
        let base = into.vertices.len() as u32 - first_vertex;
        into.vertices
            .extend(poly.iter().map(|c| up.join(c.plan, c.height)));
        into.triangles
            .extend((1..poly.len() as u32 - 1).map(|k| [base, base + k, base + k + 1, 0]));
    }
    into.meshes.push([
        first_vertex,
        into.vertices.len() as u32 - first_vertex,
        first_triangle,
        into.triangles.len() as u32 - first_triangle,
    ]);
}
