//! The playground behind `pathsmooth serve`: one embedded page and a JSON API, a thin
//! shell over the library's pipeline (no algorithm logic here).
//!
//! - [`api`]: request and response types, handlers, the worlds on offer;
//! - [`limits`]: what one request may ask for (body size, map size, time);
//! - [`page`]: the page, its script and style, embedded in the binary.

pub mod api;
pub mod limits;
pub mod page;

use std::sync::Arc;

use anyhow::Result;
use axum::routing::{get, post};
use axum::Router;

pub use api::Playground;

/// The routes: the page and its assets, then the API under `/api/`.
pub fn router(playground: Arc<Playground>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/worlds", get(api::worlds))
        .route("/api/worlds/{name}", get(api::world_grid))
        .route("/api/methods", get(api::methods))
        .route("/api/map", post(api::upload_map))
        .route("/api/scenarios", post(api::scenarios))
        .route("/api/plan", post(api::plan))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(playground)
}

/// Serves the playground on `listener` until the process is stopped.
pub async fn serve(listener: tokio::net::TcpListener, playground: Playground) -> Result<()> {
    axum::serve(listener, router(Arc::new(playground))).await?;
    Ok(())
}
