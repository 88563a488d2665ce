//! pathsmooth in JavaScript: the library's worlds, pipeline and crowd compiled to
//! WebAssembly with `wasm-bindgen`, shipped as the npm package `pathsmooth` (its
//! `package.json` beside this crate). A shell: no algorithm lives here.
//!
//! The names follow the Python package and the C ABI: `new GridWorld(free, width, height,
//! cellSize, originX, originY)`, `new Pipeline(world, radius, "smooth")`,
//! `pipeline.plan(sx, sy, gx, gy)`, `pipeline.smooth(points)`, `pipeline.report()`,
//! `new Crowd(world, radius, "smooth", { avoid: true })`.
//!
//! Across the boundary: points go in and out as one typed array each (`Float64Array`
//! `[x0, y0, x1, y1, …]`, copied once, never per point); every error (the library's, a
//! wrong array length, a count that is no whole number) is a JavaScript `Error` carrying the
//! library's message, prefixed with the call that raised it (`Pipeline.plan: …`). The
//! checks below run before the library sees an argument, so that a bad one is an `Error`
//! and never a trap (a trap would leave the module unusable).

mod args;
mod crowd;
mod pipeline;
mod query;
mod report;
mod worlds;

pub use crowd::Crowd;
pub use pipeline::{Pipeline, SurfacePath};
pub use query::{SurfaceLocation, SurfaceQuery};
pub use worlds::{GridWorld, NavMeshWorld, SurfaceMesh, WorldHandle};

use wasm_bindgen::prelude::*;

/// A library error raised in the JavaScript call `what` (`"Pipeline.plan"`), as the
/// `Error` it throws.
pub(crate) fn err_in(what: &'static str) -> impl Fn(pathsmooth::Error) -> JsError {
    move |e| JsError::new(&format!("{what}: {e}"))
}

/// An argument error of the JavaScript call `what`.
pub(crate) fn arg_error(what: &str, message: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("{what}: {message}"))
}

/// The version of the library inside, as `Cargo.toml` gives it.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
