//! The worlds a pipeline or a crowd runs on: a grid from a typed array, a navmesh from 2D
//! polygons or a flat navmesh file, a layered navmesh (`SurfaceMesh`) from the bytes of any
//! navmesh file the library reads. Each JavaScript object holds its world, made once: the
//! pipelines made on it share its meshes (a grid behind an `Arc`, a navmesh as the
//! library's one navmesh world, a `SurfaceWorld`, whose clones share their meshes and the
//! whole-mesh sheet of a mesh with one floor).

use std::sync::Arc;

use glam::DVec2;
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{
    parse, read_surface, read_surface_with_detail, GroundPlane, MeshFormat, PolyId,
    SurfaceMesh as RsSurfaceMesh, SurfaceOptions, UpAxis,
};
use pathsmooth::{GridWorld as RsGrid, NavMesh, SurfaceWorld};
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::args::{points2, polygons, whole};
use crate::{arg_error, err_in};

/// A world as the pipelines and crowds here take it, whichever class it came from.
#[derive(Clone)]
pub(crate) enum AnyWorld {
    /// A grid world and its map as given (what a crowd's own copy is built from).
    Grid(Arc<RsGrid>, Arc<GridMap>),
    /// A navmesh, flat (a `NavMeshWorld`: a surface of one floor) or layered (a
    /// `SurfaceMesh`): the library's one world over both.
    Surface(SurfaceWorld),
}

/// A world passed to another class (hidden from TypeScript): what a world's `__world()`
/// returns, so that `new Pipeline(world, …)` takes any of the world classes. wasm-bindgen
/// can take an exported class from a `JsValue` only by moving it out of its JavaScript
/// object; moving this fresh handle leaves the world itself untouched.
#[wasm_bindgen(skip_typescript)]
pub struct WorldHandle(AnyWorld);

/// The world behind `value`, a `GridWorld`, `NavMeshWorld` or `SurfaceMesh` (else an
/// error of the call `what`, as when the world was freed).
pub(crate) fn world_of(what: &'static str, value: &JsValue) -> Result<AnyWorld, JsError> {
    let not_a_world = || {
        arg_error(
            what,
            "world: expected a GridWorld, a NavMeshWorld or a SurfaceMesh",
        )
    };
    let handle = js_sys::Reflect::get(value, &JsValue::from_str("__world"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(not_a_world)?
        // A freed world throws here ("null pointer passed to rust").
        .call0(value)
        .map_err(|_| arg_error(what, "world: this world was freed (.free())"))?;
    WorldHandle::try_from_js_value(handle)
        .map(|h| h.0)
        .map_err(|_| not_a_world())
}

/// A grid of free and blocked cells (`pathsmooth::GridWorld`).
#[wasm_bindgen]
pub struct GridWorld {
    world: Arc<RsGrid>,
    map: Arc<GridMap>,
}

#[wasm_bindgen]
impl GridWorld {
    /// A grid of `width` × `height` cells, `free[y * width + x]` non-zero where cell
    /// (x, y) is free (row 0 first, as the C ABI), each `cellSize` world units across (1
    /// when left out), cell (0, 0)'s corner at (`originX`, `originY`) (0, 0 when left
    /// out). Costs O(cells) (the distance field is built here, once).
    #[wasm_bindgen(constructor)]
    pub fn new(
        free: &[u8],
        width: f64,
        height: f64,
        #[wasm_bindgen(js_name = cellSize)] cell_size: Option<f64>,
        #[wasm_bindgen(js_name = originX)] origin_x: Option<f64>,
        #[wasm_bindgen(js_name = originY)] origin_y: Option<f64>,
    ) -> Result<GridWorld, JsError> {
        const WHAT: &str = "new GridWorld";
        let width = whole(WHAT, "width", width, u32::MAX as usize)?;
        let height = whole(WHAT, "height", height, u32::MAX as usize)?;
        if width.checked_mul(height) != Some(free.len()) {
            return Err(arg_error(
                WHAT,
                format!(
                    "free holds {} cells, and a {width} × {height} grid has {}",
                    free.len(),
                    width as u64 * height as u64
                ),
            ));
        }
        let origin = DVec2::new(origin_x.unwrap_or(0.0), origin_y.unwrap_or(0.0));
        let world = RsGrid::from_fn(width, height, cell_size.unwrap_or(1.0), origin, |x, y| {
            free[y * width + x] != 0
        })
        .map_err(err_in(WHAT))?;
        let map = Arc::new(world.map().clone());
        Ok(GridWorld {
            world: Arc::new(world),
            map,
        })
    }

    /// A Moving AI `.map` file's text (`.` and `G` free, the rest blocked).
    #[wasm_bindgen(js_name = fromMovingAi)]
    pub fn from_moving_ai(
        text: &str,
        #[wasm_bindgen(js_name = cellSize)] cell_size: Option<f64>,
    ) -> Result<GridWorld, JsError> {
        const WHAT: &str = "GridWorld.fromMovingAi";
        let map = GridMap::parse(text, "<text>").map_err(err_in(WHAT))?;
        let world = RsGrid::with_frame(map.clone(), cell_size.unwrap_or(1.0), DVec2::ZERO)
            .map_err(err_in(WHAT))?;
        Ok(GridWorld {
            world: Arc::new(world),
            map: Arc::new(map),
        })
    }

    /// Cells across.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> usize {
        self.map.width()
    }

    /// Cells down.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> usize {
        self.map.height()
    }

    #[wasm_bindgen(getter, js_name = cellSize)]
    pub fn cell_size(&self) -> f64 {
        self.world.cell_size()
    }

    #[wasm_bindgen(js_name = __world, skip_typescript)]
    pub fn handle(&self) -> WorldHandle {
        WorldHandle(AnyWorld::Grid(
            Arc::clone(&self.world),
            Arc::clone(&self.map),
        ))
    }
}

