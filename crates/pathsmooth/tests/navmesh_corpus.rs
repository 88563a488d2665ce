//! Navmeshes that engines and other tools wrote, never made by this project
//! (`tests/data/corpus/`: Godot scenes, Unity triangulation exports, Recast and `rerecast`
//! dumps, Detour binaries, polyanya meshes; sources and licences in its SOURCES.md, one
//! line per file in MANIFEST.tsv), each loaded with the default options of
//! [`load_surface`], and random queries on it (fixed seeds) judged by the independent
//! oracle of `common/surface_oracle.rs`:
//!
//! - every file loads, and its input polygon count is the one counted by hand;
//! - at radius 0, the query's path starts and ends exactly (plan view) at the random
//!   points, which lie inside polygons at their floor's height; every point lies in the
//!   polygon it names at its floor's height; every segment walks the surface; and the
//!   plan-view length equals the oracle's visibility-graph optimum;
//! - with a radius, the planner's path keeps it from every wall of its floor, or the
//!   query is refused with an error that says why;
//! - points in different pieces of the surface get an error naming both pieces and both
//!   points in 3D;
//! - a plan-view point lands on the one floor the oracle finds under it, or is refused
//!   naming as many floors; a 2D plan is the plan view of the 3D one between those points;
//! - on a mesh of one floor with no off-mesh links, where a plan searches the whole plan
//!   mesh alone, a 2D plan answers as the 3D plan at radius 0 and with a radius, paths
//!   and errors alike, and their radius-0 searches are the oracle's shortest;
//! - the navmesh JSON the library writes reads back to the same surface.
#![cfg(feature = "serde")]

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;

use common::plane::{clip_convex, ring_area};
use common::rng::Rng;
use common::surface_oracle::SurfaceOracle;
use common::surface_oracle::{
    check_on_surface, pairs, pairs_by_polygon, plan_areas, plan_length, plan_rings, random_point,
};
use glam::{DVec2, DVec3};
use pathsmooth::navmesh::NavMesh;
use pathsmooth::navmesh::{
    load_surface, load_surface_with_detail, parse_surface_json, write_surface_json,
};
use pathsmooth::navmesh::{
    LoadReport, PointFlags, PolyId, Surface, SurfaceMesh, SurfaceOptions, SurfaceQuery, UpAxis,
};
use pathsmooth::{Error, Pipeline, SurfaceWorld, SurfaceWorldQuery, World};

/// One line of MANIFEST.tsv.
struct Entry {
    file: String,
    format: String,
    up: UpAxis,
    polygons: usize,
}

/// The corpus folder: the repository's, or `CORPUS_DIR` (a folder laid out the same way,
/// with its own MANIFEST.tsv: files to try that the repository may not hold).
fn corpus() -> PathBuf {
    match std::env::var_os("CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus"),
    }
}

/// The navmesh files of the manifest (not the scenario files, nor the Lua table, nor the
/// detail meshes that come beside a poly mesh); with `CORPUS_FILTER` set, only the files
/// whose name contains it.
fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(corpus().join("MANIFEST.tsv")).unwrap();
    let filter = std::env::var("CORPUS_FILTER").unwrap_or_default();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Entry {
                file: f[0].to_string(),
                format: f[1].to_string(),
                up: if f[2] == "z" { UpAxis::Z } else { UpAxis::Y },
                polygons: f[3].parse().unwrap(),
            }
        })
        .filter(|e| !matches!(e.format.as_str(), "polyanya-scen" | "other"))
        .filter(|e| !e.file.contains("detail") && e.file.contains(&filter))
        .collect()
}

/// The file loaded as a user would: the library's defaults, the manifest's up axis for the
/// formats that do not name theirs; a poly mesh dump with its detail mesh beside it
/// (`….poly_mesh.json` and `….poly_mesh_detail.json` or `….detail_mesh.json`) with it.
fn load(e: &Entry) -> Surface {
    let path = corpus().join(&e.file);
    let options = SurfaceOptions::new(e.up);
    let detail = ["poly_mesh_detail", "detail_mesh"]
        .map(|d| corpus().join(e.file.replace("poly_mesh", d)))
        .into_iter()
        .find(|d| e.file.contains("poly_mesh") && d.exists());
    match detail {
        Some(d) => load_surface_with_detail(&path, d, &options),
        None => load_surface(&path, &options),
    }
    .unwrap_or_else(|err| panic!("{}: {err}", e.file))
}

