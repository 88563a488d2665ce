//! The playground page: HTML, script and style embedded in the binary (no CDN, no build
//! step), served as they are.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;

const INDEX_HTML: &str = include_str!("../../assets/playground/index.html");
const APP_JS: &str = include_str!("../../assets/playground/app.js");
const LAYERED_JS: &str = include_str!("../../assets/playground/layered.js");
const CROWD_JS: &str = include_str!("../../assets/playground/crowd.js");
const STYLE_CSS: &str = include_str!("../../assets/playground/style.css");

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, content_type), (CACHE_CONTROL, "no-cache")],
        body,
    )
}

/// `GET /`: the page.
pub async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`: the page's script.
pub async fn script() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`: the page's style.
pub async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

/// `GET /layered.js`: the page's layered-navmesh mode.
pub async fn layered_script() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", LAYERED_JS)
}

/// `GET /crowd.js`: the page's crowd mode.
pub async fn crowd_script() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", CROWD_JS)
}
