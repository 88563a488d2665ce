//! The Python module `pathsmooth`: a shell over the library's worlds, pipeline, crowd,
//! validator and metrics, numpy arrays in and out. No algorithm lives here; every library
//! error becomes `pathsmooth.Error` (a `ValueError`) carrying the library's message.
//!
//! Arrays: paths are N×2 arrays of real numbers (any array-like; integer and float dtypes
//! are converted to float64, a non-contiguous array is copied, bool/complex/object/string
//! dtypes are a `TypeError`, a wrong shape is `pathsmooth.Error`); NaN and the other
//! coordinate checks are the library's own. The work runs with the GIL released.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use glam::{DVec2, DVec3, IVec2};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pathsmooth::crowd::{Avoidance, Crowd as RsCrowd, CrowdAgent, MovingId, MovingObstacle};
use pathsmooth::follow::Agent as FollowAgent;
use pathsmooth::grid::GridMap;
use pathsmooth::metrics::PathMetrics;
use pathsmooth::navmesh::{load_surface, load_surface_with_detail};
use pathsmooth::navmesh::{
    LoadReport, NavMesh, PolyId, Surface, SurfaceData, SurfaceMesh as RsSurfaceMesh,
    SurfaceOptions, SurfaceQuery as RsSurfaceQuery, UpAxis,
};
use pathsmooth::world::{Bounds, Obstacle, ObstacleId, ObstacleWorld};
use pathsmooth::{
    AnyPipeline, AreaCosts, GridWorld as RsGrid, Pipeline as RsPipeline, PipelineReport, Preset,
    Step, SurfaceWorld, ValidationReport, World,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;

pyo3::create_exception!(
    pathsmooth,
    Error,
    PyValueError,
    "An error of the pathsmooth library (bad input, blocked start, unreachable goal, ...), \
     with the library's message; also a wrong array shape."
);

/// A library error as `pathsmooth.Error`.
fn lib_err(e: pathsmooth::Error) -> PyErr {
    Error::new_err(message(&e))
}

/// A library error's message as Python says it: the library's, but for the calls it names
/// by their Rust name.
fn message(e: &pathsmooth::Error) -> String {
    match e {
        // The library's words name its Rust call (`plan_surface`); here it is `plan3`.
        pathsmooth::Error::OverSeveralFloors { what, x, y, floors } => format!(
            "{what} ({}, {}) lies over {floors} floors: give it in 3D (plan3) to say which",
            pathsmooth::num(*x),
            pathsmooth::num(*y)
        ),
        e => e.to_string(),
    }
}

/// Points on a surface, as Python gets them: their polygons (uint32 N) and positions
/// (float64 N×3).
type Located<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray2<f64>>);

/// A library error about row `i` of a batch call `what`, the points of the row named by
/// `names` (the library numbers them 0 and 1).
fn row_err(what: &str, i: usize, e: &pathsmooth::Error, names: [&str; 2]) -> PyErr {
    use pathsmooth::Error as E;
    let name = |index: usize| names[index.min(1)];
    let said = match e {
        E::NonFinite { index } => format!("{} has a NaN or infinite coordinate", name(*index)),
        E::CoordinateOutOfRange {
            index: Some(index),
            value,
            limit,
        } => format!(
            "{} has coordinate {}, beyond ±{}, the largest accepted",
            name(*index),
            pathsmooth::num(*value),
            pathsmooth::num(*limit)
        ),
        e => message(e),
    };
    Error::new_err(format!("{what}: row {i}: {said}"))
}

/// A library error of the Python call `what` (`"SurfaceMesh.load"`) as `pathsmooth.Error`,
/// its message starting with the call's name.
fn err_in(what: &'static str) -> impl Fn(pathsmooth::Error) -> PyErr {
    move |e| Error::new_err(format!("{what}: {}", message(&e)))
}

/// An argument error (`pathsmooth.Error` or `TypeError`) raised inside the Python call
/// `what`, its message then starting with the call's name; other exceptions unchanged.
fn arg_err_in(what: &str) -> impl Fn(PyErr) -> PyErr + '_ {
    move |e| {
        Python::with_gil(|py| {
            let message = format!("{what}: {}", e.value(py));
            if e.is_instance_of::<Error>(py) {
                Error::new_err(message)
            } else if e.is_instance_of::<PyTypeError>(py) {
                PyTypeError::new_err(message)
            } else {
                e
            }
        })
    }
}

// ---------------------------------------------------------------------------------------
// Worlds

/// The world behind a Python world object, for the functions that take either (a
/// `GridWorld` or a `NavMeshWorld`: validation): else a `TypeError` naming both.
fn world_ref<'a>(world: &'a Bound<'_, PyAny>) -> PyResult<&'a (dyn World + Sync)> {
    if let Ok(g) = world.downcast::<GridWorld>() {
        Ok(&*g.get().world)
    } else if let Ok(m) = world.downcast::<NavMeshWorld>() {
        Ok(&*m.get().world)
    } else {
        Err(PyTypeError::new_err(format!(
            "world: expected a GridWorld or a NavMeshWorld, got {}",
            world.get_type().name()?
        )))
    }
}

/// Area costs from Python: `None` (the default filter), a string `"S=4,W=exclude"`, or a
/// dict whose keys are terrain letters or area ids and whose values are positive numbers
/// or `"exclude"`. Every bad entry is the library's `BadAreaCost` error.
fn area_costs(costs: Option<&Bound<'_, PyAny>>, base: AreaCosts) -> PyResult<AreaCosts> {
    let Some(costs) = costs else {
        return Ok(base);
    };
    if let Ok(spec) = costs.extract::<String>() {
        return base.apply(&spec).map_err(lib_err);
    }
    let dict = costs.downcast::<PyDict>().map_err(|_| {
        PyTypeError::new_err("area_costs: expected None, a str \"AREA=COST,...\" or a dict")
    })?;
    let mut spec = Vec::with_capacity(dict.len());
    for (k, v) in dict.iter() {
        let area = match k.extract::<i64>() {
            Ok(id) => id.to_string(),
            Err(_) => k.extract::<String>().map_err(|_| {
                PyTypeError::new_err("area_costs: keys are terrain letters (str) or ids (int)")
            })?,
        };
        let cost = match v.extract::<f64>() {
            Ok(c) => format!("{c:?}"),
            Err(_) => v.extract::<String>().map_err(|_| {
                PyTypeError::new_err("area_costs: values are numbers or \"exclude\"")
            })?,
        };
        if area.contains([',', '=']) || cost.contains([',', '=']) {
            return Err(lib_err(pathsmooth::Error::BadAreaCost {
                area,
                reason: "an area or cost may not contain `,` or `=`".into(),
            }));
        }
        spec.push(format!("{area}={cost}"));
    }
    base.apply(&spec.join(",")).map_err(lib_err)
}

