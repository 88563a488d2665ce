//! A k-d tree of 3D points (plan x, plan y, height), for finding the points near a
//! segment in time that grows with neither how many floors are stacked over each other nor
//! how long the segment is next to the spacing of the points.
//!
//! Why a tree and not a bucket grid: a grid needs one cell size for every edge. The
//! T-junction check asks about every edge of a mesh, and a mesh may mix edges 10⁴ times
//! longer than the spacing of its vertices (a fan of n thin triangles round one vertex:
//! long spokes, a dense rim). Cells an edge across put the whole rim in a few cells, so
//! every spoke lists every rim vertex, Θ(n²); cells a vertex spacing across make every
//! spoke walk Θ(n) empty cells. The tree's boxes shrink to the points they hold, so a
//! query descends only where points lie near the segment.

use glam::DVec3;

use crate::navmesh::mesh::work::tally;

/// At most this many points in a leaf.
const LEAF: usize = 8;

/// A balanced k-d tree over point indices: node `i`'s children are `2i + 1` and `2i + 2`,
/// a node over the run `order[s..e]` splits it at its middle, and every leaf is at the
/// same depth, so the runs follow from the node numbers and only the boxes are stored.
pub(crate) struct PointTree<'a> {
    points: &'a [DVec3],
    /// Point indices, each node's points one run.
    order: Vec<u32>,
    /// Each node's bounding box (empty, `+∞..−∞`, for a node with no points).
    boxes: Vec<(DVec3, DVec3)>,
    /// The depth of the leaves (0: the root is the only node).
    depth: u32,
}

impl<'a> PointTree<'a> {
    /// The tree of `points` (finite). Each level splits every node's run at its median
    /// along the longest side of its box. Cost: O(n log n) time, O(n) memory (a `u32` a
    /// point, a box per 2 points at most).
    pub(crate) fn new(points: &'a [DVec3]) -> Self {
        let mut depth = 0;
        while points.len().div_ceil(1 << depth) > LEAF {
            depth += 1;
        }
        let mut tree = PointTree {
            points,
            order: (0..points.len() as u32).collect(),
            boxes: vec![(DVec3::INFINITY, DVec3::NEG_INFINITY); (2 << depth) - 1],
            depth,
        };
        tree.build(0, 0, points.len(), 0);
        tree
    }

    fn build(&mut self, node: usize, s: usize, e: usize, level: u32) {
        let run = &mut self.order[s..e];
        let points = self.points;
        let (lo, hi) = run
            .iter()
            .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), &i| {
                (lo.min(points[i as usize]), hi.max(points[i as usize]))
            });
        self.boxes[node] = (lo, hi);
        if level == self.depth {
            return;
        }
        let size = hi - lo;
        let axis = if size.x >= size.y && size.x >= size.z {
            0
        } else if size.y >= size.z {
            1
        } else {
            2
        };
        let mid = (e - s) / 2;
        if !run.is_empty() {
            run.select_nth_unstable_by(mid, |&i, &j| {
                points[i as usize][axis].total_cmp(&points[j as usize][axis])
            });
        }
        self.build(2 * node + 1, s, s + mid, level + 1);
        self.build(2 * node + 2, s + mid, e, level + 1);
    }

    /// Calls `f` with every point in a leaf whose box, grown by `pad` on every side, the
    /// segment `a`–`b` meets: a superset of the points within `pad` of the segment (the
    /// box test is exact up to rounding, so `pad` should exceed the wanted distance by
    /// more than the rounding of the coordinates). Cost: the nodes whose grown box the
    /// segment meets, O(log n) for a segment that passes near O(1) points.
    pub(crate) fn for_each_near_segment(
        &self,
        a: DVec3,
        b: DVec3,
        pad: f64,
        mut f: impl FnMut(u32),
    ) {
        // Depth first: (node, run start, run end, level); one entry a level at most, and
        // fewer than 2³² points make fewer than 32 levels.
        let mut stack = [(0usize, 0usize, 0usize, 0u32); 33];
        stack[0] = (0, 0, self.order.len(), 0);
        let mut len = 1;
        let d = b - a;
        while len > 0 {
            len -= 1;
            let (node, s, e, level) = stack[len];
            tally(1);
            let (lo, hi) = self.boxes[node];
            if !segment_meets_box(a, d, lo - pad, hi + pad) {
                continue;
            }
            if level == self.depth {
                tally(e - s);
                self.order[s..e].iter().for_each(|&i| f(i));
                continue;
            }
            let mid = s + (e - s) / 2;
            stack[len] = (2 * node + 2, mid, e, level + 1);
            stack[len + 1] = (2 * node + 1, s, mid, level + 1);
            len += 2;
        }
    }
}

/// Does the segment from `a` along `d` (parameters 0 to 1) meet the closed box `lo..=hi`?
/// The slab test: clip the parameter interval to each axis's slab.
fn segment_meets_box(a: DVec3, d: DVec3, lo: DVec3, hi: DVec3) -> bool {
    if !lo.cmple(hi).all() {
        return false; // an empty box
    }
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for axis in 0..3 {
        let (o, v) = (a[axis], d[axis]);
        let (l, h) = (lo[axis], hi[axis]);
        if v == 0.0 {
            if o < l || o > h {
                return false;
            }
            continue;
        }
        let (p, q) = ((l - o) / v, (h - o) / v);
        t0 = t0.max(p.min(q));
        t1 = t1.min(p.max(q));
        if t0 > t1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::closest_on_segment;

    /// Every point within the distance of a segment is among those found, on points in
    /// clusters, rows and stacks, and segments of every length.
    #[test]
    fn the_points_near_a_segment_are_among_those_found() {
        let mut next = crate::test_fixtures::lcg_uniform(41);
        let mut points: Vec<DVec3> = (0..1000)
            .map(|i| {
                DVec3::new(
                    (i % 10) as f64,
                    ((i / 10) % 10) as f64,
                    (i / 100) as f64 * 0.3,
                )
            })
            .collect();
        points.extend((0..500).map(|_| DVec3::new(next(), next(), next()) * 3.0));
        points.extend((0..200).map(|i| DVec3::new(i as f64 * 0.01, 5.0, 1.0)));
        for n in [0, 1, 7, 9, points.len()] {
            let tree = PointTree::new(&points[..n]);
            for _ in 0..300 {
                let a = DVec3::new(next(), next(), next()) * 12.0 - 1.0;
                let b = if next() < 0.3 {
                    a + DVec3::new(next(), 0.0, 0.0)
                } else {
                    DVec3::new(next(), next(), next()) * 12.0 - 1.0
                };
                let reach = next() * 0.5;
                let mut found = vec![false; n];
                tree.for_each_near_segment(a, b, reach * 1.01, |i| found[i as usize] = true);
                for (i, &p) in points[..n].iter().enumerate() {
                    let near = closest_on_segment(p, a, b).0.distance(p) <= reach;
                    assert!(!near || found[i], "{p} within {reach} of {a}–{b}");
                }
            }
        }
    }

    #[test]
    fn an_empty_box_meets_nothing() {
        assert!(!segment_meets_box(
            DVec3::ZERO,
            DVec3::ONE,
            DVec3::INFINITY,
            DVec3::NEG_INFINITY
        ));
        assert!(segment_meets_box(
            DVec3::ZERO,
            DVec3::ZERO,
            DVec3::ZERO,
            DVec3::ZERO
        ));
    }
}
