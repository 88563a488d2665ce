//! Points on a surface world: located (Detour's `findNearestPoly`) and moved along the
//! surface held to their floors (Detour's `moveAlongSurface`), a batch of rows a call.

use pathsmooth::glam::DVec3;
use pathsmooth::navmesh::SurfaceQuery;

use crate::{check_out, guard_named, input, mesh_of, Fail, PsPoint3d, PsStatus, PsWorld, Res};

/// Locates each of the `n` points of `points` on the surface world `world`, as its
/// pipelines locate their ends (the library's `SurfaceQuery::locate`, Detour's
/// `findNearestPoly`): the polygon the point stands over within the surface's climb of
/// its floor (`ps_world_surface_climb`), else the
/// nearest within RecastDemo's box (2 across, 4 up), and the point of it at the floor's
/// height there. Writes the polygons into `out_polygons` and the points into
/// `out_points` (room for `n` each; they may be the input buffers). All or nothing: on an
/// error nothing is written.
///
/// Errors (messages start with `ps_world_surface_locate:` and name the row): the pointer
/// and handle errors, `PS_INVALID_ARGUMENT` (a NaN, infinite or out-of-range
/// coordinate), `PS_OUTSIDE_WORLD` (a point with no polygon within the box),
/// `PS_UNSUPPORTED` for a grid or navmesh world.
///
/// # Safety
///
/// `world` a live world handle; `points` readable and the outputs writable for `n`
/// items (any may be NULL when `n` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_locate(
    world: *const PsWorld,
    n: usize,
    points: *const PsPoint3d,
    out_polygons: *mut u32,
    out_points: *mut PsPoint3d,
) -> PsStatus {
    guard_named("ps_world_surface_locate", || {
        let mesh = mesh_of(world, "ps_world_surface_locate")?;
        // SAFETY: the caller gives `n` readable points.
        let points = unsafe { input(points, n, 1, "points") }?.to_vec();
        check_out(out_polygons, n, "out_polygons")?;
        check_out(out_points, n, "out_points")?;
        let query = SurfaceQuery::new();
        let found = points
            .iter()
            .enumerate()
            .map(|(i, p)| query.locate(mesh, dvec(p)).map_err(|e| at_row(i, e)))
            .collect::<Res<Vec<_>>>()?;
        // SAFETY: checked non-NULL and aligned for `n` items; the inputs were copied out.
        unsafe { write_rows(&found, out_polygons, out_points) };
        Ok(())
    })
}

/// Moves each of `n` points on the surface world `world`: row `i` from `starts[i]`, a
/// point of polygon `polygons[i]` (as [`ps_world_surface_locate`] gives them), towards
/// `targets[i]` (at the agent's height: a height picks the floor only where a wall cuts the
/// straight way and several floors hold the target), held to the start's floor (a move under
/// a bridge stays under it), sliding along walls: the library's
/// `SurfaceQuery::move_along_surface`, Detour's `moveAlongSurface`, the move a crowd agent
/// or a character makes each frame. Writes each row's polygon into `out_polygons` and its
/// point into `out_points` (room for `n` each; they may be `polygons` and `starts`, to
/// move in place). All or nothing: on an error nothing is written.
///
/// Errors (messages start with `ps_world_surface_move_along:` and name the row, and the
/// row's start as point 0, its target as point 1): the pointer and handle errors,
/// `PS_INVALID_ARGUMENT` (a polygon out of range; a NaN, infinite or out-of-range
/// coordinate), `PS_OUTSIDE_WORLD` (a start outside its polygon
/// in plan view), `PS_UNSUPPORTED` for a grid or navmesh world.
///
/// # Safety
///
/// `world` a live world handle; `polygons`, `starts` and `targets` readable and the
/// outputs writable for `n` items (any may be NULL when `n` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_move_along(
    world: *const PsWorld,
    n: usize,
    polygons: *const u32,
    starts: *const PsPoint3d,
    targets: *const PsPoint3d,
    out_polygons: *mut u32,
    out_points: *mut PsPoint3d,
) -> PsStatus {
    guard_named("ps_world_surface_move_along", || {
        let mesh = mesh_of(world, "ps_world_surface_move_along")?;
        // SAFETY: the caller gives `n` readable items in each.
        let (polygons, starts, targets) = unsafe {
            (
                input(polygons, n, 1, "polygons")?.to_vec(),
                input(starts, n, 1, "starts")?.to_vec(),
                input(targets, n, 1, "targets")?.to_vec(),
            )
        };
        check_out(out_polygons, n, "out_polygons")?;
        check_out(out_points, n, "out_points")?;
        let mut query = SurfaceQuery::new();
        let moved = (0..n)
            .map(|i| {
                query
                    .move_along_surface(mesh, (polygons[i], dvec(&starts[i])), dvec(&targets[i]))
                    .map_err(|e| at_row(i, e))
            })
            .collect::<Res<Vec<_>>>()?;
        // SAFETY: checked non-NULL and aligned for `n` items; the inputs were copied out.
        unsafe { write_rows(&moved, out_polygons, out_points) };
        Ok(())
    })
}

fn dvec(p: &PsPoint3d) -> DVec3 {
    DVec3::new(p.x, p.y, p.z)
}

/// A library error of row `i`, its message naming the row.
fn at_row(i: usize, e: pathsmooth::Error) -> Fail {
    let fail = Fail::from(e);
    Fail {
        message: format!("row {i}: {}", fail.message),
        ..fail
    }
}

/// Writes each row's polygon and point.
///
/// # Safety
///
/// `polygons` and `points` non-NULL, aligned and writable for `rows.len()` items (or
/// `rows` empty).
unsafe fn write_rows(rows: &[(u32, DVec3)], polygons: *mut u32, points: *mut PsPoint3d) {
    for (i, &(p, at)) in rows.iter().enumerate() {
        // SAFETY: the caller's contract; row i < rows.len().
        unsafe {
            polygons.add(i).write(p);
            points.add(i).write(PsPoint3d {
                x: at.x,
                y: at.y,
                z: at.z,
            });
        }
    }
}
