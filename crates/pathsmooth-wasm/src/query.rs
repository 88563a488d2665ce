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

    /// The polygon (`x`, `y`, `z`) stands on within the mesh's climb, or else the one
    /// nearest to it within RecastDemo's box (2 across, 4 up), and the point of it at the
    /// floor's height there (Detour's `findNearestPoly`): where `moveAlongSurface` starts.
    pub fn locate(&self, x: f64, y: f64, z: f64) -> Result<SurfaceLocation, JsError> {
        let found = self.query.locate(&self.mesh, DVec3::new(x, y, z));
        found
            .map(SurfaceLocation::of)
            .map_err(err_in("SurfaceQuery.locate"))
    }

    /// Moves from (`sx`, `sy`, `sz`), a point of `polygon` (as `locate` gives it), towards
    /// (`tx`, `ty`, `tz`) on the surface, held to the start's floor (a move under a bridge
    /// stays under it; give the target the agent's height, which picks the floor only
    /// where a wall cuts the straight way and several floors hold the target), sliding
    /// along walls: Detour's
    /// `moveAlongSurface`, the move a crowd agent or a character makes each frame. The
    /// polygons it visited are in `visited`, the start's first.
    #[wasm_bindgen(js_name = moveAlongSurface)]
    #[allow(clippy::too_many_arguments)]
    pub fn move_along_surface(
        &mut self,
        polygon: u32,
        sx: f64,
        sy: f64,
        sz: f64,
        tx: f64,
        ty: f64,
        tz: f64,
    ) -> Result<SurfaceLocation, JsError> {
        let start = (polygon, DVec3::new(sx, sy, sz));
        self.query
            .move_along_surface(&self.mesh, start, DVec3::new(tx, ty, tz))
            .map(SurfaceLocation::of)
            .map_err(err_in("SurfaceQuery.moveAlongSurface"))
    }

    /// The polygons the last `moveAlongSurface` visited, in the order it reached them.
    #[wasm_bindgen(getter)]
    pub fn visited(&self) -> Vec<u32> {
        self.query.visited().to_vec()
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

/// A point on a surface: its polygon and its position on the floor (world axes).
#[wasm_bindgen]
#[derive(Debug, Clone, Copy)]
pub struct SurfaceLocation {
    /// The polygon (an index of the mesh's polygons).
    pub polygon: u32,
    /// The position, world axes.
    pub x: f64,
    /// See `x`.
    pub y: f64,
    /// See `x`.
    pub z: f64,
}

impl SurfaceLocation {
    fn of((polygon, at): (u32, DVec3)) -> SurfaceLocation {
        SurfaceLocation {
            polygon,
            x: at.x,
            y: at.y,
            z: at.z,
        }
    }
}
