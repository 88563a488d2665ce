//! The point model and the small geometric helpers every algorithm shares.
//!
//! Algorithms are generic over [`Point`], which glam's [`Vec2`], [`Vec3`], [`DVec2`] and
//! [`DVec3`] implement, so the dimension-free smoothers (Chaikin, Catmull-Rom, resampling)
//! work in 2D and 3D, in `f32` and `f64`, with no home-made vector type. Map-aware
//! algorithms are 2D and work on [`DVec2`].
//!
//! ```
//! use glam::Vec2;
//! use pathsmooth::geometry::{turn_angle, Point};
//! let a = Vec2::new(0.0, 0.0);
//! let b = Vec2::new(1.0, 0.0);
//! let c = Vec2::new(1.0, 1.0);
//! assert!((turn_angle(a, b, c).unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-6);
//! assert_eq!(Point::lerp(a, b, 0.25), Vec2::new(0.25, 0.0));
//! ```

use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

use glam::{DVec2, DVec3, Vec2, Vec3};
use num_traits::Float;

use crate::error::{Error, Result};

/// A floating-point scalar: `f32` or `f64`.
pub trait Scalar: Float + Debug + Default + Send + Sync + 'static {
    /// Converts from `f64` (rounding for `f32`).
    fn from_f64(v: f64) -> Self;
    /// Converts to `f64` (exact).
    fn to_f64(self) -> f64;
}

impl Scalar for f32 {
    #[inline]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline]
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Scalar for f64 {
    #[inline]
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline]
    fn to_f64(self) -> f64 {
        self
    }
}

/// A point (or vector) in 2D or 3D space: implemented for glam's `Vec2`, `Vec3`, `DVec2`
/// and `DVec3`.
///
/// The arithmetic operators come from glam; the trait adds what the algorithms need in a
/// dimension-free way.
pub trait Point:
    Copy
    + Debug
    + PartialEq
    + Default
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<<Self as Point>::Scalar, Output = Self>
    + Div<<Self as Point>::Scalar, Output = Self>
{
    /// The coordinate type.
    type Scalar: Scalar;
    /// Number of coordinates (2 or 3).
    const DIM: usize;

    /// Dot product.
    fn dot(self, other: Self) -> Self::Scalar;
    /// Euclidean length.
    fn length(self) -> Self::Scalar;
    /// Euclidean distance to `other`.
    #[inline]
    fn distance(self, other: Self) -> Self::Scalar {
        (other - self).length()
    }
    /// `self + (other − self)·t`.
    #[inline]
    fn lerp(self, other: Self, t: Self::Scalar) -> Self {
        self + (other - self) * t
    }
    /// True when every coordinate is finite.
    fn is_finite(self) -> bool;
    /// Coordinate `i` as `f64` (`i < DIM`).
    fn coord(self, i: usize) -> f64;
    /// Builds a point from `DIM` coordinates; `None` if the slice has another length.
    fn from_coords(coords: &[f64]) -> Option<Self>;
    /// The point as `f64` 3-vector (z = 0 in 2D), for numerically delicate work.
    fn to_dvec3(self) -> DVec3;
    /// The point from an `f64` 3-vector (z is dropped in 2D).
    fn from_dvec3(v: DVec3) -> Self;
}

/// `impl_point!(Type, scalar, [fields], z = 0.0)`: the fields are the type's coordinates in
/// order; `z = ...` gives `to_dvec3`'s z for 2D types.
macro_rules! impl_point {
    ($t:ty, $s:ty, [$($c:ident),+] $(, z = $z:expr)?) => {
        impl Point for $t {
            type Scalar = $s;
            const DIM: usize = [$(stringify!($c)),+].len();
            #[inline]
            fn dot(self, other: Self) -> $s {
                <$t>::dot(self, other)
            }
            #[inline]
            fn length(self) -> $s {
                <$t>::length(self)
            }
            #[inline]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline]
            fn coord(self, i: usize) -> f64 {
                self[i] as f64
            }
            fn from_coords(c: &[f64]) -> Option<Self> {
                match c {
                    [$($c),+] => Some(<$t>::new($(*$c as $s),+)),
                    _ => None,
                }
            }
            #[inline]
            fn to_dvec3(self) -> DVec3 {
                DVec3::new($(self.$c as f64,)+ $($z)?)
            }
            #[inline]
            fn from_dvec3(v: DVec3) -> Self {
                <$t>::new($(v.$c as $s),+)
            }
        }
    };
}

