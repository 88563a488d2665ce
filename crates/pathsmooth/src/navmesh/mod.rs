//! Navmeshes: constrained Delaunay triangulation, import from polygons and files (`.mesh`,
//! OBJ), portals, portal relaxation and the funnel.

pub mod funnel;
pub mod import;
pub mod mesh;
pub mod portals;
pub mod relax;
