//! Adversarial import layouts of n polygons (issue 41: "no quadratic import"), made in code
//! so a test and the scale bench load the very same shapes.
//!
//! Each is what a hostile client (or an unlucky exporter) could send, and each defeats a
//! different shortcut of a spatial index: every floor over the same plan-view spot, one
//! long thin row, one vertex shared by every polygon, many holes in one boundary. Surfaces
//! are z up, in world units of about one per polygon; scenes are 2D.
//!
//! The library's unit tests of the import's growth (`src/navmesh/abuse_tests.rs`) include
//! this file too, so it names the crate's types only through its parent module (`Scene`).

use glam::DVec3;

use super::Scene;

/// A surface's input: 3D vertices and polygons (indices into them).
pub type Polygons = (Vec<DVec3>, Vec<Vec<u32>>);

/// A layout: its name (the bench's and the test's label) and its maker at a size.
pub type Layout<T> = (&'static str, fn(usize) -> T);

/// The surface layouts.
pub const SURFACES: [Layout<Polygons>; 4] = [
    ("stacked", stacked),
    ("strips", strips),
    ("fan", fan),
    ("grid", grid),
];

/// The scene layouts.
pub const SCENES: [Layout<Scene>; 2] = [("holes", holes), ("hole_column", hole_column)];

/// `n` unit square floors, one over the other at heights 0, 1, 2, …: every floor covers the
/// same plan-view square and none is joined to another.
pub fn stacked(n: usize) -> Polygons {
    let mut vertices = Vec::with_capacity(4 * n);
    let mut polygons = Vec::with_capacity(n);
    for k in 0..n {
        let z = k as f64;
        let base = vertices.len() as u32;
        vertices.extend([
            DVec3::new(0.0, 0.0, z),
            DVec3::new(1.0, 0.0, z),
            DVec3::new(1.0, 1.0, z),
            DVec3::new(0.0, 1.0, z),
        ]);
        polygons.push(vec![base, base + 1, base + 2, base + 3]);
    }
    (vertices, polygons)
}

/// A 1 × n row of quads 0.01 wide and 1 long, side by side along x (a channel 0.01·n
/// long), each sharing its edges with the next.
pub fn strips(n: usize) -> Polygons {
    let vertices = (0..=n)
        .flat_map(|k| {
            let x = k as f64 * 0.01;
            [DVec3::new(x, 0.0, 0.0), DVec3::new(x, 1.0, 0.0)]
        })
        .collect();
    let polygons = (0..n as u32)
        .map(|k| vec![2 * k, 2 * k + 2, 2 * k + 3, 2 * k + 1])
        .collect();
    (vertices, polygons)
}

/// `n` triangles around the origin, their outer vertices on an arc of 270° of radius 100:
/// one vertex in every polygon, every polygon's box over it.
pub fn fan(n: usize) -> Polygons {
    let mut vertices = vec![DVec3::ZERO];
    for k in 0..=n {
        let a = k as f64 / n as f64 * 1.5 * std::f64::consts::PI;
        vertices.push(DVec3::new(a.cos() * 100.0, a.sin() * 100.0, 0.0));
    }
    let polygons = (0..n as u32).map(|k| vec![0, k + 1, k + 2]).collect();
    (vertices, polygons)
}

/// `n` unit quads in rows of ⌈√n⌉ (the last row partly filled), sharing their edges.
pub fn grid(n: usize) -> Polygons {
    let side = (n as f64).sqrt().ceil().max(1.0) as usize;
    let rows = n.div_ceil(side);
    let at = |x: usize, y: usize| (y * (side + 1) + x) as u32;
    let vertices = (0..=rows)
        .flat_map(|y| (0..=side).map(move |x| DVec3::new(x as f64, y as f64, 0.0)))
        .collect();
    let polygons = (0..n)
        .map(|i| {
            let (x, y) = (i % side, i / side);
            vec![at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)]
        })
        .collect();
    (vertices, polygons)
}

/// A square boundary around `n` square holes of side 0.5 on a grid of pitch 1, in rows of
/// ⌈√n⌉.
pub fn holes(n: usize) -> Scene {
    let side = (n as f64).sqrt().ceil().max(1.0) as usize;
    hole_rows(n, side)
}

/// `n` square holes of side 0.5 one above the other (pitch 1) in a boundary one hole wide:
/// every hole over the same x range.
pub fn hole_column(n: usize) -> Scene {
    hole_rows(n, 1)
}

/// `n` holes in rows of `side`, the boundary 0.25 beyond the outer ones.
fn hole_rows(n: usize, side: usize) -> Scene {
    let rows = n.div_ceil(side).max(1) as f64;
    let (w, h) = (side as f64, rows);
    let boundary = vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let holes = (0..n)
        .map(|i| {
            let (x, y) = ((i % side) as f64 + 0.25, (i / side) as f64 + 0.25);
            vec![[x, y], [x + 0.5, y], [x + 0.5, y + 0.5], [x, y + 0.5]]
        })
        .collect();
    Scene { boundary, holes }
}

/// A path's ends across layout `name` at `n` (on the first floor of the stacked ones).
pub fn ends(name: &str, n: usize) -> (DVec3, DVec3) {
    match name {
        "strips" => (
            DVec3::new(0.005, 0.5, 0.0),
            DVec3::new(n as f64 * 0.01 - 0.005, 0.5, 0.0),
        ),
        "fan" => (DVec3::new(50.0, 0.5, 0.0), DVec3::new(0.5, -50.0, 0.0)),
        // Corner to corner of the full rows.
        "grid" => {
            let side = (n as f64).sqrt().ceil() as usize;
            let rows = (n / side) as f64;
            (
                DVec3::new(0.5, 0.5, 0.0),
                DVec3::new(side as f64 - 0.5, rows - 0.5, 0.0),
            )
        }
        _ => (DVec3::new(0.1, 0.1, 0.0), DVec3::new(0.9, 0.9, 0.0)),
    }
}
