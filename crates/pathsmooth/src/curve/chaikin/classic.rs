//! Classic Chaikin from a slice: the allocating and buffer-reusing forms, and one pass
//! with a cut ratio per vertex.

use super::adaptive::push_distinct;
use super::in_place::{fused_append, group_size, passes_in_place, SCRATCH};
use super::{output_len_of, ChaikinParams, Weights, METHOD};
use crate::error::{Error, Result};
use crate::geometry::{check_path, Point};

/// Smooths `path` into `out` (cleared first), reusing its allocation: once `out` has
/// grown to the output size, further calls allocate nothing.
///
/// On large paths the first group of (up to six, fused) passes streams from `path` into
/// `out`, writing each point once; small ones are copied and smoothed in place. Errors as
/// [`chaikin_in_place`](super::chaikin_in_place) (less [`Error::BufferTooSmall`]); on error
/// `out` is left empty.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::curve::{chaikin_into, ChaikinParams};
///
/// let square = [DVec3::ZERO, DVec3::X, DVec3::new(1.0, 1.0, 0.0), DVec3::Y];
/// let params = ChaikinParams { passes: 2, closed: true, ..Default::default() };
/// let mut out = Vec::new();
/// chaikin_into(&square, &params, &mut out)?;
/// assert_eq!(out.len(), 16);
/// chaikin_into(&square[..3], &params, &mut out)?; // reuses out's allocation
/// assert_eq!(out.len(), 12);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_into<P: Point>(path: &[P], params: &ChaikinParams, out: &mut Vec<P>) -> Result<()> {
    out.clear();
    params.validate()?;
    check_path(path, 2, METHOD)?;
    let total = output_len_of::<P>(path.len(), params.passes, params.closed)?;
    out.reserve(total);
    let w = Weights::new(params.ratio);
    if total <= SCRATCH || params.passes == 0 {
        // Small: everything stays in cache, so plain passes in place are fastest.
        out.extend_from_slice(path);
        out.resize(total, P::default());
        passes_in_place(out, path.len(), *params, w);
        return Ok(());
    }
    // Large: the first group of passes streams from `path` to `out`, chunk by chunk,
    // writing each output point once; any further groups run in place.
    let q = group_size(params.passes);
    fused_append(path, q, params.closed, out, w);
    if q < params.passes {
        let m = out.len();
        out.resize(total, P::default());
        let rest = ChaikinParams {
            passes: params.passes - q,
            ..*params
        };
        passes_in_place(out, m, rest, w);
    }
    debug_assert_eq!(out.len(), total);
    Ok(())
}

/// Smooths `path` with classic Chaikin and returns the new path.
///
/// Errors as [`chaikin_into`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::{chaikin, ChaikinParams};
///
/// let p = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0)];
/// let out = chaikin(&p, &ChaikinParams { passes: 1, ..Default::default() })?;
/// assert_eq!(out, [DVec2::ZERO, DVec2::new(3.0, 0.0), DVec2::new(4.0, 1.0), DVec2::new(4.0, 4.0)]);
/// assert!(chaikin(&p[..1], &ChaikinParams::default()).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin<P: Point>(path: &[P], params: &ChaikinParams) -> Result<Vec<P>> {
    let mut out = Vec::new();
    chaikin_into(path, params, &mut out)?;
    Ok(out)
}

// ---- per-vertex cut ratios ----------------------------------------------------------------

/// The two points that replace interior vertex `v` (between `prev` and `next`) when its
/// corner is cut with ratio `t`: `v + t·(prev − v)` and `v + t·(next − v)`, computed in the
/// convex form classic Chaikin uses (so with `t = r` they are bit for bit the `R` of the
/// incoming and the `Q` of the outgoing segment). `t = 0` gives `(v, v)`.
///
/// Map-aware smoothers use it to test a cut before committing to it
/// ([`MapSafe::chaikin`](crate::map_safe::MapSafe::chaikin)); [`chaikin_pass_ratios_into`]
/// emits exactly these points.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::corner_cut;
/// let (a, b) = corner_cut(DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0), 0.25);
/// assert_eq!((a, b), (DVec2::new(3.0, 0.0), DVec2::new(4.0, 1.0)));
/// ```
#[inline]
pub fn corner_cut<P: Point>(prev: P, v: P, next: P, t: f64) -> (P, P) {
    let w: Weights<P::Scalar> = Weights::new(t);
    (prev * w.far + v * w.near, v * w.near + next * w.far)
}

