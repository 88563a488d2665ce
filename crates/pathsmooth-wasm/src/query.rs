//! `SurfaceQuery`: the layered navmesh query alone, without the pipeline's steps: the exact
//! shortest path (funnelled, with a radius kept from the walls) between 3D ends, over the
//! surface's off-mesh links. Detour's `NavMeshQuery.computePath` is its counterpart.

use std::sync::Arc;

use glam::DVec3;
use pathsmooth::navmesh::{SurfaceMesh as RsSurfaceMesh, SurfaceQuery as RsSurfaceQuery};
use wasm_bindgen::prelude::*;

use crate::err_in;
use crate::pipeline::SurfacePath;
use crate::worlds::SurfaceMesh;

/// A query on one layered navmesh that owns its scratch (as Detour's `dtNavMeshQuery`):
/// once warmed up, a search allocates nothing but its result.
#[wasm_bindgen]
pub struct SurfaceQuery {
    mesh: Arc<RsSurfaceMesh>,
    query: RsSurfaceQuery,
}

#[wasm_bindgen]
impl SurfaceQuery {
    /// A query on `mesh`.
    #[wasm_bindgen(constructor)]
    pub fn new(mesh: &SurfaceMesh) -> SurfaceQuery {
        SurfaceQuery {
            mesh: mesh.shared(),
            query: RsSurfaceQuery::new(),
        }
    }

    /// The shortest path from (`sx`, `sy`, `sz`) to (`gx`, `gy`, `gz`) for an agent of
    /// `radius` (0 when left out), each end located on the floor nearest to it: the path's
    /// corners in 3D with their polygons and flags. Costs one exact search (Polyanya over the
    /// surface's polygons at radius 0, over its triangles with a radius), no smoothing.
    #[wasm_bindgen(js_name = findPath)]
    #[allow(clippy::too_many_arguments)]
    pub fn find_path(
        &mut self,
        sx: f64,
        sy: f64,
        sz: f64,
        gx: f64,
        gy: f64,
        gz: f64,
        radius: Option<f64>,
    ) -> Result<SurfacePath, JsError> {
        let (start, goal) = (DVec3::new(sx, sy, sz), DVec3::new(gx, gy, gz));
        self.query
            .find_path(&self.mesh, start, goal, radius.unwrap_or(0.0))
            .map(SurfacePath::of)
            .map_err(err_in("SurfaceQuery.findPath"))
    }
}
