//! Worlds: what map-aware smoothing needs to know about free space.
//!
//! A [`World`] answers a handful of questions in **world units**: how far a point is from
//! the blocked region, whether a segment keeps a given clearance, whether a bend squeezes
//! through a gap, and where the world ends. Every map-aware step of the library
//! ([`Shortcutter`](crate::Shortcutter), [`MapSafe`](crate::MapSafe), the
//! [validator](crate::validate) and the [`Pipeline`](crate::Pipeline)) is written against
//! this trait only, so it works the same on
//!
//! - a grid ([`GridWorld`]: an occupancy grid with a cell size and an origin, its exact
//!   distance field built once),
//! - a navmesh, flat or layered ([`SurfaceWorld`]: a flat navmesh is a surface of one
//!   floor, whose free region is the union of its polygons and whose walls are kept in a
//!   spatial index; where floors overlap in plan view, its answers are those of the
//!   one-floor sheet round the last path planned on it), and
//! - a caller's own world: implement [`World`] over an engine's queries (a sphere cast, a
//!   signed distance field, a physics scene), honouring the contract below.
//!
//! # The contract
//!
//! The **blocked region** `B` is a closed set (walls, obstacles, everything outside the
//! world). The **clearance** of a point is its Euclidean distance to `B` (0 on or inside
//! `B`). A segment is **clear for radius `r`** when
//!
//! - `r > 0`: every point of it has clearance ≥ `r`;
//! - `r = 0`: it does not enter the interior of `B` (touching `B`'s surface is allowed) and
//!   it does not pass through a gap of zero width (on grids, a pinch: a lattice vertex
//!   between two diagonally opposite blocked cells).
//!
//! A path is **valid** for `r` when every segment is clear for `r` and every bend is clear
//! ([`World::bend_is_clear`]). Each query may be *exact* or *conservative*, never
//! optimistic: [`clearance`](World::clearance) and
//! [`segment_clearance`](World::segment_clearance) may report less than the truth, never
//! more, and [`segment_is_clear`](World::segment_is_clear) may say "not clear" for a clear
//! segment, never "clear" for one that is not. Answers must be deterministic (the same
//! question gives the same answer), and a non-finite point is never free.
//!
//! # Tolerance
//!
//! Producers test clearance against `r` itself; the [validator](crate::validate)
//! accepts clearance down to `r − tolerance`, with the one tolerance of a world given by
//! [`World::tolerance`] (by default [`tolerance_for`] its bounds: 10⁻⁹ of the larger of 1 and
//! the largest coordinate magnitude). So a point built to sit exactly at clearance `r` and
//! rounded by one unit in the last place still validates, and the library's own outputs
//! always do.
//!
//! **A radius below the tolerance is 0.** Every map-aware function (the pipeline, the
//! steps, the validator, the worlds' path finders) takes an agent radius `r` with
//! `0 < r < tolerance` as `r = 0`: a point agent, with the rules of radius 0 (touching
//! allowed, no squeezing through a pinch). The validator could not tell such a radius from
//! touching anyway (it accepts clearance down to `r − tolerance` < 0), and radii like
//! 10⁻³⁰⁰, whose squares underflow, never reach a clearance computation. A world's own
//! queries are therefore asked about `r = 0` or `r ≥ tolerance` by the library, though
//! the grid and navmesh worlds answer exactly for any radius. The pipeline reports the
//! radius in effect ([`Pipeline::radius`](crate::Pipeline::radius)).
//!
//! # Coordinates and input checks
//!
//! A world's coordinates, and every point given to a map-aware function, must lie within
//! [`max_map_coordinate`](crate::geometry::max_map_coordinate) of the caller's scalar type:
//! 2²⁰¹ ≈ 3.2·10⁶⁰ for `f64` (the range of a navmesh vertex, so every world can build its
//! navmesh; its squares and sums of lengths are far from overflowing), 2.3·10¹⁸ for `f32`.
//! Beyond it lengths, squared distances or exact predicates would overflow, so such input is
//! refused up front with one error, [`Error::CoordinateOutOfRange`]: by
//! [`GridWorld::with_frame`] (and [`GridWorld::from_fn`]) for a grid whose origin or far
//! corner reaches past it, and by every map-aware function for a world (a caller's own) or
//! a point beyond it. Navmesh vertices are refused beyond the same limit when the mesh is
//! built ([`NavMesh`]'s coordinate range, with the ring or line named).
//!
//! Every public map-aware function checks its input in the same order, so the same bad
//! input gets the same error from each: the world (its extent within the limit; its
//! narrower side at least 1000 tolerances, else [`Error::BadParameter`] `world size`);
//! the points (an empty path is [`Error::EmptyPath`]; then, point by point, a NaN or
//! infinite coordinate is [`Error::NonFinite`] and one beyond the limit
//! [`Error::CoordinateOutOfRange`], the first bad point named; then too few points,
//! [`Error::TooFewPoints`]); the radius ([`Error::BadParameter`] `radius` unless finite
//! and ≥ 0); and for a path a step transforms, every point within the world's bounds
//! ([`Error::OutsideWorld`]; the validator reports such points as blocked instead).

