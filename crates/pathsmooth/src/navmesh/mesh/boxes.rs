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

use std::ops::ControlFlow;

use glam::DVec2;

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
        (self.column(p.x), self.row(p.y))
    }

    /// The finest-level column of `x`, clamped to the grid (NaN goes to 0, far values to
    /// the border columns): monotone in `x`.
    fn column(&self, x: f64) -> usize {
        bucket_of(x, self.lo.x, self.scale.x, self.levels[0].nx)
    }

    /// The finest-level row of `y`, as [`column`](Self::column).
    fn row(&self, y: f64) -> usize {
        bucket_of(y, self.lo.y, self.scale.y, self.levels[0].ny)
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
    pub(crate) fn for_each_bucket(&self, min: DVec2, max: DVec2, mut visit: impl FnMut(&[u32])) {
        let _ = self.visit_box(min, max, |list| {
            visit(list);
            ControlFlow::Continue(())
        });
    }

    /// As [`for_each_bucket`](Self::for_each_bucket), until `visit` breaks.
    fn visit_box(
        &self,
        min: DVec2,
        max: DVec2,
        visit: impl FnMut(&[u32]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let columns = (self.column(min.x), self.column(max.x));
        self.visit_rows(min.y, max.y, |_, _| Some(columns), visit)
    }

    /// The walk both queries share: on every level with items, the rows of buckets from
    /// `y_min` to `y_max`, and in row `y` of level `k` the buckets over the finest-level
    /// columns `columns(k, y)` (inclusive; `None` skips the row), their item lists to
    /// `visit`, until it breaks.
    fn visit_rows(
        &self,
        y_min: f64,
        y_max: f64,
        columns: impl Fn(usize, usize) -> Option<(usize, usize)>,
        mut visit: impl FnMut(&[u32]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (y0, y1) = (self.row(y_min), self.row(y_max));
        for (k, l) in self.levels.iter().enumerate() {
            if l.items == 0 {
                continue;
            }
            for y in y0 >> k..=y1 >> k {
                let Some((x0, x1)) = columns(k, y) else {
                    continue;
                };
                let row = l.first + y * l.nx;
                for b in row + (x0 >> k)..=row + (x1 >> k) {
                    visit(&self.items[self.start[b] as usize..self.start[b + 1] as usize])?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// As [`for_each_bucket`](Self::for_each_bucket) over the box of the segment `a`–`b`
    /// grown by `reach`, but only the buckets that can hold a point within `reach` of the
    /// segment: every item with a point within `reach` of it is in one of them (its box's
    /// buckets cover its box). The segment is walked a row of buckets at a time, as a
    /// thick line is drawn: in each row, the columns from the leftmost to the rightmost
    /// point of the part of the segment within `reach` of the row, widened by `reach` (and
    /// a hair for rounding); the border rows and columns reach on past the bounds, as
    /// their buckets hold what lies beyond. Cost: O(rows of the box + buckets visited +
    /// items listed) on each level; for a long diagonal segment, a strip along it instead
    /// of its whole box. A segment or reach that is not finite gets the whole box. The
    /// walk ends early when `visit` breaks.
    pub(crate) fn for_each_bucket_near_segment(
        &self,
        a: DVec2,
        b: DVec2,
        reach: f64,
        visit: impl FnMut(&[u32]) -> ControlFlow<()>,
    ) {
        let (min, max) = (a.min(b) - reach, a.max(b) + reach);
        if !(a.is_finite() && b.is_finite() && reach.is_finite()) {
            let _ = self.visit_box(min, max, visit);
            return;
        }
        let rounding = 1e-9 * (1.0 + a.abs().max_element() + b.abs().max_element());
        let finest = self.bucket_size();
        // A short segment's strip is its box (a crowd's tests are mostly points and short
        // legs): walk that, its buckets found once for every level, instead of bounding
        // each row of each level.
        let pad = reach.max(0.0) + rounding + 1e-9 * finest.max_element();
        let (lo, hi) = (a.min(b) - pad, a.max(b) + pad);
        if (hi - lo).cmple(2.0 * finest).all() {
            let _ = self.visit_box(lo, hi, visit);
            return;
        }
        let columns = |k: usize, y: usize| {
            let l = &self.levels[k];
            let side = finest * (1u64 << k) as f64;
            let pad = reach.max(0.0) + rounding + 1e-9 * side.max_element();
            // The row's band, grown by the reach; unbounded past the border.
            let below = match y {
                0 => f64::NEG_INFINITY,
                _ => self.lo.y + y as f64 * side.y - pad,
            };
            let above = match y + 1 == l.ny {
                true => f64::INFINITY,
                false => self.lo.y + (y + 1) as f64 * side.y + pad,
            };
            // The segment's parameters within the band.
            let (t0, t1) = if a.y == b.y {
                if a.y < below || a.y > above {
                    return None;
                }
                (0.0, 1.0)
            } else {
                let (u, v) = ((below - a.y) / (b.y - a.y), (above - a.y) / (b.y - a.y));
                (u.min(v).max(0.0), u.max(v).min(1.0))
            };
            if t0 > t1 {
                return None;
            }
            let (x0, x1) = (a.x + t0 * (b.x - a.x), a.x + t1 * (b.x - a.x));
            Some((self.column(x0.min(x1) - pad), self.column(x0.max(x1) + pad)))
        };
        let _ = self.visit_rows(min.y, max.y, columns, visit);
    }
}

/// The bucket of coordinate `v` along an axis of `n` buckets from `lo`, `scale` buckets a
/// unit: clamped to `0..n` (NaN to 0), so monotone in `v`.
fn bucket_of(v: f64, lo: f64, scale: f64, n: usize) -> usize {
    let k = ((v - lo) * scale).floor();
    if k >= 0.0 {
        k.min((n - 1) as f64) as usize
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item whose box meets the query is listed, on random boxes of every size.
    #[test]
    fn queries_find_every_overlapping_box() {
        let mut next = crate::test_fixtures::lcg_uniform(7);
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
        // Long segments (a strip of buckets), then points and short segments (a bucket's
        // side or less: the walk takes their box).
        let long = (0..300).map(|_| (point(110.0), point(110.0)));
        let long: Vec<_> = long.collect();
        let short: Vec<_> = (0..600)
            .map(|q| {
                let a = point(110.0);
                match q % 2 {
                    0 => (a, a),
                    _ => (a, a + (point(1.0) + 5.0) * [0.01, 1.0, 6.0][q % 3]),
                }
            })
            .collect();
        let mut visited_less = 0;
        for (q, &(a, b)) in long.iter().chain(&short).enumerate() {
            let reach = [0.0, 0.3, 2.0, 10.0][q % 4];
            let mut found = vec![false; items.len()];
            let mut visits = 0;
            index.for_each_bucket_near_segment(a, b, reach, |list| {
                visits += 1;
                for &i in list {
                    found[i as usize] = true;
                }
                ControlFlow::Continue(())
            });
            for (i, &(c, d)) in items.iter().enumerate() {
                let near = crate::geometry::segment_distance(a, b, c, d) <= reach;
                assert!(!near || found[i], "query {q} ({a} to {b}): item {i} missed");
            }
            if q < long.len() {
                let mut all = 0;
                let grow = DVec2::splat(reach);
                index.for_each_bucket(a.min(b) - grow, a.max(b) + grow, |_| all += 1);
                visited_less += (visits < all) as usize;
            }
        }
        assert!(
            visited_less > 100,
            "the segment skipped buckets in {visited_less} queries"
        );
    }

    /// A long diagonal segment visits a strip of buckets along it, not its whole box: on a
    /// 100 × 100 grid of one item a bucket, at most four buckets a row.
    #[test]
    fn a_diagonal_segment_visits_a_strip() {
        let cells = (0..100).flat_map(|y| (0..100).map(move |x| DVec2::new(x as f64, y as f64)));
        let boxes = cells.map(|c| (c + 0.25, c + 0.75));
        let index = BoxIndex::new(DVec2::ZERO, DVec2::splat(100.0), 10_000.0, boxes);
        assert_eq!((index.levels[0].nx, index.levels[0].ny), (100, 100));
        let mut visits = 0;
        let (a, b) = (DVec2::splat(0.5), DVec2::new(99.5, 98.5));
        index.for_each_bucket_near_segment(a, b, 0.3, |list| {
            assert_eq!(list.len(), 1);
            visits += 1;
            ControlFlow::Continue(())
        });
        assert!((100..=400).contains(&visits), "{visits} buckets visited");
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
