//! Catmull-Rom splines through a path's points: uniform (the Java article), centripetal and
//! chordal, open or closed.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "Catmull-Rom splines".)

use crate::error::{Error, Result};
use num_traits::{Float, One, Zero};

use crate::curve::chaikin::max_output_points;
use crate::geometry::{check_magnitude, Point, Scalar};

/// Largest accepted number of subdivisions per segment.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::{catmull_rom, CatmullRomParams, MAX_SUBDIVISIONS};
/// let p = [DVec2::ZERO, DVec2::X];
/// assert!(catmull_rom(&p, &CatmullRomParams::uniform(MAX_SUBDIVISIONS + 1)).is_err());
/// ```
pub const MAX_SUBDIVISIONS: usize = 1 << 16;

/// α of the uniform spline (the Java article's).
///
/// ```
/// use pathsmooth::curve::{CatmullRomParams, UNIFORM};
/// assert_eq!(CatmullRomParams::uniform(5).alpha, UNIFORM);
/// ```
pub const UNIFORM: f64 = 0.0;
/// α of the centripetal spline (Yuksel et al. 2011): no cusps or self-intersections
/// within a segment.
///
/// ```
/// use pathsmooth::curve::{CatmullRomParams, CENTRIPETAL};
/// assert_eq!(CatmullRomParams::uniform(5).with_alpha(CENTRIPETAL), CatmullRomParams::centripetal(5));
/// ```
pub const CENTRIPETAL: f64 = 0.5;
/// α of the chordal spline (knot intervals proportional to chord lengths).
///
/// ```
/// use pathsmooth::curve::{CatmullRomParams, CHORDAL};
/// assert_eq!(CatmullRomParams::chordal(5).alpha, CHORDAL);
/// ```
pub const CHORDAL: f64 = 1.0;

/// How the neighbours the first and last segments lack are supplied.
///
/// ```
/// use pathsmooth::curve::Ends;
/// assert_eq!(Ends::default(), Ends::Doubled);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ends {
    /// The article's choice: p(−1) = p(0) and p(n) = p(n−1) ("double up on the value").
    #[default]
    Doubled,
    /// Reflected phantom points p(−1) = 2·p(0) − p(1) and p(n) = 2·p(n−1) − p(n−2): the
    /// curve leaves the first point heading straight at the second.
    Reflected,
    /// A closed loop: the last point joins the first, indices wrap around, and there are
    /// n segments. Do not repeat the first point at the end (a repeat is a legal but
    /// zero-length segment).
    Closed,
}

/// Parameters of the subdivided Catmull-Rom curve.
///
/// ```
/// use pathsmooth::curve::{CatmullRomParams, Ends};
/// let p = CatmullRomParams::centripetal(8).with_ends(Ends::Closed);
/// assert_eq!((p.subdivisions, p.alpha, p.ends), (8, 0.5, Ends::Closed));
/// assert_eq!(CatmullRomParams::default(), CatmullRomParams::uniform(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CatmullRomParams {
    /// Output points per segment, 1..=[`MAX_SUBDIVISIONS`] (1 returns the input).
    pub subdivisions: usize,
    /// Knot parameterisation α ∈ [0, 1]: 0 uniform, ½ centripetal, 1 chordal.
    pub alpha: f64,
    /// End policy or closed loop.
    pub ends: Ends,
}

impl Default for CatmullRomParams {
    /// The article's setting: uniform, doubled ends, 5 subdivisions.
    fn default() -> Self {
        Self::uniform(5)
    }
}