/// A seed of the file's own (its name's FNV-1a hash), so a file gets the same queries
/// whatever else the manifest or `CORPUS_FILTER` holds.
fn seed(e: &Entry, salt: u64) -> u64 {
    e.file
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64 ^ salt, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// How many random queries per file: fewer on the largest meshes (the oracle's
/// visibility graph grows with the square of their wall corners).
fn queries(s: &Surface) -> usize {
    let slow = std::env::var_os("PATHSMOOTH_SLOW").is_some();
    match (s.num_polygons(), slow) {
        (0..2000, false) => 200,
        (0..2000, true) => 1000,
        (_, false) => 20,
        (_, true) => 100,
    }
}

#[test]
fn every_file_loads_with_the_defaults() {
    for e in manifest() {
        let s = load(&e);
        let r = s.load_report();
        println!(
            "{:<48} {:>6} polygons in, {:>6} kept, {} pieces: {r}",
            e.file,
            r.input_polygons,
            s.num_polygons(),
            s.pieces().iter().max().map_or(0, |m| m + 1)
        );
        assert_eq!(r.input_polygons, e.polygons, "{}", e.file);
        assert_eq!(
            s.num_polygons() + r.degenerate.len() + r.duplicates.len(),
            r.input_polygons,
            "{}: every input polygon is kept or counted as dropped",
            e.file
        );
    }
}

#[test]
fn radius_zero_queries_are_the_oracles_shortest_paths() {
    for e in manifest().iter() {
        let s = load(e);
        let n = queries(&s);
        shortest_paths(e, &s, &pairs(&s, seed(e, 1), n));
    }
}

/// The same with ends in polygons drawn uniformly, small ones as often as large: the npm
/// package's test, which draws its ends so, found two bugs on engine bakes that the
/// area-weighted ends above had never stood near (the test below and
/// `navmesh_detour_links.rs`).
#[test]
fn queries_between_small_polygons_are_the_oracles_shortest_paths() {
    for e in manifest().iter() {
        let s = load(e);
        let n = queries(&s);
        shortest_paths(e, &s, &pairs_by_polygon(&s, seed(e, 7), n));
    }
}

/// Ends the npm package's test drew on Godot's Sponza bake (a random point in each of two
/// random polygons, on two pieces): the search of the start's piece rotated round one
/// vertex, where five polygons of two floors wind round it twice in plan view, for ever
/// (7.6 GB in a minute natively, a trap in WebAssembly). Now it ends, and says the pieces
/// are not joined. Run on a thread, so that a search that does not end fails the test.
#[test]
fn a_search_round_a_vertex_that_two_floors_wind_round_ends() {
    let e = manifest()
        .into_iter()
        .find(|e| e.file.ends_with("godotengine__navmesh_sponza.tres"))
        .expect("the Sponza bake is in the manifest");
    let s = load(&e);
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let (start, goal) = (
        DVec3::new(-6.231396466449385, 8.959729999999999, 4.8167510033305145),
        DVec3::new(3.8044371323505874, 2.95973, -3.070596468060538),
    );
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut query = SurfaceQuery::new();
        let found = query.find_path(&mesh, start, goal, 0.0).map(<[_]>::len);
        let _ = done.send(found);
    });
    let found = result
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the search ends within a minute");
    let Err(Error::UnreachableOnSurface {
        start_piece,
        goal_piece,
        start_polygon,
        goal_polygon,
        ..
    }) = found
    else {
        panic!("{found:?}: the ends lie on two pieces");
    };
    // The pieces as the surface numbers them, read again here.
    let pieces = s.pieces();
    assert_ne!(start_piece, goal_piece);
    assert_eq!(pieces[start_polygon as usize], start_piece);
    assert_eq!(pieces[goal_polygon as usize], goal_piece);
}

