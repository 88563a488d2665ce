//! `rerecast`'s own serde JSON of a bake (`tests/data/rerecast/`, the dungeon bake's
//! `PolygonNavmesh` and `DetailNavmesh`) read as a surface: the same surface as the
//! navmesh JSON of that bake (vertices, polygons, areas, detail mesh); bad input refused.
#![cfg(feature = "serde")]

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::SurfaceOptions;
use pathsmooth::navmesh::{parse_rerecast_json, parse_surface_json};
use pathsmooth::Error;

fn data(path: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn rerecasts_structures_read_as_the_navmesh_json_of_the_same_bake() {
    let o = SurfaceOptions::default();
    let (poly, detail) = (
        data("rerecast/dungeon.poly.json"),
        data("rerecast/dungeon.detail.json"),
    );
    let a = parse_rerecast_json(&poly, Some(&detail), "dungeon.poly.json", &o).unwrap();
    let b = parse_surface_json(&data("navmesh/dungeon.navmesh.json"), "dungeon", &o).unwrap();
    assert_eq!(a.vertices(), b.vertices());
    assert_eq!(a.num_polygons(), b.num_polygons());
    for p in 0..a.num_polygons() as u32 {
        assert_eq!(a.polygon(p), b.polygon(p), "polygon {p}");
        assert_eq!(a.area(p), b.area(p), "polygon {p}");
        // rerecast leaves flags 0; pathsmooth-bake sets RecastDemo's walk flag.
        assert_eq!((a.flags(p), b.flags(p)), (0, 1), "polygon {p}");
        let c = a
            .polygon(p)
            .iter()
            .map(|&v| a.vertices()[v as usize])
            .sum::<DVec3>()
            / a.polygon(p).len() as f64;
        let c = DVec2::new(c.x, c.z);
        assert_eq!(a.floor_height(p, c), b.floor_height(p, c), "polygon {p}");
    }
    assert_eq!(a.detail(), b.detail());
    // Without the detail mesh: the same polygons, no detail.
    let c = parse_rerecast_json(&poly, None, "p", &o).unwrap();
    assert!(c.detail().is_none());
    assert_eq!(c.vertices(), b.vertices());
}

#[test]
fn bad_rerecast_input_is_named() {
    let o = SurfaceOptions::default();
    let poly = data("rerecast/dungeon.poly.json");
    let detail = data("rerecast/dungeon.detail.json");
    let err = |p: &str, d: Option<&str>| parse_rerecast_json(p, d, "d.json", &o).unwrap_err();
    // Syntax: a parse error at a line and column.
    let e = err(&poly.replacen("\"cell_size\"", "\"cell_sise\"", 1), None);
    assert!(matches!(e, Error::Parse { .. }), "{e}");
    assert!(e.to_string().contains("missing field `cell_size`"), "{e}");
    let e = err(
        &poly,
        Some(&detail.replacen("\"triangles\":[[", "\"triangles\":[[300,", 1)),
    );
    assert!(e.to_string().starts_with("d.json (detail mesh):1:"), "{e}");
    // Data.
    let e = err(
        &poly.replacen(
            "\"max_vertices_per_polygon\":6",
            "\"max_vertices_per_polygon\":5",
            1,
        ),
        None,
    );
    assert_eq!(
        e.to_string(),
        "invalid polygon: d.json: polygons has 708 entries, not a whole number of polygons of 5"
    );
    let e = err(
        &poly.replacen(
            "\"max_vertices_per_polygon\":6",
            "\"max_vertices_per_polygon\":2",
            1,
        ),
        None,
    );
    assert!(e.to_string().contains("fewer than 3"), "{e}");
    let e = err(
        &poly.replacen("\"cell_size\":0.3", "\"cell_size\":0.0", 1),
        None,
    );
    assert!(
        e.to_string().contains("cell_size 0 and cell_height 0.2"),
        "{e}"
    );
    let e = err(
        &poly,
        Some(&detail.replacen("\"triangle_flags\":[", "\"triangle_flags\":[1,", 1)),
    );
    assert_eq!(
        e.to_string(),
        "invalid polygon: d.json (detail mesh): 292 triangle_flags for 291 triangles: one per triangle, or none"
    );
    // The surface's own checks, naming the polygon.
    let e = err(
        &poly.replacen("\"polygons\":[0,", "\"polygons\":[300,", 1),
        None,
    );
    assert_eq!(
        e.to_string(),
        "invalid polygon: polygon 0 uses vertex 300, but there are 223 vertices"
    );
    let e = err(
        &poly,
        Some(&detail.replacen("\"base_vertex_index\":0,", "\"base_vertex_index\":4,", 1)),
    );
    assert!(
        e.to_string()
            .starts_with("invalid polygon: detail mesh of polygon 0: "),
        "{e}"
    );
}
