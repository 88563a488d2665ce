//! Navmeshes: constrained Delaunay triangulation, import from polygons, scenes, grids and
//! files (`.mesh`, OBJ), shortest-path search (Polyanya, with an agent radius), portals,
//! portal relaxation and the funnel.
//!
//! Every item is here, one path per name (the modules below are private, as kurbo lays
//! out its crate; the most used names are also at the crate root):
//!
//! - the triangle mesh ([`NavMesh`]: point location, line of sight, the polygon table);
//! - shortest paths ([`NavMeshQuery`]: Polyanya, with an agent radius), its
//!   [`portals`](fn@portals), the [`funnel`](fn@funnel) ([`Funnel`]) and portal relaxation
//!   ([`relax`](fn@relax), [`RelaxParams`]); paths to mesh elements
//!   ([`NavMesh::channel_along`], [`NavMesh::polygons_along`],
//!   [`NavMesh::polygons_crossed`]);
//! - every constructor from data: polygons, scenes ([`Scene`]), grid maps, files
//!   ([`parse_mesh`], [`parse_obj`], [`load_surface`], …);
//! - the navmesh as a 3D surface ([`Surface`]: polygons in 3D joined by shared edges,
//!   floors that overlap in plan view, point location on the right floor) and paths on it
//!   ([`SurfaceMesh`], [`SurfaceQuery`]).
//!
//! For maintainers, the layers, each importing only those before it: `mesh` → `polyanya`
//! (the one exact search over convex polygons, which the flat and the layered queries
//! share) → `portals` → `funnel` → `relax` → `search` (the flat query object) → `along`
//! (paths to mesh elements) → `import`; beside them `surface` (needing only `mesh`'s box
//! index) and `layered` (paths on a surface).

#[cfg(test)]
mod abuse_tests;
mod along;
pub(crate) mod funnel;
pub(crate) mod import;
pub(crate) mod layered;
pub(crate) mod mesh;
mod polyanya;
pub(crate) mod portals;
pub(crate) mod relax;
pub(crate) mod search;
pub(crate) mod surface;

// One path per name: the modules are private and every public item is here (and the ones
// most used at the crate root), as kurbo lays out its crate.
pub(crate) use along::ChannelScratch;
pub use funnel::*;
pub use import::*;
pub use layered::*;
pub use mesh::*;
pub use portals::*;
pub use relax::*;
pub use search::*;
pub use surface::*;