/// Each pair's radius-0 path: exactly at its ends, on the surface, and the oracle's
/// shortest (to 1e-9).
fn shortest_paths(e: &Entry, s: &Surface, pairs: &[[(PolyId, DVec3); 2]]) {
    let oracle = SurfaceOracle::new(s);
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let mut query = SurfaceQuery::new();
    let up = s.up();
    let mut worst = 0.0f64;
    for (q, &[a, b]) in pairs.iter().enumerate() {
        let path = query
            .find_path(&mesh, a.1, b.1, 0.0)
            .unwrap_or_else(|err| panic!("{} query {q} {} → {}: {err}", e.file, a.1, b.1))
            .to_vec();
        let (first, last) = (path[0], *path.last().unwrap());
        // On the mesh, so never moved: exactly where asked in plan view, on a floor
        // within the climb.
        assert_eq!(
            up.plan(first.position),
            up.plan(a.1),
            "{} query {q}",
            e.file
        );
        assert_eq!(up.plan(last.position), up.plan(b.1), "{} query {q}", e.file);
        for (end, want) in [(first, a.1), (last, b.1)] {
            let dh = (up.height(end.position) - up.height(want)).abs();
            assert!(
                dh <= s.climb(),
                "{} query {q}: moved {dh} in height",
                e.file
            );
        }
        check_on_surface(&oracle, s, &path, 0.0);
        let length = plan_length(s, &path);
        let bound = length * (1.0 + 1e-9) + 1e-9;
        let best = oracle
            .shortest_within(
                (first.polygon, up.plan(a.1)),
                (last.polygon, up.plan(b.1)),
                bound,
            )
            .unwrap_or_else(|| {
                panic!(
                    "{} query {q}: the oracle finds no path as short as {length}",
                    e.file
                )
            });
        let excess = (length - best) / best.max(1e-12);
        assert!(
            excess <= 1e-9,
            "{} query {q} {} → {}: length {length}, the shortest is {best}",
            e.file,
            a.1,
            b.1
        );
        worst = worst.max(excess);
    }
    println!(
        "{:<48} {} queries, worst excess {worst:.1e}",
        e.file,
        pairs.len()
    );
}

#[test]
fn radius_paths_keep_the_radius_or_say_why() {
    for e in manifest().iter() {
        let s = load(e);
        let oracle = SurfaceOracle::new(&s);
        let mesh = SurfaceMesh::new(s.clone()).unwrap();
        let radius = 0.2;
        let mut planner = Pipeline::new(SurfaceWorld::new(mesh.clone()), radius).unwrap();
        let (mut ok, mut refused, mut unsure) = (0, 0, 0);
        for (q, [a, b]) in pairs(&s, seed(e, 2), queries(&s)).into_iter().enumerate() {
            match planner.plan_surface(a.1, b.1) {
                Ok(path) => {
                    let path = path.to_vec();
                    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        check_on_surface(&oracle, &s, &path, radius)
                    }));
                    if checked.is_err() {
                        panic!("{} query {q} {} → {} (radius {radius})", e.file, a.1, b.1);
                    }
                    ok += 1;
                }
                Err(
                    err @ (Error::TooClose { .. }
                    | Error::ChannelTooNarrow { .. }
                    | Error::UnreachableOnSurface { .. }),
                ) => {
                    assert!(!err.to_string().is_empty());
                    refused += 1;
                }
                // The planner's own final check caught a path it could not make valid (the
                // funnel with the radius too near a wall where a corner is narrower than
                // the portals show; a path over or under itself, which no flat sheet
                // holds, too near a wall): refused, saying where and why.
                Err(err @ Error::InvalidResult { .. }) => {
                    assert!(err.to_string().contains("wall"), "{err}");
                    unsure += 1;
                }
                Err(err) => panic!("{} query {q} {} → {}: {err}", e.file, a.1, b.1),
            }
        }
        println!(
            "{:<48} radius {radius}: {ok} paths, {refused} refused, {unsure} caught by the final check",
            e.file
        );
    }
}

#[test]
fn points_on_different_pieces_are_named_in_3d() {
    for e in manifest().iter() {
        let s = load(e);
        let pieces = s.pieces();
        if pieces.iter().all(|&p| p == 0) {
            continue;
        }
        let mesh = SurfaceMesh::new(s.clone()).unwrap();
        let mut query = SurfaceQuery::new();
        let areas = plan_areas(&s);
        let mut rng = Rng::new(seed(e, 3));
        let mut tried = 0;
        while tried < 5 {
            let (pa, a) = random_point(&s, &mut rng, &areas);
            let (pb, b) = random_point(&s, &mut rng, &areas);
            if pieces[pa as usize] == pieces[pb as usize] || !s.links().is_empty() {
                if !s.links().is_empty() {
                    break;
                }
                continue;
            }
            tried += 1;
            match query.find_path(&mesh, a, b, 0.0) {
                Err(Error::UnreachableOnSurface {
                    start,
                    goal,
                    start_piece,
                    goal_piece,
                    ..
                }) => {
                    let up = s.up();
                    assert_eq!(up.plan(start.into()), up.plan(a), "{}", e.file);
                    assert_eq!(up.plan(goal.into()), up.plan(b), "{}", e.file);
                    assert_eq!(
                        (start_piece, goal_piece),
                        (pieces[pa as usize], pieces[pb as usize]),
                        "{}",
                        e.file
                    );
                }
                other => panic!("{}: {other:?}", e.file),
            }
        }
    }
}

