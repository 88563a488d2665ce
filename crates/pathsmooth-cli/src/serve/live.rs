//! The live crowd on the server (the playground's [`LiveCrowd`]): `POST /api/crowd/live`
//! starts one for the client, `POST /api/crowd/live/step?session=N` steps it (the page asks
//! for the next half second while it plays the last, and sends the agents where the map is
//! clicked).
//!
//! A live crowd is state kept between requests ([`sessions`](super::sessions)), so it is
//! bounded for the others' sake:
//! - at most [`MAX_LIVE_CROWDS`] at once, and one a client (an address): a client's new
//!   start ends its old crowd; a start when the table is full of other clients' crowds that
//!   are all in use is a 503 with `Retry-After`;
//! - each holds its memory reserved from the budget for its life (its world, a search's
//!   worth, a step's answer);
//! - a crowd not stepped for [`live_idle`] ends (its table place and memory given back),
//!   and one ends [`LIVE_LIFETIME`] after its start however busy (a 410 tells the page);
//! - a start and each step are requests like any other: the client's admission, a lane by
//!   their estimated work, the work deadline, cancelled when the client goes.
//!
//! A step names its crowd by the session number the start answered, and only the client
//! that started it may step it; one step of a crowd at a time (a second at once is a 409).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use pathsmooth_playground::crowd::CrowdRequest;
use pathsmooth_playground::live::{LiveCrowd, StepRequest, MAX_STEP_FRAMES};

use super::api::JsonRequest;
use super::budget::held_json;
use super::crowd;
use super::error::ApiError;
use super::lanes::Lane;
use super::playground::Playground;
#[cfg(doc)]
use super::sessions::{live_idle, LIVE_LIFETIME, MAX_LIVE_CROWDS};
use super::work::Work;

/// `POST /api/crowd/live`: the client's live crowd started (its earlier one ended), and
/// `POST /api/crowd`'s answer with the first frame, plus `"session"`: the number to step it
/// by.
pub(super) async fn start(
    State(p): State<Arc<Playground>>,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<CrowdRequest>,
) -> Result<Response, ApiError> {
    let (named, cells) = crowd::world_of(&p, &req)?;
    // Refused before any work when other clients' crowds fill the table (this client's
    // old one ends here: a page that starts again wants the new one).
    p.live().check_room(client.ip())?;
    let work = Work::start(&p, &client, Lane::for_work(4 * cells as u64)).await?;
    let hold = p
        // For its life: the world and a search, a step's frames and the paths sent.
        .reserve(
            crowd::bytes(req.agents, MAX_STEP_FRAMES, cells),
            "a live crowd",
            work.deadline(),
        )
        .await?;
    let (crowd, answer) = work
        .blocking(&p, move |_, cancel| {
            Ok(LiveCrowd::start(&req, &named, cancel)?)
        })
        .await?;
    let id = p.live().insert(client.ip(), crowd, hold)?;
    // The playground's answer is one JSON object: the session goes in first.
    let mut body = format!("{{\"session\":{id},").into_bytes();
    body.extend_from_slice(answer.get(1..).unwrap_or_default());
    Ok(held_json(StatusCode::OK, body, vec![body_hold]))
}

/// The session number of a step's query string (`session=N`), or the 400 saying what is
/// missing.
fn session_of(uri: &Uri) -> Result<u64, ApiError> {
    uri.query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("session="))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "a live crowd's step names its crowd: ?session=N, the number its start answered",
            )
        })
}

/// `POST /api/crowd/live/step?session=N`: the playground's step of that crowd.
pub(super) async fn step(
    State(p): State<Arc<Playground>>,
    uri: Uri,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<StepRequest>,
) -> Result<Response, ApiError> {
    let session = session_of(&uri)?;
    let mut crowd = p.live().take(session, client.ip())?;
    let work = match Work::start(&p, &client, Lane::Cheap).await {
        Ok(work) => work,
        Err(e) => {
            p.live().put_back(session, crowd);
            return Err(e);
        }
    };
    let stepped = work
        .blocking(&p, move |_, cancel| {
            let answer = crowd.step(&req, cancel);
            Ok((crowd, answer))
        })
        .await;
    match stepped {
        Ok((crowd, Ok(answer))) => {
            p.live().put_back(session, crowd);
            Ok(held_json(StatusCode::OK, answer, vec![body_hold]))
        }
        // A refused request (no frames, a click in a wall…) leaves the crowd as it was.
        Ok((crowd, Err(e))) if !e.is_cancelled() => {
            p.live().put_back(session, crowd);
            Err(e.into())
        }
        // Cut short part-way (out of time, the client gone): the crowd ends.
        Ok((_, Err(e))) => {
            p.live().end(session);
            Err(e.into())
        }
        Err(e) => {
            p.live().end(session);
            Err(e)
        }
    }
}
