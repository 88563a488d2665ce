//! Plane geometry for the tests' oracles, in plain floating point and independent of the
//! library: a ring's signed area, Sutherland–Hodgman clipping by a convex ring, and a
//! random convex ring.

use glam::DVec2;

/// The signed area of a ring (shoelace): positive counter-clockwise; 0 below 3 corners.
pub fn ring_area(ring: &[DVec2]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| ring[i].perp_dot(ring[(i + 1) % n]))
        .sum::<f64>()
        / 2.0
}

/// Sutherland–Hodgman: `subject` clipped by each side of the convex counter-clockwise
/// `clip` in turn; empty (or a sliver of fewer than 3 corners) when they do not overlap.
pub fn clip_convex(subject: &[DVec2], clip: &[DVec2]) -> Vec<DVec2> {
    let mut out = subject.to_vec();
    let n = clip.len();
    for i in 0..n {
        let (a, b) = (clip[i], clip[(i + 1) % n]);
        let side = |p: DVec2| (b - a).perp_dot(p - a);
        let input = std::mem::take(&mut out);
        for j in 0..input.len() {
            let (p, q) = (input[j], input[(j + 1) % input.len()]);
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                out.push(p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                out.push(p + (q - p) * (sp / (sp - sq)));
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// A random convex polygon, counter-clockwise: 3 to 7 points on a circle round `c` of
/// radius drawn in [0.3, 2.5), at sorted random angles.
pub fn random_convex_ring(rng: &mut crate::common::rng::Rng, c: DVec2) -> Vec<DVec2> {
    let r = rng.range(0.3, 2.5);
    let n = 3 + (rng.next_u64() % 5) as usize;
    let mut angles: Vec<f64> = (0..n)
        .map(|_| rng.range(0.0, std::f64::consts::TAU))
        .collect();
    angles.sort_by(f64::total_cmp);
    angles.dedup();
    angles
        .iter()
        .map(|&a| c + r * DVec2::from_angle(a))
        .collect()
}