/// A navmesh of convex polygons in the plane: the library's navmesh world of a surface with
/// one floor (`pathsmooth::SurfaceWorld` of `Surface::from_navmesh`, z up, every height 0).
#[wasm_bindgen]
pub struct NavMeshWorld {
    world: SurfaceWorld,
}

impl NavMeshWorld {
    /// The world of `mesh`, for the call `what`.
    fn of(what: &'static str, mesh: NavMesh) -> Result<NavMeshWorld, JsError> {
        let world = SurfaceWorld::from_navmesh(&mesh).map_err(err_in(what))?;
        Ok(NavMeshWorld { world })
    }
}

#[wasm_bindgen]
impl NavMeshWorld {
    /// A navmesh from `vertices` (`[x0, y0, x1, y1, …]`) and polygons given as one flat
    /// `indices` array cut by `counts` (each polygon's number of vertices, as Recast lists
    /// them): `new NavMeshWorld(v, new Uint32Array([0, 1, 2, 3]), new Uint32Array([4]))`.
    #[wasm_bindgen(constructor)]
    pub fn new(vertices: &[f64], indices: &[u32], counts: &[u32]) -> Result<NavMeshWorld, JsError> {
        const WHAT: &str = "new NavMeshWorld";
        let vertices = points2(WHAT, "vertices", vertices)?;
        let polygons = polygons(WHAT, indices, counts)?;
        let mesh = NavMesh::from_polygons(&vertices, &polygons).map_err(err_in(WHAT))?;
        NavMeshWorld::of(WHAT, mesh)
    }

    /// A flat navmesh file's text: Polyanya's `.mesh`, a scene JSON (`boundary`, `holes`) or
    /// OBJ faces (read in the plane `plane`, `"xz"` when left out: y up), the format from
    /// `fileName`'s extension or else from the text. For the 3D formats (Detour, Recast,
    /// Godot, Unity) see `SurfaceMesh.load`.
    pub fn load(
        text: &str,
        #[wasm_bindgen(js_name = fileName)] file_name: Option<String>,
        plane: Option<String>,
    ) -> Result<NavMeshWorld, JsError> {
        const WHAT: &str = "NavMeshWorld.load";
        let file = file_name.unwrap_or_else(|| "<text>".to_owned());
        let plane: GroundPlane = match plane {
            None => GroundPlane::default(),
            Some(p) => p.parse().map_err(|e: String| arg_error(WHAT, e))?,
        };
        let format = MeshFormat::from_extension(&file).unwrap_or_else(|| MeshFormat::sniff(text));
        let mesh = parse(text, format, plane, &file).map_err(err_in(WHAT))?;
        NavMeshWorld::of(WHAT, mesh)
    }

    #[wasm_bindgen(getter, js_name = numPolygons)]
    pub fn num_polygons(&self) -> usize {
        // The mesh's polygons, one for one (`Surface::from_navmesh`).
        self.world.mesh().surface().num_polygons()
    }

    #[wasm_bindgen(js_name = __world, skip_typescript)]
    pub fn handle(&self) -> WorldHandle {
        WorldHandle(AnyWorld::Surface(self.world.clone()))
    }
}