pub(crate) mod grid;
mod grid_obstacles;
mod input;
mod mesh_obstacles;
mod mesh_plan;
mod navmesh;
mod obstacles;
#[cfg(test)]
mod one_floor_tests;
mod rounding;
mod route;
mod surface;
mod surface_obstacles;

pub use grid::{GridQuery, GridWorld};
pub(crate) use input::{
    agent_radius, check_ends, check_in_bounds, check_input, check_path_and_radius, check_world,
    large_enough,
};
pub(crate) use mesh_plan::path_on_mesh;
pub(crate) use navmesh::NavMeshWorld;
pub use obstacles::{Obstacle, ObstacleId, ObstacleWorld};
pub(crate) use rounding::{settle, turn_at_grazed_corners};
pub use surface::{SurfaceWorld, SurfaceWorldQuery};

use glam::DVec2;

use crate::cancel::Cancel;
use crate::error::{Error, Result};
use crate::geometry::Point2;
use crate::navmesh::mesh::NavMesh;

/// An axis-aligned rectangle in world units, `min` ≤ `max` componentwise.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::Bounds;
/// let b = Bounds::new(DVec2::ZERO, DVec2::new(4.0, 2.0));
/// assert!(b.contains(DVec2::new(4.0, 1.0)));
/// assert!(!b.contains(DVec2::new(4.5, 1.0)));
/// assert_eq!(b.size(), DVec2::new(4.0, 2.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The corner with the smallest coordinates.
    pub min: DVec2,
    /// The corner with the largest coordinates.
    pub max: DVec2,
}

