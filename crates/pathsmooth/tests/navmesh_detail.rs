//! Recast's detail mesh on the real bakes of `tests/data/navmesh/`: read with the
//! surface, written back and read again unchanged; `Surface::floor_height` gives each
//! detail vertex its own height exactly, interpolates inside the detail triangles, and on
//! the dungeon's stairs differs from the polygons' planes; bad detail meshes are refused
//! with errors naming the polygon and triangle.
#![cfg(feature = "serde")]

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::{parse_surface_json, write_surface_json};
use pathsmooth::navmesh::{Detail, Surface, SurfaceOptions};
use pathsmooth::Error;
use serde_json::Value;

/// The bakes without T-junctions, and the one with (read with the split option).
const BAKES: [&str; 5] = [
    "dungeon",
    "dungeon.r0",
    "dungeon.areas",
    "nav_test",
    "nav_test.r0",
];

fn text(name: &str) -> String {
    let path = format!(
        "{}/tests/data/navmesh/{name}.navmesh.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn options() -> SurfaceOptions {
    SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::default()
    }
}

/// The bake as a surface, by the library's reader (with its detail mesh).
fn surface(name: &str) -> Surface {
    parse_surface_json(&text(name), name, &options()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The bake's detail mesh, read with `serde_json` alone: the independent check of the
/// library's reader.
fn raw_detail(name: &str) -> Detail {
    let json: Value = serde_json::from_str(&text(name)).unwrap();
    let d = &json["detail"];
    let rows = |v: &Value| -> Vec<Vec<f64>> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            })
            .collect()
    };
    let quads = |v: &Value| -> Vec<[u32; 4]> {
        rows(v)
            .iter()
            .map(|r| [r[0] as u32, r[1] as u32, r[2] as u32, r[3] as u32])
            .collect()
    };
    Detail {
        meshes: quads(&d["meshes"]),
        vertices: rows(&d["vertices"])
            .iter()
            .map(|r| DVec3::from_slice(r))
            .collect(),
        triangles: quads(&d["triangles"]),
    }
}

/// The bake without its detail mesh.
fn plain(name: &str) -> Surface {
    surface(name).without_detail().unwrap()
}

/// Polygon `p`'s detail vertices and triangles (three world points each).
fn sub_mesh(d: &Detail, p: usize) -> (Vec<DVec3>, Vec<[DVec3; 3]>) {
    let [vb, vn, tb, tn] = d.meshes[p].map(|x| x as usize);
    let verts = d.vertices[vb..vb + vn].to_vec();
    let tris = d.triangles[tb..tb + tn]
        .iter()
        .map(|t| [0, 1, 2].map(|k| verts[t[k] as usize]))
        .collect();
    (verts, tris)
}

fn plan(v: DVec3) -> DVec2 {
    DVec2::new(v.x, v.z)
}

#[test]
fn the_reader_attaches_the_bakes_detail_meshes_as_they_are() {
    for name in BAKES {
        let s = surface(name);
        let raw = raw_detail(name);
        assert_eq!(raw.meshes.len(), s.num_polygons(), "{name}");
        assert_eq!(s.detail(), Some(&raw), "{name}");
    }
}

