//! The corridor map and corridor planning on the real DEV maps: corridors are chains of
//! overlapping disks inside free space, planned paths are valid by the grid validator
//! (DESIGN.md's rule) for r = 0 and r = 0.3, and their length is close to grid A*'s.

use crate::common;

use glam::{DVec2, IVec2};
use pathsmooth::corridor::{
    CorridorMap, CorridorParams, CorridorPath, CorridorSmoother, DiskCorridor, Place, SolverParams,
};
use pathsmooth::grid::astar_points;
use pathsmooth::grid::DistanceField;
use pathsmooth::grid::GridMap;
use pathsmooth::Error;
use pathsmooth::{validate, GridWorld, World};

/// Scenarios per map (debug-build time stays small).
const PER_MAP: usize = 6;

/// The chapter's method (the corridor map's own disks) with these solver parameters and
/// the default problem, from a fresh smoother.
fn on_medial_axis(
    world: &GridWorld,
    cmap: &CorridorMap,
    a: DVec2,
    b: DVec2,
    radius: f64,
    solver: &SolverParams,
) -> pathsmooth::Result<CorridorPath> {
    let params = CorridorParams {
        solver: *solver,
        ..Default::default()
    };
    CorridorSmoother::new().smooth_on_medial_axis(world, cmap, a, b, radius, &params)
}

/// Every disk inside free space shrunk by `radius`, consecutive disks overlapping, the
/// segments between consecutive centres clear of the walls by more than `radius`.
fn check_corridor(field: &DistanceField, c: &DiskCorridor, radius: f64, what: &str) {
    c.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
    for (k, (&p, &r)) in c.centers.iter().zip(&c.radii).enumerate() {
        let clearance = field.clearance(p);
        assert!(
            clearance - radius >= r - 1e-9,
            "{what}: disk {k} leaves free space"
        );
        if k > 0 {
            let q = c.centers[k - 1];
            assert!(q.distance(p) <= r + c.radii[k - 1], "{what}: gap at {k}");
            assert!(
                field.segment_clearance(q, p) > radius,
                "{what}: segment {k}"
            );
        }
    }
}

#[test]
fn corridor_paths_are_valid_and_short_on_every_dev_map() {
    for (name, map, scen) in common::real_maps(&common::MAPS) {
        let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
        let cmap = CorridorMap::build(&map);
        let mut smoother = CorridorSmoother::new();
        let mut planned = 0;
        for s in common::sample(&scen, PER_MAP) {
            let (a, b) = (s.start_point(), s.goal_point());
            let astar = astar_points(&map, a, b).expect("scenarios are solvable");
            for radius in [0.0, 0.3] {
                let what = format!("{name} {a} → {b}, r = {radius}");
                // Scenario endpoints are cell centres (clearance ≥ 0.5): always plannable.
                let plan = smoother
                    .smooth_on_medial_axis(&world, &cmap, a, b, radius, &CorridorParams::default())
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                planned += 1;
                check_corridor(cmap.field(), &plan.corridor, radius, &what);
                assert_eq!(plan.path.len(), plan.corridor.len(), "{what}");
                assert_eq!((plan.path[0], *plan.path.last().unwrap()), (a, b));
                let report = validate(&world, &plan.path, radius).unwrap();
                assert!(report.is_valid(), "{what}: {:?}", report.problem());
                // Waypoints in their safe disks, which lie inside the corridor's disks.
                for (k, &v) in plan.path.iter().enumerate() {
                    let (c, safe) = (plan.corridor.centers[k], plan.safe_radii[k]);
                    assert!(v.distance(c) <= safe + 1e-9, "{what}: waypoint {k}");
                    assert!(safe <= plan.corridor.radii[k] + 1e-12, "{what}: safe {k}");
                }
                assert!(plan.path.iter().all(|p| p.is_finite()));
                // Grid A* follows cell centres, the corridor path any angle: it may be
                // shorter; longer only by the medial axis' detours that the disks do not
                // let the optimiser undo (at worst 1.49× on 60 scenarios per map).
                assert!(
                    report.length <= 1.6 * astar.length + 5.0,
                    "{what}: length {} vs A* {}",
                    report.length,
                    astar.length
                );
                assert!(report.length >= a.distance(b) - 1e-9);
            }
        }
        assert!(planned >= 2 * PER_MAP - 2, "{name}: {planned} plans");
    }
}

