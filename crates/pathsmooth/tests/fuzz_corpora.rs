//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`, grown by cargo-fuzz runs of
//! the targets in `fuzz/`) through the same checks the fuzz targets make, so every input a
//! fuzzer kept, and every crash it found, stays a regression test on stable Rust.

#[path = "../../../fuzz/checks.rs"]
mod checks;

use std::path::PathBuf;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut inputs = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(
            result.is_ok(),
            "{target}: {} fails its check",
            path.display()
        );
        inputs += 1;
    }
    assert!(inputs > 0, "{target}: the corpus is empty");
}

#[test]
fn map_corpus() {
    replay("parse_map", checks::parse_map);
}

#[test]
fn scenario_corpus() {
    replay("parse_scenarios", checks::parse_scenarios);
}

#[test]
fn path_corpus() {
    replay("parse_path", checks::parse_path_round_trip);
}

#[test]
fn scene_corpus() {
    replay("scene_json", checks::scene_json);
}

#[test]
fn corridor_corpus() {
    replay("corridor_json", checks::corridor_json);
}

#[test]
fn curve_smoother_corpus() {
    replay("curves", checks::curves);
}

#[test]
fn map_smoother_corpus() {
    replay("map_smoothers", checks::map_smoothers);
}

#[test]
fn navmesh_smoother_corpus() {
    replay("navmesh_smoothers", checks::navmesh_smoothers);
}

#[test]
fn mesh_corpus() {
    replay("parse_mesh", checks::parse_mesh_round_trip);
}

#[test]
fn obj_corpus() {
    replay("parse_obj", checks::parse_obj_round_trip);
}

#[test]
fn godot_corpus() {
    replay("parse_godot", checks::parse_godot_text);
}

#[test]
fn recast_json_corpus() {
    replay("parse_recast_json", checks::parse_recast_json_text);
}

#[test]
fn detour_corpus() {
    replay("parse_detour", checks::parse_detour_binary);
}

#[test]
fn read_surface_corpus() {
    replay("read_surface", checks::read_surface_bytes);
}