impl CatmullRomParams {
    /// Checks the parameters: `subdivisions` in 1..=[`MAX_SUBDIVISIONS`], `alpha` in
    /// [0, 1] ([`Error::BadParameter`] naming the one that is not).
    ///
    /// ```
    /// use pathsmooth::curve::CatmullRomParams;
    /// assert!(CatmullRomParams::uniform(0).validate().is_err());
    /// assert!(CatmullRomParams { alpha: 2.0, ..Default::default() }.validate().is_err());
    /// assert!(CatmullRomParams::default().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        if self.subdivisions == 0 || self.subdivisions > MAX_SUBDIVISIONS {
            return Err(Error::param(
                "subdivisions",
                self.subdivisions as f64,
                "1 <= subdivisions <= 65536",
            ));
        }
        if !(0.0..=1.0).contains(&self.alpha) {
            return Err(Error::param("alpha", self.alpha, "0 <= alpha <= 1"));
        }
        Ok(())
    }

    /// Uniform spline (α = 0) with doubled ends, as in the Java article.
    ///
    /// ```
    /// # use pathsmooth::curve::CatmullRomParams;
    /// assert_eq!(CatmullRomParams::uniform(4).alpha, 0.0);
    /// ```
    pub fn uniform(subdivisions: usize) -> Self {
        Self {
            subdivisions,
            alpha: UNIFORM,
            ends: Ends::Doubled,
        }
    }

    /// Centripetal spline (α = ½) with doubled ends.
    ///
    /// ```
    /// # use pathsmooth::curve::CatmullRomParams;
    /// assert_eq!(CatmullRomParams::centripetal(4).alpha, 0.5);
    /// ```
    pub fn centripetal(subdivisions: usize) -> Self {
        Self {
            alpha: CENTRIPETAL,
            ..Self::uniform(subdivisions)
        }
    }

    /// Chordal spline (α = 1) with doubled ends.
    ///
    /// ```
    /// # use pathsmooth::curve::CatmullRomParams;
    /// assert_eq!(CatmullRomParams::chordal(4).alpha, 1.0);
    /// ```
    pub fn chordal(subdivisions: usize) -> Self {
        Self {
            alpha: CHORDAL,
            ..Self::uniform(subdivisions)
        }
    }

    /// The same parameters with another α.
    ///
    /// ```
    /// # use pathsmooth::curve::CatmullRomParams;
    /// assert_eq!(CatmullRomParams::uniform(4).with_alpha(0.25).alpha, 0.25);
    /// ```
    pub fn with_alpha(self, alpha: f64) -> Self {
        Self { alpha, ..self }
    }

    /// The same parameters with another end policy.
    ///
    /// ```
    /// # use pathsmooth::curve::{CatmullRomParams, Ends};
    /// assert_eq!(CatmullRomParams::uniform(4).with_ends(Ends::Reflected).ends, Ends::Reflected);
    /// ```
    pub fn with_ends(self, ends: Ends) -> Self {
        Self { ends, ..self }
    }
}

/// The article's uniform Catmull-Rom basis: weights `[w0, w1, w2, w3]` with
/// `q(t) = w0·p0 + w1·p1 + w2·p2 + w3·p3`, for one coordinate or whole points.
///
/// ```
/// use pathsmooth::curve::uniform_weights;
/// // The article's 1D knots 1, 2, 2, 1: its q(0.5) = 2.125. (Its printed q(0.25) =
/// // q(0.75) = 2.171875 is not what its own formula gives; see the module docs.)
/// let q = |t: f64| uniform_weights(t).iter().zip([1.0, 2.0, 2.0, 1.0]).map(|(w, p)| w * p).sum::<f64>();
/// assert_eq!((q(0.25), q(0.5), q(0.75)), (2.09375, 2.125, 2.09375));
/// ```
pub fn uniform_weights(t: f64) -> [f64; 4] {
    let (t2, t3) = (t * t, t * t * t);
    [
        0.5 * (-t + 2.0 * t2 - t3),
        0.5 * (2.0 - 5.0 * t2 + 3.0 * t3),
        0.5 * (t + 4.0 * t2 - 3.0 * t3),
        0.5 * (-t2 + t3),
    ]
}

/// One segment of the curve as the cubic `c0 + c1·t + c2·t² + c3·t³`, t ∈ [0, 1],
/// running from its start knot (t = 0) to its end knot (t = 1).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::Segment;
/// let p = [DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0), DVec2::new(3.0, 0.0)];
/// let seg = Segment::from_controls(p, 0.5);
/// assert_eq!(seg.point(0.0), DVec2::X);
/// assert!((seg.point(0.5) - DVec2::new(1.5, 0.0)).length() < 1e-12);
/// assert!((seg.tangent(0.5) - DVec2::X).length() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<P> {
    /// `[c0, c1, c2, c3]`, the polynomial's coefficients (c0 is the start knot).
    pub coefficients: [P; 4],
}

impl<P: Point> Segment<P> {
    /// The cubic between `p[1]` and `p[2]` of the Catmull-Rom spline with parameterisation
    /// `alpha` through the four controls `p`. `alpha` is not range-checked here (use
    /// [`CatmullRom::new`] for checked input); 0 gives the article's polynomial exactly.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::curve::Segment;
    /// let p = [1.0, 2.0, 2.0, 1.0].map(|y| DVec2::new(0.0, y));
    /// assert_eq!(Segment::from_controls(p, 0.0).point(0.5).y, 2.125); // the article's q(0.5)
    /// ```
    pub fn from_controls(p: [P; 4], alpha: P::Scalar) -> Self {
        let uniform = alpha == P::Scalar::zero();
        let knots = if uniform {
            [P::Scalar::one(); 3]
        } else {
            [
                knot_interval(p[0], p[1], alpha),
                knot_interval(p[1], p[2], alpha),
                knot_interval(p[2], p[3], alpha),
            ]
        };
        Self::with_knots(p, uniform, knots)
    }

