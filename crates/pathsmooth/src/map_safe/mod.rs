//! Map-safe smoothing: smooth a grid path without ever cutting through walls.
//!
//! Corner cutters such as Chaikin and Catmull-Rom know nothing of walls: on a path that
//! hugs a wall they cut through it. Two forms here guarantee that a **valid input path
//! always gives a valid output path** (valid as in [`crate::world`], with the agent radius):
//! [`MapSafe::chaikin`] (map-aware Chaikin, each corner cut as deeply as the walls allow)
//! and [`map_safe`] / [`MapSafe::smooth`] (any smoother, split at the corners it cannot
//! cut).
//!
//! # Map-aware Chaikin
//!
//! Map-aware Chaikin: Chaikin's corner cutting with every corner cut as deeply as the
//! walls allow ([`MapSafe::chaikin`], [`MapSafe::chaikin_adaptive`], [`map_chaikin`]).
//!
//! Chaikin's passes (see [`curve`](crate::curve#chaikin-corner-cutting)) with a cut ratio chosen **per corner**:
//! in each pass, walking the path from its start, interior vertex `P_i` is replaced by
//! [`corner_cut`](crate::curve::chaikin::corner_cut)`(P_{i−1}, P_i, P_{i+1}, t)` for the largest `t` in `r, r/2, …, r/32`
//! (`r` = [`ChaikinParams::ratio`](crate::ChaikinParams::ratio)) such that the cut segment between the two new points
//! keeps clearance strictly above the radius (one capped distance query), the leg from the
//! previous cut point is clear ([`segment_is_clear`](crate::World::segment_is_clear)), and (radius 0) no new bend squeezes
//! through a pinch ([`bend_pinch`](crate::grid::los::bend_pinch)). When no cut fits, the corner is kept. The pass writes
//! exactly the points each [`corner_cut`](crate::curve::chaikin::corner_cut) was tested with (as
//! [`chaikin_pass_ratios_into`](crate::curve::chaikin::chaikin_pass_ratios_into) would)
//! and is repeated [`passes`](crate::ChaikinParams::passes) times. Where walls are far, this is
//! classic Chaikin bit for bit, pass by pass on the distinct points (where the two cut
//! points of a reversal meet, the point is written once and the next pass cuts it).
//!
//! - **Why it stays valid.** Every segment and bend of the new pass is tested before it is
//!   kept, with the same tests as the validator. A kept corner's leg lies on an input
//!   segment, but its other end, the previous cut point, is rounded: where the segment
//!   touches a wall corner (or runs at exactly the radius) the rounded leg may clip it.
//!   Then the nearest cut corner before is kept too and the walk resumes from there; with
//!   every corner kept the pass is its (valid) input, so this ends. (With the default
//!   ratio ¼ on cell-centre paths the cut points are exact dyadic numbers on the segments
//!   and this almost never happens; random ratios in the property tests hit it often.)
//! - **Why strictly clear new points.** A path that touches a wall can be cut on the side
//!   away from the wall only. A new vertex placed exactly on a wall corner (say a cut point
//!   landing where a shortcut segment grazes a corner) could never be cut again, and the
//!   turn would stay concentrated there.
//! - **Parameters.** `ratio`: the deepest cut tried (¼ = Chaikin's rule; ½ cuts at
//!   midpoints); `passes`: rounds of cutting (each at most doubles the points); `radius`:
//!   the agent radius, as in the validator. `closed` must be false.
//! - **Cost.** Per pass and vertex, at most six candidate cuts, each a capped distance
//!   query and a segment test; so O(output × cells crossed per segment). A leg and bend
//!   that no cut touched are not tested again.
//!
//! **Adaptive** ([`MapSafe::chaikin_adaptive`]): the same passes, but only the corners
//! turning more than an angle limit are cut, as
//! [`chaikin_adaptive`](crate::curve::chaikin::chaikin_adaptive) does; where walls are far
//! the two give the same points. A corner the walls kept is tried again only after a cut
//! moved it or a neighbour. The world is queried only at the corners being cut, so a pass
//! over a long path with a few sharp corners costs O(n) arithmetic and a few queries (the
//! corridor step refines its paths this way).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::{ChaikinParams, GridMap, GridWorld, MapSafe};
//! use pathsmooth::is_valid;
//! // Around the wall cell (2, 1): the deepest cut (½) would clip it, ¼ does not.
//! let map = GridWorld::new(GridMap::from_rows(&["....", "..@.", "....", "...."])?)?;
//! let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5), DVec2::new(3.5, 3.5)];
//! let one = ChaikinParams { ratio: 0.5, passes: 1, closed: false };
//! let out = MapSafe::new().chaikin(&map, &path, 0.0, &one)?;
//! assert_eq!(out, [path[0], DVec2::new(2.75, 0.5), DVec2::new(3.5, 1.25), path[2]]);
//! assert!(is_valid(&map, &out, 0.0));
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! # Any smoother, split at the corners it cannot cut
//!
//! Any smoother made map-safe: split the path at the corners the smoother cannot cut
//! ([`MapSafe::smooth`], [`map_safe`]).
//!
//! **Strategy (divide and keep the corner).**
//! 1. Smooth the whole path and validate the result. If it is valid, keep it.
//! 2. Otherwise split the input at the interior vertex nearest the first collision of the
//!    smoothed path (the corner the smoother cut too deeply; the middle vertex when the
//!    smoother failed or moved the endpoints). That vertex is kept as a hard corner and the
//!    two pieces are treated the same way. Smoothers keep their endpoints, so smoothed
//!    pieces join at the split vertex. A piece of two points is a single input segment and
//!    is kept as it is, which is valid because the input is; so splitting ends, and only
//!    the corners where smoothing collides lose their smoothing.
//! 3. Joints: two valid pieces meeting at a vertex can only make the whole path invalid by
//!    bending through a pinch vertex there (radius 0). Such a joint turns both its pieces
//!    back into the input (which bends there validly), repeated until no joint is bad.
//!    A final validation guards the result; should it ever fail, the input is returned.
//!
//! A smoothed piece is rejected (and split) when the smoother fails on it, returns a
//! non-finite point, or does not keep the piece's endpoints. Errors from the smoother on
//! the whole path are returned, since they usually mean bad parameters.
//!
//! **Cost.** One smoothing and one validation when nothing collides; each colliding corner
//! costs a smoothing and validation of the piece holding it, so O(n · c) point work for c
//! kept corners (O(n²) in the worst case, where every corner collides). [`MapSafe`] keeps
//! the map's distance field for repeated use.
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::curve::{chaikin, ChaikinParams};
//! use pathsmooth::{is_valid, map_safe, GridMap, GridWorld};
//! // A path around the corner of a wall; cutting the corner clips the wall.
//! let map = GridWorld::new(GridMap::from_rows(&["....", "@@@.", "@@@.", "@@@."])?)?;
//! let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5), DVec2::new(3.5, 3.5)];
//! // Wall-blind corner cutting: one Chaikin pass at ratio ½ replaces each corner by the
//! // midpoints of its two legs.
//! let midpoints = ChaikinParams { ratio: 0.5, passes: 1, closed: false };
//! let cut = |p: &[DVec2]| chaikin(p, &midpoints);
//! assert!(!is_valid(&map, &cut(&path)?, 0.0));
//! let safe = map_safe(&map, &path, 0.0, cut)?;
//! assert!(is_valid(&map, &safe, 0.0));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