/// The compact corridor map's route pulled taut (`CorridorSmoother::smooth_on_grid`): valid
/// on every DEV map for r = 0 and 0.3, and shorter in total than the chapter's method on the
/// same map (`smooth_on_medial_axis`, which optimises inside the medial axis' own disks), close to
/// the corridor step along grid A*'s route (measured: 0–1.8 % longer at the median).
#[test]
fn the_compact_maps_route_pulled_taut_is_valid_and_nearly_as_short_as_a_stars() {
    let options = CorridorParams::default();
    for (name, map, scen) in common::real_maps(&common::MAPS) {
        let world = pathsmooth::GridWorld::new(map).unwrap();
        let cmap = CorridorMap::build(world.map());
        let mut smoother = CorridorSmoother::new();
        for radius in [0.0, 0.3] {
            let (mut taut, mut chapter, mut along) = (0.0, 0.0, 0.0);
            for s in common::sample(&scen, PER_MAP) {
                let (a, b) = (s.start_point(), s.goal_point());
                let what = format!("{name} {a} → {b}, r = {radius}");
                let plan = smoother
                    .smooth_on_grid(&world, &cmap, a, b, radius, &options)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!((plan.path[0], *plan.path.last().unwrap()), (a, b));
                let report = validate(&world, &plan.path, radius).unwrap();
                assert!(report.is_valid(), "{what}: {:?}", report.problem());
                taut += report.length;
                let plan = smoother.smooth_on_medial_axis(&world, &cmap, a, b, radius, &options);
                chapter += pathsmooth::metrics::length(&plan.unwrap().path);
                let route = world.find_path(a, b, radius).unwrap();
                let plan = smoother.smooth_along(&world, &route, radius, &options);
                along += pathsmooth::metrics::length(&plan.unwrap().path);
            }
            let what = format!("{name}, r = {radius}");
            assert!(taut <= chapter + 1e-9, "{what}: {taut} vs {chapter}");
            assert!(taut <= 1.05 * along, "{what}: {taut} vs {along}");
        }
    }
}

/// A*'s move rule between two cells (DESIGN.md: a diagonal step needs both side cells free).
fn grid_move(map: &GridMap, a: IVec2, b: IVec2) -> bool {
    let d = b - a;
    let free = |c: IVec2| map.passable_cell(c);
    d != IVec2::ZERO
        && d.abs().max_element() == 1
        && free(a)
        && free(b)
        && (d.x == 0 || d.y == 0 || (free(a + IVec2::new(d.x, 0)) && free(a + IVec2::new(0, d.y))))
}

/// Number of connected components of `n` nodes joined by `links` (union-find).
fn components(n: usize, links: impl IntoIterator<Item = (usize, usize)>) -> usize {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut a: usize) -> usize {
        while p[a] != a {
            p[a] = p[p[a]];
            a = p[a];
        }
        a
    }
    let mut count = n;
    for (a, b) in links {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra] = rb;
            count -= 1;
        }
    }
    count
}

/// The free regions of the map (cells joined by grid A* moves).
fn free_regions(map: &GridMap) -> usize {
    let (w, h) = (map.width() as i32, map.height() as i32);
    let index = |c: IVec2| (c.y * w + c.x) as usize;
    let cells = (0..h).flat_map(|y| (0..w).map(move |x| IVec2::new(x, y)));
    let free: Vec<IVec2> = cells.filter(|&c| map.passable_cell(c)).collect();
    let blocked = w as usize * h as usize - free.len();
    let links = free.iter().flat_map(|&c| {
        [
            IVec2::new(1, 0),
            IVec2::new(-1, 1),
            IVec2::new(0, 1),
            IVec2::new(1, 1),
        ]
        .into_iter()
        .filter(move |&d| grid_move(map, c, c + d))
        .map(move |d| (index(c), index(c + d)))
    });
    // Blocked cells are components of their own in the count: subtract them.
    components(w as usize * h as usize, links) - blocked
}