impl_point!(Vec2, f32, [x, y], z = 0.0);
impl_point!(DVec2, f64, [x, y], z = 0.0);
impl_point!(Vec3, f32, [x, y, z]);
impl_point!(DVec3, f64, [x, y, z]);

/// A 2D point, `Vec2` or `DVec2`: what map-aware functions accept. They compute in `f64`
/// inside and give results in the caller's type.
///
/// ```
/// use glam::{DVec2, Vec2};
/// use pathsmooth::geometry::Point2;
/// assert_eq!(Vec2::new(1.5, 2.0).to_dvec2(), DVec2::new(1.5, 2.0));
/// assert_eq!(<Vec2 as Point2>::from_dvec2(DVec2::new(0.1, 0.0)).x, 0.1f32);
/// ```
pub trait Point2: Point {
    /// The point in `f64` (exact).
    fn to_dvec2(self) -> DVec2;
    /// The point from `f64` (rounded to nearest for `f32`).
    fn from_dvec2(v: DVec2) -> Self;
}

impl Point2 for DVec2 {
    #[inline]
    fn to_dvec2(self) -> DVec2 {
        self
    }
    #[inline]
    fn from_dvec2(v: DVec2) -> Self {
        v
    }
}

impl Point2 for Vec2 {
    #[inline]
    fn to_dvec2(self) -> DVec2 {
        self.as_dvec2()
    }
    #[inline]
    fn from_dvec2(v: DVec2) -> Self {
        v.as_vec2()
    }
}

/// Checks that a path has at least `needed` points and that every coordinate is finite.
///
/// Returns [`Error::EmptyPath`], [`Error::TooFewPoints`] (naming `method`) or
/// [`Error::NonFinite`] (naming the first bad index).
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::geometry::check_path;
/// assert!(check_path(&[Vec2::ZERO, Vec2::X], 2, "demo").is_ok());
/// assert!(check_path(&[Vec2::ZERO, Vec2::NAN], 2, "demo").is_err());
/// ```
pub fn check_path<P: Point>(path: &[P], needed: usize, method: &'static str) -> Result<()> {
    if path.is_empty() {
        return Err(Error::EmptyPath);
    }
    if let Some(index) = path.iter().position(|p| !p.is_finite()) {
        return Err(Error::NonFinite { index });
    }
    if path.len() < needed {
        return Err(Error::TooFewPoints {
            method,
            needed,
            got: path.len(),
        });
    }
    Ok(())
}

/// The angle in radians, in [0, π], between two direction vectors, or `None` when either
/// has zero length.
///
/// Uses Kahan's formula `2·atan2(|â − b̂|, |â + b̂|)`, which stays accurate for nearly
/// parallel and nearly opposite vectors where `acos` of the dot product loses half its
/// digits.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::geometry::angle_between;
/// let a = angle_between(DVec2::X, DVec2::Y).unwrap();
/// assert!((a - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
/// assert!(angle_between(DVec2::X, DVec2::ZERO).is_none());
/// ```
pub fn angle_between<P: Point>(a: P, b: P) -> Option<f64> {
    let a = a.to_dvec3();
    let b = b.to_dvec3();
    let (la, lb) = (a.length(), b.length());
    if la == 0.0 || lb == 0.0 || !la.is_finite() || !lb.is_finite() {
        return None;
    }
    let (ua, ub) = (a / la, b / lb);
    Some(2.0 * (ua - ub).length().atan2((ua + ub).length()))
}

