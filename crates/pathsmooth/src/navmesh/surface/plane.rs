//! One polygon's shape: its plan-view orientation and convexity, and its plane by Newell's
//! method. Everything here works in the surface's frame (plan x, plan y, height).

use glam::{DVec2, DVec3};

use crate::error::num;
use crate::geometry::{cross, orientation};

/// A polygon's plane: the points `p` with `normal · p = offset`. `normal` is a unit vector
/// pointing up (its height component is positive: every polygon of a surface has positive
/// area in plan view).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{Surface, UpAxis};
/// // A ramp rising 1 in y over 2 in x (y up).
/// let v = [DVec3::new(0.0, 0.0, 0.0), DVec3::new(2.0, 1.0, 0.0), DVec3::new(2.0, 1.0, 2.0), DVec3::new(0.0, 0.0, 2.0)];
/// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Y, 1e-6)?;
/// let plane = s.plane(0);
/// assert!(plane.normal.y > 0.0 && (plane.normal.length() - 1.0).abs() < 1e-12);
/// assert!(v.iter().all(|&p| (plane.normal.dot(p) - plane.offset).abs() < 1e-12));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    /// Unit normal, in world axes, pointing up.
    pub normal: DVec3,
    /// `normal · p` for every point `p` of the plane.
    pub offset: f64,
}

/// Newell's normal of a polygon: Σ over edges (a, b) of `(a.y − b.y)(a.z + b.z)`, … — for a
/// planar polygon twice its area times its unit normal, and for a slightly bent one its
/// vector area (the sum of its projected areas), a normal that no single corner skews.
/// Its height (z) component is exactly twice the plan-view signed area.
///
/// Source: M. E. Newell's method, as in F. Tampieri, "Newell's Method for Computing the
/// Plane Equation of a Polygon", Graphics Gems III (1992).
///
/// Computed on the vertices minus `o` (the polygon's first vertex, say), so that large
/// coordinates do not swamp the products.
pub(crate) fn newell(ring: &[DVec3], o: DVec3) -> DVec3 {
    let mut n = DVec3::ZERO;
    for (i, &p) in ring.iter().enumerate() {
        let (a, b) = (p - o, ring[(i + 1) % ring.len()] - o);
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    n
}

/// Twice the signed plan-view area of a ring (positive counter-clockwise), with the
/// terms taken relative to its first vertex so that large offsets do not cancel.
pub(crate) fn plan_area2(ring: &[DVec2]) -> f64 {
    let o = ring[0];
    (1..ring.len().saturating_sub(1))
        .map(|i| cross(ring[i] - o, ring[i + 1] - o))
        .sum()
}

/// Checks a counter-clockwise ring (plan view) is convex and simple: no right turn (by
/// the exact orientation predicate) at a corner farther than `slack` from the line
/// through its neighbours, no fold back (a straight turn whose edges point opposite
/// ways), and one winding (the turns add up to one full turn: a pentagram turns left at
/// every corner but twice around). Collinear corners are allowed (Recast and T-junction
/// repairs make them), and so are corners a rounding off that line (`slack`: a T-junction
/// vertex stored in `f32` lies on its edge only to that rounding). `Err` says which
/// corner, by its position in the ring.
pub(crate) fn check_convex(ring: &[DVec2], slack: f64) -> Result<(), (usize, String)> {
    let n = ring.len();
    let mut turning = 0.0;
    for i in 0..n {
        let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        let beside = || cross(c - a, b - a).abs() <= slack * (c - a).length();
        match orientation(a, b, c) {
            -1 if (b - a).dot(c - b) > 0.0 && beside() => {}
            -1 => return Err((i, "turns right there: the polygon is not convex".into())),
            0 if (b - a).dot(c - b) < 0.0 => {
                return Err((i, "folds back on itself there".into()));
            }
            _ => {}
        }
        turning += cross(b - a, c - b).atan2((b - a).dot(c - b));
    }
    // One winding turns by 2π; two by 4π. The halfway mark leaves room for rounding.
    if turning > 3.0 * std::f64::consts::PI {
        return Err((
            0,
            format!(
                "winds around {} times: the polygon intersects itself",
                num((turning / std::f64::consts::TAU).round())
            ),
        ));
    }
    Ok(())
}

/// The plane through a ring by Newell's method, in the frame (unit normal with positive
/// height component, offset through the centroid), and the largest distance of a vertex
/// from it with that vertex's position in the ring. `None` when the normal has no length
/// (cannot happen for a ring with positive plan area).
pub(crate) fn fit_plane(ring: &[DVec3]) -> Option<(DVec3, f64, f64, usize)> {
    // Relative to the first vertex, so large coordinates do not swamp the products.
    let o = ring[0];
    let n = newell(ring, o).try_normalize()?;
    let centroid = ring.iter().map(|&p| p - o).sum::<DVec3>() / ring.len() as f64;
    let d = n.dot(centroid);
    let (worst, dev) = ring
        .iter()
        .map(|&p| (n.dot(p - o) - d).abs())
        .enumerate()
        .fold(
            (0, 0.0),
            |best, (i, e)| if e > best.1 { (i, e) } else { best },
        );
    Some((n, d + n.dot(o), dev, worst))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newell_gives_twice_the_area_along_the_normal() {
        let sq = [
            DVec3::new(0.0, 0.0, 1.0),
            DVec3::new(2.0, 0.0, 1.0),
            DVec3::new(2.0, 2.0, 1.0),
            DVec3::new(0.0, 2.0, 1.0),
        ];
        assert_eq!(newell(&sq, DVec3::ZERO), DVec3::new(0.0, 0.0, 8.0));
        assert_eq!(newell(&sq, sq[2]), DVec3::new(0.0, 0.0, 8.0));
        let (n, d, dev, _) = fit_plane(&sq).unwrap();
        assert_eq!((n, d, dev), (DVec3::Z, 1.0, 0.0));
    }

    #[test]
    fn convexity_catches_right_turns_folds_and_double_windings() {
        let p = |v: &[(f64, f64)]| v.iter().map(|&(x, y)| DVec2::new(x, y)).collect::<Vec<_>>();
        assert!(check_convex(&p(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]), 0.0).is_ok());
        assert!(check_convex(&p(&[(0., 0.), (1., 0.), (2., 0.), (1., 1.)]), 0.0).is_ok());
        assert_eq!(
            check_convex(
                &p(&[(0., 0.), (2., 0.), (1., 0.5), (2., 2.), (0., 2.)]),
                0.0
            )
            .unwrap_err()
            .0,
            2
        );
        assert!(check_convex(&p(&[(0., 0.), (2., 0.), (1., 0.), (1., 1.)]), 0.0).is_err());
        // A pentagram: left turns only, twice around.
        let star: Vec<DVec2> = (0..5)
            .map(|k| {
                let a = (k * 2) as f64 * std::f64::consts::TAU / 5.0;
                DVec2::new(a.cos(), a.sin())
            })
            .collect();
        assert!(check_convex(&star, 0.0)
            .unwrap_err()
            .1
            .contains("intersects itself"));
    }
}