mod chaikin;
mod split;

use glam::DVec2;

use crate::error::{Error, Result};
use crate::geometry::Point2;
use crate::validate::validate;
use crate::world::{check_input, path_is_clear, settle, World};
use chaikin::Tail;

pub(crate) use chaikin::check_adaptive;
pub use chaikin::map_chaikin;
pub use split::map_safe;

/// Map-safe smoothing: map-aware Chaikin ([`chaikin`](Self::chaikin),
/// [`chaikin_into`](Self::chaikin_into), the adaptive forms) and any smoother split at the
/// corners it cannot cut ([`smooth`](Self::smooth)). It owns its scratch buffers and takes
/// the world per call, so once they have grown repeated use allocates nothing. A valid
/// input path always gives a valid output path (valid as in [`World`]'s contract, with the
/// agent radius).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{GridMap, GridWorld, MapSafe};
/// let map = GridWorld::new(GridMap::from_rows(&["....", "....", "...."])?)?;
/// let mut safe = MapSafe::new();
/// let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5)];
/// let out = safe.smooth(&map, &path, 0.0, |p: &[DVec2]| Ok(p.to_vec()))?;
/// assert_eq!(out, path.to_vec());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct MapSafe {
    b: Buffers,
}

/// The scratch of one run.
#[derive(Debug, Clone, Default)]
struct Buffers {
    /// The input in `f64`.
    input: Vec<DVec2>,
    /// Scratch of the corner-cutting passes: the current pass's path, the next one, the
    /// corners to cut, the chosen ratios, the corners forced to stay and the path's end
    /// before each vertex.
    cur: Vec<DVec2>,
    next: Vec<DVec2>,
    fresh: Vec<bool>,
    next_fresh: Vec<bool>,
    wanted: Vec<bool>,
    ratios: Vec<f64>,
    forced: Vec<bool>,
    tails: Vec<Tail>,
    /// The split's scratch (see `split`).
    split: split::Split,
}

