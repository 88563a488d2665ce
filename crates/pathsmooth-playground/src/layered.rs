//! Layered navmeshes in the playground: a surface whose floors overlap in plan view (a
//! navmesh JSON, `docs/navmesh-json.md`), drawn in plan view, and a path on it planned by the
//! library's one [`Pipeline`] on a [`SurfaceWorld`] (`plan_surface`). A thin shell: parse, plan, encode.
//!
//! | route | what |
//! | --- | --- |
//! | `GET /api/layered` | the bundled examples' names |
//! | `POST /api/layered` | a surface's polygons (plan-view rings, mean height, piece) and, given `start` and `goal`, the path on it |
//!
//! The request (JSON):
//!
//! - `example` (a bundled example's name) or `navmesh` (a navmesh JSON's text), not both;
//! - `start`, `goal` (optional, both or neither): a 3D point `[x, y, z]` in world axes,
//!   located on the floor within the library's search box; `[a, b]`, a plan-view point
//!   on the one floor under it (422 over none or over several); or `{"plan": [a, b],
//!   "polygon": p}`, a plan-view point inside polygon `p` (400 if not), on its floor;
//! - `radius` (default 0), `preset` (`none`, `shortest`, `smooth` (default), `corridor`);
//! - `mesh` (default true): false leaves the polygons out of the answer.
//!
//! The answer: `name`, `up` (`"y"` or `"z"`), `bounds` (plan-view `[min a, min b, max a,
//! max b]`), `heights` (`[lowest, highest]` mean polygon height), `pieces`, `polygons`
//! (`[{"ring": [[a, b], …], "height": h, "piece": k}]`, polygon ids are their indices), and
//! with ends `plan`: `{"start", "goal" (3D, as asked), "path": [{"position": [x, y, z],
//! "polygon": p, "flags": bits}], "length" (3D), "plan_length", "min_clearance", "valid",
//! "skipped": [{"step", "reason"}]}`. Errors as the other routes: a bad request is 400, a
//! plan that cannot be made (no floor under an end, unreachable, too narrow) is 422.
//!
//! A navmesh sent is built and planned on with the request's cancellation token: the
//! build (welding, cleaning, T-junctions, links, triangulation) and the sheet under the
//! path stop when it is cancelled, as the pipeline does; only the JSON's parse runs to its
//! end (linear: 0.07 s for 5.7 MB). Its work is estimated from its text (four units a
//! byte: [`LayeredRequest::work`]).

use std::sync::{Arc, OnceLock};

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::read_surface_json;
use pathsmooth::navmesh::{Surface, SurfaceMesh, SurfaceOptions, UpAxis};
use pathsmooth::{num, Cancel, Error, Pipeline, Preset, SurfaceWorld, SurfaceWorldQuery};
use serde::{Deserialize, Serialize};

use crate::compare::{bounded, Skipped};
use crate::error::{encode, quote, ApiError, INTERNAL, NOT_FOUND, PAYLOAD_TOO_LARGE};
use crate::limits;

/// The bundled examples: Recast's demo levels baked by `pathsmooth-bake` (y up, two and
/// more storeys overlapping in plan view), from the library's test data.
pub const EXAMPLES: [(&str, &str); 2] = [
    (
        "dungeon",
        include_str!("../../pathsmooth/tests/data/navmesh/dungeon.navmesh.json"),
    ),
    (
        "nav_test",
        include_str!("../../pathsmooth/tests/data/navmesh/nav_test.navmesh.json"),
    ),
];

/// `GET /api/layered`: the bundled examples' names.
pub fn examples() -> Result<Vec<u8>, ApiError> {
    let names: Vec<&str> = EXAMPLES.iter().map(|(n, _)| *n).collect();
    encode(&serde_json::json!({ "examples": names }))
}

impl LayeredRequest {
    /// Refuses, before any work, an unknown preset (400), an unknown example (404), and a
    /// request with both or neither of `example` and `navmesh` (400).
    pub fn check(&self) -> Result<(), ApiError> {
        preset(self.preset.as_deref())?;
        match (&self.example, &self.navmesh) {
            (Some(name), None) => example_index(name).map(|_| ()),
            (None, Some(_)) => Ok(()),
            (Some(_), Some(_)) => Err(ApiError::bad_request(
                "give `example` or `navmesh`, not both",
            )),
            (None, None) => Err(ApiError::bad_request(
                "give `example` (a name from GET /api/layered) or `navmesh` (a navmesh JSON's text)",
            )),
        }
    }

    /// The navmesh JSON sent, if any (the server reserves memory by its length).
    pub fn navmesh(&self) -> Option<&str> {
        self.navmesh.as_deref()
    }

    /// The estimated work, in the units of the server's lanes: a bundled example is built
    /// once, so a request plans on its few hundred polygons (its text's length); a navmesh
    /// sent is built, then planned on: a few passes over its text (four a byte).
    pub fn work(&self) -> u64 {
        let units = match (&self.example, &self.navmesh) {
            (_, Some(text)) => 4 * text.len(),
            (Some(name), None) => example_index(name).map_or(0, |i| EXAMPLES[i].1.len()),
            (None, None) => 0,
        };
        units as u64
    }
}

