//! Chaikin corner cutting: classic multi-pass (allocating, buffer-reusing and fully in
//! place) and adaptive refinement that only cuts sharp corners.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "Chaikin corner cutting".)

mod adaptive;
mod classic;
mod in_place;

pub use adaptive::{chaikin_adaptive, AdaptiveChaikin, AdaptiveParams, RefineReport};
pub use classic::{chaikin, chaikin_into, chaikin_pass_ratios_into, corner_cut};
pub use in_place::chaikin_in_place;

use crate::error::{Error, Result};
use crate::geometry::{Point, Scalar};

/// The most memory, in bytes, the output of a curve function (Chaikin, Catmull-Rom,
/// resampling) may take: 256 MiB. Larger requests are [`Error::OutputTooLarge`] instead
/// of an out-of-memory abort. In points of type `P` that is [`max_output_points`]`::<P>()`.
///
/// ```
/// assert_eq!(pathsmooth::curve::MAX_OUTPUT_BYTES, 256 << 20);
/// ```
pub const MAX_OUTPUT_BYTES: usize = 256 << 20;

/// The most points of type `P` that fit in [`MAX_OUTPUT_BYTES`]: the output cap of every
/// curve function on `P` points.
///
/// ```
/// use glam::{DVec2, DVec3, Vec2};
/// use pathsmooth::curve::max_output_points;
/// assert_eq!(max_output_points::<DVec2>(), 1 << 24);
/// assert_eq!(max_output_points::<Vec2>(), 1 << 25);
/// assert_eq!(max_output_points::<DVec3>(), (256 << 20) / 24);
/// ```
pub const fn max_output_points<P>() -> usize {
    let size = std::mem::size_of::<P>();
    MAX_OUTPUT_BYTES / if size == 0 { 1 } else { size }
}

/// The largest number of `DVec2` points a curve function returns
/// ([`Error::OutputTooLarge`](crate::Error::OutputTooLarge) beyond it, with this `cap`):
/// [`MAX_OUTPUT_BYTES`] of them, 2²⁴ (about 16.8 million), the cap
/// [`chaikin_output_len`] applies and the one Catmull-Rom subdivision and resampling apply
/// to `DVec2`. For other point types every function applies
/// [`max_output_points`]`::<P>()` (the same bytes: twice the points for `Vec2`, fewer for
/// `DVec3`).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::{catmull_rom, resample, CatmullRomParams, MAX_OUTPUT_POINTS};
/// use pathsmooth::Error;
/// assert_eq!(MAX_OUTPUT_POINTS, 1 << 24);
/// let p = vec![DVec2::ZERO; 300]; // 299 segments × 65536 > 2²⁴
/// let err = catmull_rom(&p, &CatmullRomParams::uniform(65536)).unwrap_err();
/// assert_eq!(err, Error::OutputTooLarge { requested: 299 * 65536 + 1, cap: MAX_OUTPUT_POINTS });
/// let line = [DVec2::ZERO, DVec2::new(MAX_OUTPUT_POINTS as f64, 0.0)];
/// assert!(resample(&line, 0.5).is_err());
/// ```
pub const MAX_OUTPUT_POINTS: usize = max_output_points::<glam::DVec2>();

const METHOD: &str = "Chaikin";

/// Parameters of classic Chaikin smoothing.
///
/// ```
/// use pathsmooth::curve::ChaikinParams;
/// let p = ChaikinParams::default();
/// assert_eq!((p.ratio, p.passes, p.closed), (0.25, 4, false));
/// assert!(ChaikinParams { ratio: 0.6, ..p }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChaikinParams {
    /// Cut ratio `r` in (0, ½]: each segment yields the points at fractions `r` and
    /// `1 − r` along it. Smaller values keep closer to the corners; ½ cuts at midpoints.
    /// Default ¼.
    pub ratio: f64,
    /// Number of passes `k`; each roughly doubles the point count. 0 returns the input.
    /// Default 4 (what the Terrator article found smooth enough).
    pub passes: u32,
    /// `true` for a closed loop (first point not repeated at the end). Default `false`.
    pub closed: bool,
}

impl Default for ChaikinParams {
    fn default() -> Self {
        ChaikinParams {
            ratio: 0.25,
            passes: 4,
            closed: false,
        }
    }
}

impl ChaikinParams {
    /// Checks the ratio: [`Error::BadParameter`] unless it is in (0, ½].
    ///
    /// ```
    /// use pathsmooth::curve::ChaikinParams;
    /// assert!(ChaikinParams { ratio: 0.5, ..Default::default() }.validate().is_ok());
    /// assert!(ChaikinParams { ratio: 0.0, ..Default::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        check_ratio(self.ratio)
    }
}