/// The heights of the floors under plan-view `p`, by the oracle: the polygons holding it
/// (its own closed point-in-polygon test), each at its floor's height there, the lowest of
/// each cluster whose heights lie within `climb` of the one below.
fn floors_over(oracle: &SurfaceOracle, s: &Surface, p: DVec2, climb: f64) -> Vec<f64> {
    let mut heights: Vec<f64> = (0..s.num_polygons() as PolyId)
        .filter(|&q| oracle.inside(q, p))
        .map(|q| s.floor_height(q, p))
        .collect();
    heights.sort_by(f64::total_cmp);
    let mut floors: Vec<f64> = Vec::new();
    for (i, &h) in heights.iter().enumerate() {
        if i == 0 || h - heights[i - 1] > climb {
            floors.push(h);
        }
    }
    floors
}

#[test]
fn plan_view_points_land_on_the_one_floor_under_them_or_are_refused() {
    // A random point on the surface seen in plan view: `floor_point` puts it on the one
    // floor the oracle finds under it, at that floor's lowest height, or refuses it naming
    // as many floors as the oracle counts; a 2D plan between two such points is the plan
    // view of the 3D plan between their floor points.
    for e in manifest().iter() {
        let s = load(e);
        let oracle = SurfaceOracle::new(&s);
        let mesh = std::sync::Arc::new(SurfaceMesh::new(s.clone()).unwrap());
        let world = SurfaceWorld::new(std::sync::Arc::clone(&mesh));
        let mut query = SurfaceWorldQuery::default();
        let climb = query.surface().climb(&s);
        let up = s.up();
        let mut pipeline = Pipeline::new(SurfaceWorld::new(mesh), 0.0).unwrap();
        let (mut placed, mut refused, mut planned) = (0, 0, 0);
        for (q, [a, b]) in pairs(&s, seed(e, 4), queries(&s) / 4)
            .into_iter()
            .enumerate()
        {
            let (a2, b2) = (up.plan(a.1), up.plan(b.1));
            let mut on_floor = |p: DVec2| {
                let floors = floors_over(&oracle, &s, p, climb);
                match world.floor_point(p, &mut query) {
                    Ok(got) => {
                        assert_eq!(floors.len(), 1, "{} query {q}: {p} placed", e.file);
                        assert_eq!((up.plan(got), up.height(got)), (p, floors[0]), "{}", e.file);
                        placed += 1;
                        Some(got)
                    }
                    Err(Error::OverSeveralFloors { floors: n, .. }) => {
                        assert_eq!(n, floors.len(), "{} query {q}: {p}", e.file);
                        refused += 1;
                        None
                    }
                    Err(err) => panic!("{} query {q}: {p} on the surface: {err}", e.file),
                }
            };
            let (Some(a3), Some(b3)) = (on_floor(a2), on_floor(b2)) else {
                continue;
            };
            // Only walks with no link have a plan view (a link's route is 3D's alone).
            let Ok(three) = pipeline.plan_surface(a3, b3).map(|p| p.to_vec()) else {
                continue;
            };
            if three
                .iter()
                .any(|p| p.flags.contains(PointFlags::LINK_START))
            {
                continue;
            }
            match pipeline.plan(a2, b2) {
                Ok(flat) => {
                    let plan: Vec<DVec2> = three.iter().map(|p| up.plan(p.position)).collect();
                    assert_eq!(flat, plan, "{} query {q}", e.file);
                    planned += 1;
                }
                // A path over or under itself has no one-floor sheet: only 3D holds it.
                Err(Error::InvalidResult { .. }) => {}
                Err(err) => panic!("{} query {q}: 2D plan: {err}", e.file),
            }
        }
        println!(
            "{:<48} {placed} points placed, {refused} over several floors, {planned} 2D plans",
            e.file
        );
    }
}

