//! A spatial index of boxes (the bounding boxes of triangles or edges): a hierarchy of
//! uniform bucket grids, each level's buckets twice the side of the level below.
//!
//! An item goes to the finest level where its box spans at most two buckets along each
//! axis, and into those (at most four) buckets. So the index holds at most four entries
//! per item whatever the shapes: a single uniform grid would list a long diagonal item in
//! every bucket its box covers, which for a fan of n thin triangles around one vertex (or
//! n long walls) is Θ(n²) entries and time. A query box visits, on every level, the
//! buckets it overlaps.
//!
//! The finest level has about `target` buckets, about square, fitted to the bounds' area
//! (never more than `3·target + 1` buckets, however thin the bounds). Cost: building
//! O(items + buckets); memory one `u32` per bucket (4/3 of the finest level's count over
//! all levels) and at most four per item. A query costs O(levels + buckets overlapped +
//! items listed in them); items of similar size all sit on one or two levels, where a
//! query's bucket lists hold about `items / target` items.

use glam::DVec2;

use crate::geometry::closest_on_segment;

/// One level of the hierarchy: `nx × ny` buckets, numbered from `first`.
#[derive(Debug, Clone)]
struct Level {
    nx: usize,
    ny: usize,
    first: usize,
    /// Items listed on this level (0: the level is skipped).
    items: usize,
}

/// Items by bucket, in compressed rows: bucket `b` (over all levels) lists
/// `items[start[b]..start[b + 1]]`, in increasing item order.
#[derive(Debug, Clone, Default)]
pub(crate) struct BoxIndex {
    lo: DVec2,
    /// Finest-level buckets per world unit, along x and y.
    scale: DVec2,
    levels: Vec<Level>,
    start: Vec<u32>,
    items: Vec<u32>,
}