/// The turn angle at vertex `b` of the polyline `a → b → c`: 0 for straight on, π for a
/// full reversal. `None` when `a == b` or `b == c` (no direction to measure).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::geometry::turn_angle;
/// let t = turn_angle(DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0)).unwrap();
/// assert!(t.abs() < 1e-12);
/// ```
pub fn turn_angle<P: Point>(a: P, b: P, c: P) -> Option<f64> {
    angle_between(b - a, c - b)
}

/// The 2D cross product (perp-dot) `a.x·b.y − a.y·b.x`: positive when `b` is
/// counter-clockwise from `a` in a y-up frame (clockwise on screen, where y points down).
///
/// ```
/// use glam::DVec2;
/// assert_eq!(pathsmooth::geometry::cross(DVec2::X, DVec2::Y), 1.0);
/// ```
#[inline]
pub fn cross(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b)
}

/// The point of segment `a`–`b` closest to `p` (`DVec2` or `DVec3`), and its parameter
/// t ∈ [0, 1].
/// A degenerate segment (`a == b`) returns `a` and t = 0.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::geometry::closest_on_segment;
/// let (q, t) = closest_on_segment(DVec2::new(0.5, 1.0), DVec2::ZERO, DVec2::X);
/// assert_eq!((q, t), (DVec2::new(0.5, 0.0), 0.5));
/// ```
pub fn closest_on_segment<V: Point<Scalar = f64>>(p: V, a: V, b: V) -> (V, f64) {
    let ab = b - a;
    let len2 = ab.dot(ab);
    if len2 == 0.0 {
        return (a, 0.0);
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    (a + ab * t, t)
}

/// The Euclidean distance between the closed segments `a`–`b` and `c`–`d`: 0 when they
/// touch or cross (decided with Shewchuk's exact orientation predicate, the `robust`
/// crate), else the smallest of the four endpoint-to-segment distances (two disjoint
/// segments are closest at an endpoint of one of them).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::geometry::segment_distance;
/// let d = |x: f64, y: f64| DVec2::new(x, y);
/// assert_eq!(segment_distance(d(0.0, 0.0), d(2.0, 0.0), d(1.0, 1.0), d(1.0, 3.0)), 1.0);
/// assert_eq!(segment_distance(d(0.0, 0.0), d(2.0, 2.0), d(0.0, 2.0), d(2.0, 0.0)), 0.0);
/// ```
pub fn segment_distance(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    if segments_touch(a, b, c, d) {
        return 0.0;
    }
    // Squared, and one root at the end: the root is monotone and correctly rounded, so
    // the root of the least square is the least of the four roots, bit for bit.
    let to = |p: DVec2, s: DVec2, e: DVec2| p.distance_squared(closest_on_segment(p, s, e).0);
    to(a, c, d)
        .min(to(b, c, d))
        .min(to(c, a, b))
        .min(to(d, a, b))
        .sqrt()
}

/// Sign of the exact orientation of `a`, `b`, `c`: 1 for a left (counter-clockwise) turn,
/// -1 for a right turn, 0 when collinear (Shewchuk's adaptive predicate, the `robust`
/// crate).
///
/// Cost: most calls end at the floating-point filter (two products and an error bound);
/// the exact stages run only when the filter cannot tell the sign, collinear points
/// among them.
pub(crate) fn orientation(a: DVec2, b: DVec2, c: DVec2) -> i8 {
    // robust's own first stage (its THETA, Ozaki et al.'s one-branch error bound), written
    // here to answer the sign at once: robust returns the determinant, whose sign then
    // costs two more comparisons, and the navmesh search asks this in every expansion
    // (docs/detour-peer.md, "Where the 7 % went"). robust offers no entry to its exact
    // stages alone, so an undecided case evaluates the filter once more there.
    const THETA: f64 = 3.330_669_062_177_372_2e-16;
    let detleft = (a.x - c.x) * (b.y - c.y);
    let detright = (a.y - c.y) * (b.x - c.x);
    let det = detleft - detright;
    let errbound = THETA * (detleft + detright).abs();
    if det > errbound {
        return 1;
    }
    if -det > errbound {
        return -1;
    }
    let v = robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    );
    i8::from(v > 0.0) - i8::from(v < 0.0)
}

