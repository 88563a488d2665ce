//! # pathsmooth
//!
//! Turns the zig-zag paths that grid, navmesh and graph planners produce into smooth,
//! short paths that an agent of a given radius can follow without touching a wall.
//!
//! One API over any world, in world units, that always returns a valid path:
//!
//! - a [`World`] answers what map-aware smoothing needs (clearance of points and
//!   segments, bounds): a [`GridWorld`] (an occupancy grid with a cell size and an
//!   origin), a navmesh, flat or layered ([`SurfaceWorld`]: any engine's file, or a flat
//!   mesh as one floor, [`SurfaceWorld::from_navmesh`]), or your own implementation over
//!   an engine's queries;
//! - a [`Pipeline`] holds a world, an agent radius and a list of [`Step`]s (shortcuts,
//!   map-aware Chaikin and Catmull-Rom, resampling, the funnel, portal relaxation, the
//!   corridor optimiser), owns every buffer, and returns a path that is valid on the world
//!   — or an error saying where and why.
//!
//! ## Quick start
//!
//! A game's own grid (0.5 m cells), its own A* path in metres, an agent of radius 0.4 m:
//!
//! ```
//! use glam::{DVec2, Vec2};
//! use pathsmooth::{GridWorld, Pipeline, Preset};
//!
//! let rows = ["............", "............", "............", "....####....",
//!             "....####....", "............", "............", "............"];
//! let world = GridWorld::from_fn(12, 8, 0.5, DVec2::ZERO, |x, y| rows[y].as_bytes()[x] == b'.')?;
//! let cells = [(1, 4), (2, 3), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2), (9, 3), (10, 3)];
//! let astar: Vec<Vec2> = cells.iter().map(|&(x, y)| Vec2::new(x as f32, y as f32) * 0.5 + 0.25).collect();
//!
//! let mut pipeline = Pipeline::preset(world, 0.4, Preset::Smooth)?;
//! let smooth = pipeline.smooth(&astar)?; // wall-hugging stretches are re-planned with room
//! assert!(pipeline.report().validation.min_clearance >= 0.4);
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! Without a planner of your own, [`Pipeline::plan`] plans on the world first.
//!
//! ## Also in the crate
//!
//! - [`curve`]: dimension-free corner cutting and splines (Chaikin, Catmull-Rom),
//!   resampling by arc length, and path variations, in 2D and 3D, `f32` and `f64`.
//! - [`grid`]: Moving AI maps and scenarios, A*, exact line of sight and clearance.
//! - [`navmesh`]: triangulated navmeshes (from scenes, grids, or your own convex polygons
//!   with their ids; polyanya `.mesh` and OBJ files), exact shortest paths with an agent
//!   radius ([`navmesh::NavMeshQuery`], Polyanya), portals, portal relaxation and the funnel.
//! - [`corridor`]: clearance-disk corridors and Langerak's path optimiser (Chambolle–Pock
//!   or ADMM), entered by [`CorridorSmoother`] (along a route on any world, or from start to
//!   goal on a grid's [`CorridorMap`]) or by [`Solver`] on a prepared [`Problem`].
//! - [`map_safe`](mod@map_safe): map-aware Chaikin and any smoother split at the corners it
//!   cannot cut ([`MapSafe`]); [`shortcut`](fn@shortcut) ([`Shortcutter`]); validation
//!   ([`validate`](fn@validate)).
//! - [`fillet`](mod@fillet): fillet smoothing with a minimum turning radius (arcs, or clothoid
//!   transitions for continuous curvature) into an exact curve ([`ExactCurve`]), with
//!   the corners that could not take the radius reported ([`Step::Fillet`] in a pipeline).
//! - [`follow`]: curvature-aware speed profiles and agent playback.
//! - [`crowd`]: a path per agent ([`AgentPath`]): the path kept up to date as
//!   the agent walks and its target moves, repaired locally after the world changes.
//! - [`metrics`]: path metrics; `io` (with the `serde` feature): path files (JSON, CSV).
//!
//! ## Units
//!
//! One unit per quantity, the same in every function and field:
//!
//! - **Lengths** — coordinates, radii, clearances, spacings, turning radii, chord errors —
//!   are in **world units** (a grid's cell size and origin place its cells in them);
//!   curvature is 1/world unit; **speeds** are world units per second and accelerations
//!   world units per second².
//! - **Time** is in **seconds**.
//! - **Angles are in radians**: turn angles in [0, π] (0 straight on, π a reversal), as
//!   parameters ([`AdaptiveParams::angle_limit`](curve::chaikin::AdaptiveParams),
//!   [`Agent::stop_angle`]) and as results ([`ValidationReport`]'s `max_turn` and
//!   `total_turn`, [`Corner::turn`](fillet::Corner), [`metrics::turn_angles`]); headings
//!   in [−π, π); turn rates in radians per second ([`Agent::max_turn_rate`]). An angle
//!   parameter above its largest value in radians is taken for degrees and refused with
//!   the conversion ([`Error::BadAngle`]). [`PathMetrics`](metrics::PathMetrics) too;
//!   only its `Display` form prints degrees, for people.
//!
//! The `pathsmooth` command line and its playground are for people: they take and print
//! angles in **degrees** and say so (`max turn°` in table headers, `--stop-angle` "in
//! degrees"), converting at the boundary.
//!
//! Every step type owns its scratch buffers and takes the world per call
//! (`Shortcutter::new()` then `shortcut_into(&world, …)`), so one value serves any number
//! of worlds and steady-state use allocates nothing; the free functions are their one-shot
//! forms. Bad input is a clear [`Error`], never a panic or a NaN.
//!
//! ## Features
//!
//! The default build needs only glam, spade, pathfinding, robust, num-traits, rustc-hash
//! and thiserror.
//!
//! - `serde`: `Serialize`/`Deserialize` for the data types (and glam's), and the file
//!   formats built on them: `io` (path files, JSON and CSV), `NavMesh::from_scene_json` /
//!   `load_scene`, `DiskCorridor` and `Problem` JSON.
//! - `rayon`: parallel batch solving ([`corridor::solve_batch`],
//!   [`corridor::solve_batch_into`]), crowds on several threads
//!   ([`crowd::Crowd::with_threads`], `crowd::update_batch`), and the tiles of a grid
//!   map's navmesh triangulated in parallel.
//! - `mint`: glam's `mint` interop (mint 0.5), for engines on another glam version.
//! - `give-way` (default): a crowd's agents held head-on in a passage too narrow for both
//!   give way ([`crowd::CrowdAgent::giving_way`]); without it they stand there, as ORCA
//!   leaves them (the npm package leaves it out for size).
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod area;
mod cancel;
pub mod corridor;
pub mod crowd;
pub mod curve;
mod error;
pub mod fillet;
pub mod follow;
pub mod geometry;
pub mod grid;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod io;
pub mod map_safe;
pub mod metrics;
pub mod navmesh;
mod pipeline;
mod shortcut;
#[cfg(test)]
mod test_fixtures;
mod validate;
pub mod world;

