//! The geometry of one corner: its turn, the tangent distance per unit radius, and the
//! pieces (an arc, or clothoid–arc–clothoid) that replace it for a given radius.

use glam::DVec2;

use crate::curve::exact::fresnel::fresnel;
use crate::curve::exact::Piece;

/// A corner at `p`, entered along the unit direction `u` and left along `v`.
#[derive(Debug, Clone, Copy)]
pub(super) struct CornerShape {
    /// The corner point.
    pub p: DVec2,
    /// Unit direction of the incoming leg.
    pub u: DVec2,
    /// Unit direction of the outgoing leg.
    pub v: DVec2,
    /// The turn angle in (0, π).
    pub theta: f64,
    /// +1 for a left (counter-clockwise) turn, −1 for a right turn.
    pub sigma: f64,
    /// Tangent distance per unit radius: the curve for radius `R` leaves the incoming leg
    /// at `p − u·g·R` and joins the outgoing one at `p + v·g·R`.
    pub g: f64,
    /// The fraction of the turn taken by the two clothoids (0: a circular arc).
    pub share: f64,
}

impl CornerShape {
    /// The corner `a → p → b` with unit legs `u`, `v` and turn `theta` ∈ (0, π), its
    /// transitions taking `share` ∈ [0, 1] of the turn.
    pub fn new(p: DVec2, u: DVec2, v: DVec2, theta: f64, share: f64) -> Self {
        let sigma = if u.perp_dot(v) < 0.0 { -1.0 } else { 1.0 };
        let mut c = CornerShape {
            p,
            u,
            v,
            theta,
            sigma,
            g: 0.0,
            share,
        };
        let (xc, yc) = c.local_center(1.0);
        c.g = xc + yc * (0.5 * theta).tan();
        c
    }

    /// Each clothoid's turn angle α = share·θ/2 and length 2αR.
    fn clothoid(&self, radius: f64) -> (f64, f64) {
        let alpha = 0.5 * self.share * self.theta;
        (alpha, 2.0 * alpha * radius)
    }

    /// The arc's centre in the entry frame (x along `u` from the tangent point, y to the
    /// inside of the turn). For a circular fillet (0, R); with clothoids, the clothoid's
    /// end point (X, Y) plus the arc's radius back along its normal:
    /// (X − R sin α, Y + R cos α) (the spiral–curve–spiral of highway design).
    fn local_center(&self, radius: f64) -> (f64, f64) {
        let (alpha, len) = self.clothoid(radius);
        if len == 0.0 {
            return (0.0, radius);
        }
        let (x, y) = self.clothoid_end(radius);
        (x - radius * alpha.sin(), y + radius * alpha.cos())
    }

    /// The entry clothoid's end in the entry frame: a·(C(L/a), S(L/a)), a = √(π R L).
    fn clothoid_end(&self, radius: f64) -> (f64, f64) {
        let (_, len) = self.clothoid(radius);
        let a = (std::f64::consts::PI * radius * len).sqrt();
        let (c, s) = fresnel(len / a);
        (a * c, a * s)
    }

    /// The tangent points for radius `radius`.
    pub fn tangent_points(&self, radius: f64) -> (DVec2, DVec2) {
        let d = self.g * radius;
        (self.p - self.u * d, self.p + self.v * d)
    }

    /// The pieces replacing the corner for `radius` > 0, from `t_in` to `t_out` (the
    /// stored endpoints, so neighbours meet exactly). At most three pieces, pushed to
    /// `out`.
    pub fn pieces(&self, radius: f64, t_in: DVec2, t_out: DVec2, out: &mut Vec<Piece>) {
        let heading_in = self.u.y.atan2(self.u.x);
        let heading_out = self.v.y.atan2(self.v.x);
        let normal = self.u.perp() * self.sigma;
        let (xc, yc) = self.local_center(radius);
        let center = t_in + self.u * xc + normal * yc;
        let (alpha, len) = self.clothoid(radius);
        let arc_sweep = self.sigma * (self.theta - 2.0 * alpha);
        if len == 0.0 {
            out.push(arc(center, radius, t_in, t_out, arc_sweep));
            return;
        }
        let sharpness = self.sigma / (radius * len);
        let entry = Piece::Clothoid {
            origin: t_in,
            heading: heading_in,
            sharpness,
            t0: 0.0,
            t1: len,
            start: t_in,
            end: t_in + rotate(self.clothoid_end(radius), heading_in, self.sigma),
        };
        // The exit clothoid runs from curvature σ/R down to 0 at `t_out`: parameters
        // [−L, 0] with the opposite sharpness; its start mirrors the entry's end.
        let (x, y) = self.clothoid_end(radius);
        let exit_start = t_out + rotate((-x, y), heading_out, self.sigma);
        let exit = Piece::Clothoid {
            origin: t_out,
            heading: heading_out,
            sharpness: -sharpness,
            t0: -len,
            t1: 0.0,
            start: exit_start,
            end: t_out,
        };
        out.push(entry);
        if arc_sweep != 0.0 {
            out.push(arc(center, radius, entry.end(), exit_start, arc_sweep));
        }
        out.push(exit);
    }
}

/// (x, σ·y) in the frame of heading `heading`.
fn rotate((x, y): (f64, f64), heading: f64, sigma: f64) -> DVec2 {
    DVec2::from_angle(heading).rotate(DVec2::new(x, sigma * y))
}

/// The arc around `center` from `start` to `end` (stored as given) sweeping `sweep`.
fn arc(center: DVec2, radius: f64, start: DVec2, end: DVec2, sweep: f64) -> Piece {
    let d = start - center;
    Piece::Arc {
        center,
        radius,
        start_angle: d.y.atan2(d.x),
        sweep,
        start,
        end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::exact::ExactCurve;

    fn shape(share: f64) -> CornerShape {
        let u = DVec2::new(1.0, 0.2).normalize();
        let v = DVec2::new(-0.3, 1.0).normalize();
        let theta = crate::geometry::angle_between(u, v).unwrap();
        CornerShape::new(DVec2::new(3.0, 1.0), u, v, theta, share)
    }

    #[test]
    fn pieces_meet_tangent_and_end_on_the_legs() {
        for share in [0.0, 0.3, 1.0] {
            for sign in [1.0, -1.0] {
                let mut s = shape(share);
                if sign < 0.0 {
                    // The mirror image: a right turn.
                    s = CornerShape::new(
                        DVec2::new(s.p.x, -s.p.y),
                        DVec2::new(s.u.x, -s.u.y),
                        DVec2::new(s.v.x, -s.v.y),
                        s.theta,
                        share,
                    );
                }
                let (a, b) = s.tangent_points(2.0);
                let mut pieces = Vec::new();
                s.pieces(2.0, a, b, &mut pieces);
                // The stored joints agree with the pieces' own formulas.
                for p in &pieces {
                    assert!((p.point_at(0.0 + 1e-300) - p.start()).length() < 1e-12);
                    let near_end = p.point_at(p.length() * (1.0 - 1e-15));
                    assert!((near_end - p.end()).length() < 1e-12, "{share} {p:?}");
                }
                let c = ExactCurve::new(pieces).unwrap();
                assert!(c.max_tangent_jump() < 1e-9, "{share}");
                assert!((c.tangent_at(0.0) - s.u).length() < 1e-12);
                assert!((c.tangent_at(c.length()) - s.v).length() < 1e-12);
                assert!(c.max_curvature() <= 0.5 + 1e-12);
                if share > 0.0 {
                    assert!(c.max_curvature_jump() < 1e-9, "{share}");
                }
            }
        }
    }
}
