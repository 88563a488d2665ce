//! Every navmesh of the library's corpus of other people's files
//! (`crates/pathsmooth/tests/data/corpus/MANIFEST.tsv`) through `pathsmooth plan --navmesh`
//! with its defaults: the file loads, and a path between two points strictly inside
//! polygons of one piece starts and ends exactly (plan view) at them.

use crate::support;

use std::path::PathBuf;

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::load_surface;
use pathsmooth::navmesh::{PolyId, Surface, SurfaceOptions, UpAxis};
use support::{assert_clean_failure, run, stdout};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../pathsmooth/tests/data/corpus")
}

/// A point strictly inside polygon `p`: its corners' mean pulled a third of the way
/// towards its first corner, at its floor's height.
fn inside(s: &Surface, p: PolyId) -> DVec3 {
    let up = s.up();
    let ring: Vec<DVec2> = s.plan_polygon(p).collect();
    let mean = ring.iter().sum::<DVec2>() / ring.len() as f64;
    let q = mean + (ring[0] - mean) / 3.0;
    up.join(q, s.floor_height(p, q))
}

#[test]
fn plan_reads_every_corpus_navmesh_and_keeps_its_ends() {
    let text = std::fs::read_to_string(corpus().join("MANIFEST.tsv")).unwrap();
    let mut files = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if matches!(f[1], "polyanya-scen" | "other") {
            continue;
        }
        let path = corpus().join(f[0]);
        let up = if f[2] == "z" { UpAxis::Z } else { UpAxis::Y };
        // The polygons and pieces as the library reads them, to pick the points.
        let s = load_surface(&path, &SurfaceOptions::new(up)).unwrap();
        let pieces = s.pieces();
        let piece = pieces[0];
        let last = (0..s.num_polygons() as PolyId)
            .rev()
            .find(|&p| pieces[p as usize] == piece)
            .unwrap();
        let (a, b) = (inside(&s, 0), inside(&s, last));
        let xyz = |p: DVec3| format!("{:?},{:?},{:?}", p.x, p.y, p.z);
        let mut args = vec![
            "plan".to_string(),
            "--navmesh".into(),
            path.to_str().unwrap().into(),
            "--from".into(),
            xyz(a),
            "--to".into(),
            xyz(b),
            "--preset".into(),
            "shortest".into(),
            "--output".into(),
            "-".into(),
        ];
        if f[2] == "z" {
            args.extend(["--up".into(), "z".into()]);
        }
        let out = stdout(&run(&args));
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let points = json["points"].as_array().unwrap();
        let at = |k: usize| {
            let p = &points[k]["position"];
            DVec3::new(
                p[0].as_f64().unwrap(),
                p[1].as_f64().unwrap(),
                p[2].as_f64().unwrap(),
            )
        };
        assert_eq!(up.plan(at(0)), up.plan(a), "{}", f[0]);
        assert_eq!(up.plan(at(points.len() - 1)), up.plan(b), "{}", f[0]);
        files += 1;
    }
    assert!(files >= 25, "{files} files");
}

