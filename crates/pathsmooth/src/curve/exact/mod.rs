//! Exact curves: paths made of line segments, circular arcs and clothoids, with their
//! length, points, tangents and curvature in closed form, sampled to a polyline at a
//! spacing or within a chord error.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "Exact curves".)

pub(crate) mod fresnel;
mod piece;

pub use piece::Piece;

use glam::DVec2;

use crate::error::{Error, Result};

/// Most points a sampling may produce ([`Error::OutputTooLarge`] beyond).
pub const MAX_SAMPLES: usize = 1 << 24;

/// A curve of [`Piece`]s joined end to start, parametrised by arc length from its first
/// point. Build with [`ExactCurve::new`] (which checks that the pieces join) or
/// [`ExactCurve::from_polyline`].
///
/// With the `serde` feature it serialises as `{"pieces": [...]}`, each piece tagged by
/// kind (`line`, `arc`, `clothoid`); deserialising checks the pieces again.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "Pieces", try_from = "Pieces"))]
pub struct ExactCurve {
    pieces: Vec<Piece>,
    /// Arc length at the start of each piece, and the total at the end (`pieces.len() + 1`
    /// entries).
    starts: Vec<f64>,
}

/// The serialised form of an [`ExactCurve`].
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct Pieces {
    pieces: Vec<Piece>,
}

