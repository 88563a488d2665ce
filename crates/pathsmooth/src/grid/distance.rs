//! Exact Euclidean clearance: the distance from any point (or segment) to the blocked
//! region of a grid map.
//!
//! The blocked region `B` is the union of the blocked cells (closed unit squares) and
//! everything outside the map (DESIGN.md). [`DistanceField::clearance`] returns the exact
//! Euclidean distance from a point to `B` (0 inside a wall or outside the map), not the
//! distance between cell centres.
//!
//! **Method.** Euclidean distance to a union of grid squares is *separable*, as in
//! Felzenszwalb and Huttenlocher's distance transform (P. Felzenszwalb, D. Huttenlocher,
//! *Distance Transforms of Sampled Functions*, Theory of Computing 8, 2012): for the square
//! of cell (i, j), `dist(p, S_ij)² = gx_i(p.x)² + gy_j(p.y)²` where `gx_i` is the 1D
//! distance from `p.x` to the interval [i, i+1] and likewise `gy_j`. The first, per-column
//! pass is precomputed: for every cell, the nearest blocked row above and below it in its
//! column. Within one column, a blocked square above every point of the query dominates
//! all blocked squares farther above it (its `gy` is smaller for every point), so each
//! column contributes at most three candidate squares: the blocked cells in the query's own
//! rows and the nearest blocked one above and below. The second, per-row pass happens at
//! query time: columns are visited outwards from the query and the search stops once the
//! horizontal gap alone reaches the best distance found. Every square that could be nearer
//! is therefore examined with an exact point- or segment-to-square distance, so the result
//! is the exact distance up to floating-point rounding (proptests compare it with brute
//! force over all squares).
//!
//! For a segment, the distance to `B` is the minimum over the blocked squares of the
//! segment-to-square distance, which for disjoint convex sets is attained at an endpoint of
//! one set and the other set; the segment is cut into pieces of length ≤ 1 so each piece
//! spans at most two rows, and the best distance so far prunes the column search.
//!
//! Cost: building is O(width × height) time and two `i32` and one `bool` per cell of memory; a point
//! query is O(clearance) (columns within the clearance of the point); a segment query is
//! O(length × (clearance + 1)), and O(length × (r + 1)) for a clearance test against `r`.
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::grid::{distance::DistanceField, GridMap};
//! let map = GridMap::from_rows(&[".....", ".....", "..@..", ".....", "....."])?;
//! let field = DistanceField::new(&map);
//! // Near the top-left corner the map border is nearest; from (1.5, 1.5) it is the
//! // wall's corner (2, 2), √0.5 away (cell-centre distance would say √2).
//! assert_eq!(field.clearance(DVec2::new(0.5, 0.5)), 0.5);
//! assert!((field.clearance(DVec2::new(1.5, 1.5)) - 0.5f64.hypot(0.5)).abs() < 1e-12);
//! assert_eq!(field.clearance(DVec2::new(2.5, 2.5)), 0.0);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use glam::DVec2;

use crate::grid::map::GridMap;

/// Precomputed column distances of a map, for exact clearance queries. See the module docs.
#[derive(Debug, Clone)]
pub struct DistanceField {
    width: usize,
    height: usize,
    /// Row-major: nearest blocked row strictly above (smaller y) in the same column, or −1
    /// (the map border).
    above: Vec<i32>,
    /// Row-major: nearest blocked row strictly below (larger y), or `height` (the border).
    below: Vec<i32>,
    /// Row-major copy of the blocked cells.
    blocked: Vec<bool>,
}

