//! The cost of a segment on a grid with areas: its length inside each cell times the
//! cell's area cost.
//!
//! The segment is walked cell by cell as Amanatides and Woo's voxel traversal does
//! (*A Fast Voxel Traversal Algorithm for Ray Tracing*, Eurographics 1987): the
//! parameters where it crosses the grid's vertical and horizontal lines, taken in order,
//! cut it into pieces that each lie in one cell, and each piece costs its length times
//! that cell's multiplier. A piece that runs *along* a grid line lies in two cells at
//! once; it costs the cheaper of the two (the infimum of the costs of paths beside it, so
//! a path hugging a wall costs what the free side costs). Blocked cells, excluded areas
//! and the outside cost infinity. Crossings of a vertical and a horizontal line within
//! 10⁻¹² of the length of each other are one crossing (the segment passes through a
//! lattice vertex; rounding must not make it clip the diagonal cell's corner).

use glam::DVec2;

use crate::area::AreaCosts;
use crate::grid::map::GridMap;

/// Two crossing parameters closer than this (of the segment's length) are one crossing.
const SLIVER: f64 = 1e-12;

/// The cost of the segment `a`–`b` (cell units) on `map` (as filtered by `costs`):
/// Σ length in cell × the cell's multiplier, infinite through a blocked cell. Exact up to
/// the rounding of the crossing parameters (a few ulp of the length). Cost: O(cells
/// crossed).
pub(crate) fn segment_cost(map: &GridMap, costs: &AreaCosts, a: DVec2, b: DVec2) -> f64 {
    let d = b - a;
    let length = d.length();
    if length == 0.0 || !length.is_finite() {
        return if length == 0.0 { 0.0 } else { f64::INFINITY };
    }
    let cost_at = |x: i64, y: i64| {
        if map.is_passable(x, y) {
            costs.multiplier(map.area(x as usize, y as usize))
        } else {
            f64::INFINITY
        }
    };
    // A segment along a grid line lies in the two cells beside it.
    let on_vertical_line = d.x == 0.0 && a.x == a.x.floor();
    let on_horizontal_line = d.y == 0.0 && a.y == a.y.floor();
    let piece_cost = |m: DVec2| {
        let (x, y) = (m.x.floor() as i64, m.y.floor() as i64);
        if on_vertical_line {
            cost_at(x - 1, y).min(cost_at(x, y))
        } else if on_horizontal_line {
            cost_at(x, y - 1).min(cost_at(x, y))
        } else {
            cost_at(x, y)
        }
    };
    // The next vertical (x = kx) and horizontal (y = ky) grid lines the segment crosses.
    let next_line = |s: f64, ds: f64| {
        if ds > 0.0 {
            s.floor() + 1.0
        } else {
            s.ceil() - 1.0
        }
    };
    let (mut kx, mut ky) = (next_line(a.x, d.x), next_line(a.y, d.y));
    let crossing = |k: f64, s: f64, ds: f64| {
        if ds == 0.0 {
            f64::INFINITY
        } else {
            (k - s) / ds
        }
    };
    let (step_x, step_y) = (d.x.signum(), d.y.signum());
    let (mut t, mut total) = (0.0f64, 0.0f64);
    while t < 1.0 {
        let (tx, ty) = (crossing(kx, a.x, d.x), crossing(ky, a.y, d.y));
        let next = tx.min(ty).min(1.0);
        if next > t {
            let mid = a + d * (0.5 * (t + next));
            total += (next - t) * length * piece_cost(mid);
        }
        // A crossing within SLIVER of this one is the same crossing: the segment passes
        // through a lattice vertex, and the rounding of the two parameters would make a
        // sliver in a diagonal cell it never enters (a blocked one would cost infinity).
        if tx <= next + SLIVER {
            kx += step_x;
        }
        if ty <= next + SLIVER {
            ky += step_y;
        }
        t = if tx.max(ty) <= next + SLIVER {
            tx.max(ty).min(1.0)
        } else {
            next
        };
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn costs(spec: &str) -> AreaCosts {
        spec.parse().unwrap()
    }

    #[test]
    fn pieces_in_each_cell_times_their_cost() {
        let map = GridMap::from_rows(&[".S.", "..."]).unwrap();
        let c = costs("S=4");
        let p = |x, y| DVec2::new(x, y);
        assert_eq!(segment_cost(&map, &c, p(0.5, 0.5), p(2.5, 0.5)), 5.0);
        assert_eq!(segment_cost(&map, &c, p(2.5, 0.5), p(0.5, 0.5)), 5.0);
        // Along the line y = 1 between swamp and ground: the cheaper side.
        assert_eq!(segment_cost(&map, &c, p(0.0, 1.0), p(3.0, 1.0)), 3.0);
        // Diagonal through the swamp cell's corner only: no swamp.
        let diag = segment_cost(&map, &c, p(0.5, 1.5), p(1.0, 1.0));
        assert!((diag - 0.5f64.hypot(0.5)).abs() < 1e-15);
        // A quarter of a diagonal inside the swamp.
        let cut = segment_cost(&map, &c, p(1.0, 0.5), p(2.0, 1.5));
        let len = 2f64.sqrt();
        assert!((cut - (0.5 * len * 4.0 + 0.5 * len)).abs() < 1e-14, "{cut}");
        // Uniform costs: the length.
        let one = segment_cost(&map, &costs(""), p(0.1, 0.2), p(2.9, 1.7));
        assert!((one - p(0.1, 0.2).distance(p(2.9, 1.7))).abs() < 1e-14);
    }

    #[test]
    fn walls_and_exclusions_cost_infinity() {
        let map = GridMap::from_rows(&[".@.S"]).unwrap();
        let p = |x| DVec2::new(x, 0.5);
        assert_eq!(
            segment_cost(&map, &costs(""), p(0.5), p(2.5)),
            f64::INFINITY
        );
        let no_swamp = map.filtered(&costs("S=exclude"));
        assert_eq!(
            segment_cost(&no_swamp, &costs("S=exclude"), p(2.5), p(3.5)),
            f64::INFINITY
        );
        assert_eq!(segment_cost(&map, &costs(""), p(2.5), p(2.5)), 0.0);
    }
}
