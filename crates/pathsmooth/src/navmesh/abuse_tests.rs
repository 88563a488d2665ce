//! The import on adversarial layouts (issue 41: no quadratic import): the shapes of
//! `tests/common/abuse.rs` (the scale bench's too) load to what they should, and the work
//! the import's spatial searches do grows linearly with the input (up to the log of a tree
//! or a sort).
//!
//! Work, not time: [`work::tally`](super::mesh::work) counts the index nodes visited and
//! the candidates handed to an exact test, so doubling n must not quite double the count
//! twice over; a quadratic search gives a ratio of 4, n log n about 2.2 at these sizes.
//! What is not ours is not counted: spade's triangulation of a scene (its bulk loader is
//! super-linear on a one-hole-wide column of holes, see `docs/hardening.md`).

use super::mesh::work;
use super::{NavMesh, Scene, Surface, SurfaceMesh, SurfaceOptions, SurfaceQuery, UpAxis};

#[path = "../../tests/common/abuse.rs"]
mod abuse;

/// The smaller size of each doubling.
const N: usize = 4000;

/// A ratio of work at 2n over n that n log n stays under, and n² does not.
const MOST: f64 = 2.5;

fn options() -> SurfaceOptions {
    SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::new(UpAxis::Z)
    }
}

/// The surface of layout `make` at `n` and the work its build did.
fn surface(make: fn(usize) -> abuse::Polygons, n: usize) -> (Surface, u64) {
    let (vertices, polygons) = make(n);
    work::take();
    let s = Surface::from_polygons_with(&vertices, &polygons, &[], &[], &options()).unwrap();
    (s, work::take())
}

/// Edges joining two polygons (each counted once).
fn joins(s: &Surface) -> usize {
    (0..s.num_polygons() as u32)
        .map(|p| s.neighbors(p).flatten().count())
        .sum::<usize>()
        / 2
}

#[test]
fn surfaces_load_as_laid_out_with_linear_work() {
    for (name, make) in abuse::SURFACES {
        let (s, small) = surface(make, N);
        let (big, large) = surface(make, 2 * N);
        for (s, n) in [(&s, N), (&big, 2 * N)] {
            let report = s.load_report();
            assert_eq!(s.num_polygons(), n, "{name}");
            assert_eq!(
                (
                    report.t_junctions,
                    report.unjoined_edges,
                    report.duplicates.len()
                ),
                (0, 0, 0),
                "{name}"
            );
            let side = (n as f64).sqrt().ceil() as usize;
            let expected = match name {
                "stacked" => 0,
                "strips" | "fan" => n - 1,
                // Right neighbours in each row, and the quads above.
                "grid" => {
                    (0..n).filter(|&i| i % side + 1 < side && i + 1 < n).count()
                        + n.saturating_sub(side)
                }
                _ => unreachable!(),
            };
            assert_eq!(joins(s), expected, "{name} at {n}");
        }
        let ratio = large as f64 / small as f64;
        assert!(
            small > 0 && ratio < MOST,
            "{name}: work {small} at {N}, {large} at {}: ×{ratio:.2}",
            2 * N
        );
    }
}

/// The number of triangles of the sheet of a path across layout `name` at `n` reaching
/// far beyond it (so every triangle it can walk to is in reach), and the work the sheet
/// did.
fn sheet(name: &str, make: fn(usize) -> abuse::Polygons, n: usize) -> (usize, u64) {
    let mesh = SurfaceMesh::new(surface(make, n).0).unwrap();
    let mut query = SurfaceQuery::new();
    let (a, b) = abuse::ends(name, n);
    query.find_path(&mesh, a, b, 0.0).unwrap();
    query.channel(&mesh);
    // Built once per mesh, not counted.
    mesh.side_tree();
    mesh.overlapping();
    work::take();
    let sheet = query.sheet(&mesh, 1e6).unwrap();
    (sheet.mesh().num_triangles(), work::take())
}

/// The sheet's walk (the part of a plan that was quadratic on fans: every triangle tested
/// against every kept one sharing its cells) takes every triangle of a one-floor layout,
/// one floor of the stacked ones, and does linear work: none where no triangle overlaps
/// another (strips, grid), and on the fan, which the mesh's overlap test gives up on, and
/// the stacked floors, twice the work for twice the triangles at most.
#[test]
fn sheets_take_their_floor_with_linear_work() {
    for (name, make) in abuse::SURFACES {
        if matches!(name, "strips" | "grid") {
            for n in [N, 2 * N] {
                assert_eq!(sheet(name, make, n), (2 * n, 0), "{name} at {n}");
            }
            continue;
        }
        let (small_sheet, small) = sheet(name, make, N);
        let (large_sheet, large) = sheet(name, make, 2 * N);
        for (triangles, n) in [(small_sheet, N), (large_sheet, 2 * N)] {
            let expected = if name == "stacked" { 2 } else { n };
            assert_eq!(triangles, expected, "{name} at {n}");
        }
        let ratio = large as f64 / small as f64;
        assert!(
            small > 0 && ratio < MOST,
            "{name}: work {small} at {N}, {large} at {}: ×{ratio:.2}",
            2 * N
        );
    }
}

/// The scene of layout `make` at `n`, and the work its checks did.
fn scene(make: fn(usize) -> Scene, n: usize) -> (NavMesh, u64) {
    let scene = make(n);
    work::take();
    let mesh = NavMesh::from_scene(&scene).unwrap();
    (mesh, work::take())
}

#[test]
fn hole_scenes_load_with_linear_work() {
    for (name, make) in abuse::SCENES {
        let (mesh, small) = scene(make, N);
        let (big, large) = scene(make, 2 * N);
        // A polygon of v corners and h holes has v + 2h − 2 triangles; here v = 4 + 4h.
        assert_eq!(mesh.num_triangles(), 6 * N + 2, "{name}");
        assert_eq!(big.num_triangles(), 12 * N + 2, "{name}");
        let ratio = large as f64 / small as f64;
        assert!(
            small > 0 && ratio < MOST,
            "{name}: work {small} at {N}, {large} at {}: ×{ratio:.2}",
            2 * N
        );
    }
}

/// The checks still refuse what they refused, among many holes: the last hole moved onto
/// its neighbour, outside the boundary, or into the first hole.
#[test]
fn bad_holes_among_many_are_named() {
    let err = |edit: &dyn Fn(&mut Scene)| {
        let mut s = abuse::holes(N);
        edit(&mut s);
        NavMesh::from_scene(&s).unwrap_err().to_string()
    };
    let last = N - 1;
    let shift = |s: &mut Scene, dx: f64, dy: f64| {
        for p in &mut s.holes[last] {
            *p = [p[0] + dx, p[1] + dy];
        }
    };
    let crossing = err(&|s| shift(s, -0.7, 0.0));
    assert!(crossing.contains("crossing edges"), "{crossing}");
    let outside = err(&|s| shift(s, 1000.0, 0.0));
    assert!(
        outside.contains(&format!("hole {last} lies outside the boundary")),
        "{outside}"
    );
    let inside = err(&|s| {
        let [x, y] = s.holes[0][0];
        s.holes[last] = vec![[x + 0.1, y + 0.1], [x + 0.2, y + 0.1], [x + 0.1, y + 0.2]];
    });
    assert!(
        inside.contains(&format!("hole {last} lies inside hole 0")),
        "{inside}"
    );
}