/// Optional per-cell area ids (a 2D uint8 array shaped like `free`).
fn area_grid(
    py: Python<'_>,
    areas: Option<&Bound<'_, PyAny>>,
    shape: (usize, usize),
) -> PyResult<Option<Vec<u8>>> {
    let Some(areas) = areas else {
        return Ok(None);
    };
    let np = py.import("numpy")?;
    let arr = np.call_method1("asarray", (areas,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let shape_now = shape_of(&arr)?;
    if !matches!(kind.as_str(), "i" | "u") || shape_now != [shape.0, shape.1] {
        return Err(Error::new_err(format!(
            "areas: expected an integer array of shape {:?} (one area id 0–255 per cell), got \
             dtype {} shape {shape_now:?}",
            [shape.0, shape.1],
            arr.getattr("dtype")?.str()?
        )));
    }
    let ok: bool = arr
        .call_method0("min")?
        .extract::<i64>()
        .is_ok_and(|lo| lo >= 0)
        && arr
            .call_method0("max")?
            .extract::<i64>()
            .is_ok_and(|hi| hi <= 255);
    if !ok {
        return Err(Error::new_err("areas: area ids must lie in 0–255"));
    }
    let c = np.call_method1("ascontiguousarray", (arr, "uint8"))?;
    let c = c.downcast::<PyArray2<u8>>()?.readonly();
    Ok(Some(c.as_slice()?.to_vec()))
}

/// `World::find_path` from Python points, with the GIL released, as an N×2 array: what
/// both worlds' `find_path` run.
fn world_find_path<'py>(
    py: Python<'py>,
    world: &(impl World + Sync),
    start: &Bound<'py, PyAny>,
    goal: &Bound<'py, PyAny>,
    radius: f64,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (start, goal) = (point(start, "start")?, point(goal, "goal")?);
    let path = py
        .allow_threads(|| world.find_path(start, goal, radius))
        .map_err(lib_err)?;
    Ok(to_array(py, &path))
}

fn bounds_tuple(b: Bounds) -> ((f64, f64), (f64, f64)) {
    ((b.min.x, b.min.y), (b.max.x, b.max.y))
}

/// The `#[pymethods]` block of a world class: its own methods (`$own`), then the queries
/// every world answers alike, written once here. A macro because PyO3 wants all of a
/// class's Python methods in its one `#[pymethods]` block (the crate does not turn on
/// `multiple-pymethods`) and reads that block before a macro call inside it would be
/// expanded: so the macro writes the whole block. The doc comment before `$own` is
/// `segment_cost`'s, which says how that world weighs a segment.
macro_rules! world_pymethods {
    ($class:ident, $(#[doc = $segment_cost:literal])* { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            $($own)*

            /// ((min_x, min_y), (max_x, max_y)) in world units.
            #[getter]
            fn bounds(&self) -> ((f64, f64), (f64, f64)) {
                bounds_tuple(self.world.bounds())
            }

            /// Distance from a point to the blocked region (0 on or inside it).
            fn clearance(&self, point: &Bound<'_, PyAny>) -> PyResult<f64> {
                Ok(self
                    .world
                    .clearance(finite(self::point(point, "point")?, "point")?))
            }

            /// The world's own search (`World::find_path`): a path from start to goal that
            /// keeps `radius` from the walls (grid A* through cells with room, or the
            /// navmesh's search), unsmoothed, N×2.
            #[pyo3(signature = (start, goal, radius = 0.0))]
            fn find_path<'py>(
                &self,
                py: Python<'py>,
                start: &Bound<'py, PyAny>,
                goal: &Bound<'py, PyAny>,
                radius: f64,
            ) -> PyResult<Bound<'py, PyArray2<f64>>> {
                world_find_path(py, &*self.world, start, goal, radius)
            }

            $(#[doc = $segment_cost])*
            fn segment_cost(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<f64> {
                Ok(self
                    .world
                    .segment_cost(finite(point(a, "a")?, "a")?, finite(point(b, "b")?, "b")?))
            }

            /// The cost of an N×2 path under the world's area costs.
            fn path_cost(&self, path: &Bound<'_, PyAny>) -> PyResult<f64> {
                Ok(pathsmooth::world::path_cost(
                    &*self.world,
                    &finite_points(points(path, "path")?, "path")?,
                ))
            }
        }
    };
}

/// A grid's `origin` argument: a point, or None for (0, 0).
fn origin_or_zero(origin: Option<&Bound<'_, PyAny>>) -> PyResult<DVec2> {
    origin.map_or(Ok(DVec2::ZERO), |o| point(o, "origin"))
}

/// An occupancy grid in world units (`pathsmooth::GridWorld`).
#[pyclass(frozen, module = "pathsmooth")]
struct GridWorld {
    world: Arc<RsGrid>,
    /// The map as given (areas unfiltered): with the world's frame and area costs, what
    /// builds an owned copy of the world again (a `Crowd`'s, which adds obstacles to it).
    terrain: GridMap,
}

impl GridWorld {
    /// The Python world over `world`, whose map as given is `terrain`.
    fn of(world: RsGrid, terrain: GridMap) -> Self {
        GridWorld {
            world: Arc::new(world),
            terrain,
        }
    }

    /// The Python world that `make` builds off the GIL (a world and its map as given, from
    /// the origin), with `origin` and `area_costs` as Python gave them read first and the
    /// costs then put on the world.
    fn build(
        py: Python<'_>,
        origin: Option<&Bound<'_, PyAny>>,
        area_costs: Option<&Bound<'_, PyAny>>,
        make: impl FnOnce(DVec2) -> pathsmooth::Result<(RsGrid, GridMap)> + Send,
    ) -> PyResult<Self> {
        let costs = self::area_costs(area_costs, AreaCosts::default())?;
        let origin = origin_or_zero(origin)?;
        let (world, terrain) = py
            .allow_threads(|| {
                let (world, terrain) = make(origin)?;
                Ok::<_, pathsmooth::Error>((world.with_area_costs(costs)?, terrain))
            })
            .map_err(lib_err)?;
        Ok(GridWorld::of(world, terrain))
    }

    /// A new world equal to this one (map, areas, frame, area costs), owned by the caller.
    fn copy_world(&self) -> pathsmooth::Result<RsGrid> {
        let w = &self.world;
        RsGrid::with_frame(self.terrain.clone(), w.cell_size(), w.origin())?
            .with_area_costs(w.area_costs().clone())
    }
}

world_pymethods! {
    GridWorld,
    /// The cost of the segment `a`–`b` under the world's area costs (its length when they
    /// are all 1): the length inside each cell times the cell's cost.
    {
        #[new]
        #[pyo3(signature = (free, cell_size = 1.0, origin = None, areas = None, area_costs = None))]
        fn new(
            py: Python<'_>,
            free: &Bound<'_, PyAny>,
            cell_size: f64,
            origin: Option<&Bound<'_, PyAny>>,
            areas: Option<&Bound<'_, PyAny>>,
            area_costs: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            let (cells, height, width) = occupancy(py, free)?;
            let areas = area_grid(py, areas, (height, width))?;
            GridWorld::build(py, origin, area_costs, |origin| {
                let world =
                    RsGrid::from_fn(width, height, cell_size, origin, |x, y| cells[y * width + x])?;
                Ok(match &areas {
                    Some(a) => {
                        let map = world.map().clone().with_areas(|x, y| a[y * width + x]);
                        (RsGrid::with_frame(map.clone(), cell_size, origin)?, map)
                    }
                    None => {
                        let map = world.map().clone();
                        (world, map)
                    }
                })
            })
        }

        /// A Moving AI `.map`: a file path, or the file's text (anything holding a newline).
        #[staticmethod]
        #[pyo3(signature = (path_or_text, cell_size = 1.0, origin = None, area_costs = None))]
        fn from_movingai(
            py: Python<'_>,
            path_or_text: &Bound<'_, PyAny>,
            cell_size: f64,
            origin: Option<&Bound<'_, PyAny>>,
            area_costs: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            let text_or_path: String = if path_or_text.is_instance_of::<PyString>() {
                path_or_text.extract()?
            } else {
                py.import("os")?
                    .call_method1("fspath", (path_or_text,))?
                    .extract()
                    .map_err(|_| PyTypeError::new_err("from_movingai: expected a str or a path"))?
            };
            GridWorld::build(py, origin, area_costs, |origin| {
                let map = if text_or_path.contains('\n') {
                    GridMap::parse(&text_or_path, "<text>")?
                } else {
                    GridMap::load(&text_or_path)?
                };
                Ok((RsGrid::with_frame(map.clone(), cell_size, origin)?, map))
            })
        }

        /// Cells across (columns).
        #[getter]
        fn width(&self) -> usize {
            self.world.map().width()
        }

        /// Cells down (rows).
        #[getter]
        fn height(&self) -> usize {
            self.world.map().height()
        }

        #[getter]
        fn cell_size(&self) -> f64 {
            self.world.cell_size()
        }

        #[getter]
        fn origin(&self) -> (f64, f64) {
            (self.world.origin().x, self.world.origin().y)
        }

        fn __repr__(&self) -> String {
            let o = self.world.origin();
            format!(
                "GridWorld({}×{} cells, cell_size={}, origin=({}, {}))",
                self.world.map().width(),
                self.world.map().height(),
                self.world.cell_size(),
                o.x,
                o.y
            )
        }
    }
}

/// A navmesh from 2D convex polygons: the library's one navmesh world, a surface of one
/// floor (`pathsmooth::SurfaceWorld` of `Surface::from_navmesh`, z up, every height 0).
#[pyclass(frozen, module = "pathsmooth")]
struct NavMeshWorld {
    /// Shared by the pipelines made on it, each with a clone (which shares its meshes and
    /// its whole-mesh sheet).
    world: Arc<SurfaceWorld>,
}

impl NavMeshWorld {
    /// `world` with `costs`.
    fn of(world: SurfaceWorld, costs: AreaCosts) -> pathsmooth::Result<Self> {
        Ok(NavMeshWorld {
            world: Arc::new(world.with_area_costs(costs)?),
        })
    }
}

world_pymethods! {
    NavMeshWorld,
    /// The cost of the segment `a`–`b` under the world's area costs (its length when they
    /// are all 1): the length inside each triangle times its polygon's area cost.
    {
        #[new]
        #[pyo3(signature = (vertices, polygons, areas = None, area_costs = None))]
        fn new(
            py: Python<'_>,
            vertices: &Bound<'_, PyAny>,
            polygons: &Bound<'_, PyAny>,
            areas: Option<Vec<i64>>,
            area_costs: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            let vertices = points(vertices, "vertices")?;
            let polygons = polygon_lists(polygons)?;
            let areas = match areas {
                None => None,
                Some(a) => Some(
                    a.into_iter()
                        .map(u8::try_from)
                        .collect::<Result<Vec<u8>, _>>()
                        .map_err(|_| Error::new_err("areas: area ids must lie in 0–255"))?,
                ),
            };
            // A navmesh's filter starts from every area at 1 (87 is no water there).
            let costs = self::area_costs(area_costs, AreaCosts::unit())?;
            py.allow_threads(|| {
                let mesh = match &areas {
                    Some(a) => NavMesh::from_polygons_with_areas(&vertices, &polygons, a)?,
                    None => NavMesh::from_polygons(&vertices, &polygons)?,
                };
                NavMeshWorld::of(SurfaceWorld::from_navmesh(&mesh)?, costs)
            })
            .map_err(lib_err)
        }

        /// A `SurfaceMesh` whose floors do not overlap (a Unity export, a one-floor Detour
        /// or Godot bake) as a navmesh world of one floor, each polygon in its area, its
        /// heights kept (`plan3` takes and returns points in the mesh's axes); a mesh with
        /// a floor over another raises `pathsmooth.Error` ("not one floor in plan view",
        /// `pathsmooth::navmesh::NavMesh::from_surface`'s words).
        #[staticmethod]
        #[pyo3(signature = (mesh, area_costs = None))]
        fn from_surface(
            py: Python<'_>,
            mesh: &SurfaceMesh,
            area_costs: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            let costs = self::area_costs(area_costs, AreaCosts::unit())?;
            let mesh = Arc::clone(&mesh.mesh);
            py.allow_threads(|| {
                if mesh.is_one_floor() {
                    return NavMeshWorld::of(SurfaceWorld::new(mesh), costs);
                }
                // The flat navmesh's refusal says where the floors overlap; a mesh it takes
                // after all is planned as given to it.
                let flat = NavMesh::from_surface(mesh.surface())?;
                NavMeshWorld::of(SurfaceWorld::from_navmesh(&flat)?, costs)
            })
            .map_err(lib_err)
        }

        /// Its polygons (a flat navmesh's, one for one: `Surface::from_navmesh`).
        #[getter]
        fn num_polygons(&self) -> usize {
            self.world.mesh().surface().num_polygons()
        }

        fn __repr__(&self) -> String {
            format!("NavMeshWorld({} polygons)", self.num_polygons())
        }
    }
}

// ---------------------------------------------------------------------------------------
// Arrays

/// `numpy.asarray(obj)`, its dtype's kind one of `kinds`: else `pathsmooth.Error`
/// "`what`: not `not_array`" (numpy's refusal appended), or a `TypeError` "`what`: dtype …
/// is not `wanted`". What `real_array` and `occupancy` share; only their words differ.
fn array_of_kind<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    not_array: &str,
    kinds: &[&str],
    wanted: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let np = obj.py().import("numpy")?;
    let arr = np
        .call_method1("asarray", (obj,))
        .map_err(|e| Error::new_err(format!("{what}: not {not_array} ({e})")))?;
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if !kinds.contains(&kind.as_str()) {
        return Err(PyTypeError::new_err(format!(
            "{what}: dtype {} is not {wanted}",
            dtype.str()?
        )));
    }
    Ok(arr)
}

/// `numpy.asarray(obj)`, its dtype checked to hold real numbers.
fn real_array<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyAny>> {
    // numpy refuses a ragged list (a shape problem): `Error`, like a wrong shape.
    array_of_kind(
        obj,
        what,
        "an array of numbers",
        &["f", "i", "u"],
        "a real number type (give float64, or any float or integer dtype, which is converted)",
    )
}

fn shape_of(arr: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    arr.getattr("shape")?.extract()
}

/// An N×`dim` array-like as a flat row-major `Vec<f64>`. A C-contiguous float64 array is
/// read in place; anything else is converted (`numpy.ascontiguousarray(…, dtype=float64)`,
/// a copy).
fn flat_points(obj: &Bound<'_, PyAny>, what: &str, dim: usize) -> PyResult<Vec<f64>> {
    // `as_slice` also takes a Fortran-ordered array: only C order is read in place.
    if let Ok(a) = obj.downcast::<PyArray2<f64>>()
        && a.shape()[1] == dim
        && a.is_c_contiguous()
        && let Ok(ro) = a.try_readonly()
        && let Ok(s) = ro.as_slice()
    {
        return Ok(s.to_vec());
    }
    let arr = real_array(obj, what)?;
    let shape = shape_of(&arr)?;
    if shape.len() != 2 || shape[1] != dim {
        let xyz = if dim == 3 { "x, y, z" } else { "x, y" };
        return Err(Error::new_err(format!(
            "{what}: expected an N×{dim} array (one row of {xyz} per point), got shape {shape:?}"
        )));
    }
    let np = obj.py().import("numpy")?;
    let kwargs = PyDict::new(obj.py());
    kwargs.set_item("dtype", np.getattr("float64")?)?;
    let c = np.call_method("ascontiguousarray", (arr,), Some(&kwargs))?;
    let c = c.downcast::<PyArray2<f64>>()?.readonly();
    Ok(c.as_slice()?.to_vec())
}