    /// The segment from its controls and its three knot intervals (ignored when
    /// `uniform`), so that a walk along the path computes each interval once.
    #[inline]
    fn with_knots(p: [P; 4], uniform: bool, knots: [P::Scalar; 3]) -> Self {
        let [_, p1, p2, _] = p;
        match hermite_tangents(p, uniform, knots) {
            Some((m1, m2)) => {
                let two = P::Scalar::from_f64(2.0);
                let three = P::Scalar::from_f64(3.0);
                let d = p2 - p1;
                Self {
                    coefficients: [p1, m1, d * three - m1 * two - m2, m1 + m2 - d * two],
                }
            }
            None => Self {
                coefficients: [p1, P::default(), P::default(), P::default()],
            },
        }
    }

    /// The point at local parameter `t` (0 = start knot, 1 = end knot).
    ///
    /// ```
    /// # use glam::Vec2;
    /// # use pathsmooth::curve::Segment;
    /// let seg = Segment::from_controls([Vec2::ZERO, Vec2::ZERO, Vec2::X, Vec2::X], 0.0);
    /// assert_eq!(seg.point(0.5), Vec2::new(0.5, 0.0));
    /// ```
    #[inline]
    pub fn point(&self, t: P::Scalar) -> P {
        let [c0, c1, c2, c3] = self.coefficients;
        c0 + (c1 + (c2 + c3 * t) * t) * t
    }

    /// The derivative with respect to the local parameter `t` (the tangent, scaled so that
    /// t runs over [0, 1] along the segment).
    ///
    /// ```
    /// # use glam::Vec2;
    /// # use pathsmooth::curve::Segment;
    /// let seg = Segment::from_controls([Vec2::ZERO, Vec2::ZERO, Vec2::X, Vec2::X], 0.0);
    /// assert_eq!(seg.tangent(0.0), Vec2::new(0.5, 0.0)); // doubled end: (p2 − p0)/2
    /// ```
    #[inline]
    pub fn tangent(&self, t: P::Scalar) -> P {
        let [_, c1, c2, c3] = self.coefficients;
        let (two, three) = (P::Scalar::from_f64(2.0), P::Scalar::from_f64(3.0));
        c1 + (c2 * two + c3 * (three * t)) * t
    }
}

/// The Hermite tangents at p1 and p2 (per unit of local t), or `None` when the segment has
/// zero length under an α > 0 parameterisation (the segment is then the point p1).
#[inline]
fn hermite_tangents<P: Point>(p: [P; 4], uniform: bool, knots: [P::Scalar; 3]) -> Option<(P, P)> {
    let [p0, p1, p2, p3] = p;
    if uniform {
        // The article's uniform spline: tangents (p2 − p0)/2 and (p3 − p1)/2.
        let half = P::Scalar::from_f64(0.5);
        return Some(((p2 - p0) * half, (p3 - p1) * half));
    }
    let zero = P::Scalar::zero();
    let [d01, d12, d23] = knots;
    if d12 == zero {
        return None;
    }
    // A zero neighbouring interval (duplicate point, doubled end) borrows the segment's
    // own: locally uniform knots, the article's doubled-end behaviour, and no 0/0.
    let or_d12 = |d: P::Scalar| if d == zero { d12 } else { d };
    let (d01, d23) = (or_d12(d01), or_d12(d23));
    // Barry–Goldman end derivatives, multiplied by d12 to get per-unit-t tangents.
    let chord = p2 - p1;
    let m1 = ((p1 - p0) / d01 - (p2 - p0) / (d01 + d12)) * d12 + chord;
    let m2 = ((p3 - p2) / d23 - (p3 - p1) / (d12 + d23)) * d12 + chord;
    Some((m1, m2))
}

/// |b − a|^α, from the squared distance with one root (α = ½, 1) or one `powf`; 0 for
/// coincident points (also when the squared distance underflows).
#[inline]
fn knot_interval<P: Point>(a: P, b: P, alpha: P::Scalar) -> P::Scalar {
    let d = b - a;
    let d2 = d.dot(d);
    let half = P::Scalar::from_f64(0.5);
    if d2 == P::Scalar::zero() {
        d2
    } else if alpha == half {
        d2.sqrt().sqrt()
    } else if alpha == P::Scalar::one() {
        d2.sqrt()
    } else {
        d2.powf(alpha * half)
    }
}

