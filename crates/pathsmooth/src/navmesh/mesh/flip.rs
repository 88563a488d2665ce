//! Lawson's edge flips (C. L. Lawson, "Software for C¹ surface interpolation", 1977): make
//! a triangulation Delaunay again where it is not, here across the borders of the tiles a
//! grid map's navmesh is built from.
//!
//! Each tile is a constrained Delaunay triangulation, but their union is not: near a border
//! a triangle's circumcircle can hold a vertex of the next tile. The funnel with a radius
//! and Demyen & Buro's widths rely on the Delaunay property (the nearest wall corner to a
//! passage is a corner of its triangles), so the stitched mesh flips every open edge whose
//! far vertex lies strictly inside its triangle's circumcircle, starting from the border
//! edges and following the edges each flip exposes. Walls have no neighbour and are never
//! flipped, so the result is the constrained Delaunay triangulation of the same vertices.
//! Each flip is O(1); the flips stay near the borders.

use super::NO_TRI;

/// Flips the open edges of the counter-clockwise `triangles` (with their `neighbors`) that
/// are not locally Delaunay, starting from `edges` (triangle, edge index). `points` are
/// the vertices' coordinates, exact (grid corners), for the incircle predicate.
pub(crate) fn make_delaunay(
    points: &[(i32, i32)],
    triangles: &mut [[u32; 3]],
    neighbors: &mut [[u32; 3]],
    mut edges: Vec<(u32, u8)>,
) {
    let at = |v: u32| {
        let (x, y) = points[v as usize];
        robust::Coord {
            x: x as f64,
            y: y as f64,
        }
    };
    while let Some((t, i)) = edges.pop() {
        let (t, i) = (t as usize, i as usize);
        let u = neighbors[t][i];
        if u == NO_TRI {
            continue;
        }
        let u = u as usize;
        let Some(k) = neighbors[u].iter().position(|&n| n as usize == t) else {
            continue;
        };
        // t = [a, b, c] with the edge a→b; u = [b, a, d] across it.
        let [a, b, c] = [
            triangles[t][i],
            triangles[t][(i + 1) % 3],
            triangles[t][(i + 2) % 3],
        ];
        let d = triangles[u][(k + 2) % 3];
        if robust::incircle(at(a), at(b), at(c), at(d)) <= 0.0 {
            continue;
        }
        let (n_bc, n_ca) = (neighbors[t][(i + 1) % 3], neighbors[t][(i + 2) % 3]);
        let (n_ad, n_db) = (neighbors[u][(k + 1) % 3], neighbors[u][(k + 2) % 3]);
        // The diagonal c–d replaces a–b: t = [a, d, c], u = [d, b, c].
        triangles[t] = [a, d, c];
        neighbors[t] = [n_ad, u as u32, n_ca];
        triangles[u] = [d, b, c];
        neighbors[u] = [n_db, n_bc, t as u32];
        // a–d moved from u to t, b–c from t to u.
        relink(neighbors, n_ad, u, t);
        relink(neighbors, n_bc, t, u);
        edges.extend([(t as u32, 0), (t as u32, 2), (u as u32, 0), (u as u32, 1)]);
    }
}

/// Points `n`'s link to `from` at `to` (nothing for a wall).
fn relink(neighbors: &mut [[u32; 3]], n: u32, from: usize, to: usize) {
    if n == NO_TRI {
        return;
    }
    for m in &mut neighbors[n as usize] {
        if *m as usize == from {
            *m = to as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thin_pair_is_flipped_to_the_short_diagonal() {
        // A flat kite split along its long diagonal 0–1: each far vertex is inside the other
        // triangle's circumcircle (the angles at 2 and 3 are 143° each).
        let points = [(0, 0), (6, 0), (3, 1), (3, -1)];
        // t = [0, 1, 2] (edge 0→1 shared), u = [1, 0, 3].
        let mut triangles = [[0, 1, 2], [1, 0, 3]];
        let mut neighbors = [[1, NO_TRI, NO_TRI], [0, NO_TRI, NO_TRI]];
        make_delaunay(&points, &mut triangles, &mut neighbors, vec![(0, 0)]);
        // The short diagonal 2–3 replaces it, with the links turned accordingly.
        assert_eq!(triangles, [[0, 3, 2], [3, 1, 2]]);
        assert_eq!(neighbors, [[NO_TRI, 1, NO_TRI], [NO_TRI, NO_TRI, 0]]);
        // Flipping again finds nothing to do.
        make_delaunay(
            &points,
            &mut triangles,
            &mut neighbors,
            vec![(0, 1), (1, 2)],
        );
        assert_eq!(triangles, [[0, 3, 2], [3, 1, 2]]);
    }
}
