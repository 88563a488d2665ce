//! Adaptive refinement: cut only the corners sharper than a limit, optionally dropping
//! outlier spikes first.

use std::f64::consts::PI;

use super::{check_ratio, cut, max_output_points, Weights};
use crate::error::{Error, Result};
use crate::geometry::{check_path, turn_angle, Point};

/// Parameters of adaptive refinement ([`chaikin_adaptive`], [`AdaptiveChaikin`]).
/// Angles are turn angles in radians: 0 is straight on, π a full reversal.
///
/// ```
/// use pathsmooth::curve::AdaptiveParams;
/// let p = AdaptiveParams::default();
/// assert!((p.angle_limit.to_degrees() - 30.0).abs() < 1e-9);
/// assert_eq!(p.outlier_limit, None);
/// let noisy = AdaptiveParams { outlier_limit: Some(90f64.to_radians()), ..p };
/// assert!(noisy.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdaptiveParams {
    /// Vertices turning by more than this are cut; others pass through unchanged.
    /// Radians, in (0, π] (a turn is at most π; a larger value is degrees by mistake and
    /// refused). Default π/6 (30°). Smaller limits give rounder, longer output.
    pub angle_limit: f64,
    /// When set, vertices turning by more than this are dropped as spikes of noisy data
    /// instead of being cut. Radians, in (0, π] and greater than `angle_limit`. Default `None`
    /// (planner paths have real 90° corners).
    pub outlier_limit: Option<f64>,
    /// Cut ratio in (0, ½], as [`ChaikinParams::ratio`](super::ChaikinParams::ratio).
    /// Default ¼.
    pub ratio: f64,
    /// Pass budget: refinement stops after this many passes even if some corner still
    /// exceeds the limit (a full reversal never gets below it). Default 4. Each pass at
    /// most doubles the point count.
    pub max_passes: u32,
}

impl Default for AdaptiveParams {
    fn default() -> Self {
        AdaptiveParams {
            angle_limit: PI / 6.0,
            outlier_limit: None,
            ratio: 0.25,
            max_passes: 4,
        }
    }
}

impl AdaptiveParams {
    /// Checks every parameter; [`Error::BadParameter`] names the first bad one, and
    /// [`Error::BadAngle`] an angle above π (no turn is sharper: degrees by mistake).
    ///
    /// ```
    /// use pathsmooth::curve::AdaptiveParams;
    /// let bad = AdaptiveParams { angle_limit: 0.0, ..Default::default() };
    /// assert!(bad.validate().is_err());
    /// let degrees = AdaptiveParams { angle_limit: 30.0, ..Default::default() };
    /// assert!(degrees.validate().unwrap_err().to_string().contains("did you mean 30° = 0.5236 rad?"));
    /// let bad = AdaptiveParams { outlier_limit: Some(0.1), ..Default::default() }; // below 30°
    /// assert!(bad.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        let expected = "an angle in (0, π] radians";
        Error::check_angle("angle_limit", self.angle_limit, PI, "rad", expected)?;
        if let Some(o) = self.outlier_limit {
            let expected = "an angle in (0, π] radians, greater than angle_limit";
            if Error::check_angle("outlier_limit", o, PI, "rad", expected)? <= self.angle_limit {
                return Err(Error::param("outlier_limit", o, expected));
            }
        }
        check_ratio(self.ratio)
    }
}

/// What one adaptive refinement did.
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::curve::{AdaptiveChaikin, AdaptiveParams};
/// let mut r = AdaptiveChaikin::new(&AdaptiveParams::default())?;
/// let mut out = Vec::new();
/// let report = r.refine_into(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)], &mut out)?;
/// assert_eq!((report.passes, report.cuts, report.removed, report.converged), (1, 0, 0, true));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefineReport {
    /// Passes run (the last one may have found nothing to do).
    pub passes: u32,
    /// Corners cut, over all passes.
    pub cuts: usize,
    /// Outlier vertices removed, over all passes.
    pub removed: usize,
    /// `true` when a pass found no corner above the angle limit and no outlier, i.e. the
    /// output has no corner sharper than the limit; `false` when the budget ran out first.
    pub converged: bool,
}

