//! Shared helpers for the benches. The integration tests' shared module (`tests/common`:
//! where the Moving AI data lives and how a map is loaded, `movingai`, `load`, ...; the
//! seeded generator `rng`; `corridor_ref`; `polyanya_mesh`) is re-exported here. Each bench
//! that needs them declares `mod support;`.
#![allow(dead_code)]

#[path = "../../tests/common/mod.rs"]
mod common;

// Unused in the benches that take only `generated` (e.g. `scaling`).
#[allow(unused_imports)]
pub use common::*;

pub mod generated;
