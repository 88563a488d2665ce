//! The cost of a segment on a navmesh with areas: its length inside each triangle times
//! the triangle's area cost.
//!
//! The segment is walked across the triangles as [`NavMesh::line_of_sight`] walks it
//! (the same walk, so a segment costs a finite amount exactly when it has line of sight).
//! In the order the walk enters them, each triangle holds the piece of the segment from
//! where the previous one left off to where the segment leaves this one (the largest
//! parameter at which it is still in the closed triangle); pieces are clamped to be
//! increasing, so they tile `[0, 1]` without gaps whatever the rounding. A piece that
//! runs *along* an edge shared by two triangles lies in both (the segment is collinear
//! with that edge, an exact orientation test): it costs the cheaper of the two, the
//! infimum of the costs of paths beside it, as on grids. A segment that leaves the mesh
//! costs infinity.

use glam::DVec2;

use super::{NavMesh, TriId};
use crate::area::AreaCosts;
use crate::geometry::{cross, orientation};

impl NavMesh {
    /// The cost of the segment `a`–`b` under `costs`: Σ length inside each triangle × the
    /// multiplier of the triangle's area ([`area_of`](Self::area_of)); a piece along an
    /// edge between two triangles costs the cheaper one; infinite when the segment leaves
    /// the mesh (or enters a triangle whose area `costs` excludes), 0 when `a == b`.
    /// Exact up to the rounding of the crossing parameters (a few units in the last
    /// place of the length per triangle).
    ///
    /// Cost: O(triangles crossed) plus one point location.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// // Three unit squares in a row, the middle one a swamp at cost 4.
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (3.0, 1.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let polys = [vec![0, 1, 6, 7], vec![1, 2, 5, 6], vec![2, 3, 4, 5]];
    /// let mesh = NavMesh::from_polygons_with_areas(&v, &polys, &[1, 2, 1])?;
    /// let costs = "2=4".parse()?;
    /// let cost = mesh.segment_cost(&costs, DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5));
    /// assert!((cost - (0.5 + 4.0 + 0.5)).abs() < 1e-12);
    /// assert_eq!(mesh.segment_cost(&costs, DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5)), f64::INFINITY);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn segment_cost(&self, costs: &AreaCosts, a: DVec2, b: DVec2) -> f64 {
        if a == b {
            return 0.0;
        }
        let Some(first) = self.start_toward(a, b) else {
            return f64::INFINITY;
        };
        if !self.in_bounds(b) {
            return f64::INFINITY;
        }
        // Summed as the walk goes (no buffer: a `&self` query owns no scratch): each
        // triangle's piece is known once the walk has entered the next one, and the last
        // triangle's runs to the end.
        let (d, length) = (b - a, (b - a).length());
        let (mut t, mut from, mut total) = (first, 0.0f64, 0.0f64);
        let mut piece = |t: TriId, to: f64, from: &mut f64| {
            if to > *from {
                total += (to - *from) * length * self.piece_multiplier(costs, t, a, b);
            }
            *from = to;
        };
        let walked = self.walk(
            first,
            a,
            b,
            &mut |next| {
                piece(t, self.leaves_at(t, a, d).clamp(from, 1.0), &mut from);
                t = next;
            },
            false,
        );
        if walked.is_none() {
            return f64::INFINITY;
        }
        piece(t, 1.0, &mut from);
        total
    }

    /// The largest `s` at which `a + s·d` is in the closed triangle `t` (from its edges
    /// that `d` points out of).
    fn leaves_at(&self, t: TriId, a: DVec2, d: DVec2) -> f64 {
        let p = self.triangle(t);
        let mut out = f64::INFINITY;
        for i in 0..3 {
            let (u, v) = (p[i], p[(i + 1) % 3]);
            // Inside: cross(v − u, x − u) ≥ 0 (counter-clockwise triangles).
            let rate = cross(v - u, d);
            if rate < 0.0 {
                out = out.min(cross(v - u, a - u) / -rate);
            }
        }
        out
    }

    /// The multiplier of a piece of `a`–`b` in triangle `t`: the triangle's, or when the
    /// segment runs along one of its edges, the cheaper of the two triangles beside it.
    fn piece_multiplier(&self, costs: &AreaCosts, t: TriId, a: DVec2, b: DVec2) -> f64 {
        let own = costs.multiplier(self.area_of(t));
        let p = self.triangle(t);
        (0..3)
            .find(|&i| orientation(a, b, p[i]) == 0 && orientation(a, b, p[(i + 1) % 3]) == 0)
            .and_then(|i| self.across(t, i))
            .map_or(own, |n| own.min(costs.multiplier(self.area_of(n))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2×2 block of unit squares, areas 1 (bottom left), 2, 3, 4 (row by row, y up).
    fn block() -> NavMesh {
        let v: Vec<DVec2> = (0..3)
            .flat_map(|y| (0..3).map(move |x| DVec2::new(x as f64, y as f64)))
            .collect();
        let sq = |x: u32, y: u32| {
            vec![
                3 * y + x,
                3 * y + x + 1,
                3 * (y + 1) + x + 1,
                3 * (y + 1) + x,
            ]
        };
        NavMesh::from_polygons_with_areas(
            &v,
            &[sq(0, 0), sq(1, 0), sq(0, 1), sq(1, 1)],
            &[1, 2, 3, 4],
        )
        .unwrap()
    }

    #[test]
    fn along_a_shared_edge_the_cheaper_side_and_through_a_corner_nothing() {
        let mesh = block();
        let costs: AreaCosts = "1=1,2=2,3=3,4=4".parse().unwrap();
        let p = DVec2::new;
        // Along x = 1: areas 1|2 below, 3|4 above.
        assert_eq!(
            mesh.segment_cost(&costs, p(1.0, 0.0), p(1.0, 2.0)),
            1.0 + 3.0
        );
        // Along y = 1: 1/3 on the left, 2/4 on the right.
        assert_eq!(
            mesh.segment_cost(&costs, p(2.0, 1.0), p(0.0, 1.0)),
            1.0 + 2.0
        );
        // The diagonal through the centre: half in 1, half in 4.
        let diag = mesh.segment_cost(&costs, p(0.0, 0.0), p(2.0, 2.0));
        assert!((diag - 2f64.sqrt() * 5.0).abs() < 1e-12, "{diag}");
        // Along the outer wall y = 0: area 1 then 2.
        assert_eq!(mesh.segment_cost(&costs, p(0.0, 0.0), p(2.0, 0.0)), 3.0);
        assert_eq!(mesh.segment_cost(&costs, p(0.5, 0.5), p(0.5, 0.5)), 0.0);
        assert_eq!(
            mesh.segment_cost(&costs, p(0.5, 0.5), p(0.5, -0.5)),
            f64::INFINITY
        );
    }
}