/// Adaptive Chaikin refinement with reusable scratch: after warm-up, [`refine_into`]
/// allocates nothing.
///
/// [`refine_into`]: AdaptiveChaikin::refine_into
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::{AdaptiveChaikin, AdaptiveParams};
///
/// // Recorded data with one glitch: (3, 5) is a spike on an otherwise straight track.
/// let track: Vec<DVec2> = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (3.0, 5.0), (4.0, 0.0), (5.0, 0.0)]
///     .iter().map(|&(x, y)| DVec2::new(x, y)).collect();
/// let params = AdaptiveParams { outlier_limit: Some(90f64.to_radians()), ..Default::default() };
/// let mut refiner = AdaptiveChaikin::new(&params)?;
/// let mut out = Vec::new();
/// let report = refiner.refine_into(&track, &mut out)?;
/// assert_eq!(report.removed, 1);
/// assert!(out.iter().all(|p| p.y == 0.0)); // spike gone, the rest straight and untouched
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct AdaptiveChaikin<P> {
    params: AdaptiveParams,
    scratch: Vec<P>,
}

impl<P: Point> AdaptiveChaikin<P> {
    /// A refiner with validated parameters ([`Error::BadParameter`] otherwise).
    ///
    /// ```
    /// use glam::Vec3;
    /// use pathsmooth::curve::{AdaptiveChaikin, AdaptiveParams};
    /// assert!(AdaptiveChaikin::<Vec3>::new(&AdaptiveParams::default()).is_ok());
    /// assert!(AdaptiveChaikin::<Vec3>::new(&AdaptiveParams { ratio: 1.0, ..Default::default() }).is_err());
    /// ```
    pub fn new(params: &AdaptiveParams) -> Result<Self> {
        params.validate()?;
        Ok(AdaptiveChaikin {
            params: *params,
            scratch: Vec::new(),
        })
    }

    /// The parameters.
    ///
    /// ```
    /// use glam::Vec2;
    /// use pathsmooth::curve::{AdaptiveChaikin, AdaptiveParams};
    /// let r = AdaptiveChaikin::<Vec2>::new(&AdaptiveParams::default())?;
    /// assert_eq!(r.params().max_passes, 4);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn params(&self) -> &AdaptiveParams {
        &self.params
    }

    /// Refines the open path `path` into `out` (cleared first).
    ///
    /// Consecutive duplicates are merged, then each pass (1) drops outliers when
    /// `outlier_limit` is set and (2) cuts every corner sharper than `angle_limit`,
    /// until a pass changes nothing or `max_passes` passes have run.
    ///
    /// Errors: [`Error::EmptyPath`], [`Error::TooFewPoints`] (fewer than 2 points),
    /// [`Error::NonFinite`], and [`Error::OutputTooLarge`] when a pass could exceed
    /// [`max_output_points`]`::<P>()` (checked against the worst case, every corner cut).
    ///
    /// ```
    /// use glam::Vec2;
    /// use pathsmooth::curve::{AdaptiveChaikin, AdaptiveParams};
    /// let mut r = AdaptiveChaikin::new(&AdaptiveParams::default())?;
    /// let mut out = Vec::new();
    /// let zigzag = [Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0)];
    /// let report = r.refine_into(&zigzag, &mut out)?;
    /// assert!(report.cuts >= 2 && out.len() > zigzag.len());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn refine_into(&mut self, path: &[P], out: &mut Vec<P>) -> Result<RefineReport> {
        out.clear();
        check_path(path, 2, "adaptive Chaikin")?;
        dedup_into(path, out);
        let w = Weights::new(self.params.ratio);
        let mut report = RefineReport::default();
        for _ in 0..self.params.max_passes {
            let worst = 2 * out.len();
            let cap = max_output_points::<P>();
            if worst > cap {
                let requested = worst as u128;
                out.clear();
                return Err(Error::OutputTooLarge { requested, cap });
            }
            let removed = match self.params.outlier_limit {
                Some(limit) => remove_outliers(out, limit),
                None => 0,
            };
            let cuts = cut_sharp(out, &mut self.scratch, self.params.angle_limit, w);
            std::mem::swap(out, &mut self.scratch);
            report.passes += 1;
            report.cuts += cuts;
            report.removed += removed;
            if cuts == 0 && removed == 0 {
                report.converged = true;
                break;
            }
        }
        Ok(report)
    }
}

