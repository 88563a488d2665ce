//! Resampling a polyline at a fixed arc-length spacing: what a path follower wants.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "Resampling by arc length".)

use crate::curve::chaikin::max_output_points;
use crate::error::{Error, Result};
use crate::geometry::{check_magnitude, Point, Scalar};
use crate::metrics::{length, segment_length};

/// Fraction of the spacing within which a sample counts as landing on the end point.
const END_TOLERANCE: f64 = 1e-9;

/// Resamples `path` at arc-length `spacing` into `out` (cleared first; on error `out` is
/// unchanged).
///
/// Errors: [`Error::EmptyPath`], [`Error::NonFinite`], [`Error::CoordinateOutOfRange`] (a
/// coordinate beyond [`max_coordinate`](crate::geometry::max_coordinate)),
/// [`Error::BadParameter`] (`spacing` not a positive finite number),
/// [`Error::OutputTooLarge`].
///
/// ```
/// use glam::Vec3;
/// use pathsmooth::curve::resample_into;
/// let path = [Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.0, 2.5)];
/// let mut out = Vec::with_capacity(8);
/// resample_into(&path, 1.0, &mut out).unwrap();
/// assert_eq!(out.len(), 4); // z = 0, 1, 2, then the end at 2.5
/// assert_eq!(out[3], path[2]);
/// assert!(resample_into(&path, 0.0, &mut out).is_err());
/// ```
pub fn resample_into<P: Point>(path: &[P], spacing: f64, out: &mut Vec<P>) -> Result<()> {
    check_magnitude(path)?;
    if path.is_empty() {
        return Err(Error::EmptyPath);
    }
    Error::check_positive("spacing", spacing, "a finite number > 0")?;
    let total = length(path);
    let cap = max_output_points::<P>();
    let interior = interior_samples(total, spacing, cap);
    let requested = interior as u128 + if path.len() > 1 { 2 } else { 1 };
    if requested > cap as u128 {
        return Err(Error::OutputTooLarge { requested, cap });
    }
    out.clear();
    out.reserve(requested as usize);
    out.push(path[0]);
    emit_samples(path, spacing, interior, out);
    if path.len() > 1 {
        out.push(path[path.len() - 1]);
    }
    Ok(())
}

/// Allocating form of [`resample_into`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::resample;
/// let out = resample(&[DVec2::ZERO, DVec2::new(3.0, 4.0)], 2.0).unwrap();
/// assert_eq!(out.len(), 4); // 0, 2, 4 along the 5-long segment, then the end
/// assert!((out[1] - DVec2::new(1.2, 1.6)).length() < 1e-12);
/// ```
pub fn resample<P: Point>(path: &[P], spacing: f64) -> Result<Vec<P>> {
    let mut out = Vec::new();
    resample_into(path, spacing, &mut out)?;
    Ok(out)
}

/// Number of samples strictly between the start and the end: k·s for k ≥ 1 with
/// k·s < total − tolerance. Saturates, and is not refined above `cap` (the caller then
/// reports the size).
fn interior_samples(total: f64, spacing: f64, cap: usize) -> u64 {
    let limit = total - END_TOLERANCE * spacing;
    if limit <= spacing {
        return 0;
    }
    let k = (limit / spacing).ceil() - 1.0;
    // ceil(x) − 1 is the number of k ≥ 1 with k < x; guard the rounding of the division.
    let mut k = k.min(u64::MAX as f64) as u64;
    if k > cap as u64 {
        return k; // too many anyway; no need to refine
    }
    while k > 0 && k as f64 * spacing >= limit {
        k -= 1;
    }
    k
}

/// Pushes the `count` samples at arc lengths s, 2s, …, count·s.
fn emit_samples<P: Point>(path: &[P], spacing: f64, count: u64, out: &mut Vec<P>) {
    let mut k = 1u64;
    let mut start = 0.0f64; // arc length at the current segment's first point
    for w in path.windows(2) {
        if k > count {
            break;
        }
        // Same per-segment lengths, summed in the same order, as `metrics::length`.
        let len = segment_length(w[0], w[1]);
        if len == 0.0 {
            continue;
        }
        let end = start + len;
        while k <= count {
            let target = k as f64 * spacing;
            if target > end {
                break;
            }
            let t = ((target - start) / len).clamp(0.0, 1.0);
            out.push(w[0].lerp(w[1], P::Scalar::from_f64(t)));
            k += 1;
        }
        start = end;
    }
    // Rounding in the running sum can leave the last sample(s) just past the final
    // segment; they belong at its end.
    let last = path[path.len() - 1];
    while k <= count {
        out.push(last);
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    #[test]
    fn exact_multiple_does_not_double_the_end() {
        let path = [DVec2::ZERO, DVec2::new(3.0, 0.0)];
        let out = resample(&path, 1.0).unwrap();
        assert_eq!(out.len(), 4);
        assert_eq!(out[3], path[1]);
        let out = resample(&path, 0.1).unwrap(); // 3/0.1 is not exact in binary
        assert_eq!(out.len(), 31);
        assert!((out[29] - DVec2::new(2.9, 0.0)).length() < 1e-12);
    }

    #[test]
    fn degenerate_paths() {
        assert_eq!(resample(&[Vec2::ONE], 1.0).unwrap(), vec![Vec2::ONE]);
        assert_eq!(resample(&[Vec2::ONE; 3], 1.0).unwrap(), vec![Vec2::ONE; 2]);
        assert_eq!(resample::<Vec2>(&[], 1.0), Err(Error::EmptyPath));
        let short = [Vec2::ZERO, Vec2::new(0.5, 0.0)];
        assert_eq!(resample(&short, 1.0).unwrap(), short.to_vec());
    }

    #[test]
    fn bad_spacing_and_huge_output() {
        let p = [DVec2::ZERO, DVec2::new(1e6, 0.0)];
        for s in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                resample(&p, s),
                Err(Error::BadParameter {
                    name: "spacing",
                    ..
                })
            ));
        }
        assert!(matches!(
            resample(&p, 1e-6),
            Err(Error::OutputTooLarge { .. })
        ));
        assert!(matches!(
            resample(&p, 1e-300),
            Err(Error::OutputTooLarge { .. })
        ));
        // The cap is 256 MiB of points of the type at hand.
        let s = 1e6 / 17e6; // 17 million samples, 272 MB of DVec2
        assert_eq!(
            resample(&p, s),
            Err(Error::OutputTooLarge {
                requested: 17_000_001,
                cap: 1 << 24
            })
        );
        let p32 = [Vec2::ZERO, Vec2::new(1e6, 0.0)];
        assert!(resample(&p32, s as f32 as f64).is_ok());
        assert_eq!(
            resample(&[DVec2::ZERO, DVec2::NAN], 1.0),
            Err(Error::NonFinite { index: 1 })
        );
    }

    #[test]
    fn samples_follow_corners() {
        let path = [DVec2::ZERO, DVec2::X, DVec2::X, DVec2::ONE];
        let out = resample(&path, 0.75).unwrap();
        assert_eq!(out.len(), 4);
        assert!((out[1] - DVec2::new(0.75, 0.0)).length() < 1e-15);
        assert!((out[2] - DVec2::new(1.0, 0.5)).length() < 1e-15);
    }
}
