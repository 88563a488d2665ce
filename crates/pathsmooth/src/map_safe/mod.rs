//! Map-safe smoothing: smooth a grid path without ever cutting through walls.
//!
//! Corner cutters such as Chaikin and Catmull-Rom know nothing of walls: on a path that
//! hugs a wall they cut through it. Two forms here guarantee that a **valid input path
//! always gives a valid output path** (valid as in [`crate::world`], with the agent radius):
//! [`MapSafe::chaikin`] (map-aware Chaikin, each corner cut as deeply as the walls allow)
//! and [`map_safe`] / [`MapSafe::smooth`] (any smoother, split at the corners it cannot
//! cut).
//!
//! One file per algorithm: `chaikin.rs` (map-aware Chaikin) and `split.rs` (any smoother,
//! split at the corners it cannot cut); this file holds the type both work on and the
//! input checks they share.

mod chaikin;
mod split;

use glam::DVec2;

use crate::error::{Error, Result};
use crate::geometry::{check_path, Point2};
use crate::validate::validate;
use crate::world::{check_in_bounds, check_radius, check_scale, path_is_clear, World};
use chaikin::Tail;

pub(crate) use chaikin::check_adaptive;
pub use chaikin::map_chaikin;
pub use split::map_safe;

/// Map-safe smoothing on one map, keeping its distance field and scratch buffers: map-aware
/// Chaikin ([`chaikin`](Self::chaikin), [`chaikin_into`](Self::chaikin_into)) and any
/// smoother split at the corners it cannot cut ([`smooth`](Self::smooth)). See the module
/// docs.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{GridMap, GridWorld, MapSafe};
/// let map = GridWorld::new(GridMap::from_rows(&["....", "....", "...."])?)?;
/// let mut safe = MapSafe::new(&map);
/// let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5)];
/// let out = safe.smooth(&path, 0.0, |p: &[DVec2]| Ok(p.to_vec()))?;
/// assert_eq!(out, path.to_vec());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MapSafe<W> {
    world: W,
    /// The input in `f64`.
    input: Vec<DVec2>,
    /// Scratch of the corner-cutting passes ([`chaikin_into`](Self::chaikin_into),
    /// [`chaikin_adaptive_into`](Self::chaikin_adaptive_into)): the current pass's path,
    /// the next one, the corners to cut, the chosen ratios, the corners forced to stay and
    /// the path's end before each vertex.
    cur: Vec<DVec2>,
    next: Vec<DVec2>,
    fresh: Vec<bool>,
    next_fresh: Vec<bool>,
    wanted: Vec<bool>,
    ratios: Vec<f64>,
    forced: Vec<bool>,
    tails: Vec<Tail>,
}

impl<W> MapSafe<W> {
    /// Map-safe smoothing on `world` (pass a reference to borrow it).
    pub fn new(world: W) -> Self {
        MapSafe {
            world,
            input: Vec::new(),
            cur: Vec::new(),
            next: Vec::new(),
            fresh: Vec::new(),
            next_fresh: Vec::new(),
            wanted: Vec::new(),
            ratios: Vec::new(),
            forced: Vec::new(),
            tails: Vec::new(),
        }
    }

    /// The same scratch buffers on another world (how the pipeline lends its buffers to
    /// a borrowed world).
    pub(crate) fn rebind<V>(self, world: V) -> MapSafe<V> {
        MapSafe {
            world,
            input: self.input,
            cur: self.cur,
            next: self.next,
            fresh: self.fresh,
            next_fresh: self.next_fresh,
            wanted: self.wanted,
            ratios: self.ratios,
            forced: self.forced,
            tails: self.tails,
        }
    }
}

impl<W: World> MapSafe<W> {
    /// Copies `path` into `self.input` in `f64`; errors for a bad path or radius, or an
    /// input that is not valid itself. Returns whether the input passed the strict test
    /// (else the validator accepted it within the world's tolerance).
    fn load_input<P: Point2>(&mut self, path: &[P], radius: f64) -> Result<bool> {
        self.copy_input(path, radius)?;
        if self.is_clear(&self.input, radius) {
            return Ok(true);
        }
        // The strict test can refuse a path the validator accepts within the world's
        // tolerance (a point at exactly the radius, rounded): such an input is valid, and
        // every new piece is still tested strictly.
        match validate(&self.world, &self.input, radius)?.problem() {
            None => Ok(false),
            Some(reason) => Err(Error::InvalidInputPath { reason }),
        }
    }

    /// Copies `path` into `self.input` in `f64`; errors for a bad path or radius, or a
    /// point outside the world. Does not test the path.
    fn copy_input<P: Point2>(&mut self, path: &[P], radius: f64) -> Result<()> {
        check_scale(&self.world)?;
        check_path(path, 1, "map_safe")?;
        check_radius(radius)?;
        self.input.clear();
        self.input.extend(path.iter().map(|p| p.to_dvec2()));
        check_in_bounds(&self.world, &self.input)
    }

    /// The validity test without the report: stops at the first problem.
    fn is_clear(&self, path: &[DVec2], radius: f64) -> bool {
        path_is_clear(&self.world, path, radius)
    }
}

/// The grid world of `rows` (a test map), for the tests of both algorithms.
#[cfg(test)]
fn world(rows: &[&str]) -> crate::GridWorld {
    crate::GridWorld::new(crate::grid::GridMap::from_rows(rows).unwrap()).unwrap()
}
