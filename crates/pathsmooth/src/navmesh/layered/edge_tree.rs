//! A k-d tree of a plan mesh's triangle sides (half-edges: side `s` of triangle `t` is
//! `3t + s`), for the sheet's overlap test: which sides that are switched on (a count per
//! node, kept by the caller) meet a triangle.
//!
//! Why a tree over sides and not a grid over triangles: the sheet asks whether a triangle
//! overlaps any triangle taken so far. Triangles may share a vertex by the thousand (a fan)
//! or be far larger than their neighbours, so any grid of their boxes either lists all of
//! them in one cell or lists a large one in millions of cells. The sheet only needs the
//! sides on the border of what it took (see `sheet.rs`), few near any point even in a fan,
//! and the tree visits only boxes that meet the triangle and hold such a side.

use glam::DVec2;

use crate::geometry::orientation;
use crate::navmesh::mesh::work::tally;
use crate::navmesh::mesh::NavMesh;

/// At most this many sides in a leaf.
const LEAF: usize = 8;

/// A balanced k-d tree over half-edges: node `i`'s children are `2i + 1` and `2i + 2`, a
/// node over the run `order[s..e]` splits it at its middle, every leaf at one depth (as
/// `surface::point_tree`).
#[derive(Debug, Clone)]
pub(crate) struct EdgeTree {
    /// Half-edges, each node's one run.
    order: Vec<u32>,
    /// Each half-edge's position in `order`.
    at: Vec<u32>,
    /// Each node's bounding box of its sides (empty, `+∞..−∞`, with none).
    boxes: Vec<(DVec2, DVec2)>,
    depth: u32,
}

impl EdgeTree {
    /// The tree of every side of `plan`'s triangles, split at the median of the sides'
    /// midpoints along the longer side of their spread. Cost: O(n log n) time for n
    /// sides; 8 bytes a side and a 32-byte box per two at most (and 32 bytes a side
    /// while building).
    pub(crate) fn new(plan: &NavMesh) -> Self {
        let n = 3 * plan.num_triangles();
        let mut depth = 0;
        while n.div_ceil(1 << depth) > LEAF {
            depth += 1;
        }
        let mut tree = EdgeTree {
            order: (0..n as u32).collect(),
            at: vec![0; n],
            boxes: vec![(DVec2::INFINITY, DVec2::NEG_INFINITY); (2 << depth) - 1],
            depth,
        };
        // Each side's ends, read once (the build reads them at every level).
        let sides: Vec<(DVec2, DVec2)> = (0..n as u32).map(|h| side_of(plan, h)).collect();
        tree.build(&sides, 0, 0, n, 0);
        for (i, &h) in tree.order.iter().enumerate() {
            tree.at[h as usize] = i as u32;
        }
        tree
    }

    fn build(&mut self, sides: &[(DVec2, DVec2)], node: usize, s: usize, e: usize, level: u32) {
        let run = &mut self.order[s..e];
        let (mut lo, mut hi) = (DVec2::INFINITY, DVec2::NEG_INFINITY);
        let (mut mid_lo, mut mid_hi) = (DVec2::INFINITY, DVec2::NEG_INFINITY);
        for &h in run.iter() {
            let (a, b) = sides[h as usize];
            (lo, hi) = (lo.min(a.min(b)), hi.max(a.max(b)));
            let m = a + b;
            (mid_lo, mid_hi) = (mid_lo.min(m), mid_hi.max(m));
        }
        self.boxes[node] = (lo, hi);
        if level == self.depth {
            return;
        }
        let spread = mid_hi - mid_lo;
        let axis = usize::from(spread.y > spread.x);
        let mid = (e - s) / 2;
        if !run.is_empty() {
            // By the sides' midpoints (doubled: the order is the same).
            let key = |h: u32| {
                let (a, b) = sides[h as usize];
                a[axis] + b[axis]
            };
            run.select_nth_unstable_by(mid, |&g, &h| key(g).total_cmp(&key(h)));
        }
        self.build(sides, 2 * node + 1, s, s + mid, level + 1);
        self.build(sides, 2 * node + 2, s + mid, e, level + 1);
    }

    /// The number of nodes: the length of the counts the caller keeps.
    pub(crate) fn nodes(&self) -> usize {
        self.boxes.len()
    }

