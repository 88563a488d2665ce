//! One request by method and path, answered in one go: the API as the WebAssembly worker
//! serves it (no server between). The routes, their bodies and their errors are the
//! server's (`pathsmooth serve`), which runs the same handlers in phases, with its
//! budgets and workers between them.

use pathsmooth::Cancel;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, BAD_REQUEST, METHOD_NOT_ALLOWED, NOT_FOUND};
use crate::world::Playground;
use crate::{crowd, grid, layered, plan};

/// The 404 of a path that is no route.
pub const NO_SUCH_ROUTE: &str = "no such page or API route (the API: GET /api/worlds, GET /api/worlds/{name}, GET /api/methods, POST /api/map, POST /api/scenarios, POST /api/plan, POST /api/crowd, POST /api/crowd/live, POST /api/crowd/live/step, GET and POST /api/layered)";

/// The 405 of a route asked with the wrong method.
pub const WRONG_METHOD: &str = "wrong HTTP method for this route (GET for pages and /api/worlds, /api/methods; POST for the others; both for /api/layered)";

/// A JSON body as `T`, or the 400 saying what is wrong with it.
pub fn read_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))
}

/// Answers `method` (`GET`, `POST`) on `path` (`/api/plan`, `/api/worlds/demo`…; a query
/// string is ignored) with `body` (JSON, for `POST`), stopped by `cancel`: the answer's
/// JSON, or the error the server would send (status and message). Uploaded maps are kept
/// in `p` as the server keeps them.
pub fn request<H: Default>(
    p: &Playground<H>,
    method: &str,
    path: &str,
    body: &[u8],
    cancel: &Cancel,
) -> Result<Vec<u8>, ApiError> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let get = method.eq_ignore_ascii_case("GET");
    let post = method.eq_ignore_ascii_case("POST");
    match path {
        "/api/worlds" if get => grid::worlds(p),
        "/api/methods" if get => grid::methods(),
        "/api/layered" if get => layered::examples(),
        "/api/layered" if post => layered::layered(&read_json(body)?, cancel),
        "/api/map" if post => grid::upload_map(p, &read_json(body)?, Default::default()),
        "/api/scenarios" if post => grid::scenarios(&read_json(body)?),
        "/api/plan" if post => plan::plan(p, read_json(body)?, cancel),
        "/api/crowd" if post => crowd::crowd(p, &read_json(body)?, cancel),
        _ => match path.strip_prefix("/api/worlds/") {
            Some(name) if get && !name.contains('/') => {
                grid::world_grid(p, &percent_decoded(name)?)
            }
            Some(name) if !name.contains('/') => {
                Err(ApiError::new(METHOD_NOT_ALLOWED, WRONG_METHOD))
            }
            _ if is_route(path) => Err(ApiError::new(METHOD_NOT_ALLOWED, WRONG_METHOD)),
            _ => Err(ApiError::new(NOT_FOUND, NO_SUCH_ROUTE)),
        },
    }
}

/// A route with a fixed path (the worlds' `{name}` aside).
fn is_route(path: &str) -> bool {
    matches!(
        path,
        "/api/worlds"
            | "/api/methods"
            | "/api/layered"
            | "/api/map"
            | "/api/scenarios"
            | "/api/plan"
            | "/api/crowd"
    )
}

/// A path segment with its `%XX` escapes decoded (as `encodeURIComponent` writes them), or
/// a 400 for bytes that are not UTF-8 (a `%` not followed by two hex digits stays itself,
/// as browsers and axum leave it).
fn percent_decoded(segment: &str) -> Result<String, ApiError> {
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| ApiError::new(BAD_REQUEST, "bad percent-encoding in the path"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(r: Result<Vec<u8>, ApiError>) -> String {
        String::from_utf8(r.unwrap()).unwrap()
    }

    #[test]
    fn routes_answer_as_the_server_does() {
        let p: Playground = Playground::new(Vec::new()).unwrap();
        let none = Cancel::new();
        let worlds = text(request(&p, "GET", "/api/worlds", b"", &none));
        assert!(
            worlds.starts_with(r#"{"area_costs":null,"worlds":[{"goal":[5,74],"height":80,"name":"demo","start":[5,5],"width":80},{"#),
            "{worlds}"
        );
        let grid = text(request(
            &p,
            "GET",
            "/api/worlds/demo%2Dswamp?x=1",
            b"",
            &none,
        ));
        assert!(
            grid.starts_with(r#"{"name":"demo-swamp","width":80"#),
            "{grid}"
        );
        let e = request(&p, "POST", "/api/worlds/demo", b"", &none).unwrap_err();
        assert_eq!((e.status(), e.message()), (405, WRONG_METHOD));
        let e = request(&p, "GET", "/api/plan", b"", &none).unwrap_err();
        assert_eq!(e.status(), 405);
        let e = request(&p, "GET", "/nope", b"", &none).unwrap_err();
        assert_eq!((e.status(), e.message()), (404, NO_SUCH_ROUTE));
        let e = request(&p, "GET", "/api/worlds/%ff", b"", &none).unwrap_err();
        assert_eq!(e.status(), 400);
        let e = request(&p, "GET", "/api/worlds/%zz", b"", &none).unwrap_err();
        assert_eq!(e.status(), 404, "{e}");
        let e = request(&p, "POST", "/api/plan", b"{", &none).unwrap_err();
        assert_eq!(e.status(), 400);
        assert!(e.message().starts_with("bad JSON: "), "{e}");
    }

    #[test]
    fn a_plan_and_a_cancelled_plan() {
        let p: Playground = Playground::new(Vec::new()).unwrap();
        let body = br#"{"world": "demo", "start": [5, 5], "goal": [5, 74], "methods": ["astar", "shortcut"]}"#;
        let answer: serde_json::Value = serde_json::from_slice(
            &request(&p, "POST", "/api/plan", body, &Cancel::new()).unwrap(),
        )
        .unwrap();
        let astar = answer["astar"].as_array().unwrap();
        assert_eq!(astar.first().unwrap(), &serde_json::json!([5.5, 5.5]));
        assert_eq!(astar.last().unwrap(), &serde_json::json!([5.5, 74.5]));
        let shortcut = answer["paths"]["shortcut"]["length"].as_f64().unwrap();
        assert!(shortcut <= answer["astar_length"].as_f64().unwrap());
        let cancel = Cancel::new();
        cancel.cancel();
        let e = request(&p, "POST", "/api/plan", body, &cancel).unwrap_err();
        assert!(e.is_cancelled() && e.status() == 503, "{e}");
    }
}
