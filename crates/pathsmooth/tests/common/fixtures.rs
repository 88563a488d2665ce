//! Fixtures the library's unit tests share with the integration tests:
//! `src/test_fixtures.rs` includes this file too, so it names the crate's types only
//! through its parent module (`Obstacle`).

use glam::DVec2;

use super::Obstacle;

/// Polyanya's `.mesh` files in the corpus (`tests/data/corpus/polyanya/`, their sources
/// in the corpus's MANIFEST.tsv): each file's name and text, sorted by name; at least 8.
pub fn polyanya_mesh_files() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus/polyanya");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mesh"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{} .mesh files", files.len());
    files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// Three unit squares in a row, from (0, 0) to (3, 1): the vertices counter-clockwise round
/// the outline from the origin, and the squares (polygons of those vertices) left to right.
pub fn three_squares_in_a_row() -> (Vec<DVec2>, Vec<Vec<u32>>) {
    let vertices = [
        (0.0, 0.0),
        (1.0, 0.0),
        (2.0, 0.0),
        (3.0, 0.0),
        (3.0, 1.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (0.0, 1.0),
    ]
    .map(|(x, y)| DVec2::new(x, y))
    .to_vec();
    (
        vertices,
        vec![vec![0, 1, 6, 7], vec![1, 2, 5, 6], vec![2, 3, 4, 5]],
    )
}

/// Obstacles that no world takes, whatever its map: shapes with a non-finite or empty
/// extent, and polygons that are not simple (too few corners, all on a line, or crossing
/// themselves). Cells are the grid's own (a navmesh takes none), so there are none here.
pub fn bad_shapes() -> Vec<Obstacle> {
    vec![
        Obstacle::Disk {
            center: DVec2::NAN,
            radius: 1.0,
        },
        Obstacle::Disk {
            center: DVec2::ONE,
            radius: 0.0,
        },
        Obstacle::Disk {
            center: DVec2::ONE,
            radius: f64::NAN,
        },
        Obstacle::Box {
            min: DVec2::ONE,
            max: DVec2::ONE,
        },
        Obstacle::Box {
            min: DVec2::ONE,
            max: DVec2::new(2.0, f64::INFINITY),
        },
        Obstacle::Polygon(vec![DVec2::ZERO, DVec2::ONE]),
        Obstacle::Polygon(vec![DVec2::ZERO, DVec2::ONE, DVec2::splat(2.0)]),
        Obstacle::Polygon(vec![
            DVec2::ZERO,
            DVec2::new(2.0, 0.0),
            DVec2::ONE,
            DVec2::new(2.0, 2.0),
            DVec2::new(0.0, 2.0),
        ]),
    ]
}
