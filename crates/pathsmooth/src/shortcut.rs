//! Line-of-sight shortcuts: drop the waypoints an agent can see past.
//!
//! This is the "cheating" post-processor of the pathfinding article *Grandpa, tell us
//! another story about pathfinding* (seed 004): "Starting at Node1, let's check if we can
//! reach the last node8 without leaving the mesh… nope. Node 7? No. Node6? Yes we can. So
//! we can delete Node 2|3|4|5." From each kept node the later nodes are tried from the last
//! one backwards and the first (farthest) one in line of sight is kept next; the nodes in
//! between are dropped. When no later node but the next is visible, the next one is kept
//! as it is.
//!
//! Line of sight is the world's segment test with the agent radius
//! ([`World::segment_is_clear`]): 0 means the validity rule (touching walls allowed, no
//! seams, no pinches), `r > 0` means clearance ≥ `r` along the new segment; a bend the
//! world refuses ([`World::bend_is_clear`], a grid's pinch) is not taken. So every new
//! segment is valid; segments of the input that are kept unchanged are as valid as they
//! were, and a valid input gives a valid output.
//!
//! **Area costs.** On a world with area costs ([`World::has_area_costs`]) a shortcut is
//! taken only when the new segment costs no more than the stretch of the path it replaces
//! ([`World::segment_cost`]), so the output never costs more than the input: the planner
//! went round the swamp, and the shortcut does not cut through it.
//!
//! **Parameters.** `radius`: larger radii keep shortcuts away from walls and cut less.
//!
//! **Properties.** Endpoints are kept; the output is a subsequence of the input, so it is
//! never longer (triangle inequality). As the article warns, the result still turns
//! sharply at the kept nodes and may graze wall corners (with radius 0); smooth it further
//! with the map-aware corner cutters of [`MapSafe`](crate::MapSafe).
//!
//! **Cost.** O(n · k) line-of-sight tests for n input and k output points, each
//! O(segment length) on a grid (× (r + 1) with a radius). [`Shortcutter`] keeps its
//! scratch buffers and writes into a caller's buffer, so repeated use allocates nothing.
//!
//! ```
//! use glam::{DVec2, IVec2};
//! use pathsmooth::{shortcut, GridMap, GridWorld, World};
//! let world = GridWorld::new(GridMap::from_rows(&["......", "......", "@@@@.."])?)?;
//! let raw = world.find_path(DVec2::new(0.5, 1.5), DVec2::new(5.5, 2.5), 0.0)?; // 6 cells
//! let short = shortcut(&world, &raw, 0.0)?;
//! // The direct line would cross the wall: along row 1, then diagonally down.
//! assert_eq!(short.len(), 3);
//! assert_eq!((short[0], short[2]), (DVec2::new(0.5, 1.5), DVec2::new(5.5, 2.5)));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use glam::DVec2;

use crate::area::not_costlier;
use crate::cancel::{Cancel, Checkpoint};
use crate::error::{Error, Result};
use crate::geometry::{check_path, orientation, Point2};
use crate::grid::los::segment_enters_open_box;
use crate::world::{check_input, Bounds, World};

/// Reusable line-of-sight shortcutting: owns its scratch buffers and takes the world per
/// call, so one shortcutter serves any number of worlds and repeated use allocates nothing
/// (see the module docs).
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::{GridMap, GridWorld, Shortcutter};
/// let world = GridWorld::new(GridMap::from_rows(&["....", "....", "...."])?)?;
/// let mut s = Shortcutter::new();
/// let mut out = Vec::new();
/// let path = [Vec2::new(0.5, 0.5), Vec2::new(1.5, 1.5), Vec2::new(3.5, 1.5)];
/// s.shortcut_into(&world, &path, 0.5, &mut out)?;
/// assert_eq!(out, vec![path[0], path[2]]);
/// s.shortcut_into(&world, &path, 0.6, &mut out)?; // the start is only 0.5 from the border
/// assert_eq!(out, path.to_vec());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Shortcutter {
    input: Vec<DVec2>,
    kept: Vec<usize>,
    /// Per input point, the first point of the straight run it ends (see [`runs`]).
    runs: Vec<usize>,
    /// The box round each [`CHUNK`] input points (see [`chunk_boxes`]).
    chunks: Vec<Bounds>,
    /// Prefix sums of the input's segment costs, on worlds with area costs.
    cost_to: Vec<f64>,
    cancel: Option<Cancel>,
}