/// An N×2 array-like as points (see `flat_points`).
fn points(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<DVec2>> {
    let flat = flat_points(obj, what, 2)?;
    Ok(flat
        .chunks_exact(2)
        .map(|c| DVec2::new(c[0], c[1]))
        .collect())
}

/// An N×3 array-like as points (see `flat_points`).
fn points3(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<DVec3>> {
    let flat = flat_points(obj, what, 3)?;
    Ok(flat
        .chunks_exact(3)
        .map(|c| DVec3::new(c[0], c[1], c[2]))
        .collect())
}

/// The `N` coordinates of a length-`N` array-like (`xyz` names them in the message):
/// what `point` and `point3` share.
fn coords<const N: usize>(obj: &Bound<'_, PyAny>, what: &str, xyz: &str) -> PyResult<[f64; N]> {
    let arr = real_array(obj, what)?;
    let shape = shape_of(&arr)?;
    if shape != [N] {
        return Err(Error::new_err(format!(
            "{what}: expected a point ({xyz}), got shape {shape:?}"
        )));
    }
    let v: Vec<f64> = arr.call_method0("tolist")?.extract()?;
    Ok(std::array::from_fn(|i| v[i]))
}

/// A 3D point: a length-3 array-like.
fn point3(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec3> {
    coords(obj, what, "x, y, z").map(DVec3::from_array)
}

/// A point: a length-2 array-like.
fn point(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec2> {
    coords(obj, what, "x, y").map(DVec2::from_array)
}

/// Whether `obj` is one point of three coordinates (an error naming `what` when it is no
/// array of numbers).
fn is_3d(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    Ok(shape_of(&real_array(obj, what)?)? == [3])
}

/// `p`, or an error naming `what` when a coordinate is NaN or infinite (a world query
/// has no answer for it: the clearance of NaN is not 0).
fn finite(p: DVec2, what: &str) -> PyResult<DVec2> {
    if p.is_finite() {
        Ok(p)
    } else {
        Err(Error::new_err(format!(
            "{what}: ({}, {}) has a NaN or infinite coordinate",
            p.x, p.y
        )))
    }
}

/// `path`, or an error naming the first point with a NaN or infinite coordinate.
fn finite_points(path: Vec<DVec2>, what: &str) -> PyResult<Vec<DVec2>> {
    match path.iter().position(|p| !p.is_finite()) {
        None => Ok(path),
        Some(i) => Err(Error::new_err(format!(
            "{what}: point {i} has a NaN or infinite coordinate"
        ))),
    }
}

/// A 2D occupancy array (bool, or integers: nonzero is free) as row-major cells, its
/// height (rows) and width (columns).
fn occupancy(py: Python<'_>, free: &Bound<'_, PyAny>) -> PyResult<(Vec<bool>, usize, usize)> {
    let np = py.import("numpy")?;
    let arr = array_of_kind(
        free,
        "free",
        "an array",
        &["b", "i", "u"],
        "an occupancy type (give bool or uint8: true or nonzero is a free cell)",
    )?;
    let shape = shape_of(&arr)?;
    if shape.len() != 2 {
        return Err(Error::new_err(format!(
            "free: expected a 2D array indexed [row, column], got shape {shape:?}"
        )));
    }
    let ne = arr.call_method1("__ne__", (0,))?;
    let c = np.call_method1("ascontiguousarray", (ne,))?;
    let c = c.downcast::<PyArray2<bool>>()?.readonly();
    Ok((c.as_slice()?.to_vec(), shape[0], shape[1]))
}

fn to_array<'py>(py: Python<'py>, path: &[DVec2]) -> Bound<'py, PyArray2<f64>> {
    rows_array(py, path.iter().map(|p| [p.x, p.y]))
}

/// Rows of `N` numbers as an n×N float64 array (N×2 paths, N×3 points on a surface).
fn rows_array<'py, const N: usize>(
    py: Python<'py>,
    rows: impl ExactSizeIterator<Item = [f64; N]>,
) -> Bound<'py, PyArray2<f64>> {
    let n = rows.len();
    let flat: Vec<f64> = rows.flatten().collect();
    Array2::from_shape_vec((n, N), flat)
        .expect("n × N values")
        .into_pyarray(py)
}

// ---------------------------------------------------------------------------------------
// Steps, reports

fn step_named(name: &str, value: Option<f64>) -> PyResult<Step> {
    Step::named(name, value).map_err(|e| match e {
        // Python gives a step's value as a pair: say how.
        pathsmooth::StepNameError::NeedsValue { step, .. } => {
            Error::new_err(format!("{e}: give it as a pair, e.g. (\"{step}\", 1.0)"))
        }
        e => Error::new_err(e.to_string()),
    })
}

fn parse_steps(steps: &Bound<'_, PyAny>) -> PyResult<Vec<Step>> {
    if steps.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "steps: expected a list of step names (or (name, value) pairs), got a str",
        ));
    }
    let mut out = Vec::new();
    for item in steps.try_iter()? {
        let item = item?;
        let step = if let Ok(name) = item.extract::<String>() {
            step_named(&name, None)?
        } else if let Ok((name, value)) = item.extract::<(String, f64)>() {
            step_named(&name, Some(value))?
        } else {
            return Err(PyTypeError::new_err(format!(
                "steps: each step is a name or a (name, number) pair, got {}",
                item.repr()?
            )));
        };
        // Checked now, as the C ABI checks its steps when a pipeline is made: a bad
        // parameter is refused here, not at the first plan.
        step.validate()
            .map_err(|e| Error::new_err(format!("step {}: {e}", out.len())))?;
        out.push(step);
    }
    Ok(out)
}

fn preset_named(name: &str) -> PyResult<Preset> {
    Preset::named(name).map_err(|e| Error::new_err(e.to_string()))
}

fn steps_or_preset(preset: Option<&str>, steps: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Step>> {
    match (preset, steps) {
        (Some(_), Some(_)) => Err(Error::new_err("give either preset or steps, not both")),
        (None, Some(s)) => parse_steps(s),
        (p, None) => Ok(preset_named(p.unwrap_or("smooth"))?.steps()),
    }
}

fn polygon_lists(polygons: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<u32>>> {
    polygons.extract().map_err(|e| {
        PyTypeError::new_err(format!(
            "polygons: expected a sequence of polygons, each a sequence of vertex indices \
             (integers ≥ 0): {e}"
        ))
    })
}

/// Sets `$dict[name] = $value.name` for each field named, in order (a `?` on each): the
/// result dicts' keys are the names of the library's fields they show.
macro_rules! set_fields {
    ($dict:expr, $value:expr, [$($field:ident),* $(,)?]) => {
        $($dict.set_item(stringify!($field), &$value.$field)?;)*
    };
}

fn validation_dict<'py>(py: Python<'py>, v: &ValidationReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("valid", v.is_valid())?;
    d.set_item("problem", v.problem())?;
    set_fields!(
        d,
        v,
        [
            min_clearance,
            radius,
            length,
            max_turn,
            total_turn,
            blocked_segments,
            blocked_bends,
            clearance_violations
        ]
    );
    d.set_item("first_problem_at", v.first_problem_at.map(|p| (p.x, p.y)))?;
    Ok(d)
}

fn report_dict<'py>(py: Python<'py>, r: &PipelineReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let skipped = PyList::empty(py);
    for (step, reason) in &r.skipped {
        skipped.append((*step, reason.as_ref()))?;
    }
    d.set_item("skipped", skipped)?;
    d.set_item("repaired_segments", r.repaired_segments)?;
    d.set_item("min_clearance", r.validation.min_clearance)?;
    d.set_item("validation", validation_dict(py, &r.validation)?)?;
    let corners = PyList::empty(py);
    for c in &r.corners {
        let cd = PyDict::new(py);
        cd.set_item("index", c.index)?;
        cd.set_item("at", (c.at.x, c.at.y))?;
        cd.set_item("turn", c.turn)?;
        cd.set_item("radius", c.radius)?;
        cd.set_item("limit", format!("{:?}", c.limit))?;
        corners.append(cd)?;
    }
    d.set_item("corners", corners)?;
    set_fields!(d, r, [input_cost, cost, plan_length]);
    let snapped = PyList::empty(py);
    for (end, distance) in &r.snapped {
        snapped.append((*end, *distance))?;
    }
    d.set_item("snapped", snapped)?;
    Ok(d)
}

// ---------------------------------------------------------------------------------------
// The pipeline

/// The lock of a pipeline's, a surface planner's or a crowd's state, taken also after a
/// panic while it was held (poisoned): a panic cannot leave a pipeline half-updated in a
/// way that matters, as the next run starts from a reset report.
fn unpoisoned<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The world a `Pipeline` runs on: a grid, or a navmesh (a `NavMeshWorld`, flat, or a
/// `SurfaceMesh`, layered), the library's one navmesh world, of which each pipeline owns a
/// clone (sharing its meshes; on a mesh with floors over one another, cutting its own
/// sheet per plan).
#[derive(Clone)]
enum PipelineWorld {
    Grid(Arc<RsGrid>),
    Surface(Arc<SurfaceWorld>),
}

/// What makes a pipeline: the world, the radius in effect, the steps and the climb (a
/// surface's only). The one constructor of the library's pipelines here: `Pipeline`'s own
/// and its batches' copies.
#[derive(Clone)]
struct Settings {
    world: PipelineWorld,
    radius: f64,
    steps: Vec<Step>,
    climb: Option<f64>,
}

impl Settings {
    /// A new library pipeline of these settings (a surface's with no sheet yet).
    fn runner(&self) -> pathsmooth::Result<AnyPipeline> {
        Ok(match &self.world {
            PipelineWorld::Grid(w) => AnyPipeline::Grid(
                RsPipeline::new(Arc::clone(w), self.radius)?.with_steps(self.steps.iter().cloned()),
            ),
            PipelineWorld::Surface(w) => {
                AnyPipeline::NavMesh(self.on_surface(SurfaceWorld::clone(w))?)
            }
        })
    }

    /// A library pipeline of these settings on `world` (a surface world, maybe with the
    /// sheet of a plan: a batch's copy of it smooths on that sheet).
    fn on_surface(&self, world: SurfaceWorld) -> pathsmooth::Result<RsPipeline<SurfaceWorld>> {
        let mut pipeline =
            RsPipeline::new(world, self.radius)?.with_steps(self.steps.iter().cloned());
        if let Some(c) = self.climb {
            pipeline.surface_query_mut().set_climb(c)?;
        }
        Ok(pipeline)
    }
}

/// The climb `climb` checked as the library's `SurfaceQuery::set_climb` checks it (the
/// error's message starting with `what`).
fn check_climb(climb: Option<f64>, what: &'static str) -> PyResult<()> {
    if let Some(c) = climb {
        pathsmooth::navmesh::SurfaceQuery::new()
            .set_climb(c)
            .map_err(err_in(what))?;
    }
    Ok(())
}

/// A 2D end of `Pipeline.plan` (`what`: "start", "goal"). On a layered navmesh a 3D point
/// gets its own message: those go to `plan3`.
fn plan_end(obj: &Bound<'_, PyAny>, what: &str, surface: bool) -> PyResult<DVec2> {
    if surface && is_3d(obj, what)? {
        return Err(Error::new_err(format!(
            "Pipeline.plan: {what} is a 3D point (x, y, z), and plan takes plan-view ends \
             (x, y) and returns the path in plan view: give 3D ends to plan3, which returns \
             the points in 3D with their polygons and flags"
        )));
    }
    point(obj, what)
}

/// A 3D end of `Pipeline.plan3`; a 2D point gets its own message: those go to `plan`.
fn plan3_end(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec3> {
    if shape_of(&real_array(obj, what)?)? == [2] {
        return Err(Error::new_err(format!(
            "Pipeline.plan3: {what} is a plan-view point (x, y), and plan3 takes 3D ends \
             (x, y, z): give both ends in plan view to plan, or locate this one on its floor \
             with floor_point"
        )));
    }
    point3(obj, what)
}

/// A path on a surface as Python arrays: the points (N×3 float64), their polygons (N
/// uint32) and their flags (N uint8).
type SurfaceArrays<'py> = (
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u8>>,
);

fn surface_arrays<'py>(
    py: Python<'py>,
    path: &[pathsmooth::navmesh::SurfacePoint],
) -> SurfaceArrays<'py> {
    let points = rows_array(py, path.iter().map(|p| p.position.to_array()));
    let polygons = path.iter().map(|p| p.polygon).collect::<Vec<u32>>();
    let flags = path.iter().map(|p| p.flags.bits()).collect::<Vec<u8>>();
    (points, polygons.into_pyarray(py), flags.into_pyarray(py))
}

