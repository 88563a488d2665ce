//! `Pipeline`: the library's one pipeline on any of the worlds, plans and smooths into
//! `Float64Array`s.

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::SurfacePoint;
use pathsmooth::{AnyPipeline, Pipeline as RsPipeline, SurfaceWorldQuery};
use wasm_bindgen::prelude::*;

use crate::args::{flat2, points2, steps};
use crate::worlds::{world_of, AnyWorld};
use crate::{arg_error, err_in, report};

/// A world, an agent radius and steps (`pathsmooth::Pipeline`): `plan` finds a path and
/// smooths it, `smooth` smooths a path given; every result is valid on the world for the
/// radius or the call throws. Owns its scratch: once warmed up, a plan allocates nothing
/// but its result.
#[wasm_bindgen]
pub struct Pipeline {
    /// The library's pipeline on the world it was made on: a grid, or a navmesh (flat or
    /// layered, one world).
    runner: AnyPipeline,
}

#[wasm_bindgen]
impl Pipeline {
    /// A pipeline on `world` (a `GridWorld`, `NavMeshWorld` or `SurfaceMesh`) for an agent
    /// of `radius` world units, with `steps`: a preset's name (`"shortest"`, `"smooth"`,
    /// `"corridor"`; `"smooth"` when left out) or an array of steps, each a name or a
    /// `[name, value]` pair (`["shortcut", ["fillet", 1.5]]`). `climb` (a navmesh's only:
    /// a `NavMeshWorld`'s floor is at height 0): how far above or below a floor a 3D end
    /// may lie and still be on it.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "GridWorld | NavMeshWorld | SurfaceMesh")]
        world: &JsValue,
        radius: f64,
        #[wasm_bindgen(unchecked_param_type = "string | (string | [string, number])[]")]
        steps_spec: Option<JsValue>,
        climb: Option<f64>,
    ) -> Result<Pipeline, JsError> {
        const WHAT: &str = "new Pipeline";
        let world = world_of(WHAT, world)?;
        let steps = steps(WHAT, &steps_spec.unwrap_or(JsValue::UNDEFINED))?;
        let runner = match world {
            AnyWorld::Grid(w, _) => AnyPipeline::Grid(
                RsPipeline::new(w, radius)
                    .map_err(err_in(WHAT))?
                    .with_steps(steps),
            ),
            AnyWorld::Surface(world) => {
                let mut p = RsPipeline::new(world, radius)
                    .map_err(err_in(WHAT))?
                    .with_steps(steps);
                if let Some(c) = climb {
                    p.surface_query_mut().set_climb(c).map_err(err_in(WHAT))?;
                }
                AnyPipeline::NavMesh(p)
            }
        };
        if climb.is_some() && runner.navmesh().is_none() {
            return Err(arg_error(
                WHAT,
                "climb is a navmesh's only (a NavMeshWorld or a SurfaceMesh)",
            ));
        }
        Ok(Pipeline { runner })
    }

    /// The radius in effect (world units).
    #[wasm_bindgen(getter)]
    pub fn radius(&self) -> f64 {
        self.runner.radius()
    }

    /// The steps' names, in order.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> Vec<String> {
        let steps = self.runner.steps().iter();
        steps.map(|s| s.name().to_owned()).collect()
    }

    /// A path from (`sx`, `sy`) to (`gx`, `gy`): the world's search, then the steps, as a
    /// `Float64Array` `[x0, y0, x1, y1, …]` in world units. On a `SurfaceMesh` each end is
    /// located on the one floor under it (else an error) and the path is in plan view.
    pub fn plan(&mut self, sx: f64, sy: f64, gx: f64, gy: f64) -> Result<Vec<f64>, JsError> {
        let (start, goal) = (DVec2::new(sx, sy), DVec2::new(gx, gy));
        (self.runner.plan(start, goal))
            .map(|path| flat2(&path))
            .map_err(err_in("Pipeline.plan"))
    }

    /// A path (`[x0, y0, x1, y1, …]`) smoothed into a path valid on the world for the
    /// radius. On a `SurfaceMesh` with floors over one another: on the sheet of the last
    /// plan (the one-floor piece of the surface round its path; an error before any plan).
    pub fn smooth(&mut self, points: &[f64]) -> Result<Vec<f64>, JsError> {
        const WHAT: &str = "Pipeline.smooth";
        let path = points2(WHAT, "points", points)?;
        (self.runner.smooth(&path))
            .map(|out| flat2(&out))
            .map_err(err_in(WHAT))
    }

    /// On a navmesh (a `SurfaceMesh`, or a `NavMeshWorld`: z up, its floor at 0), a path
    /// between 3D ends: `{ points, polygons, flags }`, the points a `Float64Array` `[x0, y0,
    /// z0, …]` at their floors' heights, each point's polygon (`Uint32Array`) and flags (`Uint8Array`: 1 start, 2 end, 4 a link's start, 8 a
    /// link's end).
    pub fn plan3(
        &mut self,
        sx: f64,
        sy: f64,
        sz: f64,
        gx: f64,
        gy: f64,
        gz: f64,
    ) -> Result<SurfacePath, JsError> {
        const WHAT: &str = "Pipeline.plan3";
        let Some(p) = self.runner.navmesh_mut() else {
            return Err(needs_surface(WHAT));
        };
        let path = p
            .plan_surface(DVec3::new(sx, sy, sz), DVec3::new(gx, gy, gz))
            .map_err(err_in(WHAT))?;
        Ok(SurfacePath::of(path))
    }

    /// On a navmesh, the 3D point (`Float64Array` of 3) on the one floor under the
    /// plan-view point (`x`, `y`), as `plan` locates its ends.
    #[wasm_bindgen(js_name = floorPoint)]
    pub fn floor_point(&self, x: f64, y: f64) -> Result<Vec<f64>, JsError> {
        const WHAT: &str = "Pipeline.floorPoint";
        let Some(p) = self.runner.navmesh() else {
            return Err(needs_surface(WHAT));
        };
        // With the climb the pipeline's plans locate their ends with.
        let climb = p.surface_query().climb(p.world().mesh().surface());
        let mut query = SurfaceWorldQuery::default();
        query.surface_mut().set_climb(climb).map_err(err_in(WHAT))?;
        let at = p
            .world()
            .floor_point(DVec2::new(x, y), &mut query)
            .map_err(err_in(WHAT))?;
        Ok(at.to_array().to_vec())
    }

    /// What the last `plan`, `plan3` or `smooth` did (also when it threw): steps skipped
    /// and why, repaired input segments, the validation of the result (`minClearance`,
    /// `valid`, …), fillet corners, costs, the ends snapped onto the world.
    #[wasm_bindgen(unchecked_return_type = "PipelineReport")]
    pub fn report(&self) -> js_sys::Object {
        report::pipeline(self.runner.report())
    }
}