impl Shortcutter {
    /// A shortcutter with empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Lets [`shortcut_into`](Self::shortcut_into) stop early: once `cancel` is cancelled
    /// (or its deadline passes) it returns [`Error::Cancelled`], within 1024 line-of-sight
    /// tests. `None` (the default) runs every call to its end. The shortcut's O(n · k)
    /// tests are the library's longest loop on long paths (seconds for a 500 000-cell A*
    /// path through a maze), hence the check.
    pub fn set_cancel(&mut self, cancel: Option<Cancel>) {
        self.cancel = cancel;
    }

    /// Writes the shortcut of `path` on `world` for an agent of radius `radius` into `out`
    /// (cleared first); the points are the input's own, in their own type.
    ///
    /// A radius below the world's tolerance is taken as 0.
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks):
    /// [`Error::EmptyPath`](crate::Error::EmptyPath),
    /// [`Error::NonFinite`](crate::Error::NonFinite),
    /// [`Error::CoordinateOutOfRange`](crate::Error::CoordinateOutOfRange),
    /// [`Error::BadParameter`](crate::Error::BadParameter) for a negative or NaN radius (or
    /// a world too small for its tolerance), and
    /// [`Error::OutsideWorld`](crate::Error::OutsideWorld) for a point outside the world's
    /// bounds (a path in other units), [`Error::Cancelled`] when its token (see
    /// [`set_cancel`](Self::set_cancel)) is cancelled before the walk ends.
    pub fn shortcut_into<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        out: &mut Vec<P>,
    ) -> Result<()> {
        let radius = check_input(world, path, 1, "shortcut", radius, &mut self.input)?;
        let input = &self.input;
        // With area costs a shortcut must not cost more than the stretch it replaces
        // (cutting through the swamp the planner went round).
        let costs = world.has_area_costs();
        self.cost_to.clear();
        if costs {
            let mut sum = 0.0;
            self.cost_to.push(0.0);
            for s in input.windows(2) {
                sum += world.segment_cost(s[0], s[1]);
                self.cost_to.push(sum);
            }
        }
        let cost_to = &self.cost_to;
        runs(input, &mut self.runs);
        chunk_boxes(input, &mut self.chunks);
        let (run_start, chunks) = (&self.runs, &self.chunks);
        // A shortcut i → j makes a new bend at i; it must be clear too (a grid's pinch at
        // radius 0).
        // Blocked boxes that stopped recent sight lines: neighbouring candidates are
        // usually stopped by the same wall, which one exact test detects before the world
        // walks the whole segment.
        // They are kept latest first, and one that stops a line moves to the front: the
        // candidates after it mostly meet the same wall.
        let mut blockers = [None::<Bounds>; 4];
        let mut point = Checkpoint::new(self.cancel.as_ref());
        farthest_visible(input.len(), &mut self.kept, &mut point, |kept, i, j| {
            let (a, b) = (input[i], input[j]);
            let known =
                |w: &Option<Bounds>| w.is_some_and(|w| segment_enters_open_box(a, b, w.min, w.max));
            // A box that stops the line to j and to the first point of j's straight run
            // stops every line to the run between: the points whose line from a enters a
            // convex box make a convex set.
            let down_to = |w: Bounds| blocked_down_to(input, run_start, chunks, i, j, w);
            if let Some(k) = blockers.iter().position(known) {
                let hit = blockers[k];
                to_front(&mut blockers, k, hit);
                return Err(hit.map_or(j, down_to));
            }
            if let Err(blocker) = world.clear_or_blocker(a, b, radius) {
                if blocker.is_some() {
                    let oldest = blockers.len() - 1;
                    to_front(&mut blockers, oldest, blocker);
                }
                return Err(blocker.map_or(j, down_to));
            }
            let bend_ok = match kept {
                [.., h, _] => world.bend_is_clear(input[*h], a, b, radius),
                _ => true,
            };
            let visible = bend_ok
                && (!costs || not_costlier(world.segment_cost(a, b), cost_to[j] - cost_to[i]));
            if visible {
                Ok(())
            } else {
                Err(j)
            }
        });
        out.clear();
        if point.stopped() {
            return Err(Error::Cancelled);
        }
        out.extend(self.kept.iter().map(|&i| path[i]));
        Ok(())
    }
}

/// Line-of-sight shortcuts of `path` (`Vec2` or `DVec2`, world units) on `world` for an
/// agent of radius `radius` (≥ 0); see the module docs. Use [`Shortcutter`] for repeated
/// calls without allocation.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{shortcut, GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&["...", ".@.", "..."])?)?;
/// // The wall's corner blocks the direct line: the corner node is kept.
/// let p = [DVec2::new(0.5, 2.5), DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)];
/// assert_eq!(shortcut(&world, &p, 0.0)?, p.to_vec());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn shortcut<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
) -> Result<Vec<P>> {
    let mut out = Vec::with_capacity(path.len());
    Shortcutter::new().shortcut_into(world, path, radius, &mut out)?;
    Ok(out)
}