/// The index of the bundled example `name` in [`EXAMPLES`], else a 404 naming them.
fn example_index(name: &str) -> Result<usize, ApiError> {
    EXAMPLES
        .iter()
        .position(|(n, _)| *n == name)
        .ok_or_else(|| {
            let known: Vec<&str> = EXAMPLES.iter().map(|(n, _)| *n).collect();
            ApiError::new(
                NOT_FOUND,
                format!(
                    "unknown layered example {} (known: {})",
                    quote(name),
                    known.join(", ")
                ),
            )
        })
}

/// `POST /api/layered`: the request checked ([`LayeredRequest::check`]), its mesh (a
/// bundled example's, built once and shared; or the navmesh sent, built with `cancel`),
/// and the answer.
pub fn layered(req: &LayeredRequest, cancel: &Cancel) -> Result<Vec<u8>, ApiError> {
    req.check()?;
    match (&req.example, &req.navmesh) {
        (Some(name), _) => {
            let mesh = example_meshes()[example_index(name)?]
                .as_ref()
                .map_err(|e| {
                    ApiError::new(
                        INTERNAL,
                        format!("internal error (please report it): example {name}: {e}"),
                    )
                })?;
            answer(req, name, mesh, cancel)
        }
        (None, Some(text)) => {
            let mesh = Arc::new(build(text, "navmesh", cancel)?);
            answer(req, "navmesh", &mesh, cancel)
        }
        (None, None) => Err(ApiError::bad_request("no navmesh")),
    }
}

/// The examples' meshes, built on first use and shared by every request.
fn example_meshes() -> &'static [Result<Arc<SurfaceMesh>, String>] {
    static MESHES: OnceLock<Vec<Result<Arc<SurfaceMesh>, String>>> = OnceLock::new();
    MESHES.get_or_init(|| {
        EXAMPLES
            .iter()
            // Shared by every request: built to the end whoever asked first.
            .map(|(name, text)| {
                build(text, name, &Cancel::new())
                    .map(Arc::new)
                    .map_err(|e| e.message().to_owned())
            })
            .collect()
    })
}

/// A surface mesh from a navmesh JSON's text (T-junctions split, as the bakes need),
/// stopped by `cancel` (a 503). The polygons are counted before anything is built.
fn build(text: &str, name: &str, cancel: &Cancel) -> Result<SurfaceMesh, ApiError> {
    let options = SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::new(UpAxis::Y)
    };
    let data = read_surface_json(text, name).map_err(ApiError::bad_request)?;
    if data.polygons.len() > limits::MAX_LAYERED_POLYGONS {
        return Err(ApiError::new(
            PAYLOAD_TOO_LARGE,
            format!(
                "the navmesh has {} polygons; the playground takes at most {}",
                data.polygons.len(),
                limits::MAX_LAYERED_POLYGONS
            ),
        ));
    }
    let built = |e: Error| match e {
        Error::Cancelled => ApiError::cancelled(),
        e => ApiError::bad_request(e),
    };
    let surface = Surface::from_data_cancellable(&data, &options, cancel).map_err(built)?;
    drop(data);
    SurfaceMesh::new_cancellable(surface, cancel).map_err(built)
}

/// An end of the path: a 3D point, a plan-view point on the one floor under it, or a
/// plan-view point on a polygon's floor.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(untagged)]
enum End {
    Point([f64; 3]),
    Plan([f64; 2]),
    OnPolygon { plan: [f64; 2], polygon: u32 },
}

/// The body of `POST /api/layered`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayeredRequest {
    example: Option<String>,
    navmesh: Option<String>,
    start: Option<End>,
    goal: Option<End>,
    #[serde(default)]
    radius: f64,
    preset: Option<String>,
    mesh: Option<bool>,
}

#[derive(Serialize)]
struct PolygonOut {
    ring: Vec<[f64; 2]>,
    height: f64,
    piece: u32,
}

#[derive(Serialize)]
struct PointOut {
    position: [f64; 3],
    polygon: u32,
    flags: u8,
}

#[derive(Serialize)]
struct PlanOut {
    start: [f64; 3],
    goal: [f64; 3],
    path: Vec<PointOut>,
    length: f64,
    plan_length: f64,
    min_clearance: f64,
    valid: bool,
    skipped: Vec<Skipped>,
}

#[derive(Serialize)]
struct LayeredResponse {
    name: String,
    up: &'static str,
    bounds: [f64; 4],
    heights: [f64; 2],
    pieces: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    polygons: Option<Vec<PolygonOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<PlanOut>,
}

