//! One piece of an exact curve: a line segment, a circular arc or a clothoid.

use glam::DVec2;

use super::fresnel::fresnel;
use crate::error::{Error, Result};

/// A piece of an [`ExactCurve`](super::ExactCurve), parametrised by arc length `s` from its
/// start. Every piece stores its endpoints, so pieces built to meet meet exactly, and
/// sampling returns them bit for bit.
///
/// Build pieces with [`Piece::line`], [`Piece::arc`] and [`Piece::clothoid`], which check
/// their parameters and compute the endpoints.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Piece {
    /// The segment from `start` to `end` (curvature 0).
    Line {
        /// First point.
        start: DVec2,
        /// Last point.
        end: DVec2,
    },
    /// A circular arc: the points `center + radius·(cos φ, sin φ)` for φ from
    /// `start_angle` to `start_angle + sweep` (`sweep > 0`: counter-clockwise, a left turn
    /// in a y-up frame); signed curvature `sign(sweep)/radius`.
    Arc {
        /// Centre of the circle.
        center: DVec2,
        /// Radius (> 0).
        radius: f64,
        /// Polar angle of the first point around the centre, radians.
        start_angle: f64,
        /// Signed angle swept, radians, |sweep| ≤ 2π.
        sweep: f64,
        /// First point.
        start: DVec2,
        /// Last point.
        end: DVec2,
    },
    /// A stretch of a clothoid (Euler spiral): heading `heading + sharpness·t²/2` at
    /// parameter `t`, so the signed curvature `sharpness·t` is linear in arc length. `t`
    /// is the arc length from the spiral's inflection point `origin` (curvature 0 there),
    /// and the piece runs from `t = t0` to `t = t1 > t0`. Points use the Fresnel integrals
    /// (see the module's accuracy note).
    Clothoid {
        /// The point of zero curvature (`t = 0`), which the piece need not contain.
        origin: DVec2,
        /// Heading at `origin`, radians.
        heading: f64,
        /// Rate of change of the signed curvature per unit length (≠ 0).
        sharpness: f64,
        /// First parameter.
        t0: f64,
        /// Last parameter.
        t1: f64,
        /// First point.
        start: DVec2,
        /// Last point.
        end: DVec2,
    },
}

fn finite(name: &'static str, v: f64) -> Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::param(name, v, "a finite number"))
    }
}

fn finite_point(p: DVec2) -> Result<DVec2> {
    if p.is_finite() {
        Ok(p)
    } else {
        Err(Error::NonFinite { index: 0 })
    }
}

impl Piece {
    /// The segment `start`–`end` (a zero-length segment is allowed: a curve of one point).
    ///
    /// Errors: [`Error::NonFinite`] for a non-finite point.
    pub fn line(start: DVec2, end: DVec2) -> Result<Self> {
        finite_point(start)?;
        finite_point(end)?;
        Ok(Piece::Line { start, end })
    }

