//! What each triangle corner's vertex is to a path: on a wall or not, and whether a path
//! may turn there. Computed once per mesh; two bits a corner, one byte a triangle.

use glam::DVec2;

use super::NO_TRI;
use crate::geometry::{cross, orientation};

/// The corner's vertex touches a wall.
pub(crate) const ON_WALL: u8 = 1;
/// A taut path may turn at the corner's vertex: the free angle of the fan of triangles
/// around it that holds this corner, between its two walls, exceeds π; or the fan goes all
/// the way round with more than 2π (a ramp that starts over the floor it leaves, on a
/// layered mesh: there a shortest path may bend at the vertex, as at a wall's corner).
pub(crate) const TURN: u8 = 2;

/// How far above 2π a fan's angles must add up, by the rounding of their sum, before it
/// counts as going round more than once.
const FULL_TURN_SLACK: f64 = 1e-9;

/// The flags of every triangle, corner `c` in bits `2c` and `2c + 1`. Each fan of triangles around a vertex (a vertex
/// has one fan, or one per free quadrant at a pinch) is walked once and its flags shared
/// by its corners, so the cost is O(triangles).
pub(super) fn corner_flags(
    vertices: &[DVec2],
    triangles: &[[u32; 3]],
    neighbors: &[[u32; 3]],
) -> Vec<u8> {
    const UNSET: u8 = u8::MAX;
    let mut flags = vec![UNSET; 3 * triangles.len()];
    let mut fan = Vec::new();
    for t in 0..triangles.len() {
        for c in 0..3 {
            if flags[3 * t + c] != UNSET {
                continue;
            }
            let v = triangles[t][c];
            fan.clear();
            fan.push(3 * t + c);
            // Rotate counter-clockwise (across the edge arriving at v) to the wall on that
            // side, then clockwise (across the edge leaving v) to the other.
            let mut walls = [None; 2];
            let mut full_circle = false;
            for (side, ccw) in [true, false].into_iter().enumerate() {
                let (mut cur, mut k) = (t, c);
                for _ in 0..triangles.len() {
                    let edge = if ccw { (k + 2) % 3 } else { k };
                    let n = neighbors[cur][edge];
                    if n == NO_TRI {
                        walls[side] =
                            Some(triangles[cur][if ccw { (k + 2) % 3 } else { (k + 1) % 3 }]);
                        break;
                    }
                    if n as usize == t {
                        full_circle = true;
                        break;
                    }
                    cur = n as usize;
                    k = triangles[cur].iter().position(|&x| x == v).unwrap_or(0);
                    fan.push(3 * cur + k);
                }
                if full_circle {
                    break;
                }
            }
            // The fan's angle at v, summed over its triangles: above 2π only where a
            // layered mesh's fan overlaps itself in plan view.
            let angle: f64 = fan
                .iter()
                .map(|&corner| {
                    let (tri, k) = (triangles[corner / 3], corner % 3);
                    let o = vertices[v as usize];
                    let (u, w) = (
                        vertices[tri[(k + 1) % 3] as usize] - o,
                        vertices[tri[(k + 2) % 3] as usize] - o,
                    );
                    cross(u, w).atan2(u.dot(w)).abs()
                })
                .sum();
            let wraps = angle > std::f64::consts::TAU + FULL_TURN_SLACK;
            let here = match (full_circle, walls) {
                (false, [Some(b), Some(a)]) => {
                    let o = vertices[v as usize];
                    // The fan runs counter-clockwise from the clockwise wall `a` to `b`.
                    // Exactly: a corner of a cut (a crossing rounded a few ulps off the
                    // obstacle's side) is a turn, or not, as the exact line of sight sees it.
                    let (pa, pb) = (vertices[a as usize], vertices[b as usize]);
                    let turn = orientation(o, pa, pb);
                    let reflex = turn < 0 || (turn == 0 && (pa - o).dot(pb - o) > 0.0) || wraps;
                    ON_WALL | if reflex { TURN } else { 0 }
                }
                (true, _) if wraps => TURN,
                _ => 0,
            };
            for &corner in &fan {
                flags[corner] = here;
            }
        }
    }
    flags
        .chunks_exact(3)
        .map(|f| f[0] | f[1] << 2 | f[2] << 4)
        .collect()
}