    /// Adds `delta` to the count of every node holding half-edge `h` (the root to its
    /// leaf): switches it on (+1) or off (−1). O(depth).
    pub(crate) fn switch(&self, counts: &mut [u32], h: u32, delta: i32) {
        let pos = self.at[h as usize] as usize;
        let (mut node, mut s, mut e) = (0, 0, self.order.len());
        loop {
            counts[node] = counts[node].wrapping_add_signed(delta);
            if node >= self.boxes.len() / 2 {
                return; // a leaf
            }
            let mid = s + (e - s) / 2;
            if pos < mid {
                (node, e) = (2 * node + 1, mid);
            } else {
                (node, s) = (2 * node + 2, mid);
            }
        }
    }

    /// Sets to 0 the counts of the nodes holding half-edge `h`. O(depth).
    pub(crate) fn clear(&self, counts: &mut [u32], h: u32) {
        let pos = self.at[h as usize] as usize;
        let (mut node, mut s, mut e) = (0, 0, self.order.len());
        loop {
            counts[node] = 0;
            if node >= self.boxes.len() / 2 {
                return;
            }
            let mid = s + (e - s) / 2;
            if pos < mid {
                (node, e) = (2 * node + 1, mid);
            } else {
                (node, s) = (2 * node + 2, mid);
            }
        }
    }

    /// Calls `f` with every half-edge in a leaf that holds a switched-on side (a count
    /// above 0) and whose box meets the closed triangle `tri` (counter-clockwise), until
    /// `f` returns `false`: a superset of the switched-on sides that meet the triangle
    /// (the caller tells which are on). Cost: the nodes holding such a side whose box meets
    /// the triangle.
    pub(crate) fn for_each_near(
        &self,
        counts: &[u32],
        tri: [DVec2; 3],
        mut f: impl FnMut(u32) -> bool,
    ) {
        let (tlo, thi) = (
            tri[0].min(tri[1]).min(tri[2]),
            tri[0].max(tri[1]).max(tri[2]),
        );
        // Depth first, one entry a level at most.
        let mut stack = [(0usize, 0usize, 0usize, 0u32); 34];
        stack[0] = (0, 0, self.order.len(), 0);
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (node, s, e, level) = stack[len];
            tally(1);
            if counts[node] == 0 || !box_meets_triangle(self.boxes[node], (tlo, thi), tri) {
                continue;
            }
            if level == self.depth {
                for &h in &self.order[s..e] {
                    tally(1);
                    if !f(h) {
                        return;
                    }
                }
                continue;
            }
            let mid = s + (e - s) / 2;
            stack[len] = (2 * node + 2, mid, e, level + 1);
            stack[len + 1] = (2 * node + 1, s, mid, level + 1);
            len += 2;
        }
    }
}

/// The ends of half-edge `h` of `plan`.
fn side_of(plan: &NavMesh, h: u32) -> (DVec2, DVec2) {
    let tri = plan.triangle(h as usize / 3);
    let s = h as usize % 3;
    (tri[s], tri[(s + 1) % 3])
}

