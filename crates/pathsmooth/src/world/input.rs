//! The input checks of the map-aware functions: one place, one order, so that the same bad
//! input gets the same error from every public entry (the steps, the validator, the
//! pipeline, the worlds' path finders):
//!
//! 1. **the world**: its bounds within [`max_map_coordinate`] of the caller's scalar type
//!    ([`Error::CoordinateOutOfRange`] with no point index), and its narrower side at least
//!    1000 times its [tolerance](World::tolerance) ([`Error::BadParameter`] `world size`);
//! 2. **the points** (a path, or a start and a goal): not empty, then each point in order
//!    finite ([`Error::NonFinite`]) and within [`max_map_coordinate`]
//!    ([`Error::CoordinateOutOfRange`]), then as many points as the function needs;
//! 3. **the radius**: finite and ≥ 0 ([`Error::BadParameter`] `radius`); a radius below the
//!    world's tolerance is taken as 0 ([`agent_radius`]);
//! 4. for a path a step transforms, every point within the world's bounds, grown by the
//!    tolerance ([`Error::OutsideWorld`]; the validator reports such points instead).
//!
//! Cost: O(points), plus one `bounds` and one `tolerance` query of the world.

use glam::DVec2;

use super::{Bounds, World};
use crate::error::{Error, Result};
use crate::geometry::{check_within, max_map_coordinate, radius_in_effect, Point2, Scalar};

/// Checks `world`, `path` (at least `needed` points, for `method`) and `radius` (steps 1–3
/// of the [module docs](self)), copies the path into `out` in `f64`, and checks that every
/// point lies in the world (step 4). Returns the radius in effect ([`agent_radius`]).
pub(crate) fn check_input<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    needed: usize,
    method: &'static str,
    radius: f64,
    out: &mut Vec<DVec2>,
) -> Result<f64> {
    let radius = check_path_and_radius(world, path, needed, method, radius)?;
    out.clear();
    out.extend(path.iter().map(|p| p.to_dvec2()));
    check_in_bounds(world, out)?;
    Ok(radius)
}

/// Steps 1–3 of the [module docs](self) (no bounds test: the validator reports points
/// outside the world rather than refusing them). Returns the radius in effect.
pub(crate) fn check_path_and_radius<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    needed: usize,
    method: &'static str,
    radius: f64,
) -> Result<f64> {
    // The world's part once, not once per world type (the WebAssembly build's size).
    let (bounds, tolerance) = (world.bounds(), world.tolerance());
    let limit = max_map_coordinate::<P::Scalar>();
    world_fits(&bounds, tolerance, limit)?;
    if path.is_empty() {
        return Err(Error::EmptyPath);
    }
    check_within(path, limit)?;
    if path.len() < needed {
        return Err(Error::TooFewPoints {
            method,
            needed,
            got: path.len(),
        });
    }
    check_radius(radius)?;
    Ok(radius_in_effect(radius, tolerance))
}

/// Steps 1–3 for a start (point 0) and a goal (point 1), as a path finder takes them.
/// Returns the radius in effect.
pub(crate) fn check_ends<W: World + ?Sized>(
    world: &W,
    start: DVec2,
    goal: DVec2,
    radius: f64,
) -> Result<f64> {
    check_path_and_radius(world, &[start, goal], 2, "a path finder", radius)
}

/// Step 1: the world's extent within [`max_map_coordinate`]`::<S>()` (for the scalar type
/// of the caller's points: an `f32` path needs a world an `f32` can hold) and its size
/// next to its tolerance.
pub(crate) fn check_world<W: World + ?Sized, S: Scalar>(world: &W) -> Result<()> {
    world_fits(
        &world.bounds(),
        world.tolerance(),
        max_map_coordinate::<S>(),
    )
}

