//! Shared helpers for the benches. The integration tests' shared module (`tests/common`:
//! where the Moving AI data lives and how a map is loaded, `shared_dir`, `movingai`, `load`,
//! ...; the seeded generator `rng`; `corridor_ref`; `polyanya_mesh`) is re-exported here;
//! `try_load` is for a bench that skips its map part when the data is missing. Each bench
//! that needs them declares `mod support;`.
#![allow(dead_code)]

#[path = "../../tests/common/mod.rs"]
mod common;

pub use common::*;

pub mod generated;

use pathsmooth::grid::{load_scenarios, GridMap, Scenario};

/// Loads `name.map` and `name.map.scen` (e.g. `"rooms/8room_000"`), or the first error.
pub fn try_load(name: &str) -> pathsmooth::Result<(GridMap, Vec<Scenario>)> {
    let map = GridMap::load(movingai(&format!("{name}.map")))?;
    let scen = load_scenarios(movingai(&format!("{name}.map.scen")))?;
    Ok((map, scen))
}