fn check_ratio(ratio: f64) -> Result<()> {
    if ratio > 0.0 && ratio <= 0.5 {
        Ok(())
    } else {
        Err(Error::param("ratio", ratio, "a number in (0, 0.5]"))
    }
}

/// The number of points `passes` passes of Chaikin turn `n` points into:
/// `(n − 2)·2^passes + 2` for an open path (2 for `n = 2`), `n·2^passes` for a closed loop.
///
/// Errors: [`Error::EmptyPath`] / [`Error::TooFewPoints`] for `n < 2` (which the
/// smoothers refuse), [`Error::OutputTooLarge`] when the count overflows or exceeds
/// [`MAX_OUTPUT_POINTS`] (the budget in `DVec2`; for other point types the smoothers
/// check [`max_output_points`], so a `DVec3` output of more than 11.2 million points is
/// refused by them even where this count succeeds).
///
/// ```
/// use pathsmooth::curve::chaikin_output_len;
/// assert_eq!(chaikin_output_len(15, 4, false)?, 210); // the Terrator buffer
/// assert_eq!(chaikin_output_len(4, 3, true)?, 32);
/// assert_eq!(chaikin_output_len(2, 60, false)?, 2);
/// assert!(chaikin_output_len(1000, 40, false).is_err());
/// assert!(chaikin_output_len(1002, 18, false).is_err()); // 262 million points: 4 GiB
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_output_len(n: usize, passes: u32, closed: bool) -> Result<usize> {
    output_len_capped(n, passes, closed, MAX_OUTPUT_POINTS)
}

/// [`chaikin_output_len`] for points of type `P`: the cap is [`max_output_points`]`::<P>()`.
pub(super) fn output_len_of<P>(n: usize, passes: u32, closed: bool) -> Result<usize> {
    output_len_capped(n, passes, closed, max_output_points::<P>())
}

fn output_len_capped(n: usize, passes: u32, closed: bool, cap: usize) -> Result<usize> {
    match n {
        0 => return Err(Error::EmptyPath),
        1 => {
            return Err(Error::TooFewPoints {
                method: METHOD,
                needed: 2,
                got: 1,
            })
        }
        2 if !closed => return Ok(2),
        _ => {}
    }
    let (base, extra) = if closed { (n, 0) } else { (n - 2, 2) };
    let requested = 1u128
        .checked_shl(passes)
        .and_then(|f| (base as u128).checked_mul(f))
        .and_then(|v| v.checked_add(extra))
        .unwrap_or(u128::MAX);
    if requested > cap as u128 {
        return Err(Error::OutputTooLarge { requested, cap });
    }
    Ok(requested as usize)
}

// ---- the cut, shared by every form --------------------------------------------------------

/// The weights `(1 − r, r)` in the point's scalar type.
#[derive(Clone, Copy)]
struct Weights<S> {
    near: S,
    far: S,
}

impl<S: Scalar> Weights<S> {
    fn new(ratio: f64) -> Self {
        Weights {
            near: S::from_f64(1.0 - ratio),
            far: S::from_f64(ratio),
        }
    }
}

/// The cut points `Q` (near `a`) and `R` (near `b`) of segment `a → b`, as convex
/// combinations (no overflow for finite input).
#[inline(always)]
fn cut<P: Point>(a: P, b: P, w: Weights<P::Scalar>) -> (P, P) {
    (a * w.near + b * w.far, a * w.far + b * w.near)
}