/// True when the closed segments `a`–`b` and `c`–`d` share a point (exact).
pub(crate) fn segments_touch(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    // Segments whose boxes are apart share no point: no predicate to evaluate. Most pairs
    // a wall query meets are such, and a point's (a = b) orientations with the other
    // segment are exactly 0, which the predicate settles only in its slow exact stage.
    if a.max(b).cmplt(c.min(d)).any() || c.max(d).cmplt(a.min(b)).any() {
        return false;
    }
    // A shared end is a shared point, which the predicate would settle only in its slow
    // exact stage (the orientations with it are exactly 0): a path's corners on the
    // corners of the portals it crosses are most of the layered lift's tests.
    if a == c || a == d || b == c || b == d {
        return true;
    }
    // Their boxes meeting, they share a point exactly when the ends of each lie on both
    // sides of the other's line, or on it: then the lines cross on both segments, or, for
    // segments on one line (every orientation 0, points included), the boxes decide.
    let o = orientation;
    o(a, b, c) * o(a, b, d) <= 0 && o(c, d, a) * o(c, d, b) <= 0
}

/// Converts a path of any point type to `DVec2` (dropping z in 3D).
///
/// ```
/// use glam::{DVec2, Vec2};
/// let p = pathsmooth::geometry::to_dvec2(&[Vec2::new(1.0, 2.0)]);
/// assert_eq!(p, vec![DVec2::new(1.0, 2.0)]);
/// ```
pub fn to_dvec2<P: Point>(path: &[P]) -> Vec<DVec2> {
    path.iter()
        .map(|p| {
            let v = p.to_dvec3();
            DVec2::new(v.x, v.y)
        })
        .collect()
}

/// The largest coordinate magnitude the dimension-free algorithms accept for scalar `S`:
/// √MAX / 8 (about 2.3·10¹⁸ for `f32`, 1.7·10¹⁵³ for `f64`).
///
/// Within it, coordinate differences, squared distances and the spline tangents built from
/// them stay finite, so a finite input can never turn into an infinite or NaN output.
///
/// ```
/// use pathsmooth::geometry::max_coordinate;
/// assert!(max_coordinate::<f32>() > 1e18 && max_coordinate::<f32>() < 1e19);
/// ```
pub fn max_coordinate<S: Scalar>() -> f64 {
    S::max_value().to_f64().sqrt() / 8.0
}

/// The largest coordinate magnitude of worlds and map-aware work for scalar `S` (the
/// caller's point type): the smaller of [`max_coordinate`] and 2²⁰¹ ≈ 3.2·10⁶⁰, the range
/// of a navmesh vertex ([`MAX_COORDINATE`](crate::navmesh::mesh::MAX_COORDINATE), where
/// the triangulation's exact predicates hold), so every world can build its navmesh and
/// every length, squared distance and sum of lengths stays finite: 2.3·10¹⁸ for `f32`,
/// 3.2·10⁶⁰ for `f64`.
///
/// Worlds beyond it are refused when built (a [`GridWorld`](crate::GridWorld) whose far
/// corner reaches past it) or by the first map-aware call, and so are paths, starts,
/// goals and portals with such a coordinate: [`Error::CoordinateOutOfRange`].
///
/// ```
/// use pathsmooth::geometry::max_map_coordinate;
/// assert_eq!(max_map_coordinate::<f64>(), 2f64.powi(201));
/// assert!(max_map_coordinate::<f32>() > 2.3e18 && max_map_coordinate::<f32>() < 2.4e18);
/// ```
pub fn max_map_coordinate<S: Scalar>() -> f64 {
    max_coordinate::<S>().min(spade::MAX_ALLOWED_VALUE)
}

