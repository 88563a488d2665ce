//! Shared helpers for the benches: where the Moving AI data lives, and loading a map with
//! its scenarios. Each bench that needs them declares `mod support;`.
#![allow(dead_code)]

use std::path::PathBuf;

use pathsmooth::grid::{load_scenarios, GridMap, Scenario};

/// The `shared/` folder: `$PATHSMOOTH_SHARED` if set, else the one beside the checkout
/// (`<checkout>/../shared`), as for the integration tests.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("PATHSMOOTH_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// Path of a Moving AI file, e.g. `movingai("dao/arena.map")`.
pub fn movingai(rel: &str) -> PathBuf {
    shared_dir().join("data/movingai").join(rel)
}

/// Loads `name.map` and `name.map.scen` (e.g. `"rooms/8room_000"`), or the first error.
pub fn try_load(name: &str) -> pathsmooth::Result<(GridMap, Vec<Scenario>)> {
    let map = GridMap::load(movingai(&format!("{name}.map")))?;
    let scen = load_scenarios(movingai(&format!("{name}.map.scen")))?;
    Ok((map, scen))
}

/// [`try_load`], panicking with the file's name when the data is missing.
pub fn load(name: &str) -> (GridMap, Vec<Scenario>) {
    try_load(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}
