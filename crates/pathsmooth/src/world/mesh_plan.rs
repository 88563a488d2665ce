//! Planning on a navmesh: the query's path checked against the world and repaired
//! ([`path_on_mesh`], what [`NavMeshWorld`](crate::NavMeshWorld) and the pipeline's funnel
//! step return), and with area costs the cheapest channel's path or the shortest path,
//! whichever costs less.

use glam::DVec2;

use super::{check_ends, clearance_error, first_problem, path_cost, path_is_clear, settle, World};
use crate::area::AreaCosts;
use crate::error::{num, Error, Result};
use crate::navmesh::mesh::NavMesh;
use crate::navmesh::NavMeshQuery;

/// The navmesh path of [`NavMeshWorld`](crate::NavMeshWorld)'s [`find_path_into`](World::find_path_into) on
/// `mesh` (the world's free region), searched with `query` and checked against `world` (a
/// navmesh world, or a grid world and its own navmesh for the pipeline's funnel step), into
/// `out`.
///
/// Without `costs`, the query's shortest path (Polyanya at radius 0, the radius search
/// otherwise), checked and repaired as [`plan_on_mesh`] says. With `costs`, two
/// candidates, each checked and repaired so, and the cheaper under [`World::segment_cost`]
/// kept (the shortest on a tie):
///
/// 1. the shortest path in the cheapest channel
///    ([`NavMeshQuery::find_path_with_costs`]);
/// 2. the shortest path (this function without `costs`), which the channel search,
///    working on points of the edges, can miss when it is cheaper (a path that clips a
///    swamp's corner).
///
/// So the result never costs more than the shortest path. When both fail, the shortest
/// path's error is returned (the unit-cost planner's errors). Afterwards `query` holds
/// the cheapest channel's search. Cost: both searches, and one cost walk of each path;
/// no allocation once `query` and `out` have grown.
#[allow(clippy::too_many_arguments)]
pub(crate) fn path_on_mesh<W: World + ?Sized>(
    world: &W,
    mesh: &NavMesh,
    costs: Option<&AreaCosts>,
    query: &mut NavMeshQuery,
    start: DVec2,
    goal: DVec2,
    radius: f64,
    out: &mut Vec<DVec2>,
) -> Result<()> {
    let Some(costs) = costs else {
        return plan_on_mesh(world, query, start, goal, radius, out, |query, radius| {
            query.find_path(mesh, start, goal, radius).map(|_| ())
        });
    };
    let mut shortest = std::mem::take(&mut query.spare);
    let unit = path_on_mesh(world, mesh, None, query, start, goal, radius, &mut shortest);
    let cheapest = plan_on_mesh(world, query, start, goal, radius, out, |query, radius| {
        query
            .find_path_with_costs(mesh, costs, start, goal, radius)
            .map(|_| ())
    });
    let result = match (cheapest, unit) {
        (Ok(()), Ok(())) => {
            if path_cost(world, &shortest) <= path_cost(world, out) {
                out.clone_from(&shortest);
            }
            Ok(())
        }
        (Ok(()), Err(_)) => Ok(()),
        (Err(_), Ok(())) => {
            out.clone_from(&shortest);
            Ok(())
        }
        (Err(_), Err(e)) => Err(e),
    };
    query.spare = shortest;
    result
}

/// [`path_on_mesh`] with the search given: `search` runs `query` at the radius in effect
/// (leaving its path, channel and portals); its path is then checked against `world` and
/// repaired as `path_on_mesh` says.
pub(crate) fn plan_on_mesh<W: World + ?Sized>(
    world: &W,
    query: &mut NavMeshQuery,
    start: DVec2,
    goal: DVec2,
    radius: f64,
    out: &mut Vec<DVec2>,
    search: impl FnOnce(&mut NavMeshQuery, f64) -> Result<()>,
) -> Result<()> {
    let radius = check_ends(world, start, goal, radius)?;
    out.clear();
    search(query, radius)?;
    out.extend_from_slice(query.path());
    if radius == 0.0 {
        return Ok(());
    }
    // Outputs keep the radius itself, up to the error of computing a clearance.
    let accept = radius - clearance_error(world);
    if path_is_clear(world, out, accept) {
        return Ok(());
    }
    let first = first_problem(world, out, accept);
    if query.refunnel_into(radius, radius, out).is_ok() && path_is_clear(world, out, accept) {
        return Ok(());
    }
    query.portal_midpoints_into(out);
    if path_is_clear(world, out, accept) {
        return Ok(());
    }
    // Last, the funnel a hair inside the radius: in some passages exactly `2·radius` wide
    // (one-cell corridors at radius ½ on grid meshes) nothing else gets through. Its points
    // are then settled out to the radius itself where they can be (moved off the walls by
    // the shortfall, or onto the passage's centre line); what remains keeps the radius
    // within the world's tolerance, valid as input, and the pipeline's final check (which
    // asks for the radius itself) settles or refuses it.
    let tol = world.tolerance();
    if query.refunnel_into(radius, radius - 0.5 * tol, out).is_ok()
        && path_is_clear(world, out, (radius - tol).max(0.0))
    {
        // (A copy, in this rare case, to keep the path as found should settling leave it
        // worse somewhere.)
        let found = out.clone();
        settle(world, None, radius, out);
        if !path_is_clear(world, out, (radius - tol).max(0.0)) {
            out.clone_from(&found);
        }
        return Ok(());
    }
    out.clear();
    let reason = match first {
        Some((i, at)) => format!(
            "segment {i} comes closer than the radius {} to a wall near ({}, {})",
            num(radius),
            num(at.x),
            num(at.y)
        ),
        None => "the path is not clear".into(),
    };
    Err(Error::InvalidResult {
        step: "navmesh plan",
        reason,
    })
}
