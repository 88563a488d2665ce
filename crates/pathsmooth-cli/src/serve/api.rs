//! The JSON API's HTTP side: each route reads its request within the server's limits, then
//! runs the playground's handler ([`pathsmooth_playground`]: the request and response
//! types, the work) in phases, with the client's admission, a worker, the deadline and
//! the memory budget between them.
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
//! library's short form, `pathsmooth::num`).
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

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::http::header::CONTENT_LENGTH;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use pathsmooth_playground::grid::{self, MapRequest, ScenRequest};
use pathsmooth_playground::plan::{Found, PlanJob, PlanRequest};
use pathsmooth_playground::route::{self, read_json as read_body};
use pathsmooth_playground::world::WorldSource;
use serde::de::DeserializeOwned;
use tokio::time::Instant;

use super::budget::{self, held_json, Reservation};
use super::clients::Client;
use super::conn::Peer;
use super::error::{json_bytes, ApiError};
use super::lanes::Lane;
use super::limits;
use super::playground::Playground;
use super::work::Work;

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
    Ok((read_body(&bytes)?, hold))
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

// ---- worlds ---------------------------------------------------------------------------

/// `GET /api/worlds`.
pub async fn worlds(State(p): State<Arc<Playground>>) -> ApiResult {
    Ok(json_bytes(grid::worlds(p.worlds())?))
}

/// `GET /api/worlds/{name}`.
pub async fn world_grid(State(p): State<Arc<Playground>>, Path(name): Path<String>) -> ApiResult {
    Ok(json_bytes(grid::world_grid(p.worlds(), &name)?))
}

/// `GET /api/methods`.
pub async fn methods() -> ApiResult {
    Ok(json_bytes(grid::methods()?))
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
    let cells = p
        .worlds()
        .size_for(None, Some(&req.map))?
        .map_or(0, |(w, h)| w * h);
    let work = Work::start(&p, &client, Lane::for_work(2 * cells as u64)).await?;
    let source = p.reserve_world(&req.map, work.deadline()).await?;
    let grid = work
        .blocking(&p, move |p, _| {
            Ok(grid::upload_map(p.worlds(), &req, source)?)
        })
        .await?;
    Ok(held_json(StatusCode::OK, grid, vec![body_hold]))
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
        .blocking(&p, move |_, _| Ok(grid::scenarios(&req)?))
        .await?;
    Ok(held_json(StatusCode::OK, list, vec![body_hold]))
}

// ---- planning -------------------------------------------------------------------------

/// The memory to reserve for smoothing and answering (see [`budget`]): the points the
/// answer may hold ([`Found::points`]) at their bytes each.
fn answer_bytes(found: &Found) -> usize {
    let n = found.points();
    n.raw * budget::RAW_BYTES_PER_POINT
        + n.kept * budget::ANSWER_BYTES_PER_POINT
        + n.largest * budget::WORK_BYTES_PER_POINT
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
    let job = PlanJob::new(req, p.worlds().area_costs())?;
    let r = job.request();
    let size = p.worlds().size_for(r.world.as_deref(), r.map.as_deref())?;
    job.check_on_map(size)?;
    let cells = size.map_or(0, |(w, h)| w * h);
    // Cancelled when this handler ends or is dropped (the client left): see `Work`.
    let work = Work::start(&p, &client, Lane::for_work(job.work(cells))).await?;
    let source = match job.request().map.as_deref() {
        Some(text) => p.reserve_world(text, work.deadline()).await?,
        None => WorldSource::default(),
    };
    // Area costs make a world of the request's own, held to the end of the answer.
    let costs_hold = if job.has_costs() {
        p.reserve(
            cells.saturating_mul(budget::WORLD_BYTES_PER_CELL),
            "the world under the request's area costs",
            work.deadline(),
        )
        .await?
    } else {
        Reservation::none()
    };
    let search_hold = p
        .reserve(
            cells.saturating_mul(budget::SEARCH_BYTES_PER_CELL),
            "the A* search",
            work.deadline(),
        )
        .await?;
    let found = work
        .blocking(&p, move |p, cancel| {
            Ok(job.find(p.worlds(), source, cancel)?)
        })
        .await?;
    drop(search_hold);
    let plan_hold = p
        .reserve(
            answer_bytes(&found),
            "smoothing and answering",
            work.deadline(),
        )
        .await?;
    let answer = work
        .blocking(&p, move |_, cancel| Ok(found.answer(cancel)?))
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
    ApiError::new(StatusCode::NOT_FOUND, route::NO_SUCH_ROUTE)
}

/// A known path with the wrong HTTP method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, route::WRONG_METHOD)
}