/// Every file read flat (`NavMesh::from_surface`): where no two polygons overlap in plan
/// view (the oracle of the test below: clipped overlap under a billionth of the smaller
/// polygon) and no two vertices of different heights meet at one plan-view point, the
/// flat mesh covers exactly the polygons' ground (its triangles' areas sum to theirs, each
/// triangle's centroid lies inside the polygon it is tagged with) and its radius-0 paths
/// between random points are the oracle's shortest; elsewhere it is refused, saying the
/// surface is not one floor.
#[test]
fn one_floor_files_read_flat_cover_their_ground_and_plan_the_oracles_shortest_paths() {
    let (mut flat, mut refused) = (0, 0);
    for e in manifest().iter() {
        let s = load(e);
        let rings = plan_rings(&s);
        let overlap = largest_overlap(&rings);
        let mut at: HashMap<(u64, u64), f64> = HashMap::new();
        let mut twins = false;
        for v in (0..s.num_polygons() as PolyId).flat_map(|p| s.polygon(p).iter().copied()) {
            let x = s.vertices()[v as usize];
            let key = s.up().plan(x).to_array().map(|c| (c + 0.0).to_bits());
            let h = *at.entry((key[0], key[1])).or_insert(s.up().height(x));
            twins |= h != s.up().height(x);
        }
        let mesh = NavMesh::from_surface(&s);
        println!(
            "{:<48} flat: {} (largest overlap {overlap:.2e}, plan twins {twins})",
            e.file,
            mesh.as_ref()
                .map_or_else(|e| e.to_string(), |_| "read".into())
        );
        if (1e-9..1e-6).contains(&overlap) {
            continue; // too close to call
        }
        let one_floor = overlap < 1e-9 && !twins;
        let Ok(mesh) = mesh else {
            let err = mesh.unwrap_err().to_string();
            assert!(!one_floor, "{}: one floor, refused: {err}", e.file);
            assert!(
                err.contains("not one floor in plan view"),
                "{}: {err}",
                e.file
            );
            refused += 1;
            continue;
        };
        assert!(
            one_floor,
            "{}: read flat over {overlap:e} of overlap",
            e.file
        );
        flat += 1;
        let oracle = SurfaceOracle::new(&s);
        let mut covered = 0.0;
        for t in 0..mesh.num_triangles() {
            let [a, b, c] = mesh.triangle(t);
            covered += (b - a).perp_dot(c - a) / 2.0;
            let p = mesh.polygon_of(t);
            let inside = oracle.inside(p, (a + b + c) / 3.0);
            assert!(inside, "{}: triangle {t} outside its polygon {p}", e.file);
            assert_eq!(
                mesh.area_of(t),
                s.area(p),
                "{}: triangle {t}'s area",
                e.file
            );
        }
        let ground: f64 = rings.iter().map(|r| ring_area(r).abs()).sum();
        assert!(
            (covered - ground).abs() <= 1e-9 * ground,
            "{}: the flat mesh covers {covered}, the polygons {ground}",
            e.file
        );
        let world = SurfaceWorld::from_navmesh(&mesh).unwrap();
        for (q, [a, b]) in pairs(&s, seed(e, 11), queries(&s)).into_iter().enumerate() {
            let (pa, pb) = (s.up().plan(a.1), s.up().plan(b.1));
            let path = match world.find_path(pa, pb, 0.0) {
                Ok(path) => path,
                // Points on pieces that no edge joins: the oracle finds no way either.
                Err(Error::Unreachable { .. }) => {
                    assert_eq!(
                        oracle.shortest((a.0, pa), (b.0, pb)),
                        None,
                        "{} query {q}",
                        e.file
                    );
                    continue;
                }
                Err(err) => panic!("{} query {q} {pa} → {pb}: {err}", e.file),
            };
            assert_eq!(
                (path[0], *path.last().unwrap()),
                (pa, pb),
                "{} query {q}",
                e.file
            );
            let length: f64 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
            let best = oracle
                .shortest_within((a.0, pa), (b.0, pb), length * (1.0 + 1e-9) + 1e-9)
                .unwrap_or_else(|| panic!("{} query {q}: no path as short as {length}", e.file));
            assert!(
                length <= best * (1.0 + 1e-9) + 1e-12,
                "{} query {q} {pa} → {pb}: length {length}, the shortest is {best}",
                e.file
            );
        }
    }
    println!("{flat} files read flat, {refused} refused");
    assert!(flat >= 10, "only {flat} corpus meshes read flat");
}

/// Each plan-view ring's bounding box.
fn ring_boxes(rings: &[Vec<DVec2>]) -> Vec<(DVec2, DVec2)> {
    rings
        .iter()
        .map(|r| {
            r.iter()
                .fold((r[0], r[0]), |(lo, hi), &v| (lo.min(v), hi.max(v)))
        })
        .collect()
}

