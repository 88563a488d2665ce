//! Portal relaxation with an agent radius on every Moving AI map (issue 28, item 5): at
//! radius 0.3, on every 10th scenario of each map, the pipeline's relax step (alone, after
//! the grid A* plan) is never skipped for an invalid result, and its length's median is
//! within 2 % of the funnel's at the same radius. And one small map where start and goal
//! share a triangle (the step's fix has no portal to wrap).
//!
//! Every 10th scenario with `PATHSMOOTH_SLOW` or `PATHSMOOTH_FULL` (about 80 s in the
//! test profile, most of it the long paths of the 512² maze); otherwise at most 120 of
//! those per map, spread over the file.

use crate::common;

use std::time::Instant;

use glam::DVec2;
use pathsmooth::metrics::length;
use pathsmooth::{GridMap, GridWorld, Pipeline, Step, World};

const RADIUS: f64 = 0.3;

#[test]
fn relax_at_radius_is_valid_not_skipped_and_near_the_funnel() {
    let maps = common::real_maps(&common::MAPS);
    let t0 = Instant::now();
    let (mut runs, mut unchanged, mut no_room) = (0usize, 0usize, 0usize);
    let mut ratios: Vec<f64> = Vec::new();
    let mut astar_ratios: Vec<f64> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for (name, map, scen) in maps {
        let world = GridWorld::new(map).unwrap();
        let mut relax = Pipeline::new(&world, RADIUS).unwrap().then(Step::relax());
        let mut funnel = Pipeline::new(&world, RADIUS).unwrap().then(Step::Funnel);
        let mut astar = Pipeline::new(&world, RADIUS).unwrap();
        let (mut map_runs, mut map_unchanged) = (0usize, 0usize);
        let every_tenth: Vec<_> = scen.iter().step_by(10).cloned().collect();
        let scenarios = if common::slow() || common::full() {
            every_tenth
        } else {
            common::sample(&every_tenth, 120)
        };
        for s in &scenarios {
            let (start, goal) = (s.start_point(), s.goal_point());
            if start == goal {
                continue;
            }
            // The grid A* path at the radius, then each step on it.
            let a = match astar.plan(start, goal) {
                Ok(p) => p,
                // With a radius, a scenario may have no route with room for the agent.
                Err(
                    pathsmooth::Error::Unreachable { .. }
                    | pathsmooth::Error::TooNarrow { .. }
                    | pathsmooth::Error::TooClose { .. },
                ) => {
                    no_room += 1;
                    continue;
                }
                Err(e) => panic!("{name} {s:?}: {e}"),
            };
            let path = relax.smooth(&a).unwrap();
            runs += 1;
            map_runs += 1;
            for (step, reason) in &relax.report().skipped {
                if reason.starts_with("changed nothing") {
                    unchanged += 1;
                    map_unchanged += 1;
                } else {
                    failures.push(format!("{name} {s:?}: {step} skipped: {reason}"));
                }
            }
            let f = funnel.smooth(&a).unwrap();
            let (lr, lf, la) = (length(&path), length(&f), length(&a));
            ratios.push(lr / lf - 1.0);
            astar_ratios.push(la / lf - 1.0);
        }
        println!(
            "{name}: {map_runs} runs, {map_unchanged} unchanged, {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let n = ratios.len();
    let med = median(&mut ratios);
    let p90 = ratios[n * 9 / 10];
    let med_astar = median(&mut astar_ratios);
    println!(
        "relax r={RADIUS}: {runs} runs ({no_room} without room), {} skipped as invalid, \
         {unchanged} unchanged; relax/funnel − 1: median {:.3} %, p90 {:.3} %, max {:.3} %; \
         A*/funnel − 1 median {:.3} %; {:.1} s",
        failures.len(),
        100.0 * med,
        100.0 * p90,
        100.0 * ratios[n - 1],
        100.0 * med_astar,
        t0.elapsed().as_secs_f64()
    );
    for f in failures.iter().take(10) {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} relax steps skipped as invalid",
        failures.len()
    );
    assert!(med <= 0.02, "median relax/funnel − 1 = {med}");
}

/// Start and goal in one triangle of the navmesh (no portals between them) with the
/// straight segment closer than the radius to a block's corner: the relax step's fix has
/// no portal to wrap, and takes the world's path at the radius instead. Its range of
/// portals once came from `0 − 1` here (a panic on overflow); found by planning every
/// pair of cells on small random maps.
#[test]
fn relax_at_radius_between_two_points_of_one_triangle() {
    let rows = [
        ".........",
        ".........",
        ".........",
        ".........",
        ".@.......",
        ".........",
        ".........",
        ".........",
        "..@......",
        ".........",
        ".........",
        ".........",
    ];
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let radius = 0.45;
    let (start, goal) = (DVec2::new(2.8, 4.5), DVec2::new(2.2, 5.5));
    // The straight segment comes within the radius of the block at (1, 4).
    assert!(!world.segment_is_clear(start, goal, radius));
    let mut relax = Pipeline::new(&world, radius).unwrap().then(Step::relax());
    let path = relax.plan(start, goal).unwrap();
    assert_eq!((path[0], path[path.len() - 1]), (start, goal));
    assert!(path.len() > 2, "{path:?}");
    let report = relax.validate(&path).unwrap();
    assert!(
        report.is_valid() && report.min_clearance >= radius,
        "{report:?}"
    );
    // Not skipped for an invalid result (the world's path at the radius is A*'s, the step's
    // input, so the step reports that it changed nothing).
    let skipped = &relax.report().skipped;
    assert!(
        skipped
            .iter()
            .all(|(_, why)| why.starts_with("changed nothing")),
        "{skipped:?}"
    );
}
