//! Navmeshes: constrained Delaunay triangulation, import from polygons, scenes, grids and
//! files (`.mesh`, OBJ), shortest-path search (Polyanya, with an agent radius), portals,
//! portal relaxation and the funnel.
//!
//! The layers, each importing only those before it: [`mesh`] (the triangle mesh, point
//! location, line of sight, the polygon table) → Polyanya over convex polygons (private:
//! the one exact search, which the flat and the layered queries share) →
//! [`portals`](mod@portals) → [`funnel`](mod@funnel) → [`relax`](mod@relax) →
//! [`search`] (the query object, [`NavMeshQuery`]) → paths to mesh elements
//! ([`NavMesh::channel_along`], [`NavMesh::polygons_along`],
//! [`NavMesh::polygons_crossed`]) → [`import`] (every
//! constructor of a [`NavMesh`] from data: polygons, scenes, grid maps, files).
//!
//! Beside them, [`surface`] is the navmesh as a 3D surface ([`Surface`]): polygons in 3D
//! joined by shared edges, floors that overlap in plan view, point location on the right
//! floor. It needs only the box index of [`mesh`]; its OBJ reader lives in [`import`].
//!
//! The items a user needs are re-exported here.

#[cfg(test)]
mod abuse_tests;
mod along;
pub mod funnel;
pub mod import;
pub mod layered;
pub mod mesh;
mod polyanya;
pub mod portals;
pub mod relax;
pub mod search;
pub mod surface;

pub(crate) use along::ChannelScratch;
pub use funnel::{funnel, funnel_into, Funnel};
pub use import::{GroundPlane, MeshFormat, Scene};
pub use layered::{Leg, PointFlags, Sheet, SurfaceMesh, SurfacePoint, SurfaceQuery};
pub use mesh::{NavMesh, PolyId, TriId};
pub use portals::{portals, portals_into, Portal};
pub use relax::{relax, relax_in_place, relax_into, RelaxParams};
pub use search::NavMeshQuery;
pub use surface::{
    BakeAgent, Detail, Link, LoadReport, OffMeshLink, Plane, Surface, SurfaceData, SurfaceOptions,
    UpAxis, DEFAULT_CLIMB, DEFAULT_PLANARITY, DEFAULT_WELD,
};