/// One pass of Chaikin on an open path with a cut ratio **per vertex**: interior vertex
/// `i` is replaced by the two points of [`corner_cut`]`(path[i−1], path[i], path[i+1],
/// ratios[i])`, the endpoints are kept (`ratios[0]` and `ratios[n−1]` are ignored), and
/// `out` (cleared first, allocation reused) receives the result. A vertex with ratio 0 is
/// kept as one point; a point equal to the one before it is not written again (ratio ½
/// makes the two cut points of a segment meet), so the output holds no consecutive
/// duplicates that the input did not already have at a kept vertex.
///
/// With every ratio equal to `r` and no coincident cut points (r < ½), the output is bit
/// for bit one pass of [`chaikin`] with ratio `r`. Map-aware smoothing uses it to cut each
/// corner as deeply as the walls allow. Cost: O(n); no allocation once `out` has grown.
///
/// Errors: [`Error::EmptyPath`] / [`Error::TooFewPoints`] (fewer than 2 points),
/// [`Error::NonFinite`], and [`Error::BadParameter`] when `ratios.len() != path.len()` or
/// an interior ratio is outside [0, ½]. On error `out` is left empty.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::chaikin_pass_ratios_into;
/// let p = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0), DVec2::new(8.0, 4.0)];
/// let mut out = Vec::new();
/// // Cut the first corner by a quarter, keep the second one.
/// chaikin_pass_ratios_into(&p, &[0.0, 0.25, 0.0, 0.0], &mut out)?;
/// assert_eq!(out, [p[0], DVec2::new(3.0, 0.0), DVec2::new(4.0, 1.0), p[2], p[3]]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_pass_ratios_into<P: Point>(
    path: &[P],
    ratios: &[f64],
    out: &mut Vec<P>,
) -> Result<()> {
    out.clear();
    check_path(path, 2, METHOD)?;
    if ratios.len() != path.len() {
        return Err(Error::param(
            "ratios",
            ratios.len() as f64,
            "one ratio per path point",
        ));
    }
    let n = path.len();
    if let Some(&bad) = ratios[1..n - 1]
        .iter()
        .find(|&&t| !(0.0..=0.5).contains(&t))
    {
        return Err(Error::param("ratio", bad, "a number in [0, 0.5]"));
    }
    out.reserve(2 * n - 2);
    out.push(path[0]);
    for i in 1..n - 1 {
        if ratios[i] == 0.0 {
            out.push(path[i]);
            continue;
        }
        let (a, b) = corner_cut(path[i - 1], path[i], path[i + 1], ratios[i]);
        push_distinct(out, a);
        push_distinct(out, b);
    }
    out.push(path[n - 1]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{terrator, v};
    use super::super::*;

    #[test]
    fn uniform_ratios_equal_one_classic_pass() {
        let path = terrator();
        for r in [0.1, 0.25, 0.3, 0.45] {
            let one = ChaikinParams {
                ratio: r,
                passes: 1,
                closed: false,
            };
            let mut out = Vec::new();
            chaikin_pass_ratios_into(&path, &vec![r; path.len()], &mut out).unwrap();
            assert_eq!(out, chaikin(&path, &one).unwrap(), "ratio {r}");
        }
    }

    #[test]
    fn per_vertex_ratios_keep_zero_corners_and_reject_bad_input() {
        let p = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let mut out = Vec::new();
        chaikin_pass_ratios_into(&p, &[9.0, 0.5, 0.0, 9.0], &mut out).unwrap();
        // The midpoint cut of vertex 1, then vertex 2 kept.
        assert_eq!(out, [p[0], v(1.0, 0.0), v(2.0, 1.0), p[2], p[3]]);
        chaikin_pass_ratios_into(&p, &[0.0, 0.5, 0.5, 0.0], &mut out).unwrap();
        // Segment 1's two cut points meet at its midpoint: written once.
        assert_eq!(out, [p[0], v(1.0, 0.0), v(2.0, 1.0), v(1.0, 2.0), p[3]]);
        // Duplicate input points never give NaN.
        let dup = [p[0], p[1], p[1], p[2]];
        chaikin_pass_ratios_into(&dup, &[0.0, 0.25, 0.25, 0.0], &mut out).unwrap();
        assert!(out.iter().all(|q| q.is_finite()));
        assert!(chaikin_pass_ratios_into(&p, &[0.0, 0.6, 0.0, 0.0], &mut out).is_err());
        assert!(chaikin_pass_ratios_into(&p, &[0.0, f64::NAN, 0.0, 0.0], &mut out).is_err());
        assert!(chaikin_pass_ratios_into(&p, &[0.0; 3], &mut out).is_err());
        assert!(chaikin_pass_ratios_into(&p[..1], &[0.0], &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn one_open_pass_by_hand() {
        let p = [v(0.0, 0.0), v(0.0, 4.0), v(4.0, 4.0), v(4.0, 0.0)];
        let out = chaikin(
            &p,
            &ChaikinParams {
                passes: 1,
                ..Default::default()
            },
        )
        .unwrap();
        let want = [
            v(0.0, 0.0),
            v(0.0, 3.0),
            v(1.0, 4.0),
            v(3.0, 4.0),
            v(4.0, 3.0),
            v(4.0, 0.0),
        ];
        assert_eq!(out, want);
    }

    #[test]
    fn one_closed_pass_by_hand() {
        let p = [v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0)];
        let params = ChaikinParams {
            passes: 1,
            closed: true,
            ratio: 0.5,
        };
        let out = chaikin(&p, &params).unwrap();
        let want = [
            v(2.0, 0.0),
            v(2.0, 0.0),
            v(4.0, 2.0),
            v(4.0, 2.0),
            v(2.0, 2.0),
            v(2.0, 2.0),
        ];
        assert_eq!(out, want);
    }

    #[test]
    fn two_passes_by_hand() {
        // (0,0) (0,8) (8,8): pass 1 → (0,0) (0,6) (2,8) (8,8);
        // pass 2 → (0,0) (0,4.5) (0.5,6.5) (1.5,7.5) (3.5,8) (8,8).
        let p = [v(0.0, 0.0), v(0.0, 8.0), v(8.0, 8.0)];
        let out = chaikin(
            &p,
            &ChaikinParams {
                passes: 2,
                ..Default::default()
            },
        )
        .unwrap();
        let want = [
            v(0.0, 0.0),
            v(0.0, 4.5),
            v(0.5, 6.5),
            v(1.5, 7.5),
            v(3.5, 8.0),
            v(8.0, 8.0),
        ];
        assert_eq!(out, want);
    }
}