/// A validated Catmull-Rom curve over a borrowed path, for evaluation at any parameter.
///
/// Segment `i` runs from `path[i]` to `path[i + 1]` (to `path[0]` for the closing segment
/// of a loop). Parameters are either a segment index and local t ∈ [0, 1], or a global
/// u ∈ [0, segment_count] (segment ⌊u⌋, t = u − ⌊u⌋; u = segment_count is the end).
///
/// ```
/// use glam::Vec3;
/// use pathsmooth::curve::{CatmullRom, Ends};
/// let path = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 1.0)];
/// let c = CatmullRom::new(&path, 0.5, Ends::Reflected).unwrap();
/// assert_eq!(c.segment_count(), 2);
/// assert_eq!(c.point_at(1.0).unwrap(), Vec3::X);
/// assert_eq!(c.point_at(2.0).unwrap(), path[2]);
/// assert!(c.tangent_at(0.5).unwrap().x > 0.0);
/// assert!(c.point_at(2.5).is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CatmullRom<'a, P: Point> {
    path: &'a [P],
    alpha: P::Scalar,
    ends: Ends,
}

impl<'a, P: Point> CatmullRom<'a, P> {
    /// Checks the path (≥ 2 finite points within
    /// [`max_coordinate`](crate::geometry::max_coordinate)) and α ∈ [0, 1].
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::curve::{CatmullRom, Ends};
    /// assert!(CatmullRom::new(&[DVec2::ZERO], 0.0, Ends::Doubled).is_err());
    /// assert!(CatmullRom::new(&[DVec2::ZERO, DVec2::X], f64::NAN, Ends::Doubled).is_err());
    /// ```
    pub fn new(path: &'a [P], alpha: f64, ends: Ends) -> Result<Self> {
        check_magnitude(path)?;
        if path.len() < 2 {
            return Err(if path.is_empty() {
                Error::EmptyPath
            } else {
                Error::TooFewPoints {
                    method: "Catmull-Rom",
                    needed: 2,
                    got: path.len(),
                }
            });
        }
        if !(0.0..=1.0).contains(&alpha) {
            return Err(Error::param("alpha", alpha, "0 <= alpha <= 1"));
        }
        Ok(Self {
            path,
            alpha: P::Scalar::from_f64(alpha),
            ends,
        })
    }

    /// Number of segments: n − 1 for an open path, n for a closed loop.
    ///
    /// ```
    /// # use glam::Vec2;
    /// # use pathsmooth::curve::{CatmullRom, Ends};
    /// let p = [Vec2::ZERO, Vec2::X, Vec2::Y];
    /// assert_eq!(CatmullRom::new(&p, 0.0, Ends::Closed).unwrap().segment_count(), 3);
    /// ```
    pub fn segment_count(&self) -> usize {
        match self.ends {
            Ends::Closed => self.path.len(),
            _ => self.path.len() - 1,
        }
    }

    /// The four control points of segment `i` (phantoms at the ends of an open path).
    fn controls(&self, i: usize) -> [P; 4] {
        let p = self.path;
        let n = p.len();
        match self.ends {
            Ends::Closed => [p[(i + n - 1) % n], p[i], p[(i + 1) % n], p[(i + 2) % n]],
            ends => {
                let before = match (i, ends) {
                    (0, Ends::Reflected) => p[0] + (p[0] - p[1]),
                    (0, _) => p[0],
                    _ => p[i - 1],
                };
                let after = match (i + 2 == n, ends) {
                    (true, Ends::Reflected) => p[n - 1] + (p[n - 1] - p[n - 2]),
                    (true, _) => p[n - 1],
                    _ => p[i + 2],
                };
                [before, p[i], p[i + 1], after]
            }
        }
    }

    /// The cubic of segment `i` (`i < segment_count()`).
    ///
    /// ```
    /// # use glam::DVec2;
    /// # use pathsmooth::curve::{CatmullRom, Ends};
    /// let p = [DVec2::ZERO, DVec2::X];
    /// let c = CatmullRom::new(&p, 0.0, Ends::Doubled).unwrap();
    /// assert_eq!(c.segment(0).unwrap().point(1.0), DVec2::X);
    /// assert!(c.segment(1).is_err());
    /// ```
    pub fn segment(&self, i: usize) -> Result<Segment<P>> {
        if i >= self.segment_count() {
            return Err(Error::param(
                "segment",
                i as f64,
                "a segment index below segment_count()",
            ));
        }
        Ok(self.segment_unchecked(i))
    }

    #[inline]
    fn segment_unchecked(&self, i: usize) -> Segment<P> {
        Segment::from_controls(self.controls(i), self.alpha)
    }

    /// The point of segment `i` at local `t` ∈ [0, 1].
    ///
    /// ```
    /// # use glam::DVec2;
    /// # use pathsmooth::curve::{CatmullRom, Ends};
    /// let p = [1.0, 2.0, 2.0, 1.0].map(|y| DVec2::new(0.0, y));
    /// let c = CatmullRom::new(&p, 0.0, Ends::Doubled).unwrap();
    /// assert_eq!(c.point(1, 0.5).unwrap().y, 2.125); // the article's q(0.5)
    /// ```
    pub fn point(&self, i: usize, t: f64) -> Result<P> {
        let t = check_local(t)?;
        Ok(self.segment(i)?.point(P::Scalar::from_f64(t)))
    }