/// [`check_world`] of a world with bounds `b` and `tolerance`, for points whose scalar
/// type holds coordinates up to `limit`.
fn world_fits(b: &Bounds, tolerance: f64, limit: f64) -> Result<()> {
    // NaN bounds (a caller's world) are beyond any limit too.
    let beyond = |c: f64| c.is_nan() || c.abs() > limit;
    let corners = [b.min.x, b.min.y, b.max.x, b.max.y];
    if let Some(value) = corners.into_iter().find(|&c| beyond(c)) {
        return Err(Error::CoordinateOutOfRange {
            index: None,
            value,
            limit,
        });
    }
    check_scale(tolerance, b)
}

/// The agent radius a map-aware function works with: `radius` itself, or 0 when it is
/// below the world's [tolerance](World::tolerance). Such a radius is below what the
/// library can tell from touching (the validator accepts clearance down to
/// `radius − tolerance` < 0), so it means a point agent; taking it as 0 keeps the rules of
/// radius 0 (no squeezing through a pinch) and keeps radii like 10⁻³⁰⁰, whose squares
/// underflow, out of every clearance computation.
///
/// Errors: [`Error::BadParameter`] `radius` for a negative, NaN or infinite radius.
pub(crate) fn agent_radius<W: World + ?Sized>(world: &W, radius: f64) -> Result<f64> {
    check_radius(radius)?;
    Ok(radius_in_effect(radius, world.tolerance()))
}

/// A radius must be a non-negative number.
fn check_radius(radius: f64) -> Result<()> {
    if radius >= 0.0 && radius.is_finite() {
        Ok(())
    } else {
        Err(Error::param("radius", radius, "a finite number ≥ 0"))
    }
}

/// How much larger than its [tolerance](World::tolerance) a world must be, across its
/// narrower side, for the library to work on it.
const MIN_SIZE_IN_TOLERANCES: f64 = 1e3;

/// Refuses a world whose tolerance is not small next to its size: the tolerance is 10⁻⁹
/// times the largest coordinate, so a world 10 units wide placed at 10¹⁶ has a tolerance
/// of 10⁷ and "touching a wall" covers all of it (found by fuzzing: map-aware Chaikin then
/// returned a path through a wall). [`Error::BadParameter`] `world size`.
fn check_scale(tolerance: f64, b: &Bounds) -> Result<()> {
    if large_enough(b, tolerance) {
        Ok(())
    } else {
        Err(Error::param(
            "world size",
            (b.max - b.min).min_element(),
            "at least 1000 times the world's tolerance (10⁻⁹ × its largest coordinate): \
             the world is too far from the origin for its size",
        ))
    }
}

/// True when `b`'s narrower side is at least `MIN_SIZE_IN_TOLERANCES` times `tolerance`:
/// a world the library can work on (a world's constructor can ask before it is built).
pub(crate) fn large_enough(b: &Bounds, tolerance: f64) -> bool {
    (b.max - b.min).min_element() >= MIN_SIZE_IN_TOLERANCES * tolerance
}

