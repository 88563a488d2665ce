//! The JSON API: request and response types, the handlers, and the worlds on offer.
//!
//! | route | what |
//! | --- | --- |
//! | `GET /api/worlds` | the embedded and loaded worlds: name, width, height (and a suggested start and goal) |
//! | `GET /api/worlds/{name}` | one world's cells, as rows of `.` (free) and `@` (blocked) |
//! | `GET /api/methods` | the method names, and the ones the page turns on at first |
//! | `POST /api/map` | `{"map": text}`: the same cells for a `.map` file's text (checked by the library) |
//! | `POST /api/scenarios` | `{"scen": text}`: the scenarios of a `.map.scen` file |
//! | `POST /api/plan` | A* once, then one pipeline per method; paths, metrics, animation samples, the steps that did not take effect |
//!
//! Every error is `{"error": "…"}` with a 4xx status (503 when a request runs out of time
//! or workers), one message saying what was wrong.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use clap::ValueEnum;
use glam::{DVec2, IVec2};
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::grid::parse_scenarios;
use pathsmooth::{Error, GridMap, GridWorld, World};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use super::limits::{self, declared_size};
use crate::compare::{Comparison, Skipped};
use crate::methods::{CorridorSolver, CurveParams, MapMethod, OptimiserParams};

/// The embedded example world: its name in the API and its `.map` text (the map `demo`
/// embeds), with the demo's start and goal cells.
pub const EXAMPLE_WORLD: (&str, &str) = ("demo", crate::cmd::demo::DEMO_MAP);

/// Methods the page turns on when it opens.
pub const DEFAULT_METHODS: [MapMethod; 4] = [
    MapMethod::Astar,
    MapMethod::ShortcutChaikin,
    MapMethod::ShortcutCatmullRom,
    MapMethod::Corridor,
];

/// A world on offer, built once (its distance field and, on first use, its navmesh and
/// corridor map are shared by every request).
struct Named {
    name: String,
    world: Arc<GridWorld>,
    start: Option<IVec2>,
    goal: Option<IVec2>,
}

/// The server's state: the worlds on offer, the last uploaded maps, and the workers.
pub struct Playground {
    worlds: Vec<Named>,
    /// Recently uploaded maps by their text, newest last.
    cache: Mutex<VecDeque<(Arc<str>, Arc<GridWorld>)>>,
    /// One permit per blocking worker allowed to plan at once.
    workers: Arc<Semaphore>,
}

impl Playground {
    /// The embedded example plus the `.map` files given (named by file name).
    pub fn new(maps: &[String]) -> anyhow::Result<Self> {
        let (name, text) = EXAMPLE_WORLD;
        let mut worlds = vec![Named {
            name: name.to_string(),
            world: Arc::new(GridWorld::new(GridMap::parse(text, "example map")?)?),
            start: Some(crate::cmd::demo::DEMO_FROM),
            goal: Some(crate::cmd::demo::DEMO_TO),
        }];
        for file in maps {
            let world = GridWorld::new(GridMap::load(file)?).with_context(|| file.clone())?;
            let base = std::path::Path::new(file)
                .file_name()
                .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
            let mut name = base.clone();
            let mut n = 1;
            while worlds.iter().any(|w| w.name == name) {
                n += 1;
                name = format!("{base} ({n})");
            }
            worlds.push(Named {
                name,
                world: Arc::new(world),
                start: None,
                goal: None,
            });
        }
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Ok(Playground {
            worlds,
            cache: Mutex::new(VecDeque::new()),
            workers: Arc::new(Semaphore::new(cores)),
        })
    }