/// A navmesh's call on a grid's pipeline (checked before: never raised).
const NOT_A_SURFACE: pathsmooth::Error = pathsmooth::Error::Unsupported {
    what: "a navmesh's call on a grid world",
    needs: "a Pipeline on a NavMeshWorld or a SurfaceMesh",
};

/// What a smooth on a layered navmesh needs said when it fails with no sheet.
const NO_SHEET: &str = "on a SurfaceMesh a path is smoothed on the sheet of the pipeline's \
                        last plan (the one-floor piece of the surface round its path), and no \
                        plan has cut one yet: plan first (plan or plan3)";

struct Inner {
    /// The library's pipeline on the world it was made on.
    runner: AnyPipeline,
    /// The report of the last run (`plan`, `plan3` or `smooth`), kept for `.report`.
    report: PipelineReport,
}

/// A world, an agent radius and steps (`pathsmooth::Pipeline`): the world a `GridWorld`,
/// a `NavMeshWorld` or a `SurfaceMesh` (a layered navmesh; `climb` only on a navmesh).
/// Both navmeshes are the library's one navmesh world (a `NavMeshWorld` is a surface of
/// one floor: z up, at height 0, unless made `from_surface`).
///
/// On every world `plan(start, goal)` takes 2D ends and returns an N×2 path in plan view
/// (on a navmesh each end is located on the one floor under it, else an error). On a
/// navmesh `plan3(start, goal)` takes 3D ends and returns (points N×3, polygons,
/// flags). Two names, not one `plan` whose result depends on its ends' length: a method's
/// return type then follows from its name (the stubs type it exactly, where an array's
/// length is no type), and a wrong-length point is an error rather than a result of
/// another shape; the library's `plan` / `plan_surface` and the C ABI's
/// `ps_pipeline_plan_f64` / `ps_pipeline_plan3_f64` split the same way. `smooth` on a
/// SurfaceMesh smooths on the sheet of the last plan (the one-floor piece of the surface
/// round its path): on a mesh with several floors, an error before any plan (a mesh with
/// one floor is its own sheet from the start).
///
/// Safe to share between threads: calls on one pipeline run one at a time (a lock, taken
/// with the GIL released); `smooth_many` / `plan_many` run their batch in parallel on
/// copies.
#[pyclass(frozen, module = "pathsmooth")]
struct Pipeline {
    settings: Settings,
    world_obj: Py<PyAny>,
    inner: Mutex<Inner>,
}

impl Pipeline {
    /// The pipeline of `settings` (whose radius is the one given: the one in effect
    /// replaces it) on the Python world `world_obj`.
    fn build(py: Python<'_>, mut settings: Settings, world_obj: Py<PyAny>) -> PyResult<Self> {
        let runner = py.allow_threads(|| settings.runner()).map_err(lib_err)?;
        settings.radius = runner.radius();
        Ok(Pipeline {
            settings,
            world_obj,
            inner: Mutex::new(Inner {
                runner,
                report: PipelineReport::default(),
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        unpoisoned(&self.inner)
    }

    fn is_surface(&self) -> bool {
        matches!(self.settings.world, PipelineWorld::Surface(_))
    }

    /// `job` on the pipeline, under its lock with the GIL released: its report becomes
    /// `.report` (whether it failed or not).
    fn run_on<T: Send, E: Send>(
        &self,
        py: Python<'_>,
        job: impl FnOnce(&mut AnyPipeline) -> Result<T, E> + Send,
    ) -> Result<T, E> {
        py.allow_threads(|| {
            let mut inner = self.lock();
            let r = job(&mut inner.runner);
            inner.report = inner.runner.report().clone();
            r
        })
    }

    /// `run_on` for a 2D path: an N×2 array.
    fn run<'py>(
        &self,
        py: Python<'py>,
        job: impl FnOnce(&mut AnyPipeline) -> pathsmooth::Result<Vec<DVec2>> + Send,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let path = self.run_on(py, job).map_err(lib_err)?;
        Ok(to_array(py, &path))
    }

    /// `Pipeline.plan3`'s work: the path on the layered navmesh from 3D ends, in 3D.
    fn plan_surface(
        &self,
        py: Python<'_>,
        start: DVec3,
        goal: DVec3,
    ) -> PyResult<Vec<pathsmooth::navmesh::SurfacePoint>> {
        if !self.is_surface() {
            return Err(self.needs_surface("plan3"));
        }
        self.run_on(py, |runner| match runner.navmesh_mut() {
            Some(p) => p.plan_surface(start, goal).map(<[_]>::to_vec),
            None => Err(NOT_A_SURFACE),
        })
        .map_err(lib_err)
    }

    /// The error of `what` (a navmesh's call) on a grid.
    fn needs_surface(&self, what: &str) -> PyErr {
        Error::new_err(format!(
            "Pipeline.{what} needs a navmesh world (a NavMeshWorld or a SurfaceMesh), and \
             this pipeline's is a GridWorld: plan on it with plan (2D ends)"
        ))
    }

    /// Runs `job` over `items` on `threads` threads (None: rayon's global pool), one
    /// pipeline per worker (made by `make`), results in order; the first error (by index)
    /// is raised.
    fn batch<T: Sync>(
        &self,
        py: Python<'_>,
        items: &[T],
        threads: Option<usize>,
        make: impl Fn() -> pathsmooth::Result<AnyPipeline> + Sync + Send,
        job: impl Fn(&mut AnyPipeline, &T) -> pathsmooth::Result<Vec<DVec2>> + Sync + Send,
    ) -> PyResult<Vec<Vec<DVec2>>> {
        let run = || -> Result<Vec<Vec<DVec2>>, (usize, pathsmooth::Error)> {
            let results: Vec<pathsmooth::Result<Vec<DVec2>>> = items
                .par_iter()
                .map_init(&make, |p, item| match p {
                    Ok(p) => job(p, item),
                    Err(e) => Err(e.clone()),
                })
                .collect();
            results
                .into_iter()
                .enumerate()
                .map(|(i, r)| r.map_err(|e| (i, e)))
                .collect()
        };
        if threads == Some(0) {
            return Err(Error::new_err("threads: expected at least 1 (or None)"));
        }
        let out = py.allow_threads(|| match threads {
            None => Ok(run()),
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map(|pool| pool.install(run))
                .map_err(|e| e.to_string()),
        });
        match out {
            Ok(Ok(paths)) => Ok(paths),
            Ok(Err((i, e))) => Err(Error::new_err(format!("item {i}: {}", message(&e)))),
            Err(e) => Err(PyValueError::new_err(format!("threads: {e}"))),
        }
    }
}

/// The error of a smooth that failed, with what it means on a layered navmesh whose
/// pipeline has no sheet yet (`NO_SHEET`).
fn smooth_err(e: impl std::fmt::Display, no_sheet: bool) -> PyErr {
    if no_sheet {
        Error::new_err(format!("{e}; {NO_SHEET}"))
    } else {
        Error::new_err(e.to_string())
    }
}

/// True on a layered navmesh before any plan has cut a sheet (or after a plan whose path
/// no flat sheet holds).
fn no_sheet(p: &AnyPipeline) -> bool {
    p.navmesh().is_some_and(|p| p.world().sheet().is_none())
}

#[pymethods]
impl Pipeline {
    #[new]
    #[pyo3(signature = (world, radius, preset = None, steps = None, climb = None))]
    fn new(
        py: Python<'_>,
        world: &Bound<'_, PyAny>,
        radius: f64,
        preset: Option<&str>,
        steps: Option<&Bound<'_, PyAny>>,
        climb: Option<f64>,
    ) -> PyResult<Self> {
        let pipeline_world = if let Some((w, _)) = navmesh_world(py, world) {
            PipelineWorld::Surface(w)
        } else if let Ok(g) = world.downcast::<GridWorld>() {
            PipelineWorld::Grid(Arc::clone(&g.get().world))
        } else {
            return Err(not_a_world(world));
        };
        let steps = steps_or_preset(preset, steps)?;
        if let (PipelineWorld::Grid(_), Some(_)) = (&pipeline_world, climb) {
            return Err(Error::new_err(
                "Pipeline: climb is how far above or below a floor of a navmesh an end may \
                 be, and a GridWorld has no floors: leave climb out",
            ));
        }
        check_climb(climb, "Pipeline")?;
        let settings = Settings {
            world: pipeline_world,
            radius,
            steps,
            climb,
        };
        Self::build(py, settings, world.clone().unbind())
    }

    /// The world it runs on.
    #[getter]
    fn world(&self, py: Python<'_>) -> Py<PyAny> {
        self.world_obj.clone_ref(py)
    }

    /// The agent radius in effect (a radius below the world's tolerance is 0).
    #[getter]
    fn radius(&self) -> f64 {
        self.settings.radius
    }

    /// The steps' names, in order.
    #[getter]
    fn steps(&self) -> Vec<&'static str> {
        self.settings.steps.iter().map(Step::name).collect()
    }

    /// The climb given (on a navmesh: how far above or below a floor an end may be and
    /// still be on it), or None: the mesh's own (`SurfaceMesh.climb`).
    #[getter]
    fn climb(&self) -> Option<f64> {
        self.settings.climb
    }

    /// What the last `plan`, `plan3` or `smooth` did: skipped steps with reasons, repaired
    /// input segments, the validation of the result (min clearance, ...), fillet corners.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let inner = self.lock();
        report_dict(py, &inner.report)
    }

    /// A path (N×2) smoothed into a path valid on the world for the radius. On a
    /// SurfaceMesh: on the sheet of the last plan (with several floors, an error before any
    /// plan; a mesh with one floor is its own sheet).
    fn smooth<'py>(
        &self,
        py: Python<'py>,
        path: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let path = points(path, "path")?;
        let path = self.run_on(py, |p| {
            let no_sheet = no_sheet(p);
            p.smooth(&path).map_err(|e| smooth_err(e, no_sheet))
        })?;
        Ok(to_array(py, &path))
    }

