//! Corridors of clearance disks and Langerak's convex path optimiser (M. Langerak,
//! "Optimization for Smooth Paths", Game AI Pro 3, ch. 20, 2017), solved with
//! Chambolle–Pock or ADMM.
//!
//! The optimiser moves each waypoint of a path inside its disk to minimise a weighted sum
//! of bending and length. Around it, the corridor smoother makes the disks from a world,
//! so that the result is valid on the world for the agent radius whatever the solver does.
//!
//! # Which entry point
//!
//! - **A route on any world** (a planner's path on a grid, a navmesh or your own world):
//!   [`CorridorSmoother::smooth_along`]. The pipeline's corridor step
//!   ([`Step::Corridor`](crate::Step::Corridor)) is this call.
//! - **A grid world, a start and a goal, no route of your own**:
//!   [`CorridorSmoother::smooth_on_grid`], with the grid's [`CorridorMap`] (built once per
//!   world with [`CorridorMap::build`]); no grid search.
//! - **The chapter's own method on a grid**, in the corridor map's medial-axis disks (a
//!   reference; its paths are longer): [`CorridorSmoother::smooth_on_medial_axis`].
//! - **Your own disks or a prepared problem**: build a [`Problem`] (from a [`DiskCorridor`]
//!   with [`Problem::from_corridor`], or from its arrays) and solve it with a reusable
//!   [`Solver`] ([`Solver::solve`], warm starts with [`Solver::solve_from`]), once with
//!   [`optimize`], or many in parallel with `solve_batch` / `solve_batch_into` (feature
//!   `rayon`). The solver keeps every waypoint in its disk; that the segments between
//!   waypoints stay clear is the caller's business (the smoother's safe radii do it).
//!
//! Configuration comes in [`CorridorParams`] (the smoother), [`SolverParams`] (the
//! iteration) and [`ProblemParams`] (weights, facing directions, densification).
//!
//! # Example
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::corridor::{CorridorMap, CorridorParams, CorridorSmoother};
//! use pathsmooth::{is_valid, GridMap, GridWorld};
//! let world = GridWorld::new(GridMap::from_rows(&[
//!     "............",
//!     "............",
//!     "....@@@@....",
//!     "....@@@@....",
//!     "............",
//! ])?)?;
//! let cmap = CorridorMap::build(world.map()); // once per world
//! let mut smoother = CorridorSmoother::new(); // once per caller: keeps its buffers
//! let (start, goal) = (DVec2::new(0.5, 4.5), DVec2::new(11.5, 0.5));
//! let out = smoother.smooth_on_grid(&world, &cmap, start, goal, 0.25, &CorridorParams::default())?;
//! assert!(is_valid(&world, &out.path, 0.25));
//! assert_eq!((out.path[0], *out.path.last().unwrap()), (start, goal));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

mod admm;
mod disks;
mod graph;
mod on_grid;
mod operators;
mod optimize;
mod problem;
mod smooth;

pub use disks::DiskCorridor;
pub use graph::{CorridorEdge, CorridorMap, Place, MAX_CORRIDOR_DISKS};
pub use operators::{energy, LengthNorm};
pub use optimize::{
    optimize, Init, Method, Report, Solution, Solver, SolverParams, Stop, GAP_CHECK_EVERY,
    MAX_ITERATIONS,
};
#[cfg(feature = "rayon")]
pub use optimize::{solve_batch, solve_batch_into};
pub use problem::{bathtub, DirectionLength, Problem, ProblemParams, Weights, MAX_WAYPOINTS};
pub use smooth::{CorridorParams, CorridorPath, CorridorSmoother, CORRIDOR_REFINE};
