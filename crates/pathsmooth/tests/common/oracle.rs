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

/// Distance from segment `a`–`b` to the closed box [lo, hi] (0 when they meet).
pub fn segment_box_distance(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2) -> f64 {
    let point_box = |p: DVec2| (lo - p).max(p - hi).max(DVec2::ZERO).length();
    let point_segment = |p: DVec2| {
        let d = b - a;
        let t = if d == DVec2::ZERO {
            0.0
        } else {
            ((p - a).dot(d) / d.dot(d)).clamp(0.0, 1.0)
        };
        p.distance(a + d * t)
    };
    let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    let edges_cross = (0..4).any(|i| segments_cross(a, b, corners[i], corners[(i + 1) % 4]));
    if edges_cross || point_box(a) == 0.0 {
        return 0.0;
    }
    corners
        .iter()
        .map(|&c| point_segment(c))
        .chain([point_box(a), point_box(b)])
        .fold(f64::INFINITY, f64::min)
}

fn segments_cross(a: DVec2, b: DVec2, p: DVec2, q: DVec2) -> bool {
    let cross = |u: DVec2, v: DVec2| u.x * v.y - u.y * v.x;
    let (d1, d2) = (cross(b - a, p - a), cross(b - a, q - a));
    let (d3, d4) = (cross(q - p, a - p), cross(q - p, b - p));
    (d1 * d2 <= 0.0) && (d3 * d4 <= 0.0)
}