    /// The tangent (derivative per unit of local t) of segment `i` at `t` ∈ [0, 1].
    ///
    /// ```
    /// # use glam::DVec2;
    /// # use pathsmooth::curve::{CatmullRom, Ends};
    /// let p = [1.0, 2.0, 2.0, 1.0].map(|y| DVec2::new(0.0, y));
    /// let c = CatmullRom::new(&p, 0.0, Ends::Doubled).unwrap();
    /// assert_eq!(c.tangent(1, 0.5).unwrap().y, 0.0); // top of the symmetric bump
    /// ```
    pub fn tangent(&self, i: usize, t: f64) -> Result<P> {
        let t = check_local(t)?;
        Ok(self.segment(i)?.tangent(P::Scalar::from_f64(t)))
    }

    /// The point at global parameter `u` ∈ [0, segment_count()].
    ///
    /// ```
    /// # use glam::DVec2;
    /// # use pathsmooth::curve::{CatmullRom, Ends};
    /// let p = [DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0)];
    /// let c = CatmullRom::new(&p, 0.0, Ends::Reflected).unwrap();
    /// assert_eq!(c.point_at(1.5).unwrap(), DVec2::new(1.5, 0.0));
    /// ```
    pub fn point_at(&self, u: f64) -> Result<P> {
        let (i, t) = self.locate(u)?;
        self.point(i, t)
    }

    /// The tangent at global parameter `u` ∈ [0, segment_count()] (per unit of u).
    ///
    /// ```
    /// # use glam::DVec2;
    /// # use pathsmooth::curve::{CatmullRom, Ends};
    /// let p = [DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0)];
    /// let c = CatmullRom::new(&p, 0.0, Ends::Reflected).unwrap();
    /// assert_eq!(c.tangent_at(2.0).unwrap(), DVec2::X);
    /// ```
    pub fn tangent_at(&self, u: f64) -> Result<P> {
        let (i, t) = self.locate(u)?;
        self.tangent(i, t)
    }

    /// Splits a global parameter into (segment, local t).
    fn locate(&self, u: f64) -> Result<(usize, f64)> {
        let segments = self.segment_count();
        if !(0.0..=segments as f64).contains(&u) {
            return Err(Error::param(
                "u",
                u,
                "0 <= u <= segment_count() (the number of segments)",
            ));
        }
        let i = (u.floor() as usize).min(segments - 1);
        Ok((i, u - i as f64))
    }

    /// Number of points [`catmull_rom_into`] produces with `subdivisions` per segment:
    /// `(n−1)·s + 1` open, `n·s` closed; [`Error::OutputTooLarge`] beyond
    /// [`max_output_points`]`::<P>()` (256 MiB of points).
    ///
    /// ```
    /// # use glam::DVec2;
    /// # use pathsmooth::curve::{CatmullRom, Ends};
    /// let p = [DVec2::ZERO; 13];
    /// assert_eq!(CatmullRom::new(&p, 0.0, Ends::Doubled).unwrap().output_len(5).unwrap(), 61);
    /// ```
    pub fn output_len(&self, subdivisions: usize) -> Result<usize> {
        if subdivisions == 0 || subdivisions > MAX_SUBDIVISIONS {
            return Err(Error::param(
                "subdivisions",
                subdivisions as f64,
                "1 <= subdivisions <= 65536",
            ));
        }
        let open = usize::from(self.ends != Ends::Closed);
        let requested = self.segment_count() as u128 * subdivisions as u128 + open as u128;
        let cap = max_output_points::<P>();
        if requested > cap as u128 {
            return Err(Error::OutputTooLarge { requested, cap });
        }
        Ok(requested as usize)
    }

    /// Writes the subdivided curve into `out` (cleared first): every input point, then
    /// `subdivisions − 1` curve points after each, and (open paths) the last point. Input
    /// points are copied exactly, so the curve interpolates them bit for bit.
    fn subdivide_into(&self, subdivisions: usize, out: &mut Vec<P>) -> Result<()> {
        let len = self.output_len(subdivisions)?;
        out.clear();
        out.reserve(len);
        let step = P::Scalar::one() / P::Scalar::from_f64(subdivisions as f64);
        // Consecutive segments share three of their four controls, so each knot interval
        // is computed once: the window slides by one.
        let uniform = self.alpha == P::Scalar::zero();
        let mut knots = [P::Scalar::one(); 3];
        for i in 0..self.segment_count() {
            let c = self.controls(i);
            if !uniform {
                let next = knot_interval(c[2], c[3], self.alpha);
                knots = if i == 0 {
                    [
                        knot_interval(c[0], c[1], self.alpha),
                        knot_interval(c[1], c[2], self.alpha),
                        next,
                    ]
                } else {
                    [knots[1], knots[2], next]
                };
            }
            let seg = Segment::with_knots(c, uniform, knots);
            out.push(self.path[i]);
            for j in 1..subdivisions {
                out.push(seg.point(P::Scalar::from_f64(j as f64) * step));
            }
        }
        if self.ends != Ends::Closed {
            out.push(self.path[self.path.len() - 1]);
        }
        Ok(())
    }
}

