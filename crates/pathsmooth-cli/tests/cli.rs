//! End-to-end tests of the `pathsmooth` binary: real runs, real files, bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Output, Stdio};

use crate::support;
use support::{assert_clean_failure, assert_success, bin, run, GRID_PLAN_METHODS};

fn tmp_dir(name: &str) -> PathBuf {
    support::tmp_dir("cli", name)
}

fn run_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    // The binary may exit before reading (argument errors): a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// A Moving AI file such as `dao/den312d.map`, from the repository's `data/movingai/`. The
/// data is part of the repository, so a missing file fails the test, naming the path.
fn movingai(rel: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/movingai")
        .join(rel);
    assert!(
        path.is_file(),
        "Moving AI file {} not found",
        path.display()
    );
    path
}

/// The arguments of `plan` on `map` (the tests pass `dao/den312d.map`) from (10, 10) to
/// (50, 70), the route the real-map tests share, then `extra`.
fn plan_10_10_to_50_70<'a>(map: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["plan", "--map", map, "--from", "10,10", "--to", "50,70"];
    args.extend_from_slice(extra);
    args
}

/// One run of `pathsmooth demo` (it takes seconds in the test profile) for the tests that
/// read its output: its folder and what it printed.
fn demo_run() -> &'static (std::path::PathBuf, String) {
    static RUN: std::sync::OnceLock<(std::path::PathBuf, String)> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let dir = tmp_dir("demo");
        let out = bin()
            .args(["demo", "--out-dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_success(&out);
        (dir, String::from_utf8_lossy(&out.stdout).into_owned())
    })
}

#[test]
fn demo_writes_pictures_and_prints_every_method() {
    let (dir, stdout) = demo_run();
    for m in [
        "chaikin",
        "adaptive-chaikin",
        "catmull-rom",
        "astar",
        "shortcut",
        "shortcut-chaikin",
        "funnel",
        "relax",
        "corridor",
    ] {
        assert!(stdout.contains(m), "{m} missing from:\n{stdout}");
    }
    // Every map method's path is valid by the library's validator.
    assert!(!stdout.contains(" NO "), "{stdout}");
    for f in [
        "demo.png",
        "demo.svg",
        "demo-navmesh.png",
        "demo-corridor.png",
        "demo-curves.svg",
        "demo-follow.svg",
    ] {
        let bytes = std::fs::read(dir.join(f)).unwrap();
        assert!(bytes.len() > 1000, "{f} is too small");
    }
    assert!(std::fs::read(dir.join("demo.png"))
        .unwrap()
        .starts_with(b"\x89PNG"));
}

#[test]
fn smooth_round_trips_json_and_csv() {
    let out = run_with_stdin(
        &["smooth", "--method", "chaikin", "--passes", "2"],
        r#"{"points": [[0, 0], [1, 0], [1, 1], [2, 1]]}"#,
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["points"].as_array().unwrap().len(), (4 - 2) * 4 + 2);

    let out = run_with_stdin(
        &[
            "smooth",
            "--method",
            "catmull-rom",
            "--subdivisions",
            "4",
            "--format",
            "csv",
        ],
        "x,y,z\n0,0,0\n1,0,1\n2,1,1\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().next(), Some("x,y,z"));
    assert_eq!(text.lines().count(), 1 + 2 * 4 + 1);
}

#[test]
fn bad_input_is_one_clear_line() {
    let e = assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "chaikin"],
        "[[0,0],[1,NaN]]",
    ));
    assert!(e.contains("<stdin>"), "{e}");
    let e = assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "chaikin", "--format", "csv"],
        "0,0\n1,x\n",
    ));
    assert!(e.contains(":2:3"), "{e}");
    let e = assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "chaikin", "--format", "csv"],
        "0,0\n1,2,3\n",
    ));
    assert!(e.contains("coordinates"), "{e}");
    let e = assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "chaikin", "--ratio", "0.9"],
        "[[0,0],[1,0],[2,1]]",
    ));
    assert!(e.contains("ratio"), "{e}");
    assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "chaikin", "--passes", "60"],
        "[[0,0],[1,0],[2,1]]",
    ));
    assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "catmull-rom"],
        "[]",
    ));
    assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "catmull-rom", "--subdivisions", "0"],
        "[[0,0],[1,1]]",
    ));
    let out = run_with_stdin(&["follow"], "[[0,0],[1,1]]");
    assert!(out.status.success(), "a plain diagonal path follows fine");
    let e = assert_clean_failure(&run_with_stdin(
        &["follow", "--max-speed", "0"],
        "[[0,0],[1,1]]",
    ));
    assert!(e.contains("max_speed"), "{e}");
    // Argument errors are one line too.
    assert_clean_failure(&run_with_stdin(
        &["follow", "--max-speed", "-1"],
        "[[0,0],[1,1]]",
    ));
    assert_clean_failure(&run([
        "smooth",
        "--method",
        "chaikin",
        "-i",
        "/no/such/file.json",
    ]));
}