/// The largest overlap of two of the convex plan-view `rings`, as a fraction of the
/// smaller one's area (pairs whose boxes do not meet are not clipped).
fn largest_overlap(rings: &[Vec<DVec2>]) -> f64 {
    let boxes = ring_boxes(rings);
    let mut worst: f64 = 0.0;
    for p in 0..rings.len() {
        for q in p + 1..rings.len() {
            let ((a, b), (c, d)) = (boxes[p], boxes[q]);
            if a.cmplt(d).all() && c.cmplt(b).all() {
                let small = ring_area(&rings[p]).abs().min(ring_area(&rings[q]).abs());
                worst = worst.max(overlap_area(&rings[p], &rings[q]) / small);
            }
        }
    }
    worst
}

/// The area of the intersection of convex plan-view rings `a` and `b` (either
/// orientation): `a` clipped by each edge of `b` (Sutherland–Hodgman), in floating point.
fn overlap_area(a: &[DVec2], b: &[DVec2]) -> f64 {
    let ccw = |r: &[DVec2]| {
        let mut r = r.to_vec();
        if ring_area(&r) < 0.0 {
            r.reverse();
        }
        r
    };
    // Fewer than 3 corners left (no overlap) have area 0.
    ring_area(&clip_convex(&ccw(a), &ccw(b)))
}

#[test]
fn one_floor_meshes_are_found_and_answer_as_their_own_sheet_before_any_plan() {
    // The oracle: a surface is one floor when no two of its polygons overlap in plan view
    // by more than a billionth of the smaller one's area (clipped in floating point;
    // overlaps between that and a millionth are too close to call and are not judged).
    // On one floor the world holds its sheet from the start: its clearance at a random
    // point is the oracle's distance to the nearest wall of the point's floor, and it
    // has a clearance of `need` (the crowd's local question) exactly when that is at
    // least `need`.
    let mut one_floor = 0;
    for e in manifest().iter() {
        let s = load(e);
        let rings = plan_rings(&s);
        let boxes = ring_boxes(&rings);
        let worst = largest_overlap(&rings);
        let mesh = SurfaceMesh::new(s.clone()).unwrap();
        let found = mesh.is_one_floor();
        println!(
            "{:<48} one floor: {found} (largest overlap {worst:.2e})",
            e.file
        );
        if (1e-9..1e-6).contains(&worst) {
            continue;
        }
        assert_eq!(found, worst < 1e-9, "{}: largest overlap {worst:e}", e.file);
        let world = SurfaceWorld::new(mesh);
        assert_eq!(world.sheet().is_some(), found, "{}", e.file);
        if !found {
            continue;
        }
        one_floor += 1;
        let oracle = SurfaceOracle::new(&s);
        let reach = boxes
            .iter()
            .fold(0.0f64, |m, &(lo, hi)| m.max((hi - lo).length()))
            * 1e3;
        for (q, [a, _]) in pairs(&s, seed(e, 5), queries(&s) / 4)
            .into_iter()
            .enumerate()
        {
            let p = s.up().plan(a.1);
            let want = oracle.segment_clearance(a.0, p, p, a.0, reach).unwrap();
            let got = pathsmooth::World::clearance(&world, p);
            assert!(
                (got - want).abs() <= 1e-9 * (1.0 + want),
                "{} point {q} {p}: {got} != {want}",
                e.file
            );
            let has = |need: f64| pathsmooth::World::has_clearance(&world, p, need);
            let (below, above) = (want * (1.0 - 1e-6), want * (1.0 + 1e-6) + 1e-9);
            assert!(
                has(below) && !has(above),
                "{} point {q} {p}: {want}",
                e.file
            );
            assert!(has(got) && !has(got.next_up()), "{} point {q} {p}", e.file);
            assert!(
                has(0.0) && has(-1.0) && !has(f64::NAN),
                "{} point {q}",
                e.file
            );
        }
        // Off the mesh there is no room at all.
        let outside = world.bounds().max + 1.0;
        assert!(
            !pathsmooth::World::has_clearance(&world, outside, 1e-9),
            "{}",
            e.file
        );
    }
    assert!(
        one_floor >= 10,
        "only {one_floor} corpus meshes of one floor"
    );
}