/// Adaptive Chaikin refinement of an open path (the "Math Magician" `RefinePath`, done
/// right): see [`AdaptiveChaikin::refine_into`] for the steps and errors.
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::curve::{chaikin_adaptive, AdaptiveParams};
/// let straight: Vec<Vec2> = (0..5).map(|i| Vec2::new(i as f32, 2.0 * i as f32)).collect();
/// assert_eq!(chaikin_adaptive(&straight, &AdaptiveParams::default())?, straight);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_adaptive<P: Point>(path: &[P], params: &AdaptiveParams) -> Result<Vec<P>> {
    let mut out = Vec::new();
    AdaptiveChaikin::new(params)?.refine_into(path, &mut out)?;
    Ok(out)
}

/// Pushes `p` unless it equals the last point (O(1), where the article used `Contains`).
#[inline]
pub(super) fn push_distinct<P: Point>(out: &mut Vec<P>, p: P) {
    if out.last() != Some(&p) {
        out.push(p);
    }
}

/// Ends `out` with `last` exactly: it replaces an equal final point rather than duplicating
/// it, except when that point is the only one (a path that returns to its start).
fn push_last<P: Point>(out: &mut Vec<P>, last: P) {
    match out.len() {
        0 => out.push(last),
        1 if out[0] == last => {}
        _ => {
            if out.last() == Some(&last) {
                out.pop();
            }
            out.push(last);
        }
    }
}

/// Copies `path` into `out` merging consecutive duplicates, keeping first and last exactly.
fn dedup_into<P: Point>(path: &[P], out: &mut Vec<P>) {
    out.clear();
    out.push(path[0]);
    for &p in &path[1..path.len() - 1] {
        push_distinct(out, p);
    }
    push_last(out, path[path.len() - 1]);
}

/// Drops spike vertices (turn angle above `limit`) in place and returns how many.
///
/// The heading into each vertex is measured from the last *kept* point, so a removed
/// spike is never a reference. When the next vertex turns even more sharply, it is the
/// spike and the current one is kept. Endpoints always stay.
fn remove_outliers<P: Point>(pts: &mut Vec<P>, limit: f64) -> usize {
    let n = pts.len();
    if n < 3 {
        return 0;
    }
    let last = pts[n - 1];
    let mut kept = 1; // pts[..kept] is the output so far; writes never pass the reads
    let mut removed = 0;
    for i in 1..n - 1 {
        let (prev, cur, next) = (pts[kept - 1], pts[i], pts[i + 1]);
        if cur == prev {
            continue; // a removal brought two equal points together
        }
        // None only when a heading overflows: treat as not sharp.
        let angle = turn_angle(prev, cur, next).unwrap_or(0.0);
        if angle > limit {
            let ahead = pts.get(i + 2).and_then(|&n2| turn_angle(cur, next, n2));
            if !ahead.is_some_and(|a| a > angle) {
                removed += 1;
                continue;
            }
        }
        pts[kept] = cur;
        kept += 1;
    }
    pts.truncate(kept);
    push_last(pts, last);
    removed
}

/// One cutting pass from `src` into `dst`: corners sharper than `limit` are replaced by
/// the two points a fraction `r` towards their neighbours. Returns the number cut.
fn cut_sharp<P: Point>(src: &[P], dst: &mut Vec<P>, limit: f64, w: Weights<P::Scalar>) -> usize {
    dst.clear();
    let n = src.len();
    if n < 3 {
        dst.extend_from_slice(src);
        return 0;
    }
    dst.push(src[0]);
    let mut cuts = 0;
    for win in src.windows(3) {
        let (a, b, c) = (win[0], win[1], win[2]);
        match turn_angle(a, b, c) {
            Some(t) if t > limit => {
                cuts += 1;
                push_distinct(dst, cut(b, a, w).0);
                push_distinct(dst, cut(b, c, w).0);
            }
            _ => push_distinct(dst, b),
        }
    }
    push_last(dst, src[n - 1]);
    cuts
}

#[cfg(test)]
mod tests {
    use super::super::tests::v;
    use super::*;

