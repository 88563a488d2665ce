//! Welding: vertices within a tolerance of each other become one vertex.
//!
//! Unity's `NavMesh.CalculateTriangulation` gives every triangle its own three vertices,
//! and exporters round coordinates, so the same corner arrives many times at slightly
//! different positions. Adjacency comes from shared vertex indices, so those copies must
//! become one vertex first.

use glam::DVec3;
use rustc_hash::FxHashMap;

use super::issue::Issue;
use crate::cancel::{Cancel, Checkpoint};

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
/// A hash map over cubic cells of side `2·weld` (coordinates quantised by flooring): a
/// point within `weld` of another is in its cell or, along each axis, in the neighbour on
/// the side of the nearer face — so each point checks 8 cells, and the kept points listed
/// there (a linked list per cell, no allocation per cell). O(n) expected for points spread
/// at least `weld` apart, as navmesh corners are. Coordinates beyond ±2⁶³ cells saturate
/// into the border cells: still correct, only slower.
///
/// Greedy in input order: in a chain of points each within `weld` of the next but not of
/// the first, the later ones may stay apart. That needs points closer than `weld` that are
/// not copies of one corner, which the T-junction check then reports.
///
/// Errors: [`Issue::cancelled`] when `cancel` is (read every
/// [`CHECK_EVERY`](crate::cancel::CHECK_EVERY) points).
pub(crate) fn weld(points: &[DVec3], weld: f64, cancel: Option<&Cancel>) -> Result<Welded, Issue> {
    let mut checkpoint = Checkpoint::new(cancel);
    let mut vertices: Vec<DVec3> = Vec::new();
    let mut remap = Vec::with_capacity(points.len());
    if weld > 0.0 {
        let side = 2.0 * weld;
        let mut heads: FxHashMap<[i64; 3], u32> = FxHashMap::default();
        // next[v]: the kept point listed after v in its cell, or NONE.
        const NONE: u32 = u32::MAX;
        let mut next: Vec<u32> = Vec::new();
        let weld2 = weld * weld;
        for &p in points {
            if checkpoint.stop() {
                return Err(Issue::cancelled());
            }
            let c = p / side;
            let f = c.floor();
            // `as` saturates: far points share the border cells (still compared exactly).
            let k = [f.x as i64, f.y as i64, f.z as i64];
            // Along each axis, the neighbour cell on the side of the nearer face.
            let d = (c - f).to_array().map(|t| if t < 0.5 { -1i64 } else { 1 });
            let mut found: Option<u32> = None;
            for m in 0..8 {
                let cell: [i64; 3] = std::array::from_fn(|a| {
                    if m >> a & 1 == 1 {
                        k[a].saturating_add(d[a])
                    } else {
                        k[a]
                    }
                });
                let mut v = heads.get(&cell).copied().unwrap_or(NONE);
                while v != NONE {
                    if vertices[v as usize].distance_squared(p) <= weld2
                        && found.is_none_or(|f| v < f)
                    {
                        found = Some(v);
                    }
                    v = next[v as usize];
                }
            }
            let v = found.unwrap_or_else(|| {
                let v = vertices.len() as u32;
                vertices.push(p);
                next.push(heads.insert(k, v).unwrap_or(NONE));
                v
            });
            remap.push(v);
        }
    } else {
        // Exact copies: key by bits, with -0 as 0.
        let bits = |c: f64| (c + 0.0).to_bits();
        let mut seen: FxHashMap<[u64; 3], u32> = FxHashMap::default();
        seen.reserve(points.len());
        for &p in points {
            if checkpoint.stop() {
                return Err(Issue::cancelled());
            }
            let v = *seen
                .entry([bits(p.x), bits(p.y), bits(p.z)])
                .or_insert_with(|| {
                    vertices.push(p);
                    (vertices.len() - 1) as u32
                });
            remap.push(v);
        }
    }
    Ok(Welded { vertices, remap })
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
        let w = weld(&p, 1e-3, None).unwrap();
        assert_eq!(w.remap, [0, 1, 0, 1, 2]);
        assert_eq!(w.vertices, [p[0], p[1], p[4]]);
    }

    /// Against the definition (each point joins the first earlier kept point within
    /// reach), on clustered random points.
    #[test]
    fn the_grid_finds_what_a_scan_finds() {
        let mut next = crate::test_fixtures::lcg_uniform(27);
        let points: Vec<DVec3> = (0..3000)
            .map(|_| DVec3::new(next(), next(), next()) * 2.0 - 1.0)
            .collect();
        for reach in [0.01, 0.05, 0.2] {
            let w = weld(&points, reach, None).unwrap();
            let mut kept: Vec<DVec3> = Vec::new();
            for (i, &p) in points.iter().enumerate() {
                let v = match kept.iter().position(|k| k.distance(p) <= reach) {
                    Some(v) => v,
                    None => {
                        kept.push(p);
                        kept.len() - 1
                    }
                };
                assert_eq!(w.remap[i] as usize, v, "point {i}, reach {reach}");
            }
            assert_eq!(w.vertices, kept);
        }
    }

    #[test]
    fn zero_tolerance_merges_exact_copies_only() {
        let p = [
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(-0.0, 0.0, 0.0),
            DVec3::new(1e-300, 0.0, 0.0),
        ];
        assert_eq!(weld(&p, 0.0, None).unwrap().remap, [0, 0, 1]);
    }

    #[test]
    fn huge_coordinates_saturate_without_merging_far_points() {
        let p = [DVec3::splat(1e60), DVec3::splat(-1e60), DVec3::splat(1e60)];
        assert_eq!(weld(&p, 1e-9, None).unwrap().remap, [0, 1, 0]);
    }
}
