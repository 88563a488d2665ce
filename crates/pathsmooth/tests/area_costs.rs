//! Area costs on real maps (issue 28): every Moving AI DEV map with swamp (`S`, cost 4)
//! and water (`W`, excluded as the format defines it) painted by a seeded generator; at
//! radius 0 and 0.3, every method's output costs no more than the planner's path, as
//! measured by an exact cost integral written here (length inside each cell × its cost,
//! sharing no code with the library); nothing enters water; grid A*'s cost equals an
//! independent 8-connected Dijkstra's optimum; with every cost 1 the results are those
//! of the map without areas, bit for bit.

use crate::common;

use glam::DVec2;
use pathsmooth::area::AreaCosts;
use pathsmooth::grid::{GridMap, Scenario};
use pathsmooth::{Error, GridWorld, Pipeline, Step, World};

use common::areas::{in_water, painted, Terrain};

/// The methods the sweep runs, as a user would pick them.
fn methods() -> Vec<(&'static str, Vec<Step>)> {
    vec![
        ("shortest", vec![Step::Shortcut]),
        ("smooth", vec![Step::Shortcut, Step::chaikin()]),
        ("chaikin", vec![Step::chaikin()]),
        ("catmull-rom", vec![Step::Shortcut, Step::catmull_rom()]),
        ("fillet", vec![Step::Shortcut, Step::fillet(1.0)]),
        ("corridor", vec![Step::corridor()]),
        ("funnel", vec![Step::Funnel]),
        ("relax", vec![Step::relax()]),
    ]
}

/// Every DEV map, swamp at cost 4, water excluded: the properties of the module docs.
#[test]
fn no_method_raises_the_planners_cost_on_real_maps() {
    let maps = common::real_maps(&common::MAPS);
    let mut table = Vec::new();
    for (seed, (name, map, scen)) in maps.enumerate() {
        let rows = painted(&map, 28 + seed as u64);
        let terrain = Terrain::new(&rows, 4.0);
        let costs: AreaCosts = "S=4".parse().unwrap();
        let world = GridWorld::new(GridMap::from_rows(&rows).unwrap())
            .unwrap()
            .with_area_costs(costs)
            .unwrap();
        let scenarios: Vec<Scenario> = common::sweep(&scen, 3, 10);
        let (mut runs, mut worst) = (0, 0.0f64);
        let mut per_method = vec![(0.0f64, 0usize, 0usize); methods().len()];
        for s in &scenarios {
            let (a, b) = (s.start_point(), s.goal_point());
            if in_water(&rows, a) || in_water(&rows, b) {
                let e = world.find_path(a, b, 0.0).unwrap_err();
                assert!(matches!(e, Error::ExcludedArea { .. }), "{name}: {e}");
                continue;
            }
            // A*'s cost is the 8-connected optimum.
            let (sc, gc) = (s.start, s.goal);
            if let Ok(cells) = world.find_cell_path(a, b, 0.0) {
                let best = terrain.dijkstra(sc, gc);
                assert!(
                    (cells.cost - best).abs() <= 1e-9 * best,
                    "{name} {s:?}: A* cost {} vs optimum {best}",
                    cells.cost
                );
                let integral = terrain.path(&cells.points);
                assert!(
                    (integral - cells.cost).abs() <= 1e-9 * best.max(1.0),
                    "{name} {s:?}"
                );
            }
            for radius in [0.0, 0.3] {
                let Ok(planned) = world.find_path(a, b, radius) else {
                    continue;
                };
                let planner_cost = terrain.path(&planned);
                assert!(
                    planner_cost.is_finite(),
                    "{name} {s:?} r {radius}: planner enters water"
                );
                for (k, (method, steps)) in methods().into_iter().enumerate() {
                    let mut p = Pipeline::new(&world, radius).unwrap().with_steps(steps);
                    let out = p
                        .plan(a, b)
                        .unwrap_or_else(|e| panic!("{name} {s:?} r {radius} {method}: {e}"));
                    let cost = terrain.path(&out);
                    assert!(
                        cost.is_finite(),
                        "{name} {s:?} r {radius} {method}: enters water"
                    );
                    assert!(
                        cost <= planner_cost * (1.0 + 1e-9),
                        "{name} {s:?} r {radius} {method}: cost {cost} > planner's {planner_cost}"
                    );
                    // The report's figures are the library's own integral of the same paths.
                    let report = p.report();
                    assert!(
                        (report.cost - cost).abs() <= 1e-9 * cost.max(1.0),
                        "{method}"
                    );
                    worst = worst.max(cost / planner_cost);
                    runs += 1;
                    let m = &mut per_method[k];
                    m.0 += cost / planner_cost;
                    m.1 += 1;
                    m.2 += usize::from(!report.skipped.is_empty());
                }
            }
        }
        let means: Vec<String> = methods()
            .iter()
            .zip(&per_method)
            .map(|((m, _), (sum, n, skipped))| {
                format!("{m} {:.4} ({skipped} skipped)", sum / (*n).max(1) as f64)
            })
            .collect();
        table.push(format!(
            "{name}: {runs} runs, worst output/planner cost {worst:.6}; mean by method: {}",
            means.join(", ")
        ));
    }
    println!("{}", table.join("\n"));
}