/// Unity's per-triangle export repeats its vertices: read flat (`--ground-plane xz`, the
/// default) the reader welds them as the surface loader does, and plans on it; the flat
/// funnel's path is the one the layered reading (`--up y`) plans, in plan view, ending
/// exactly at the points. A file with a floor over another is refused flat, and the error
/// says how to read it instead.
#[test]
fn a_unity_export_reads_flat_as_it_reads_layered() {
    let path = corpus().join("unity/needle-tools__Navmesh_Navmesh.obj");
    let s = load_surface(&path, &SurfaceOptions::new(UpAxis::Y)).unwrap();
    let (a, b) = (s.up().plan(inside(&s, 0)), s.up().plan(inside(&s, 40)));
    let xy = |p: DVec2| format!("{:?},{:?}", p.x, p.y);
    let (from, to) = (xy(a), xy(b));
    let args = |file: &str, extra: &[&str]| {
        let mut v = vec!["plan", "--navmesh", file, "--method", "funnel"];
        v.extend(["--from", &from, "--to", &to, "--output", "-"]);
        v.extend(extra);
        v.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let json = |out: &str| serde_json::from_str::<serde_json::Value>(out).unwrap();
    let file = path.to_str().unwrap();
    let flat = json(&stdout(&run(args(file, &[]))));
    let flat: Vec<DVec2> = serde_json::from_value::<Vec<[f64; 2]>>(flat["points"].clone())
        .unwrap()
        .into_iter()
        .map(DVec2::from)
        .collect();
    let layered = json(&stdout(&run(args(file, &["--up", "y"]))));
    let layered: Vec<DVec2> = layered["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p = &p["position"];
            DVec2::new(p[0].as_f64().unwrap(), p[2].as_f64().unwrap())
        })
        .collect();
    let length = |p: &[DVec2]| p.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>();
    assert_eq!((flat[0], *flat.last().unwrap()), (a, b));
    assert_eq!((layered[0], *layered.last().unwrap()), (a, b));
    assert!(
        (length(&flat) - length(&layered)).abs() <= 1e-9 * length(&flat),
        "flat {flat:?}, layered {layered:?}"
    );
    // A floor over another: refused flat, with the way to read it.
    let two = support::tmp_dir("corpus", "two_floors").join("two.obj");
    std::fs::write(
        &two,
        "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 1 3 1\nv 3 3 1\nv 3 3 3\nv 1 3 3\n\
         f 1 2 3 4\nf 5 6 7 8\n",
    )
    .unwrap();
    let mut v = args(two.to_str().unwrap(), &[]);
    v.splice(
        5..9,
        ["--from", "0.5,0.5", "--to", "3.5,3.5"].map(String::from),
    );
    let err = support::assert_clean_failure(&run(v));
    assert!(
        err.contains("; --up y (or z) reads the file as a layered navmesh"),
        "{err}"
    );
}

/// `bench` on a flat navmesh of many pieces (Unity's export of a LayaAir level: 2,030
/// polygons, 1,082 in the largest piece) draws its queries on the largest piece, so every
/// query plans: none is an error for ends that no edge joins.
#[test]
fn bench_on_a_flat_export_of_many_pieces_plans_every_query() {
    let path = corpus().join("unity/lear315__LayaNavMesh.obj");
    let out = run([
        "bench",
        "--navmesh",
        path.to_str().unwrap(),
        "--queries",
        "40",
    ]);
    let table = stdout(&out);
    assert!(
        table.contains("2030 polygons (1082 in its largest piece), flat; 40 queries (random points on that piece"),
        "{table}"
    );
    for method in ["funnel", "relax"] {
        let cells = support::table_row(&table, method);
        // method, paths, valid %, errors, …
        assert_eq!(
            (cells[1], cells[2], cells[3]),
            ("40", "100.0", "0"),
            "{table}"
        );
    }
}

/// A binary file that is no navmesh is named as such; a Detour tile cache (a binary file
/// RecastDemo saves beside its navmeshes) is refused by name.
#[test]
fn binary_files_that_are_no_navmesh_say_what_they_are() {
    let dir = support::tmp_dir("corpus", "binary");
    let noise = dir.join("noise.bin");
    std::fs::write(&noise, [0xff, 0xfe, 0x00, 0x81, 0x12, 0x00, 0x00, 0x9c]).unwrap();
    let bench = |file: &std::path::Path| {
        let file = file.to_str().unwrap();
        assert_clean_failure(&run(["bench", "--navmesh", file, "--queries", "1"]))
    };
    let e = bench(&noise);
    assert!(e.contains("noise.bin: cannot read: not UTF-8 text"), "{e}");
    let e = bench(&corpus().join("detour/rockingdice__all_tiles_tilecache.bin"));
    assert!(e.contains("a Detour tile cache"), "{e}");
}