/// A layered navmesh: floors over floors, stairs, bridges, off-mesh links
/// (`pathsmooth::navmesh::SurfaceMesh`). A pipeline on it plans with 2D ends (`plan`, each
/// located on the one floor under it) or 3D ends (`plan3`).
#[wasm_bindgen]
pub struct SurfaceMesh {
    /// Its world, made once (on a mesh with one floor, with the whole-mesh sheet): the
    /// mesh is the world's (`shared_mesh`; the class adds no obstacles).
    world: SurfaceWorld,
}

#[wasm_bindgen]
impl SurfaceMesh {
    /// A navmesh file's bytes, its format found from them: Detour's `.bin` (RecastDemo's
    /// navmesh set or one tile), Recast's and rerecast's JSON, the library's navmesh JSON,
    /// Godot scenes (`.tscn`, `.tres`), OBJ (Unity's exports), Polyanya's `.mesh`. `up`
    /// (`"y"` or `"z"`) only for OBJ and `.mesh`, whose files do not say (y when left out);
    /// `fileName` names the file in errors; `detail`: the bytes of a second file holding the
    /// detail mesh of a Recast or rerecast JSON poly mesh (`rcPolyMeshDetail`), whose heights
    /// the paths then follow. Welded, T-junctions split, slivers and duplicates dropped, as
    /// the library loads every file.
    pub fn load(
        bytes: &[u8],
        #[wasm_bindgen(js_name = fileName)] file_name: Option<String>,
        up: Option<String>,
        detail: Option<Vec<u8>>,
    ) -> Result<SurfaceMesh, JsError> {
        const WHAT: &str = "SurfaceMesh.load";
        let up: UpAxis = match up {
            None => UpAxis::default(),
            Some(u) => u.parse().map_err(|e: String| arg_error(WHAT, e))?,
        };
        let file = file_name.unwrap_or_else(|| "<bytes>".to_owned());
        let options = SurfaceOptions::new(up);
        let surface = match &detail {
            None => read_surface(bytes, &file, &options),
            Some(detail) => read_surface_with_detail(bytes, detail, &file, &options),
        }
        .map_err(err_in(WHAT))?;
        let mesh = RsSurfaceMesh::new(surface).map_err(err_in(WHAT))?;
        Ok(SurfaceMesh {
            world: SurfaceWorld::new(mesh),
        })
    }

    #[wasm_bindgen(getter, js_name = numPolygons)]
    pub fn num_polygons(&self) -> usize {
        self.world.mesh().surface().num_polygons()
    }

    /// The mesh's vertices after loading (welded), `[x0, y0, z0, x1, …]` in its 3D
    /// coordinates: with `polygonIndices` and `polygonCounts`, what a renderer draws.
    pub fn vertices(&self) -> Vec<f64> {
        let surface = self.world.mesh().surface();
        surface
            .vertices()
            .iter()
            .flat_map(|v| v.to_array())
            .collect()
    }

    /// Every polygon's vertex indices (into `vertices`), one polygon after another, each
    /// counter-clockwise in plan view.
    #[wasm_bindgen(js_name = polygonIndices)]
    pub fn polygon_indices(&self) -> Vec<u32> {
        let surface = self.world.mesh().surface();
        (0..surface.num_polygons() as PolyId)
            .flat_map(|p| surface.polygon(p).iter().copied())
            .collect()
    }

    /// Each polygon's number of vertices, in polygon order.
    #[wasm_bindgen(js_name = polygonCounts)]
    pub fn polygon_counts(&self) -> Vec<u32> {
        let surface = self.world.mesh().surface();
        (0..surface.num_polygons() as PolyId)
            .map(|p| surface.polygon(p).len() as u32)
            .collect()
    }

    /// `"y"` or `"z"`: the axis that points up in the mesh's 3D coordinates.
    #[wasm_bindgen(getter)]
    pub fn up(&self) -> String {
        match self.world.mesh().surface().up() {
            UpAxis::Y => "y".to_owned(),
            UpAxis::Z => "z".to_owned(),
        }
    }

    #[wasm_bindgen(js_name = __world, skip_typescript)]
    pub fn handle(&self) -> WorldHandle {
        WorldHandle(AnyWorld::Surface(self.world.clone()))
    }
}

impl SurfaceMesh {
    /// The mesh, shared (a query's own handle on it).
    pub(crate) fn shared(&self) -> Arc<RsSurfaceMesh> {
        Arc::clone(self.world.shared_mesh())
    }
}