#[test]
fn one_floor_plans_in_plan_view_search_once_and_answer_as_the_3d_plans() {
    // A plan on a mesh of one floor with no off-mesh links is answered by the search of
    // the whole plan mesh alone, 2D ends located on the floor under them, 3D ends by the
    // layered query (the layered search runs only when that fails, for its error).
    // Between random points on the surface (fixed seeds), at radius 0 and 0.2 with the
    // planner's default steps, the two return the same: the same path in plan view, or
    // the same error. With no steps, both radius-0 paths are the oracle's shortest (the
    // radius's clearance is `radius_paths_keep_the_radius_or_say_why`'s to judge).
    let mut judged = 0;
    for e in manifest().iter() {
        let s = load(e);
        let mesh = std::sync::Arc::new(SurfaceMesh::new(s.clone()).unwrap());
        if !mesh.is_one_floor() || !s.links().is_empty() {
            continue;
        }
        judged += 1;
        let oracle = SurfaceOracle::new(&s);
        let up = s.up();
        let planner = |radius| Pipeline::new(SurfaceWorld::new(mesh.clone()), radius).unwrap();
        let mut bare = planner(0.0).with_steps([]);
        let (mut paths, mut errors, mut worst) = (0, 0, 0.0f64);
        for radius in [0.0, 0.2] {
            let (mut two, mut three) = (planner(radius), planner(radius));
            for (q, [a, b]) in pairs(&s, seed(e, 6), queries(&s) / 2)
                .into_iter()
                .enumerate()
            {
                let (a2, b2) = (up.plan(a.1), up.plan(b.1));
                let flat = two.plan(a2, b2);
                let lifted = three
                    .plan_surface(a.1, b.1)
                    .map(|p| p.iter().map(|p| up.plan(p.position)).collect::<Vec<_>>());
                assert_eq!(flat, lifted, "{} query {q} radius {radius}", e.file);
                match flat {
                    Ok(_) => paths += 1,
                    Err(_) => errors += 1,
                }
                if radius > 0.0 {
                    continue;
                }
                let path = bare
                    .plan(a2, b2)
                    .unwrap_or_else(|err| panic!("{} query {q} {a2} → {b2}: {err}", e.file));
                let length: f64 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
                let lifted = bare
                    .plan_surface(a.1, b.1)
                    .unwrap_or_else(|err| panic!("{} query {q} in 3D: {err}", e.file));
                assert_eq!(plan_length(&s, lifted), length, "{} query {q}", e.file);
                let best = oracle
                    .shortest_within((a.0, a2), (b.0, b2), length * (1.0 + 1e-9) + 1e-9)
                    .unwrap_or_else(|| {
                        panic!("{} query {q}: no path as short as {length}", e.file)
                    });
                let excess = (length - best) / best.max(1e-12);
                assert!(excess <= 1e-9, "{} query {q}: {length} > {best}", e.file);
                worst = worst.max(excess);
            }
        }
        println!(
            "{:<48} {paths} paths, {errors} errors as the 3D plans'; radius 0 worst excess {worst:.1e}",
            e.file
        );
    }
    assert!(
        judged >= 10,
        "only {judged} meshes of one floor without links"
    );
}

#[test]
fn the_navmesh_json_written_reads_back_the_same() {
    for e in manifest() {
        let a = load(&e);
        let written = write_surface_json(&a);
        let b = parse_surface_json(&written, "written", &SurfaceOptions::default())
            .unwrap_or_else(|err| panic!("{}: {err}", e.file));
        // Written after the repairs: nothing left to repair; what is in the polygons and
        // the detail mesh as written (edges no two polygons can share, bent polygons,
        // detail triangles with no plan-view area, which the writer keeps as given) is
        // noticed again.
        let (ra, rb) = (a.load_report(), b.load_report());
        assert_eq!(
            (rb.unjoined_edges, rb.non_planar, rb.detail_slivers),
            (ra.unjoined_edges, ra.non_planar, ra.detail_slivers),
            "{}: {rb}",
            e.file
        );
        let repaired = LoadReport {
            unjoined_edges: 0,
            unjoined_example: None,
            non_planar: 0,
            worst_non_planar: None,
            detail_slivers: 0,
            ..rb.clone()
        };
        assert!(repaired.is_clean(), "{}: {rb}", e.file);
        assert_eq!(a.vertices(), b.vertices(), "{}", e.file);
        assert_eq!(a.num_polygons(), b.num_polygons(), "{}", e.file);
        for p in 0..a.num_polygons() as PolyId {
            assert_eq!(a.polygon(p), b.polygon(p), "{} polygon {p}", e.file);
            assert!(a.neighbors(p).eq(b.neighbors(p)), "{} polygon {p}", e.file);
            assert_eq!(
                (a.area(p), a.flags(p), a.polygon_ref(p)),
                (b.area(p), b.flags(p), b.polygon_ref(p)),
                "{} polygon {p}",
                e.file
            );
        }
        assert_eq!(a.detail(), b.detail(), "{}", e.file);
        assert_eq!(a.links(), b.links(), "{}", e.file);
        assert_eq!(a.bake_agent(), b.bake_agent(), "{}", e.file);
    }
}

