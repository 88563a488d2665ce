//! The JSON API: request and response types, the handlers, and the worlds on offer.
//!
//! | route | what |
//! | --- | --- |
//! | `GET /api/worlds` | the embedded and loaded worlds: name, width, height (and a suggested start and goal); the server's default `area_costs` |
//! | `GET /api/worlds/{name}` | one world's cells, as rows of `.` (free) and `@` (blocked), and for a map with swamp or water its `areas`: rows of `.`, `S`, `W`, `@` |
//! | `GET /api/methods` | the method names, and the ones the page turns on at first |
//! | `POST /api/map` | `{"map": text}`: the same cells for a `.map` file's text (checked by the library) |
//! | `POST /api/scenarios` | `{"scen": text}`: the scenarios of a `.map.scen` file |
//! | `GET`, `POST /api/layered` | layered navmeshes and paths on them (see [`layered`](super::layered)) |
//! | `POST /api/crowd` | a crowd on a world on offer (agents, doors, a truck) simulated on the server, as frames (see [`crowd`](super::crowd)) |
//! | `POST /api/plan` | A* once, then one pipeline per method; paths, metrics (each path's length and its `cost` under the request's `area_costs`), animation samples, the steps that did not take effect |
//!
//! Every error is `{"error": "…"}` with a 4xx status (503 when a request runs out of time,
//! or of workers or memory that other requests hold; with `Retry-After` when the server
//! or the client has too many requests in progress), one message of at most
//! [`MAX_MESSAGE_CHARS`](limits::MAX_MESSAGE_CHARS) characters saying what was wrong (names
//! from the request quoted to [`MAX_QUOTE_CHARS`](limits::MAX_QUOTE_CHARS), numbers in the
//! library's short form, [`num`]).
//!
//! Every handler that reads a body admits its request for its client first
//! ([`clients`](super::clients)), reads and checks it, estimates its work and takes a worker
//! in that work's lane ([`lanes`](super::lanes)), held to the end of the work.
//!
//! A plan is served in phases, each within the request's deadline ([`Work`]): reserve the
//! memory of the world and the search (from the map's size), find the A* path, reserve the
//! memory of the answer (from the points each method can produce: its bound, capped at
//! [`MAX_PATH_POINTS`](limits::MAX_PATH_POINTS)), smooth and encode. A method whose first
//! step would produce more than the cap is refused before anything is computed for it.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::http::header::CONTENT_LENGTH;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use clap::ValueEnum;
use glam::{DVec2, IVec2};
use pathsmooth::area::{AreaCosts, SWAMP, WATER};
use pathsmooth::follow::{speed_profile, Agent};
use pathsmooth::grid::parse_scenarios;
use pathsmooth::world::path_cost;
use pathsmooth::{num, AreaId, Cancel, Error, GridWorld, World};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::budget::{self, held_json, Reservation};
use super::clients::Client;
use super::conn::Peer;
use super::error::{json, quote, ApiError};
use super::lanes::Lane;
use super::limits;
use super::playground::{Playground, WorldSource};
use super::work::Work;
use crate::areas::grid_area_costs;
use crate::compare::{bounded, Comparison, Run, Skipped};
use crate::methods::{CorridorSolver, CurveParams, MapMethod, OptimiserParams};

/// Methods the page turns on when it opens.
pub const DEFAULT_METHODS: [MapMethod; 4] = [
    MapMethod::Astar,
    MapMethod::ShortcutChaikin,
    MapMethod::ShortcutCatmullRom,
    MapMethod::Corridor,
];

type ApiResult = Result<Response, ApiError>;

/// Reads a JSON body within the size and time limits, after reserving its memory (its
/// declared length, or the largest body taken when it has none, [`budget::BODY_COPIES`]
/// times); the reservation is returned with the value, to be kept while it is used.
pub(super) async fn read_json<T: DeserializeOwned>(
    p: &Playground,
    headers: &HeaderMap,
    body: Body,
) -> Result<(T, Reservation), ApiError> {
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
    let deadline = Instant::now() + limits::BODY_TIMEOUT;
    let length = declared.map_or(limits::MAX_BODY_BYTES, |n| n as usize);
    let hold = p
        .reserve(
            length * budget::BODY_COPIES,
            "reading the request",
            deadline,
        )
        .await?;
    let bytes: Bytes =
        tokio::time::timeout_at(deadline, axum::body::to_bytes(body, limits::MAX_BODY_BYTES))
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
    let value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))?;
    Ok((value, hold))
}