/// The library's tolerance for "touching" among coordinates up to `magnitude`: 10⁻⁹ of the
/// larger of 1 and `magnitude` (a world's [tolerance](crate::World::tolerance) is this at
/// its largest coordinate).
pub(crate) fn tolerance_at(magnitude: f64) -> f64 {
    1e-9 * magnitude.max(1.0)
}

/// The radius an agent of `radius` counts as where touching is decided to `tolerance`: 0
/// when `0 ≤ radius < tolerance` (a point agent: see the
/// [world contract](crate::world#tolerance)), else `radius` unchanged (a negative or NaN
/// radius is left for the caller to refuse). The one rule behind every map-aware
/// function's radius.
pub(crate) fn radius_in_effect(radius: f64, tolerance: f64) -> f64 {
    if (0.0..tolerance).contains(&radius) {
        0.0
    } else {
        radius
    }
}

/// Checks that every coordinate of `path` is finite and at most [`max_coordinate`] in
/// magnitude: [`Error::NonFinite`] names the first non-finite point,
/// [`Error::CoordinateOutOfRange`] the first one too large (whichever comes first).
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::geometry::check_magnitude;
/// use pathsmooth::Error;
/// assert!(check_magnitude(&[Vec2::new(1e6, -1e6)]).is_ok());
/// assert!(matches!(
///     check_magnitude(&[Vec2::ZERO, Vec2::new(1e30, 0.0)]),
///     Err(Error::CoordinateOutOfRange { index: Some(1), .. })
/// ));
/// ```
pub fn check_magnitude<P: Point>(path: &[P]) -> Result<()> {
    check_within(path, max_coordinate::<P::Scalar>())
}

/// Checks that every coordinate of `path` is finite and at most `limit` in magnitude
/// ([`Error::NonFinite`] or [`Error::CoordinateOutOfRange`], for the first bad point).
pub(crate) fn check_within<P: Point>(path: &[P], limit: f64) -> Result<()> {
    for (index, p) in path.iter().enumerate() {
        if !p.is_finite() {
            return Err(Error::NonFinite { index });
        }
        if let Some(value) = (0..P::DIM).map(|i| p.coord(i)).find(|c| c.abs() > limit) {
            return Err(Error::CoordinateOutOfRange {
                index: Some(index),
                value,
                limit,
            });
        }
    }
    Ok(())
}

/// True when the open convex polygons `ring` and `other` (either winding) overlap: no
/// separating axis among their edge normals (strict overlap on every axis).
pub(crate) fn convex_overlap(ring: &[DVec2], other: &[DVec2]) -> bool {
    fn normals(p: &[DVec2]) -> impl Iterator<Item = DVec2> + '_ {
        let n = p.len();
        (0..n).map(move |i| (p[(i + 1) % n] - p[i]).perp())
    }
    for axis in normals(ring).chain(normals(other)) {
        let span = |pts: &[DVec2]| {
            pts.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                    let d = p.dot(axis);
                    (a.min(d), b.max(d))
                })
        };
        let (p0, p1) = span(ring);
        let (s0, s1) = span(other);
        if !(p1 > s0 && s1 > p0) {
            return false;
        }
    }
    true
}

/// A corner of a convex polygon being clipped by a half-plane ([`clip_half_plane`]): its
/// plan-view position, and what a clip makes of it (a plain point, or a corner that
/// carries a height and flags).
pub(crate) trait ClipCorner: Copy {
    /// Its plan-view position.
    fn at(&self) -> DVec2;
    /// The corner a fraction `t` of the way from `self` to `next`, where the clip line
    /// crosses that side (`entering`: the side goes into the half-plane there).
    fn cut(&self, next: &Self, t: f64, entering: bool) -> Self;
    /// `self`, kept on the line, where its side leaves the half-plane.
    fn leaving(self) -> Self {
        self
    }
}