    /// The arc of the circle (`center`, `radius`) from polar angle `start_angle` over the
    /// signed angle `sweep`, both in radians (any finite `start_angle`; |sweep| ≤ 2π, a
    /// full circle).
    ///
    /// Errors: [`Error::BadParameter`] for a radius that is not positive and finite or a
    /// non-finite angle; [`Error::BadAngle`] for |sweep| > 2π (degrees by mistake: `90.0`
    /// is refused with "did you mean 90° = 1.5708 rad?"); [`Error::NonFinite`] for a
    /// non-finite centre.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::curve::Piece;
    /// let quarter = Piece::arc(DVec2::ZERO, 2.0, 0.0, std::f64::consts::FRAC_PI_2)?;
    /// assert!((quarter.length() - std::f64::consts::PI).abs() < 1e-15);
    /// assert!((quarter.end() - DVec2::new(0.0, 2.0)).length() < 1e-15);
    /// assert_eq!(quarter.curvature_at(1.0), 0.5);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn arc(center: DVec2, radius: f64, start_angle: f64, sweep: f64) -> Result<Self> {
        finite_point(center)?;
        Error::check_positive("radius", radius, "a positive finite arc radius")?;
        finite("start_angle", start_angle)?;
        if sweep.is_nan() {
            return Err(Error::param(
                "sweep",
                sweep,
                "an angle in [−2π, 2π] radians",
            ));
        }
        if sweep.abs() > std::f64::consts::TAU {
            return Err(Error::BadAngle {
                name: "sweep",
                value: sweep,
                unit: "rad",
                expected: "an angle in [−2π, 2π] radians",
            });
        }
        let at = |phi: f64| center + radius * DVec2::from_angle(phi);
        Ok(Piece::Arc {
            center,
            radius,
            start_angle,
            sweep,
            start: at(start_angle),
            end: at(start_angle + sweep),
        })
    }

    /// The clothoid with inflection point `origin`, heading `heading` there and curvature
    /// rate `sharpness`, from parameter `t0` to `t1`.
    ///
    /// Errors: [`Error::BadParameter`] for a zero or non-finite sharpness, non-finite
    /// parameters or `t1 < t0`; [`Error::NonFinite`] for a non-finite origin.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::curve::Piece;
    /// // From a straight line into a left turn: curvature 0 → 0.5 over 2 units.
    /// let spiral = Piece::clothoid(DVec2::ZERO, 0.0, 0.25, 0.0, 2.0)?;
    /// assert_eq!(spiral.curvature_at(0.0), 0.0);
    /// assert_eq!(spiral.curvature_at(2.0), 0.5);
    /// assert!((spiral.heading_at(2.0) - 0.5).abs() < 1e-15);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn clothoid(origin: DVec2, heading: f64, sharpness: f64, t0: f64, t1: f64) -> Result<Self> {
        finite_point(origin)?;
        finite("heading", heading)?;
        if !(sharpness.is_finite() && sharpness != 0.0) {
            return Err(Error::param(
                "sharpness",
                sharpness,
                "a finite non-zero number",
            ));
        }
        finite("t0", t0)?;
        finite("t1", t1)?;
        if t1 < t0 {
            return Err(Error::param("t1", t1, "a parameter ≥ t0"));
        }
        let at = |t: f64| clothoid_point(origin, heading, sharpness, t);
        Ok(Piece::Clothoid {
            origin,
            heading,
            sharpness,
            t0,
            t1,
            start: at(t0),
            end: at(t1),
        })
    }

    /// The first point.
    pub fn start(&self) -> DVec2 {
        match *self {
            Piece::Line { start, .. }
            | Piece::Arc { start, .. }
            | Piece::Clothoid { start, .. } => start,
        }
    }

    /// The last point.
    pub fn end(&self) -> DVec2 {
        match *self {
            Piece::Line { end, .. } | Piece::Arc { end, .. } | Piece::Clothoid { end, .. } => end,
        }
    }

    /// The arc length of the piece. O(1).
    pub fn length(&self) -> f64 {
        match *self {
            Piece::Line { start, end } => start.distance(end),
            Piece::Arc { radius, sweep, .. } => radius * sweep.abs(),
            Piece::Clothoid { t0, t1, .. } => t1 - t0,
        }
    }

    /// The point at arc length `s` from the start (`s` clamped to the piece; the stored
    /// endpoints at its ends). O(1).
    pub fn point_at(&self, s: f64) -> DVec2 {
        let len = self.length();
        let s = clamp(s, len);
        if s == 0.0 {
            return self.start();
        }
        if s == len {
            return self.end();
        }
        match *self {
            Piece::Line { start, end } => start + (end - start) * (s / len),
            Piece::Arc {
                center,
                radius,
                start_angle,
                sweep,
                ..
            } => center + radius * DVec2::from_angle(start_angle + sweep.signum() * s / radius),
            Piece::Clothoid {
                origin,
                heading,
                sharpness,
                t0,
                ..
            } => clothoid_point(origin, heading, sharpness, t0 + s),
        }
    }

    /// The heading (direction of travel as an angle, radians) at arc length `s`. A
    /// zero-length line has heading 0. O(1).
    pub fn heading_at(&self, s: f64) -> f64 {
        let s = clamp(s, self.length());
        match *self {
            Piece::Line { start, end } => {
                let d = end - start;
                if d == DVec2::ZERO {
                    0.0
                } else {
                    d.y.atan2(d.x)
                }
            }
            Piece::Arc {
                radius,
                start_angle,
                sweep,
                ..
            } => {
                let sign = if sweep < 0.0 { -1.0 } else { 1.0 };
                start_angle + sign * (s / radius + std::f64::consts::FRAC_PI_2)
            }
            Piece::Clothoid {
                heading,
                sharpness,
                t0,
                ..
            } => {
                let t = t0 + s;
                heading + 0.5 * sharpness * t * t
            }
        }
    }

    /// The unit tangent (direction of travel) at arc length `s`. O(1).
    pub fn tangent_at(&self, s: f64) -> DVec2 {
        DVec2::from_angle(self.heading_at(s))
    }

    /// The signed curvature at arc length `s` (positive turning left, counter-clockwise).
    /// O(1).
    pub fn curvature_at(&self, s: f64) -> f64 {
        match *self {
            Piece::Line { .. } => 0.0,
            Piece::Arc { radius, sweep, .. } => {
                if sweep < 0.0 {
                    -1.0 / radius
                } else {
                    1.0 / radius
                }
            }
            Piece::Clothoid { sharpness, t0, .. } => sharpness * (t0 + clamp(s, self.length())),
        }
    }

    /// The largest |curvature| on the piece. O(1).
    pub fn max_curvature(&self) -> f64 {
        match *self {
            Piece::Line { .. } => 0.0,
            Piece::Arc { radius, .. } => 1.0 / radius,
            Piece::Clothoid {
                sharpness, t0, t1, ..
            } => sharpness.abs() * t0.abs().max(t1.abs()),
        }
    }

    /// How many chords of equal arc length keep within `chord_error` of the piece: a chord
    /// over arc length `h` of a curve with |curvature| ≤ κ is at most `κh²/8` from it.
    pub(crate) fn chords_for(&self, chord_error: f64) -> f64 {
        let k = self.max_curvature();
        if k == 0.0 {
            return 1.0;
        }
        let h = (8.0 * chord_error / k).sqrt();
        (self.length() / h).ceil().max(1.0)
    }

    /// Pushes the points after the start: `chords − 1` interior points at equal arc length
    /// and the stored end.
    pub(crate) fn push_samples(&self, chords: usize, out: &mut Vec<DVec2>) {
        let len = self.length();
        for k in 1..chords {
            out.push(self.point_at(len * k as f64 / chords as f64));
        }
        out.push(self.end());
    }
}