/// Number of 2×2 blocks of skeleton cells.
fn two_by_two_blocks(map: &GridMap, cmap: &CorridorMap) -> usize {
    let on = |x: i32, y: i32| cmap.place(IVec2::new(x, y)).is_some();
    let (w, h) = (map.width() as i32, map.height() as i32);
    (0..h - 1)
        .flat_map(|y| (0..w - 1).map(move |x| (x, y)))
        .filter(|&(x, y)| on(x, y) && on(x + 1, y) && on(x, y + 1) && on(x + 1, y + 1))
        .count()
}

/// The compact graph's structure: vertices are skeleton cells with their exact clearance
/// disks; each edge is a chain of grid moves between its end vertices whose interior cells
/// have exactly two skeleton neighbours; the skeleton has one component per free region of
/// the map.
fn check_compact_graph(map: &GridMap, cmap: &CorridorMap, what: &str) {
    let on = |c: IVec2| cmap.place(c).is_some();
    let mut interior = 0;
    for i in 0..cmap.vertex_count() {
        let (c, r) = cmap.vertex(i);
        let cell = GridMap::cell_at(c).unwrap();
        assert_eq!(cmap.place(cell), Some(Place::Vertex(i)), "{what}");
        assert!(map.passable_cell(cell));
        assert_eq!(r, cmap.field().clearance(c), "{what}: vertex {i}");
        for (j, e) in cmap.neighbors(i) {
            let ends = cmap.edge(e).ends;
            assert!(ends == [i, j] || ends == [j, i], "{what}: edge {e} at {i}");
            assert!(
                cmap.neighbors(j).any(|n| n == (i, e)),
                "{what}: edge {e} at {j}"
            );
        }
    }
    for e in 0..cmap.edge_count() {
        let edge = cmap.edge(e);
        let cells = edge.cells;
        let vertex_cell = |v: usize| GridMap::cell_at(cmap.vertex(v).0).unwrap();
        assert_eq!(cells[0], vertex_cell(edge.ends[0]), "{what}: edge {e}");
        assert_eq!(
            cells[cells.len() - 1],
            vertex_cell(edge.ends[1]),
            "{what}: edge {e}"
        );
        let (mut length, mut clearance) = (0.0, f64::INFINITY);
        for (k, pair) in cells.windows(2).enumerate() {
            assert!(
                grid_move(map, pair[0], pair[1]),
                "{what}: edge {e} step {k}"
            );
            let (a, b) = (GridMap::cell_center(pair[0]), GridMap::cell_center(pair[1]));
            length += a.distance(b);
            clearance = f64::min(clearance, cmap.field().segment_clearance(a, b));
            // Neighbouring disks overlap, or (a diagonal step in a narrow passage) the disk
            // at the midpoint, which the corridor then inserts, overlaps both.
            let (ra, rb) = (cmap.field().clearance(a), cmap.field().clearance(b));
            let l = a.distance(b);
            assert!(l <= ra + rb || cmap.field().clearance(a.lerp(b, 0.5)) >= l / 2.0);
        }
        assert!(
            (edge.length - length).abs() < 1e-9,
            "{what}: edge {e} length"
        );
        assert_eq!(edge.clearance, clearance, "{what}: edge {e} clearance");
        assert!(edge.clearance >= 0.5 - 1e-12);
        for (k, &c) in cells.iter().enumerate().take(cells.len() - 1).skip(1) {
            interior += 1;
            assert_eq!(
                cmap.place(c),
                Some(Place::Edge { edge: e, index: k }),
                "{what}"
            );
            let degree = (-1..=1)
                .flat_map(|dy| (-1..=1).map(move |dx| IVec2::new(dx, dy)))
                .filter(|&d| on(c + d) && grid_move(map, c, c + d))
                .count();
            assert_eq!(degree, 2, "{what}: edge {e}, interior cell {c}");
        }
    }
    assert_eq!(
        cmap.skeleton_len(),
        cmap.vertex_count() + interior,
        "{what}"
    );
    // Thinning kept every free region, and no more: one graph component each.
    let links = (0..cmap.edge_count()).map(|e| (cmap.edge(e).ends[0], cmap.edge(e).ends[1]));
    assert_eq!(
        components(cmap.vertex_count(), links),
        free_regions(map),
        "{what}"
    );
}