/// How every JSON endpoint starts, as an extractor: the client admitted (or refused, see
/// [`Clients::admit`](super::clients::Clients::admit)), then the body read as `T` by
/// [`read_json`]. Keep `client` and `body_hold` while the request is served: they hold its
/// place among the client's requests and the body's memory.
pub(super) struct JsonRequest<T> {
    pub client: Client,
    pub req: T,
    pub body_hold: Reservation,
}

impl<T: DeserializeOwned + Send> FromRequest<Arc<Playground>> for JsonRequest<T> {
    // A `Response`, so that a missing `Peer` is answered as axum's `Extension` extractor
    // answers it.
    type Rejection = Response;

    async fn from_request(request: Request, p: &Arc<Playground>) -> Result<Self, Response> {
        let (mut parts, body) = request.into_parts();
        let Extension(Peer(ip)) = Extension::<Peer>::from_request_parts(&mut parts, p)
            .await
            .map_err(IntoResponse::into_response)?;
        let client = p.clients().admit(ip).map_err(IntoResponse::into_response)?;
        let (req, body_hold) = read_json(p, &parts.headers, body)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(JsonRequest {
            client,
            req,
            body_hold,
        })
    }
}

/// `value` as a JSON body (encoded on a blocking worker: an answer can be megabytes).
pub(super) fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(value).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot encode the response: {e}"),
        )
    })
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

/// A world's cells for drawing: rows of `.` (free) and `@` (blocked); for a map with
/// swamp or water, its areas too.
#[derive(Serialize)]
struct Grid {
    name: String,
    width: usize,
    height: usize,
    rows: Vec<String>,
    /// Rows of each cell's area: `.` ground, `S` swamp, `W` water (blocked unless the
    /// area costs give it a cost), `@` wall; absent when the map has neither swamp nor
    /// water.
    #[serde(skip_serializing_if = "Option::is_none")]
    areas: Option<Vec<String>>,
}