/// The farthest-visible walk shared by [`Shortcutter`] and [`shortcut_by`]: from each kept
/// node `i`, the farthest later node `j` that `visible(kept so far, i, j)` accepts (the
/// next node when none is), trying them from the last backwards; `visible` says `Err(k)`
/// when neither `j` nor any node from `k` on up to it is visible, and the walk goes on
/// below `k`. `kept` receives the kept indices in order, the first and the last included.
/// Stops, with `kept` incomplete, once `point` says so (checked before each visibility
/// test).
fn farthest_visible(
    n: usize,
    kept: &mut Vec<usize>,
    point: &mut Checkpoint<'_>,
    mut visible: impl FnMut(&[usize], usize, usize) -> std::result::Result<(), usize>,
) {
    kept.clear();
    let last = n - 1;
    let mut i = 0;
    kept.push(0);
    while i < last {
        let (mut j, mut next) = (last, i + 1);
        while j > i + 1 {
            if point.stop() {
                return;
            }
            match visible(kept, i, j) {
                Ok(()) => {
                    next = j;
                    break;
                }
                Err(k) => j = k.clamp(i + 2, j) - 1,
            }
        }
        kept.push(next);
        i = next;
    }
}

/// Puts box `b` first in the blocker cache, the entries before `k` one place down (the
/// one at `k`, `b`'s old place or the oldest, is dropped).
fn to_front(cache: &mut [Option<Bounds>], k: usize, b: Option<Bounds>) {
    cache.copy_within(..k, 1);
    cache[0] = b;
}

/// How far down from `j` the lines from `path[i]` are stopped by the box `w`, which stops
/// the line to `path[j]`: to the first point of `j`'s straight run when `w` stops the line
/// to it too (and it is a candidate, after `i + 1`), else `j` alone; then on down over
/// every [`CHUNK`] of points below whose box `w` shadows whole (a wall beside `path[i]`
/// hides most of a long path at once). Both rest on one fact: the points whose line from
/// `path[i]` enters a convex box make a convex set, so a box holds every point of a
/// segment, or of a rectangle, whose ends, or corners, it holds; the test of each is exact.
/// Not generic, so that it is built once for every world (the WebAssembly build counts its
/// bytes).
#[inline(never)]
fn blocked_down_to(
    path: &[DVec2],
    run_start: &[usize],
    chunks: &[Bounds],
    i: usize,
    j: usize,
    w: Bounds,
) -> usize {
    let a = path[i];
    let hides = |p: DVec2| segment_enters_open_box(a, p, w.min, w.max);
    let s = run_start[j];
    let mut k = if s > i + 1 && s < j && hides(path[s]) {
        s
    } else {
        j
    };
    // The chunk holding `k - 1` (its points from `k` up are hidden already).
    while k > i + 2 {
        let c = (k - 1) / CHUNK;
        if !chunks[c].corners().into_iter().all(hides) {
            break;
        }
        k = c * CHUNK;
    }
    k
}

/// How many input points a box of [`chunk_boxes`] holds.
const CHUNK: usize = 8;

/// `boxes[c]`: the box round points `c · CHUNK` to `c · CHUNK + CHUNK − 1` of `path` (the
/// last chunk may hold fewer).
fn chunk_boxes(path: &[DVec2], boxes: &mut Vec<Bounds>) {
    boxes.clear();
    boxes.extend(
        path.chunks(CHUNK)
            .filter_map(|c| Bounds::around(c.iter().copied())),
    );
}

/// `start[k]` for each point `k` of `path`: the first point of the straight run that ends
/// at `k`, the points from it to `k` lying in order on one segment, exactly (the exact
/// orientation test, and each step in the run's direction); a run is at least the point
/// before. A grid path's straight and diagonal stretches are such runs. (Not inlined: one
/// copy serves every world.)
#[inline(never)]
fn runs(path: &[DVec2], start: &mut Vec<usize>) {
    start.clear();
    for k in 0..path.len() {
        let s = match k {
            0 | 1 => 0,
            _ => {
                let (s, p, q) = (start[k - 1], path[k - 1], path[k]);
                let onward = (q - p).dot(p - path[s]) > 0.0;
                if onward && orientation(path[s], p, q) == 0 {
                    s
                } else {
                    k - 1
                }
            }
        };
        start.push(s);
    }
}