/// Step 4: refuses a path with a point outside the world's bounds (a path in other units,
/// most often): [`Error::OutsideWorld`] names the first such point.
pub(crate) fn check_in_bounds<W: World + ?Sized>(world: &W, path: &[DVec2]) -> Result<()> {
    let b = world.bounds();
    let tol = world.tolerance();
    let grown = Bounds {
        min: b.min - DVec2::splat(tol),
        max: b.max + DVec2::splat(tol),
    };
    match path.iter().position(|&p| !grown.contains(p)) {
        None => Ok(()),
        Some(index) => Err(Error::OutsideWorld {
            index,
            x: path[index].x,
            y: path[index].y,
            min: b.min.to_array(),
            max: b.max.to_array(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GridMap, GridWorld};

    fn world() -> GridWorld {
        GridWorld::new(GridMap::from_rows(&["...."]).unwrap()).unwrap()
    }

    #[test]
    fn radii_below_the_tolerance_are_zero() {
        let w = world();
        assert_eq!(w.tolerance(), 4e-9); // 10⁻⁹ of the largest coordinate, 4
        for r in [0.0, 1e-300, 5e-324, 3.99e-9] {
            assert_eq!(agent_radius(&w, r), Ok(0.0));
        }
        assert_eq!(agent_radius(&w, 4e-9), Ok(4e-9));
        assert_eq!(agent_radius(&w, 0.25), Ok(0.25));
        for r in [-1e-300, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                agent_radius(&w, r),
                Err(Error::BadParameter { name: "radius", .. })
            ));
        }
    }

    #[test]
    fn the_order_of_the_checks() {
        let w = world();
        let mut out = Vec::new();
        let mut check = |path: &[DVec2], needed, radius| {
            check_input(&w, path, needed, "test", radius, &mut out)
        };
        let huge = DVec2::new(1e61, 0.0);
        let (a, nan) = (DVec2::new(0.5, 0.5), DVec2::NAN);
        assert_eq!(check(&[], 2, -1.0), Err(Error::EmptyPath));
        // The first bad point, whatever its kind, before the count and the radius.
        assert_eq!(
            check(&[a, nan, huge], 5, -1.0),
            Err(Error::NonFinite { index: 1 })
        );
        let out_of_range = Error::CoordinateOutOfRange {
            index: Some(1),
            value: 1e61,
            limit: max_map_coordinate::<f64>(),
        };
        assert_eq!(check(&[a, huge, nan], 5, -1.0), Err(out_of_range));
        assert!(matches!(
            check(&[a], 2, -1.0),
            Err(Error::TooFewPoints { .. })
        ));
        assert!(matches!(
            check(&[a, a], 2, -1.0),
            Err(Error::BadParameter { .. })
        ));
        assert!(matches!(
            check(&[a, DVec2::new(9.0, 0.5)], 2, 0.0),
            Err(Error::OutsideWorld { index: 1, .. })
        ));
        assert_eq!(check(&[a, a], 2, 1e-12), Ok(0.0));
    }

    /// The fuzz-found world of `tests/pipeline.rs`, 9.5 wide and 10¹⁶ tall (tolerance 10⁷),
    /// which the surface world's constructor refuses: the flat world under it takes it,
    /// and the pipeline and the steps refuse it.
    #[test]
    fn a_world_far_smaller_than_its_coordinates_is_refused_by_the_pipeline_and_the_steps() {
        use crate::navmesh::{NavMesh, Scene};
        let tall = Scene {
            boundary: vec![[0.0, 0.0], [9.5, 0.0], [9.5, 1.08e16], [0.0, 1.08e16]],
            holes: vec![],
        };
        let world = crate::world::NavMeshWorld::new(NavMesh::from_scene(&tall).unwrap());
        let too_small = |e: Error| {
            matches!(
                e,
                Error::BadParameter {
                    name: "world size",
                    ..
                }
            )
        };
        assert!(too_small(crate::Pipeline::new(&world, 0.0).unwrap_err()));
        let path = [
            DVec2::new(1.0, 1e15),
            DVec2::new(2.0, 2e15),
            DVec2::new(1.0, 3e15),
        ];
        let chaikin = crate::map_chaikin(&world, &path, 0.0, &Default::default());
        assert!(too_small(chaikin.unwrap_err()));
    }

    #[test]
    fn worlds_beyond_the_limit_of_the_callers_type_are_refused() {
        let w = GridWorld::with_frame(GridMap::from_rows(&["...."]).unwrap(), 1e18, DVec2::ZERO)
            .unwrap();
        assert_eq!(check_world::<_, f64>(&w), Ok(()));
        assert_eq!(
            check_world::<_, f32>(&w),
            Err(Error::CoordinateOutOfRange {
                index: None,
                value: 4e18,
                limit: max_map_coordinate::<f32>(),
            })
        );
    }
}
