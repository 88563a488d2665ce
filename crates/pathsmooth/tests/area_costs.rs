//! Area costs on real maps (issue 28): every Moving AI DEV map with swamp (`S`, cost 4)
//! and water (`W`, excluded as the format defines it) painted by a seeded generator; at
//! radius 0 and 0.3, every method's output costs no more than the planner's path, as
//! measured by an exact cost integral written here (length inside each cell × its cost,
//! sharing no code with the library); nothing enters water; grid A*'s cost equals an
//! independent 8-connected Dijkstra's optimum; with every cost 1 the results are those
//! of the map without areas, bit for bit.

mod common;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{DVec2, IVec2};
use pathsmooth::area::AreaCosts;
use pathsmooth::grid::{GridMap, Scenario};
use pathsmooth::{Error, GridWorld, Pipeline, Step, World};

use common::rng::Rng;

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

/// The map's rows with swamp and water blobs (discs of radius 2–12 cells, about 12 % of
/// the area each) painted over its free cells, from `seed`.
fn painted(map: &GridMap, seed: u64) -> Vec<String> {
    let (w, h) = (map.width(), map.height());
    let mut cells: Vec<Vec<u8>> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if map.is_passable(x as i64, y as i64) {
                        b'.'
                    } else {
                        b'@'
                    }
                })
                .collect()
        })
        .collect();
    let mut rng = Rng::new(seed);
    for (letter, share) in [(b'S', 0.12), (b'W', 0.04)] {
        let mut painted = 0.0;
        while painted < share * (w * h) as f64 {
            let c = DVec2::new(rng.range(0.0, w as f64), rng.range(0.0, h as f64));
            let r = rng.range(2.0, 12.0);
            let (x0, x1) = ((c.x - r).max(0.0) as usize, ((c.x + r) as usize).min(w - 1));
            let (y0, y1) = ((c.y - r).max(0.0) as usize, ((c.y + r) as usize).min(h - 1));
            for (y, row) in cells.iter_mut().enumerate().take(y1 + 1).skip(y0) {
                for (x, cell) in row.iter_mut().enumerate().take(x1 + 1).skip(x0) {
                    let centre = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                    if centre.distance(c) <= r && *cell == b'.' {
                        *cell = letter;
                    }
                }
            }
            painted += std::f64::consts::PI * r * r;
        }
    }
    cells
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect()
}

/// The oracle's terrain: per cell, the multiplier (infinite for walls and water).
struct Terrain {
    w: i64,
    h: i64,
    cost: Vec<f64>,
}

impl Terrain {
    fn new(rows: &[String], swamp: f64) -> Self {
        let cost = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|c| match c {
                b'.' => 1.0,
                b'S' => swamp,
                _ => f64::INFINITY,
            })
            .collect();
        Terrain {
            w: rows[0].len() as i64,
            h: rows.len() as i64,
            cost,
        }
    }

    fn at(&self, x: i64, y: i64) -> f64 {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            f64::INFINITY
        } else {
            self.cost[(y * self.w + x) as usize]
        }
    }

    /// The exact cost integral of the segment a–b: every parameter where it crosses a
    /// grid line, sorted; each piece between two consecutive ones lies in one cell (its
    /// midpoint's), or along a grid line between two cells, where it costs the cheaper.
    fn segment(&self, a: DVec2, b: DVec2) -> f64 {
        let d = b - a;
        let mut ts = vec![0.0, 1.0];
        for (s0, ds) in [(a.x, d.x), (a.y, d.y)] {
            if ds != 0.0 {
                let (lo, hi) = (
                    s0.min(s0 + ds).ceil() as i64,
                    s0.max(s0 + ds).floor() as i64,
                );
                ts.extend(
                    (lo..=hi)
                        .map(|k| (k as f64 - s0) / ds)
                        .filter(|t| (0.0..=1.0).contains(t)),
                );
            }
        }
        ts.sort_by(f64::total_cmp);
        let len = d.length();
        ts.windows(2)
            .filter(|t| t[1] > t[0])
            .map(|t| {
                let m = a + d * (0.5 * (t[0] + t[1]));
                let (x, y) = (m.x.floor() as i64, m.y.floor() as i64);
                let c = if d.x == 0.0 && m.x == m.x.floor() {
                    self.at(x - 1, y).min(self.at(x, y))
                } else if d.y == 0.0 && m.y == m.y.floor() {
                    self.at(x, y - 1).min(self.at(x, y))
                } else {
                    self.at(x, y)
                };
                (t[1] - t[0]) * len * c
            })
            .sum()
    }

    fn path(&self, p: &[DVec2]) -> f64 {
        p.windows(2).map(|s| self.segment(s[0], s[1])).sum()
    }

    /// The cheapest 8-connected cell path's cost (Dijkstra; a diagonal step needs both
    /// cells beside it free; a step costs its length × the mean of its cells' costs).
    fn dijkstra(&self, s: IVec2, g: IVec2) -> f64 {
        let idx = |x: i64, y: i64| (y * self.w + x) as usize;
        let mut dist = vec![f64::INFINITY; (self.w * self.h) as usize];
        let mut heap = BinaryHeap::new();
        dist[idx(s.x as i64, s.y as i64)] = 0.0;
        heap.push((Reverse(Key(0.0)), s.x as i64, s.y as i64));
        while let Some((Reverse(Key(d)), x, y)) = heap.pop() {
            if (x, y) == (g.x as i64, g.y as i64) {
                return d;
            }
            if d > dist[idx(x, y)] {
                continue;
            }
            for dx in -1..=1i64 {
                for dy in -1..=1i64 {
                    let (nx, ny) = (x + dx, y + dy);
                    if (dx, dy) == (0, 0) || !self.at(nx, ny).is_finite() {
                        continue;
                    }
                    let diagonal = dx != 0 && dy != 0;
                    if diagonal && !(self.at(nx, y).is_finite() && self.at(x, ny).is_finite()) {
                        continue;
                    }
                    let len = if diagonal { 2f64.sqrt() } else { 1.0 };
                    let nd = d + len * 0.5 * (self.at(x, y) + self.at(nx, ny));
                    if nd < dist[idx(nx, ny)] {
                        dist[idx(nx, ny)] = nd;
                        heap.push((Reverse(Key(nd)), nx, ny));
                    }
                }
            }
        }
        f64::INFINITY
    }
}

/// f64 ordered by `total_cmp`, for the heap.
#[derive(PartialEq, Clone, Copy)]
struct Key(f64);
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

fn in_water(rows: &[String], p: DVec2) -> bool {
    rows[p.y as usize].as_bytes()[p.x as usize] == b'W'
}

/// Every DEV map, swamp at cost 4, water excluded: the properties of the module docs.
#[test]
fn no_method_raises_the_planners_cost_on_real_maps() {
    let Some(maps) = common::real_maps(&common::MAPS) else {
        return;
    };
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
    let Some((map, scen)) = common::try_load("dao/arena") else {
        return;
    };
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
