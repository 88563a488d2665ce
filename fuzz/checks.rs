//! The properties the fuzz targets check, one function per target, shared by the targets
//! (`fuzz_targets/*.rs`, run with cargo-fuzz) and by the replay of the committed corpora in
//! the library's tests (`crates/pathsmooth/tests/fuzz_corpora.rs`, run by CI on stable).
//! Each takes arbitrary bytes and panics only when a property fails.
#![allow(dead_code)]

use pathsmooth::corridor::optimize::{optimize, SolverParams, Stop};
use pathsmooth::corridor::problem::{Problem, ProblemParams};
use pathsmooth::grid::GridMap;
use pathsmooth::io::{parse_path, write_path, Format, PathData};
use pathsmooth::navmesh::import::{parse_mesh, parse_obj, write_mesh, write_obj, GroundPlane};
use pathsmooth::navmesh::mesh::NavMesh;
use pathsmooth::{GridWorld, World};

/// Any text given to the Moving AI map parser is a map or an error, never a panic; a map
/// that parses answers A*, line-of-sight and clearance queries without panicking.
pub fn parse_map(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(map) = GridMap::parse(text, "fuzz.map") else {
        return;
    };
    if map.width() * map.height() > 1 << 16 {
        return;
    }
    if let Ok(world) = GridWorld::new(map) {
        let b = world.bounds();
        let (lo, hi) = (b.min, b.max);
        let _ = world.clearance(lo.lerp(hi, 0.5));
        let _ = world.segment_is_clear(lo, hi, 0.25);
        let _ = world.plan(lo.lerp(hi, 0.1), lo.lerp(hi, 0.9), 0.0);
    }
}

/// Any text given to the Moving AI scenario parser is a list of scenarios or an error.
pub fn parse_scenarios(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = pathsmooth::grid::parse_scenarios(text, "fuzz.scen");
    }
}

/// Any text given to the path-file parsers (JSON and CSV) is a path or an error; a path
/// that parses is written and read back to the same points.
pub fn parse_path_round_trip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for format in [Format::Json, Format::Csv] {
        if let Ok(PathData::D2(points)) = parse_path(text, format, "fuzz") {
            let again = parse_path(&write_path(&points, format), format, "again").unwrap();
            assert_eq!(again, PathData::D2(points));
        }
    }
}

/// Any text given to the scene parser is a navmesh or an error, never a panic.
pub fn scene_json(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = NavMesh::from_scene_json(text, "fuzz.json");
    }
}

/// Any text given to the corridor / problem parser is a problem or an error; a problem that
/// parses is solved (a few iterations) without panicking.
pub fn corridor_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(problem) = Problem::from_any_json(text, &ProblemParams::default()) {
        if problem.len() <= 1000 {
            let params = SolverParams {
                stop: Stop::Iterations(20),
                ..SolverParams::default()
            };
            let _ = optimize(&problem, &params);
        }
    }
}

/// Checks a navmesh a reader accepted: every triangle has a polygon, and the mesh answers
/// a query between two of its triangles' centroids without panicking (small meshes only).
fn check_navmesh(mesh: &NavMesh) {
    let n = mesh.num_triangles();
    assert!(n > 0, "an accepted navmesh has triangles");
    for t in 0..n {
        assert!(mesh.polygon_index_of(t) < mesh.num_polygons());
    }
    if n <= 4096 {
        let (a, b) = (mesh.centroid(0), mesh.centroid(n - 1));
        if let Ok(channel) = mesh.find_channel(a, b) {
            let _ = mesh.polygons_along(&[a, b]);
            assert!(!channel.is_empty());
        }
    }
}

/// Any text given to the polyanya `.mesh` reader is a navmesh or an error, never a panic;
/// a navmesh that parses is written and read back to the same triangles and polygons.
pub fn parse_mesh_round_trip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mesh) = parse_mesh(text, "fuzz.mesh") {
        check_navmesh(&mesh);
        let again = parse_mesh(&write_mesh(&mesh), "again.mesh").unwrap();
        assert_eq!(again.num_triangles(), mesh.num_triangles());
        assert_eq!(again.num_polygons(), mesh.num_polygons());
        assert_eq!(again.vertices(), mesh.vertices());
    }
}

/// Any text given to the OBJ reader (either ground plane) is a navmesh or an error, never
/// a panic; a navmesh that parses is written and read back to the same triangles.
pub fn parse_obj_round_trip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for plane in [GroundPlane::Xz, GroundPlane::Xy] {
        if let Ok(mesh) = parse_obj(text, "fuzz.obj", plane) {
            check_navmesh(&mesh);
            let again = parse_obj(&write_obj(&mesh, plane), "again.obj", plane).unwrap();
            assert_eq!(again.num_triangles(), mesh.num_triangles());
            assert_eq!(again.num_polygons(), mesh.num_polygons());
            assert_eq!(again.vertices(), mesh.vertices());
        }
    }
}
