//! A bucket grid of 3D points (plan x, plan y, height), for finding the points near a
//! segment in time that does not grow with how many floors are stacked over each other.

use glam::DVec3;
use rustc_hash::FxHashMap;

/// Points sorted by the cell they fall in; each cell's run found by its key.
pub(crate) struct PointGrid {
    origin: DVec3,
    cell: DVec3,
    /// Point indices, grouped by cell.
    order: Vec<u32>,
    /// Cell → its run in `order`.
    runs: FxHashMap<[i64; 3], (u32, u32)>,
}

impl PointGrid {
    /// A grid over `points` with cells of size `cell` (each component > 0).
    pub(crate) fn new(points: &[DVec3], cell: DVec3) -> Self {
        let origin = points
            .iter()
            .fold(DVec3::splat(f64::INFINITY), |m, &p| m.min(p));
        let origin = if origin.is_finite() {
            origin
        } else {
            DVec3::ZERO
        };
        let key = |p: DVec3| {
            let c = ((p - origin) / cell).floor();
            // `as` saturates: far points share the border cells, still compared exactly.
            [c.x as i64, c.y as i64, c.z as i64]
        };
        let mut keyed: Vec<([i64; 3], u32)> = points
            .iter()
            .enumerate()
            .map(|(i, &p)| (key(p), i as u32))
            .collect();
        keyed.sort_unstable();
        let mut runs = FxHashMap::default();
        let mut i = 0;
        while i < keyed.len() {
            let j = i + keyed[i..].iter().take_while(|k| k.0 == keyed[i].0).count();
            runs.insert(keyed[i].0, (i as u32, j as u32));
            i = j;
        }
        PointGrid {
            origin,
            cell,
            order: keyed.into_iter().map(|(_, i)| i).collect(),
            runs,
        }
    }

    /// Calls `f` with every point in a cell that meets the box `lo`–`hi` (a superset of
    /// the points in the box). Cost: the cells the box covers, or all the points when
    /// that is fewer.
    pub(crate) fn for_each_near(&self, lo: DVec3, hi: DVec3, mut f: impl FnMut(u32)) {
        let a = ((lo - self.origin) / self.cell).floor();
        let b = ((hi - self.origin) / self.cell).floor();
        let span = (b - a + 1.0).max(DVec3::ONE);
        let cells = span.x * span.y * span.z;
        // More cells than points (or a box beyond the numbers): scan the points.
        if cells.is_nan() || cells > self.runs.len() as f64 {
            self.order.iter().for_each(|&i| f(i));
            return;
        }
        let [ax, ay, az] = [a.x as i64, a.y as i64, a.z as i64];
        let [bx, by, bz] = [b.x as i64, b.y as i64, b.z as i64];
        for x in ax..=bx {
            for y in ay..=by {
                for z in az..=bz {
                    if let Some(&(s, e)) = self.runs.get(&[x, y, z]) {
                        self.order[s as usize..e as usize]
                            .iter()
                            .for_each(|&i| f(i));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_points_in_a_box_are_among_those_found() {
        let points: Vec<DVec3> = (0..1000)
            .map(|i| {
                DVec3::new(
                    (i % 10) as f64,
                    ((i / 10) % 10) as f64,
                    (i / 100) as f64 * 0.3,
                )
            })
            .collect();
        let grid = PointGrid::new(&points, DVec3::new(2.0, 2.0, 0.5));
        for (lo, hi) in [
            (DVec3::new(2.5, 2.5, 0.0), DVec3::new(4.5, 3.5, 0.7)),
            (DVec3::splat(-10.0), DVec3::splat(100.0)),
            (DVec3::new(9.5, 9.5, 9.0), DVec3::new(20.0, 20.0, 20.0)),
        ] {
            let mut found = Vec::new();
            grid.for_each_near(lo, hi, |i| found.push(i));
            for (i, p) in points.iter().enumerate() {
                if p.cmpge(lo).all() && p.cmple(hi).all() {
                    assert!(found.contains(&(i as u32)), "{p} in {lo}–{hi}");
                }
            }
        }
    }
}
