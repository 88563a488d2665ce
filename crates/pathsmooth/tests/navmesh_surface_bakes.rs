//! The real multi-level Recast bakes of `tests/data/navmesh/` (Recast's demo levels baked
//! with `rerecast`; see its SOURCES.md) as `navmesh::Surface`s: each builds (Recast's
//! polygons are convex in plan view and planar to about a cell height), its adjacency is
//! the bake's shared edges and nothing else, and point location finds the floor a point
//! is on where floors are stacked: from just above points of each polygon, a polygon on
//! that floor — never one on another storey.
#![cfg(feature = "serde")]

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::{parse_surface_json, write_surface_json};
use pathsmooth::navmesh::{Surface, SurfaceOptions, UpAxis};
use serde_json::Value;

/// The bakes without T-junctions (`nav_test.r0` has one: see its test below).
const BAKES: [&str; 4] = ["dungeon", "dungeon.r0", "dungeon.areas", "nav_test"];

/// The text of a bake.
fn text(name: &str) -> String {
    let path = format!(
        "{}/tests/data/navmesh/{name}.navmesh.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

/// The bake as a surface, by the library's reader.
fn surface(name: &str, options: &SurfaceOptions) -> pathsmooth::Result<Surface> {
    parse_surface_json(&text(name), name, options)
}

/// The bake's vertices, polygons, areas and flags, read with `serde_json` alone: the
/// independent check of the library's reader.
fn load(name: &str) -> (Vec<DVec3>, Vec<Vec<u32>>, Vec<u8>, Vec<u16>) {
    let json: Value = serde_json::from_str(&text(name)).unwrap();
    assert_eq!(json["up"], "y");
    let numbers = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let vertices = json["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| DVec3::from_slice(&numbers(v)))
        .collect();
    let polygons = json["polygons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| numbers(p).into_iter().map(|i| i as u32).collect())
        .collect();
    let areas = numbers(&json["areas"])
        .into_iter()
        .map(|a| a as u8)
        .collect();
    let flags = numbers(&json["flags"])
        .into_iter()
        .map(|f| f as u16)
        .collect();
    (vertices, polygons, areas, flags)
}

/// The bake's edges shared by two polygons, as sorted vertex pairs, counted once.
fn shared_edges(polygons: &[Vec<u32>]) -> usize {
    let mut edges = std::collections::HashMap::new();
    for p in polygons {
        for (i, &a) in p.iter().enumerate() {
            let b = p[(i + 1) % p.len()];
            *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    edges.values().filter(|&&n| n == 2).count()
}

#[test]
fn real_multi_level_bakes_build_as_surfaces_with_their_own_adjacency() {
    for name in BAKES {
        let (vertices, polygons, areas, flags) = load(name);
        let surface =
            surface(name, &SurfaceOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(surface.num_polygons(), polygons.len(), "{name}");
        assert_eq!(surface.up(), UpAxis::Y, "{name}");
        // The bakes' vertices are distinct (Recast welds them): nothing merges.
        assert_eq!(surface.vertices(), vertices, "{name}");
        for (p, poly) in polygons.iter().enumerate() {
            let mut got = surface.polygon(p as u32).to_vec();
            let mut want = poly.clone();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{name} polygon {p}");
            assert_eq!(surface.flags(p as u32), flags[p], "{name} polygon {p}");
        }
        let links: usize = (0..surface.num_polygons() as u32)
            .map(|p| surface.neighbors(p).flatten().count())
            .sum();
        assert_eq!(links, 2 * shared_edges(&polygons), "{name}: adjacency");
        for p in 0..polygons.len() as u32 {
            assert_eq!(surface.area(p), areas[p as usize], "{name} polygon {p}");
        }
    }
}

#[test]
fn point_location_keeps_to_the_floor_on_stacked_levels() {
    for name in BAKES {
        let (vertices, polygons, _, _) = load(name);
        let surface = surface(name, &SurfaceOptions::default()).unwrap();
        let plan = |p: DVec3| DVec2::new(p.x, p.z);
        let (mut probes, mut stacked) = (0, 0);
        for (p, poly) in polygons.iter().enumerate() {
            let corners: Vec<DVec3> = poly.iter().map(|&i| vertices[i as usize]).collect();
            let centre = corners.iter().copied().sum::<DVec3>() / corners.len() as f64;
            // The centre and points 80 % of the way to each corner, on the floor (the
            // detail mesh, which the bakes have).
            let samples =
                std::iter::once(centre).chain(corners.iter().map(|&c| centre.lerp(c, 0.8)));
            for s in samples {
                let s = DVec3::new(s.x, surface.floor_height(p as u32, plan(s)), s.z);
                // 0.1 above the floor, searched ±1 vertically (Detour's usual half-extents,
                // (2, 4, 2), reach the storey above on these levels).
                let (found, at) = surface
                    .find_nearest(s + DVec3::Y * 0.1, DVec3::new(0.5, 1.0, 0.5))
                    .unwrap_or_else(|| panic!("{name}: no floor under {s} of polygon {p}"));
                assert!(
                    (at.y - s.y).abs() < 0.5,
                    "{name}: {s} on polygon {p}: found polygon {found} at {at}"
                );
                probes += 1;
                // Another polygon over or under this point, more than an agent's height
                // (2) away: there the right floor had to be chosen.
                stacked += (0..surface.num_polygons() as u32).any(|q| {
                    q as usize != p
                        && surface.contains_plan(q, plan(s))
                        && (surface.height_at(q, plan(s)) - s.y).abs() > 2.0
                }) as usize;
            }
        }
        println!("{name}: {probes} points located, {stacked} of them under or over another floor");
        assert!(stacked > 0, "{name}: no stacked floors to choose between");
    }
}

#[test]
fn a_t_junction_in_a_real_bake_is_named() {
    // Recast left vertex 267 of polygon 108 on the edge 259–93 of polygon 104 (same x and
    // y, z between): Detour would leave that edge unlinked. By default the surface splits
    // it (see the next test); told not to, it refuses it with the vertex and the edge.
    // (Welding exact copies only: with the default weld tolerance, 10⁻⁶ of the level's
    // size, vertex 119 is found first, 9.5 × 10⁻⁷ off the edge of polygon 70 — on it but
    // for Recast's f32 rounding.)
    let strict = SurfaceOptions {
        split_t_junctions: false,
        weld: Some(0.0),
        ..SurfaceOptions::default()
    };
    let e = surface("nav_test.r0", &strict).unwrap_err().to_string();
    assert!(e.contains("vertex 267"), "{e}");
    let e = surface(
        "nav_test.r0",
        &SurfaceOptions {
            weld: None,
            ..strict
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("vertex 119") && e.contains("polygon 70"), "{e}");
    let e = surface("nav_test.r0", &strict).unwrap_err().to_string();
    assert!(
        e.contains("vertex 267") && e.contains("polygon 104") && e.contains("T-junction"),
        "{e}"
    );
}

#[test]
fn the_t_junction_in_a_real_bake_is_split_on_request() {
    // Split, vertex 267 becomes a corner of polygon 104, between 93 and 259. Polygon 108
    // only touches that edge at 267 (its edges from 267 run to 266 and 268, off the
    // edge's line x = 1.71: a gap of up to 0.3 lies between them), so the two share a
    // point, not an edge, and stay unlinked, as the geometry says; every link is one of
    // the bake's shared edges.
    let (_, polygons, _, _) = load("nav_test.r0");
    let options = SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::default()
    };
    let surface = surface("nav_test.r0", &options).unwrap();
    assert_eq!(surface.num_polygons(), polygons.len());
    assert_eq!(surface.polygon(104).len(), polygons[104].len() + 1);
    let ring = surface.polygon(104);
    let at = ring.iter().position(|&v| v == 267).unwrap();
    let (before, after) = (
        ring[(at + ring.len() - 1) % ring.len()],
        ring[(at + 1) % ring.len()],
    );
    assert!(
        (before, after) == (93, 259) || (before, after) == (259, 93),
        "{ring:?}"
    );
    assert!(!surface.neighbors(104).flatten().any(|q| q == 108));
    // Links between polygons, as unordered pairs: exactly the bake's shared edges.
    let mut users = std::collections::HashMap::<(u32, u32), Vec<u32>>::new();
    for (p, poly) in polygons.iter().enumerate() {
        for (i, &a) in poly.iter().enumerate() {
            let b = poly[(i + 1) % poly.len()];
            users
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push(p as u32);
        }
    }
    let expected: std::collections::BTreeSet<(u32, u32)> = users
        .values()
        .filter(|u| u.len() == 2)
        .map(|u| (u[0].min(u[1]), u[0].max(u[1])))
        .collect();
    let found: std::collections::BTreeSet<(u32, u32)> = (0..surface.num_polygons() as u32)
        .flat_map(|p| {
            surface
                .neighbors(p)
                .flatten()
                .map(move |q| (p.min(q), p.max(q)))
        })
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn bakes_round_trip_through_the_writer() {
    let split = SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::default()
    };
    for name in BAKES.iter().chain(&["nav_test.r0"]) {
        let a = surface(name, &split).unwrap();
        let written = write_surface_json(&a);
        // Once written, the split T-junction is an ordinary shared corner: no option needed.
        let b = parse_surface_json(&written, "written", &SurfaceOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(a.vertices(), b.vertices(), "{name}");
        assert_eq!(a.num_polygons(), b.num_polygons(), "{name}");
        for p in 0..a.num_polygons() as u32 {
            assert_eq!(a.polygon(p), b.polygon(p), "{name} polygon {p}");
            assert_eq!(
                a.neighbors(p).collect::<Vec<_>>(),
                b.neighbors(p).collect::<Vec<_>>(),
                "{name} polygon {p}"
            );
            assert_eq!((a.area(p), a.flags(p)), (b.area(p), b.flags(p)), "{name}");
        }
        assert_eq!(write_surface_json(&b), written, "{name}");
        // The writer keeps Recast's winding: without a split, a bake's polygons come back
        // exactly as baked.
        if *name != "nav_test.r0" {
            let json: Value = serde_json::from_str(&written).unwrap();
            assert_eq!(
                json["polygons"],
                serde_json::from_str::<Value>(&text(name)).unwrap()["polygons"],
                "{name}"
            );
        }
    }
}

#[test]
fn the_reader_names_what_is_wrong() {
    let o = SurfaceOptions::default();
    let err = |text: &str| {
        parse_surface_json(text, "f.json", &o)
            .unwrap_err()
            .to_string()
    };
    let ok = r#""vertices": [[0,0,0],[1,0,0],[0,0,1]], "polygons": [[0,1,2]]"#;
    // Malformed JSON, a missing field, a bad up axis: parse errors at a line and column.
    assert!(err("{").starts_with("f.json:1:"), "{}", err("{"));
    let e = err(r#"{"up": "y", "polygons": [[0,1,2]]}"#);
    assert!(e.contains("missing field `vertices`"), "{e}");
    let e = err(&format!(r#"{{"up": "x", {ok}}}"#));
    assert!(e.contains("`y`") && e.contains("`z`"), "{e}");
    // Elements of the wrong kind name the field and the index.
    let e = err(r#"{"up": "y", "vertices": [[0,0,0],[1,0,"a"]], "polygons": []}"#);
    assert!(e.contains("`vertices[1]`"), "{e}");
    let e = err(r#"{"up": "y", "vertices": [[0,0,0]], "polygons": [[0,1,2],[0,-1,2]]}"#);
    assert!(e.contains("`polygons[1]`"), "{e}");
    let e = err(&format!(r#"{{"up": "y", {ok}, "areas": [300]}}"#));
    assert!(e.contains("`areas[0]`"), "{e}");
    let e = err(&format!(r#"{{"up": "y", {ok}, "flags": [1, 2]}}"#));
    assert!(e.contains("flags"), "{e}");
    // Geometry errors name the polygon or vertex by its index in the file.
    let e = err(r#"{"up": "y", "vertices": [[0,0,0],[1,0,0],[0,0,1]], "polygons": [[0,1,5]]}"#);
    assert!(e.contains("polygon 0 uses vertex 5"), "{e}");
    // A huge bad value gives a bounded message.
    let junk = format!(r#"{{"up": "{}", {ok}}}"#, "q".repeat(100_000));
    assert!(err(&junk).len() < 1000);
    // Unknown fields and `bake` are ignored; `detail` is read (and checked).
    let detail = r#""detail": {"meshes": [[0,3,0,1]], "vertices": [[0,0,0],[1,0,0],[0,0,1]], "triangles": [[0,1,2,0]]}"#;
    let extra = format!(r#"{{"up": "y", {ok}, {detail}, "bake": {{}}, "x": 1}}"#);
    assert!(parse_surface_json(&extra, "f.json", &o).is_ok());
    let e = err(&format!(
        r#"{{"up": "y", {ok}, "detail": {{"meshes": []}}}}"#
    ));
    assert!(e.contains("missing field `vertices`"), "{e}");
}

/// The pieces of a bake by its shared edges alone (union–find over the raw polygons), as
/// the number of pieces.
fn pieces_by_shared_edges(polygons: &[Vec<u32>]) -> usize {
    let mut parent: Vec<usize> = (0..polygons.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut owner = std::collections::HashMap::new();
    for (p, poly) in polygons.iter().enumerate() {
        for (i, &a) in poly.iter().enumerate() {
            let b = poly[(i + 1) % poly.len()];
            if let Some(&q) = owner.get(&(a.min(b), a.max(b))) {
                let (rp, rq) = (root(&mut parent, p), root(&mut parent, q));
                parent[rp] = rq;
            } else {
                owner.insert((a.min(b), a.max(b)), p);
            }
        }
    }
    (0..polygons.len())
        .filter(|&p| root(&mut parent, p) == p)
        .count()
}

#[test]
fn the_bakes_fall_into_the_pieces_their_shared_edges_make() {
    // Detour reaches a goal on these bakes exactly when both ends lie in one piece
    // (docs/detour-peer.md): dungeon has 4, nav_test 17.
    for (name, expected) in [("dungeon", 4), ("nav_test", 17)] {
        let s = surface(name, &SurfaceOptions::default()).unwrap();
        let pieces = s.pieces();
        let count = pieces.iter().max().map_or(0, |&m| m as usize + 1);
        let (_, polygons, _, _) = load(name);
        assert_eq!(count, pieces_by_shared_edges(&polygons), "{name}");
        assert_eq!(count, expected, "{name}");
        // Neighbours always share a piece.
        for p in 0..s.num_polygons() as u32 {
            for q in s.neighbors(p).flatten() {
                assert_eq!(pieces[p as usize], pieces[q as usize], "{name}: {p}–{q}");
            }
        }
    }
}
