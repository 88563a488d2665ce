//! The committed navmesh bakes (`crates/pathsmooth/tests/data/navmesh/`) keep the invariants
//! of a Recast poly mesh and are multi-level, with the counts their SOURCES.md states; the
//! dungeon bake in rerecast's reference configuration equals C++ Recast's poly mesh.
//! Plain geometry on the JSON: nothing here uses the pathsmooth library.

use std::path::PathBuf;

use pathsmooth_bake::check;
use pathsmooth_bake::format::NavmeshJson;
use serde::Deserialize;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../pathsmooth/tests/data/navmesh")
}

fn load(name: &str) -> NavmeshJson {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// (file, vertices, polygons, plan-view overlapping pairs, pairs more than the agent height
/// apart vertically): the numbers in SOURCES.md.
const BAKES: &[(&str, usize, usize, usize, usize)] = &[
    ("dungeon.navmesh.json", 223, 118, 7, 7),
    ("dungeon.r0.navmesh.json", 304, 158, 54, 54),
    ("dungeon.areas.navmesh.json", 246, 133, 10, 10),
    ("nav_test.navmesh.json", 349, 155, 94, 93),
    ("nav_test.r0.navmesh.json", 467, 197, 156, 153),
];

#[test]
fn every_file_in_the_folder_is_listed() {
    let mut found: Vec<String> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = BAKES.iter().map(|b| b.0.to_owned()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn bakes_are_valid_poly_meshes_with_stacked_floors() {
    for &(name, vertices, polygons, overlapping, separated) in BAKES {
        let mesh = load(name);
        let counts = check::validate(&mesh).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(mesh.up, "y", "{name}");
        assert_eq!(
            (counts.vertices, counts.polygons),
            (vertices, polygons),
            "{name}: vertex and polygon counts"
        );
        assert!(
            counts.max_polygon_vertices <= 6,
            "{name}: Detour's 6 vertices"
        );
        assert!(mesh.flags.iter().all(|&f| f == 1), "{name}: walk flag");
        let agent_height = mesh
            .bake
            .as_ref()
            .expect("bake record")
            .settings
            .agent_height;
        assert_eq!(agent_height, 2.0, "{name}");

        let o = check::overlaps(&mesh);
        let (pairs, _) = o.separated_by(f64::from(agent_height));
        assert_eq!(
            (o.pairs.len(), pairs),
            (overlapping, separated),
            "{name}: plan-view overlaps (all, and more than {agent_height} apart)"
        );
        // The multi-level property: floors stacked with headroom between them.
        assert!(pairs >= 1, "{name}: no stacked floors");

        detail_mesh_matches(name, &mesh);
    }
}

/// Each polygon has a detail sub-mesh that starts with the polygon's corners (as Recast
/// builds it) and whose triangles index its own vertices.
fn detail_mesh_matches(name: &str, mesh: &NavmeshJson) {
    let d = mesh
        .detail
        .as_ref()
        .unwrap_or_else(|| panic!("{name}: no detail mesh"));
    assert_eq!(
        d.meshes.len(),
        mesh.polygons.len(),
        "{name}: one sub-mesh per polygon"
    );
    for (p, (&[vb, vn, tb, tn], poly)) in d.meshes.iter().zip(&mesh.polygons).enumerate() {
        let (vb, vn, tb, tn) = (vb as usize, vn as usize, tb as usize, tn as usize);
        assert!(
            vb + vn <= d.vertices.len() && tb + tn <= d.triangles.len(),
            "{name}: {p}"
        );
        assert!(
            vn >= poly.len() && tn >= poly.len() - 2,
            "{name}: sub-mesh {p} too small"
        );
        for (k, &i) in poly.iter().enumerate() {
            let (a, b) = (d.vertices[vb + k], mesh.vertices[i as usize]);
            // Plan view exact; heights within a cell height (Recast re-samples them).
            assert!(
                (a[0] - b[0]).abs() < 1e-4 && (a[2] - b[2]).abs() < 1e-4,
                "{name}: sub-mesh {p} corner {k} {a:?} is not polygon vertex {b:?}"
            );
            assert!(
                (a[1] - b[1]).abs() <= 0.2 + 1e-4,
                "{name}: sub-mesh {p} corner {k}"
            );
        }
        for t in &d.triangles[tb..tb + tn] {
            assert!(
                t[..3].iter().all(|&i| (i as usize) < vn),
                "{name}: sub-mesh {p}: {t:?}"
            );
        }
    }
}

/// C++ Recast's poly mesh as rerecast's reference data stores it (`rcPolyMesh` fields).
#[derive(Deserialize)]
struct CppPolyMesh {
    verts: Vec<[u16; 3]>,
    polys: Vec<u16>,
    areas: Vec<u8>,
    nvp: usize,
    cs: f32,
    ch: f32,
    bmin: [f32; 3],
}

#[test]
fn the_reference_configuration_bake_equals_cpp_recast() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/dungeon.recast-cpp.poly_mesh.json");
    let cpp: CppPolyMesh = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mesh = load("dungeon.areas.navmesh.json");
    let polygons: Vec<Vec<u32>> = cpp
        .polys
        .chunks_exact(2 * cpp.nvp)
        .map(|p| {
            p[..cpp.nvp]
                .iter()
                .take_while(|&&i| i != 0xffff)
                .map(|&i| u32::from(i))
                .collect()
        })
        .collect();
    assert_eq!(mesh.polygons, polygons);
    assert_eq!(mesh.areas, cpp.areas);
    assert_eq!(mesh.vertices.len(), cpp.verts.len());
    for (v, q) in mesh.vertices.iter().zip(&cpp.verts) {
        let w = [
            cpp.bmin[0] + f32::from(q[0]) * cpp.cs,
            cpp.bmin[1] + f32::from(q[1]) * cpp.ch,
            cpp.bmin[2] + f32::from(q[2]) * cpp.cs,
        ];
        // The reference prints its bounds with six decimals.
        assert!(
            v.iter().zip(w).all(|(a, b)| (a - b).abs() < 1e-4),
            "{v:?} vs {w:?}"
        );
    }
}