fn preset(name: Option<&str>) -> Result<Option<Preset>, ApiError> {
    Ok(match name.unwrap_or("smooth") {
        "none" => None,
        "shortest" => Some(Preset::Shortest),
        "smooth" => Some(Preset::Smooth),
        "corridor" => Some(Preset::Corridor),
        other => {
            return Err(ApiError::bad_request(format!(
                "unknown preset {} (known: none, shortest, smooth, corridor)",
                quote(other)
            )))
        }
    })
}

/// `end` as a 3D point on `world`'s mesh: as given, on the one floor under a plan-view
/// point (422 over none or several), or on a polygon's floor at a plan-view point.
fn point(world: &SurfaceWorld, end: End, what: &'static str) -> Result<DVec3, ApiError> {
    let mesh = world.mesh();
    match end {
        End::Point(p) => Ok(DVec3::from(p)),
        End::Plan(p) => {
            let mut query = SurfaceWorldQuery::default();
            world
                .floor_point(DVec2::from(p), &mut query)
                .map_err(|e| match e {
                    // Named as the request names the end.
                    Error::OverSeveralFloors { x, y, floors, .. } => {
                        Error::OverSeveralFloors { what, x, y, floors }
                    }
                    Error::OutsideMesh { x, y, .. } => Error::OutsideMesh { what, x, y },
                    Error::NonFinite { .. } => Error::NonFinite {
                        index: usize::from(what == "goal"),
                    },
                    e => e,
                })
                .map_err(ApiError::planning)
        }
        End::OnPolygon { plan, polygon } => {
            let s = mesh.surface();
            if polygon as usize >= s.num_polygons() {
                return Err(ApiError::bad_request(format!(
                    "{what}: polygon {polygon} out of range (the navmesh has {})",
                    s.num_polygons()
                )));
            }
            let plan = DVec2::from(plan);
            if !plan.is_finite() || !s.contains_plan(polygon, plan) {
                return Err(ApiError::bad_request(format!(
                    "{what}: ({}, {}) is not on polygon {polygon} in plan view",
                    num(plan.x),
                    num(plan.y)
                )));
            }
            Ok(s.up().join(plan, s.height_at(polygon, plan)))
        }
    }
}

/// The answer for a request on `mesh` (the server runs it on a blocking worker).
fn answer(
    req: &LayeredRequest,
    name: &str,
    mesh: &Arc<SurfaceMesh>,
    cancel: &Cancel,
) -> Result<Vec<u8>, ApiError> {
    let preset = preset(req.preset.as_deref())?;
    let s = mesh.surface();
    let up = s.up();
    let plan = match (req.start, req.goal) {
        (None, None) => None,
        (Some(a), Some(b)) => {
            let world = SurfaceWorld::new(Arc::clone(mesh));
            let (start, goal) = (point(&world, a, "start")?, point(&world, b, "goal")?);
            let mut planner = match preset {
                Some(p) => Pipeline::preset(world, req.radius, p),
                None => Pipeline::new(world, req.radius),
            }
            .map_err(ApiError::planning)?;
            planner.set_cancel(Some(cancel.clone()));
            let path = planner
                .plan_surface(start, goal)
                .map_err(ApiError::planning)?
                .to_vec();
            let report = planner.report();
            let (length, plan_length) = (report.validation.length, report.plan_length);
            Some(PlanOut {
                start: start.to_array(),
                goal: goal.to_array(),
                path: path
                    .iter()
                    .map(|p| PointOut {
                        position: p.position.to_array(),
                        polygon: p.polygon,
                        flags: p.flags.bits(),
                    })
                    .collect(),
                length,
                plan_length,
                min_clearance: report.validation.min_clearance,
                valid: report.validation.is_valid(),
                skipped: Skipped::of(report),
            })
        }
        _ => {
            return Err(ApiError::bad_request(
                "give both `start` and `goal`, or neither (the mesh only)",
            ))
        }
    };
    let pieces = s.pieces();
    let vertices = s.vertices();
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut polygons = Vec::with_capacity(s.num_polygons());
    for p in 0..s.num_polygons() as u32 {
        let ring: Vec<[f64; 2]> = s
            .polygon(p)
            .iter()
            .map(|&v| {
                let q = up.plan(vertices[v as usize]);
                (lo, hi) = (lo.min(q), hi.max(q));
                q.to_array()
            })
            .collect();
        let corners = s.polygon(p);
        let height = corners
            .iter()
            .map(|&v| up.height(vertices[v as usize]))
            .sum::<f64>()
            / corners.len().max(1) as f64;
        (low, high) = (low.min(height), high.max(height));
        polygons.push(PolygonOut {
            ring,
            height,
            piece: pieces[p as usize],
        });
    }
    encode(&LayeredResponse {
        name: bounded(name, limits::MAX_QUOTE_CHARS),
        up: match up {
            UpAxis::Y => "y",
            UpAxis::Z => "z",
        },
        bounds: [lo.x, lo.y, hi.x, hi.y],
        heights: [low, high],
        pieces: pieces.iter().max().map_or(0, |&m| m + 1),
        polygons: req.mesh.unwrap_or(true).then_some(polygons),
        plan,
    })
}