#[test]
fn the_graph_is_a_compact_medial_graph_of_exact_clearance_disks() {
    // Measured (vertices / free cells): arena 59 / 2054, den312d 178 / 2445, AR0011SR
    // 2167 / 120458, Berlin_0_256 1131 / 48147; asserted with a margin of about 2.
    let ratios = [
        ("dao/arena", 15),
        ("dao/den312d", 6),
        ("bg512/AR0011SR", 25),
        ("cities/Berlin_0_256", 20),
    ];
    let names = ratios.map(|(name, _)| name);
    let maps = common::real_maps(&names);
    for ((name, map, _), (_, ratio)) in maps.zip(ratios) {
        let cmap = CorridorMap::build(&map);
        check_compact_graph(&map, &cmap, name);
        // One cell wide: 2×2 blocks of skeleton cells only at junctions where the move rule
        // (no corner cutting) needs all four cells (the thinning's unit tests check that no
        // cell of a block is removable); rare (measured: none on arena, den312d and Berlin,
        // 4 among AR0011SR's 14114 skeleton cells).
        let blocks = two_by_two_blocks(&map, &cmap);
        println!(
            "{name}: {} skeleton cells, {blocks} 2x2 blocks",
            cmap.skeleton_len()
        );
        assert!(
            blocks * 50 <= cmap.skeleton_len(),
            "{name}: {blocks} 2x2 blocks"
        );
        assert!(cmap.vertex_count() > 0, "{name}");
        assert!(
            cmap.vertex_count() * ratio < map.passable_count(),
            "{name}: {} vertices for {} free cells",
            cmap.vertex_count(),
            map.passable_count()
        );
        assert!(cmap.skeleton_len() * 4 < map.passable_count(), "{name}");
    }
}

#[test]
fn a_fresh_smoother_matches_a_reused_one() {
    let (map, scen) = common::load("dao/den312d");
    let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
    let cmap = CorridorMap::build(&map);
    let s = &common::sample(&scen, 3)[2];
    let (a, b) = (s.start_point(), s.goal_point());
    let params = CorridorParams::default();
    let one = on_medial_axis(&world, &cmap, a, b, 0.0, &params.solver).unwrap();
    let mut smoother = CorridorSmoother::new();
    // Buffers grown on another query first.
    smoother
        .smooth_on_medial_axis(&world, &cmap, b, a, 0.3, &params)
        .unwrap();
    let two = smoother
        .smooth_on_medial_axis(&world, &cmap, a, b, 0.0, &params)
        .unwrap();
    assert_eq!(one, two);
    assert!(validate(&world, &one.path, 0.0).unwrap().is_valid());
}

#[test]
fn few_iterations_still_give_a_valid_path() {
    // Validity comes from the safe disks, not from convergence: stop after 3 iterations.
    let (map, scen) = common::load("bg512/AR0011SR");
    let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
    let cmap = CorridorMap::build(&map);
    let options = SolverParams::chapter(3, 1.0, 1.0);
    for s in common::sample(&scen, 4) {
        let (a, b) = (s.start_point(), s.goal_point());
        let plan = on_medial_axis(&world, &cmap, a, b, 0.3, &options).unwrap();
        assert_eq!(plan.report.iterations, 3);
        assert!(validate(&world, &plan.path, 0.3).unwrap().is_valid());
    }
}

#[test]
fn facing_directions_are_kept_and_the_path_stays_valid() {
    let (map, scen) = common::load("dao/arena");
    let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
    let cmap = CorridorMap::build(&map);
    let s = &common::sample(&scen, 5)[3];
    let (a, b) = (s.start_point(), s.goal_point());
    let options = CorridorParams {
        start_dir: Some(DVec2::new(0.0, 1.0)),
        goal_dir: Some(DVec2::new(-1.0, 0.0)),
        ..Default::default()
    };
    let plan = CorridorSmoother::new()
        .smooth_on_medial_axis(&world, &cmap, a, b, 0.0, &options)
        .unwrap();
    assert_eq!(plan.corridor.start_dir, options.start_dir);
    assert_eq!(plan.corridor.goal_dir, options.goal_dir);
    assert_eq!((plan.path[0], *plan.path.last().unwrap()), (a, b));
    assert!(validate(&world, &plan.path, 0.0).unwrap().is_valid());
}

