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

// One path per name: the modules are private and every public item is listed here (and
// the ones most used at the crate root), as kurbo lays out its crate.
pub(crate) use along::ChannelScratch;
pub use funnel::{funnel, Funnel, MAX_ARC_STEP};
pub use import::{
    is_detour, is_godot, load, load_surface, load_surface_with_detail, parse, parse_detour,
    parse_godot, parse_mesh, parse_obj, parse_obj_surface, read_surface, read_surface_with_detail,
    write_mesh, write_mesh_v3, write_obj, GroundPlane, MeshFormat, Scene, SurfaceFormat,
};
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use import::{
    is_recast_json, parse_recast_json, parse_recast_json_pair, parse_rerecast_json,
    parse_surface_json, read_surface_json, write_surface_json, DETAIL_KEYS, POLY_KEYS,
};
pub use layered::{Leg, PointFlags, Sheet, SurfaceMesh, SurfacePoint, SurfaceQuery};
pub use mesh::{NavMesh, PolyId, TriId, DEFAULT_AREA, MAX_COORDINATE, MIN_COORDINATE};
pub use portals::{check_orientation, portals, portals_into, Portal};
pub use relax::{relax, relax_in_place, relax_into, RelaxParams};
pub use search::NavMeshQuery;
pub use surface::{
    BakeAgent, Detail, Link, LoadReport, OffMeshLink, Plane, Surface, SurfaceData, SurfaceOptions,
    UpAxis, DEFAULT_CLIMB, DEFAULT_PLANARITY, DEFAULT_WELD,
};
