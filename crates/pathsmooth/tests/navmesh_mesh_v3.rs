//! Polyanya's `.mesh` version 3 (the `polyanya` crate's format): the format's own example
//! and a hand-written file with a wall face read into the navmesh they describe, written
//! back and read again unchanged; bad files refused at the line of the face.

use glam::DVec2;
use pathsmooth::navmesh::NavMesh;
use pathsmooth::navmesh::{load, parse_mesh, write_mesh, write_mesh_v3, GroundPlane};
use pathsmooth::Error;

/// `tests/data/mesh/rooms.v3.mesh`: a 4 × 2 room (face 1), a triangle east of it (face 2),
/// a wall block north of the room (face 3, not traversable) and a triangle beside the
/// block (face 4).
fn rooms_text() -> String {
    std::fs::read_to_string(format!(
        "{}/tests/data/mesh/rooms.v3.mesh",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The example of the format's specification (`meshes/v3/format.txt`, also its
/// `cube.mesh`): a square cut into four triangles round its centre, one of them a wall.
const SPEC: &str = "mesh\n3\n5 4\n0 0\n0 10\n10 10\n10 0\n5 5\n\
                    0 3   4 1 5   -4 0 -2\n\
                    1 3   1 2 5   -1 0 3\n\
                    1 3   2 3 5   2 0 4\n\
                    1 3   3 4 5   3 0 -1\n";

/// The polygon at plan point `(x, y)`, if any.
fn at(mesh: &NavMesh, x: f64, y: f64) -> Option<u32> {
    mesh.locate(DVec2::new(x, y)).map(|t| mesh.polygon_of(t))
}

#[test]
fn the_specification_example_reads_as_its_three_walkable_triangles() {
    let mesh = parse_mesh(SPEC, "spec.mesh").unwrap();
    assert_eq!(mesh.num_polygons(), 3);
    // Traversable faces 2, 3, 4 are polygons 0, 1, 2; face 1 (south-west) is a wall.
    assert_eq!(at(&mesh, 1.0, 5.0), Some(0));
    assert_eq!(at(&mesh, 5.0, 9.0), Some(1));
    assert_eq!(at(&mesh, 9.0, 5.0), Some(2));
    assert_eq!(at(&mesh, 5.0, 1.0), None);
}

#[test]
fn a_hand_written_file_with_a_wall_face_reads_as_its_walkable_faces() {
    let mesh = parse_mesh(&rooms_text(), "rooms.v3.mesh").unwrap();
    assert_eq!(mesh.num_polygons(), 3);
    assert_eq!(at(&mesh, 1.0, 1.0), Some(0));
    assert_eq!(at(&mesh, 4.5, 1.0), Some(1));
    assert_eq!(at(&mesh, 4.5, 2.6), Some(2));
    assert_eq!(at(&mesh, 1.0, 3.0), None); // the wall face
    let mut ring = mesh.polygon(2).to_vec();
    ring.sort_unstable();
    assert_eq!(ring, [2, 4, 5]); // vertices 3, 5, 6 of the file, 0-based
                                 // `load` takes it by its extension, like any `.mesh`.
    let path = format!(
        "{}/tests/data/mesh/rooms.v3.mesh",
        env!("CARGO_MANIFEST_DIR")
    );
    assert_eq!(
        load(path, GroundPlane::Xy).unwrap().num_triangles(),
        mesh.num_triangles()
    );
}

#[test]
fn version_3_round_trips_and_agrees_with_version_2() {
    for (name, text) in [("spec", SPEC.to_string()), ("rooms", rooms_text())] {
        let a = parse_mesh(&text, name).unwrap();
        let written = write_mesh_v3(&a);
        let b = parse_mesh(&written, "written").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(b.vertices(), a.vertices(), "{name}");
        assert_eq!(b.num_polygons(), a.num_polygons(), "{name}");
        for p in 0..a.num_polygons() {
            assert_eq!(b.polygon(p), a.polygon(p), "{name} polygon {p}");
        }
        assert_eq!(write_mesh_v3(&b), written, "{name}");
        // The same mesh through version 2.
        let c = parse_mesh(&write_mesh(&a), "v2").unwrap();
        assert_eq!(write_mesh_v3(&c), written, "{name}");
    }
    // The writer's exact text for the rooms: walls as 0, neighbours 1-based.
    let written = write_mesh_v3(&parse_mesh(&rooms_text(), "rooms").unwrap());
    let nv: usize = written
        .lines()
        .nth(2)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let faces: Vec<&str> = written.lines().skip(3 + nv).collect();
    assert_eq!(faces.len(), 3);
    for f in &faces {
        let t: Vec<i64> = f.split(' ').map(|x| x.parse().unwrap()).collect();
        let n = t[1] as usize;
        assert_eq!((t[0], t.len()), (1, 2 + 2 * n), "{f}");
        // The walkable faces have 2 + 1 + 2 shared edge slots in all.
        assert!(t[2 + n..].iter().all(|&k| (0..=3).contains(&k)), "{f}");
    }
    let shared: usize = faces
        .iter()
        .map(|f| f.split(' ').skip(2).collect::<Vec<_>>())
        .map(|t| t[t.len() / 2..].iter().filter(|&&k| k != "0").count())
        .sum();
    assert_eq!(shared, 4); // room–east and east–beside, each written from both sides
}

/// The line and message of a parse error.
fn error_line(r: pathsmooth::Result<NavMesh>) -> (usize, String) {
    match r {
        Err(Error::Parse { line, message, .. }) => (line, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn bad_version_3_files_name_the_line() {
    let rooms = rooms_text();
    let cases: [(&str, &str, usize, &str); 11] = [
        ("1 3 2 5 3 1 0 4", "2 3 2 5 3 1 0 4", 12, "traversable flag"),
        ("1 3 2 5 3 1 0 4", "1 3 2 9 3 1 0 4", 12, "expected 1 to 7"),
        ("1 3 2 5 3 1 0 4", "1 3 2 5 3 1 0 5", 12, "expected -4 to 4"),
        (
            "1 3 3 5 6 -3 2 0\n",
            "1 3 3 5 6 -3 2 0 9\n",
            14,
            "unexpected `9`",
        ),
        (
            "1 3 3 5 6 -3 2 0\n",
            "1 3 3 5 6 -3 2\n",
            14,
            "end of the file",
        ),
        ("6 1\n", "6 x\n", 8, "number"),
        // A wall edge between two walkable faces.
        (
            "0 0 2 -3\n1 3 2 5 3 1 0 4",
            "0 0 -2 -3\n1 3 2 5 3 -1 0 4",
            11,
            "two traversable faces",
        ),
        // A traversable edge into the wall face.
        ("0 -1 -4 0", "0 -1 4 0", 13, "face 3 is not traversable"),
        // Face 4 does not write face 2 back.
        (
            "1 3 3 5 6 -3 2 0",
            "1 3 3 5 6 -3 1 0",
            14,
            "but face 2 is there",
        ),
        // A border (0) on an edge face 1 shares.
        ("0 0 2 -3", "0 0 0 -3", 11, "face 1: 0 is written"),
        // A neighbour on the border.
        (
            "1 3 2 5 3 1 0 4",
            "1 3 2 5 3 1 2 4",
            12,
            "no other face has that edge",
        ),
    ];
    for (from, to, line, words) in cases {
        assert!(rooms.contains(from), "{from}");
        let text = rooms.replacen(from, to, 1);
        let (l, m) = error_line(parse_mesh(&text, "bad.mesh"));
        assert_eq!(l, line, "{to}: {m}");
        assert!(m.contains(words), "{to}: {m}");
    }
    // One side of a walkable edge marked a wall: the face that disagrees is named.
    let text = rooms.replacen("1 3 2 5 3 1 0 4", "1 3 2 5 3 -1 0 4", 1);
    let (l, m) = error_line(parse_mesh(&text, "bad.mesh"));
    assert_eq!((l, m.as_str()), (12, "face 2: it writes -1 across the edge between vertices 2 and 3, but face 1 is there (and writes 2)"));
    // A walkable face the navmesh refuses (not convex), at its line.
    let bent = "mesh\n3\n5 1\n0 0\n4 0\n4 4\n2 1\n0 4\n1 5 1 2 3 4 5 0 0 0 0 0\n";
    let (l, m) = error_line(parse_mesh(bent, "bent.mesh"));
    assert_eq!(l, 9, "{m}");
    assert!(m.contains("polygon 0"), "{m}");
}