/// Moves along the surface (`SurfaceQuery::move_along_surface`, Detour's
/// `moveAlongSurface`) from random points of every file by random steps (up to twice a
/// random polygon's size, in a random direction), judged by the oracle:
///
/// - where the oracle's straight walk from the start reaches the target across shared
///   edges, the move ends exactly at the target (plan view), on a polygon that holds it, at
///   the height of the floor the walk ends on (within the climb: floors over one another
///   are an agent's height apart, so a move that jumped floors fails);
/// - where a wall cuts the walk, the move ends at least as near the target as the farthest
///   of 32 points along the segment that the straight walk reaches;
/// - every move ends on a polygon it visited, holding the point, at its floor's height,
///   never farther from the target than the start; the visited polygons start with the
///   start's and hold no repeat.
///
/// Some targets lie where floors stand over one another (counted, and asked to be).
#[test]
fn moves_along_the_surface_keep_their_floor_and_go_as_far_as_a_straight_walk() {
    let (mut walked, mut slid, mut under_another_floor) = (0, 0, 0);
    for e in manifest() {
        let s = load(&e);
        let oracle = SurfaceOracle::new(&s);
        let mesh = SurfaceMesh::new(s.clone()).unwrap();
        let areas = plan_areas(&s);
        let climb = s.climb();
        let up = s.up();
        let mut rng = Rng::new(seed(&e, 0x6d6f_7665));
        let mut query = SurfaceQuery::new();
        for k in 0..queries(&s) {
            let (p, start) = random_point(&s, &mut rng, &areas);
            let (lo, hi) = s.plan_bounds(random_point(&s, &mut rng, &areas).0);
            let angle = rng.range(0.0, std::f64::consts::TAU);
            let step = DVec2::from_angle(angle) * (hi - lo).length() * rng.range(0.0, 2.0);
            let from = up.plan(start);
            let to = from + step;
            let target = up.join(to, up.height(start));
            let what = format!("{} move {k}: from {start} in {p} to {to}", e.file);
            let (q, at) = query
                .move_along_surface(&mesh, (p, start), target)
                .unwrap_or_else(|err| panic!("{what}: {err}"));
            let plan = up.plan(at);
            let visited = query.visited();
            assert_eq!(visited[0], p, "{what}");
            assert!(visited.contains(&q), "{what}: ends on {q}, not visited");
            let mut unique = visited.to_vec();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(
                unique.len(),
                visited.len(),
                "{what}: a polygon visited twice"
            );
            assert!(
                oracle.inside(q, plan) || s.contains_plan(q, plan),
                "{what}: {plan} not in {q}"
            );
            assert_eq!(up.height(at), s.floor_height(q, plan), "{what}");
            let slack = 1e-9 * (1.0 + from.abs().max_element() + to.abs().max_element());
            assert!(
                plan.distance(to) <= from.distance(to) + slack,
                "{what}: moved away"
            );
            match oracle.walk(p, from, to) {
                Some(crossed) => {
                    walked += 1;
                    assert_eq!(plan, to, "{what}: a straight walk reaches the target");
                    let last = *crossed.last().unwrap();
                    let floor = s.floor_height(last, to);
                    assert!(
                        (up.height(at) - floor).abs() <= climb,
                        "{what}: at height {} on {q}, the walk's floor {floor} on {last}",
                        up.height(at)
                    );
                    if floors_over(&oracle, &s, to, climb).len() > 1 {
                        under_another_floor += 1;
                    }
                }
                None => {
                    slid += 1;
                    let reached = (1..=32)
                        .map(|i| from.lerp(to, f64::from(i) / 32.0))
                        .filter(|&m| oracle.walk(p, from, m).is_some())
                        .map(|m| m.distance(to))
                        .fold(from.distance(to), f64::min);
                    assert!(
                        plan.distance(to) <= reached + slack,
                        "{what}: ends {} from the target, a straight walk {reached}",
                        plan.distance(to)
                    );
                }
            }
        }
    }
    eprintln!("moves: {walked} walked, {slid} slid, {under_another_floor} under another floor");
    assert!(
        walked > 1000 && slid > 100 && under_another_floor > 20,
        "{walked} {slid} {under_another_floor}"
    );
}
