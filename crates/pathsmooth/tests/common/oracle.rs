//! Brute-force geometry to judge the library by, independent of it: clearance on a grid
//! map from its cells alone (no distance field, validator or line-of-sight code), in cell
//! units; distances between points, segments and boxes; a Polyanya `.mesh` file's walls
//! read from its text, and which points they enclose.

use glam::DVec2;
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::Scene;

/// Every edge of a scene's rings (its boundary and holes): its walls, as the scene says.
pub fn scene_walls(scene: &Scene) -> Vec<[DVec2; 2]> {
    let corner = |p: [f64; 2]| DVec2::new(p[0], p[1]);
    std::iter::once(&scene.boundary)
        .chain(&scene.holes)
        .flat_map(|ring| {
            (0..ring.len()).map(move |i| [corner(ring[i]), corner(ring[(i + 1) % ring.len()])])
        })
        .collect()
}

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

pub fn segments_cross(a: DVec2, b: DVec2, p: DVec2, q: DVec2) -> bool {
    let cross = |u: DVec2, v: DVec2| u.x * v.y - u.y * v.x;
    let (d1, d2) = (cross(b - a, p - a), cross(b - a, q - a));
    let (d3, d4) = (cross(q - p, a - p), cross(q - p, b - p));
    (d1 * d2 <= 0.0) && (d3 * d4 <= 0.0)
}

/// Distance from `p` to the segment `a`–`b`.
pub fn side_distance(p: DVec2, [a, b]: [DVec2; 2]) -> f64 {
    if a == b {
        return p.distance(a);
    }
    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
    p.distance(a + (b - a) * t)
}

/// A Polyanya `.mesh` file read here (not by the library): its vertices, and its boundary
/// edges (the polygon sides no other polygon shares).
pub fn mesh_walls(text: &str) -> Vec<[DVec2; 2]> {
    let (vertices, polygons) = mesh_file(text);
    let mut sides = std::collections::HashMap::<(usize, usize), usize>::new();
    for ring in &polygons {
        let n = ring.len();
        for k in 0..n {
            let (a, b) = (ring[k], ring[(k + 1) % n]);
            *sides.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    let mut walls: Vec<[DVec2; 2]> = sides
        .into_iter()
        .filter(|&(_, uses)| uses == 1)
        .map(|((a, b), _)| [vertices[a], vertices[b]])
        .collect();
    walls.sort_by(|p, q| p[0].x.total_cmp(&q[0].x).then(p[0].y.total_cmp(&q[0].y)));
    walls
}

/// A Polyanya `.mesh` file's vertices (plan view) and polygons (each its vertex indices),
/// read apart from the library's reader: the header's two words, the counts, each vertex
/// (x, y, its neighbour count and neighbours), each polygon (its corner count, corners and
/// as many neighbours).
pub fn mesh_file(text: &str) -> (Vec<DVec2>, Vec<Vec<usize>>) {
    let mut numbers = text
        .split_whitespace()
        .skip(2)
        .map(|t| t.parse::<f64>().unwrap());
    let mut next = || numbers.next().unwrap();
    let (nv, np) = (next() as usize, next() as usize);
    let mut vertices = Vec::new();
    for _ in 0..nv {
        vertices.push(DVec2::new(next(), next()));
        for _ in 0..next() as usize {
            next();
        }
    }
    let polygons = (0..np)
        .map(|_| {
            let n = next() as usize;
            let ring: Vec<usize> = (0..n).map(|_| next() as usize).collect();
            for _ in 0..n {
                next();
            }
            ring
        })
        .collect();
    (vertices, polygons)
}

/// Distance between the segments `a`–`b` and `w` (0 when they meet).
pub fn segments_distance(a: DVec2, b: DVec2, w: [DVec2; 2]) -> f64 {
    if segments_cross(a, b, w[0], w[1]) {
        return 0.0;
    }
    side_distance(a, w)
        .min(side_distance(b, w))
        .min(side_distance(w[0], [a, b]))
        .min(side_distance(w[1], [a, b]))
}

/// True when `p` lies inside the region the closed boundary `walls` encloses (even–odd
/// rule, a ray towards +x; a point on a wall may go either way).
pub fn inside_walls(p: DVec2, walls: &[[DVec2; 2]]) -> bool {
    let crossings = walls
        .iter()
        .filter(|[a, b]| {
            (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
        })
        .count();
    crossings % 2 == 1
}