fn check_local(t: f64) -> Result<f64> {
    if (0.0..=1.0).contains(&t) {
        Ok(t)
    } else {
        Err(Error::param("t", t, "0 <= t <= 1"))
    }
}

/// Subdivides `path` with a Catmull-Rom spline into `out` (cleared first; no allocation
/// once `out` has the capacity, see [`CatmullRom::output_len`]).
///
/// Errors: [`Error::EmptyPath`], [`Error::TooFewPoints`] (fewer than 2),
/// [`Error::NonFinite`], [`Error::CoordinateOutOfRange`] (a coordinate beyond
/// [`max_coordinate`](crate::geometry::max_coordinate)), [`Error::BadParameter`]
/// (subdivisions 0 or above [`MAX_SUBDIVISIONS`], α outside [0, 1] or NaN),
/// [`Error::OutputTooLarge`].
/// On error `out` is left unchanged.
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::curve::{catmull_rom_into, CatmullRomParams, Ends};
/// let path = [Vec2::ZERO, Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0)];
/// let mut out = Vec::with_capacity(64);
/// catmull_rom_into(&path, &CatmullRomParams::centripetal(8), &mut out).unwrap();
/// assert_eq!((out.len(), out[0], out[8], out[16]), (17, path[0], path[1], path[2]));
/// let closed = CatmullRomParams::centripetal(8).with_ends(Ends::Closed);
/// catmull_rom_into(&path, &closed, &mut out).unwrap();
/// assert_eq!(out.len(), 24);
/// ```
pub fn catmull_rom_into<P: Point>(
    path: &[P],
    params: &CatmullRomParams,
    out: &mut Vec<P>,
) -> Result<()> {
    CatmullRom::new(path, params.alpha, params.ends)?.subdivide_into(params.subdivisions, out)
}

