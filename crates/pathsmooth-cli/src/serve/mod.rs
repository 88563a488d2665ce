//! The playground behind `pathsmooth serve`: one embedded page and a JSON API, the HTTP
//! shell over the playground's API ([`pathsmooth_playground`]: the request and response
//! types and the handlers, which the static playground runs in a Web Worker too). Here:
//! what HTTP needs (limits, budget, workers, deadlines, clients); no algorithm logic.
//!
//! - [`api`]: reading a request within the limits, the routes of the grids and plans;
//! - [`playground`]: the server's state: the playground's worlds (the maps uploaded lately
//!   with their memory reserved), the workers and the memory budget;
//! - [`error`]: the one error every part returns, and the JSON response it is sent as;
//! - [`limits`]: what one request may ask for (body size, map size, points, time), and
//!   one client;
//! - [`budget`]: the memory the requests being served may hold together;
//! - [`crowd`]: `POST /api/crowd`'s guards and memory;
//! - [`layered`]: `/api/layered`'s guards and memory;
//! - [`live`]: `/api/crowd/live`'s guards and memory; [`sessions`]: the clients' live
//!   crowds, kept between requests within bounds;
//! - [`clients`]: per-client (per-address) limits on requests in progress;
//! - [`lanes`]: the workers, a lane for cheap and one for heavy work, bounded queues;
//! - [`work`]: a request's deadline, worker and cancellation;
//! - [`guard`]: same origin only (Host, Origin, Content-Type);
//! - [`conn`]: who gets a connection (slow clients make room for fast ones);
//! - [`page`]: the page, its script and style, embedded in the binary.

pub mod api;
pub mod budget;
pub mod clients;
pub mod conn;
pub mod crowd;
pub mod error;
pub mod guard;
pub mod lanes;
pub mod layered;
pub mod limits;
pub mod live;
pub mod page;
pub mod playground;
pub mod sessions;
pub mod work;

use std::sync::Arc;

use anyhow::Result;
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;

pub use guard::Hosts;
pub use playground::Playground;

/// The routes: the page and its assets, then the API under `/api/`, every one behind the
/// same-origin guard for `hosts`.
pub fn router(playground: Arc<Playground>, hosts: Hosts) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/layered.js", get(page::layered_script))
        .route("/crowd.js", get(page::crowd_script))
        .route("/api/worlds", get(api::worlds))
        .route("/api/worlds/{name}", get(api::world_grid))
        .route("/api/methods", get(api::methods))
        .route("/api/map", post(api::upload_map))
        .route("/api/scenarios", post(api::scenarios))
        .route("/api/plan", post(api::plan))
        .route("/api/crowd", post(crowd::crowd))
        .route("/api/crowd/live", post(live::start))
        .route("/api/crowd/live/step", post(live::step))
        .route(
            "/api/layered",
            get(layered::examples).post(layered::layered),
        )
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(hosts),
            guard::same_origin,
        ))
        .with_state(playground)
}

/// Runs `f` to its end on a runtime of one thread with timers, as the serve modules' unit
/// tests need (their futures sleep and wait on deadlines).
#[cfg(test)]
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build();
    rt.unwrap().block_on(f)
}

/// Serves the playground on `listener` until the process is stopped: HTTP/1.1 by hyper,
/// with the connection policy of [`conn`] and the guard of [`guard`] for `hosts`.
pub async fn serve(listener: TcpListener, playground: Playground, hosts: Hosts) -> Result<()> {
    conn::serve(listener, router(Arc::new(playground), hosts)).await;
    Ok(())
}