#[test]
fn every_reachable_goal_is_reachable_in_the_corridor_map() {
    // Grid A* and the corridor map agree on reachability (free regions of a maze-like
    // random map, including pockets).
    let map = GridMap::from_fn(60, 40, |x, y| {
        let h = (x * 7919 + y * 104_729 + x * y * 31) % 100;
        h >= 30 || (x % 9 == 0 && y % 7 == 0)
    });
    let cmap = CorridorMap::build(&map);
    check_compact_graph(&map, &cmap, "maze-like");
    let start = GridMap::cell_center(IVec2::new(0, 0));
    let mut agree = 0;
    for y in (0..40).step_by(3) {
        for x in (0..60).step_by(4) {
            let g = GridMap::cell_center(IVec2::new(x, y));
            if !map.is_passable(0, 0) || !map.is_passable(x as i64, y as i64) {
                continue;
            }
            let grid = astar_points(&map, start, g).is_ok();
            let corridor = cmap.corridor(start, g, 0.0);
            assert_eq!(grid, corridor.is_ok(), "goal {g}: {corridor:?}");
            if let Ok(c) = corridor {
                check_corridor(cmap.field(), &c, 0.0, "random map");
            }
            agree += 1;
        }
    }
    assert!(agree > 50);
}

#[test]
fn bad_input_gets_a_clear_error() {
    let (map, _) = common::load("dao/arena");
    let world = common::world(&map);
    let cmap = CorridorMap::build(&map);
    let ok = SolverParams::default();
    let free = DVec2::new(24.5, 24.5);
    assert!(map.is_passable(24, 24));
    let blocked = (0..map.width() as i32)
        .map(|x| IVec2::new(x, 0))
        .find(|c| !map.passable_cell(*c))
        .map(GridMap::cell_center)
        .unwrap();
    let cases: Vec<(DVec2, DVec2, f64)> = vec![
        (DVec2::new(-3.0, 5.0), free, 0.0),
        (free, DVec2::new(1e6, 5.0), 0.0),
        (blocked, free, 0.0),
        (free, blocked, 0.0),
    ];
    for (a, b, r) in cases {
        let e = on_medial_axis(&world, &cmap, a, b, r, &ok).unwrap_err();
        assert!(
            matches!(e, Error::OutsideMap { .. } | Error::Blocked { .. }),
            "{a} → {b}: {e:?}"
        );
    }
    // A non-finite end is refused as every map-aware input is (the start is point 0).
    assert_eq!(
        on_medial_axis(&world, &cmap, DVec2::new(f64::NAN, 2.0), free, 0.0, &ok).unwrap_err(),
        Error::NonFinite { index: 0 }
    );
    for r in [-0.1, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            on_medial_axis(&world, &cmap, free, free, r, &ok),
            Err(Error::BadParameter { name: "radius", .. })
        ));
    }
    // Too big an agent for the start's clearance.
    let c = cmap.field().clearance(free);
    assert!(matches!(
        on_medial_axis(&world, &cmap, free, free, c + 0.1, &ok),
        Err(Error::Blocked { what: "start", .. })
    ));
    // Bad solver options.
    let bad = SolverParams {
        alpha: 3.0,
        ..Default::default()
    };
    assert!(matches!(
        on_medial_axis(&world, &cmap, free, free, 0.0, &bad),
        Err(Error::BadParameter { name: "alpha", .. })
    ));
}

