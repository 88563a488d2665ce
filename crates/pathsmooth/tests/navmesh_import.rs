//! Navmeshes from a caller's polygons, polyanya `.mesh` files and OBJ: polygon ids in the
//! output, round trips through the writers, every kind of bad input, and readers that never
//! panic on arbitrary text.

use crate::common;

use glam::{DVec2, Vec2};
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{parse_mesh, parse_obj, write_mesh, write_obj, GroundPlane};
use pathsmooth::navmesh::{NavMesh, PolyId};
use pathsmooth::{Error, Pipeline, SurfaceWorld, World};
use proptest::prelude::*;

// ---- helpers ----------------------------------------------------------------------------

fn pts(xy: &[(f64, f64)]) -> Vec<DVec2> {
    xy.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
}

/// Asserts that a polygon query (`polygons_along`, `polygons_crossed`) failed with a
/// message naming `words` (the point or segment at fault).
fn assert_fails_naming(result: pathsmooth::Result<Vec<PolyId>>, words: &str) {
    let err = result.unwrap_err();
    assert!(err.to_string().contains(words), "{err}");
}

fn length(path: &[DVec2]) -> f64 {
    path.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The triangles as sorted coordinate triples, sorted: the same set means the same
/// triangulation whatever the vertex and triangle numbering.
fn triangle_set(mesh: &NavMesh) -> Vec<[[u64; 2]; 3]> {
    let mut all: Vec<[[u64; 2]; 3]> = (0..mesh.num_triangles())
        .map(|t| {
            let mut c = mesh
                .triangle(t)
                .map(|p| [(p.x + 0.0).to_bits(), (p.y + 0.0).to_bits()]);
            c.sort_unstable();
            c
        })
        .collect();
    all.sort_unstable();
    all
}

/// The polygons as rotated-to-smallest coordinate rings, sorted, with their ids.
fn polygon_set(mesh: &NavMesh) -> Vec<(PolyId, Vec<[u64; 2]>)> {
    let mut all: Vec<(PolyId, Vec<[u64; 2]>)> = (0..mesh.num_polygons())
        .map(|i| {
            let mut ring: Vec<[u64; 2]> = mesh
                .polygon(i)
                .iter()
                .map(|&v| {
                    let p = mesh.vertices()[v as usize];
                    [(p.x + 0.0).to_bits(), (p.y + 0.0).to_bits()]
                })
                .collect();
            let k = (0..ring.len()).min_by_key(|&k| ring[k]).unwrap();
            ring.rotate_left(k);
            (mesh.polygon_id(i), ring)
        })
        .collect();
    all.sort();
    all
}

/// The polygons' rings without their ids, sorted (file formats carry no ids).
fn rings_of(mesh: &NavMesh) -> Vec<Vec<[u64; 2]>> {
    let mut rings: Vec<_> = polygon_set(mesh).into_iter().map(|(_, r)| r).collect();
    rings.sort();
    rings
}

/// A 6×4 room made of convex polygons with ids: a quad and a pentagon below, a heptagon
/// with straight corners in the middle (vertices 5, 6 below it and 9 above it lie along
/// its edges, so its neighbours share part of an edge each), and two quads above. Vertices
/// 2 and 11 are used by no polygon (11 even lies on the border).
///
/// ```text
///  y=4  12 ------ 13 ------ 14
///       |   600   |   700   |
///  y=2  8 ------- 9 ------- 10
///       |        500        |
///  y=1  4 -- 5 ---------6-- 7
///       | 100 |    200      |
///  y=0  0 -- 1 -------------3    (vertex 2 unused)
/// ```
fn room() -> (Vec<DVec2>, Vec<Vec<u32>>, Vec<PolyId>) {
    let v = pts(&[
        (0.0, 0.0),
        (1.0, 0.0),
        (9.0, 9.0), // unused
        (6.0, 0.0),
        (0.0, 1.0),
        (1.0, 1.0),
        (5.0, 1.0),
        (6.0, 1.0),
        (0.0, 2.0),
        (3.0, 2.0),
        (6.0, 2.0),
        (6.0, 2.0 + 1.0), // unused too (a second one)
        (0.0, 4.0),
        (3.0, 4.0),
        (6.0, 4.0),
    ]);
    let polys = vec![
        vec![0, 1, 5, 4],
        vec![1, 3, 7, 6, 5],
        vec![4, 5, 6, 7, 10, 9, 8],
        vec![8, 9, 13, 12],
        vec![14, 13, 9, 10], // clockwise: accepted
    ];
    (v, polys, vec![100, 200, 500, 600, 700])
}

fn bad_polygons(v: &[(f64, f64)], polys: &[Vec<u32>]) -> String {
    match NavMesh::from_polygons(&pts(v), polys) {
        Err(Error::InvalidPolygon { message }) => message,
        other => panic!("expected InvalidPolygon, got {other:?}"),
    }
}

// ---- polygons and ids -------------------------------------------------------------------

#[test]
fn caller_polygon_ids_come_back_along_a_planned_path() {
    let (v, polys, ids) = room();
    let mesh = NavMesh::from_polygons_with_ids(&v, &polys, &ids).unwrap();
    assert_eq!(mesh.num_polygons(), 5);
    // Every triangle lies inside its polygon: its centroid is in the polygon's ring.
    for t in 0..mesh.num_triangles() {
        let id = mesh.polygon_of(t);
        let i = ids.iter().position(|&x| x == id).unwrap();
        let ring: Vec<DVec2> = polys[i].iter().map(|&k| v[k as usize]).collect();
        let c = mesh.centroid(t);
        let n = ring.len();
        let inside = (0..n).all(|k| {
            let (a, b) = (ring[k], ring[(k + 1) % n]);
            pathsmooth::geometry::cross(b - a, c - a) >= 0.0
        }) || (0..n).all(|k| {
            let (a, b) = (ring[k], ring[(k + 1) % n]);
            pathsmooth::geometry::cross(b - a, c - a) <= 0.0
        });
        assert!(inside, "triangle {t} is not inside polygon {id}");
    }
    // Plan from the bottom-left quad to the top-right one.
    let world = SurfaceWorld::from_navmesh(&mesh).unwrap();
    let (start, goal) = (DVec2::new(0.5, 0.5), DVec2::new(5.5, 3.5));
    // The found path (no steps), each point with its polygon, by the caller's id (its
    // reference on the surface).
    let surface = world.mesh().surface().clone();
    let mut pipeline = Pipeline::new(world, 0.0).unwrap().with_steps(Vec::new());
    let found = (pipeline.plan_surface(start.extend(0.0), goal.extend(0.0))).unwrap();
    let path: Vec<DVec2> = found.iter().map(|p| p.position.truncate()).collect();
    let along: Vec<u32> = found
        .iter()
        .map(|p| surface.polygon_ref(p.polygon) as u32)
        .collect();
    assert_eq!(along.len(), path.len());
    assert_eq!(along.first(), Some(&100));
    assert_eq!(along.last(), Some(&700));
    assert!(along.iter().all(|id| ids.contains(id)));
    // The straight line is free here (the room is convex), so the path is one segment
    // through 100, 500 and 700; the corner vertex entries are exactly start and goal.
    assert_eq!(path, vec![start, goal]);
    assert_eq!(along, vec![100, 700]);
}

#[test]
fn polygons_along_picks_the_polygon_a_corner_heads_into() {
    let (v, polys, ids) = room();
    let mesh = NavMesh::from_polygons_with_ids(&v, &polys, &ids).unwrap();
    // Vertex 9 (3, 2) touches polygons 500, 600 and 700.
    let p9 = DVec2::new(3.0, 2.0);
    let heads = |to: DVec2| mesh.polygons_along(&[p9, to]).unwrap()[0];
    assert_eq!(heads(DVec2::new(2.0, 3.0)), 600);
    assert_eq!(heads(DVec2::new(4.0, 3.0)), 700);
    assert_eq!(heads(DVec2::new(3.0, 1.5)), 500);
    // Along the shared edge 9–13 either side is right.
    assert!([600, 700].contains(&heads(DVec2::new(3.0, 4.0))));
    // Duplicate points are legal: they take the direction of the next distinct point.
    let along = mesh
        .polygons_along(&[p9, p9, DVec2::new(2.0, 3.0)])
        .unwrap();
    assert_eq!(along, vec![600, 600, 600]);
    // Off the mesh: an error naming the point.
    assert_fails_naming(
        mesh.polygons_along(&[p9, DVec2::new(7.0, 1.0)]),
        "point 1 (7, 1)",
    );
    assert_fails_naming(mesh.polygons_along(&[DVec2::new(f64::NAN, 1.0)]), "point 0");
}

/// Five unit squares in a row along x, ids 50, 40, 30, 20, 10 from left to right.
fn row_of_squares() -> NavMesh {
    let mut v = Vec::new();
    for x in 0..=5 {
        v.push(DVec2::new(x as f64, 0.0));
        v.push(DVec2::new(x as f64, 1.0));
    }
    let polys: Vec<Vec<u32>> = (0..5u32)
        .map(|i| vec![2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1])
        .collect();
    NavMesh::from_polygons_with_ids(&v, &polys, &[50, 40, 30, 20, 10]).unwrap()
}

#[test]
fn polygons_crossed_lists_each_polygon_once_in_order() {
    let mesh = row_of_squares();
    // Across the row: every square once, in order, for f64 and f32 input alike.
    let across = [(0.5, 0.5), (2.2, 0.9), (4.5, 0.2)];
    let d: Vec<DVec2> = pts(&across);
    let f: Vec<Vec2> = d.iter().map(|p| p.as_vec2()).collect();
    assert_eq!(mesh.polygons_crossed(&d).unwrap(), vec![50, 40, 30, 20, 10]);
    assert_eq!(mesh.polygons_crossed(&f).unwrap(), vec![50, 40, 30, 20, 10]);
    // `polygons_along` keeps its one polygon per point, skipping those between.
    assert_eq!(mesh.polygons_along(&d).unwrap(), vec![50, 30, 10]);
    assert_eq!(mesh.polygons_along(&f).unwrap(), vec![50, 30, 10]);
    // Out and back: a polygon left and re-entered is listed again; duplicate points and
    // turns inside a polygon add nothing.
    let back = pts(&[(0.5, 0.5), (2.5, 0.5), (2.5, 0.5), (2.6, 0.8), (0.2, 0.2)]);
    assert_eq!(
        mesh.polygons_crossed(&back).unwrap(),
        vec![50, 40, 30, 40, 50]
    );
    // Starting and ending on shared edges: only the squares whose inside the path crosses.
    let edges = pts(&[(1.0, 0.5), (3.0, 0.5)]);
    assert_eq!(mesh.polygons_crossed(&edges).unwrap(), vec![40, 30]);
    // A one-point path lists its polygon; an empty one nothing.
    assert_eq!(
        mesh.polygons_crossed(&[DVec2::new(4.5, 0.5)]).unwrap(),
        vec![10]
    );
    assert!(mesh.polygons_crossed::<DVec2>(&[]).unwrap().is_empty());
}

#[test]
fn polygons_crossed_skips_polygons_touched_only_at_a_corner() {
    let (v, polys, ids) = room();
    let mesh = NavMesh::from_polygons_with_ids(&v, &polys, &ids).unwrap();
    // From 500 through vertex 9 (3, 2), shared by 500, 600 and 700, into 700: 600 is
    // only touched. Through vertex 5 (1, 1), shared by 100, 200 and 500, from 100 into 500.
    let path = pts(&[(0.5, 0.5), (2.0, 2.5), (2.5, 1.5), (4.0, 3.0)]);
    let crossed = mesh.polygons_crossed(&path).unwrap();
    assert_eq!(crossed, vec![100, 500, 600, 500, 700]);
    let through_9 = pts(&[(1.5, 1.25), (4.5, 2.75)]);
    assert_eq!(mesh.polygons_crossed(&through_9).unwrap(), vec![500, 700]);
    let through_5 = pts(&[(0.5, 0.5), (1.5, 1.5)]);
    assert_eq!(mesh.polygons_crossed(&through_5).unwrap(), vec![100, 500]);
}

#[test]
fn polygons_crossed_names_a_point_outside_the_mesh() {
    let mesh = row_of_squares();
    assert_fails_naming(
        mesh.polygons_crossed(&[DVec2::new(0.5, 0.5), DVec2::new(6.0, 0.5)]),
        "point 1 (6, 0.5)",
    );
    assert_fails_naming(
        mesh.polygons_crossed(&[
            Vec2::new(0.5, 0.5),
            Vec2::new(1.5, 0.5),
            Vec2::new(2.5, -1.0),
        ]),
        "point 2 (2.5, -1)",
    );
    assert_fails_naming(
        mesh.polygons_crossed(&[DVec2::new(f64::NAN, 0.5)]),
        "point 0",
    );
    // Both ends on the mesh, the segment between leaving it: named by its segment.
    let walled = NavMesh::from_grid(&GridMap::from_rows(&["..@..", "..@.."]).unwrap()).unwrap();
    assert_fails_naming(
        walled.polygons_crossed(&[DVec2::new(0.5, 0.5), DVec2::new(4.5, 0.5)]),
        "segment 0",
    );
}

#[test]
fn shared_edges_are_open_and_the_outline_is_walls() {
    let (v, polys, ids) = room();
    let mesh = NavMesh::from_polygons_with_ids(&v, &polys, &ids).unwrap();
    // Walls: the boundary of the 6×4 rectangle only (perimeter 20).
    let mut wall_length = 0.0;
    for t in 0..mesh.num_triangles() {
        let c = mesh.triangle(t);
        for (i, n) in mesh.neighbors(t).iter().enumerate() {
            if n.is_none() {
                let (a, b) = (c[i], c[(i + 1) % 3]);
                wall_length += a.distance(b);
                let on_border = (a.x == b.x && (a.x == 0.0 || a.x == 6.0))
                    || (a.y == b.y && (a.y == 0.0 || a.y == 4.0));
                assert!(on_border, "wall {a}–{b} inside the room");
            }
        }
    }
    assert_eq!(wall_length, 20.0);
    // The unused vertices are not part of the mesh.
    assert_eq!(mesh.vertices().len(), 13);
}

#[test]
fn meshes_from_scenes_and_grids_have_one_polygon_per_triangle() {
    let map = GridMap::from_rows(&["....", ".@..", "...."]).unwrap();
    let mesh = NavMesh::from_grid(&map).unwrap();
    assert_eq!(mesh.num_polygons(), mesh.num_triangles());
    for t in 0..mesh.num_triangles() {
        assert_eq!(mesh.polygon_of(t), t as PolyId);
        assert_eq!(mesh.polygon(t), &mesh.triangle_indices()[t][..]);
    }
}

/// A fan of 100k triangles around one vertex (the build was quadratic in the vertex's
/// degree, issue 32): it builds, every triangle keeps its polygon, points are located in
/// the right triangle, and the shortest path across the fan's missing quadrant bends on
/// the shared vertex exactly. (Timings are in `benches/navmesh_scale.rs`.)
#[test]
fn a_fan_of_100k_triangles_builds_and_answers_queries() {
    let n = 100_000u32;
    let mut vertices = vec![DVec2::ZERO];
    vertices.extend((0..=n).map(|k| {
        let a = f64::from(k) / f64::from(n) * 1.5 * std::f64::consts::PI;
        DVec2::new(a.cos(), a.sin()) * 100.0
    }));
    let polygons: Vec<Vec<u32>> = (0..n).map(|k| vec![0, k + 1, k + 2]).collect();
    let mesh = NavMesh::from_polygons(&vertices, &polygons).unwrap();
    assert_eq!(mesh.num_triangles(), n as usize);
    for k in [0, 1, n / 2, n - 1] {
        let inside = (vertices[k as usize + 1] + vertices[k as usize + 2]) / 3.0;
        let t = mesh.locate(inside).unwrap();
        assert_eq!(mesh.polygon_of(t), k);
    }
    assert!(mesh.locate(DVec2::new(50.0, -50.0)).is_none()); // the missing quadrant
    let (a, g) = (DVec2::new(50.0, 1.0), DVec2::new(-10.0, -50.0));
    let path = pathsmooth::navmesh::NavMeshQuery::new()
        .find_path(&mesh, a, g, 0.0)
        .unwrap()
        .to_vec();
    assert_eq!(path, vec![a, DVec2::ZERO, g]);
}

// ---- round trips ------------------------------------------------------------------------

/// `mesh` written as `.mesh` and as OBJ (both planes) and read back: the same polygons,
/// triangles and paths.
fn assert_round_trips(mesh: &NavMesh, queries: &[(DVec2, DVec2)]) {
    let text = write_mesh(mesh);
    let from_mesh = parse_mesh(&text, "rt.mesh").unwrap();
    // Writing again gives the same text: the writer is deterministic and the reader keeps
    // the vertex and polygon order.
    assert_eq!(write_mesh(&from_mesh), text);
    let mut again = vec![from_mesh];
    for plane in [GroundPlane::Xz, GroundPlane::Xy] {
        again.push(parse_obj(&write_obj(mesh, plane), "rt.obj", plane).unwrap());
    }
    let world = SurfaceWorld::from_navmesh(mesh).unwrap();
    for other in again {
        assert_eq!(triangle_set(&other), triangle_set(mesh));
        assert_eq!(other.num_polygons(), mesh.num_polygons());
        assert_eq!(rings_of(&other), rings_of(mesh));
        let other = SurfaceWorld::from_navmesh(&other).unwrap();
        for &(s, g) in queries {
            let (a, b) = (world.find_path(s, g, 0.0), other.find_path(s, g, 0.0));
            match (a, b) {
                (Ok(a), Ok(b)) => assert!(
                    (length(&a) - length(&b)).abs() <= 1e-9 * length(&a).max(1.0),
                    "{s} → {g}: {} vs {}",
                    length(&a),
                    length(&b)
                ),
                (Err(_), Err(_)) => {}
                (a, b) => panic!("{s} → {g}: {a:?} vs {b:?}"),
            }
        }
    }
}

#[test]
fn polygon_mesh_round_trips_through_mesh_and_obj() {
    let (v, polys, _) = room();
    let mesh = NavMesh::from_polygons(&v, &polys).unwrap();
    assert_round_trips(
        &mesh,
        &[
            (DVec2::new(0.5, 0.5), DVec2::new(5.5, 3.5)),
            (DVec2::new(0.1, 3.9), DVec2::new(5.9, 0.1)),
        ],
    );
    // Positional ids survive: polygon i of the file is polygon i.
    let again = parse_mesh(&write_mesh(&mesh), "rt.mesh").unwrap();
    assert_eq!(polygon_set(&again), polygon_set(&mesh));
}

#[test]
fn grid_mesh_round_trips_through_mesh_and_obj() {
    let map = GridMap::from_rows(&[
        "..........",
        ".@@@..@@..",
        ".@....@...",
        ".@..@.....",
        "....@..@@.",
        "..@.......",
    ])
    .unwrap();
    let mesh = NavMesh::from_grid(&map).unwrap();
    let q = |a: (f64, f64), b: (f64, f64)| (DVec2::new(a.0, a.1), DVec2::new(b.0, b.1));
    assert_round_trips(
        &mesh,
        &[
            q((0.5, 0.5), (9.5, 5.5)),
            q((2.5, 2.5), (8.5, 0.5)),
            q((0.5, 5.5), (5.5, 3.5)),
        ],
    );
}

#[test]
fn real_map_mesh_round_trips() {
    let (map, scenarios) = common::load("dao/arena");
    let mesh = NavMesh::from_grid(&map).unwrap();
    let queries: Vec<(DVec2, DVec2)> = scenarios
        .iter()
        .step_by(20)
        .map(|s| {
            let c = |p: glam::IVec2| DVec2::new(p.x as f64 + 0.5, p.y as f64 + 0.5);
            (c(s.start), c(s.goal))
        })
        .collect();
    assert_round_trips(&mesh, &queries);
}

#[test]
fn the_specification_example_reads() {
    // The example of polyanya's mesh format specification, version 2 and its version 1.
    let v2 = "mesh\n2\n4 2\n0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n\
              0.0 1.5 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";
    let mesh = parse_mesh(v2, "spec.mesh").unwrap();
    assert_eq!(mesh.num_polygons(), 2);
    assert_eq!(mesh.num_triangles(), 2);
    // Version 1: p[i] is across v[i]–v[i+1], so each polygon's list rotates by one.
    let v1 = v2
        .replacen("\n2\n", "\n1\n", 1)
        .replace("3 0 1 3 -1 -1 1", "3 0 1 3 -1 1 -1")
        .replace("3 1 2 3 0 -1 -1", "3 1 2 3 -1 -1 0");
    let mesh1 = parse_mesh(&v1, "spec1.mesh").unwrap();
    assert_eq!(triangle_set(&mesh1), triangle_set(&mesh));
    // And the writer reproduces the polygon lines of the specification.
    let written = write_mesh(&mesh);
    assert!(written.contains("\n3 0 1 3 -1 -1 1\n"), "{written}");
    assert!(written.contains("\n3 1 2 3 0 -1 -1\n"), "{written}");
}

#[test]
fn obj_reader_takes_all_reference_forms_and_both_planes() {
    let text = "# a quad and a triangle\nmtllib x.mtl\no nav\nv 0 5 0\nv 2 5 0\nv 2 5 2\n\
                v 0 5 2\nv 3 5 1\nvt 0 0\nvn 0 1 0\ns off\ng poly\n\
                f 1/1/1 2/1/1 3/1/1 4/1/1\nf 2//1 -1//1 3//1\n";
    let mesh = parse_obj(text, "t.obj", GroundPlane::Xz).unwrap();
    assert_eq!(mesh.num_polygons(), 2);
    assert_eq!(
        mesh.polygon_of(mesh.locate(DVec2::new(2.5, 1.0)).unwrap()),
        1
    );
    // On the x/y plane every vertex projects to y = 5: duplicates, an error at line 5.
    let err = parse_obj(text, "t.obj", GroundPlane::Xy).unwrap_err();
    assert!(err.to_string().starts_with("t.obj:6:"), "{err}");
}

// ---- bad input --------------------------------------------------------------------------

#[test]
fn t_junctions_are_refused() {
    // A 2×2 square beside two unit squares stacked: their shared corner (2, 1) lies
    // inside the big square's right edge.
    let v = [
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 2.0),
        (0.0, 2.0),
        (3.0, 0.0),
        (3.0, 1.0),
        (2.0, 1.0),
        (3.0, 2.0),
    ];
    let m = bad_polygons(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 6], vec![6, 5, 7, 2]]);
    assert!(m.contains("T-junction: vertex 6"), "{m}");
    assert!(m.contains("polygon 0"), "{m}");
    // With the vertex added to the big polygon it is fine.
    let ok = NavMesh::from_polygons(
        &pts(&v),
        &[vec![0, 1, 6, 2, 3], vec![1, 4, 5, 6], vec![6, 5, 7, 2]],
    );
    assert_eq!(ok.unwrap().num_polygons(), 3);
}