    #[test]
    fn adaptive_params_validation() {
        let d = AdaptiveParams::default();
        assert!(d.validate().is_ok());
        for (a, o) in [
            (0.0, None),
            (-1.0, None),
            (f64::NAN, None),
            (0.5, Some(0.5)),
            (0.5, Some(0.2)),
            (0.5, Some(f64::NAN)),
        ] {
            let p = AdaptiveParams {
                angle_limit: a,
                outlier_limit: o,
                ..d
            };
            assert!(
                matches!(p.validate(), Err(Error::BadParameter { .. })),
                "{a} {o:?}"
            );
        }
        // Above π no turn angle can be: degrees by mistake, refused with the conversion.
        for (a, o, name) in [
            (4.0, None, "angle_limit"),
            (30.0, None, "angle_limit"),
            (0.5, Some(3.5), "outlier_limit"),
            (0.5, Some(90.0), "outlier_limit"),
        ] {
            let p = AdaptiveParams {
                angle_limit: a,
                outlier_limit: o,
                ..d
            };
            match p.validate() {
                Err(e @ Error::BadAngle { name: n, .. }) => {
                    assert_eq!(n, name);
                    assert!(e.to_string().contains("angles are in radians"), "{e}");
                }
                other => panic!("{a} {o:?}: {other:?}"),
            }
        }
        let e = AdaptiveParams {
            angle_limit: 30.0,
            ..d
        }
        .validate()
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "parameter `angle_limit` = 30 rad is out of range: an angle in (0, π] radians; \
             angles are in radians (did you mean 30° = 0.5236 rad?)"
        );
        assert!(AdaptiveParams {
            angle_limit: PI,
            ..d
        }
        .validate()
        .is_ok());
    }

    #[test]
    fn adaptive_cuts_only_sharp_corners() {
        // A 90° corner and a 10° bend: only the corner is cut in the first pass.
        let bend = 10f64.to_radians();
        let p = [
            v(0.0, 0.0),
            v(10.0, 0.0),
            v(10.0, 10.0),
            v(10.0 + 10.0 * bend.sin(), 10.0 + 10.0 * bend.cos()),
        ];
        let params = AdaptiveParams {
            max_passes: 1,
            ..Default::default()
        };
        let out = chaikin_adaptive(&p, &params).unwrap();
        assert_eq!(out, [p[0], v(7.5, 0.0), v(10.0, 2.5), p[2], p[3]]);
    }

    #[test]
    fn adaptive_converges_below_the_limit() {
        let p = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
        let params = AdaptiveParams {
            max_passes: 10,
            ..Default::default()
        };
        let mut r = AdaptiveChaikin::new(&params).unwrap();
        let mut out = Vec::new();
        let report = r.refine_into(&p, &mut out).unwrap();
        assert!(report.converged, "{report:?}");
        for w in out.windows(3) {
            assert!(turn_angle(w[0], w[1], w[2]).unwrap() <= params.angle_limit);
        }
        assert_eq!((out[0], *out.last().unwrap()), (p[0], p[3]));
    }

    #[test]
    fn adaptive_duplicates_never_give_nan() {
        let p = [
            v(0.0, 0.0),
            v(0.0, 0.0),
            v(5.0, 0.0),
            v(5.0, 0.0),
            v(5.0, 0.0),
            v(5.0, 5.0),
            v(5.0, 5.0),
        ];
        let params = AdaptiveParams {
            outlier_limit: Some(2.0),
            ..Default::default()
        };
        let out = chaikin_adaptive(&p, &params).unwrap();
        assert!(out.iter().all(|q| q.is_finite()));
        assert!(out.windows(2).all(|w| w[0] != w[1]));
        assert_eq!((out[0], *out.last().unwrap()), (p[0], p[6]));
        let same = [v(1.0, 1.0); 4];
        assert_eq!(chaikin_adaptive(&same, &params).unwrap(), [v(1.0, 1.0)]);
    }

    #[test]
    fn outlier_is_the_spike_not_its_neighbour() {
        // The spike (2.5, 6) sits behind the vertex before it, so that vertex's own turn
        // exceeds 90° too; the sharper spike is the one removed, and the heading after it
        // is measured from (3, 0), not from the spike.
        let p = [
            v(0.0, 0.0),
            v(3.0, 0.0),
            v(2.5, 6.0),
            v(4.0, 0.0),
            v(6.0, 0.0),
        ];
        let params = AdaptiveParams {
            outlier_limit: Some(90f64.to_radians()),
            max_passes: 1,
            ..Default::default()
        };
        let mut r = AdaptiveChaikin::new(&params).unwrap();
        let mut out = Vec::new();
        let report = r.refine_into(&p, &mut out).unwrap();
        assert_eq!(report.removed, 1);
        assert_eq!(report.cuts, 0);
        assert_eq!(out, [p[0], p[1], p[3], p[4]]);
    }
}