#[test]
fn unreachable_goals_and_wide_agents_are_refused() {
    let map = GridMap::from_rows(&[
        "..........@.....",
        "..........@.....",
        "..........@.....",
        "...@@@@@@@@.....",
        "................",
    ])
    .unwrap();
    let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
    let cmap = CorridorMap::build(&map);
    let (a, b) = (DVec2::new(1.5, 1.5), DVec2::new(14.5, 1.5));
    // The way round goes through a one-cell-high passage: fine for r = 0…
    let plan = on_medial_axis(&world, &cmap, a, b, 0.0, &SolverParams::default()).unwrap();
    assert!(validate(&world, &plan.path, 0.0).unwrap().is_valid());
    // …but not for an agent of radius 0.5 (clearance at most 0.5 there).
    assert!(matches!(
        on_medial_axis(&world, &cmap, a, b, 0.5, &SolverParams::default()),
        Err(Error::Unreachable { .. })
    ));
    let walled = GridMap::from_rows(&["...@...", "...@...", "...@..."]).unwrap();
    let cmap = CorridorMap::build(&walled);
    assert!(matches!(
        cmap.corridor(DVec2::new(0.5, 1.5), DVec2::new(6.5, 1.5), 0.0),
        Err(Error::Unreachable { .. })
    ));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// A random map (0–35 % blocked) with a start and a goal cell, both free.
    fn scene() -> impl Strategy<Value = (GridMap, IVec2, IVec2)> {
        common::grids::arb_scene(8..=23, 6..=15, 0.0..0.35)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// On random maps: the corridor map reaches exactly what grid A* reaches (r = 0,
        /// cell-centre endpoints), its corridors are overlapping disks in free space, and
        /// the planned path is valid for r = 0 and, when planned, r = 0.3.
        #[test]
        fn corridor_plans_are_valid_on_random_maps((map, s, g) in scene()) {
            let cmap = CorridorMap::build(&map);
            check_compact_graph(&map, &cmap, "random");
            let world = common::world(&map);
            let (a, b) = (GridMap::cell_center(s), GridMap::cell_center(g));
            let reachable = astar_points(&map, a, b).is_ok();
            let plan = on_medial_axis(&world, &cmap, a, b, 0.0, &SolverParams::default());
            prop_assert_eq!(reachable, plan.is_ok(), "{:?}", plan);
            if let Ok(plan) = plan {
                check_corridor(cmap.field(), &plan.corridor, 0.0, "random");
                let report = validate(&world, &plan.path, 0.0).unwrap();
                prop_assert!(report.is_valid(), "{:?}", report.problem());
                prop_assert!(plan.path.iter().all(|p| p.is_finite()));
            }
            match on_medial_axis(&world, &cmap, a, b, 0.3, &SolverParams::default()) {
                Ok(plan) => {
                    check_corridor(cmap.field(), &plan.corridor, 0.3, "random r = 0.3");
                    let report = validate(&world, &plan.path, 0.3).unwrap();
                    prop_assert!(report.is_valid(), "{:?}", report.problem());
                }
                Err(e) => prop_assert!(matches!(e, Error::Unreachable { .. }), "{e:?}"),
            }
        }

        /// Arbitrary points of free cells (near walls and corners too): a valid path, or
        /// a clear error (too close to a wall, or unreachable), never a panic.
        #[test]
        fn any_free_point_gets_a_valid_path_or_a_clear_error(
            (map, s, g) in scene(),
            fs in (0.0f64..1.0, 0.0f64..1.0),
            fg in (0.0f64..1.0, 0.0f64..1.0),
            radius in prop_oneof![Just(0.0), 0.0f64..0.6],
        ) {
            let cmap = CorridorMap::build(&map);
            let a = s.as_dvec2() + DVec2::new(fs.0, fs.1);
            let b = g.as_dvec2() + DVec2::new(fg.0, fg.1);
            let world = common::world(&map);
            match on_medial_axis(&world, &cmap, a, b, radius, &SolverParams::default()) {
                Ok(plan) => {
                    check_corridor(cmap.field(), &plan.corridor, radius, "random points");
                    let report = validate(&world, &plan.path, radius).unwrap();
                    prop_assert!(report.is_valid(), "{:?}", report.problem());
                    prop_assert_eq!((plan.path[0], *plan.path.last().unwrap()), (a, b));
                }
                Err(e) => prop_assert!(
                    matches!(e, Error::Unreachable { .. } | Error::Blocked { .. }),
                    "{e:?}"
                ),
            }
        }
    }
}