#[test]
fn overlapping_polygons_are_refused() {
    let sq = [
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 2.0),
        (0.0, 2.0),
        (1.0, 1.0),
        (3.0, 1.0),
        (3.0, 3.0),
        (1.0, 3.0),
        (0.5, 0.5),
        (1.5, 0.5),
        (1.0, 1.5),
    ];
    // Crossing edges.
    let m = bad_polygons(&sq, &[vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
    assert!(m.contains("overlap"), "{m}");
    // One inside the other.
    let m = bad_polygons(&sq, &[vec![0, 1, 2, 3], vec![8, 9, 10]]);
    assert!(m.contains("polygons 0 and 1 overlap"), "{m}");
    // The same polygon twice (once each way round).
    let m = bad_polygons(&sq, &[vec![0, 1, 2, 3], vec![3, 2, 1, 0]]);
    assert!(m.contains("polygons 0 and 1 overlap"), "{m}");
    // A triangle on a diagonal of the square (sharing its vertices).
    let m = bad_polygons(&sq, &[vec![0, 1, 2, 3], vec![0, 1, 2]]);
    assert!(m.contains("overlap"), "{m}");
}

#[test]
fn non_convex_folded_and_degenerate_polygons_are_refused() {
    let l = [
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ];
    let m = bad_polygons(&l, &[vec![0, 1, 2, 3, 4, 5]]);
    assert!(
        m.contains("polygon 0 is not convex") && m.contains("vertex 3"),
        "{m}"
    );
    // Zero area: three collinear points.
    let m = bad_polygons(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)], &[vec![0, 1, 2]]);
    assert!(m.contains("zero area"), "{m}");
    // A fold: a spike back along an edge.
    let m = bad_polygons(
        &[(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 1.0)],
        &[vec![0, 1, 2, 3]],
    );
    assert!(m.contains("folds back") || m.contains("not convex"), "{m}");
    // Too few vertices, a bad index, a repeated index.
    let tri = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)];
    assert!(bad_polygons(&tri, &[vec![0, 1]]).contains("at least 3"));
    assert!(bad_polygons(&tri, &[vec![0, 1, 7]]).contains("names vertex 7"));
    assert!(bad_polygons(&tri, &[vec![0, 1, 1]]).contains("twice"));
    assert!(bad_polygons(&tri, &[]).contains("no polygons"));
}

