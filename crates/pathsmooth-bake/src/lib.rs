//! Bakes navmeshes from level geometry for pathsmooth's tests and benches.
//!
//! A development tool, not part of the library: it reads an OBJ file, runs Recast's
//! pipeline through the [`rerecast`] crate (a Rust port of recastnavigation) and writes the
//! poly mesh (and the detail mesh) in the JSON format described in `docs/navmesh-json.md`.
//! [`check`] holds the plain-geometry invariants and the plan-view overlap count that the
//! tool prints and the data test asserts; it knows nothing of the pathsmooth library.

pub mod bake;
pub mod check;
pub mod format;
pub mod obj;
