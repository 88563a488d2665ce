//! End-to-end tests of the `pathsmooth` binary on layered navmeshes: `plan` with 3D
//! points on a Recast bake, its errors, `bake`, `plan --level` and `bench --navmesh`.

use std::path::PathBuf;

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::parse_surface_json;
use pathsmooth::navmesh::{SurfaceMesh, SurfaceOptions, SurfaceQuery, UpAxis};

use crate::support;
use support::{assert_clean_failure, assert_success, bin, run};

fn tmp_dir(name: &str) -> PathBuf {
    support::tmp_dir("layered", name)
}

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

fn dungeon() -> String {
    repo("crates/pathsmooth/tests/data/navmesh/dungeon.navmesh.json")
        .to_string_lossy()
        .into_owned()
}

/// A point on the dungeon's ground floor and one on its top floor, both in its largest
/// connected piece (polygon centroids, rounded).
const LOW: &str = "-12.05,0.48,0.62";
const HIGH: &str = "18.7,20.05,-80.07";

fn xyz(s: &str) -> DVec3 {
    let v: Vec<f64> = s.split(',').map(|t| t.parse().unwrap()).collect();
    DVec3::new(v[0], v[1], v[2])
}

/// The ends as the library snaps them onto the dungeon's floors.
fn snapped(a: &str, b: &str) -> (DVec3, DVec3) {
    let text = std::fs::read_to_string(dungeon()).unwrap();
    let options = SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::new(UpAxis::Y)
    };
    let mesh = SurfaceMesh::new(parse_surface_json(&text, "dungeon", &options).unwrap()).unwrap();
    let q = SurfaceQuery::new();
    (
        q.locate(&mesh, xyz(a)).unwrap().1,
        q.locate(&mesh, xyz(b)).unwrap().1,
    )
}

/// `plan --navmesh navmesh --from from --to to` with `extra` arguments, which must fail
/// cleanly: its one line of error.
fn plan_fails(navmesh: &str, from: &str, to: &str, extra: &[&str]) -> String {
    let args = ["plan", "--navmesh", navmesh, "--from", from, "--to", to];
    assert_clean_failure(&run(args.iter().chain(extra)))
}

#[test]
fn plan_between_floors_writes_3d_points_with_polygons_and_flags() {
    let dir = tmp_dir("floors");
    let csv = dir.join("p.csv");
    let out = bin()
        .args(["plan", "--navmesh", &dungeon(), "--from", LOW, "--to", HIGH])
        .args(["--preset", "smooth", "--radius", "0.3", "--output"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_success(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("118 polygons, y up"), "{stdout}");
    assert!(stdout.contains("smooth"), "{stdout}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("x,y,z,polygon,flags"));
    let rows: Vec<(DVec3, u32, String)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 5, "{l}");
            let p = DVec3::new(
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            );
            (p, f[3].parse().unwrap(), f[4].to_string())
        })
        .collect();
    assert!(rows.len() >= 3);
    let (a, b) = snapped(LOW, HIGH);
    let (first, last) = (&rows[0], &rows[rows.len() - 1]);
    assert_eq!((first.0, last.0), (a, b));
    assert_eq!((first.2.as_str(), last.2.as_str()), ("start", "end"));
    assert!(rows[1..rows.len() - 1].iter().all(|r| r.2.is_empty()));
    assert!(last.0.y - first.0.y > 15.0, "{} → {}", first.0, last.0);

    // The same path as JSON objects.
    let out = bin()
        .args(["plan", "--navmesh", &dungeon(), "--from", LOW, "--to", HIGH])
        .args(["--preset", "smooth", "--radius", "0.3", "--output", "-"])
        .output()
        .unwrap();
    assert_success(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["up"], "y");
    let points = json["points"].as_array().unwrap();
    assert_eq!(points.len(), rows.len());
    assert_eq!(points[0]["flags"], serde_json::json!(["start"]));
    assert_eq!(points[0]["polygon"], rows[0].1);
    let p0: Vec<f64> = serde_json::from_value(points[0]["position"].clone()).unwrap();
    assert_eq!(DVec3::from_slice(&p0), a);
}