pub use area::{AreaCosts, AreaId};
pub use cancel::Cancel;
pub use corridor::{
    CorridorMap, CorridorParams, CorridorPath, CorridorSmoother, DiskCorridor, Problem,
    ProblemParams, Solver, SolverParams,
};
pub use crowd::AgentPath;
pub use curve::exact::{ExactCurve, Piece};
pub use curve::{
    catmull_rom, catmull_rom_into, chaikin, chaikin_adaptive, chaikin_in_place, chaikin_into,
    resample, resample_into, AdaptiveChaikin, AdaptiveParams, CatmullRom, CatmullRomParams,
    ChaikinParams, Ends,
};
pub use error::{num, Error, Result};
pub use fillet::{
    fillet, fillet_geometry, Corner, CornerLimit, FilletParams, Filleted, Filleter, Transition,
};
pub use follow::{
    speed_profile, Agent, CurveProfile, FollowState, Follower, SpeedProfile, Steering,
};
pub use geometry::{Point, Point2, Scalar};
pub use glam;
pub use grid::{GridMap, Scenario};
pub use map_safe::{map_chaikin, map_safe, MapSafe};
pub use navmesh::{
    funnel, relax, relax_into, Funnel, NavMesh, NavMeshQuery, Portal, RelaxParams, Scene,
};
pub use pipeline::{AnyPipeline, Pipeline, PipelineReport, Preset, Step, StepNameError};
pub use shortcut::{shortcut, shortcut_by, Shortcutter};
pub use validate::{is_valid, validate, validate_into, ValidationReport};
pub use world::{Bounds, GridQuery, GridWorld, SurfaceWorld, SurfaceWorldQuery, World};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The repository README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RootReadmeDoctests;