/// The measurement, before and after: each method's output cost relative to the
/// cheapest 8-connected path (Dijkstra over the painted map), at radius 0, when the
/// smoothing ignores the costs (planner and steps on the map without them, as before area
/// costs existed) and when it keeps them. Cost-blind smoothing must cost more somewhere
/// (else the sweep would show nothing); cost-aware smoothing never more than its planner,
/// whose cost is the optimum's (the cell path's legs from the exact start and goal aside).
#[test]
fn cost_blind_smoothing_costs_more_than_cost_aware() {
    let maps = common::real_maps(&common::MAPS);
    let methods = methods();
    let mut ratios = vec![(Vec::new(), Vec::new()); methods.len()];
    for (seed, (name, map, scen)) in maps.enumerate() {
        let rows = painted(&map, 28 + seed as u64);
        let terrain = Terrain::new(&rows, 4.0);
        let blind = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
        let aware = GridWorld::new(GridMap::from_rows(&rows).unwrap())
            .unwrap()
            .with_area_costs("S=4".parse().unwrap())
            .unwrap();
        for s in common::sweep(&scen, 3, 10) {
            let (a, b) = (s.start_point(), s.goal_point());
            if in_water(&rows, a) || in_water(&rows, b) {
                continue;
            }
            let best = terrain.dijkstra(s.start, s.goal);
            if !best.is_finite() || best == 0.0 {
                continue;
            }
            for (k, (method, steps)) in methods.iter().enumerate() {
                let run = |w: &GridWorld| {
                    let mut p = Pipeline::new(w, 0.0).unwrap().with_steps(steps.clone());
                    let out = p
                        .plan(a, b)
                        .unwrap_or_else(|e| panic!("{name} {method}: {e}"));
                    terrain.path(&out) / best
                };
                ratios[k].0.push(run(&blind));
                ratios[k].1.push(run(&aware));
            }
        }
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let q = |f: f64| v[((v.len() - 1) as f64 * f) as usize];
        (q(0.5), q(0.9), v[v.len() - 1])
    };
    println!("method       cost-blind: median   p90    max | cost-aware: median   p90    max");
    let mut blind_worst = 0.0f64;
    for ((method, _), (blind, aware)) in methods.iter().zip(&mut ratios) {
        let (b, a) = (stats(blind), stats(aware));
        blind_worst = blind_worst.max(b.2);
        println!(
            "{method:12} {:17.4} {:6.4} {:6.4} | {:18.4} {:6.4} {:6.4}",
            b.0, b.1, b.2, a.0, a.1, a.2
        );
    }
    assert!(
        blind_worst > 1.05,
        "the painted swamp never mattered: {blind_worst}"
    );
}

/// The smoothing methods' old failure, the example: on a swamp patch the planner
/// went round, the shortcut no longer cuts through it.
#[test]
fn shortcuts_go_round_the_swamp_the_planner_avoided() {
    let rows = [
        "..........",
        "..SSSSSS..",
        "..SSSSSS..",
        "..SSSSSS..",
        "..........",
    ];
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap())
        .unwrap()
        .with_area_costs("S=4".parse().unwrap())
        .unwrap();
    let (a, b) = (DVec2::new(0.5, 2.5), DVec2::new(9.5, 2.5));
    let mut p = Pipeline::new(&world, 0.0)
        .unwrap()
        .with_steps([Step::Shortcut, Step::chaikin()]);
    let out = p.plan(a, b).unwrap();
    let terrain = Terrain::new(&rows.map(String::from), 4.0);
    let planned = world.find_path(a, b, 0.0).unwrap();
    assert!(terrain.path(&out) <= terrain.path(&planned) * (1.0 + 1e-9));
    // Straight through would cost 3 + 6 · 4 = 27; round the swamp about 11.
    assert!(terrain.path(&out) < 12.0, "{}", terrain.path(&out));
    assert!(world.segment_cost(a, b) == 27.0);
}

/// With every cost 1 (swamp painted, default costs) the results are bit-identical to the
/// same map without areas.
#[test]
fn unit_costs_change_nothing() {
    let (map, scen) = common::load("dao/arena");
    let rows = painted(&map, 7);
    let plain: Vec<String> = rows.iter().map(|r| r.replace('S', ".")).collect();
    let with_areas = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let without = GridWorld::new(GridMap::from_rows(&plain).unwrap()).unwrap();
    assert!(!with_areas.has_area_costs());
    for s in common::sample(&scen, 20) {
        let (a, b) = (s.start_point(), s.goal_point());
        if in_water(&rows, a) || in_water(&rows, b) {
            continue;
        }
        for (method, steps) in methods() {
            let run = |w: &GridWorld| {
                Pipeline::new(w, 0.3)
                    .unwrap()
                    .with_steps(steps.clone())
                    .plan(a, b)
            };
            assert_eq!(run(&with_areas), run(&without), "{method} {s:?}");
        }
    }
}

