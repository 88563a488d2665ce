//! Convex polygons to triangles, and triangle adjacency from shared edges.

use glam::DVec2;
use rustc_hash::FxHashMap;

use crate::geometry::orientation;
use crate::navmesh::mesh::NO_TRI;

/// Appends the triangles of the convex, counter-clockwise `ring` (indices into `plan`):
/// ears clipped at strictly convex corners, each clip leaving at least three strictly
/// convex corners, so no triangle is flat even where corners lie on a straight edge.
/// `Err` when the ring has no such triangulation (fewer than three strictly convex
/// corners: zero area).
pub(super) fn ears_into(plan: &[DVec2], ring: &[u32], out: &mut Vec<[u32; 3]>) -> Result<(), ()> {
    let mut left: Vec<u32> = ring.to_vec();
    let convex_at = |left: &[u32], i: usize| {
        let n = left.len();
        let at = |k: usize| plan[left[k % n] as usize];
        orientation(at(i + n - 1), at(i), at(i + 1)) > 0
    };
    while left.len() > 3 {
        let n = left.len();
        let ear = (0..n).find(|&i| {
            if !convex_at(&left, i) {
                return false;
            }
            let mut rest = left.clone();
            rest.remove(i);
            (0..rest.len()).filter(|&k| convex_at(&rest, k)).count() >= 3
        });
        let i = ear.ok_or(())?;
        out.push([left[(i + n - 1) % n], left[i], left[(i + 1) % n]]);
        left.remove(i);
    }
    if left.len() < 3 || !convex_at(&left, 1) {
        return Err(());
    }
    out.push([left[0], left[1], left[2]]);
    Ok(())
}

/// `neighbors[t][i]`: the triangle across edge `i` of `t` (the other triangle with the
/// same two vertices, run the other way), or [`NO_TRI`].
pub(super) fn adjacency(triangles: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let mut edges: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    edges.reserve(3 * triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        for i in 0..3 {
            edges.insert((tri[i], tri[(i + 1) % 3]), t as u32);
        }
    }
    triangles
        .iter()
        .map(|tri| {
            std::array::from_fn(|i| {
                edges
                    .get(&(tri[(i + 1) % 3], tri[i]))
                    .copied()
                    .unwrap_or(NO_TRI)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_on_a_straight_edge_make_no_flat_triangle() {
        // A triangle (0,0) (4,0) (0,4) with extra corners on two of its edges.
        let plan = [
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(4.0, 0.0),
            DVec2::new(2.0, 2.0),
            DVec2::new(0.0, 4.0),
        ];
        let mut out = Vec::new();
        ears_into(&plan, &[0, 1, 2, 3, 4], &mut out).unwrap();
        assert_eq!(out.len(), 3);
        let area: f64 = out
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| plan[i as usize]);
                assert!(orientation(a, b, c) > 0, "flat or clockwise triangle {t:?}");
                crate::geometry::cross(b - a, c - a) / 2.0
            })
            .sum();
        assert_eq!(area, 8.0);
    }

    #[test]
    fn a_flat_ring_is_refused() {
        let plan = [DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0)];
        assert!(ears_into(&plan, &[0, 1, 2], &mut Vec::new()).is_err());
    }

    #[test]
    fn adjacency_pairs_opposite_edges() {
        let n = adjacency(&[[0, 1, 2], [2, 1, 3]]);
        assert_eq!(n[0], [NO_TRI, 1, NO_TRI]);
        assert_eq!(n[1], [0, NO_TRI, NO_TRI]);
    }
}
