//! The Rust side of the Python package's bit-exactness check: the pipeline's points on a
//! Moving AI map at radius 0.3, the same cases `tests/test_pathsmooth.py` runs through the
//! Python module, compared with `tests/data/reference.json`, which pytest compares with
//! Python's points (f64 printed shortest-round-trip by serde_json: exact both ways).
//!
//! `PATHSMOOTH_BLESS=1 cargo test -p pathsmooth-py --test reference` rewrites the file.

#[allow(dead_code)]
#[path = "../../pathsmooth/tests/common/maps.rs"]
mod maps;

use glam::DVec2;
use pathsmooth::{GridWorld, Pipeline, Preset, World};
use serde_json::{json, Value};

const MAP: &str = "dao/den312d";
const RADIUS: f64 = 0.3;
const CASES: usize = 12;

fn pts(path: &[DVec2]) -> Value {
    Value::Array(path.iter().map(|p| json!([p.x, p.y])).collect())
}

fn outcome(r: pathsmooth::Result<Vec<DVec2>>) -> Value {
    match r {
        Ok(path) => json!({ "points": pts(&path) }),
        Err(e) => json!({ "error": e.to_string() }),
    }
}

/// Each case: a scenario's start and goal (cell centres); the A* path at radius 0 (through
/// cells next to walls: the input `smooth` repairs); `plan` and `smooth` with the
/// "smooth" preset, and `plan` with "corridor" (a point list, or the error's message).
fn reference() -> Value {
    let (map, scen) = maps::load(MAP);
    let world = GridWorld::new(map).expect("free cells");
    let mut smooth = Pipeline::preset(&world, RADIUS, Preset::Smooth).expect("pipeline");
    let mut corridor = Pipeline::preset(&world, RADIUS, Preset::Corridor).expect("pipeline");
    let mut cases = Vec::new();
    for s in maps::sample(&scen, CASES) {
        let (start, goal) = (s.start_point(), s.goal_point());
        let astar = world
            .find_path(start, goal, 0.0)
            .expect("a path at radius 0");
        cases.push(json!({
            "start": [start.x, start.y],
            "goal": [goal.x, goal.y],
            "astar": pts(&astar),
            "plan_smooth": outcome(smooth.plan(start, goal)),
            "smooth_smooth": outcome(smooth.smooth(&astar)),
            "plan_corridor": outcome(corridor.plan(start, goal)),
        }));
    }
    json!({ "map": format!("{MAP}.map"), "radius": RADIUS, "cases": cases })
}

#[test]
fn python_reference_is_the_rust_pipeline() {
    let now = reference();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/reference.json");
    if std::env::var_os("PATHSMOOTH_BLESS").is_some() {
        std::fs::write(file, serde_json::to_string(&now).unwrap() + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(file).expect("tests/data/reference.json");
    let kept: Value = serde_json::from_str(&text).expect("JSON");
    assert!(
        kept == now,
        "tests/data/reference.json is not what the Rust pipeline gives now: \
         PATHSMOOTH_BLESS=1 cargo test -p pathsmooth-py --test reference rewrites it"
    );
}