    /// A path from start to goal (2D points): the world's search, then the steps; N×2.
    /// On a SurfaceMesh each end is located on the one floor under it (else an error) and
    /// the path is returned in plan view.
    fn plan<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'py, PyAny>,
        goal: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let surface = self.is_surface();
        let (start, goal) = (
            plan_end(start, "start", surface)?,
            plan_end(goal, "goal", surface)?,
        );
        self.run(py, |p| p.plan(start, goal))
    }

    /// On a navmesh, a path from start to goal (3D points): the points (N×3 float64,
    /// each at its floor's height), their polygons (N uint32) and their flags (N uint8:
    /// 1 start, 2 end, 4 a link's start, 8 a link's end).
    fn plan3<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'py, PyAny>,
        goal: &Bound<'py, PyAny>,
    ) -> PyResult<SurfaceArrays<'py>> {
        if !self.is_surface() {
            return Err(self.needs_surface("plan3"));
        }
        let (start, goal) = (plan3_end(start, "start")?, plan3_end(goal, "goal")?);
        let path = self.plan_surface(py, start, goal)?;
        Ok(surface_arrays(py, &path))
    }

    /// On a navmesh, the 3D point of a plan-view point on the one floor under it, as
    /// `plan` locates its ends (within the pipeline's climb): a length-3 float64 array.
    fn floor_point<'py>(
        &self,
        py: Python<'py>,
        point: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        if !self.is_surface() {
            return Err(self.needs_surface("floor_point"));
        }
        let p = self::point(point, "point")?;
        let at = py
            .allow_threads(|| {
                let mut query = pathsmooth::SurfaceWorldQuery::default();
                if let Some(c) = self.settings.climb {
                    query.surface_mut().set_climb(c)?;
                }
                match self.lock().runner.navmesh() {
                    Some(pipeline) => pipeline.world().floor_point(p, &mut query),
                    None => Err(NOT_A_SURFACE),
                }
            })
            .map_err(lib_err)?;
        Ok(at.to_array().to_vec().into_pyarray(py))
    }

    /// `smooth` on every path of a batch, in parallel on `threads` threads (None: one per
    /// core); the results in order. `.report` is not touched. On a SurfaceMesh, each on
    /// the sheet of the last plan, as `smooth`.
    #[pyo3(signature = (paths, threads = None))]
    fn smooth_many<'py>(
        &self,
        py: Python<'py>,
        paths: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
        let mut input = Vec::new();
        for (i, p) in paths.try_iter()?.enumerate() {
            input.push(points(&p?, &format!("paths[{i}]"))?);
        }
        // On a surface the copies start from the world as it now is: its last sheet.
        let world = py.allow_threads(|| Some(self.lock().runner.navmesh()?.world().clone()));
        let make = || match &world {
            Some(w) => Ok(AnyPipeline::NavMesh(self.settings.on_surface(w.clone())?)),
            None => self.settings.runner(),
        };
        let no_sheet = world.as_ref().is_some_and(|w| w.sheet().is_none());
        let out = self
            .batch(py, &input, threads, make, |p, path| p.smooth(path))
            .map_err(|e| match no_sheet {
                true => Error::new_err(format!("{}; {NO_SHEET}", e.value(py))),
                false => e,
            })?;
        Ok(out.iter().map(|p| to_array(py, p)).collect())
    }

    /// `plan` for every (start, goal) pair, in parallel; starts and goals are N×2 (on a
    /// SurfaceMesh too: plan-view ends, each on the one floor under it).
    #[pyo3(signature = (starts, goals, threads = None))]
    fn plan_many<'py>(
        &self,
        py: Python<'py>,
        starts: &Bound<'py, PyAny>,
        goals: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
        let starts = points(starts, "starts")?;
        let goals = points(goals, "goals")?;
        if starts.len() != goals.len() {
            return Err(Error::new_err(format!(
                "starts and goals differ in length ({} and {})",
                starts.len(),
                goals.len()
            )));
        }
        let pairs: Vec<(DVec2, DVec2)> = starts.into_iter().zip(goals).collect();
        let make = || self.settings.runner();
        let out = self.batch(py, &pairs, threads, make, |p, &(s, g)| p.plan(s, g))?;
        Ok(out.iter().map(|p| to_array(py, p)).collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "Pipeline(radius={}, steps={:?})",
            self.settings.radius,
            self.steps()
        )
    }
}

// ---------------------------------------------------------------------------------------
// Crowds

/// A crowd on any kind of world: a grid, or a navmesh (a `NavMeshWorld`, or a
/// `SurfaceMesh` of one floor or of floors over one another).
enum AnyCrowd {
    Grid(RsCrowd<RsGrid>),
    Surface(RsCrowd<SurfaceWorld>),
}

/// `$body` with `$c` bound to the crowd, whichever its world.
macro_rules! on_crowd {
    ($crowd:expr, $c:ident => $body:expr) => {
        match $crowd {
            AnyCrowd::Grid($c) => $body,
            AnyCrowd::Surface($c) => $body,
        }
    };
}

fn new_crowd<W: ObstacleWorld + Send + Sync>(
    world: W,
    radius: f64,
    steps: Vec<Step>,
    settings: CrowdSettings,
) -> pathsmooth::Result<RsCrowd<W>> {
    RsCrowd::new(world, radius, steps)?
        .with_threads(settings.threads)?
        .with_plan_budget(settings.plan_budget)?
        .with_avoidance(settings.avoid)?
        .with_speed_profile(settings.speed_profile)
}

/// What a crowd is made with beside its world, radius and steps.
#[derive(Clone, Copy)]
struct CrowdSettings {
    threads: usize,
    plan_budget: Option<usize>,
    avoid: Option<Avoidance>,
    speed_profile: Option<FollowAgent>,
}

/// Settings given by name: `False` (or `None`) none, `True` the library's `default`, or a
/// dict of the settings that differ from it, each put in place by `set` (which returns
/// `false` for a name it does not know: a `ValueError` naming `names`). The values are
/// checked by the library when the crowd is made.
fn by_name<T>(
    arg: &str,
    value: &Bound<'_, PyAny>,
    (default, names): (T, &str),
    set: impl Fn(&mut T, &str, &Bound<'_, PyAny>) -> PyResult<bool>,
) -> PyResult<Option<T>> {
    if let Ok(on) = value.extract::<bool>() {
        return Ok(on.then_some(default));
    }
    let dict = value.downcast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!("{arg}: expected a bool or a dict of settings"))
    })?;
    let mut settings = default;
    for (k, v) in dict.iter() {
        let key = k
            .extract::<String>()
            .map_err(|_| PyTypeError::new_err(format!("{arg}: the settings' names are str")))?;
        if !set(&mut settings, &key, &v)? {
            return Err(PyValueError::new_err(format!(
                "{arg}: no setting {key:?} ({names})"
            )));
        }
    }
    Ok(Some(settings))
}

/// Setting `key` of `arg` as a number.
fn setting_number(arg: &str, key: &str, v: &Bound<'_, PyAny>) -> PyResult<f64> {
    v.extract::<f64>()
        .map_err(|_| PyTypeError::new_err(format!("{arg}[{key:?}]: expected a number")))
}

/// The avoidance a crowd is made with ([`by_name`], `Avoidance`'s fields).
fn avoidance(avoid: &Bound<'_, PyAny>) -> PyResult<Option<Avoidance>> {
    let names = "time_horizon, max_neighbours, wall_time_horizon, neighbour_distance";
    by_name(
        "avoid",
        avoid,
        (Avoidance::default(), names),
        |a, key, v| {
            let number = || setting_number("avoid", key, v);
            match key {
                "time_horizon" => a.time_horizon = number()?,
                "wall_time_horizon" => a.wall_time_horizon = number()?,
                "neighbour_distance" if v.is_none() => a.neighbour_distance = None,
                "neighbour_distance" => a.neighbour_distance = Some(number()?),
                "max_neighbours" => {
                    a.max_neighbours = v.extract::<usize>().map_err(|_| {
                        PyTypeError::new_err("avoid[\"max_neighbours\"]: expected an int >= 1")
                    })?
                }
                _ => return Ok(false),
            }
            Ok(true)
        },
    )
}

/// The motion limits a crowd's agents keep ([`by_name`], `follow::Agent`'s limits; angles
/// in radians, as the library's).
fn speed_profile(limits: &Bound<'_, PyAny>) -> PyResult<Option<FollowAgent>> {
    let names = "max_speed, max_accel, max_brake, max_lateral_accel, max_turn_rate, \
                 stop_angle, max_corner_cut";
    let default = (FollowAgent::default(), names);
    by_name("speed_profile", limits, default, |a, key, v| {
        let field = match key {
            "max_speed" => &mut a.max_speed,
            "max_accel" => &mut a.max_accel,
            "max_brake" => &mut a.max_brake,
            "max_lateral_accel" => &mut a.max_lateral_accel,
            "max_turn_rate" => &mut a.max_turn_rate,
            "stop_angle" => &mut a.stop_angle,
            "max_corner_cut" => &mut a.max_corner_cut,
            _ => return Ok(false),
        };
        *field = setting_number("speed_profile", key, v)?;
        Ok(true)
    })
}

struct CrowdState {
    crowd: AnyCrowd,
}

/// A moving obstacle as Python sees it: (id, (x, y), radius, (vx, vy)).
type MovingRow = (u64, (f64, f64), f64, (f64, f64));

/// The error for `what` on a crowd that is not across floors.
fn floors_only(what: &'static str) -> pathsmooth::Error {
    pathsmooth::Error::Unsupported {
        what,
        needs: "a crowd made on a SurfaceMesh with floors over one another",
    }
}

/// A moving obstacle's handle from its number; a negative number is none the crowd gave.
fn moving_id(n: i64) -> pathsmooth::Result<MovingId> {
    u64::try_from(n)
        .map(MovingId::from_raw)
        .map_err(|_| pathsmooth::Error::BadObstacle {
            reason: format!("no moving obstacle {n} (never added, or removed already)"),
        })
}

impl CrowdState {
    fn agents(&self) -> &[CrowdAgent] {
        on_crowd!(&self.crowd, c => c.agents())
    }

    /// Agent `agent`, or the library's error for an index out of range.
    fn agent(&self, agent: i64) -> pathsmooth::Result<&CrowdAgent> {
        usize::try_from(agent)
            .ok()
            .and_then(|i| self.agents().get(i))
            .ok_or(pathsmooth::Error::BadParameter {
                name: "agent",
                value: agent as f64,
                expected: "the index of an agent of the crowd",
            })
    }
}

/// The floors a crowd's world has, which say what points its agents come in with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Floors {
    /// A grid: 2D points.
    None,
    /// A navmesh of one floor: 2D or 3D points.
    One,
    /// Floors over one another: 3D points.
    Several,
}

impl Floors {
    /// Whether `point` (an agent's position) is to be taken in 3D.
    fn takes_3d(self, point: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
        match self {
            Floors::None => Ok(false),
            Floors::One => is_3d(point, what),
            Floors::Several => Ok(true),
        }
    }
}

/// Many agents walking their paths on one world whose obstacles come and go
/// (`pathsmooth::crowd::Crowd`). The crowd owns a copy of the world it is given: obstacles
/// change the crowd's world only. Calls run one at a time (a lock, taken with the GIL
/// released).
#[pyclass(frozen, module = "pathsmooth")]
struct Crowd {
    radius: f64,
    /// The points its agents come in with: read before the lock is taken.
    floors: Floors,
    /// The Python class of the world it was made on, for its `repr`.
    kind: &'static str,
    inner: Mutex<CrowdState>,
}

impl Crowd {
    /// `f` on the crowd, under its lock, with the GIL released.
    fn with<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut CrowdState) -> T + Send) -> T {
        py.allow_threads(|| f(&mut unpoisoned(&self.inner)))
    }

    /// Adds `obstacle`: on the floor under the 3D point `floor` when given (a crowd on a
    /// `SurfaceMesh` only), else on the one floor under its shape.
    fn add(
        &self,
        py: Python<'_>,
        obstacle: Obstacle,
        floor: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u64, usize)> {
        let floor = floor.map(|f| point3(f, "floor")).transpose()?;
        let (id, blocked) = self
            .with(py, |s| match (floor, &mut s.crowd) {
                (None, crowd) => on_crowd!(crowd, c => c.add_obstacle(obstacle)),
                (Some(at), AnyCrowd::Surface(c)) => c.add_obstacle_on_floor(obstacle, at),
                (Some(_), _) => Err(pathsmooth::Error::Unsupported {
                    what: "an obstacle on a floor",
                    needs: "a crowd made on a SurfaceMesh",
                }),
            })
            .map_err(lib_err)?;
        Ok((id.get(), blocked))
    }
}