impl ClipCorner for DVec2 {
    fn at(&self) -> DVec2 {
        *self
    }
    fn cut(&self, next: &Self, t: f64, _: bool) -> Self {
        *self + t * (*next - *self)
    }
}

/// The part of the convex polygon `polygon` on the side `sign` of the line `a`–`b` (1:
/// left, −1: right; corners on the line kept): Sutherland–Hodgman against one half-plane.
pub(crate) fn clip_half_plane<P: ClipCorner>(
    polygon: &[P],
    a: DVec2,
    b: DVec2,
    sign: f64,
) -> Vec<P> {
    let side = |c: &P| sign * cross(b - a, c.at() - a);
    let n = polygon.len();
    let mut out = Vec::with_capacity(n + 1);
    for k in 0..n {
        let (u, v) = (polygon[k], polygon[(k + 1) % n]);
        let (fu, fv) = (side(&u), side(&v));
        if fu >= 0.0 {
            out.push(if fu == 0.0 && fv < 0.0 {
                u.leaving()
            } else {
                u
            });
        }
        if (fu > 0.0 && fv < 0.0) || (fu < 0.0 && fv > 0.0) {
            out.push(u.cut(&v, fu / (fu - fv), fu < 0.0));
        }
    }
    out
}

/// The part of the convex polygon `subject` inside the closed convex counter-clockwise
/// polygon `ring` (clipped by each of its sides in turn); fewer than 3 points when they do
/// not overlap.
pub(crate) fn convex_clip(subject: &[DVec2], ring: &[DVec2]) -> Vec<DVec2> {
    let m = ring.len();
    (0..m).fold(subject.to_vec(), |part, i| {
        clip_half_plane(&part, ring[i], ring[(i + 1) % m], 1.0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The orientation's sign against exact integer arithmetic (the oracle): corners that
    /// are multiples of 2⁻²² below 2²⁹ (every bit of an f64's mantissa in use, so the
    /// products round by far more than the determinant) whose exact determinant is 1, −1
    /// or 0 in those units.
    #[test]
    fn orientation_is_exact_for_nearly_collinear_points() {
        const STEP: f64 = 1.0 / (1u64 << 22) as f64;
        // x, y with r·x + s·y = gcd(r, s) (extended Euclid).
        fn bezout(r: i64, s: i64) -> (i64, i64, i64) {
            if s == 0 {
                (r, 1, 0)
            } else {
                let (g, x, y) = bezout(s, r % s);
                (g, y, x - (r / s) * y)
            }
        }
        let mut next = crate::test_fixtures::lcg(0x5EED);
        let mut big = || (next() >> 15) as i64 | 1 << 48; // in [2⁴⁸, 2⁴⁹)
        let mut seen = [0usize; 3];
        for k in 0..6_000 {
            let (a, r, s) = ([big(), big()], big(), big());
            let (g, x, y) = bezout(r, s);
            if g != 1 {
                continue;
            }
            // b − a = (r, s); c − a = (−y, x): r·x − s·(−y) = 1, a left turn by one unit².
            let b = [a[0] + r, a[1] + s];
            let c = match k % 3 {
                0 => [a[0] - y, a[1] + x],
                1 => [a[0] + y, a[1] - x],
                _ => [a[0] + 2 * r, a[1] + 2 * s],
            };
            let exact = ((a[0] - c[0]) as i128 * (b[1] - c[1]) as i128
                - (a[1] - c[1]) as i128 * (b[0] - c[0]) as i128)
                .signum() as i8;
            let point = |p: [i64; 2]| DVec2::new(p[0] as f64 * STEP, p[1] as f64 * STEP);
            let (fa, fb, fc) = (point(a), point(b), point(c));
            assert_eq!(orientation(fa, fb, fc), exact, "{a:?} {b:?} {c:?}");
            // Each cyclic order gives the same sign, each swap the opposite.
            assert_eq!(orientation(fb, fc, fa), exact);
            assert_eq!(orientation(fb, fa, fc), -exact);
            seen[(exact + 1) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 1_000), "{seen:?}");
    }

    /// Where the differences round too (corners of very different sizes, the third a few
    /// ulps off the line through the others), the filter's answer is the adaptive
    /// predicate's (`robust::orient2d`, the oracle here): a float sign, or a filter with
    /// too small an error bound, gets hundreds of these wrong.
    #[test]
    fn orientation_agrees_with_the_adaptive_predicate_where_differences_round() {
        let mut unit = crate::test_fixtures::lcg_uniform(0xD1FF);
        let mut decided_late = 0;
        for _ in 0..20_000 {
            let a = DVec2::new(unit(), unit());
            let b = DVec2::new(1e6 + 1e7 * unit(), 1e6 + 1e7 * unit());
            let t = unit();
            let on = a + (b - a) * t;
            let ulps = |x: f64, n: i64| f64::from_bits((x.to_bits() as i64 + n) as u64);
            let c = DVec2::new(
                ulps(on.x, (unit() * 5.0) as i64 - 2),
                ulps(on.y, (unit() * 5.0) as i64 - 2),
            );
            let v = robust::orient2d(
                robust::Coord { x: a.x, y: a.y },
                robust::Coord { x: b.x, y: b.y },
                robust::Coord { x: c.x, y: c.y },
            );
            let want = i8::from(v > 0.0) - i8::from(v < 0.0);
            assert_eq!(orientation(a, b, c), want, "{a} {b} {c}");
            assert_eq!(orientation(c, a, b), want);
            let plain = cross(a - c, b - c);
            decided_late += usize::from(plain.signum() as i8 != want || plain == 0.0);
        }
        // The cases where a float sign is wrong are common here (the test has teeth).
        assert!(decided_late > 1_000, "{decided_late}");
    }

    #[test]
    fn convex_clip_keeps_the_overlap() {
        let square = |lo: f64, hi: f64| {
            vec![
                DVec2::new(lo, lo),
                DVec2::new(hi, lo),
                DVec2::new(hi, hi),
                DVec2::new(lo, hi),
            ]
        };
        let part = convex_clip(&square(0.0, 2.0), &square(1.0, 3.0));
        let area: f64 = (0..part.len())
            .map(|i| cross(part[i], part[(i + 1) % part.len()]))
            .sum::<f64>()
            / 2.0;
        assert_eq!(area, 1.0);
        assert!(convex_clip(&square(0.0, 1.0), &square(2.0, 3.0)).len() < 3);
    }

    #[test]
    fn angle_is_accurate_near_zero_and_pi() {
        let tiny = 1e-9;
        let a = angle_between(DVec2::X, DVec2::new(1.0, tiny)).unwrap();
        assert!((a - tiny).abs() < 1e-18);
        let b = angle_between(DVec2::X, DVec2::new(-1.0, tiny)).unwrap();
        assert!((b - (std::f64::consts::PI - tiny)).abs() < 1e-15);
    }

    #[test]
    fn check_path_reports_first_bad_index() {
        let p = [Vec3::ZERO, Vec3::ONE, Vec3::new(0.0, f32::INFINITY, 0.0)];
        assert_eq!(check_path(&p, 2, "x"), Err(Error::NonFinite { index: 2 }));
        assert_eq!(
            check_path(&p[..1], 2, "x"),
            Err(Error::TooFewPoints {
                method: "x",
                needed: 2,
                got: 1
            })
        );
        assert_eq!(check_path::<Vec3>(&[], 2, "x"), Err(Error::EmptyPath));
    }

    #[test]
    fn coords_round_trip() {
        let p = DVec3::new(1.0, 2.0, 3.0);
        assert_eq!(DVec3::from_coords(&[1.0, 2.0, 3.0]), Some(p));
        assert_eq!(DVec2::from_coords(&[1.0, 2.0, 3.0]), None);
        assert_eq!(Vec2::from_dvec3(p), Vec2::new(1.0, 2.0));
        assert_eq!(p.coord(2), 3.0);
    }
}