/// The letter the playground draws for area `a` of a cell (`passable` or not).
fn area_letter(a: AreaId, passable: bool) -> char {
    match a {
        SWAMP | WATER => a as char,
        _ if passable => '.',
        _ => '@',
    }
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
        let areas = map.areas().map(|_| {
            (0..map.height())
                .map(|y| {
                    (0..map.width())
                        .map(|x| area_letter(map.area(x, y), map.is_passable(x as i64, y as i64)))
                        .collect()
                })
                .collect()
        });
        Grid {
            name: name.to_string(),
            width: map.width(),
            height: map.height(),
            rows,
            areas,
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
    json(
        StatusCode::OK,
        &serde_json::json!({ "worlds": list, "area_costs": p.area_costs }),
    )
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
pub(super) struct MapRequest {
    map: String,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/map`: a `.map` file's cells, checked by the library's parser.
pub(super) async fn upload_map(
    State(p): State<Arc<Playground>>,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<MapRequest>,
) -> ApiResult {
    // Parsing, the distance field and the rows answered: a few passes over the cells.
    let cells = p.size_for(None, Some(&req.map))?.map_or(0, |(w, h)| w * h);
    let work = Work::start(&p, &client, Lane::for_work(2 * cells as u64)).await?;
    let source = p.reserve_world(&req.map, work.deadline()).await?;
    let grid = work
        .blocking(&p, move |p, _| {
            let world = p.world_for_text(&req.map, source)?;
            encode(&Grid::of(
                req.name.as_deref().unwrap_or("uploaded map"),
                &world,
            ))
        })
        .await?;
    Ok(held_json(StatusCode::OK, grid, vec![body_hold]))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScenRequest {
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
pub(super) async fn scenarios(
    State(p): State<Arc<Playground>>,
    // The scenarios parsed are within the body's reservation (BODY_COPIES times its text).
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<ScenRequest>,
) -> ApiResult {
    // A line of about 50 bytes a scenario, parsed once: far less than a cell's search.
    let work = Work::start(&p, &client, Lane::for_work(req.scen.len() as u64 / 8)).await?;
    let list = work
        .blocking(&p, move |_, _| {
            let text = first_scenarios(&req.scen, limits::MAX_SCENARIOS);
            let all = parse_scenarios(text, "scenario file").map_err(ApiError::bad_request)?;
            let list: Vec<ScenOut> = all
                .iter()
                .map(|s| ScenOut {
                    bucket: s.bucket,
                    start: s.start.to_array(),
                    goal: s.goal.to_array(),
                    optimal: s.optimal_length,
                    map_width: s.map_width,
                    map_height: s.map_height,
                })
                .collect();
            encode(&serde_json::json!({ "scenarios": list }))
        })
        .await?;
    Ok(held_json(StatusCode::OK, list, vec![body_hold]))
}

/// `text` up to the end of the line of its `n`-th scenario (the first line, `version`, and
/// blank lines aside): what is answered, and all that is parsed, so that the parse of an
/// 8 MiB file (0.35 s in a test build, not interrupted) is not spent on scenarios that
/// are never sent.
fn first_scenarios(text: &str, n: usize) -> &str {
    let mut end = 0;
    let mut lines = 0;
    for line in text.split_inclusive('\n') {
        end += line.len();
        if !line.trim().is_empty() {
            lines += 1;
            if lines > n {
                break;
            }
        }
    }
    &text[..end]
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
    /// Area costs `AREA=COST,...` as the CLI's `--area-costs` (`S=4,W=exclude`; `""`: every
    /// area 1, water excluded); absent: the server's `--area-costs`, if any.
    pub area_costs: Option<String>,
}

/// One method's result.
#[derive(Debug, Serialize)]
pub struct PathOut {
    points: Vec<[f64; 2]>,
    valid: bool,
    length: f64,
    /// The path's cost under the area costs (its length without them).
    cost: f64,
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
    /// The A* path's cost under the area costs (its length without them).
    astar_cost: f64,
    /// The area costs applied (the request's or the server's, cut to
    /// [`MAX_MESSAGE_CHARS`](limits::MAX_MESSAGE_CHARS)), `null` for none.
    area_costs: Option<String>,
    /// The shortest of the returned paths' lengths and the A* length.
    shortest: f64,
    paths: BTreeMap<String, PathOut>,
    errors: BTreeMap<String, String>,
}

/// Cell `p` (`[column, row]`), or a 400 when it is not two whole numbers. Whether it is on
/// the map is [`on_map`]'s question.
fn cell(p: [f64; 2], what: &str) -> Result<IVec2, ApiError> {
    if !p.iter().all(|v| v.fract() == 0.0) {
        return Err(ApiError::bad_request(format!(
            "{what} [{}, {}] is not a cell: give whole numbers [column, row]",
            num(p[0]),
            num(p[1])
        )));
    }
    // Saturating: a cell beyond the i32 range is off every map, which `on_map` says.
    Ok(IVec2::new(p[0] as i32, p[1] as i32))
}

/// A 400 unless cell `p` (whole numbers) is on a map of `width` × `height` cells.
fn on_map(p: [f64; 2], what: &str, (width, height): (usize, usize)) -> Result<(), ApiError> {
    let inside = p[0] >= 0.0 && p[1] >= 0.0 && p[0] < width as f64 && p[1] < height as f64;
    if inside {
        return Ok(());
    }
    Err(ApiError::bad_request(format!(
        "{what} [{}, {}] is outside the {width}×{height} map: columns run from 0 to {}, rows from 0 to {}",
        num(p[0]),
        num(p[1]),
        width.saturating_sub(1),
        height.saturating_sub(1)
    )))
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
                "unknown {what} {} (known: {})",
                quote(name),
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

/// A plan request checked: what to run, from where to where. Building it reports the
/// request's parameter errors (400) before any work is reserved or done.
struct PlanJob {
    req: PlanRequest,
    /// The area costs to plan under, and their text (`None`: the world's own).
    costs: Option<(AreaCosts, String)>,
    methods: Vec<MapMethod>,
    curve: CurveParams,
    optimiser: OptimiserParams,
    from: IVec2,
    to: IVec2,
}

impl PlanJob {
    fn new(req: PlanRequest, default_costs: Option<&str>) -> Result<Self, ApiError> {
        let methods = parse_methods(req.methods.as_deref())?;
        // An empty spec is the default filter: the shared world as it is.
        let costs = match req.area_costs.as_deref().or(default_costs) {
            Some(spec) if !spec.trim().is_empty() => Some((
                grid_area_costs(spec).map_err(ApiError::bad_request)?,
                // Echoed in the answer: cut as messages are (a spec may repeat entries).
                bounded(spec, limits::MAX_MESSAGE_CHARS),
            )),
            _ => None,
        };
        let curve = curve_params(&req)?;
        let defaults = OptimiserParams::default();
        let corridor_solver = match req.corridor_solver.as_deref() {
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
            corridor_alpha: req.corridor_alpha.unwrap_or(defaults.corridor_alpha),
            corridor_beta: req.corridor_beta.unwrap_or(defaults.corridor_beta),
            corridor_spacing: req.corridor_spacing.unwrap_or(defaults.corridor_spacing),
            corridor_windows: req.corridor_windows.unwrap_or(defaults.corridor_windows),
        };
        let (from, to) = (cell(req.start, "start")?, cell(req.goal, "goal")?);
        Ok(PlanJob {
            req,
            costs,
            methods,
            curve,
            optimiser,
            from,
            to,
        })
    }

    /// A 400 unless both ends are cells of the map, `size` (`None` when a map's text does
    /// not say: its parser then refuses it).
    fn check_on_map(&self, size: Option<(usize, usize)>) -> Result<(), ApiError> {
        if let Some(size) = size {
            on_map(self.req.start, "start", size)?;
            on_map(self.req.goal, "goal", size)?;
        }
        Ok(())
    }

    /// The estimated work (see [`Lane::for_work`]) on a map of `cells`: the A* search and
    /// each method, about a pass over the cells each (the path a search finds crosses at
    /// most every cell), and the world's build when the map comes as text or the request
    /// has area costs of its own.
    fn work(&self, cells: usize) -> u64 {
        let builds = usize::from(self.req.map.is_some()) + usize::from(self.costs.is_some());
        (cells as u64).saturating_mul((1 + self.methods.len() + builds) as u64)
    }

    /// Finds the A* path (on a blocking worker); `source` is where the world of the
    /// request's map comes from.
    fn find(self, p: &Playground, source: WorldSource, cancel: &Cancel) -> Result<Found, ApiError> {
        let mut world = p.world_for(self.req.world.as_deref(), self.req.map.as_deref(), source)?;
        if let Some((costs, _)) = &self.costs {
            // A world of its own for these costs (the shared one keeps the default).
            let own = GridWorld::with_frame(world.map().clone(), world.cell_size(), world.origin())
                .and_then(|w| w.with_area_costs(costs.clone()))
                .map_err(ApiError::planning)?;
            world = Arc::new(own);
        }
        let (start, goal) = (world.cell_center(self.from), world.cell_center(self.to));
        let mut raw = Vec::new();
        world
            .find_path_cancellable_into(
                start,
                goal,
                self.req.radius,
                cancel,
                &mut Default::default(),
                &mut raw,
            )
            .map_err(ApiError::planning)?;
        let limits = self.methods.iter().map(|&m| self.limit(m, &raw)).collect();
        Ok(Found {
            job: self,
            world,
            start,
            goal,
            raw,
            limits,
        })
    }

    /// The most points method `m` can return from the A* path `raw`, or why it is refused
    /// before it runs: its first step (or, for `astar`, the path itself) would make more
    /// than [`limits::MAX_PATH_POINTS`]. Later steps are bounded as if they ran on `raw`
    /// (a shortcut only drops points), and re-routing steps by `raw`'s length: estimates
    /// for the memory to reserve, which the pipeline's own cap makes true.
    fn limit(&self, m: MapMethod, raw: &[DVec2]) -> Result<usize, String> {
        let n = raw.len() as u128;
        let steps = m.steps(&self.curve, &self.optimiser);
        let cap = limits::MAX_PATH_POINTS;
        let first = steps.first().map_or(Some(n), |s| s.max_output_len(raw));
        if let Some(requested) = first
            && requested > cap as u128
        {
            return Err(if steps.is_empty() {
                format!(
                    "the A* path has {n} points, more than the playground's cap of {cap} points a path"
                )
            } else {
                let e = Error::OutputTooLarge { requested, cap };
                format!("{e} (the playground's cap on the points of a path; ask for fewer passes or subdivisions, or a shorter route)")
            });
        }
        let most = steps
            .iter()
            .map(|s| s.max_output_len(raw).unwrap_or(n))
            .fold(n, u128::max);
        Ok(most.min(cap as u128) as usize)
    }
}

/// The A* path of a plan request, with the limits of its methods.
struct Found {
    job: PlanJob,
    world: Arc<GridWorld>,
    start: DVec2,
    goal: DVec2,
    raw: Vec<DVec2>,
    /// Per method (in the job's order): its bound in points, or why it is refused.
    limits: Vec<Result<usize, String>>,
}

impl Found {
    /// The memory to reserve for smoothing and answering (see [`budget`]): the A* path,
    /// every method's points kept in the answer (at most [`limits::MAX_ANSWER_POINTS`]),
    /// and the largest method's working set (methods run one after the other).
    fn bytes(&self) -> usize {
        let bounds = self.limits.iter().filter_map(|l| l.as_ref().ok());
        let kept: usize = bounds.clone().sum::<usize>().min(limits::MAX_ANSWER_POINTS);
        let work = bounds.max().copied().unwrap_or(0);
        self.raw.len() * budget::RAW_BYTES_PER_POINT
            + kept * budget::ANSWER_BYTES_PER_POINT
            + work * budget::WORK_BYTES_PER_POINT
    }

    /// Runs one pipeline per method on the A* path, as `pathsmooth plan` does, and
    /// encodes the answer (on a blocking worker). A method that fails or is refused for a
    /// limit is reported in `errors` while the others are kept; when every method is
    /// refused for a limit, the request is a 413 saying so. A cancelled run is a 503.
    fn answer(self, cancel: &Cancel) -> Result<Vec<u8>, ApiError> {
        let Found {
            job,
            world,
            start,
            goal,
            raw,
            limits: method_limits,
        } = self;
        let world = &*world;
        let r = &job.req;
        let astar_length = pathsmooth::metrics::length(&raw);
        let astar_cost = path_cost(world, &raw);
        let mut paths = BTreeMap::new();
        let mut errors = BTreeMap::new();
        // The limit errors, to answer 413 when nothing else came out.
        let mut refused = Vec::new();
        let mut kept = 0usize;
        for (&m, limit) in job.methods.iter().zip(method_limits) {
            let name = m.name().to_string();
            if let Err(why) = limit {
                refused.push(format!("{name}: {why}"));
                errors.insert(name, bounded(&why, limits::MAX_MESSAGE_CHARS));
                continue;
            }
            cancel.check().map_err(ApiError::planning)?;
            // One pipeline at a time, dropped after its method: the working set is one
            // method's, as reserved.
            let mut comparison = Comparison::new(world, r.radius, &[m], &job.curve, &job.optimiser)
                .map_err(ApiError::planning)?;
            comparison.set_cancel(Some(cancel.clone()));
            comparison.set_max_points(Some(limits::MAX_PATH_POINTS));
            let Some(run) = comparison.smooth(&raw).pop() else {
                continue;
            };
            match path_out(world, run, kept) {
                Ok(out) => {
                    kept += out.points.len();
                    paths.insert(name, out);
                }
                Err(Error::Cancelled) => return Err(ApiError::planning(Error::Cancelled)),
                Err(e) => {
                    let why = e.to_string();
                    if matches!(e, Error::OutputTooLarge { .. }) {
                        refused.push(format!("{name}: {why}"));
                    }
                    errors.insert(name, bounded(&why, limits::MAX_MESSAGE_CHARS));
                }
            }
        }
        if paths.is_empty() && !refused.is_empty() && refused.len() == errors.len() {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                refused.join("; "),
            ));
        }
        let shortest = paths
            .values()
            .map(|o| o.length)
            .fold(astar_length, f64::min);
        for out in paths.values_mut() {
            out.vs_shortest = crate::report::ratio(out.length, shortest);
        }
        encode(&PlanResponse {
            start: start.to_array(),
            goal: goal.to_array(),
            radius: r.radius,
            astar: raw.iter().map(|q| q.to_array()).collect(),
            astar_length,
            astar_cost,
            area_costs: job.costs.map(|(_, spec)| spec),
            shortest,
            paths,
            errors,
        })
    }
}

/// A method's run as the answer shows it, with its speed profile; `kept` points are in
/// the answer already. Errors: the run's own, [`Error::OutputTooLarge`] for a path past
/// [`limits::MAX_PATH_POINTS`] or one that would take the answer past
/// [`limits::MAX_ANSWER_POINTS`] (checked before the speed profile is computed).
fn path_out(
    world: &GridWorld,
    run: Run<'_, '_, GridWorld>,
    kept: usize,
) -> pathsmooth::Result<PathOut> {
    let skipped = run.skipped();
    let pipeline = run.pipeline;
    let path = run.path?;
    let cap = limits::MAX_PATH_POINTS.min(limits::MAX_ANSWER_POINTS.saturating_sub(kept));
    if path.len() > cap {
        return Err(Error::OutputTooLarge {
            requested: path.len() as u128,
            cap,
        });
    }
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
        cost: path_cost(world, &path),
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
}

/// `POST /api/plan`: the phases of the module docs, each within the request's deadline.
pub(super) async fn plan(
    State(p): State<Arc<Playground>>,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<PlanRequest>,
) -> ApiResult {
    let job = PlanJob::new(req, p.area_costs.as_deref())?;
    let size = p.size_for(job.req.world.as_deref(), job.req.map.as_deref())?;
    job.check_on_map(size)?;
    let cells = size.map_or(0, |(w, h)| w * h);
    // Cancelled when this handler ends or is dropped (the client left): see `Work`.
    let work = Work::start(&p, &client, Lane::for_work(job.work(cells))).await?;
    let source = match job.req.map.as_deref() {
        Some(text) => p.reserve_world(text, work.deadline()).await?,
        None => WorldSource::default(),
    };
    // Area costs make a world of the request's own, held to the end of the answer.
    let costs_hold = match job.costs {
        Some(_) => {
            p.reserve(
                cells.saturating_mul(budget::WORLD_BYTES_PER_CELL),
                "the world under the request's area costs",
                work.deadline(),
            )
            .await?
        }
        None => Reservation::none(),
    };
    let search_hold = p
        .reserve(
            cells.saturating_mul(budget::SEARCH_BYTES_PER_CELL),
            "the A* search",
            work.deadline(),
        )
        .await?;
    let found = work
        .blocking(&p, move |p, cancel| job.find(p, source, cancel))
        .await?;
    drop(search_hold);
    let plan_hold = p
        .reserve(found.bytes(), "smoothing and answering", work.deadline())
        .await?;
    let answer = work
        .blocking(&p, move |_, cancel| found.answer(cancel))
        .await?;
    Ok(held_json(
        StatusCode::OK,
        answer,
        vec![body_hold, plan_hold, costs_hold],
    ))
}

// ---- fallbacks ------------------------------------------------------------------------

/// Any other path.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page or API route (the API: GET /api/worlds, GET /api/worlds/{name}, GET /api/methods, POST /api/map, POST /api/scenarios, POST /api/plan, POST /api/crowd, GET and POST /api/layered)",
    )
}

/// A known path with the wrong HTTP method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong HTTP method for this route (GET for pages and /api/worlds, /api/methods; POST for the others; both for /api/layered)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_scenarios_answered_are_parsed() {
        let text = "version 1\n\na\nb\n\nc\nd";
        assert_eq!(first_scenarios(text, 2), "version 1\n\na\nb\n");
        assert_eq!(first_scenarios(text, 9), text);
        assert_eq!(first_scenarios("", 3), "");
    }

    #[test]
    fn an_end_off_the_map_is_refused_with_a_short_number_and_why() {
        let e = on_map([1e300, 5.0], "start", (80, 80)).unwrap_err();
        assert_eq!(e.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            e.message(),
            "start [1e300, 5] is outside the 80×80 map: columns run from 0 to 79, rows from 0 to 79"
        );
        assert!(on_map([79.0, 0.0], "goal", (80, 80)).is_ok());
        assert!(on_map([-1.0, 0.0], "goal", (80, 80)).is_err());
        let e = cell([2.5, -1e-300], "goal").unwrap_err();
        assert_eq!(
            e.message(),
            "goal [2.5, -1e-300] is not a cell: give whole numbers [column, row]"
        );
    }
}