/// The dungeon's mesh, read as the CLI reads it.
fn dungeon_mesh() -> SurfaceMesh {
    let text = std::fs::read_to_string(dungeon()).unwrap();
    let options = SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::new(UpAxis::Y)
    };
    SurfaceMesh::new(parse_surface_json(&text, "dungeon", &options).unwrap()).unwrap()
}

/// `plan --preset smooth --radius 0.3 --output -`'s JSON points, as (position, polygon).
fn planned_points(from: &str, to: &str) -> Vec<(DVec3, u64)> {
    let out = bin()
        .args(["plan", "--navmesh", &dungeon(), "--from", from, "--to", to])
        .args(["--preset", "smooth", "--radius", "0.3", "--output", "-"])
        .output()
        .unwrap();
    assert_success(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let points = json["points"].as_array().unwrap();
    points
        .iter()
        .map(|p| {
            let xyz: Vec<f64> = serde_json::from_value(p["position"].clone()).unwrap();
            (DVec3::from_slice(&xyz), p["polygon"].as_u64().unwrap())
        })
        .collect()
}

/// The dungeon's polygons in plan view (x, z: y is up) with their lowest and highest
/// corner heights.
fn plan_polygons(mesh: &SurfaceMesh) -> Vec<(Vec<DVec2>, f64, f64)> {
    let s = mesh.surface();
    (0..s.num_polygons() as u32)
        .map(|p| {
            let corners: Vec<DVec3> = s
                .polygon(p)
                .iter()
                .map(|&v| s.vertices()[v as usize])
                .collect();
            let ring = corners.iter().map(|c| DVec2::new(c.x, c.z)).collect();
            let lo = corners.iter().map(|c| c.y).fold(f64::INFINITY, f64::min);
            let hi = corners
                .iter()
                .map(|c| c.y)
                .fold(f64::NEG_INFINITY, f64::max);
            (ring, lo, hi)
        })
        .collect()
}

/// Whether `p` lies strictly inside the convex ring (either winding).
fn inside(ring: &[DVec2], p: DVec2) -> bool {
    let sides: Vec<f64> = (0..ring.len())
        .map(|i| (ring[(i + 1) % ring.len()] - ring[i]).perp_dot(p - ring[i]))
        .collect();
    sides.iter().all(|&d| d > 1e-9) || sides.iter().all(|&d| d < -1e-9)
}

#[test]
fn plan_view_ends_on_a_layered_navmesh_are_located_on_their_floor() {
    let polygons = plan_polygons(&dungeon_mesh());
    // The ends given in plan view: each is placed on a polygon over it (the oracle: a
    // point-in-polygon test of its own, and the polygon's corner heights), and the path
    // is the one planned from those 3D points.
    let (low, high) = (xyz(LOW), xyz(HIGH));
    let from_2d = planned_points(
        &format!("{},{}", low.x, low.z),
        &format!("{},{}", high.x, high.z),
    );
    let (first, last) = (from_2d[0].0, from_2d.last().unwrap().0);
    for (given, got) in [(low, first), (high, last)] {
        assert_eq!((got.x, got.z), (given.x, given.z));
        let under = DVec2::new(given.x, given.z);
        assert!(
            polygons
                .iter()
                .any(|(ring, lo, hi)| inside(ring, under) && (*lo..=*hi).contains(&got.y)),
            "{got}: on no polygon over {under}"
        );
    }
    let from_3d = planned_points(
        &format!("{},{},{}", first.x, first.y, first.z),
        &format!("{},{},{}", last.x, last.y, last.z),
    );
    assert_eq!(from_2d, from_3d);

    // A plan-view point over two floors (inside two polygons more than 2 m apart in
    // height; the first on a 0.5 m lattice over the plan view) is refused, never resolved
    // to a floor silently.
    let apart =
        |a: &(Vec<DVec2>, f64, f64), b: &(Vec<DVec2>, f64, f64)| b.1 > a.2 + 2.0 || b.2 < a.1 - 2.0;
    let mut lattice =
        (-400..400).flat_map(|i| (-400..400).map(move |j| DVec2::new(i as f64, j as f64) * 0.5));
    let twice = lattice
        .find(|&p| {
            let over: Vec<_> = polygons.iter().filter(|q| inside(&q.0, p)).collect();
            over.iter().any(|a| over.iter().any(|b| apart(a, b)))
        })
        .expect("the dungeon has floors over floors");
    let e = plan_fails(&dungeon(), &format!("{},{}", twice.x, twice.y), HIGH, &[]);
    assert!(
        e.contains("lies over 2 floors") && e.contains("X,Y,Z"),
        "{e}"
    );
}

#[test]
fn plan_on_a_2d_scene_is_unchanged() {
    let scene = repo("docs/scene.json");
    let out = bin()
        .args(["plan", "--navmesh"])
        .arg(&scene)
        .args(["--from", "2,2", "--to", "38,28", "--method", "funnel"])
        .args(["--output", "-"])
        .output()
        .unwrap();
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("{\"points\":[[2.0,2.0],"), "{text}");
    assert!(text.ends_with("[38.0,28.0]]}\n"), "{text}");
}

