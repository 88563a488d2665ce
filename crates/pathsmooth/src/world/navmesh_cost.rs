//! Planning on a navmesh world with area costs: the cheapest channel's path, or the
//! shortest path when that costs no more.

use glam::DVec2;

use super::navmesh::{path_on_mesh, plan_on_mesh};
use super::{path_cost, World};
use crate::area::AreaCosts;
use crate::error::Result;
use crate::navmesh::mesh::NavMesh;
use crate::navmesh::NavMeshQuery;

/// The path of [`NavMeshWorld`](crate::NavMeshWorld)'s planner under `costs` from `start`
/// to `goal` on `mesh` (the world's free region), into `out`: two candidates, each
/// checked against `world` and repaired as the unit-cost planner's path is
/// ([`path_on_mesh`]), and the cheaper under [`World::segment_cost`] kept (the shortest
/// on a tie):
///
/// 1. the shortest path in the cheapest channel
///    ([`NavMeshQuery::find_path_with_costs`]);
/// 2. the shortest path (Polyanya at radius 0, the radius search otherwise), which the
///    channel search, working on edge midpoints, can miss when it is cheaper (a path
///    that clips a swamp's corner).
///
/// So the result never costs more than the shortest path. When both fail, the shortest
/// path's error is returned (the unit-cost planner's errors). Afterwards `query` holds
/// the cheapest channel's search. Cost: both searches, and one cost walk of each path.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_with_costs<W: World + ?Sized>(
    world: &W,
    mesh: &NavMesh,
    costs: &AreaCosts,
    query: &mut NavMeshQuery,
    start: DVec2,
    goal: DVec2,
    radius: f64,
    out: &mut Vec<DVec2>,
) -> Result<()> {
    let mut shortest = Vec::new();
    let unit = path_on_mesh(world, mesh, query, start, goal, radius, &mut shortest);
    let cheapest = plan_on_mesh(world, query, start, goal, radius, out, |query, radius| {
        query
            .find_path_with_costs(mesh, costs, start, goal, radius)
            .map(|_| ())
    });
    match (cheapest, unit) {
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
    }
}
