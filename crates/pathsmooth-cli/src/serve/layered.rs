//! `GET` and `POST /api/layered`'s HTTP side: layered navmeshes (floors over floors) and
//! paths on them, answered by the playground ([`pathsmooth_playground::layered`]: the
//! request, the answer, the bundled examples).
//!
//! A request is checked before any work (preset, example, one source), then takes a worker
//! in the lane of its estimated work ([`LayeredRequest::work`]: four units a byte of a
//! navmesh sent), so a large navmesh waits in the heavy lane and never holds the worker
//! kept for cheap requests; a navmesh sent reserves memory by its length. The build and the
//! plan stop at the deadline or when the client leaves.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use pathsmooth_playground::layered::{self, LayeredRequest};

use super::api::JsonRequest;
use super::budget::held_json;
use super::error::{json_bytes, ApiError};
use super::lanes::Lane;
use super::playground::Playground;
use super::work::Work;

/// Bytes reserved per byte of a navmesh JSON's text while its surface is parsed, built and
/// planned on (the surface, its triangles and indexes, the answer with every polygon), besides
/// the body's own reservation: measured 12 (a 3.1 MB navmesh of 65 522 quads on two floors,
/// the polygons answered: peak 37.5 MiB over the idle server), about 2.5 times that.
const BYTES_PER_TEXT_BYTE: usize = 32;

/// `GET /api/layered`: the bundled examples.
pub async fn examples() -> Result<Response, ApiError> {
    Ok(json_bytes(layered::examples()?))
}

/// `POST /api/layered`: see the module docs.
pub(super) async fn layered(
    State(p): State<Arc<Playground>>,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<LayeredRequest>,
) -> Result<Response, ApiError> {
    req.check()?;
    let work = Work::start(&p, &client, Lane::for_work(req.work())).await?;
    let text_hold = match req.navmesh() {
        Some(text) => Some(
            p.reserve(
                text.len().saturating_mul(BYTES_PER_TEXT_BYTE),
                "building the navmesh",
                work.deadline(),
            )
            .await?,
        ),
        None => None,
    };
    let answer = work
        .blocking(&p, move |_, cancel| Ok(layered::layered(&req, cancel)?))
        .await?;
    let holds = std::iter::once(body_hold).chain(text_hold).collect();
    Ok(held_json(StatusCode::OK, answer, holds))
}
