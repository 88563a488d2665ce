//! `SurfaceQuery`: the layered navmesh query alone, without the pipeline's steps: the exact
//! shortest path (funnelled, with a radius kept from the walls) between 3D ends, over the
//! surface's off-mesh links. Detour's `NavMeshQuery.computePath` is its counterpart.
//!
//! Two calls: `findPath` throws when there is no path, as every other call of the package;
//! `tryFindPath` returns `undefined` and keeps the reason for `lastError`, as Detour answers
//! with a status. A JavaScript `Error` costs the engine 10–13 µs to make and throw against
//! the half microsecond an unreachable goal costs the search (`docs/wasm.md`), so a caller
//! that asks many pairs of which some are apart wants the second.

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
    /// Why the last `tryFindPath` found no path; kept unformatted, so that a failure costs
    /// no message unless one is asked for.
    last_error: Option<pathsmooth::Error>,
}

#[wasm_bindgen]
impl SurfaceQuery {
    /// A query on `mesh`.
    #[wasm_bindgen(constructor)]
    pub fn new(mesh: &SurfaceMesh) -> SurfaceQuery {
        SurfaceQuery {
            mesh: mesh.shared(),
            query: RsSurfaceQuery::new(),
            last_error: None,
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
        self.search(DVec3::new(sx, sy, sz), DVec3::new(gx, gy, gz), radius)
            .map_err(err_in("SurfaceQuery.findPath"))
    }

    /// As `findPath`, but where there is no path (a goal out of reach, an end off every
    /// floor, a bad number) it returns `undefined` instead of throwing, and `lastError`
    /// says why. For a caller that asks many pairs: no `Error` is made.
    #[wasm_bindgen(js_name = tryFindPath)]
    #[allow(clippy::too_many_arguments)]
    pub fn try_find_path(
        &mut self,
        sx: f64,
        sy: f64,
        sz: f64,
        gx: f64,
        gy: f64,
        gz: f64,
        radius: Option<f64>,
    ) -> Option<SurfacePath> {
        match self.search(DVec3::new(sx, sy, sz), DVec3::new(gx, gy, gz), radius) {
            Ok(found) => {
                self.last_error = None;
                Some(found)
            }
            Err(e) => {
                self.last_error = Some(e);
                None
            }
        }
    }

    /// Why the last `tryFindPath` returned `undefined`, in the words `findPath` would have
    /// thrown; `undefined` when it found a path (or was not called yet).
    #[wasm_bindgen(getter, js_name = lastError)]
    pub fn last_error(&self) -> Option<String> {
        self.last_error
            .as_ref()
            .map(|e| format!("SurfaceQuery.findPath: {e}"))
    }
}

impl SurfaceQuery {
    /// The search both calls share.
    fn search(
        &mut self,
        start: DVec3,
        goal: DVec3,
        radius: Option<f64>,
    ) -> pathsmooth::Result<SurfacePath> {
        self.query
            .find_path(&self.mesh, start, goal, radius.unwrap_or(0.0))
            .map(SurfacePath::of)
    }
}
