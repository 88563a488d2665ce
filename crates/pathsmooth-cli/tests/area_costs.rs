//! `--area-costs` and `--keep-route` of `plan` and `bench` (issue 28): the binary's output
//! checked against the library's own cost and route computations.

use std::path::{Path, PathBuf};

use glam::DVec2;
use pathsmooth::io::{parse_path, Format, PathData};
use pathsmooth::world::path_cost;
use pathsmooth::{GridMap, GridWorld, World};

use crate::support;
use support::{assert_clean_failure, run, stdout, GRID_PLAN_METHODS};

fn tmp_dir(name: &str) -> PathBuf {
    support::tmp_dir("areas", name)
}

/// 20 × 12 cells: walls round the edge, a swamp block (x 6–13, y 2–9) across the straight
/// line from (2, 5) to (17, 6), one water cell at (17, 2).
const SWAMP_MAP: &str = "type octile\nheight 12\nwidth 20\nmap\n\
@@@@@@@@@@@@@@@@@@@@\n\
@..................@\n\
@.....SSSSSSSS...W.@\n\
@.....SSSSSSSS.....@\n\
@.....SSSSSSSS.....@\n\
@.....SSSSSSSS.....@\n\
@.....SSSSSSSS.....@\n\
@.....SSSSSSSS.....@\n\
@.....SSSSSSSS.....@\n\
@.....SSSSSSSS.....@\n\
@..................@\n\
@@@@@@@@@@@@@@@@@@@@\n";

/// A swamp band from wall to wall (x 8–9): excluding swamp cuts the map in two.
const BAND_MAP: &str = "type octile\nheight 6\nwidth 12\nmap\n\
@@@@@@@@@@@@\n\
@.......SS.@\n\
@.......SS.@\n\
@.......SS.@\n\
@.......SS.@\n\
@@@@@@@@@@@@\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    file.to_str().unwrap().to_string()
}

fn world(text: &str, costs: &str) -> GridWorld {
    let map = GridMap::parse(text, "test map").unwrap();
    GridWorld::new(map)
        .unwrap()
        .with_area_costs(costs.parse().unwrap())
        .unwrap()
}

fn read_points(file: &Path) -> Vec<DVec2> {
    let text = std::fs::read_to_string(file).unwrap();
    match parse_path(&text, Format::Json, "out").unwrap() {
        PathData::D2(p) => p,
        PathData::D3(_) => panic!("a 2D path expected"),
    }
}

/// The cells of a table row, by the header's column names.
fn column(table: &str, row: &str, name: &str) -> String {
    let header: Vec<&str> = table
        .lines()
        .next()
        .unwrap()
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let i = header
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    support::table_row(table, row)[i].to_string()
}

#[test]
fn plan_with_area_costs_shows_the_cost_and_never_raises_it() {
    let dir = tmp_dir("plan");
    let map = write(&dir, "swamp.map", SWAMP_MAP);
    let ends = ["--from", "2,5", "--to", "17,6"];
    let out = run(["plan", "--map", &map]
        .iter()
        .chain(&ends)
        .chain(&["--area-costs", "S=4"]));
    let table = stdout(&out);
    assert!(
        table.lines().next().unwrap().contains("  cost  cost/A*  "),
        "{table}"
    );
    for m in GRID_PLAN_METHODS {
        assert_eq!(column(&table, m, "valid"), "yes", "{table}");
        let rel: f64 = column(&table, m, "cost/A*").parse().unwrap();
        assert!(rel <= 1.0, "{m}: cost/A* {rel}\n{table}");
    }
    // The cost is the library's: the A* path minimises it, and goes round the swamp.
    let costly = world(SWAMP_MAP, "S=4");
    let (start, goal) = (DVec2::new(2.5, 5.5), DVec2::new(17.5, 6.5));
    let planned = costly.find_path(start, goal, 0.0).unwrap();
    let planned_cost = path_cost(&costly, &planned);
    let shown: f64 = column(&table, "astar", "cost").parse().unwrap();
    assert!(
        (shown - planned_cost).abs() < 1e-3,
        "{shown} vs {planned_cost}"
    );

    // A smoothed path, written out, costs no more than the planner's path.
    let plan_to = |file: &Path, costs: &[&str]| {
        let mut args = vec!["plan", "--map", &map, "--method", "shortcut-chaikin"];
        args.extend_from_slice(&ends);
        args.extend_from_slice(costs);
        args.extend_from_slice(&["--output", file.to_str().unwrap()]);
        stdout(&run(args))
    };
    let file = dir.join("shortcut-chaikin.json");
    plan_to(&file, &["--area-costs", "S=4"]);
    let smooth = read_points(&file);
    let cost = path_cost(&costly, &smooth);
    assert!(
        cost <= planned_cost * (1.0 + 1e-9),
        "{cost} > {planned_cost}"
    );

    // Without area costs the same method cuts through the swamp: what the costs prevent.
    let plain = dir.join("plain.json");
    let table = plan_to(&plain, &[]);
    assert!(
        !table.contains("cost"),
        "no cost columns without --area-costs: {table}"
    );
    let through = path_cost(&costly, &read_points(&plain));
    assert!(through > planned_cost * 1.1, "{through} vs {planned_cost}");
}

