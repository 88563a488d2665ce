//! # pathsmooth
//!
//! Turns the zig-zag paths that grid, navmesh and graph planners produce into smooth,
//! short, collision-free paths an agent can follow.
//!
//! - [`curve`]: dimension-free corner cutting and splines (Chaikin, Catmull-Rom),
//!   resampling by arc length, and path variations.
//! - [`grid`]: Moving AI grid maps and scenarios, A*, exact line of sight and clearance.
//! - [`shortcut`], [`validate`]: map-aware post-processing and checks.
//! - [`navmesh`]: triangulated navmeshes, portals, portal relaxation and the funnel.
//! - [`corridor`]: clearance-disk corridors and the Chambolle–Pock path optimiser.
//! - [`follow`]: curvature-aware speed profiles and agent playback.
//! - [`metrics`], [`io`]: path metrics and path files (JSON, CSV).
//!
//! Every algorithm takes glam points through the [`Point`] trait and returns
//! [`Result`]: bad input is a clear [`Error`], never a panic or a NaN.
#![warn(missing_docs)]

pub mod corridor;
pub mod curve;
pub mod error;
pub mod follow;
pub mod geometry;
pub mod grid;
pub mod io;
pub mod map_safe;
pub mod metrics;
pub mod navmesh;
pub mod shortcut;
pub mod validate;

pub use error::{Error, Result};
pub use geometry::{Point, Scalar};
pub use glam;
