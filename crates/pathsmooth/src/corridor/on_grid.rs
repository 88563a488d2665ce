//! The corridor smoother on a grid world from a start to a goal, with no route of the
//! caller's: the route comes from the grid's corridor map ([`CorridorMap`]).

use glam::DVec2;

use super::disks::DiskCorridor;
use super::graph::CorridorMap;
use super::smooth::{CorridorParams, CorridorPath, CorridorSmoother};
use crate::error::{Error, Result};
use crate::world::{check_ends, GridWorld};

impl CorridorSmoother {
    /// A smooth path from `start` to `goal` on a grid world, for an agent of radius
    /// `radius`, all in world units: the route of the corridor map `map` (its centres,
    /// [`CorridorMap::corridor`]) pulled taut in its channel, sampled into disks and
    /// optimised as [`smooth_along`](Self::smooth_along) does, with no grid search. Use it
    /// when there is no planner's route to follow; with one, use `smooth_along` on it.
    ///
    /// `map` is the corridor map of the world's grid, `CorridorMap::build(world.map())`:
    /// build it once per world and share it between queries (a map of another grid is
    /// [`Error::BadParameter`] `map` where the sizes differ, and otherwise gives an error or
    /// a longer path, never an invalid one).
    ///
    /// Cost: one corridor map query, then one [`smooth_along`](Self::smooth_along).
    ///
    /// Errors: those of [`CorridorMap::corridor`] (in cell units) and of
    /// [`smooth_along`](Self::smooth_along).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{CorridorMap, CorridorParams, CorridorSmoother};
    /// use pathsmooth::grid::GridMap;
    /// use pathsmooth::{is_valid, GridWorld};
    /// let map = GridMap::from_rows(&["..........", "..@@@@@@..", ".........."])?;
    /// let world = GridWorld::new(map)?;
    /// let cmap = CorridorMap::build(world.map());
    /// let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(9.5, 2.5));
    /// let out = CorridorSmoother::new().smooth_on_grid(&world, &cmap, a, b, 0.2,
    ///     &CorridorParams::default())?;
    /// assert!(is_valid(&world, &out.path, 0.2));
    /// assert_eq!((out.path[0], *out.path.last().unwrap()), (a, b));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn smooth_on_grid(
        &mut self,
        world: &GridWorld,
        map: &CorridorMap,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        params: &CorridorParams,
    ) -> Result<CorridorPath> {
        let (corridor, radius) = grid_corridor(world, map, start, goal, radius)?;
        let mut route: Vec<DVec2> = corridor
            .centers
            .iter()
            .map(|&p| world.to_world(p))
            .collect();
        // Safe: the corridor's segments keep a margin above the radius, far above the
        // rounding of the ends' round trip through cells.
        keep_ends(&mut route, start, goal);
        self.smooth_along(world, &route, radius, params)
    }

    /// A smooth path from `start` to `goal` on a grid world, for an agent of radius
    /// `radius`, optimised inside the corridor map's own disks (the method of Langerak's
    /// chapter: the disks of [`CorridorMap::corridor`] along the medial axis, their safe
    /// radii, the optimiser, the check and repair), all in world units: the path, the disk
    /// centres and radii are converted from cells. Only the solver, problem and facing
    /// directions of `params` apply (not `refine`, `spacing` or `windows`). Its paths follow
    /// the medial axis and are longer than [`smooth_on_grid`](Self::smooth_on_grid)'s; use
    /// it as the chapter's reference.
    ///
    /// `map` is the corridor map of the world's grid, as for `smooth_on_grid`.
    ///
    /// Cost: one corridor map query, one exact clearance per disk and per segment, one
    /// solve, and the check of the result.
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) for the start (point 0), the goal
    /// (point 1) and the radius, [`Error::BadParameter`] `map` for a map of another size, those
    /// of [`CorridorMap::corridor`] (start or goal outside, blocked or too close to a wall,
    /// unreachable; in cell units), a zero or non-finite facing direction, and bad solver or
    /// problem parameters.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{CorridorMap, CorridorParams, CorridorSmoother};
    /// use pathsmooth::{grid::GridMap, Error, GridWorld};
    /// let world = GridWorld::new(GridMap::from_rows(&["...."; 3])?)?;
    /// let cmap = CorridorMap::build(world.map());
    /// let o = CorridorParams { start_dir: Some(DVec2::ZERO), ..Default::default() };
    /// let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(3.5, 2.5));
    /// let e = CorridorSmoother::new().smooth_on_medial_axis(&world, &cmap, a, b, 0.0, &o);
    /// assert_eq!(e.unwrap_err(), Error::ZeroDirection { which: "start" });
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn smooth_on_medial_axis(
        &mut self,
        world: &GridWorld,
        map: &CorridorMap,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        params: &CorridorParams,
    ) -> Result<CorridorPath> {
        params.solver.validate()?;
        let (corridor, radius) = grid_corridor(world, map, start, goal, radius)?;
        let s = world.cell_size();
        // Safe radii and the repair on the world's own grid (in cells): the map proposes
        // the corridor, the world decides what is clear.
        let mut out = self.smooth_in_disks(&world.cells(), corridor, radius / s, params)?;
        for p in out.path.iter_mut().chain(&mut out.corridor.centers) {
            *p = world.to_world(*p);
        }
        for r in out.corridor.radii.iter_mut().chain(&mut out.safe_radii) {
            *r *= s;
        }
        keep_ends(&mut out.path, start, goal);
        Ok(out)
    }
}

/// The corridor map's disks from `start` to `goal` (in cells) and the checked radius (in
/// world units): the input checks of both smoothers, then one corridor query.
fn grid_corridor(
    world: &GridWorld,
    map: &CorridorMap,
    start: DVec2,
    goal: DVec2,
    radius: f64,
) -> Result<(DiskCorridor, f64)> {
    check_map(world, map)?;
    let radius = check_ends(world, start, goal, radius)?;
    let s = world.cell_size();
    let corridor = map.corridor(world.to_grid(start), world.to_grid(goal), radius / s)?;
    Ok((corridor, radius))
}

/// Makes `start` and `goal` the ends of `path`: the ends are the caller's own points, not
/// their round trip through cells.
fn keep_ends(path: &mut [DVec2], start: DVec2, goal: DVec2) {
    if let Some(p) = path.first_mut() {
        *p = start;
    }
    if let Some(p) = path.last_mut() {
        *p = goal;
    }
}

/// A corridor map of the world's grid: the same size (a cheap check; the map's cells are
/// the caller's word).
fn check_map(world: &GridWorld, map: &CorridorMap) -> Result<()> {
    let (a, b) = (world.map(), map.map());
    if (a.width(), a.height()) == (b.width(), b.height()) {
        Ok(())
    } else {
        Err(Error::param(
            "map",
            b.width() as f64,
            "the corridor map of this world's grid (CorridorMap::build(world.map()))",
        ))
    }
}