#[test]
fn bad_area_costs_are_one_clear_error() {
    let dir = tmp_dir("bad");
    let map = write(&dir, "swamp.map", SWAMP_MAP);
    let band = write(&dir, "band.map", BAND_MAP);
    let plan = |map: &str, from: &str, to: &str, costs: &str| {
        assert_clean_failure(&run([
            "plan",
            "--map",
            map,
            "--from",
            from,
            "--to",
            to,
            "--area-costs",
            costs,
        ]))
    };
    let cases = [
        ("S=0", "area cost for S: cost 0 is not a number in"),
        ("S=-1", "area cost for S: cost -1 is not a number in"),
        ("S=NaN", "area cost for S"),
        ("S=inf", "area cost for S"),
        ("S=1e9", "area cost for S"),
        ("S=abc", "cost `abc` is neither a number nor `exclude`"),
        ("S", "expected AREA=COST"),
        ("T=2", "`T` is a wall in Moving AI maps, not an area"),
        ("@=2", "`@` is a wall in Moving AI maps"),
        ("O=2", "`O` is a wall in Moving AI maps"),
        ("Q=1", "unknown area `Q`"),
        ("7=2", "area id 7 names a navmesh area"),
        ("G=2,.=3", "same area"),
        (".=exclude,S=exclude", "the world has no free space"),
    ];
    for (costs, needle) in cases {
        let err = plan(&map, "2,5", "17,6", costs);
        assert!(
            err.contains("--area-costs") && err.contains(needle),
            "{costs}: {err}"
        );
    }
    // A start in water (excluded by default), a goal in excluded swamp.
    let err = plan(&map, "17,2", "2,5", "S=4");
    assert!(
        err.contains("start (17.5, 2.5) is in area W, which the area costs exclude"),
        "{err}"
    );
    let err = plan(&map, "2,5", "8,5", "S=exclude");
    assert!(
        err.contains("goal (8.5, 5.5) is in area S, which the area costs exclude"),
        "{err}"
    );
    // Every route excluded: the goal lies beyond the swamp band; with a cost it is crossed.
    let err = plan(&band, "1,1", "10,3", "S=exclude");
    assert!(
        err.contains("the goal (10.5, 3.5) cannot be reached from the start (1.5, 1.5)"),
        "{err}"
    );
    let crossed = run([
        "plan",
        "--map",
        &band,
        "--from",
        "1,1",
        "--to",
        "10,3",
        "--area-costs",
        "S=2",
        "--method",
        "astar",
    ]);
    stdout(&crossed);

    // Navmeshes have no area costs yet: said so, before anything is read.
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scene.json");
    let plan_scene = ["plan", "--navmesh", scene, "--from", "1,1", "--to", "2,2"];
    let bench_scene = ["bench", "--navmesh", scene, "--quiet"];
    for (command, option, needle) in [
        (
            &plan_scene[..],
            &["--area-costs", "S=4"][..],
            "this mesh's polygons have none",
        ),
        (
            &bench_scene,
            &["--area-costs", "S=4"],
            "not supported for navmeshes yet",
        ),
        (
            &plan_scene,
            &["--keep-route"],
            "--keep-route needs a grid map",
        ),
    ] {
        let err = assert_clean_failure(&run(command.iter().chain(option)));
        assert!(err.contains(needle), "{option:?}: {err}");
    }
}