#[test]
fn bakes_with_detail_round_trip_through_the_writer() {
    for name in BAKES {
        let a = surface(name);
        let written = write_surface_json(&a);
        let b = parse_surface_json(&written, "written", &SurfaceOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(a.detail(), b.detail(), "{name}");
        assert_eq!(a.num_polygons(), b.num_polygons(), "{name}");
        let d = a.detail().unwrap();
        for p in 0..a.num_polygons() {
            let id = p as u32;
            assert_eq!(a.polygon(id), b.polygon(id), "{name} polygon {p}");
            // Heights at the detail vertices and inside the triangles, bit for bit.
            let (verts, tris) = sub_mesh(d, p);
            let samples = verts.iter().map(|&v| plan(v)).chain(
                tris.iter()
                    .map(|t| (plan(t[0]) + plan(t[1]) + plan(t[2])) / 3.0),
            );
            for q in samples {
                assert_eq!(
                    a.floor_height(id, q).to_bits(),
                    b.floor_height(id, q).to_bits(),
                    "{name} polygon {p} at {q}"
                );
                assert_eq!(a.height_at(id, q), b.height_at(id, q), "{name} polygon {p}");
            }
        }
        assert_eq!(write_surface_json(&b), written, "{name}");
    }
}

#[test]
fn floor_height_is_the_detail_vertex_height_at_detail_vertices() {
    for name in BAKES {
        let s = surface(name);
        let d = s.detail().unwrap();
        let mut checked = 0;
        for p in 0..s.num_polygons() {
            for v in sub_mesh(d, p).0 {
                assert_eq!(
                    s.floor_height(p as u32, plan(v)),
                    v.y,
                    "{name} polygon {p} at {v}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, d.vertices.len(), "{name}");
    }
}

#[test]
fn floor_height_interpolates_inside_detail_triangles() {
    for name in BAKES {
        let s = surface(name);
        let d = s.detail().unwrap();
        for p in 0..s.num_polygons() {
            for t in sub_mesh(d, p).1 {
                // Points at weights (½, ¼, ¼) and the like: the height is the same blend.
                for w in [[0.5, 0.25, 0.25], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8]] {
                    let q = t[0] * w[0] + t[1] * w[1] + t[2] * w[2];
                    let got = s.floor_height(p as u32, plan(q));
                    assert!((got - q.y).abs() < 1e-9, "{name} polygon {p} at {q}: {got}");
                }
            }
        }
    }
}

#[test]
fn on_the_dungeons_stairs_the_detail_mesh_is_off_the_polygons_plane() {
    let s = surface("dungeon");
    let flat = plain("dungeon");
    let d = s.detail().unwrap();
    // The polygon whose detail vertices stray farthest from its plane.
    let (worst, off, at) = (0..s.num_polygons())
        .flat_map(|p| sub_mesh(d, p).0.into_iter().map(move |v| (p, v)))
        .map(|(p, v)| (p, (v.y - s.height_at(p as u32, plan(v))).abs(), v))
        .fold(
            (0, 0.0, DVec3::ZERO),
            |best, x| if x.1 > best.1 { x } else { best },
        );
    println!("dungeon: polygon {worst} is {off} off its plane at {at}");
    // More than a cell height (0.2): stairs that the polygon's corners flatten.
    assert!(off > 0.2, "{off}");
    let p = worst as u32;
    assert_eq!(s.floor_height(p, plan(at)), at.y);
    assert!((s.floor_height(p, plan(at)) - flat.floor_height(p, plan(at))).abs() > 0.2);
    // Without the detail mesh, a polygon this far from planar takes its heights from the
    // fan of its own triangles: its corners' own heights, not the plane's.
    let ring = s.polygon(p);
    for &v in ring {
        let corner = s.vertices()[v as usize];
        assert_eq!(flat.floor_height(p, plan(corner)), corner.y);
    }
    assert!(ring
        .iter()
        .any(
            |&v| (s.height_at(p, plan(s.vertices()[v as usize])) - s.vertices()[v as usize].y)
                .abs()
                > 1e-3
        ));
}

#[test]
fn outside_every_triangle_the_nearest_one_gives_the_height() {
    let s = surface("dungeon");
    let d = s.detail().unwrap();
    let json: Value = serde_json::from_str(&text("dungeon")).unwrap();
    for p in 0..s.num_polygons() {
        let (verts, _) = sub_mesh(d, p);
        // The polygon's corners are the sub-mesh's first vertices (Recast's order).
        let n = json["polygons"][p].as_array().unwrap().len();
        let (prev, c, next) = (plan(verts[n - 1]), plan(verts[0]), plan(verts[1]));
        // Off the first corner along its outer bisector: the nearest point of the
        // polygon, and so of its detail mesh, is that corner.
        let out = ((c - prev).normalize() + (c - next).normalize()).normalize();
        for far in [1e-7, 0.05, 3.0] {
            let h = s.floor_height(p as u32, c + out * far);
            assert_eq!(h, verts[0].y, "polygon {p}, {far} off its corner");
        }
    }
}

fn message(e: Error) -> String {
    match e {
        Error::InvalidPolygon { message } => message,
        e => panic!("not InvalidPolygon: {e:?}"),
    }
}

#[test]
fn bad_detail_meshes_are_refused_naming_the_polygon_and_triangle() {
    let good = raw_detail("dungeon");
    let s = plain("dungeon");
    let refuse = |d: Detail| message(s.clone().with_detail(d).unwrap_err());
    assert!(s.clone().with_detail(good.clone()).is_ok());

    let mut d = good.clone();
    d.meshes.pop();
    assert_eq!(
        refuse(d),
        "the detail mesh has 117 sub-meshes for 118 polygons: it needs one per polygon"
    );

    // A local index past the sub-mesh's vertices.
    let mut d = good.clone();
    let [_, vn, tb, _] = d.meshes[5];
    d.triangles[tb as usize + 1][2] = vn;
    assert_eq!(
        refuse(d),
        format!(
            "detail mesh of polygon 5: triangle 1 (detail triangle {}) uses vertex {vn}, but the sub-mesh has {vn} vertices",
            tb + 1
        )
    );

    // Ranges past the ends of the arrays, including one that would wrap in u32.
    let mut d = good.clone();
    d.meshes[7][0] = u32::MAX;
    let m = refuse(d);
    assert!(
        m.starts_with("detail mesh of polygon 7: vertices 4294967295 to "),
        "{m}"
    );
    assert!(
        m.ends_with("are out of range: there are 513 detail vertices"),
        "{m}"
    );
    let mut d = good.clone();
    d.meshes[9][3] = 1000;
    assert!(refuse(d).contains("polygon 9: triangles"));
    let mut d = good.clone();
    d.meshes[3][3] = 0;
    assert!(refuse(d).starts_with("detail mesh of polygon 3: "));

    // A vertex moved 1 outside its polygon in plan view.
    let mut d = good.clone();
    let [vb, vn, _, _] = d.meshes[10];
    let ring: Vec<DVec2> = (0..vn)
        .map(|i| plan(d.vertices[(vb + i) as usize]))
        .collect();
    let centre = ring.iter().sum::<DVec2>() / ring.len() as f64;
    let v = &mut d.vertices[vb as usize];
    let out = (plan(*v) - centre).normalize();
    v.x += out.x;
    v.z += out.y;
    let m = refuse(d);
    assert!(m.starts_with("detail mesh of polygon 10: triangle "), "{m}");
    assert!(m.contains("outside the polygon"), "{m}");

    // A triangle collapsed to no plan-view area carries no height: it is ignored and
    // counted, and the rest then leave part of the polygon uncovered.
    let mut d = good.clone();
    let tb = d.meshes[20][2] as usize;
    let t = &mut d.triangles[tb];
    t[2] = t[1];
    let m = refuse(d);
    assert!(
        m.starts_with("detail mesh of polygon 20: its triangles cover") && m.contains("missing"),
        "{m}"
    );
    // A sliver beside full coverage (a repeated edge as a triangle) is ignored and counted.
    let mut d = good.clone();
    let [_, _, tb, tn] = d.meshes[20];
    let t = d.triangles[tb as usize];
    d.triangles
        .insert((tb + tn) as usize, [t[0], t[1], t[1], 0]);
    d.meshes[20][3] += 1;
    for m in &mut d.meshes[21..] {
        m[2] += 1;
    }
    let s = plain("dungeon").with_detail(d).unwrap();
    assert_eq!(s.load_report().detail_slivers, 1);

    // A triangle left out: the rest cover less than the polygon.
    let mut d = good.clone();
    let p = (0..d.meshes.len()).find(|&p| d.meshes[p][3] > 1).unwrap();
    d.meshes[p][3] -= 1;
    let m = refuse(d);
    assert!(
        m.starts_with(&format!("detail mesh of polygon {p}: its triangles cover ")),
        "{m}"
    );

    // A non-finite height.
    let mut d = good.clone();
    let vb = d.meshes[30][0] as usize;
    d.vertices[vb + 1].y = f64::NAN;
    let m = refuse(d);
    assert!(
        m.starts_with(&format!(
            "detail mesh of polygon 30: vertex 1 (detail vertex {})",
            vb + 1
        )),
        "{m}"
    );
}

#[test]
fn a_bad_detail_in_a_file_is_named() {
    let mut json: Value = serde_json::from_str(&text("dungeon")).unwrap();
    json["detail"]["triangles"][4] = serde_json::json!([0, 1]);
    let e = parse_surface_json(&json.to_string(), "d.json", &options()).unwrap_err();
    assert!(e.to_string().starts_with("d.json:1:"), "{e}");
    assert!(e.to_string().contains("`detail.triangles[4]`"), "{e}");
    let mut json: Value = serde_json::from_str(&text("dungeon")).unwrap();
    json["detail"]["meshes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!([0, 3, 0, 1]));
    let e = parse_surface_json(&json.to_string(), "d.json", &options()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid polygon: the detail mesh has 119 sub-meshes for 118 polygons: it needs one per polygon"
    );
}