#[cfg(feature = "serde")]
impl From<ExactCurve> for Pieces {
    fn from(c: ExactCurve) -> Self {
        Pieces { pieces: c.pieces }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<Pieces> for ExactCurve {
    type Error = Error;
    fn try_from(p: Pieces) -> Result<Self> {
        ExactCurve::new(p.pieces)
    }
}

impl ExactCurve {
    /// A curve of `pieces`, in order.
    ///
    /// Errors: [`Error::EmptyPath`] for no pieces; [`Error::NonFinite`] (with the piece's
    /// index) for a piece with a non-finite number; [`Error::BadParameter`] when piece
    /// `i + 1` does not start where piece `i` ends (within 10⁻⁹ of the larger of 1 and the
    /// coordinates' magnitude). O(pieces).
    pub fn new(pieces: Vec<Piece>) -> Result<Self> {
        check_pieces(&pieces)?;
        let mut curve = ExactCurve {
            pieces,
            starts: Vec::new(),
        };
        curve.measure();
        Ok(curve)
    }

    /// Makes this curve the curve of `pieces` (checked as [`new`](Self::new) checks them),
    /// reusing its memory: once it has grown, no allocation. On error the curve is as it
    /// was. O(pieces).
    pub fn assign(&mut self, pieces: &[Piece]) -> Result<()> {
        check_pieces(pieces)?;
        self.pieces.clear();
        self.pieces.extend_from_slice(pieces);
        self.measure();
        Ok(())
    }

    /// Fills `starts` from `pieces`: the arc length at each piece's start, and the total.
    fn measure(&mut self) {
        self.starts.clear();
        self.starts.reserve(self.pieces.len() + 1);
        let mut total = 0.0;
        self.starts.push(0.0);
        for p in &self.pieces {
            total += p.length();
            self.starts.push(total);
        }
    }

    /// The polyline as a curve of line pieces (a one-point path gives one zero-length
    /// line). Errors: [`Error::EmptyPath`], [`Error::NonFinite`].
    pub fn from_polyline(points: &[DVec2]) -> Result<Self> {
        crate::geometry::check_path(points, 1, "ExactCurve::from_polyline")?;
        let pieces = if points.len() == 1 {
            vec![Piece::Line {
                start: points[0],
                end: points[0],
            }]
        } else {
            points
                .windows(2)
                .map(|w| Piece::Line {
                    start: w[0],
                    end: w[1],
                })
                .collect()
        };
        ExactCurve::new(pieces)
    }

    /// The pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The total arc length. O(1).
    pub fn length(&self) -> f64 {
        self.starts[self.pieces.len()]
    }

    /// The first point.
    pub fn start(&self) -> DVec2 {
        self.pieces[0].start()
    }

    /// The last point.
    pub fn end(&self) -> DVec2 {
        self.pieces[self.pieces.len() - 1].end()
    }

    /// The piece holding arc length `s` (clamped; NaN counts as 0) and `s` within it.
    /// O(log pieces).
    pub fn locate(&self, s: f64) -> (usize, f64) {
        let s = if s > 0.0 { s.min(self.length()) } else { 0.0 };
        // The last piece whose start is ≤ s.
        let i = self.starts[1..self.pieces.len()].partition_point(|&a| a <= s);
        (i, s - self.starts[i])
    }

    /// The point at arc length `s` (clamped to the curve). O(log pieces).
    pub fn point_at(&self, s: f64) -> DVec2 {
        let (i, t) = self.locate(s);
        self.pieces[i].point_at(t)
    }

    /// The unit tangent at arc length `s` (clamped). O(log pieces).
    pub fn tangent_at(&self, s: f64) -> DVec2 {
        let (i, t) = self.locate(s);
        self.pieces[i].tangent_at(t)
    }

    /// The signed curvature at arc length `s` (clamped; positive turning left). At a
    /// joint, the curvature of the piece that starts there. O(log pieces).
    pub fn curvature_at(&self, s: f64) -> f64 {
        let (i, t) = self.locate(s);
        self.pieces[i].curvature_at(t)
    }

    /// The largest |curvature| of any piece. O(pieces).
    pub fn max_curvature(&self) -> f64 {
        self.pieces
            .iter()
            .map(Piece::max_curvature)
            .fold(0.0, f64::max)
    }

    /// The largest angle, radians, between the tangents at the end of a piece and the start
    /// of the next (0 for a tangent-continuous, G1, curve). Zero-length lines are skipped.
    /// O(pieces).
    pub fn max_tangent_jump(&self) -> f64 {
        self.joints()
            .map(|(a, b)| {
                let (ta, tb) = (a.tangent_at(a.length()), b.tangent_at(0.0));
                crate::geometry::angle_between(ta, tb).unwrap_or(0.0)
            })
            .fold(0.0, f64::max)
    }

    /// The largest jump of the signed curvature at a joint (0 for a curvature-continuous,
    /// G2, curve). Zero-length lines are skipped. O(pieces).
    pub fn max_curvature_jump(&self) -> f64 {
        self.joints()
            .map(|(a, b)| (a.curvature_at(a.length()) - b.curvature_at(0.0)).abs())
            .fold(0.0, f64::max)
    }

    /// Consecutive pieces of positive length.
    fn joints(&self) -> impl Iterator<Item = (&Piece, &Piece)> {
        let mut real = self.pieces.iter().filter(|p| p.length() > 0.0);
        let mut prev = real.next();
        std::iter::from_fn(move || {
            let a = prev?;
            let b = real.next()?;
            prev = Some(b);
            Some((a, b))
        })
    }

    /// A polyline whose chords stay within `chord_error` of the curve: each piece is cut
    /// into equal arc-length chords, as few as keep `κ_max·h²/8 ≤ chord_error` (lines stay
    /// one chord). The curve's start, end and piece joints are points of the polyline,
    /// bit for bit. Allocating form of [`to_polyline_into`](Self::to_polyline_into).
    ///
    /// Errors: [`Error::BadParameter`] for a chord error that is not positive and finite,
    /// [`Error::OutputTooLarge`] beyond [`MAX_SAMPLES`] points.
    pub fn to_polyline(&self, chord_error: f64) -> Result<Vec<DVec2>> {
        let mut out = Vec::new();
        self.to_polyline_into(chord_error, &mut out)?;
        Ok(out)
    }

    /// [`to_polyline`](Self::to_polyline) into `out` (cleared first; empty on error).
    /// O(points).
    pub fn to_polyline_into(&self, chord_error: f64, out: &mut Vec<DVec2>) -> Result<()> {
        out.clear();
        Error::check_positive("chord_error", chord_error, "a positive finite distance")?;
        let total: f64 = self.pieces.iter().map(|p| p.chords_for(chord_error)).sum();
        if total.is_nan() || total >= MAX_SAMPLES as f64 {
            return Err(Error::OutputTooLarge {
                requested: if total.is_finite() {
                    total as u128
                } else {
                    u128::MAX
                },
                cap: MAX_SAMPLES,
            });
        }
        out.push(self.start());
        for p in &self.pieces {
            if p.length() > 0.0 {
                p.push_samples(p.chords_for(chord_error) as usize, out);
            }
        }
        Ok(())
    }

    /// Points at every multiple of `spacing` along the curve, and its end (so the last gap
    /// may be shorter). Distances between consecutive points are at most `spacing` (they
    /// are chords). O(points).
    ///
    /// Errors: [`Error::BadParameter`] for a spacing that is not positive and finite,
    /// [`Error::OutputTooLarge`] beyond [`MAX_SAMPLES`] points.
    pub fn sample_spacing(&self, spacing: f64) -> Result<Vec<DVec2>> {
        Error::check_positive("spacing", spacing, "a positive finite distance")?;
        let n = (self.length() / spacing).floor();
        if n.is_nan() || n >= MAX_SAMPLES as f64 {
            return Err(Error::OutputTooLarge {
                requested: n as u128,
                cap: MAX_SAMPLES,
            });
        }
        let n = n as usize;
        let mut out = Vec::with_capacity(n + 2);
        out.extend((0..=n).map(|k| self.point_at(k as f64 * spacing)));
        if self.length() - n as f64 * spacing > 0.0 {
            out.push(self.end());
        }
        Ok(out)
    }
}

/// The checks of [`ExactCurve::new`] on `pieces`.
fn check_pieces(pieces: &[Piece]) -> Result<()> {
    if pieces.is_empty() {
        return Err(Error::EmptyPath);
    }
    for (index, p) in pieces.iter().enumerate() {
        let finite = p.start().is_finite() && p.end().is_finite() && p.length().is_finite();
        let ok = finite
            && match *p {
                Piece::Line { .. } => true,
                Piece::Arc { radius, sweep, .. } => {
                    radius > 0.0 && sweep.abs() <= std::f64::consts::TAU
                }
                Piece::Clothoid {
                    sharpness, t0, t1, ..
                } => sharpness != 0.0 && t1 >= t0,
            };
        if !ok {
            return Err(Error::NonFinite { index });
        }
    }
    for w in pieces.windows(2) {
        let (a, b) = (w[0].end(), w[1].start());
        let scale = a.abs().max_element().max(1.0);
        if a.distance(b) > 1e-9 * scale {
            return Err(Error::param(
                "pieces",
                a.distance(b),
                "pieces that join: each starts where the previous one ends",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    fn corner() -> ExactCurve {
        ExactCurve::new(vec![
            Piece::line(DVec2::ZERO, DVec2::new(2.0, 0.0)).unwrap(),
            Piece::arc(DVec2::new(2.0, 1.0), 1.0, -FRAC_PI_2, FRAC_PI_2).unwrap(),
            Piece::line(DVec2::new(3.0, 1.0), DVec2::new(3.0, 3.0)).unwrap(),
        ])
        .unwrap()
    }

    #[test]
    fn locate_and_evaluate() {
        let c = corner();
        assert_eq!(c.locate(0.0), (0, 0.0));
        assert_eq!(c.locate(2.0), (1, 0.0));
        assert_eq!(c.locate(f64::NAN), (0, 0.0));
        assert_eq!(c.locate(1e9).0, 2);
        assert_eq!(c.point_at(1e9), DVec2::new(3.0, 3.0));
        let mid = c.point_at(2.0 + PI / 4.0);
        assert!(
            (mid - (DVec2::new(2.0, 1.0) + DVec2::new(1.0, -1.0) / 2f64.sqrt())).length() < 1e-15
        );
        assert_eq!(c.curvature_at(1.0), 0.0);
        assert_eq!(c.max_curvature(), 1.0);
    }

    #[test]
    fn polyline_chords_keep_the_chord_error() {
        let c = corner();
        for e in [0.1, 1e-3, 1e-6] {
            let p = c.to_polyline(e).unwrap();
            // Every chord of the arc: its midpoint is the farthest from the arc.
            for w in p.windows(2) {
                let m = (w[0] + w[1]) / 2.0;
                if m.x > 2.0 && m.y < 1.0 {
                    let gap = 1.0 - m.distance(DVec2::new(2.0, 1.0));
                    assert!((0.0..=e).contains(&gap), "{e}: {gap}");
                }
            }
        }
        assert!(c.to_polyline(0.0).is_err());
        assert!(c.to_polyline(1e-300).is_err());
    }

    #[test]
    fn spacing_samples() {
        let c = ExactCurve::from_polyline(&[DVec2::ZERO, DVec2::new(1.0, 0.0)]).unwrap();
        let p = c.sample_spacing(0.4).unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[3], DVec2::new(1.0, 0.0));
        assert!(c.sample_spacing(-1.0).is_err());
    }

    #[test]
    fn pieces_must_join() {
        let e = ExactCurve::new(vec![
            Piece::line(DVec2::ZERO, DVec2::X).unwrap(),
            Piece::line(DVec2::Y, DVec2::ONE).unwrap(),
        ]);
        assert!(e.is_err());
        assert_eq!(ExactCurve::new(vec![]), Err(Error::EmptyPath));
    }
}