#[test]
fn follow_times_a_3d_path_in_3d() {
    // Take off 10 m straight up, climb 25 m along a 3-4-5 slope, cruise 16.91 m and descend
    // 4.38 m: 56.29 m of flight over 36.91 m of ground.
    let dir = tmp_dir("follow3d");
    let flight = dir.join("flight.csv");
    let rows = "x,y,z\n0,0,0\n0,0,10\n20,0,25\n20,16.91,25\n20,16.91,20.62\n";
    std::fs::write(&flight, rows).unwrap();
    let out = run(["follow", "--input", flight.to_str().unwrap()]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.contains("length 56.290 m"), "{text}");
    // The same time as the library's 3D profile.
    let path: Vec<pathsmooth::glam::DVec3> = rows
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<f64> = l.split(',').map(|v| v.parse().unwrap()).collect();
            pathsmooth::glam::DVec3::new(c[0], c[1], c[2])
        })
        .collect();
    let agent = pathsmooth::follow::Agent::default();
    let time = pathsmooth::follow::speed_profile(&path, &agent)
        .unwrap()
        .total_time();
    assert!(
        text.contains(&format!("traversal time {time:.3} s")),
        "{text}"
    );
    // Its ground track alone is shorter.
    let ground = run_with_stdin(&["follow"], "0,0\n0,0\n20,0\n20,16.91\n20,16.91\n");
    assert!(String::from_utf8_lossy(&ground.stdout).contains("length 36.910 m"));

    // Samples of a 3D path have a z column, and end on the roof.
    let out = run([
        "follow",
        "--input",
        flight.to_str().unwrap(),
        "--csv",
        "-",
        "--rate",
        "5",
    ]);
    assert!(out.status.success());
    let csv = String::from_utf8_lossy(&out.stdout).to_string();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("t,x,y,z,heading_deg,speed"));
    let samples: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert!(samples.iter().all(|r| r.len() == 6));
    let last = samples.last().unwrap();
    assert_eq!(
        (last[0], last[1], last[2], last[3]),
        (time, 20.0, 16.91, 20.62)
    );
    let top = samples.iter().map(|r| r[3]).fold(f64::MIN, f64::max);
    assert!((top - 25.0).abs() < 1e-9, "{top}");
    // A vertical climb of 10 m: the 10 m trapezoid (1.25 s + 5/6 s + 4.79 m at 5 m/s).
    let out = run_with_stdin(
        &["follow", "--steering", "ground"],
        "x,y,z\n0,0,0\n0,0,10\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("length 10.000 m, traversal time 3.042 s"),
        "{text}"
    );
}

/// The CLI's own example map (the one `demo` embeds).
fn demo_map() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo.map")
}

/// An open room, 12 × 5 cells, with nothing in it: the A* path along its middle row is
/// straight, so shortcuts leave one segment and map-aware Chaikin then has no corner to cut.
fn open_room(dir: &std::path::Path) -> PathBuf {
    let map = dir.join("room.map");
    let rows = ["............"; 5].join("\n");
    std::fs::write(
        &map,
        format!("type octile\nheight 5\nwidth 12\nmap\n{rows}\n"),
    )
    .unwrap();
    map
}

#[test]
fn plan_and_bench_say_when_a_step_was_skipped() {
    // `shortcut-chaikin` along the straight middle row of an open room: the shortcuts leave
    // one segment (no corner), so the Chaikin step changes nothing and the pipeline reports
    // it skipped (whatever Chaikin does, a path without a corner has nothing to cut). The
    // row must not read as a success of Chaikin, and the reason must be printed.
    let dir = tmp_dir("skipped");
    let map = open_room(&dir);
    let m = map.to_str().unwrap();
    let plan = |extra: &[&str]| {
        let scenario = ["--from", "1,2", "--to", "10,2", "--radius", "0.3"];
        run(["plan", "--map", m].iter().chain(&scenario).chain(extra))
    };
    let out = plan(&["--method", "shortcut,shortcut-chaikin"]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    let header = text.lines().next().unwrap();
    assert!(header.ends_with("status"), "{text}");
    let row = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name}: {text}"))
    };
    assert!(row("shortcut-chaikin").ends_with(" skipped"), "{text}");
    assert!(row("shortcut").ends_with(" ok"), "{text}");
    // The note is with the table (stdout), one per skipped step, the reason bounded.
    let notes: Vec<&str> = text.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(notes.len(), 1, "{text}");
    let reason = notes[0]
        .strip_prefix("note: shortcut-chaikin: step \"chaikin\" skipped: ")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(reason.starts_with("changed nothing: "), "{reason}");
    assert!(reason.chars().count() <= 200, "{reason}");

    // With the path on stdout, the table and its note go to stderr together.
    let out = plan(&["--method", "shortcut-chaikin", "--output", "-"]);
    assert_success(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("step \"chaikin\" skipped: "), "{err}");

    // bench: the count per method, the most common reason under the table, the CSV's
    // column naming the step.
    let scen = dir.join("room.map.scen");
    std::fs::write(&scen, "version 1\n0\troom.map\t12\t5\t1\t2\t10\t2\t9\n").unwrap();
    let csv = dir.join("bench.csv");
    let out = bin()
        .args(["bench", "--map", m, "--scen"])
        .arg(&scen)
        .args([
            "--methods",
            "astar,shortcut-chaikin",
            "--radius",
            "0.3",
            "--quiet",
            "--csv",
        ])
        .arg(&csv)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // The fifth column (method, paths, valid %, errors, skipped).
    assert!(
        text.contains("method  ") && text.contains("  paths  valid %  errors  skipped"),
        "{text}"
    );
    let cell = |name: &str| support::table_row(&text, name)[4].to_string();
    assert_eq!(
        (cell("astar"), cell("shortcut-chaikin")),
        ("0".into(), "1".into()),
        "{text}"
    );
    let note = text
        .lines()
        .find(|l| l.starts_with("note: shortcut-chaikin:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        note.contains("1 of 1 paths") && note.contains("step \"chaikin\" skipped: changed nothing"),
        "{note}"
    );
    assert!(!text.contains("note: astar"), "{text}");
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",skipped"), "{csv}");
    let smoothed = csv
        .lines()
        .find(|l| l.contains(",shortcut-chaikin,"))
        .unwrap();
    assert!(smoothed.ends_with(",chaikin"), "{csv}");
    let astar = csv.lines().find(|l| l.contains(",astar,")).unwrap();
    assert!(astar.ends_with(','), "{csv}");
}