#[pymethods]
impl Crowd {
    #[new]
    #[pyo3(signature = (world, radius, preset = None, steps = None, threads = 1, plan_budget = None, avoid = None, speed_profile = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        world: &Bound<'_, PyAny>,
        radius: f64,
        preset: Option<&str>,
        steps: Option<&Bound<'_, PyAny>>,
        threads: usize,
        plan_budget: Option<usize>,
        avoid: Option<&Bound<'_, PyAny>>,
        speed_profile: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let steps = steps_or_preset(preset, steps)?;
        let settings = CrowdSettings {
            threads,
            plan_budget,
            avoid: avoid.map(avoidance).transpose()?.flatten(),
            speed_profile: speed_profile
                .map(self::speed_profile)
                .transpose()?
                .flatten(),
        };
        let (crowd, kind) = if let Ok(g) = world.downcast::<GridWorld>() {
            let g = g.get();
            let crowd = py.allow_threads(|| {
                new_crowd(g.copy_world()?, radius, steps, settings).map(AnyCrowd::Grid)
            });
            (crowd, "GridWorld")
        } else {
            let (surface, kind) = navmesh_world(py, world).ok_or_else(|| not_a_world(world))?;
            let surface = SurfaceWorld::clone(&surface);
            // On one floor the crowd walks its whole plan view; across floors over one
            // another each agent walks the sheet round its own path.
            let crowd = py.allow_threads(|| {
                new_crowd(surface, radius, steps, settings).map(AnyCrowd::Surface)
            });
            (crowd, kind)
        };
        let crowd = crowd.map_err(lib_err)?;
        Ok(Crowd {
            radius: on_crowd!(&crowd, c => c.radius()),
            floors: match &crowd {
                AnyCrowd::Grid(_) => Floors::None,
                AnyCrowd::Surface(c) if c.world().mesh().is_one_floor() => Floors::One,
                AnyCrowd::Surface(_) => Floors::Several,
            },
            kind,
            inner: Mutex::new(CrowdState { crowd }),
        })
    }

    /// The agents' radius in effect.
    #[getter]
    fn radius(&self) -> f64 {
        self.radius
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.with(py, |s| s.agents().len())
    }

    /// Adds an agent at `position` walking to `target` at `speed` (world units per
    /// second), of the crowd's radius or its own `radius`, its path planned now; returns
    /// its index. On a navmesh both may be 3D points in the mesh's axes (located on the
    /// surface), and on a `SurfaceMesh` with floors over one another they must be (the
    /// agent walks the sheet round its path).
    #[pyo3(signature = (position, target, speed, radius = None))]
    fn add_agent(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        target: &Bound<'_, PyAny>,
        speed: f64,
        radius: Option<f64>,
    ) -> PyResult<usize> {
        if self.floors.takes_3d(position, "position")? {
            let (p, t) = (point3(position, "position")?, point3(target, "target")?);
            return self
                .with(py, |s| match &mut s.crowd {
                    AnyCrowd::Surface(c) => match radius {
                        None => c.add_agent_on_surface(p, t, speed),
                        Some(r) => c.add_agent_on_surface_with_radius(p, t, speed, r),
                    },
                    _ => unreachable!("3D points are taken on a surface only"),
                })
                .map_err(lib_err);
        }
        let (p, t) = (point(position, "position")?, point(target, "target")?);
        self.with(py, |s| match radius {
            None => on_crowd!(&mut s.crowd, c => c.add_agent(p, t, speed)),
            Some(r) => on_crowd!(&mut s.crowd, c => c.add_agent_with_radius(p, t, speed, r)),
        })
        .map_err(lib_err)
    }

    /// Removes an agent: the last agent takes its index; returns the index that agent had
    /// (`None` when the removed one was the last).
    fn remove_agent(&self, py: Python<'_>, agent: i64) -> PyResult<Option<usize>> {
        self.with(py, |s| {
            let i = s.agent(agent).map(|_| agent as usize)?;
            on_crowd!(&mut s.crowd, c => c.remove_agent(i))
        })
        .map_err(lib_err)
    }

    /// Every agent's radius, in agent order.
    fn radii<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let radii: Vec<f64> = self.with(py, |s| s.agents().iter().map(|a| a.radius()).collect());
        radii.into_pyarray(py)
    }

    /// Asks an agent to walk to `target`: the next `update` plans it. On a navmesh a 3D
    /// target is planned now across the whole surface; on a `SurfaceMesh` with floors
    /// over one another a 2D one on the agent's own sheet at the next `update`.
    fn set_target(&self, py: Python<'_>, agent: i64, target: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.floors != Floors::None && is_3d(target, "target")? {
            let t = point3(target, "target")?;
            return self
                .with(py, |s| {
                    let i = s.agent(agent).map(|_| agent as usize)?;
                    match &mut s.crowd {
                        AnyCrowd::Surface(c) => c.set_target_on_surface(i, t),
                        _ => unreachable!("3D points are taken on a surface only"),
                    }
                })
                .map_err(lib_err);
        }
        let t = point(target, "target")?;
        self.with(py, |s| {
            let i = s.agent(agent).map(|_| agent as usize)?;
            on_crowd!(&mut s.crowd, c => c.set_target(i, t))
        })
        .map_err(lib_err)
    }

    /// Moves every agent `dt` seconds on; what it did, summed over the agents.
    fn update<'py>(&self, py: Python<'py>, dt: f64) -> PyResult<Bound<'py, PyDict>> {
        let f = self
            .with(py, |s| on_crowd!(&mut s.crowd, c => c.update(dt)))
            .map_err(lib_err)?;
        let d = PyDict::new(py);
        set_fields!(
            d,
            f,
            [moved, replans, adjusted, refused, failed, repaired, stuck, waiting]
        );
        Ok(d)
    }

    /// The agents' positions, N×2.
    fn positions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let p: Vec<DVec2> = self.with(py, |s| {
            s.agents().iter().map(CrowdAgent::position).collect()
        });
        to_array(py, &p)
    }

    /// On a crowd made on a `SurfaceMesh`: the agents' positions in 3D, N×3 in the mesh's
    /// axes, each on its floor.
    fn positions3<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let rows = self.with(py, |s| match &s.crowd {
            AnyCrowd::Surface(c) => Some(c.agent_points().map(|p| p.to_array()).collect()),
            AnyCrowd::Grid(_) => None,
        });
        let rows: Vec<[f64; 3]> = rows.ok_or_else(|| {
            PyValueError::new_err(
                "positions3: only a crowd made on a navmesh (a NavMeshWorld or a SurfaceMesh) \
                 has a floor",
            )
        })?;
        Ok(rows_array(py, rows.into_iter()))
    }

    /// The agents' velocities over the last update, N×2 (world units per second).
    fn velocities<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let v: Vec<DVec2> = self.with(py, |s| s.agents().iter().map(|a| a.velocity()).collect());
        to_array(py, &v)
    }

    /// Adds a moving obstacle, a disc of `radius` at `center` moving at `velocity` (world
    /// units per second), in plan view or, on a crowd across floors, on the floor at
    /// height `floor`; its id.
    #[pyo3(signature = (center, radius, velocity, floor = None))]
    fn add_moving_obstacle(
        &self,
        py: Python<'_>,
        center: &Bound<'_, PyAny>,
        radius: f64,
        velocity: &Bound<'_, PyAny>,
        floor: Option<f64>,
    ) -> PyResult<u64> {
        let (center, velocity) = (point(center, "center")?, point(velocity, "velocity")?);
        let o = MovingObstacle {
            center,
            radius,
            velocity,
        };
        self.with(py, |s| match (floor, &mut s.crowd) {
            (None, crowd) => on_crowd!(crowd, c => c.add_moving_obstacle(o)),
            (Some(h), AnyCrowd::Surface(c)) => c.add_moving_obstacle_on_floor(o, h),
            (Some(_), _) => Err(floors_only("a moving obstacle on a floor")),
        })
        .map(MovingId::get)
        .map_err(lib_err)
    }

    /// Sets the height of the floor a moving obstacle drives on (a crowd across floors).
    fn set_moving_obstacle_floor(
        &self,
        py: Python<'_>,
        obstacle_id: i64,
        floor: f64,
    ) -> PyResult<()> {
        self.with(py, |s| {
            let id = moving_id(obstacle_id)?;
            match &mut s.crowd {
                AnyCrowd::Surface(c) => c.set_moving_obstacle_floor(id, floor),
                _ => Err(floors_only("a moving obstacle's floor")),
            }
        })
        .map_err(lib_err)
    }

    /// Sets a moving obstacle's velocity (zero stops it: it then blocks like an obstacle).
    fn set_moving_obstacle_velocity(
        &self,
        py: Python<'_>,
        obstacle_id: i64,
        velocity: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let v = point(velocity, "velocity")?;
        self.with(py, |s| {
            let id = moving_id(obstacle_id)?;
            on_crowd!(&mut s.crowd, c => c.set_moving_obstacle_velocity(id, v))
        })
        .map_err(lib_err)
    }

    /// Sends a moving obstacle along `route` (N×2) at `speed`: to each point in turn, then
    /// round again when `looped`, else it stops at the last and stands.
    #[pyo3(signature = (obstacle_id, route, speed, looped = false))]
    fn drive_moving_obstacle(
        &self,
        py: Python<'_>,
        obstacle_id: i64,
        route: &Bound<'_, PyAny>,
        speed: f64,
        looped: bool,
    ) -> PyResult<()> {
        let route = points(route, "route")?;
        self.with(py, |s| {
            let id = moving_id(obstacle_id)?;
            on_crowd!(&mut s.crowd, c => c.drive_moving_obstacle(id, &route, speed, looped))
        })
        .map_err(lib_err)
    }

    /// Removes a moving obstacle.
    fn remove_moving_obstacle(&self, py: Python<'_>, obstacle_id: i64) -> PyResult<()> {
        self.with(py, |s| {
            let id = moving_id(obstacle_id)?;
            on_crowd!(&mut s.crowd, c => c.remove_moving_obstacle(id))
        })
        .map_err(lib_err)
    }

    /// The moving obstacles: (id, (x, y), radius, (vx, vy)) each, in the order added.
    fn moving_obstacles(&self, py: Python<'_>) -> Vec<MovingRow> {
        self.with(py, |s| {
            on_crowd!(&s.crowd, c => c
                .moving_obstacles()
                .map(|(id, o)| (id.get(), o.center.into(), o.radius, o.velocity.into()))
                .collect())
        })
    }

    /// An agent's path from its position to its target (only its position while stuck).
    fn path<'py>(&self, py: Python<'py>, agent: i64) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let p = self
            .with(py, |s| {
                s.agent(agent).map(|a| a.agent_path().path().to_vec())
            })
            .map_err(lib_err)?;
        Ok(to_array(py, &p))
    }

    /// Why an agent is stuck, or None.
    fn stuck(&self, py: Python<'_>, agent: i64) -> PyResult<Option<String>> {
        self.with(py, |s| {
            s.agent(agent)
                .map(|a| a.agent_path().stuck().map(ToString::to_string))
        })
        .map_err(lib_err)
    }

    /// The last error an update met for an agent (a refused target, a failed move), or None.
    fn error(&self, py: Python<'_>, agent: i64) -> PyResult<Option<String>> {
        self.with(py, |s| {
            s.agent(agent).map(|a| a.error().map(ToString::to_string))
        })
        .map_err(lib_err)
    }

    /// True when an agent's new target waits to be planned (the plan budget was spent).
    fn waiting(&self, py: Python<'_>, agent: i64) -> PyResult<bool> {
        self.with(py, |s| s.agent(agent).map(CrowdAgent::waiting))
            .map_err(lib_err)
    }

    /// True when an agent stands at its target.
    fn arrived(&self, py: Python<'_>, agent: i64) -> PyResult<bool> {
        self.with(py, |s| s.agent(agent).map(CrowdAgent::arrived))
            .map_err(lib_err)
    }

    /// The agent this one gives way to, or None: head-on in a passage too narrow for both
    /// (with avoidance), it walks to a spot off the other's path, waits until the other has
    /// passed, and walks on to its target.
    fn giving_way(&self, py: Python<'_>, agent: i64) -> PyResult<Option<usize>> {
        self.with(py, |s| s.agent(agent).map(CrowdAgent::giving_way))
            .map_err(lib_err)
    }

    /// On a crowd made on a `SurfaceMesh`: the off-mesh link an agent is on its way over
    /// and the part of the way behind it (0 to 1), or None. It walks to the link's entry
    /// and over the link to where it lands at its speed; `positions` and `positions3` give
    /// where it is on the way, and its path is already the one from the landing.
    fn crossing(&self, py: Python<'_>, agent: i64) -> PyResult<Option<(u32, f64)>> {
        self.with(py, |s| {
            s.agent(agent)
                .map(|a| a.crossing().map(|c| (c.link(), c.progress())))
        })
        .map_err(lib_err)
    }

    /// Adds a box obstacle; (its id, how many agents' paths it blocks). An agent it lands on
    /// is pushed out to the nearest point with room it could slide to without crossing a
    /// wall. On a `SurfaceMesh` it lies on the one floor under it (refused where floors
    /// overlap under it), or with `floor=(x, y, z)` on the floor under that point.
    #[pyo3(signature = (min, max, floor = None))]
    fn add_box(
        &self,
        py: Python<'_>,
        min: &Bound<'_, PyAny>,
        max: &Bound<'_, PyAny>,
        floor: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u64, usize)> {
        let (min, max) = (point(min, "min")?, point(max, "max")?);
        self.add(py, Obstacle::Box { min, max }, floor)
    }

    /// Adds a disk obstacle (`floor` as for `add_box`).
    #[pyo3(signature = (center, radius, floor = None))]
    fn add_disk(
        &self,
        py: Python<'_>,
        center: &Bound<'_, PyAny>,
        radius: f64,
        floor: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u64, usize)> {
        let center = point(center, "center")?;
        self.add(py, Obstacle::Disk { center, radius }, floor)
    }

    /// Adds a convex polygon obstacle (N×2 vertices; `floor` as for `add_box`).
    #[pyo3(signature = (points, floor = None))]
    fn add_polygon(
        &self,
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        floor: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u64, usize)> {
        let ring = self::points(points, "points")?;
        self.add(py, Obstacle::Polygon(ring), floor)
    }

    /// Blocks grid cells (N×2 integers: column, row); a navmesh crowd refuses it.
    fn add_cells(&self, py: Python<'_>, cells: &Bound<'_, PyAny>) -> PyResult<(u64, usize)> {
        let arr = py
            .import("numpy")?
            .call_method1("asarray", (cells,))
            .map_err(|e| Error::new_err(format!("cells: not an array ({e})")))?;
        let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
        let shape = shape_of(&arr)?;
        // An empty list is a float array of shape (0,): no cells.
        let empty = shape.iter().product::<usize>() == 0;
        if !empty && !matches!(kind.as_str(), "i" | "u") {
            return Err(PyTypeError::new_err(format!(
                "cells: dtype {} is not an integer type",
                arr.getattr("dtype")?.str()?
            )));
        }
        if !empty && (shape.len() != 2 || shape[1] != 2) {
            return Err(Error::new_err(format!(
                "cells: expected an N×2 integer array (column, row per cell), got shape {shape:?}"
            )));
        }
        let rows: Vec<Vec<i64>> = if empty {
            Vec::new()
        } else {
            arr.call_method0("tolist")?.extract()?
        };
        let cells = rows
            .iter()
            .map(|r| match (i32::try_from(r[0]), i32::try_from(r[1])) {
                (Ok(x), Ok(y)) => Ok(IVec2::new(x, y)),
                _ => Err(Error::new_err(format!(
                    "cells: cell ({}, {}) lies outside any map",
                    r[0], r[1]
                ))),
            })
            .collect::<PyResult<Vec<IVec2>>>()?;
        self.add(py, Obstacle::Cells(cells), None)
    }

    /// Removes an obstacle (by the id an `add_*` returned).
    fn remove_obstacle(&self, py: Python<'_>, obstacle_id: i64) -> PyResult<()> {
        self.with(py, |s| {
            // A negative number is no id the world gave out: the world's own words for it.
            let id = u64::try_from(obstacle_id).map_err(|_| pathsmooth::Error::BadObstacle {
                reason: format!("no obstacle {obstacle_id} (never added, or removed already)"),
            })?;
            on_crowd!(&mut s.crowd, c => c.remove_obstacle(ObstacleId::from_raw(id)))
        })
        .map_err(lib_err)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let n = self.with(py, |s| s.agents().len());
        let floors = if self.floors == Floors::Several {
            " with floors over one another"
        } else {
            ""
        };
        format!(
            "Crowd({n} agents on a {}{floors}, radius={})",
            self.kind, self.radius
        )
    }
}

