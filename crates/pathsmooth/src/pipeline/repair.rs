//! Making a caller's path valid for the agent radius before smoothing it.

use glam::DVec2;

use crate::error::{Error, Result};
use crate::validate::validate;
use crate::world::World;

/// Writes into `out` a path valid for `radius` that follows `path` wherever `path` is
/// valid: from each point with room for the agent, the next segment is kept when it is
/// clear; otherwise the stretch up to the next point with room is re-planned on the world
/// ([`World::find_path_into`], with `query` and into `piece`). Returns the number of input
/// segments replaced.
///
/// The start and the goal must have room for the agent themselves ([`Error::TooClose`]).
/// A world that cannot find paths turns an invalid input into [`Error::InvalidInputPath`] with
/// the validator's reason.
///
/// Cost: one point and one segment test per input point, plus the re-planning.
pub(super) fn replan_invalid<W: World>(
    world: &W,
    path: &[DVec2],
    radius: f64,
    query: &mut W::Query,
    piece: &mut Vec<DVec2>,
    out: &mut Vec<DVec2>,
) -> Result<usize> {
    let room = |p: DVec2| world.segment_is_clear(p, p, radius);
    for (p, what) in [(path[0], "start"), (path[path.len() - 1], "goal")] {
        if !room(p) {
            return Err(Error::TooClose {
                what,
                x: p.x,
                y: p.y,
                clearance: world.clearance(p),
                radius,
            });
        }
    }
    out.clear();
    out.push(path[0]);
    let mut replaced = 0;
    // `last`: index in `path` of the point `out` ends with.
    let mut last = 0;
    let mut i = 1;
    while i < path.len() {
        let kept_bend = match out.as_slice() {
            [.., before, here] => world.bend_is_clear(*before, *here, path[i], radius),
            _ => true,
        };
        if last == i - 1 && kept_bend && world.segment_is_clear(path[last], path[i], radius) {
            out.push(path[i]);
            last = i;
            i += 1;
            continue;
        }
        // Re-plan from the last good point to the next point with room (the goal has it).
        let next = (i..path.len())
            .find(|&m| room(path[m]))
            .unwrap_or(path.len() - 1);
        world
            .find_path_into(path[last], path[next], radius, query, piece)
            .map_err(|e| match e {
                Error::Unsupported { .. } => Error::InvalidInputPath {
                    reason: validate(world, path, radius)
                        .ok()
                        .and_then(|r| r.problem())
                        .unwrap_or_else(|| "it is not clear for the radius".into()),
                },
                e => e,
            })?;
        out.extend(piece.iter().skip(1));
        replaced += next - last;
        last = next;
        i = next + 1;
    }
    Ok(replaced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{is_valid, GridMap, GridWorld};

    #[test]
    fn a_wall_hugging_path_is_replanned_with_room() {
        // A* at radius 0 runs along the wall; an agent of radius 0.6 needs the middle row.
        let rows = [".......", ".......", ".......", "@@@@@@@"];
        let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
        let hug: Vec<DVec2> = (1..6).map(|x| DVec2::new(x as f64 + 0.5, 2.5)).collect();
        let start = DVec2::new(1.5, 1.5);
        let goal = DVec2::new(5.5, 1.5);
        let path = [vec![start], hug, vec![goal]].concat();
        let mut out = Vec::new();
        let (mut query, mut piece) = Default::default();
        let n = replan_invalid(&world, &path, 0.6, &mut query, &mut piece, &mut out).unwrap();
        assert!(n > 0);
        assert!(is_valid(&world, &out, 0.6), "{out:?}");
        assert_eq!((out[0], *out.last().unwrap()), (start, goal));
    }

    #[test]
    fn ends_without_room_are_refused() {
        let world = GridWorld::new(GridMap::from_rows(&["....", "@@@@"]).unwrap()).unwrap();
        let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5)];
        let mut out = Vec::new();
        let (mut query, mut piece) = Default::default();
        let e = replan_invalid(&world, &path, 0.6, &mut query, &mut piece, &mut out).unwrap_err();
        assert!(matches!(e, Error::TooClose { what: "start", .. }), "{e}");
    }
}
