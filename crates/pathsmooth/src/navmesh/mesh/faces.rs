//! The faces of a constrained triangulation that lie in the free region, and the wall runs
//! of a grid outline.

use std::collections::VecDeque;

use glam::DVec2;
use spade::Triangulation;

use super::{Cdt, NO_TRI};
use crate::geometry::cross;

/// The inner faces of a CDT that a caller keeps, as triangles with adjacency.
pub(crate) struct KeptFaces {
    /// Vertex indices (spade's), counter-clockwise.
    pub triangles: Vec<[u32; 3]>,
    /// The triangle across each edge, or [`NO_TRI`] where the face across is not kept.
    pub neighbors: Vec<[u32; 3]>,
    /// Spade face index → triangle, or [`NO_TRI`].
    pub face_to_tri: Vec<u32>,
}

/// The inner faces of `cdt` for which `keep(face index, corners)` holds, with adjacency from
/// the triangulation's twin edges (O(1) per edge, no edge table).
pub(crate) fn kept_faces(cdt: &Cdt, keep: impl Fn(usize, [DVec2; 3]) -> bool) -> KeptFaces {
    let mut face_to_tri = vec![NO_TRI; cdt.num_all_faces()];
    let mut triangles = Vec::new();
    for face in cdt.inner_faces() {
        let corners = face.positions().map(|p| DVec2::new(p.x, p.y));
        if keep(face.index(), corners) {
            face_to_tri[face.index()] = triangles.len() as u32;
            let [a, b, c] = face.vertices().map(|v| v.fix().index() as u32);
            let [p, q, r] = corners;
            triangles.push(if cross(q - p, r - p) > 0.0 {
                [a, b, c]
            } else {
                [a, c, b]
            });
        }
    }
    let neighbors = cdt
        .inner_faces()
        .filter(|face| face_to_tri[face.index()] != NO_TRI)
        .zip(&triangles)
        .map(|(face, tri)| {
            let mut across = [NO_TRI; 3];
            for e in face.adjacent_edges() {
                let [a, b] = [e.from(), e.to()].map(|v| v.fix().index() as u32);
                // Our corners may run the other way round than spade's.
                let i = (0..3)
                    .find(|&i| {
                        let (p, q) = (tri[i], tri[(i + 1) % 3]);
                        (p, q) == (a, b) || (p, q) == (b, a)
                    })
                    .expect("a face's edge joins two of its corners");
                across[i] = face_to_tri[e.rev().face().fix().index()];
            }
            across
        })
        .collect();
    KeptFaces {
        triangles,
        neighbors,
        face_to_tri,
    }
}

/// Marks each spade face inside the free region: a breadth-first flood from the faces on
/// the convex hull, flipping parity across every constraint edge. Every wall vertex has an
/// even number of wall edges (closed rings, grid outlines), so the parity does not depend on
/// the route the flood takes.
pub(crate) fn classify_faces(cdt: &Cdt) -> Vec<bool> {
    let n = cdt.num_all_faces();
    let mut parity: Vec<Option<bool>> = vec![None; n];
    let mut queue = VecDeque::new();
    for hull_edge in cdt.convex_hull() {
        // One side of a hull edge is the outer face, the other an inner face.
        for e in [hull_edge, hull_edge.rev()] {
            if let Some(inner) = e.face().as_inner() {
                let idx = inner.fix().index();
                if parity[idx].is_none() {
                    parity[idx] = Some(e.is_constraint_edge());
                    queue.push_back(inner.fix());
                }
            }
        }
    }
    while let Some(f) = queue.pop_front() {
        let here = parity[f.index()].unwrap_or(false);
        for e in cdt.face(f).adjacent_edges() {
            let Some(other) = e.rev().face().as_inner() else {
                continue;
            };
            let idx = other.fix().index();
            if parity[idx].is_none() {
                parity[idx] = Some(here ^ e.is_constraint_edge());
                queue.push_back(other.fix());
            }
        }
    }
    parity.into_iter().map(|p| p == Some(true)).collect()
}

/// The free side of a cell edge between the cell `before` it (above, or left) and the cell
/// `after` it (below, or right): Some(true) when only `after` is free, Some(false) when only
/// `before` is, None when the edge is no wall.
pub(crate) fn wall_side(before: bool, after: bool) -> Option<bool> {
    (before != after).then_some(after)
}

/// The maximal runs `[k0, k1)` of `0..len` over which `side(k)` is the same `Some` (one
/// merged wall each).
pub(crate) fn wall_runs(
    len: i64,
    side: impl Fn(i64) -> Option<bool>,
) -> impl Iterator<Item = (i64, i64)> {
    let mut k = 0;
    std::iter::from_fn(move || {
        while k < len {
            let Some(s) = side(k) else {
                k += 1;
                continue;
            };
            let k0 = k;
            while k < len && side(k) == Some(s) {
                k += 1;
            }
            return Some((k0, k));
        }
        None
    })
}
