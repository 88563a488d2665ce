//! Navmeshes: constrained Delaunay triangulation, portals, portal relaxation and the funnel.

pub mod funnel;
pub mod mesh;
pub mod portals;
pub mod relax;