impl BoxIndex {
    /// The index of `boxes` (item `i` is the `i`-th box, `(min, max)`) over the bounds
    /// `lo..=hi`, with about `target` buckets on the finest level. Boxes reaching outside
    /// the bounds are clamped to them.
    pub(crate) fn new<I>(lo: DVec2, hi: DVec2, target: f64, boxes: I) -> Self
    where
        I: Iterator<Item = (DVec2, DVec2)> + Clone,
    {
        let extent = (hi - lo).max(DVec2::splat(f64::MIN_POSITIVE));
        let n = target.max(1.0);
        // Square buckets fitted to the area; bounds too thin for that (the area underflows,
        // or is tiny next to the length) get a row of `n` buckets along their length.
        let side = (extent.x * extent.y / n).sqrt();
        let side = if side > 0.0 && side.is_finite() {
            side.max(extent.max_element() / n)
        } else {
            extent.max_element() / n
        };
        let count = |len: f64| {
            let k = (len / side).ceil();
            if k.is_finite() {
                k.clamp(1.0, n) as usize
            } else {
                1
            }
        };
        let (nx, ny) = (count(extent.x), count(extent.y));
        let mut index = BoxIndex {
            lo,
            scale: DVec2::new(nx as f64 / extent.x, ny as f64 / extent.y),
            levels: Vec::new(),
            start: Vec::new(),
            items: Vec::new(),
        };
        let mut first = 0;
        let (mut lx, mut ly) = (nx, ny);
        loop {
            index.levels.push(Level {
                nx: lx,
                ny: ly,
                first,
                items: 0,
            });
            first += lx * ly;
            if lx == 1 && ly == 1 {
                break;
            }
            (lx, ly) = (lx.div_ceil(2), ly.div_ceil(2));
        }
        // Two passes over the items' buckets: count, then fill (in item order, so every
        // bucket lists its items in increasing order).
        let mut start = vec![0u32; first + 1];
        for (min, max) in boxes.clone() {
            let (level, x0, x1, y0, y1) = index.place(min, max);
            index.levels[level].items += 1;
            let l = &index.levels[level];
            for y in y0..=y1 {
                for x in x0..=x1 {
                    start[l.first + y * l.nx + x + 1] += 1;
                }
            }
        }
        for b in 0..first {
            start[b + 1] += start[b];
        }
        let mut fill = start.clone();
        let mut items = vec![0; start[first] as usize];
        for (i, (min, max)) in boxes.enumerate() {
            let (level, x0, x1, y0, y1) = index.place(min, max);
            let l = &index.levels[level];
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let b = l.first + y * l.nx + x;
                    items[fill[b] as usize] = i as u32;
                    fill[b] += 1;
                }
            }
        }
        index.start = start;
        index.items = items;
        index
    }

    /// The size of a bucket of the finest level.
    pub(crate) fn bucket_size(&self) -> DVec2 {
        1.0 / self.scale
    }

    /// The finest-level bucket of `p`, clamped to the grid. Monotone in each coordinate,
    /// so a point of a box falls between the buckets of the box's corners (on every level:
    /// a level's bucket is the finest one's shifted right by the level).
    fn cell(&self, p: DVec2) -> (usize, usize) {
        let finest = &self.levels[0];
        let at = |v: f64, lo: f64, scale: f64, n: usize| {
            let k = ((v - lo) * scale).floor();
            // NaN goes to 0; the clamp keeps far points on the border buckets.
            if k >= 0.0 {
                k.min((n - 1) as f64) as usize
            } else {
                0
            }
        };
        (
            at(p.x, self.lo.x, self.scale.x, finest.nx),
            at(p.y, self.lo.y, self.scale.y, finest.ny),
        )
    }

    /// The level of a box, and its bucket ranges there (inclusive).
    fn place(&self, min: DVec2, max: DVec2) -> (usize, usize, usize, usize, usize) {
        let ((x0, y0), (x1, y1)) = (self.cell(min), self.cell(max));
        let mut level = 0;
        while level + 1 < self.levels.len()
            && ((x1 >> level) - (x0 >> level) > 1 || (y1 >> level) - (y0 >> level) > 1)
        {
            level += 1;
        }
        (level, x0 >> level, x1 >> level, y0 >> level, y1 >> level)
    }

    /// Calls `visit` with the item list of every bucket (on every level) that the box
    /// `min..=max` overlaps; every item whose box meets the query box is in one of them
    /// (items may come more than once). Each list is in increasing item order.
    pub(crate) fn for_each_bucket(&self, min: DVec2, max: DVec2, visit: impl FnMut(&[u32])) {
        self.visit_buckets(min, max, |_, _, _| true, visit);
    }

    /// The walk both queries share: on every level with items, the buckets the box
    /// `min..=max` overlaps that `keep(level, x, y)` accepts, their item lists to `visit`.
    fn visit_buckets(
        &self,
        min: DVec2,
        max: DVec2,
        keep: impl Fn(usize, usize, usize) -> bool,
        mut visit: impl FnMut(&[u32]),
    ) {
        let ((x0, y0), (x1, y1)) = (self.cell(min), self.cell(max));
        for (k, l) in self.levels.iter().enumerate() {
            if l.items == 0 {
                continue;
            }
            for y in y0 >> k..=y1 >> k {
                for x in x0 >> k..=x1 >> k {
                    if keep(k, x, y) {
                        let b = l.first + y * l.nx + x;
                        visit(&self.items[self.start[b] as usize..self.start[b + 1] as usize]);
                    }
                }
            }
        }
    }

    /// As [`for_each_bucket`](Self::for_each_bucket) over the box of the segment `a`–`b`
    /// grown by `reach`, but only the buckets that can hold a point within `reach` of the
    /// segment: every item with a point within `reach` of it is in one of them (its box's
    /// buckets cover its box). A bucket is skipped when its centre lies farther from the
    /// segment than `reach` and its half-diagonal (a conservative test, a hair wider for
    /// rounding); the border buckets, which also hold what lies beyond the bounds, are
    /// always visited. For a long diagonal segment that skips most of its box: the cost
    /// is a distance per bucket of the box, and the item lists of the buckets along it.
    pub(crate) fn for_each_bucket_near_segment(
        &self,
        a: DVec2,
        b: DVec2,
        reach: f64,
        visit: impl FnMut(&[u32]),
    ) {
        let grow = DVec2::splat(reach);
        let rounding = 1e-9 * (1.0 + a.abs().max_element() + b.abs().max_element());
        let near = |k: usize, x: usize, y: usize| {
            let l = &self.levels[k];
            let size = self.bucket_size() * (1u64 << k) as f64;
            let slack = reach + 0.5 * size.length() * (1.0 + 1e-9) + rounding;
            let centre = self.lo + (DVec2::new(x as f64, y as f64) + 0.5) * size;
            let border = x == 0 || y == 0 || x + 1 == l.nx || y + 1 == l.ny;
            border || centre.distance(closest_on_segment(centre, a, b).0) <= slack
        };
        self.visit_buckets(a.min(b) - grow, a.max(b) + grow, near, visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item whose box meets the query is listed, on random boxes of every size.
    #[test]
    fn queries_find_every_overlapping_box() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut boxes = Vec::new();
        for _ in 0..300 {
            let a = DVec2::new(next() * 100.0, next() * 10.0);
            let size = DVec2::new(next(), next()) * [0.1, 1.0, 30.0][boxes.len() % 3];
            boxes.push((a, a + size));
        }
        let index = BoxIndex::new(
            DVec2::ZERO,
            DVec2::new(100.0, 10.0),
            50.0,
            boxes.iter().copied(),
        );
        assert!(index.items.len() <= 4 * boxes.len());
        for _ in 0..200 {
            let q = DVec2::new(next() * 110.0 - 5.0, next() * 12.0 - 1.0);
            let r = next() * 3.0;
            let (min, max) = (q - r, q + r);
            let mut found = vec![false; boxes.len()];
            index.for_each_bucket(min, max, |list| {
                assert!(list.windows(2).all(|w| w[0] < w[1]));
                for &i in list {
                    found[i as usize] = true;
                }
            });
            for (i, &(a, b)) in boxes.iter().enumerate() {
                let meets = a.x <= max.x && b.x >= min.x && a.y <= max.y && b.y >= min.y;
                assert!(!meets || found[i], "box {i} missed");
            }
        }
    }

    /// Every item with a point within the reach of a query segment is listed, on random
    /// segments (of every length, some beyond the bounds) as items and as queries: checked
    /// against the exact segment distance.
    #[test]
    fn segment_queries_find_every_item_within_reach() {
        let mut next = crate::test_fixtures::uniform(11);
        let mut point = |spread: f64| DVec2::new(next() * spread - 5.0, next() * spread - 5.0);
        let mut items = Vec::new();
        for i in 0..400 {
            let a = point(100.0);
            let d = (point(10.0) + 5.0) * [0.02, 0.3, 3.0][i % 3];
            items.push((a, a + d - [0.1, 1.5, 15.0][i % 3]));
        }
        let boxes = items.iter().map(|&(a, b)| (a.min(b), a.max(b)));
        let index = BoxIndex::new(DVec2::ZERO, DVec2::splat(90.0), 200.0, boxes);
        let mut visited_less = 0;
        for q in 0..300 {
            let (a, b) = (point(110.0), point(110.0));
            let reach = [0.0, 0.3, 2.0, 10.0][q % 4];
            let mut found = vec![false; items.len()];
            let mut visits = 0;
            index.for_each_bucket_near_segment(a, b, reach, |list| {
                visits += 1;
                for &i in list {
                    found[i as usize] = true;
                }
            });
            for (i, &(c, d)) in items.iter().enumerate() {
                let near = crate::geometry::segment_distance(a, b, c, d) <= reach;
                assert!(!near || found[i], "query {q}: item {i} missed");
            }
            let mut all = 0;
            let grow = DVec2::splat(reach);
            index.for_each_bucket(a.min(b) - grow, a.max(b) + grow, |_| all += 1);
            visited_less += (visits < all) as usize;
        }
        assert!(
            visited_less > 100,
            "the segment skipped buckets in {visited_less} queries"
        );
    }

    /// Thin bounds get many buckets along their length, not one per side.
    #[test]
    fn thin_bounds_are_cut_along_their_length() {
        let index = BoxIndex::new(
            DVec2::ZERO,
            DVec2::new(1000.0, 1e-3),
            1000.0,
            std::iter::empty(),
        );
        assert_eq!((index.levels[0].nx, index.levels[0].ny), (1000, 1));
        let square = BoxIndex::new(DVec2::ZERO, DVec2::splat(10.0), 100.0, std::iter::empty());
        assert_eq!((square.levels[0].nx, square.levels[0].ny), (10, 10));
        assert_eq!(square.levels.len(), 5); // 10, 5, 3, 2, 1 buckets a side
    }
}