#[test]
fn bench_reports_cost_over_the_planners_path() {
    let dir = tmp_dir("bench");
    let map = write(&dir, "swamp.map", SWAMP_MAP);
    // Two queries across the swamp, one starting in it.
    let scen = write(
        &dir,
        "swamp.map.scen",
        "version 1\n0\tswamp.map\t20\t12\t2\t5\t17\t6\t16\n0\tswamp.map\t20\t12\t1\t1\t18\t10\t20\n0\tswamp.map\t20\t12\t7\t4\t12\t8\t7\n",
    );
    // `bench` over those queries with `extra`: what it printed, and its table (from the
    // header row on).
    let bench = |extra: &[&str]| {
        let mut args = vec!["bench", "--map", &map, "--scen", &scen, "--quiet"];
        args.extend_from_slice(extra);
        let text = stdout(&run(args));
        let table: String = text
            .lines()
            .skip_while(|l| !l.starts_with("method"))
            .collect::<Vec<_>>()
            .join("\n");
        (text, table)
    };
    let csv = dir.join("bench.csv");
    let (text, table) = bench(&["--area-costs", "S=4", "--csv", csv.to_str().unwrap()]);
    for m in [
        "astar",
        "shortcut",
        "shortcut-chaikin",
        "funnel",
        "corridor",
    ] {
        assert_eq!(column(&table, m, "paths"), "3", "{text}");
        let median: f64 = column(&table, m, "med cost/A*").parse().unwrap();
        let max: f64 = column(&table, m, "max cost/A*").parse().unwrap();
        assert!(median <= max && max <= 1.0, "{m}: {median} {max}\n{text}");
    }
    // Chaikin cuts every corner: its paths are cheaper than A*'s, and the table says so.
    let median: f64 = column(&table, "shortcut-chaikin", "med cost/A*")
        .parse()
        .unwrap();
    assert!(median < 1.0, "{text}");
    // The CSV: each path's cost and its A* path's, by the library's measure.
    let csv = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (cost, astar_cost, rel) = (at("cost"), at("astar_cost"), at("rel_cost"));
    let costly = world(SWAMP_MAP, "S=4");
    let planned = costly
        .find_path(DVec2::new(2.5, 5.5), DVec2::new(17.5, 6.5), 0.0)
        .unwrap();
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let num = |i: usize| cells[i].parse::<f64>().unwrap();
        assert!(num(cost) <= num(astar_cost) * (1.0 + 1e-9), "{line}");
        assert!(
            (num(rel) - num(cost) / num(astar_cost)).abs() < 1e-12,
            "{line}"
        );
        if cells[0] == "0" && cells[1] == "astar" {
            assert_eq!(num(astar_cost), path_cost(&costly, &planned), "{line}");
        }
        rows += 1;
    }
    assert_eq!(rows, 3 * 9, "{csv}");

    // Keeping the route: the same counts, the cost still never above the planner's.
    let (text, table) = bench(&[
        "--area-costs",
        "S=4",
        "--keep-route",
        "1",
        "--methods",
        "astar,shortcut-chaikin,corridor",
    ]);
    for m in ["astar", "shortcut-chaikin", "corridor"] {
        assert_eq!(column(&table, m, "valid %"), "100.0", "{text}");
        let max: f64 = column(&table, m, "max cost/A*").parse().unwrap();
        assert!(max <= 1.0, "{m}: {max}\n{text}");
    }

    // With swamp excluded, the query starting in it is skipped with its reason.
    let (text, _) = bench(&["--area-costs", "S=exclude", "--methods", "astar"]);
    assert!(
        text.contains("1 scenarios skipped: no path under the area costs (first: scenario 2: start (7.5, 4.5) is in area S"),
        "{text}"
    );
}