/// Bad area costs and a filter that leaves nothing: clear errors.
#[test]
fn bad_filters_are_errors() {
    let map = GridMap::from_rows(&["..S", "..W"]).unwrap();
    let world = GridWorld::new(map.clone()).unwrap();
    for spec in ["S=0", "S=-2", "S=nan", "S=inf", "Q", "S=1e9"] {
        assert!(
            matches!(spec.parse::<AreaCosts>(), Err(Error::BadAreaCost { .. })),
            "{spec}"
        );
    }
    let no_ground: AreaCosts = ".=exclude,S=exclude".parse().unwrap();
    assert_eq!(
        world.with_area_costs(no_ground).unwrap_err(),
        Error::NoFreeSpace
    );
    let world = GridWorld::new(map)
        .unwrap()
        .with_area_costs("S=exclude".parse().unwrap())
        .unwrap();
    let e = world
        .find_path(DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5), 0.0)
        .unwrap_err();
    assert!(
        matches!(&e, Error::ExcludedArea { what: "goal", area, .. } if area == "S"),
        "{e}"
    );
    // Water opens with a cost: a swimming agent.
    let swim = GridWorld::new(GridMap::from_rows(&["..S", "..W"]).unwrap())
        .unwrap()
        .with_area_costs("W=2".parse().unwrap())
        .unwrap();
    assert!(swim
        .find_path(DVec2::new(0.5, 0.5), DVec2::new(2.5, 1.5), 0.0)
        .is_ok());
    // Every route excluded: the goal cannot be reached.
    let cut = GridWorld::new(GridMap::from_rows(&[".S."]).unwrap())
        .unwrap()
        .with_area_costs("S=exclude".parse().unwrap())
        .unwrap();
    let e = cut
        .find_path(DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5), 0.0)
        .unwrap_err();
    assert!(matches!(e, Error::Unreachable { .. }), "{e}");
}

/// Keep the route: on every DEV map, smoothing on `route_world(planned, 0)` keeps every
/// point of the output in a cell whose closed square the planner's path touches (an
/// independent clip of each planner segment against each cell's square), and the output
/// is valid on the full world too.
#[test]
fn keep_the_route_stays_in_the_planners_cells() {
    for (name, map, scen) in common::real_maps(&common::MAPS) {
        let world = common::world(&map);
        for s in common::sweep(&scen, 3, 10) {
            for radius in [0.0, 0.3] {
                let Ok(planned) = world.find_path(s.start_point(), s.goal_point(), radius) else {
                    continue;
                };
                let touched = touched_cells(&planned);
                let route = world.route_world(&planned, 0).unwrap();
                let mut p = Pipeline::preset(&route, radius, pathsmooth::Preset::Smooth).unwrap();
                let out = p
                    .smooth(&planned)
                    .unwrap_or_else(|e| panic!("{name} {s:?}: {e}"));
                assert!(pathsmooth::is_valid(&world, &out, radius), "{name} {s:?}");
                for w in out.windows(2) {
                    for k in 0..=20 {
                        let q = w[0].lerp(w[1], k as f64 / 20.0);
                        let inside = [-1e-9, 1e-9].iter().any(|dx| {
                            [-1e-9, 1e-9].iter().any(|dy| {
                                let c = ((q.x + dx).floor() as i64, (q.y + dy).floor() as i64);
                                touched.contains(&c)
                            })
                        });
                        assert!(inside, "{name} {s:?} r {radius}: {q:?} left the route");
                    }
                }
            }
        }
    }
}

/// The cells whose closed squares a polyline touches: each segment clipped against each
/// square of its bounding box (Liang–Barsky), written apart from the library's.
fn touched_cells(path: &[DVec2]) -> std::collections::HashSet<(i64, i64)> {
    let mut set = std::collections::HashSet::new();
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (lo, hi) = (a.min(b).floor(), a.max(b).floor());
        for x in (lo.x as i64 - 1)..=(hi.x as i64) {
            for y in (lo.y as i64 - 1)..=(hi.y as i64) {
                let (mut t0, mut t1) = (0.0f64, 1.0f64);
                let d = b - a;
                let mut ok = true;
                for (p, q) in [
                    (-d.x, a.x - x as f64),
                    (d.x, x as f64 + 1.0 - a.x),
                    (-d.y, a.y - y as f64),
                    (d.y, y as f64 + 1.0 - a.y),
                ] {
                    if p == 0.0 {
                        ok &= q >= 0.0;
                    } else if p < 0.0 {
                        t0 = t0.max(q / p);
                    } else {
                        t1 = t1.min(q / p);
                    }
                }
                if ok && t0 <= t1 {
                    set.insert((x, y));
                }
            }
        }
    }
    set
}
