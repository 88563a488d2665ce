//! The Moving AI data (the repository's `data/movingai/`): where it lives, the DEV maps,
//! loading them, the loop over them, and how many scenarios a sweep runs.

use std::path::PathBuf;

use pathsmooth::grid::{load_scenarios, GridMap, Scenario};
use pathsmooth::GridWorld;

/// Path of a Moving AI file, e.g. `movingai("dao/arena.map")`, in the repository's
/// `data/movingai/` (every crate sits at `crates/NAME`, so the path is the same from each
/// crate that includes this file). A missing file panics here, naming the path: the data
/// is part of the repository, so a test that cannot read it fails rather than skipping.
pub fn movingai(rel: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/movingai")
        .join(rel);
    assert!(
        path.is_file(),
        "Moving AI file {} not found (the repository keeps the maps in data/movingai/)",
        path.display()
    );
    path
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

/// Four DEV maps of different kinds (arena, cave, rooms, city) for the sweeps that build
/// each map's navmesh (the 512² maze and random maps make meshes of many thousand
/// polygons, too slow for a sweep in the test profile).
pub const NAVMESH_MAPS: [&str; 4] = [
    "dao/arena",
    "dao/den312d",
    "rooms/8room_000",
    "cities/Berlin_0_256",
];

/// The loop over real maps: each of `names` (as in [`MAPS`]) with its scenarios, loaded
/// when the loop reaches it.
pub fn real_maps<'a>(
    names: &'a [&'static str],
) -> impl Iterator<Item = (&'static str, GridMap, Vec<Scenario>)> + 'a {
    names.iter().map(|&name| {
        let (map, scen) = load(name);
        (name, map, scen)
    })
}

/// Loads `name.map` and `name.map.scen` (name as in [`MAPS`]); panics naming the file
/// that is missing or does not parse.
pub fn load(name: &str) -> (GridMap, Vec<Scenario>) {
    let map_path = movingai(&format!("{name}.map"));
    let map = GridMap::load(&map_path).unwrap_or_else(|e| panic!("{}: {e}", map_path.display()));
    let scen_path = movingai(&format!("{name}.map.scen"));
    let scen =
        load_scenarios(&scen_path).unwrap_or_else(|e| panic!("{}: {e}", scen_path.display()));
    (map, scen)
}

/// True when the slow real-map sweeps should run in full: `PATHSMOOTH_SLOW` is set (CI
/// sets it). Without it they run on a small sample, so a local `cargo test` stays quick.
pub fn slow() -> bool {
    std::env::var_os("PATHSMOOTH_SLOW").is_some_and(|v| !v.is_empty() && v != "0")
}

/// True when the real-map sweeps should cover every 10th scenario of every map, as the
/// tables in `docs/` do: `PATHSMOOTH_FULL` is set. That takes several minutes per sweep,
/// more than CI's budget, so it is run by hand; CI (`PATHSMOOTH_SLOW`) runs larger samples
/// than a local `cargo test`.
pub fn full() -> bool {
    std::env::var_os("PATHSMOOTH_FULL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The scenarios a real-map sweep runs: every 10th of the file with [`full`]; else at most
/// `slow_max` of those (with [`slow`], as in CI) or `quick_max`, spread over the file.
pub fn sweep(scen: &[Scenario], quick_max: usize, slow_max: usize) -> Vec<Scenario> {
    let every_tenth: Vec<Scenario> = scen.iter().step_by(10).cloned().collect();
    if full() {
        every_tenth
    } else if slow() {
        sample(&every_tenth, slow_max)
    } else {
        sample(&every_tenth, quick_max)
    }
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
