//! Path variations: translate, mirror, and start part-way along a path.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "Path variations".)

use crate::error::{Error, Result};
use crate::geometry::{check_magnitude, Point, Scalar};
use crate::metrics::segment_length;

/// Checks a path and an extra point (offset, pivot, normal) for finiteness and magnitude.
fn check_with<P: Point>(path: &[P], extra: P, name: &'static str) -> Result<()> {
    check_magnitude(path)?;
    if check_magnitude(&[extra]).is_err() {
        let bad = (0..P::DIM)
            .map(|i| extra.coord(i))
            .find(|c| !c.is_finite() || c.abs() > crate::geometry::max_coordinate::<P::Scalar>())
            .unwrap_or(f64::NAN);
        return Err(Error::param(name, bad, "finite, within max_coordinate()"));
    }
    Ok(())
}

/// Adds `offset` to every point of `path`, in place.
///
/// ```
/// use glam::Vec3;
/// use pathsmooth::curve::translate_in_place;
/// let mut p = [Vec3::ZERO, Vec3::X];
/// translate_in_place(&mut p, Vec3::Z).unwrap();
/// assert_eq!(p, [Vec3::Z, Vec3::new(1.0, 0.0, 1.0)]);
/// ```
pub fn translate_in_place<P: Point>(path: &mut [P], offset: P) -> Result<()> {
    check_with(path, offset, "offset")?;
    for p in path.iter_mut() {
        *p = *p + offset;
    }
    Ok(())
}

/// `path` moved by `offset`.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::translate;
/// assert_eq!(translate(&[DVec2::ONE], DVec2::X).unwrap(), vec![DVec2::new(2.0, 1.0)]);
/// assert!(translate(&[DVec2::ONE], DVec2::NAN).is_err());
/// ```
pub fn translate<P: Point>(path: &[P], offset: P) -> Result<Vec<P>> {
    let mut out = path.to_vec();
    translate_in_place(&mut out, offset)?;
    Ok(out)
}

/// Reflects `path` in place across the hyperplane through `pivot` with normal `normal`
/// (a line in 2D, a plane in 3D; `normal` need not be unit length).
///
/// Errors: [`Error::ZeroDirection`] (`which = "mirror normal"`) for a zero normal, and the
/// usual path / parameter errors.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::curve::mirror_in_place;
/// let mut p = [DVec3::new(1.0, 2.0, 3.0)];
/// mirror_in_place(&mut p, DVec3::ZERO, DVec3::new(0.0, 0.0, 2.0)).unwrap(); // across z = 0
/// assert_eq!(p[0], DVec3::new(1.0, 2.0, -3.0));
/// ```
pub fn mirror_in_place<P: Point>(path: &mut [P], pivot: P, normal: P) -> Result<()> {
    check_with(path, pivot, "pivot")?;
    check_with(path, normal, "normal")?;
    let len = normal.length();
    if len == P::Scalar::from_f64(0.0) {
        return Err(Error::ZeroDirection {
            which: "mirror normal",
        });
    }
    let n = normal / len;
    let two = P::Scalar::from_f64(2.0);
    for p in path.iter_mut() {
        *p = *p - n * (two * (*p - pivot).dot(n));
    }
    Ok(())
}

/// `path` reflected across the hyperplane through `pivot` with normal `normal`.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::mirror;
/// // Across the line y = 1 (normal along y).
/// let m = mirror(&[DVec2::new(3.0, 4.0)], DVec2::new(0.0, 1.0), DVec2::Y).unwrap();
/// assert_eq!(m, vec![DVec2::new(3.0, -2.0)]);
/// ```
pub fn mirror<P: Point>(path: &[P], pivot: P, normal: P) -> Result<Vec<P>> {
    let mut out = path.to_vec();
    mirror_in_place(&mut out, pivot, normal)?;
    Ok(out)
}

/// `path` reflected across the axis through `pivot` along `direction`: a line in 2D. For
/// 3D paths (z = height) the mirror is the vertical plane containing that axis, so only
/// the x and y of `direction` count and z is kept.
///
/// Errors: [`Error::ZeroDirection`] (`which = "mirror axis"`) if `direction`'s x and y are
/// both zero.
///
/// ```
/// use glam::{DVec2, Vec3};
/// use pathsmooth::curve::mirror_across_axis;
/// // Across the diagonal y = x: swaps coordinates.
/// let m = mirror_across_axis(&[DVec2::new(1.0, 5.0)], DVec2::ZERO, DVec2::ONE).unwrap();
/// assert!((m[0] - DVec2::new(5.0, 1.0)).length() < 1e-12);
/// let m3 = mirror_across_axis(&[Vec3::new(1.0, 0.0, 7.0)], Vec3::ZERO, Vec3::Y).unwrap();
/// assert_eq!(m3[0], Vec3::new(-1.0, 0.0, 7.0));
/// ```
pub fn mirror_across_axis<P: Point>(path: &[P], pivot: P, direction: P) -> Result<Vec<P>> {
    check_with(path, direction, "direction")?;
    let (dx, dy) = (direction.coord(0), direction.coord(1));
    if dx == 0.0 && dy == 0.0 {
        return Err(Error::ZeroDirection {
            which: "mirror axis",
        });
    }
    let mut normal = [0.0; 3];
    normal[0] = -dy;
    normal[1] = dx;
    let normal = P::from_coords(&normal[..P::DIM]).expect("DIM is 2 or 3");
    mirror(path, pivot, normal)
}