impl DistanceField {
    /// Builds the field for `map` in O(width × height).
    ///
    /// ```
    /// use pathsmooth::grid::{distance::DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["..", ".@"])?);
    /// assert_eq!(field.cell_clearance(0, 0), 0.5);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn new(map: &GridMap) -> Self {
        let (w, h) = (map.width(), map.height());
        let blocked: Vec<bool> = map.cells().iter().map(|&free| !free).collect();
        let mut above = vec![-1i32; w * h];
        let mut below = vec![h as i32; w * h];
        for x in 0..w {
            let mut last = -1i32;
            for y in 0..h {
                above[y * w + x] = last;
                if blocked[y * w + x] {
                    last = y as i32;
                }
            }
            let mut next = h as i32;
            for y in (0..h).rev() {
                below[y * w + x] = next;
                if blocked[y * w + x] {
                    next = y as i32;
                }
            }
        }
        DistanceField {
            width: w,
            height: h,
            above,
            below,
            blocked,
        }
    }

    /// Width of the map the field was built for.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height of the map the field was built for.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Exact Euclidean distance from `p` to the blocked region (0 inside a wall, on its
    /// surface, or outside the map; 0 for non-finite points).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::{distance::DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["...", "...", "..."])?);
    /// assert_eq!(field.clearance(DVec2::new(1.5, 1.5)), 1.5); // to the map border
    /// assert_eq!(field.clearance(DVec2::new(5.0, 1.0)), 0.0); // outside
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn clearance(&self, p: DVec2) -> f64 {
        self.piece_clearance(p, p, f64::INFINITY)
    }

    /// Clearance of the centre of cell (x, y); 0 for cells outside the map.
    ///
    /// ```
    /// use pathsmooth::grid::{distance::DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["...", ".@.", "..."])?);
    /// assert_eq!(field.cell_clearance(1, 0), 0.5);
    /// assert_eq!(field.cell_clearance(1, 1), 0.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn cell_clearance(&self, x: i64, y: i64) -> f64 {
        self.clearance(DVec2::new(x as f64 + 0.5, y as f64 + 0.5))
    }

    /// Exact minimum clearance along the closed segment `a`–`b` (up to rounding): 0 when
    /// the segment touches or enters the blocked region or has a non-finite endpoint.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::{distance::DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["....", "....", "....", ".@.."])?);
    /// // Passing the wall's top-right corner (2, 3) at distance √0.5.
    /// let c = field.segment_clearance(DVec2::new(1.5, 1.5), DVec2::new(3.0, 3.0));
    /// assert!((c - 0.5f64.sqrt()).abs() < 1e-12);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn segment_clearance(&self, a: DVec2, b: DVec2) -> f64 {
        self.segment_clearance_capped(a, b, f64::INFINITY)
    }

    /// `min(segment_clearance(a, b), cap)`, computed faster for small `cap` (only squares
    /// nearer than `cap` are looked at). Values below `cap` are exact.
    pub fn segment_clearance_capped(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        self.segment_clearance_until(a, b, cap, 0.0)
    }

    /// Like [`segment_clearance_capped`](Self::segment_clearance_capped), but may stop as
    /// soon as the minimum is known to be below `stop_below` (returning some value below
    /// it).
    fn segment_clearance_until(&self, a: DVec2, b: DVec2, cap: f64, stop_below: f64) -> f64 {
        if !a.is_finite() || !b.is_finite() {
            return 0.0;
        }
        let len = a.distance(b);
        let pieces = len.ceil().max(1.0);
        if pieces > 1e9 {
            // Far longer than any map: it leaves the map, where clearance is 0.
            return self.border_clearance(a, b).min(cap);
        }
        let n = pieces as usize;
        let mut best = cap;
        let mut start = a;
        for k in 1..=n {
            let end = if k == n {
                b
            } else {
                a.lerp(b, k as f64 / pieces)
            };
            best = self.piece_clearance(start, end, best);
            if best <= 0.0 || best < stop_below {
                return best.max(0.0);
            }
            start = end;
        }
        best
    }

    /// True when every point of the segment `a`–`b` has clearance ≥ `radius`.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::{distance::DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["...", "...", "..."])?);
    /// assert!(field.segment_clear_of(DVec2::new(0.5, 1.5), DVec2::new(2.5, 1.5), 0.5));
    /// assert!(!field.segment_clear_of(DVec2::new(0.5, 1.5), DVec2::new(2.5, 1.5), 0.51));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn segment_clear_of(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        if radius.is_nan() {
            return false;
        }
        if radius <= 0.0 {
            // Clearance is never negative; radius 0 asks nothing of the distance.
            return a.is_finite() && b.is_finite();
        }
        self.segment_clearance_until(a, b, radius, radius) >= radius
    }

    /// Distance from the segment to the outside of the map: the linear functions x, W − x,
    /// y, H − y reach their minimum over a segment at an endpoint.
    fn border_clearance(&self, a: DVec2, b: DVec2) -> f64 {
        let (w, h) = (self.width as f64, self.height as f64);
        let one = |p: DVec2| p.x.min(w - p.x).min(p.y).min(h - p.y);
        one(a).min(one(b)).max(0.0)
    }

    /// `min(cap, distance from the segment p0–p1 to B)`, for a piece spanning at most a
    /// couple of rows.
    fn piece_clearance(&self, p0: DVec2, p1: DVec2, cap: f64) -> f64 {
        if !p0.is_finite() || !p1.is_finite() {
            return 0.0;
        }
        let mut best = cap.min(self.border_clearance(p0, p1));
        if best <= 0.0 {
            return 0.0;
        }
        // Both endpoints are strictly inside the map here.
        let (lo, hi) = (p0.min(p1), p0.max(p1));
        let r0 = (lo.y.floor() as usize).min(self.height - 1);
        let r1 = (hi.y.floor() as usize).min(self.height - 1);
        let c0 = (lo.x.floor() as usize).min(self.width - 1);
        let c1 = (hi.x.floor() as usize).min(self.width - 1);
        let mut best2 = best * best;
        let visit = |x: usize, best2: &mut f64| {
            for r in r0..=r1 {
                if self.blocked[r * self.width + x] {
                    *best2 = seg_square_dist2(p0, p1, x as f64, r as f64, *best2);
                }
            }
            let up = self.above[r0 * self.width + x];
            if up >= 0 {
                *best2 = seg_square_dist2(p0, p1, x as f64, up as f64, *best2);
            }
            let down = self.below[r1 * self.width + x];
            if (down as usize) < self.height {
                *best2 = seg_square_dist2(p0, p1, x as f64, down as f64, *best2);
            }
        };
        for x in c0..=c1 {
            visit(x, &mut best2);
        }
        // Columns outwards; `gap` is the horizontal distance from the piece to the column,
        // a lower bound on the distance to any square in it.
        let mut k = 1;
        loop {
            let mut any = false;
            if k <= c0 {
                let x = c0 - k;
                let gap = lo.x - (x + 1) as f64;
                if gap * gap < best2 {
                    visit(x, &mut best2);
                    any = true;
                }
            }
            if c1 + k < self.width {
                let x = c1 + k;
                let gap = x as f64 - hi.x;
                if gap * gap < best2 {
                    visit(x, &mut best2);
                    any = true;
                }
            }
            if !any {
                break;
            }
            k += 1;
        }
        best = best.min(best2.sqrt());
        best
    }
}

