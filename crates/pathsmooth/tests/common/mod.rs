//! Shared helpers for integration tests: where the Moving AI data lives.
#![allow(dead_code)]

use std::path::PathBuf;

use pathsmooth::grid::{load_scenarios, GridMap, Scenario};
use pathsmooth::GridWorld;

/// The `shared/` folder: `$PATHSMOOTH_SHARED` if set, else the one beside the checkout
/// (`<checkout>/../shared`), which is where CI puts it.
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

/// Every DEV map with its scenario file, as (name, map path, scen path).
pub const MAPS: [&str; 7] = [
    "dao/arena",
    "dao/den312d",
    "bg512/AR0011SR",
    "mazes/maze512-4-0",
    "rooms/8room_000",
    "random/random512-10-0",
    "cities/Berlin_0_256",
];

/// Loads `name.map` and `name.map.scen` (name as in [`MAPS`]).
pub fn load(name: &str) -> (GridMap, Vec<Scenario>) {
    let map = GridMap::load(movingai(&format!("{name}.map"))).expect("map loads");
    let scen = load_scenarios(movingai(&format!("{name}.map.scen"))).expect("scen loads");
    (map, scen)
}

/// Every `step`-th scenario, at most `max` of them, spread over the whole file.
pub fn sample(scen: &[Scenario], max: usize) -> Vec<Scenario> {
    let step = scen.len().div_ceil(max.max(1)).max(1);
    scen.iter().step_by(step).cloned().collect()
}

/// The map as a world with cell size 1 and origin 0 (world units are cells).
pub fn world(map: &GridMap) -> GridWorld {
    GridWorld::new(map.clone()).expect("the map has free cells")
}