impl Bounds {
    /// The rectangle spanned by two corners (in any order).
    pub fn new(a: DVec2, b: DVec2) -> Self {
        Bounds {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The smallest rectangle holding every point (`None` for no points).
    ///
    /// ```
    /// use glam::DVec2;
    /// let b = pathsmooth::Bounds::around([DVec2::new(1.0, 5.0), DVec2::new(3.0, -1.0)]).unwrap();
    /// assert_eq!((b.min, b.max), (DVec2::new(1.0, -1.0), DVec2::new(3.0, 5.0)));
    /// ```
    pub fn around(points: impl IntoIterator<Item = DVec2>) -> Option<Self> {
        points.into_iter().fold(None, |b, p| {
            Some(match b {
                None => Bounds { min: p, max: p },
                Some(b) => Bounds {
                    min: b.min.min(p),
                    max: b.max.max(p),
                },
            })
        })
    }

    /// True when `p` lies in the closed rectangle (false for NaN).
    pub fn contains(&self, p: DVec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// The four corners, counter-clockwise from `min`.
    pub(crate) fn corners(&self) -> [DVec2; 4] {
        let (lo, hi) = (self.min, self.max);
        [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)]
    }

    /// The distance between the segment `a`–`b` and the closed rectangle (0 when they
    /// meet).
    pub(crate) fn segment_distance(&self, a: DVec2, b: DVec2) -> f64 {
        crate::grid::distance::seg_box_dist2(a, b, self.min, self.max, f64::INFINITY).sqrt()
    }

    /// The distance between the closed rectangle and the bounding box of the segment
    /// `a`–`b` (0 when they meet): a lower bound on [`segment_distance`](Self::segment_distance)
    /// in a few operations (as computed, above it by a unit in the last place at most,
    /// where both are the distance between a corner and an end).
    pub(crate) fn box_distance(&self, a: DVec2, b: DVec2) -> f64 {
        crate::grid::distance::box_gap2(a, b, self.min, self.max).sqrt()
    }

    /// True when the open rectangle meets the open box `lo..hi` (their insides overlap;
    /// touching along a side or at a corner is not meeting).
    pub(crate) fn meets_inside(&self, lo: DVec2, hi: DVec2) -> bool {
        lo.cmplt(self.max).all() && hi.cmpgt(self.min).all()
    }

    /// The rectangle grown by `margin` on every side.
    pub(crate) fn grown(&self, margin: f64) -> Bounds {
        Bounds {
            min: self.min - margin,
            max: self.max + margin,
        }
    }

    /// True when the closed rectangle meets the bounding box of the segment `a`–`b`: the
    /// cheap test before an exact one (a segment that fails it misses the rectangle).
    pub(crate) fn meets_box_of(&self, a: DVec2, b: DVec2) -> bool {
        a.x.max(b.x) >= self.min.x
            && a.x.min(b.x) <= self.max.x
            && a.y.max(b.y) >= self.min.y
            && a.y.min(b.y) <= self.max.y
    }

    /// Width and height.
    pub fn size(&self) -> DVec2 {
        self.max - self.min
    }

    /// The largest coordinate magnitude of the rectangle.
    pub fn max_magnitude(&self) -> f64 {
        self.min.abs().max(self.max.abs()).max_element()
    }
}

/// The library's tolerance for "touching" in a world with these bounds: 10⁻⁹ of the
/// larger of 1 and the largest coordinate magnitude. See the [module docs](self).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{world::tolerance_for, Bounds};
/// assert_eq!(tolerance_for(&Bounds::new(DVec2::ZERO, DVec2::splat(0.5))), 1e-9);
/// assert!((tolerance_for(&Bounds::new(DVec2::ZERO, DVec2::splat(1000.0))) - 1e-6).abs() < 1e-18);
/// ```
pub fn tolerance_for(bounds: &Bounds) -> f64 {
    crate::geometry::tolerance_at(bounds.max_magnitude())
}

/// Free space as map-aware smoothing sees it. See the [module docs](self) for the contract
/// every implementation must honour (clearance never overestimated, clear never claimed
/// for a segment that is not).
///
/// A caller's own world needs [`bounds`](Self::bounds), [`clearance`](Self::clearance)
/// and [`segment_is_clear`](Self::segment_is_clear); the other methods have defaults
/// built on those. Here is a world of round pillars answered with closed forms (an engine
/// would call its sphere cast instead):
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::geometry::closest_on_segment;
/// use pathsmooth::{Bounds, Pipeline, Preset, World};
///
/// struct Pillars(Vec<(DVec2, f64)>);
///
/// impl World for Pillars {
///     type Query = (); // no path finder of its own
///     fn bounds(&self) -> Bounds {
///         Bounds::new(DVec2::ZERO, DVec2::splat(20.0))
///     }
///     fn clearance(&self, p: DVec2) -> f64 {
///         let b = self.bounds();
///         let border = (p - b.min).min(b.max - p).min_element();
///         let pillars = self.0.iter().map(|&(c, r)| p.distance(c) - r);
///         pillars.fold(border, f64::min).max(0.0)
///     }
///     fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
///         let inside = |p: DVec2| self.bounds().contains(p) && self.clearance(p) >= radius;
///         inside(a) && inside(b) && self.0.iter().all(|&(c, r)| {
///             closest_on_segment(c, a, b).0.distance(c) >= r + radius
///         })
///     }
/// }
///
/// let world = Pillars(vec![(DVec2::new(10.0, 10.0), 3.0)]);
/// let mut pipeline = Pipeline::preset(world, 0.5, Preset::Smooth)?;
/// let path = [DVec2::new(2.0, 10.0), DVec2::new(10.0, 2.0), DVec2::new(18.0, 10.0)];
/// let smooth = pipeline.smooth(&path)?;
/// assert!(pipeline.validate(&smooth)?.is_valid());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub trait World {
    /// The scratch of the world's path finder ([`find_path_into`](Self::find_path_into)):
    /// a [`GridQuery`] for a grid, a [`NavMeshQuery`](crate::NavMeshQuery) for a navmesh; `()` for a world
    /// without one. A pipeline keeps one, so repeated plans reuse its memory. (`where Self:
    /// Sized` keeps `dyn World` usable: a trait object answers every question but path
    /// finding.)
    type Query: Default + std::fmt::Debug + Send
    where
        Self: Sized;

    /// The world's extent: every free point lies inside it. Paths with a point outside are
    /// refused as not being in the world's units ([`Error::OutsideWorld`]).
    fn bounds(&self) -> Bounds;

    /// Distance from `p` to the blocked region, 0 on or inside it or for a non-finite
    /// point; exact or an underestimate.
    fn clearance(&self, p: DVec2) -> f64;

    /// True when `p`'s [clearance](Self::clearance) is at least `need` (false for a NaN
    /// `need`): the same answer, which a world may give without measuring the clearance in
    /// full. The default measures it; a navmesh looks only within `need` of `p` (its
    /// clearance searches outwards until it meets a wall, which in the open is far).
    fn has_clearance(&self, p: DVec2, need: f64) -> bool {
        self.clearance(p) >= need
    }

    /// True when the segment `a`–`b` is clear for an agent of radius `radius` ≥ 0 (see the
    /// [module docs](self)); exact or conservative. `a == b` asks about the point.
    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool;

    /// The smallest clearance along the segment `a`–`b`, or `cap` when it is at least
    /// `cap` (so callers can keep the query local); exact or an underestimate.
    ///
    /// The default bisects [`segment_is_clear`](Self::segment_is_clear) on the radius to a
    /// relative precision of 10⁻⁶ (about 25 queries, result rounded down); worlds with a
    /// distance query override it.
    fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        let cap = cap.min(self.clearance(a)).min(self.clearance(b));
        if cap.is_nan() || cap <= 0.0 || cap.is_infinite() {
            return if cap > 0.0 { cap } else { 0.0 };
        }
        if self.segment_is_clear(a, b, cap) {
            return cap;
        }
        let (mut lo, mut hi) = (0.0, cap);
        while hi - lo > 1e-6 * cap {
            let mid = 0.5 * (lo + hi);
            if self.segment_is_clear(a, b, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// True when a path may bend at `v`, coming from `prev` and going on to `next`, for an
    /// agent of radius `radius` (both segments being clear). Only worlds with gaps of
    /// zero width need this: a grid says no to a bend on a pinch vertex at radius 0.
    fn bend_is_clear(&self, prev: DVec2, v: DVec2, next: DVec2, radius: f64) -> bool {
        let _ = (prev, v, next, radius);
        true
    }

    /// Where on the segment `a`–`b` the first problem for `radius` lies (a point on or
    /// near the segment), or `None` when it is clear. The default reports the midpoint of
    /// an unclear segment; grids report the wall cell or pinch met first.
    fn first_contact(&self, a: DVec2, b: DVec2, radius: f64) -> Option<DVec2> {
        (!self.segment_is_clear(a, b, radius)).then(|| a.lerp(b, 0.5))
    }

    /// [`segment_is_clear`](Self::segment_is_clear) with a reason: `Ok(())` when clear;
    /// otherwise, where the world can name one, a box of blocked space (every point of its
    /// open inside is blocked) that the segment enters. Callers that test many nearby
    /// segments (the shortcutter) keep the boxes and reject later segments entering one
    /// with a single exact test, which on grids settles most failing sight lines. The
    /// default names no box.
    fn clear_or_blocker(&self, a: DVec2, b: DVec2, radius: f64) -> Result<(), Option<Bounds>> {
        if self.segment_is_clear(a, b, radius) {
            Ok(())
        } else {
            Err(None)
        }
    }

    /// The cost of walking the segment `a`–`b`: the integral along it of the multiplier
    /// of the area under each point ([`crate::area`]), infinite where it enters the blocked
    /// region. The default, for worlds without areas, is the segment's length. Worlds
    /// with areas compute it exactly (a grid walks its cells, a navmesh its triangles);
    /// where a piece runs along the border of two areas it costs the cheaper one.
    ///
    /// Smoothing compares costs only when [`has_area_costs`](Self::has_area_costs) says
    /// so: a step then accepts a change only when the cost of the stretch it replaces does
    /// not rise, and the [`Pipeline`](crate::Pipeline) checks the whole path's cost after
    /// each step and at the end.
    fn segment_cost(&self, a: DVec2, b: DVec2) -> f64 {
        a.distance(b)
    }

    /// True when some area costs other than 1, so that a path's cost differs from its
    /// length and smoothing must test costs. False by default (and for the default
    /// filter): the steps then run exactly as on a world without areas. Excluded areas
    /// need no test: they are part of the blocked region.
    fn has_area_costs(&self) -> bool {
        false
    }

    /// The world's area-cost filter, when it has one that
    /// [`has_area_costs`](Self::has_area_costs) applies (the grid and navmesh worlds): what the navmesh
    /// steps search their channel with, on a navmesh whose triangles carry areas. `None`
    /// by default.
    fn cost_filter(&self) -> Option<&crate::area::AreaCosts> {
        None
    }

    /// Appends to `out` the walls within `reach` of `p` (world units): segments with the
    /// wall on their left and free space on their right, the orientation of RVO2's obstacle
    /// edges, so that local avoidance ([`Crowd::with_avoidance`](crate::crowd::Crowd::with_avoidance))
    /// keeps agents off them. Every wall piece within `reach` is listed (a piece may come
    /// as more than one segment); some farther may be too.
    ///
    /// Default: none, for a world that cannot list its walls; avoidance then keeps agents
    /// off walls by [`segment_is_clear`](Self::segment_is_clear) alone (a step into a
    /// wall's reach is not taken).
    fn walls_near(&self, p: DVec2, reach: f64, out: &mut Vec<[DVec2; 2]>) {
        let _ = (p, reach, out);
    }

    /// The largest clearance of any free point, when the world knows it (grids do); used
    /// to refuse an agent too large for any free space ([`Error::NoRoom`]).
    fn max_clearance(&self) -> Option<f64> {
        None
    }

    /// The height of the floor at plan-view point `p`, for a world whose plan view lies on
    /// floors in 3D (a [`SurfaceWorld`]: the floor of its sheet under `p`); `None` for a
    /// flat world (the default), or where no floor of it lies under `p`. A crowd keeps each
    /// agent's height by it, so that agents on floors over one another never meet
    /// ([`Crowd::with_agent_height`](crate::crowd::Crowd::with_agent_height)).
    fn floor_height(&self, p: DVec2) -> Option<f64> {
        let _ = p;
        None
    }

    /// [`floor_height`](Self::floor_height) for a walker that asks again and again near
    /// where it last stood (a crowd agent, every frame): `hint` is the walker's own record
    /// of where that was, which a world that locates `p` reads first and updates (a
    /// navmesh: the triangle last found). The same answer whatever `hint` holds; any value
    /// starts one. Cost: one exact test where the walker has not left its triangle, else
    /// `floor_height`'s lookup.
    fn floor_height_near(&self, p: DVec2, hint: &mut u32) -> Option<f64> {
        let _ = hint;
        self.floor_height(p)
    }

    /// The tolerance for "touching" (see the [module docs](self)).
    fn tolerance(&self) -> f64 {
        tolerance_for(&self.bounds())
    }

    /// Writes into `out` (cleared first) a path from `start` to `goal` that is valid for
    /// `radius`, found on the world's own structure (grid A* through cells with room for
    /// the agent, or the navmesh's search), with its scratch in `query`. The
    /// [`Pipeline`](crate::Pipeline) then smooths it. Worlds without a path finder return
    /// [`Error::Unsupported`].
    ///
    /// A start equal to the goal has the one-point path `[start]` (the grid and navmesh
    /// worlds return it when the point has room for the agent), and the input is checked
    /// as every map-aware input is (see the [module docs](self#coordinates-and-input-checks)).
    fn find_path_into(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        query: &mut Self::Query,
        out: &mut Vec<DVec2>,
    ) -> Result<()>
    where
        Self: Sized,
    {
        let _ = (start, goal, radius, query, out);
        Err(Error::Unsupported {
            what: "finding a path from start to goal",
            needs: "a world with a path finder (a grid or a navmesh)",
        })
    }

    /// [`find_path_into`](Self::find_path_into) with a fresh query and output (allocates
    /// both; keep a [`Query`](Self::Query) for repeated calls).
    fn find_path(&self, start: DVec2, goal: DVec2, radius: f64) -> Result<Vec<DVec2>>
    where
        Self: Sized,
    {
        let mut out = Vec::new();
        self.find_path_into(start, goal, radius, &mut Self::Query::default(), &mut out)?;
        Ok(out)
    }

    /// [`find_path_into`](Self::find_path_into) that a [`Cancel`] token can stop: once it
    /// is cancelled (or its deadline passes) the search ends with [`Error::Cancelled`].
    /// Grids check the token every 1024 cells they expand; the default (navmeshes and a
    /// caller's worlds, whose searches are fast) checks it once before searching. Cost:
    /// that of [`find_path_into`](Self::find_path_into), plus one atomic load (and a clock
    /// read with a deadline) per check.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{Cancel, Error, GridMap, GridQuery, GridWorld, World};
    /// let world = GridWorld::new(GridMap::from_rows(&["....", "...."])?)?;
    /// let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(3.5, 1.5));
    /// let (cancel, mut query, mut out) = (Cancel::new(), GridQuery::default(), Vec::new());
    /// world.find_path_cancellable_into(a, b, 0.0, &cancel, &mut query, &mut out)?;
    /// assert_eq!(out.len(), 4);
    /// cancel.cancel();
    /// let e = world.find_path_cancellable_into(a, b, 0.0, &cancel, &mut query, &mut out);
    /// assert_eq!(e, Err(Error::Cancelled));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    fn find_path_cancellable_into(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        cancel: &Cancel,
        query: &mut Self::Query,
        out: &mut Vec<DVec2>,
    ) -> Result<()>
    where
        Self: Sized,
    {
        cancel.check()?;
        self.find_path_into(start, goal, radius, query, out)
    }

    /// The path finder of a [`Pipeline`](crate::Pipeline)'s plan, which owns the world:
    /// [`find_path_cancellable_into`](Self::find_path_cancellable_into) with a token,
    /// [`find_path_into`](Self::find_path_into) without, after which a world whose
    /// plan-view answers hold around one path at a time may change them to answer around
    /// this one, for the steps that follow. A [`SurfaceWorld`] locates the 2D ends on its
    /// floors and cuts the one-floor sheet round the path here. The default changes
    /// nothing; a world behind a reference or an `Arc` cannot be changed, and uses it.
    ///
    /// Errors and cost: those of the search, and what the world does to follow the path.
    fn find_path_for_run_into(
        &mut self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        cancel: Option<&Cancel>,
        query: &mut Self::Query,
        out: &mut Vec<DVec2>,
    ) -> Result<()>
    where
        Self: Sized,
    {
        search_into(self, start, goal, radius, cancel, query, out)
    }

    /// The world's navmesh, for the navmesh steps (funnel, portal relaxation). A grid
    /// builds its own on first use; other worlds return [`Error::Unsupported`].
    fn navmesh(&self) -> Result<&NavMesh> {
        Err(Error::Unsupported {
            what: "the funnel and portal relaxation",
            needs: "a navmesh (a grid or a navmesh world)",
        })
    }
}

/// A world behind a pointer is a world: a reference (pipelines and smoothers borrow one),
/// an `Arc` (a world shared by threads and bindings) or a `Box`, with the pointee's query.
/// (A `dyn World` is used through `&dyn World` directly: the functions that take a world
/// take `W: World + ?Sized`; it has no path finder, whose query type it cannot name.) One list of forwarded methods for all three, so a method added
/// to [`World`] cannot be forgotten by one of them (a forgotten one would silently fall
/// back to its default, e.g. a length for a cost).
macro_rules! forward_world {
    ($($pointer:ty $({ $($mutable:item)* })?),*) => {$(
        impl<W: World> World for $pointer {
            type Query = W::Query;
            $($($mutable)*)?
            fn bounds(&self) -> Bounds {
                (**self).bounds()
            }
            fn clearance(&self, p: DVec2) -> f64 {
                (**self).clearance(p)
            }
            fn has_clearance(&self, p: DVec2, need: f64) -> bool {
                (**self).has_clearance(p, need)
            }
            fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
                (**self).segment_is_clear(a, b, radius)
            }
            fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
                (**self).segment_clearance(a, b, cap)
            }
            fn bend_is_clear(&self, prev: DVec2, v: DVec2, next: DVec2, radius: f64) -> bool {
                (**self).bend_is_clear(prev, v, next, radius)
            }
            fn first_contact(&self, a: DVec2, b: DVec2, radius: f64) -> Option<DVec2> {
                (**self).first_contact(a, b, radius)
            }
            fn clear_or_blocker(&self, a: DVec2, b: DVec2, radius: f64) -> Result<(), Option<Bounds>> {
                (**self).clear_or_blocker(a, b, radius)
            }
            fn walls_near(&self, p: DVec2, reach: f64, out: &mut Vec<[DVec2; 2]>) {
                (**self).walls_near(p, reach, out)
            }
            fn max_clearance(&self) -> Option<f64> {
                (**self).max_clearance()
            }
            fn floor_height(&self, p: DVec2) -> Option<f64> {
                (**self).floor_height(p)
            }
            fn floor_height_near(&self, p: DVec2, hint: &mut u32) -> Option<f64> {
                (**self).floor_height_near(p, hint)
            }
            fn segment_cost(&self, a: DVec2, b: DVec2) -> f64 {
                (**self).segment_cost(a, b)
            }
            fn has_area_costs(&self) -> bool {
                (**self).has_area_costs()
            }
            fn cost_filter(&self) -> Option<&crate::area::AreaCosts> {
                (**self).cost_filter()
            }
            fn tolerance(&self) -> f64 {
                (**self).tolerance()
            }
            fn find_path_into(
                &self,
                start: DVec2,
                goal: DVec2,
                radius: f64,
                query: &mut W::Query,
                out: &mut Vec<DVec2>,
            ) -> Result<()> {
                (**self).find_path_into(start, goal, radius, query, out)
            }
            fn find_path(&self, start: DVec2, goal: DVec2, radius: f64) -> Result<Vec<DVec2>> {
                (**self).find_path(start, goal, radius)
            }
            fn find_path_cancellable_into(
                &self,
                start: DVec2,
                goal: DVec2,
                radius: f64,
                cancel: &Cancel,
                query: &mut W::Query,
                out: &mut Vec<DVec2>,
            ) -> Result<()> {
                (**self).find_path_cancellable_into(start, goal, radius, cancel, query, out)
            }
            fn navmesh(&self) -> Result<&NavMesh> {
                (**self).navmesh()
            }
        }
    )*};
}