// ---------------------------------------------------------------------------------------
// Layered navmeshes

/// The up axis named `up` ("y" or "z").
fn up_named(up: &str) -> PyResult<UpAxis> {
    match up {
        "y" => Ok(UpAxis::Y),
        "z" => Ok(UpAxis::Z),
        _ => Err(Error::new_err(format!(
            "up: expected \"y\" or \"z\", got {up:?}"
        ))),
    }
}

fn up_name(up: UpAxis) -> &'static str {
    match up {
        UpAxis::Y => "y",
        UpAxis::Z => "z",
    }
}

/// Integers from Python (any array-like of an integer dtype, any shape; an empty one of
/// any dtype), flattened, each checked to lie in `0..=max`: the errors say `what` should
/// hold (`hint`).
fn integers(obj: &Bound<'_, PyAny>, what: &str, max: u32, hint: &str) -> PyResult<Vec<u32>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let arr = np
        .call_method1("asarray", (obj,))
        .map_err(|e| Error::new_err(format!("{what}: not an array of integers ({e})")))?;
    if arr.getattr("size")?.extract::<usize>()? == 0 {
        return Ok(Vec::new());
    }
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") {
        return Err(Error::new_err(format!(
            "{what}: expected integers ({hint}), got dtype {}",
            dtype.str()?
        )));
    }
    let flat = arr.call_method0("ravel")?;
    // Python integers: no dtype's bounds get in the way of the comparison.
    let lo: i128 = flat.call_method0("min")?.call_method0("item")?.extract()?;
    let hi: i128 = flat.call_method0("max")?.call_method0("item")?.extract()?;
    if lo < 0 || hi > i128::from(max) {
        let (at, value) = if lo < 0 {
            (flat.call_method0("argmin")?, lo)
        } else {
            (flat.call_method0("argmax")?, hi)
        };
        return Err(Error::new_err(format!(
            "{what}[{}] = {value} is out of range: {hint}",
            at.extract::<usize>()?
        )));
    }
    let c = np.call_method1("ascontiguousarray", (flat, "uint32"))?;
    let c = c.downcast::<PyArray1<u32>>()?.readonly();
    Ok(c.as_slice()?.to_vec())
}

/// A 3D navmesh whose floors may overlap in plan view (`pathsmooth::navmesh::SurfaceMesh`):
/// vertices N×3, convex polygons of vertex indices, `up` "y" (plan view x, z) or "z"
/// (plan view x, y), vertices closer than `weld` merged (None: the library's default,
/// 10⁻⁶ of the mesh's size). Also from a navmesh file (`load`) or Unity's triangulation
/// (`from_triangulation`).
#[pyclass(frozen, module = "pathsmooth")]
struct SurfaceMesh {
    mesh: Arc<RsSurfaceMesh>,
    /// Its world, made on the first pipeline or crowd and shared by the later ones (on a
    /// mesh of one floor it holds a copy of the plan mesh and its wall index).
    world: OnceLock<Arc<SurfaceWorld>>,
}

impl SurfaceMesh {
    fn surface(&self) -> &Surface {
        self.mesh.surface()
    }

    fn of(surface: Surface, what: &'static str) -> PyResult<Self> {
        let mesh = RsSurfaceMesh::new(surface).map_err(err_in(what))?;
        Ok(Self::new_of(Arc::new(mesh)))
    }

    fn new_of(mesh: Arc<RsSurfaceMesh>) -> Self {
        SurfaceMesh {
            mesh,
            world: OnceLock::new(),
        }
    }

    /// Its world (made now on the first call, with the GIL released).
    fn world(&self, py: Python<'_>) -> Arc<SurfaceWorld> {
        let mesh = &self.mesh;
        let make = || Arc::new(SurfaceWorld::new(Arc::clone(mesh)));
        Arc::clone(py.allow_threads(|| self.world.get_or_init(make)))
    }
}

/// The navmesh world behind `world`, a `NavMeshWorld`'s or a `SurfaceMesh`'s, with the
/// name of its class; `None` for another object.
fn navmesh_world(
    py: Python<'_>,
    world: &Bound<'_, PyAny>,
) -> Option<(Arc<SurfaceWorld>, &'static str)> {
    if let Ok(m) = world.downcast::<NavMeshWorld>() {
        Some((Arc::clone(&m.get().world), "NavMeshWorld"))
    } else {
        let m = world.downcast::<SurfaceMesh>().ok()?;
        Some((m.get().world(py), "SurfaceMesh"))
    }
}

/// The `TypeError` for a world of no world class.
fn not_a_world(world: &Bound<'_, PyAny>) -> PyErr {
    let name = world
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    PyTypeError::new_err(format!(
        "world: expected a GridWorld, a NavMeshWorld or a SurfaceMesh, got {name}"
    ))
}

#[pymethods]
impl SurfaceMesh {
    #[new]
    #[pyo3(signature = (vertices, polygons, up = "y", weld = None))]
    fn new(
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        polygons: &Bound<'_, PyAny>,
        up: &str,
        weld: Option<f64>,
    ) -> PyResult<Self> {
        let vertices = points3(vertices, "vertices")?;
        let polygons = polygon_lists(polygons)?;
        let up = up_named(up)?;
        let mesh = py
            .allow_threads(|| {
                let options = SurfaceOptions {
                    weld,
                    ..SurfaceOptions::new(up)
                };
                RsSurfaceMesh::new(Surface::from_polygons_with(
                    &vertices,
                    &polygons,
                    &[],
                    &[],
                    &options,
                )?)
            })
            .map_err(lib_err)?;
        Ok(SurfaceMesh::new_of(Arc::new(mesh)))
    }

    /// A navmesh file, its format found from its bytes (`navmesh::load_surface`):
    /// the navmesh JSON, Recast's and rerecast's JSON, Godot scenes (.tscn, .tres; 3D or 2D), Detour
    /// binaries, OBJ (Unity exports), polyanya .mesh. `up` only for OBJ and .mesh files
    /// (None: the file's own, y for those two; a format that fixes its axis must agree);
    /// `detail` a second file holding the detail mesh of a Recast or rerecast JSON poly
    /// mesh. Welded, T-junctions split, slivers and duplicates dropped: `load_report`.
    #[staticmethod]
    #[pyo3(signature = (path, up = None, weld = None, detail = None))]
    fn load(
        py: Python<'_>,
        path: std::path::PathBuf,
        up: Option<&str>,
        weld: Option<f64>,
        detail: Option<std::path::PathBuf>,
    ) -> PyResult<Self> {
        const WHAT: &str = "SurfaceMesh.load";
        let up = up.map(up_named).transpose().map_err(arg_err_in(WHAT))?;
        let options = SurfaceOptions {
            weld,
            ..SurfaceOptions::new(up.unwrap_or_default())
        };
        let surface = py
            .allow_threads(|| match &detail {
                None => load_surface(&path, &options),
                Some(detail) => load_surface_with_detail(&path, detail, &options),
            })
            .map_err(err_in(WHAT))?;
        if let Some(up) = up.filter(|&u| u != surface.up()) {
            return Err(Error::new_err(format!(
                "{WHAT}: {}: the navmesh is {} up (its format says so) but up is {:?}; \
                 leave up out or make them agree",
                path.display(),
                up_name(surface.up()),
                up_name(up)
            )));
        }
        Self::of(surface, WHAT)
    }