    fn named(&self, name: &str) -> Result<&Named, ApiError> {
        self.worlds.iter().find(|w| w.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.worlds.iter().map(|w| w.name.as_str()).collect();
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("unknown world `{name}` (known: {})", known.join(", ")),
            )
        })
    }

    /// The world for a map's text: from the cache, or parsed after its header's size is
    /// checked. Runs on a blocking worker (parsing builds the distance field).
    fn world_for_text(&self, text: &str) -> Result<Arc<GridWorld>, ApiError> {
        if let Some((_, w)) = self.lock_cache().iter().find(|(t, _)| &**t == text) {
            return Ok(w.clone());
        }
        if let Some((w, h)) = declared_size(text)
            && (w > limits::MAX_MAP_SIDE || h > limits::MAX_MAP_SIDE)
        {
            return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "map too large: its header declares {w}×{h} cells; the playground takes at most {m}×{m}",
                        m = limits::MAX_MAP_SIDE
                    ),
                ));
        }
        let map = GridMap::parse(text, "map").map_err(ApiError::bad_request)?;
        let world = Arc::new(GridWorld::new(map).map_err(ApiError::bad_request)?);
        let mut cache = self.lock_cache();
        cache.push_back((Arc::from(text), world.clone()));
        while cache.len() > limits::CACHED_MAPS {
            cache.pop_front();
        }
        Ok(world)
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, VecDeque<(Arc<str>, Arc<GridWorld>)>> {
        // A panic while holding the lock leaves a consistent cache: keep using it.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The world a plan request names: `world` (on offer) or `map` (a file's text).
    fn world_for(
        &self,
        world: Option<&str>,
        map: Option<&str>,
    ) -> Result<Arc<GridWorld>, ApiError> {
        match (world, map) {
            (Some(name), None) => Ok(self.named(name)?.world.clone()),
            (None, Some(text)) => self.world_for_text(text),
            (Some(_), Some(_)) => Err(ApiError::bad_request("give `world` or `map`, not both")),
            (None, None) => Err(ApiError::bad_request(
                "give `world` (a name from GET /api/worlds) or `map` (a .map file's text)",
            )),
        }
    }
}

/// An API error: a status and one message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad_request(message: impl ToString) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message.to_string())
    }

    /// A planning error: the request was well formed but cannot be planned (start in a
    /// wall, goal unreachable, no room for the radius…) is 422; a bad parameter is 400.
    fn planning(e: Error) -> Self {
        let status = match e {
            Error::BadParameter { .. }
            | Error::BadAngle { .. }
            | Error::NonFinite { .. }
            | Error::CoordinateOutOfRange { .. }
            | Error::Parse { .. } => StatusCode::BAD_REQUEST,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        Self::new(status, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json(self.status, &serde_json::json!({ "error": self.message }))
    }
}

fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (status, [(CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(CONTENT_TYPE, "application/json")],
            serde_json::json!({ "error": format!("cannot encode the response: {e}") }).to_string(),
        )
            .into_response(),
    }
}

type ApiResult = Result<Response, ApiError>;

/// Reads a JSON body within the size and time limits.
async fn read_json<T: DeserializeOwned>(headers: &HeaderMap, body: Body) -> Result<T, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "request body too large: the limit is {} MiB",
                limits::MAX_BODY_BYTES >> 20
            ),
        )
    };
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits::MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    let bytes: Bytes = tokio::time::timeout(
        limits::BODY_TIMEOUT,
        axum::body::to_bytes(body, limits::MAX_BODY_BYTES),
    )
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s",
                limits::BODY_TIMEOUT.as_secs()
            ),
        )
    })?
    .map_err(|_| too_large())?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))
}

/// Runs `work` on a blocking worker (never on the async executor), within
/// [`limits::work_timeout`] including the wait for a free worker. Work that runs out of
/// time finishes in the background holding its worker, so at most one per core runs.
async fn blocking<T: Send + 'static>(
    p: &Arc<Playground>,
    work: impl FnOnce(&Playground) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let out_of_time = || {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the request did not finish within {} s",
                limits::work_timeout().as_secs_f64()
            ),
        )
    };
    let deadline = tokio::time::Instant::now() + limits::work_timeout();
    let permit = tokio::time::timeout_at(deadline, p.workers.clone().acquire_owned())
        .await
        .map_err(|_| out_of_time())?
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"))?;
    let p = p.clone();
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&p)
    });
    match tokio::time::timeout_at(deadline, task).await {
        Err(_) => Err(out_of_time()),
        Ok(Err(join)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error (please report it): {join}"),
        )),
        Ok(Ok(result)) => result,
    }
}

// ---- worlds ---------------------------------------------------------------------------