#[test]
fn layered_errors_are_one_clear_line() {
    // No floor near the start.
    let e = plan_fails(&dungeon(), "-12.05,60,0.62", HIGH, &[]);
    assert!(e.contains("--from") && e.contains("no floor"), "{e}");
    // An --up that contradicts the file's.
    let e = plan_fails(&dungeon(), LOW, HIGH, &["--up", "z"]);
    assert!(e.contains("y up") && e.contains("--up says z"), "{e}");
    // A 2D point off a layered navmesh, 3D points on a 2D scene.
    let e = plan_fails(&dungeon(), "1000,2", HIGH, &[]);
    assert!(e.contains("--from 1000,2") && e.contains("outside"), "{e}");
    let scene = repo("docs/scene.json");
    let e = plan_fails(scene.to_str().unwrap(), "2,2,0", "38,28,0", &[]);
    assert!(e.contains("layered navmesh"), "{e}");
    // Points on two pieces that share no edge: unreachable, in the table and the error.
    let out = run([
        "plan",
        "--navmesh",
        &dungeon(),
        "--from=-5.0,0.2,-3.74",
        "--to",
        HIGH,
    ]);
    let e = assert_clean_failure(&out);
    assert!(e.contains("cannot be reached"), "{e}");
}

#[cfg(feature = "bake")]
#[test]
fn bake_then_plan_then_bench() {
    let level = repo("crates/pathsmooth-bake/levels/nav_test.obj");
    let dir = tmp_dir("bake");
    let baked = dir.join("nav_test.navmesh.json");
    let out = bin()
        .arg("bake")
        .arg(&level)
        .arg("-o")
        .arg(&baked)
        .output()
        .unwrap();
    assert_success(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("155 polygons"), "{stdout}");
    let text = std::fs::read_to_string(&baked).unwrap();
    assert!(text.contains("\"up\": \"y\""), "{text:.100}");

    // From level geometry to a path between two floors in one command.
    let (from, to) = ("-0.63,8.33,-7.66", "-3.69,15.33,9.4");
    let csv = dir.join("level.csv");
    let out = bin()
        .arg("plan")
        .arg("--level")
        .arg(&level)
        .args(["--from", from, "--to", to, "--preset", "smooth", "--output"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_success(&out);
    let rows: Vec<Vec<f64>> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(3).map(|t| t.parse().unwrap()).collect())
        .collect();
    let (a, b) = (&rows[0], &rows[rows.len() - 1]);
    assert_eq!((a[0], a[2], b[0], b[2]), (-0.63, -7.66, -3.69, 9.4));
    assert!(b[1] - a[1] > 5.0, "{a:?} → {b:?}");
    // The same from the baked file.
    let out = bin()
        .args(["plan", "--navmesh"])
        .arg(&baked)
        .args([
            "--from", from, "--to", to, "--preset", "smooth", "--output", "-",
        ])
        .output()
        .unwrap();
    assert_success(&out);

    let out = bin()
        .args(["bench", "--navmesh"])
        .arg(&baked)
        .args(["--queries", "10", "--radius", "0.1"])
        .output()
        .unwrap();
    assert_success(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("10 queries"), "{stdout}");
    for row in ["find_path", "funnel", "relax"] {
        assert!(
            stdout.lines().any(|l| l.starts_with(row)),
            "{row}: {stdout}"
        );
    }

    // A level is baked y up: --up z is an error.
    let e = assert_clean_failure(&run([
        "plan",
        "--level",
        level.to_str().unwrap(),
        "--from",
        from,
        "--to",
        to,
        "--up",
        "z",
    ]));
    assert!(e.contains("--up z"), "{e}");
}

#[test]
fn plan_on_an_obj_read_in_3d() {
    // A floor at height 0 and a bridge at height 3 over it (y up), as OBJ faces.
    let dir = tmp_dir("obj");
    let obj = dir.join("two.obj");
    std::fs::write(
        &obj,
        "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 1 3 1\nv 3 3 1\nv 3 3 3\nv 1 3 3\nf 1 2 3 4\nf 5 6 7 8\n",
    )
    .unwrap();
    let out = bin()
        .args(["plan", "--navmesh"])
        .arg(&obj)
        .args([
            "--from",
            "0.5,0,0.5",
            "--to",
            "3.5,0.2,3.5",
            "--output",
            "-",
        ])
        .args(["--method", "funnel"])
        .output()
        .unwrap();
    assert_success(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let points = json["points"].as_array().unwrap();
    // Under the bridge, straight across the floor: its polygon, its height.
    assert!(points.iter().all(|p| p["polygon"] == 0), "{json}");
    assert_eq!(
        points.last().unwrap()["position"],
        serde_json::json!([3.5, 0.0, 3.5])
    );
    // On the bridge: no way down.
    let e = plan_fails(obj.to_str().unwrap(), "0.5,0,0.5", "2,3,2", &[]);
    assert!(e.contains("cannot be reached"), "{e}");
    // --up z reads the same file with z up: its floors are then walls, refused by name.
    let e = plan_fails(obj.to_str().unwrap(), "0.5,0.5", "2,2", &["--up", "z"]);
    assert!(e.contains("up axis z") && e.contains("vertical"), "{e}");
}

/// `plan` has one route for every navmesh: a flat scene takes a preset and draws its
/// picture as before; a navmesh in 3D with one floor (Godot's arena, y up) is drawn in plan
/// view too, its path's corners in the SVG; one with floors over one another is refused a
/// picture by name.
#[test]
fn plan_draws_every_navmesh_of_one_floor() {
    let dir = tmp_dir("pictures");
    let scene = repo("docs/scene.json");
    let svg = dir.join("scene.svg");
    let out = bin()
        .args(["plan", "--navmesh"])
        .arg(&scene)
        .args([
            "--from", "2,2", "--to", "38,28", "--preset", "smooth", "--svg",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert_success(&out);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.lines().next().unwrap().contains("polygons, flat;"),
        "{table}"
    );
    assert!(support::table_row(&table, "smooth")[1] == "yes", "{table}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("scene.json: navmesh channel of"), "the title");
    assert!(text.contains(">smooth<"), "the path's legend");

    let arena =
        repo("crates/pathsmooth/tests/data/corpus/godot/gdquest-demos__navigation_arena.tscn");
    let svg = dir.join("arena.svg");
    let out = bin()
        .args(["plan", "--navmesh"])
        .arg(&arena)
        .args([
            "--from=-7.47,5.47,10.38",
            "--to=0.14,2.05,-0.98",
            "--method",
            "funnel",
        ])
        .args(["--output", "-", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert_success(&out);
    // The path in 3D (y up); the picture in plan view (x, z): every corner of the path
    // is drawn, scaled and shifted as the picture's frame, so compare the picture's
    // polyline with the written path through the first and last points.
    let path: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let points = path["points"].as_array().unwrap();
    assert!(points.len() >= 3, "a path round the arena's wall: {path}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(">funnel<"), "the path's legend");
    let polyline = text
        .lines()
        .find(|l| l.contains("<polyline") && l.contains("points="))
        .expect("the path drawn");
    let drawn = polyline.split("points=\"").nth(1).unwrap();
    let drawn = drawn.split('"').next().unwrap().split_whitespace().count();
    assert_eq!(drawn, points.len(), "{polyline}");

    let e = plan_fails(
        &dungeon(),
        LOW,
        HIGH,
        &["--svg", dir.join("dungeon.svg").to_str().unwrap()],
    );
    assert!(e.contains("floors over one another"), "{e}");
}
