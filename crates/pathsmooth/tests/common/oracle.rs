//! Brute-force clearance on a grid map, to check the library's exact distance field and
//! validator against. Independent of the library: it reads only the map's cells (no
//! distance field, validator or line-of-sight code), in cell units.

use glam::DVec2;
use pathsmooth::grid::GridMap;

/// Distance from `q` to the blocked region (DESIGN.md): the closed square of every blocked
/// cell and everything outside the map; 0 inside it. Cost: one test per cell.
pub fn clearance(map: &GridMap, q: DVec2) -> f64 {
    let (w, h) = (map.width() as f64, map.height() as f64);
    let mut best = q.x.min(w - q.x).min(q.y).min(h - q.y).max(0.0);
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            if map.is_blocked(x, y) {
                best = best.min(distance_to_cell(q, x, y));
            }
        }
    }
    best
}

/// Distance from `q` to the closed unit square of cell (x, y).
pub fn distance_to_cell(q: DVec2, x: i64, y: i64) -> f64 {
    let lo = DVec2::new(x as f64, y as f64);
    (lo - q).max(q - lo - DVec2::ONE).max(DVec2::ZERO).length()
}