    /// A surface from Unity's `NavMesh.CalculateTriangulation()` (y up): `vertices` N×3,
    /// `indices` three per triangle (flat, or M×3), `areas` Unity's area index of each
    /// triangle (integers 0–255) or None. Unity repeats every tile's vertices: they are
    /// welded (`weld`, None: the library's default) and the triangles joined.
    #[staticmethod]
    #[pyo3(signature = (vertices, indices, areas = None, weld = None))]
    fn from_triangulation(
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        indices: &Bound<'_, PyAny>,
        areas: Option<&Bound<'_, PyAny>>,
        weld: Option<f64>,
    ) -> PyResult<Self> {
        const WHAT: &str = "SurfaceMesh.from_triangulation";
        let vertices = points3(vertices, "vertices").map_err(arg_err_in(WHAT))?;
        let shape = shape_of(&py.import("numpy")?.call_method1("asarray", (indices,))?)
            .map_err(arg_err_in(WHAT))?;
        if !(shape.len() == 1 || (shape.len() == 2 && shape[1] == 3)) {
            return Err(Error::new_err(format!(
                "{WHAT}: indices: expected a flat array or an M×3 array (three vertex indices \
                 per triangle), got shape {shape:?}"
            )));
        }
        let indices = integers(indices, "indices", u32::MAX, "vertex indices ≥ 0")
            .map_err(arg_err_in(WHAT))?;
        let areas: Vec<u8> = match areas {
            None => Vec::new(),
            Some(a) => integers(a, "areas", 255, "area indices 0–255")
                .map_err(arg_err_in(WHAT))?
                .into_iter()
                .map(|a| a as u8)
                .collect(),
        };
        let surface = py
            .allow_threads(|| {
                let data = SurfaceData::from_triangles(&vertices, &indices, &areas)?;
                let options = SurfaceOptions {
                    weld,
                    ..SurfaceOptions::default()
                };
                Surface::from_data(&data, &options)
            })
            .map_err(err_in(WHAT))?;
        Self::of(surface, WHAT)
    }

    #[getter]
    fn num_polygons(&self) -> usize {
        self.surface().num_polygons()
    }

    /// "y" or "z".
    #[getter]
    fn up(&self) -> &'static str {
        up_name(self.surface().up())
    }

    /// The welded vertices, N×3 float64 (world axes).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        rows_array(py, self.surface().vertices().iter().map(|p| p.to_array()))
    }

    /// The polygons as lists of indices into `vertices` (counter-clockwise in plan view;
    /// a split T-junction is an extra corner).
    #[getter]
    fn polygons(&self) -> Vec<Vec<u32>> {
        let s = self.surface();
        (0..s.num_polygons() as u32)
            .map(|p| s.polygon(p).to_vec())
            .collect()
    }

    /// What building the surface repaired, dropped or noticed in its input
    /// (`navmesh::LoadReport`), as a dict; "summary" is its one-line description.
    #[getter]
    fn load_report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        load_report_dict(py, self.surface().load_report())
    }

    /// How far above or below a floor a point may be and still be on it: the bake's agent
    /// climb when the file says, else 0.25 (world units).
    #[getter]
    fn climb(&self) -> f64 {
        self.surface().climb()
    }

    /// Each row of `points` (N×3, world axes) located on the surface, as the library's
    /// `SurfaceQuery.locate` (Detour's `findNearestPoly`): the polygon it stands over
    /// within the mesh's climb of its floor, else the nearest within RecastDemo's box (2
    /// across, 4 up), and the point on that polygon at its floor's height. Returns
    /// `(polygons, points)`: uint32 N and float64 N×3. Raises `pathsmooth.Error` naming the
    /// first row off every floor (or not finite).
    fn locate<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Located<'py>> {
        const WHAT: &str = "SurfaceMesh.locate";
        let points = points3(points, "points").map_err(arg_err_in(WHAT))?;
        let mesh = &self.mesh;
        let (polygons, at) = py.allow_threads(|| {
            let query = RsSurfaceQuery::new();
            let mut polygons = Vec::with_capacity(points.len());
            let mut at = Vec::with_capacity(points.len());
            for (i, &p) in points.iter().enumerate() {
                let (poly, q) = query
                    .locate(mesh, p)
                    .map_err(|e| row_err(WHAT, i, &e, ["the point", "the point"]))?;
                polygons.push(poly);
                at.push(q.to_array());
            }
            Ok::<_, PyErr>((polygons, at))
        })?;
        Ok((polygons.into_pyarray(py), rows_array(py, at.into_iter())))
    }

    /// Moves each agent from `starts[i]` (N×3, on polygon `polygons[i]`, as `locate` gives
    /// them) towards `targets[i]` (N×3; give them the agents' heights: a height picks the floor
    /// only where a wall cuts the straight way and several floors hold the target) on the surface, held to
    /// the start's floor (a move under a bridge stays under it), sliding along walls: the
    /// library's `SurfaceQuery.move_along_surface`, Detour's `moveAlongSurface`, the move a
    /// crowd agent or a character makes each frame. Returns `(polygons, points)` as
    /// `locate`. Raises `pathsmooth.Error` naming the first bad row: a polygon out of
    /// range, a start outside its polygon, a coordinate not finite or out of range.
    fn move_along_surface<'py>(
        &self,
        py: Python<'py>,
        polygons: &Bound<'py, PyAny>,
        starts: &Bound<'py, PyAny>,
        targets: &Bound<'py, PyAny>,
    ) -> PyResult<Located<'py>> {
        const WHAT: &str = "SurfaceMesh.move_along_surface";
        let from: Vec<i64> = polygons
            .call_method0("tolist")
            .and_then(|l| l.extract())
            .or_else(|_| polygons.extract())
            .map_err(|_| {
                PyTypeError::new_err(format!("{WHAT}: polygons: expected a sequence of integers"))
            })?;
        let starts = points3(starts, "starts").map_err(arg_err_in(WHAT))?;
        let targets = points3(targets, "targets").map_err(arg_err_in(WHAT))?;
        if from.len() != starts.len() || starts.len() != targets.len() {
            return Err(Error::new_err(format!(
                "{WHAT}: polygons, starts and targets have {}, {} and {} rows: expected as many",
                from.len(),
                starts.len(),
                targets.len()
            )));
        }
        let mesh = &self.mesh;
        let n = mesh.surface().num_polygons();
        let (polygons, at) = py.allow_threads(|| {
            let mut query = RsSurfaceQuery::new();
            let mut polygons = Vec::with_capacity(from.len());
            let mut at = Vec::with_capacity(from.len());
            for (i, (&p, (&s, &t))) in from.iter().zip(starts.iter().zip(&targets)).enumerate() {
                let Some(p) = PolyId::try_from(p).ok().filter(|&p| (p as usize) < n) else {
                    return Err(Error::new_err(format!(
                        "{WHAT}: row {i}: polygon {p} is out of range: the mesh has {n} polygons"
                    )));
                };
                let (poly, q) = query
                    .move_along_surface(mesh, (p, s), t)
                    .map_err(|e| row_err(WHAT, i, &e, ["the start", "the target"]))?;
                polygons.push(poly);
                at.push(q.to_array());
            }
            Ok((polygons, at))
        })?;
        Ok((polygons.into_pyarray(py), rows_array(py, at.into_iter())))
    }

    /// The connected piece of each polygon (uint32): two polygons are joined by a walk on
    /// the surface exactly when their pieces are equal.
    #[getter]
    fn pieces<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.surface().pieces().into_pyarray(py)
    }

    /// Each polygon's reference in its file (uint64): Detour's `dtPolyRef` for a Detour
    /// navmesh, else its index among the input's polygons (dropped ones leave gaps).
    #[getter]
    fn polygon_refs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let s = self.surface();
        (0..s.num_polygons() as u32)
            .map(|p| s.polygon_ref(p))
            .collect::<Vec<u64>>()
            .into_pyarray(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "SurfaceMesh({} polygons, {} up)",
            self.surface().num_polygons(),
            up_name(self.surface().up())
        )
    }
}

fn load_report_dict<'py>(py: Python<'py>, r: &LoadReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    set_fields!(
        d,
        r,
        [
            input_vertices,
            input_polygons,
            weld,
            welded,
            repeated_corners,
            degenerate,
            duplicates,
            reversed,
            t_junctions,
            non_planar,
            worst_non_planar,
            unjoined_edges,
            unjoined_example,
            detail_slivers,
            unconnected_links,
        ]
    );
    d.set_item("clean", r.is_clean())?;
    d.set_item("summary", r.to_string())?;
    Ok(d)
}

// ---------------------------------------------------------------------------------------
// Free functions

/// `pipeline.smooth_many(paths, threads)`.
#[pyfunction]
#[pyo3(signature = (pipeline, paths, threads = None))]
fn smooth_many<'py>(
    py: Python<'py>,
    pipeline: &Bound<'py, Pipeline>,
    paths: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
    pipeline.get().smooth_many(py, paths, threads)
}

/// `pipeline.plan_many(starts, goals, threads)`.
#[pyfunction]
#[pyo3(signature = (pipeline, starts, goals, threads = None))]
fn plan_many<'py>(
    py: Python<'py>,
    pipeline: &Bound<'py, Pipeline>,
    starts: &Bound<'py, PyAny>,
    goals: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
    pipeline.get().plan_many(py, starts, goals, threads)
}

/// The validity and clearance of a path on a world for an agent radius
/// (`pathsmooth::validate`), as a dict.
#[pyfunction]
fn validate<'py>(
    py: Python<'py>,
    world: &Bound<'py, PyAny>,
    path: &Bound<'py, PyAny>,
    radius: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let world = world_ref(world)?;
    let path = points(path, "path")?;
    let report = py
        .allow_threads(|| pathsmooth::validate(world, &path, radius))
        .map_err(lib_err)?;
    validation_dict(py, &report)
}

/// Length and turning of a path, N×2 or N×3 (`pathsmooth::metrics::PathMetrics`), as a
/// dict: points,
/// length, max_turn and total_turn (radians), max_curvature, mean_curvature.
#[pyfunction]
fn metrics<'py>(py: Python<'py>, path: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    // N×3 (a path on a surface) measured in 3D; anything else as N×2.
    let shape = shape_of(&real_array(path, "path")?)?;
    let m = if shape.len() == 2 && shape[1] == 3 {
        PathMetrics::of(&points3(path, "path")?)
    } else {
        PathMetrics::of(&points(path, "path")?)
    }
    .map_err(lib_err)?;
    let d = PyDict::new(py);
    set_fields!(
        d,
        m,
        [
            points,
            length,
            max_turn,
            total_turn,
            max_curvature,
            mean_curvature
        ]
    );
    Ok(d)
}

/// The module.
#[pymodule]
#[pyo3(name = "pathsmooth")]
fn pathsmooth_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_class::<GridWorld>()?;
    m.add_class::<NavMeshWorld>()?;
    m.add_class::<Pipeline>()?;
    m.add_class::<Crowd>()?;
    m.add_class::<SurfaceMesh>()?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(metrics, m)?)?;
    m.add_function(wrap_pyfunction!(smooth_many, m)?)?;
    m.add_function(wrap_pyfunction!(plan_many, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
