//! Plain-geometry checks on a navmesh file, independent of the pathsmooth library: the
//! invariants a Recast poly mesh keeps and the plan-view overlaps that make it multi-level.

use std::collections::HashMap;

use crate::format::NavmeshJson;

/// Plan-view distances below this (world units) count as touching, not overlapping.
pub const PLAN_EPS: f64 = 1e-3;

/// Counts that describe a mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Vertices.
    pub vertices: usize,
    /// Polygons.
    pub polygons: usize,
    /// Most vertices in one polygon.
    pub max_polygon_vertices: usize,
    /// Edges on two polygons.
    pub interior_edges: usize,
    /// Edges on one polygon (the boundary).
    pub boundary_edges: usize,
    /// `+1` when every polygon winds counter-clockwise in plan view (the plan-view axes taken
    /// as a right-handed (u, v) pair: (x, z) for y-up, (x, y) for z-up), `-1` when every one
    /// winds clockwise.
    pub winding: i8,
}

/// The plan-view overlaps of a mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlaps {
    /// Pairs of polygons whose plan-view interiors overlap (by more than [`PLAN_EPS`]).
    pub pairs: Vec<(usize, usize)>,
    /// Polygons that overlap at least one other.
    pub polygons: usize,
    /// For each pair, the vertical gap between the two polygons' height ranges
    /// (negative when the ranges interlock, as on a ramp above another).
    pub gaps: Vec<f64>,
}

impl Overlaps {
    /// Pairs whose vertical gap exceeds `height`, and how many polygons are in them.
    pub fn separated_by(&self, height: f64) -> (usize, usize) {
        let mut seen = vec![];
        let mut pairs = 0;
        for (&(a, b), &gap) in self.pairs.iter().zip(&self.gaps) {
            if gap > height {
                pairs += 1;
                seen.push(a);
                seen.push(b);
            }
        }
        seen.sort_unstable();
        seen.dedup();
        (pairs, seen.len())
    }
}

fn plan(mesh: &NavmeshJson, i: u32) -> [f64; 2] {
    let p = mesh.vertices[i as usize];
    if mesh.up == "z" {
        [p[0] as f64, p[1] as f64]
    } else {
        [p[0] as f64, p[2] as f64]
    }
}

fn height(mesh: &NavmeshJson, i: u32) -> f64 {
    let p = mesh.vertices[i as usize];
    if mesh.up == "z" {
        p[2] as f64
    } else {
        p[1] as f64
    }
}