#[test]
fn bad_vertices_are_refused_and_unused_ones_ignored() {
    let tri = |extra: (f64, f64)| [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), extra];
    // Duplicate positions among used vertices.
    let m = bad_polygons(
        &[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)],
        &[vec![0, 1, 2], vec![3, 4, 2]],
    );
    assert!(m.contains("vertices 1 and 3"), "{m}");
    // An unused duplicate, or an unused far vertex, is fine.
    assert!(NavMesh::from_polygons(&pts(&tri((1.0, 0.0))), &[vec![0, 1, 2]]).is_ok());
    assert!(NavMesh::from_polygons(&pts(&tri((1e9, -1e9))), &[vec![0, 1, 2]]).is_ok());
    // NaN, infinity and out-of-range coordinates, even unused.
    for bad in [(f64::NAN, 0.0), (0.0, f64::INFINITY), (1e-160, 0.0)] {
        let m = bad_polygons(&tri(bad), &[vec![0, 1, 2]]);
        assert!(m.contains("vertex 3"), "{m}");
    }
    // Too large is the library's one error for such coordinates, naming the vertex.
    assert_eq!(
        NavMesh::from_polygons(&pts(&tri((1e200, 0.0))), &[vec![0, 1, 2]]).unwrap_err(),
        Error::CoordinateOutOfRange {
            index: Some(3),
            value: 1e200,
            limit: pathsmooth::navmesh::MAX_COORDINATE
        }
    );
}

