//! Convex polygons to triangles, and triangle adjacency from shared edges.

use glam::DVec2;
use rustc_hash::FxHashMap;

use crate::geometry::{cross, orientation};
use crate::navmesh::mesh::NO_TRI;

/// Appends the triangles of the convex, counter-clockwise `ring` (indices into `plan`), none
/// flat, every edge of the ring an edge of one of them (so neighbours across it are
/// found). Corners within `tolerance` of the line through their neighbours are straight
/// (T-junction vertices on an edge, stored to a rounding); the others are the ring's real
/// corners (or, when fewer than three turn by more than that, every corner that turns). The
/// real corners are fanned from the last; a fan triangle whose side carries
/// straight corners is fanned again from its opposite corner across them (at most three
/// times deep), so every triangle's apex is off the line of the edge it stands on. `Err`
/// when fewer than three corners are real, or a triangle comes out flat or clockwise
/// (a ring that is not convex).
///
/// Cost: O(corners), a small allocation per side with straight corners.
pub(super) fn ears_into(
    plan: &[DVec2],
    ring: &[u32],
    tolerance: f64,
    out: &mut Vec<[u32; 3]>,
) -> Result<(), ()> {
    let n = ring.len();
    if n < 3 {
        return Err(());
    }
    let at = |i: usize| plan[ring[i % n] as usize];
    let turns = |i: usize, tolerance: f64| {
        let (a, b, c) = (at(i + n - 1), at(i), at(i + 1));
        orientation(a, b, c) > 0 && cross(c - a, b - a).abs() > tolerance * (c - a).length()
    };
    let mut real: Vec<usize> = (0..n).filter(|&i| turns(i, tolerance)).collect();
    if real.len() < 3 {
        // Every corner within the tolerance of straight (a circle of many corners): each
        // one that turns at all is real.
        real = (0..n).filter(|&i| turns(i, 0.0)).collect();
    }
    let k = real.len();
    if k < 3 {
        return Err(());
    }
    // The straight corners between real corner j and the next.
    let chain = |j: usize| -> Vec<usize> {
        let (from, to) = (real[j], real[(j + 1) % k]);
        let len = (to + n - from) % n;
        (1..len).map(|d| (from + d) % n).collect()
    };
    let start = out.len();
    // Fanned from the last real corner, a: a, rⱼ, rⱼ₊₁ for j = 0 … k − 3 (the last one
    // written from rₖ₋₃: the triangles ear clipping from the first corner makes).
    let a = k - 1;
    for j in 0..k - 2 {
        let pq = if j == 0 { chain(a) } else { Vec::new() };
        let rp = if j == k - 3 { chain(k - 2) } else { Vec::new() };
        let (tri, chains) = if j == k - 3 {
            ([real[j], real[j + 1], real[a]], [&chain(j)[..], &rp, &pq])
        } else {
            ([real[a], real[j], real[j + 1]], [&pq[..], &chain(j), &rp])
        };
        split(tri, chains, &mut |t| out.push(t.map(|i| ring[i])));
    }
    let flat = out[start..].iter().any(|t| {
        let [a, b, c] = t.map(|v| plan[v as usize]);
        orientation(a, b, c) <= 0
    });
    if flat {
        out.truncate(start);
        return Err(());
    }
    Ok(())
}

/// Emits the triangles of triangle `[p, q, r]` (counter-clockwise) whose edges p–q, q–r
/// and r–p carry the straight corners `chains` (in order along each edge): fanned from p
/// across q–r's corners, the first and last triangles of that fan split again for the
/// corners of p–q and r–p; with q–r bare, rotated so an edge with corners is there.
fn split(tri: [usize; 3], chains: [&[usize]; 3], emit: &mut impl FnMut([usize; 3])) {
    let [p, q, r] = tri;
    let [pq, qr, rp] = chains;
    if qr.is_empty() {
        if !pq.is_empty() {
            return split([r, p, q], [rp, pq, qr], emit);
        }
        if !rp.is_empty() {
            return split([q, r, p], [qr, rp, pq], emit);
        }
        return emit([p, q, r]);
    }
    let m = qr.len();
    // p, q, x₁ (edge p–q's corners split there), p, xᵢ, xᵢ₊₁, …, p, xₘ, r (edge r–p's).
    split([p, q, qr[0]], [pq, &[], &[]], emit);
    for w in qr.windows(2) {
        emit([p, w[0], w[1]]);
    }
    split([p, qr[m - 1], r], [&[], &[], rp], emit);
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
        ears_into(&plan, &[0, 1, 2, 3, 4], 1e-9, &mut out).unwrap();
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

    /// Convex rings with straight corners on their edges (every edge split at random
    /// places): the triangles tile the ring (areas add up), none is flat, and every ring
    /// edge is a triangle edge (so neighbours across it are found); and 100,000 corners.
    #[test]
    fn convex_rings_with_straight_corners_tile_without_flat_triangles() {
        let mut unit = crate::test_fixtures::lcg_uniform(38);
        for (k, splits) in [
            (3usize, 3usize),
            (4, 1),
            (7, 4),
            (12, 0),
            (5, 50),
            (50_000, 1),
        ] {
            let corners: Vec<DVec2> = (0..k)
                .map(|j| {
                    let a = std::f64::consts::TAU * j as f64 / k as f64;
                    DVec2::new(a.cos(), a.sin()) * 10.0
                })
                .collect();
            let mut plan = Vec::new();
            for j in 0..k {
                let (a, b) = (corners[j], corners[(j + 1) % k]);
                plan.push(a);
                // Straight corners at exact binary fractions along the edge.
                let parts = (unit() * (splits + 1) as f64) as usize;
                for m in 1..=parts {
                    plan.push(a + (b - a) * (m as f64 / (parts + 1) as f64));
                }
            }
            let ring: Vec<u32> = (0..plan.len() as u32).collect();
            let mut out = Vec::new();
            ears_into(&plan, &ring, 1e-9, &mut out)
                .unwrap_or_else(|()| panic!("{k} corners, ring {plan:?}"));
            assert_eq!(out.len(), ring.len() - 2, "{k} corners");
            let mut edges = rustc_hash::FxHashSet::default();
            let mut area = 0.0;
            for t in &out {
                let [a, b, c] = t.map(|i| plan[i as usize]);
                assert!(orientation(a, b, c) > 0, "flat or clockwise triangle {t:?}");
                area += crate::geometry::cross(b - a, c - a) / 2.0;
                for i in 0..3 {
                    edges.insert((t[i], t[(i + 1) % 3]));
                }
            }
            let ring_area = (0..plan.len())
                .map(|i| crate::geometry::cross(plan[i], plan[(i + 1) % plan.len()]))
                .sum::<f64>()
                / 2.0;
            assert!(
                (area - ring_area).abs() <= 1e-9 * ring_area,
                "{area} vs {ring_area}"
            );
            for i in 0..ring.len() {
                assert!(
                    edges.contains(&(ring[i], ring[(i + 1) % ring.len()])),
                    "edge {i}"
                );
            }
        }
    }

    #[test]
    fn a_flat_ring_is_refused() {
        let plan = [DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0)];
        assert!(ears_into(&plan, &[0, 1, 2], 1e-9, &mut Vec::new()).is_err());
    }

    #[test]
    fn adjacency_pairs_opposite_edges() {
        let n = adjacency(&[[0, 1, 2], [2, 1, 3]]);
        assert_eq!(n[0], [NO_TRI, 1, NO_TRI]);
        assert_eq!(n[1], [0, NO_TRI, NO_TRI]);
    }
}
