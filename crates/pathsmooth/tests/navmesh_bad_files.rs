//! Bad navmesh files, one kind of defect at a time, through the loader every shell uses
//! (`navmesh::import::read_surface`): each is an error that says what and where, never a
//! panic; and a huge polygon loads in linear time.

use glam::DVec3;
use pathsmooth::navmesh::read_surface;
use pathsmooth::navmesh::{SurfaceMesh, SurfaceOptions, SurfaceQuery, UpAxis};

/// The loader's error for `bytes`, as text; a surface is a test failure.
fn refused(bytes: &[u8], file: &str) -> String {
    match read_surface(bytes, file, &SurfaceOptions::default()) {
        Ok(s) => panic!("{file}: loaded {} polygons", s.num_polygons()),
        Err(e) => e.to_string(),
    }
}

/// A small tiled Detour navmesh set (two tiles) written by the Detour reader's tests.
fn detour_set() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/parse_detour/two_tiles.bin"
    );
    std::fs::read(path).unwrap()
}

#[test]
fn detour_sets_truncated_or_with_a_wrong_header_are_named() {
    let set = detour_set();
    assert!(read_surface(&set, "set.bin", &SurfaceOptions::default()).is_ok());
    // Every truncation is an error naming the file, never a panic.
    for len in (8..set.len()).step_by(7) {
        let e = refused(&set[..len], "cut.bin");
        assert!(e.contains("cut.bin"), "{len}: {e}");
    }
    // The magic: not a navmesh file at all.
    let mut wrong = set.clone();
    wrong[0] ^= 0xff;
    let e = refused(&wrong, "magic.bin");
    assert!(e.contains("not a navmesh file"), "{e}");
    // The version: named, with the one read.
    let mut v2 = set.clone();
    v2[4] = 2;
    let e = refused(&v2, "version.bin");
    assert!(e.contains("version"), "{e}");
}

#[test]
fn indices_out_of_range_and_non_finite_vertices_are_named() {
    // OBJ: a face naming a vertex that is not there; a NaN coordinate.
    let e = refused(b"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n", "range.obj");
    assert!(e.starts_with("range.obj:4:"), "{e}");
    let e = refused(b"v 0 0 0\nv nan 0 0\nv 0 0 1\nf 1 2 3\n", "nan.obj");
    assert!(e.starts_with("nan.obj:2:"), "{e}");
    // The navmesh JSON (read with the `serde` feature): a polygon naming a vertex that
    // is not there.
    #[cfg(feature = "serde")]
    {
        let json =
            br#"{"up": "y", "vertices": [[0,0,0],[1,0,0],[0,0,1]], "polygons": [[0, 1, 5]]}"#;
        let e = refused(json, "range.json");
        assert!(e.contains("polygon 0 uses vertex 5"), "{e}");
    }
    // Godot: an index out of range; a vertex that is not a number.
    let scene = "[gd_scene format=3]\n\n[sub_resource type=\"NavigationMesh\" id=\"n\"]\n\
                 vertices = PackedVector3Array(0, 0, 0, 1, 0, 0, 0, 0, 1)\n\
                 polygons = [PackedInt32Array(0, 1, 7)]\n";
    let e = refused(scene.as_bytes(), "range.tscn");
    assert!(e.contains("range.tscn") && e.contains('7'), "{e}");
    let e = refused(
        scene.replace("1, 0, 0,", "nan, 0, 0,").as_bytes(),
        "nan.tscn",
    );
    assert!(e.contains("nan.tscn"), "{e}");
    // Bytes in no format.
    let e = refused(&[0x89, b'P', b'N', b'G', 0, 0], "picture.png");
    assert!(e.contains("not a navmesh file"), "{e}");
}

#[test]
fn a_polygon_of_100000_corners_loads_and_plans() {
    // A convex 100,000-gon (y up) in one OBJ face: read, triangulated and searched in
    // linear time (the old ear clipping was cubic in the corners).
    const N: usize = 100_000;
    let mut obj = String::with_capacity(N * 40);
    for k in 0..N {
        let a = std::f64::consts::TAU * k as f64 / N as f64;
        obj += &format!("v {} 0 {}\n", 50.0 * a.cos(), 50.0 * a.sin());
    }
    obj += "f";
    for k in (1..=N).rev() {
        obj += &format!(" {k}");
    }
    obj += "\n";
    let s = read_surface(obj.as_bytes(), "round.obj", &SurfaceOptions::new(UpAxis::Y)).unwrap();
    assert_eq!(s.polygon(0).len(), N);
    let mesh = SurfaceMesh::new(s).unwrap();
    assert_eq!(mesh.plan_mesh().num_triangles(), N - 2);
    let mut query = SurfaceQuery::new();
    let (a, b) = (DVec3::new(-30.0, 0.0, 5.0), DVec3::new(31.0, 0.0, -7.0));
    let path = query.find_path(&mesh, a, b, 0.0).unwrap();
    assert_eq!(path.len(), 2);
    assert_eq!((path[0].position, path[1].position), (a, b));
}