/// Line-of-sight shortcuts with any visibility test: from each kept node, jump to the
/// farthest later node `visible` accepts (the next node when none is), dropping the nodes
/// between. This is how shortcuts work on a navmesh
/// ([`NavMesh::line_of_sight`](crate::navmesh::mesh::NavMesh::line_of_sight)) or any world
/// with its own raycast. `out` is cleared first; O(n²) visibility tests at worst.
///
/// ```
/// use glam::DVec2;
/// let path = [DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0), DVec2::new(2.0, 1.0)];
/// let mut out = Vec::new();
/// // Everything is visible except across the last corner.
/// pathsmooth::shortcut_by(&path, |a, b| a.y == b.y, &mut out)?;
/// assert_eq!(out, vec![path[0], path[2], path[3]]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn shortcut_by(
    path: &[DVec2],
    mut visible: impl FnMut(DVec2, DVec2) -> bool,
    out: &mut Vec<DVec2>,
) -> Result<()> {
    check_path(path, 1, "shortcut")?;
    out.clear();
    let mut kept = Vec::new();
    let mut never = Checkpoint::new(None);
    farthest_visible(path.len(), &mut kept, &mut never, |_, i, j| {
        if visible(path[i], path[j]) {
            Ok(())
        } else {
            Err(j)
        }
    });
    out.extend(kept.iter().map(|&i| path[i]));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Error, GridMap, GridWorld};

    fn world(rows: &[&str]) -> GridWorld {
        GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap()
    }

    #[test]
    fn duplicates_and_single_points() {
        let w = world(&["...."]);
        let a = DVec2::new(0.5, 0.5);
        assert_eq!(shortcut(&w, &[a], 0.0).unwrap(), vec![a]);
        assert_eq!(shortcut(&w, &[a, a, a], 0.0).unwrap(), vec![a, a]);
        assert_eq!(
            shortcut(&w, &[a], -0.1),
            Err(Error::param("radius", -0.1, "a finite number ≥ 0"))
        );
    }

    #[test]
    fn a_cancelled_token_stops_the_walk() {
        // A long straight path: thousands of visibility tests, the first one a success.
        let w = world(&[&".".repeat(3000)]);
        let path: Vec<DVec2> = (0..3000).map(|x| DVec2::new(x as f64 + 0.5, 0.5)).collect();
        let mut s = Shortcutter::new();
        let mut out = vec![DVec2::ZERO];
        let cancel = Cancel::new();
        s.set_cancel(Some(cancel.clone()));
        s.shortcut_into(&w, &path, 0.0, &mut out).unwrap();
        assert_eq!(out.len(), 2);
        cancel.cancel();
        assert_eq!(
            s.shortcut_into(&w, &path, 0.0, &mut out),
            Err(Error::Cancelled)
        );
        assert!(out.is_empty());
        s.set_cancel(None);
        s.shortcut_into(&w, &path, 0.0, &mut out).unwrap();
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn straight_runs_are_exactly_collinear_and_onward() {
        let p = |x: f64, y: f64| DVec2::new(x, y);
        // Along x, a turn, diagonally, a repeated point, back along the line, across.
        let path = [
            p(0.5, 0.5),
            p(1.5, 0.5),
            p(2.5, 0.5),
            p(3.5, 1.5),
            p(4.5, 2.5),
            p(4.5, 2.5),
            p(3.5, 1.5),
            p(3.5, 0.5),
            p(3.5, 0.1 + 0.2),
        ];
        let mut start = Vec::new();
        runs(&path, &mut start);
        assert_eq!(start, vec![0, 0, 0, 2, 2, 4, 5, 6, 6]);
    }

    #[test]
    fn farthest_visible_not_first_blocked() {
        // The path goes round a pillar and comes back into view: the farthest node wins.
        let w = world(&[".....", "..@..", "....."]);
        let p = [
            DVec2::new(0.5, 1.5),
            DVec2::new(1.5, 0.5),
            DVec2::new(3.5, 0.5),
            DVec2::new(3.5, 2.5),
            DVec2::new(1.5, 2.5),
            DVec2::new(0.5, 2.5),
        ];
        assert_eq!(shortcut(&w, &p, 0.0).unwrap(), vec![p[0], p[5]]);
    }

    #[test]
    fn no_shortcut_bends_through_a_pinch() {
        // Pinch at vertex (2, 2). The path reaches the vertex from above and leaves it to
        // the lower left; a shortcut from (2, 0.5) straight to the vertex then on to the
        // lower left would bend through the pinch.
        let (w, path) = crate::test_fixtures::pinch_world_and_path();
        let out = shortcut(&w, &path, 0.0).unwrap();
        assert!(crate::is_valid(&w, &out, 0.0), "{out:?}");
    }
}