/// One call's world and the smoother's buffers: the algorithms are written on it.
struct Run<'a, W: ?Sized> {
    world: &'a W,
    b: &'a mut Buffers,
}

impl MapSafe {
    /// A map-safe smoother with empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// This call's run on `world`.
    fn on<'a, W: World + ?Sized>(&'a mut self, world: &'a W) -> Run<'a, W> {
        Run {
            world,
            b: &mut self.b,
        }
    }
}

impl<W: World + ?Sized> Run<'_, W> {
    /// Copies `path` into `self.b.input` in `f64`; errors for a bad path or radius, or an
    /// input that is not valid itself. Returns the radius in effect
    /// ([`check_input`]) and whether the input passed the strict test (else the validator
    /// accepted it within the world's tolerance).
    fn load_input<P: Point2>(&mut self, path: &[P], radius: f64) -> Result<(f64, bool)> {
        let radius = self.copy_input(path, radius)?;
        if self.is_clear(&self.b.input, radius) {
            return Ok((radius, true));
        }
        // The strict test can refuse a path the validator accepts within the world's
        // tolerance (a point at exactly the radius, rounded): such an input is valid, and
        // every new piece is still tested strictly.
        match validate(self.world, &self.b.input, radius)?.problem() {
            None => Ok((radius, false)),
            Some(reason) => Err(Error::InvalidInputPath { reason }),
        }
    }

    /// Copies `path` into `self.b.input` in `f64`; errors for a bad world, path or radius,
    /// or a point outside the world ([`check_input`]). Does not test the path. Returns the
    /// radius in effect.
    fn copy_input<P: Point2>(&mut self, path: &[P], radius: f64) -> Result<f64> {
        check_input(self.world, path, 1, "map_safe", radius, &mut self.b.input)
    }

    /// The validity test without the report: stops at the first problem.
    fn is_clear(&self, path: &[DVec2], radius: f64) -> bool {
        path_is_clear(self.world, path, radius)
    }

    /// Appends `path` (computed in `f64`, clear for `radius`) to `out` in the caller's
    /// point type, still clear: rounding to `f32` can take a point cut exactly at the
    /// radius inside it, so such points are settled ([`settle`]). False, with `out` as it
    /// was, when no rounding of the path is clear (the caller then keeps its input).
    fn append_rounded<P: Point2>(&self, path: &[DVec2], radius: f64, out: &mut Vec<P>) -> bool {
        let from = out.len();
        out.extend(path.iter().map(|&p| P::from_dvec2(p)));
        let rounded_clear = |out: &[P]| {
            out.iter().zip(path).all(|(p, q)| p.to_dvec2() == *q)
                || path_is_clear(self.world, out, radius)
        };
        if rounded_clear(&out[from..]) {
            return true;
        }
        settle(self.world, Some(path), radius, &mut out[from..]);
        if rounded_clear(&out[from..]) {
            return true;
        }
        out.truncate(from);
        false
    }
}

/// The grid world of `rows` (a test map), for the tests of both algorithms.
#[cfg(test)]
fn world(rows: &[&str]) -> crate::GridWorld {
    crate::GridWorld::new(crate::grid::GridMap::from_rows(rows).unwrap()).unwrap()
}
