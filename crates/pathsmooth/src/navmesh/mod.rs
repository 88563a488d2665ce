//! Navmeshes: constrained Delaunay triangulation, import from polygons and files (`.mesh`,
//! OBJ), shortest-path search (Polyanya, with an agent radius), portals, portal relaxation
//! and the funnel.

pub mod funnel;
pub mod import;
pub mod mesh;
pub mod portals;
pub mod relax;
pub mod search;

pub use search::NavMeshQuery;