/// The error of `what` (a navmesh's call) on a grid's pipeline.
fn needs_surface(what: &str) -> JsError {
    JsError::new(&format!(
        "{what} needs a navmesh world (a NavMeshWorld or a SurfaceMesh), and this \
         pipeline's is a GridWorld: plan on it with plan (2D ends)"
    ))
}

/// A path on a layered navmesh: its 3D points, each point's polygon and flags.
#[wasm_bindgen]
pub struct SurfacePath {
    points: Vec<f64>,
    polygons: Vec<u32>,
    flags: Vec<u8>,
}

impl SurfacePath {
    pub(crate) fn of(path: &[SurfacePoint]) -> SurfacePath {
        SurfacePath {
            points: path.iter().flat_map(|p| p.position.to_array()).collect(),
            polygons: path.iter().map(|p| p.polygon).collect(),
            flags: path.iter().map(|p| p.flags.bits()).collect(),
        }
    }
}

#[wasm_bindgen]
impl SurfacePath {
    /// `[x0, y0, z0, x1, …]` in the mesh's 3D coordinates.
    #[wasm_bindgen(getter)]
    pub fn points(&self) -> Vec<f64> {
        self.points.clone()
    }

    /// Each point's polygon (the mesh's polygon index).
    #[wasm_bindgen(getter)]
    pub fn polygons(&self) -> Vec<u32> {
        self.polygons.clone()
    }

    /// Each point's flags: 1 start, 2 end, 4 a link's start, 8 a link's end.
    #[wasm_bindgen(getter)]
    pub fn flags(&self) -> Vec<u8> {
        self.flags.clone()
    }
}