#[test]
fn keep_route_smooths_within_the_planners_cells() {
    let dir = tmp_dir("route");
    // Open ground: A* runs diagonally then straight; a shortcut would cut across cells the
    // A* path never touched.
    let open = "type octile\nheight 12\nwidth 16\nmap\n".to_string()
        + &format!("{}\n", "@".repeat(16))
        + &format!("@{}@\n", ".".repeat(14)).repeat(10)
        + &format!("{}\n", "@".repeat(16));
    let map = write(&dir, "open.map", &open);
    let world = GridWorld::new(GridMap::parse(&open, "open").unwrap()).unwrap();
    let (start, goal) = (DVec2::new(1.5, 1.5), DVec2::new(14.5, 6.5));
    let planned = world.find_path(start, goal, 0.0).unwrap();
    let plan = |extra: &[&str], file: &Path| {
        let mut args = vec![
            "plan",
            "--map",
            &map,
            "--from",
            "1,1",
            "--to",
            "14,6",
            "--method",
            "shortcut-chaikin",
            "--output",
            file.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        stdout(&run(args));
        read_points(file)
    };
    for margin in [0, 1] {
        let route = world.route_world(&planned, margin).unwrap();
        let m = margin.to_string();
        let kept = plan(
            &["--keep-route", &m],
            &dir.join(format!("kept{margin}.json")),
        );
        assert!(
            pathsmooth::is_valid(&route, &kept, 0.0),
            "margin {margin}: {kept:?}"
        );
        // The ends are the planner's: the path was smoothed, not re-planned elsewhere.
        assert_eq!((kept[0], kept[kept.len() - 1]), (start, goal));
    }
    // `--keep-route` alone is margin 0.
    let route = world.route_world(&planned, 0).unwrap();
    let bare = plan(&["--keep-route"], &dir.join("bare.json"));
    assert!(pathsmooth::is_valid(&route, &bare, 0.0));
    // A margin wider than the map keeps the whole map (and is not a long loop).
    let wide = plan(
        &["--keep-route", "18446744073709551615"],
        &dir.join("wide.json"),
    );
    assert!(pathsmooth::is_valid(&world, &wide, 0.0));
    // Without it the smoother leaves the route: the check above can fail.
    let free = plan(&[], &dir.join("free.json"));
    assert!(!pathsmooth::is_valid(&route, &free, 0.0), "{free:?}");
    assert!(pathsmooth::is_valid(&world, &free, 0.0));
}

/// On a layered navmesh (the dungeon bake with Recast areas 1–4), `--area-costs` names
/// area ids: the cost is noted beside each method and never above its planner's path;
/// letters and ids the navmesh does not have are one clear error.
#[test]
fn layered_navmesh_area_costs_by_id() {
    let bake = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../pathsmooth/tests/data/navmesh/dungeon.areas.navmesh.json"
    );
    let ends = ["--from", "9.6,10.4,-39.7", "--to", "18.76,10.4,3.07"];
    let base = ["plan", "--navmesh", bake, "--radius", "0.3"];
    let out = run(base
        .iter()
        .chain(&ends)
        .chain(&["--area-costs", "1=8,2=8,3=8,4=8"]));
    // The table on stdout, the notes on stderr.
    let text = stdout(&out) + &String::from_utf8_lossy(&out.stderr);
    // Each method's line (a step skipped because its path would cost more has a note
    // that names the area costs too: not one of these).
    let notes: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("under the area costs (its planner's path:"))
        .collect();
    assert!(!notes.is_empty(), "{text}");
    for note in notes {
        // "funnel: cost 163.418 under the area costs (its planner's path: 163.418)"
        let num = |after: &str| -> f64 {
            let rest = &note[note.find(after).unwrap() + after.len()..];
            rest.trim_start()
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert!(num("cost") <= num("path:") + 1e-3, "{note}");
    }
    for (spec, words) in [
        ("S=2", "navmesh areas are numbered"),
        ("9=2", "no polygon has area 9"),
    ] {
        let out = run(base.iter().chain(&ends).chain(&["--area-costs", spec]));
        let err = assert_clean_failure(&out);
        assert!(err.contains(words), "{spec}: {err}");
    }
}