/// Allocating form of [`catmull_rom_into`].
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::curve::{catmull_rom, CatmullRomParams};
/// let path = [DVec3::ZERO, DVec3::X, DVec3::ONE];
/// let out = catmull_rom(&path, &CatmullRomParams::chordal(3)).unwrap();
/// assert_eq!(out.len(), 7);
/// assert!(catmull_rom(&path, &CatmullRomParams::chordal(0)).is_err());
/// ```
pub fn catmull_rom<P: Point>(path: &[P], params: &CatmullRomParams) -> Result<Vec<P>> {
    let mut out = Vec::new();
    catmull_rom_into(path, params, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec2};

    /// The article's `q(t)`, transcribed.
    fn article_q(p0: f64, p1: f64, p2: f64, p3: f64, t: f64) -> f64 {
        0.5 * ((2.0 * p1)
            + (p2 - p0) * t
            + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t * t
            + (3.0 * p1 - p0 - 3.0 * p2 + p3) * t * t * t)
    }

    /// Barry–Goldman pyramid, straight from the paper, as an oracle for the tangents.
    fn pyramid(p: [DVec2; 4], alpha: f64, t: f64) -> DVec2 {
        let mut k = [0.0; 4];
        for i in 1..4 {
            k[i] = k[i - 1] + p[i - 1].distance(p[i]).powf(alpha);
        }
        let t = k[1] + t * (k[2] - k[1]);
        let mix = |a: DVec2, b: DVec2, ta: f64, tb: f64| (a * (tb - t) + b * (t - ta)) / (tb - ta);
        let a1 = mix(p[0], p[1], k[0], k[1]);
        let a2 = mix(p[1], p[2], k[1], k[2]);
        let a3 = mix(p[2], p[3], k[2], k[3]);
        let b1 = mix(a1, a2, k[0], k[2]);
        let b2 = mix(a2, a3, k[1], k[3]);
        mix(b1, b2, k[1], k[2])
    }

    #[test]
    fn article_1d_values_exactly() {
        let p = [1.0, 2.0, 2.0, 1.0].map(|y| DVec2::new(y, -y));
        let seg = Segment::from_controls(p, 0.0);
        // The article prints q(0.25) = q(0.75) = 2.171875, but its own q(t) gives
        // ½(4 + t − t²) here: 2.09375. No cubic can do what it prints: the knots are
        // symmetric, so q is symmetric about t = ½, hence 2 + k·t(1 − t), and q(½) = 2.125
        // fixes k = ½. We follow the formula (and its q(0.5), which it gets right).
        for (t, q) in [
            (0.0, 2.0),
            (0.25, 2.09375),
            (0.5, 2.125),
            (0.75, 2.09375),
            (1.0, 2.0),
        ] {
            assert_eq!(seg.point(t), DVec2::new(q, -q), "t = {t}");
        }
        let f = Segment::from_controls(p.map(|v| Vec2::new(v.x as f32, 0.0)), 0.0);
        assert_eq!(f.point(0.25).x, 2.09375);
        for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
            assert_eq!(seg.point(t).x, article_q(1.0, 2.0, 2.0, 1.0, t));
        }
    }

    #[test]
    fn article_2d_example_with_4_subdivisions() {
        let path = [(1.0, 1.0), (2.0, 2.0), (3.0, 2.0), (4.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
        let out = catmull_rom(&path, &CatmullRomParams::uniform(4)).unwrap();
        assert_eq!(out.len(), 13);
        // The article's subdividePoints, transcribed: doubled ends, j/4 steps.
        let mut expected = Vec::new();
        for i in 0..3 {
            let c = |k: isize| path[(i as isize + k).clamp(0, 3) as usize];
            for j in 0..4 {
                let t = j as f64 * 0.25;
                let q = |f: fn(DVec2) -> f64| article_q(f(c(-1)), f(c(0)), f(c(1)), f(c(2)), t);
                expected.push(DVec2::new(q(|v| v.x), q(|v| v.y)));
            }
        }
        expected.push(path[3]);
        for (a, b) in out.iter().zip(&expected) {
            assert!((*a - *b).length() < 1e-15, "{a} vs {b}");
        }
        // The same numbers written out (all dyadic, so exact in f64).
        let table = [
            (1.0, 1.0),
            (1.1796875, 1.203125),
            (1.4375, 1.5),
            (1.7265625, 1.796875),
            (2.0, 2.0),
            (2.25, 2.09375),
            (2.5, 2.125),
            (2.75, 2.09375),
            (3.0, 2.0),
            (3.2734375, 1.796875),
            (3.5625, 1.5),
            (3.8203125, 1.203125),
            (4.0, 1.0),
        ];
        let table: Vec<DVec2> = table.iter().map(|&(x, y)| DVec2::new(x, y)).collect();
        assert_eq!(out, table);
    }

    #[test]
    fn tangents_match_the_barry_goldman_pyramid() {
        let p = [(0.0, 0.0), (1.0, 3.0), (1.5, 3.1), (7.0, -2.0)].map(|(x, y)| DVec2::new(x, y));
        for alpha in [0.0, 0.25, 0.5, 1.0] {
            let seg = Segment::from_controls(p, alpha);
            for k in 0..=10 {
                let t = k as f64 / 10.0;
                let d = (seg.point(t) - pyramid(p, alpha, t)).length();
                assert!(d < 1e-12, "alpha {alpha} t {t}: {d}");
            }
            // Derivative: central difference of the pyramid.
            let h = 1e-6;
            let fd = (pyramid(p, alpha, 0.5 + h) - pyramid(p, alpha, 0.5 - h)) / (2.0 * h);
            assert!((seg.tangent(0.5) - fd).length() < 1e-6);
        }
    }

    #[test]
    fn coincident_knots_give_finite_points() {
        let a = DVec2::new(1.0, 2.0);
        let b = DVec2::new(4.0, 6.0);
        let paths = [
            vec![a, a, b, b],
            vec![a, a, a],
            vec![a, b, b, a, a],
            vec![a, a],
        ];
        for path in &paths {
            for alpha in [0.0, 0.5, 1.0] {
                for ends in [Ends::Doubled, Ends::Reflected, Ends::Closed] {
                    let params = CatmullRomParams::uniform(7)
                        .with_alpha(alpha)
                        .with_ends(ends);
                    let out = catmull_rom(path, &params).unwrap();
                    assert!(
                        out.iter().all(|p| p.is_finite()),
                        "{path:?} {alpha} {ends:?}"
                    );
                }
            }
        }
        // α > 0: a zero-length segment is its point.
        let c = CatmullRom::new(&paths[0], 0.5, Ends::Doubled).unwrap();
        assert_eq!(c.point(0, 0.3).unwrap(), a);
    }

    #[test]
    fn centripetal_doubled_end_matches_uniform_knots_locally() {
        // With a doubled end the borrowed interval makes the first tangent (p2 − p1)/2,
        // the same as the article's uniform spline.
        let p = [DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(2.0, 2.0)];
        let c = CatmullRom::new(&p, 0.5, Ends::Doubled).unwrap();
        let u = CatmullRom::new(&p, 0.0, Ends::Doubled).unwrap();
        assert!((c.tangent(0, 0.0).unwrap() - u.tangent(0, 0.0).unwrap()).length() < 1e-12);
    }

    #[test]
    fn reflected_ends_keep_straight_lines_straight() {
        let p = [
            DVec3::ZERO,
            DVec3::new(1.0, 1.0, 1.0),
            DVec3::new(3.0, 3.0, 3.0),
        ];
        for alpha in [0.0, 0.5, 1.0] {
            let params = CatmullRomParams::uniform(5)
                .with_alpha(alpha)
                .with_ends(Ends::Reflected);
            for q in catmull_rom(&p, &params).unwrap() {
                assert!((q.x - q.y).abs() < 1e-12 && (q.y - q.z).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn closed_loop_wraps_around() {
        let p = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        let c = CatmullRom::new(&p, 0.5, Ends::Closed).unwrap();
        assert_eq!(c.point_at(4.0).unwrap(), p[0]);
        // Tangent is continuous across the seam.
        let end = c.tangent(3, 1.0).unwrap();
        let start = c.tangent(0, 0.0).unwrap();
        assert!((end - start).length() < 1e-12);
        // Symmetric square: the curve crosses the middle of each side at the same distance.
        let mid = c.point_at(0.5).unwrap();
        assert!((mid.x - 0.5).abs() < 1e-12 && mid.y < 0.0);
    }

    #[test]
    fn bad_parameters_are_errors() {
        let p = [DVec2::ZERO, DVec2::X];
        let bad = |params: CatmullRomParams| catmull_rom(&p, &params).unwrap_err();
        assert!(matches!(
            bad(CatmullRomParams::uniform(0)),
            Error::BadParameter {
                name: "subdivisions",
                ..
            }
        ));
        assert!(matches!(
            bad(CatmullRomParams::uniform(MAX_SUBDIVISIONS + 1)),
            Error::BadParameter {
                name: "subdivisions",
                ..
            }
        ));
        for alpha in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                bad(CatmullRomParams::uniform(2).with_alpha(alpha)),
                Error::BadParameter { name: "alpha", .. }
            ));
        }
        let long = vec![DVec2::ZERO; 2000];
        assert!(matches!(
            catmull_rom(&long, &CatmullRomParams::uniform(MAX_SUBDIVISIONS)),
            Err(Error::OutputTooLarge { .. })
        ));
        // The cap is a byte budget: 256 MiB of points of the type at hand.
        let many = vec![DVec2::ZERO; 1001];
        let s = CatmullRomParams::uniform(16_778); // 16.78 million points, 268 MB
        assert_eq!(
            catmull_rom(&many, &s),
            Err(Error::OutputTooLarge {
                requested: 16_778_001,
                cap: 1 << 24
            })
        );
        let p32 = vec![Vec2::ZERO; 1001];
        assert_eq!(catmull_rom(&p32, &s).map(|o| o.len()), Ok(16_778_001));
        let p3 = vec![DVec3::ZERO; 1001];
        assert!(matches!(
            catmull_rom(&p3, &CatmullRomParams::uniform(11_185)),
            Err(Error::OutputTooLarge {
                cap: 11_184_810,
                ..
            })
        ));
        assert_eq!(
            catmull_rom::<DVec2>(&[], &CatmullRomParams::default()),
            Err(Error::EmptyPath)
        );
        assert!(matches!(
            catmull_rom(&p[..1], &CatmullRomParams::default()),
            Err(Error::TooFewPoints { .. })
        ));
        assert_eq!(
            catmull_rom(&[DVec2::ZERO, DVec2::NAN], &CatmullRomParams::default()),
            Err(Error::NonFinite { index: 1 })
        );
        let c = CatmullRom::new(&p, 0.0, Ends::Doubled).unwrap();
        assert!(
            c.point_at(f64::NAN).is_err() && c.point(0, 1.5).is_err() && c.tangent(1, 0.0).is_err()
        );
    }

    #[test]
    fn huge_f32_coordinates_are_rejected_not_overflowed() {
        let p = [Vec2::new(3e38, 0.0), Vec2::new(-3e38, 0.0)];
        assert!(matches!(
            catmull_rom(&p, &CatmullRomParams::default()),
            Err(Error::CoordinateOutOfRange { index: Some(0), .. })
        ));
        let ok = [
            Vec2::new(2e18, -2e18),
            Vec2::new(-2e18, 2e18),
            Vec2::new(2e18, 2e18),
        ];
        for alpha in [0.0, 0.5, 1.0] {
            let out = catmull_rom(
                &ok,
                &CatmullRomParams::uniform(9)
                    .with_alpha(alpha)
                    .with_ends(Ends::Reflected),
            )
            .unwrap();
            assert!(out.iter().all(|q| q.is_finite()));
        }
    }
}