fn cross(o: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// Checks the invariants of a poly mesh and returns its counts, or the first broken rule
/// naming the polygon: array lengths agree, the up axis is `y` or `z`, coordinates are
/// finite, every polygon has three or more distinct vertex indices in range and is convex in
/// plan view with one winding for all, every edge is on at most two polygons and, when on
/// two, they run it in opposite directions.
pub fn validate(mesh: &NavmeshJson) -> Result<Counts, String> {
    if mesh.up != "y" && mesh.up != "z" {
        return Err(format!("up axis {:?} is neither \"y\" nor \"z\"", mesh.up));
    }
    let n = mesh.polygons.len();
    if mesh.areas.len() != n || mesh.flags.len() != n {
        return Err(format!(
            "{n} polygons but {} areas and {} flags",
            mesh.areas.len(),
            mesh.flags.len()
        ));
    }
    if let Some(v) = mesh
        .vertices
        .iter()
        .position(|p| p.iter().any(|c| !c.is_finite()))
    {
        return Err(format!("vertex {v} is not finite"));
    }
    let nv = mesh.vertices.len() as u32;
    let mut winding = 0i8;
    let mut edges: HashMap<(u32, u32), (usize, usize)> = HashMap::new();
    let mut max_polygon_vertices = 0;
    for (p, poly) in mesh.polygons.iter().enumerate() {
        max_polygon_vertices = max_polygon_vertices.max(poly.len());
        if poly.len() < 3 {
            return Err(format!("polygon {p} has {} vertices", poly.len()));
        }
        if let Some(&i) = poly.iter().find(|&&i| i >= nv) {
            return Err(format!(
                "polygon {p}: vertex index {i} out of range ({nv} vertices)"
            ));
        }
        let mut sorted = poly.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != poly.len() {
            return Err(format!("polygon {p} repeats a vertex: {poly:?}"));
        }
        let k = poly.len();
        let pts: Vec<[f64; 2]> = poly.iter().map(|&i| plan(mesh, i)).collect();
        let area2: f64 = (0..k)
            .map(|j| {
                let (a, b) = (pts[j], pts[(j + 1) % k]);
                a[0] * b[1] - a[1] * b[0]
            })
            .sum();
        if area2.abs() < PLAN_EPS * PLAN_EPS {
            return Err(format!("polygon {p} has no area in plan view"));
        }
        let sign = if area2 > 0.0 { 1i8 } else { -1 };
        if winding == 0 {
            winding = sign;
        } else if winding != sign {
            return Err(format!(
                "polygon {p} winds the other way from polygon 0 in plan view"
            ));
        }
        for j in 0..k {
            let c = cross(pts[j], pts[(j + 1) % k], pts[(j + 2) % k]);
            // A reflex corner, beyond rounding (the cross product scales with two lengths).
            let a = pts[(j + 1) % k];
            let len = |q: [f64; 2]| ((q[0] - a[0]).powi(2) + (q[1] - a[1]).powi(2)).sqrt();
            if c * f64::from(sign) < -PLAN_EPS * len(pts[j]).max(len(pts[(j + 2) % k])) {
                return Err(format!(
                    "polygon {p} is not convex in plan view at vertex {}",
                    poly[(j + 1) % k]
                ));
            }
        }
        for j in 0..k {
            let (a, b) = (poly[j], poly[(j + 1) % k]);
            let e = edges.entry((a.min(b), a.max(b))).or_insert((0, 0));
            if a < b {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
            if e.0 + e.1 > 2 {
                return Err(format!(
                    "edge {a}–{b} of polygon {p} is on three or more polygons"
                ));
            }
            if e.0 > 1 || e.1 > 1 {
                return Err(format!(
                    "edge {a}–{b} of polygon {p} runs the same way in two polygons"
                ));
            }
        }
    }
    let interior_edges = edges.values().filter(|e| e.0 + e.1 == 2).count();
    Ok(Counts {
        vertices: mesh.vertices.len(),
        polygons: n,
        max_polygon_vertices,
        interior_edges,
        boundary_edges: edges.len() - interior_edges,
        winding,
    })
}

/// The pairs of polygons whose interiors overlap in plan view (separating-axis test on the
/// convex outlines, overlaps thinner than [`PLAN_EPS`] ignored), and their vertical gaps.
/// Assumes [`validate`] passed.
pub fn overlaps(mesh: &NavmeshJson) -> Overlaps {
    let outlines: Vec<Vec<[f64; 2]>> = mesh
        .polygons
        .iter()
        .map(|p| p.iter().map(|&i| plan(mesh, i)).collect())
        .collect();
    let heights: Vec<(f64, f64)> = mesh
        .polygons
        .iter()
        .map(|p| {
            p.iter()
                .map(|&i| height(mesh, i))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), h| {
                    (lo.min(h), hi.max(h))
                })
        })
        .collect();
    let boxes: Vec<[f64; 4]> = outlines
        .iter()
        .map(|o| {
            o.iter().fold(
                [
                    f64::INFINITY,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NEG_INFINITY,
                ],
                |b, q| {
                    [
                        b[0].min(q[0]),
                        b[1].min(q[1]),
                        b[2].max(q[0]),
                        b[3].max(q[1]),
                    ]
                },
            )
        })
        .collect();
    let mut pairs = vec![];
    let mut gaps = vec![];
    let mut involved = vec![false; outlines.len()];
    for a in 0..outlines.len() {
        for b in a + 1..outlines.len() {
            let (ba, bb) = (boxes[a], boxes[b]);
            if ba[2] <= bb[0] + PLAN_EPS
                || bb[2] <= ba[0] + PLAN_EPS
                || ba[3] <= bb[1] + PLAN_EPS
                || bb[3] <= ba[1] + PLAN_EPS
            {
                continue;
            }
            if interiors_overlap(&outlines[a], &outlines[b]) {
                pairs.push((a, b));
                let (ha, hb) = (heights[a], heights[b]);
                gaps.push((hb.0 - ha.1).max(ha.0 - hb.1));
                involved[a] = true;
                involved[b] = true;
            }
        }
    }
    Overlaps {
        pairs,
        polygons: involved.iter().filter(|&&x| x).count(),
        gaps,
    }
}

