//! Plane geometry for the tests' oracles, in plain floating point and independent of the
//! library: a ring's signed area and Sutherland–Hodgman clipping by a convex ring.

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