/// `world`'s search with `cancel` when given
/// ([`find_path_cancellable_into`](World::find_path_cancellable_into)), without it
/// ([`find_path_into`](World::find_path_into)) when not.
pub(crate) fn search_into<W: World>(
    world: &W,
    start: DVec2,
    goal: DVec2,
    radius: f64,
    cancel: Option<&Cancel>,
    query: &mut W::Query,
    out: &mut Vec<DVec2>,
) -> Result<()> {
    match cancel {
        Some(c) => world.find_path_cancellable_into(start, goal, radius, c, query, out),
        None => world.find_path_into(start, goal, radius, query, out),
    }
}

// A box owns its world, so a pipeline's plan reaches it (a reference and an `Arc` keep the
// default: they cannot change the world they share).
forward_world!(&W, std::sync::Arc<W>, Box<W> {
    fn find_path_for_run_into(
        &mut self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        cancel: Option<&Cancel>,
        query: &mut W::Query,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        (**self).find_path_for_run_into(start, goal, radius, cancel, query, out)
    }
});

/// True when every segment and bend of `path` is clear for `radius` (stops at the first
/// problem; no report). A one-point path asks about the point.
pub(crate) fn path_is_clear<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
) -> bool {
    first_problem(world, path, radius).is_none()
}

/// The first segment (or bend) of `path` that is not clear for `radius`, as the index of
/// its first point and a location near the problem.
pub(crate) fn first_problem<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
) -> Option<(usize, DVec2)> {
    let at = |i: usize| path[i].to_dvec2();
    if let [p] = path {
        let p = p.to_dvec2();
        return world.first_contact(p, p, radius).map(|at| (0, at));
    }
    for i in 0..path.len().saturating_sub(1) {
        if let Some(contact) = world.first_contact(at(i), at(i + 1), radius) {
            return Some((i, contact));
        }
    }
    bends(path).find_map(|(prev, i, next)| {
        (!world.bend_is_clear(at(prev), at(i), at(next), radius)).then_some((i, at(i)))
    })
}