/// `s` clamped to [0, len], NaN to 0.
fn clamp(s: f64, len: f64) -> f64 {
    if s >= len {
        len
    } else if s > 0.0 {
        s
    } else {
        0.0
    }
}

/// The point of the clothoid (`origin`, `heading`, `sharpness`) at parameter `t`:
/// `origin + rot(heading)·a·(C(t/a), ±S(t/a))` with `a = √(π/|sharpness|)`.
fn clothoid_point(origin: DVec2, heading: f64, sharpness: f64, t: f64) -> DVec2 {
    let a = (std::f64::consts::PI / sharpness.abs()).sqrt();
    let (c, s) = fresnel(t / a);
    let local = DVec2::new(a * c, a * s * sharpness.signum());
    origin + DVec2::from_angle(heading).rotate(local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clothoid_heading_matches_its_points() {
        // The derivative of the position is the unit tangent (central differences).
        let p = Piece::clothoid(DVec2::new(1.0, 2.0), 0.3, -0.7, -1.0, 1.5).unwrap();
        for k in 1..20 {
            let s = p.length() * k as f64 / 20.0;
            let h = 1e-5;
            let d = (p.point_at(s + h) - p.point_at(s - h)) / (2.0 * h);
            assert!((d - p.tangent_at(s)).length() < 1e-9, "{s}");
        }
    }

    #[test]
    fn a_sweep_in_degrees_is_refused_with_the_conversion() {
        assert!(Piece::arc(DVec2::ZERO, 1.0, 0.0, -std::f64::consts::TAU).is_ok());
        for sweep in [90.0, -360.0] {
            let e = Piece::arc(DVec2::ZERO, 1.0, 0.0, sweep).unwrap_err();
            assert!(matches!(e, Error::BadAngle { name: "sweep", .. }), "{e:?}");
        }
        let e = Piece::arc(DVec2::ZERO, 1.0, 0.0, 90.0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("did you mean 90° = 1.5708 rad?"), "{e}");
        let e = Piece::arc(DVec2::ZERO, 1.0, 0.0, f64::NAN).unwrap_err();
        assert!(
            matches!(e, Error::BadParameter { name: "sweep", .. }),
            "{e:?}"
        );
    }

    #[test]
    fn arc_heading_matches_its_points() {
        for sweep in [1.0, -2.5] {
            let p = Piece::arc(DVec2::new(-1.0, 3.0), 2.0, 0.4, sweep).unwrap();
            for k in 1..20 {
                let s = p.length() * k as f64 / 20.0;
                let h = 1e-5;
                let d = (p.point_at(s + h) - p.point_at(s - h)) / (2.0 * h);
                assert!((d - p.tangent_at(s)).length() < 1e-9, "{sweep} {s}");
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(Piece::arc(DVec2::ZERO, 0.0, 0.0, 1.0).is_err());
        assert!(Piece::arc(DVec2::ZERO, 1.0, f64::NAN, 1.0).is_err());
        assert!(Piece::arc(DVec2::ZERO, 1.0, 0.0, 7.0).is_err());
        assert!(Piece::clothoid(DVec2::ZERO, 0.0, 0.0, 0.0, 1.0).is_err());
        assert!(Piece::clothoid(DVec2::ZERO, 0.0, 1.0, 1.0, 0.0).is_err());
        assert!(Piece::line(DVec2::NAN, DVec2::ZERO).is_err());
    }
}