// The paths the benches and integration tests share (a folder `tests/` under an inline
// module's path does not exist, so the file is declared out here).
#[cfg(test)]
#[path = "../../../tests/common/paths.rs"]
mod article_paths;

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    pub(super) fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// The Terrator article's path (`tests/common/paths.rs`, which the benches and
    /// integration tests share), in f32.
    pub(super) fn terrator() -> Vec<Vec2> {
        super::article_paths::terrator()
            .iter()
            .map(|p| p.as_vec2())
            .collect()
    }

    #[test]
    fn two_points_come_back_unchanged() {
        let p = [Vec2::ZERO, Vec2::ONE];
        assert_eq!(chaikin(&p, &ChaikinParams::default()).unwrap(), p);
        assert_eq!(chaikin_adaptive(&p, &AdaptiveParams::default()).unwrap(), p);
    }

    #[test]
    fn output_len_limits() {
        assert_eq!(chaikin_output_len(0, 1, false), Err(Error::EmptyPath));
        assert!(matches!(
            chaikin_output_len(1, 1, true),
            Err(Error::TooFewPoints { needed: 2, .. })
        ));
        assert_eq!(chaikin_output_len(3, 0, true), Ok(3));
        assert_eq!(chaikin_output_len(2, 3, true), Ok(16));
        assert_eq!(
            chaikin_output_len(MAX_OUTPUT_POINTS, 0, true),
            Ok(MAX_OUTPUT_POINTS)
        );
        assert!(matches!(
            chaikin_output_len(MAX_OUTPUT_POINTS + 1, 0, true),
            Err(Error::OutputTooLarge { .. })
        ));
        assert_eq!(
            chaikin_output_len(3, 200, false),
            Err(Error::OutputTooLarge {
                requested: u128::MAX,
                cap: MAX_OUTPUT_POINTS
            })
        );
        assert_eq!(
            chaikin_output_len(usize::MAX, 127, true),
            Err(Error::OutputTooLarge {
                requested: u128::MAX,
                cap: MAX_OUTPUT_POINTS
            })
        );
    }

    #[test]
    fn output_is_capped_in_bytes_per_point_type() {
        use glam::DVec3;
        // `smooth --passes 18` on 1002 points asked for 6 GB and aborted.
        let p: Vec<DVec2> = (0..1002).map(|i| v(i as f64, (i % 2) as f64)).collect();
        let big = ChaikinParams {
            passes: 18,
            ..Default::default()
        };
        assert_eq!(
            chaikin(&p, &big),
            Err(Error::OutputTooLarge {
                requested: 1000 * (1 << 18) + 2,
                cap: 1 << 24
            })
        );
        // The same count in f32 points (half the bytes) has twice the room, in f64 3D
        // points less.
        let n = (1 << 23) + 2; // (n − 2)·2 + 2 = 2^24 + 2 points after one pass
        assert!(output_len_of::<DVec2>(n, 1, false).is_err());
        assert_eq!(output_len_of::<Vec2>(n, 1, false), Ok((1 << 24) + 2));
        assert_eq!(
            output_len_of::<DVec3>(6_000_002, 1, false),
            Err(Error::OutputTooLarge {
                requested: 12_000_002,
                cap: (256 << 20) / 24
            })
        );
        let p3: Vec<DVec3> = p.iter().map(|q| q.extend(0.0)).collect();
        assert!(matches!(
            chaikin(&p3, &big),
            Err(Error::OutputTooLarge {
                cap: 11_184_810,
                ..
            })
        ));
        // Every accepted output fits the budget.
        for passes in 0..30 {
            if let Ok(len) = output_len_of::<DVec3>(1000, passes, true) {
                assert!(len * std::mem::size_of::<DVec3>() <= MAX_OUTPUT_BYTES);
            }
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        let p = [v(0.0, 0.0), v(1.0, f64::NAN), v(2.0, 0.0)];
        assert_eq!(
            chaikin(&p, &ChaikinParams::default()),
            Err(Error::NonFinite { index: 1 })
        );
        assert_eq!(
            chaikin_adaptive(&p, &AdaptiveParams::default()),
            Err(Error::NonFinite { index: 1 })
        );
        for ratio in [0.0, -0.1, 0.51, f64::NAN, f64::INFINITY] {
            let params = ChaikinParams {
                ratio,
                ..Default::default()
            };
            assert!(matches!(
                chaikin(&p[..1], &params),
                Err(Error::BadParameter { name: "ratio", .. })
            ));
        }
        let mut small = [v(0.0, 0.0), v(1.0, 1.0), v(2.0, 0.0), v(0.0, 0.0)];
        let before = small;
        assert_eq!(
            chaikin_in_place(&mut small, 3, &ChaikinParams::default()),
            Err(Error::BufferTooSmall {
                needed: 18,
                capacity: 4
            })
        );
        assert_eq!(small, before);
        assert!(matches!(
            chaikin_in_place(&mut small, 5, &ChaikinParams::default()),
            Err(Error::BadParameter { name: "len", .. })
        ));
        let mut out = vec![v(9.0, 9.0)];
        assert!(chaikin_into(&p[..1], &ChaikinParams::default(), &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn extreme_finite_coordinates_stay_finite() {
        let m = f64::MAX;
        let p = [v(-m, m), v(m, m), v(m, -m), v(-m, -m)];
        for closed in [false, true] {
            let out = chaikin(
                &p,
                &ChaikinParams {
                    closed,
                    ..Default::default()
                },
            )
            .unwrap();
            assert!(out.iter().all(|q| q.is_finite()));
        }
        let out = chaikin_adaptive(&p, &AdaptiveParams::default()).unwrap();
        assert!(out.iter().all(|q| q.is_finite()));
    }
}
