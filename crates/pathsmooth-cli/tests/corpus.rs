//! Every navmesh of the library's corpus of other people's files
//! (`crates/pathsmooth/tests/data/corpus/MANIFEST.tsv`) through `pathsmooth plan --navmesh`
//! with its defaults: the file loads, and a path between two points strictly inside
//! polygons of one piece starts and ends exactly (plan view) at them. Polyanya's flat
//! `.mesh` files at random points, judged by a reading of the file and a check written
//! here.

use crate::support;

use std::path::PathBuf;

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::load_surface;
use pathsmooth::navmesh::{PolyId, Surface, SurfaceOptions, UpAxis};
use support::rng::Rng;
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

/// A Polyanya `.mesh` file (version 2) read here, independently of the library: its
/// vertices and its polygons (vertex indices).
fn polyanya_mesh(text: &str) -> (Vec<DVec2>, Vec<Vec<usize>>) {
    let mut t = text.split_whitespace().skip(2); // "mesh", the version
    let mut next = || t.next().expect("a field");
    let (nv, np): (usize, usize) = (next().parse().unwrap(), next().parse().unwrap());
    let mut vertices = Vec::with_capacity(nv);
    for _ in 0..nv {
        let (x, y): (f64, f64) = (next().parse().unwrap(), next().parse().unwrap());
        let n: usize = next().parse().unwrap();
        (0..n).for_each(|_| {
            next(); // the polygons round the vertex
        });
        vertices.push(DVec2::new(x, y));
    }
    let mut polygons = Vec::with_capacity(np);
    for _ in 0..np {
        let n: usize = next().parse().unwrap();
        polygons.push((0..n).map(|_| next().parse().unwrap()).collect());
        (0..n).for_each(|_| {
            next(); // the polygons across its sides
        });
    }
    (vertices, polygons)
}

/// Whether segments `a`–`b` and `c`–`d` cross at a point inside both (touching, or
/// running along one another, is not crossing).
fn crosses(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    let eps = 1e-9 * (1.0 + a.abs().max(b.abs()).max_element());
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps))
        && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
}

/// `plan` on a flat navmesh file goes through the library's one navmesh world; its paths
/// on Polyanya's own `.mesh` files (Cui and Harabor's `arena` benchmark, and the original
/// Polyanya's `square` and `hard` test meshes), between random points strictly inside
/// random polygons (a fixed seed), are judged here without the library: ends on pieces
/// that share no side (`hard` has two) are refused as unreachable; else the path starts
/// and ends at its ends, and no segment crosses a side of the mesh's outline (a side only
/// one polygon has).
#[test]
fn plan_on_flat_polyanya_meshes_stays_inside_by_an_independent_check() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let (mut paths, mut refused, mut walled) = (0, 0, 0);
    for name in [
        "vleue__arena.mesh",
        "xiangzebo__square.mesh",
        "xiangzebo__hard.mesh",
    ] {
        let file = corpus().join("polyanya").join(name);
        let (vertices, polygons) = polyanya_mesh(&std::fs::read_to_string(&file).unwrap());
        // Each side's polygons; the outline: the sides that only one polygon has.
        let mut sides = std::collections::HashMap::<_, Vec<usize>>::new();
        for (p, ring) in polygons.iter().enumerate() {
            for (i, &a) in ring.iter().enumerate() {
                let b = ring[(i + 1) % ring.len()];
                sides.entry((a.min(b), a.max(b))).or_default().push(p);
            }
        }
        let outline: Vec<(DVec2, DVec2)> = sides
            .iter()
            .filter(|(_, ps)| ps.len() == 1)
            .map(|(&(a, b), _)| (vertices[a], vertices[b]))
            .collect();
        // Each polygon's piece: polygons joined through shared sides (union-find).
        let mut piece: Vec<usize> = (0..polygons.len()).collect();
        fn root(piece: &mut [usize], p: usize) -> usize {
            let mut r = p;
            while piece[r] != r {
                r = piece[r];
            }
            piece[p] = r;
            r
        }
        for ps in sides.values().filter(|ps| ps.len() == 2) {
            let (a, b) = (root(&mut piece, ps[0]), root(&mut piece, ps[1]));
            piece[a] = b;
        }
        for k in 0..12 {
            let mut point = || {
                let p = (rng.unit() * polygons.len() as f64) as usize % polygons.len();
                let ring = &polygons[p];
                let w: Vec<f64> = ring.iter().map(|_| rng.unit() + 0.05).collect();
                let sum: f64 = w.iter().sum();
                let at = ring.iter().zip(&w).map(|(&v, &w)| vertices[v] * (w / sum));
                (at.sum::<DVec2>(), p)
            };
            let ((from, p), (to, q)) = (point(), point());
            let joined = root(&mut piece, p) == root(&mut piece, q);
            let how: &[&str] = if k % 2 == 0 {
                &["--method", "funnel"]
            } else {
                &["--preset", "smooth"]
            };
            let (f, t) = (
                format!("{},{}", from.x, from.y),
                format!("{},{}", to.x, to.y),
            );
            let args = [
                "plan",
                "--navmesh",
                file.to_str().unwrap(),
                "--from",
                &f,
                "--to",
                &t,
            ];
            let out = run(args.iter().chain(how).chain(&["--output", "-"]));
            let what = format!("{name} {f} → {t} {how:?}");
            if !joined {
                // The table goes to stderr beside the path's stdout: the error is its last line.
                let e = String::from_utf8_lossy(&out.stderr);
                assert!(!out.status.success(), "{what}: planned across pieces");
                assert!(e.contains("cannot be reached"), "{what}: {e}");
                refused += 1;
                continue;
            }
            assert!(
                out.status.success(),
                "{what}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let path: Vec<DVec2> = json["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| DVec2::new(p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
                .collect();
            assert_eq!((path[0], path[path.len() - 1]), (from, to), "{what}");
            // The check bites: the straight line between the ends crosses the outline.
            if outline.iter().any(|&(c, d)| crosses(from, to, c, d)) {
                walled += 1;
            }
            for w in path.windows(2) {
                for &(c, d) in &outline {
                    assert!(
                        !crosses(w[0], w[1], c, d),
                        "{what}: {w:?} crosses {c} – {d}"
                    );
                }
            }
            paths += 1;
        }
    }
    // Both cases met, and ends a wall stands between (the counts are this seed's).
    assert_eq!((paths, refused, walled), (31, 5, 12));
}