#[test]
fn bad_ids_are_refused() {
    let v = pts(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
    let p = [vec![0, 1, 2], vec![0, 2, 3]];
    let e = NavMesh::from_polygons_with_ids(&v, &p, &[4, 4]).unwrap_err();
    assert!(e.to_string().contains("both have the id 4"), "{e}");
    let e = NavMesh::from_polygons_with_ids(&v, &p, &[4]).unwrap_err();
    assert!(e.to_string().contains("2 polygons but 1 ids"), "{e}");
}

#[test]
fn polygon_numbers_beyond_u32_are_refused_at_their_line() {
    // Polygon ids are `u32`: a polygon number or count that does not fit is an error at its
    // line and column, never truncated (4294967296 would wrap to 0, a valid neighbour).
    let cases: &[LineEdits] = &[
        (
            9,
            "3 1 2 3 0 -1 -1",
            &[
                ("3 1 2 3 4294967296 -1 -1", "4294967296, expected -1 to 1"),
                (
                    "3 1 2 3 99999999999999999999999 -1 -1",
                    "99999999999999999999999, expected -1 to 1",
                ),
            ],
        ),
        (
            6,
            "1.5 1.5 2 1 -1",
            &[("1.5 1.5 2 4294967297 -1", "expected -1 to 1")],
        ),
        (
            3,
            "4 2\n",
            &[("4 4294967296\n", "number of polygons is 4294967296")],
        ),
    ];
    assert_edits_fail_at_line(SPEC, cases, |text| parse_mesh(text, "big.mesh"));
}

/// The line of a parse error, or a panic naming what came instead.
fn error_line(r: pathsmooth::Result<NavMesh>) -> (usize, String) {
    match r {
        Err(Error::Parse { line, message, .. }) => (line, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

/// Bad edits of one line of a good file: the line's number, a piece of the file on it
/// (`from`), and edits of that piece, each `(to, words)`: the file with its first `from`
/// replaced by `to` is refused at that line with a message containing `words`.
type LineEdits<'a> = (usize, &'a str, &'a [(&'a str, &'a str)]);

/// Makes each edit of the file `good` and expects `parse` to refuse the result as the case
/// says. An edit that changes nothing (a `from` not in the file) fails the test rather than
/// testing the good file.
#[track_caller]
fn assert_edits_fail_at_line(
    good: &str,
    cases: &[LineEdits],
    parse: impl Fn(&str) -> pathsmooth::Result<NavMesh>,
) {
    for &(line, from, edits) in cases {
        for &(to, words) in edits {
            let text = good.replacen(from, to, 1);
            assert_ne!(text, good, "`{from}` is not in the file");
            let (l, m) = error_line(parse(&text));
            assert_eq!(l, line, "{to}: {m}");
            assert!(m.contains(words), "{to}: {m}");
        }
    }
}

const SPEC: &str = "mesh\n2\n4 2\n0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n\
                    0.0 1.5 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";

#[test]
fn bad_mesh_files_name_the_line() {
    let cases: &[LineEdits] = &[
        (1, "mesh\n", &[("mseh\n", "header")]),
        (2, "mesh\n2\n", &[("mesh\n4\n", "version")]),
        (
            5,
            "1.5 0.0 3 0 1 -1",
            &[("1.5 0.0 2 0 -1", "lists the polygons")],
        ),
        (
            6,
            "1.5 1.5 2 1 -1",
            &[
                ("1.5 x 2 1 -1", "number"),
                ("1.5 NaN 2 1 -1", "finite"),
                ("1.5 inf 2 1 -1", "finite"),
                ("1.5 1e300 2 1 -1", "out of range"),
                ("1.5 1.5 1 1", "stretches of wall"),
            ],
        ),
        (
            9,
            "3 1 2 3 0 -1 -1\n",
            &[
                ("3 1 2 3 0 -1\n", "end of the file"),
                ("3 1 2 3 0 -1 -1 7\n", "unexpected"),
                ("3 1 2 3 -1 -1 -1\n", "it names -1"),
                ("3 1 2 9 0 -1 -1\n", "expected 0 to 3"),
            ],
        ),
    ];
    assert_edits_fail_at_line(SPEC, cases, |text| parse_mesh(text, "bad.mesh"));
    // Polygon 0 names polygon 0 across the diagonal.
    let (l, m) = error_line(parse_mesh(
        &SPEC.replacen("3 0 1 3 -1 -1 1", "3 0 1 3 -1 -1 0", 1),
        "bad.mesh",
    ));
    assert_eq!(l, 8, "{m}");
    // Geometry problems come back at the polygon's line: a non-convex quad.
    let quad =
        "mesh\n2\n4 1\n0 0 2 0 -1\n2 0 2 0 -1\n0.5 0.5 2 0 -1\n0 2 2 0 -1\n4 0 1 2 3 -1 -1 -1 -1\n";
    let (l, m) = error_line(parse_mesh(quad, "bad.mesh"));
    assert_eq!(l, 8, "{m}");
    assert!(m.contains("not convex"), "{m}");
    // Duplicate vertices come back at the vertex's line.
    let dup = SPEC.replacen("1.5 1.5 2 1 -1", "1.5 0.0 2 1 -1", 1);
    let (l, m) = error_line(parse_mesh(&dup, "bad.mesh"));
    assert_eq!(l, 6, "{m}");
}

#[test]
fn bad_obj_files_name_the_line() {
    let good = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n";
    assert!(parse_obj(good, "ok.obj", GroundPlane::Xz).is_ok());
    let cases: &[LineEdits] = &[
        (
            2,
            "v 1 0 0\n",
            &[
                ("v 1 0\n", "too few fields"),
                ("v 1 zero 0\n", "number"),
                ("v 1 0 nan\n", "finite"),
            ],
        ),
        (
            5,
            "f 1 2 3 4",
            &[
                ("f 1 2", "at least 3"),
                ("f 0 1 2", "start at 1"),
                ("f 1 2 -9", "before the first"),
                ("f 1 2 9", "has 4 vertices"),
                ("f 1 2 x", "vertex reference"),
            ],
        ),
    ];
    assert_edits_fail_at_line(good, cases, |text| {
        parse_obj(text, "bad.obj", GroundPlane::Xz)
    });
    // Overlapping faces (a second floor over the first, in plan view) are refused at the
    // line of the face, repaired or not.
    let two = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 0.5 3 0.5\nv 1.5 3 0.5\nv 1.5 3 1.5\n\
               f 1 2 3 4\nf 5 6 7\n";
    let (l, m) = error_line(parse_obj(two, "two.obj", GroundPlane::Xz));
    assert!((8..=9).contains(&l), "line {l}: {m}");
    assert!(m.contains("overlap"), "{m}");
}

/// What engines' exports hold and the strict checks refuse, read as the file means it: a
/// T-junction (the second quad's corner (1, 0.5) inside the first quad's edge) and faces
/// that each carry their own copies of shared corners (Unity's export). The oracle: the
/// ground the faces cover (area, and which face a point is in) and a straight path across
/// the seam.
#[test]
fn obj_files_with_t_junctions_and_unshared_vertices_are_read_as_meant() {
    let t_junction = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0.5\nv 2 0 1\nv 1 0 0.5\n\
                      f 1 2 3 4\nf 7 5 6 3\n";
    let unshared = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 1 0 0.5\nv 2 0 0.5\nv 2 0 1\nv 1 0 1\n\
                    f 1 2 3 4\nf 5 6 7 8\n";
    for (name, text) in [("t.obj", t_junction), ("unshared.obj", unshared)] {
        let mesh = parse_obj(text, name, GroundPlane::Xz).unwrap_or_else(|e| panic!("{e}"));
        let area: f64 = (0..mesh.num_triangles())
            .map(|t| {
                let [a, b, c] = mesh.triangle(t);
                (b - a).perp_dot(c - a) / 2.0
            })
            .sum();
        assert!((area - 1.5).abs() < 1e-12, "{name}: area {area}");
        for (p, face) in [((0.5, 0.5), 0), ((1.5, 0.75), 1), ((0.9, 0.9), 0)] {
            let t = mesh.locate(DVec2::new(p.0, p.1)).unwrap();
            assert_eq!(mesh.polygon_of(t), face, "{name}: {p:?}");
        }
        // Joined across the seam: in sight of each other, and planned straight.
        let (a, b) = (DVec2::new(0.5, 0.75), DVec2::new(1.9, 0.75));
        assert!(mesh.line_of_sight(a, b), "{name}");
        let path = SurfaceWorld::from_navmesh(&mesh)
            .unwrap()
            .find_path(a, b, 0.0)
            .unwrap();
        assert_eq!(path, [a, b], "{name}");
    }
}

// ---- readers never panic ----------------------------------------------------------------

/// Text made of the tokens these formats use, in any order.
fn token_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("mesh".to_string()),
        Just("v".to_string()),
        Just("f".to_string()),
        Just("\n".to_string()),
        Just("-1".to_string()),
        Just("#".to_string()),
        Just("1/2/3".to_string()),
        Just("nan".to_string()),
        (0u32..8).prop_map(|k| k.to_string()),
        (-1e3f64..1e3).prop_map(|x| x.to_string()),
    ];
    prop::collection::vec(token, 0..80).prop_map(|t| t.join(" "))
}

proptest! {
    #[test]
    fn readers_never_panic_on_token_soup(text in token_soup()) {
        let _ = parse_mesh(&text, "p.mesh");
        let _ = parse_obj(&text, "p.obj", GroundPlane::Xz);
        let _ = parse_obj(&text, "p.obj", GroundPlane::Xy);
    }

    #[test]
    fn readers_never_panic_on_any_text(text in "\\PC{0,200}") {
        let _ = parse_mesh(&text, "p.mesh");
        let _ = parse_obj(&text, "p.obj", GroundPlane::Xz);
    }

    /// One number of a valid file changed to another small number: a mesh or an error.
    #[test]
    fn readers_never_panic_on_edited_files(k in 0usize..40, new in -2i64..6) {
        let edit = |text: &str| {
            let mut toks: Vec<String> = text.split(' ').map(str::to_string).collect();
            let n = toks.len();
            toks[k % n] = new.to_string();
            toks.join(" ")
        };
        let spec = SPEC.replace('\n', " ");
        if let Ok(mesh) = parse_mesh(&edit(&spec), "e.mesh") {
            // Whatever is accepted writes and reads back.
            prop_assert!(parse_mesh(&write_mesh(&mesh), "again.mesh").is_ok());
        }
        let obj = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nf 1 2 3 4\nf 2 5 3\n";
        if let Ok(mesh) = parse_obj(&edit(obj), "e.obj", GroundPlane::Xz) {
            prop_assert!(parse_obj(&write_obj(&mesh, GroundPlane::Xz), "again.obj", GroundPlane::Xz).is_ok());
        }
    }
}

// ---- random polygon meshes --------------------------------------------------------------

/// A jittered `w`×`h` grid of quads, keeping the cells whose bit is set in `keep`: convex
/// polygons (the jitter is under a quarter of the spacing) that share whole edges, with
/// pinches where two kept cells touch only at a corner.
fn jittered_quads(
    w: usize,
    h: usize,
    jitter: &[(f64, f64)],
    keep: &[bool],
) -> (Vec<DVec2>, Vec<Vec<u32>>) {
    let idx = |x: usize, y: usize| (y * (w + 1) + x) as u32;
    let mut v = Vec::new();
    for y in 0..=h {
        for x in 0..=w {
            let (jx, jy) = jitter[(y * (w + 1) + x) % jitter.len()];
            // The map's border stays straight so the outline is simple to reason about.
            let jx = if x == 0 || x == w { 0.0 } else { jx };
            let jy = if y == 0 || y == h { 0.0 } else { jy };
            v.push(DVec2::new(x as f64 + jx, y as f64 + jy));
        }
    }
    let mut polys = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if keep[(y * w + x) % keep.len()] {
                polys.push(vec![
                    idx(x, y),
                    idx(x + 1, y),
                    idx(x + 1, y + 1),
                    idx(x, y + 1),
                ]);
            }
        }
    }
    (v, polys)
}

