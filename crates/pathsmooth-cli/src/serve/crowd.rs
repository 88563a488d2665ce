//! `POST /api/crowd`'s HTTP side: the request goes through the same guards as
//! `POST /api/plan` (the client's admission, a lane by its estimated work, the deadline,
//! the memory budget), then the playground's crowd ([`pathsmooth_playground::crowd`]: the
//! simulation, its limits and its answer) runs on a blocking worker and stops at its next
//! frame when the request is cancelled.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use pathsmooth::GridWorld;
use pathsmooth_playground::crowd::{self, CrowdRequest};

use super::api::JsonRequest;
use super::budget::{self, held_json};
use super::error::ApiError;
use super::lanes::Lane;
use super::limits;
use super::playground::Playground;
use super::work::Work;

/// The memory to reserve for a crowd of `agents` on a map of `cells`: the world and one
/// search over its cells, and an answer of `frames` frames (every agent's position in each)
/// and the paths up to their cap.
pub(super) fn bytes(agents: usize, frames: usize, cells: usize) -> usize {
    cells.saturating_mul(budget::WORLD_BYTES_PER_CELL + budget::SEARCH_BYTES_PER_CELL)
        + frames * agents * budget::CROWD_BYTES_PER_AGENT_FRAME
        + limits::MAX_CROWD_PATH_POINTS * budget::ANSWER_BYTES_PER_POINT
}

/// The world on offer `req` names, once `req` is checked, and its cells.
pub(super) fn world_of(
    p: &Playground,
    req: &CrowdRequest,
) -> Result<(Arc<GridWorld>, usize), ApiError> {
    let named = crowd::world_of(p.worlds(), req)?.clone();
    let cells = named.map().width() * named.map().height();
    Ok((named, cells))
}

/// `POST /api/crowd`: see the module docs.
pub(super) async fn crowd(
    State(p): State<Arc<Playground>>,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<CrowdRequest>,
) -> Result<Response, ApiError> {
    let (named, cells) = world_of(&p, &req)?;
    // Cancelled when this handler ends or is dropped (the client left): see `Work`.
    let work = Work::start(&p, &client, Lane::for_work(req.work(cells))).await?;
    let hold = p
        .reserve(
            bytes(req.agents, req.frames_sent(), cells),
            "the crowd and its frames",
            work.deadline(),
        )
        .await?;
    let answer = work
        .blocking(&p, move |_, cancel| Ok(crowd::run(&req, &named, cancel)?))
        .await?;
    Ok(held_json(StatusCode::OK, answer, vec![body_hold, hold]))
}