/// `min(best2, squared distance from the segment p0–p1 to the closed unit square of cell
/// (x, y))`.
fn seg_square_dist2(p0: DVec2, p1: DVec2, x: f64, y: f64, best2: f64) -> f64 {
    let lo = DVec2::new(x, y);
    let hi = lo + DVec2::ONE;
    // The gap between the segment's bounding box and the square is a lower bound on the
    // distance, exact when the segment is axis-parallel (or a point).
    let gap2 = (lo - p0.max(p1))
        .max(p0.min(p1) - hi)
        .max(DVec2::ZERO)
        .length_squared();
    if gap2 >= best2 {
        return best2;
    }
    if p0.x == p1.x || p0.y == p1.y {
        return gap2;
    }
    if segment_meets_box(p0, p1, lo, hi) {
        return 0.0;
    }
    // Disjoint convex sets: the distance is attained at an endpoint of one of them.
    let point_box = |p: DVec2| (lo - p).max(p - hi).max(DVec2::ZERO).length_squared();
    let mut d2 = point_box(p0).min(point_box(p1));
    for c in [lo, hi, DVec2::new(lo.x, hi.y), DVec2::new(hi.x, lo.y)] {
        let (q, _) = crate::geometry::closest_on_segment(c, p0, p1);
        d2 = d2.min(q.distance_squared(c));
    }
    d2.min(best2)
}

/// Slab test: does the closed segment meet the closed box?
fn segment_meets_box(p0: DVec2, p1: DVec2, lo: DVec2, hi: DVec2) -> bool {
    let d = p1 - p0;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..2 {
        if d[i] == 0.0 {
            if p0[i] < lo[i] || p0[i] > hi[i] {
                return false;
            }
        } else {
            let ta = (lo[i] - p0[i]) / d[i];
            let tb = (hi[i] - p0[i]) / d[i];
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn border_only() {
        let field = DistanceField::new(&GridMap::from_rows(&["....", "...."]).unwrap());
        assert_eq!(field.clearance(DVec2::new(1.0, 1.0)), 1.0);
        assert_eq!(field.clearance(DVec2::new(0.0, 1.0)), 0.0);
        assert_eq!(
            field.segment_clearance(DVec2::new(1.0, 1.0), DVec2::new(3.0, 1.0)),
            1.0
        );
    }

    #[test]
    fn segment_through_wall_is_zero() {
        let field = DistanceField::new(&GridMap::from_rows(&["....", ".@..", "...."]).unwrap());
        assert_eq!(
            field.segment_clearance(DVec2::new(0.5, 1.5), DVec2::new(3.5, 1.5)),
            0.0
        );
        assert!(!field.segment_clear_of(DVec2::new(0.5, 1.5), DVec2::new(3.5, 1.5), 0.1));
    }

    #[test]
    fn long_segment_far_from_walls() {
        let map = GridMap::from_fn(100, 9, |x, y| !(x == 50 && y == 0));
        let field = DistanceField::new(&map);
        let c = field.segment_clearance(DVec2::new(1.5, 4.5), DVec2::new(98.5, 4.5));
        assert_eq!(c, 1.5);
        let c = field.segment_clearance(DVec2::new(10.0, 4.5), DVec2::new(90.0, 4.5));
        assert_eq!(c, 3.5);
    }
}