/// The cost of `path` on `world` ([`World::segment_cost`] summed over its segments): its
/// length on a world without area costs.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{world::path_cost, GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&[".S."])?)?.with_area_costs("S=3".parse()?)?;
/// let path = [DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)];
/// assert_eq!(path_cost(&world, &path), 0.5 + 3.0 + 0.5);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn path_cost<W: World + ?Sized, P: Point2>(world: &W, path: &[P]) -> f64 {
    path.windows(2)
        .map(|s| world.segment_cost(s[0].to_dvec2(), s[1].to_dvec2()))
        .sum()
}

/// The bends of a path with consecutive duplicates skipped, as (previous distinct point,
/// the bend point, next distinct point) indices.
pub(crate) use crate::grid::los::bends;

/// The error of computing a clearance on `world` in floating point: 64 units in the last
/// place of its largest coordinate (10⁻¹⁴ of it). An output keeps the radius itself up to
/// this; the world's [tolerance](World::tolerance), 10⁵ times larger, is for input only.
pub(crate) fn clearance_error<W: World + ?Sized>(world: &W) -> f64 {
    64.0 * f64::EPSILON * world.bounds().max_magnitude().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment's box is never farther from a rectangle than the segment is, and the two
    /// agree where the segment runs along an axis.
    #[test]
    fn the_box_distance_bounds_the_segment_distance_from_below() {
        let unit = Bounds::new(DVec2::ZERO, DVec2::ONE);
        let (a, b) = (DVec2::new(3.0, 0.5), DVec2::new(3.0, 5.0));
        assert_eq!(unit.box_distance(a, b), 2.0);
        assert_eq!(unit.segment_distance(a, b), 2.0);
        let (a, b) = (DVec2::new(2.0, 3.0), DVec2::new(3.0, 2.0));
        assert_eq!(unit.box_distance(a, b), 2f64.sqrt());
        assert!((unit.segment_distance(a, b) - 3.0 / 2f64.sqrt()).abs() < 1e-15);
        let mut next = crate::test_fixtures::uniform(91);
        let mut point = || DVec2::new(next(), next()) * 20.0 - 10.0;
        for _ in 0..10_000 {
            let r = Bounds::new(point(), point());
            let (a, b) = (point(), point());
            let (near, exact) = (r.box_distance(a, b), r.segment_distance(a, b));
            assert!(
                near <= exact * (1.0 + 1e-15),
                "{r:?} {a} {b}: {near} > {exact}"
            );
            assert_eq!(near == 0.0, r.meets_box_of(a, b), "{r:?} {a} {b}");
        }
    }
}
