//! Welding: vertices within a tolerance of each other become one vertex.
//!
//! Unity's `NavMesh.CalculateTriangulation` gives every triangle its own three vertices,
//! and exporters round coordinates, so the same corner arrives many times at slightly
//! different positions. Adjacency comes from shared vertex indices, so those copies must
//! become one vertex first.

use glam::DVec3;
use rustc_hash::FxHashMap;

/// The welded vertices and, for each input vertex, its welded index.
pub(crate) struct Welded {
    pub vertices: Vec<DVec3>,
    pub remap: Vec<u32>,
}

/// Welds `points` (finite): each point joins the first earlier kept point within
/// Euclidean distance `weld` (≥ 0; 0 merges exact copies only, `-0` and `0` alike), else it
/// is kept. A kept point keeps its own coordinates (no averaging, so a mesh with nothing
/// to weld comes back unchanged).
///
/// A hash map over cells of side `weld` (coordinates quantised by flooring): a point within
/// `weld` of a kept one is in one of the 27 cells around its own, so each point checks the
/// kept points of those cells only — O(n) for points spread at least `weld` apart, as
/// navmesh corners are. Coordinates beyond ±2⁶³ cells saturate into the border cells:
/// still correct, only slower.
///
/// Greedy in input order: in a chain of points each within `weld` of the next but not of
/// the first, the later ones may stay apart. That needs points closer than `weld` that are
/// not copies of one corner, which the T-junction check then reports.
pub(crate) fn weld(points: &[DVec3], weld: f64) -> Welded {
    let mut vertices: Vec<DVec3> = Vec::new();
    let mut remap = Vec::with_capacity(points.len());
    if weld > 0.0 {
        let key = |p: DVec3| {
            let c = (p / weld).floor();
            // `as` saturates: far points share the border cells (still compared exactly).
            [c.x as i64, c.y as i64, c.z as i64]
        };
        let mut cells: FxHashMap<[i64; 3], Vec<u32>> = FxHashMap::default();
        let weld2 = weld * weld;
        for &p in points {
            let k = key(p);
            let mut found = None;
            for dx in -1..=1i64 {
                for dy in -1..=1i64 {
                    for dz in -1..=1i64 {
                        let n = [
                            k[0].saturating_add(dx),
                            k[1].saturating_add(dy),
                            k[2].saturating_add(dz),
                        ];
                        if let Some(list) = cells.get(&n) {
                            // The first (earliest) kept point within reach wins.
                            if let Some(&v) = list
                                .iter()
                                .find(|&&v| vertices[v as usize].distance_squared(p) <= weld2)
                            {
                                found = Some(found.map_or(v, |f: u32| f.min(v)));
                            }
                        }
                    }
                }
            }
            let v = found.unwrap_or_else(|| {
                let v = vertices.len() as u32;
                vertices.push(p);
                cells.entry(k).or_default().push(v);
                v
            });
            remap.push(v);
        }
    } else {
        // Exact copies: key by bits, with -0 as 0.
        let bits = |c: f64| (c + 0.0).to_bits();
        let mut seen: FxHashMap<[u64; 3], u32> = FxHashMap::default();
        for &p in points {
            let v = *seen
                .entry([bits(p.x), bits(p.y), bits(p.z)])
                .or_insert_with(|| {
                    vertices.push(p);
                    (vertices.len() - 1) as u32
                });
            remap.push(v);
        }
    }
    Welded { vertices, remap }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_within_the_tolerance_become_one_vertex() {
        let p = [
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(1e-4, -1e-4, 0.0),
            DVec3::new(0.999_95, 0.0, 1e-5),
            DVec3::new(0.5, 0.0, 0.0),
        ];
        let w = weld(&p, 1e-3);
        assert_eq!(w.remap, [0, 1, 0, 1, 2]);
        assert_eq!(w.vertices, [p[0], p[1], p[4]]);
    }

    #[test]
    fn zero_tolerance_merges_exact_copies_only() {
        let p = [
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(-0.0, 0.0, 0.0),
            DVec3::new(1e-300, 0.0, 0.0),
        ];
        assert_eq!(weld(&p, 0.0).remap, [0, 0, 1]);
    }

    #[test]
    fn huge_coordinates_saturate_without_merging_far_points() {
        let p = [DVec3::splat(1e60), DVec3::splat(-1e60), DVec3::splat(1e60)];
        assert_eq!(weld(&p, 1e-9).remap, [0, 1, 0]);
    }
}