/// Writes into `out` (cleared first) the part of `path` from arc length `d` onward.
///
/// - Open (`closed = false`): `d` ∈ [0, L]; the result starts at the point at `d`, then
///   the following input points to the end (L gives the last point alone).
/// - Closed (`closed = true`): `path` is a loop whose closing edge from the last point
///   back to the first is implied; `d` is any finite number, taken modulo the loop's
///   length (negative counts backwards). The result is the same loop, starting at the
///   point at `d` and going once around (its closing edge again implied).
///
/// A start point falling exactly on an input point is not repeated. Duplicate points are
/// fine. Errors: [`Error::EmptyPath`], [`Error::NonFinite`], [`Error::BadParameter`]
/// (`distance` NaN, infinite, or outside [0, L] for an open path).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::start_at_distance_into;
/// let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
/// let mut out = Vec::with_capacity(8);
/// start_at_distance_into(&square, 5.5, true, &mut out).unwrap(); // 4 around + 1.5
/// assert_eq!(out, vec![DVec2::new(1.0, 0.5), DVec2::ONE, DVec2::Y, DVec2::ZERO, DVec2::X]);
/// ```
pub fn start_at_distance_into<P: Point>(
    path: &[P],
    d: f64,
    closed: bool,
    out: &mut Vec<P>,
) -> Result<()> {
    check_magnitude(path)?;
    if path.is_empty() {
        return Err(Error::EmptyPath);
    }
    let n = path.len();
    let edges = if closed { n } else { n - 1 };
    let edge = |i: usize| (path[i], path[(i + 1) % n]);
    let total: f64 = (0..edges)
        .map(|i| {
            let (a, b) = edge(i);
            segment_length(a, b)
        })
        .sum();
    let d = if closed {
        if !d.is_finite() {
            return Err(Error::param("distance", d, "a finite number"));
        }
        if total > 0.0 {
            d.rem_euclid(total)
        } else {
            0.0
        }
    } else {
        if !(0.0..=total).contains(&d) {
            return Err(Error::param("distance", d, "0 <= distance <= path length"));
        }
        d
    };
    // Find the edge holding arc length d, and where on it.
    let mut start = 0.0;
    let mut at = (edges, 0.0); // past the end: the last point (open) / first point (closed)
    for i in 0..edges {
        let (a, b) = edge(i);
        let len = segment_length(a, b);
        if d < start + len {
            at = (i, (d - start) / len);
            break;
        }
        start += len;
    }
    let (i, t) = at;
    out.clear();
    out.reserve(n + 1);
    if closed {
        let i = i % n; // d rounding to the full length means the first point
        let (a, b) = edge(i);
        if t > 0.0 {
            out.push(a.lerp(b, P::Scalar::from_f64(t)));
            out.extend((1..=n).map(|k| path[(i + k) % n]));
        } else {
            out.extend((0..n).map(|k| path[(i + k) % n]));
        }
    } else if i >= edges {
        out.push(path[n - 1]);
    } else {
        let (a, b) = edge(i);
        if t > 0.0 {
            out.push(a.lerp(b, P::Scalar::from_f64(t)));
        } else {
            out.push(a);
        }
        out.extend_from_slice(&path[i + 1..]);
    }
    Ok(())
}

/// Allocating form of [`start_at_distance_into`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::start_at_distance;
/// let p = [DVec2::ZERO, DVec2::new(10.0, 0.0)];
/// assert_eq!(start_at_distance(&p, 2.5, false).unwrap()[0], DVec2::new(2.5, 0.0));
/// assert!(start_at_distance(&p, 11.0, false).is_err());
/// assert_eq!(start_at_distance(&p, 22.5, true).unwrap()[0], DVec2::new(2.5, 0.0));
/// ```
pub fn start_at_distance<P: Point>(path: &[P], d: f64, closed: bool) -> Result<Vec<P>> {
    let mut out = Vec::new();
    start_at_distance_into(path, d, closed, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec2};

    #[test]
    fn open_start_on_vertices_and_ends() {
        let p = [DVec2::ZERO, DVec2::X, DVec2::X, DVec2::new(1.0, 2.0)];
        assert_eq!(start_at_distance(&p, 0.0, false).unwrap(), p.to_vec());
        assert_eq!(start_at_distance(&p, 1.0, false).unwrap(), p[2..].to_vec());
        assert_eq!(start_at_distance(&p, 3.0, false).unwrap(), vec![p[3]]);
        assert!(start_at_distance(&p, -0.1, false).is_err());
        assert!(start_at_distance(&p, f64::NAN, true).is_err());
    }

    #[test]
    fn closed_start_wraps_and_keeps_the_loop() {
        let p = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        let back = start_at_distance(&p, -0.5, true).unwrap();
        assert_eq!(back[0], DVec2::new(0.0, 0.5));
        assert_eq!(back.len(), 5);
        assert_eq!(back[1..], p[..]);
        let whole = start_at_distance(&p, 4.0, true).unwrap();
        assert_eq!(whole, p.to_vec());
        let single = start_at_distance(&[Vec2::ONE], 3.0, true).unwrap();
        assert_eq!(single, vec![Vec2::ONE]);
    }

    #[test]
    fn mirror_errors_and_3d_plane() {
        let p = [DVec3::new(1.0, 1.0, 1.0)];
        assert_eq!(
            mirror(&p, DVec3::ZERO, DVec3::ZERO),
            Err(Error::ZeroDirection {
                which: "mirror normal"
            })
        );
        assert!(mirror_across_axis(&p, DVec3::ZERO, DVec3::Z).is_err());
        let m = mirror(&p, DVec3::ONE, DVec3::ONE).unwrap();
        assert!((m[0] - DVec3::ONE).length() < 1e-15); // the pivot is on the plane
        assert!(mirror(&p, DVec3::NAN, DVec3::X).is_err());
    }
}