/// Do the closed box `lo..=hi` and the closed counter-clockwise triangle `tri` (its box
/// `tlo..=thi`) share a point? Separating axes: the box's two, then the triangle's sides
/// (the box wholly beyond one); exact (comparisons and Shewchuk's orientation).
///
/// The box lies wholly right of side `a`–`b` when its corner farthest to the left does:
/// the orientation `(b − a) × (c − a)` is linear in `c`, growing with `c.y` where the
/// side runs rightwards and with `−c.x` where it runs upwards, so that corner is known
/// from the side's direction and one exact orientation a side settles it (not four).
fn box_meets_triangle(
    (lo, hi): (DVec2, DVec2),
    (tlo, thi): (DVec2, DVec2),
    tri: [DVec2; 3],
) -> bool {
    if hi.x < tlo.x || lo.x > thi.x || hi.y < tlo.y || lo.y > thi.y {
        return false; // also an empty box
    }
    (0..3).all(|i| {
        let (a, b) = (tri[i], tri[(i + 1) % 3]);
        let x = if b.y > a.y { lo.x } else { hi.x };
        let y = if b.x > a.x { hi.y } else { lo.y };
        orientation(a, b, DVec2::new(x, y)) >= 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One orientation a side (the corner farthest left) decides as all four corners do,
    /// on random boxes and triangles with small integer coordinates, so that sides run
    /// along the axes and corners fall on sides.
    #[test]
    fn the_farthest_corner_decides_as_every_corner() {
        let mut uniform = crate::test_fixtures::uniform(11);
        let mut next = move || (uniform() * 9.0).floor() - 4.0;
        let every_corner = |(lo, hi): (DVec2, DVec2), tri: [DVec2; 3]| {
            let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
            (0..3).all(|i| {
                let (a, b) = (tri[i], tri[(i + 1) % 3]);
                corners.iter().any(|&c| orientation(a, b, c) >= 0)
            })
        };
        let (mut met, mut apart) = (0, 0);
        for _ in 0..20_000 {
            let mut tri = [(); 3].map(|_| DVec2::new(next(), next()));
            if orientation(tri[0], tri[1], tri[2]) < 0 {
                tri.swap(1, 2);
            }
            let (p, q) = (DVec2::new(next(), next()), DVec2::new(next(), next()));
            let b = (p.min(q), p.max(q));
            let tb = (
                tri[0].min(tri[1]).min(tri[2]),
                tri[0].max(tri[1]).max(tri[2]),
            );
            let boxes_meet = b.1.cmpge(tb.0).all() && b.0.cmple(tb.1).all();
            let want = boxes_meet && every_corner(b, tri);
            assert_eq!(box_meets_triangle(b, tb, tri), want, "{b:?} {tri:?}");
            if want {
                met += 1
            } else {
                apart += 1
            }
        }
        assert!(met > 1000 && apart > 1000, "{met} {apart}");
    }

    #[test]
    fn boxes_meet_triangles_exactly() {
        let tri = [DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(0.0, 2.0)];
        let tb = (DVec2::ZERO, DVec2::splat(2.0));
        let meets = |lo: DVec2, hi: DVec2| box_meets_triangle((lo, hi), tb, tri);
        assert!(meets(DVec2::splat(0.5), DVec2::splat(0.6)));
        // Touching the hypotenuse at a corner, and just beyond it.
        assert!(meets(DVec2::splat(1.0), DVec2::splat(3.0)));
        assert!(!meets(DVec2::splat(1.0 + 1e-12), DVec2::splat(3.0)));
        assert!(!meets(DVec2::new(3.0, 0.0), DVec2::new(4.0, 1.0)));
        assert!(!box_meets_triangle(
            (DVec2::INFINITY, DVec2::NEG_INFINITY),
            tb,
            tri
        ));
    }

    /// Against a scan: every switched-on side meeting a triangle is found, with sides
    /// switched on and off at random on a fan and a grid.
    #[test]
    fn the_sides_on_that_meet_a_triangle_are_found() {
        let mut lcg = crate::test_fixtures::lcg(3);
        let mut next = move |k: u64| (lcg() >> 33) % k;
        // A fan round the origin, then a grid beside it.
        let mut vertices = vec![DVec2::ZERO];
        let mut triangles = Vec::new();
        for k in 0..=200u32 {
            let a = k as f64 / 200.0 * 4.0;
            vertices.push(DVec2::new(a.cos(), a.sin()) * 10.0);
            if k > 0 {
                triangles.push([0, k, k + 1]);
            }
        }
        let base = vertices.len() as u32;
        for y in 0..=10 {
            for x in 0..=10 {
                vertices.push(DVec2::new(20.0 + x as f64, y as f64));
            }
        }
        for y in 0..10u32 {
            for x in 0..10u32 {
                let at = |x: u32, y: u32| base + y * 11 + x;
                triangles.push([at(x, y), at(x + 1, y), at(x + 1, y + 1)]);
                triangles.push([at(x, y), at(x + 1, y + 1), at(x, y + 1)]);
            }
        }
        let neighbors = vec![[u32::MAX; 3]; triangles.len()];
        let plan = NavMesh::from_parts(vertices, triangles, neighbors);
        let tree = EdgeTree::new(&plan);
        let n = 3 * plan.num_triangles();
        let mut on = vec![false; n];
        let mut counts = vec![0u32; tree.nodes()];
        for round in 0..400 {
            for _ in 0..20 {
                let h = next(n as u64) as usize;
                tree.switch(&mut counts, h as u32, if on[h] { -1 } else { 1 });
                on[h] = !on[h];
            }
            let t = next(plan.num_triangles() as u64) as usize;
            let tri = plan.triangle(t);
            let mut found = vec![false; n];
            tree.for_each_near(&counts, tri, |h| {
                found[h as usize] = true;
                true
            });
            for h in 0..n {
                let (a, b) = side_of(&plan, h as u32);
                let (lo, hi) = (a.min(b), a.max(b));
                let (tlo, thi) = (
                    tri[0].min(tri[1]).min(tri[2]),
                    tri[0].max(tri[1]).max(tri[2]),
                );
                if on[h] && box_meets_triangle((lo, hi), (tlo, thi), tri) {
                    assert!(found[h], "round {round}: side {h} of triangle {t}");
                }
            }
        }
        for h in 0..n {
            tree.clear(&mut counts, h as u32);
        }
        assert!(counts.iter().all(|&c| c == 0));
    }
}