/// `plan` on the demo map from `from` to `to` at `radius` with `methods`, which must
/// include `relax`: what it printed and its `relax` row.
fn relax_row_on_the_demo_map(
    from: &str,
    to: &str,
    radius: &str,
    methods: &str,
) -> (String, String) {
    let map = demo_map();
    let out = run([
        "plan",
        "--map",
        map.to_str().unwrap(),
        "--from",
        from,
        "--to",
        to,
        "--radius",
        radius,
        "--method",
        methods,
    ]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let relax = text
        .lines()
        .find(|l| l.starts_with("relax "))
        .unwrap_or_else(|| panic!("{text}"))
        .to_owned();
    (text, relax)
}

#[test]
fn relax_at_a_radius_is_not_skipped_on_the_demo() {
    // Portal relaxation at radius 0.3 on the demo's scenario: its path keeps the radius
    // (issue 28, item 5), so the step takes effect and no note is printed. Before, its
    // result came within the radius of a wall and the pipeline skipped it.
    let (text, relax) = relax_row_on_the_demo_map("5,5", "5,74", "0.3", "shortcut,relax");
    assert!(relax.ends_with(" ok"), "{text}");
    // valid, and the clearance column (the 9th) at least the radius.
    let cells: Vec<&str> = relax.split_whitespace().collect();
    assert_eq!(cells[1], "yes", "{text}");
    let clearance: f64 = cells[8].parse().unwrap();
    assert!(clearance >= 0.3 - 1e-9, "{text}");
    assert!(!text.contains("note:"), "{text}");
}

#[test]
fn plan_on_a_real_map_writes_path_and_pictures() {
    let map = movingai("dao/den312d.map");
    let dir = tmp_dir("plan");
    let path_file = dir.join("p.json");
    let png = dir.join("p.png");
    let out = run(plan_10_10_to_50_70(
        map.to_str().unwrap(),
        &[
            "--method",
            "shortcut-chaikin",
            "--output",
            path_file.to_str().unwrap(),
            "--png",
            png.to_str().unwrap(),
        ],
    ));
    assert_success(&out);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path_file).unwrap()).unwrap();
    assert!(v["points"].as_array().unwrap().len() >= 2);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn plan_writes_world_unit_paths_with_a_cell_size_and_origin() {
    let map = movingai("dao/den312d.map");
    let dir = tmp_dir("plan-frame");
    let m = map.to_str().unwrap();
    let plan = |extra: &[&str], file: &str| {
        let f = dir.join(file);
        let mut args = plan_10_10_to_50_70(m, &["--method", "shortcut-chaikin"]);
        args.extend_from_slice(extra);
        args.extend(["--output", f.to_str().unwrap()]);
        let out = run(&args);
        assert_success(&out);
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        v["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
            .collect::<Vec<_>>()
    };
    let cells = plan(&[], "cells.json");
    let metres = plan(
        &["--cell-size", "0.5", "--origin", "10,20", "--radius", "0"],
        "metres.json",
    );
    // The same path, in metres: cell (10, 10)'s centre is (10 + 10.5 / 2, 20 + 10.5 / 2).
    assert_eq!(metres[0], (15.25, 25.25));
    assert_eq!(cells.len(), metres.len());
    for (c, w) in cells.iter().zip(&metres) {
        // (The library's points are exactly these; the JSON text round trip may not be.)
        assert!((10.0 + c.0 * 0.5 - w.0).abs() < 1e-12 && (20.0 + c.1 * 0.5 - w.1).abs() < 1e-12);
    }
    // A bad frame is one clear line.
    let e = assert_clean_failure(&run(plan_10_10_to_50_70(m, &["--cell-size", "-1"])));
    assert!(e.contains("cell_size"), "{e}");
}

#[test]
fn plan_keeps_the_other_methods_when_one_fails() {
    let map = movingai("dao/arena.map");
    let m = map.to_str().unwrap();
    // The funnel with this radius reports a passage too narrow on this map (a known
    // limitation of its width check); the other methods still print their rows.
    let out = run([
        "plan",
        "--map",
        m,
        "--from",
        "1,4",
        "--to",
        "44,45",
        "--radius",
        "0.5",
        "--method",
        "shortcut,funnel,corridor",
    ]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("shortcut") && table.contains("corridor"),
        "{table}"
    );
    if !out.status.success() {
        assert!(table.contains("error:"), "{table}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("methods failed"));
    }
}

#[test]
fn plan_errors_are_clean() {
    let map = movingai("dao/arena.map");
    let m = map.to_str().unwrap();
    // (0, 0) is a tree on arena.map.
    assert!(
        assert_clean_failure(&run(["plan", "--map", m, "--from", "0,0", "--to", "5,5"]))
            .contains("wall")
    );
    assert!(
        assert_clean_failure(&run(["plan", "--map", m, "--from", "1,4", "--to", "500,5"]))
            .contains("outside")
    );
    assert_clean_failure(&run([
        "plan", "--map", m, "--from", "1,4", "--to", "5,5", "--radius", "-1",
    ]));
    assert_clean_failure(&run([
        "plan",
        "--map",
        "/no/such.map",
        "--from",
        "1,4",
        "--to",
        "5,5",
    ]));
    let dir = tmp_dir("badmap");
    let bad = dir.join("bad.map");
    std::fs::write(&bad, "type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap();
    let e = assert_clean_failure(&run([
        "plan",
        "--map",
        bad.to_str().unwrap(),
        "--from",
        "0,0",
        "--to",
        "1,1",
    ]));
    assert!(e.contains("bad.map:6"), "{e}");
}

#[test]
fn bench_prints_a_table_per_method() {
    let base = movingai("dao/arena.map");
    let scen = movingai("dao/arena.map.scen");
    let out = bin()
        .arg("bench")
        .arg("--map")
        .arg(&base)
        .arg("--scen")
        .arg(&scen)
        .args([
            "--every",
            "20",
            "--methods",
            "astar,shortcut,chaikin",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("8 scenarios"), "{text}");
    for line in text
        .lines()
        .filter(|l| l.starts_with("shortcut") || l.starts_with("chaikin"))
    {
        assert!(line.contains("100.0"), "not all valid: {line}");
    }
}

#[test]
fn the_corridor_options_reach_the_step_and_bad_ones_are_named() {
    let map = movingai("dao/arena.map");
    let plan = |extra: &[&str]| {
        let mut args = vec!["plan", "--map", map.to_str().unwrap()];
        args.extend(["--from", "1,4", "--to", "44,45", "--method", "corridor"]);
        args.extend(extra);
        run(args)
    };
    let out = plan(&[
        "--corridor-spacing",
        "1",
        "--corridor-windows",
        "--corridor-solver",
        "chambolle-pock",
    ]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{table}");
    assert!(
        table.contains("corridor") && !table.contains("error"),
        "{table}"
    );
    let out = plan(&["--corridor-spacing", "1.5"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(
        table.contains("spacing") && table.contains("1.5"),
        "{table}"
    );
}

#[test]
fn optimize_solves_a_corridor_and_its_dump_alike() {
    let dir = tmp_dir("optimize");
    let corridor = dir.join("c.json");
    std::fs::write(
        &corridor,
        r#"{"centers": [[0,0],[2,1],[4,0],[6,1.5],[8,0],[10,0]], "radii": [0.5, 2, 2, 2, 2, 0.5], "start_dir": [1,0]}"#,
    )
    .unwrap();
    let dump = dir.join("dump.json");
    let out = bin()
        .args(["optimize", "--tolerance", "1e-7", "--corridor"])
        .arg(&corridor)
        .arg("--dump-problem")
        .arg(&dump)
        .arg("--energy-csv")
        .arg(dir.join("e.csv"))
        .arg("--png")
        .arg(dir.join("o.png"))
        .output()
        .unwrap();
    assert_success(&out);
    let first: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let energies = std::fs::read_to_string(dir.join("e.csv")).unwrap();
    let e: Vec<f64> = energies
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(e.last().unwrap() < &e[0], "energy decreases overall");
    // Solving the dumped problem gives the same optimum (dummies included in its output).
    let out = bin()
        .args(["optimize", "--tolerance", "1e-7", "--corridor"])
        .arg(&dump)
        .output()
        .unwrap();
    assert!(out.status.success());
    let second: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = first["points"].as_array().unwrap();
    let b = second["points"].as_array().unwrap();
    assert_eq!(
        b.len(),
        a.len() + 1,
        "the dump adds the start-direction dummy"
    );
    for (p, q) in a.iter().zip(&b[1..]) {
        for k in 0..2 {
            assert!((p[k].as_f64().unwrap() - q[k].as_f64().unwrap()).abs() < 1e-3);
        }
    }
    let gap = r#"{"centers": [[0,0],[5,0]], "radii": [1, 1]}"#;
    assert!(
        assert_clean_failure(&run_with_stdin(&["optimize", "--corridor", "-"], gap))
            .contains("do not overlap")
    );
    let good = r#"{"centers": [[0,0],[1,0]], "radii": [1, 1]}"#;
    assert!(assert_clean_failure(&run_with_stdin(
        &["optimize", "--corridor", "-", "--beta", "0"],
        good
    ))
    .contains("beta"));
    assert_clean_failure(&run_with_stdin(
        &["optimize", "--corridor", "-", "--iterations", "0"],
        good,
    ));
}

#[test]
fn plan_on_a_navmesh_scene() {
    let scene = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/scene.json");
    let dir = tmp_dir("scene");
    let out = bin()
        .args(["plan", "--navmesh"])
        .arg(&scene)
        .args([
            "--from", "2,2", "--to", "38,28", "--radius", "0.5", "--method", "funnel", "--output",
        ])
        .arg(dir.join("f.csv"))
        .arg("--svg")
        .arg(dir.join("f.svg"))
        .output()
        .unwrap();
    assert_success(&out);
    let csv = std::fs::read_to_string(dir.join("f.csv")).unwrap();
    assert_eq!(csv.lines().nth(1), Some("2,2"));
    assert_eq!(csv.lines().last(), Some("38,28"));
    let e = assert_clean_failure(&run([
        "plan",
        "--navmesh",
        scene.to_str().unwrap(),
        "--from",
        "10,10",
        "--to",
        "38,28",
    ]));
    assert!(e.contains("outside the navmesh"), "{e}");
    let e = assert_clean_failure(&run([
        "plan",
        "--navmesh",
        scene.to_str().unwrap(),
        "--from",
        "2,2",
        "--to",
        "38,28",
        "--method",
        "chaikin",
    ]));
    assert!(e.contains("grid map"), "{e}");
}

#[test]
fn json_numbers_round_trip_exactly() {
    // Without serde_json's float_roundtrip, 2e-305 came back as 2.0000000000000002e-305.
    // (This lives here, not in the library's tests: a dev-dependency of the library turns
    // the feature on for its own test builds and hid the bug.)
    let out = run_with_stdin(
        &["smooth", "--method", "chaikin", "--passes", "0"],
        "[[0,0],[0,2e-305]]",
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"points\":[[0.0,0.0],[0.0,2e-305]]}\n"
    );
    // Two exactly touching disks, written by to_json, were refused by from_json as a gap.
    use pathsmooth::corridor::DiskCorridor;
    let (r0, r1) = (2.2392946119404013e17, 9.136570257377501e17);
    let c = DiskCorridor::new(
        vec![glam::DVec2::ZERO, glam::DVec2::new(r0 + r1, 0.0)],
        vec![r0, r1],
        None,
        None,
    )
    .unwrap();
    assert_eq!(DiskCorridor::from_json(&c.to_json()), Ok(c));
}

#[test]
fn follow_never_reports_an_infinite_length_or_time() {
    // "length inf m" with exit 0 before: now the coordinate bound is the error.
    let e = assert_clean_failure(&run_with_stdin(
        &["follow"],
        "[[0,0],[1e300,0],[1e300,1e300]]",
    ));
    assert!(e.contains("coordinate"), "{e}");
    // An agent so slow that the time would overflow is refused by the agent's limits.
    let e = assert_clean_failure(&run_with_stdin(
        &["follow", "--max-speed", "1e-300"],
        "[[0,0],[1e150,0]]",
    ));
    assert!(e.contains("max_speed") && e.contains("1e-100"), "{e}");
    let out = run_with_stdin(&["follow"], "[[0,0],[1e150,0]]");
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("inf"));
}

#[test]
fn negative_numbers_reach_the_range_checks() {
    // clap used to refuse them as "unexpected argument '-0.1'", which says nothing about
    // what is allowed.
    let path = "[[0,0],[1,0],[1,1]]";
    for (args, expected) in [
        (
            &["smooth", "--method", "chaikin", "--ratio", "-0.1"][..],
            "(0, 0.5]",
        ),
        (
            &["smooth", "--method", "chaikin", "--passes", "-1"],
            "0..=4294967295",
        ),
        (
            &["smooth", "--method", "catmull-rom", "--alpha", "-1"],
            "alpha",
        ),
        (
            &["smooth", "--method", "catmull-rom", "--subdivisions", "-2"],
            "-2 is not in 0..",
        ),
        (
            &[
                "smooth",
                "--method",
                "adaptive-chaikin",
                "--angle-limit",
                "-5",
            ],
            "angle_limit",
        ),
        (&["follow", "--max-speed", "-1"], "max_speed"),
        (&["follow", "--stop-angle", "-10"], "stop_angle"),
        (&["follow", "--csv", "-", "--rate", "-1"], "rate"),
    ] {
        let e = assert_clean_failure(&run_with_stdin(args, path));
        assert!(e.contains(expected), "{args:?}: {e}");
        assert!(!e.contains("unexpected argument"), "{args:?}: {e}");
    }
    let corridor = r#"{"centers": [[0,0],[1,0]], "radii": [1, 1]}"#;
    for (flag, expected) in [
        ("--beta", "beta"),
        ("--alpha", "alpha"),
        ("--tolerance", "tolerance"),
        ("--iterations", "-1 is not in 0.."),
    ] {
        let args = ["optimize", "--corridor", "-", flag, "-1"];
        let e = assert_clean_failure(&run_with_stdin(&args, corridor));
        assert!(e.contains(expected), "{flag}: {e}");
    }
}

#[test]
fn smoothing_output_is_capped_in_bytes_not_an_allocation_abort() {
    // 18 passes on 1002 points asked for 262 million points (6 GB with the JSON tree) and
    // aborted with "memory allocation of 6291456048 bytes failed".
    let points: Vec<String> = (0..1002).map(|i| format!("[{i},{}]", i % 2)).collect();
    let path = format!("[{}]", points.join(","));
    let e = assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "chaikin", "--passes", "18"],
        &path,
    ));
    assert!(
        e.contains("262144002 points") && e.contains("16777216"),
        "{e}"
    );
    let e = assert_clean_failure(&run_with_stdin(
        &[
            "smooth",
            "--method",
            "catmull-rom",
            "--subdivisions",
            "65536",
        ],
        &path,
    ));
    assert!(e.contains("more than the cap"), "{e}");
}

#[test]
fn plan_with_many_passes_fails_fast_at_the_output_cap() {
    // `plan --passes 20` ran for ever: map-aware Chaikin on the A* path asked for 87
    // million points.
    let map = movingai("dao/den312d.map");
    let e = assert_clean_failure(&run(plan_10_10_to_50_70(
        map.to_str().unwrap(),
        &["--method", "chaikin", "--passes", "20"],
    )));
    assert!(e.contains("more than the cap of 16777216"), "{e}");
}

#[test]
fn optimize_iterations_have_an_upper_bound() {
    let corridor = r#"{"centers": [[0,0],[1,0]], "radii": [1, 1]}"#;
    let e = assert_clean_failure(&run_with_stdin(
        &[
            "optimize",
            "--corridor",
            "-",
            "--iterations",
            "1000001",
            "--energy-csv",
            "-",
        ],
        corridor,
    ));
    assert!(e.contains("iterations") && e.contains("1000000"), "{e}");
}

/// A 6×4 room as a polyanya `.mesh`: a pentagon (a quad with vertex 7 on its top edge)
/// below two quads, and a stray fourth polygon, a triangle on the pentagon's bottom edge.
const ROOM_MESH: &str = "mesh\n2\n8 4\n\
    0 0 2 0 -1\n6 0 2 0 -1\n6 2 3 0 2 -1\n0 2 3 0 1 -1\n3 4 3 1 2 -1\n0 4 2 1 -1\n\
    6 4 2 2 -1\n3 2 3 0 2 1\n\
    5 0 1 2 7 3 -1 -1 -1 2 1\n\
    4 3 7 4 5 -1 0 2 -1\n\
    4 7 2 6 4 1 0 -1 -1\n\
    3 0 1 2 -1 -1 -1\n";

/// `plan --navmesh file` across the room of [`ROOM_MESH`], from (0.5, 0.5) to (5.5, 3.5),
/// with the `extra` arguments.
fn plan_across_room(file: &std::path::Path, extra: &[&str]) -> Output {
    bin()
        .args(["plan", "--navmesh"])
        .arg(file)
        .args(["--from", "0.5,0.5", "--to", "5.5,3.5"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn plan_and_bench_on_mesh_and_obj_navmeshes() {
    let dir = tmp_dir("meshfiles");
    // The last polygon line above is a stray triangle: drop it and the count.
    let mesh_text = ROOM_MESH
        .replace("8 4\n", "8 3\n")
        .replace("3 0 1 2 -1 -1 -1\n", "");
    let mesh = dir.join("room.mesh");
    std::fs::write(&mesh, &mesh_text).unwrap();
    let obj = dir.join("room.obj");
    std::fs::write(
        &obj,
        "v 0 0 0\nv 6 0 0\nv 6 0 2\nv 0 0 2\nv 3 0 4\nv 0 0 4\nv 6 0 4\nv 3 0 2\n\
         f 1 2 3 8 4\nf 4 8 5 6\nf 8 3 7 5\n",
    )
    .unwrap();
    let obj_xy = dir.join("room_xy.obj");
    std::fs::write(
        &obj_xy,
        "v 0 0 0\nv 6 0 0\nv 6 2 0\nv 0 2 0\nv 3 4 0\nv 0 4 0\nv 6 4 0\nv 3 2 0\n\
         f 1 2 3 8 4\nf 4 8 5 6\nf 8 3 7 5\n",
    )
    .unwrap();
    for (file, plane) in [(&mesh, "xz"), (&obj, "xz"), (&obj_xy, "xy")] {
        let out = plan_across_room(
            file,
            &[
                "--ground-plane",
                plane,
                "--method",
                "funnel",
                "--output",
                "-",
            ],
        );
        assert!(
            out.status.success(),
            "{}: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let path = String::from_utf8_lossy(&out.stdout);
        assert!(
            path.contains("[0.5,0.5]") && path.contains("[5.5,3.5]"),
            "{path}"
        );
        // The straight path starts in polygon 0 (the pentagon) and ends in polygon 2.
        let out = plan_across_room(
            file,
            &["--ground-plane", plane, "--method", "funnel", "--polygons"],
        );
        let notes = String::from_utf8_lossy(&out.stderr);
        assert!(
            notes.contains("funnel: polygons of its points: 0[start] 2[end]"),
            "{notes}"
        );
        let out = bin()
            .args(["bench", "--navmesh"])
            .arg(file)
            .args(["--ground-plane", plane, "--queries", "10", "--quiet"])
            .output()
            .unwrap();
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{table}");
        assert!(
            table.contains("3 polygons") && table.contains("valid %"),
            "{table}"
        );
        // Both methods, every path valid.
        for m in ["funnel", "relax"] {
            let row = table.lines().find(|l| l.contains(m)).unwrap();
            assert!(row.contains("100.0"), "{table}");
        }
    }
    // The OBJ read on the wrong plane: every vertex at y = 0 is a duplicate.
    let e = assert_clean_failure(&plan_across_room(&obj, &["--ground-plane", "xy"]));
    assert!(e.contains("room.obj:3:") && e.contains("both at"), "{e}");
    let e = assert_clean_failure(&plan_across_room(&obj, &["--ground-plane", "yz"]));
    assert!(e.contains("yz"), "{e}");
}

#[test]
fn bad_mesh_files_fail_cleanly_with_the_line() {
    let dir = tmp_dir("badmesh");
    // The stray triangle shares the pentagon's bottom edge, which the pentagon marks as a
    // wall: inconsistent neighbour data, reported at the pentagon's line (12).
    let bad = dir.join("stray.mesh");
    std::fs::write(&bad, ROOM_MESH).unwrap();
    let e = assert_clean_failure(&plan_across_room(&bad, &[]));
    assert!(
        e.contains("stray.mesh:12:") && e.contains("marked -1"),
        "{e}"
    );
    // Inconsistent neighbour data: polygon 1 says polygon 2 is below it (line 13).
    let bad = dir.join("neighbours.mesh");
    std::fs::write(
        &bad,
        ROOM_MESH
            .replace("8 4\n", "8 3\n")
            .replace("3 0 1 2 -1 -1 -1\n", "")
            .replace("4 3 7 4 5 -1 0 2 -1", "4 3 7 4 5 -1 2 2 -1"),
    )
    .unwrap();
    let e = assert_clean_failure(&run([
        "bench",
        "--navmesh",
        bad.to_str().unwrap(),
        "--quiet",
    ]));
    assert!(e.contains("neighbours.mesh:13:"), "{e}");
}

#[test]
fn smooth_fillet_rounds_corners_with_the_turning_radius() {
    let dir = tmp_dir("fillet_smooth");
    let svg = dir.join("fillet.svg");
    let out = run_with_stdin(
        &[
            "smooth",
            "--method",
            "fillet",
            "--turn-radius",
            "3",
            "--metrics",
            "--svg",
            svg.to_str().unwrap(),
        ],
        r#"{"points": [[0,0],[10,0],[10,10]]}"#,
    );
    assert_success(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts[0], serde_json::json!([0.0, 0.0]));
    assert_eq!(pts[pts.len() - 1], serde_json::json!([10.0, 10.0]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 corners, 0 below the turning radius 3"),
        "{err}"
    );
    assert!(err.contains("max curvature 0.3333"), "{err}");
    // The arc is an SVG arc command of radius 3 (in pixels: 3 × the scale).
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("<path d=\"M") && text.contains(" A"),
        "{text}"
    );
    // Bad radius, 3D input: one clean error line.
    let e = assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "fillet", "--turn-radius", "-1"],
        r#"{"points": [[0,0],[10,0],[10,10]]}"#,
    ));
    assert!(e.contains("turn_radius"), "{e}");
    let e = assert_clean_failure(&run_with_stdin(
        &["smooth", "--method", "fillet"],
        "0,0,0\n1,0,0\n1,1,0\n",
    ));
    assert!(e.contains("2D"), "{e}");
}

#[test]
fn plan_and_bench_fillet_on_a_real_map() {
    let map = movingai("dao/den312d.map");
    let dir = tmp_dir("fillet_plan");
    let svg = dir.join("plan.svg");
    for g2 in [false, true] {
        let mut args = plan_10_10_to_50_70(
            map.to_str().unwrap(),
            &[
                "--method",
                "fillet",
                "--radius",
                "0.3",
                "--turn-radius",
                "3",
                "--svg",
                svg.to_str().unwrap(),
            ],
        );
        if g2 {
            args.push("--g2");
        }
        let out = run(args);
        assert_success(&out);
        let text = String::from_utf8_lossy(&out.stdout);
        let row = text.lines().find(|l| l.starts_with("fillet")).unwrap();
        assert!(row.contains(" yes "), "{row}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("corners below the turning radius"));
        assert!(std::fs::read_to_string(&svg)
            .unwrap()
            .contains("<path d=\"M"));
    }
    let scen = movingai("dao/den312d.map.scen");
    let out = bin()
        .arg("bench")
        .arg("--map")
        .arg(&map)
        .arg("--scen")
        .arg(&scen)
        .args([
            "--every",
            "40",
            "--methods",
            "shortcut,fillet",
            "--radius",
            "0.3",
            "--turn-radius",
            "3",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("max curvature") && text.contains("corners < ρ"),
        "{text}"
    );
    let row = text.lines().find(|l| l.starts_with("fillet")).unwrap();
    assert!(row.contains("100.0"), "not all valid: {row}");
}

/// The `<g class="panel" …>` groups of a sheet's SVG: (data-title, the group's text up to
/// the next panel or the legend).
fn svg_panels(svg: &str) -> Vec<(String, String)> {
    let mut parts: Vec<&str> = svg.split(r#"<g class="panel" data-title=""#).collect();
    parts.remove(0);
    parts
        .into_iter()
        .map(|p| {
            let (title, rest) = p.split_once('"').unwrap();
            let body = rest.split(r#"<g class="legend">"#).next().unwrap();
            (title.to_string(), body.to_string())
        })
        .collect()
}

/// The numbers of a `points="x,y x,y …"` attribute.
fn svg_points(attr: &str) -> Vec<(f64, f64)> {
    attr.split_whitespace()
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn demo_pictures_show_the_agent_every_method_and_the_scale() {
    let (dir, stdout) = demo_run();
    let svg = std::fs::read_to_string(dir.join("demo.svg")).unwrap();
    let methods = GRID_PLAN_METHODS;
    // One panel per method, in order, each titled with its name.
    let panels = svg_panels(&svg);
    let titles: Vec<&str> = panels.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(titles, methods);
    // The map table's rows: method, valid, points, length, vs A*, max turn°, total turn°,
    // clearance, follow s, time ms.
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Embedded map"))
        .skip(3)
        .take(methods.len())
        .map(|l| l.split_whitespace().collect())
        .collect();
    for ((name, body), row) in panels.iter().zip(&rows) {
        assert_eq!(row[0], name, "{stdout}");
        // The agent's band (radius 0.4 at 6 px a cell: 4.8 px wide) under the path.
        assert_eq!(body.matches(r#"class="band""#).count(), 1, "{name}");
        assert!(body.contains(r#"stroke-width="4.80""#), "{name}");
        // Start and goal as dots, a scale bar.
        for end in ["start", "goal"] {
            let dot = format!(r#"<circle class="marker" data-label="{end}""#);
            assert_eq!(body.matches(&dot).count(), 1, "{name}: {end}");
        }
        assert!(body.contains(r#"class="scale-bar""#), "{name}");
        assert!(body.contains(" cells</text>"), "{name}");
        // The metrics of the printed table in the panel's heading.
        for text in [
            format!("length {}, max turn {}°", row[3], row[5]),
            format!("clearance {}, valid {}", row[7], row[1]),
            format!("time {} ms", row[10]),
        ] {
            assert!(body.contains(&text), "{name}: no `{text}` in its heading");
        }
        // A step the pipeline skipped is in the heading, in red.
        let note = format!("note: {name}: step ");
        if stdout.contains(&note) {
            assert!(body.contains("skipped:"), "{name}");
            assert!(body.contains(r#"class="alert""#), "{name}");
        } else {
            assert!(!body.contains("skipped"), "{name}");
        }
    }
    // The legend shows start and goal as dots, not line swatches.
    let legend = svg.split_once(r#"<g class="legend">"#).unwrap().1;
    for end in ["start", "goal"] {
        let entry = legend
            .split(r#"<g class="legend">"#)
            .find(|e| e.contains(&format!(">{end}</text>")))
            .unwrap_or_else(|| panic!("no legend entry for {end}"));
        assert!(entry.starts_with("<circle"), "{entry}");
    }
    assert!(std::fs::read(dir.join("demo.png"))
        .unwrap()
        .starts_with(b"\x89PNG"));

    // The curves picture's first panel holds every curve: each point of each polyline
    // lies inside the picture (the old picture left the path's far end off the canvas).
    let curves = std::fs::read_to_string(dir.join("demo-curves.svg")).unwrap();
    let size = |attr: &str| -> f64 {
        let v = curves.split_once(&format!(r#" {attr}=""#)).unwrap().1;
        v.split('"').next().unwrap().parse().unwrap()
    };
    let (w, h) = (size("width"), size("height"));
    let (_, whole) = &svg_panels(&curves)[0];
    let (tx, ty) = {
        let t = whole.split_once("translate(").unwrap().1;
        let (x, rest) = t.split_once(',').unwrap();
        let y = rest.split(')').next().unwrap();
        (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap())
    };
    let polylines: Vec<&str> = whole
        .split("<polyline points=\"")
        .skip(1)
        .map(|p| p.split('"').next().unwrap())
        .collect();
    assert_eq!(polylines.len(), 4, "input and three curves");
    for (x, y) in polylines.iter().flat_map(|p| svg_points(p)) {
        assert!(
            (0.0..=w).contains(&(x + tx)) && (0.0..=h).contains(&(y + ty)),
            "({x}, {y}) is off the {w}×{h} canvas"
        );
    }
    assert!(curves.contains(r#"class="scale-bar""#));
}

#[test]
fn relax_at_a_radius_does_not_double_back() {
    // At radius 0.5 on the demo map, one-cell passages fit the agent exactly; the relax
    // step's fix once spliced in the world's path there with a 180° spike (through a cell
    // centre past a node on the cell's edge and back).
    let (text, relax) = relax_row_on_the_demo_map("30,31", "20,64", "0.5", "relax");
    let cells: Vec<&str> = relax.split_whitespace().collect();
    assert_eq!((cells[1], cells[9]), ("yes", "ok"), "{text}");
    let max_turn: f64 = cells[5].parse().unwrap();
    assert!(max_turn < 170.0, "{text}");
}