fn area2(ring: &[DVec2]) -> f64 {
    (0..ring.len())
        .map(|k| pathsmooth::geometry::cross(ring[k], ring[(k + 1) % ring.len()]))
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Each polygon's triangles tile it (their areas add up to its area and their centroids
    /// lie in it), walls are exactly the edges of one polygon, and the mesh round-trips
    /// through both writers with its polygons.
    #[test]
    fn random_quad_meshes_keep_their_polygons(
        w in 1usize..6,
        h in 1usize..6,
        jitter in prop::collection::vec((-0.24f64..0.24, -0.24f64..0.24), 1..50),
        keep in prop::collection::vec(any::<bool>(), 1..40),
        salt in any::<u32>(),
    ) {
        let (v, polys) = jittered_quads(w, h, &jitter, &keep);
        prop_assume!(!polys.is_empty());
        let ids: Vec<PolyId> = (0..polys.len() as PolyId).map(|i| i.wrapping_mul(2654435761) ^ salt).collect();
        let mesh = NavMesh::from_polygons_with_ids(&v, &polys, &ids).unwrap();
        prop_assert_eq!(mesh.num_polygons(), polys.len());
        let mut area = vec![0.0; polys.len()];
        for t in 0..mesh.num_triangles() {
            let i = mesh.polygon_index_of(t);
            prop_assert_eq!(mesh.polygon_of(t), ids[i]);
            area[i] += area2(&mesh.triangle(t));
            let ring: Vec<DVec2> = polys[i].iter().map(|&k| v[k as usize]).collect();
            let c = mesh.centroid(t);
            for k in 0..ring.len() {
                let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
                prop_assert!(pathsmooth::geometry::cross(b - a, c - a) > 0.0);
            }
        }
        for (i, p) in polys.iter().enumerate() {
            let ring: Vec<DVec2> = p.iter().map(|&k| v[k as usize]).collect();
            prop_assert!((area[i] - area2(&ring)).abs() <= 1e-9 * area2(&ring));
        }
        // Walls: triangle edges with no neighbour are polygon edges used once.
        let mut uses = std::collections::HashMap::new();
        for p in &polys {
            for k in 0..4 {
                let (a, b) = (p[k], p[(k + 1) % 4]);
                *uses.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
        let wall_len: f64 = uses
            .iter()
            .filter(|&(_, &n)| n == 1)
            .map(|(&(a, b), _)| v[a as usize].distance(v[b as usize]))
            .sum();
        let mut mesh_wall_len = 0.0;
        for t in 0..mesh.num_triangles() {
            let c = mesh.triangle(t);
            for (k, n) in mesh.neighbors(t).iter().enumerate() {
                if n.is_none() {
                    mesh_wall_len += c[k].distance(c[(k + 1) % 3]);
                }
            }
        }
        prop_assert!((wall_len - mesh_wall_len).abs() <= 1e-9 * wall_len);
        let again = parse_mesh(&write_mesh(&mesh), "rt.mesh").unwrap();
        prop_assert_eq!(rings_of(&again), rings_of(&mesh));
        let again = parse_obj(&write_obj(&mesh, GroundPlane::Xz), "rt.obj", GroundPlane::Xz).unwrap();
        prop_assert_eq!(rings_of(&again), rings_of(&mesh));
    }
}