#[derive(Serialize)]
struct WorldInfo {
    name: String,
    width: usize,
    height: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<[i32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<[i32; 2]>,
}

/// A world's cells for drawing: rows of `.` (free) and `@` (blocked).
#[derive(Serialize)]
struct Grid {
    name: String,
    width: usize,
    height: usize,
    rows: Vec<String>,
}

impl Grid {
    fn of(name: &str, world: &GridWorld) -> Grid {
        let map = world.map();
        let rows = (0..map.height() as i64)
            .map(|y| {
                (0..map.width() as i64)
                    .map(|x| if map.is_passable(x, y) { '.' } else { '@' })
                    .collect()
            })
            .collect();
        Grid {
            name: name.to_string(),
            width: map.width(),
            height: map.height(),
            rows,
        }
    }
}

/// `GET /api/worlds`.
pub async fn worlds(State(p): State<Arc<Playground>>) -> Response {
    let list: Vec<WorldInfo> = p
        .worlds
        .iter()
        .map(|w| WorldInfo {
            name: w.name.clone(),
            width: w.world.map().width(),
            height: w.world.map().height(),
            start: w.start.map(|c| c.to_array()),
            goal: w.goal.map(|c| c.to_array()),
        })
        .collect();
    json(StatusCode::OK, &serde_json::json!({ "worlds": list }))
}

/// `GET /api/worlds/{name}`.
pub async fn world_grid(State(p): State<Arc<Playground>>, Path(name): Path<String>) -> ApiResult {
    let w = p.named(&name)?;
    Ok(json(StatusCode::OK, &Grid::of(&w.name, &w.world)))
}

/// `GET /api/methods`.
pub async fn methods() -> Response {
    let all: Vec<&str> = MapMethod::ALL.iter().map(|m| m.name()).collect();
    let on: Vec<&str> = DEFAULT_METHODS.iter().map(|m| m.name()).collect();
    json(
        StatusCode::OK,
        &serde_json::json!({ "methods": all, "default": on }),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapRequest {
    map: String,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/map`: a `.map` file's cells, checked by the library's parser.
pub async fn upload_map(
    State(p): State<Arc<Playground>>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult {
    let req: MapRequest = read_json(&headers, body).await?;
    let grid = blocking(&p, move |p| {
        let world = p.world_for_text(&req.map)?;
        Ok(Grid::of(
            req.name.as_deref().unwrap_or("uploaded map"),
            &world,
        ))
    })
    .await?;
    Ok(json(StatusCode::OK, &grid))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenRequest {
    scen: String,
}

#[derive(Serialize)]
struct ScenOut {
    bucket: u32,
    start: [i32; 2],
    goal: [i32; 2],
    optimal: f64,
    map_width: usize,
    map_height: usize,
}

/// `POST /api/scenarios`: a `.map.scen` file's scenarios (the first
/// [`limits::MAX_SCENARIOS`]).
pub async fn scenarios(
    State(p): State<Arc<Playground>>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult {
    let req: ScenRequest = read_json(&headers, body).await?;
    let list = blocking(&p, move |_| {
        let all = parse_scenarios(&req.scen, "scenario file").map_err(ApiError::bad_request)?;
        Ok(all
            .iter()
            .take(limits::MAX_SCENARIOS)
            .map(|s| ScenOut {
                bucket: s.bucket,
                start: s.start.to_array(),
                goal: s.goal.to_array(),
                optimal: s.optimal_length,
                map_width: s.map_width,
                map_height: s.map_height,
            })
            .collect::<Vec<_>>())
    })
    .await?;
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "scenarios": list }),
    ))
}

// ---- planning -------------------------------------------------------------------------

/// The body of `POST /api/plan`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    /// A `.map` file's text (or give `world`).
    pub map: Option<String>,
    /// The name of a world on offer (or give `map`).
    pub world: Option<String>,
    /// Start cell `[column, row]`, as the CLI's `--from`.
    pub start: [f64; 2],
    /// Goal cell `[column, row]`.
    pub goal: [f64; 2],
    /// Method names (default: every method).
    #[serde(default)]
    pub methods: Option<Vec<String>>,
    /// Agent radius in world units (cells).
    #[serde(default)]
    pub radius: f64,
    /// Chaikin passes.
    pub passes: Option<u32>,
    /// Chaikin cut ratio.
    pub ratio: Option<f64>,
    /// Catmull-Rom α.
    pub alpha: Option<f64>,
    /// Catmull-Rom points per segment.
    pub subdivisions: Option<usize>,
    /// The corridor optimiser's iteration: `admm` (default) or `chambolle-pock`.
    pub corridor_solver: Option<String>,
    /// The corridor optimiser's α ∈ (0, 2) (Chambolle–Pock).
    pub corridor_alpha: Option<f64>,
    /// The corridor optimiser's β > 0 (Chambolle–Pock: primal against dual steps).
    pub corridor_beta: Option<f64>,
    /// The corridor's disk spacing, a fraction of the room in (0, 1].
    pub corridor_spacing: Option<f64>,
    /// Solve the corridor in windows.
    pub corridor_windows: Option<bool>,
}

/// One method's result.
#[derive(Debug, Serialize)]
pub struct PathOut {
    points: Vec<[f64; 2]>,
    valid: bool,
    length: f64,
    vs_shortest: f64,
    max_turn_deg: f64,
    total_turn_deg: f64,
    min_clearance: f64,
    follow_s: f64,
    micros: f64,
    /// `[t, x, y]`: where an agent with the default limits is at time t (s).
    samples: Vec<[f64; 3]>,
    /// The corridor method's disks `[x, y, radius]` (clearance less the agent radius:
    /// where the path's points may go).
    #[serde(skip_serializing_if = "Option::is_none")]
    corridor: Option<Vec<[f64; 3]>>,
    /// The steps of the method's pipeline that did not take effect (their result failed
    /// validation, or they changed nothing), `[{"step": "relax", "reason": "…"}]`, the
    /// reasons cut to [`REASON_MAX_CHARS`](crate::compare::REASON_MAX_CHARS); empty when
    /// every step took effect. The path is then the skipped step's input.
    skipped: Vec<Skipped>,
}

/// The answer of `POST /api/plan`.
#[derive(Debug, Serialize)]
pub struct PlanResponse {
    /// World positions of the start and goal cells' centres.
    start: [f64; 2],
    goal: [f64; 2],
    radius: f64,
    /// The raw A* path every method starts from.
    astar: Vec<[f64; 2]>,
    astar_length: f64,
    /// The shortest of the returned paths' lengths and the A* length.
    shortest: f64,
    paths: BTreeMap<String, PathOut>,
    errors: BTreeMap<String, String>,
}

fn cell(p: [f64; 2], what: &str) -> Result<IVec2, ApiError> {
    let ok = p
        .iter()
        .all(|v| v.fract() == 0.0 && v.abs() <= i32::MAX as f64);
    if !ok {
        return Err(ApiError::bad_request(format!(
            "{what} [{}, {}]: give a cell as whole numbers [column, row]",
            p[0], p[1]
        )));
    }
    Ok(IVec2::new(p[0] as i32, p[1] as i32))
}

fn parse_methods(names: Option<&[String]>) -> Result<Vec<MapMethod>, ApiError> {
    let Some(names) = names else {
        return Ok(MapMethod::ALL.to_vec());
    };
    let mut out = Vec::new();
    for n in names {
        let m = one_of("method", n, &MapMethod::ALL, |m| m.name().to_owned())?;
        if !out.contains(&m) {
            out.push(m);
        }
    }
    Ok(out)
}

/// The candidate called `name`, else a 400 naming the `what` and every known name.
fn one_of<T: Copy>(
    what: &str,
    name: &str,
    candidates: &[T],
    name_of: impl Fn(&T) -> String,
) -> Result<T, ApiError> {
    candidates
        .iter()
        .find(|c| name_of(c) == name)
        .copied()
        .ok_or_else(|| {
            let known: Vec<String> = candidates.iter().map(name_of).collect();
            ApiError::bad_request(format!(
                "unknown {what} `{name}` (known: {})",
                known.join(", ")
            ))
        })
}

/// The name clap gives a value (the one `--corridor-solver` takes).
fn clap_name<T: ValueEnum>(value: &T) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_owned())
}

/// `value` when it is within the playground's `limit` for `name`, else a 400.
fn at_most<T: PartialOrd + std::fmt::Display>(
    name: &str,
    value: T,
    limit: T,
) -> Result<T, ApiError> {
    if value > limit {
        return Err(ApiError::bad_request(format!(
            "{name} {value} is more than the playground's limit of {limit}"
        )));
    }
    Ok(value)
}

fn curve_params(r: &PlanRequest) -> Result<CurveParams, ApiError> {
    let mut c = CurveParams::default();
    if let Some(p) = r.passes {
        c.passes = at_most("passes", p, limits::MAX_PASSES)?;
    }
    if let Some(s) = r.subdivisions {
        c.subdivisions = at_most("subdivisions", s, limits::MAX_SUBDIVISIONS)?;
    }
    c.alpha = r.alpha.unwrap_or(c.alpha);
    c.ratio = r.ratio.unwrap_or(c.ratio);
    Ok(c)
}

/// Where an agent with the default limits is over time, at most
/// [`limits::MAX_SAMPLES`] samples, and its total time.
fn follow(path: &[DVec2]) -> pathsmooth::Result<(f64, Vec<[f64; 3]>)> {
    let profile = speed_profile(path, &Agent::default())?;
    let total = profile.total_time();
    let rate = if total > 0.0 {
        limits::SAMPLE_RATE.min((limits::MAX_SAMPLES - 2) as f64 / total)
    } else {
        limits::SAMPLE_RATE
    };
    let samples = profile
        .samples(rate)?
        .iter()
        .map(|s| [s.t, s.position.x, s.position.y])
        .collect();
    Ok((total, samples))
}

/// Plans once with A*, then runs one pipeline per method on that path, as `pathsmooth
/// plan` does; a method that fails is reported in `errors` while the others are kept.
fn plan_blocking(p: &Playground, r: &PlanRequest) -> Result<PlanResponse, ApiError> {
    let methods = parse_methods(r.methods.as_deref())?;
    let curve = curve_params(r)?;
    let defaults = OptimiserParams::default();
    let corridor_solver = match r.corridor_solver.as_deref() {
        None => defaults.corridor_solver,
        Some(name) => one_of(
            "corridor_solver",
            name,
            CorridorSolver::value_variants(),
            clap_name,
        )?,
    };
    let optimiser = OptimiserParams {
        corridor_solver,
        corridor_alpha: r.corridor_alpha.unwrap_or(defaults.corridor_alpha),
        corridor_beta: r.corridor_beta.unwrap_or(defaults.corridor_beta),
        corridor_spacing: r.corridor_spacing.unwrap_or(defaults.corridor_spacing),
        corridor_windows: r.corridor_windows.unwrap_or(defaults.corridor_windows),
    };
    let (from, to) = (cell(r.start, "start")?, cell(r.goal, "goal")?);
    let world = p.world_for(r.world.as_deref(), r.map.as_deref())?;
    let world = &*world;
    let (start, goal) = (world.cell_center(from), world.cell_center(to));
    let raw = world
        .find_path(start, goal, r.radius)
        .map_err(ApiError::planning)?;
    let astar_length = pathsmooth::metrics::length(&raw);

    let mut paths = BTreeMap::new();
    let mut errors = BTreeMap::new();
    let mut comparison = Comparison::new(world, r.radius, &methods, &curve, &optimiser)
        .map_err(ApiError::planning)?;
    for run in comparison.smooth(&raw) {
        let (m, pipeline, skipped) = (run.method, run.pipeline, run.skipped());
        let out = || -> pathsmooth::Result<PathOut> {
            let path = run.path?;
            let micros = run.time.as_secs_f64() * 1e6;
            let v = &pipeline.report().validation;
            let (follow_s, samples) = follow(&path)?;
            let corridor = pipeline.last_corridor().map(|plan| {
                let c = &plan.corridor;
                c.centers
                    .iter()
                    .zip(&c.radii)
                    .map(|(p, &r)| [p.x, p.y, r])
                    .collect()
            });
            Ok(PathOut {
                points: path.iter().map(|q| q.to_array()).collect(),
                valid: v.is_valid(),
                length: v.length,
                vs_shortest: 1.0,
                max_turn_deg: v.max_turn.to_degrees(),
                total_turn_deg: v.total_turn.to_degrees(),
                min_clearance: v.min_clearance,
                follow_s,
                micros,
                samples,
                corridor,
                skipped,
            })
        };
        match out() {
            Ok(out) => {
                paths.insert(m.name().to_string(), out);
            }
            Err(e) => {
                errors.insert(m.name().to_string(), e.to_string());
            }
        }
    }
    let shortest = paths
        .values()
        .map(|o| o.length)
        .fold(astar_length, f64::min);
    for out in paths.values_mut() {
        out.vs_shortest = crate::report::ratio(out.length, shortest);
    }
    Ok(PlanResponse {
        start: start.to_array(),
        goal: goal.to_array(),
        radius: r.radius,
        astar: raw.iter().map(|q| q.to_array()).collect(),
        astar_length,
        shortest,
        paths,
        errors,
    })
}

/// `POST /api/plan`.
pub async fn plan(State(p): State<Arc<Playground>>, headers: HeaderMap, body: Body) -> ApiResult {
    let req: PlanRequest = read_json(&headers, body).await?;
    let out = blocking(&p, move |p| plan_blocking(p, &req)).await?;
    Ok(json(StatusCode::OK, &out))
}

// ---- fallbacks ------------------------------------------------------------------------

/// Any other path.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page or API route (the API: GET /api/worlds, GET /api/worlds/{name}, GET /api/methods, POST /api/map, POST /api/scenarios, POST /api/plan)",
    )
}

/// A known path with the wrong HTTP method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong HTTP method for this route (GET for pages and /api/worlds, /api/methods; POST for the others)",
    )
}