/// Whether two convex outlines overlap by more than [`PLAN_EPS`] on every edge normal.
fn interiors_overlap(p: &[[f64; 2]], q: &[[f64; 2]]) -> bool {
    for poly in [p, q] {
        for j in 0..poly.len() {
            let (a, b) = (poly[j], poly[(j + 1) % poly.len()]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let len = (dx * dx + dy * dy).sqrt();
            if len == 0.0 {
                continue;
            }
            let axis = [-dy / len, dx / len];
            let range = |s: &[[f64; 2]]| {
                s.iter()
                    .map(|v| v[0] * axis[0] + v[1] * axis[1])
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                        (lo.min(x), hi.max(x))
                    })
            };
            let (p_lo, p_hi) = range(p);
            let (q_lo, q_hi) = range(q);
            if p_hi <= q_lo + PLAN_EPS || q_hi <= p_lo + PLAN_EPS {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh(vertices: Vec<[f32; 3]>, polygons: Vec<Vec<u32>>) -> NavmeshJson {
        let n = polygons.len();
        NavmeshJson {
            up: "y".into(),
            bake: None,
            vertices,
            polygons,
            areas: vec![63; n],
            flags: vec![1; n],
            detail: None,
        }
    }

    #[test]
    fn two_floors_overlap_and_neighbours_do_not() {
        // Two unit squares side by side on the ground, one above the first at height 5.
        let v = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [0.0, 0.0, 1.0],
            [1.0, 0.0, 1.0],
            [2.0, 0.0, 1.0],
            [0.2, 5.0, 0.2],
            [0.8, 5.0, 0.2],
            [0.8, 5.0, 0.8],
        ];
        let m = mesh(v, vec![vec![0, 3, 4, 1], vec![1, 4, 5, 2], vec![6, 8, 7]]);
        let c = validate(&m).unwrap();
        assert_eq!((c.polygons, c.interior_edges, c.boundary_edges), (3, 1, 9));
        let o = overlaps(&m);
        assert_eq!(o.pairs, vec![(0, 2)]);
        assert_eq!(o.separated_by(2.0), (1, 2));
        assert_eq!(o.separated_by(5.0), (0, 0));
    }

    #[test]
    fn broken_rules_are_named() {
        let v = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0],
            [0.9, 0.0, 0.1],
            [2.0, 0.0, 2.0],
        ];
        assert!(validate(&mesh(v.clone(), vec![vec![0, 1, 9]]))
            .unwrap_err()
            .contains("out of range"));
        assert!(validate(&mesh(v.clone(), vec![vec![0, 1, 1]]))
            .unwrap_err()
            .contains("repeats"));
        assert!(validate(&mesh(v.clone(), vec![vec![0, 3, 4, 2, 1]]))
            .unwrap_err()
            .contains("convex"));
        let three = vec![vec![0, 3, 1], vec![1, 3, 2], vec![1, 3, 5]];
        assert!(validate(&mesh(v, three))
            .unwrap_err()
            .contains("three or more"));
    }
}
