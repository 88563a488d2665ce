//! Any text given to the scene parser is a navmesh or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pathsmooth::navmesh::mesh::NavMesh;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = NavMesh::from_scene_json(text, "fuzz.json");
    }
});
