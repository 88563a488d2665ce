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
use std::time::Duration;

use anyhow::Result;
use axum::routing::{get, post};
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

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

/// Serves the playground on `listener` until the process is stopped: HTTP/1.1 by hyper,
/// at most [`limits::MAX_CONNECTIONS`] connections at once, each with
/// [`limits::HEADER_TIMEOUT`] to send a request's headers (so idle or trickling clients
/// cannot hold every connection).
pub async fn serve(listener: TcpListener, playground: Playground) -> Result<()> {
    let app = router(Arc::new(playground));
    let connections = Arc::new(Semaphore::new(limits::MAX_CONNECTIONS));
    loop {
        let permit = connections.clone().acquire_owned().await?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors and the like: pause rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _permit = permit;
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits::HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service);
            // A client that goes away mid-request is that connection's business only.
            let _ = connection.await;
        });
    }
}
