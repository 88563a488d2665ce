//! The polygon a path enters at each of its points ([`NavMesh::polygons_along`]).

use std::collections::HashSet;

use glam::DVec2;

use crate::error::{Error, Result};
use crate::geometry::cross;
use crate::navmesh::mesh::{NavMesh, PolyId, TriId};

/// See [`NavMesh::polygons_along`].
pub(crate) fn polygons_along(mesh: &NavMesh, path: &[DVec2]) -> Result<Vec<PolyId>> {
    let mut out = Vec::with_capacity(path.len());
    for (i, &p) in path.iter().enumerate() {
        let Some(t) = mesh.locate(p) else {
            return Err(Error::InvalidInputPath {
                reason: format!("point {i} ({}, {}) is outside the navmesh", p.x, p.y),
            });
        };
        // The direction the path leaves in: towards the next point that differs.
        let d = path[i + 1..]
            .iter()
            .map(|&q| q - p)
            .find(|d| *d != DVec2::ZERO);
        let t = d.and_then(|d| entered(mesh, t, p, d)).unwrap_or(t);
        out.push(mesh.polygon_of(t));
    }
    Ok(out)
}

/// Among the triangles holding `p` (reached from `t` through shared edges), one whose
/// closed corner, edge side or interior at `p` holds direction `d`; `None` when the path
/// leaves the mesh there.
fn entered(mesh: &NavMesh, t: TriId, p: DVec2, d: DVec2) -> Option<TriId> {
    // The triangles touching a point form a fan round it (or two, on an edge); a short
    // breadth-first walk over the neighbours that still hold `p` visits them all.
    let mut queue = vec![t];
    let mut seen = HashSet::from([t]);
    let mut k = 0;
    while k < queue.len() {
        let u = queue[k];
        k += 1;
        if holds_direction(mesh, u, p, d) {
            return Some(u);
        }
        for n in mesh.neighbors(u).into_iter().flatten() {
            if mesh.triangle_contains(n, p) && seen.insert(n) {
                queue.push(n);
            }
        }
    }
    None
}

/// True when a short step from `p` (which lies in the closed triangle `t`) along `d` stays
/// in `t`: every edge that `p` lies on has `d` on its inner side (or along it).
fn holds_direction(mesh: &NavMesh, t: TriId, p: DVec2, d: DVec2) -> bool {
    let c = mesh.triangle(t);
    (0..3).all(|i| {
        let (a, b) = (c[i], c[(i + 1) % 3]);
        cross(b - a, p - a) != 0.0 || cross(b - a, d) >= 0.0
    })
}
