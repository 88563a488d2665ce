//! Recast's own poly mesh as JSON, read with `navmesh::import::parse_recast_json`:
//! C++ Recast's dump of the dungeon (`tests/data/recast/`, see its SOURCES.md) against
//! pathsmooth-bake's bake of the same configuration and against a plain reading of the
//! file; and `rerecast`'s serde form of another bake (`tests/data/rerecast/`), renamed to
//! Recast's fields, against `parse_rerecast_json` of the original.
#![cfg(feature = "serde")]

use pathsmooth::navmesh::{
    is_recast_json, parse_recast_json, parse_rerecast_json, parse_surface_json,
};
use pathsmooth::navmesh::{Surface, SurfaceOptions, UpAxis};
use serde_json::{json, Value};

fn data(path: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn options() -> SurfaceOptions {
    SurfaceOptions {
        split_t_junctions: true,
        weld: Some(1e-4),
        ..SurfaceOptions::new(UpAxis::Y)
    }
}

/// C++ Recast's dump: `{"pmesh": poly_mesh.json, "dmesh": poly_mesh_detail.json}`.
fn cpp_dump() -> String {
    format!(
        "{{\"pmesh\": {}, \"dmesh\": {}}}",
        data("recast/dungeon.poly_mesh.json"),
        data("recast/dungeon.poly_mesh_detail.json")
    )
}

#[test]
fn cpp_recasts_dump_reads_as_its_own_fields_say() {
    let text = cpp_dump();
    assert!(is_recast_json(&text));
    assert!(is_recast_json(&data("recast/dungeon.poly_mesh.json")));
    let d = parse_recast_json(&text, "dungeon").unwrap();
    let pm: Value = serde_json::from_str(&data("recast/dungeon.poly_mesh.json")).unwrap();
    let dm: Value = serde_json::from_str(&data("recast/dungeon.poly_mesh_detail.json")).unwrap();
    // A plain reading: 12 entries per polygon (nvp 6, then the neighbours), the indices up
    // to 0xffff.
    let polys: Vec<u64> = pm["polys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let polygons: Vec<Vec<u32>> = polys
        .chunks(12)
        .map(|p| {
            p[..6]
                .iter()
                .take_while(|&&i| i != 0xffff)
                .map(|&i| i as u32)
                .collect()
        })
        .collect();
    assert_eq!((d.vertices.len(), d.polygons.len()), (246, 133));
    assert_eq!(d.polygons, polygons);
    let areas: Vec<u8> = pm["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(d.areas, areas);
    assert_eq!(d.areas.iter().filter(|&&a| a == 63).count(), 114);
    let bmin: Vec<f64> = pm["bmin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    for (v, q) in d.vertices.iter().zip(pm["verts"].as_array().unwrap()) {
        let q: Vec<f64> = q
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let w = [
            bmin[0] + q[0] * 0.3,
            bmin[1] + q[1] * 0.2,
            bmin[2] + q[2] * 0.3,
        ];
        assert!((0..3).all(|k| (v[k] - w[k]).abs() < 1e-5), "{v:?} vs {w:?}");
    }
    let detail = d.detail.as_ref().unwrap();
    assert_eq!(
        (
            detail.meshes.len(),
            detail.vertices.len(),
            detail.triangles.len()
        ),
        (
            dm["meshes"].as_array().unwrap().len(),
            dm["verts"].as_array().unwrap().len(),
            dm["tris"].as_array().unwrap().len()
        )
    );
    assert_eq!(
        (
            detail.meshes.len(),
            detail.vertices.len(),
            detail.triangles.len()
        ),
        (133, 577, 323)
    );
    // The surface builds, detail mesh and all.
    let s = Surface::from_data(&d, &options()).unwrap();
    assert_eq!(s.num_polygons(), 133);
    assert!(s.detail().is_some());
}

#[test]
fn cpp_recasts_dump_is_the_poly_mesh_pathsmooth_bake_baked_for_its_configuration() {
    // `navmesh/dungeon.areas.navmesh.json` is rerecast's bake of the same configuration,
    // whose vertices, polygons and areas equal C++ Recast's (navmesh/SOURCES.md).
    let d = parse_recast_json(&cpp_dump(), "dungeon").unwrap();
    let o = SurfaceOptions::default();
    let cpp = Surface::from_data(&d, &o).unwrap();
    let bake = parse_surface_json(&data("navmesh/dungeon.areas.navmesh.json"), "bake", &o).unwrap();
    assert_eq!(cpp.num_polygons(), bake.num_polygons());
    assert_eq!(cpp.vertices().len(), bake.vertices().len());
    for (a, b) in cpp.vertices().iter().zip(bake.vertices()) {
        // The dump prints `bmin` with six decimals (-88.541283 for rerecast's -88.541275).
        assert!((*a - *b).abs().max_element() < 1e-4, "{a} vs {b}");
    }
    for p in 0..cpp.num_polygons() as u32 {
        assert_eq!(cpp.polygon(p), bake.polygon(p), "polygon {p}");
        assert_eq!(cpp.area(p), bake.area(p), "polygon {p}");
    }
}

#[test]
fn the_dump_reads_the_same_in_every_accepted_shape() {
    let reference = parse_recast_json(&cpp_dump(), "d").unwrap();
    let pm: Value = serde_json::from_str(&data("recast/dungeon.poly_mesh.json")).unwrap();
    let dm: Value = serde_json::from_str(&data("recast/dungeon.poly_mesh_detail.json")).unwrap();
    // Shape (a): the poly mesh's fields at the top, the detail under `detail`.
    let mut top = pm.clone();
    top["detail"] = dm.clone();
    // Flat lists, polygons as rows of 2·nvp, counts given.
    let flat = |v: &Value| -> Value {
        Value::Array(
            v.as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_array().unwrap().clone())
                .collect(),
        )
    };
    let mut pm2 = pm.clone();
    pm2["verts"] = flat(&pm["verts"]);
    pm2["polys"] = Value::Array(
        pm["polys"]
            .as_array()
            .unwrap()
            .chunks(12)
            .map(|c| Value::Array(c.to_vec()))
            .collect(),
    );
    pm2["npolys"] = json!(133);
    pm2["nverts"] = json!(246);
    let mut dm2 = dm.clone();
    for key in ["meshes", "verts", "tris"] {
        dm2[key] = flat(&dm[key]);
    }
    dm2["nmeshes"] = json!(133);
    for text in [
        top.to_string(),
        json!({"polyMesh": pm2, "detailMesh": dm2}).to_string(),
    ] {
        assert_eq!(parse_recast_json(&text, "d").unwrap(), reference);
    }
}

#[test]
fn rerecasts_bake_renamed_to_recasts_fields_reads_as_parse_rerecast_json_reads_it() {
    let poly: Value = serde_json::from_str(&data("rerecast/dungeon.poly.json")).unwrap();
    let detail: Value = serde_json::from_str(&data("rerecast/dungeon.detail.json")).unwrap();
    let nvp = poly["max_vertices_per_polygon"].as_u64().unwrap() as usize;
    let (p, n) = (
        poly["polygons"].as_array().unwrap(),
        poly["polygon_neighbors"].as_array().unwrap(),
    );
    // rcPolyMesh's layout: per polygon nvp indices, then nvp neighbour entries.
    let polys: Vec<Value> = p
        .chunks(nvp)
        .zip(n.chunks(nvp))
        .flat_map(|(a, b)| a.iter().chain(b).cloned())
        .collect();
    // rerecast's walkable area 255 is Recast's 63.
    let areas: Vec<u64> = poly["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| match a.as_u64().unwrap() {
            255 => 63,
            a => a,
        })
        .collect();
    let pmesh = json!({
        "verts": poly["vertices"],
        "polys": polys,
        "regs": poly["regions"],
        "flags": poly["flags"],
        "areas": areas,
        "nverts": poly["vertices"].as_array().unwrap().len(),
        "npolys": poly["areas"].as_array().unwrap().len(),
        "nvp": nvp,
        "bmin": poly["aabb"]["min"],
        "bmax": poly["aabb"]["max"],
        "cs": poly["cell_size"],
        "ch": poly["cell_height"],
        "borderSize": poly["border_size"],
        "maxEdgeError": poly["max_edge_error"],
    });
    let meshes: Vec<Value> = detail["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            json!([
                m["base_vertex_index"],
                m["vertex_count"],
                m["base_triangle_index"],
                m["triangle_count"]
            ])
        })
        .collect();
    let tris: Vec<Value> = detail["triangles"]
        .as_array()
        .unwrap()
        .iter()
        .zip(detail["triangle_flags"].as_array().unwrap())
        .map(|(t, f)| json!([t[0], t[1], t[2], f]))
        .collect();
    let dmesh = json!({"meshes": meshes, "verts": detail["vertices"], "tris": tris});
    let text = json!({"pmesh": pmesh, "dmesh": dmesh}).to_string();

    let o = SurfaceOptions::default();
    let ours = Surface::from_data(&parse_recast_json(&text, "renamed").unwrap(), &o).unwrap();
    let theirs = parse_rerecast_json(
        &data("rerecast/dungeon.poly.json"),
        Some(&data("rerecast/dungeon.detail.json")),
        "dungeon",
        &o,
    )
    .unwrap();
    assert_eq!(ours.vertices(), theirs.vertices());
    assert_eq!(ours.num_polygons(), theirs.num_polygons());
    assert_eq!(ours.num_polygons(), 118);
    for p in 0..ours.num_polygons() as u32 {
        assert_eq!(ours.polygon(p), theirs.polygon(p), "polygon {p}");
        assert_eq!(
            (ours.area(p), ours.flags(p)),
            (theirs.area(p), theirs.flags(p)),
            "polygon {p}"
        );
    }
    assert_eq!(ours.detail(), theirs.detail());
}
